"""The summaries of a run: mergeable sums over chunks, and the results built from them.

A chunk's rows (:class:`~analyzer.gin.play.game_kernels.HandColumn`,
:class:`~analyzer.gin.play.game_kernels.GameColumn`) are reduced to counts, sums and sums of
squares; chunks' sums add key by key, and :func:`hand_result` / :func:`game_result` turn
the merged sums into estimates with 95% intervals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...core.arrays import Int64s
from ...core.fold_checks import Range, sums_problem, value_ranges
from ...core.limits import MAX_BUDGET
from ...core.results import RunResult
from ...core.stats import Estimate
from ..engine.transitions import MAX_DRAWS, OUTCOME_NAMES
from ..model.rules import INT_RANGES, Rules
from .game_kernels import MAX_HANDS_PER_GAME, GameColumn, HandColumn
from .players import Player

#: Most points one hand scores under any rules: the defender's deadwood (100 at most)
#: plus every bonus at its largest, doubled by an Oklahoma spade.  A bound to check saved
#: sums against (:func:`hand_sums_ranges`), far above any real hand.
MAX_HAND_POINTS = 2 * (100 + sum(high for name, (_, high) in INT_RANGES.items() if "bonus" in name))
#: Most decisions of one hand: a discard and a knock choice per draw, and the upcard offers.
MAX_HAND_DECISIONS = 2 * MAX_DRAWS + 4
#: Most points of one game's margin: its most hands at their most points.
MAX_GAME_MARGIN = MAX_HANDS_PER_GAME * MAX_HAND_POINTS


@dataclass
class Sums:
    """Mergeable sums over chunks (counts, sums and sums of squares per unit)."""

    values: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, value: float | np.number[Any]) -> None:
        self.values[name] = self.values.get(name, 0.0) + float(value)

    def get(self, name: str) -> float:
        return self.values.get(name, 0.0)


@dataclass
class HandResult(RunResult):
    """Summary of a hands run; ``rows`` holds every hand when asked for (else None)."""

    deals: int
    hands: int
    seed: int
    rules: Rules
    policy_a: Player
    policy_b: Player
    outcomes: dict[str, float]
    points_a: Estimate
    """Points per hand to policy A (per deal: the mean over its seat-swapped pair)."""
    win_rate_a: Estimate
    turns: Estimate
    first_player_points: Estimate
    first_player_win_rate: float
    undercut_rate: float
    gin_rate: float
    elapsed_s: float
    rows: pd.DataFrame | None = None
    searched_decisions: int = 0
    """Decisions the search player(s) searched (0 without one)."""
    search_samples: int = 0
    """Samples those decisions rolled out."""
    interrupted: bool = False
    """True when Ctrl-C stopped the run: the summary covers the deals finished."""
    kernels_s: float = 0.0
    """Seconds spent loading (first run: compiling) the kernels before ``elapsed_s``
    started (0 on a cluster, where the workers load them)."""

    summary_fields = (
        "deals",
        "hands",
        "outcomes",
        "points_a",
        "win_rate_a",
        "turns",
        "first_player_points",
        "first_player_win_rate",
        "undercut_rate",
        "gin_rate",
    )

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.elapsed_s if self.elapsed_s > 0 else float("inf")

    @property
    def units(self) -> int:
        return self.deals

    def metrics(self) -> dict[str, Estimate | float]:
        """The estimates (``n`` deals), then each outcome's share of hands."""
        return {
            "points_per_hand_a": self.points_a,
            "win_rate_a": self.win_rate_a,
            "turns_per_hand": self.turns,
            "first_player_points": self.first_player_points,
            **{f"share_{name}": share for name, share in self.outcomes.items()},
        }


@dataclass
class GameResult(RunResult):
    """Summary of a games run (a Hollywood session counts as three games)."""

    games: int
    seed: int
    rules: Rules
    policy_a: Player
    policy_b: Player
    game_win_rate_a: Estimate
    margin_a: Estimate
    hands_per_game: Estimate
    shutout_rate: float
    unfinished: int
    elapsed_s: float
    rows: pd.DataFrame | None = None
    interrupted: bool = False
    """True when Ctrl-C stopped the run: the summary covers the games finished."""

    summary_fields = (
        "games",
        "game_win_rate_a",
        "margin_a",
        "hands_per_game",
        "shutout_rate",
        "unfinished",
    )

    @property
    def units(self) -> int:
        return self.games


