"""Benchmark: deals per second in-process against a Dask cluster of local processes.

One ``simulate`` run (standard rules, ``basic`` against ``basic``, seats swapped) of
``--deals`` deals, timed three ways and repeated ``--repeats`` times, interleaved so
that a change in the machine's load hits every mode alike:

* ``in-process``: the default numba-parallel path on all cores (kernel cache loaded
  by a warm-up run first);
* ``local:N cold``: ``scheduler="local:N"``, end to end as a user would run it: start
  a ``LocalCluster`` of ``N`` processes, load the kernels in each worker, run, shut down;
* ``tcp warm``: ``scheduler="tcp://..."`` to a ``LocalCluster`` of ``N`` processes
  started (and warmed up) once beforehand, as on a cluster that is already running.

Every run must give the same result bit for bit (checked).  Each run is measured in
wall time and in CPU time summed over every process involved (this one, which also
hosts the Dask scheduler, and the worker processes).  On a machine shared with other
work the wall time swings with the load (printed with each run), while the CPU time
holds steady; the CPU overhead is the cost of the cluster path itself (starting and
importing workers, loading the kernels in each, scheduling, moving results).

Needs the ``cluster`` extra::

    pip install -e '.[cluster]'
    python scripts/bench_cluster.py                      # 1,000,000 deals, 3 repeats
    python scripts/bench_cluster.py --deals 200000 --repeats 1
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import resource
import statistics
import time

import numba
import psutil
from distributed import LocalCluster

from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.results import HandResult
from analyzer.gin.play.simulate import simulate

SEED = 20261130
BASIC = POLICIES["basic"]


def cpu_seconds() -> float:
    """CPU time (s) of this process, its finished children and its running children."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def run(deals: int, scheduler: str) -> tuple[float, float, HandResult]:
    """Wall time and CPU time (s) of one whole ``simulate`` call, and its result."""
    cpu, started = cpu_seconds(), time.perf_counter()
    result = simulate(STANDARD, BASIC, BASIC, deals, SEED, scheduler=scheduler)
    return time.perf_counter() - started, cpu_seconds() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"numba {numba.__version__} ({numba.config.NUMBA_NUM_THREADS} threads), "
        f"{args.deals:,} deals, seed {SEED}"
    )
    simulate(STANDARD, BASIC, BASIC, 1_000, SEED, scheduler="")  # load the kernel cache
    cold = f"local:{args.workers}"
    walls: dict[str, list[float]] = {"in-process": [], f"{cold} cold": [], "tcp warm": []}
    cpus: dict[str, list[float]] = {mode: [] for mode in walls}
    results = []
    with LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        preload=["analyzer.core.cluster"],
    ) as warm:
        # load the kernels in the warm workers
        simulate(
            STANDARD,
            BASIC,
            BASIC,
            4 * args.workers,
            SEED,
            chunk=1,
            scheduler=warm.scheduler_address,
        )
        schedulers = {"in-process": "", f"{cold} cold": cold, "tcp warm": warm.scheduler_address}
        for repeat in range(args.repeats):
            for mode, scheduler in schedulers.items():
                load = os.getloadavg()[0]
                wall, cpu, result = run(args.deals, scheduler)
                walls[mode].append(wall)
                cpus[mode].append(cpu)
                results.append(dataclasses.replace(result, elapsed_s=0.0))
                print(
                    f"repeat {repeat + 1}  {mode:<14} wall {wall:6.1f} s "
                    f"({args.deals / wall:7,.0f} deals/s)  CPU {cpu:6.1f} s "
                    f"({args.deals / cpu:7,.0f} deals/CPU-s)  load average {load:.1f}",
                    flush=True,
                )
    if any(result != results[0] for result in results):
        raise SystemExit("results differ between runs")
    wall_base, cpu_base = min(walls["in-process"]), statistics.median(cpus["in-process"])
    print(
        "\n| Mode | Deals/s, best wall | Deals/s, median wall | Overhead, best wall "
        "| CPU s, median | Overhead, CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for mode, times in walls.items():
        best, median = min(times), statistics.median(times)
        cpu = statistics.median(cpus[mode])
        print(
            f"| {mode} | {args.deals / best:,.0f} | {args.deals / median:,.0f} | "
            f"{best / wall_base - 1:+.0%} | {cpu:.1f} | {cpu / cpu_base - 1:+.1%} |"
        )
    print("\nAll runs identical: yes")


if __name__ == "__main__":
    main()
