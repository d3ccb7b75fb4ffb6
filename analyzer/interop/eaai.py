"""An analyzer policy as a player of the EAAI Gin Rummy framework (``ginrummy.GinRummyPlayer``).

:class:`AgentSession` answers the framework's callbacks, one JSON object per message, from
the player's own view of the hand kept in an engine state array (:mod:`analyzer.gin.engine`),
so the policy decides exactly as it does in the analyzer's simulations.  The command
``analyzer agent`` (:mod:`analyzer.cli.agent`) runs a session over stdin/stdout, and the Java
adapter ``java/AnalyzerPlayer.java`` (package data of this package) implements
``GinRummyPlayer`` by talking to that process.

Protocol (JSON lines)
---------------------
Cards are two characters, rank ``A23456789TJQK`` then suit ``CDHS`` (``"TD"``), as the
framework's ``Card.toString`` writes them; either case is read.  Every message is one JSON
object on one line, with ``"type"`` named after the callback and the callback's arguments.
The three questions get exactly one reply line each; reports get none (so a hand costs one
round trip per decision), and a bad report is answered on stderr only:

=====================  ===========================================  ===========================
type                   other fields                                 reply
=====================  ===========================================  ===========================
``startGame``          ``player``, ``starting`` (ints), ``cards``   none
``willDrawFaceUpCard`` ``card``                                     ``{"draw": bool}``
``reportDraw``         ``player``, ``card`` (null: unseen stock)    none
``getDiscard``         (none)                                       ``{"card": "KD"}``
``reportDiscard``      ``player``, ``card``                         none
``getFinalMelds``      (none)                                       ``{"melds": [[...]] | null}``
``reportFinalMelds``   ``player``, ``melds``                        none
``reportScores``       ``scores`` (two ints)                        none
``reportLayoff``       ``player``, ``card``, ``meld``               none
``reportFinalHand``    ``player``, ``cards``                        none
``quit``               (none)                                       none; the process exits
=====================  ===========================================  ===========================

A bad question gets ``{"error": "..."}`` instead of its reply, and the session goes on.
``getFinalMelds`` returns ``null`` to play on, or the melds to knock with; after the
opponent knocked it returns the player's own melds (one minimum-deadwood arrangement), as
the interface asks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cards import format_card, parse_card
from ..core.rng import stream_key
from ..gin.engine import (
    Phase,
    Slot,
    _wants_upcard,
    apply_discard,
    choose_discard,
    new_scratch,
    new_state,
)
from ..gin.evaluator import best_melds
from ..gin.policies import Policy
from ..gin.rules import Rules

_UNKNOWN = -1
#: Message types answered with a reply line; every other known type is a report.
QUESTIONS = ("willDrawFaceUpCard", "getDiscard", "getFinalMelds")
REPORTS = ("startGame", "reportDraw", "reportDiscard", "reportFinalMelds", "reportScores",
           "reportLayoff", "reportFinalHand", "quit")


def card_text(card: int) -> str:
    """The framework's spelling of a card (``"TD"``)."""
    return format_card(card).upper()


def meld_texts(melds: list[int]) -> list[list[str]]:
    """Meld masks as lists of card strings."""
    return [[card_text(c) for c in range(52) if meld >> c & 1] for meld in melds]


