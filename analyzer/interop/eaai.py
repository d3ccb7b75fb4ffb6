"""An analyzer policy as a player of the EAAI Gin Rummy framework (``ginrummy.GinRummyPlayer``).

:class:`AgentSession` answers the framework's callbacks, one JSON object per message, from
the player's own view of the hand kept in an engine state array (:mod:`analyzer.gin.engine.transitions`),
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
Every message is checked against the hand as this seat knows it before it changes
anything: seats are 0 or 1, cards are card strings never seen elsewhere in the hand, and
each callback must come at its place in the hand (a draw on the seat's draw, a discard
after it; the pile never holds a card twice).  A message that fails leaves the session
exactly as it was.
``getFinalMelds`` returns ``null`` to play on, or the melds to knock with; after the
opponent knocked it returns the player's own melds (one minimum-deadwood arrangement), as
the interface asks.

The read of the opponent
------------------------
In a game the session reads the opponent as the engine's games do
(:func:`analyzer.gin.play.game_kernels.play_game`): after a hand that ended in a knock,
the opponent's ``reportFinalHand`` shows its cards and the knock is scored in the seat's
view (:meth:`~analyzer.gin.play.hand.Hand.show_knock`); at ``reportScores`` the finished
hand is read with :func:`~analyzer.gin.model.knowledge.outraced` (did the opponent knock
short of gin where this player's knock table would not have?) and counted, and every
later hand of the game starts with the count (``Slot.RACES`` of this seat; the
opponent's count is left 0).  Policies with ``knock_racer`` or ``discard_racer`` play
differently once it is above 0.  The count starts again at 0 with a new game: after a
reported score reached the target, or when a reported score goes down (the framework
started a new game without one reaching it; the hand just reported is then the new
game's first).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ..core.cards import format_card, parse_card
from ..core.limits import check_seed
from ..gin.evaluator.api import best_melds
from ..gin.model.knowledge import outraced
from ..gin.model.policies import Policy
from ..gin.model.rules import Rules
from ..gin.play.game_kernels import MAX_HANDS_PER_GAME
from ..gin.play.hand import Hand
from ..gin.play.moves import Move
from ..gin.play.players import SearchPolicy, rollout_policy

#: Message types answered with a reply line; every other known type is a report.
QUESTIONS = ("willDrawFaceUpCard", "getDiscard", "getFinalMelds")
REPORTS = (
    "startGame",
    "reportDraw",
    "reportDiscard",
    "reportFinalMelds",
    "reportScores",
    "reportLayoff",
    "reportFinalHand",
    "quit",
)


def card_text(card: int) -> str:
    """The framework's spelling of a card (``"TD"``)."""
    return format_card(card).upper()


def meld_texts(melds: list[int]) -> list[list[str]]:
    """Meld masks as lists of card strings."""
    return [[card_text(c) for c in range(52) if meld >> c & 1] for meld in melds]


