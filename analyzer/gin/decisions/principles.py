"""The ``principles`` discard: a player's rule set, a rule a person can follow at the
table, written from what the champion's learned discard weighs
(:mod:`analyzer.gin.decisions.learned`) and measured by ``analyzer how-to-discard``.

When it does not knock (the knock is decided as the expert's,
:func:`analyzer.gin.decisions.expert.knock_choice`), the player throws one of its
*unmatched* cards (those outside a best arrangement of the 11 cards, never the card just
taken from the pile): the one of highest value, where a card's value is its points

* less ``out_points`` for each of its *outs*, the cards that would make a meld with it and
  another card held (the learned discard's next-draw term, by far its heaviest weight);
  with ``live_only`` only the unseen ones count (not in the discard pile, not held by the
  opponent: the learned discard's ``outs`` term); from ``late_stock`` or fewer cards left
  in the stock on, outs no longer count (0: they always do);
* less ``feed_points`` when the card shares its rank with, or sits within two ranks in
  its suit of, a card the opponent took from the pile and still holds (the learned
  discard's ``danger`` and ``table`` terms);

ties to the higher card (rank, then card index).  With both weights 0 it is the ``high``
discard (the least deadwood, the highest card).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s, UInt64s
from ...core.cards import CARD_POINTS, NEAR1, NEAR2, RANK_MATES
from ...core.lanes import bit_index, bits_of, cards_of, popcount
from ...core.linking import compiled_once
from ..model.knowledge import unseen_cards
from ..model.policy_fields import PolicyField
from ..model.state import Slot, stock_left
from .expert import _better_high, knock_choice


@njit(cache=True)
def unmatched_cards(candidates: np.int64, deadwoods: Int64s) -> np.int64:
    """The cards of ``candidates`` outside a best arrangement of the hand: those whose
    throw leaves the hand's deadwood less exactly the card's points (``deadwoods[c]``: the
    least deadwood after throwing ``c``, points).  When no candidate is (the only such card
    was just taken from the pile) the candidates whose throw costs least."""
    least = np.int64(1 << 30)
    for card in cards_of(candidates):
        least = min(least, deadwoods[card] + CARD_POINTS[card])
    chosen = np.int64(0)
    for bit in bits_of(candidates):
        card = bit_index(bit)
        if deadwoods[card] + CARD_POINTS[card] == least:
            chosen |= bit
    return chosen


@njit(cache=True)
def feeds(card: np.int64, held: np.int64) -> bool:
    """Whether ``card`` shares its rank with, or sits within two ranks in its suit of, a
    card of ``held`` (the cards the opponent took from the pile and still holds)."""
    related: np.int64 = RANK_MATES[card] | NEAR1[card] | NEAR2[card]
    return bool(related & held != 0)


@njit(cache=True)
def outs_of(card: np.int64, hand: np.int64) -> np.int64:
    """The cards outside ``hand`` that would make a meld with ``card`` and another card of
    ``hand`` (a third card of a pair's rank; a card completing a run of three), as a mask."""
    outs = np.int64(0)
    if RANK_MATES[card] & hand:
        outs |= RANK_MATES[card]
    # a card two ranks away is joined by the one between; one rank away, by either end
    for bit in bits_of(NEAR2[card] & hand):
        outs |= NEAR1[card] & NEAR1[bit_index(bit)]
    for bit in bits_of(NEAR1[card] & hand):
        outs |= (NEAR1[card] | NEAR1[bit_index(bit)]) & ~(np.int64(1) << card) & ~bit
    return outs & ~hand


@njit(cache=True)
def outs_counted(
    card: np.int64,
    hand: np.int64,
    unseen: np.int64,
    stock: np.int64,
    out_points: np.int64,
    live_only: np.int64,
    late_stock: np.int64,
) -> np.int64:
    """The outs of ``card`` (:func:`outs_of`) a rule counts at ``out_points`` each with
    ``stock`` cards left in the stock: none when ``out_points`` is 0 or the hand is late
    (``late_stock`` or fewer cards left, ``late_stock`` > 0); with ``live_only`` (not 0)
    only those of ``unseen``.  The discard and the draw principles both count them."""
    if out_points == 0 or (late_stock > 0 and stock <= late_stock):
        return np.int64(0)
    outs = outs_of(card, hand)
    if live_only != 0:
        outs &= unseen
    return outs


@njit(cache=True)
def counted_outs(
    card: np.int64, hand: np.int64, unseen: np.int64, stock: np.int64, policy: Int64s
) -> np.int64:
    """The outs of ``card`` the ``principles`` discard counts with ``stock`` cards left in
    the stock (:func:`outs_counted` with its ``out_points``, ``live_only`` and
    ``late_stock``)."""
    return outs_counted(
        card,
        hand,
        unseen,
        stock,
        policy[PolicyField.OUT_POINTS],
        policy[PolicyField.LIVE_ONLY],
        policy[PolicyField.LATE_STOCK],
    )


@njit(cache=True)
def throw_value(
    card: np.int64,
    hand: np.int64,
    unseen: np.int64,
    held: np.int64,
    stock: np.int64,
    policy: Int64s,
) -> np.int64:
    """The value the ``principles`` discard gives throwing ``card`` from ``hand`` (points;
    see the module notes), ``unseen`` and ``held`` (the cards the opponent took and holds)
    as masks, ``stock`` cards left: the unmatched card of highest value is thrown."""
    value: np.int64 = CARD_POINTS[card]
    value -= policy[PolicyField.OUT_POINTS] * popcount(
        counted_outs(card, hand, unseen, stock, policy)
    )
    if policy[PolicyField.FEED_POINTS] != 0 and feeds(card, held):
        value -= policy[PolicyField.FEED_POINTS]
    return value


@compiled_once
@njit(cache=True)
def principles_discard(
    state: Int64s, player: np.int64, policy: Int64s, rng: UInt64s, scratch: Int64s, work: Int64s
) -> tuple[np.int64, bool]:
    """(card to throw, whether to knock) for ``player`` holding 11 cards (``scratch``: 52
    int64, ``work``: as :func:`analyzer.gin.decisions.expert.expert_discard`)."""
    candidates, _, knock_card, knock, _ = knock_choice(state, player, policy, rng, scratch, work)
    if knock:
        return knock_card, True
    unmatched = unmatched_cards(candidates, scratch)
    hand = state[Slot.HAND + player]
    unseen = unseen_cards(state, player)
    held = state[Slot.HELD + 1 - player]
    left = stock_left(state)
    best = np.int64(-1)
    best_value = np.int64(-(1 << 30))
    for card in cards_of(unmatched):
        value = throw_value(card, hand, unseen, held, left, policy)
        if value > best_value or (value == best_value and _better_high(card, best)):
            best, best_value = card, value
    return best, False


__all__ = [
    "counted_outs",
    "feeds",
    "outs_counted",
    "outs_of",
    "principles_discard",
    "throw_value",
    "unmatched_cards",
]
