"""Putting cards on a plain-rummy table, as numba kernels: the melds and layoffs of an
arrangement found by :func:`analyzer.rummy.layoffs.with_table` (``MODE_ARRANGE``), and
the melds a "rummy on the board" call takes from the top of the pile.

The table is ``melds`` (52-bit masks) and ``owners`` (the seat of each), ``n_melds`` of
them; every function that adds melds returns the new count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.arrays import Int8s, Int64s
from ..core.cards import N_RANKS
from ..core.lanes import LANE_MASK, bits_of
from .layoffs import View, card_of


@njit(cache=True)
def _coverable(length: np.int64, cap: np.int64) -> bool:
    """Whether ``length`` consecutive cards split into runs of 3..cap cards."""
    if length == 0:
        return True
    for part in range(3, min(cap, length) + 1):
        if _coverable(length - part, cap):
            return True
    return False


@njit(cache=True)
def add_meld(
    mask: np.int64, owner: np.int64, melds: Int64s, owners: Int64s, n_melds: np.int64
) -> np.int64:
    """Put meld ``mask``, owned by seat ``owner``, on the table; returns the new count."""
    melds[n_melds] = mask
    owners[n_melds] = owner
    return n_melds + 1


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
def play_arrangement(
    hand: np.int64,
    player: np.int64,
    view: Int64s,
    best: Int64s,
    best_choice: Int64s,
    rm: Int64s,
    cap: np.int64,
    melds: Int64s,
    owners: Int64s,
    n_melds: np.int64,
) -> tuple[np.int64, np.int64]:
    """Put the arrangement recorded by ``MODE_ARRANGE`` on the table: chains onto runs,
    fourth cards onto sets, the hand's own sets and runs as new melds.

    Returns the cards left in hand and the new number of table melds.
    """
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        meld = view[base + 3]
        for i in range(1, best_choice[2 * k] + 1):
            card = np.int64(1) << (view[base] - i)
            melds[meld] |= card
            hand &= ~card
        for i in range(1, best_choice[2 * k + 1] + 1):
            card = np.int64(1) << (view[base + 1] + i)
            melds[meld] |= card
            hand &= ~card
    for card in bits_of(best[2]):
        melds[view[View.SET_MELD + card_of(card) % 13]] |= card
        hand &= ~card
    sets = best[1]
    hand &= ~sets
    for rank in range(N_RANKS):
        cards = (
            sets & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << rank
        )
        if cards:
            n_melds = add_meld(cards, player, melds, owners, n_melds)
    for suit in range(4):
        bits = rm[(hand >> (13 * suit)) & LANE_MASK]
        hand &= ~(bits << (13 * suit))
        rank = 0
        while rank < N_RANKS:
            if not bits >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < N_RANKS and bits >> rank & 1:
                rank += 1
            # split a block longer than the cap into runs that are each legal
            left = rank - start
            while left:
                part = min(cap, left)
                while not _coverable(left - part, cap):
                    part -= 1
                mask = ((np.int64(1) << part) - 1) << (13 * suit + start)
                n_melds = add_meld(mask, player, melds, owners, n_melds)
                start += part
                left -= part
    return hand, n_melds


@njit(cache=True)
def pile_meld(pile: Int8s, n_pile: np.int64, cap: np.int64) -> np.int64:
    """Largest k >= 3 such that the top k cards of the pile form a legal meld, else 0."""
    for k in range(min(n_pile, max(cap, 4)), 2, -1):
        mask = np.int64(0)
        for i in range(n_pile - k, n_pile):
            mask |= np.int64(1) << np.int64(pile[i])
        low = card_of(mask)
        lane = mask >> (13 * (low // 13))
        if k <= cap and lane == (np.int64(1) << k) - 1 << (low % 13) and lane <= LANE_MASK:
            return k
        ranks = mask | mask >> 13 | mask >> 26 | mask >> 39
        if k <= 4 and (ranks & LANE_MASK) == np.int64(1) << (low % 13):
            return k
    return np.int64(0)
