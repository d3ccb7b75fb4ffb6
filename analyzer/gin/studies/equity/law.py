"""The hand-outcome law: who scores and how many points, by dealer, estimated from
simulated deals (or made by hand), and its arrays on a common grid of score steps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ....core.arrays import Float64s, Int64s
from ...model.policies import Policy, format_policy
from ...model.rules import Rules
from ...play.game_kernels import HandColumn
from ...play.simulate import hand_rows

_SEATS = ("A", "B")
_NONE = "none"
#: Deals per call of the hand kernel (bounds the memory of the per-hand rows).
_CHUNK = 1 << 16


def hand_outcome_distribution(
    rules: Rules,
    policy_a: Policy,
    policy_b: Policy,
    deals: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """The joint law of one hand's result by dealer, estimated from simulated deals.

    Every deal is played twice on the same cards, once with each player dealing, so
    both dealers' laws are estimated from the same ``deals`` decks.

    Parameters
    ----------
    rules : Rules
    policy_a, policy_b : Policy
        Policies of player A (seat 0) and B.
    n_deals : int
        Deals (each gives one hand per dealer).
    seed : int
        Seed of :func:`analyzer.gin.play.simulate.hand_rows`.
    progress : callable, optional
        Called with the number of deals after each chunk.

    Returns
    -------
    pandas.DataFrame
        One row per (``dealer``, ``winner``, ``points``) seen: ``dealer`` is ``"A"`` or
        ``"B"``; ``winner`` is ``"A"``, ``"B"`` or ``"none"`` (a drawn hand, or a tie
        scored 0, which the same dealer redeals); ``points`` is the hand's score
        (points; every won hand is also one box); ``hands`` the count; ``probability``
        the share of that dealer's hands; ``se`` its binomial standard error.
        ``attrs`` records the rules, policies, seed and deals.
    """
    if deals < 1:
        raise ValueError(f"deals must be >= 1, got {deals}")
    counts: dict[tuple[int, int, int], int] = {}
    for first in range(0, deals, _CHUNK):
        rows = hand_rows(rules, policy_a, policy_b, seed, first, min(_CHUNK, deals - first))
        keys, tally = np.unique(
            rows[:, [HandColumn.DEALER, HandColumn.WINNER, HandColumn.POINTS]],
            axis=0,
            return_counts=True,
        )
        for key, count in zip(keys.tolist(), tally.tolist(), strict=True):
            counts[tuple(key)] = counts.get(tuple(key), 0) + count
        if progress is not None:
            progress(len(rows) // 2)
    # a drawn hand and a tie both have winner -1 and 0 points: one row per dealer
    frame = pd.DataFrame(
        [
            (_SEATS[dealer], _NONE if winner < 0 else _SEATS[winner], points, count)
            for (dealer, winner, points), count in sorted(counts.items())
        ],
        columns=["dealer", "winner", "points", "hands"],
    )
    n = frame.groupby("dealer")["hands"].transform("sum")
    frame["probability"] = frame["hands"] / n
    frame["se"] = np.sqrt(frame["probability"] * (1 - frame["probability"]) / n)
    frame.attrs.update(
        rules=rules.describe(),
        policy_a=format_policy(policy_a),
        policy_b=format_policy(policy_b),
        seed=seed,
        deals=deals,
    )
    return frame


def toy_distribution(
    probabilities: dict[tuple[str, int], float],
    dealer_b: dict[tuple[str, int], float] | None = None,
) -> pd.DataFrame:
    """A hand-made law in the format of :func:`hand_outcome_distribution` (for tests).

    ``probabilities`` maps (winner, points) to a probability when A deals, ``dealer_b``
    when B deals (default: the same); a missing remainder is the draw probability.
    ``hands`` holds the probabilities (there are no counts to resample).
    """
    rows = []
    for dealer, law in (("A", probabilities), ("B", dealer_b or probabilities)):
        for (winner, points), p in law.items():
            rows.append((dealer, winner, points, p))
        rows.append((dealer, _NONE, 0, 1.0 - sum(law.values())))
    frame = pd.DataFrame(rows, columns=["dealer", "winner", "points", "probability"])
    frame = frame[frame["probability"] > 0].reset_index(drop=True)
    frame["hands"] = frame["probability"]
    frame["se"] = 0.0
    return frame


def hand_summary(distribution: pd.DataFrame) -> dict[str, float]:
    """A's hand win rate and points per hand (A's minus B's), each the mean over the
    two dealers of a hand-outcome distribution."""
    signed = np.select(
        [distribution["winner"] == "A", distribution["winner"] == "B"],
        [distribution["points"], -distribution["points"]],
        0,
    )
    p = distribution["probability"]
    return {
        "hand_win": float((p * (distribution["winner"] == "A")).sum() / 2),
        "points_per_hand": float((p * signed).sum() / 2),
    }


@dataclass(frozen=True)
class Law:
    """Laws of decided hands as arrays: ``win[l, w, d, k]`` is P(winner ``w`` scores
    ``steps[k]`` | dealer ``d``, the hand is decided) under law ``l``; ``decided[l, d]``
    is P(the hand is decided)."""

    steps: Int64s
    win: Float64s
    decided: Float64s


def stack_laws(frames: Sequence[pd.DataFrame], rules: Rules) -> Law:
    """Stack distributions on a common grid of score steps (points, line bonus included
    when the rules pay it with each hand)."""
    immediate = rules.line_bonus if rules.line_bonus_timing == "immediate" else 0
    won = [f[f["winner"] != _NONE] for f in frames]
    if any((w["points"] + immediate <= 0).any() for w in won):
        # a hand won for 0 points would leave the score where it was and loop the chain
        raise ValueError(
            "the equity table needs every won hand to score > 0 points "
            "(undercut_bonus=0 with ties as undercuts breaks this)"
        )
    steps = np.unique(np.concatenate([w["points"].to_numpy() for w in won])) + immediate
    win = np.zeros((len(frames), 2, 2, len(steps)))
    decided = np.zeros((len(frames), 2))
    for index, (frame, wins) in enumerate(zip(frames, won, strict=True)):
        for d, dealer in enumerate(_SEATS):
            total = frame.loc[frame["dealer"] == dealer, "probability"].sum()
            mine = wins[wins["dealer"] == dealer]
            decided[index, d] = mine["probability"].sum() / total
            if decided[index, d] == 0:
                raise ValueError(f"no hand dealt by {dealer} was decided: the game never ends")
            for w, winner in enumerate(_SEATS):
                part = mine[mine["winner"] == winner]
                k = np.searchsorted(steps, part["points"].to_numpy() + immediate)
                np.add.at(win[index, w, d], k, part["probability"].to_numpy())
            win[index, :, d] /= decided[index, d] * total
    return Law(steps.astype(np.int64), win, decided)


def resample(frame: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """A multinomial bootstrap copy of a simulated distribution (counts redrawn per dealer)."""
    copy = frame.copy()
    for dealer in _SEATS:
        rows = copy["dealer"] == dealer
        counts = copy.loc[rows, "hands"].to_numpy()
        n = counts.sum()
        copy.loc[rows, "probability"] = rng.multinomial(n, counts / n) / n
    return copy


__all__ = [
    "Law",
    "hand_outcome_distribution",
    "hand_summary",
    "resample",
    "stack_laws",
    "toy_distribution",
]
