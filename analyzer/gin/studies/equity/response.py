"""Score-aware knocking: A's best knock threshold per score state by backward induction
over the DP, and its gain measured on paired whole games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ....core.stats import Estimate
from ...model.policies import Policy
from ...model.rules import Rules
from ...play.game_kernels import GameColumn
from ...play.players import ScoreAware
from ...play.simulate import game_rows
from .law import hand_outcome_distribution, hand_summary, stack_laws
from .table import EquityTable, solve_table

#: Knock thresholds the score-aware player chooses among (points of deadwood).
KNOCK_THRESHOLDS = tuple(range(11))


def knock_distributions(
    rules: Rules,
    policy_a: Policy,
    policy_b: Policy,
    deals: int,
    seed: int,
    thresholds: Sequence[int] = KNOCK_THRESHOLDS,
) -> list[pd.DataFrame]:
    """Hand-outcome distributions of A knocking at each threshold (points) against B,
    all on the same deals (so differences between thresholds are not luck)."""
    return [
        hand_outcome_distribution(rules, policy_a.with_knock(t), policy_b, deals, seed)
        for t in thresholds
    ]


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
        frame["dp_game_win"] = [*(table.start() for table in self.constant), self.aware.start()]
        return frame


def score_aware_best_response(
    distributions: Sequence[pd.DataFrame],
    rules: Rules,
    thresholds: Sequence[int] = KNOCK_THRESHOLDS,
) -> BestResponse:
    """A's knock threshold per score state, maximising P(A wins the game).

    The choice at each (own score, opponent score) is made by backward induction
    over the DP (the equity table is the objective).  The knock table may not look at
    who deals, so the two dealers' win probabilities are weighted by how often a game
    reaches the state with each dealer under the best constant threshold.
    """
    law = stack_laws(distributions, rules)
    target = rules.target
    constant = [
        solve_table(law, rules, np.full((target, target), index), {"threshold": t})
        for index, t in enumerate(thresholds)
    ]
    best = constant[int(np.argmax([table.start() for table in constant]))]
    weights = best.visit + 1e-12  # unvisited states still get a choice (dealers even)
    aware = solve_table(law, rules, None, {"thresholds": list(thresholds)}, weights)
    hands = pd.DataFrame([hand_summary(frame) for frame in distributions])
    return BestResponse(aware, constant, tuple(thresholds), hands)


def measure_gain(
    rules: Rules,
    challenger: ScoreAware | Policy,
    baseline: Policy,
    opponent: Policy,
    games: int,
    seed: int,
) -> dict[str, Estimate]:
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
        rows = game_rows(rules, policy, opponent, seed, 0, games)
        # a game = its two first-dealer plays on common decks
        wins[name] = rows[:, GameColumn.GAMES_WON_A].astype(np.float64).reshape(-1, 2).mean(1)
    wins["gain"] = wins["challenger"] - wins["baseline"]
    return {
        name: Estimate.from_sums(v.sum(), np.square(v).sum(), len(v)) for name, v in wins.items()
    }


__all__ = [
    "KNOCK_THRESHOLDS",
    "BestResponse",
    "knock_distributions",
    "measure_gain",
    "score_aware_best_response",
]
