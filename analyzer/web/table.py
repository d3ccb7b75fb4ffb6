"""The practice table: a person (seat 0) against a policy (seat 1), hand by hand.

A :class:`PracticeGame` holds one engine state array (:mod:`analyzer.gin.engine`); the
person's moves are checked here and applied with the engine's ``apply_pass``,
``apply_draw``, ``end_in_a_draw``, ``apply_discard`` and ``apply_big_gin``; the computer's moves are made by the engine's
policy kernels (:func:`~analyzer.gin.engine.step`, until it is the person's turn again).
Every discard decision of the person is kept as an advisor :class:`Position`, so that
hints and the end-of-hand review rank the same actions the advisor would.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import format_card, parse_card
from ..core.rng import shuffle_deck, stream_key
from ..gin.advisor import Position
from ..gin.engine import (
    MAX_DRAWS,
    OUTCOME_NAMES,
    Phase,
    Slot,
    apply_big_gin,
    apply_discard,
    apply_draw,
    apply_pass,
    end_in_a_draw,
    new_hand,
    new_scratch,
    new_state,
    step,
    stock_left,
)
from ..gin.evaluator import best_discard_kernel, min_deadwood_kernel
from ..gin.policies import Policy
from ..gin.rules import RuleField, Rules
from ..gin.simulate import close_game

#: The person's seat and the computer's.
ME, COMPUTER = 0, 1
_POLICY_SALT = np.int64(0x7AB1E)
MODES = ("hand", "game")
HINTS = ("off", "before", "after")
_VERBS = ("take", "pass", "stock", "pile", "play", "knock", "gin", "big")


class IllegalMove(ValueError):
    """A move the rules or the current phase do not allow (the state is unchanged)."""


def _cards(mask: int) -> list[int]:
    """Card indices of a mask, ascending (suit by suit, then rank)."""
    return [c for c in range(52) if mask >> c & 1]


def _sorted_for_display(cards: list[int]) -> list[str]:
    """Cards in notation, by suit then rank (the order of a held hand)."""
    return [format_card(c) for c in sorted(cards)]


@dataclass
class Decision:
    """One discard decision of the person: what they knew and what they did."""

    hand: int
    """The hand number (from 1)."""
    position: Position | None
    """``None`` when the advisor cannot take the position (``error`` says why)."""
    action: str
    """The advisor's action name of the move made, e.g. ``knock Kd`` or ``play 9c``."""
    advice: dict[str, Any] | None = None
    """The advisor's verdict (``Advice.to_dict()``), once computed."""
    error: str | None = None


