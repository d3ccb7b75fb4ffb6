"""Deadwood of a plain-rummy hand against the melds on the table, as numba kernels.

Every decision of the engine (:mod:`analyzer.rummy.engine`) rests on one number: the
*deadwood* of a hand against the table, the least total points of the cards that could
not be got rid of by melding them or laying them off.  A layoff onto a run is a chain of
the hand's cards continuing the run down or up (at most ``max_run - length`` cards); a
layoff onto a three-card set is its missing fourth card.  :func:`with_table` tries every
combination of chains and fourth cards and leaves the rest to the set/run search of
:mod:`analyzer.core.lanes`, with lane tables built for the run cap in force
(:func:`analyzer.core.lanes.lane_tables`: ``rd`` deadwood, ``rm`` melded bits, ``lp``
points by lane).

The layoff spots open to a player are summed up once per table in a *view* array
(:func:`build_view`, laid out by :class:`View`); the evaluator answers in one of three
modes: the least deadwood (:data:`MODE_MIN`), also the deadwood after each discard
(:data:`MODE_DISCARD`), or the best arrangement itself (:data:`MODE_ARRANGE`, then put on
the table by :mod:`analyzer.rummy.table`).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ..core.arrays import Int64s
from ..core.cards import N_RANKS
from ..core.lanes import (
    LANE_MASK,
    NO_ARRANGEMENT,
    bit_index,
    choose_sets,
    lanes_discards,
    lanes_min,
    popcount,
    set_choices,
    set_ranks,
    split_lanes,
)
from .state import MAX_MELDS, Slot

# no card has to be melded: the evaluator then never reads its melded-lanes table, so the
# deadwood table is passed in its place
NOT_FORCED = np.int64(0)

#: :func:`with_table` returns the least deadwood (points) ...
MODE_MIN = 0
#: ... and fills ``out[card]`` with the least deadwood after discarding ``card`` ...
MODE_DISCARD = 1
#: ... or records the best arrangement in ``best`` / ``best_choice``.
MODE_ARRANGE = 2


class View(IntEnum):
    """Index of each field of a view: the layoff spots on the table for one player."""

    RUNS = 0
    """Number of runs with room for more cards."""
    FOURTHS = 1
    """Mask of the missing fourth cards of three-card sets."""
    SET_MELD = 2
    """13 entries: table index of the three-card set of each rank, -1 if none."""
    RUN0 = 2 + N_RANKS
    """4 entries per run with room: low card, high card, room, table index."""


#: Length of a view array.
VIEW_SIZE = View.RUN0 + 4 * MAX_MELDS


@njit(cache=True)
def best_sets(
    c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64, rd: Int64s
) -> tuple[np.int64, np.int64]:
    """(least deadwood, cards melded in sets) of lanes c, d, h, s over every set decision
    at the ranks of ``pending`` (:func:`analyzer.core.lanes.choose_sets`), runs by ``rd``.

    Ties go to the decision that comes first when the lowest rank's choice is compared
    first, each rank's choices in :func:`~analyzer.core.lanes.choose_sets`'s digit order
    (no set, every card, then the three-card sets leaving clubs, diamonds, hearts, spades
    to the runs): the arrangement the engine plays, so the tie order is part of its rules.
    ``choose_sets`` numbers decisions lowest rank *least* significant, so each decision's
    place in that order is its digits read the other way round.
    """
    four = c & d & h & s
    best = NO_ARRANGEMENT
    best_order = np.int64(0)
    sets = np.int64(0)
    for choice in range(set_choices(c, d, h, s, pending)):
        cc, dd, hh, ss = choose_sets(c, d, h, s, pending, np.int64(choice))
        value = rd[cc] + rd[dd] + rd[hh] + rd[ss]
        if value > best:
            continue
        order = np.int64(0)
        digits = np.int64(choice)
        rest = pending
        while rest:
            bit = rest & -rest
            rest ^= bit
            radix = 6 if four & bit else 2
            order = order * radix + digits % radix
            digits //= radix
        if value < best or order < best_order:
            best, best_order = value, order
            sets = (c ^ cc) | (d ^ dd) << 13 | (h ^ hh) << 26 | (s ^ ss) << 39
    return best, sets


@njit(cache=True)
def card_of(mask: np.int64) -> np.int64:
    """Index of the lowest card of a non-empty 52-bit mask."""
    return bit_index(mask & -mask)


@njit(cache=True)
def hand_points(hand: np.int64, lp: Int64s) -> np.int64:
    """Total card points of a hand mask (``lp``: lane points table)."""
    return (
        lp[hand & LANE_MASK]
        + lp[(hand >> 13) & LANE_MASK]
        + lp[(hand >> 26) & LANE_MASK]
        + lp[hand >> 39]
    )


@njit(cache=True)
def build_view(
    state: Int64s, player: np.int64, own_only: np.int64, cap: np.int64, view: Int64s
) -> None:
    """Fill ``view`` with the layoff spots the table of ``state`` opens to ``player``:
    runs with room for more cards and the missing fourth card of each three-card set
    (only ``player``'s own melds when ``own_only``)."""
    n_runs = 0
    fourths = np.int64(0)
    for rank in range(N_RANKS):
        view[View.SET_MELD + rank] = -1
    for m in range(state[Slot.N_MELDS]):
        if own_only and state[Slot.OWNERS + m] != player:
            continue
        mask = state[Slot.MELDS + m]
        low = card_of(mask)
        suit = low // 13
        if mask & ~(LANE_MASK << (13 * suit)):
            # a set: only a three-card set takes a layoff, its missing fourth card
            if popcount(mask) == 3:
                rank = low % 13
                for other in range(4):
                    card = np.int64(1) << (13 * other + rank)
                    if not mask & card:
                        fourths |= card
                view[View.SET_MELD + rank] = m
            continue
        length = popcount(mask)
        if length >= cap:
            continue
        base = View.RUN0 + 4 * n_runs
        view[base] = low
        view[base + 1] = low + length - 1
        view[base + 2] = cap - length
        view[base + 3] = m
        n_runs += 1
    view[View.RUNS] = n_runs
    view[View.FOURTHS] = fourths


@njit(cache=True, inline="always")
def _melded_alone(
    hand: np.int64, rd: Int64s, mode: np.int64, allowed: np.int64, out: Int64s
) -> tuple[np.int64, np.int64]:
    """(deadwood in points, cards melded in sets) of ``hand`` by its own sets and runs,
    nothing laid off, in ``mode`` as :func:`with_table` takes it; the sets are found only
    in :data:`MODE_ARRANGE` (0 otherwise).  Inlined: :func:`with_table`'s common path
    and the layoff search's every leaf run it."""
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    if mode == MODE_MIN:
        return lanes_min(c, d, h, s, pending, NOT_FORCED, rd, rd), np.int64(0)
    if mode == MODE_DISCARD:
        return lanes_discards(c, d, h, s, pending, allowed & hand, rd, out), np.int64(0)
    return best_sets(c, d, h, s, pending, rd)


@njit(cache=True)
def _leaf(
    hand: np.int64,
    view: Int64s,
    rd: Int64s,
    mode: np.int64,
    allowed: np.int64,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """Every subset of fourth cards laid off, then the best sets and runs of the rest."""
    fourth = hand & view[View.FOURTHS]
    sub = fourth
    least = NO_ARRANGEMENT
    while True:
        value, sets = _melded_alone(hand & ~sub, rd, mode, allowed, out)
        if mode == MODE_ARRANGE and value < best[0]:
            best[0] = value
            best[1] = sets
            best[2] = sub
            for i in range(2 * view[View.RUNS]):
                best_choice[i] = choice[i]
        least = min(least, value)
        if sub == 0:
            return least
        sub = (sub - 1) & fourth


@njit(cache=True)
def _view_rec(
    hand: np.int64,
    k: np.int64,
    view: Int64s,
    rd: Int64s,
    mode: np.int64,
    allowed: np.int64,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """Least deadwood of ``hand`` trying, for run ``k`` of the view and every later one,
    each chain of ``a`` cards laid off below it and ``b`` above (``a + b`` <= room)."""
    # skip runs the hand cannot extend: no chain to try there
    while k < view[View.RUNS]:
        base = View.RUN0 + 4 * k
        below, above = view[base] - 1, view[base + 1] + 1
        if (below % 13 != 12 and hand >> below & 1) or (above % 13 != 0 and hand >> above & 1):
            break
        choice[2 * k] = 0
        choice[2 * k + 1] = 0
        k += 1
    if k == view[View.RUNS]:
        return _leaf(hand, view, rd, mode, allowed, out, choice, best, best_choice)
    base = View.RUN0 + 4 * k
    low, high, room = view[base], view[base + 1], view[base + 2]
    least = NO_ARRANGEMENT
    down = np.int64(0)
    a = 0
    while True:
        up = np.int64(0)
        b = 0
        while True:
            choice[2 * k] = a
            choice[2 * k + 1] = b
            value = _view_rec(
                hand & ~(down | up), k + 1, view, rd, mode, allowed, out, choice, best, best_choice
            )
            least = min(least, value)
            card = high + b + 1
            if a + b >= room or card % 13 == 0 or not hand >> card & 1:
                break
            up |= np.int64(1) << card
            b += 1
        card = low - a - 1
        if a >= room or low % 13 - a == 0 or not hand >> card & 1:
            break
        down |= np.int64(1) << card
        a += 1
    return least


@njit(cache=True, inline="always")
def with_table(
    hand: np.int64,
    view: Int64s,
    rd: Int64s,
    mode: np.int64,
    allowed: np.int64,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """Deadwood (points) of ``hand`` against the layoff spots of ``view``, in ``mode``
    (:data:`MODE_MIN`, :data:`MODE_DISCARD` with the discards of ``allowed``, or
    :data:`MODE_ARRANGE`); ``choice`` is scratch space, ``best`` / ``best_choice`` receive
    the arrangement: (deadwood, cards melded in sets, fourth cards laid off) and the chain
    lengths below and above each run of the view."""
    if mode == MODE_DISCARD:
        for card in range(52):
            out[card] = NO_ARRANGEMENT
    elif mode == MODE_ARRANGE:
        best[0] = NO_ARRANGEMENT
    if _can_lay_off(hand, view):
        return _layoff_search(hand, view, rd, mode, allowed, out, choice, best, best_choice)
    # most positions: nothing to lay off, so skip the layoff search and its calls
    value, sets = _melded_alone(hand, rd, mode, allowed, out)
    if mode == MODE_ARRANGE:
        best[0] = value
        best[1] = sets
        best[2] = 0
        for i in range(2 * view[View.RUNS]):
            best_choice[i] = 0
    return value


@njit(cache=True)
def _layoff_search(
    hand: np.int64,
    view: Int64s,
    rd: Int64s,
    mode: np.int64,
    allowed: np.int64,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """The full layoff search of :func:`with_table`, a function of its own so that
    :func:`with_table` (inlined at every call site) stays small: with the recursive
    search in its body, the common evaluation with nothing to lay off ran ~4x slower."""
    return _view_rec(hand, np.int64(0), view, rd, mode, allowed, out, choice, best, best_choice)


@njit(cache=True)
def _can_lay_off(hand: np.int64, view: Int64s) -> bool:
    """Whether ``hand`` holds a fourth card of a set or a card just beyond a run's end."""
    if hand & view[View.FOURTHS]:
        return True
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        below, above = view[base] - 1, view[base + 1] + 1
        if (below % 13 != 12 and hand >> below & 1) or (above % 13 != 0 and hand >> above & 1):
            return True
    return False


@njit(cache=True)
def layoff_target(card: np.int64, view: Int64s) -> np.int64:
    """Table meld that ``card`` could be laid off onto, or -1."""
    bit = np.int64(1) << card
    if view[View.FOURTHS] & bit:
        return view[View.SET_MELD + card % 13]
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        if (card == view[base] - 1 and card % 13 != 12) or (
            card == view[base + 1] + 1 and card % 13 != 0
        ):
            return view[base + 3]
    return np.int64(-1)


@njit(cache=True)
def layoff_spots(view: Int64s) -> np.int64:
    """The cards that could each be laid off alone onto the table of ``view`` (a mask):
    the missing fourth cards of three-card sets and the card beyond each end of a run
    with room (aces low only)."""
    spots: np.int64 = view[View.FOURTHS]
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        if view[base] % 13 != 0:
            spots |= np.int64(1) << (view[base] - 1)
        if view[base + 1] % 13 != 12:
            spots |= np.int64(1) << (view[base + 1] + 1)
    return spots
