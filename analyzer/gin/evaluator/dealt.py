"""The dealt-deadwood distribution: best deadwood over many random hands, in parallel."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.arrays import Int64s, UInt64s
from ...core.limits import MAX_UNITS, check_count, check_int, check_seed
from ...core.rng import next_below, stream_key
from .partition import best_discard_kernel, min_deadwood_kernel

#: Most hands :func:`dealt_deadwood_distribution` deals per kernel call (well under a
#: second of work: Ctrl-C is seen between calls).
DEALT_SPAN = 1 << 18


@njit(cache=True)
def _random_hand(state: UInt64s, size: np.int64) -> np.int64:
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
def _dealt_histogram(
    seed: np.int64,
    first: np.int64,
    n_deals: np.int64,
    hand_size: np.int64,
    n_chunks: np.int64,
    out: Int64s,
) -> None:
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


def dealt_deadwood_distribution(
    deals: int, hand_size: int = 10, seed: int = 0, n_chunks: int = 64
) -> Int64s:
    """Counts of dealt deadwood (points) over ``deals`` random hands; index = deadwood.

    With ``hand_size`` 11 the value is the deadwood after the best discard.  Every hand
    is drawn from its own stream of ``seed``, so the counts do not depend on
    ``n_chunks`` or the thread count.  ``deals`` is an integer 0-10**12 and ``seed``
    one in 0 <= seed < 2**63; the hands are dealt in kernel calls of
    :data:`DEALT_SPAN`, between which Ctrl-C is seen.
    """
    deals = check_count(deals, "deals", 0, MAX_UNITS)
    seed = check_seed(seed)
    n_chunks = check_int(n_chunks, "n_chunks", 1, 4096)
    if hand_size not in (10, 11):
        raise ValueError(f"hand_size must be 10 or 11, got {hand_size}")
    out = np.zeros((n_chunks, 128), dtype=np.int64)
    for first in range(0, deals, DEALT_SPAN):
        count = min(DEALT_SPAN, deals - first)
        _dealt_histogram(
            np.int64(seed),
            np.int64(first),
            np.int64(count),
            np.int64(hand_size),
            np.int64(n_chunks),
            out,
        )
    counts = out.sum(axis=0)
    return counts[: int(np.flatnonzero(counts).max(initial=0)) + 1]
