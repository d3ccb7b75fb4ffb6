"""Benchmark: ``expert`` self-play, complete hands per second (standard rules).

Times :func:`analyzer.gin.play.simulate.simulate` with ``expert`` against ``expert`` (and
``basic`` against ``basic`` for scale) on one thread and on every thread, best of
``--repeats`` runs, JIT compile excluded; also reports hands per CPU-second (process
time), which is less sensitive to other jobs sharing the machine, and the load average
at the start.

    PYTHONPATH=. python scripts/bench_expert.py --deals 20000 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numba

from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.simulate import simulate

SEED = 20261130


def timed(policy_text: str, deals: int, threads: int, repeats: int) -> tuple[float, float]:
    """(hands per wall second, hands per CPU second), best of ``repeats``."""
    numba.set_num_threads(threads)
    policy = parse_policy(policy_text)
    simulate(STANDARD, policy, policy, 500, SEED)  # compile / load the cache
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = simulate(STANDARD, policy, policy, deals, SEED)
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - started_cpu)
    return result.hands / wall, result.hands / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        type=int,
        default=20_000,
        help="deals per timing (each played twice, seats swapped)",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", default="expert;basic", help="';'-separated")
    args = parser.parse_args()
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    cores = os.cpu_count() or 1
    print(
        f"machine: {cpu}, {cores} logical CPUs; Python {platform.python_version()}, "
        f"numba {numba.__version__}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"command: PYTHONPATH=. python scripts/bench_expert.py --deals {args.deals} "
        f"--repeats {args.repeats}\n"
    )
    print("| self-play | threads | hands/s (wall) | hands per CPU-second |")
    print("|---|---:|---:|---:|")
    for text in args.policies.split(";"):
        for threads in sorted({1, cores}):
            wall, per_cpu = timed(text, args.deals, threads, args.repeats)
            print(f"| {text} v {text} | {threads} | {wall:,.0f} | {per_cpu:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
