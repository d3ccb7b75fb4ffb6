"""Benchmark the plain-rummy engine: two-player hands per second, in self-play.

Times :func:`analyzer.rummy.simulate` (standard rules) for each pair of ``--players``
(default: both ``simple``, which melds and lays off at once and throws the card leaving
the least deadwood, and both ``rummy-expert``) on all numba threads and on one, best of
``--repeats`` runs, after a warm-up call that compiles (or loads) the kernels.  Also
reports the process CPU time per hand, which is steadier than wall time on a machine
shared with other work, and the load average while it ran.

Run from the repository root::

    /work/venv/bin/python scripts/bench_rummy.py
    /work/venv/bin/python scripts/bench_rummy.py --deals 50000 --repeats 3
    /work/venv/bin/python scripts/bench_rummy.py --players rummy-expert
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numba

from analyzer.rummy import RummyRules, parse_policy, simulate

SEED = 20240611


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else the machine type."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def time_run(deals: int, repeats: int, player: str) -> tuple[float, float]:
    """(best hands per second by wall time, best hands per CPU-second) over ``repeats``,
    ``player`` against itself."""
    rules = RummyRules()
    pair = [parse_policy(player)] * 2
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        simulate(rules, pair, deals, SEED)
        best_wall = max(best_wall, deals / (time.perf_counter() - wall))
        best_cpu = max(best_cpu, deals / (time.process_time() - cpu))
    return best_wall, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000, help="hands per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument(
        "--players", nargs="+", default=["simple", "rummy-expert"], help="self-play pairs"
    )
    args = parser.parse_args()

    start = time.perf_counter()
    for player in args.players:
        simulate(RummyRules(), [parse_policy(player)] * 2, 100, SEED)
    warm = time.perf_counter() - start
    threads = numba.get_num_threads()
    timings = []
    for player in args.players:
        all_wall, all_cpu = time_run(args.deals, args.repeats, player)
        numba.set_num_threads(1)
        one_wall, one_cpu = time_run(args.deals, args.repeats, player)
        numba.set_num_threads(threads)
        timings.append((player, all_wall, all_cpu, one_wall, one_cpu))
    load = os.getloadavg()

    print(
        f"machine: {cpu_model()}, {os.cpu_count()} logical CPUs, "
        f"python {platform.python_version()}, numba {numba.__version__}"
    )
    print(f"first call (compile or cache load): {warm:.1f} s")
    print(
        f"{args.deals:,} hands per run, best of {args.repeats}; load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}"
    )
    print("| self-play | threads | hands/s (wall) | hands per CPU-second |")
    print("|---|---|---|---|")
    for player, all_wall, all_cpu, one_wall, one_cpu in timings:
        print(f"| {player} | {threads} | {all_wall:,.0f} | {all_cpu:,.0f} |")
        print(f"| {player} | 1 | {one_wall:,.0f} | {one_cpu:,.0f} |")


if __name__ == "__main__":
    main()
