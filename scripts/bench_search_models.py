"""Does ``search`` gain more when its rollouts play the opponent as that opponent plays?

For each opponent, three players meet it on the same deals, seats swapped (standard rules,
common random numbers): the champion ``expert``; ``search`` as shipped (its rollouts play
the opponent as ``expert``); and ``search`` with the opponent's true policy as its model
(``search,model=<opponent>``).  The table gives each one's points per hand against the
opponent and each search's paired gain over ``expert`` (95% CIs), so a model is worth its
cost where the true-model column beats the default one.

Run: ``python scripts/bench_search_models.py [--opponents basic,gin-hunter,marjj,simple,expert]
[--deals 3000] [--seed 2026]``; prints a markdown section.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numba

from analyzer.core.stats import Estimate
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.players import SearchPolicy
from analyzer.gin.studies.exploit import mixture_payoffs


def _ci(estimate: Estimate) -> str:
    return f"{estimate.mean:+.2f} ± {estimate.high - estimate.mean:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default="basic,gin-hunter,marjj,simple,expert")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} logical CPUs, numba threads "
        f"{numba.get_num_threads()}; load average {load:.1f} before"
    )
    print(
        f"command: python scripts/bench_search_models.py --opponents {args.opponents} "
        f"--deals {args.deals} --seed {args.seed}\n"
    )
    print(
        "| opponent | expert | search (model expert) | search (true model) "
        "| gain of search over expert | gain of true-model search over expert | seconds |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.opponents.split(","):
        opponent = PRESETS[name]
        players = [PRESETS["expert"], SearchPolicy(), SearchPolicy(model=opponent)]
        started = time.perf_counter()
        table = mixture_payoffs(STANDARD, players, [opponent], [1.0], args.deals, args.seed)
        seconds = time.perf_counter() - started
        cells = [_ci(table.value(i)) for i in range(3)] + [_ci(table.gain(i)) for i in (1, 2)]
        print(f"| {name} | " + " | ".join(cells) + f" | {seconds:.0f} |")
    print(f"\nLoad average after: {os.getloadavg()[0]:.1f}; {args.deals:,} deals per opponent.")


if __name__ == "__main__":
    main()
