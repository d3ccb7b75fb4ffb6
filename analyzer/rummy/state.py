"""The layout of a plain-rummy hand's state arrays, shared by the engine and its drivers.

A hand in play is a few small arrays (see :func:`analyzer.rummy.engine.play_hand`): the
hands, the deck, the discard pile, the table melds and their owners, plus

* ``counters``, indexed by :class:`Counter`: where the stock starts in the deck, the
  pile's length, the number of table melds and the seat to play;
* ``result``, indexed by :class:`ResultField`: how the hand ended (an :class:`End` code),
  who won and what it scored.

Kernels index them with these enums' members, which numba reads as constants.
"""

from __future__ import annotations

from enum import IntEnum

#: Room for table melds: 52 cards make at most 17 melds of three.
MAX_MELDS = 20
#: Most players at a table (the ``result`` array has a ``LEFT`` entry per seat).
MAX_PLAYERS = 6


class Counter(IntEnum):
    """Index of each field of the ``counters`` array."""

    STOCK = 0
    """Deck index of the stock's top card (the stock is ``deck[STOCK:]``)."""
    PILE = 1
    """Cards in the discard pile."""
    MELDS = 2
    """Melds on the table."""
    PLAYER = 3
    """Seat to play."""


#: Length of the ``counters`` array (for kernels, which cannot take ``len`` of an enum).
N_COUNTERS = len(Counter)


class ResultField(IntEnum):
    """Index of each field of the ``result`` array (``LEFT + seat`` for each seat)."""

    WINNER = 0
    """Seat that went out, -1 when the hand was void."""
    POINTS = 1
    """Points scored by the winner (Rummy multiplier included)."""
    RUMMY = 2
    """1 when the winner went out "Rummy"."""
    TURNS = 3
    """Turns played, all players together."""
    END = 4
    """How the hand ended, an :class:`End` code."""
    RESHUFFLES = 5
    """Times the discard pile was turned over as the stock."""
    CALLS = 6
    """"Rummy on the board" calls."""
    LEFT = 7
    """Points left in each seat's hand at the end (``LEFT + seat``)."""


#: Length of the ``result`` array.
N_RESULT = ResultField.LEFT + MAX_PLAYERS


class End(IntEnum):
    """How a hand ended (``result[ResultField.END]``)."""

    OUT = 0
    """A player went out."""
    STOCK = 1
    """The stock ran out (no score)."""
    TURN_LIMIT = 2
    """Abandoned after ``rules.turn_limit`` turns (no score)."""