def merge_sums(parts: list[dict[str, float]]) -> dict[str, float]:
    """Add chunk sums key by key (in list order)."""
    total = Sums()
    for part in parts:
        for name, value in part.items():
            total.add(name, value)
    return total.values


def hand_sums_ranges(reps: int) -> dict[str, Range]:
    """What one deal, played ``reps`` times (2: seats swapped), adds to each sum
    :func:`accumulate_hands` and the search counts keep (a checkpoint's sums are checked
    against it)."""
    points, draws = MAX_HAND_POINTS, MAX_DRAWS
    return {
        **{name: (0, reps) for name in OUTCOME_NAMES},
        "hands": (reps, reps),
        "deals": (1, 1),
        "points_a": (-points, points),
        "points_a_sq": (0, points**2),
        "wins_a": (0, 1),
        "wins_a_sq": (0, 1),
        "turns": (0, reps * draws),
        "turns_sq": (0, reps * draws**2),
        "first_points": (-reps * points, reps * points),
        "first_points_sq": (0, reps * points**2),
        "first_wins": (0, reps),
        "decided": (0, reps),
        "searched_decisions": (0, reps * MAX_HAND_DECISIONS),
        "search_samples": (0, reps * MAX_HAND_DECISIONS * MAX_BUDGET),
    }


def hand_sums_problem(sums: dict[str, Any], deals: int, reps: int) -> str | None:
    """Why ``sums`` cannot be the merged sums of ``deals`` deals each played ``reps``
    times (:func:`hand_sums_ranges`; and every hand has one outcome), or None."""
    problem = sums_problem(sums, deals, hand_sums_ranges(reps))
    if problem is None and deals:
        outcomes = sum(sums[name] for name in OUTCOME_NAMES)
        if outcomes != sums["hands"]:
            return f"the outcomes add to {outcomes:,g} hands, not the {sums['hands']:,g} played"
        if sums["first_wins"] > sums["decided"]:
            return f"'first_wins' is {sums['first_wins']:,g}, more than the hands decided"
    return problem


def game_sums_ranges(reps: int) -> dict[str, Range]:
    """What one game (played ``reps`` times, 2: seats swapped) adds to each sum of
    :func:`accumulate_games` (a Hollywood session counts as three games)."""
    return {
        **value_ranges("win", 1, 0, 1),
        **value_ranges("margin", 1, -MAX_GAME_MARGIN, MAX_GAME_MARGIN),
        **value_ranges("hands", reps, 1, MAX_HANDS_PER_GAME),
        "shutouts": (0, 3 * reps),
        "games": (reps, 3 * reps),
        "unfinished": (0, reps),
    }


def accumulate_hands(rows: Int64s, reps: int, sums: Sums) -> None:
    outcome = rows[:, HandColumn.OUTCOME]
    for code, name in enumerate(OUTCOME_NAMES):
        sums.add(name, np.count_nonzero(outcome == code))
    sums.add("hands", len(rows))
    per_deal = rows[:, HandColumn.POINTS_A].reshape(-1, reps).mean(axis=1)
    sums.add("deals", len(per_deal))
    sums.add("points_a", per_deal.sum())
    sums.add("points_a_sq", np.square(per_deal).sum())
    wins = (rows[:, HandColumn.WINNER] == 0).astype(np.float64)
    deal_wins = wins.reshape(-1, reps).mean(axis=1)
    sums.add("wins_a", deal_wins.sum())
    sums.add("wins_a_sq", np.square(deal_wins).sum())
    turns = rows[:, HandColumn.TURNS].astype(np.float64)
    sums.add("turns", turns.sum())
    sums.add("turns_sq", np.square(turns).sum())
    # first player = the non-dealer; its points are + when it wins
    first = 1 - rows[:, HandColumn.DEALER]
    winner = rows[:, HandColumn.WINNER]
    first_points = np.where(
        winner < 0, 0, np.where(winner == first, 1, -1) * rows[:, HandColumn.POINTS]
    )
    sums.add("first_points", first_points.sum())
    sums.add("first_points_sq", np.square(first_points.astype(np.float64)).sum())
    sums.add("first_wins", np.count_nonzero(winner == first))
    sums.add("decided", np.count_nonzero(winner >= 0))


