"""The layout of the hand state array shared by the engine and the policy kernels.

One hand is one ``np.int64`` array indexed by :class:`Slot` (see
:mod:`analyzer.gin.engine.transitions` for the flow of a hand).  Besides the hands, the deck and the
pile, the state keeps what each player *knows* about the other, as plain masks that a
copy of the state carries along (:mod:`analyzer.gin.model.knowledge` updates and reads them):

* ``TOOK + p`` / ``THREW + p``: every card ``p`` took from the pile / threw to it;
* ``HELD + p``: the cards ``p`` took from the pile and still holds (public knowledge);
* ``REFUSED + p``: the pile tops ``p`` was offered or could draw and did not take
  (the opening upcard pass included);
* ``EXPOSED + p``: ``p``'s cards shown at the knock (the knocker's melds and deadwood,
  the defender's melds, laid-off cards and deadwood);
* ``LOG + c``: the last time card ``c`` was thrown, ``2 * draws + thrower + 1``
  (0 = never thrown), so the discard history is kept even for cards taken back;
* ``SCORE + p``: ``p``'s game score (points) before this hand, 0 outside a game;
* ``RACES + p``: in how many earlier hands of this game ``p``'s opponent knocked short
  of gin where ``p``'s own knock table would not have (the read of a racer,
  :func:`analyzer.gin.model.knowledge.outraced`), 0 outside a game;
* ``RULE_*``: the scoring rules a policy needs to value a knock (copied by
  :func:`analyzer.gin.model.knowledge.note_rules` when a hand is dealt).

The older slots (``HAND`` .. ``PAIRS``) keep their indices, so states built by hand
before these slots existed read them as zeros.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from .policy_fields import SCHEDULE_TURNS, PolicyField

FULL_DECK = np.int64((1 << 52) - 1)
MAX_PAIRS = 32


class Slot(IntEnum):
    """Index of each field in the state array (``HAND + p`` is player ``p``'s hand)."""

    HAND = 0
    TOOK = 2
    THREW = 4
    OWN_TURNS = 6
    DEALER = 8
    TURN = 9
    PHASE = 10
    STOCK_POS = 11
    PILE_LEN = 12
    DRAWS = 13
    KNOCK_LIMIT = 14
    MULTIPLIER = 15
    TAKEN = 16
    OFFERS = 17
    OUTCOME = 18
    WINNER = 19
    POINTS = 20
    KNOCKER = 21
    KNOCKER_DEADWOOD = 22
    DEFENDER_DEADWOOD = 23
    UPCARD = 24
    PILE_MASK = 25
    N_PAIRS = 26
    DECK = 28
    PILE = 80
    PAIRS = 132
    REFUSED = 196
    HELD = 198
    EXPOSED = 200
    SCORE = 202
    RULE_GIN_BONUS = 204
    RULE_UNDERCUT_BONUS = 205
    RULE_TIE_IS_UNDERCUT = 206
    RULE_TARGET = 207
    LOG = 208
    RACES = 260
    SIZE = 262


class Phase(IntEnum):
    OFFER = 0
    DRAW = 1
    DISCARD = 2
    DONE = 3


class Outcome(IntEnum):
    """How a hand ended (``TIE``: equal deadwood scored 0, when ties are not undercuts)."""

    KNOCK = 0
    GIN = 1
    BIG_GIN = 2
    UNDERCUT = 3
    DRAW = 4
    TIE = 5


OUTCOME_NAMES = tuple(o.name.lower() for o in Outcome)
#: Length of a state array and of the work space :func:`analyzer.gin.engine.transitions.advance` needs:
#: 52 per-card values, 52 more (the lookahead's draws, the expert's probabilities), a
#: 6-entry tag saying which position those probabilities were inferred for, and the
#: next-draw term's 7 lowest values (:data:`analyzer.gin.evaluator.future.FUTURE_CARDS`):
#: work space in the hot loop, because allocating there serialises the threads.
STATE_SIZE = int(Slot.SIZE)
SCRATCH_SIZE = 117


@njit(cache=True)
def stock_left(state: Int64s) -> np.int64:
    """Cards left in the stock."""
    left: np.int64 = 52 - state[Slot.STOCK_POS]
    return left


@njit(cache=True)
def throwable(state: Int64s, player: np.int64) -> np.int64:
    """The cards of ``player``'s hand it may throw (a mask): all but the card it just
    took from the pile, which may not go straight back."""
    hand: np.int64 = state[Slot.HAND + player]
    if state[Slot.TAKEN] >= 0:
        hand &= ~(np.int64(1) << state[Slot.TAKEN])
    return hand


@njit(cache=True)
def points_to(state: Int64s, seat: np.int64) -> np.int64:
    """The points a finished hand gives ``seat``: its score when ``seat`` won it, minus
    that when the other seat did, 0 for a drawn hand."""
    winner = state[Slot.WINNER]
    if winner < 0:
        return np.int64(0)
    points: np.int64 = state[Slot.POINTS]
    return points if winner == seat else -points


@njit(cache=True)
def knock_threshold(state: Int64s, player: np.int64, policy: Int64s) -> np.int64:
    """The deadwood (points) at or under which ``player`` knocks now: the policy's
    schedule for its turn (its racer schedule once the opponent has shown itself a racer
    in this game, else its alert schedule while the opponent holds a card it took from
    the pile), capped by the hand's knock limit."""
    turn = min(max(state[Slot.OWN_TURNS + player], 1), SCHEDULE_TURNS) - 1
    if state[Slot.RACES + player] > 0 and policy[PolicyField.RACER_SCHEDULE] >= 0:
        table = PolicyField.RACER_SCHEDULE
    elif state[Slot.HELD + 1 - player] != 0:
        table = PolicyField.ALERT_SCHEDULE
    else:
        table = PolicyField.SCHEDULE
    return min(policy[table + turn], state[Slot.KNOCK_LIMIT])
