"""The score-state dynamic program: backward induction from the target (numba kernels)
and the forward pass of the visit probabilities."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numba import njit

from ....core.arrays import Float64s, Int64s
from ...model.rules import Rules
from .law import Law


class Value(IntEnum):
    """Quantities the DP carries for every state (from A's side)."""

    WIN = 0
    """P(A wins the game)."""
    SHUTOUT_A = 1
    """P(A wins and B won no hand)."""
    SHUTOUT_B = 2
    """P(B wins and A won no hand)."""
    MARGIN = 3
    """E[A's final total - B's], counting no boxes won before this state."""
    HANDS = 4
    """E[hands still to be dealt], drawn hands included."""


_N_VALUES = len(Value)


def check_rules(rules: Rules) -> None:
    """Raise ``ValueError`` for rules the table does not cover (Hollywood scoring)."""
    if rules.hollywood:
        raise ValueError(
            "the equity table covers one game at a time; Hollywood scoring "
            "(three games on one sheet) is not covered"
        )


@dataclass(frozen=True)
class Scoring:
    """End-of-game scoring constants, indexed by whether the game is a shutout."""

    target: int
    line_end: int
    """Line bonus per box paid at the end (0 when paid with each hand)."""
    multiplier: tuple[int, int]
    game_bonus: tuple[int, int]
    plus: tuple[int, int]
    doubles: bool

    @classmethod
    def of(cls, rules: Rules) -> Scoring:
        check_rules(rules)
        shutout = rules.shutout
        return cls(
            target=rules.target,
            line_end=rules.line_bonus if rules.line_bonus_timing == "end" else 0,
            multiplier=(1, 2 if shutout == "double" else 1),
            game_bonus=(rules.game_bonus, 200 if shutout == "bonus200" else rules.game_bonus),
            plus=(0, 100 if shutout == "plus100" else 0),
            doubles=shutout == "double",
        )


def _terminal_values(scoring: Scoring, size: int) -> Float64s:
    """Values on a ``size x size`` score grid where scores >= target have ended the game.

    Axes: (score A, score B, dealer, A has won a hand, B has won a hand, :class:`Value`).
    The margin excludes the last hand's box, which the transition into the state adds.
    """
    target = scoring.target
    values = np.zeros((size, size, 2, 2, 2, len(Value)))
    over = np.arange(size)
    for flag in (0, 1):
        # A won: a shutout when B (flag of the loser) has won no hand
        shut = 1 - flag
        a_won = values[target:, :target, :, :, flag]
        a_won[..., Value.WIN] = 1.0
        a_won[..., Value.SHUTOUT_A] = shut
        a_won[..., Value.MARGIN] = (
            scoring.multiplier[shut] * (over[target:, None] + scoring.game_bonus[shut])
            + scoring.plus[shut]
            - over[None, :target]
        )[:, :, None, None]
        b_won = values[:target, target:, :, flag]
        b_won[..., Value.SHUTOUT_B] = shut
        b_won[..., Value.MARGIN] = -(
            scoring.multiplier[shut] * (over[None, target:] + scoring.game_bonus[shut])
            + scoring.plus[shut]
            - over[:target, None]
        )[:, :, None, None]
    return values


@njit(cache=True)
def _backup_kernel(
    a: np.int64,
    b: np.int64,
    law: np.int64,
    win: Float64s,
    decided: Float64s,
    steps: Int64s,
    line_end: np.float64,
    doubles: np.float64,
    winner_deals: bool,
    values: Float64s,
    out: Float64s,
) -> None:
    """Values of live state (a, b) under law ``law`` into ``out`` (dealer, A won, B won,
    :class:`Value`), from the values of the states after it."""
    out[:] = 0.0
    for d in range(2):
        # drawn hands are redealt by the same dealer: 1 / P(decided) hands per decided one
        out[d, :, :, Value.HANDS] = 1.0 / decided[law, d]
        for w in range(2):
            after_dealer = w if winner_deals else 1 - d
            sign = 1.0 if w == 0 else -1.0
            shutout = Value.SHUTOUT_A if w == 0 else Value.SHUTOUT_B
            for k in range(steps.shape[0]):
                p = win[law, w, d, k]
                if p == 0.0:
                    continue
                for other in range(2):
                    # the winner's flag becomes 1; the other player's flag is kept
                    if w == 0:
                        after = values[a + steps[k], b, after_dealer, 1, other]
                    else:
                        after = values[a, b + steps[k], after_dealer, other, 1]
                    # the box won by this hand: its line bonus, doubled in a shutout
                    box = sign * line_end * (1.0 + doubles * after[shutout])
                    for mine in range(2):
                        acc = out[d, mine, other] if w == 0 else out[d, other, mine]
                        for q in range(_N_VALUES):
                            acc[q] += p * after[q]
                        acc[Value.MARGIN] += p * box


@njit(cache=True)
def _solve_kernel(
    win: Float64s,
    decided: Float64s,
    steps: Int64s,
    target: np.int64,
    line_end: np.float64,
    doubles: np.float64,
    winner_deals: bool,
    weights: Float64s,
    choose: bool,
    values: Float64s,
    choice: Int64s,
) -> None:
    """Backward induction over live states, highest total score first.

    ``values`` holds the terminal states on entry.  With ``choose`` each state takes
    the law maximising P(A wins) weighted over the dealers by ``weights[a, b]`` (and
    writes it to ``choice``); otherwise it plays law ``choice[a, b]``.
    """
    out = np.empty(values.shape[2:])
    best = np.empty(values.shape[2:])
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            if not choose:
                _backup_kernel(
                    a,
                    b,
                    choice[a, b],
                    win,
                    decided,
                    steps,
                    line_end,
                    doubles,
                    winner_deals,
                    values,
                    values[a, b],
                )
                continue
            # only the flags of a game from 0:0 occur at (a, b): choose by those
            fa, fb = int(a > 0), int(b > 0)
            best_score = -1.0
            for law in range(win.shape[0]):
                _backup_kernel(
                    a, b, law, win, decided, steps, line_end, doubles, winner_deals, values, out
                )
                score = (
                    weights[a, b, 0] * out[0, fa, fb, Value.WIN]
                    + weights[a, b, 1] * out[1, fa, fb, Value.WIN]
                )
                if score > best_score:
                    best_score = score
                    best[:] = out
                    choice[a, b] = law
            values[a, b] = best


@njit(cache=True)
def _reach_kernel(
    win: Float64s,
    steps: Int64s,
    target: np.int64,
    winner_deals: bool,
    choice: Int64s,
    visit: Float64s,
    boxes: Float64s,
) -> None:
    """Forward pass from the mass in ``visit[0, 0]``, lowest total score first: the
    visit probability of each (a, b, dealer) and E[boxes of each player x visit]."""
    for total in range(2 * target - 1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            law = choice[a, b]
            for d in range(2):
                here = visit[a, b, d]
                if here == 0.0:
                    continue
                for w in range(2):
                    after_dealer = w if winner_deals else 1 - d
                    for k in range(steps.shape[0]):
                        p = win[law, w, d, k]
                        na, nb = (a + steps[k], b) if w == 0 else (a, b + steps[k])
                        visit[na, nb, after_dealer] += p * here
                        for player in range(2):
                            boxes[na, nb, after_dealer, player] += p * boxes[a, b, d, player]
                        boxes[na, nb, after_dealer, w] += p * here


def solve(
    law: Law, rules: Rules, choice: Int64s | None = None, weights: Float64s | None = None
) -> tuple[Float64s, Int64s]:
    """Values of every state on the padded grid and the law index played at each (a, b).

    With ``weights`` (a, b, dealer) each state picks the law maximising the weighted
    P(A wins) (A's best response when its choice may see the score but not the
    dealer); otherwise state (a, b) plays law ``choice[a, b]`` (default 0).
    """
    scoring = Scoring.of(rules)
    target = rules.target
    values = _terminal_values(scoring, target + int(law.steps.max()))
    chosen = np.zeros((target, target), dtype=np.int64) if choice is None else choice.copy()
    _solve_kernel(
        law.win,
        law.decided,
        law.steps,
        np.int64(target),
        np.float64(scoring.line_end),
        np.float64(scoring.doubles),
        rules.next_dealer == "winner",
        np.zeros((target, target, 2)) if weights is None else weights,
        weights is not None,
        values,
        chosen,
    )
    return values, chosen


def reach(law: Law, rules: Rules, choice: Int64s) -> tuple[Float64s, Float64s]:
    """Forward pass from 0:0 (first dealer by a fair cut): P(a game visits state
    (a, b, dealer)) and E[boxes won by A and by B x the visit indicator], shape
    (a, b, dealer, player).  Scores only rise, so a game visits a state at most once."""
    target = rules.target
    size = target + int(law.steps.max())
    visit = np.zeros((size, size, 2))
    boxes = np.zeros((size, size, 2, 2))
    visit[0, 0] = 0.5
    _reach_kernel(
        law.win, law.steps, np.int64(target), rules.next_dealer == "winner", choice, visit, boxes
    )
    return visit[:target, :target], boxes[:target, :target]


__all__ = ["Scoring", "Value", "check_rules", "reach", "solve"]
