"""Paired comparisons: several arms (rules + policies) played on common deals.

Every arm plays the same deals of the same seed (and, with seats swapped, each deal
twice), so the difference between two arms is measured deal by deal and most of the
card luck cancels: the confidence interval of a difference is far narrower than the
two arms' own intervals suggest.  Chunks are reduced to sums before the next one runs,
so memory stays flat in the number of deals.

>>> from analyzer.gin.model.policies import PRESETS
>>> from analyzer.gin.model.rules import STANDARD
>>> arms = [Arm("knock 10", STANDARD, PRESETS["basic"], PRESETS["basic"]),
...         Arm("gin only", STANDARD, PRESETS["basic"].with_knock(0), PRESETS["basic"])]
>>> table = compare_hands(arms, deals=200, seed=1)
>>> list(table["arm"]), float(table["diff_mean"].iloc[0])
(['knock 10', 'gin only'], 0.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.arrays import Float64s, Int64s
from ...core.chunks import ChunkPlan, fold_to_end
from ...core.fold_checks import Range, sums_check, value_ranges
from ...core.progress import Progress
from ...core.stats import Estimate
from ..engine.transitions import MAX_DRAWS, Outcome
from ..model.policies import Policy
from ..model.rules import Rules
from ..play.game_kernels import MAX_HANDS_PER_GAME, GameColumn, HandColumn
from ..play.players import Player, ScoreAware
from ..play.results import MAX_GAME_MARGIN, MAX_HAND_POINTS, merge_sums
from ..play.simulate import DEFAULT_CHUNK, game_rows, hand_rows

#: Fewest deals (or game pairs) of a chunk: smaller chunks cost more in kernel launches.
_MIN_CHUNK = 512


@dataclass(frozen=True)
class Arm:
    """One arm of a comparison: policy A (seat 0) against B under ``rules``."""

    label: str
    rules: Rules
    policy_a: Player
    policy_b: Player


def add_values(sums: dict[str, float], name: str, values: Float64s) -> None:
    """Add the count, sum and sum of squares of ``values`` to ``sums`` under ``name``."""
    sums[name] = sums.get(name, 0.0) + float(values.sum())
    sums[name + "_sq"] = sums.get(name + "_sq", 0.0) + float(np.square(values).sum())
    sums[name + "_n"] = sums.get(name + "_n", 0.0) + len(values)


def arm_sums(
    per_arm: Sequence[Mapping[str, Float64s]], reference: int, compared: str, diff: str
) -> dict[str, float]:
    """Mergeable sums of every arm's values (``"<arm>:<metric>"``, one value per deal or
    pair of games) and of each arm's ``compared`` values minus the reference arm's
    (``"<arm>:<diff>"``): the arms are played on common deals, so the differences are
    paired."""
    sums: dict[str, float] = {}
    for index, metrics in enumerate(per_arm):
        for name, values in metrics.items():
            add_values(sums, f"{index}:{name}", values)
    for index, metrics in enumerate(per_arm):
        add_values(sums, f"{index}:{diff}", metrics[compared] - per_arm[reference][compared])
    return sums


def estimate_of(sums: dict[str, float], name: str) -> Estimate:
    """The mean of the values added under ``name``, with its 95% CI."""
    return Estimate.from_sums(
        sums.get(name, 0.0), sums.get(name + "_sq", 0.0), int(sums.get(name + "_n", 0))
    )


def _hand_metrics(rows: Int64s) -> dict[str, Float64s]:
    """Per-deal metrics for policy A (seat 0), each the mean over the deal's two hands."""
    winner = rows[:, HandColumn.WINNER]
    outcome = rows[:, HandColumn.OUTCOME]
    knocker = rows[:, HandColumn.KNOCKER]
    per_hand = {
        "points": rows[:, HandColumn.POINTS_A].astype(np.float64),
        "win": (winner == 0).astype(np.float64),
        "gin": ((knocker == 0) & ((outcome == Outcome.GIN) | (outcome == Outcome.BIG_GIN))).astype(
            np.float64
        ),
        "knock": (knocker == 0).astype(np.float64),
        "undercut": ((knocker == 0) & (outcome == Outcome.UNDERCUT)).astype(np.float64),
        "turns": rows[:, HandColumn.TURNS].astype(np.float64),
        "hand_points": rows[:, HandColumn.POINTS].astype(np.float64),
    }
    return {name: values.reshape(-1, 2).mean(axis=1) for name, values in per_hand.items()}


HAND_METRICS = ("points", "win", "gin", "knock", "undercut", "turns", "hand_points")


def compare_hands_chunk(
    arms: Sequence[Arm], seed: int, first: int, count: int, reference: int = 0
) -> dict[str, float]:
    """Mergeable sums of every arm's per-deal metrics, and of each arm's points minus the
    reference arm's, over deals ``first .. first + count``."""
    per_arm = []
    for arm in arms:
        if isinstance(arm.policy_a, ScoreAware) or isinstance(arm.policy_b, ScoreAware):
            raise TypeError(
                f"arm {arm.label!r}: hand comparisons need fixed policies, not score-aware ones"
            )
        per_arm.append(
            _hand_metrics(hand_rows(arm.rules, arm.policy_a, arm.policy_b, seed, first, count))
        )
    return arm_sums(per_arm, reference, "points", "diff")


