"""Opponent-hand inference: P(the opponent holds each card) from what it took, threw and
refused, and what that says about its deadwood and its chance to end the hand.

Model (stated; fitted by ``scripts/fit_inference.py``, checked by the calibration test)
----------------------------------------------------------------------------------
The opponent is modelled as a player who keeps cards that meld and throws or passes over
cards that do not.  Its hidden cards (its hand less the cards it took from the pile and
still holds, which are known) are a subset of the *unseen* cards (not in the observer's
hand, not in the pile, not known to be the opponent's), of known size ``k``.  Each unseen
card ``c`` gets a score

    s(c) = sum_i  WEIGHTS[i] * feature_i(c)

over the features of :class:`Feature`: how many cards of ``c``'s rank, or within one or
two ranks in its suit, the opponent threw, refused (pile tops it did not take, the
opening upcard pass included) or is known to hold; ``c``'s point value times how far
the opponent's hand has come (its own turns / 10, capped at 1: high cards leave first);
and whether it passed on both a card of ``c``'s rank and a suit neighbour of ``c``
(then ``c`` fits no meld it was building, a strong sign it is not held).
The cards are then exchangeable given their scores: ``P(c held) = min(1, z * exp(s(c)))``
with ``z`` set so that the probabilities sum to ``k`` (the number of hidden cards);
last, a fitted monotone curve (``CALIBRATION_X/Y``) recalibrates these shares and they
are rescaled to sum to ``k`` again.  A
card seen anywhere has probability 0, a card known to be in its hand 1.

Hands are sampled from the model by successive sampling without replacement, each pick
proportional to the odds ``p / (1 - p)`` of the cards left (:func:`sample_hidden`).
The marginals say nothing of how the hidden cards fit together, and a hand drawn from
them is as poor as a fresh deal; so the hands used for deadwood and knock estimates are
*played in* (:func:`sample_played_in`, after the advisor's model): drawn with one extra
card per stock draw the opponent made (up to a cap) and reduced by throwing the highest
unmelded cards, one per extra card.
From such samples :func:`opponent_outlook` estimates the opponent's deadwood
distribution and its chance to knock or go gin on its next turn (taking the card the
observer throws when that lets it knock, else drawing a random unseen card).

Kernels for a search or a policy (all pure functions of the state and work arrays):

* ``infer_hidden(state, observer, probs)`` fills ``probs[52]`` (float64) and returns the
  unseen mask;
* ``to_sampling_table(unseen, probs)`` turns them into a sampling table in place
  (``from_sampling_table(state, observer, unseen, table)`` undoes it);
* ``sample_hidden(state, observer, table, unseen, rng)`` returns one sampled opponent
  hand (mask, the known cards included);
* ``sample_played_in(state, observer, table, unseen, rounds, rng, scratch)``: the same,
  played in for ``rounds`` turns (``play_in_rounds(state, observer, limit)``);
* ``opponent_outlook(state, observer, table, unseen, throw, n, rounds, rng, scratch,
  deadwoods)``
  returns (mean deadwood, P(knock or gin next turn), P(gin next turn)) and fills
  ``deadwoods[:n]`` with the sampled deadwoods (points).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ...core.arrays import Float64s, Int64s, UInt64s
from ...core.cards import CARD_POINTS, NEAR1, NEAR2, RANK_MATES
from ...core.lanes import bit_index, bits_of, cards_of, popcount
from ...core.linking import compiled_once
from ...core.rng import next_u64
from ..evaluator.partition import best_arrangement_kernel, best_discard_kernel, min_deadwood_kernel
from ..model.knowledge import hidden_count, unseen_cards
from ..model.state import FULL_DECK, Slot


class Feature(IntEnum):
    """Features of an unseen card ``c`` (counts of cards of the opponent's record)."""

    THREW_RANK = 0
    """cards of ``c``'s rank the opponent threw"""
    THREW_NEAR1 = 1
    """cards one rank from ``c`` in its suit the opponent threw"""
    THREW_NEAR2 = 2
    """cards two ranks from ``c`` in its suit the opponent threw"""
    REFUSED_RANK = 3
    REFUSED_NEAR1 = 4
    HELD_RANK = 5
    """cards of ``c``'s rank the opponent is known to hold"""
    HELD_NEAR = 6
    """cards within two ranks of ``c`` in its suit the opponent is known to hold"""
    LATE_POINTS = 7
    """``c``'s points x min(opponent's own turns / 10, 1)"""
    DEAD_BOTH_WAYS = 8
    """1 when the opponent threw or refused both a card of ``c``'s rank and a card one
    rank from ``c`` in its suit (``c`` fits neither a set nor a run it was building)"""


N_FEATURES = len(Feature)
#: Fitted by ``scripts/fit_inference.py --hands 6000 --seed 7 --panel "basic;expert"``
#: (maximum likelihood on simulated hands against the opponents the model describes:
#: ``basic`` and ``expert`` draw to improve and throw their least useful card; a random
#: thrower such as ``simple`` says less with its throws).
WEIGHTS = np.array(
    [-0.512, -0.339, -0.218, -0.533, -0.261, 0.363, 0.340, 0.008, -1.456], dtype=np.float64
)


#: Recalibration of the log-linear model (fitted by the same script): a raw probability
#: ``p`` becomes ``interp(p, CALIBRATION_X, CALIBRATION_Y)`` and the cards are rescaled
#: to sum to the hidden count again.  Maps the model's shares to the frequencies seen in
#: simulated hands (the log-linear scores rank the cards well but spread them too little
#: at the low end).
CALIBRATION_X = np.array(
    [
        0.0000,
        0.0271,
        0.0758,
        0.1278,
        0.1765,
        0.2286,
        0.2742,
        0.3225,
        0.3721,
        0.4402,
        0.5420,
        0.6664,
        0.8963,
        1.0000,
    ]
)
CALIBRATION_Y = np.array(
    [
        0.0000,
        0.0211,
        0.0615,
        0.0782,
        0.1259,
        0.2269,
        0.2914,
        0.3548,
        0.3842,
        0.4563,
        0.5074,
        0.5368,
        0.5368,
        1.0000,
    ]
)


@njit(cache=True)
def _spread(record: np.int64, table: Int64s, weight: np.float64, scores: Float64s) -> None:
    """Add ``weight`` to the score of every card related (by ``table``) to each card of
    ``record``; the relations are symmetric, so this counts, per card, its related
    cards in ``record``."""
    for card in cards_of(record):
        related = table[card]
        while related:
            other = related & -related
            related ^= other
            scores[bit_index(other)] += weight


@njit(cache=True)
def card_features(state: Int64s, observer: np.int64, weights: Float64s, scores: Float64s) -> None:
    """``scores[c]`` = sum of ``weights[i] * feature_i(c)`` for every card (length 52);
    with a unit vector as ``weights`` this is one feature column."""
    opponent = 1 - observer
    threw = state[Slot.THREW + opponent]
    refused = state[Slot.REFUSED + opponent]
    held = state[Slot.HELD + opponent]
    for card in range(52):
        scores[card] = 0.0
    _spread(threw, RANK_MATES, weights[Feature.THREW_RANK], scores)
    _spread(threw, NEAR1, weights[Feature.THREW_NEAR1], scores)
    _spread(threw, NEAR2, weights[Feature.THREW_NEAR2], scores)
    _spread(refused, RANK_MATES, weights[Feature.REFUSED_RANK], scores)
    _spread(refused, NEAR1, weights[Feature.REFUSED_NEAR1], scores)
    _spread(held, RANK_MATES, weights[Feature.HELD_RANK], scores)
    _spread(held, NEAR1, weights[Feature.HELD_NEAR], scores)
    _spread(held, NEAR2, weights[Feature.HELD_NEAR], scores)
    passed = threw | refused
    rank_passed = np.int64(0)
    near_passed = np.int64(0)
    for card in cards_of(passed):
        rank_passed |= RANK_MATES[card]
        near_passed |= NEAR1[card]
    for card in cards_of(rank_passed & near_passed):
        scores[card] += weights[Feature.DEAD_BOTH_WAYS]
    progress = min(state[Slot.OWN_TURNS + opponent], 10) / 10.0
    late = weights[Feature.LATE_POINTS] * progress
    for card in range(52):
        scores[card] += late * CARD_POINTS[card]


@njit(cache=True)
def normalise(unseen: np.int64, hidden: np.int64, probs: Float64s) -> None:
    """Turn scores ``probs[c]`` (log weights) of the ``unseen`` cards into probabilities
    ``min(1, z * exp(score))`` summing to ``hidden``; other cards get 0."""
    total = 0.0
    largest = 0.0
    for card in cards_of(unseen):
        weight = np.exp(probs[card])
        probs[card] = weight
        total += weight
        largest = max(largest, weight)
    for card in cards_of(FULL_DECK & ~unseen):
        probs[card] = 0.0
    if total <= 0.0:
        return
    capped = np.int64(0)
    scale = hidden / total
    # water-filling: cards whose share would pass 1 are held surely; the rest share the
    # remaining count (rare, so the common case is one pass)
    while largest * scale >= 1.0 and hidden > popcount(capped):
        for bit in bits_of(unseen & ~capped):
            card = bit_index(bit)
            if probs[card] * scale >= 1.0:
                capped |= bit
                total -= probs[card]
        largest = 0.0
        for card in cards_of(unseen & ~capped):
            largest = max(largest, probs[card])
        scale = (hidden - popcount(capped)) / total if total > 0.0 else 0.0
    for bit in bits_of(unseen):
        card = bit_index(bit)
        probs[card] = 1.0 if (capped & bit) else probs[card] * scale


@njit(cache=True)
def calibrated(share: np.float64) -> np.float64:
    """``np.interp(share, CALIBRATION_X, CALIBRATION_Y)`` for one finite value, with
    numpy's arithmetic (so bit for bit the same) but without its array allocations,
    which made the call most of an inference's time."""
    last = CALIBRATION_X.shape[0] - 1
    if share < CALIBRATION_X[0]:
        return CALIBRATION_Y[0]
    if share >= CALIBRATION_X[last]:
        return CALIBRATION_Y[last]
    j = 0
    while CALIBRATION_X[j + 1] <= share:
        j += 1
    if CALIBRATION_X[j] == share:
        return CALIBRATION_Y[j]
    slope = (CALIBRATION_Y[j + 1] - CALIBRATION_Y[j]) / (CALIBRATION_X[j + 1] - CALIBRATION_X[j])
    return slope * (share - CALIBRATION_X[j]) + CALIBRATION_Y[j]


@njit(cache=True)
def recalibrate(unseen: np.int64, hidden: np.int64, probs: Float64s) -> None:
    """Map the ``unseen`` cards' probabilities through the calibration curve and rescale
    them to sum to ``hidden`` (capped at 1)."""
    total = 0.0
    for card in cards_of(unseen):
        probs[card] = calibrated(probs[card])
        total += probs[card]
    if total <= 0.0:
        return
    scale = hidden / total
    for card in cards_of(unseen):
        probs[card] = min(probs[card] * scale, 1.0)


@compiled_once
@njit(cache=True)
def infer_hidden(state: Int64s, observer: np.int64, probs: Float64s) -> np.int64:
    """Fill ``probs[c]`` = P(the opponent of ``observer`` holds ``c``) for every card
    (1 for cards it is known to hold) and return the unseen mask."""
    card_features(state, observer, WEIGHTS, probs)
    unseen = unseen_cards(state, observer)
    hidden = hidden_count(state, observer)
    normalise(unseen, hidden, probs)
    recalibrate(unseen, hidden, probs)
    for card in cards_of(state[Slot.HELD + 1 - observer]):
        probs[card] = 1.0
    return unseen


_MAX_ODDS = 999.0


@njit(cache=True)
def _uniform(rng: UInt64s) -> np.float64:
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def to_sampling_table(unseen: np.int64, probs: Float64s) -> None:
    """Replace ``probs`` (length 52) by the cumulative odds ``p / (1 - p)`` (capped at
    999) of the ``unseen`` cards in card order: ``table[c]`` = the sum of the odds of the
    unseen cards up to ``c``; :func:`from_sampling_table` undoes it."""
    total = 0.0
    for card in range(52):
        if (unseen >> card) & 1:
            p = probs[card]
            total += _MAX_ODDS if p >= _MAX_ODDS / (1.0 + _MAX_ODDS) else p / (1.0 - p)
        probs[card] = total


@njit(cache=True)
def from_sampling_table(
    state: Int64s, observer: np.int64, unseen: np.int64, table: Float64s
) -> None:
    """Undo :func:`to_sampling_table`: the unseen cards get back their probabilities (a
    card at the odds cap 0.999), the opponent's known cards 1, the others 0."""
    held = state[Slot.HELD + 1 - observer]
    previous = 0.0
    for card in range(52):
        odds = table[card] - previous
        previous = table[card]
        if (unseen >> card) & 1:
            table[card] = odds / (1.0 + odds)
        else:
            table[card] = 1.0 if (held >> card) & 1 else 0.0


@njit(cache=True)
def _search(table: Float64s, target: np.float64) -> np.int64:
    """The first card whose cumulative odds exceed ``target``."""
    low, high = 0, 51
    while low < high:
        middle = (low + high) // 2
        if table[middle] > target:
            high = middle
        else:
            low = middle + 1
    return np.int64(low)


@njit(cache=True)
def sample_hidden(
    state: Int64s,
    observer: np.int64,
    table: Float64s,
    unseen: np.int64,
    rng: UInt64s,
    extra: np.int64 = 0,
) -> np.int64:
    """One opponent hand drawn from the model: its known cards plus ``hidden_count``
    (+ ``extra``) unseen cards picked one by one with chance proportional to their odds
    among those not yet picked (``table``: :func:`to_sampling_table` of the inferred
    probabilities).  Drawing from the whole table and redrawing a card already picked
    is the same law as drawing from the cards left, and needs no rescan."""
    hand = state[Slot.HELD + 1 - observer]
    picked = np.int64(0)
    wanted = min(hidden_count(state, observer) + extra, popcount(unseen))
    total = table[51]
    if total <= 0.0:
        return hand
    while popcount(picked) < wanted:
        bit = np.int64(0)
        for _ in range(64):
            bit = np.int64(1) << _search(table, _uniform(rng) * total)
            if not picked & bit:
                break
        if picked & bit:  # the cards left carry almost no weight: take the first
            left = unseen & ~picked
            bit = left & -left
        picked |= bit
    return hand | picked


@njit(cache=True)
def play_in_rounds(state: Int64s, observer: np.int64, limit: np.int64) -> np.int64:
    """Stock draws the opponent has made (its own turns less the pile cards it took),
    at most ``limit``: the rounds :func:`sample_played_in` replays."""
    opponent = 1 - observer
    took = popcount(state[Slot.TOOK + opponent])
    return max(min(state[Slot.OWN_TURNS + opponent] - took, limit), 0)


@njit(cache=True)
def _before(card: np.int64, other: np.int64) -> bool:
    """Whether ``card`` is thrown before ``other``: more points, then higher rank."""
    if CARD_POINTS[card] != CARD_POINTS[other]:
        return CARD_POINTS[card] > CARD_POINTS[other]
    return card % 13 > other % 13 or (card % 13 == other % 13 and card > other)


@compiled_once
@njit(cache=True)
def sample_played_in(
    state: Int64s,
    observer: np.int64,
    table: Float64s,
    unseen: np.int64,
    rounds: np.int64,
    rng: UInt64s,
    scratch: Int64s,
) -> np.int64:
    """An opponent hand drawn from the model and then *played in*: ``rounds`` more
    unseen cards are drawn with it, and ``rounds`` cards are thrown from the whole: the
    highest unmelded cards of a least-deadwood arrangement (then, if too few cards are
    unmelded, the best single discards), as a player who had drawn those cards on its
    last ``rounds`` turns and kept its melds would have.  The cards it is known to hold
    are never thrown.  A marginal draw is as poor as a fresh deal; this restores the
    melded structure of a hand that has been played for some turns."""
    known = state[Slot.HELD + 1 - observer]
    hand = sample_hidden(state, observer, table, unseen, rng, rounds)
    if rounds <= 0:
        return hand
    _, sets, runs = best_arrangement_kernel(hand)
    loose = hand & ~(sets | runs) & ~known
    for _ in range(rounds):
        if loose:
            pick = loose & -loose
            for bit in bits_of(loose ^ pick):
                if _before(bit_index(bit), bit_index(pick)):
                    pick = bit
            loose ^= pick
        else:
            _, throws = best_discard_kernel(hand, hand & ~known, scratch)
            if throws == 0:
                break
            pick = throws & -throws
        hand ^= pick
    return hand


@njit(cache=True)
def random_card(pool: np.int64, rng: UInt64s) -> np.int64:
    """A uniformly chosen card of ``pool`` (as a one-bit mask; 0 when empty)."""
    count = popcount(pool)
    if count == 0:
        return np.int64(0)
    skip = np.int64(_uniform(rng) * count)
    for _ in range(skip):
        pool &= pool - 1
    return pool & -pool


@njit(cache=True)
def opponent_outlook(
    state: Int64s,
    observer: np.int64,
    table: Float64s,
    unseen: np.int64,
    throw: np.int64,
    n_samples: np.int64,
    rounds: np.int64,
    rng: UInt64s,
    scratch: Int64s,
    deadwoods: Int64s,
) -> tuple[np.float64, np.float64, np.float64]:
    """(mean deadwood, P(knock or gin on its next turn), P(gin on its next turn)) of the
    opponent over ``n_samples`` hands drawn from ``table`` and played in for ``rounds``
    (see :func:`sample_played_in`); ``deadwoods[i]`` gets sample
    ``i``'s deadwood (points).  On its turn the sampled opponent takes ``throw`` (the
    card the observer is about to throw, -1 for none) when that lets it knock, else
    draws a random card of the unseen cards it does not hold; it knocks whenever the
    hand's knock limit allows (an upper bound for opponents that wait)."""
    limit = state[Slot.KNOCK_LIMIT]
    total = 0.0
    ends = 0
    gins = 0
    for i in range(n_samples):
        hand = sample_played_in(state, observer, table, unseen, rounds, rng, scratch)
        deadwood = min_deadwood_kernel(hand)
        deadwoods[i] = deadwood
        total += deadwood
        best = np.int64(1 << 20)
        if throw >= 0:
            bit = np.int64(1) << throw
            best, _ = best_discard_kernel(hand | bit, hand, scratch)
        if best > limit:
            drawn = random_card(unseen & ~hand, rng)
            best, _ = best_discard_kernel(hand | drawn, hand | drawn, scratch)
        if best <= limit:
            ends += 1
            gins += best == 0
    n = max(n_samples, 1)
    return total / n, ends / n, gins / n
