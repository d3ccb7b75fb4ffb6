"""The next-draw term: the mean of the lowest least-deadwoods a 10-card hand reaches by
drawing one card of a pool and throwing any of the 11 (the term of the EAAI agent MARJJ's
discard, :mod:`analyzer.gin.decisions.marjj`, and a feature of the learned discard,
:mod:`analyzer.gin.decisions.learned`).

Exact, and cheap: only drawn cards that can join a meld with the hand are evaluated in
full, each at about the cost of one minimum-deadwood search
(:func:`least_after_throw_kernel`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ...core.cards import CARD_POINTS, NEAR1, RANK_MATES
from ...core.lanes import bit_index
from .partition import least_after_throw_kernel

#: How many of the lowest next-draw deadwoods the term averages.
FUTURE_CARDS = 7


#: For each card, the cards a meld with it must contain one of: its rank in the other
#: suits and the ranks next to it in its suit.
_NEIGHBOURS = RANK_MATES | NEAR1


@njit(cache=True)
def touching(hand: np.int64) -> np.int64:
    """The cards outside ``hand`` that can join a meld with cards of ``hand``."""
    out = np.int64(0)
    rest = hand
    while rest:
        bit = rest & -rest
        rest ^= bit
        out |= _NEIGHBOURS[bit_index(bit)]
    return out & ~hand


@njit(cache=True)
def _keep_lowest(lowest: npt.NDArray[np.int64], kept: np.int64, value: np.int64) -> np.int64:
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
    hand10: np.int64, deadwood: np.int64, pool: np.int64, lowest: npt.NDArray[np.int64]
) -> np.float64:
    """Mean of the ``FUTURE_CARDS`` lowest least-deadwoods after drawing a card of
    ``pool`` to ``hand10`` (whose least deadwood is ``deadwood``) and throwing any of the
    11 (points; ``deadwood`` when the pool is empty); ``lowest`` is work space of
    ``FUTURE_CARDS`` entries.

    A drawn card that touches no card of the hand is in no meld of the 11, so it is thrown
    again (``deadwood``) or kept in place of the throw that leaves the 9 other cards the
    least deadwood."""
    near = touching(hand10)
    nine = least_after_throw_kernel(hand10)
    kept = np.int64(0)
    rest = pool & ~near
    while rest:
        bit = rest & -rest
        rest ^= bit
        kept = _keep_lowest(lowest, kept, min(deadwood, nine + CARD_POINTS[bit_index(bit)]))
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


__all__ = ["FUTURE_CARDS", "future_deadwood", "touching"]
