"""Knock now or play on? Branching at every legal knock, on common continuations.

For each deal the subject (seat 0, policy A) plays against B.  Whenever the subject holds
11 cards and may legally knock (without gin), the state is copied twice:

* **knock**: knock now, discarding a card that leaves the least deadwood;
* **play on**: throw the card the policy throws when it does not knock, then both
  players continue with their policies (A knocks at its next chance if its schedule
  says so).

Both branches continue from the same stock order and random stream, so the difference
of their points (to A) is measured on common cards.  The main line then goes on as in
the play-on branch, without knocking, so that later turns are visited too; it ends when
B knocks, somebody goes gin, or the stock runs out.  The differences are summed by cell
(A's own turn number, deadwood), seats swapped over each deal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Float64s, Int8s, Int64s, UInt64s
from ...core.rng import POLICY_SALT, stream_key
from ...core.threads import run_spans
from ..decisions.choose import choose_discard
from ..engine.transitions import (
    MAX_DRAWS,
    SCRATCH_SIZE,
    STATE_SIZE,
    Slot,
    advance,
    apply_discard,
    knock_deadwood,
)
from ..model.policies import Policy
from ..model.policy_fields import SCHEDULE_TURNS, PolicyField
from ..model.rules import Rules
from ..model.state import points_to
from ..play.game_kernels import deal_hand
from ..play.results import MAX_HAND_POINTS

#: Own turns tracked separately; later turns are pooled into the last row.
MAX_TURN = 20
#: Largest points a hand can score in the game-value table (|points| above it are capped).
MAX_POINTS = 400
#: Per-cell sums: n, points difference and its square, game-win difference and its square.
N_SUMS = 5


def knock_sums_problem(sums: Float64s, deals: int) -> str | None:
    """Why ``sums`` (shaped as :func:`knock_chart_sums`' are) cannot be those of
    ``deals`` deals, or None: each cell's count a whole number >= 0, at most a knock
    decision per draw of each of a deal's two hands in all, and its sums what that many
    differences can add (points within twice
    :data:`~analyzer.gin.play.results.MAX_HAND_POINTS` either way, game-win chances
    within 1)."""
    n, points, points_sq, win, win_sq = np.moveaxis(sums, -1, 0)
    if (n < 0).any() or (n != np.floor(n)).any():
        return "holds a count of decisions that is not a whole number >= 0"
    if n.sum() > 2 * (MAX_DRAWS + 1) * deals:
        return f"counts {n.sum():,g} knock decisions, more than {deals:,} deals hold"
    slack = 1 + 1e-9
    for total, squares, widest in ((points, points_sq, 2 * MAX_HAND_POINTS), (win, win_sq, 1)):
        bad = (
            (np.abs(total) > n * widest)
            | (squares < 0)
            | (squares > n * widest**2)
            | (total * total > n * squares * slack)
        )
        if bad.any():
            turn, deadwood = (int(i) for i in np.argwhere(bad)[0])
            return (
                f"cell (turn {turn}, deadwood {deadwood}) holds sums {n[turn, deadwood]:,g} "
                "decisions cannot add"
            )
    return None


@njit(cache=True)
def _capped(points: np.int64) -> np.int64:
    return max(-MAX_POINTS, min(MAX_POINTS, points))


@njit(cache=True)
def start_hand(
    state: Int64s,
    deck: Int8s,
    rng: UInt64s,
    seed: np.int64,
    deal: np.int64,
    rep: np.int64,
    rules: Int64s,
) -> None:
    """Deal ``deal`` of ``seed`` with A (seat 0) the non-dealer (``rep`` 0) or the dealer
    (``rep`` 1), leaving ``rng`` on the deal's policy stream."""
    deal_hand(stream_key(seed, deal), np.int64(1 - rep), rules, state, deck, rng)
    rng[0] = stream_key(seed ^ POLICY_SALT, deal)


@njit(cache=True)
def next_knock_decision(
    state: Int64s, rules: Int64s, policies: Int64s, rng: UInt64s, scratch: Int64s
) -> np.int64:
    """Play on (both players by ``policies``) until A holds 11 cards and may knock without
    gin; return its least deadwood then (points), or -1 once the hand is over."""
    while advance(state, rules, policies, rng, scratch, np.bool_(True)):
        player = state[Slot.TURN]
        deadwood = knock_deadwood(state, scratch)
        if player == 0 and deadwood > 0:
            return deadwood
        card, knock = choose_discard(
            state, player, policies[player], rng, scratch[:52], scratch[52:]
        )
        apply_discard(state, card, knock, rules)
    return np.int64(-1)


def decision_policies(subject: Policy) -> tuple[Int64s, Int64s]:
    """A's policy rows with its schedule set to always knock and to never knock (gin
    still ends the hand): the two branches of a knock decision."""
    knock_now = subject.changed(knock_rule="schedule").with_knock(10).to_array()
    hold = subject.to_array()
    hold[PolicyField.SCHEDULE : PolicyField.SCHEDULE + SCHEDULE_TURNS] = -1
    hold[PolicyField.ALERT_SCHEDULE : PolicyField.ALERT_SCHEDULE + SCHEDULE_TURNS] = -1
    return knock_now, hold


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def _knock_chart_kernel(
    seed: np.int64,
    first: np.int64,
    count: np.int64,
    rules: Int64s,
    policies: Int64s,
    knock_now: Int64s,
    hold: Int64s,
    game_values: Float64s,
    sums: Float64s,
) -> None:
    """Add the knock-minus-play-on sums (see ``N_SUMS``) of deals ``first .. first +
    count`` to ``sums[turn, dw]`` (the caller keeps one such slot per span of deals and
    adds them up in slot order).  ``knock_now`` and ``hold`` are A's policy with its
    schedule set to always / never knock; ``game_values[a_dealt, MAX_POINTS + points to
    A]`` is A's game-win probability after the hand."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    branch = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int8)
    rng = np.empty(1, dtype=np.uint64)
    branch_rng = np.empty(1, dtype=np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    for deal in range(first, first + count):
        for rep in range(2):
            start_hand(state, deck, rng, seed, deal, rep, rules)
            while True:
                deadwood = next_knock_decision(state, rules, policies, rng, scratch)
                if deadwood < 0:
                    break
                turn = min(state[Slot.OWN_TURNS], MAX_TURN)
                # knock now: the policy's knock discard (least deadwood, highest card)
                branch[:] = state
                branch_rng[0] = rng[0]
                card, _ = choose_discard(
                    branch, np.int64(0), knock_now, branch_rng, scratch[:52], scratch[52:]
                )
                apply_discard(branch, card, np.bool_(True), rules)  # one compile: not literal
                knock_points = points_to(branch, np.int64(0))
                a_dealt = 1 - rep
                # play on: the throw of the same policy with knocking held back
                card, _ = choose_discard(state, np.int64(0), hold, rng, scratch[:52], scratch[52:])
                apply_discard(state, card, np.bool_(False), rules)
                branch[:] = state
                branch_rng[0] = rng[0]
                advance(branch, rules, policies, branch_rng, scratch, np.bool_(False))
                play_points = points_to(branch, np.int64(0))
                difference = np.float64(knock_points - play_points)
                win = (
                    game_values[a_dealt, MAX_POINTS + _capped(knock_points)]
                    - game_values[a_dealt, MAX_POINTS + _capped(play_points)]
                )
                cell = sums[turn, deadwood]
                cell[0] += 1.0
                cell[1] += difference
                cell[2] += difference * difference
                cell[3] += win
                cell[4] += win * win


def knock_chart_sums(
    rules: Rules,
    subject: Policy,
    opponent: Policy,
    seed: int,
    first: int,
    count: int,
    game_values: Float64s | None = None,
    slots: int = 64,
) -> Float64s:
    """Sums of knock-minus-play-on differences for deals ``first .. first + count``,
    shaped ``(MAX_TURN + 1, 11, N_SUMS)`` by (A's own turn, deadwood in points): n, points
    (to A) and its square, game-win probability and its square.

    ``game_values`` (shape ``(2, 2 * MAX_POINTS + 1)``: by whether A dealt, and points to
    A) values a hand's result as A's chance of winning the game; zeros when not given.
    The point sums are integers, so chunks merge exactly; the game-win sums are floats,
    merged in chunk order.
    """
    knock_now, hold = decision_policies(subject)
    if game_values is None:
        game_values = np.zeros((2, 2 * MAX_POINTS + 1))
    sums = np.zeros((slots, MAX_TURN + 1, 11, N_SUMS), dtype=np.float64)
    policies = np.stack([subject.to_array(), opponent.to_array()])
    rules_array = rules.to_array()
    per_slot = -(-count // slots)

    def slot_sums(slot: int, _: int) -> None:
        slot_first = min(count, slot * per_slot)
        _knock_chart_kernel(
            np.int64(seed),
            np.int64(first + slot_first),
            np.int64(min(count, slot_first + per_slot) - slot_first),
            rules_array,
            policies,
            knock_now,
            hold,
            game_values,
            sums[slot],
        )

    # one slot per call; the slots' sums are added in slot order whatever the threads
    run_spans(slot_sums, slots, 1)
    return sums.sum(axis=0)
