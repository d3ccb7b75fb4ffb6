"""The ``learned`` discard: a linear evaluation of each throw, its weights fitted from
simulated deals (:mod:`analyzer.gin.studies.discard_fit`, ``analyzer fit-discard``).

For a throw ``c`` from the 11 cards ``H`` (not a card just taken from the pile) leaving
``H' = H - c``, with ``f = stock_left / 31`` the share of the stock still to come, the
features (:data:`FEATURES`, in this order) are:

``deadwood``     the least deadwood of ``H'`` (points);
``future``       the mean of the 7 lowest least-deadwoods after drawing one of the cards
                 this player has not seen to ``H'`` and throwing any card (points; the
                 term of the EAAI agent MARJJ's discard);
``future_late``  ``future x (1 - f)``;
``outs``         ``f x`` the live outs of ``H'`` (the cards completing a set or a run with
                 two of its cards, each counted by the chance the opponent does not hold
                 it, from the opponent-hand inference);
``danger``       the chance the opponent holds two cards that meld with ``c`` (inference);
``late_points``  ``(1 - f) x`` the card's points;
``table``        MARJJ's table of the opponent's use for ``c`` (points: neighbours and
                 same-rank cards taken by the opponent cost, ones held or seen gain).

Once the opponent has shown itself a racer in this game (``Slot.RACES``, see
:func:`analyzer.gin.model.knowledge.outraced`), ``learned_racer_deadwood`` is added to the
deadwood's weight: a racer's knock comes soon, and only a low deadwood then undercuts it.

The throw minimises ``sum_k w_k x feature_k`` (weights in hundredths of a point of the
hand's expected result per unit of the feature, a cost: the fitted coefficient negated), among the throws leaving at most
``learned_window`` points more than the least deadwood; ties go to the higher card.  The
knock is decided as the expert's (:func:`analyzer.gin.decisions.expert.knock_choice`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Float64s, Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.lanes import cards_between, cards_of
from ...core.linking import compiled_once
from ..evaluator.future import future_deadwood, lowest_space
from ..model.policy_fields import PolicyField
from ..model.state import Slot, stock_left
from .expert import _better_high, danger, knock_choice, live_outs
from .marjj import marjj_seen, opponent_score

#: The features of a throw, in the order of the weights (see the module notes).
FEATURES = ("deadwood", "future", "future_late", "outs", "danger", "late_points", "table")
#: The string-form keys of those fields.
WEIGHT_KEYS = (
    "learned_deadwood",
    "learned_future",
    "learned_future_late",
    "learned_outs",
    "learned_danger",
    "learned_late",
    "learned_table",
)
_FULL_STOCK = 31.0


@njit(cache=True)
def throw_features(
    state: Int64s,
    player: np.int64,
    card: np.int64,
    deadwood: np.int64,
    probs: Float64s,
    unseen: np.int64,
    lowest: Int64s,
) -> tuple[float, float, float, float, float, float, float]:
    """The features (:data:`FEATURES`, in order) of throwing ``card`` (leaving
    ``deadwood`` points) for ``player`` holding 11 cards (see the module notes);
    ``probs`` and ``unseen`` are the opponent-hand inference; ``lowest`` is work space of
    ``FUTURE_CARDS`` entries."""
    hand = state[Slot.HAND + player]
    hand10 = hand & ~(np.int64(1) << card)
    share = min(stock_left(state) / _FULL_STOCK, 1.0)
    future = future_deadwood(hand10, deadwood, unseen, lowest)
    return (
        np.float64(deadwood),
        future,
        future * (1.0 - share),
        share * live_outs(hand10, unseen, probs),
        danger(card, probs),
        (1.0 - share) * CARD_POINTS[card],
        opponent_score(card, hand, marjj_seen(state, player), state[Slot.TOOK + 1 - player]),
    )


@compiled_once
@njit(cache=True)
def learned_discard(
    state: Int64s, player: np.int64, policy: Int64s, rng: UInt64s, scratch: Int64s, work: Int64s
) -> tuple[np.int64, bool]:
    """(card to throw, whether to knock) for ``player`` holding 11 cards (``scratch``: 52
    int64, ``work``: 58 as :func:`analyzer.gin.decisions.expert.expert_discard`, or 65 to hold
    the next-draw term's work space as well, :func:`analyzer.gin.evaluator.future.lowest_space`)."""
    candidates, least, knock_card, knock, unseen = knock_choice(
        state, player, policy, rng, scratch, work
    )
    if knock:
        return knock_card, True
    probs = work[:52].view(np.float64)
    deadwood_weight = policy[PolicyField.LEARNED_DEADWOOD]
    if state[Slot.RACES + player] > 0:
        deadwood_weight += policy[PolicyField.LEARNED_RACER_DEADWOOD]
    lowest = lowest_space(work)
    best_card = np.int64(-1)
    best_score = np.inf
    # only the throws leaving at most learned_window points more than the least
    for card in cards_of(
        cards_between(candidates, scratch, least, least + policy[PolicyField.LEARNED_WINDOW])
    ):
        features = throw_features(state, player, card, scratch[card], probs, unseen, lowest)
        # the features' weighted sum, in the order of FEATURES (the fit's order)
        score = 0.0 + deadwood_weight * features[0]
        score += policy[PolicyField.LEARNED_FUTURE] * features[1]
        score += policy[PolicyField.LEARNED_FUTURE_LATE] * features[2]
        score += policy[PolicyField.LEARNED_OUTS] * features[3]
        score += policy[PolicyField.LEARNED_DANGER] * features[4]
        score += policy[PolicyField.LEARNED_LATE] * features[5]
        score += policy[PolicyField.LEARNED_TABLE] * features[6]
        if score < best_score or (score == best_score and _better_high(card, best_card)):
            best_card, best_score = card, score
    return best_card, False


__all__ = [
    "FEATURES",
    "WEIGHT_KEYS",
    "learned_discard",
    "throw_features",
]