class AgentSession:
    """One analyzer policy answering the framework's callbacks for one player.

    ``seed`` keys the policy's random stream (tie breaks of ``discard=random``); hand
    ``k`` of the session uses stream ``k``, so a session replays exactly.
    """

    def __init__(self, policy: Policy, rules: Rules, seed: int = 0) -> None:
        self.policy_row = policy.to_array()
        self.policies = np.stack([self.policy_row, self.policy_row])
        self.rules = rules
        self.rules_array = rules.to_array()
        self.seed = seed
        self.hands_started = 0
        self.state = new_state()
        self.scratch = new_scratch()
        self.rng = np.zeros(1, dtype=np.uint64)
        self.me = 0
        self.will_knock = False
        self.opponent_knocked = False
        self.scores = [0, 0]

    # ------------------------------------------------------------------ callbacks
    def start_game(self, player: int, starting: int, cards: list[int]) -> None:
        state = self.state
        state[:] = new_state()
        self.me = player
        state[Slot.DEALER] = 1 - starting
        state[Slot.TURN] = starting
        state[Slot.TAKEN] = _UNKNOWN
        state[Slot.WINNER] = _UNKNOWN
        state[Slot.KNOCKER] = _UNKNOWN
        state[Slot.OUTCOME] = _UNKNOWN
        state[Slot.MULTIPLIER] = 1
        state[Slot.STOCK_POS] = 21
        state[Slot.UPCARD] = _UNKNOWN
        state[Slot.KNOCK_LIMIT] = 0 if self.rules.straight else self.rules.knock_limit
        state[Slot.PHASE] = Phase.OFFER
        for card in cards:
            state[Slot.HAND + player] |= np.int64(1) << card
        self.rng[0] = stream_key(np.int64(self.seed), np.int64(self.hands_started))
        self.hands_started += 1
        self.will_knock = False
        self.opponent_knocked = False

    def will_draw_face_up(self, card: int) -> bool:
        state = self.state
        if state[Slot.PILE_LEN] == 0 or self._pile_top() != card:
            self._push_pile(card)
            if state[Slot.UPCARD] < 0:
                state[Slot.UPCARD] = card
        state[Slot.TURN] = self.me
        return bool(_wants_upcard(state, np.int64(self.me), self.policy_row, self.scratch))

    def report_draw(self, player: int, card: int | None) -> None:
        state = self.state
        bit = np.int64(0) if card is None else np.int64(1) << card
        face_up = card is not None and (
            (state[Slot.PILE_LEN] > 0 and self._pile_top() == card)
            or (player != self.me and not state[Slot.PILE_MASK] & bit))
        if face_up:
            assert card is not None  # face up means a card was named
            if state[Slot.PILE_LEN] > 0 and self._pile_top() == card:
                state[Slot.PILE_LEN] -= 1
                state[Slot.PILE_MASK] &= ~bit
            state[Slot.TOOK + player] |= bit
            state[Slot.TAKEN] = card
        else:
            state[Slot.STOCK_POS] += 1
            state[Slot.TAKEN] = _UNKNOWN
        state[Slot.HAND + player] |= bit
        state[Slot.DRAWS] += 1
        state[Slot.OWN_TURNS + player] += 1
        state[Slot.TURN] = player
        state[Slot.PHASE] = Phase.DISCARD

    def get_discard(self) -> int:
        state = self.state
        state[Slot.TURN] = self.me
        card, knock = choose_discard(state, np.int64(self.me), self.policy_row, self.rng,
                                     self.scratch, self.scratch[52:104])
        self.will_knock = bool(knock)
        return int(card)

    def report_discard(self, player: int, card: int) -> None:
        state = self.state
        state[Slot.TURN] = player
        apply_discard(state, np.int64(card), False, self.rules_array)

    def get_final_melds(self) -> list[list[str]] | None:
        if not (self.will_knock or self.opponent_knocked):
            return None
        return meld_texts(best_melds(int(self.state[Slot.HAND + self.me])).melds)

    def report_final_melds(self, player: int) -> None:
        if player != self.me:
            self.opponent_knocked = True

    # ------------------------------------------------------------------ protocol
    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one protocol message (see the module docstring): a dict for a
        question or an error, None for a report taken."""
        kind = message.get("type")
        try:
            if kind == "startGame":
                self.start_game(int(message["player"]), int(message["starting"]),
                                [parse_card(c) for c in message["cards"]])
            elif kind == "willDrawFaceUpCard":
                return {"draw": self.will_draw_face_up(parse_card(message["card"]))}
            elif kind == "reportDraw":
                card = message.get("card")
                self.report_draw(int(message["player"]),
                                 None if card is None else parse_card(card))
            elif kind == "getDiscard":
                return {"card": card_text(self.get_discard())}
            elif kind == "reportDiscard":
                self.report_discard(int(message["player"]), parse_card(message["card"]))
            elif kind == "getFinalMelds":
                return {"melds": self.get_final_melds()}
            elif kind == "reportFinalMelds":
                self.report_final_melds(int(message["player"]))
            elif kind == "reportScores":
                self.scores = [int(s) for s in message["scores"]]
            elif kind not in REPORTS:
                return {"error": f"unknown message type {kind!r}"}
        except (KeyError, TypeError, ValueError) as error:
            return {"error": f"bad {kind} message: {error}"}
        return None

    # ------------------------------------------------------------------ helpers
    def _pile_top(self) -> int:
        return int(self.state[Slot.PILE + self.state[Slot.PILE_LEN] - 1])

    def _push_pile(self, card: int) -> None:
        state = self.state
        state[Slot.PILE + state[Slot.PILE_LEN]] = card
        state[Slot.PILE_LEN] += 1
        state[Slot.PILE_MASK] |= np.int64(1) << card

