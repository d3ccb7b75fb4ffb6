"""Fitting the ``learned`` discard's weights from simulated deals (``analyzer fit-discard``).

The weights (:data:`analyzer.gin.decisions.learned.WEIGHT_KEYS` and the window) are fitted
by the cross-entropy method over simulated play (:mod:`analyzer.core.cem`): each
candidate plays every opponent of the panel on the *same* deals (common random numbers:
one seed per generation, each deal played twice with the seats swapped).  The panel is
:data:`FIT_OPPONENTS` plus the incumbent (the learner with the generation's mean
weights), so a candidate must also beat the current best.  A candidate's score is a soft
minimum of its points per hand over the panel (``softness`` in points).

At the end the fitted weights are compared with the starting ones on fresh deals,
opponent by opponent (paired by deal, 95% CI): the fit's held-out gain.

Randomness: generation ``g`` plays the deals of seed ``seed * 1000 + g`` (the streams of
:func:`analyzer.gin.play.simulate.hand_rows`) and draws its candidates from a numpy
generator seeded with ``seed``; the held-out comparison plays seed ``seed * 1000 + 999``.
A fit is the same whatever the thread count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core.arrays import Float64s
from ...core.cem import Generation, cross_entropy, soft_minimum
from ...core.progress import Progress, advance, tell_total
from ...core.stats import Estimate
from ..decisions.learned import WEIGHT_KEYS
from ..model.policies import PRESETS, Policy
from ..model.rules import Rules
from ..play.game_kernels import HandColumn
from ..play.simulate import hand_rows

#: The opponents of a fit besides the incumbent: the EAAI baseline player, the previous
#: expert, a lookahead discarder and the MARJJ replica.
FIT_OPPONENTS: tuple[str, ...] = ("eaai-simple", "expert-v3", "lookahead", "marjj")

#: (key, low, high, starting spread) of every fitted field (hundredths of a point per
#: unit of the feature; the window in points).
FIT_SPACE: tuple[tuple[str, int, int, int], ...] = (
    ("learned_deadwood", -500, 2000, 100),
    ("learned_future", -2000, 5000, 400),
    ("learned_future_late", -5000, 5000, 400),
    ("learned_outs", -2000, 2000, 100),
    ("learned_danger", -1000, 5000, 200),
    ("learned_late", -500, 500, 20),
    ("learned_table", -500, 500, 40),
    ("learned_window", 0, 20, 2),
)
assert tuple(key for key, *_ in FIT_SPACE[:-1]) == WEIGHT_KEYS


@dataclass(frozen=True)
class DiscardFit:
    """A whole fit: its settings, each generation, and the held-out comparison."""

    rules: str
    seed: int
    deals: int
    population: int
    elite: int
    softness: float
    start: Policy
    fitted: Policy
    generations: tuple[Generation, ...]
    held_out: dict[str, Estimate]
    """Per opponent: fitted minus starting weights, points per hand on fresh deals."""
    held_out_points: dict[str, Estimate]
    """Per opponent: the fitted policy's points per hand on those deals."""
    held_out_deals: int


def with_weights(base: Policy, weights: Float64s) -> Policy:
    """``base`` with the fitted fields of :data:`FIT_SPACE` set to ``weights`` (rounded)."""
    return base.changed(**{key: round(w) for (key, *_), w in zip(FIT_SPACE, weights, strict=True)})


def per_deal_points(
    rules: Rules, policy: Policy, opponent: Policy, seed: int, deals: int
) -> Float64s:
    """Points per hand to ``policy`` on each deal (the mean of its two seats)."""
    rows = hand_rows(rules, policy, opponent, seed, 0, deals)
    points: Float64s = rows[:, HandColumn.POINTS_A].astype(np.float64).reshape(-1, 2).mean(axis=1)
    return points


def fit_discard(
    rules: Rules,
    rules_name: str,
    base: Policy,
    opponents: Sequence[str] = FIT_OPPONENTS,
    *,
    generations: int,
    population: int,
    elite: int,
    deals: int,
    held_out_deals: int,
    softness: float,
    seed: int,
    progress: Progress | None = None,
) -> DiscardFit:
    """Fit the learned discard's weights starting from ``base`` (its discard rule set to
    ``learned``; see the module notes).  ``deals`` per candidate and opponent."""
    panel = {name: PRESETS[name] for name in opponents}
    start_policy = base.changed(discard="learned")
    start = [start_policy.value(s[0]) for s in FIT_SPACE]
    tell_total(
        progress,
        generations * population * (len(panel) + 1) * deals + 2 * len(panel) * held_out_deals,
    )

    def evaluate(generation: int, mean: Float64s, weights: Float64s) -> Float64s:
        # the panel and the incumbent (the learner with the generation's mean weights)
        deal_seed = seed * 1000 + generation
        incumbent = with_weights(start_policy, mean)
        policy = with_weights(start_policy, weights)
        points = np.zeros(len(panel) + 1)
        for o, opponent in enumerate([*panel.values(), incumbent]):
            points[o] = per_deal_points(rules, policy, opponent, deal_seed, deals).mean()
            advance(progress, deals)
        return points

    mean, done = cross_entropy(
        evaluate,
        start,
        FIT_SPACE,
        generations=generations,
        population=population,
        elite=elite,
        softness=softness,
        seed=seed,
    )
    fitted = with_weights(start_policy, mean)
    starting = with_weights(start_policy, np.array(start, dtype=np.float64))
    final_seed = seed * 1000 + 999
    held_out: dict[str, Estimate] = {}
    held_out_points: dict[str, Estimate] = {}
    for name, opponent in panel.items():
        new = per_deal_points(rules, fitted, opponent, final_seed, held_out_deals)
        old = per_deal_points(rules, starting, opponent, final_seed, held_out_deals)
        advance(progress, 2 * held_out_deals)
        held_out[name] = Estimate.of(new - old)
        held_out_points[name] = Estimate.of(new)
    return DiscardFit(
        rules_name,
        seed,
        deals,
        population,
        elite,
        softness,
        starting,
        fitted,
        done,
        held_out,
        held_out_points,
        held_out_deals,
    )


__all__ = [
    "FIT_OPPONENTS",
    "FIT_SPACE",
    "DiscardFit",
    "Generation",
    "fit_discard",
    "per_deal_points",
    "soft_minimum",
    "with_weights",
]
