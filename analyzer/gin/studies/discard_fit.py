"""Fitting the ``learned`` discard's weights from simulated deals.

Each deal is played by the learner (seat 0, dealing every other deal) against one
opponent of the panel, up to one of the learner's throws chosen at random (its
``k``-th throw that is not a knock, ``k`` uniform in 1-8; a hand that ends sooner gives
no sample).  There every throw the learned discard weighs
(:func:`analyzer.gin.decisions.learned.window_throws`) is played out ``rollouts`` times to
the end of the hand, both players by their own policies, from the true position with the
stock shuffled anew for each rollout (the same shuffles and random streams for every
throw: common random numbers).  A throw's value is its mean points to the learner.

Because the positions come from real play and only the stock is reshuffled, a throw's
mean value estimates its value given everything the learner could know, so a regression
of the values on the throws' features (:data:`analyzer.gin.decisions.learned.FEATURES`,
each centred within its position, as are the values) estimates how much each feature is
worth.  The weights are the regression's coefficients scaled so that the deadwood's is
100, rounded to integers.  A round of policy improvement plays the rollouts with the
weights of the round before.

Randomness: deal ``d``'s deck and the policies' choices come from the streams of
:func:`analyzer.gin.play.game_kernels.hands_kernel` (``seed``, ``seed ^ POLICY_SALT``),
the throw chosen and the rollouts from ``(seed ^ FIT_SALT, d)``; the sums are taken in
deal order, so a fit is the same whatever the thread count.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from ...core.lanes import bit_index
from ...core.progress import Progress, advance, tell_total
from ...core.stats import Estimate
from ...core.rng import POLICY_SALT, next_below, stream_key
from ..decisions.choose import choose_discard
from ..decisions.inference import infer_hidden
from ..decisions.learned import N_FEATURES, WEIGHT_KEYS, throw_features, window_throws
from ..engine.transitions import (
    SCRATCH_SIZE,
    STATE_SIZE,
    Phase,
    Slot,
    advance,
    apply_discard,
    step,
)
from ..evaluator.partition import discard_deadwoods_kernel
from ..model.policies import PRESETS, Policy
from ..model.rules import Rules
from ..play.game_kernels import deal_hand

#: Salt of the fit's own streams (which throw is sampled, the rollouts).
FIT_SALT = np.int64(0xF17D)
#: The sampled throw is the learner's k-th non-knocking throw, k uniform in 1..this.
MAX_THROW = 8
#: Most throws one position can weigh (11 cards).
MAX_THROWS = 11
_NONE = np.int64(1 << 20)


@njit(cache=True)
def _points_to_first(state: npt.NDArray[np.int64]) -> np.float64:
    winner = state[Slot.WINNER]
    if winner < 0:
        return 0.0
    return np.float64(state[Slot.POINTS] if winner == 0 else -state[Slot.POINTS])


@njit(cache=True)
def _shuffle_stock(state: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> None:
    start = Slot.DECK + state[Slot.STOCK_POS]
    end = Slot.DECK + 52
    for i in range(end - 1, start, -1):
        j = start + next_below(rng, np.int64(i - start + 1))
        state[i], state[j] = state[j], state[i]


@njit(cache=True)
def _sample_position(
    deal: np.int64,
    seed: np.int64,
    rules: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rollouts: np.int64,
    state: npt.NDArray[np.int64],
    deck: npt.NDArray[np.int8],
    rng: npt.NDArray[np.uint64],
    scratch: npt.NDArray[np.int64],
    features: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    chosen: npt.NDArray[np.int64],
) -> np.int64:
    """Play deal ``deal`` to the sampled throw and fill its rows; return how many throws
    were weighed (0: no sample), ``chosen[0]`` the row of the throw the policy makes."""
    fit_key = stream_key(seed ^ FIT_SALT, deal)
    pick = np.empty(1, dtype=np.uint64)
    pick[0] = fit_key
    target = 1 + next_below(pick, np.int64(MAX_THROW))
    deal_hand(stream_key(seed, deal), np.int64(deal % 2), rules, state, deck, rng)
    rng[0] = stream_key(seed ^ POLICY_SALT, deal)
    throws = np.int64(0)
    trial = state.copy()
    trial_rng = np.empty(1, dtype=np.uint64)
    while state[Slot.PHASE] != Phase.DONE:
        if state[Slot.PHASE] == Phase.DISCARD and state[Slot.TURN] == 0:
            trial[:] = state
            trial_rng[0] = rng[0]
            card, knock = choose_discard(trial, np.int64(0), policies[0], trial_rng, scratch, scratch[52:])
            if not knock:
                throws += 1
                if throws == target:
                    return _weigh_throws(
                        state, rules, policies, rollouts, fit_key, card, scratch, features, values, chosen
                    )
        step(state, rules, policies, rng, scratch)
    return np.int64(0)


@njit(cache=True)
def _weigh_throws(
    state: npt.NDArray[np.int64],
    rules: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rollouts: np.int64,
    fit_key: np.uint64,
    policy_card: np.int64,
    scratch: npt.NDArray[np.int64],
    features: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    chosen: npt.NDArray[np.int64],
) -> np.int64:
    hand = state[Slot.HAND]
    candidates = hand
    if state[Slot.TAKEN] >= 0:
        candidates &= ~(np.int64(1) << state[Slot.TAKEN])
    deadwoods = np.empty(52, dtype=np.int64)
    discard_deadwoods_kernel(hand, candidates, deadwoods)
    least = _NONE
    rest = candidates
    while rest:
        bit = rest & -rest
        rest ^= bit
        least = min(least, deadwoods[bit_index(bit)])
    throws = window_throws(state, np.int64(0), candidates, least, deadwoods, policies[0])
    probs = np.empty(52, dtype=np.float64)
    unseen = infer_hidden(state, np.int64(0), probs)
    work = np.empty(52, dtype=np.int64)
    n = np.int64(0)
    cards = np.empty(MAX_THROWS, dtype=np.int64)
    chosen[0] = -1
    rest = throws
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit_index(bit)
        cards[n] = card
        if card == policy_card:
            chosen[0] = n
        throw_features(state, np.int64(0), card, deadwoods[card], probs, unseen, work, features[n])
        values[n] = 0.0
        n += 1
    branch = np.empty_like(state)
    stock_rng = np.empty(1, dtype=np.uint64)
    play_rng = np.empty(1, dtype=np.uint64)
    for r in range(rollouts):
        for i in range(n):
            branch[:] = state
            stock_rng[0] = stream_key(np.int64(fit_key), np.int64(2 * r + 1))
            _shuffle_stock(branch, stock_rng)
            apply_discard(branch, cards[i], False, rules)
            play_rng[0] = stream_key(np.int64(fit_key), np.int64(2 * r + 2))
            advance(branch, rules, policies, play_rng, scratch, False)
            values[i] += _points_to_first(branch)
    for i in range(n):
        values[i] /= rollouts
    return n


@njit(cache=True, parallel=True, nogil=True)
def throw_samples_kernel(
    seed: np.int64,
    first_deal: np.int64,
    n_deals: np.int64,
    rules: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rollouts: np.int64,
    features: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    counts: npt.NDArray[np.int64],
    chosen: npt.NDArray[np.int64],
) -> None:
    """Rows for deals ``first_deal .. first_deal + n_deals``: ``features[i, t]`` and
    ``values[i, t]`` (points to the learner) of throw ``t`` of deal ``i``'s sampled
    position, ``counts[i]`` throws (0: no sample), ``chosen[i]`` the policy's throw."""
    slots = min(n_deals, 256)
    per_slot = (n_deals + slots - 1) // max(slots, 1)
    for slot in prange(slots):
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        deck = np.empty(52, dtype=np.int8)
        rng = np.empty(1, dtype=np.uint64)
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        pick = np.empty(1, dtype=np.int64)
        for i in range(slot * per_slot, min(n_deals, (slot + 1) * per_slot)):
            counts[i] = _sample_position(
                first_deal + i,
                seed,
                rules,
                policies,
                rollouts,
                state,
                deck,
                rng,
                scratch,
                features[i],
                values[i],
                pick,
            )
            chosen[i] = pick[0]