class AgentSession:
    """One analyzer player (a policy or the search player) answering the framework's
    callbacks for one seat.

    The session keeps the seat's view of the hand as a :class:`~analyzer.gin.play.hand.Hand`
    (:meth:`~analyzer.gin.play.hand.Hand.seat_view`) and plays every reported move through it,
    so the player sees exactly what it sees in a simulation: the cards the opponent took,
    threw and refused, the rules' bonuses and the game score.  The framework reports no
    refusal of an offered upcard; the session infers it from what comes next.

    ``seed`` keys the player's random streams (tie breaks, the search's samples); hand
    ``k`` of the session uses stream ``k``, so a session replays exactly.

    One session plays any number of games (the framework calls ``startGame`` once per
    hand and never says a game is over): once a reported score reaches the rules' target
    (the framework's 100), the next ``startGame`` starts a new game at 0 to 0.  Across
    the hands of a game the session carries its read of the opponent (``races``, see
    the module notes).
    """

    def __init__(self, player: Policy | SearchPolicy, rules: Rules, seed: int = 0) -> None:
        check_seed(seed)
        self.player = player
        self.rules = rules
        self.seed = seed
        self.hands_started = 0
        self.hand: Hand | None = None
        self.me = 0
        self.will_knock = False
        self.opponent_knocked = False
        self.scores = (0, 0)
        #: Earlier hands of this game that showed the opponent a racer (``outraced``).
        self.races = 0
        #: Whether the current hand was read (at its ``reportScores``).
        self.hand_read = False

    # ------------------------------------------------------------------ callbacks
    def start_game(self, player: int, starting: int, cards: list[int]) -> None:
        if starting not in (0, 1):
            raise ValueError(f"starting must be 0 or 1, got {starting!r}")
        if max(self.scores) >= self.rules.target:
            self.scores = (0, 0)  # the last hand ended a game: this one starts the next
            self.races = 0
        self.hand = Hand.seat_view(
            player,
            cards,
            dealer=1 - starting,
            rules=self.rules,
            scores=self.scores,
            seed=self.seed,
            hand_index=self.hands_started,
            races=(self.races, 0) if player == 0 else (0, self.races),
        )
        self.me = player
        self.hands_started += 1
        self.will_knock = False
        self.opponent_knocked = False
        self.hand_read = False

    def will_draw_face_up(self, card: int) -> bool:
        hand = self._playing()
        if hand.upcard is None:
            hand.turn_upcard(card)
        if hand.phase == "offer" and hand.to_move != self.me:
            hand.opponent_plays(Move("pass"))  # it was offered the upcard first
        if hand.to_move != self.me or hand.phase not in ("offer", "draw"):
            raise ValueError(f"not this seat's draw (phase {hand.phase})")
        if hand.pile_top != card:
            raise ValueError(
                f"the pile's top is {card_text(hand.pile_top)}, not {card_text(card)}"
                if hand.pile_top is not None
                else "the pile is empty"
            )
        move = hand.decide(self.player)
        if move.kind == "pass":
            hand.play(move)  # the framework reports no refusal of the upcard
        return move.kind == "take"

    def report_draw(self, player: int, card: int | None) -> None:
        hand = self._playing()
        _check_player(player)
        if hand.phase == "offer" and player == self.me and hand.to_move != self.me:
            hand.opponent_plays(Move("pass"))  # both refused the upcard: this seat draws
        if player == self.me:
            if card is None:
                raise ValueError("this seat's own draw must name the card")
            if hand.to_move != self.me:
                raise ValueError("not this seat's draw")
            if hand.pile_top == card and hand.phase in ("offer", "draw"):
                hand.play(Move("take"))
            else:
                hand.play(Move("draw"), drawn=card)
        elif card is None:
            hand.opponent_plays(Move("draw"))
        else:
            hand.opponent_plays(Move("take"), seen=card)
            if hand.taken != card:
                raise ValueError(
                    f"the opponent took {card_text(card)}, which was not the pile's top"
                )

    def get_discard(self) -> int:
        hand = self._playing()
        if hand.phase != "discard" or hand.to_move != self.me:
            raise ValueError(f"not this seat's discard (phase {hand.phase})")
        move = hand.decide(self.player)
        if move.card is None:  # big gin: the framework has none; knock with gin instead
            move = next(m for m in hand.legal_moves() if m.kind == "knock")
        self.will_knock = move.kind == "knock"
        return int(move.card)  # type: ignore[arg-type]

    def report_discard(self, player: int, card: int) -> None:
        hand = self._playing()
        _check_player(player)
        if hand.to_move != player or hand.phase != "discard":
            raise ValueError(f"seat {player} does not discard now")
        if player == self.me:
            hand.play(Move("knock" if self.will_knock else "discard", card))
        else:
            hand.opponent_plays(Move("discard", card))

    def get_final_melds(self) -> list[list[str]] | None:
        hand = self._playing()
        if not (self.will_knock or self.opponent_knocked):
            return None
        return meld_texts(best_melds(hand.hand_mask(self.me)).melds)

    def report_final_melds(self, player: int) -> None:
        _check_player(player)
        if player != self.me:
            self.opponent_knocked = True

    def report_final_hand(self, player: int, cards: list[int]) -> None:
        """The opponent's cards at the end of a hand that ended in a knock score the knock
        in the seat's view (for the read); any other final hand changes nothing."""
        _check_player(player)
        hand = self._playing()
        if player == self.me or hand.done:
            return
        if hand.knocked_by is not None:
            hand.show_knock(hand.knocked_by, cards)
        elif self.opponent_knocked:
            hand.show_knock(1 - self.me, cards)

    def report_scores(self, scores: list[int]) -> None:
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or not all(_is_int(s) and 0 <= s < 10**6 for s in scores)
        ):
            raise ValueError(f"scores are two whole numbers of points 0-999999, got {scores!r}")
        new = (int(scores[0]), int(scores[1]))
        read = 0 if self.hand_read else self.read_hand()
        if new[0] < self.scores[0] or new[1] < self.scores[1]:
            self.races = read  # a new game began with the hand just reported
        else:
            self.races = min(self.races + read, MAX_HANDS_PER_GAME)
        self.hand_read = self.hand is not None
        self.scores = new

    def read_hand(self) -> int:
        """1 when the current hand, finished, showed the opponent a racer by this
        player's knock table (:func:`~analyzer.gin.model.knowledge.outraced`), else 0 (a
        hand in play, cancelled, or won by a knock this view has not seen scored)."""
        if self.hand is None:
            return 0
        policy = rollout_policy(self.player).to_array()
        return int(outraced(self.hand.state, np.int64(self.me), policy))

    def _playing(self) -> Hand:
        if self.hand is None:
            raise ValueError("no hand started (startGame comes first)")
        return self.hand

    # ------------------------------------------------------------------ protocol
    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one protocol message (see the module docstring): a dict for a
        question or an error, None for a report taken.  A message that fails changes
        nothing: the session is as it was before it."""
        if not isinstance(message, dict):
            return {"error": "a message is a JSON object"}
        kind = message.get("type")
        if not isinstance(kind, str) or kind not in QUESTIONS + REPORTS:
            return {"error": f"unknown message type {_shown(kind)}"}
        saved = self._saved()
        try:
            return self._dispatch(kind, message)
        except (KeyError, TypeError, ValueError) as error:
            self._restore(saved)
            text = f"no field {error}" if isinstance(error, KeyError) else str(error)
            return {"error": " ".join(f"bad {kind} message: {text}".split())}

    def _dispatch(self, kind: str, message: dict[str, Any]) -> dict[str, Any] | None:
        if kind == "startGame":
            cards = message["cards"]
            if not isinstance(cards, list):
                raise TypeError(f"cards must be a list of cards, got {_shown(cards)}")
            self.start_game(
                _seat(message["player"], "player"),
                _seat(message["starting"], "starting"),
                [_card(c) for c in cards],
            )
        elif kind == "willDrawFaceUpCard":
            return {"draw": self.will_draw_face_up(_card(message["card"]))}
        elif kind == "reportDraw":
            card = message.get("card")
            self.report_draw(
                _seat(message["player"], "player"), None if card is None else _card(card)
            )
        elif kind == "getDiscard":
            return {"card": card_text(self.get_discard())}
        elif kind == "reportDiscard":
            self.report_discard(_seat(message["player"], "player"), _card(message["card"]))
        elif kind == "getFinalMelds":
            return {"melds": self.get_final_melds()}
        elif kind == "reportFinalMelds":
            self.report_final_melds(_seat(message["player"], "player"))
        elif kind == "reportScores":
            self.report_scores(message["scores"])
        elif kind == "reportFinalHand":
            cards = message["cards"]
            if not isinstance(cards, list):
                raise TypeError(f"cards must be a list of cards, got {_shown(cards)}")
            self.report_final_hand(_seat(message["player"], "player"), [_card(c) for c in cards])
        return None

    def _saved(self) -> tuple[Any, ...]:
        """What a message may change: a copy of the hand (its state, random stream and
        counters) and the session's fields (the read of the opponent included)."""
        return (
            None if self.hand is None else self.hand.copy(),
            self.me,
            self.will_knock,
            self.opponent_knocked,
            self.scores,
            self.hands_started,
            self.races,
            self.hand_read,
        )

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (
            self.hand,
            self.me,
            self.will_knock,
            self.opponent_knocked,
            self.scores,
            self.hands_started,
            self.races,
            self.hand_read,
        ) = saved


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")


def _is_int(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """``repr(value)``, cut to 40 characters (a message's values may be long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _seat(value: object, name: str) -> int:
    """A seat number of a message: the JSON integer 0 or 1."""
    if not _is_int(value) or value not in (0, 1):
        raise ValueError(f"{name} must be 0 or 1, got {_shown(value)}")
    return int(value)


def _card(value: object) -> int:
    """A card of a message: a card string such as ``"TD"``."""
    if not isinstance(value, str) or len(value) > 8:
        raise TypeError(f'a card is a string such as "TD", got {_shown(value)}')
    return parse_card(value)
