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
   state and the hand is played out with the ``rollout`` policy for both players
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
:data:`analyzer.core.rng.SEARCH_SALT`; decision ``k`` of the hand uses stream ``k`` of that key, and its
sample ``s`` uses streams ``2s`` (dealing) and ``2s + 1`` (the rollouts' choices) of the
decision's key (:mod:`analyzer.core.rng`).  A run is therefore the same whatever the
thread count, and the search draws nothing from the hand's own stream, so the other
player's random choices do not depend on it.

A search player is data like any policy (:class:`SearchPolicy`, packed by
:meth:`SearchPolicy.to_array`, indexed by :class:`SearchField`): the drivers
(:func:`analyzer.gin.play.simulate.simulate`, :func:`analyzer.gin.play.simulate.play_games`, the
comparisons and the tournament) give each seat a row of search parameters beside its
policy row, which for a searching seat holds its rollout policy; :func:`play_on` plays a
hand with them.  String form: ``search`` or
``search,budget=256,rollout=expert,sampler=weighted,scope=knock`` (also ``batch``,
``min_samples``, ``temperature``).

Ranges (:data:`analyzer.core.limits.SEARCH_RANGES`): ``budget`` and ``batch`` 1-100,000,
``min_samples`` 2-100,000, ``temperature`` 0-1000 points.  A searching thread keeps 184
bytes per sample of its budget (one value per racing action, at most 22, and a weight):
18.4 MB at the most.

Stopping: a kernel that plays search players runs in a worker thread
(:func:`run_stoppable`) while the calling thread waits, so Ctrl-C is seen at once; the
searches then read the :attr:`SearchField.STOP` flag of their row before every sample
and return at the next one, and the kernel's results are thrown away.

>>> parse_player("search,budget=32,rollout=basic").budget
32
>>> format_player(parse_player("search,budget=32,rollout=basic"))
'search,budget=32,rollout=basic'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core.limits import SEARCH_RANGES, check_search_parameter
from ...core.rng import SEARCH_SALT, next_below, stream_key
from ..engine.transitions import (
    Phase,
    Slot,
    advance,
    apply_discard,
    apply_draw,
    apply_pass,
    has_choice,
    knock_threshold,
    step,
)
from ..evaluator.kernels import bit_index, discard_deadwoods_kernel, popcount
from ..decisions.inference import infer_hidden, play_in_rounds, sample_played_in, to_sampling_table
from ..model.policies import PRESETS, Policy, PolicyField, parse_policy, policy_name
from ..decisions.sampling import Observed, SampleLayout, deal_sample, log_likelihood, weighted_mean

_FULL_DECK = np.int64((1 << 52) - 1)
#: Action codes: a card index (throw and play on), 52 + card (throw and knock), then:
_KNOCK = 52
_NO_TAKE = 104
"""Pass the offered upcard, or draw from the stock."""
_TAKE = 105
"""Take the pile's top."""
#: At most 11 plays and 11 knocks.
_MAX_ACTIONS = 22
_LAYOUT_SIZE = len(SampleLayout)
_OBSERVED_SIZE = len(Observed)


class SearchField(IntEnum):
    """Index of each search parameter in :meth:`SearchPolicy.to_array`."""

    BUDGET = 0
    """Samples per decision at most (0: the seat does not search)."""
    BATCH = 1
    """Samples between two looks of the race."""
    MIN_SAMPLES = 2
    """Samples before the race may drop an action."""
    TEMPERATURE = 3
    """Points of deadwood per factor ``e`` of the sample weights (0: uniform samples)."""
    SAMPLER = 4
    """How opponent hands are sampled: :class:`Sampler`."""
    SCOPE = 5
    """Which decisions are searched: :class:`Scope`."""
    STOP = 6
    """0; set to 1 by another thread while a kernel runs (:func:`run_stoppable`): the
    seat stops searching at its next sample and plays its rollout policy's actions, and
    the kernel's results are to be thrown away."""


class Sampler(IntEnum):
    """Where the sampled opponent hands come from."""

    WEIGHTED = 0
    """The advisor's sampler: uniform deal, played in, weighted by the likelihood."""
    INFERENCE = 1
    """The opponent-hand inference model (:mod:`analyzer.gin.decisions.inference`), played in for
    at most the rollout policy's ``play_in`` stock draws, as the expert does; equal
    weights."""


SAMPLERS = ("weighted", "inference")


class Scope(IntEnum):
    """Which decisions the search player searches."""

    ALL = 0
    """Every choice, over every legal action."""
    KNOCK = 1
    """Only whether to knock: where a knock (not gin) is legal, the rollout policy's own
    action races the other side of the knock decision (knocking with the card leaving the
    least deadwood, or throwing the same card and playing on); elsewhere it plays the
    rollout policy's action unsearched.  Fewer actions race, so fewer drops by chance."""


SCOPES = ("all", "knock")


SEARCH_FIELDS = len(SearchField)
DEFAULT_BUDGET = 256


@dataclass(frozen=True)
class SearchPolicy:
    """The search player (see the module notes): ``budget`` samples per decision at
    most, each rolling out every racing action with ``rollout`` for both players."""

    budget: int = DEFAULT_BUDGET
    rollout: Policy = PRESETS["expert"]
    batch: int = 32
    min_samples: int = 32
    temperature: int = 8
    sampler: str = "weighted"
    scope: str = "knock"

    def __post_init__(self) -> None:
        for name in SEARCH_RANGES:
            object.__setattr__(self, name, check_search_parameter(name, getattr(self, name)))
        if not isinstance(self.rollout, Policy):
            raise TypeError(f"search rollout must be a Policy, got {self.rollout!r}")
        if self.sampler not in SAMPLERS:
            raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}, got "
                             f"{self.sampler!r}")
        if self.scope not in SCOPES:
            raise ValueError(f"scope must be one of {', '.join(SCOPES)}, got {self.scope!r}")

    def to_array(self) -> npt.NDArray[np.int64]:
        """The search parameters as the ``np.int64`` row the kernels read."""
        array = np.zeros(SEARCH_FIELDS, dtype=np.int64)
        array[SearchField.BUDGET] = self.budget
        array[SearchField.BATCH] = self.batch
        array[SearchField.MIN_SAMPLES] = self.min_samples
        array[SearchField.TEMPERATURE] = self.temperature
        array[SearchField.SAMPLER] = SAMPLERS.index(self.sampler)
        array[SearchField.SCOPE] = SCOPES.index(self.scope)
        return array


