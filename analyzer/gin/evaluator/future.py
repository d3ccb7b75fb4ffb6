"""The next-draw term: the mean of the lowest least-deadwoods a 10-card hand reaches by
drawing one card of a pool and throwing any of the 11 (the term of the EAAI agent MARJJ's
discard, :mod:`analyzer.gin.decisions.marjj`, and a feature of the learned discard,
:mod:`analyzer.gin.decisions.learned`).

Exact, and cheap: only drawn cards that make a meld with two cards of the hand
(:func:`meld_partners`) are evaluated in full, each at about the cost of one
minimum-deadwood search (:func:`least_after_throw_kernel`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from ...core.cards import CARD_POINTS
from ...core.lanes import popcount, run_outs, split_lanes
from .partition import least_after_throw_kernel

#: How many of the lowest next-draw deadwoods the term averages.
FUTURE_CARDS = 7
#: Where the term's work space starts in a decision's ``work`` array (the engine's
#: scratch from entry 52: after the expert's probabilities and inference tag; see
#: :data:`analyzer.gin.model.state.SCRATCH_SIZE`).
LOWEST_AT = 58


def _cards_worth() -> Int64s:
    """Entry ``v``: the mask of the cards worth ``v`` points (1-10)."""
    masks = np.zeros(11, dtype=np.int64)
    for card, points in enumerate(CARD_POINTS):
        masks[points] |= np.int64(1) << np.int64(card)
    return masks


_CARDS_WORTH = _cards_worth()


@njit(cache=True)
def meld_partners(hand: np.int64) -> np.int64:
    """The cards outside ``hand`` that make a meld with two cards of ``hand``: a third or
    fourth card of a rank the hand holds twice, or a card with two of its suit in a run of
    three (the two below it, the two above it, or one on each side; aces low only).  Every
    meld of a card and cards of the hand holds one of these melds of three, so a card not
    listed is in no meld of the hand with it."""
    c, d, h, s = split_lanes(hand)
    pairs = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    out = pairs | pairs << 13 | pairs << 26 | pairs << 39
    out |= run_outs(c) | run_outs(d) << 13 | run_outs(h) << 26 | run_outs(s) << 39
    return out & ~hand


@njit(cache=True)
def lowest_space(work: Int64s) -> Int64s:
    """The term's work space (``FUTURE_CARDS`` entries) inside ``work`` when it is long
    enough, else a new array: allocating in the hot loop serialises the threads."""
    if work.shape[0] >= LOWEST_AT + FUTURE_CARDS:
        return work[LOWEST_AT : LOWEST_AT + FUTURE_CARDS]
    return np.empty(FUTURE_CARDS, dtype=np.int64)


@njit(cache=True)
def _keep_lowest(lowest: Int64s, kept: np.int64, value: np.int64) -> np.int64:
    """Insert ``value`` into the ascending ``lowest[:kept]`` (at most ``FUTURE_CARDS``
    entries, the largest dropped); return the new count."""
    if kept < FUTURE_CARDS:
        position = kept
        kept += 1
    elif value < lowest[kept - 1]:
        position = kept - 1
    else:
        return kept
    while position > 0 and lowest[position - 1] > value:
        lowest[position] = lowest[position - 1]
        position -= 1
    lowest[position] = value
    return kept


@njit(cache=True)
def future_deadwood(
    hand10: np.int64, deadwood: np.int64, pool: np.int64, lowest: Int64s
) -> np.float64:
    """Mean of the ``FUTURE_CARDS`` lowest least-deadwoods after drawing a card of
    ``pool`` to ``hand10`` (whose least deadwood is ``deadwood``) and throwing any of the
    11 (points; ``deadwood`` when the pool is empty); ``lowest`` is work space of
    ``FUTURE_CARDS`` entries.

    A drawn card that makes no meld with two cards of the hand is in no meld of the 11, so
    it is thrown again (``deadwood``) or kept in place of the throw that leaves the 9 other
    cards the least deadwood."""
    near = meld_partners(hand10)
    nine = least_after_throw_kernel(hand10)
    kept = np.int64(0)
    apart = pool & ~near
    # the other cards' values depend only on their points and grow with them: count the
    # cards of each value, lowest first, until no more can be among the lowest
    for points in range(1, 11):
        value = min(deadwood, nine + points)
        if kept == FUTURE_CARDS and value >= lowest[kept - 1]:
            break
        count = min(popcount(apart & _CARDS_WORTH[points]), np.int64(FUTURE_CARDS))
        for _ in range(count):
            kept = _keep_lowest(lowest, kept, value)
    rest = pool & near
    while rest:
        bit = rest & -rest
        rest ^= bit
        kept = _keep_lowest(lowest, kept, least_after_throw_kernel(hand10 | bit))
    if kept == 0:
        return np.float64(deadwood)
    total = 0.0
    for i in range(kept):
        total += lowest[i]
    return total / kept


__all__ = ["FUTURE_CARDS", "LOWEST_AT", "future_deadwood", "lowest_space", "meld_partners"]
