"""The actions of a choice as codes the kernels pass around: which are legal, what a
policy plays, and playing one.

A code is a card index (throw it and play on), :data:`KNOCK` + card (throw it and knock),
:data:`NO_TAKE` or :data:`TAKE`.  The search player (:mod:`analyzer.gin.play.search`) races
them; :class:`~analyzer.gin.play.hand.Hand` lists its legal moves from them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from ...core.lanes import cards_of
from ...core.linking import compiled_once
from ...core.rng import stream_key
from ..engine.transitions import Phase, Slot, apply_discard, apply_draw, apply_pass, step
from ..evaluator.partition import discard_deadwoods_kernel
from ..model.state import throwable

#: Action codes: a card index (throw and play on), 52 + card (throw and knock), then:
KNOCK = 52
NO_TAKE = 104
"""Pass the offered upcard, or draw from the stock."""
TAKE = 105
"""Take the pile's top."""
#: At most 11 plays and 11 knocks.
MAX_ACTIONS = 22


@compiled_once
@njit(cache=True)
def apply_action(state: Int64s, action: np.int64, rules: Int64s) -> None:
    """Play action code ``action`` (see the module constants) for the player to move."""
    # the flags are computed, not written as True/False: numba compiles a kernel again
    # for each literal argument
    if action == NO_TAKE and state[Slot.PHASE] == Phase.OFFER:
        apply_pass(state)
    elif action >= NO_TAKE:  # the draw codes, NO_TAKE and TAKE, come last
        apply_draw(state, action == TAKE)
    else:
        knock = action >= KNOCK
        apply_discard(state, action - KNOCK if knock else action, knock, rules)


@njit(cache=True)
def _throwable(state: Int64s, scratch: Int64s) -> np.int64:
    """The cards the player to move may throw (not the one just taken), with the
    deadwood left by throwing each written to ``scratch[card]``."""
    player = state[Slot.TURN]
    allowed = throwable(state, player)
    discard_deadwoods_kernel(state[Slot.HAND + player], allowed, scratch)
    return allowed


@compiled_once
@njit(cache=True)
def legal_actions(state: Int64s, actions: Int64s, scratch: Int64s) -> np.int64:
    """Fill ``actions`` with the codes of the legal actions at a choice; their count."""
    if state[Slot.PHASE] != Phase.DISCARD:
        actions[0] = NO_TAKE
        actions[1] = TAKE
        return np.int64(2)
    allowed = _throwable(state, scratch)
    n = np.int64(0)
    for card in cards_of(allowed):
        actions[n] = card
        n += 1
        if scratch[card] <= state[Slot.KNOCK_LIMIT]:
            actions[n] = KNOCK + card
            n += 1
    return n


@compiled_once
@njit(cache=True)
def knock_alternatives(
    state: Int64s, default: np.int64, actions: Int64s, scratch: Int64s
) -> np.int64:
    """Fill ``actions`` with ``default`` and, at a discard where a knock short of gin is
    legal, the other side of the knock decision
    (:attr:`~analyzer.gin.play.players.Scope.KNOCK`); their count."""
    actions[0] = default
    if state[Slot.PHASE] != Phase.DISCARD:
        return np.int64(1)
    allowed = _throwable(state, scratch)
    if default >= KNOCK:
        if scratch[default - KNOCK] == 0:
            return np.int64(1)  # gin is always taken
        actions[1] = default - KNOCK
        return np.int64(2)
    best = np.int64(-1)
    for card in cards_of(allowed):
        if best < 0 or scratch[card] < scratch[best]:
            best = card
    if scratch[best] == 0 or scratch[best] > state[Slot.KNOCK_LIMIT]:
        return np.int64(1)
    actions[1] = KNOCK + best
    return np.int64(2)


@compiled_once
@njit(cache=True)
def policy_action(
    state: Int64s, rules: Int64s, model: Int64s, key: np.int64, scratch: Int64s
) -> np.int64:
    """The action code the model policy plays at this choice (on a copy of the state)."""
    after = state.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_key(key, np.int64(-1))
    step(after, rules, model, rng, scratch)
    if state[Slot.PHASE] != Phase.DISCARD:
        took = after[Slot.HAND + state[Slot.TURN]] & state[Slot.PILE_MASK]
        return np.int64(TAKE if took else NO_TAKE)
    card = after[Slot.PILE + after[Slot.PILE_LEN] - 1]
    return card + KNOCK if after[Slot.PHASE] == Phase.DONE else card


__all__ = [
    "KNOCK",
    "MAX_ACTIONS",
    "NO_TAKE",
    "TAKE",
    "apply_action",
    "knock_alternatives",
    "legal_actions",
    "policy_action",
]
