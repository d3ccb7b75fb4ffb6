"""Game equity: a match-equity table for gin rummy, and score-aware knocking.

A game to ``target`` points is a Markov chain over score states once a hand's result
is known to be drawn from a fixed law: the state is (score of A, score of B, who deals
next, whether each player has won a hand yet), and each decided hand moves one score
forward.  This module

1. estimates that law, the *hand-outcome distribution*, by simulation
   (:func:`hand_outcome_distribution`: who scores and how many points, by dealer);
2. solves the chain backwards from the target (:func:`equity_table`) for the
   probability that A wins the game and A's expected final margin with every bonus
   (game, line, shutout) -- the gin analogue of a backgammon match-equity table;
3. checks the table against whole games simulated from sampled score states
   (:func:`check_against_simulation`);
4. finds A's best response when its knock threshold may depend on the score
   (:func:`score_aware_best_response`) and measures its gain by paired whole-game
   simulation (:func:`measure_gain`).

The table's one modelling assumption is that hands are independent of the score: a
hand's result depends only on who deals it, never on the score before it.  That holds
exactly for score-unaware policies in :mod:`analyzer.gin.play.simulate` (every hand is dealt
from its own random stream and played by the same policies), so for them the DP and a
whole-game simulation estimate the same numbers; :func:`check_against_simulation`
shows that they agree.  A score-aware policy is handled by giving each score state the
law of the threshold it plays there.

Hollywood scoring (three games on one sheet) is not covered: the table is one game.

>>> law = toy_distribution({("A", 5): 0.5, ("B", 5): 0.5})
>>> table = equity_table(law, Rules(target=10, game_bonus=0, line_bonus=0, shutout="none"))
>>> round(table.win_probability(0, 0, True), 3)
0.5
>>> round(table.win_probability(5, 0, True), 3)
0.75
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt
import pandas as pd
from numba import njit

from ...core.progress import Progress, advance, tell_total
from ...core.rng import offset_seed
from ...core.stats import Estimate
from ..model.policies import Policy, format_policy
from ..model.rules import Rules, resolve_rules
from ..play.game_kernels import GameColumn, HandColumn
from ..play.score_aware import ScoreAware
from ..play.simulate import game_rows, hand_rows

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_Z95 = 1.959964
_SEATS = ("A", "B")
_NONE = "none"
#: Deals per call of the hand kernel (bounds the memory of the per-hand rows).
_CHUNK = 1 << 16
#: Knock thresholds the score-aware player chooses among (points of deadwood).
KNOCK_THRESHOLDS = tuple(range(11))


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


# ---------------------------------------------------------------- hand-outcome law


def hand_outcome_distribution(rules: Rules, policy_a: Policy, policy_b: Policy, n_deals: int,
                              seed: int, progress: Callable[[int], None] | None = None
                              ) -> pd.DataFrame:
    """The joint law of one hand's result by dealer, estimated from simulated deals.

    Every deal is played twice on the same cards, once with each player dealing, so
    both dealers' laws are estimated from the same ``n_deals`` decks.

    Parameters
    ----------
    rules : Rules
    policy_a, policy_b : Policy
        Policies of player A (seat 0) and B.
    n_deals : int
        Deals (each gives one hand per dealer).
    seed : int
        Seed of :func:`analyzer.gin.play.simulate.hand_rows`.
    progress : callable, optional
        Called with the number of deals after each chunk.

    Returns
    -------
    pandas.DataFrame
        One row per (``dealer``, ``winner``, ``points``) seen: ``dealer`` is ``"A"`` or
        ``"B"``; ``winner`` is ``"A"``, ``"B"`` or ``"none"`` (a drawn hand, or a tie
        scored 0, which the same dealer redeals); ``points`` is the hand's score
        (points; every won hand is also one box); ``hands`` the count; ``probability``
        the share of that dealer's hands; ``se`` its binomial standard error.
        ``attrs`` records the rules, policies, seed and deals.
    """
    if n_deals < 1:
        raise ValueError(f"n_deals must be >= 1, got {n_deals}")
    counts: dict[tuple[int, int, int], int] = {}
    for first in range(0, n_deals, _CHUNK):
        rows = hand_rows(rules, policy_a, policy_b, seed, first, min(_CHUNK, n_deals - first))
        keys, tally = np.unique(
            rows[:, [HandColumn.DEALER, HandColumn.WINNER, HandColumn.POINTS]], axis=0,
            return_counts=True)
        for key, count in zip(keys.tolist(), tally.tolist(), strict=True):
            counts[tuple(key)] = counts.get(tuple(key), 0) + count
        if progress is not None:
            progress(len(rows) // 2)
    # a drawn hand and a tie both have winner -1 and 0 points: one row per dealer
    frame = pd.DataFrame(
        [(_SEATS[dealer], _NONE if winner < 0 else _SEATS[winner], points, count)
         for (dealer, winner, points), count in sorted(counts.items())],
        columns=["dealer", "winner", "points", "hands"])
    n = frame.groupby("dealer")["hands"].transform("sum")
    frame["probability"] = frame["hands"] / n
    frame["se"] = np.sqrt(frame["probability"] * (1 - frame["probability"]) / n)
    frame.attrs.update(rules=rules.describe(), policy_a=format_policy(policy_a),
                       policy_b=format_policy(policy_b), seed=seed, deals=n_deals)
    return frame


def toy_distribution(probabilities: dict[tuple[str, int], float],
                     dealer_b: dict[tuple[str, int], float] | None = None) -> pd.DataFrame:
    """A hand-made law in the format of :func:`hand_outcome_distribution` (for tests).

    ``probabilities`` maps (winner, points) to a probability when A deals, ``dealer_b``
    when B deals (default: the same); a missing remainder is the draw probability.
    ``hands`` holds the probabilities (there are no counts to resample).
    """
    rows = []
    for dealer, law in (("A", probabilities), ("B", dealer_b or probabilities)):
        for (winner, points), p in law.items():
            rows.append((dealer, winner, points, p))
        rows.append((dealer, _NONE, 0, 1.0 - sum(law.values())))
    frame = pd.DataFrame(rows, columns=["dealer", "winner", "points", "probability"])
    frame = frame[frame["probability"] > 0].reset_index(drop=True)
    frame["hands"] = frame["probability"]
    frame["se"] = 0.0
    return frame


@dataclass(frozen=True)
class _Law:
    """Laws of decided hands as arrays: ``win[l, w, d, k]`` is P(winner ``w`` scores
    ``steps[k]`` | dealer ``d``, the hand is decided) under law ``l``; ``decided[l, d]``
    is P(the hand is decided)."""

    steps: IntArray
    win: FloatArray
    decided: FloatArray


def _laws(frames: Sequence[pd.DataFrame], rules: Rules) -> _Law:
    """Stack distributions on a common grid of score steps (points, line bonus included
    when the rules pay it with each hand)."""
    immediate = rules.line_bonus if rules.line_bonus_timing == "immediate" else 0
    won = [f[f["winner"] != _NONE] for f in frames]
    if any((w["points"] + immediate <= 0).any() for w in won):
        # a hand won for 0 points would leave the score where it was and loop the chain
        raise ValueError("the equity table needs every won hand to score > 0 points "
                         "(undercut_bonus=0 with ties as undercuts breaks this)")
    steps = np.unique(np.concatenate([w["points"].to_numpy() for w in won])) + immediate
    win = np.zeros((len(frames), 2, 2, len(steps)))
    decided = np.zeros((len(frames), 2))
    for index, (frame, wins) in enumerate(zip(frames, won, strict=True)):
        for d, dealer in enumerate(_SEATS):
            total = frame.loc[frame["dealer"] == dealer, "probability"].sum()
            mine = wins[wins["dealer"] == dealer]
            decided[index, d] = mine["probability"].sum() / total
            if decided[index, d] == 0:
                raise ValueError(f"no hand dealt by {dealer} was decided: the game never ends")
            for w, winner in enumerate(_SEATS):
                part = mine[mine["winner"] == winner]
                k = np.searchsorted(steps, part["points"].to_numpy() + immediate)
                np.add.at(win[index, w, d], k, part["probability"].to_numpy())
            win[index, :, d] /= decided[index, d] * total
    return _Law(steps.astype(np.int64), win, decided)


def _resample(frame: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """A multinomial bootstrap copy of a simulated distribution (counts redrawn per dealer)."""
    copy = frame.copy()
    for dealer in _SEATS:
        rows = copy["dealer"] == dealer
        counts = copy.loc[rows, "hands"].to_numpy()
        n = counts.sum()
        copy.loc[rows, "probability"] = rng.multinomial(n, counts / n) / n
    return copy


# ---------------------------------------------------------------------- the DP


def check_rules(rules: Rules) -> None:
    """Raise ``ValueError`` for rules the table does not cover (Hollywood scoring)."""
    if rules.hollywood:
        raise ValueError("the equity table covers one game at a time; Hollywood scoring "
                         "(three games on one sheet) is not covered")


@dataclass(frozen=True)
class _Scoring:
    """End-of-game scoring constants, indexed by whether the game is a shutout."""

    target: int
    line_end: int
    """Line bonus per box paid at the end (0 when paid with each hand)."""
    multiplier: tuple[int, int]
    game_bonus: tuple[int, int]
    plus: tuple[int, int]
    doubles: bool

    @classmethod
    def of(cls, rules: Rules) -> _Scoring:
        check_rules(rules)
        shutout = rules.shutout
        return cls(target=rules.target,
                   line_end=rules.line_bonus if rules.line_bonus_timing == "end" else 0,
                   multiplier=(1, 2 if shutout == "double" else 1),
                   game_bonus=(rules.game_bonus, 200 if shutout == "bonus200"
                               else rules.game_bonus),
                   plus=(0, 100 if shutout == "plus100" else 0),
                   doubles=shutout == "double")


def _terminal_values(scoring: _Scoring, size: int) -> FloatArray:
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
            + scoring.plus[shut] - over[None, :target])[:, :, None, None]
        b_won = values[:target, target:, :, flag]
        b_won[..., Value.SHUTOUT_B] = shut
        b_won[..., Value.MARGIN] = -(
            scoring.multiplier[shut] * (over[None, target:] + scoring.game_bonus[shut])
            + scoring.plus[shut] - over[:target, None])[:, :, None, None]
    return values


@njit(cache=True)
def _backup_kernel(a: np.int64, b: np.int64, law: np.int64, win: FloatArray,
                   decided: FloatArray, steps: IntArray, line_end: np.float64,
                   doubles: np.float64, winner_deals: bool, values: FloatArray,
                   out: FloatArray) -> None:
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
def _solve_kernel(win: FloatArray, decided: FloatArray, steps: IntArray, target: np.int64,
                  line_end: np.float64, doubles: np.float64, winner_deals: bool,
                  weights: FloatArray, choose: bool, values: FloatArray,
                  choice: IntArray) -> None:
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
                _backup_kernel(a, b, choice[a, b], win, decided, steps, line_end, doubles,
                               winner_deals, values, values[a, b])
                continue
            # only the flags of a game from 0:0 occur at (a, b): choose by those
            fa, fb = int(a > 0), int(b > 0)
            best_score = -1.0
            for law in range(win.shape[0]):
                _backup_kernel(a, b, law, win, decided, steps, line_end, doubles,
                               winner_deals, values, out)
                score = (weights[a, b, 0] * out[0, fa, fb, Value.WIN]
                         + weights[a, b, 1] * out[1, fa, fb, Value.WIN])
                if score > best_score:
                    best_score = score
                    best[:] = out
                    choice[a, b] = law
            values[a, b] = best


@njit(cache=True)
def _reach_kernel(win: FloatArray, steps: IntArray, target: np.int64, winner_deals: bool,
                  choice: IntArray, visit: FloatArray, boxes: FloatArray) -> None:
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


def _solve(law: _Law, rules: Rules, choice: IntArray | None = None,
           weights: FloatArray | None = None) -> tuple[FloatArray, IntArray]:
    """Values of every state on the padded grid and the law index played at each (a, b).

    With ``weights`` (a, b, dealer) each state picks the law maximising the weighted
    P(A wins) (A's best response when its choice may see the score but not the
    dealer); otherwise state (a, b) plays law ``choice[a, b]`` (default 0).
    """
    scoring = _Scoring.of(rules)
    target = rules.target
    values = _terminal_values(scoring, target + int(law.steps.max()))
    chosen = np.zeros((target, target), dtype=np.int64) if choice is None else choice.copy()
    _solve_kernel(law.win, law.decided, law.steps, np.int64(target),
                  np.float64(scoring.line_end), np.float64(scoring.doubles),
                  rules.next_dealer == "winner",
                  np.zeros((target, target, 2)) if weights is None else weights,
                  weights is not None, values, chosen)
    return values, chosen


def _reach(law: _Law, rules: Rules, choice: IntArray) -> tuple[FloatArray, FloatArray]:
    """Forward pass from 0:0 (first dealer by a fair cut): P(a game visits state
    (a, b, dealer)) and E[boxes won by A and by B x the visit indicator], shape
    (a, b, dealer, player).  Scores only rise, so a game visits a state at most once."""
    target = rules.target
    size = target + int(law.steps.max())
    visit = np.zeros((size, size, 2))
    boxes = np.zeros((size, size, 2, 2))
    visit[0, 0] = 0.5
    _reach_kernel(law.win, law.steps, np.int64(target), rules.next_dealer == "winner",
                  choice, visit, boxes)
    return visit[:target, :target], boxes[:target, :target]


@dataclass(frozen=True)
class EquityTable:
    """Game-win probability and expected final margin by score state, for player A.

    Scores are in points and lie in ``0 .. target - 1``.  "Me" in the methods is
    player A of the distribution (for a symmetric pair, either player).
    """

    rules: Rules
    values: FloatArray
    """Shape (target, target, dealer, A has won, B has won, :class:`Value`); dealer 0 is A."""
    visit: FloatArray
    """P(a game from 0:0, first dealer drawn at random, visits (a, b, dealer))."""
    boxes: FloatArray
    """E[boxes won so far x visit] by (a, b, dealer, player)."""
    choice: IntArray
    """Index of the law (knock threshold) A plays at each (a, b)."""
    meta: dict[str, object]

    def _state(self, score_me: int, score_opp: int, me_deals_next: bool,
               won_me: bool | None, won_opp: bool | None) -> FloatArray:
        target = self.rules.target
        if not (0 <= score_me < target and 0 <= score_opp < target):
            raise ValueError(f"scores must be in 0-{target - 1} (the game ends at {target}); "
                             f"got {score_me}:{score_opp}")
        fa = score_me > 0 if won_me is None else won_me
        fb = score_opp > 0 if won_opp is None else won_opp
        return self.values[score_me, score_opp, 0 if me_deals_next else 1, int(fa), int(fb)]

    def win_probability(self, score_me: int, score_opp: int, me_deals_next: bool,
                        won_me: bool | None = None, won_opp: bool | None = None) -> float:
        """P(I win the game) from this score (points), given who deals next.

        ``won_me``/``won_opp``: whether each player has won a hand yet (only shutouts
        depend on it; default: a score above 0, as in a game from 0:0).
        """
        state = self._state(score_me, score_opp, me_deals_next, won_me, won_opp)
        return float(state[Value.WIN])

    def expected_margin(self, score_me: int, score_opp: int, me_deals_next: bool,
                        boxes_me: float | None = None, boxes_opp: float | None = None) -> float:
        """E[my final total - the opponent's] (points, all bonuses) from this score.

        ``boxes_me``/``boxes_opp`` are the hands each has won so far; by default the
        expected numbers in a game from 0:0 that reaches this state.
        """
        self._state(score_me, score_opp, me_deals_next, None, None)  # validates the scores
        typical = self.typical_boxes()[score_me, score_opp, 0 if me_deals_next else 1]
        boxes = np.array([typical[0] if boxes_me is None else boxes_me,
                          typical[1] if boxes_opp is None else boxes_opp], dtype=float)
        state = self._state(score_me, score_opp, me_deals_next, boxes[0] > 0, boxes[1] > 0)
        return float(self._margin(state, boxes))

    def _margin(self, state: FloatArray, boxes: FloatArray) -> FloatArray:
        """E[final margin] of states (``..., Value``) given boxes won (``..., player``):
        the DP's margin from the state on, plus the line bonus of each box already won,
        doubled when the game ends in a shutout of the other player."""
        scoring = _Scoring.of(self.rules)
        per_box = 1.0 + scoring.doubles * state[..., [Value.SHUTOUT_A, Value.SHUTOUT_B]]
        held = scoring.line_end * (boxes * per_box * np.array([1.0, -1.0])).sum(axis=-1)
        return state[..., Value.MARGIN] + held

    def typical_boxes(self) -> FloatArray:
        """E[boxes won so far | a game from 0:0 visits (a, b, dealer)], shape
        (a, b, dealer, player); unvisited states get 1 box for a positive score."""
        target = self.rules.target
        scores = np.arange(target)
        won = np.stack(np.broadcast_arrays((scores > 0)[:, None], (scores > 0)[None, :]), -1)
        seen = self.visit[..., None]
        return np.where(seen > 0, self.boxes / np.where(seen > 0, seen, 1.0),
                        won[:, :, None, :].astype(float))

    def win_probability_after(self, score_me: int, score_opp: int, points_me: int,
                              me_dealt: bool) -> float:
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
        return self.win_probability(me, opp, deals, won_me=score_me > 0 or winner_me,
                                    won_opp=score_opp > 0 or not winner_me)

    def to_frame(self) -> pd.DataFrame:
        """One row per (score_a, score_b, a_deals) of a game from 0:0 (tidy).

        Columns: ``win`` P(A wins); ``margin`` E[final margin of A] (points, at the
        expected boxes so far); ``shutout_win``/``shutout_loss`` P(A wins / loses by a
        shutout); ``hands_left`` E[hands still dealt]; ``visit`` P(a game from 0:0
        passes through the state).
        """
        target = self.rules.target
        a, b, d = (axis.ravel() for axis in np.meshgrid(
            np.arange(target), np.arange(target), np.arange(2), indexing="ij"))
        state = self.values[a, b, d, (a > 0).astype(int), (b > 0).astype(int)]
        return pd.DataFrame({
            "score_a": a, "score_b": b, "a_deals": d == 0,
            "win": state[:, Value.WIN],
            "margin": self._margin(state, self.typical_boxes()[a, b, d]),
            "shutout_win": state[:, Value.SHUTOUT_A],
            "shutout_loss": state[:, Value.SHUTOUT_B],
            "hands_left": state[:, Value.HANDS],
            "visit": self.visit[a, b, d],
        })

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
    return _table(_laws([distribution], rules), rules, None, dict(distribution.attrs))


def equity_function(rules: Rules, policy_me: Policy, policy_opp: Policy,
                    n_deals: int = 100_000, seed: int = 0, progress: Progress | None = None
                    ) -> Callable[[int, int, bool], float]:
    """``win(score_me, score_opp, i_deal_next)``: P(I win the game), from a table.

    This is the ``equity`` argument of the advisor's game-win objective
    (:func:`analyzer.gin.play.advisor.advise`), in place of its whole-game simulation: one
    distribution of ``n_deals`` deals (a few seconds) answers every score at once.
    Scores of the target or more are not states: the caller scores finished games.
    """
    distribution = hand_outcome_distribution(rules, policy_me, policy_opp, n_deals, seed,
                                             progress)
    return equity_table(distribution, rules).win_probability


def _table(law: _Law, rules: Rules, choice: IntArray | None, meta: dict[str, object],
           weights: FloatArray | None = None) -> EquityTable:
    """Solve (see :func:`_solve`), then run the forward pass under the laws played."""
    values, chosen = _solve(law, rules, choice, weights)
    visit, boxes = _reach(law, rules, chosen)
    target = rules.target
    return EquityTable(rules, values[:target, :target], visit, boxes, chosen, meta)


# ----------------------------------------------------------------- chart data


def heatmap_data(table: EquityTable, a_deals: bool = True) -> pd.DataFrame:
    """P(A wins) as a grid: index A's score, columns B's score (points)."""
    frame = table.to_frame()
    frame = frame[frame["a_deals"] == a_deals]
    grid = frame.pivot(index="score_a", columns="score_b", values="win")
    return grid.rename_axis(index="A's score", columns="B's score")


def threshold_data(table: EquityTable, thresholds: Sequence[int] = KNOCK_THRESHOLDS
                   ) -> pd.DataFrame:
    """A's knock threshold (points) by score state: index own score, columns opponent's."""
    grid = np.asarray(thresholds)[table.choice]
    frame = pd.DataFrame(grid)
    frame.index.name, frame.columns.name = "own score", "opponent score"
    return frame


# ----------------------------------------------------------------- checks by games


def sample_states(table: EquityTable, n_states: int, seed: int) -> list[tuple[int, int]]:
    """``n_states`` distinct score states drawn with the visit probability of a game
    from 0:0 (0:0 always first), so checks cover the states games pass through."""
    rng = np.random.default_rng(seed)
    weight = table.visit.sum(axis=2).ravel()
    weight[0] = 0.0
    picks = rng.choice(weight.size, size=min(n_states - 1, np.count_nonzero(weight)),
                       replace=False, p=weight / weight.sum())
    target = table.rules.target
    return [(0, 0), *sorted((int(i // target), int(i % target)) for i in picks)]


def dp_standard_errors(distribution: pd.DataFrame, rules: Rules, n_boot: int, seed: int
                       ) -> FloatArray:
    """Bootstrap standard errors of the table's values from the sampling error of the
    distribution: same shape as :attr:`EquityTable.values`."""
    rng = np.random.default_rng(seed)
    draws = [_solve(_laws([_resample(distribution, rng)], rules), rules)[0]
             [:rules.target, :rules.target] for _ in range(n_boot)]
    return np.std(draws, axis=0, ddof=1)


def check_against_simulation(table: EquityTable, distribution: pd.DataFrame, rules: Rules,
                             policy_a: Policy, policy_b: Policy,
                             states: Sequence[tuple[int, int]], n_games: int, seed: int,
                             n_boot: int = 20) -> pd.DataFrame:
    """Compare the table with whole games simulated from the given score states.

    From each state (A's score, B's score), with the boxes a game from 0:0 typically
    has there (rounded, at least 1 for a positive score), ``n_games`` games are played
    with each first dealer on common decks.  The DP's own error comes from a bootstrap
    of ``distribution`` (``n_boot`` draws).

    Returns
    -------
    pandas.DataFrame
        One row per (state, dealer): DP and simulated P(A wins) (``win``), E[final
        margin] (``margin``, points) and E[hands to the end] (``hands``), each with its
        standard error, the ``z`` score of their difference and ``agree_*`` (|z| < 1.96).
    """
    error = dp_standard_errors(distribution, rules, n_boot, seed)
    columns = {"win": GameColumn.GAMES_WON_A, "margin": GameColumn.MARGIN_A,
               "hands": GameColumn.HANDS}
    rows = []
    for index, (score_a, score_b) in enumerate(states):
        seen = table.visit[score_a, score_b].sum()
        typical = (table.boxes[score_a, score_b].sum(axis=0) / seen if seen > 0
                   else np.ones(2))
        boxes = [0 if score == 0 else max(1, round(mean))
                 for score, mean in zip((score_a, score_b), typical, strict=True)]
        # games of distinct numbers per state: their decks differ, so states' errors
        # are independent (the DP's errors are not: one distribution serves all states)
        games = game_rows(rules, policy_a, policy_b, seed, index * n_games, n_games,
                          start=(score_a, score_b, boxes[0], boxes[1]))
        for dealer in (0, 1):
            cell = (score_a, score_b, dealer, int(boxes[0] > 0), int(boxes[1] > 0))
            state = table.values[cell]
            dp = {"win": state[Value.WIN],
                  "margin": table._margin(state, np.array(boxes, dtype=float)),
                  "hands": state[Value.HANDS]}
            dp_se = {"win": error[cell][Value.WIN], "margin": error[cell][Value.MARGIN],
                     "hands": error[cell][Value.HANDS]}
            played = games[games[:, GameColumn.FIRST_DEALER] == dealer]
            row: dict[str, object] = {"score_a": score_a, "score_b": score_b,
                                      "a_deals": dealer == 0, "boxes_a": boxes[0],
                                      "boxes_b": boxes[1], "games": len(played)}
            for name, column in columns.items():
                values = played[:, column].astype(np.float64)
                sim, sim_se = values.mean(), values.std(ddof=1) / np.sqrt(len(values))
                z = (dp[name] - sim) / np.hypot(dp_se[name], sim_se)
                row.update({f"dp_{name}": float(dp[name]), f"dp_{name}_se": dp_se[name],
                            f"sim_{name}": sim, f"sim_{name}_se": sim_se, f"z_{name}": z,
                            f"agree_{name}": abs(z) < _Z95})
            rows.append(row)
    return pd.DataFrame(rows)


def chi2_even_sf(statistic: float, dof: int) -> float:
    """P(chi-square with an even ``dof`` > statistic): the p-value of a sum of ``dof``
    squared z scores (closed form for even degrees of freedom; no scipy needed).

    >>> round(chi2_even_sf(2.0, 2), 4)  # exp(-1)
    0.3679
    """
    if dof % 2:
        raise ValueError(f"dof must be even, got {dof}")
    half = statistic / 2
    return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(dof // 2))


# ------------------------------------------------------------- score-aware knocking


def hand_summary(distribution: pd.DataFrame) -> dict[str, float]:
    """A's hand win rate and points per hand (A's minus B's), each the mean over the
    two dealers of a hand-outcome distribution."""
    signed = np.select([distribution["winner"] == "A", distribution["winner"] == "B"],
                       [distribution["points"], -distribution["points"]], 0)
    p = distribution["probability"]
    return {"hand_win": float((p * (distribution["winner"] == "A")).sum() / 2),
            "points_per_hand": float((p * signed).sum() / 2)}


def knock_distributions(rules: Rules, policy_a: Policy, policy_b: Policy, n_deals: int,
                        seed: int, thresholds: Sequence[int] = KNOCK_THRESHOLDS
                        ) -> list[pd.DataFrame]:
    """Hand-outcome distributions of A knocking at each threshold (points) against B,
    all on the same deals (so differences between thresholds are not luck)."""
    return [hand_outcome_distribution(rules, policy_a.with_knock(t), policy_b, n_deals, seed)
            for t in thresholds]


@dataclass(frozen=True)
class BestResponse:
    """A's best score-aware knock table against B and the best constant threshold."""

    aware: EquityTable
    """Table of the score-aware policy (its ``choice`` indexes ``thresholds``)."""
    constant: list[EquityTable]
    """Table of each constant threshold, in the order of ``thresholds``."""
    thresholds: tuple[int, ...]
    hands: pd.DataFrame
    """:func:`hand_summary` of each constant threshold, in the same order."""

    @property
    def best_constant(self) -> int:
        """Index of the constant threshold with the highest P(A wins) from 0:0."""
        return int(np.argmax([table.start() for table in self.constant]))

    def policy(self, policy_a: Policy) -> ScoreAware:
        """``policy_a`` knocking by the score-aware table, for
        :func:`analyzer.gin.play.simulate.play_games` (scores past the table use its edge)."""
        regions = np.pad(self.aware.choice, ((0, 1), (0, 1)), mode="edge")
        return ScoreAware(tuple(policy_a.with_knock(t) for t in self.thresholds), regions)

    def best_policy(self, policy_a: Policy) -> Policy:
        """``policy_a`` knocking at the best constant threshold."""
        return policy_a.with_knock(self.thresholds[self.best_constant])

    def constant_frame(self) -> pd.DataFrame:
        """Per constant threshold (then the score-aware table): hand win rate and points
        per hand of A, and the DP P(A wins the game from 0:0)."""
        frame = pd.concat([self.hands, pd.DataFrame([{}])], ignore_index=True)
        frame.insert(0, "threshold", [*map(str, self.thresholds), "score-aware"])
        frame["dp_game_win"] = [*(table.start() for table in self.constant),
                                self.aware.start()]
        return frame


def score_aware_best_response(distributions: Sequence[pd.DataFrame], rules: Rules,
                              thresholds: Sequence[int] = KNOCK_THRESHOLDS) -> BestResponse:
    """A's knock threshold per score state, maximising P(A wins the game).

    The choice at each (own score, opponent score) is made by backward induction
    over the DP (the equity table is the objective).  The knock table may not look at
    who deals, so the two dealers' win probabilities are weighted by how often a game
    reaches the state with each dealer under the best constant threshold.
    """
    law = _laws(distributions, rules)
    target = rules.target
    constant = [_table(law, rules, np.full((target, target), index), {"threshold": t})
                for index, t in enumerate(thresholds)]
    best = constant[int(np.argmax([table.start() for table in constant]))]
    weights = best.visit + 1e-12  # unvisited states still get a choice (dealers even)
    aware = _table(law, rules, None, {"thresholds": list(thresholds)}, weights)
    hands = pd.DataFrame([hand_summary(frame) for frame in distributions])
    return BestResponse(aware, constant, tuple(thresholds), hands)


def measure_gain(rules: Rules, challenger: ScoreAware | Policy, baseline: Policy,
                 opponent: Policy, n_games: int, seed: int) -> dict[str, Estimate]:
    """Game-win rate of two policies against one opponent, and the gain, on paired games.

    Both arms play the same games (same seed: the same deck for hand ``h`` of game
    ``g``, each game with both first dealers), so the difference is paired per game.

    Returns
    -------
    dict
        ``challenger``, ``baseline`` and ``gain`` (challenger - baseline) game-win
        rates of A as :class:`analyzer.core.stats.Estimate` (95% CI).
    """
    wins = {}
    for name, policy in (("challenger", challenger), ("baseline", baseline)):
        rows = game_rows(rules, policy, opponent, seed, 0, n_games)
        # a game = its two first-dealer plays on common decks
        wins[name] = rows[:, GameColumn.GAMES_WON_A].astype(np.float64).reshape(-1, 2).mean(1)
    wins["gain"] = wins["challenger"] - wins["baseline"]
    return {name: Estimate.from_sums(v.sum(), np.square(v).sum(), len(v))
            for name, v in wins.items()}


# ------------------------------------------------------------------ the study

REPORT_PRESETS = ("standard", "classic", "eaai", "target150", "oklahoma")
#: Default sizes of :func:`equity_study` (about two minutes on two cores).
REPORT_DEALS = 100_000
REPORT_GAMES = 20_000
#: Score states the report checks against whole games (0:0 and a sample).
REPORT_CHECK_STATES = 8


def check_summary(check: pd.DataFrame) -> dict[str, dict[str, float]]:
    """Per quantity: rows agreeing within 95%, and the chi-square test of all z scores
    (sum of z^2 on one degree of freedom per row; an even count is needed).  The test
    takes the rows as independent, which is only roughly so: the DP's errors at
    different states come from one distribution, and each state's two dealer rows
    share decks."""
    summary = {}
    for name in ("win", "margin", "hands"):
        z = check[f"z_{name}"].to_numpy()
        statistic = float(np.square(z).sum())
        summary[name] = {"agree": int(check[f"agree_{name}"].sum()), "rows": len(z),
                         "chi2": statistic, "p_value": chi2_even_sf(statistic, len(z))}
    return summary


@dataclass(frozen=True)
class EquityStudy:
    """Everything the equity study measures for basic against basic (standard rules)."""

    distribution: pd.DataFrame
    """Hand-outcome distribution (:func:`hand_outcome_distribution`, seed ``seed``)."""
    table: EquityTable
    check: pd.DataFrame
    """:func:`check_against_simulation` from 0:0 and sampled states (seed ``seed + 1``)."""
    presets: pd.DataFrame
    """:func:`preset_summary` of :data:`REPORT_PRESETS`."""
    response: BestResponse
    """Score-aware best response on the knock laws of seed ``seed + 2``."""
    gain: dict[str, Estimate]
    """:func:`measure_gain` of the score-aware table on seed ``seed + 3``."""
    deals: int
    """Deals per hand-outcome distribution (each played with both dealers)."""
    games: int
    """Games per arm of the gain; the check plays ``check_games`` per state and dealer."""
    seed: int

    @property
    def check_games(self) -> int:
        """Games per checked score state and first dealer."""
        return max(self.games // 4, 100)

    def gain_frame(self) -> pd.DataFrame:
        """Game-win rates of the gain measurement: one row per arm and the gain, with
        ``mean``, ``low95``, ``high95`` and ``games``."""
        return pd.DataFrame({name: {"mean": e.mean, "low95": e.low, "high95": e.high,
                                    "games": e.n}
                             for name, e in self.gain.items()}).T


def equity_study(deals: int = REPORT_DEALS, games: int = REPORT_GAMES, seed: int = 1,
                 progress: Progress | None = None) -> EquityStudy:
    """Run the equity study for basic against basic under the standard rules.

    Parameters
    ----------
    deals : int
        Deals per hand-outcome distribution (each played with both dealers).
    games : int
        Games per arm of the score-aware gain (each with both first dealers); the DP
        check plays ``games // 4`` (at least 100) from each sampled score state.
    seed : int
        Base seed; the table, the check, the knock laws and the gain use ``seed``,
        ``seed + 1``, ``seed + 2`` and ``seed + 3``, so the gain is measured on games
        the choice of knock table never saw.
    progress : callable, optional
        Counts the study's six steps (:mod:`analyzer.core.progress`).
    """
    tell_total(progress, 6)
    rules = resolve_rules("standard")
    basic = Policy()
    distribution = hand_outcome_distribution(rules, basic, basic, deals, seed)
    table = equity_table(distribution, rules)
    advance(progress, 1)
    check = check_against_simulation(table, distribution, rules, basic, basic,
                                     sample_states(table, REPORT_CHECK_STATES, seed),
                                     max(games // 4, 100), offset_seed(seed, 1))
    advance(progress, 1)
    presets = preset_summary(basic, deals, seed)
    advance(progress, 1)
    response = score_aware_best_response(
        knock_distributions(rules, basic, basic, deals, offset_seed(seed, 2)), rules)
    advance(progress, 1)
    gain = measure_gain(rules, response.policy(basic), response.best_policy(basic), basic,
                        games, offset_seed(seed, 3))
    advance(progress, 2)
    return EquityStudy(distribution, table, check, presets, response, gain, deals, games,
                       seed)


def preset_summary(policy: Policy, deals: int, seed: int,
                   presets: Sequence[str] = REPORT_PRESETS) -> pd.DataFrame:
    """P(A wins), P(shutout) and game length from 0:0 (and P(A wins) from two leads,
    A dealing next) for each rules preset, ``policy`` against itself."""
    rows = []
    for name in presets:
        rules = resolve_rules(name)
        table = equity_table(hand_outcome_distribution(rules, policy, policy, deals, seed),
                             rules)
        rows.append({"rules": name, "target": rules.target,
                     "P(A wins), A deals first": table.win_probability(0, 0, True),
                     "P(shutout)": table.start(Value.SHUTOUT_A) + table.start(Value.SHUTOUT_B),
                     "hands per game": table.start(Value.HANDS),
                     "P(A wins) at 50:0": table.win_probability(50, 0, True),
                     "P(A wins) at 90:0": table.win_probability(90, 0, True)})
    return pd.DataFrame(rows)


__all__ = ["KNOCK_THRESHOLDS", "REPORT_CHECK_STATES", "BestResponse", "EquityStudy",
           "EquityTable", "Value", "check_against_simulation", "check_rules", "check_summary",
           "chi2_even_sf", "dp_standard_errors", "equity_function", "equity_study",
           "equity_table", "hand_outcome_distribution", "hand_summary", "heatmap_data",
           "knock_distributions", "measure_gain", "preset_summary", "sample_states",
           "score_aware_best_response", "threshold_data", "toy_distribution"]
