"""Counter-based random numbers for numba kernels, and the stream plan of every study.

Every deal owns a stream keyed by ``(seed, deal_index)``, so a deal's cards and every
random choice made while playing it are the same whatever thread, chunk or machine
plays it.  The generator is SplitMix64 (Steele, Lea & Flood 2014): the stream state is
one ``uint64`` held in a one-element array, advanced by the golden-ratio constant and
mixed by two multiply-xorshift rounds.  All arithmetic stays in ``uint64`` so numba
never promotes to float.

Stream plan
-----------
A stream is ``stream_key(key, index)``.  Runs that must not share random numbers use
different keys, made by XOR-ing the run's seed with one of the salts below; every salt
lives here, so that two uses can never collide by accident.  Changing a salt or an
index rule changes every figure drawn from it (the committed ``results/`` included).

* gin hand (simulate, compare, the knock chart, ``replay_deal``): the deck of deal ``d``
  from ``(seed, d)``, the policies' random choices from ``(seed ^ POLICY_SALT, d)``;
* gin game (``game_kernels.play_game``, multiplayer): hand ``h`` of game ``g`` is stream
  ``i = g * MAX_HANDS_PER_GAME + h``, its deck from ``(seed ^ GAME_SALT, i)`` and its
  policies from ``(seed ^ GAME_SALT ^ POLICY_SALT, i)``;
* dealt-deadwood distribution (evaluator): deal ``d`` from ``(seed, d)``;
* advisor: sample ``s`` (the unseen cards and the opponent's hand) from ``(seed, s)``, its
  rollouts from ``(seed ^ ADVISOR_POLICY_SALT, s)``;
* search player (:mod:`analyzer.gin.play.search`): decision ``k`` of a hand from
  ``(policy_key ^ SEARCH_SALT, k)``, where ``policy_key`` is the hand's policy stream key;
  its sample ``s`` uses streams ``2s`` (dealing) and ``2s + 1`` (rollouts) of that key;
* ``engine.play_from_deck``: the policies from ``(policy_seed, 0)``;
* plain rummy: the deck of deal ``d`` from ``(seed, d)``; the hands of game ``g`` are
  successive shuffles of the one stream ``(seed, g)``.

Studies that need several independent runs derive their seeds with :func:`offset_seed`
(``seed + 1``, ``seed + 100 + round``, ... wrapped into ``[0, 2**63)``); they are
documented where they are made.  Only bootstrap resampling in the equity checks uses
``numpy.random.default_rng(seed)``, outside kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .arrays import Int8s, UInt64s

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)

#: Salt of the policies' stream of a gin deal or game hand (see the stream plan).
POLICY_SALT = np.int64(0x5A17)
#: Salt of the key of whole gin games (decks of game hands).
GAME_SALT = np.int64(0x6A3E)
#: Salt of the advisor's rollout stream of each sample.
ADVISOR_POLICY_SALT = np.int64(0xAD71)
#: Salt of the search player's streams (XOR-ed into a hand's policy stream key).
SEARCH_SALT = np.int64(0x5EA4C4)


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
def next_u64(state: UInt64s) -> np.uint64:
    """Advance the one-element ``state`` and return 64 random bits."""
    state[0] += _GOLDEN
    return mix64(state[0])


@njit(cache=True)
def next_below(state: UInt64s, bound: np.int64) -> np.int64:
    """Uniform integer in ``[0, bound)`` (Lemire's multiply-shift; bias < 2**-40 here)."""
    return np.int64((next_u64(state) >> _S11) * np.uint64(bound) >> np.uint64(53))


@njit(cache=True)
def shuffle_deck(state: UInt64s, deck: Int8s) -> None:
    """Fill ``deck`` (length 52) with a uniformly random order of the 52 cards."""
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = next_below(state, np.int64(i + 1))
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
