"""The practice table: a person (seat 0) against a policy (seat 1), hand by hand.

A :class:`PracticeGame` holds the hand being played as a :class:`~analyzer.gin.play.hand.Hand`
(full information: the table deals); the person's moves are checked here and played
through it, and the computer's moves are decided and played through it by the policy
(:meth:`~analyzer.gin.play.hand.Hand.decide`, until it is the person's turn again), so the
engine's kernels make every move and keep what each player knows.
Every discard decision of the person is kept as an advisor :class:`Position`, so that
hints and the end-of-hand review rank the same actions the advisor would.  The log is
written for a person, cards in suit symbols (``6♣``); moves and positions in the API keep
the notation (``6c``).  At the end of a hand with a knock, the result lays out both hands:
the knocker's melds and deadwood, the defender's melds, layoffs and deadwood (as
``analyzer replay`` shows them).
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.arrays import Int64s
from ..core.cards import format_card, format_hand, parse_card, to_indices, to_mask
from ..core.rng import shuffle_deck, stream_key
from ..gin.engine.transitions import MAX_DRAWS
from ..gin.evaluator.api import best_discard, best_melds, layoff_plan, min_deadwood
from ..gin.model.policies import Policy
from ..gin.model.rules import Rules
from ..gin.play.advisor import Position
from ..gin.play.game import Game
from ..gin.play.hand import Hand
from ..gin.play.moves import Move

#: The person's seat and the computer's.
ME, COMPUTER = 0, 1
_POLICY_SALT = np.int64(0x7AB1E)
MODES = ("hand", "game")
HINTS = ("off", "before", "after")
#: The person's moves that name a card: the discards (``play Kd``, ``knock Kd``, ``gin Kd``).
_CARD_VERBS = ("play", "knock", "gin")


class IllegalMove(ValueError):
    """A move the rules or the current phase do not allow (the state is unchanged)."""


def _cards(mask: int) -> list[int]:
    """Card indices of a mask, ascending (suit by suit, then rank)."""
    return [c for c in range(52) if mask >> c & 1]


def _sorted_for_display(cards: list[int]) -> list[str]:
    """Cards in notation, by suit then rank (the order of a held hand)."""
    return [format_card(c) for c in sorted(cards)]


def _shown(card: int) -> str:
    """A card as the log writes it: rank and suit symbol (``6♣``)."""
    return format_card(card, symbols=True)


#: How the hand ended, as the log's result line says it.
_OUTCOME_WORDS = {
    "knock": "by knocking",
    "gin": "with gin",
    "big_gin": "with big gin",
    "undercut": "by an undercut",
}


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
    hand_number: int = 0
    dealer: int = COMPUTER
    """The dealer of the first hand (the game's rules choose the next ones)."""
    log: list[str] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    """Every discard decision of the game so far (all hands)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None
    drawn: int | None = None
    must_knock: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    hand: Hand = field(init=False, repr=False)
    """The hand being played (the last one, once it is over)."""
    game: Game = field(init=False, repr=False)
    """The score so far: one column to the target in ``game`` mode (with the read of the
    opponent the computer carries from hand to hand), a running tally in ``hand`` mode."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.hints not in HINTS:
            raise ValueError(f"hints must be one of {', '.join(HINTS)}, got {self.hints!r}")
        self.game = Game(self.rules, self.dealer, single_column=True, to_target=self.mode == "game")
        self.deal()

    @property
    def scores(self) -> list[int]:
        """Each seat's points so far (you first)."""
        return list(self.game.scores)

    @property
    def boxes(self) -> list[int]:
        """Hands each seat has won so far (you first)."""
        return list(self.game.boxes)

    @property
    def state(self) -> Int64s:
        """The hand's engine state array (:mod:`analyzer.gin.model.state`), to read only."""
        return self.hand.state

    # ------------------------------------------------------------------ flow

    def deal(self) -> None:
        """Deal the next hand and let the computer act until it is the person's turn."""
        if self.final is not None:
            raise IllegalMove("the game is over: start a new game")
        if self.hand_number > 0 and not self.hand.done:
            raise IllegalMove("the hand is not over yet")
        deck = np.empty(52, dtype=np.int8)
        shuffle_deck(
            np.array(
                [stream_key(np.int64(self.seed), np.int64(self.hand_number))], dtype=np.uint64
            ),
            deck,
        )
        # score-aware policies read the score and the read of the opponent (0 outside a
        # game); the computer's random choices come from the stream of the salted seed
        in_game = self.mode == "game"
        self.hand = Hand.deal(
            self.rules,
            deck=deck,
            seed=int(np.int64(self.seed) ^ _POLICY_SALT),
            dealer=self.game.dealer,
            scores=self.game.scores if in_game else (0, 0),
            hand_index=self.hand_number,
            races=self.game.races if in_game else (0, 0),
        )
        self.hand_number += 1
        dealer = "you" if self.game.dealer == ME else "the computer"
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
        return "hand over" if self.hand.done else self.hand.phase

    def legal_moves(self) -> list[str]:
        """Every move the person may make now, in the table's notation."""
        phase = self.phase
        if phase == "offer":
            return ["take", "pass"]
        if phase == "draw":
            return self._legal_draws()
        if phase != "discard":
            return []
        legal = self.hand.legal_moves()
        knocks = {move.card for move in legal if move.kind == "knock"}
        hand = self.hand.hand_mask(ME)
        moves = ["big gin"] if Move("big_gin") in legal else []
        for move in legal:
            if move.kind != "discard":
                continue
            assert move.card is not None
            name = format_card(move.card)
            if not self.must_knock:
                moves.append(f"play {name}")
            if move.card in knocks:
                left = min_deadwood(hand & ~(1 << move.card))
                moves.append(f"gin {name}" if left == 0 else f"knock {name}")
        return moves

    def _legal_draws(self) -> list[str]:
        # the hand's draws: the stock ("end" at a stock of two or at the draw limit: dead
        # at two, the hand is over when the person draws) and the pile's top (with the
        # wall rule at a stock of two, only to knock with it)
        names = {"draw": "stock", "end": "stock", "take": "pile"}
        return [names[move.kind] for move in self.hand.legal_moves()]

    def move(self, text: str) -> None:
        """Apply the person's move (see :meth:`legal_moves`), then the computer's replies.

        Raises :class:`IllegalMove` (and changes nothing) when the move is not legal now.
        """
        move = " ".join(str(text).lower().split())
        legal = self.legal_moves()
        if not legal:
            raise IllegalMove(f"no move to make: the {self.phase.replace('over', 'is over')}")
        verb, _, card_text = move.partition(" ")
        # a card is read only where one is asked for: anywhere else ("big gin" when no big
        # gin is legal, "pass now") the answer is what the phase allows, not "bad card"
        if self._names_a_discard(verb, card_text):
            try:  # normalise the card ("kd", "K♦" -> "Kd") before comparing
                move = f"{verb} {format_card(parse_card(card_text))}".lower()
            except ValueError as error:
                raise IllegalMove(str(error)) from None
        lowered = {m.lower(): m for m in legal}
        if move not in lowered:
            raise IllegalMove(self._why_illegal(move, legal))
        self._apply(lowered[move])
        self._computer_moves()

    def _names_a_discard(self, verb: str, card_text: str) -> bool:
        return self.phase == "discard" and verb in _CARD_VERBS and bool(card_text)

    def _why_illegal(self, move: str, legal: list[str]) -> str:
        verb, _, card_text = move.partition(" ")
        if not self._names_a_discard(verb, card_text):
            return f"'{move}' is not a move now ({self.phase}); legal: {', '.join(legal)}"
        card = parse_card(card_text)  # read (and normalised) by move()
        hand = self.hand.hand_mask(ME)
        if not hand >> card & 1:
            return f"{format_card(card)} is not in your hand"
        if card == self.hand.taken:
            return f"{format_card(card)} was just taken from the pile and may not be thrown"
        if self.must_knock:
            return "the pile's top was taken at the wall: you must knock"
        left = min_deadwood(hand & ~(1 << card))
        if verb == "gin":
            return f"no gin: discarding {format_card(card)} leaves {left} points of deadwood"
        return (
            f"cannot knock: discarding {format_card(card)} leaves {left} points of deadwood, "
            f"over the knock limit of {self.hand.knock_limit}"
        )

    def _apply(self, move: str) -> None:
        hand = self.hand
        if move in ("take", "pile"):
            card = hand.pile_top
            assert card is not None
            self.must_knock = hand.stock_left <= 2
            hand.play(Move("take"))
            self.drawn = card
            self.log.append(f"You took {_shown(card)} from the pile.")
        elif move == "pass":
            hand.play(Move("pass"))
            self.log.append("You passed the upcard.")
        elif move == "stock":
            if hand.stock_left <= 2 or hand.draws >= MAX_DRAWS:
                hand.play(Move("end"))
                self.log.append("Two cards left in the stock: the hand is a draw.")
                self._hand_over()
                return
            hand.play(Move("draw"))
            self.drawn = hand.last_stock_card
            assert self.drawn is not None
            self.log.append(f"You drew {_shown(self.drawn)} from the stock.")
        else:
            try:
                self.decisions.append(Decision(self.hand_number, self.position(), move))
            except ValueError as error:  # the move stands; only its review is lost
                self.decisions.append(Decision(self.hand_number, None, move, error=str(error)))
            verb, _, card_text = move.partition(" ")
            if move == "big gin":
                hand.play(Move("big_gin"))
                assert hand.done, "big gin was listed as legal"
                self.log.append("You went big gin.")
            else:
                card = parse_card(card_text)
                hand.play(Move("discard" if verb == "play" else "knock", card))
                done = {
                    "play": "discarded",
                    "knock": "knocked and discarded",
                    "gin": "went gin and discarded",
                }[verb]
                self.log.append(f"You {done} {_shown(card)}.")
            self.drawn = None
            self.must_knock = False
            if hand.done:
                self._hand_over()

    def _computer_moves(self) -> None:
        """Let the computer play until the person must act or the hand is over."""
        hand = self.hand
        if hand.done or hand.to_move == ME:
            return
        while not hand.done and hand.to_move != ME:
            move = hand.decide(self.opponent)
            top = hand.pile_top
            hand.play(move)
            self._describe_computer(move, top)
        if hand.done:
            self._hand_over()
        elif hand.phase == "draw" and hand.stock_left <= 2 and self._legal_draws() == ["stock"]:
            hand.play(Move("end"))  # nothing to choose: the hand is dead at two
            self.log.append("Two cards left in the stock: the hand is a draw.")
            self._hand_over()

    def _describe_computer(self, move: Move, top: int | None) -> None:
        """Log the computer's ``move`` (``top``: the pile's top before it)."""
        if move.kind == "pass":
            self.log.append("The computer passed the upcard.")
        elif move.kind == "take" and top is not None:
            self.log.append(f"The computer took {_shown(top)} from the pile.")
        elif move.kind == "draw":
            self.log.append("The computer drew from the stock.")
        elif move.kind == "discard" and move.card is not None:
            self.log.append(f"The computer discarded {_shown(move.card)}.")
        elif move.kind == "knock" and move.card is not None:
            gin = self.hand.result["knocker_deadwood"] == 0
            self.log.append(
                f"The computer {'went gin' if gin else 'knocked'} and discarded "
                f"{_shown(move.card)}."
            )
        elif move.kind == "big_gin":
            self.log.append("The computer went big gin.")

    def _hand_over(self) -> None:
        """Score the finished hand into the game and keep its decisions for the review."""
        ended = self.hand.result
        winner = -1 if ended["winner"] is None else int(ended["winner"])
        points = int(ended["points"] or 0)
        outcome = str(ended["outcome"])
        knocker = ended["knocker"]
        result = {
            "hand": self.hand_number,
            "outcome": outcome,
            "winner": None if winner < 0 else ("you" if winner == ME else "computer"),
            "points": points,
            "knocker": None if knocker is None else ("you" if knocker == ME else "computer"),
            "knocker_deadwood": ended["knocker_deadwood"],
            "defender_deadwood": ended["defender_deadwood"],
            "computer_hand": _sorted_for_display(list(self.hand.cards(COMPUTER))),
            "your_hand": _sorted_for_display(list(self.hand.cards(ME))),
            "showdown": self._showdown(),
        }
        self.results.append(result)
        if winner < 0:
            self.log.append(f"Hand over: {'a draw' if outcome == 'draw' else outcome}, no score.")
        else:
            who = "you win" if winner == ME else "the computer wins"
            self.log.append(f"Hand over: {who} {points} points {_OUTCOME_WORDS[outcome]}.")
        # the person's seat is read by the computer's tables too; nothing uses that read
        self.game.record(self.hand, (self.opponent, self.opponent))
        if self.mode == "game" and self.game.over:
            totals = self.game.totals
            self.final = {
                "winner": "you" if winner == ME else "computer",
                "totals": list(totals),
                "shutout": self.game.shutouts > 0,
            }
            self.log.append(
                f"Game over: {self.final['winner']} "
                f"{'win' if winner == ME else 'wins'}, totals "
                f"{totals[0]}:{totals[1]} with bonuses."
            )

    def _showdown(self) -> dict[str, Any] | None:
        """The finished hand laid out (``None`` without a knock): the knocker's melds and
        deadwood, the defender's melds, the cards it laid off on the knocker's melds and
        its deadwood (the engine's count), cards in notation.  The layoffs are the
        defender's best (:func:`~analyzer.gin.evaluator.api.layoff_plan`, chains along
        a run included), as the engine lays off under every preset but ``eaai``."""
        ended = self.hand.result
        knocker = ended["knocker"]
        if not isinstance(knocker, int):
            return None
        knocker_hand = self.hand.hand_mask(knocker)
        laid_out = best_melds(knocker_hand)
        defender = self.hand.hand_mask(1 - knocker)
        laid = 0
        if ended["outcome"] in ("knock", "undercut", "tie"):
            sets = sum(m for m in laid_out.melds if len({c % 13 for c in to_indices(m)}) == 1)
            runs = knocker_hand & ~laid_out.deadwood_cards & ~sets
            laid = to_mask(layoff_plan(defender, sets, runs))
        kept = best_melds(defender & ~laid)

        def seat(player: int) -> str:
            return "you" if player == ME else "computer"

        return {
            "knocker": {
                "who": seat(knocker),
                "melds": [format_hand(m).split() for m in laid_out.melds],
                "deadwood_cards": format_hand(laid_out.deadwood_cards).split(),
                "deadwood": int(ended["knocker_deadwood"] or 0),
            },
            "defender": {
                "who": seat(1 - knocker),
                "melds": [format_hand(m).split() for m in kept.melds],
                "layoffs": format_hand(laid).split(),
                "deadwood_cards": format_hand(kept.deadwood_cards).split(),
                "deadwood": int(ended["defender_deadwood"] or 0),
            },
        }

    def history(self) -> dict[str, Any]:
        """The current (or last) hand as JSON-ready data to keep or to open in the
        advisor: the game's settings, the game's score (points, after the hand once it is
        over), the log, the person's discard decisions (each with its advisor position, the
        CLI's ``--position`` format) and the result once over."""
        hand = self.hand_number
        decisions = [
            {
                "index": index,
                "move": decision.action,
                "position": None if decision.position is None else decision.position.describe(),
                "error": decision.error,
            }
            for index, decision in enumerate(self.decisions)
            if decision.hand == hand
        ]
        over = self.phase in ("hand over", "game over")
        return {
            "kind": "analyzer practice hand",
            "rules": self.rules_preset,
            "opponent": self.opponent_name,
            "seed": self.seed,
            "hand": hand,
            "dealer": "you" if self.hand.dealer == ME else "computer",
            "scores": list(self.scores),
            "log": list(self.log),
            "decisions": decisions,
            "result": self.results[-1] if over and self.results else None,
        }

    # ------------------------------------------------------------------ views

    def position(self) -> Position:
        """What the person knows at a discard decision, as an advisor position.

        Raises ``ValueError`` when the person is not holding 11 cards to discard from.
        """
        hand = self.hand
        if self.phase != "discard":
            raise ValueError("advice is given at your discard decisions only")
        taken = hand.taken
        pile = hand.pile
        known: dict[str, Any] = {
            "hand": hand.cards(ME),
            "pile": pile,
            "opp_took": hand.took(COMPUTER),
            # a throw in neither the pile nor this hand was taken back by the computer:
            # the advisor then counts it as held (taken, not thrown)
            "opp_threw": tuple(
                c for c in hand.threw(COMPUTER) if c in pile or hand.hand_mask(ME) >> c & 1
            ),
            "stock": hand.stock_left,
            "dealer": "me" if hand.dealer == ME else "opp",
            "drawn": taken if taken is not None else self.drawn,
            "from_pile": taken is not None,
            "upcard": hand.upcard,
        }
        try:
            return Position(**known, turn=max(hand.own_turns(ME), 1))
        except ValueError:
            # the advisor's turn check counts one draw per turn from the deal, which a
            # dealer taking the refused upcard on turn 1 breaks; it then infers the turn
            # from the stock, which is exact there
            return Position(**known)

    def view(self) -> dict[str, Any]:
        """Everything the person may see, as JSON-ready data."""
        mask = self.hand.hand_mask(ME)
        hand = _cards(mask)
        pile = [format_card(c) for c in self.hand.pile]
        phase = self.phase
        taken = self.hand.taken
        deadwood = None
        if hand and phase != "discard":
            deadwood = min_deadwood(mask)
        elif hand:
            forbidden = 1 << taken if taken is not None else 0
            deadwood = best_discard(mask, forbidden).deadwood
        return {
            "id": self.game_id,
            "rules": self.rules_preset,
            "opponent": self.opponent_name,
            "mode": self.mode,
            "hints": self.hints,
            "target": self.rules.target,
            "hand_number": self.hand_number,
            "phase": phase,
            "dealer": "you" if self.hand.dealer == ME else "computer",
            "your_turn": phase in ("offer", "draw", "discard"),
            "hand": _sorted_for_display(hand),
            "deadwood": deadwood,
            "taken": format_card(taken) if taken is not None and phase == "discard" else None,
            "drawn": format_card(self.drawn) if self.drawn is not None else None,
            "pile": pile,
            "stock": self.hand.stock_left,
            "computer_cards": len(self.hand.cards(COMPUTER)),
            "computer_holds": _sorted_for_display(list(self.hand.held(COMPUTER))),
            "knock_limit": self.hand.knock_limit,
            "scores": list(self.scores),
            "boxes": list(self.boxes),
            "legal": self.legal_moves(),
            "log": list(self.log),
            "last_result": self.results[-1] if phase in ("hand over", "game over") else None,
            "decisions": len(self.decisions),
            "final": self.final,
            "decision_made": None,
        }


def new_game_id() -> str:
    """An unguessable game id (URL-safe)."""
    return secrets.token_urlsafe(12)


__all__ = [
    "COMPUTER",
    "HINTS",
    "ME",
    "MODES",
    "Decision",
    "IllegalMove",
    "PracticeGame",
    "new_game_id",
]
