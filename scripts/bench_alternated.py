"""Self-play speed of two or more source trees, timed alternately in one run.

Each tree (a checkout or ``git archive`` of a commit) gets a worker process that loads
its kernels once (``PYTHONPATH=tree``); the workers then play the same self-play runs in
turn, round after round (the order reversed every other round), so that a shared
machine's load falls on every tree alike.  Prints each tree's best and median hands per
second and, for two trees, the median of the second's per-round ratio to the first.

Example (BENCHMARKS.md, "Engine")::

    git archive 1f37768 | tar -x -C /tmp/old
    python scripts/bench_alternated.py --trees /tmp/old . --policy simple --rules eaai

``--clock cpu`` times the worker's CPU seconds instead of the wall clock: steadier on a
loaded machine, and the same on an idle one for one thread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

WORKER = """
import sys, time
import numba
numba.set_num_threads(int(sys.argv[1]))
try:
    from analyzer.gin.model.policies import PRESETS as POLICIES
    from analyzer.gin.model.rules import PRESETS as RULES
    from analyzer.gin.play.simulate import simulate
except ImportError:  # the layout before the gin package was split (session 2)
    from analyzer.gin.policies import PRESETS as POLICIES
    from analyzer.gin.rules import PRESETS as RULES
    from analyzer.gin.simulate import simulate
clock = time.process_time if sys.argv[2] == "cpu" else time.perf_counter
for line in sys.stdin:
    rules, policy, deals = line.split()
    started = clock()
    result = simulate(RULES[rules], POLICIES[policy], POLICIES[policy], int(deals), 20261130)
    print(f"{result.hands / (clock() - started):.0f}", flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", required=True)
    parser.add_argument("--policy", default="simple")
    parser.add_argument("--rules", default="eaai")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(args.threads), args.clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.path.abspath(tree)},
            cwd="/",
        )
        for tree in args.trees
    ]

    def play(worker: subprocess.Popen[str], deals: int) -> float:
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(f"{args.rules} {args.policy} {deals}\n")
        worker.stdin.flush()
        return float(worker.stdout.readline())

    for worker in workers:  # load (or compile) the kernels
        play(worker, 1_000)
    rates: list[list[float]] = [[] for _ in workers]
    for round_ in range(args.rounds):
        order = range(len(workers)) if round_ % 2 == 0 else reversed(range(len(workers)))
        for i in order:
            rates[i].append(play(workers[i], args.deals))
    print(
        f"{args.policy} v {args.policy}, {args.rules} rules, {args.threads} thread(s), "
        f"{args.deals:,} deals x {args.rounds} rounds, {args.clock} clock, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for tree, values in zip(args.trees, rates, strict=True):
        print(f"{tree}: best {max(values):,.0f}, median {statistics.median(values):,.0f} hands/s")
    if len(workers) == 2:
        ratios = [b / a for a, b in zip(*rates, strict=True)]
        print(f"{args.trees[1]} / {args.trees[0]}: median ratio {statistics.median(ratios):.3f}")
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()


if __name__ == "__main__":
    main()