def hand_result(
    sums: dict[str, float],
    seed: int,
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    elapsed: float,
    rows: pd.DataFrame | None = None,
) -> HandResult:
    """The summary of a hands run from its merged sums."""

    def get(name: str) -> float:
        return sums.get(name, 0.0)

    deals, hands = int(get("deals")), int(get("hands"))
    outcomes = {name: get(name) / hands for name in OUTCOME_NAMES}
    decided = get("decided")
    return HandResult(
        deals=deals,
        hands=hands,
        seed=seed,
        rules=rules,
        policy_a=policy_a,
        policy_b=policy_b,
        outcomes=outcomes,
        points_a=Estimate.from_sums(get("points_a"), get("points_a_sq"), deals),
        win_rate_a=Estimate.from_sums(get("wins_a"), get("wins_a_sq"), deals),
        turns=Estimate.from_sums(get("turns"), get("turns_sq"), hands),
        first_player_points=Estimate.from_sums(get("first_points"), get("first_points_sq"), hands),
        first_player_win_rate=get("first_wins") / decided if decided else float("nan"),
        undercut_rate=outcomes["undercut"],
        gin_rate=outcomes["gin"] + outcomes["big_gin"],
        elapsed_s=elapsed,
        rows=rows,
        searched_decisions=int(get("searched_decisions")),
        search_samples=int(get("search_samples")),
    )


def hand_frame(chunks: list[Int64s]) -> pd.DataFrame:
    rows = np.concatenate(chunks) if chunks else np.zeros((0, len(HandColumn)), np.int64)
    frame = pd.DataFrame(rows, columns=[c.name.lower() for c in HandColumn])
    frame["outcome"] = pd.Categorical.from_codes(frame["outcome"], categories=OUTCOME_NAMES)
    return frame


def accumulate_games(rows: Int64s, reps: int, sums: Sums) -> None:
    played = rows[:, GameColumn.GAMES_PLAYED].astype(np.float64)
    per_game = (rows[:, GameColumn.GAMES_WON_A] / played).reshape(-1, reps).mean(axis=1)
    margin = rows[:, GameColumn.MARGIN_A].astype(np.float64).reshape(-1, reps).mean(axis=1)
    hands = rows[:, GameColumn.HANDS].astype(np.float64)
    for name, values in (("win", per_game), ("margin", margin), ("hands", hands)):
        sums.add(name, values.sum())
        sums.add(name + "_sq", np.square(values).sum())
        sums.add(name + "_n", len(values))
    sums.add("shutouts", rows[:, GameColumn.SHUTOUTS].sum())
    sums.add("games", played.sum())
    sums.add("unfinished", np.count_nonzero(rows[:, GameColumn.FINISHED] == 0))


def game_result(
    sums: dict[str, float],
    seed: int,
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    elapsed: float,
    rows: pd.DataFrame | None = None,
) -> GameResult:
    """The summary of a games run from its merged sums."""

    def estimate(name: str) -> Estimate:
        return Estimate.from_sums(
            sums.get(name, 0.0), sums.get(name + "_sq", 0.0), int(sums.get(name + "_n", 0))
        )

    games = sums.get("games", 0.0)
    return GameResult(
        games=int(games),
        seed=seed,
        rules=rules,
        policy_a=policy_a,
        policy_b=policy_b,
        game_win_rate_a=estimate("win"),
        margin_a=estimate("margin"),
        hands_per_game=estimate("hands"),
        shutout_rate=sums.get("shutouts", 0.0) / max(games, 1),
        unfinished=int(sums.get("unfinished", 0)),
        elapsed_s=elapsed,
        rows=rows,
    )