@dataclass(frozen=True)
class ThrowSamples:
    """Sampled positions: ``features[i, t]``, ``values[i, t]`` (points to the learner) of
    throw ``t < counts[i]`` of position ``i``, ``chosen[i]`` the policy's throw."""

    features: npt.NDArray[np.float64]
    values: npt.NDArray[np.float64]
    counts: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int64]

    def kept(self) -> ThrowSamples:
        """Only the positions with two throws or more."""
        keep = self.counts >= 2
        return ThrowSamples(
            self.features[keep], self.values[keep], self.counts[keep], self.chosen[keep]
        )

    @staticmethod
    def join(parts: list[ThrowSamples]) -> ThrowSamples:
        return ThrowSamples(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.values for p in parts]),
            np.concatenate([p.counts for p in parts]),
            np.concatenate([p.chosen for p in parts]),
        )


def sample_throws(
    seed: int,
    first_deal: int,
    n_deals: int,
    rules: npt.NDArray[np.int64],
    learner: npt.NDArray[np.int64],
    opponent: npt.NDArray[np.int64],
    rollouts: int,
) -> ThrowSamples:
    """The sampled positions (with two throws or more) of ``n_deals`` deals of
    ``learner`` against ``opponent`` (policy arrays)."""
    features = np.zeros((n_deals, MAX_THROWS, N_FEATURES), dtype=np.float64)
    values = np.zeros((n_deals, MAX_THROWS), dtype=np.float64)
    counts = np.zeros(n_deals, dtype=np.int64)
    chosen = np.zeros(n_deals, dtype=np.int64)
    policies = np.stack([learner, opponent])
    throw_samples_kernel(
        np.int64(seed),
        np.int64(first_deal),
        np.int64(n_deals),
        rules,
        policies,
        np.int64(rollouts),
        features,
        values,
        counts,
        chosen,
    )
    return ThrowSamples(features, values, counts, chosen).kept()


