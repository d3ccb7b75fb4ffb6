"""The search player: information-set Monte Carlo over sampled opponent hands.

With ``scope=all``, at each of its decisions (the upcard offer, a draw with a face-up
card to take, a discard) the player to move lists its legal actions (pass or take; draw
from the stock or take; throw each card, and knock with each card that leaves deadwood
within the hand's limit) and rates them by rollouts.  With ``scope=knock`` (the default)
it searches only the knock decision: where a knock short of gin is legal, the rollout
policy's own action races the other side of the decision (knock with the card leaving
the least deadwood, or throw the same card and play on); everywhere else it plays the
rollout policy's action.  The race between two actions is far less prone to dropping
the right action by chance than a race among twenty, and knock decisions are where a
table of thresholds leaves the most to gain (BENCHMARKS.md, "Search player").

1. **Samples.**  The cards it has not seen are dealt to the opponent's hand and the stock.
   ``sampler=inference`` draws the opponent's hidden cards from the
   opponent-hand inference model (:func:`analyzer.gin.decisions.inference.sample_played_in`, played
   in for up to the rollout policy's ``play_in`` stock draws, as the expert does), with
   equal weights.  ``sampler=weighted`` (the default) uses the advisor's sampler
   (:func:`analyzer.gin.decisions.sampling.deal_sample`): a uniform deal of the unseen cards, played
   in for every stock draw the opponent made, weighted by the pseudo-likelihood of its
   throws, passes and kept cards (:func:`analyzer.gin.decisions.sampling.log_likelihood`,
   ``temperature`` points per factor ``e``; a hand the model opponent would already have
   knocked with gets weight 0; ``temperature=0``: uniform, unweighted samples).  Either
   way the opponent keeps the cards it took from the pile and still holds.
2. **Rollouts.**  On each sample every action still racing is applied to a copy of the
   state and the hand is played out with the ``rollout`` policy for the searcher and
   the ``model`` policy (default: ``rollout``) for the opponent
   (:func:`analyzer.gin.engine.transitions.advance`, which never searches: no recursion).  All
   actions see the same opponent hand, stock order and random stream (common random
   numbers), so they are compared on paired samples.  The value is the hand's points to
   the searching player (the opponent's points negative).
3. **Race.**  After every ``batch`` samples, once ``min_samples`` are in, each racing
   action whose paired difference to the leader (the best weighted mean) is below zero
   at 95% (:func:`analyzer.gin.decisions.sampling.weighted_mean`) is dropped.  The search stops
   when one action is left or ``budget`` samples are spent.  It plays the rollout
   policy's own action unless the race dropped it, else the leader: with few samples
   and many close actions, picking the highest mean loses more to noise than it finds
   (BENCHMARKS.md, "Search player").

Randomness: a hand's search streams are keyed by the hand's policy stream XOR
:data:`analyzer.core.rng.SEARCH_SALT`; decision ``k`` of the hand uses stream ``k`` of that
key, and its sample ``s`` uses streams ``2s`` (dealing) and ``2s + 1`` (the rollouts'
choices) of the decision's key (:mod:`analyzer.core.rng`).  A run is therefore the same
whatever the thread count, and the search draws nothing from the hand's own stream, so
the other player's random choices do not depend on it.

A search player is data like any policy (:class:`~analyzer.gin.play.players.SearchPolicy`,
with its string form and ranges): the drivers (:func:`analyzer.gin.play.simulate.simulate`,
:func:`analyzer.gin.play.simulate.play_games`, the comparisons and the tournament) give each
seat a row of search parameters beside its policy row, which for a searching seat holds
its rollout policy; :func:`play_on` plays a hand with them.  A searching thread keeps 184
bytes per sample of its budget (one value per racing action, at most 22, and a weight):
18.4 MB at the most.

Stopping: see :mod:`analyzer.gin.play.stopping`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Bools, Float64s, Int64s, UInt64s
from ...core.lanes import bit_index, cards_of, popcount
from ...core.linking import compiled_once
from ...core.rng import next_below, stream_key
from ..decisions.inference import infer_hidden, play_in_rounds, sample_played_in, to_sampling_table
from ..decisions.sampling import Observed, SampleLayout, deal_sample, log_likelihood, weighted_mean
from ..engine.transitions import Phase, Slot, advance, has_choice, knock_threshold, step
from ..model.policy_fields import PolicyField
from ..model.state import FULL_DECK, points_to
from .actions import MAX_ACTIONS, apply_action, knock_alternatives, legal_actions, policy_action
from .players import MODEL_ROW, Sampler, Scope, SearchField
from .stopping import stop_asked

_LAYOUT_SIZE = len(SampleLayout)
_OBSERVED_SIZE = len(Observed)


@njit(cache=True)
def _normalised_weights(log_weights: Float64s) -> Float64s:
    """``exp(log w - max)``; uniform when every sample was rejected (weight 0)."""
    top = log_weights.max()
    if not np.isfinite(top):
        return np.ones_like(log_weights)
    return np.exp(log_weights - top)


@njit(cache=True)
def _leader(values: Float64s, weights: Float64s, active: Bools) -> np.int64:
    """The racing action with the highest weighted mean (the first on ties)."""
    best = np.int64(-1)
    best_mean = -np.inf
    for a in range(values.shape[1]):
        if active[a]:
            mean, _ = weighted_mean(values[:, a], weights)
            if mean > best_mean:
                best, best_mean = a, mean
    return best


@njit(cache=True)
def _race_step(values: Float64s, weights: Float64s, active: Bools) -> bool:
    """Drop the racing actions significantly worse than the leader (95%, paired);
    True when one action is left."""
    leader = _leader(values, weights, active)
    left = 0
    for a in range(values.shape[1]):
        if not active[a] or a == leader:
            continue
        lead, half = weighted_mean(values[:, leader] - values[:, a], weights)
        if lead - half > 0:
            active[a] = False
        else:
            left += 1
    return left == 0


@njit(cache=True)
def _deal_stock(state: Int64s, cards: np.int64, rng: UInt64s, order: Int64s) -> None:
    """Put ``cards`` in the stock of ``state`` in a uniformly random order (``order`` is
    work space of at least that many entries)."""
    n = np.int64(0)
    for card in cards_of(cards):
        order[n] = card
        n += 1
    for i in range(n - 1, 0, -1):
        j = next_below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    first = state[Slot.STOCK_POS]
    for k in range(n):
        state[Slot.DECK + first + k] = order[k]


@compiled_once
@njit(cache=True, nogil=True)  # nogil: run_stoppable runs it in a worker thread
def search_action(
    state: Int64s,
    rules: Int64s,
    model: Int64s,
    params: Int64s,
    key: np.int64,
    scratch: Int64s,
    samples_used: Int64s,
) -> np.int64:
    """The action code the search player to move chooses (see the module notes).

    ``model`` holds the policy rows the rollouts play by, per seat (the searcher's
    rollout policy, the opponent's model), ``params`` the search row
    (:class:`SearchField`), ``key`` the decision's stream key; the samples the decision
    took are added to ``samples_used[0]``.
    """
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    # the model policy's own action first: it wins exact ties
    default = policy_action(state, rules, model, key, scratch)
    if params[SearchField.SCOPE] == Scope.KNOCK:
        n_actions = knock_alternatives(state, default, actions, scratch)
    else:
        n_actions = legal_actions(state, actions, scratch)
        for a in range(n_actions):
            if actions[a] == default:
                actions[a], actions[0] = actions[0], default
    if n_actions == 1:
        return actions[0]
    player = state[Slot.TURN]
    opponent = 1 - player
    known = state[Slot.HELD + opponent]
    unseen = FULL_DECK & ~state[Slot.HAND + player] & ~state[Slot.PILE_MASK] & ~known
    inference = params[SearchField.SAMPLER] == Sampler.INFERENCE
    table = np.zeros(52, dtype=np.float64)
    rounds = np.int64(0)
    if inference:
        unseen = infer_hidden(state, player, table)
        to_sampling_table(unseen, table)
        rounds = play_in_rounds(state, player, model[opponent, PolicyField.PLAY_IN])
    pool = np.empty(popcount(unseen), dtype=np.int64)
    rest = unseen
    for i in range(pool.shape[0]):
        bit = rest & -rest
        rest ^= bit
        pool[i] = bit_index(bit)
    temperature = np.float64(params[SearchField.TEMPERATURE])
    layout = np.zeros(_LAYOUT_SIZE, dtype=np.int64)
    layout[SampleLayout.OPP_CARDS] = 10 - popcount(known)
    layout[SampleLayout.OPP_THRESHOLD] = -1
    opp_turns = state[Slot.OWN_TURNS + opponent]
    if temperature > 0 and opp_turns > 0:
        layout[SampleLayout.PLAY_IN] = max(opp_turns - popcount(known), 0)
        layout[SampleLayout.OPP_THRESHOLD] = knock_threshold(state, opponent, model[opponent])
    observed = np.zeros(_OBSERVED_SIZE, dtype=np.int64)
    observed[Observed.THREW] = state[Slot.THREW + opponent]
    observed[Observed.TOOK_HELD] = known
    observed[Observed.PASSED] = state[Slot.PILE_MASK] & ~state[Slot.THREW + opponent]
    budget = params[SearchField.BUDGET]
    values = np.zeros((budget, n_actions), dtype=np.float64)
    log_weights = np.zeros(budget, dtype=np.float64)
    active = np.ones(n_actions, dtype=np.bool_)
    start = state.copy()
    start[Slot.HAND + opponent] = known
    sample = np.empty_like(state)
    rollout = np.empty_like(state)
    cards = np.empty_like(pool)
    rng = np.empty(1, dtype=np.uint64)
    done = np.int64(0)
    while done < budget:
        stop = min(budget, done + params[SearchField.BATCH])
        for s in range(done, stop):
            if stop_asked(params):
                return actions[0]  # stopped: the caller throws the results away
            rng[0] = stream_key(key, 2 * s)
            if inference:
                sample[:] = state
                hand = sample_played_in(state, player, table, unseen, rounds, rng, scratch)
                sample[Slot.HAND + opponent] = hand
                _deal_stock(sample, unseen & ~hand, rng, cards)
            else:
                cards[:] = pool
                sample[:] = start
                deal_sample(sample, cards, rng, layout, scratch, opponent)
            if temperature > 0 and not inference:
                log_weights[s] = log_likelihood(
                    sample[Slot.HAND + opponent],
                    observed,
                    temperature,
                    layout[SampleLayout.OPP_THRESHOLD],
                    scratch[:52],
                )
            rollout_key = stream_key(key, 2 * s + 1)
            for a in range(n_actions):
                if not active[a]:
                    continue
                rollout[:] = sample
                rng[0] = rollout_key
                apply_action(rollout, actions[a], rules)
                advance(rollout, rules, model, rng, scratch, np.bool_(False))
                values[s, a] = points_to(rollout, player)
        done = stop
        if done >= params[SearchField.MIN_SAMPLES] and _race_step(
            values[:done], _normalised_weights(log_weights[:done]), active
        ):
            break
    samples_used[0] += done
    if active[0]:
        return actions[0]  # nothing beat the model policy's own action significantly
    return actions[_leader(values[:done], _normalised_weights(log_weights[:done]), active)]


@compiled_once
@njit(cache=True)
def play_on(
    state: Int64s,
    rules: Int64s,
    policies: Int64s,
    searchers: Int64s | None,
    search_key: np.int64,
    rng: UInt64s,
    scratch: Int64s,
    samples_used: Int64s,
) -> np.int64:
    """Play the hand to its end: seat ``p`` searches at each choice when
    ``searchers[p, BUDGET] > 0`` (rolling out itself with its row of ``policies`` and the
    opponent with its search row's model, :attr:`SearchField.MODEL`), else plays
    ``policies[p]`` as :func:`analyzer.gin.engine.transitions.advance` does.  Returns the number of
    searched decisions; their samples are added to ``samples_used[0]``.

    ``searchers`` is ``None`` when no seat searches
    (:func:`~analyzer.gin.play.stopping.search_rows`): numba then drops
    the search before typing this function, and a kernel that plays no search player is
    compiled without it."""
    if searchers is None or (
        searchers[0, SearchField.BUDGET] == 0 and searchers[1, SearchField.BUDGET] == 0
    ):
        advance(state, rules, policies, rng, scratch, np.bool_(False))
        return np.int64(0)
    model = np.empty_like(policies)
    decisions = np.int64(0)
    while state[Slot.PHASE] != Phase.DONE:
        player = state[Slot.TURN]
        if (
            searchers[player, SearchField.BUDGET] > 0
            and not stop_asked(searchers[player])
            and has_choice(state, rules)
        ):
            model[player] = policies[player]
            if searchers[player, SearchField.MODEL]:
                model[1 - player] = searchers[player, MODEL_ROW:]
            else:
                model[1 - player] = policies[player]
            action = search_action(
                state,
                rules,
                model,
                searchers[player],
                stream_key(search_key, decisions),
                scratch,
                samples_used,
            )
            apply_action(state, action, rules)
            decisions += 1
        else:
            step(state, rules, policies, rng, scratch)
    return decisions


__all__ = ["play_on", "search_action"]