Player = Policy | SearchPolicy
"""Anything that can take a seat: a policy or the search player."""

_SEARCH_KEYS = ("budget", "rollout", "batch", "min_samples", "temperature", "sampler",
                "scope")


def parse_player(text: str) -> Player:
    """A policy (:func:`analyzer.gin.model.policies.parse_policy`) or a search player:
    ``search`` then optional ``key=value`` parts (``budget``, ``rollout`` = a policy
    preset name, ``batch``, ``min_samples``, ``temperature``, ``sampler``, ``scope``;
    the numbers within :data:`analyzer.core.limits.SEARCH_RANGES`).

    >>> parse_player("search,budget=1000000000")
    Traceback (most recent call last):
    ...
    ValueError: search budget must be 1-100000, got 1000000000
    """
    if not isinstance(text, str):
        raise TypeError(f"a player is a policy name or string form, got {text!r}")
    parts = [p.strip() for p in text.strip().split(",") if p.strip()]
    if not parts or parts[0] != "search":
        return parse_policy(text)
    changes: dict[str, object] = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in _SEARCH_KEYS:
            raise ValueError(f"bad search part {part!r}; keys are {', '.join(_SEARCH_KEYS)}")
        if key == "rollout":
            if value == "search" or value not in PRESETS:
                raise ValueError(f"rollout must be a policy preset ({', '.join(PRESETS)}), "
                                 f"got {value!r}")
            changes[key] = PRESETS[value]
        elif key in ("sampler", "scope"):
            changes[key] = value
        else:
            try:  # digits only: not 1e3, 1_000, 0x10 or other scripts' digits
                if not (value.isascii() and value.lstrip("+-").isdigit()):
                    raise ValueError
                number = int(value)
            except ValueError:
                raise ValueError(f"bad search {key} {value!r}: expected an integer") from None
            changes[key] = check_search_parameter(key, number)
    return replace(SearchPolicy(), **changes)


def format_player(player: Player) -> str:
    """The string form of a player (parsed back by :func:`parse_player`): a policy's
    preset name or form, or ``search`` with the fields that differ from the default."""
    if isinstance(player, Policy):
        return policy_name(player)
    text = "search"
    default = SearchPolicy()
    for key in _SEARCH_KEYS:
        value = getattr(player, key)
        if value != getattr(default, key):
            text += f",{key}={policy_name(value) if key == 'rollout' else value}"
    return text


