"""What may go on a plain-rummy table, as numba kernels: the cards an arrangement found
by :func:`analyzer.rummy.layoffs.with_table` (``MODE_ARRANGE``) leaves in hand, how a
stretch of run splits under the run cap, and the meld a "rummy on the board" call takes
from the top of the pile.  The transitions that put cards on the table are in
:mod:`analyzer.rummy.transitions`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.arrays import Int64s
from ..core.lanes import LANE_MASK
from .layoffs import View, card_of
from .state import Slot


@njit(cache=True)
def coverable(length: np.int64, cap: np.int64) -> bool:
    """Whether ``length`` consecutive cards split into runs of 3..cap cards."""
    if length == 0:
        return True
    for part in range(3, min(cap, length) + 1):
        if coverable(length - part, cap):
            return True
    return False


@njit(cache=True)
def arrangement_left(
    hand: np.int64, view: Int64s, best: Int64s, best_choice: Int64s, rm: Int64s
) -> np.int64:
    """Cards the arrangement recorded by ``MODE_ARRANGE`` leaves in hand, in the order
    the search removed them: chains, fourth cards, sets, then runs."""
    for k in range(view[View.RUNS]):
        a, b = best_choice[2 * k], best_choice[2 * k + 1]
        hand &= ~(((np.int64(1) << a) - 1) << (view[View.RUN0 + 4 * k] - a))
        hand &= ~(((np.int64(1) << b) - 1) << (view[View.RUN0 + 4 * k + 1] + 1))
    hand &= ~best[2] & ~best[1]
    for suit in range(4):
        hand &= ~(rm[(hand >> (13 * suit)) & LANE_MASK] << (13 * suit))
    return hand


@njit(cache=True)
def pile_meld(state: Int64s, cap: np.int64) -> np.int64:
    """Largest k >= 3 such that the top k cards of the pile form a legal meld, else 0."""
    n_pile = state[Slot.PILE_LEN]
    for k in range(min(n_pile, max(cap, 4)), 2, -1):
        mask = np.int64(0)
        for i in range(n_pile - k, n_pile):
            mask |= np.int64(1) << state[Slot.PILE + i]
        low = card_of(mask)
        lane = mask >> (13 * (low // 13))
        if k <= cap and lane == (np.int64(1) << k) - 1 << (low % 13) and lane <= LANE_MASK:
            return k
        ranks = mask | mask >> 13 | mask >> 26 | mask >> 39
        if k <= 4 and (ranks & LANE_MASK) == np.int64(1) << (low % 13):
            return k
    return np.int64(0)
