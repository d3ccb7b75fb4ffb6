"""The equity table: P(A wins the game) and A's expected final margin by score state.

>>> from analyzer.gin.studies.equity.law import toy_distribution
>>> law = toy_distribution({("A", 5): 0.5, ("B", 5): 0.5})
>>> table = equity_table(law, Rules(target=10, game_bonus=0, line_bonus=0, shutout="none"))
>>> round(table.win_probability(0, 0, True), 3)
0.5
>>> round(table.win_probability(5, 0, True), 3)
0.75
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ....core.arrays import Float64s, Int64s
from ....core.progress import Progress
from ...model.policies import Policy
from ...model.rules import Rules
from .dp import Scoring, Value, reach, solve
from .law import Law, hand_outcome_distribution, stack_laws


@dataclass(frozen=True)
class EquityTable:
    """Game-win probability and expected final margin by score state, for player A.

    Scores are in points and lie in ``0 .. target - 1``.  "Me" in the methods is
    player A of the distribution (for a symmetric pair, either player).
    """

    rules: Rules
    values: Float64s
    """Shape (target, target, dealer, A has won, B has won, :class:`Value`); dealer 0 is A."""
    visit: Float64s
    """P(a game from 0:0, first dealer drawn at random, visits (a, b, dealer))."""
    boxes: Float64s
    """E[boxes won so far x visit] by (a, b, dealer, player)."""
    choice: Int64s
    """Index of the law (knock threshold) A plays at each (a, b)."""
    meta: dict[str, object]

    def _state(
        self,
        score_me: int,
        score_opp: int,
        me_deals_next: bool,
        won_me: bool | None,
        won_opp: bool | None,
    ) -> Float64s:
        target = self.rules.target
        if not (0 <= score_me < target and 0 <= score_opp < target):
            raise ValueError(
                f"scores must be in 0-{target - 1} (the game ends at {target}); "
                f"got {score_me}:{score_opp}"
            )
        fa = score_me > 0 if won_me is None else won_me
        fb = score_opp > 0 if won_opp is None else won_opp
        state: Float64s = self.values[
            score_me, score_opp, 0 if me_deals_next else 1, int(fa), int(fb)
        ]
        return state

    def win_probability(
        self,
        score_me: int,
        score_opp: int,
        me_deals_next: bool,
        won_me: bool | None = None,
        won_opp: bool | None = None,
    ) -> float:
        """P(I win the game) from this score (points), given who deals next.

        ``won_me``/``won_opp``: whether each player has won a hand yet (only shutouts
        depend on it; default: a score above 0, as in a game from 0:0).
        """
        state = self._state(score_me, score_opp, me_deals_next, won_me, won_opp)
        return float(state[Value.WIN])

    def expected_margin(
        self,
        score_me: int,
        score_opp: int,
        me_deals_next: bool,
        boxes_me: float | None = None,
        boxes_opp: float | None = None,
    ) -> float:
        """E[my final total - the opponent's] (points, all bonuses) from this score.

        ``boxes_me``/``boxes_opp`` are the hands each has won so far; by default the
        expected numbers in a game from 0:0 that reaches this state.
        """
        self._state(score_me, score_opp, me_deals_next, None, None)  # validates the scores
        typical = self.typical_boxes()[score_me, score_opp, 0 if me_deals_next else 1]
        boxes = np.array(
            [
                typical[0] if boxes_me is None else boxes_me,
                typical[1] if boxes_opp is None else boxes_opp,
            ],
            dtype=float,
        )
        state = self._state(score_me, score_opp, me_deals_next, boxes[0] > 0, boxes[1] > 0)
        return float(self._margin(state, boxes))

    def _margin(self, state: Float64s, boxes: Float64s) -> Float64s:
        """E[final margin] of states (``..., Value``) given boxes won (``..., player``):
        the DP's margin from the state on, plus the line bonus of each box already won,
        doubled when the game ends in a shutout of the other player."""
        scoring = Scoring.of(self.rules)
        per_box = 1.0 + scoring.doubles * state[..., [Value.SHUTOUT_A, Value.SHUTOUT_B]]
        held = scoring.line_end * (boxes * per_box * np.array([1.0, -1.0])).sum(axis=-1)
        margin: Float64s = state[..., Value.MARGIN] + held
        return margin

    def typical_boxes(self) -> Float64s:
        """E[boxes won so far | a game from 0:0 visits (a, b, dealer)], shape
        (a, b, dealer, player); unvisited states get 1 box for a positive score."""
        target = self.rules.target
        scores = np.arange(target)
        won = np.stack(np.broadcast_arrays((scores > 0)[:, None], (scores > 0)[None, :]), -1)
        seen = self.visit[..., None]
        return np.where(
            seen > 0, self.boxes / np.where(seen > 0, seen, 1.0), won[:, :, None, :].astype(float)
        )

    def win_probability_after(
        self, score_me: int, score_opp: int, points_me: int, me_dealt: bool
    ) -> float:
        """P(I win the game) after a hand from this score in which I score ``points_me``
        (negative: the opponent scores ``-points_me``; 0: a drawn hand, redealt by the
        same dealer).  This is the game-win objective of one hand's decision.
        """
        if points_me == 0:
            return self.win_probability(score_me, score_opp, me_dealt)
        immediate = self.rules.line_bonus if self.rules.line_bonus_timing == "immediate" else 0
        winner_me = points_me > 0
        step = abs(points_me) + immediate
        me, opp = score_me + step * winner_me, score_opp + step * (not winner_me)
        if me >= self.rules.target:
            return 1.0
        if opp >= self.rules.target:
            return 0.0
        deals = winner_me if self.rules.next_dealer == "winner" else not me_dealt
        return self.win_probability(
            me, opp, deals, won_me=score_me > 0 or winner_me, won_opp=score_opp > 0 or not winner_me
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per (score_a, score_b, a_deals) of a game from 0:0 (tidy).

        Columns: ``win`` P(A wins); ``margin`` E[final margin of A] (points, at the
        expected boxes so far); ``shutout_win``/``shutout_loss`` P(A wins / loses by a
        shutout); ``hands_left`` E[hands still dealt]; ``visit`` P(a game from 0:0
        passes through the state).
        """
        target = self.rules.target
        a, b, d = (
            axis.ravel()
            for axis in np.meshgrid(
                np.arange(target), np.arange(target), np.arange(2), indexing="ij"
            )
        )
        state = self.values[a, b, d, (a > 0).astype(int), (b > 0).astype(int)]
        return pd.DataFrame(
            {
                "score_a": a,
                "score_b": b,
                "a_deals": d == 0,
                "win": state[:, Value.WIN],
                "margin": self._margin(state, self.typical_boxes()[a, b, d]),
                "shutout_win": state[:, Value.SHUTOUT_A],
                "shutout_loss": state[:, Value.SHUTOUT_B],
                "hands_left": state[:, Value.HANDS],
                "visit": self.visit[a, b, d],
            }
        )

    def start(self, value: Value = Value.WIN) -> float:
        """A value at 0:0 with the first dealer drawn at random (a cut for the deal)."""
        return float(self.values[0, 0, :, 0, 0, value].mean())


def equity_table(distribution: pd.DataFrame, rules: Rules) -> EquityTable:
    """Solve the score-state DP for one hand-outcome distribution.

    Parameters
    ----------
    distribution : pandas.DataFrame
        From :func:`hand_outcome_distribution` (or :func:`toy_distribution`).
    rules : Rules
        Scoring: target, game bonus, line bonus and its timing, shutout rule and who
        deals next.  The hand rules are already in the distribution.

    Returns
    -------
    EquityTable

    Raises
    ------
    ValueError
        For Hollywood scoring, or a law in which a hand can be won for 0 points.

    Notes
    -----
    States are (A's score, B's score, dealer, A has won a hand, B has won a hand);
    every decided hand moves one score forward by its points (plus the line bonus when
    paid immediately), so a numba kernel can solve every state once, in decreasing
    order of the total score (about 0.1 s for a game to 100).  Drawn hands are redealt
    by the same dealer,
    so they are conditioned out.  The final margin is linear in the boxes won, so the
    boxes need not be states: the DP carries the margin counting boxes won from the
    state on (each worth the line bonus, twice in a shutout) and the boxes already won
    are valued by :meth:`EquityTable.expected_margin`.
    """
    return solve_table(stack_laws([distribution], rules), rules, None, dict(distribution.attrs))


def equity_function(
    rules: Rules,
    policy_me: Policy,
    policy_opp: Policy,
    deals: int = 100_000,
    seed: int = 0,
    progress: Progress | None = None,
) -> Callable[[int, int, bool], float]:
    """``win(score_me, score_opp, i_deal_next)``: P(I win the game), from a table.

    This is the ``equity`` argument of the advisor's game-win objective
    (:func:`analyzer.gin.play.advisor.advise`), in place of its whole-game simulation: one
    distribution of ``deals`` deals (a few seconds) answers every score at once.
    Scores of the target or more are not states: the caller scores finished games.
    """
    distribution = hand_outcome_distribution(rules, policy_me, policy_opp, deals, seed, progress)
    return equity_table(distribution, rules).win_probability


def solve_table(
    law: Law,
    rules: Rules,
    choice: Int64s | None,
    meta: dict[str, object],
    weights: Float64s | None = None,
) -> EquityTable:
    """Solve (see :func:`solve`), then run the forward pass under the laws played."""
    values, chosen = solve(law, rules, choice, weights)
    visit, boxes = reach(law, rules, chosen)
    target = rules.target
    return EquityTable(rules, values[:target, :target], visit, boxes, chosen, meta)


__all__ = ["EquityTable", "equity_function", "equity_table", "solve_table"]
