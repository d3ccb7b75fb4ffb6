"""The meld partition kernels: minimum deadwood, discards and arrangements of 52-bit masks.

Algorithm
---------
A partition of a hand into melds is a choice of *sets* plus a choice of *runs*, and
runs never cross suits.  Two facts make the search tiny:

1. With the sets fixed, the best runs in one suit are forced: every maximal stretch of
   three or more consecutive ranks is melded whole (melding all of it leaves less
   deadwood than melding part of it), shorter stretches are deadwood.  So the deadwood
   of a 13-bit suit lane with runs only is a table lookup (``RUN_DEADWOOD``, 8,192
   entries, built once) and the melded cards another (``RUN_MELDED``).
2. Only ranks held three or four times need a set decision: with three cards, set or
   no set; with four, no set, the four-card set, or one of the four three-card sets.

``lanes_min`` numbers those decisions (a mixed-radix counter, see ``choose_sets``; no
decision at all for most hands: four lookups and three adds) and sums the four lane
lookups for each.  A 10-card hand has at most three such ranks, so at most
2 x 6 x 6 = 72 decisions.

The same enumeration, with a different evaluation, gives the best discard of an 11-card hand
exactly (every discard, every arrangement), the best arrangement for a knocker (the
fewest cards that could be laid off on it among the minimum-deadwood arrangements), and
the defender's deadwood after laying off (every choice of layoffs, each a prefix of a
chain of cards extending a run or completing a set).

All masks are ``np.int64``; card ``c`` is bit ``c``, lane ``k`` is bits ``13k..13k+12``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s, UInt64s
from ...core.cards import N_RANKS
from ...core.lanes import (
    LANE_MASK,
    NO_ARRANGEMENT,
    bit_index,
    choose_sets,
    lane_stretches,
    lane_tables,
    lanes_discards,
    lanes_min,
    popcount,
    set_choices,
    set_ranks,
    split_lanes,
)
from ...core.rng import next_below

#: Run-only deadwood (points) and melded cards of every suit lane, runs of any length.
RUN_DEADWOOD, RUN_MELDED, _ = lane_tables(N_RANKS)


def _run_split_table() -> Int64s:
    """For every suit lane, the number of ways to cut its melded stretches
    (``RUN_MELDED``) into runs of three or more cards.

    The EAAI framework lists a six-card run as two arrangements (the whole run, or two
    runs of three) and picks uniformly among its list, so a random minimum-deadwood
    arrangement weighs each set decision by this count.
    """
    splits = np.zeros(N_RANKS + 1, dtype=np.int64)
    splits[0] = 1
    for size in range(3, N_RANKS + 1):
        splits[size] = sum(splits[size - part] for part in range(3, size + 1))
    table = np.ones(1 << N_RANKS, dtype=np.int64)
    for lane in range(1 << N_RANKS):
        for start, end in lane_stretches(int(RUN_MELDED[lane])):
            table[lane] *= splits[end - start]
    return table


#: Ways to split each lane's runs into runs of 3+ cards (see :func:`_run_split_table`).
RUN_SPLITS = _run_split_table()

#: ``LANE_GAIN``'s value for an empty lane, below any real gain.
NO_GAIN = -(1 << 20)


def _lane_gain_table() -> Int64s:
    """For every suit lane, the most run-only deadwood (points) that taking one of its
    cards out removes (negative when every card breaks a run); ``NO_GAIN`` when empty."""
    lanes = np.arange(1 << N_RANKS, dtype=np.int64)
    table = np.full(1 << N_RANKS, NO_GAIN, dtype=np.int64)
    for rank in range(N_RANKS):
        bit = np.int64(1) << rank
        held = (lanes & bit) != 0
        gain = RUN_DEADWOOD[lanes[held]] - RUN_DEADWOOD[lanes[held] ^ bit]
        table[held] = np.maximum(table[held], gain)
    return table


#: See :func:`_lane_gain_table`.
LANE_GAIN = _lane_gain_table()


@njit(cache=True)
def _lanes_deadwood(c: np.int64, d: np.int64, h: np.int64, s: np.int64) -> np.int64:
    return RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]


@njit(cache=True)
def min_deadwood_kernel(hand: np.int64) -> np.int64:
    """Minimum deadwood (points) of a hand mask of any size."""
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    if pending == 0:
        return _lanes_deadwood(c, d, h, s)
    return lanes_min(c, d, h, s, pending, np.int64(0), RUN_DEADWOOD, RUN_MELDED)


@njit(cache=True)
def melds_card_kernel(hand: np.int64, card: np.int64) -> bool:
    """Whether some minimum-deadwood arrangement of ``hand`` melds ``card``."""
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    forced = np.int64(1) << card
    return lanes_min(c, d, h, s, pending, forced, RUN_DEADWOOD, RUN_MELDED) == lanes_min(
        c, d, h, s, pending, np.int64(0), RUN_DEADWOOD, RUN_MELDED
    )


@njit(cache=True)
def forms_meld_kernel(hand: np.int64, card: np.int64) -> bool:
    """Whether ``card`` makes some meld (a set of 3 or a run of 3) with cards of ``hand``,
    whether or not that meld is in a best arrangement."""
    suit, rank = card // 13, card % 13
    same_rank = np.int64(0)
    for other in range(4):
        if other != suit:
            same_rank += (hand >> (13 * other + rank)) & 1
    if same_rank >= 2:
        return True
    lane = (hand >> (13 * suit)) & LANE_MASK
    below = rank >= 1 and (lane >> (rank - 1)) & 1 == 1
    above = rank <= 11 and (lane >> (rank + 1)) & 1 == 1
    return bool(
        (below and (rank >= 2 and (lane >> (rank - 2)) & 1 == 1))
        or (below and above)
        or (above and (rank <= 10 and (lane >> (rank + 2)) & 1 == 1))
    )


@njit(cache=True)
def discard_deadwoods_kernel(hand: np.int64, allowed: np.int64, out: Int64s) -> None:
    """Fill ``out[card]`` (length 52) with the minimum deadwood left after discarding
    ``card``, for every card of ``hand & allowed``; other entries are left as they were.

    Exact: each discard's value is the minimum over every arrangement of what is left,
    because an arrangement of ``hand - card`` is an arrangement of ``hand`` that leaves
    ``card`` out of its sets.
    """
    allowed &= hand
    rest = allowed
    while rest:
        bit = rest & -rest
        rest ^= bit
        out[bit_index(bit)] = NO_ARRANGEMENT
    c, d, h, s = split_lanes(hand)
    lanes_discards(c, d, h, s, set_ranks(c, d, h, s), allowed, RUN_DEADWOOD, out)


@njit(cache=True)
def best_discard_kernel(
    hand: np.int64, allowed: np.int64, scratch: Int64s
) -> tuple[np.int64, np.int64]:
    """(least deadwood after one discard from ``hand & allowed``, mask of such discards)."""
    discard_deadwoods_kernel(hand, allowed, scratch)
    best = NO_ARRANGEMENT
    discards = np.int64(0)
    rest = hand & allowed
    while rest:
        bit = rest & -rest
        rest ^= bit
        value = scratch[bit_index(bit)]
        if value < best:
            best = value
            discards = bit
        elif value == best:
            discards |= bit
    return best, discards


@njit(cache=True)
def least_after_throw_kernel(hand: np.int64) -> np.int64:
    """The least deadwood (points) left after throwing one card of ``hand``: the value of
    :func:`best_discard_kernel` with every card allowed, at about the cost of one
    :func:`min_deadwood_kernel`.

    Every arrangement of the hand less a card ``x`` is a set decision of the whole hand
    that leaves ``x`` to the run lanes, with ``x`` then taken out of its lane; so the
    answer is, over the set decisions, the lanes' deadwood less the most any one card's
    removal takes off its lane (``LANE_GAIN``)."""
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    best = NO_ARRANGEMENT
    for choice in range(set_choices(c, d, h, s, pending)):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, np.int64(choice))
        gain = max(max(LANE_GAIN[cc], LANE_GAIN[dd]), max(LANE_GAIN[hh], LANE_GAIN[ss]))
        if gain > NO_GAIN:  # some card is left to the lanes to throw
            best = min(best, _lanes_deadwood(cc, dd, hh, ss) - gain)
    return best


@njit(cache=True)
def _exposure(sets: np.int64, runs: np.int64, hand: np.int64) -> np.int64:
    """Cards outside ``hand`` that could be laid off on these sets and runs."""
    spots = np.int64(0)
    c, d, h, s = split_lanes(sets)
    three = set_ranks(c, d, h, s) & ~(c & d & h & s)
    spots |= three & ~c
    spots |= (three & ~d) << 13
    spots |= (three & ~h) << 26
    spots |= (three & ~s) << 39
    for suit in range(4):
        lane = (runs >> (13 * suit)) & LANE_MASK
        spots |= (((lane << 1) | (lane >> 1)) & LANE_MASK & ~lane) << (13 * suit)
    return popcount(spots & ~hand)


@njit(cache=True)
def _best_arrangement(
    c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64, hand: np.int64
) -> tuple[np.int64, np.int64]:
    """(deadwood, set cards) of the best arrangement: least deadwood, then least exposure,
    then the first set decision in :func:`choose_sets` order (no sets first)."""
    best = NO_ARRANGEMENT
    best_exposure = NO_ARRANGEMENT
    best_sets = np.int64(0)
    for choice in range(set_choices(c, d, h, s, pending)):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, choice)
        deadwood = _lanes_deadwood(cc, dd, hh, ss)
        if deadwood > best:
            continue
        runs = RUN_MELDED[cc] | RUN_MELDED[dd] << 13 | RUN_MELDED[hh] << 26 | RUN_MELDED[ss] << 39
        sets = hand & ~(cc | dd << 13 | hh << 26 | ss << 39)
        exposure = _exposure(sets, runs, hand)
        if deadwood < best or exposure < best_exposure:
            best, best_exposure, best_sets = deadwood, exposure, sets
    return best, best_sets


@njit(cache=True)
def best_arrangement_kernel(hand: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """(deadwood, cards melded in sets, cards melded in runs) of the knocker's arrangement.

    Among the minimum-deadwood arrangements, the one leaving the fewest cards outside
    the hand that could be laid off on it; then the first in search order.
    """
    c, d, h, s = split_lanes(hand)
    deadwood, sets = _best_arrangement(c, d, h, s, set_ranks(c, d, h, s), hand)
    rest = hand & ~sets
    runs = np.int64(0)
    for suit in range(4):
        runs |= RUN_MELDED[(rest >> (13 * suit)) & LANE_MASK] << (13 * suit)
    return deadwood, sets, runs


@njit(cache=True)
def _lanes_splits(c: np.int64, d: np.int64, h: np.int64, s: np.int64) -> np.int64:
    return RUN_SPLITS[c] * RUN_SPLITS[d] * RUN_SPLITS[h] * RUN_SPLITS[s]


@njit(cache=True)
def random_arrangement_kernel(hand: np.int64, rng: UInt64s) -> tuple[np.int64, np.int64, np.int64]:
    """(deadwood, cards melded in sets, cards melded in runs) of one minimum-deadwood
    arrangement drawn at random, as the EAAI framework's simple player draws it.

    Uniform over the framework's list of best meld sets: each set decision of least
    deadwood weighs as many ways as its runs can be cut into runs of three or more
    (cutting a run changes neither the deadwood nor what can be laid off on it, so the
    whole runs are returned).  Draws one number from ``rng`` (a one-element stream).
    """
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    choices = set_choices(c, d, h, s, pending)
    best = NO_ARRANGEMENT
    total = np.int64(0)
    for choice in range(choices):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, choice)
        deadwood = _lanes_deadwood(cc, dd, hh, ss)
        if deadwood < best:
            best, total = deadwood, np.int64(0)
        if deadwood == best:
            total += _lanes_splits(cc, dd, hh, ss)
    pick = next_below(rng, total)
    for choice in range(choices):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, choice)
        if _lanes_deadwood(cc, dd, hh, ss) != best:
            continue
        weight = _lanes_splits(cc, dd, hh, ss)
        if pick < weight:
            runs = (
                RUN_MELDED[cc] | RUN_MELDED[dd] << 13 | RUN_MELDED[hh] << 26 | RUN_MELDED[ss] << 39
            )
            return best, hand & ~(cc | dd << 13 | hh << 26 | ss << 39), runs
        pick -= weight
    return best, np.int64(0), np.int64(0)  # unreachable: the weights sum to ``total``
