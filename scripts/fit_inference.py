"""Fit the opponent-hand inference weights (:data:`analyzer.gin.inference.WEIGHTS`).

Plays hands between seat 0 and each opponent of a panel, stops each at a random point
before seat 0's draw (:func:`analyzer.gin.calibration.inference_snapshots`), and finds
the weights maximising the Bernoulli likelihood of the truth under the model
``p = min(1, k * exp(s) / sum exp(s))`` per snapshot (one pass, no water-filling; the
kernel's water-filling only matters when a share passes 1).  Prints the weights to
paste into ``inference.py`` and the log-likelihood per card against the uniform model.

    python scripts/fit_inference.py --hands 20000 --seed 7
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from analyzer.gin.calibration import inference_snapshots
from analyzer.gin.inference import WEIGHTS, Feature
from analyzer.gin.policies import parse_policy
from analyzer.gin.rules import STANDARD


def log_likelihood(weights: np.ndarray, features: np.ndarray, held: np.ndarray,
                   hidden: np.ndarray, starts: np.ndarray) -> float:
    """Mean log-likelihood per card of the truth under ``weights``."""
    weight = np.exp(features @ weights)
    totals = np.add.reduceat(weight, starts)
    sizes = np.diff(np.append(starts, len(weight)))
    p = np.clip(np.repeat(hidden[starts] / totals, sizes) * weight, 1e-9, 1 - 1e-9)
    return float(np.mean(held * np.log(p) + (1 - held) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per opponent")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--observer", default="basic")
    parser.add_argument("--panel", default="basic;expert;safe-discard;simple",
                        help="opponents, ';'-separated policy strings")
    args = parser.parse_args()
    observer = parse_policy(args.observer)
    frames = []
    for index, text in enumerate(args.panel.split(";")):
        frame = inference_snapshots(STANDARD, observer, parse_policy(text), args.hands,
                                    args.seed + index)
        frame["hand"] += index * args.hands
        frames.append(frame)
    data = pd.concat(frames, ignore_index=True)
    names = [f.name.lower() for f in Feature]
    features = data[names].to_numpy()
    held = data["held"].to_numpy(dtype=np.float64)
    hidden = data["hidden"].to_numpy(dtype=np.float64)
    starts = np.flatnonzero(np.diff(np.append(-1, data["hand"].to_numpy())))
    fit = minimize(lambda w: -log_likelihood(w, features, held, hidden, starts),
                   WEIGHTS.copy(), method="L-BFGS-B")
    uniform = log_likelihood(np.zeros(len(names)), features, held, hidden, starts)
    current = log_likelihood(WEIGHTS, features, held, hidden, starts)
    print(f"cards {len(data):,}, snapshots {len(starts):,}")
    print(f"log-likelihood per card: uniform {uniform:.5f}, current {current:.5f}, "
          f"fitted {-fit.fun:.5f}")
    print("WEIGHTS = np.array([" + ", ".join(f"{w:.3f}" for w in fit.x) + "])")
    for name, value in zip(names, fit.x, strict=True):
        print(f"  {name:14s} {value:+.3f}")


if __name__ == "__main__":
    main()