@dataclass
class PracticeGame:
    """A game (or a series of single hands) of the person against ``opponent``.

    Scores are in points; ``mode == "game"`` plays to the rules' target with the line
    and game bonuses of the rules (one score column, also with Hollywood rules).
    """

    game_id: str
    rules: Rules
    rules_preset: str
    opponent: Policy
    opponent_name: str
    mode: str = "hand"
    hints: str = "off"
    seed: int = 0
    state: npt.NDArray[np.int64] = field(default_factory=new_state)
    scores: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    hand_number: int = 0
    dealer: int = COMPUTER
    log: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    """Every discard decision of the game so far (all hands)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None
    drawn: int | None = None
    must_knock: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.hints not in HINTS:
            raise ValueError(f"hints must be one of {', '.join(HINTS)}, got {self.hints!r}")
        self._rules_array = self.rules.to_array()
        # the computer plays seat 1; seat 0's row is never used (advance stops before it)
        self._policies = np.stack([self.opponent.to_array(), self.opponent.to_array()])
        self._scratch = new_scratch()
        self._rng = np.zeros(1, dtype=np.uint64)
        self.deal()

    # ------------------------------------------------------------------ flow

    def deal(self) -> None:
        """Deal the next hand and let the computer act until it is the person's turn."""
        if self.final is not None:
            raise IllegalMove("the game is over: start a new game")
        if self.hand_number > 0 and self.state[Slot.PHASE] != Phase.DONE:
            raise IllegalMove("the hand is not over yet")
        deck = np.empty(52, dtype=np.int8)
        self._rng[0] = stream_key(np.int64(self.seed), np.int64(self.hand_number))
        shuffle_deck(self._rng, deck)
        new_hand(self.state, deck, np.int64(self.dealer), self._rules_array)
        if self.mode == "game":  # score-aware policies read it (0 outside a game)
            for seat in (ME, COMPUTER):
                self.state[Slot.SCORE + seat] = self.scores[seat]
        self._rng[0] = stream_key(np.int64(self.seed) ^ _POLICY_SALT, np.int64(self.hand_number))
        self.hand_number += 1
        dealer = "you" if self.dealer == ME else "the computer"
        self.log = [f"Hand {self.hand_number}: {dealer} dealt."]
        self.drawn = None
        self.must_knock = False
        self._computer_moves()

    @property
    def phase(self) -> str:
        """``offer``, ``draw``, ``discard`` (the person's move), ``hand over`` or
        ``game over``."""
        if self.final is not None:
            return "game over"
        phase = int(self.state[Slot.PHASE])
        if phase == Phase.DONE:
            return "hand over"
        return ("offer", "draw", "discard")[phase]

    def legal_moves(self) -> list[str]:
        """Every move the person may make now, in the table's notation."""
        phase = self.phase
        if phase == "offer":
            return ["take", "pass"]
        if phase == "draw":
            return self._legal_draws()
        if phase != "discard":
            return []
        hand = int(self.state[Slot.HAND + ME])
        taken = int(self.state[Slot.TAKEN])
        limit = int(self.state[Slot.KNOCK_LIMIT])
        moves = []
        if self.rules.big_gin and min_deadwood_kernel(np.int64(hand)) == 0:
            moves.append("big gin")
        for card in _cards(hand):
            if card == taken:
                continue
            name = format_card(card)
            left = int(min_deadwood_kernel(np.int64(hand & ~(1 << card))))
            if not self.must_knock:
                moves.append(f"play {name}")
            if left == 0:
                moves.append(f"gin {name}")
            elif left <= limit:
                moves.append(f"knock {name}")
        return moves

    def _legal_draws(self) -> list[str]:
        state = self.state
        pile = int(state[Slot.PILE_LEN])
        if stock_left(state) <= 2:
            # dead at two: the hand is over when the person draws; with the wall rule the
            # pile's top may be taken, but only to knock with it
            moves = ["stock"]
            if self.rules.stock_rule == "wall" and pile > 0 and self._can_knock_with_pile():
                moves.append("pile")
            return moves
        if state[Slot.DRAWS] == 0 and state[Slot.OFFERS] == 2:
            return ["stock"]  # both refused the upcard: the non-dealer draws from the stock
        return ["stock", "pile"] if pile > 0 else ["stock"]

    def _can_knock_with_pile(self) -> bool:
        top = int(self.state[Slot.PILE + self.state[Slot.PILE_LEN] - 1])
        hand = np.int64(int(self.state[Slot.HAND + ME]))
        after, _ = best_discard_kernel(hand | np.int64(1 << top), hand, self._scratch)
        return int(after) <= int(self.state[Slot.KNOCK_LIMIT])

    def move(self, text: str) -> None:
        """Apply the person's move (see :meth:`legal_moves`), then the computer's replies.

        Raises :class:`IllegalMove` (and changes nothing) when the move is not legal now.
        """
        move = " ".join(str(text).lower().split())
        legal = self.legal_moves()
        if not legal:
            raise IllegalMove(f"no move to make: the {self.phase.replace('over', 'is over')}")
        verb, _, card_text = move.partition(" ")
        if verb not in _VERBS or move == "big":
            raise IllegalMove(f"'{move}' is not a move now ({self.phase}); legal: "
                              f"{', '.join(legal)}")
        if move == "big gin":
            card_text = ""
        if card_text:  # normalise the card ("kd", "K♦" -> "Kd") before comparing
            try:
                move = f"{verb} {format_card(parse_card(card_text))}".lower()
            except ValueError as error:
                raise IllegalMove(str(error)) from None
        lowered = {m.lower(): m for m in legal}
        if move not in lowered:
            raise IllegalMove(self._why_illegal(move, legal))
        self._apply(lowered[move])
        self._computer_moves()

    def _why_illegal(self, move: str, legal: list[str]) -> str:
        verb, _, card_text = move.partition(" ")
        phase = self.phase
        if phase in ("offer", "draw") or verb not in ("play", "knock", "gin", "big"):
            return f"'{move}' is not a move now ({phase}); legal: {', '.join(legal)}"
        card = parse_card(card_text) if card_text else -1
        if card < 0 or not int(self.state[Slot.HAND + ME]) >> card & 1:
            return f"{card_text or 'that card'} is not in your hand"
        if card == int(self.state[Slot.TAKEN]):
            return f"{format_card(card)} was just taken from the pile and may not be thrown"
        if self.must_knock:
            return "the pile's top was taken at the wall: you must knock"
        hand = int(self.state[Slot.HAND + ME])
        left = int(min_deadwood_kernel(np.int64(hand & ~(1 << card))))
        if verb == "gin":
            return f"no gin: discarding {format_card(card)} leaves {left} points of deadwood"
        return (f"cannot knock: discarding {format_card(card)} leaves {left} points of deadwood, "
                f"over the knock limit of {int(self.state[Slot.KNOCK_LIMIT])}")

    def _apply(self, move: str) -> None:
        state = self.state
        if move in ("take", "pile"):
            card = int(state[Slot.PILE + state[Slot.PILE_LEN] - 1])
            self.must_knock = bool(stock_left(state) <= 2)
            apply_draw(state, True)
            self.drawn = card
            self.log.append(f"You took {format_card(card)} from the pile.")
        elif move == "pass":
            apply_pass(state)
            self.log.append("You passed the upcard.")
        elif move == "stock":
            if stock_left(state) <= 2 or state[Slot.DRAWS] >= MAX_DRAWS:
                end_in_a_draw(state)
                self.log.append("Two cards left in the stock: the hand is a draw.")
                self._hand_over()
                return
            apply_draw(state, False)
            self.drawn = int(state[Slot.DECK + state[Slot.STOCK_POS] - 1])
            self.log.append(f"You drew {format_card(self.drawn)} from the stock.")
        else:
            try:
                self.decisions.append(Decision(self.hand_number, self.position(), move))
            except ValueError as error:  # the move stands; only its review is lost
                self.decisions.append(Decision(self.hand_number, None, move, error=str(error)))
            verb, _, card_text = move.partition(" ")
            if move == "big gin":
                went_out = apply_big_gin(state, self._rules_array)
                assert went_out, "big gin was listed as legal"
                self.log.append("You went big gin.")
            else:
                card = parse_card(card_text)
                apply_discard(state, np.int64(card), verb != "play", self._rules_array)
                self.log.append(("You threw " if verb == "play" else f"You went {verb}, "
                                 "throwing ") + format_card(card) + ".")
            self.drawn = None
            self.must_knock = False
            if state[Slot.PHASE] == Phase.DONE:
                self._hand_over()

    def _computer_moves(self) -> None:
        """Let the computer play until the person must act or the hand is over."""
        state = self.state
        if state[Slot.PHASE] == Phase.DONE or state[Slot.TURN] == ME:
            return
        before = state.copy()
        while state[Slot.PHASE] != Phase.DONE and state[Slot.TURN] != ME:
            step(state, self._rules_array, self._policies, self._rng, self._scratch)
        self._describe_computer(before)
        if state[Slot.PHASE] == Phase.DONE:
            self._hand_over()
        elif (state[Slot.PHASE] == Phase.DRAW and stock_left(state) <= 2
              and self._legal_draws() == ["stock"]):
            end_in_a_draw(state)  # nothing to choose: the hand is dead at two
            self.log.append("Two cards left in the stock: the hand is a draw.")
            self._hand_over()

    def _describe_computer(self, before: npt.NDArray[np.int64]) -> None:
        """Log what the computer did between ``before`` and now (from the state)."""
        state = self.state
        took = int(state[Slot.TOOK + COMPUTER]) & ~int(before[Slot.TOOK + COMPUTER])
        threw = int(state[Slot.THREW + COMPUTER]) & ~int(before[Slot.THREW + COMPUTER])
        if state[Slot.OFFERS] > before[Slot.OFFERS]:
            self.log.append("The computer passed the upcard.")
        for card in _cards(took):
            self.log.append(f"The computer took {format_card(card)} from the pile.")
        if state[Slot.STOCK_POS] > before[Slot.STOCK_POS]:
            self.log.append("The computer drew from the stock.")
        for card in _cards(threw):
            self.log.append(f"The computer threw {format_card(card)}.")

    def _hand_over(self) -> None:
        """Score the finished hand into the game and keep its decisions for the review."""
        state = self.state
        winner = int(state[Slot.WINNER])
        points = int(state[Slot.POINTS])
        outcome = OUTCOME_NAMES[int(state[Slot.OUTCOME])]
        knocker = int(state[Slot.KNOCKER])
        result = {
            "hand": self.hand_number, "outcome": outcome,
            "winner": None if winner < 0 else ("you" if winner == ME else "computer"),
            "points": points,
            "knocker": None if knocker < 0 else ("you" if knocker == ME else "computer"),
            "knocker_deadwood": int(state[Slot.KNOCKER_DEADWOOD]) if knocker >= 0 else None,
            "defender_deadwood": int(state[Slot.DEFENDER_DEADWOOD]) if knocker >= 0 else None,
            "computer_hand": _sorted_for_display(_cards(int(state[Slot.HAND + COMPUTER]))),
            "your_hand": _sorted_for_display(_cards(int(state[Slot.HAND + ME]))),
        }
        self.results.append(result)
        who = result["winner"] or "nobody"
        self.log.append(f"Hand over: {outcome}, {who} {'win' if who == 'you' else 'wins'} "
                        f"{points} points.")
        if winner >= 0:
            self.scores[winner] += points
            self.boxes[winner] += 1
            if self._rules_array[RuleField.LINE_IMMEDIATE]:
                self.scores[winner] += int(self._rules_array[RuleField.LINE_BONUS])
            if self.rules.next_dealer == "winner":
                self.dealer = winner
        if self.rules.next_dealer != "winner":
            self.dealer = 1 - self.dealer
        if self.mode == "game" and winner >= 0 and self.scores[winner] >= self.rules.target:
            totals = np.zeros(2, dtype=np.int64)
            shutout = close_game(np.array(self.scores, dtype=np.int64),
                                 np.array(self.boxes, dtype=np.int64), np.int64(winner),
                                 self._rules_array, totals)
            self.final = {"winner": "you" if winner == ME else "computer",
                          "totals": [int(t) for t in totals], "shutout": bool(shutout)}
            self.log.append(f"Game over: {self.final['winner']} "
                            f"{'win' if winner == ME else 'wins'}, totals "
                            f"{totals[0]}:{totals[1]} with bonuses.")

    # ------------------------------------------------------------------ views

    def position(self) -> Position:
        """What the person knows at a discard decision, as an advisor position.

        Raises ``ValueError`` when the person is not holding 11 cards to discard from.
        """
        state = self.state
        if self.phase != "discard":
            raise ValueError("advice is given at your discard decisions only")
        taken = int(state[Slot.TAKEN])
        upcard = int(state[Slot.UPCARD])
        known: dict[str, Any] = {
            "hand": tuple(_cards(int(state[Slot.HAND + ME]))),
            "pile": tuple(int(c) for c in state[Slot.PILE:Slot.PILE + state[Slot.PILE_LEN]]),
            "opp_took": tuple(_cards(int(state[Slot.TOOK + COMPUTER]))),
            # a throw in neither the pile nor this hand was taken back by the computer:
            # the advisor then counts it as held (taken, not thrown)
            "opp_threw": tuple(_cards(int(state[Slot.THREW + COMPUTER])
                                      & (int(state[Slot.PILE_MASK])
                                         | int(state[Slot.HAND + ME])))),
            "stock": int(stock_left(state)),
            "dealer": "me" if int(state[Slot.DEALER]) == ME else "opp",
            "drawn": taken if taken >= 0 else self.drawn, "from_pile": taken >= 0,
            "upcard": upcard if upcard >= 0 else None}
        try:
            return Position(**known, turn=max(int(state[Slot.OWN_TURNS + ME]), 1))
        except ValueError:
            # the advisor's turn check counts one draw per turn from the deal, which a
            # dealer taking the refused upcard on turn 1 breaks; it then infers the turn
            # from the stock, which is exact there
            return Position(**known)

    def view(self) -> dict[str, Any]:
        """Everything the person may see, as JSON-ready data."""
        state = self.state
        hand = _cards(int(state[Slot.HAND + ME]))
        pile = [format_card(int(c)) for c in state[Slot.PILE:Slot.PILE + state[Slot.PILE_LEN]]]
        phase = self.phase
        taken = int(state[Slot.TAKEN])
        deadwood = None
        if hand and phase != "discard":
            deadwood = int(min_deadwood_kernel(np.int64(int(state[Slot.HAND + ME]))))
        elif hand:
            mask = int(state[Slot.HAND + ME])
            allowed = mask & ~(1 << taken) if taken >= 0 else mask
            least, _ = best_discard_kernel(np.int64(mask), np.int64(allowed), self._scratch)
            deadwood = int(least)
        return {
            "id": self.game_id, "rules": self.rules_preset, "opponent": self.opponent_name,
            "mode": self.mode, "hints": self.hints, "target": self.rules.target,
            "hand_number": self.hand_number, "phase": phase,
            "dealer": "you" if int(state[Slot.DEALER]) == ME else "computer",
            "your_turn": phase in ("offer", "draw", "discard"),
            "hand": _sorted_for_display(hand),
            "deadwood": deadwood,
            "taken": format_card(taken) if taken >= 0 and phase == "discard" else None,
            "drawn": format_card(self.drawn) if self.drawn is not None else None,
            "pile": pile, "stock": int(stock_left(state)),
            "computer_cards": bin(int(state[Slot.HAND + COMPUTER])).count("1"),
            "computer_holds": _sorted_for_display(_cards(int(state[Slot.HELD + COMPUTER]))),
            "knock_limit": int(state[Slot.KNOCK_LIMIT]),
            "scores": list(self.scores), "boxes": list(self.boxes),
            "legal": self.legal_moves(), "log": list(self.log),
            "last_result": self.results[-1] if phase in ("hand over", "game over") else None,
            "decisions": len(self.decisions), "final": self.final,
            "decision_made": None,
        }


def new_game_id() -> str:
    """An unguessable game id (URL-safe)."""
    return secrets.token_urlsafe(12)


__all__ = ["COMPUTER", "HINTS", "ME", "MODES", "Decision", "IllegalMove", "PracticeGame",
           "new_game_id"]
