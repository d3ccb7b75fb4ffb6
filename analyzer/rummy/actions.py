"""The legal moves of plain rummy as numba kernels: what the seat to move may do now, and
making one (through :mod:`analyzer.rummy.transitions`).

A move is a row of three integers, ``(kind, cards, meld)``: a :class:`Kind`, the mask of
the cards it moves (the meld laid down, the card laid off or thrown; 0 for the others)
and the table meld a layoff goes onto (-1 for the others).

What is legal (the rules of :mod:`analyzer.rummy.rules`, as the engine reads them):

* drawing: the stock's top (also when it is empty: the pile is turned over, or the hand
  ends void) or the pile's top;
* playing: laying down any set or run of the hand (runs of at most ``max_run``), laying
  off any card onto a table meld it extends (only onto one's own with
  ``layoff_own_only``), or throwing any card but the one just taken from the pile.  A
  play may not leave the seat stuck: what is left must be empty (going out by melding
  everything, not with ``final_discard``), a single card it may throw (going out with
  it), or cards of which one may be thrown.  Going out is not allowed on a seat's first
  turn with ``second_turn_out``; with ``must_meld`` a seat holding a meld it may lay
  down may not throw;
* after a throw, with ``rummy_on_board``: the seat asked calls or passes.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ..core.arrays import Int64s
from ..core.cards import N_RANKS
from ..core.lanes import LANE_MASK, popcount
from .layoffs import View, build_view
from .rules import RuleField
from .state import Phase, Slot
from .transitions import (
    apply_call,
    apply_discard,
    apply_draw,
    apply_layoff,
    apply_meld,
    pass_call,
)


class Kind(IntEnum):
    """What a move does (column 0 of a move row)."""

    DRAW = 0
    """Draw the stock's top."""
    TAKE = 1
    """Take the pile's top."""
    MELD = 2
    """Lay down the meld ``cards``."""
    LAYOFF = 3
    """Lay the card ``cards`` off onto table meld ``meld``."""
    DISCARD = 4
    """Throw the card ``cards`` (going out when it is the last)."""
    CALL = 5
    """Call "rummy on the board"."""
    PASS = 6
    """Do not call."""


#: Room for the legal moves of one position (every meld of 14 cards, every layoff and
#: every throw fit with room to spare).
MAX_MOVES = 512


@njit(cache=True)
def _add(
    moves: Int64s, count: np.int64, kind: np.int64, cards: np.int64, meld: np.int64
) -> np.int64:
    moves[count, 0] = kind
    moves[count, 1] = cards
    moves[count, 2] = meld
    return count + 1


@njit(cache=True)
def _may_leave(rest: np.int64, taken: np.int64, can_out: bool, final_discard: bool) -> bool:
    """Whether a seat may be left holding ``rest`` after a meld or a layoff."""
    if rest == 0:
        return can_out and not final_discard
    if rest & (rest - 1) == 0:
        return can_out and rest != taken
    return rest & ~taken != 0


@njit(cache=True)
def _melds(hand: np.int64, cap: np.int64, moves: Int64s, count: np.int64) -> np.int64:
    """Add every set and run the cards of ``hand`` make (as ``MELD`` rows, meld -1)."""
    ranks = np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39
    for rank in range(N_RANKS):
        cards = hand & (ranks << rank)
        held = popcount(cards)
        if held >= 3:
            count = _add(moves, count, Kind.MELD, cards, -1)
        if held == 4:
            # each three of the four
            rest = cards
            while rest:
                bit = rest & -rest
                rest ^= bit
                count = _add(moves, count, Kind.MELD, cards ^ bit, -1)
    for suit in range(4):
        lane = (hand >> (13 * suit)) & LANE_MASK
        for low in range(N_RANKS):
            length = 0
            while low + length < N_RANKS and lane >> (low + length) & 1:
                length += 1
                if length >= 3 and length <= cap:
                    run = ((np.int64(1) << length) - 1) << (13 * suit + low)
                    count = _add(moves, count, Kind.MELD, run, -1)
    return count


