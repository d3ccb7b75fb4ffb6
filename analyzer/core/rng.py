"""Counter-based random numbers for numba kernels.

Every deal owns a stream keyed by ``(seed, deal_index)``, so a deal's cards and every
random choice made while playing it are the same whatever thread, chunk or machine
plays it.  The generator is SplitMix64 (Steele, Lea & Flood 2014): the stream state is
one ``uint64`` held in a one-element array, advanced by the golden-ratio constant and
mixed by two multiply-xorshift rounds.  All arithmetic stays in ``uint64`` so numba
never promotes to float.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)


@njit(cache=True)
def mix64(value: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective scramble of 64 bits."""
    z = value
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_key(seed: np.int64, stream: np.int64) -> np.uint64:
    """Starting state of stream number ``stream`` (e.g. a deal index) of ``seed``."""
    return mix64(mix64(np.uint64(seed) ^ _MIX1) + np.uint64(stream) * _GOLDEN)


@njit(cache=True)
def next_u64(state: npt.NDArray[np.uint64]) -> np.uint64:
    """Advance the one-element ``state`` and return 64 random bits."""
    state[0] += _GOLDEN
    return mix64(state[0])


@njit(cache=True)
def next_below(state: npt.NDArray[np.uint64], bound: np.int64) -> np.int64:
    """Uniform integer in ``[0, bound)`` (Lemire's multiply-shift; bias < 2**-40 here)."""
    return np.int64((next_u64(state) >> _S11) * np.uint64(bound) >> np.uint64(53))


@njit(cache=True)
def shuffle_deck(state: npt.NDArray[np.uint64], deck: npt.NDArray[np.int8]) -> None:
    """Fill ``deck`` (length 52) with a uniformly random order of the 52 cards."""
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = next_below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


#: Seeds are ``0 <= seed < SEED_LIMIT`` everywhere (int64 stream keys).
SEED_LIMIT = 2**63


def offset_seed(seed: int, offset: int) -> int:
    """The seed ``offset`` places after ``seed`` (the seed of a run's second, third, ..
    stage), wrapping inside ``0 <= seed < 2**63`` so that every valid seed stays valid.

    >>> offset_seed(1, 2), offset_seed(2**63 - 1, 1)
    (3, 0)
    """
    return (seed + offset) % SEED_LIMIT
