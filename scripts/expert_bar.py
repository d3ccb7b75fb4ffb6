"""The ``expert`` bar: head to head against every preset and the report's best-response
knock schedules, in points per hand and in games to 100, with 95% CIs.

Each pairing is played on common deals with seats swapped
(:func:`analyzer.gin.studies.compare.compare_hands` / ``compare_games``, standard rules): points
per hand to the expert (per deal, the mean of its two seats) and its rate of games won
(per game pair, the mean of its two seats).  Prints a Markdown table and writes it with
``--out``.

    PYTHONPATH=. python scripts/expert_bar.py --deals 20000 --games 5000 --out results/tuning/expert_bar.md
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.studies.compare import Arm, compare_games, compare_hands

OPPONENTS = (
    "simple",
    "basic",
    "safe-discard",
    "lookahead",
    "gin-hunter",
    "passive",
    "basic,knock=1:10/4:0",
    "basic,knock=1:10/7:0",
)
"""The presets, and the report's best-response schedules (``results/schedule/``): knock
at 10 for own turns 1-3 then gin only (the games schedule 10/0/0/0), and for turns 1-6
(the hands schedule 10/10/0/0)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="expert")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=5_000, help="seat-swapped game pairs")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--opponents", default=";".join(OPPONENTS))
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    subject = parse_policy(args.policy)
    arms = [Arm(text, STANDARD, subject, parse_policy(text)) for text in args.opponents.split(";")]
    started = time.perf_counter()
    hands = compare_hands(arms, args.deals, seed=args.seed)
    games = compare_games(arms, args.games, seed=args.seed) if args.games else None
    elapsed = time.perf_counter() - started
    lines = [
        (
            f"`{args.policy}` head to head, standard rules, seed {args.seed}: "
            f"{args.deals:,} deals per pairing (seats swapped, {2 * args.deals:,} hands) and "
            f"{args.games:,} game pairs to 100 (seats swapped); 95% CIs "
            f"({elapsed / 60:.1f} min)."
        ),
        "",
        "| opponent | points per hand | hand win rate | games won |",
        "|---|---|---|---|",
    ]
    for index, arm in enumerate(arms):
        row = hands.iloc[index]
        game = (
            ""
            if games is None
            else (
                f"{games.iloc[index]['game_win_mean']:.3f} [{games.iloc[index]['game_win_low']:.3f}, "
                f"{games.iloc[index]['game_win_high']:.3f}]"
            )
        )
        lines.append(
            f"| `{arm.label}` | {row['points_mean']:+.3f} [{row['points_low']:+.3f}, "
            f"{row['points_high']:+.3f}] | {row['win_mean']:.3f} | {game} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