def compare_games_chunk(
    arms: Sequence[Arm], seed: int, first: int, count: int, reference: int = 0
) -> dict[str, float]:
    """Mergeable sums of every arm's game results (per seat-swapped pair of games) and
    of each arm's game-win rate minus the reference arm's, over games ``first ..``."""
    per_arm = []
    for arm in arms:
        rows = game_rows(arm.rules, arm.policy_a, arm.policy_b, seed, first, count)
        played = rows[:, GameColumn.GAMES_PLAYED].astype(np.float64)
        per_arm.append(
            {
                "game_win": (rows[:, GameColumn.GAMES_WON_A] / played).reshape(-1, 2).mean(axis=1),
                "margin": rows[:, GameColumn.MARGIN_A]
                .astype(np.float64)
                .reshape(-1, 2)
                .mean(axis=1),
                "hands": rows[:, GameColumn.HANDS].astype(np.float64),
                "shutout": rows[:, GameColumn.SHUTOUTS] / played,
            }
        )
    return arm_sums(per_arm, reference, "game_win", "game_diff")


#: What one deal adds to each arm's hand metrics: (values per deal, least, most); and the
#: largest paired difference of points.
_HAND_RANGES = {
    "points": (1, -MAX_HAND_POINTS, MAX_HAND_POINTS),
    **{name: (1, 0, 1) for name in ("win", "gin", "knock", "undercut")},
    "turns": (1, 0, MAX_DRAWS),
    "hand_points": (1, -MAX_HAND_POINTS, MAX_HAND_POINTS),
}
#: The same for one seat-swapped pair of games (``hands`` and ``shutout`` per game).
_GAME_RANGES = {
    "game_win": (1, 0, 1),
    "margin": (1, -MAX_GAME_MARGIN, MAX_GAME_MARGIN),
    "hands": (2, 1, MAX_HANDS_PER_GAME),
    "shutout": (2, 0, 1),
}


def _sums_ranges(
    arms: int, metrics: Mapping[str, tuple[int, float, float]], diff: str, widest: float
) -> dict[str, Range]:
    """What one unit adds to each sum of :func:`arm_sums` over ``arms`` arms: ``metrics``
    and the paired difference ``diff`` (at most ``widest`` either way)."""
    ranges: dict[str, Range] = {}
    for index in range(arms):
        for name, (count, low, high) in metrics.items():
            ranges |= value_ranges(f"{index}:{name}", count, low, high)
        ranges |= value_ranges(f"{index}:{diff}", 1, -widest, widest)
    return ranges


def _run(
    chunk_function: Callable[..., dict[str, float]],
    arms: Sequence[Arm],
    total: int,
    seed: int,
    reference: int,
    chunk: int,
    progress: Progress | None,
    scheduler: str | None,
    ranges: dict[str, Range],
) -> dict[str, float]:
    common = {"arms": list(arms), "seed": seed, "reference": reference}
    # at least ~20 chunks, so that a progress bar moves; per-deal metrics are multiples of
    # 1/2, so their sums (and the results) do not depend on the chunk size
    chunk = min(chunk, max(_MIN_CHUNK, -(-total // 20)))
    plan = ChunkPlan(chunk_function, total, chunk, common, check=sums_check(ranges))

    def merge(sums: dict[str, float], part: dict[str, float]) -> dict[str, float]:
        return merge_sums([sums, part])

    initial: dict[str, float] = {}
    return fold_to_end(plan, merge, initial, scheduler, progress)


def _table(
    arms: Sequence[Arm], sums: dict[str, float], metrics: Sequence[str], diff: str
) -> pd.DataFrame:
    records = []
    for index, arm in enumerate(arms):
        record: dict[str, object] = {"arm": arm.label}
        for name in (*metrics, diff):
            estimate = estimate_of(sums, f"{index}:{name}")
            prefix = name if name != diff else "diff"
            record[f"{prefix}_mean"] = estimate.mean
            record[f"{prefix}_low"] = estimate.low
            record[f"{prefix}_high"] = estimate.high
        record["n"] = int(sums.get(f"{index}:{metrics[0]}_n", 0))
        records.append(record)
    return pd.DataFrame.from_records(records)


def compare_hands(
    arms: Sequence[Arm],
    deals: int,
    seed: int = 0,
    reference: int = 0,
    chunk: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """One row per arm: A's per-hand metrics with 95% CIs (``points`` per hand, hand
    ``win`` rate, ``gin`` and ``knock`` rates, ``undercut`` = A knocked and was undercut,
    ``turns`` per hand, ``hand_points`` scored by the winner) and ``diff`` = A's points
    per hand minus the reference arm's, paired deal by deal; ``n`` = deals."""
    ranges = _sums_ranges(len(arms), _HAND_RANGES, "diff", 2 * MAX_HAND_POINTS)
    sums = _run(
        compare_hands_chunk, arms, deals, seed, reference, chunk, progress, scheduler, ranges
    )
    return _table(arms, sums, HAND_METRICS, "diff")


def compare_games(
    arms: Sequence[Arm],
    games: int,
    seed: int = 0,
    reference: int = 0,
    chunk: int = 1 << 11,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """One row per arm: A's ``game_win`` rate, final ``margin`` (points), ``hands`` per
    game and ``shutout`` rate with 95% CIs, and ``diff`` = game-win rate minus the
    reference arm's, paired game by game; ``n`` = seat-swapped game pairs."""
    ranges = _sums_ranges(len(arms), _GAME_RANGES, "game_diff", 1)
    sums = _run(
        compare_games_chunk, arms, games, seed, reference, chunk, progress, scheduler, ranges
    )
    return _table(arms, sums, ("game_win", "margin", "hands", "shutout"), "game_diff")


def knock_arms(
    rules: Rules, subject: Policy, opponent: Policy | None, thresholds: Sequence[int]
) -> list[Arm]:
    """Arms where A knocks at each threshold; B is ``opponent`` or, when None, A's twin."""
    arms = []
    for threshold in thresholds:
        policy = subject.with_knock(threshold)
        arms.append(Arm(f"t={threshold}", rules, policy, opponent or policy))
    return arms
