"""Bit and lane kernels shared by every game: suit lanes, run tables, set decisions.

A hand is a 52-bit ``np.int64`` mask; lane ``k`` (bits ``13k..13k+12``) is suit ``k``.
Gin rummy (:mod:`analyzer.gin.evaluator.partition`) and plain rummy (:mod:`analyzer.rummy.layoffs`)
build their evaluators on these kernels, each with its own run tables (plain rummy caps
the run length).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
from numba import njit

from .arrays import Int64s
from .cards import N_RANKS, SUIT_BITS

#: Deadwood left above any reachable hand value; marks "no arrangement" in kernels.
NO_ARRANGEMENT = np.int64(1 << 20)
#: The 13 bits of one suit lane.
LANE_MASK = np.int64(SUIT_BITS)


@cache
def lane_tables(run_cap: int) -> tuple[Int64s, Int64s, Int64s]:
    """Tables over every 13-bit suit lane for runs of 3 to ``run_cap`` cards.

    Returns
    -------
    deadwood : ndarray(int64, shape=(8192,))
        Least points left unmelded in the lane using runs only.
    melded : ndarray(int64, shape=(8192,))
        Lane bits melded by one such best covering (ties: the lower cards stay out).
    points : ndarray(int64, shape=(8192,))
        Total points of the lane's cards.
    """
    values = [min(r + 1, 10) for r in range(N_RANKS)]
    deadwood = np.zeros(1 << N_RANKS, dtype=np.int64)
    melded = np.zeros(1 << N_RANKS, dtype=np.int64)
    points = np.zeros(1 << N_RANKS, dtype=np.int64)
    for lane in range(1 << N_RANKS):
        points[lane] = sum(values[r] for r in range(N_RANKS) if lane >> r & 1)
        for start, end in lane_stretches(lane):
            dead, bits = _cover_stretch(values[start:end], run_cap)
            deadwood[lane] += dead
            melded[lane] |= bits << start
    return deadwood, melded, points


def lane_stretches(lane: int) -> Iterator[tuple[int, int]]:
    """(first rank, rank after the last) of each stretch of consecutive ranks held in a
    13-bit suit lane, lowest first, each as long as it goes (for building tables in
    Python; the kernels walk their lanes themselves)."""
    rank = 0
    while rank < N_RANKS:
        if not lane >> rank & 1:
            rank += 1
            continue
        start = rank
        while rank < N_RANKS and lane >> rank & 1:
            rank += 1
        yield start, rank


def _cover_stretch(values: list[int], run_cap: int) -> tuple[int, int]:
    """(least points left, melded bits) covering consecutive cards by runs of 3..cap."""
    size = len(values)
    # best[i]: least deadwood of the first i cards; how[i]: length of the run ending at
    # card i, 0 when card i - 1 is left out
    best = [0] * (size + 1)
    how = [0] * (size + 1)
    for i in range(1, size + 1):
        best[i], how[i] = best[i - 1] + values[i - 1], 0
        for length in range(3, min(run_cap, i) + 1):
            if best[i - length] < best[i] or (best[i - length] == best[i] and how[i] == 0):
                best[i], how[i] = best[i - length], length
    bits, i = 0, size
    while i > 0:
        if how[i]:
            bits |= ((1 << how[i]) - 1) << (i - how[i])
            i -= how[i]
        else:
            i -= 1
    return best[size], bits


_DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((int(_DEBRUIJN) << _i) & (2**64 - 1)) >> 58] = _i


@njit(cache=True)
def bit_index(bit: np.int64) -> np.int64:
    """Index of the single set bit of ``bit`` (a de Bruijn multiply; wraps as uint64)."""
    return np.int64(_DEBRUIJN_INDEX[((bit * _DEBRUIJN) >> 58) & 63])


# The two generators are not cached: numba (0.68) registers a generator's code only when
# it compiles it, so a kernel compiled in a process that loaded the generator from the
# cache fails (KeyError in get_generator_impl).  A cached kernel has them inlined already.
@njit
def bits_of(mask: np.int64) -> Iterator[np.int64]:
    """Each set bit of ``mask`` as a one-bit mask, lowest first (a numba generator, for
    loops off the evaluator's hot path: there the plain loop is measurably faster)."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit


@njit
def cards_of(mask: np.int64) -> Iterator[np.int64]:
    """Index of each set bit of ``mask`` (each card of a hand), lowest first."""
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit_index(bit)


@njit(cache=True)
def popcount(mask: np.int64) -> np.int64:
    """Number of set bits (cards) of a mask."""
    count = np.int64(0)
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def cards_between(cards: np.int64, values: Int64s, low: np.int64, high: np.int64) -> np.int64:
    """The cards ``c`` of the mask ``cards`` whose ``values[c]`` is from ``low`` to
    ``high`` (both included)."""
    out = np.int64(0)
    rest = cards
    while rest:
        bit = rest & -rest
        rest ^= bit
        value = values[bit_index(bit)]
        if low <= value <= high:
            out |= bit
    return out


@njit(cache=True)
def run_outs(lane: np.int64) -> np.int64:
    """Ranks outside a 13-bit suit lane that make a run of three with two of its cards
    (the two below, the two above, or one on each side; aces low only)."""
    adjacent = lane & (lane >> 1)
    gaps = lane & (lane >> 2) & ~(lane >> 1)
    return ((adjacent >> 1) | (adjacent << 2) | (gaps << 1)) & LANE_MASK & ~lane


@njit(cache=True)
def split_lanes(mask: np.int64) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """The four 13-bit suit lanes (clubs, diamonds, hearts, spades) of a 52-bit mask."""
    return (
        mask & LANE_MASK,
        (mask >> 13) & LANE_MASK,
        (mask >> 26) & LANE_MASK,
        (mask >> 39) & LANE_MASK,
    )


@njit(cache=True)
def set_ranks(c: np.int64, d: np.int64, h: np.int64, s: np.int64) -> np.int64:
    """Rank bits held at least three times (the ranks that need a set decision)."""
    return (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)


@njit(cache=True)
def set_choices(c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64) -> np.int64:
    """Number of ways to decide the sets at the rank bits of ``pending``: 2 for a rank
    held three times (set or not), 6 for one held four times (none, all four, or the
    three-card set leaving out each suit)."""
    four = c & d & h & s
    count = np.int64(1)
    rest = pending
    while rest:
        bit = rest & -rest
        rest ^= bit
        count *= 6 if four & bit else 2
    return count


@njit(cache=True)
def choose_sets(
    c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64, choice: np.int64
) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """The lanes left for runs after set decision number ``choice`` (0 .. set_choices - 1,
    one mixed-radix digit per rank of ``pending``, lowest rank first: 0 no set, 1 a set of
    every card held, 2 + k the three-card set leaving suit k to the runs)."""
    four = c & d & h & s
    cc, dd, hh, ss = c, d, h, s
    rest = pending
    while rest:
        bit = rest & -rest
        rest ^= bit
        radix = 6 if four & bit else 2
        digit = choice % radix
        choice //= radix
        if digit:
            keep = ~bit
            cc, dd, hh, ss = cc & keep, dd & keep, hh & keep, ss & keep
            if digit == 2:
                cc |= bit
            elif digit == 3:
                dd |= bit
            elif digit == 4:
                hh |= bit
            elif digit == 5:
                ss |= bit
    return cc, dd, hh, ss


@njit(cache=True)
def lanes_min(
    c: np.int64,
    d: np.int64,
    h: np.int64,
    s: np.int64,
    pending: np.int64,
    forced: np.int64,
    run_deadwood: Int64s,
    run_melded: Int64s,
) -> np.int64:
    """Least deadwood of lanes c, d, h, s over every set decision at the ranks of
    ``pending``, runs by the lane tables ``run_deadwood`` / ``run_melded``
    (``RUN_DEADWOOD`` / ``RUN_MELDED`` here; plain rummy passes tables with capped runs).

    ``forced`` (a 52-bit mask, usually 0) lists cards that must end up melded: a decision
    leaving one of them as deadwood does not count.  ``run_melded`` is read only when
    ``forced`` is set.
    """
    best = NO_ARRANGEMENT
    for choice in range(set_choices(c, d, h, s, pending)):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, np.int64(choice))
        if forced != 0:
            loose = (
                (cc & ~run_melded[cc])
                | (dd & ~run_melded[dd]) << 13
                | (hh & ~run_melded[hh]) << 26
                | (ss & ~run_melded[ss]) << 39
            )
            if loose & forced:
                continue
        best = min(best, run_deadwood[cc] + run_deadwood[dd] + run_deadwood[hh] + run_deadwood[ss])
    return best


@njit(cache=True)
def lanes_discards(
    c: np.int64,
    d: np.int64,
    h: np.int64,
    s: np.int64,
    pending: np.int64,
    allowed: np.int64,
    run_deadwood: Int64s,
    out: Int64s,
) -> np.int64:
    """Lower ``out[card]`` to the deadwood left after discarding ``card`` (each card of
    ``allowed`` left in the lanes) under every set decision at the ranks of ``pending``;
    return the least deadwood of the lanes themselves."""
    best = NO_ARRANGEMENT
    for choice in range(set_choices(c, d, h, s, pending)):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, np.int64(choice))
        base = run_deadwood[cc] + run_deadwood[dd] + run_deadwood[hh] + run_deadwood[ss]
        best = min(best, base)
        for suit in range(4):
            lane = cc if suit == 0 else dd if suit == 1 else hh if suit == 2 else ss
            bits = lane & (allowed >> (13 * suit)) & LANE_MASK
            rank = 0
            while bits:
                if bits & 1:
                    value = base - run_deadwood[lane] + run_deadwood[lane ^ (np.int64(1) << rank)]
                    card = 13 * suit + rank
                    out[card] = min(out[card], value)
                bits >>= 1
                rank += 1
    return best
