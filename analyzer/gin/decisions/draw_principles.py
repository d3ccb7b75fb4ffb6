"""The ``principles`` draw: when to take the face-up card, as a rule a person can follow at
the table, written from what the champion's draw weighs
(:func:`analyzer.gin.decisions.expert.expert_wants_upcard`) and measured by ``analyzer
how-to-draw`` (:mod:`analyzer.gin.studies.draw_principles`).

The player (10 cards) takes the pile's top card ``t``

* with ``take_melds``: when some best arrangement of the 11 cards melds it (the ``meld``
  draw, the champion's first clause);
* with ``take_points`` > 0: when its *gain* is at least ``take_points`` points, the gain
  being, for the best throw ``d`` after taking it (any card held; ``t`` may not be
  thrown), the deadwood it takes off (the least deadwood now less the least deadwood of
  the hand with ``t`` in and ``d`` out), plus ``take_out_points`` for each of ``t``'s
  *outs* kept (the cards that would make a meld with it and another card then held,
  :func:`~analyzer.gin.decisions.principles.outs_of`), less as much for each of ``d``'s;
  with ``take_live_only`` only the unseen outs count (not in the discard pile, not held by
  the opponent); from ``take_late_stock`` or fewer cards left in the stock on, outs no
  longer count (0: they always do).  This is the champion's second clause, its hand value
  (deadwood less its weighted live outs) improved by more than ``take_margin``, in points
  a person can count.

With neither it never takes the face-up card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from ...core.lanes import bit_index, bits_of, popcount
from ..evaluator.partition import discard_deadwoods_kernel, melds_card_kernel, min_deadwood_kernel
from ..model.knowledge import pile_top, unseen_cards
from ..model.policy_fields import PolicyField
from ..model.state import Slot, stock_left
from .principles import outs_counted


@njit(cache=True)
def _outs_points(
    card: np.int64,
    hand: np.int64,
    unseen: np.int64,
    stock: np.int64,
    policy: Int64s,
    thrown: np.int64,
) -> np.int64:
    """``take_out_points`` for each out of ``card`` (in ``hand``) the draw counts, not
    counting the cards of ``thrown`` (the card thrown after the take)."""
    points = policy[PolicyField.TAKE_OUT_POINTS]
    counted = outs_counted(
        card,
        hand,
        unseen,
        stock,
        points,
        policy[PolicyField.TAKE_LIVE_ONLY],
        policy[PolicyField.TAKE_LATE_STOCK],
    )
    counted_points: np.int64 = points * popcount(counted & ~thrown)
    return counted_points


@njit(cache=True)
def take_gain(
    hand: np.int64,
    card: np.int64,
    unseen: np.int64,
    stock: np.int64,
    policy: Int64s,
    scratch: Int64s,
) -> tuple[np.int64, np.int64]:
    """(the gain of taking ``card`` into the 10 cards of ``hand``, points, see the module
    notes; the throw that gives it, ties to the lower card index) with ``unseen`` the
    unseen cards and ``stock`` cards left in the stock (``scratch``: 52 int64)."""
    bit = np.int64(1) << card
    taken = hand | bit
    now = min_deadwood_kernel(hand)
    discard_deadwoods_kernel(taken, hand, scratch)
    best, best_throw = np.int64(-(1 << 30)), np.int64(-1)
    for throw_bit in bits_of(hand):
        throw = bit_index(throw_bit)
        kept = taken ^ throw_bit
        gain = (
            now
            - scratch[throw]
            + _outs_points(card, kept, unseen, stock, policy, throw_bit)
            - _outs_points(throw, hand, unseen, stock, policy, np.int64(0))
        )
        if gain > best:
            best, best_throw = gain, throw
    return best, best_throw


@njit(cache=True)
def principles_wants_upcard(
    state: Int64s, player: np.int64, policy: Int64s, scratch: Int64s
) -> bool:
    """Whether ``player`` (10 cards) takes the pile's top by the draw principles
    (``scratch``: 52 int64)."""
    top = pile_top(state)
    if top < 0:
        return False
    hand = state[Slot.HAND + player]
    if policy[PolicyField.TAKE_MELDS] != 0 and melds_card_kernel(hand | (np.int64(1) << top), top):
        return True
    if policy[PolicyField.TAKE_POINTS] == 0:
        return False
    gain, _ = take_gain(hand, top, unseen_cards(state, player), stock_left(state), policy, scratch)
    return bool(gain >= policy[PolicyField.TAKE_POINTS])


__all__ = ["principles_wants_upcard", "take_gain"]
