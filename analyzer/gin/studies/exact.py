"""Exact dealt-hand statistics by exhaustive enumeration over suit-symmetry classes.

Algorithm
---------
Minimum deadwood (and the deadwood left after the best discard) depends only on the
four 13-bit suit lanes of a hand, and does not change when the suits are permuted.
So instead of all C(52, n) hands we visit each *multiset* of four lanes once, as the
sorted 4-tuple ``(a, b, c, d)``, and weight its value by the number of distinct suit
assignments of that multiset, ``4! / (m_1! m_2! ...)`` where the ``m_i`` count equal
lanes.  With lanes ordered by (popcount, mask) the tuples are grouped by their
nondecreasing popcount pattern ``(q0, q1, q2, q3)`` summing to ``n``; a *piece* of work
fixes ``a`` and ``b`` and a range of rows ``c`` and loops over every ``d``.  That is
about C(52, n) / 24 evaluations: 6.6e8 for ten cards, 2.5e9 for eleven.

A reduced deck of ``suits`` suits and ``ranks`` ranks (for the brute-force cross-checks)
uses lanes below ``2**ranks`` and pads the tuple with ``4 - suits`` empty lanes in front
that take no part in the weight (``suits! / prod m_i!``).

The pieces are the units of a common chunk plan (:func:`enumeration_plan`, folded by
:func:`analyzer.core.chunks.fold_chunks`): each chunk is one parallel numba call whose
pieces are spread over one output row per thread (longest first onto the least loaded
row), and the rows are summed afterwards, so the counts are exact ``int64`` integers and
do not depend on the thread count, the chunk size or the scheduler.  Like every fold,
the enumeration saves to the checkpoint the command line makes active and resumes from
it (``analyzer exact --checkpoint FILE``).

The kernels reuse the evaluator's lane tables: with no rank held three or more times the
deadwood is four lookups in ``RUN_DEADWOOD``; otherwise the evaluator's set-decision
walk runs.  For eleven cards the walk's leaf is ``sum of lanes - best single-card
saving``, where ``BEST_DROP[lane]`` (points) is the most a lane's run-only deadwood falls
when one of its cards is discarded; this is exact for the same reason as
:func:`analyzer.gin.evaluator.partition.discard_deadwoods_kernel`.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from functools import cache, partial
from itertools import combinations_with_replacement
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from ...core.arrays import Int64s
from ...core.cards import N_RANKS, N_SUITS
from ...core.chunks import ChunkPlan, fold_to_end
from ...core.progress import Progress, advance, tell_total
from ..evaluator.dealt import dealt_deadwood_distribution
from ..evaluator.partition import RUN_DEADWOOD, min_deadwood_kernel

#: Modes of the enumeration kernel: count classes only, minimum deadwood, deadwood
#: after the best discard.
MODE_COUNT, MODE_DEADWOOD, MODE_DISCARD = 0, 1, 2

_NO_ARRANGEMENT = np.int64(1 << 20)
_FACTORIAL = np.array([1, 1, 2, 6, 24], dtype=np.int64)


def _build_best_drop() -> Int64s:
    """Largest fall (points) of a lane's run-only deadwood from discarding one of its
    cards; ``-_NO_ARRANGEMENT`` for the empty lane (nothing to discard)."""
    lanes = np.arange(1 << N_RANKS, dtype=np.int64)
    best = np.full(1 << N_RANKS, -_NO_ARRANGEMENT, dtype=np.int64)
    for rank in range(N_RANKS):
        held = (lanes >> rank) & 1 == 1
        drop = RUN_DEADWOOD[lanes] - RUN_DEADWOOD[lanes ^ (1 << rank)]
        best = np.where(held, np.maximum(best, drop), best)
    return best


BEST_DROP = _build_best_drop()


# --------------------------------------------------------------------------- kernels


@njit(cache=True)
def _after_discard_rec(
    a: np.int64, b: np.int64, c: np.int64, d: np.int64, pending: np.int64
) -> np.int64:
    """Least deadwood (points) of lanes a..d less one discard, deciding a set at every
    rank bit of ``pending``; a leaf discards the lane card that saves the most."""
    if pending == 0:
        drop = max(max(BEST_DROP[a], BEST_DROP[b]), max(BEST_DROP[c], BEST_DROP[d]))
        return RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[d] - drop
    bit = pending & -pending
    rest = pending ^ bit
    keep = ~bit
    best = _after_discard_rec(a, b, c, d, rest)
    best = min(best, _after_discard_rec(a & keep, b & keep, c & keep, d & keep, rest))
    if a & b & c & d & bit:
        best = min(best, _after_discard_rec(a, b & keep, c & keep, d & keep, rest))
        best = min(best, _after_discard_rec(a & keep, b, c & keep, d & keep, rest))
        best = min(best, _after_discard_rec(a & keep, b & keep, c, d & keep, rest))
        best = min(best, _after_discard_rec(a & keep, b & keep, c & keep, d, rest))
    return best


@njit(cache=True)
def after_discard_lanes(a: np.int64, b: np.int64, c: np.int64, d: np.int64) -> np.int64:
    """Least deadwood (points) left after the best discard from the hand with suit lanes
    a, b, c, d (13-bit masks); ``_NO_ARRANGEMENT`` for the empty hand."""
    pending = (a & b & c) | (d & ((a & b) | (a & c) | (b & c)))
    return _after_discard_rec(a, b, c, d, pending)


@njit(cache=True, parallel=True)
def _enumerate_kernel(
    table: Int64s,
    lengths: Int64s,
    piece_a: Int64s,
    piece_b: Int64s,
    piece_q2: Int64s,
    piece_q3: Int64s,
    piece_lo: Int64s,
    piece_hi: Int64s,
    order: Int64s,
    row_start: Int64s,
    n_pad: np.int64,
    mode: np.int64,
    out: Int64s,
) -> None:
    """Add the weighted values of the pieces ``order[row_start[k]:row_start[k + 1]]`` to
    ``out[k]``, for every row ``k`` in parallel.

    A piece fixes lanes ``a`` (slot 0) and ``b`` (slot 1) and visits lanes ``c`` =
    ``table[q2, i]`` for ``lo <= i < hi`` and ``d`` = ``table[q3, j]`` for every ``j``
    (``j >= i`` when ``q3 == q2``, keeping the tuple sorted).  Slots below ``n_pad`` are
    padding (empty lanes outside the deck) and do not count towards the weight.
    """
    n_real = 4 - n_pad
    for k in prange(len(row_start) - 1):
        for slot in range(row_start[k], row_start[k + 1]):
            p = order[slot]
            a = piece_a[p]
            b = piece_b[p]
            q2 = piece_q2[p]
            q3 = piece_q3[p]
            same_ab = n_pad == 0 and a == b
            for i in range(piece_lo[p], piece_hi[p]):
                c = table[q2, i]
                same_bc = n_pad <= 1 and b == c
                # everything about a, b, c that the inner loop needs
                base = RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c]
                triple = a & b & c
                pairs = (a & b) | (a & c) | (b & c)
                drop = max(max(BEST_DROP[a], BEST_DROP[b]), BEST_DROP[c])
                for j in range(i if q3 == q2 else 0, lengths[q3]):
                    d = table[q3, j]
                    # suit assignments of the multiset: n_real! / prod(run length!)
                    divisor = 1
                    run = 1
                    if same_ab:
                        run += 1
                        divisor *= run
                    if same_bc:
                        run += 1
                        divisor *= run
                    else:
                        run = 1
                    if n_pad <= 2 and c == d:
                        run += 1
                        divisor *= run
                    weight = _FACTORIAL[n_real] // divisor
                    if mode == MODE_COUNT:
                        value = 0
                    else:
                        pending = triple | (d & pairs)
                        if mode == MODE_DEADWOOD:
                            if pending == 0:
                                value = base + RUN_DEADWOOD[d]
                            else:
                                value = min_deadwood_kernel(a | b << 13 | c << 26 | d << 39)
                        elif pending == 0:
                            value = base + RUN_DEADWOOD[d] - max(drop, BEST_DROP[d])
                        else:
                            value = _after_discard_rec(a, b, c, d, pending)
                    out[k, value] += weight


# ------------------------------------------------------------------------ enumeration


class Pieces(NamedTuple):
    """The enumeration's units of work, one row per piece (all ``int64`` arrays).

    Lanes ``a`` and ``b`` are fixed; ``c`` runs over ``table[q2, lo:hi]``; ``d`` over
    ``table[q3]``.  ``work`` is the number of 4-tuples (evaluations) of the piece.
    """

    a: Int64s
    b: Int64s
    q2: Int64s
    q3: Int64s
    lo: Int64s
    hi: Int64s
    work: Int64s


def lane_table(ranks: int = N_RANKS) -> tuple[Int64s, Int64s]:
    """Every lane of ``ranks`` ranks grouped by popcount, ascending within a group.

    Returns ``(table, lengths)``: ``table[p, :lengths[p]]`` are the lane masks (below
    ``2**ranks``) holding ``p`` cards.

    >>> table, lengths = lane_table(4)
    >>> lengths.tolist(), table[2, :lengths[2]].tolist()
    ([1, 4, 6, 4, 1], [3, 5, 6, 9, 10, 12])
    """
    masks = np.arange(1 << ranks, dtype=np.int64)
    counts = np.bitwise_count(masks).astype(np.int64)
    lengths = np.bincount(counts, minlength=ranks + 1).astype(np.int64)
    table = np.zeros((ranks + 1, int(lengths.max())), dtype=np.int64)
    for p in range(ranks + 1):
        table[p, : lengths[p]] = masks[counts == p]
    return table, lengths


def popcount_patterns(
    n_cards: int, ranks: int = N_RANKS, suits: int = N_SUITS
) -> list[tuple[int, ...]]:
    """Nondecreasing lane popcounts ``(q0, q1, q2, q3)`` of the sorted lane tuples:
    ``4 - suits`` zero pads, then ``suits`` parts of at most ``ranks`` summing to ``n_cards``.

    >>> popcount_patterns(4, ranks=3, suits=2)
    [(0, 0, 1, 3), (0, 0, 2, 2)]
    """
    pads = (0,) * (N_SUITS - suits)
    return [
        pads + parts
        for parts in combinations_with_replacement(range(ranks + 1), suits)
        if sum(parts) == n_cards
    ]


def make_pieces(
    n_cards: int, ranks: int = N_RANKS, suits: int = N_SUITS, max_work: int = 200_000
) -> Pieces:
    """Split the sorted lane tuples of ``n_cards`` cards into pieces of at most about
    ``max_work`` tuples (a piece never has fewer than one row ``c``)."""
    table, lengths = lane_table(ranks)
    rows: list[tuple[int, int, int, int, int, int, int]] = []
    for q0, q1, q2, q3 in popcount_patterns(n_cards, ranks, suits):
        n2, n3 = int(lengths[q2]), int(lengths[q3])
        step = max(1, max_work // n3)
        for i0 in range(int(lengths[q0])):
            for i1 in range(i0 if q1 == q0 else 0, int(lengths[q1])):
                a, b = int(table[q0, i0]), int(table[q1, i1])
                for lo in range(i1 if q2 == q1 else 0, n2, step):
                    hi = min(n2, lo + step)
                    if q3 == q2:  # rows i visit j = i .. n3 - 1
                        work = (n3 - lo) * (n3 - lo + 1) // 2 - (n3 - hi) * (n3 - hi + 1) // 2
                    else:
                        work = (hi - lo) * n3
                    rows.append((a, b, q2, q3, lo, hi, work))
    columns = np.array(rows, dtype=np.int64).reshape(-1, 7).T
    return Pieces(*(np.ascontiguousarray(col) for col in columns))


def _balance(work: Int64s, n_rows: int) -> tuple[Int64s, Int64s]:
    """Spread pieces over ``n_rows`` output rows, longest first onto the least loaded row.

    Returns ``(order, row_start)``: row ``k`` takes pieces ``order[row_start[k]:row_start[k+1]]``.
    """
    heap = [(0, k) for k in range(n_rows)]
    members: list[list[int]] = [[] for _ in range(n_rows)]
    for piece in np.argsort(-work, kind="stable"):
        load, k = heapq.heappop(heap)
        members[k].append(int(piece))
        heapq.heappush(heap, (load + int(work[piece]), k))
    order = np.array([p for row in members for p in row], dtype=np.int64)
    row_start = np.cumsum([0] + [len(row) for row in members]).astype(np.int64)
    return order, row_start


@cache
def _lane_table(ranks: int) -> tuple[Int64s, Int64s]:
    """:func:`lane_table`, made once per process."""
    return lane_table(ranks)


@cache
def _pieces(n_cards: int, ranks: int, suits: int) -> Pieces:
    """:func:`make_pieces` of an enumeration, made once per process (each chunk needs it)."""
    return make_pieces(n_cards, ranks, suits)


def count_pieces(
    n_cards: int, ranks: int, suits: int, mode: int, first_piece: int, n_pieces: int
) -> Int64s:
    """Weighted counts of pieces ``first_piece .. first_piece + n_pieces - 1`` of an
    enumeration (``counts[v]`` hands of value ``v`` points, ``10 * n_cards + 1`` entries):
    the chunk of :func:`enumeration_plan`.  Exact integers whatever the thread count."""
    table, lengths = _lane_table(ranks)
    pieces = _pieces(n_cards, ranks, suits)
    lo, hi = first_piece, first_piece + n_pieces
    n_rows = numba.get_num_threads()
    order, row_start = _balance(pieces.work[lo:hi], n_rows)
    out = np.zeros((n_rows, 10 * n_cards + 1), dtype=np.int64)
    _enumerate_kernel(
        table,
        lengths,
        pieces.a[lo:hi],
        pieces.b[lo:hi],
        pieces.q2[lo:hi],
        pieces.q3[lo:hi],
        pieces.lo[lo:hi],
        pieces.hi[lo:hi],
        order,
        row_start,
        np.int64(N_SUITS - suits),
        np.int64(mode),
        out,
    )
    return out.sum(axis=0)


class ExactResult(NamedTuple):
    """Counts of an exhaustive enumeration and what it cost.

    ``counts[v]`` is the number of hands of value ``v`` points; ``seconds`` the wall time
    of the enumeration (summed over resumed runs); ``classes`` the number of suit-symmetry
    classes evaluated.
    """

    counts: Int64s
    seconds: float
    classes: int


def enumeration_plan(
    n_cards: int,
    ranks: int = N_RANKS,
    suits: int = N_SUITS,
    discard: bool | None = None,
    mode: int | None = None,
    chunk: int | None = None,
) -> ChunkPlan:
    """The enumeration of :func:`exact_enumeration` (arguments validated) as a chunk plan
    over its pieces: ``chunk`` pieces per chunk, by default about 500 chunks of at least a
    million suit classes each."""
    if not 1 <= suits <= N_SUITS:
        raise ValueError(f"suits must be 1-{N_SUITS}, got {suits}")
    if not 1 <= ranks <= N_RANKS:
        raise ValueError(f"ranks must be 1-{N_RANKS}, got {ranks}")
    if not 0 <= n_cards <= ranks * suits:
        raise ValueError(
            f"n_cards must be 0-{ranks * suits} for {suits} suits of {ranks} ranks, got {n_cards}"
        )
    if discard is None:
        discard = n_cards == 11
    if mode is None:
        mode = MODE_DISCARD if discard else MODE_DEADWOOD
    if mode not in (MODE_COUNT, MODE_DEADWOOD, MODE_DISCARD):
        raise ValueError(f"unknown mode {mode}")
    if mode == MODE_DISCARD and n_cards < 1:
        raise ValueError("nothing to discard from an empty hand")
    work = _pieces(n_cards, ranks, suits).work
    if chunk is None:
        classes = int(work.sum())
        chunk = max(1, max(1_000_000, classes // 500) * len(work) // classes)
    common = {"n_cards": n_cards, "ranks": ranks, "suits": suits, "mode": mode}
    check = partial(_enumeration_problem, hands=math.comb(ranks * suits, n_cards))
    return ChunkPlan(count_pieces, len(work), chunk, common, "first_piece", "n_pieces", check)


def _enumeration_problem(value: tuple[Int64s, float], pieces: int, hands: int) -> str | None:
    """Why ``value`` (counts by deadwood, seconds) cannot be an enumeration's state after
    ``pieces`` pieces when the whole enumeration counts ``hands`` hands, or None."""
    counts, seconds = value
    if (counts < 0).any() or sum(counts.tolist()) > hands:
        return f"must hold counts >= 0 of at most {hands:,} hands in all"
    if seconds < 0:
        return f"holds {seconds:g} seconds, below 0"
    return None


def _classes_progress(progress: Progress | None, work: Int64s) -> Progress | None:
    """``progress`` told suit classes by a fold that reports pieces, in piece order from
    the first (the pieces restored from a checkpoint, then each chunk's)."""
    if progress is None:
        return None
    outer = progress
    ends = np.concatenate(([0], np.cumsum(work)))
    done = 0

    def report(pieces: int, /, total: int | None = None) -> None:
        nonlocal done
        advance(outer, int(ends[done + pieces] - ends[done]))
        done += pieces

    return report


def exact_enumeration(
    n_cards: int,
    ranks: int = N_RANKS,
    suits: int = N_SUITS,
    progress: Progress | None = None,
    discard: bool | None = None,
    mode: int | None = None,
    chunk: int | None = None,
    scheduler: str | None = None,
) -> ExactResult:
    """Run the enumeration of :func:`exact_distribution` and report its cost too.

    ``mode`` overrides ``discard`` (``MODE_COUNT`` counts hands without evaluating them);
    ``chunk`` is the number of pieces per parallel call (see :func:`enumeration_plan`);
    ``scheduler`` runs the chunks here or on a Dask cluster
    (:func:`analyzer.core.chunks.fold_chunks`); ``progress`` counts suit-symmetry classes
    (:mod:`analyzer.core.progress`).  Inside a checkpoint block
    (:func:`analyzer.core.chunks.checkpointing`) the run is saved as it goes and resumes
    from a saved state; a stop raises ``KeyboardInterrupt``.
    """
    plan = enumeration_plan(n_cards, ranks, suits, discard, mode, chunk)
    work = _pieces(n_cards, ranks, suits).work
    classes = int(work.sum())
    tell_total(progress, classes)
    clock = time.perf_counter()

    def fold(value: tuple[Int64s, float], counts: Int64s) -> tuple[Int64s, float]:
        # the wall time since the run (or its resumption) started, added to the saved one
        nonlocal clock
        now = time.perf_counter()
        total, seconds = value
        seconds += now - clock
        clock = now
        return total + counts, seconds

    initial = (np.zeros(10 * n_cards + 1, dtype=np.int64), 0.0)
    counts, seconds = fold_to_end(plan, fold, initial, scheduler, _classes_progress(progress, work))
    return ExactResult(counts[: int(np.flatnonzero(counts).max(initial=0)) + 1], seconds, classes)


def exact_distribution(
    n_cards: int,
    ranks: int = N_RANKS,
    suits: int = N_SUITS,
    progress: Progress | None = None,
    discard: bool | None = None,
) -> Int64s:
    """Exact counts of dealt deadwood over every ``n_cards``-card hand; index = points.

    The value of a hand is its minimum deadwood, or with ``discard`` (the default for
    eleven cards) the least deadwood left after its best discard.  The deck has ``suits``
    suits of ranks ace .. ``ranks`` (13 and 4: the standard deck).  For the wall time and
    the options of a long run see :func:`exact_enumeration`.

    Parameters
    ----------
    n_cards : int
        Cards per hand.
    ranks, suits : int
        Deck shape.
    progress : callable, optional
        Progress callback (:mod:`analyzer.core.progress`) counted in suit-symmetry classes.
    discard : bool or None
        Value after the best discard; ``None`` means ``n_cards == 11``.

    Returns
    -------
    counts : ndarray(int64, ndim=1)
        ``counts[v]`` hands have value ``v`` points; the total is C(ranks * suits, n_cards).

    Examples
    --------
    Every 3-card hand of a 2-suit, 3-rank deck: only A-2-3 of either suit is a meld.

    >>> exact_distribution(3, ranks=3, suits=2).tolist()
    [2, 0, 0, 0, 2, 4, 6, 4, 2]
    """
    return exact_enumeration(n_cards, ranks, suits, progress, discard).counts


@dataclass(frozen=True)
class ExactStudy:
    """An enumeration and its Monte Carlo overlay: what ``analyzer exact`` presents
    (:mod:`analyzer.studies.exact`).

    ``mc_counts[v]`` of the overlay's deals (seed ``mc_seed``) have value ``v``; None
    without an overlay."""

    n_cards: int
    ranks: int
    suits: int
    result: ExactResult
    mc_counts: Int64s | None
    mc_seed: int


def exact_study(
    n_cards: int,
    ranks: int = N_RANKS,
    suits: int = N_SUITS,
    mc_deals: int = 1_000_000,
    mc_seed: int = 0,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> ExactStudy:
    """:func:`exact_enumeration` of ``n_cards`` cards and a Monte Carlo sample of
    ``mc_deals`` dealt hands of the full deck to check it against (0: none; a reduced deck
    has none)."""
    if mc_deals and (ranks, suits) != (N_RANKS, N_SUITS):
        raise ValueError("the Monte Carlo overlay deals from the full deck only")
    result = exact_enumeration(n_cards, ranks, suits, progress, scheduler=scheduler)
    mc_counts = dealt_deadwood_distribution(mc_deals, n_cards, mc_seed) if mc_deals else None
    return ExactStudy(n_cards, ranks, suits, result, mc_counts, mc_seed)
