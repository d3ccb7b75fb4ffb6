"""Layoff kernels: the defender's deadwood after laying off onto the knocker's melds,
exactly (every choice of layoffs) or as the EAAI framework's greedy procedure does."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.lanes import LANE_MASK, bit_index, set_ranks, split_lanes
from .partition import min_deadwood_kernel, random_arrangement_kernel


@njit(cache=True)
def greedy_layoff_deadwood_kernel(
    defender: np.int64, sets: np.int64, runs: np.int64, rng: UInt64s
) -> np.int64:
    """The defender's deadwood (points) under the EAAI framework's procedure: it lays
    out a random minimum-deadwood arrangement of its own cards
    (:func:`random_arrangement_kernel`), then lays its other cards off one at a time on
    the knocker's melds (``sets``, ``runs``: the cards in the knocker's sets and runs)
    until none fits.  Runs grow as cards go on them, so chains work; a card fitting
    both a three-card set and a run goes on the run, the framework listing runs first.
    """
    _, own_sets, own_runs = random_arrangement_kernel(defender, rng)
    loose = defender & ~own_sets & ~own_runs
    changed = True
    while changed:
        changed = False
        rest = loose
        while rest:
            bit = rest & -rest
            rest ^= bit
            card = bit_index(bit)
            suit, rank = card // 13, card % 13
            lane = (runs >> (13 * suit)) & LANE_MASK
            on_run = (rank > 0 and lane >> (rank - 1) & 1) or (rank < 12 and lane >> (rank + 1) & 1)
            c, d, h, s = split_lanes(sets)
            held = (c >> rank & 1) + (d >> rank & 1) + (h >> rank & 1) + (s >> rank & 1)
            if on_run:
                runs |= bit
            elif held == 3:
                sets |= bit
            else:
                continue
            loose ^= bit
            changed = True
    deadwood = np.int64(0)
    while loose:
        bit = loose & -loose
        loose ^= bit
        deadwood += CARD_POINTS[bit_index(bit)]
    return deadwood


@njit(cache=True)
def _layoff_rec(defender: np.int64, chains: Int64s, lengths: Int64s, index: np.int64) -> np.int64:
    if index == len(lengths):
        return min_deadwood_kernel(defender)
    best = _layoff_rec(defender, chains, lengths, index + 1)
    left = defender
    for step in range(lengths[index]):
        left &= ~chains[index, step]
        best = min(best, _layoff_rec(left, chains, lengths, index + 1))
    return best


@njit(cache=True)
def layoff_deadwood_kernel(defender: np.int64, sets: np.int64, runs: np.int64) -> np.int64:
    """Least deadwood of ``defender`` after melding its own cards and laying off onto the
    knocker's melds (``sets``: cards in the knocker's sets, ``runs``: cards in its runs).

    A layoff is a prefix of a chain: the missing fourth card of a three-card set, or the
    defender's cards continuing a run downwards or upwards one rank at a time.  Every
    combination of prefixes is tried, each with the defender's best melds for the rest.
    """
    chains = np.zeros((30, 13), dtype=np.int64)
    lengths = np.zeros(30, dtype=np.int64)
    n_chains = 0
    c, d, h, s = split_lanes(sets)
    three = set_ranks(c, d, h, s) & ~(c & d & h & s)
    fourth = (three & ~c) | (three & ~d) << 13 | (three & ~h) << 26 | (three & ~s) << 39
    fourth &= defender
    while fourth:
        card = fourth & -fourth
        chains[n_chains, 0] = card
        lengths[n_chains] = 1
        n_chains += 1
        fourth ^= card
    for suit in range(4):
        lane = (runs >> (13 * suit)) & LANE_MASK
        mine = (defender >> (13 * suit)) & LANE_MASK
        lows = lane & ~(lane << 1)
        highs = lane & ~(lane >> 1)
        for rank in range(13):
            bit = np.int64(1) << rank
            for direction in (-1, 1):
                if not (lows if direction < 0 else highs) & bit:
                    continue
                length = 0
                nxt = rank + direction
                while 0 <= nxt < 13 and mine >> nxt & 1:
                    chains[n_chains, length] = np.int64(1) << (nxt + 13 * suit)
                    length += 1
                    nxt += direction
                if length:
                    lengths[n_chains] = length
                    n_chains += 1
    return _layoff_rec(defender, chains[:n_chains], lengths[:n_chains], np.int64(0))
