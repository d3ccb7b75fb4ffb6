"""Plain rummy played by the engine's players: one step, one hand, as numba kernels.

State
-----
One int64 array laid out by :mod:`analyzer.rummy.state` (the hands, the deck and stock,
the pile, the table melds and their owners, whose turn and which phase, what each seat
took from the pile).  :func:`step` makes the next move of the seat to move as its policy
says, through the transitions of :mod:`analyzer.rummy.transitions`; :func:`play_hand`
steps to the end of the hand, so a test can script any position
(:func:`analyzer.rummy.scripted.play_scripted`) and the stepping
:class:`~analyzer.rummy.hand.Hand` can interleave a person's moves.

How a turn is evaluated
-----------------------
Every decision rests on the deadwood of a hand against the table, the least total points
of the cards that could not be got rid of by melding them or laying them off
(:mod:`analyzer.rummy.layoffs`).  The scripted players decide by
:mod:`analyzer.rummy.decisions`, ``rummy-expert`` by :mod:`analyzer.rummy.expert`.

Seats are numbered from the dealer's left: seat 0 is dealt first and plays first, seat
``players - 1`` deals.

Rule interpretations
--------------------
Where the seed documents leave room, the engine reads them this way:

* Layoffs need no meld of one's own (seed 000's "if you already have melds on the table"
  is read as "if there are melds on the table"); ``layoff_own_only`` is the strict form.
* A dry stock ends the hand (or turns the pile over, whole and unshuffled, its bottom
  card becoming the top of the stock) when a player who wants to draw from the stock
  finds it empty; a player may still take the top discard instead.
* A player who can go out always does.  Without ``final_discard`` it may meld its last
  card instead of discarding it.  "Rummy" is going out with nothing melded or laid off
  earlier in the hand; layoffs made in the going-out turn itself are allowed.  A seat
  that owns a table meld in a scripted starting position has melded already.
* ``second_turn_out``: a player's first turn (counted from the given position) cannot
  end the hand.  A player who is not going out never melds down to fewer than two cards
  (one to discard, one to keep); it holds its melds for that turn instead.
* ``must_meld`` forces melds, not layoffs, and ends any holding for Rummy.
* ``max_run`` caps new runs and layoffs alike; a longer stretch in hand is split into
  legal runs, leaving out the cheapest end card when it cannot be split.
* "Rummy on the board": after a discard, the first other player in turn order whose
  policy calls (a player still holding for Rummy never does) takes the discard and lays
  it off at once on a meld it may use, or, when the top three or more cards of the pile
  form a meld, takes them as a new meld of its own.  The caller does not discard, play
  then passes on as usual, and calling counts as having melded.
* A hand still running after ``turn_limit`` turns is void (no score).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.arrays import Float64s, Int64s
from ..core.lanes import NO_ARRANGEMENT
from .decisions import (
    build_own_view,
    call_choice,
    discard_values,
    draw_choice,
    go_out,
    scripted_discard,
    scripted_play,
)
from .expert import expert_play
from .policies import Discard, Meld, PolicyField
from .state import Phase, Slot
from .transitions import apply_call, apply_discard, apply_draw, pass_call
from .work import WorkViews


@njit(cache=True, inline="always")
def _draw(
    state: Int64s,
    rules: Int64s,
    rd: Int64s,
    out: Int64s,
    view: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
) -> np.int64:
    """The seat to play draws (every policy draws alike, :func:`draw_choice`).  Returns
    its least deadwood after the draw, ``view`` and ``out`` its layoff spots and the
    deadwood after each discard (:data:`~analyzer.core.lanes.NO_ARRANGEMENT` when a dry
    stock ended the hand)."""
    build_own_view(state, rules, view)
    take, least, _, _ = draw_choice(state, rd, out, view, choice, best, best_choice)
    if not apply_draw(state, rules, take):
        return NO_ARRANGEMENT
    if not take:
        least = discard_values(state, rd, out, view, choice, best, best_choice)
    return least


@njit(cache=True, inline="always")
def _play(
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
    alt: Int64s,
    other_view: Int64s,
    features: Float64s,
) -> None:
    """The seat to play, having drawn, goes out if it can, else melds and lays off as
    ``policy`` says and discards.  ``least``: its deadwood with ``view`` and ``out`` as
    :func:`_draw` leaves them, or -1 to work them out here."""
    p = state[Slot.PLAYER]
    if least < 0:
        build_own_view(state, rules, view)
        least = discard_values(state, rd, out, view, choice, best, best_choice)
    if go_out(state, rules, least, rd, rm, out, view, choice, best, best_choice):
        return
    if policy[PolicyField.MELD] == Meld.EXPERT or policy[PolicyField.DISCARD] == Discard.EXPERT:
        card, known = expert_play(
            state,
            rules,
            policy,
            least,
            rd,
            rm,
            lp,
            out,
            view,
            no_table,
            choice,
            best,
            best_choice,
            alt,
            other_view,
            features,
        )
    else:
        least = scripted_play(
            state, rules, policy, least, rd, rm, lp, out, view, no_table, choice, best, best_choice
        )
        card = scripted_discard(state, policy, least, lp, out)
        known = out[card]
    apply_discard(state, rules, card, view)
    # the deadwood it keeps, while the table does not change: its next draw decision
    state[Slot.KNOWN + p] = known
    state[Slot.KNOWN_VERSION + p] = state[Slot.VERSION]


@njit(cache=True, inline="always")
def _step(
    state: Int64s,
    rules: Int64s,
    policies: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    view: Int64s,
    no_table: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    alt: Int64s,
    other_view: Int64s,
    features: Float64s,
) -> None:
    """:func:`step` with the scratch arrays one by one."""
    phase = state[Slot.PHASE]
    least = np.int64(-1)
    if phase == Phase.DRAW:
        least = _draw(state, rules, rd, out, view, choice, best, best_choice)
    if state[Slot.PHASE] == Phase.PLAY:
        policy = policies[state[Slot.PLAYER]]
        _play(
            state,
            rules,
            policy,
            least,
            rd,
            rm,
            lp,
            out,
            view,
            no_table,
            choice,
            best,
            best_choice,
            alt,
            other_view,
            features,
        )
    elif phase == Phase.CALL:
        if call_choice(state, policies[state[Slot.CALLER]]):
            apply_call(state, rules, view)
        else:
            pass_call(state, rules, view)


@njit(cache=True)
def draw_step(state: Int64s, rules: Int64s, rd: Int64s, ws: WorkViews) -> None:
    """The seat to play draws (only the draw: :func:`step` plays on to the discard)."""
    out, view, _, choice, best, best_choice, _, _, _ = ws
    _draw(state, rules, rd, out, view, choice, best, best_choice)


@njit(cache=True)
def draw_decision(
    state: Int64s, rules: Int64s, rd: Int64s, ws: WorkViews
) -> tuple[bool, np.int64, np.int64]:
    """``(take, now, after)``: whether the seat to play would take the pile's top, its
    least deadwood now and after taking it and throwing another card (points; see
    :func:`~analyzer.rummy.decisions.draw_choice`)."""
    out, view, _, choice, best, best_choice, _, _, _ = ws
    build_own_view(state, rules, view)
    take, _, now, after = draw_choice(state, rd, out, view, choice, best, best_choice)
    return take, now, after


@njit(cache=True)
def step(
    state: Int64s,
    rules: Int64s,
    policies: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    ws: WorkViews,
) -> None:
    """The next move of the hand, by the policy of the seat to move
    (``policies[seat]``): a whole turn (draw, melds and layoffs, discard) from the draw
    phase, the rest of the turn from the play phase, or a call decision."""
    out, view, no_table, choice, best, best_choice, alt, other_view, features = ws
    _step(
        state,
        rules,
        policies,
        rd,
        rm,
        lp,
        out,
        view,
        no_table,
        choice,
        best,
        best_choice,
        alt,
        other_view,
        features,
    )


@njit(cache=True)
def play_hand(
    state: Int64s,
    rules: Int64s,
    policies: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    ws: WorkViews,
) -> None:
    """Play the hand in ``state`` to its end (:func:`step` after step), in place.

    Parameters
    ----------
    state : ndarray(int64, shape=(STATE_SIZE,))
        The hand (:mod:`analyzer.rummy.state`); at the end ``Slot.WINNER``,
        ``Slot.POINTS``, ``Slot.END`` ... say how it ended.
    rules : ndarray(int64)
        :meth:`RummyRules.to_array`.
    policies : ndarray(int64, shape=(players, N_POLICY_FIELDS))
        :meth:`RummyPolicy.to_array` of each seat.
    rd, rm, lp : ndarray(int64, shape=(8192,))
        :func:`analyzer.core.lanes.lane_tables` for the rules' run cap.
    ws : WorkViews
        Scratch arrays (:func:`analyzer.rummy.work.work_space`).
    """
    out, view, no_table, choice, best, best_choice, alt, other_view, features = ws
    while state[Slot.PHASE] != Phase.DONE:
        _step(
            state,
            rules,
            policies,
            rd,
            rm,
            lp,
            out,
            view,
            no_table,
            choice,
            best,
            best_choice,
            alt,
            other_view,
            features,
        )
