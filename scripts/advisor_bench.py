"""Advisor speed: time to a verdict whose 95% CI is within +-1 point, mid-hand.

Positions are seat 0's knock decisions at own turns 4-8 of simulated basic-vs-basic
hands (:mod:`advisor_positions`); each is advised with the defaults (every legal action,
model weights, tolerance 1 point, budget 20,000 samples) after one warm-up call, then
once more with uniform weights.  A cold run (a new process: imports and loading the
cached kernels) is timed on the first position through the click command.

Run: ``python scripts/advisor_bench.py [--positions 20]``; prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numba
import numpy as np
import pandas as pd
from advisor_positions import branch_points, seat0_position

from analyzer.gin.model.rules import Rules
from analyzer.gin.play.advisor import Position, advise
from analyzer.report.markdown import markdown_table

SEED = 77


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    points = [p for p in branch_points(Rules(), 300, SEED) if 4 <= p["turn"] <= 8]
    picks = np.random.default_rng(SEED).choice(len(points), args.positions, replace=False)
    positions = [seat0_position(points[i]["state"]) for i in sorted(picks)]
    advise(positions[0], samples=256)  # load the cached kernels
    rows = []
    for number, position in enumerate(positions):
        for weights in ("model", "uniform"):
            started = time.perf_counter()
            advice = advise(position, seed=1, weights=weights)
            rows.append(
                {
                    "position": number,
                    "weights": weights,
                    "turn": position.turn,
                    "stock": position.stock,
                    "actions": len(advice.actions),
                    "seconds": time.perf_counter() - started,
                    "samples": advice.samples,
                    "ess": advice.ess,
                    "half_width": advice.margin_half_width,
                    "converged": advice.stopped == "converged",
                    "verdict": advice.verdict,
                }
            )
    frame = pd.DataFrame(rows)
    frame["ok"] = (frame["seconds"] < 5) & (frame["half_width"] <= 1.0)
    print(
        f"{numba.get_num_threads()} numba threads, {os.cpu_count()} cores, "
        f"{len(positions)} positions (own turns 4-8)\n"
    )
    summary = frame.groupby("weights").agg(
        median_s=("seconds", "median"),
        p90_s=("seconds", lambda s: s.quantile(0.9)),
        max_s=("seconds", "max"),
        median_samples=("samples", "median"),
        median_ess=("ess", "median"),
        median_half_width=("half_width", "median"),
        max_half_width=("half_width", "max"),
        within_bar=("ok", "mean"),
    )
    print(markdown_table(summary.round(3).reset_index(), align=False))
    print()
    print(markdown_table(frame.drop(columns="verdict").round(3), align=False))
    cold = _cold_run(positions[0])
    print(f"\ncold run (new process, cached kernels), first position: {cold:.1f} s")


def _cold_run(position: Position) -> float:
    """Seconds for ``advise`` through the click command in a fresh interpreter."""
    described = position.describe()
    argv = [
        "--hand",
        described["hand"],
        "--pile",
        described["pile"],
        "--opp-took",
        described["opp_took"],
        "--opp-threw",
        described["opp_threw"],
        "--stock",
        str(described["stock"]),
        "--turn",
        str(described["turn"]),
        "--dealer",
        described["dealer"],
        "--upcard",
        described["upcard"] or "",
        "--seed",
        "1",
        "--no-progress",
    ]
    if described["drawn"] and described["from_pile"]:
        argv += ["--drawn", described["drawn"], "--from-pile"]
    code = (
        "import sys; from analyzer.cli.advise import advise_command; advise_command(sys.argv[1:])"
    )
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *argv], check=False, capture_output=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
