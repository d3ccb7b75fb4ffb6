"""The plain-rummy practice table: a person against one to three ``rummy-expert`` seats,
hand by hand, with the expert's hints and a review of each hand in words.

A :class:`RummyGame` holds the hand being played as a
:class:`~analyzer.rummy.practice.PracticeHand` (full information: the table deals); the
person's moves are checked and played through it, and the computer seats play by the
engine's own step (:meth:`~analyzer.rummy.hand.Hand.advance`) until the person must move
again, so every move is made by the kernels of a simulation.  The person's seat moves one
to the left each hand (in hand 1 the person plays first).  Moves and cards in the API are
in notation (``meld 4c 5c 6c``, ``layoff 8s 2``, ``discard Kd``); the log and the advice
are written for a person, cards in suit symbols (``K♦``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import format_card
from ..rummy.hand import TABLE_PLAYERS
from ..rummy.moves import Move
from ..rummy.practice import EXPERT, PracticeHand
from ..rummy.rules import RummyRules


def _shown(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(format_card(c, symbols=True) for c in sorted(cards))


@dataclass
class RummyGame:
    """Hands of plain rummy between the person and ``players - 1`` seats of
    ``rummy-expert``, with each seat's points added up hand by hand (the person's first).

    >>> game = RummyGame("g", RummyRules(), "standard", players=3, seed=5)
    >>> game.view()["phase"], game.view()["your_turn"]
    ('draw', True)
    """

    game_id: str
    rules: RummyRules
    rules_preset: str
    players: int = 2
    seed: int = 0
    hints: str = "before"
    hand_number: int = 0
    scores: list[int] = field(default_factory=list)
    """Points won so far, by player (the person first, then the seats to their left)."""
    log: list[str] = field(default_factory=list)
    outcome: str = ""
    """How the last finished hand ended, in a sentence ("" before the first)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    hand: PracticeHand = field(init=False, repr=False)
    me: int = field(init=False, default=0)
    """The person's seat in the hand being played (seat 0 plays first)."""

    def __post_init__(self) -> None:
        if self.players not in TABLE_PLAYERS:
            raise ValueError(f"a practice table seats 2-4 players, got {self.players!r}")
        if self.hints not in ("before", "off"):
            raise ValueError(f"hints must be before or off, got {self.hints!r}")
        self.scores = [0] * self.players
        self.deal()

    # ------------------------------------------------------------------ names
    def player_of(self, seat: int) -> int:
        """The player (0: the person, then the others to their left) in ``seat``."""
        return (seat - self.me) % self.players

    def name(self, seat: int) -> str:
        player = self.player_of(seat)
        return "you" if player == 0 else f"{EXPERT} {player}"

    def sentence_name(self, seat: int) -> str:
        """The name of ``seat`` opening a sentence (``You``; the others' names as they are)."""
        name = self.name(seat)
        return "You" if name == "you" else name

    # ------------------------------------------------------------------ flow
    def deal(self) -> None:
        """Deal the next hand and let the computer seats play until the person's move."""
        if self.hand_number and not self.hand.done:
            raise ValueError("the hand is not over yet")
        self.me = self.hand_number % self.players
        hand = PracticeHand.deal(
            self.rules, self.players, self.seed, self.hand_number, people=(self.me,)
        )
        assert isinstance(hand, PracticeHand)  # dealt by the class it is called on
        self.hand = hand
        self.hand_number += 1
        order = "first" if self.me == 0 else f"in seat {self.me + 1} of {self.players}"
        self.log = [f"Hand {self.hand_number}: you play {order}."]
        self._computers()

    def move(self, text: str) -> None:
        """Make the person's move (a legal move's text), then the computer seats'.
        ``ValueError`` (the hand unchanged) when it is not legal now."""
        hand = self.hand
        if hand.done:
            raise ValueError("the hand is over: deal the next one")
        if hand.to_move != self.me:
            raise ValueError("it is not your move")
        move = Move.parse(text)
        top = hand.pile[-1] if hand.pile else None
        hand.play(move)
        self.log.append(self._words(self.me, move, top))
        self._computers()

    def _computers(self) -> None:
        """The computer seats' phases until the person must move, each decided by
        ``rummy-expert`` as in a simulation and played move by move (so that the log can
        name the card each move takes)."""
        hand = self.hand
        while not hand.done and hand.to_move != self.me:
            seat = hand.to_move
            for move in hand.decide(EXPERT):
                top = hand.pile[-1] if hand.pile else None
                hand.play(move)
                self.log.append(self._words(seat, move, top))
        if hand.done:
            self._score()

    def _words(self, seat: int, move: Move, top: int | None) -> str:
        """One move in the log: who did what, cards in symbols (``top``: the pile's top
        before the move)."""
        if move.kind == "draw":
            text = "drew from the stock"
        elif move.kind in ("take", "call"):
            taken = "" if top is None else f" {_shown([top])}"
            text = (
                f"took{taken} from the pile"
                if move.kind == "take"
                else f"called rummy on the board and took{taken}"
            )
        elif move.kind == "pass":
            text = "let the discard go"
        elif move.kind == "layoff":
            assert move.meld is not None
            cards, owner = self.hand.melds[move.meld]
            whose = "your" if owner == self.me else f"{self.name(owner)}'s"
            text = f"laid off {_shown(move.cards)} on {whose} meld {_shown(cards)}"
        else:
            verb = "laid down" if move.kind == "meld" else "threw"
            text = f"{verb} {_shown(move.cards)}"
        return f"{self.sentence_name(seat)} {text}."

    def _score(self) -> None:
        """Add the finished hand's points to its winner's score; say how it ended."""
        winner = self.hand.winner
        if winner is None:
            why = "the stock ran out" if self.hand.end == "stock" else "it went on too long"
            self.outcome = f"The hand is void ({why}): nobody scores."
        else:
            self.scores[self.player_of(winner)] += self.hand.points
            rummy = " Rummy, for double points," if self.hand.rummy else ""
            self.outcome = (
                f"{self.sentence_name(winner)} went out{rummy} and scored {self.hand.points} "
                "points."
            )
        self.log.append(self.outcome)

    # ------------------------------------------------------------------ advice
    def hint(self) -> dict[str, Any]:
        """``rummy-expert``'s moves for the person now (to the end of the phase) and why."""
        if self.hand.done or self.hand.to_move != self.me:
            raise ValueError("no hint: it is not your move")
        moves, reason = self.hand.hint()
        return {"moves": [str(m) for m in moves], "reason": reason}

    def review(self) -> dict[str, Any]:
        """The finished hand's review in words."""
        if not self.hand.done:
            raise ValueError("the hand is not over yet: its review comes at its end")
        # the hand's own last line names seats by number: the table names them as it does
        return {"hand": self.hand_number, "lines": [*self.hand.review()[:-1], self.outcome]}

    # ------------------------------------------------------------------ views
    def view(self) -> dict[str, Any]:
        """Everything the person may see, as JSON-ready data: each seat named and listed
        from the person's (``players``: name, cards held, cards taken from the pile and
        still held, points so far), the table's melds with their owners' names, the
        pile, the stock, the person's hand and legal moves."""
        hand = self.hand
        seats = [(self.me + k) % self.players for k in range(self.players)]
        done = hand.done
        mine = not done and hand.to_move == self.me

        def cards(held: list[int]) -> list[str]:
            return [format_card(c) for c in held]

        view: dict[str, Any] = {
            "id": self.game_id,
            "rules": self.rules_preset,
            "players": self.players,
            "opponent": EXPERT,
            "hints": self.hints,
            "hand_number": self.hand_number,
            "phase": "hand over" if done else hand.phase,
            "your_turn": mine,
            "to_move": None if done else self.name(hand.to_move),
            "seats": [
                {
                    "name": self.name(seat),
                    "cards": hand.hand_sizes[seat],
                    "took": cards(hand.took(seat)),
                    "score": self.scores[self.player_of(seat)],
                    "to_move": not done and hand.to_move == seat,
                }
                for seat in seats
            ],
            "hand": cards(hand.cards(self.me)),
            "taken": None if hand.taken is None or done else format_card(hand.taken),
            "pile": cards(hand.pile),
            "stock": hand.stock_left,
            "melds": [
                {"index": index, "cards": cards(meld), "owner": self.name(owner)}
                for index, (meld, owner) in enumerate(hand.melds)
            ],
            "legal": [str(move) for move in hand.legal_moves()] if mine else [],
            "log": list(self.log),
            "result": None,
        }
        if done:
            winner = hand.winner
            view["result"] = {
                "winner": None if winner is None else self.name(winner),
                "points": hand.points,
                "rummy": hand.rummy,
                "end": hand.end,
                "hands": {self.name(s): [format_card(c) for c in hand.cards(s)] for s in seats},
            }
        return view


__all__ = ["RummyGame"]