@njit(cache=True)
def _layoffs(
    hand: np.int64, view: Int64s, moves: Int64s, count: np.int64, rest_ok: Int64s
) -> np.int64:
    """Add every layoff of a card of ``hand`` onto the table of ``view`` whose card
    ``rest_ok`` allows (``rest_ok[card]`` 1)."""
    fourths = hand & view[View.FOURTHS]
    while fourths:
        bit = fourths & -fourths
        fourths ^= bit
        card = popcount(bit - 1)
        if rest_ok[card]:
            count = _add(moves, count, Kind.LAYOFF, bit, view[View.SET_MELD + card % 13])
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        low, high, meld = view[base], view[base + 1], view[base + 3]
        if low % 13 != 0 and hand >> (low - 1) & 1 and rest_ok[low - 1]:
            count = _add(moves, count, Kind.LAYOFF, np.int64(1) << (low - 1), meld)
        if high % 13 != 12 and hand >> (high + 1) & 1 and rest_ok[high + 1]:
            count = _add(moves, count, Kind.LAYOFF, np.int64(1) << (high + 1), meld)
    return count


@njit(cache=True)
def legal_moves(state: Int64s, rules: Int64s, moves: Int64s, view: Int64s) -> np.int64:
    """Fill ``moves`` (``MAX_MOVES`` rows of three) with the legal moves of the seat to
    move and return their number (0 when the hand is over); ``view`` is scratch."""
    phase = state[Slot.PHASE]
    if phase == Phase.DONE:
        return np.int64(0)
    if phase == Phase.DRAW:
        count = _add(moves, np.int64(0), Kind.DRAW, 0, -1)
        if state[Slot.PILE_LEN] > 0:
            count = _add(moves, count, Kind.TAKE, 0, -1)
        return count
    if phase == Phase.CALL:
        count = _add(moves, np.int64(0), Kind.CALL, 0, -1)
        return _add(moves, count, Kind.PASS, 0, -1)
    p = state[Slot.PLAYER]
    hand = state[Slot.HAND + p]
    taken = np.int64(0) if state[Slot.TAKEN] < 0 else np.int64(1) << state[Slot.TAKEN]
    can_out = not (rules[RuleField.SECOND_TURN_OUT] and state[Slot.TURNS + p] == 1)
    final = rules[RuleField.FINAL_DISCARD] != 0
    count = _melds(hand, rules[RuleField.MAX_RUN], moves, np.int64(0))
    kept = np.int64(0)
    for i in range(count):
        if _may_leave(hand & ~moves[i, 1], taken, can_out, final):
            moves[kept] = moves[i]
            kept += 1
    count = kept
    melds = count
    build_view(state, p, rules[RuleField.LAYOFF_OWN_ONLY], rules[RuleField.MAX_RUN], view)
    rest_ok = np.zeros(52, dtype=np.int64)
    bits = hand
    while bits:
        bit = bits & -bits
        bits ^= bit
        rest_ok[popcount(bit - 1)] = _may_leave(hand & ~bit, taken, can_out, final)
    count = _layoffs(hand, view, moves, count, rest_ok)
    if rules[RuleField.MUST_MELD] and melds > 0:
        return count
    bits = hand & ~taken
    while bits:
        bit = bits & -bits
        bits ^= bit
        if bit != hand or can_out:
            count = _add(moves, count, Kind.DISCARD, bit, -1)
    return count


@njit(cache=True)
def apply_move(
    state: Int64s, rules: Int64s, kind: np.int64, cards: np.int64, meld: np.int64, view: Int64s
) -> None:
    """Make the move ``(kind, cards, meld)`` for the seat to move (it must be legal:
    :func:`legal_moves`); ``view`` is scratch."""
    if kind == Kind.DRAW or kind == Kind.TAKE:
        apply_draw(state, rules, kind == Kind.TAKE)
    elif kind == Kind.MELD:
        apply_meld(state, rules, cards)
    elif kind == Kind.LAYOFF:
        apply_layoff(state, rules, popcount(cards - 1), meld)
    elif kind == Kind.DISCARD:
        apply_discard(state, rules, popcount(cards - 1), view)
    elif kind == Kind.CALL:
        apply_call(state, rules, view)
    else:
        pass_call(state, rules, view)
