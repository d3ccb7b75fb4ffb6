"""A position the advisor reads: what the player to discard knows, and its legal actions.

See :mod:`analyzer.gin.play.advisor` for the method the advisor applies to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from numbers import Integral
from typing import Any

import numpy as np

from ....core.cards import (
    CARD_POINTS,
    check_card,
    format_card,
    format_hand,
    parse_card,
    parse_hand,
)
from ...engine.transitions import MAX_DRAWS
from ...evaluator.partition import discard_deadwoods_kernel, min_deadwood_kernel
from ...model.rules import STANDARD, Rules
from .constants import UNDEALT

#: Seats in the rollout state: this player is seat 0.
ME, OPP = 0, 1


class ActionKind(IntEnum):
    """What an action does with the 11 cards held."""

    PLAY = 0
    """Discard a card and play on."""
    KNOCK = 1
    """Discard a card and knock (gin when no deadwood is left)."""
    BIG_GIN = 2
    """Go out with all 11 cards melded (rules with ``big_gin``)."""


# ------------------------------------------------------------------------ position


@dataclass(frozen=True)
class Position:
    """What the player to discard knows: the fields of :data:`~.inputs.POSITION_FIELDS`
    (their meaning, their defaults in notation), here with cards as indices 0-51 (the
    pile bottom to top) and the score as (mine, the opponent's) in points;
    :meth:`from_options` and :meth:`from_json` read the notation.

    ``stock`` defaults to ``31 - len(pile)`` (the whole pile given) or, with ``turn``,
    to the stock left after the draws that turn implies; ``turn`` (this player's own
    turn number, counted from 1, this draw included) defaults to the turn implied by the
    stock, assuming every draw but the recorded pile takes came from the stock.  When
    ``stock`` says the pile is longer than ``pile``, ``pile`` is its top part and the
    rest is treated as unknown cards (except the opponent's throws not seen elsewhere).
    """

    hand: tuple[int, ...]
    pile: tuple[int, ...] = ()
    opp_took: tuple[int, ...] = ()
    opp_threw: tuple[int, ...] = ()
    stock: int | None = None
    turn: int | None = None
    dealer: str = "opp"
    drawn: int | None = None
    """Optional unless ``from_pile`` (a card taken from the pile may not be thrown this
    turn)."""
    from_pile: bool = False
    score: tuple[int, int] | None = None
    upcard: int | None = None

    def __post_init__(self) -> None:
        self._check_fields()
        if len(self.hand) != 11:
            raise ValueError(
                f"wrong hand size: {len(self.hand)} cards, expected 11 (or 10 plus the drawn card)"
            )
        if self.dealer not in ("me", "opp"):
            raise ValueError(f"dealer must be 'me' or 'opp', got {self.dealer!r}")
        if self.drawn is not None and self.drawn not in self.hand:
            raise ValueError(f"the drawn card {format_card(self.drawn)} is not in the hand")
        if self.from_pile and self.drawn is None:
            raise ValueError("a card taken from the pile must be named: give the drawn card")
        places = {"hand": self.hand, "pile": self.pile}
        for name, group in places.items():
            if len(set(group)) != len(group):
                raise ValueError(f"a card is listed twice in the {name}")
        for name in ("opp_took", "opp_threw"):
            if len(set(getattr(self, name))) != len(getattr(self, name)):
                raise ValueError(f"a card is listed twice in {name.replace('_', '-')}")
        for card in set(self.hand) & set(self.pile):
            raise ValueError(f"{format_card(card)} is in two places: hand and pile")
        for card in self.opp_took:
            if card in self.opp_threw:
                continue
            where = "hand" if card in self.hand else "pile" if card in self.pile else None
            if where:
                raise ValueError(
                    f"{format_card(card)} is in the {where}, but the opponent "
                    "took it and never threw it"
                )
        if len(self.known_opp_cards) > 10:
            raise ValueError(
                f"the opponent took {len(self.known_opp_cards)} cards it has not "
                "thrown, but holds only 10"
            )
        self._resolve_counts()
        if self.score is not None and min(self.score) < 0:
            raise ValueError(f"scores must be >= 0, got {self.score[0]}:{self.score[1]}")

    def _check_fields(self) -> None:
        """Each field of the type and range it is documented with, as :class:`Hand`'s
        inputs are (``TypeError`` or ``ValueError`` naming the field), before anything is
        read from them; the card lists become tuples of ``int``."""
        for name in ("hand", "pile", "opp_took", "opp_threw"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
                raise TypeError(
                    f"{name} must be a list of card indices 0-51 (notation goes through "
                    f"Position.from_options), got {value!r}"
                )
            object.__setattr__(self, name, tuple(_card(card, name) for card in value))
        for name in ("drawn", "upcard"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _card(getattr(self, name), name))
        for name in ("stock", "turn"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, Integral)):
                raise TypeError(f"{name} must be a whole number or None, got {value!r}")
            if value is not None:
                object.__setattr__(self, name, int(value))
        if not isinstance(self.dealer, str):
            raise TypeError(f"dealer must be 'me' or 'opp', got {self.dealer!r}")
        if not isinstance(self.from_pile, bool):
            raise TypeError(f"from_pile must be True or False, got {self.from_pile!r}")
        if self.score is not None:
            score = self.score
            if isinstance(score, (str, bytes)) or not isinstance(score, (Sequence, np.ndarray)):
                raise TypeError(f"score must be (mine, theirs) in points or None, got {score!r}")
            if len(score) != 2 or any(
                isinstance(s, bool) or not isinstance(s, Integral) for s in score
            ):
                raise ValueError(f"score must be two whole numbers (mine, theirs), got {score!r}")
            object.__setattr__(self, "score", (int(score[0]), int(score[1])))

    def _resolve_counts(self) -> None:
        """Fill in ``stock``, ``turn`` and ``upcard`` and check them (frozen: setattr)."""
        takes = len(self.opp_took) + int(self.from_pile)
        stock = self.stock
        if stock is None:
            stock = (
                UNDEALT - len(self.pile)
                if self.turn is None
                else UNDEALT - (self._draws_before(self.turn) - takes)
            )
        if not 2 <= stock <= UNDEALT:
            raise ValueError(f"the stock must hold 2-{UNDEALT} cards with 11 in hand, got {stock}")
        if len(self.pile) > UNDEALT - stock:
            raise ValueError(
                f"more cards than the deck holds: {len(self.pile)} pile cards, "
                f"{stock} in the stock and 21 in the hands make "
                f"{len(self.pile) + stock + 21} > 52"
            )
        buried = self.known_buried
        if len(buried) > self.hidden_pile(stock):
            card = format_card(buried[0])
            raise ValueError(
                f"the opponent threw {card}, which is neither in the pile nor in "
                f"the hand, and the stock count {stock} leaves no room for it "
                "under the pile"
            )
        turn = self.turn
        if turn is None:
            draws = UNDEALT - stock + takes
            turn = max(1, (draws + 1) // 2 if self.dealer == "opp" else draws // 2)
        if turn < 1:
            raise ValueError(f"turn must be >= 1, got {turn}")
        if self.turn is not None:
            self._check_turn(turn, stock)
        upcard = self.upcard
        if (
            upcard is None
            and self.hidden_pile(stock) == 0
            and self.pile
            and self.pile[0] not in self.opp_threw
        ):
            upcard = self.pile[0]  # the whole pile: its bottom card is the upcard
        object.__setattr__(self, "stock", stock)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "upcard", upcard)

    def _check_turn(self, turn: int, stock: int) -> None:
        """A given turn must fit the stock: the opponent's draws that were not pile
        takes came from the stock, and a hand has at most ``MAX_DRAWS`` draws."""
        if self._draws_before(turn) > MAX_DRAWS:
            raise ValueError(
                f"turn {turn} is past the last turn of a hand ({MAX_DRAWS} draws in all)"
            )
        opponent_stock_draws = self._draws_before(turn) - turn - len(self.opp_took)
        if opponent_stock_draws > UNDEALT - stock:
            raise ValueError(
                f"turn {turn} does not fit a stock of {stock}: the opponent "
                f"would have drawn {opponent_stock_draws} stock cards, but only "
                f"{UNDEALT - stock} have left it"
            )

    def _draws_before(self, turn: int) -> int:
        """Draws in the hand so far (both players) when this player is on ``turn``."""
        return 2 * turn - 1 if self.dealer == "opp" else 2 * turn

    @property
    def known_opp_cards(self) -> tuple[int, ...]:
        """Cards the opponent surely holds: taken from the pile and not thrown."""
        return tuple(c for c in self.opp_took if c not in self.opp_threw)

    @property
    def known_buried(self) -> tuple[int, ...]:
        """Opponent throws seen neither in the pile nor in the hand: buried in the pile."""
        return tuple(c for c in self.opp_threw if c not in self.pile and c not in self.hand)

    def hidden_pile(self, stock: int | None = None) -> int:
        """Pile cards under the given ones (the pile is ``31 - stock`` cards long)."""
        left = self.stock if stock is None else stock
        if left is None:
            raise ValueError("the position gives no stock count")
        return UNDEALT - left - len(self.pile)

    @property
    def unseen(self) -> tuple[int, ...]:
        """Cards whose place (opponent's hand, stock or buried pile) is unknown."""
        seen = set(self.hand) | set(self.pile) | set(self.known_opp_cards) | set(self.known_buried)
        return tuple(c for c in range(52) if c not in seen)

    @property
    def taken(self) -> int | None:
        """The card that may not be thrown this turn (taken from the pile), if any."""
        return self.drawn if self.from_pile else None

    @classmethod
    def from_options(
        cls,
        hand: str,
        pile: str = "",
        opp_took: str = "",
        opp_threw: str = "",
        stock: int | None = None,
        turn: int | None = None,
        dealer: str = "opp",
        drawn: str | None = None,
        from_pile: bool = False,
        score: str | None = None,
        upcard: str | None = None,
    ) -> Position:
        """A position from notation strings (``score`` as ``"45:80"``).

        ``hand`` holds 11 cards, or 10 with ``drawn`` the card drawn.

        >>> p = Position.from_options("4c 5c 6c 7d 7h 7s 9s Ts Js Kd", drawn="2h", stock=20)
        >>> p.stock, p.turn, format_hand(p.pile)
        (20, 6, '')
        """
        named = {"hand": hand, "pile": pile, "opp_took": opp_took, "opp_threw": opp_threw}
        for name, text in [*named.items(), ("drawn", drawn), ("upcard", upcard)]:
            if not isinstance(text, str) and (text is not None or name in named):
                raise TypeError(f"{name} must be card notation such as 'As 2s', got {text!r}")
        cards = parse_hand(hand)  # the size is checked by the constructor
        drawn_card = parse_card(drawn) if drawn else None
        if drawn_card is not None and len(cards) == 10:
            if drawn_card in cards:
                raise ValueError(f"the drawn card {drawn} is also listed in the hand")
            cards.append(drawn_card)
        return cls(
            hand=tuple(cards),
            pile=tuple(parse_hand(pile)),
            opp_took=tuple(parse_hand(opp_took)),
            opp_threw=tuple(parse_hand(opp_threw)),
            stock=stock,
            turn=turn,
            dealer=dealer,
            drawn=drawn_card,
            from_pile=from_pile,
            score=parse_score(score) if score else None,
            upcard=parse_card(upcard) if upcard else None,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Position:
        """A position from a JSON object with the keys of :meth:`from_options`.

        Card lists may be notation strings or lists of tokens; ``score`` is ``"45:80"`` or
        ``[45, 80]``.

        >>> Position.from_json({"hand": "4c 5c 6c 7d 7h 7s 9s Ts Js Kd 2h", "pile": "Qh 3d"}).stock
        29
        """
        # imported here, not when the module loads: the declaration's help is no kernel's,
        # so it stays out of the kernel cache's key (analyzer._kernel_cache)
        from .inputs import POSITION_FIELDS

        names = [spec.name for spec in POSITION_FIELDS]
        for key in data:
            if key not in names:
                raise ValueError(
                    f"unknown key {key!r} in the position; keys are {', '.join(names)}"
                )
        args: dict[str, Any] = {}
        for spec in POSITION_FIELDS:
            value = data.get(spec.name)
            if value is None:  # null or absent: the default
                if spec.required:
                    raise ValueError(f"the position has no {spec.name!r}")
                continue
            args[spec.name] = spec.from_json(value)
        return cls.from_options(**args)

    def knock_limit(self, rules: Rules) -> int:
        """The most deadwood (points) a knock may leave in this hand under ``rules``."""
        if rules.straight:
            return 0
        if not rules.oklahoma:
            return rules.knock_limit
        if self.upcard is None:
            raise ValueError("oklahoma rules need the upcard: give the upcard or the whole pile")
        if self.upcard % 13 == 0 and rules.oklahoma_ace == "gin":
            return 0
        return int(CARD_POINTS[self.upcard])

    def describe(self) -> dict[str, Any]:
        """The position in notation (for reports and JSON)."""
        return {
            "hand": format_hand(list(self.hand)),
            "pile": " ".join(format_card(c) for c in self.pile),  # bottom to top, not sorted
            "opp_took": format_hand(list(self.opp_took)),
            "opp_threw": format_hand(list(self.opp_threw)),
            "stock": self.stock,
            "turn": self.turn,
            "dealer": self.dealer,
            "drawn": None if self.drawn is None else format_card(self.drawn),
            "from_pile": self.from_pile,
            "score": None if self.score is None else list(self.score),
            "upcard": None if self.upcard is None else format_card(self.upcard),
        }


def _card(value: object, name: str) -> int:
    """``value`` as a card index 0-51 (an integer: not a float, a bool or a string), or
    ``ValueError`` naming the field ``name``."""
    try:
        return check_card(value)
    except ValueError:
        raise ValueError(f"{name}: bad card index {value!r}: expected an integer 0-51") from None


def check_game_position(position: Position, rules: Rules) -> None:
    """Raise ``ValueError`` when game-win advice cannot be given for ``position`` under
    ``rules`` (checked before any equity table is built)."""
    if position.score is None:
        return
    if rules.hollywood:
        raise ValueError("game-win advice is not supported with hollywood scoring")
    if max(position.score) >= rules.target:
        raise ValueError(
            f"score {position.score[0]}:{position.score[1]} already reaches "
            f"the target {rules.target}"
        )


def parse_score(text: str) -> tuple[int, int]:
    """``"45:80"`` -> ``(45, 80)`` (mine first).

    >>> parse_score("45:80")
    (45, 80)
    """
    if not isinstance(text, str):
        raise TypeError(f"score must be notation such as '45:80', got {text!r}")
    mine, sep, theirs = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(mine), int(theirs)
    except ValueError:
        raise ValueError(f"bad score {text!r}: expected mine:theirs, e.g. 45:80") from None


# ------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """One thing to do with the 11 cards: ``kind`` with ``card`` (None for big gin)."""

    kind: ActionKind
    card: int | None
    deadwood: int
    """Deadwood (points) left after the discard (of the 11 cards for big gin)."""

    @property
    def verb(self) -> str:
        """``play``, ``knock``, ``gin`` or ``big gin``."""
        if self.kind == ActionKind.BIG_GIN:
            return "big gin"
        return "play" if self.kind == ActionKind.PLAY else "gin" if self.deadwood == 0 else "knock"

    @property
    def name(self) -> str:
        """``knock Kd``, ``gin Kd``, ``play Kd`` or ``big gin``."""
        return self.verb if self.card is None else f"{self.verb} {format_card(self.card)}"

    def describe(self, symbols: bool = False, gerund: bool = False) -> str:
        """In words: ``knock, discarding K♦`` (or ``knocking (discarding K♦)``)."""
        words = {
            "play": ("play on", "playing on"),
            "knock": ("knock", "knocking"),
            "gin": ("go gin", "going gin"),
            "big gin": ("go big gin", "going big gin"),
        }
        text = words[self.verb][gerund]
        if self.card is None:
            return text
        card = format_card(self.card, symbols)
        return f"{text} (discarding {card})" if gerund else f"{text}, discarding {card}"

    @property
    def ends_hand(self) -> bool:
        """Whether the action ends the hand (a knock, gin or big gin)."""
        return self.kind != ActionKind.PLAY


def legal_actions(position: Position, rules: Rules = STANDARD) -> list[Action]:
    """Every legal action: play on with each discard, knock (or gin) with each discard
    leaving deadwood within the knock limit, and big gin when the rules allow it.

    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=20)
    >>> [a.name for a in legal_actions(p) if a.ends_hand]
    ['knock Qd', 'knock Kd']
    """
    limit = position.knock_limit(rules)
    deadwoods = _deadwood_after_each_discard(position)
    actions = [Action(ActionKind.PLAY, card, dw) for card, dw in deadwoods.items()]
    actions += [Action(ActionKind.KNOCK, card, dw) for card, dw in deadwoods.items() if dw <= limit]
    whole = int(min_deadwood_kernel(np.int64(card_mask(position.hand))))
    if rules.big_gin and whole == 0:
        actions.append(Action(ActionKind.BIG_GIN, None, 0))
    return actions


def parse_action(text: str, position: Position, rules: Rules = STANDARD) -> Action:
    """The action named ``knock Kd``, ``gin Kd``, ``play Kd`` or ``big gin``; an action
    the rules or the position forbid raises ``ValueError`` saying why.

    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=20)
    >>> parse_action("knock Kd", p).deadwood
    10
    """
    words = text.lower().replace("-", " ").split()
    if words == ["big", "gin"]:
        if not rules.big_gin:
            raise ValueError("cannot go big gin: these rules have no big gin")
        if min_deadwood_kernel(np.int64(card_mask(position.hand))) != 0:
            raise ValueError("cannot go big gin: the 11 cards are not all melded")
        return Action(ActionKind.BIG_GIN, None, 0)
    if len(words) != 2 or words[0] not in ("knock", "gin", "play", "discard"):
        raise ValueError(
            f"bad action {text!r}: expected 'knock Kd', 'gin Kd', 'play Kd' or 'big gin'"
        )
    card = parse_card(words[1])
    name = format_card(card)
    if card not in position.hand:
        raise ValueError(f"cannot discard {name}: it is not in the hand")
    if card == position.taken:
        raise ValueError(f"cannot discard {name}: it was just taken from the pile")
    deadwood = _deadwood_after_each_discard(position)[card]
    if words[0] in ("play", "discard"):
        return Action(ActionKind.PLAY, card, deadwood)
    limit = position.knock_limit(rules)
    if words[0] == "gin" and deadwood > 0:
        raise ValueError(f"cannot go gin discarding {name}: {deadwood} deadwood is left")
    if deadwood > limit:
        raise ValueError(
            f"cannot knock discarding {name}: {deadwood} deadwood is left, over "
            f"the knock limit of {limit}{_limit_reason(position, rules)}"
        )
    return Action(ActionKind.KNOCK, card, deadwood)


def _limit_reason(position: Position, rules: Rules) -> str:
    if rules.straight:
        return " (straight gin: only gin ends the hand)"
    if rules.oklahoma and position.upcard is not None:
        return f" (oklahoma, upcard {format_card(position.upcard)})"
    return ""


def my_pile_throws(position: Position) -> list[int]:
    """Pile cards that must be this player's throws: not the opponent's, not the upcard."""
    return [c for c in position.pile if c not in position.opp_threw and c != position.upcard]


def card_mask(cards: Iterable[int]) -> int:
    """The 52-bit mask of ``cards`` (card indices)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _deadwood_after_each_discard(position: Position) -> dict[int, int]:
    """Least deadwood (points) left after each allowed discard, in card order."""
    hand = np.int64(card_mask(position.hand))
    allowed = hand & ~np.int64(0 if position.taken is None else 1 << position.taken)
    out = np.zeros(52, dtype=np.int64)
    discard_deadwoods_kernel(hand, allowed, out)
    return {c: int(out[c]) for c in sorted(position.hand) if c != position.taken}


__all__ = [
    "ME",
    "OPP",
    "UNDEALT",
    "Action",
    "ActionKind",
    "Position",
    "card_mask",
    "legal_actions",
    "my_pile_throws",
    "parse_action",
    "parse_score",
]
