"""Rollouts and the sequential race between actions, and :func:`advise` on top of them.

Steps 3 and 4 of :mod:`analyzer.gin.play.advisor`: every sampled deal
(:mod:`analyzer.gin.play.advisor.sampling`) is played out once per racing action on common
random numbers, and actions significantly worse than the best drop out of the race.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ....core.arrays import Bools, Float64s, Int64s
from ....core.cards import format_card
from ....core.rng import ADVISOR_POLICY_SALT, SEARCH_SALT, stream_key
from ...decisions.sampling import weighted_mean as weighted_mean_kernel
from ...engine.transitions import SCRATCH_SIZE, Outcome, Phase, Slot, apply_discard
from ...model.policies import PRESETS as POLICY_PRESETS
from ...model.policies import Policy
from ...model.rules import STANDARD, Rules
from ...model.state import points_to
from ..game_kernels import GameColumn
from ..players import Player, SearchPolicy, format_player, rollout_policy, split_players
from ..search import play_on
from ..simulate import game_rows
from ..stopping import run_kernel_spans, search_rows
from .constants import ADVICE_SAMPLES, ADVICE_TEMPERATURE
from .position import (
    ME,
    OPP,
    Action,
    ActionKind,
    Position,
    check_game_position,
    legal_actions,
    parse_action,
)
from .sampling import (
    base_state,
    observations,
    sample_layout,
    weighted_start,
)
from .verdict import ActionEstimate, Advice, verdict_text

#: Effective samples needed before the race drops an action or stops.
_MIN_ESS = 200

_BASIC = POLICY_PRESETS["basic"]
Equity = Callable[[int, int, bool], float]
"""``equity(score_me, score_opp, i_deal_next)``: P(this player wins the game)."""


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def _rollout_kernel(
    seed: np.int64,
    first: np.int64,
    base: Int64s,
    pool: Int64s,
    layout: Int64s,
    observed: Int64s,
    temperature: np.float64,
    actions: Int64s,
    active: Bools,
    rules: Int64s,
    policies: Int64s,
    searchers: Int64s | None,
    points: Int64s,
    outcomes: Int64s,
    winners: Int64s,
    log_weights: Float64s,
) -> None:
    """Roll out samples ``first .. first + len(points)``, every active action on each.

    ``layout`` is indexed by :class:`SampleLayout`; ``actions[a]`` is ``(card, ActionKind)``.
    Row ``i`` of the outputs holds sample ``first + i``: this player's points, the outcome
    and the winner per action, and the sample's log weight (0 when ``temperature <= 0``).
    A seat with a search row (:mod:`analyzer.gin.play.search`) searches at its decisions.
    """
    for i in range(points.shape[0]):
        sample = first + i
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        start, log_weights[i] = weighted_start(
            seed, sample, base, pool, layout, observed, temperature, scratch
        )
        rng = np.empty(1, dtype=np.uint64)
        state = np.empty_like(start)
        policy_key = stream_key(seed ^ ADVISOR_POLICY_SALT, sample)
        search_key = np.int64(policy_key) ^ SEARCH_SALT
        samples_used = np.zeros(1, dtype=np.int64)
        for a in range(actions.shape[0]):
            if not active[a]:
                continue
            state[:] = start
            rng[0] = policy_key  # every action replays the same random choices
            if actions[a, 1] != ActionKind.BIG_GIN:
                apply_discard(state, actions[a, 0], actions[a, 1] == ActionKind.KNOCK, rules)
            if state[Slot.PHASE] != Phase.DONE:
                # big gin: advance declares it at once in the discard phase
                play_on(state, rules, policies, searchers, search_key, rng, scratch, samples_used)
            winner = state[Slot.WINNER]
            outcomes[i, a] = state[Slot.OUTCOME]
            winners[i, a] = winner
            points[i, a] = points_to(state, np.int64(ME))


def _rollout_batch(
    seed: int, first: int, count: int, n_actions: int, inputs: tuple[Any, ...]
) -> tuple[npt.NDArray[Any], ...]:
    """Samples ``first .. first + count`` rolled out on numba's threads: this player's
    points, the outcomes and the winners (a row per sample, a column per action:
    ``n_actions`` of them), and the log weights; ``inputs`` are the kernel's arguments
    from ``base`` to ``searchers``."""
    searchers = inputs[-1]
    points = np.zeros((count, n_actions), dtype=np.int64)
    outcomes = np.full((count, n_actions), -1, dtype=np.int64)
    winners = np.full((count, n_actions), -1, dtype=np.int64)
    log_weights = np.zeros(count, dtype=np.float64)

    def span(offset: int, size: int) -> None:
        part = slice(offset, offset + size)
        _rollout_kernel(  # type: ignore[call-arg]
            np.int64(seed),
            np.int64(first + offset),
            *inputs[:-1],
            search_rows(searchers),
            points[part],
            outcomes[part],
            winners[part],
            log_weights[part],
        )

    run_kernel_spans(span, count, count, searchers)
    return points, outcomes, winners, log_weights


def simulated_equity(
    rules: Rules,
    policy: Player = _BASIC,
    opponent: Player = _BASIC,
    games: int = 1000,
    seed: int = 0,
) -> Equity:
    """A game-win probability function estimated by playing ``games`` whole games from
    each score asked for (cached).  Slow but needs no table; its own noise (about
    ``0.5 / sqrt(games)``) is not part of the advisor's confidence intervals.

    ``win(score_me, score_opp, i_deal_next)`` is the probability that this player, with
    ``policy``, wins a game to ``rules.target`` against ``opponent`` from those scores.
    """

    @cache
    def both_dealers(score_me: int, score_opp: int) -> tuple[float, float]:
        rows = game_rows(
            rules,
            policy,
            opponent,
            seed,
            0,
            games,
            swap_seats=True,
            start=(score_me, score_opp, 0, 0),
        )
        # with swapped seats, even rows have the opponent deal first, odd rows this player
        won = rows[:, GameColumn.GAMES_WON_A].astype(np.float64)
        return float(won[0::2].mean()), float(won[1::2].mean())

    def win(score_me: int, score_opp: int, i_deal_next: bool) -> float:
        return both_dealers(score_me, score_opp)[int(i_deal_next)]

    return win


def game_values(
    points: Int64s, winners: Int64s, position: Position, rules: Rules, equity: Equity
) -> Float64s:
    """Game-win probability after each rolled-out hand (points and winners per sample)."""
    assert position.score is not None
    mine = position.score[0] + np.where(winners == ME, points, 0)
    theirs = position.score[1] + np.where(winners == OPP, -points, 0)
    if rules.line_bonus_timing == "immediate":
        mine = mine + np.where(winners == ME, rules.line_bonus, 0)
        theirs = theirs + np.where(winners == OPP, rules.line_bonus, 0)
    i_dealt = position.dealer == "me"
    if rules.next_dealer == "winner":
        i_deal = np.where(winners < 0, i_dealt, winners == ME)
    else:
        i_deal = np.where(winners < 0, i_dealt, not i_dealt)
    values = np.where(mine >= rules.target, 1.0, 0.0)
    going = (mine < rules.target) & (theirs < rules.target)
    keys = np.stack([mine[going], theirs[going], i_deal[going].astype(np.int64)], axis=1)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    table = np.array([equity(int(m), int(t), bool(d)) for m, t, d in unique], dtype=np.float64)
    values[going] = table[inverse.reshape(-1)]
    return values


def weighted_mean(values: Float64s, weights: Float64s) -> tuple[float, float]:
    """(mean, 95% half-width) of a self-normalised weighted mean; with equal weights the
    usual mean and ``1.96 s / sqrt(n)`` (the kernel the search player's race uses)."""
    mean, half = weighted_mean_kernel(
        np.ascontiguousarray(values, dtype=np.float64),
        np.ascontiguousarray(weights, dtype=np.float64),
    )
    return float(mean), float(half)


class Race:
    """Per-sample results so far and the racing state of every action."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self.values: list[Float64s] = []
        self.outcomes: list[Int64s] = []
        self.winners: list[Int64s] = []
        self.log_weights: list[Float64s] = []
        #: samples each action has seen (an action dropped from the race stops counting)
        self.counts = np.zeros(len(actions), dtype=np.int64)
        self.active = np.ones(len(actions), dtype=np.bool_)

    def columns(self) -> tuple[Float64s, Int64s, Int64s, Float64s]:
        """(values, outcomes, winners, normalised weights) over every sample so far."""
        log_w = np.concatenate(self.log_weights)
        if not np.isfinite(log_w.max()):
            raise ValueError(
                "no sampled opponent hand fits its play under the model opponent "
                "(it would have knocked with each); try uniform weights or "
                "another opponent policy"
            )
        weights = np.exp(log_w - log_w.max())
        return (
            np.concatenate(self.values),
            np.concatenate(self.outcomes),
            np.concatenate(self.winners),
            weights,
        )

    def estimate(self, a: int, values: Float64s, weights: Float64s) -> tuple[float, float]:
        n = self.counts[a]
        return weighted_mean(values[:n, a], weights[:n])

    def paired(self, a: int, b: int, values: Float64s, weights: Float64s) -> tuple[float, float]:
        """(mean of a - b, half-width) over the samples both saw."""
        n = min(self.counts[a], self.counts[b])
        return weighted_mean(values[:n, a] - values[:n, b], weights[:n])

    def leader_and_comparator(self, means: Float64s) -> tuple[int, int]:
        """The best racing action and the verdict's comparator: the best racing action of
        the other kind (ending the hand or not), else the runner-up (-1 if alone)."""
        racing = np.flatnonzero(self.active)
        best = int(racing[np.argmax(means[racing])])
        ends = self.actions[best].ends_hand
        rivals = [a for a in racing if a != best]
        other = [a for a in rivals if self.actions[a].ends_hand != ends]
        pool = other or rivals
        return best, (int(max(pool, key=lambda a: means[a])) if pool else -1)


def advise(
    position: Position,
    rules: Rules = STANDARD,
    policy: Player = _BASIC,
    opponent: Player = _BASIC,
    samples: int = ADVICE_SAMPLES,
    seed: int = 0,
    tolerance: float | None = None,
    weights: str = "model",
    temperature: float = ADVICE_TEMPERATURE,
    actions: Iterable[str] | None = None,
    equity: Equity | None = None,
    equity_games: int = 1000,
    batch: int = 256,
    progress: Callable[[int], None] | None = None,
) -> Advice:
    """Rank the actions of ``position`` by rollouts (see the module notes).

    Parameters
    ----------
    position : Position
        What this player knows, holding 11 cards after drawing.
    rules : Rules
        The rules; knock legality and scoring follow them.
    policy, opponent : Policy or SearchPolicy
        How this player (after this discard) and the opponent play the rest of the hand;
        either may be the search player (:mod:`analyzer.gin.play.search`), which samples
        and searches at each of its decisions of each rollout (slow: give it a small
        budget); the opponent's samples are then weighted with its rollout policy as
        the model opponent.
    samples : int
        Budget: the most samples (opponent hand and stock order) to roll out.
    seed : int
        The run is reproducible from it, whatever the thread count.
    tolerance : float, optional
        Target 95% half-width of the differences to the best action: points (default
        1.0), or win probability (default 0.01) when the position has a score.
    weights : {"model", "uniform"}
        Weight samples by the pseudo-likelihood of the opponent's observed play, or not.
    temperature : float
        Softness of that likelihood, points of deadwood per factor ``e``.
    actions : iterable of str, optional
        Only these actions (``"knock Kd"``, ``"play 9c"``, ``"gin Kd"``, ``"big gin"``);
        an action the rules forbid raises ``ValueError``.  Default: every legal action.
    equity : callable, optional
        ``equity(score_me, score_opp, i_deal_next) -> float``, the game-win probability
        from a score state before a hand; used when the position has a score.  Default:
        :func:`simulated_equity` with ``equity_games`` games per score state.
    batch : int
        Samples per kernel call; the stopping rule is checked after each batch.
    progress : callable, optional
        Called with the number of samples done after each batch.

    Returns
    -------
    Advice
        Ranked action estimates (points per hand, or game-win probability), the verdict,
        the effective sample size and the stopping reason.

    Examples
    --------
    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Th Kd", stock=20)
    >>> advice = advise(p, samples=512, seed=1)
    >>> advice.best.action, advice.verdict.split(":")[0]
    ('gin Kd', 'Go gin, discarding K♦')
    """
    if samples < 1 or batch < 1:
        raise ValueError("samples and batch must be >= 1")
    if weights not in ("model", "uniform"):
        raise ValueError(f"weights must be 'model' or 'uniform', got {weights!r}")
    if weights == "model" and temperature <= 0:
        raise ValueError(f"temperature must be > 0 points, got {temperature}")
    game = position.score is not None
    if game:
        check_game_position(position, rules)
        if equity is None:
            equity = simulated_equity(rules, policy, opponent, equity_games, seed)
    if tolerance is None:
        tolerance = 0.01 if game else 1.0
    chosen = (
        legal_actions(position, rules)
        if actions is None
        else [parse_action(text, position, rules) for text in actions]
    )
    if not chosen:
        raise ValueError("no action to evaluate")
    # each action is raced once: the memory per sample (see MAX_SAMPLES) counts on it
    twice = next((action for action in chosen if chosen.count(action) > 1), None)
    if twice is not None:
        raise ValueError(f"actions names {twice.name!r} twice")
    started = time.perf_counter()
    base = base_state(position, rules)
    pool = np.array(position.unseen, dtype=np.int64)
    layout = sample_layout(
        position, rules, rollout_policy(opponent), base, model=weights == "model"
    )
    table = np.array([[-1 if a.card is None else a.card, a.kind] for a in chosen], dtype=np.int64)
    observed = observations(position)
    kernel_temperature = temperature if weights == "model" else 0.0
    rules_array = rules.to_array()
    policies, searchers = split_players([policy, opponent])
    race = Race(chosen)
    stopped = "budget"
    done = 0
    while done < samples:
        count = min(batch, samples - done)
        points, outcomes, winners, log_weights = _rollout_batch(
            seed,
            done,
            count,
            len(chosen),
            (
                base,
                pool,
                layout,
                observed,
                kernel_temperature,
                table,
                race.active,
                rules_array,
                policies,
                searchers,
            ),
        )
        race.values.append(
            game_values(points, winners, position, rules, equity)
            if game and equity is not None
            else points.astype(np.float64)
        )
        race.outcomes.append(outcomes)
        race.winners.append(winners)
        race.log_weights.append(log_weights)
        race.counts[race.active] += count
        done += count
        if progress is not None:
            progress(count)
        if race_step(race, tolerance):
            stopped = "converged"
            break
    return _summarise(
        race,
        position,
        game,
        stopped,
        seed,
        weights,
        started,
        {
            "policy": policy,
            "opponent": opponent,
            "tolerance": tolerance,
            "temperature": temperature,
            "samples_budget": samples,
            "rules": rules.describe(),
        },
    )


def race_step(race: Race, tolerance: float) -> bool:
    """Drop significantly worse actions; True when every racing rival is resolved."""
    values, _, _, weights = race.columns()
    if weights.sum() ** 2 / (weights @ weights) < _MIN_ESS:
        return False  # too few effective samples to trust a normal interval
    means = np.array([race.estimate(a, values, weights)[0] for a in range(len(race.actions))])
    best, comparator = race.leader_and_comparator(means)
    if comparator < 0:
        return race.estimate(best, values, weights)[1] <= tolerance
    resolved = True
    for a in np.flatnonzero(race.active):
        if a == best:
            continue
        lead, half = race.paired(best, int(a), values, weights)
        if a != comparator and lead - half > 0:
            race.active[a] = False
        elif half > tolerance:
            resolved = False
    return resolved


def _summarise(
    race: Race,
    position: Position,
    game: bool,
    stopped: str,
    seed: int,
    weights_name: str,
    started: float,
    settings: dict[str, Any],
) -> Advice:
    values, outcomes, winners, weights = race.columns()
    n_actions = len(race.actions)
    means = np.array([race.estimate(a, values, weights)[0] for a in range(n_actions)])
    # the best is among the actions raced to the end; the others rank by how far behind
    # it they are on the samples both saw (a dropped action's own mean is noisier)
    race.active = race.counts == race.counts.max()
    best, comparator = race.leader_and_comparator(means)
    behind = {
        a: (0.0, 0.0) if a == best else race.paired(best, a, values, weights)
        for a in range(n_actions)
    }
    estimates = []
    for a in sorted(range(n_actions), key=lambda a: (a != best, behind[a][0])):
        action = race.actions[a]
        n = race.counts[a]
        w = weights[:n] / weights[:n].sum()
        lead, lead_half = behind[a]
        estimates.append(
            ActionEstimate(
                action=action.name,
                kind=action.verb,
                card=None if action.card is None else format_card(action.card),
                deadwood=action.deadwood,
                mean=float(means[a]),
                half_width=race.estimate(a, values, weights)[1],
                behind=lead,
                behind_half_width=lead_half,
                p_win=float(w @ (winners[:n, a] == ME)),
                p_undercut=float(
                    w @ ((outcomes[:n, a] == Outcome.UNDERCUT) & (winners[:n, a] == OPP))
                ),
                p_opp_gin=float(
                    w
                    @ (
                        np.isin(outcomes[:n, a], (Outcome.GIN, Outcome.BIG_GIN))
                        & (winners[:n, a] == OPP)
                    )
                ),
                samples=int(n),
                dropped=not race.active[a],
            )
        )
    margin, margin_half = (
        (0.0, 0.0) if comparator < 0 else race.paired(best, comparator, values, weights)
    )
    total = weights.sum()
    return Advice(
        position=position,
        objective="game" if game else "points",
        actions=tuple(estimates),
        verdict=verdict_text(
            race.actions[best],
            None if comparator < 0 else race.actions[comparator],
            margin,
            margin_half,
            game,
            0 if comparator < 0 else int(min(race.counts[best], race.counts[comparator])),
        ),
        margin=margin,
        margin_half_width=margin_half,
        ess=float(total * total / (weights @ weights)),
        samples=int(race.counts.max()),
        stopped=stopped,
        seed=seed,
        weights=weights_name,
        elapsed_s=time.perf_counter() - started,
        settings={
            k: (format_player(v) if isinstance(v, Policy | SearchPolicy) else v)
            for k, v in settings.items()
        },
    )


__all__ = [
    "Equity",
    "Race",
    "advise",
    "game_values",
    "race_step",
    "simulated_equity",
    "weighted_mean",
]
