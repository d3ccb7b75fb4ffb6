"""Fit the opponent-hand inference weights (:data:`analyzer.gin.decisions.inference.WEIGHTS`).

Plays hands between seat 0 and each opponent of a panel, stops each at a random point
before seat 0's draw (:func:`analyzer.gin.studies.calibration.inference_snapshots`), and finds
the weights maximising the Bernoulli likelihood of the truth under the model
``p = min(1, k * exp(s) / sum exp(s))`` per snapshot (one pass, no water-filling; the
kernel's water-filling only matters when a share passes 1), then the recalibration curve
(bin by raw probability; fixed-point fit so that after the per-snapshot rescaling each
bin's mean prediction equals its observed frequency).  Prints the weights and the curve
to paste into ``inference.py``, and the log-likelihood per card against the uniform model.

    python scripts/fit_inference.py --hands 20000 --seed 7
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from analyzer.gin.decisions.inference import WEIGHTS, Feature
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.studies.calibration import inference_snapshots


def log_likelihood(
    weights: np.ndarray,
    features: np.ndarray,
    held: np.ndarray,
    hidden: np.ndarray,
    starts: np.ndarray,
) -> float:
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
    parser.add_argument(
        "--panel", default="basic;expert", help="opponents, ';'-separated policy strings"
    )
    args = parser.parse_args()
    observer = parse_policy(args.observer)
    frames = []
    for index, text in enumerate(args.panel.split(";")):
        frame = inference_snapshots(
            STANDARD, observer, parse_policy(text), args.hands, args.seed + index
        )
        frame["hand"] += index * args.hands
        frames.append(frame)
    data = pd.concat(frames, ignore_index=True)
    names = [f.name.lower() for f in Feature]
    features = data[names].to_numpy()
    held = data["held"].to_numpy(dtype=np.float64)
    hidden = data["hidden"].to_numpy(dtype=np.float64)
    starts = np.flatnonzero(np.diff(np.append(-1, data["hand"].to_numpy())))
    fit = minimize(
        lambda w: -log_likelihood(w, features, held, hidden, starts),
        WEIGHTS.copy(),
        method="L-BFGS-B",
    )
    uniform = log_likelihood(np.zeros(len(names)), features, held, hidden, starts)
    current = log_likelihood(WEIGHTS, features, held, hidden, starts)
    print(f"cards {len(data):,}, snapshots {len(starts):,}")
    print(
        f"log-likelihood per card: uniform {uniform:.5f}, current {current:.5f}, "
        f"fitted {-fit.fun:.5f}"
    )
    print("WEIGHTS = np.array([" + ", ".join(f"{w:.3f}" for w in fit.x) + "])")
    for name, value in zip(names, fit.x, strict=True):
        print(f"  {name:14s} {value:+.3f}")
    knots, values = fit_calibration(shares(fit.x, features, hidden, starts), held, hidden, starts)
    print("CALIBRATION_X = np.array([" + ", ".join(f"{x:.4f}" for x in knots) + "])")
    print("CALIBRATION_Y = np.array([" + ", ".join(f"{y:.4f}" for y in values) + "])")


#: Edges of the bins of raw probability the recalibration curve is fitted on.
EDGES = np.array([0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.8, 1.0])


def shares(
    weights: np.ndarray, features: np.ndarray, hidden: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """The model's probabilities before recalibration (no water-filling)."""
    weight = np.exp(features @ weights)
    totals = np.add.reduceat(weight, starts)
    sizes = np.diff(np.append(starts, len(weight)))
    return np.clip(np.repeat(hidden[starts] / totals, sizes) * weight, 0.0, 1.0)


def apply_curve(
    raw: np.ndarray, knots: np.ndarray, values: np.ndarray, hidden: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """As the kernel: map through the curve, rescale each snapshot to its hidden count."""
    mapped = np.interp(raw, knots, values)
    totals = np.add.reduceat(mapped, starts)
    sizes = np.diff(np.append(starts, len(raw)))
    return np.minimum(np.repeat(hidden[starts] / totals, sizes) * mapped, 1.0)


def fit_calibration(
    raw: np.ndarray, held: np.ndarray, hidden: np.ndarray, starts: np.ndarray, rounds: int = 8
) -> tuple[np.ndarray, np.ndarray]:
    """A monotone piecewise-linear curve through the bins' mean raw probabilities whose
    output, after the per-snapshot rescaling, matches each bin's observed frequency
    (fixed-point iteration: each round scales a bin's value by observed / predicted)."""
    bins = np.clip(np.searchsorted(EDGES, raw, side="right") - 1, 0, len(EDGES) - 2)
    used = [b for b in range(len(EDGES) - 1) if np.sum(bins == b) >= 50]
    knots = np.array([raw[bins == b].mean() for b in used])
    values = knots.copy()
    for _ in range(rounds):
        predicted = apply_curve(
            raw, np.r_[0.0, knots, 1.0], np.r_[0.0, values, 1.0], hidden, starts
        )
        for i, b in enumerate(used):
            inside = bins == b
            values[i] *= held[inside].mean() / max(predicted[inside].mean(), 1e-9)
        values = np.maximum.accumulate(np.clip(values, 1e-4, 1.0))
    return np.r_[0.0, knots, 1.0], np.r_[0.0, values, 1.0]


if __name__ == "__main__":
    main()
