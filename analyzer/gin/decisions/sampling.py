"""Sampling the cards a player has not seen, weighted by the opponent's observed play.

The kernels shared by the advisor (:mod:`analyzer.gin.play.advisor`, whose module notes state
the model, and whose :mod:`analyzer.gin.play.advisor.sampling` builds them from a described
position) and the search player (:mod:`analyzer.gin.play.search`, which builds them from the
engine state); they live outside the advisor package so that the simulation drivers can
use the search player without importing the advisor: :func:`deal_sample` deals one
sample of the unseen cards to the opponent's hand, the buried pile and the stock (playing
the opponent's hand in with the model opponent), :func:`log_likelihood` weights it by the
pseudo-likelihood of the opponent's throws, passes and kept cards, and
:func:`weighted_mean` gives a self-normalised weighted mean with its 95% half-width.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ...core.arrays import Float64s, Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.lanes import bit_index, bits_of, cards_of
from ...core.linking import compiled_once
from ...core.rng import next_below
from ...core.stats import Z95
from ..evaluator.partition import best_discard_kernel, min_deadwood_kernel
from ..model.state import Slot


class Observed(IntEnum):
    """Rows of the observation masks the weighting kernel reads."""

    THREW = 0
    TOOK_HELD = 1
    PASSED = 2


@njit(cache=True)
def meld_gain(hand: np.int64, card: np.int64) -> np.int64:
    """Deadwood (points) that adding ``card`` to ``hand`` saves by melding: 0 when it
    stays deadwood, at least its own value when it melds."""
    return (
        min_deadwood_kernel(hand)
        + CARD_POINTS[card]
        - min_deadwood_kernel(hand | (np.int64(1) << card))
    )


@compiled_once
@njit(cache=True)
def log_likelihood(
    hand: np.int64, observed: Int64s, temperature: np.float64, threshold: np.int64, scratch: Int64s
) -> np.float64:
    """Log pseudo-likelihood (see the module notes) of the opponent's observed play when
    its hand is ``hand``; ``-inf`` when the model opponent would have knocked with it
    (deadwood at most ``threshold``)."""
    if min_deadwood_kernel(hand) <= threshold:
        return -np.inf
    log = 0.0
    # a throw leaving more deadwood than another throw from the same cards is unlikely
    now = min_deadwood_kernel(hand)
    for bit in bits_of(observed[Observed.THREW]):
        least, _ = best_discard_kernel(hand | bit, hand | bit, scratch)
        log -= (now - least) / temperature
    # passing over a card that melds with the hand is unlikely
    for card in cards_of(observed[Observed.PASSED]):
        log -= meld_gain(hand, card) / temperature
    # a card taken and kept that does not meld is unlikely
    for bit in bits_of(observed[Observed.TOOK_HELD]):
        card = bit_index(bit)
        log -= max(CARD_POINTS[card] - meld_gain(hand ^ bit, card), 0) / temperature
    return log


class SampleLayout(IntEnum):
    """Entries of the sampling layout the rollout kernel reads."""

    OPP_CARDS = 0
    """Cards of the pool dealt to the opponent (beside those it surely holds)."""
    BURIED = 1
    """Free pile slots under the given pile, filled from the pool."""
    FIRST_BURIED = 2
    """Index of the first free pile slot."""
    PLAY_IN = 3
    """Stock draws the opponent replays with the model policy (0: uniform hands)."""
    OPP_THRESHOLD = 4
    """Deadwood at or under which the model opponent would have knocked (-1: none)."""


@njit(cache=True)
def _highest_value(cards: np.int64) -> np.int64:
    """The card of ``cards`` with the highest value, then the highest index."""
    best = np.int64(-1)
    for card in cards_of(cards):
        if best < 0 or CARD_POINTS[card] >= CARD_POINTS[best]:
            best = card
    return best


@compiled_once
@njit(cache=True)
def deal_sample(
    start: Int64s, pool: Int64s, rng: UInt64s, layout: Int64s, scratch: Int64s, opponent: np.int64
) -> None:
    """Shuffle ``pool`` and give its cards to the hand of seat ``opponent``, the free buried pile
    slots and the stock (the rest, in order), as ``layout`` (:class:`SampleLayout`) says.

    With ``PLAY_IN`` steps the opponent's hand is then played in: it draws a random card
    of the rest of the pool and throws the card leaving the least deadwood (highest
    value on ties; never a card it is known to hold), the thrown card taking the drawn
    one's place in the pool.  Its hand then has the quality of a hand played that long.
    """
    for i in range(pool.shape[0] - 1, 0, -1):
        j = next_below(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    n_opp = layout[SampleLayout.OPP_CARDS]
    known = start[Slot.HAND + opponent]
    hand = known
    for k in range(n_opp):
        hand |= np.int64(1) << pool[k]
    for _ in range(layout[SampleLayout.PLAY_IN]):
        j = n_opp + next_below(rng, pool.shape[0] - n_opp)
        drawn = pool[j]
        _, ties = best_discard_kernel(
            hand | (np.int64(1) << drawn), hand & ~known | (np.int64(1) << drawn), scratch
        )
        thrown = _highest_value(ties)
        if thrown == drawn:
            continue
        # swap: the pool's first n_opp cards stay exactly the opponent's dealt ones
        for i in range(n_opp):
            if pool[i] == thrown:
                pool[i], pool[j] = drawn, thrown
        hand = (hand | (np.int64(1) << drawn)) & ~(np.int64(1) << thrown)
    start[Slot.HAND + opponent] = hand
    n_buried = layout[SampleLayout.BURIED]
    first = layout[SampleLayout.FIRST_BURIED]
    for k in range(n_buried):
        card = pool[n_opp + k]
        start[Slot.PILE + first + k] = card
        start[Slot.PILE_MASK] |= np.int64(1) << card
    stock_start = start[Slot.STOCK_POS]
    for k in range(n_opp + n_buried, pool.shape[0]):
        start[Slot.DECK + stock_start + k - n_opp - n_buried] = pool[k]


@njit(cache=True)
def weighted_mean(values: Float64s, weights: Float64s) -> tuple[float, float]:
    """(mean, 95% half-width) of a self-normalised weighted mean; with equal weights the
    usual mean and ``1.96 s / sqrt(n)``."""
    total = 0.0
    squares = 0.0
    weighted = 0.0
    for i in range(values.shape[0]):
        total += weights[i]
        squares += weights[i] * weights[i]
        weighted += weights[i] * values[i]
    mean = weighted / total
    ess = total * total / squares
    spread = 0.0
    for i in range(values.shape[0]):
        deviation = weights[i] * (values[i] - mean)
        spread += deviation * deviation
    variance = spread / (total * total)
    variance *= ess / max(ess - 1.0, 1e-9)  # small-sample correction, exact when uniform
    return mean, Z95 * np.sqrt(variance)
