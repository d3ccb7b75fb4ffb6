"""Numba kernels that evaluate gin rummy hands held as 52-bit masks.

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

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange, types
from numba.extending import intrinsic

from ...core.cards import (
    CARD_POINTS,
    FULL_DECK,
    N_RANKS,
    SUIT_BITS,
    HandLike,
    format_hand,
    to_indices,
    to_mask,
)
from ...core.lanes import (
    LANE_MASK,
    NO_ARRANGEMENT,
    bit_index,
    choose_sets,
    lane_tables,
    lanes_discards,
    lanes_min,
    popcount,
    set_choices,
    set_ranks,
    split_lanes,
)
from ...core.melds import meld_index
from ...core.rng import next_below, stream_key

#: Run-only deadwood (points) and melded cards of every suit lane, runs of any length.
RUN_DEADWOOD, RUN_MELDED, _ = lane_tables(N_RANKS)

#: Most cards the Python wrappers evaluate.  The largest hand a supported game needs is
#: 14 cards (plain rummy's largest deal, 13, plus a draw; gin needs 11: 10 dealt plus the
#: card drawn).  The search enumerates the set choices of ranks held three or four times
#: and grows about 6-fold per such rank (52 cards: 6**13 choices, hours); up to 16 cards
#: there are at most four, 6**4 = 1,296 choices, so every call stays under a millisecond.
MAX_HAND_CARDS = 16
#: Most hands :func:`dealt_deadwood_distribution` deals per kernel call (well under a
#: second of work: Ctrl-C is seen between calls).
DEALT_SPAN = 1 << 18
#: Sizes of a gin hand: before and after its draw.
GIN_HAND_SIZES = (10, 11)


def _run_split_table() -> npt.NDArray[np.int64]:
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
        melded = int(RUN_MELDED[lane])
        rank = 0
        while rank < N_RANKS:
            start = rank
            while rank < N_RANKS and melded >> rank & 1:
                rank += 1
            if rank > start:
                table[lane] *= splits[rank - start]
            else:
                rank += 1
    return table


#: Ways to split each lane's runs into runs of 3+ cards (see :func:`_run_split_table`).
RUN_SPLITS = _run_split_table()


# --------------------------------------------------------------------------- kernels


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
    return (lanes_min(c, d, h, s, pending, forced, RUN_DEADWOOD, RUN_MELDED)
            == lanes_min(c, d, h, s, pending, np.int64(0), RUN_DEADWOOD, RUN_MELDED))


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
    return bool((below and (rank >= 2 and (lane >> (rank - 2)) & 1 == 1))
                or (below and above)
                or (above and (rank <= 10 and (lane >> (rank + 2)) & 1 == 1)))


@njit(cache=True)
def discard_deadwoods_kernel(hand: np.int64, allowed: np.int64,
                             out: npt.NDArray[np.int64]) -> None:
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
def best_discard_kernel(hand: np.int64, allowed: np.int64,
                        scratch: npt.NDArray[np.int64]) -> tuple[np.int64, np.int64]:
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
def _best_arrangement(c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64,
                      hand: np.int64) -> tuple[np.int64, np.int64]:
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
        runs = (RUN_MELDED[cc] | RUN_MELDED[dd] << 13 | RUN_MELDED[hh] << 26
                | RUN_MELDED[ss] << 39)
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
def random_arrangement_kernel(hand: np.int64, rng: npt.NDArray[np.uint64]
                              ) -> tuple[np.int64, np.int64, np.int64]:
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
            runs = (RUN_MELDED[cc] | RUN_MELDED[dd] << 13 | RUN_MELDED[hh] << 26
                    | RUN_MELDED[ss] << 39)
            return best, hand & ~(cc | dd << 13 | hh << 26 | ss << 39), runs
        pick -= weight
    return best, np.int64(0), np.int64(0)  # unreachable: the weights sum to ``total``


@njit(cache=True)
def greedy_layoff_deadwood_kernel(defender: np.int64, sets: np.int64, runs: np.int64,
                                  rng: npt.NDArray[np.uint64]) -> np.int64:
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
def _layoff_rec(defender: np.int64, chains: npt.NDArray[np.int64],
                lengths: npt.NDArray[np.int64], index: np.int64) -> np.int64:
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


#: What the checked batch kernels write for a mask they refuse (never a deadwood).
BAD_MASK = -1


def _ctpop(typingctx: object, mask: types.Integer) -> tuple[object, object]:
    """Typing and code of :data:`_bit_count` (LLVM's ``ctpop`` on the integer)."""
    def codegen(context: object, builder: Any, signature: object, args: list[Any]) -> Any:
        return builder.ctpop(args[0])
    return mask(mask), codegen


#: Set bits of an integer in kernels: one instruction where the CPU has one (a loop over
#: the bits cost a quarter of an evaluation).
_bit_count: Callable[[np.int64], np.int64] = intrinsic(_ctpop)


@njit(cache=True)
def _checked_min_deadwood(mask: np.int64) -> np.int64:
    """:func:`min_deadwood_kernel` of a mask the caller has not checked: ``BAD_MASK`` for
    bits outside 0-51 or more than ``MAX_HAND_CARDS`` cards.  The check (a shift and a
    popcount) costs a few percent of the evaluation; a separate numpy pass over the array
    cost four times the evaluation itself."""
    if mask >> 52 or _bit_count(mask) > MAX_HAND_CARDS:
        return np.int64(BAD_MASK)
    return min_deadwood_kernel(mask)


@njit(cache=True, parallel=True)
def _min_deadwood_batch(masks: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    for i in prange(len(masks)):
        out[i] = _checked_min_deadwood(masks[i])


@njit(cache=True)
def _min_deadwood_serial(masks: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    for i in range(len(masks)):
        out[i] = _checked_min_deadwood(masks[i])


@njit(cache=True)
def _random_hand(state: npt.NDArray[np.uint64], size: np.int64) -> np.int64:
    """A uniformly random ``size``-card hand (partial Fisher-Yates on a bit set)."""
    hand = np.int64(0)
    for drawn in range(size):
        # the k-th card not yet in the hand, k uniform over the 52 - drawn left
        k = next_below(state, 52 - drawn)
        card = 0
        while True:
            if not hand >> card & 1:
                if k == 0:
                    break
                k -= 1
            card += 1
        hand |= np.int64(1) << card
    return hand


@njit(cache=True, parallel=True)
def _dealt_histogram(seed: np.int64, first: np.int64, n_deals: np.int64, hand_size: np.int64,
                     n_chunks: np.int64, out: npt.NDArray[np.int64]) -> None:
    """Histogram of best deadwood (after the best discard when ``hand_size`` is 11) of
    deals ``first .. first + n_deals - 1``, added to ``out``."""
    chunk = (n_deals + n_chunks - 1) // n_chunks
    for k in prange(n_chunks):
        scratch = np.empty(52, dtype=np.int64)
        state = np.empty(1, dtype=np.uint64)
        for deal in range(first + k * chunk, first + min(n_deals, (k + 1) * chunk)):
            state[0] = stream_key(seed, deal)
            hand = _random_hand(state, hand_size)
            if hand_size == 11:
                value, _ = best_discard_kernel(hand, hand, scratch)
            else:
                value = min_deadwood_kernel(hand)
            out[k, value] += 1


# -------------------------------------------------------------------------- wrappers


class Discards(NamedTuple):
    """Result of :func:`best_discard`: the best discards and the deadwood they leave."""

    discards: list[int]
    deadwood: int


class Arrangement(NamedTuple):
    """Result of :func:`best_melds`: meld masks, the deadwood cards' mask and points."""

    melds: list[int]
    deadwood_cards: int
    deadwood: int


def _hand_mask(hand: HandLike, what: str = "hand") -> int:
    """The mask of a hand of at most :data:`MAX_HAND_CARDS` cards; ``TypeError`` for a
    value that is no hand (bool, float, ...), ``ValueError`` for a bad or too big one."""
    if isinstance(hand, (bool, np.bool_)) or not isinstance(hand, (str, int, np.integer,
                                                                     list, tuple, np.ndarray)):
        raise TypeError(f"{what} must be card notation, card indices or an int mask, "
                        f"got {hand!r}")
    if isinstance(hand, np.integer) and hand.dtype.kind == "u" and int(hand) > FULL_DECK:
        raise ValueError(f"bad mask {int(hand):#x}: only bits 0-51 may be set")
    mask = to_mask(hand)
    cards = mask.bit_count()
    if cards > MAX_HAND_CARDS:
        raise ValueError(f"{what} has {cards} cards; the evaluator takes at most "
                         f"{MAX_HAND_CARDS} (gin hands hold 10-11, rummy hands up to 14)")
    return mask


def min_deadwood(hand: HandLike) -> int:
    """Minimum deadwood (points) over every partition of ``hand`` into disjoint melds.

    ``hand`` is notation, card indices or a mask, of at most :data:`MAX_HAND_CARDS`
    cards (``ValueError`` above; ``TypeError`` for a bool, float or other non-hand).

    >>> min_deadwood("As 2s 3s 4c 4d 4h 9c Tc Jc Kd")
    10
    >>> min_deadwood("Ks Kc Qd Qh Js Jc Td Th 9s 9c")
    98
    """
    return int(min_deadwood_kernel(np.int64(_hand_mask(hand))))


def min_deadwood_batch(masks: npt.ArrayLike, parallel: bool = True) -> npt.NDArray[np.int64]:
    """Minimum deadwood (points) of each hand in an array of 52-bit masks.

    ``masks`` is a one-dimensional sequence or array of integers (any integer dtype,
    not bool); each mask has at most :data:`MAX_HAND_CARDS` bits set.  Anything else
    (floats, bools, strings, masks outside bits 0-51) raises ``TypeError`` or
    ``ValueError`` naming the first bad value.
    """
    array = _mask_array(masks)
    if array.ndim != 1:
        raise ValueError(f"masks must be one-dimensional, got shape {array.shape}")
    out = np.empty(len(array), dtype=np.int64)
    (_min_deadwood_batch if parallel else _min_deadwood_serial)(array, out)
    if array.size and out.min() == BAD_MASK:
        bad = int(array[np.argmax(out == BAD_MASK)])
        if not 0 <= bad <= FULL_DECK:
            raise ValueError(f"bad mask {bad:#x}: only bits 0-51 may be set")
        raise ValueError(f"mask {bad:#x} has {bad.bit_count()} cards; the evaluator "
                         f"takes at most {MAX_HAND_CARDS}")
    return out


def _mask_array(masks: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """``masks`` as a contiguous int64 array, every value checked to lie in 0 .. 2**52-1
    before any conversion (so a uint64 or a Python int beyond int64 is not wrapped)."""
    raw = np.asarray(masks, dtype=object) if isinstance(masks, (list, tuple)) else \
        np.asarray(masks)
    if raw.dtype == object:
        for value in raw.ravel():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"masks must be integers, got {value!r}")
            if not 0 <= int(value) <= FULL_DECK:
                raise ValueError(f"bad mask {int(value):#x}: only bits 0-51 may be set")
        return np.ascontiguousarray(raw.astype(np.int64) if raw.size else
                                    np.zeros(raw.shape, np.int64))
    if raw.dtype.kind not in "iu":
        raise TypeError(f"masks must be an integer array, got dtype {raw.dtype}"
                        + (f" ({raw.ravel()[0]!r})" if raw.size else ""))
    if raw.size and raw.dtype.kind == "u" and raw.dtype.itemsize == 8:
        # the only integer type whose values can wrap in the int64 cast (the kernel
        # refuses every other mask outside bits 0-51)
        bad = raw > FULL_DECK
        if bad.any():
            raise ValueError(f"bad mask {int(raw[bad].ravel()[0]):#x}: only bits 0-51 may be set")
    return np.ascontiguousarray(raw, dtype=np.int64)


def best_discard(hand11: HandLike, forbidden: HandLike = 0) -> Discards:
    """Every discard leaving the least deadwood, and that deadwood (points).

    ``forbidden`` holds cards that may not be discarded (the card just taken from the
    discard pile).  Exact over every discard and every arrangement.

    >>> from analyzer.core.cards import format_card
    >>> result = best_discard("6s 7s 8s 6c 7c 8c 6d 8d Ks Kc Kd")
    >>> result.deadwood, [format_card(c) for c in result.discards]
    (6, ['8d'])
    """
    hand = _hand_mask(hand11)
    if (hand).bit_count() < 1:
        raise ValueError("wrong hand size: 0 cards, nothing to discard")
    banned = _hand_mask(forbidden, "forbidden")
    if hand & ~banned == 0:
        raise ValueError("every card of the hand is forbidden as a discard")
    scratch = np.empty(52, dtype=np.int64)
    deadwood, discards = best_discard_kernel(np.int64(hand), np.int64(hand & ~banned), scratch)
    return Discards(to_indices(int(discards)), int(deadwood))


def best_melds(hand: HandLike) -> Arrangement:
    """One minimum-deadwood arrangement of ``hand``.

    Ties are broken as a knocker would: the arrangement leaving the fewest cards outside
    the hand that could be laid off on it (fourth cards of three-card sets, the cards
    just beyond each run), then the first found trying "no set" before "set" and low
    ranks first.  A run is reported whole, however long.  Melds are listed sets first
    (by rank), then runs (by suit and rank).

    Here the set of sevens and the run 6-7-8 of clubs both leave 24 points; the set
    exposes one card (7s) to layoffs, the run two (5c, 9c), so the set is chosen:

    >>> result = best_melds("7c 7d 7h 6c 8c Ks")
    >>> [format_hand(m) for m in result.melds], format_hand(result.deadwood_cards), result.deadwood
    (['7c 7d 7h'], '6c 8c Ks', 24)
    """
    mask = _hand_mask(hand)
    deadwood, sets, runs = best_arrangement_kernel(np.int64(mask))
    return Arrangement(_split_sets(int(sets)) + _split_runs(int(runs)),
                       mask & ~int(sets) & ~int(runs), int(deadwood))


def deadwood_after_layoff(defender: HandLike, knocker_melds: list[HandLike]) -> int:
    """The defender's least deadwood (points) after melding and laying off onto
    ``knocker_melds`` (each one legal meld; together disjoint from the defender).

    >>> deadwood_after_layoff("8s 9s Kd", ["5s 6s 7s"])
    10
    """
    hand = _hand_mask(defender, "defender")
    sets = runs = 0
    for meld in knocker_melds:
        mask = _hand_mask(meld, "meld")
        row = meld_index(mask)
        if row < 0:
            raise ValueError(f"not a meld: {format_hand(mask)!r}")
        if mask & (sets | runs | hand):
            raise ValueError(f"meld {format_hand(mask)!r} overlaps another meld or the defender")
        if _single_lane(mask):
            runs |= mask
        else:
            sets |= mask
    return int(layoff_deadwood_kernel(np.int64(hand), np.int64(sets), np.int64(runs)))


def dealt_deadwood_distribution(n_deals: int, hand_size: int = 10, seed: int = 0,
                                n_chunks: int = 64) -> npt.NDArray[np.int64]:
    """Counts of dealt deadwood (points) over ``n_deals`` random hands; index = deadwood.

    With ``hand_size`` 11 the value is the deadwood after the best discard.  Every hand
    is drawn from its own stream of ``seed``, so the counts do not depend on
    ``n_chunks`` or the thread count.  ``n_deals`` is an integer 0-10**12 and ``seed``
    one in 0 <= seed < 2**63; the hands are dealt in kernel calls of
    :data:`DEALT_SPAN`, between which Ctrl-C is seen.
    """
    for name, value, low, high in (("n_deals", n_deals, 0, 10**12),
                                   ("seed", seed, 0, 2**63 - 1), ("n_chunks", n_chunks, 1, 4096)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {value!r}")
        if not low <= value <= high:
            raise ValueError(f"{name} must be {low}-{high}, got {value}")
    if hand_size not in (10, 11):
        raise ValueError(f"hand_size must be 10 or 11, got {hand_size}")
    out = np.zeros((n_chunks, 128), dtype=np.int64)
    for first in range(0, n_deals, DEALT_SPAN):
        count = min(DEALT_SPAN, n_deals - first)
        _dealt_histogram(np.int64(seed), np.int64(first), np.int64(count), np.int64(hand_size),
                         np.int64(n_chunks), out)
    counts = out.sum(axis=0)
    return counts[: int(np.flatnonzero(counts).max(initial=0)) + 1]


def _single_lane(mask: int) -> bool:
    return any(mask == mask & (SUIT_BITS << (13 * suit)) for suit in range(4))


def _split_sets(sets: int) -> list[int]:
    melds = []
    for rank in range(N_RANKS):
        meld = sum(1 << (13 * suit + rank) for suit in range(4) if sets >> (13 * suit + rank) & 1)
        if meld:
            melds.append(meld)
    return melds


def _split_runs(runs: int) -> list[int]:
    melds = []
    for suit in range(4):
        rank = 0
        while rank < N_RANKS:
            start = rank
            while rank < N_RANKS and runs >> (13 * suit + rank) & 1:
                rank += 1
            if rank > start:
                melds.append(((1 << (rank - start)) - 1) << (13 * suit + start))
            else:
                rank += 1
    return melds