def rollout_policy(player: Player) -> Policy:
    """The policy a player plays by: a policy itself, or a search player's rollout policy
    (what it searches with, and the model of it as an opponent)."""
    return player.rollout if isinstance(player, SearchPolicy) else player


def split_players(players: list[Player]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(policy rows, search rows) of the seats: a search player's policy row is its
    rollout policy; a policy's search row is zeros (it does not search)."""
    policies = np.stack([rollout_policy(p).to_array() for p in players])
    searchers = np.zeros((len(players), SEARCH_FIELDS), dtype=np.int64)
    for seat, player in enumerate(players):
        if isinstance(player, SearchPolicy):
            searchers[seat] = player.to_array()
    return policies, searchers


def no_search(seats: int = 2) -> npt.NDArray[np.int64]:
    """Search rows for ``seats`` seats that do not search."""
    return np.zeros((seats, SEARCH_FIELDS), dtype=np.int64)


# ------------------------------------------------------------------------- kernels

_STOP = np.int64(SearchField.STOP)


@intrinsic
def _shared_read(typingctx: Any, array: Any, index: Any) -> Any:
    """``array[index]`` of a one-dimensional int64 array, read as an atomic (monotonic)
    load: a value another thread writes while the kernel runs is seen, and the compiler
    may not keep an earlier read of it (hoisted out of a loop)."""
    if not (isinstance(array, types.Array) and array.ndim == 1
            and array.dtype == types.int64 and isinstance(index, types.Integer)):
        return None
    signature = types.int64(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_type, index_type = sig.args
        view = context.make_array(array_type)(context, builder, args[0])
        position = context.cast(builder, args[1], index_type, types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [position],
                                           wraparound=False)
        return builder.load_atomic(pointer, "monotonic", 8)

    return signature, codegen


@njit(cache=True)
def stop_asked(params: npt.NDArray[np.int64]) -> bool:
    """Whether another thread asked the search of this row to stop (:attr:`SearchField.STOP`)."""
    return _shared_read(params, _STOP) != 0  # type: ignore[call-arg]



@njit(cache=True)
def apply_action(state: npt.NDArray[np.int64], action: np.int64,
                 rules: npt.NDArray[np.int64]) -> None:
    """Play action code ``action`` (see the module constants) for the player to move."""
    if action == _TAKE:
        apply_draw(state, True)
    elif action == _NO_TAKE and state[Slot.PHASE] == Phase.OFFER:
        apply_pass(state)
    elif action == _NO_TAKE:
        apply_draw(state, False)
    elif action >= _KNOCK:
        apply_discard(state, action - _KNOCK, True, rules)
    else:
        apply_discard(state, action, False, rules)


@njit(cache=True)
def _throwable(state: npt.NDArray[np.int64], scratch: npt.NDArray[np.int64]) -> np.int64:
    """The cards the player to move may throw (not the one just taken), with the
    deadwood left by throwing each written to ``scratch[card]``."""
    hand = state[Slot.HAND + state[Slot.TURN]]
    allowed = hand
    if state[Slot.TAKEN] >= 0:
        allowed &= ~(np.int64(1) << state[Slot.TAKEN])
    discard_deadwoods_kernel(hand, allowed, scratch)
    return allowed


@njit(cache=True)
def _legal_actions(state: npt.NDArray[np.int64], actions: npt.NDArray[np.int64],
                   scratch: npt.NDArray[np.int64]) -> np.int64:
    """Fill ``actions`` with the codes of the legal actions at a choice; their count."""
    if state[Slot.PHASE] != Phase.DISCARD:
        actions[0] = _NO_TAKE
        actions[1] = _TAKE
        return np.int64(2)
    allowed = _throwable(state, scratch)
    n = np.int64(0)
    rest = allowed
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit_index(bit)
        actions[n] = card
        n += 1
        if scratch[card] <= state[Slot.KNOCK_LIMIT]:
            actions[n] = _KNOCK + card
            n += 1
    return n


@njit(cache=True)
def _knock_alternatives(state: npt.NDArray[np.int64], default: np.int64,
                        actions: npt.NDArray[np.int64], scratch: npt.NDArray[np.int64]
                        ) -> np.int64:
    """Fill ``actions`` with ``default`` and, at a discard where a knock short of gin is
    legal, the other side of the knock decision (:attr:`Scope.KNOCK`); their count."""
    actions[0] = default
    if state[Slot.PHASE] != Phase.DISCARD:
        return np.int64(1)
    allowed = _throwable(state, scratch)
    if default >= _KNOCK:
        if scratch[default - _KNOCK] == 0:
            return np.int64(1)  # gin is always taken
        actions[1] = default - _KNOCK
        return np.int64(2)
    best = np.int64(-1)
    rest = allowed
    while rest:
        bit = rest & -rest
        rest ^= bit
        card = bit_index(bit)
        if best < 0 or scratch[card] < scratch[best]:
            best = card
    if scratch[best] == 0 or scratch[best] > state[Slot.KNOCK_LIMIT]:
        return np.int64(1)
    actions[1] = _KNOCK + best
    return np.int64(2)


@njit(cache=True)
def _policy_action(state: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
                   model: npt.NDArray[np.int64], key: np.int64,
                   scratch: npt.NDArray[np.int64]) -> np.int64:
    """The action code the model policy plays at this choice (on a copy of the state)."""
    after = state.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_key(key, np.int64(-1))
    step(after, rules, model, rng, scratch)
    if state[Slot.PHASE] != Phase.DISCARD:
        took = after[Slot.HAND + state[Slot.TURN]] & state[Slot.PILE_MASK]
        return np.int64(_TAKE if took else _NO_TAKE)
    card = after[Slot.PILE + after[Slot.PILE_LEN] - 1]
    return card + _KNOCK if after[Slot.PHASE] == Phase.DONE else card


@njit(cache=True)
def _normalised_weights(log_weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``exp(log w - max)``; uniform when every sample was rejected (weight 0)."""
    top = log_weights.max()
    if not np.isfinite(top):
        return np.ones_like(log_weights)
    return np.exp(log_weights - top)


@njit(cache=True)
def _leader(values: npt.NDArray[np.float64], weights: npt.NDArray[np.float64],
            active: npt.NDArray[np.bool_]) -> np.int64:
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
def _race_step(values: npt.NDArray[np.float64], weights: npt.NDArray[np.float64],
               active: npt.NDArray[np.bool_]) -> bool:
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
def _deal_stock(state: npt.NDArray[np.int64], cards: np.int64, rng: npt.NDArray[np.uint64],
                order: npt.NDArray[np.int64]) -> None:
    """Put ``cards`` in the stock of ``state`` in a uniformly random order (``order`` is
    work space of at least that many entries)."""
    n = np.int64(0)
    rest = cards
    while rest:
        bit = rest & -rest
        rest ^= bit
        order[n] = bit_index(bit)
        n += 1
    for i in range(n - 1, 0, -1):
        j = next_below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    first = state[Slot.STOCK_POS]
    for k in range(n):
        state[Slot.DECK + first + k] = order[k]


@njit(cache=True, nogil=True)  # nogil: run_stoppable may run it alone
def search_action(state: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
                  model: npt.NDArray[np.int64], params: npt.NDArray[np.int64],
                  key: np.int64, scratch: npt.NDArray[np.int64],
                  samples_used: npt.NDArray[np.int64]) -> np.int64:
    """The action code the search player to move chooses (see the module notes).

    ``model`` holds the rollout policy row for both seats, ``params`` the search row
    (:class:`SearchField`), ``key`` the decision's stream key; the samples the decision
    took are added to ``samples_used[0]``.
    """
    actions = np.empty(_MAX_ACTIONS, dtype=np.int64)
    # the model policy's own action first: it wins exact ties
    default = _policy_action(state, rules, model, key, scratch)
    if params[SearchField.SCOPE] == Scope.KNOCK:
        n_actions = _knock_alternatives(state, default, actions, scratch)
    else:
        n_actions = _legal_actions(state, actions, scratch)
        for a in range(n_actions):
            if actions[a] == default:
                actions[a], actions[0] = actions[0], default
    if n_actions == 1:
        return actions[0]
    player = state[Slot.TURN]
    opponent = 1 - player
    known = state[Slot.HELD + opponent]
    unseen = _FULL_DECK & ~state[Slot.HAND + player] & ~state[Slot.PILE_MASK] & ~known
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
                log_weights[s] = log_likelihood(sample[Slot.HAND + opponent], observed,
                                                temperature, layout[SampleLayout.OPP_THRESHOLD],
                                                scratch[:52])
            rollout_key = stream_key(key, 2 * s + 1)
            for a in range(n_actions):
                if not active[a]:
                    continue
                rollout[:] = sample
                rng[0] = rollout_key
                apply_action(rollout, actions[a], rules)
                advance(rollout, rules, model, rng, scratch, False)
                winner = rollout[Slot.WINNER]
                values[s, a] = 0 if winner < 0 else (
                    rollout[Slot.POINTS] if winner == player else -rollout[Slot.POINTS])
        done = stop
        if done >= params[SearchField.MIN_SAMPLES] and _race_step(
                values[:done], _normalised_weights(log_weights[:done]), active):
            break
    samples_used[0] += done
    if active[0]:
        return actions[0]  # nothing beat the model policy's own action significantly
    return actions[_leader(values[:done], _normalised_weights(log_weights[:done]), active)]


@njit(cache=True)
def play_on(state: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
            policies: npt.NDArray[np.int64], searchers: npt.NDArray[np.int64],
            search_key: np.int64, rng: npt.NDArray[np.uint64],
            scratch: npt.NDArray[np.int64], samples_used: npt.NDArray[np.int64]) -> np.int64:
    """Play the hand to its end: seat ``p`` searches at each choice when
    ``searchers[p, BUDGET] > 0`` (rolling out with its row of ``policies``), else plays
    ``policies[p]`` as :func:`analyzer.gin.engine.transitions.advance` does.  Returns the number of
    searched decisions; their samples are added to ``samples_used[0]``."""
    if searchers[0, SearchField.BUDGET] == 0 and searchers[1, SearchField.BUDGET] == 0:
        advance(state, rules, policies, rng, scratch, False)
        return np.int64(0)
    model = np.empty_like(policies)
    decisions = np.int64(0)
    while state[Slot.PHASE] != Phase.DONE:
        player = state[Slot.TURN]
        if (searchers[player, SearchField.BUDGET] > 0 and not stop_asked(searchers[player])
                and has_choice(state, rules)):
            model[0] = policies[player]
            model[1] = policies[player]
            action = search_action(state, rules, model, searchers[player],
                                   stream_key(search_key, decisions), scratch, samples_used)
            apply_action(state, action, rules)
            decisions += 1
        else:
            step(state, rules, policies, rng, scratch)
    return decisions


def searches(searchers: npt.NDArray[np.int64]) -> bool:
    """Whether any seat of these search rows (one row, or one per seat) searches."""
    return bool(np.any(searchers[..., SearchField.BUDGET] > 0))


#: Seconds :func:`run_stoppable` waits, after asking a stopped kernel to stop, for it to
#: return (it returns within one sample; the first call of a kernel compiles it first).
STOP_WAIT_S = 2.0


def run_stoppable(kernel: Callable[..., Any], *args: Any,
                  searchers: npt.NDArray[np.int64]) -> Any:
    """``kernel(*args)``, stoppable by Ctrl-C (or SIGTERM) while it searches.

    A kernel cannot be interrupted, and one search decision may run for seconds, so when
    a seat of ``searchers`` (the search rows the kernel reads, passed among ``args``)
    searches, the kernel runs in a worker thread (it must release the GIL: ``nogil=True``)
    and this thread waits for it, seeing a ``KeyboardInterrupt`` at once.  It then sets
    every row's :attr:`SearchField.STOP`, so that the searches return at their next
    sample and the kernel ends within a few milliseconds, waits for that (at most
    :data:`STOP_WAIT_S`) and raises the ``KeyboardInterrupt``: what the kernel wrote is
    to be thrown away.  Without a searching seat the kernel runs in this thread.
    """
    if not searches(searchers):
        return kernel(*args)
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = kernel(*args)
        except BaseException as error:  # noqa: BLE001 (handed to the waiting thread)
            outcome["error"] = error

    worker = threading.Thread(target=work, name="search-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        searchers[..., SearchField.STOP] = 1
        worker.join(STOP_WAIT_S)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


__all__ = ["DEFAULT_BUDGET", "SEARCH_FIELDS", "SEARCH_SALT", "Player", "SearchField",
           "SearchPolicy", "apply_action", "format_player", "no_search", "parse_player",
           "play_on", "rollout_policy", "run_stoppable", "search_action", "searches",
           "split_players", "stop_asked"]
