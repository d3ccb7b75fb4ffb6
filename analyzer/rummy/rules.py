"""Rules of plain rummy as frozen, validated data, with named presets.

The defaults are the game of seed document 000 (two players, ten cards each, lay off
onto any meld, go out by melding everything with or without a final discard, a dry
stock voids the hand); every alternative that seed 004 or the common rule books name is
a field.  Kernels read the rules as an int64 array indexed by :class:`RuleField`.

>>> RummyRules().cards_dealt
10
>>> RummyRules(players=4).cards_dealt
7
>>> resolve_rules("seed004", ["players=3"]).max_run
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from ..core.spec import Presets, Spec


class RuleField(IntEnum):
    """Index of each rule in :meth:`RummyRules.to_array` (read by the numba kernels)."""

    PLAYERS = 0
    HAND_SIZE = 1
    LAYOFF_OWN_ONLY = 2
    FINAL_DISCARD = 3
    RUMMY_MULTIPLIER = 4
    RESHUFFLE = 5
    SECOND_TURN_OUT = 6
    MAX_RUN = 7
    MUST_MELD = 8
    RUMMY_ON_BOARD = 9
    TURN_LIMIT = 10
    TARGET = 11


#: Cards dealt to each player by player count (seed 004): 10 for two, 7 for three or
#: four, 6 for five or six.
DEALT_BY_PLAYERS = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}

#: Most cards dealt to a player: 13 (14 held after a draw) keeps every hand evaluation
#: bounded, at most four ranks held three or four times.
MAX_HAND_SIZE = 13
#: Ranges (inclusive) of the integer rules but ``hand_size`` and ``max_run`` (0 or a
#: range): 2-6 players, as seed 004 deals for; a hand's score times the multiplier and a
#: game's totals stay far inside int64, and a hand stops within 10,000 turns.
#: Most players at a table (a kernel's per-seat blocks are this wide).
MAX_PLAYERS = 6

INT_RANGES: dict[str, tuple[int, int]] = {
    "players": (2, MAX_PLAYERS),
    "rummy_multiplier": (1, 10),
    "turn_limit": (1, 10_000),
    "target": (1, 10_000),
}


@dataclass(frozen=True)
class RummyRules(Spec):
    """One set of plain-rummy rules (validated as every :class:`~analyzer.core.spec.Spec`).

    Parameters
    ----------
    players : int
        Number of players, 2-6.
    hand_size : int
        Cards dealt to each player; 0 deals by player count (10 / 7 / 6, seed 004).
    layoff_own_only : bool
        Lay off only onto one's own melds (default: onto any meld on the table).
    final_discard : bool
        Going out needs a final discard: the last card must be discarded, not melded
        (seed 004 names both ways; seed 000 lets a player go out with nothing left).
    rummy_multiplier : int
        Factor on the score for going out "Rummy" (every card in one turn, nothing
        melded or laid off before); 2 in seed 004, 1 switches the bonus off.
    reshuffle : bool
        When a player wants to draw from an empty stock, turn the discard pile over as
        the new stock (common alternative) instead of ending the hand with no score
        (seed 000).
    second_turn_out : bool
        A player may not go out before its second turn (seed 004).
    max_run : int
        Longest run allowed, in cards, 3-13; 0 means no cap (seed 004 caps runs at 4).
    must_meld : bool
        A player holding a meld must lay it down (seed 004).
    rummy_on_board : bool
        After a discard that could be laid off, or that completes a meld on top of the
        discard pile, another player may call "rummy on the board" and take it (seed 004).
    turn_limit : int
        Turns (all players together) after which a hand is abandoned with no score; a
        safety stop for the endless pile turnovers ``reshuffle`` allows.
    target : int
        Game score, in points, that ends a game of several hands (100 or 500 usually).
    """

    players: int = 2
    hand_size: int = 0
    layoff_own_only: bool = False
    final_discard: bool = False
    rummy_multiplier: int = 2
    reshuffle: bool = False
    second_turn_out: bool = False
    max_run: int = 0
    must_meld: bool = False
    rummy_on_board: bool = False
    turn_limit: int = 400
    target: int = 100

    int_ranges = INT_RANGES
    array_fields = RuleField

    def check(self) -> None:
        """Hand size and run cap: 0 or within their ranges, and the deal fits the deck."""
        if self.hand_size < 0 or self.players * self.cards_dealt + 1 > 52:
            raise ValueError(
                f"hand_size {self.hand_size} does not fit {self.players} players "
                "and an upcard in 52 cards"
            )
        if self.hand_size and not 3 <= self.hand_size <= MAX_HAND_SIZE:
            raise ValueError(
                f"hand_size must be 0 (by player count) or 3-{MAX_HAND_SIZE}, got {self.hand_size}"
            )
        if self.max_run != 0 and not 3 <= self.max_run <= 13:
            raise ValueError(f"max_run must be 0 (no cap) or 3-13, got {self.max_run}")

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to each player."""
        return self.hand_size or DEALT_BY_PLAYERS[self.players]

    @property
    def run_cap(self) -> int:
        """Longest legal run, in cards (13 when uncapped)."""
        return self.max_run or 13

    def array_values(self) -> Mapping[IntEnum, int | bool]:
        """The value of each :class:`RuleField`: the fields themselves, but the cards dealt
        and the run cap for ``hand_size`` and ``max_run``."""
        return {
            RuleField.PLAYERS: self.players,
            RuleField.HAND_SIZE: self.cards_dealt,
            RuleField.LAYOFF_OWN_ONLY: self.layoff_own_only,
            RuleField.FINAL_DISCARD: self.final_discard,
            RuleField.RUMMY_MULTIPLIER: self.rummy_multiplier,
            RuleField.RESHUFFLE: self.reshuffle,
            RuleField.SECOND_TURN_OUT: self.second_turn_out,
            RuleField.MAX_RUN: self.run_cap,
            RuleField.MUST_MELD: self.must_meld,
            RuleField.RUMMY_ON_BOARD: self.rummy_on_board,
            RuleField.TURN_LIMIT: self.turn_limit,
            RuleField.TARGET: self.target,
        }


#: Named rule sets: seed 000's game, seed 004's full option set, and the common
#: alternative of turning the discard pile over when the stock runs out.
PRESETS: Presets[RummyRules] = Presets(
    "rules",
    {
        "standard": RummyRules(),
        "seed004": RummyRules(
            final_discard=True, second_turn_out=True, max_run=4, must_meld=True, rummy_on_board=True
        ),
        "reshuffle": RummyRules(reshuffle=True),
        "own-layoffs": RummyRules(layoff_own_only=True),
    },
)


def resolve_rules(preset: str = "standard", overrides: Iterable[str] = ()) -> RummyRules:
    """The named preset with ``field=value`` overrides; unknown names raise ``ValueError``."""
    return PRESETS.resolve(preset, overrides)
