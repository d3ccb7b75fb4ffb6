"""Fit ``rummy-expert``'s evaluation weights from simulated deals and write them to the
weights file the preset reads (``analyzer/rummy/expert_weights.json``).

The fit (:func:`analyzer.rummy.fit.fit_expert`) is the cross-entropy method against the
scripted presets at two and four players and the incumbent, starting from fixed guesses
(:data:`analyzer.rummy.fit.FIT_START`); it ends with a held-out check on fresh deals,
printed table by table.  The same command gives the same file whatever the thread count.

Run from the repository root::

    python scripts/fit_rummy.py                      # the committed fit
    python scripts/fit_rummy.py --generations 2 --population 4 --deals 500 --out /tmp/w.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from analyzer.core.stats import Estimate
from analyzer.rummy.fit import FIT_START, fit_expert
from analyzer.rummy.policies import WEIGHTS_FILE

WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "analyzer" / "rummy" / WEIGHTS_FILE


def _interval(estimate: Estimate) -> str:
    return f"{estimate.mean:+.2f} [{estimate.low:+.2f}, {estimate.high:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--generations", type=int, default=14)
    parser.add_argument("--population", type=int, default=20)
    parser.add_argument("--elite", type=int, default=5)
    parser.add_argument("--deals", type=int, default=5000, help="deals per candidate and table")
    parser.add_argument("--held-out", type=int, default=40_000, help="deals per table")
    parser.add_argument("--softness", type=float, default=2.0, help="points")
    parser.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    args = parser.parse_args()

    started = time.perf_counter()
    fit = fit_expert(
        FIT_START,
        generations=args.generations,
        population=args.population,
        elite=args.elite,
        deals=args.deals,
        held_out_deals=args.held_out,
        softness=args.softness,
        seed=args.seed,
    )
    for number, generation in enumerate(fit.generations):
        print(
            f"generation {number}: mean's score {generation.scores[0]:+.3f}, "
            f"best {generation.scores.max():+.3f} ({generation.seconds:.0f} s)"
        )
    print(f"held-out check, {fit.held_out_deals:,} fresh deals per table (points per hand):")
    print("| table | fitted minus start | fitted's margin |")
    print("|---|---|---|")
    for name, gain in fit.held_out.items():
        print(f"| {name} | {_interval(gain)} | {_interval(fit.held_out_margin[name])} |")
    args.out.write_text(json.dumps(fit.document(), indent=2) + "\n")
    print(f"weights written to {args.out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
