"""Sampling the hidden cards of a position: sampled deals and their likelihood weights.

A sample gives the opponent a hand and puts the unseen cards in the stock and under the
pile, as step 1 and 2 of :mod:`analyzer.gin.play.advisor` describe: :func:`deal_sample` is
the per-sample kernel (shuffle, deal, optional play-in of the opponent's hand) and
:func:`log_likelihood` its pseudo-likelihood weight (both in :mod:`analyzer.gin.decisions.sampling`,
shared with the search player; this module builds their inputs from a position).  :func:`sample_deals` runs both
for many samples and returns the sampled states; the advisor's rollouts, a search
player and opponent-hand inference all start from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ....core.arrays import Float64s, Int64s
from ....core.linking import compiled_once
from ....core.rng import stream_key
from ....core.threads import run_spans
from ...decisions.sampling import Observed, SampleLayout, deal_sample, log_likelihood, meld_gain
from ...engine.transitions import SCRATCH_SIZE, Slot
from ...model.policies import PRESETS as POLICY_PRESETS
from ...model.policies import Policy
from ...model.rules import STANDARD, Rules
from ..hand import Hand
from .constants import ADVICE_TEMPERATURE
from .position import OPP, Position, card_mask, my_pile_throws


def base_state(position: Position, rules: Rules) -> Int64s:
    """The rollout state without the sampled cards (seat 0 is this player): the state of
    :meth:`Hand.from_position <analyzer.gin.play.hand.Hand.from_position>`."""
    return Hand.from_position(position, rules).state


def sample_layout(
    position: Position, rules: Rules, opponent: Policy, base: Int64s, model: bool
) -> Int64s:
    """The sampling layout (:class:`SampleLayout`) around the ``base`` state; ``model`` adds
    the play-in and the knock constraint of the model opponent."""
    layout = np.zeros(len(SampleLayout), dtype=np.int64)
    layout[SampleLayout.OPP_CARDS] = 10 - len(position.known_opp_cards)
    layout[SampleLayout.BURIED] = position.hidden_pile() - len(position.known_buried)
    layout[SampleLayout.FIRST_BURIED] = len(position.known_buried)
    layout[SampleLayout.OPP_THRESHOLD] = -1
    opp_turns = int(base[Slot.OWN_TURNS + OPP])
    if model and opp_turns > 0:
        # one draw per turn; a card it took and kept stands for its draw, a card it took
        # and threw again is a draw that came to nothing, like a useless stock card
        layout[SampleLayout.PLAY_IN] = max(opp_turns - len(position.known_opp_cards), 0)
        schedule = opponent.knock.thresholds()
        layout[SampleLayout.OPP_THRESHOLD] = min(
            int(schedule[min(opp_turns, len(schedule)) - 1]), position.knock_limit(rules)
        )
    return layout


def observations(position: Position) -> Int64s:
    """Observation masks by :class:`Observed` for the weighting kernel."""
    observed = np.zeros(len(Observed), dtype=np.int64)
    observed[Observed.THREW] = card_mask(position.opp_threw)
    observed[Observed.TOOK_HELD] = card_mask(position.known_opp_cards)
    if position.opp_threw:
        # without its throws we cannot tell its pile cards from ours
        passed = [c for c in position.pile if c not in position.opp_threw]
        observed[Observed.PASSED] = card_mask(passed)
    return observed


@compiled_once
@njit(cache=True)
def weighted_start(
    seed: np.int64,
    sample: np.int64,
    base: Int64s,
    pool: Int64s,
    layout: Int64s,
    observed: Int64s,
    temperature: np.float64,
    scratch: Int64s,
) -> tuple[Int64s, np.float64]:
    """Sample number ``sample`` of the stream ``seed``: ``base`` with the opponent's hand
    and the stock dealt from ``pool``, and its log weight (0 when ``temperature <= 0``).
    The advisor's rollouts and :func:`sample_deals` both start from it."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_key(seed, sample)
    cards = pool.copy()
    start = base.copy()
    deal_sample(start, cards, rng, layout, scratch, np.int64(OPP))
    log_weight = 0.0
    if temperature > 0:
        log_weight = log_likelihood(
            start[Slot.HAND + OPP],
            observed,
            temperature,
            layout[SampleLayout.OPP_THRESHOLD],
            scratch[:52],
        )
    return start, log_weight


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def _sample_kernel(
    seed: np.int64,
    first: np.int64,
    base: Int64s,
    pool: Int64s,
    layout: Int64s,
    observed: Int64s,
    temperature: np.float64,
    states: Int64s,
    log_weights: Float64s,
) -> None:
    """Sample ``first + i`` into ``states[i]`` and its log weight (0 when
    ``temperature <= 0``), from the same streams as the advisor's rollouts."""
    for i in range(states.shape[0]):
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        states[i], log_weights[i] = weighted_start(
            seed, first + i, base, pool, layout, observed, temperature, scratch
        )