@njit(cache=True)
def _normal_equations(
    features: npt.NDArray[np.float64], values: npt.NDArray[np.float64], counts: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``X'X`` and ``X'y`` of the features and values centred within each position,
    summed in position order (the same sums whatever the thread count)."""
    k = features.shape[2]
    xtx = np.zeros((k, k))
    xty = np.zeros(k)
    mean = np.zeros(k)
    for i in range(features.shape[0]):
        n = counts[i]
        mean[:] = 0.0
        value_mean = 0.0
        for t in range(n):
            mean += features[i, t]
            value_mean += values[i, t]
        mean /= n
        value_mean /= n
        for t in range(n):
            x = features[i, t] - mean
            y = values[i, t] - value_mean
            for a in range(k):
                xty[a] += x[a] * y
                for b in range(k):
                    xtx[a, b] += x[a] * x[b]
    return xtx, xty


def fit_coefficients(samples: ThrowSamples) -> npt.NDArray[np.float64]:
    """Least-squares coefficients (points of value per unit of each feature) of the
    throws' centred values on their centred features."""
    xtx, xty = _normal_equations(samples.features, samples.values, samples.counts)
    return np.linalg.solve(xtx, xty)


def weights_from(coefficients: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The learned discard's weights (hundredths of a point per unit of each feature, a
    cost: the lowest weighted sum is thrown): the coefficients negated, times 100,
    rounded."""
    return np.rint(-100.0 * coefficients).astype(np.int64)


def pick_gain(samples: ThrowSamples, coefficients: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Per position: the value of the throw the coefficients rate best minus the value of
    the policy's own throw (points; positions where the policy's throw was not weighed
    are left out)."""
    gains = []
    for i in range(samples.features.shape[0]):
        n = samples.counts[i]
        if samples.chosen[i] < 0:
            continue
        predicted = samples.features[i, :n] @ coefficients
        best = int(np.argmax(predicted))
        gains.append(samples.values[i, best] - samples.values[i, samples.chosen[i]])
    return np.array(gains)


#: The opponents of a fit (None: the learner itself): the EAAI baseline, the previous
#: expert, a lookahead discarder, the MARJJ replica and self-play.
FIT_OPPONENTS: tuple[tuple[str, Policy | None], ...] = (
    ("eaai-simple", PRESETS["eaai-simple"]),
    ("expert", PRESETS["expert"]),
    ("lookahead", PRESETS["lookahead"]),
    ("marjj", PRESETS["marjj"]),
    ("self", None),
)
#: Deals per kernel call (a progress step).
_CHUNK = 1000


@dataclass(frozen=True)
class FitRound:
    """One round of the fit: the policy whose rollouts were played, what was fitted."""

    policy: Policy
    samples: int
    held_out: int
    coefficients: npt.NDArray[np.float64]
    weights: dict[str, int]
    gain: Estimate
    """The held-out gain (points per decision) of throwing by the fitted coefficients
    over the round's policy's own throw."""
    seconds: float


@dataclass(frozen=True)
class DiscardFit:
    """A whole fit: its settings, each round and the fitted policy."""

    rules: str
    seed: int
    deals: int
    rollouts: int
    opponents: tuple[str, ...]
    rounds: tuple[FitRound, ...]

    @property
    def policy(self) -> Policy:
        """The base policy with the last round's weights."""
        return self.rounds[-1].policy.changed(**self.rounds[-1].weights)


def _collect(
    rules: npt.NDArray[np.int64],
    seed: int,
    first_deal: int,
    deals: int,
    learner: Policy,
    opponents: Sequence[Policy | None],
    rollouts: int,
    progress: Progress | None,
) -> ThrowSamples:
    """Samples of ``deals`` deals from ``first_deal`` on against each opponent (None:
    the learner itself), opponent ``k`` on the streams of ``seed + k``."""
    mine = learner.to_array()
    parts = []
    for k, opponent in enumerate(opponents):
        theirs = mine if opponent is None else opponent.to_array()
        for start in range(first_deal, first_deal + deals, _CHUNK):
            size = min(_CHUNK, first_deal + deals - start)
            parts.append(sample_throws(seed + k, start, size, rules, mine, theirs, rollouts))
            advance(progress, size)
    return ThrowSamples.join(parts)


def fit_discard(
    rules: Rules,
    rules_name: str,
    base: Policy,
    opponents: Sequence[tuple[str, Policy | None]],
    deals: int,
    rollouts: int,
    rounds: int,
    seed: int,
    progress: Progress | None = None,
) -> DiscardFit:
    """Fit the learned discard's weights over ``rounds`` rounds of policy improvement,
    starting from ``base`` (whose discard rule is set to ``learned``), on ``deals``
    deals against each named opponent (None: the learner itself) and a quarter as many
    held-out deals after them."""
    held_out = max(deals // 4, 1)
    tell_total(progress, rounds * len(opponents) * (deals + held_out))
    rules_array = rules.to_array()
    players = [player for _, player in opponents]
    policy = base.changed(discard="learned")
    done = []
    for round_number in range(rounds):
        started = time.perf_counter()
        round_seed = seed + 1000 * round_number
        fitting = _collect(rules_array, round_seed, 0, deals, policy, players, rollouts, progress)
        testing = _collect(
            rules_array, round_seed, deals, held_out, policy, players, rollouts, progress
        )
        coefficients = fit_coefficients(fitting)
        gains = pick_gain(testing, coefficients)
        weights = dict(zip(WEIGHT_KEYS, (int(w) for w in weights_from(coefficients))))
        done.append(
            FitRound(
                policy,
                len(fitting.counts),
                len(testing.counts),
                coefficients,
                weights,
                Estimate.from_sums(float(gains.sum()), float((gains**2).sum()), len(gains)),
                time.perf_counter() - started,
            )
        )
        policy = policy.changed(**weights)
    return DiscardFit(
        rules_name, seed, deals, rollouts, tuple(name for name, _ in opponents), tuple(done)
    )


__all__ = [
    "FIT_OPPONENTS",
    "DiscardFit",
    "FitRound",
    "fit_discard",
    "FIT_SALT",
    "ThrowSamples",
    "fit_coefficients",
    "pick_gain",
    "sample_throws",
    "throw_samples_kernel",
    "weights_from",
]
