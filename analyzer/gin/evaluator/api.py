"""The evaluator's checked Python API: hands as notation, card indices or masks, each
checked before a kernel sees it, and a batch of masks checked inside the kernel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange, types
from numba.extending import intrinsic

from ...core.arrays import Int64s
from ...core.cards import (
    FULL_DECK,
    N_RANKS,
    SUIT_BITS,
    HandLike,
    format_hand,
    to_indices,
    to_mask,
)
from ...core.melds import meld_index
from .layoffs import layoff_deadwood_kernel
from .partition import best_arrangement_kernel, best_discard_kernel, min_deadwood_kernel

#: Most cards the Python wrappers evaluate.  The largest hand a supported game needs is
#: 14 cards (plain rummy's largest deal, 13, plus a draw; gin needs 11: 10 dealt plus the
#: card drawn).  The search enumerates the set choices of ranks held three or four times
#: and grows about 6-fold per such rank (52 cards: 6**13 choices, hours); up to 16 cards
#: there are at most four, 6**4 = 1,296 choices, so every call stays under a millisecond.
MAX_HAND_CARDS = 16
#: Sizes of a gin hand: before and after its draw.
GIN_HAND_SIZES = (10, 11)

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
def _min_deadwood_batch(masks: Int64s, out: Int64s) -> None:
    for i in prange(len(masks)):
        out[i] = _checked_min_deadwood(masks[i])


@njit(cache=True)
def _min_deadwood_serial(masks: Int64s, out: Int64s) -> None:
    for i in range(len(masks)):
        out[i] = _checked_min_deadwood(masks[i])


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
    if isinstance(hand, (bool, np.bool_)) or not isinstance(
        hand, (str, int, np.integer, list, tuple, np.ndarray)
    ):
        raise TypeError(f"{what} must be card notation, card indices or an int mask, got {hand!r}")
    if isinstance(hand, np.integer) and hand.dtype.kind == "u" and int(hand) > FULL_DECK:
        raise ValueError(f"bad mask {int(hand):#x}: only bits 0-51 may be set")
    mask = to_mask(hand)
    cards = mask.bit_count()
    if cards > MAX_HAND_CARDS:
        raise ValueError(
            f"{what} has {cards} cards; the evaluator takes at most "
            f"{MAX_HAND_CARDS} (gin hands hold 10-11, rummy hands up to 14)"
        )
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


def min_deadwood_batch(masks: npt.ArrayLike, parallel: bool = True) -> Int64s:
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
        raise ValueError(
            f"mask {bad:#x} has {bad.bit_count()} cards; the evaluator "
            f"takes at most {MAX_HAND_CARDS}"
        )
    return out


def _mask_array(masks: npt.ArrayLike) -> Int64s:
    """``masks`` as a contiguous int64 array, every value checked to lie in 0 .. 2**52-1
    before any conversion (so a uint64 or a Python int beyond int64 is not wrapped)."""
    raw = np.asarray(masks, dtype=object) if isinstance(masks, (list, tuple)) else np.asarray(masks)
    if raw.dtype == object:
        for value in raw.ravel():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"masks must be integers, got {value!r}")
            if not 0 <= int(value) <= FULL_DECK:
                raise ValueError(f"bad mask {int(value):#x}: only bits 0-51 may be set")
        return np.ascontiguousarray(
            raw.astype(np.int64) if raw.size else np.zeros(raw.shape, np.int64)
        )
    if raw.dtype.kind not in "iu":
        raise TypeError(
            f"masks must be an integer array, got dtype {raw.dtype}"
            + (f" ({raw.ravel()[0]!r})" if raw.size else "")
        )
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
    return Arrangement(
        _split_sets(int(sets)) + _split_runs(int(runs)),
        mask & ~int(sets) & ~int(runs),
        int(deadwood),
    )


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


def layoff_plan(defender: int, sets: int, runs: int, target: int | None = None) -> list[int]:
    """The cards ``defender`` lays off onto the knocker's melds (``sets``: the cards of
    the knocker's sets, ``runs``: of its runs), in laying order, leaving ``target``
    deadwood (points) once it melds the rest; ``None``: the least it can leave (what
    :func:`~analyzer.gin.evaluator.layoffs.layoff_deadwood_kernel` finds).

    The same search as that kernel's: a layoff is a prefix of a chain (the fourth card
    of a three-card set, or the defender's cards continuing a run one rank at a time,
    so a card laid off beyond another counts).  The fewest layoffs win ties, then the
    first found; ``[]`` when no choice leaves ``target``.

    Here 9s lays off only beyond 8s, on the run 5-6-7 of spades:

    >>> format_hand(to_mask(layoff_plan(to_mask("8s 9s Kd"), 0, to_mask("5s 6s 7s"))))
    '8s 9s'
    >>> format_hand(to_mask(layoff_plan(to_mask("8s 9s Kd"), 0, to_mask("5s 6s 7s"), target=19)))
    '8s'
    >>> layoff_plan(to_mask("8s 9s Kd"), 0, to_mask("5s 6s 7s"), target=18)
    []
    """
    chains: list[list[int]] = []
    for rank in range(N_RANKS):
        held = [suit for suit in range(4) if sets >> (13 * suit + rank) & 1]
        if len(held) == 3:
            missing = next(13 * suit + rank for suit in range(4) if suit not in held)
            if defender >> missing & 1:
                chains.append([missing])
    for suit in range(4):
        lane = (runs >> (13 * suit)) & SUIT_BITS
        for rank in range(N_RANKS):
            if not lane >> rank & 1:
                continue
            for step in (-1, 1):
                if 0 <= rank + step < N_RANKS and lane >> (rank + step) & 1:
                    continue  # not this run's end in this direction
                chain, next_rank = [], rank + step
                while 0 <= next_rank < N_RANKS and defender >> (13 * suit + next_rank) & 1:
                    chain.append(13 * suit + next_rank)
                    next_rank += step
                if chain:
                    chains.append(chain)
    if target is None:
        target = int(layoff_deadwood_kernel(np.int64(defender), np.int64(sets), np.int64(runs)))
    best: list[int] | None = None

    def search(index: int, left: int, laid: list[int]) -> None:
        nonlocal best
        if index == len(chains):
            if int(min_deadwood_kernel(np.int64(left))) == target and (
                best is None or len(laid) < len(best)
            ):
                best = list(laid)
            return
        search(index + 1, left, laid)
        taken = left
        for depth, card in enumerate(chains[index]):
            if not taken >> card & 1:
                break
            taken &= ~(1 << card)
            search(index + 1, taken, laid + chains[index][: depth + 1])

    search(0, defender, [])
    return best if best is not None else []


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
