"""Gin rummy rules as frozen, validated data, with named presets.

The default :class:`Rules` is the game of the seed rule sheet: knock at 10 or less,
gin bonus 25, undercut bonus 25 (a tie is an undercut), the upcard offered first to the
non-dealer, the hand dead when two stock cards remain, game to 100 with a 100-point game
bonus, a 25-point line (box) bonus per hand won paid at the end, a shutout doubling the
winner's total, and the winner of a hand dealing the next.

Kernels never see this class: :meth:`Rules.to_array` packs it into an ``np.int64``
array indexed by :class:`RuleField`.

>>> PRESETS["classic"].gin_bonus, PRESETS["classic"].undercut_bonus
(20, 10)
>>> Rules().with_overrides(["knock_limit=7", "oklahoma=yes"]).knock_limit
7
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from enum import IntEnum

from ...core.spec import Presets, Spec

_CHOICES: dict[str, tuple[str, ...]] = {
    "oklahoma_ace": ("one", "gin"),
    "stock_rule": ("dead-at-two", "wall"),
    "opening": ("upcard", "eleven"),
    "line_bonus_timing": ("end", "immediate"),
    "shutout": ("double", "plus100", "bonus200", "none"),
    "next_dealer": ("winner", "alternate"),
    "three_player": ("dealer-sits-out", "loser-sits-out"),
    "defender_layoff": ("optimal", "melds-then-greedy"),
    "knocker_melds": ("fewest-layoffs", "random-best"),
}


#: Range (inclusive, points) of every integer rule.  Bonuses up to 1,000 keep a hand's
#: score (doubled by an Oklahoma spade) and a game's totals far inside int64, and a
#: target of at most 500 keeps the score tables of games and the equity DP under about
#: 0.5 GB (they grow with the square of the target).
INT_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "target": (1, 500),
    "game_bonus": (0, 1000),
    "line_bonus": (0, 1000),
}


def ranges_text() -> str:
    """The integer rules' ranges, for --help: ``knock_limit 0-10, ...``."""
    return ", ".join(f"{name} {low}-{high}" for name, (low, high) in INT_RANGES.items())


class RuleField(IntEnum):
    """Index of each rule in :meth:`Rules.to_array`."""

    KNOCK_LIMIT = 0
    GIN_BONUS = 1
    UNDERCUT_BONUS = 2
    TIE_IS_UNDERCUT = 3
    BIG_GIN = 4
    BIG_GIN_BONUS = 5
    OKLAHOMA = 6
    OKLAHOMA_ACE_GIN_ONLY = 7
    OKLAHOMA_SPADE_DOUBLE = 8
    STRAIGHT = 9
    WALL = 10
    OPENING_ELEVEN = 11
    TARGET = 12
    GAME_BONUS = 13
    LINE_BONUS = 14
    LINE_IMMEDIATE = 15
    SHUTOUT = 16
    WINNER_DEALS = 17
    HOLLYWOOD = 18
    DEFENDER_GREEDY = 19
    KNOCKER_RANDOM = 20


class Shutout(IntEnum):
    """Codes of :attr:`Rules.shutout` in the rules array."""

    DOUBLE = 0
    PLUS100 = 1
    BONUS200 = 2
    NONE = 3


