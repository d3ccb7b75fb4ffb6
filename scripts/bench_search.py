"""The search player's strength/time curve: points per hand against an opponent by budget.

For each budget the search player (default settings otherwise: rollout policy, batch,
minimum samples, temperature) plays ``--deals`` deals against ``--opponent``, each deal
twice with seats swapped (:func:`analyzer.gin.play.simulate.simulate`, standard rules, common
deals across budgets), and the table gives its points per hand with a 95% CI, the searched
decisions per second (wall clock, all numba threads, the opponent's own play included)
and the samples a decision used on average.  ``--bar-deals`` adds the headline match at
the default budget on more deals, and ``--games`` the same match in games to 100 (seats
swapped on common decks).

Run: ``python scripts/bench_search.py [--budgets 32,64,128,512] [--deals 1000]
[--bar-deals 20000] [--bar-seconds 2400] [--games 1000] [--out bench_search.md]``; prints a markdown section.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import time
from dataclasses import replace

import numba

from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.players import DEFAULT_BUDGET, SearchPolicy, format_player
from analyzer.gin.play.results import HandResult, hand_result, merge_sums
from analyzer.gin.play.simulate import hand_chunk_sums, play_games, simulate

SEED = 2026


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _ci(estimate: object) -> str:
    mean, low, high = (getattr(estimate, name) for name in ("mean", "low", "high"))
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def _match(
    player: SearchPolicy, opponent_name: str, deals: int, seed: int, seconds: float, chunk: int
) -> tuple[HandResult, float]:
    """Deals ``0 ..`` of the seed in chunks until ``deals`` are played or ``seconds`` have
    passed (a time-boxed run reports exactly the deals it finished); (result, seconds)."""
    opponent = PRESETS[opponent_name]
    started = time.perf_counter()
    parts = []
    done = 0
    while done < deals and time.perf_counter() - started < seconds:
        count = min(chunk, deals - done)
        parts.append(hand_chunk_sums(STANDARD, player, opponent, seed, done, count))
        done += count
    elapsed = time.perf_counter() - started
    return hand_result(merge_sums(parts), seed, STANDARD, player, opponent, elapsed), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_opponent = "expert" if "expert" in PRESETS else "gin-hunter"
    parser.add_argument("--opponent", default=default_opponent)
    parser.add_argument("--budgets", default="32,64,128,512")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--bar-deals", type=int, default=0)
    parser.add_argument(
        "--bar-seconds",
        type=float,
        default=float("inf"),
        help="Stop the headline match after the chunk that passes this.",
    )
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    opponent = PRESETS[args.opponent]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    default = SearchPolicy()
    simulate(STANDARD, SearchPolicy(budget=4), opponent, 2, seed=args.seed)  # load kernels
    load_before = os.getloadavg()[0]
    lines = [
        (
            f"Command: `python scripts/bench_search.py --opponent {args.opponent} "
            f"--budgets {args.budgets} --deals {args.deals} --bar-deals {args.bar_deals} "
            f"--bar-seconds {args.bar_seconds:g} --games {args.games} --seed {args.seed}`"
        ),
        "",
        (
            f"- search player: `{format_player(default)}` = budget {DEFAULT_BUDGET}, rollout "
            f"`{format_player(default.rollout)}`, sampler {default.sampler}, temperature "
            f"{default.temperature}, scope {default.scope}, batch {default.batch}, min_samples "
            f"{default.min_samples}; opponent `{args.opponent}`; "
            f"standard rules; seed {args.seed}; seats swapped on common deals"
        ),
        (
            f"- machine: {platform.machine()}, {os.cpu_count()} logical cores, numba threads "
            f"{numba.get_num_threads()}, Python {platform.python_version()}, numba "
            f"{numba.__version__}; analyzer commit {_commit()}"
        ),
        "",
        (
            "| budget (samples per decision) | deals | points per hand vs opponent (95% CI) | "
            "decisions/s | samples per decision | seconds |"
        ),
        "|---:|---:|---:|---:|---:|---:|",
    ]
    runs = [(budget, args.deals, float("inf")) for budget in budgets]
    if args.bar_deals:
        runs.append((DEFAULT_BUDGET, args.bar_deals, args.bar_seconds))
    for budget, deals, limit in runs:
        result, seconds = _match(
            replace(default, budget=budget), args.opponent, deals, args.seed, limit, chunk=50
        )
        decisions = result.searched_decisions
        lines.append(
            f"| {budget} | {result.deals:,} | {_ci(result.points_a)} | "
            f"{decisions / seconds:,.1f} | {result.search_samples / decisions:.1f} | "
            f"{seconds:,.0f} |"
        )
        print(lines[-1], flush=True)
    if args.games:
        started = time.perf_counter()
        games = play_games(STANDARD, default, opponent, args.games, seed=args.seed, chunk=4)
        seconds = time.perf_counter() - started
        lines += [
            "",
            (
                f"Games to 100 at budget {DEFAULT_BUDGET}: {games.games:,} games "
                f"({args.games:,} seat-swapped pairs), game-win rate "
                f"{_ci(games.game_win_rate_a).replace('+', '')}, final margin "
                f"{_ci(games.margin_a)} points per game, {seconds:,.0f} s."
            ),
        ]
    lines += [
        "",
        (f"Load average (1 min) before / after: {load_before:.1f} / {os.getloadavg()[0]:.1f}."),
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
