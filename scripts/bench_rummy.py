"""Benchmark the plain-rummy engine: two-player hands per second, simple policy pair.

Times :func:`analyzer.rummy.simulate` (standard rules, both players ``simple``: meld and
lay off at once, discard the card leaving the least deadwood) on all numba threads and
on one, best of ``--repeats`` runs, after a warm-up call that compiles (or loads) the
kernels.  Also reports the process CPU time per hand, which is steadier than wall time
on a machine shared with other work, and the load average while it ran.

Run from the repository root::

    /work/venv/bin/python scripts/bench_rummy.py
    /work/venv/bin/python scripts/bench_rummy.py --deals 50000 --repeats 3
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


def time_run(deals: int, repeats: int) -> tuple[float, float]:
    """(best hands per second by wall time, best hands per CPU-second) over ``repeats``."""
    rules = RummyRules()
    pair = [parse_policy("simple")] * 2
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
    args = parser.parse_args()

    start = time.perf_counter()
    simulate(RummyRules(), [parse_policy("simple")] * 2, 100, SEED)
    warm = time.perf_counter() - start
    threads = numba.get_num_threads()
    all_wall, all_cpu = time_run(args.deals, args.repeats)
    numba.set_num_threads(1)
    one_wall, one_cpu = time_run(args.deals, args.repeats)
    numba.set_num_threads(threads)
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
    print("| threads | hands/s (wall) | hands per CPU-second |")
    print("|---|---|---|")
    print(f"| {threads} | {all_wall:,.0f} | {all_cpu:,.0f} |")
    print(f"| 1 | {one_wall:,.0f} | {one_cpu:,.0f} |")


if __name__ == "__main__":
    main()
