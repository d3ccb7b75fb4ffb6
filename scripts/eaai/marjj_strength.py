"""The original MARJJ's game win rate against the framework's simple player, and the
``marjj`` replica's against ``eaai-simple`` in the analyzer, with Wilson 95% intervals.

The original's games are read from the logs of ``scripts/eaai/DecisionLog.java`` (each
``game`` line names the seat the player sat in, each ``result`` line the winner); the
replica plays ``--games`` deals of whole games to 100 under ``--rules eaai``, each twice
with the seats swapped (``analyzer games``'s convention)::

    python scripts/eaai/marjj_strength.py marjj.jsonl --games 5000 --seed 1

Prints one JSON object: both win rates, their intervals, and whether the replica's rate
lies inside the original's interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.simulate import play_games


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def original_wins(paths: list[Path]) -> dict[str, int]:
    """Games and wins of the logged player, by seat."""
    counts = {
        "games": 0,
        "wins": 0,
        "games_seat0": 0,
        "wins_seat0": 0,
        "games_seat1": 0,
        "wins_seat1": 0,
    }
    for path in paths:
        seat = None
        with path.open() as lines:
            for line in lines:
                if '"type":"game"' in line:
                    seat = int(json.loads(line)["seat"])
                elif '"type":"result"' in line and seat is not None:
                    won = int(json.loads(line)["winner"]) == seat
                    counts["games"] += 1
                    counts["wins"] += won
                    counts[f"games_seat{seat}"] += 1
                    counts[f"wins_seat{seat}"] += won
                    seat = None
    return counts


def summary(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", type=Path, help="DecisionLog.java logs")
    parser.add_argument(
        "--games", type=int, default=5000, help="replica deals (each played twice, seats swapped)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="marjj")
    parser.add_argument("--opponent", default="eaai-simple")
    args = parser.parse_args(argv)
    logged = original_wins(args.logs)
    original = summary(logged["wins"], logged["games"])
    original["by_seat"] = {
        f"seat{s}": summary(logged[f"wins_seat{s}"], logged[f"games_seat{s}"])
        for s in (0, 1)
        if logged[f"games_seat{s}"]
    }
    result = play_games(
        RULES["eaai"],
        parse_policy(args.policy),
        parse_policy(args.opponent),
        args.games,
        seed=args.seed,
    )
    replica = summary(round(result.game_win_rate_a.mean * result.games), result.games)
    replica["seed"] = args.seed
    low, high = original["wilson95"]
    print(
        json.dumps(
            {
                "original": original,
                "replica": replica,
                "replica_inside_original_interval": low <= replica["win_rate"] <= high,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
