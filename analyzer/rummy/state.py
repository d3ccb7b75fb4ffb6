"""The layout of a plain-rummy hand's state: one int64 array shared by the engine, the
players' decision kernels and the stepping :class:`~analyzer.rummy.hand.Hand`.

A hand is one ``np.int64`` array indexed by :class:`Slot`: the hands, the deck (the
stock is ``DECK + STOCK ..``), the discard pile (bottom first), the table melds and their
owners, whose turn it is and in which phase, and what every player can see of the others:

* ``TOOK + s``: every card seat ``s`` took from the discard pile this hand;
* ``HELD + s``: the cards ``s`` took from the pile and still holds (public knowledge:
  a card taken face up stays known until it is discarded or laid on the table);
* ``PILE_MASK`` / ``TABLE_MASK``: the cards in the pile and on the table.

A copy of the array is a copy of the hand, so the stepping API and the decision kernels
work on copies freely.  Kernels index it with these enums' members, which numba reads as
constants.  How a hand flows through the phases is in :mod:`analyzer.rummy.transitions`.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ..core.arrays import Int64s
from ..core.lanes import popcount

#: Room for table melds: 52 cards make at most 17 melds of three.
MAX_MELDS = 20
#: Most players at a table (per-seat blocks of the state are this wide).
MAX_PLAYERS = 6
#: The 52-bit mask of the whole deck.
FULL_DECK = np.int64((1 << 52) - 1)


class Slot(IntEnum):
    """Index of each field of the state array (``HAND + s`` is seat ``s``'s hand)."""

    HAND = 0
    TOOK = 6
    HELD = 12
    TURNS = 18
    """Own turns begun (drawn) by each seat in this hand."""
    PLAYED = 24
    """1 once the seat melded, laid off or called in an earlier turn (no Rummy then)."""
    KNOWN = 30
    """Each seat's deadwood after its last discard (a cache of the scripted draw rule,
    valid while ``KNOWN_VERSION + s`` equals ``VERSION``)."""
    KNOWN_VERSION = 36
    MELDS = 42
    OWNERS = 62
    DECK = 82
    """52 card ids; the stock is ``DECK + STOCK .. DECK + 51``, top first."""
    PILE = 134
    """The discard pile, bottom first, ``PILE_LEN`` cards."""
    STOCK = 186
    """Deck index of the stock's top card (52: the stock is empty)."""
    PILE_LEN = 187
    N_MELDS = 188
    PLAYER = 189
    """Seat to play (in the call phase: the seat that discarded)."""
    PHASE = 190
    TAKEN = 191
    """Card the seat to play took from the pile this turn (it may not discard it), -1."""
    PLAYED_NOW = 192
    """1 when the seat to play melded or laid off in this turn."""
    VERSION = 193
    """Changes of the table (melds, layoffs, calls), for the ``KNOWN`` cache."""
    TOTAL_TURNS = 194
    CALLER = 195
    """In the call phase: the seat asked next whether it calls "rummy on the board"."""
    PILE_MASK = 196
    TABLE_MASK = 197
    WINNER = 198
    """Seat that went out, -1 while the hand runs or when it was void."""
    POINTS = 199
    """Points scored by the winner (Rummy multiplier included)."""
    RUMMY = 200
    """1 when the winner went out "Rummy"."""
    END = 201
    """How the hand ended, an :class:`End` code (while it runs: ``End.TURN_LIMIT``)."""
    RESHUFFLES = 202
    """Times the discard pile was turned over as the stock."""
    CALLS = 203
    """"Rummy on the board" calls."""
    LEFT = 204
    """Points left in each seat's hand at the end (``LEFT + seat``)."""
    SIZE = 210


#: Length of a state array.
STATE_SIZE = int(Slot.SIZE)


class Phase(IntEnum):
    """What the hand waits for (``state[Slot.PHASE]``)."""

    DRAW = 0
    """The seat to play draws from the stock or takes the pile's top."""
    PLAY = 1
    """It melds and lays off as it likes, then discards (or goes out)."""
    CALL = 2
    """After a discard, ``CALLER`` may call "rummy on the board" (seed 004)."""
    DONE = 3


class End(IntEnum):
    """How a hand ended (``state[Slot.END]``)."""

    OUT = 0
    """A player went out."""
    STOCK = 1
    """The stock ran out (no score)."""
    TURN_LIMIT = 2
    """Abandoned after ``rules.turn_limit`` turns (no score)."""


@njit(cache=True)
def stock_left(state: Int64s) -> np.int64:
    """Cards left in the stock."""
    left: np.int64 = 52 - state[Slot.STOCK]
    return left


@njit(cache=True)
def cards_held(state: Int64s, seat: np.int64) -> np.int64:
    """Number of cards in ``seat``'s hand (public: everyone sees the hands' sizes)."""
    return popcount(state[Slot.HAND + seat])


@njit(cache=True)
def unseen_by(state: Int64s, seat: np.int64, players: np.int64) -> np.int64:
    """The cards ``seat`` cannot place: not in its hand, the pile or on the table, and
    not known to be held by another seat (the stock and the others' hidden cards)."""
    known = state[Slot.HAND + seat] | state[Slot.PILE_MASK] | state[Slot.TABLE_MASK]
    for other in range(players):
        known |= state[Slot.HELD + other]
    unseen: np.int64 = FULL_DECK & ~known
    return unseen