@dataclass(frozen=True)
class SampledDeals:
    """Sampled completions of a position's hidden cards, with their weights.

    ``states[i]`` is an engine state (:class:`analyzer.gin.engine.transitions.Slot`; this player is
    seat 0, to discard) holding sample ``i``'s opponent hand, stock order and buried
    pile; ``log_weights[i]`` is its log pseudo-likelihood (``-inf``: the model opponent
    would have knocked with that hand; all 0 with uniform weights).
    """

    states: Int64s
    log_weights: Float64s

    @property
    def opponent_hands(self) -> Int64s:
        """The opponent's sampled hands (52-bit masks), one per sample."""
        return self.states[:, Slot.HAND + OPP]

    @property
    def weights(self) -> Float64s:
        """Self-normalised weights (sum 1)."""
        if not np.isfinite(self.log_weights.max()):
            raise ValueError("no sampled opponent hand fits its play under the model opponent")
        weights = np.exp(self.log_weights - self.log_weights.max())
        return weights / weights.sum()

    @property
    def ess(self) -> float:
        """Effective sample size ``(sum w)**2 / sum w**2``."""
        weights = self.weights
        return float(1.0 / (weights @ weights))


def sample_deals(
    position: Position,
    n_samples: int,
    seed: int = 0,
    rules: Rules = STANDARD,
    opponent: Policy = POLICY_PRESETS["basic"],
    weights: str = "model",
    temperature: float = ADVICE_TEMPERATURE,
    first: int = 0,
) -> SampledDeals:
    """Samples ``first .. first + n_samples`` of the hidden cards of ``position``.

    They are the samples :func:`analyzer.gin.play.advisor.advise` rolls out for the same
    ``seed`` (sample ``k`` comes from ``stream_key(seed, k)``), so the result does not
    depend on the thread count.  ``weights="model"`` plays the opponent's hand in and
    weights it by ``opponent``'s observed play at ``temperature`` points per factor
    ``e``; ``"uniform"`` deals uniformly with equal weights.
    """
    if n_samples < 1:
        raise ValueError(f"n_samples must be >= 1, got {n_samples}")
    if weights not in ("model", "uniform"):
        raise ValueError(f"weights must be 'model' or 'uniform', got {weights!r}")
    if weights == "model" and temperature <= 0:
        raise ValueError(f"temperature must be > 0 points, got {temperature}")
    base = base_state(position, rules)
    layout = sample_layout(position, rules, opponent, base, model=weights == "model")
    states = np.zeros((n_samples, base.shape[0]), dtype=np.int64)
    log_weights = np.zeros(n_samples, dtype=np.float64)
    pool = np.array(position.unseen, dtype=np.int64)
    observed = observations(position)
    kernel_temperature = temperature if weights == "model" else 0.0

    def span(offset: int, count: int) -> None:
        part = slice(offset, offset + count)
        _sample_kernel(
            np.int64(seed),
            np.int64(first + offset),
            base,
            pool,
            layout,
            observed,
            kernel_temperature,
            states[part],
            log_weights[part],
        )

    run_spans(span, n_samples, n_samples)
    return SampledDeals(states, log_weights)


__all__ = [
    "Observed",
    "SampleLayout",
    "SampledDeals",
    "base_state",
    "deal_sample",
    "log_likelihood",
    "meld_gain",
    "my_pile_throws",
    "observations",
    "sample_deals",
    "sample_layout",
]
