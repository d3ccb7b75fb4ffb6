"""The scripted players' decisions, as numba kernels over the state array.

Every player draws the same way (:func:`draw_choice`: the top discard when it lowers the
deadwood it could not get rid of, else the stock) and goes out whenever it can
(:func:`go_out`).  The scripted policies of :mod:`analyzer.rummy.policies` then meld and
lay off at once or hold (:func:`scripted_play`) and throw by points or by potential
(:func:`choose_discard`); :mod:`analyzer.rummy.expert` decides those from the state.

A decision reads the state and the evaluator's scratch arrays (``out`` holds the deadwood
after each discard of the hand being decided, ``view`` the layoff spots open to the seat
to play; :data:`~analyzer.rummy.work.WorkViews`); the moves are made by
:mod:`analyzer.rummy.transitions`.  The decisions of every turn are inlined into the
engine's step (``inline="always"``) and take the scratch arrays one by one: a non-inlined
call that unpacks them costs about 50 ns in reference counting, ten times a turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.arrays import Int64s
from ..core.lanes import LANE_MASK, NO_ARRANGEMENT, lanes_min, popcount, set_ranks, split_lanes
from .layoffs import (
    MODE_ARRANGE,
    MODE_DISCARD,
    MODE_MIN,
    NOT_FORCED,
    build_view,
    card_of,
    hand_points,
    with_table,
)
from .policies import Discard, Meld, PolicyField
from .rules import RuleField
from .state import Slot
from .table import arrangement_left
from .transitions import apply_arrangement, apply_discard


@njit(cache=True, inline="always")
def taken_bit(state: Int64s) -> np.int64:
    """The card the seat to play took from the pile this turn, as a mask (0: none)."""
    taken = state[Slot.TAKEN]
    return np.int64(1) << taken if taken >= 0 else np.int64(0)


@njit(cache=True, inline="always")
def draw_choice(
    state: Int64s,
    rd: Int64s,
    out: Int64s,
    view: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> tuple[bool, np.int64, np.int64, np.int64]:
    """``(take, least, now, after)``: whether the seat to play takes the pile's top,
    which it does when that lowers its deadwood against the table (its ``view``): from
    ``now`` to ``after``, its least deadwood once it has thrown a card other than the top
    (points).  ``least``: its deadwood holding the top, ``out`` then the deadwood after
    each discard (the top itself excluded).  With an empty pile: no take, and the
    deadwoods are :data:`~analyzer.core.lanes.NO_ARRANGEMENT`."""
    p = state[Slot.PLAYER]
    n_pile = state[Slot.PILE_LEN]
    if n_pile == 0:
        return False, NO_ARRANGEMENT, NO_ARRANGEMENT, NO_ARRANGEMENT
    hand = state[Slot.HAND + p]
    top = np.int64(1) << state[Slot.PILE + n_pile - 1]
    if state[Slot.KNOWN_VERSION + p] == state[Slot.VERSION]:
        now = state[Slot.KNOWN + p]
    else:
        now = with_table(hand, view, rd, MODE_MIN, hand, out, choice, best, best_choice)
    least = with_table(hand | top, view, rd, MODE_DISCARD, hand, out, choice, best, best_choice)
    after = NO_ARRANGEMENT
    bits = hand
    while bits:
        after = min(after, out[card_of(bits)])
        bits &= bits - 1
    return after < now, least, now, after


@njit(cache=True, inline="always")
def discard_values(
    state: Int64s,
    rd: Int64s,
    out: Int64s,
    view: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """Fill ``out`` with the deadwood (points) after each discard the seat to play may
    make against the table in its ``view`` and return the least deadwood of the whole
    hand."""
    p = state[Slot.PLAYER]
    hand = state[Slot.HAND + p]
    allowed = hand & ~taken_bit(state)
    return with_table(hand, view, rd, MODE_DISCARD, allowed, out, choice, best, best_choice)


@njit(cache=True, inline="always")
def build_own_view(state: Int64s, rules: Int64s, view: Int64s) -> None:
    """Put the layoff spots open to the seat to play into ``view``."""
    build_view(
        state,
        state[Slot.PLAYER],
        rules[RuleField.LAYOFF_OWN_ONLY],
        rules[RuleField.MAX_RUN],
        view,
    )


@njit(cache=True, inline="always")
def go_out(
    state: Int64s,
    rules: Int64s,
    least: np.int64,
    rd: Int64s,
    rm: Int64s,
    out: Int64s,
    view: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> bool:
    """Go out if the seat to play can: everything melded or laid off (without
    ``final_discard``), or all but one card, then discarded (the highest such card).
    ``least`` and ``out`` are its deadwood and discards (:func:`discard_values`).  True
    when it went out."""
    p = state[Slot.PLAYER]
    if rules[RuleField.SECOND_TURN_OUT] and state[Slot.TURNS + p] == 1:
        return False
    hand = state[Slot.HAND + p]
    meld_all = least == 0 and not rules[RuleField.FINAL_DISCARD]
    last = np.int64(-1)
    if not meld_all:
        bits = hand & ~taken_bit(state)
        while bits:
            card = card_of(bits)
            bits &= bits - 1
            if out[card] == 0:
                last = card
        if last < 0:
            return False
    keep = hand if last < 0 else hand & ~(np.int64(1) << last)
    with_table(keep, view, rd, MODE_ARRANGE, 0, out, choice, best, best_choice)
    apply_arrangement(state, rules, keep, view, best, best_choice, rm)
    if last >= 0:
        apply_discard(state, rules, last, view)
    return True


@njit(cache=True)
def melds_in_hand(hand: np.int64, rd: Int64s, lp: Int64s) -> np.int64:
    """Points of the cards of ``hand`` in its own best melds (nothing laid off)."""
    c, d, h, s = split_lanes(hand)
    return hand_points(hand, lp) - lanes_min(c, d, h, s, set_ranks(c, d, h, s), NOT_FORCED, rd, rd)


@njit(cache=True, inline="always")
def keeps_holding(state: Int64s, rules: Int64s, policy: Int64s, rd: Int64s, lp: Int64s) -> bool:
    """Whether a ``hold`` policy still holds its melds for Rummy this turn: nothing
    played yet, its own turn at most ``hold_turns``, at most ``hold_points`` points in
    melds in its hand, and no ``must_meld`` rule forcing a meld it holds."""
    p = state[Slot.PLAYER]
    if policy[PolicyField.MELD] != Meld.HOLD or state[Slot.PLAYED + p]:
        return False
    in_melds = melds_in_hand(state[Slot.HAND + p], rd, lp)
    return not (
        state[Slot.TURNS + p] > policy[PolicyField.HOLD_TURNS]
        or in_melds > policy[PolicyField.HOLD_POINTS]
        or (rules[RuleField.MUST_MELD] and in_melds > 0)
    )


@njit(cache=True)
def play_arrangement(
    state: Int64s,
    rules: Int64s,
    lay_off: bool,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    view: Int64s,
    no_table: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> bool:
    """Meld (and, with ``lay_off``, lay off onto the table) every card the best
    arrangement gets rid of, keeping at least two cards (one to discard, one to hold),
    one of which may be thrown.  True when it put cards on the table; then the view
    and ``out`` are those of the hand left."""
    p = state[Slot.PLAYER]
    hand = state[Slot.HAND + p]
    points = hand_points(hand, lp)
    table = view if lay_off else no_table
    with_table(hand, table, rd, MODE_ARRANGE, 0, out, choice, best, best_choice)
    if best[0] >= points:
        return False
    left = arrangement_left(hand, table, best, best_choice, rm)
    # a player not going out must keep a card to discard and one to hold
    if popcount(left) < 2 or not left & ~taken_bit(state):
        return False
    apply_arrangement(state, rules, hand, table, best, best_choice, rm)
    build_own_view(state, rules, view)
    return True


@njit(cache=True, inline="always")
def scripted_play(
    state: Int64s,
    rules: Int64s,
    policy: Int64s,
    least: np.int64,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    view: Int64s,
    no_table: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """Meld and lay off as a scripted policy says (at once, or not while it holds for
    Rummy; ``layoff=keep`` lays nothing off before going out); returns the least
    deadwood of the hand left, ``out`` updated."""
    p = state[Slot.PLAYER]
    # nothing to play when no card can be got rid of (least counts layoffs too)
    if keeps_holding(state, rules, policy, rd, lp) or least >= hand_points(
        state[Slot.HAND + p], lp
    ):
        return least
    lay_off = policy[PolicyField.LAYOFF] == 0
    if play_arrangement(
        state, rules, lay_off, rd, rm, lp, out, view, no_table, choice, best, best_choice
    ):
        return discard_values(state, rd, out, view, choice, best, best_choice)
    return least


@njit(cache=True)
def choose_discard(
    hand: np.int64, allowed: np.int64, least: np.int64, out: Int64s, potential: bool, lp: Int64s
) -> np.int64:
    """The card to discard from ``hand & allowed`` given ``out`` (deadwood after each
    discard) and ``least`` (deadwood before it).

    ``points``: least deadwood after it, then the highest card.  ``potential``: among the
    deadwood cards (throwing one lowers deadwood by its full value), the fewest partners
    (same rank, or same suit within two ranks), then the highest card; falls back to
    ``points`` when every card is melded.
    """
    chosen = np.int64(-1)
    chosen_key = NO_ARRANGEMENT
    bits = hand & allowed
    while bits:
        card = card_of(bits)
        bits &= bits - 1
        value = lp[np.int64(1) << (card % 13)]
        key = out[card] * 16 - value
        if potential and out[card] == least - value:
            rank = card % 13
            same_rank = popcount(
                (hand >> rank)
                & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39)
            )
            lane = (hand >> (13 * (card // 13))) & LANE_MASK
            near = popcount(((lane << 2) >> rank) & 0b11111)
            # partners first, then high cards; below every non-deadwood key
            key = -NO_ARRANGEMENT + (same_rank + near - 2) * 16 - value
        if key <= chosen_key:
            chosen_key = key
            chosen = card
    return chosen


@njit(cache=True, inline="always")
def scripted_discard(
    state: Int64s, policy: Int64s, least: np.int64, lp: Int64s, out: Int64s
) -> np.int64:
    """The card a scripted policy throws (by points or by potential)."""
    p = state[Slot.PLAYER]
    return choose_discard(
        state[Slot.HAND + p],
        ~taken_bit(state),
        least,
        out,
        policy[PolicyField.DISCARD] == Discard.POTENTIAL,
        lp,
    )


@njit(cache=True)
def call_choice(state: Int64s, policy: Int64s) -> bool:
    """Whether ``CALLER`` calls "rummy on the board": when its policy calls, unless it
    holds for Rummy (``meld=hold`` or ``expert``) and has played nothing yet (calling
    counts as melding)."""
    return policy[PolicyField.CALL] != 0 and not (
        policy[PolicyField.MELD] != Meld.ASAP and state[Slot.PLAYED + state[Slot.CALLER]] == 0
    )
