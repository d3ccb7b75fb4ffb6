"""Benchmark: complete gin rummy hands per second, ours against OpenSpiel and RLCard.

Ours: ``simple`` against ``simple`` (the EAAI framework's baseline player) under the
``eaai`` rules, and ``basic`` against ``basic`` under the standard rules, on one thread and
on all threads, JIT compile excluded.  Peers, measured in the same run: OpenSpiel's C++
simple gin rummy bot driven through ``pyspiel.evaluate_bots`` (one game = one hand) and
RLCard's ``GinRummyNoviceRuleAgent`` through ``env.run``.

Set-up (the peers are optional, see the ``bench`` extra)::

    python -m venv bench-venv
    bench-venv/bin/pip install -e '.[bench]'
    bench-venv/bin/python scripts/bench_engine.py

Without the peers installed only our numbers are printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numba

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.simulate import simulate

SEED = 20261130


def ours(preset: str, policy: str, deals: int, threads: int) -> float:
    """Hands per second of one simulate run (best of three), compile excluded."""
    numba.set_num_threads(threads)
    rules, chosen = RULES[preset], POLICIES[policy]
    simulate(rules, chosen, chosen, 1_000, SEED)  # compile / load the cache
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        result = simulate(rules, chosen, chosen, deals, SEED)
        best = min(best, time.perf_counter() - started)
    return result.hands / best


def peer(name: str, games: int) -> float | None:
    """Games (= hands) per second of a peer, or None when it is not installed."""
    import peers

    try:
        run = peers.openspiel_play_games if name == "openspiel" else peers.rlcard_play_games
        run(5, SEED)  # warm-up
        result = run(games, SEED)
    except ImportError:
        return None
    return result["games"] / result["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        type=int,
        default=200_000,
        help="deals per timing (each played twice, seats swapped)",
    )
    parser.add_argument("--peer-games", type=int, default=2_000, help="games per peer timing")
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
        f"numba {numba.__version__}"
    )
    print(
        f"command: python scripts/bench_engine.py --deals {args.deals} "
        f"--peer-games {args.peer_games}\n"
    )
    rows = []
    for preset, policy in (("eaai", "simple"), ("standard", "basic")):
        for threads in (1, cores):
            rate = ours(preset, policy, args.deals, threads)
            rows.append((f"analyzer, {policy} v {policy}, {preset} rules", threads, rate))
    reference = rows[0][2]
    for name, label in (
        ("openspiel", "OpenSpiel 2.0 simple bot (C++ via evaluate_bots)"),
        ("rlcard", "RLCard 1.2 novice rule agent"),
    ):
        rate = peer(name, args.peer_games)
        if rate is not None:
            rows.append((label, 1, rate))
    print("| engine | threads | hands/s | analyzer simple v simple (1 thread) / this |")
    print("|---|---:|---:|---:|")
    for label, threads, rate in rows:
        print(f"| {label} | {threads} | {rate:,.0f} | {reference / rate:,.1f}x |")


if __name__ == "__main__":
    main()
