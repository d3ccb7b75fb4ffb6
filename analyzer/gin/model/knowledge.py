"""What each player knows about the other: updates made by the engine, reads by policies.

Rules (each a kernel over the state array, :mod:`analyzer.gin.model.state`):

* a card taken from the pile is public: it joins the taker's ``TOOK`` and ``HELD``;
* a thrown card joins the thrower's ``THREW`` and leaves its ``HELD``, and the discard
  history ``LOG`` records when and by whom it was last thrown;
* a pile top a player was offered (the opening upcard) or could have drawn and did not
  take joins its ``REFUSED``;
* at a knock both hands are shown: the knocker's melds and deadwood, the defender's
  melds, layoffs and deadwood join their ``EXPOSED`` masks.

Derived knowledge, from ``observer``'s point of view (its opponent is ``1 - observer``):

* :func:`unseen_cards`: cards the observer has never seen: not in its hand, not in the
  pile, not known to be in the opponent's hand;
* :func:`dead_cards`: cards out of the observer's reach for melds: the pile under its top
  and the cards the opponent is known to hold;
* :func:`live_cards`: cards the observer may still get: the unseen cards and the pile top.

All are pure functions of the state, so the advisor, the knock chart and a search can
branch from a copied state and keep reading them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from .policy_fields import SCHEDULE_TURNS, PolicyField
from .rules import RuleField
from .state import FULL_DECK, Phase, Slot


@njit(cache=True)
def note_rules(state: Int64s, rules: Int64s) -> None:
    """Copy the scoring rules a policy needs to value a knock into the state."""
    state[Slot.RULE_GIN_BONUS] = rules[RuleField.GIN_BONUS]
    state[Slot.RULE_UNDERCUT_BONUS] = rules[RuleField.UNDERCUT_BONUS]
    state[Slot.RULE_TIE_IS_UNDERCUT] = rules[RuleField.TIE_IS_UNDERCUT]
    state[Slot.RULE_TARGET] = rules[RuleField.TARGET]


@njit(cache=True)
def note_scores(state: Int64s, score0: np.int64, score1: np.int64) -> None:
    """The players' game scores (points) before this hand (0 and 0 outside a game)."""
    state[Slot.SCORE] = score0
    state[Slot.SCORE + 1] = score1


@njit(cache=True)
def note_races(state: Int64s, races0: np.int64, races1: np.int64) -> None:
    """How many earlier hands of this game showed each player's opponent a racer
    (:func:`outraced`; 0 and 0 outside a game)."""
    state[Slot.RACES] = races0
    state[Slot.RACES + 1] = races1


@njit(cache=True)
def outraced(state: Int64s, reader: np.int64, policy: Int64s) -> bool:
    """Whether a finished hand shows ``reader``'s opponent a racer: it knocked short of
    gin with more deadwood than ``reader``'s own knock table (``policy``: its schedule,
    or its alert schedule when ``reader`` held a card it took from the pile) allows at
    the knocker's own turn, that is where ``reader`` would not have knocked."""
    knocker = state[Slot.KNOCKER]
    deadwood = state[Slot.KNOCKER_DEADWOOD]
    if knocker != 1 - reader or deadwood <= 0:
        return False
    turn = min(max(state[Slot.OWN_TURNS + knocker], 1), SCHEDULE_TURNS) - 1
    table = PolicyField.ALERT_SCHEDULE if state[Slot.HELD + reader] != 0 else PolicyField.SCHEDULE
    return bool(deadwood > policy[table + turn])


@njit(cache=True)
def note_take(state: Int64s, player: np.int64, card: np.int64) -> None:
    """``player`` took ``card`` from the pile."""
    bit = np.int64(1) << card
    state[Slot.TOOK + player] |= bit
    state[Slot.HELD + player] |= bit


@njit(cache=True)
def note_refuse(state: Int64s, player: np.int64, card: np.int64) -> None:
    """``player`` left ``card`` on the pile (passed the upcard or drew from the stock)."""
    state[Slot.REFUSED + player] |= np.int64(1) << card


@njit(cache=True)
def note_throw(state: Int64s, player: np.int64, card: np.int64) -> None:
    """``player`` threw ``card`` (call before the draw counter moves on)."""
    bit = np.int64(1) << card
    state[Slot.THREW + player] |= bit
    state[Slot.HELD + player] &= ~bit
    state[Slot.LOG + card] = 2 * state[Slot.DRAWS] + player + 1


@njit(cache=True)
def note_knock(state: Int64s, knocker: np.int64) -> None:
    """Both hands are shown at a knock (the knocker holds its 10 cards after the throw)."""
    state[Slot.EXPOSED + knocker] |= state[Slot.HAND + knocker]
    state[Slot.EXPOSED + 1 - knocker] |= state[Slot.HAND + 1 - knocker]


@njit(cache=True)
def known_held(state: Int64s, player: np.int64) -> np.int64:
    """Cards ``player`` is known (by both players) to hold: taken from the pile, not thrown."""
    return state[Slot.HELD + player]


@njit(cache=True)
def took_then_threw(state: Int64s, player: np.int64) -> np.int64:
    """Cards ``player`` took from the pile and later threw back."""
    return state[Slot.TOOK + player] & state[Slot.THREW + player]


@njit(cache=True)
def pile_top(state: Int64s) -> np.int64:
    """The face-up card on the pile, or -1 when the pile is empty."""
    if state[Slot.PILE_LEN] == 0:
        return np.int64(-1)
    return state[Slot.PILE + state[Slot.PILE_LEN] - 1]


@njit(cache=True)
def unseen_cards(state: Int64s, observer: np.int64) -> np.int64:
    """Cards ``observer`` has not seen: in the stock or hidden in the opponent's hand."""
    return (
        FULL_DECK
        & ~state[Slot.HAND + observer]
        & ~state[Slot.PILE_MASK]
        & ~state[Slot.HELD + 1 - observer]
    )


@njit(cache=True)
def dead_cards(state: Int64s, observer: np.int64) -> np.int64:
    """Cards ``observer`` can no longer get: buried in the pile or held by the opponent."""
    top = pile_top(state)
    buried = state[Slot.PILE_MASK]
    if top >= 0:
        buried &= ~(np.int64(1) << top)
    return buried | state[Slot.HELD + 1 - observer]


@njit(cache=True)
def live_cards(state: Int64s, observer: np.int64) -> np.int64:
    """Cards ``observer`` may still get: the unseen cards and the pile's top."""
    live = unseen_cards(state, observer)
    top = pile_top(state)
    if top >= 0:
        live |= np.int64(1) << top
    return live


@njit(cache=True)
def hidden_count(state: Int64s, observer: np.int64) -> np.int64:
    """How many of the opponent's cards ``observer`` has not seen.

    Counted from the opponent's hand size (10 cards, 11 between its draw and its throw),
    not from its hand mask, so that a seat's own view of the hand (where that mask holds
    only the cards known to be there) counts the same as the full state."""
    opponent = 1 - observer
    size = np.int64(10)
    if state[Slot.PHASE] == Phase.DISCARD and state[Slot.TURN] == opponent:
        size = np.int64(11)
    held = state[Slot.HELD + opponent]
    while held:
        held &= held - 1
        size -= 1
    return size