@dataclass(frozen=True)
class Rules(Spec):
    """Every rule choice of a gin rummy hand and game (points unless stated), validated as
    every :class:`~analyzer.core.spec.Spec`."""

    knock_limit: int = 10
    """Highest deadwood a player may knock with (0-10); 0 allows gin only."""
    gin_bonus: int = 25
    """Bonus to a player who goes gin (all 10 cards melded), on top of the opponent's
    deadwood."""
    undercut_bonus: int = 25
    """Bonus to the defender whose deadwood (after laying off) is below the knocker's."""
    tie_is_undercut: bool = True
    """Defender's deadwood equal to the knocker's is an undercut (most books); if
    False the hand scores 0 (OpenSpiel)."""
    big_gin: bool = False
    """Going out with all 11 cards melded after the draw, without discarding."""
    big_gin_bonus: int = 31
    """Bonus for big gin, on top of the opponent's deadwood."""
    oklahoma: bool = False
    """The first upcard's value sets the hand's knock limit (face cards 10)."""
    oklahoma_ace: str = "one"
    """With an ace upcard: knock at 1 or less (``one``) or gin only (``gin``)."""
    oklahoma_spade_double: bool = True
    """In Oklahoma, a spade upcard doubles the hand's score, bonuses included."""
    straight: bool = False
    """Straight gin: no knocking, only gin ends a hand."""
    stock_rule: str = "dead-at-two"
    """``dead-at-two``: the hand is a draw when two stock cards remain; ``wall``
    (OpenSpiel): then the upcard may still be taken, but only to knock."""
    opening: str = "upcard"
    """``upcard``: 10 cards each and the upcard offered to the non-dealer then the
    dealer; ``eleven``: 11 cards to the non-dealer, who starts by discarding (RLCard)."""
    target: int = 100
    """Score that ends the game."""
    game_bonus: int = 100
    """Bonus to the player who reaches the target first."""
    line_bonus: int = 25
    """Line (box) bonus per hand won; 0 for none."""
    line_bonus_timing: str = "end"
    """``end``: line bonuses added when the game ends; ``immediate``: with each hand."""
    shutout: str = "double"
    """When the loser scored nothing: ``double`` the winner's total, ``plus100``,
    ``bonus200`` (game bonus 200 instead), or ``none``."""
    next_dealer: str = "winner"
    """Who deals the next hand: the ``winner`` of the last, or ``alternate``.
    After a drawn hand the same dealer deals again."""
    hollywood: bool = False
    """Hollywood scoring: three games on one sheet (first win scores in game 1, the
    second in games 1-2, later ones in games 1-3)."""
    three_player: str = "dealer-sits-out"
    """Seating with three players: ``dealer-sits-out`` or ``loser-sits-out``."""
    defender_layoff: str = "optimal"
    """How the defender melds and lays off after a knock. ``optimal``: melds and layoffs
    chosen together for the least deadwood (every combination tried). ``melds-then-greedy``
    (the EAAI framework): the defender first lays out one minimum-deadwood arrangement of
    its own cards, drawn at random among the ties (each way of splitting a long run counts
    as its own arrangement, as the framework lists them); then its remaining cards are laid
    off one at a time onto the knocker's melds until none fits, runs growing as they go so
    chains work; a card fitting both a set and a run goes on the run."""
    knocker_melds: str = "fewest-layoffs"
    """The knocker's arrangement. ``fewest-layoffs``: among the minimum-deadwood
    arrangements, the one exposing the fewest cards to layoffs. ``random-best`` (the EAAI
    framework's simple player): one minimum-deadwood arrangement drawn at random among the
    ties, counted as the framework lists them. Random draws come from a counter-based stream
    keyed by the deal and the draw count, so a hand replays identically."""

    int_ranges = INT_RANGES
    choices = _CHOICES
    array_fields = RuleField

    def check(self) -> None:
        """Oklahoma needs the upcard opening."""
        if self.oklahoma and self.opening != "upcard":
            raise ValueError("oklahoma needs opening=upcard (the upcard sets the knock limit)")

    def same_hands(self, other: Rules) -> bool:
        """Whether a hand plays and scores the same under ``other``: the two differ at
        most in :data:`GAME_SCORING_FIELDS`."""
        return all(
            getattr(self, item.name) == getattr(other, item.name)
            for item in fields(self)
            if item.name not in GAME_SCORING_FIELDS
        )

    def array_values(self) -> Mapping[IntEnum, int | bool]:
        """The value of each :class:`RuleField` (choices as flags or codes)."""
        return {
            RuleField.KNOCK_LIMIT: self.knock_limit,
            RuleField.GIN_BONUS: self.gin_bonus,
            RuleField.UNDERCUT_BONUS: self.undercut_bonus,
            RuleField.TIE_IS_UNDERCUT: self.tie_is_undercut,
            RuleField.BIG_GIN: self.big_gin,
            RuleField.BIG_GIN_BONUS: self.big_gin_bonus,
            RuleField.OKLAHOMA: self.oklahoma,
            RuleField.OKLAHOMA_ACE_GIN_ONLY: self.oklahoma_ace == "gin",
            RuleField.OKLAHOMA_SPADE_DOUBLE: self.oklahoma_spade_double,
            RuleField.STRAIGHT: self.straight,
            RuleField.WALL: self.stock_rule == "wall",
            RuleField.OPENING_ELEVEN: self.opening == "eleven",
            RuleField.TARGET: self.target,
            RuleField.GAME_BONUS: self.game_bonus,
            RuleField.LINE_BONUS: self.line_bonus,
            RuleField.LINE_IMMEDIATE: self.line_bonus_timing == "immediate",
            RuleField.SHUTOUT: _CHOICES["shutout"].index(self.shutout),
            RuleField.WINNER_DEALS: self.next_dealer == "winner",
            RuleField.HOLLYWOOD: self.hollywood,
            RuleField.DEFENDER_GREEDY: self.defender_layoff == "melds-then-greedy",
            RuleField.KNOCKER_RANDOM: self.knocker_melds == "random-best",
        }


#: The fields that only score games (end-of-game bonuses, who deals next, Hollywood's three
#: sheets, three-player seating): a hand plays and scores the same whatever they are.  The
#: target is not among them: a score-aware player reads it within a hand.
GAME_SCORING_FIELDS = (
    "game_bonus",
    "line_bonus",
    "line_bonus_timing",
    "shutout",
    "next_dealer",
    "hollywood",
    "three_player",
)

STANDARD = Rules()

PRESETS: Presets[Rules] = Presets(
    "rules",
    {
        "standard": STANDARD,
        "classic": Rules(gin_bonus=20, undercut_bonus=10, line_bonus=20, shutout="bonus200"),
        "undercut20": Rules(undercut_bonus=20),
        "eaai": Rules(
            line_bonus=0,
            game_bonus=0,
            shutout="none",
            next_dealer="alternate",
            defender_layoff="melds-then-greedy",
            knocker_melds="random-best",
        ),
        "openspiel": Rules(
            tie_is_undercut=False,
            stock_rule="wall",
            line_bonus=0,
            game_bonus=0,
            shutout="none",
            next_dealer="alternate",
        ),
        "oklahoma": Rules(oklahoma=True, target=150),
        "oklahoma-nodouble": Rules(oklahoma=True, oklahoma_spade_double=False, target=150),
        "oklahoma-acegin": Rules(oklahoma=True, oklahoma_ace="gin", target=150),
        "straight": Rules(straight=True),
        "biggin": Rules(big_gin=True),
        "hollywood": Rules(hollywood=True),
        "target150": Rules(target=150),
        "target250": Rules(target=250),
    },
)


def resolve_rules(preset: str = "standard", overrides: Iterable[str] = ()) -> Rules:
    """The named preset with ``field=value`` overrides; unknown names raise ``ValueError``."""
    return PRESETS.resolve(preset, overrides)


#: The presets compared by the variants study.
VARIANT_PRESETS = (
    "standard",
    "classic",
    "undercut20",
    "oklahoma",
    "oklahoma-nodouble",
    "oklahoma-acegin",
    "straight",
    "biggin",
    "hollywood",
    "target150",
    "target250",
)
