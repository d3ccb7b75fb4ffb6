"""The report's equity study: basic against basic under the standard rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ....core.progress import Progress, advance, tell_total
from ....core.rng import offset_seed
from ....core.stats import Estimate
from ...model.policies import Policy
from ...model.rules import resolve_rules
from .dp import Value
from .law import hand_outcome_distribution
from .response import BestResponse, knock_distributions, measure_gain, score_aware_best_response
from .table import EquityTable, equity_table
from .validation import check_against_simulation, sample_states

REPORT_PRESETS = ("standard", "classic", "eaai", "target150", "oklahoma")
#: Default sizes of :func:`equity_study` (about two minutes on two cores).
REPORT_DEALS = 100_000
REPORT_GAMES = 20_000
#: Score states the report checks against whole games (0:0 and a sample).
REPORT_CHECK_STATES = 8


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
        return pd.DataFrame(
            {
                name: {"mean": e.mean, "low95": e.low, "high95": e.high, "games": e.n}
                for name, e in self.gain.items()
            }
        ).T


def equity_study(
    deals: int = REPORT_DEALS,
    games: int = REPORT_GAMES,
    seed: int = 1,
    progress: Progress | None = None,
) -> EquityStudy:
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
    check = check_against_simulation(
        table,
        distribution,
        rules,
        basic,
        basic,
        sample_states(table, REPORT_CHECK_STATES, seed),
        max(games // 4, 100),
        offset_seed(seed, 1),
    )
    advance(progress, 1)
    presets = preset_summary(basic, deals, seed)
    advance(progress, 1)
    response = score_aware_best_response(
        knock_distributions(rules, basic, basic, deals, offset_seed(seed, 2)), rules
    )
    advance(progress, 1)
    gain = measure_gain(
        rules,
        response.policy(basic),
        response.best_policy(basic),
        basic,
        games,
        offset_seed(seed, 3),
    )
    advance(progress, 2)
    return EquityStudy(distribution, table, check, presets, response, gain, deals, games, seed)


def preset_summary(
    policy: Policy, deals: int, seed: int, presets: Sequence[str] = REPORT_PRESETS
) -> pd.DataFrame:
    """P(A wins), P(shutout) and game length from 0:0 (and P(A wins) from two leads,
    A dealing next) for each rules preset, ``policy`` against itself."""
    rows = []
    for name in presets:
        rules = resolve_rules(name)
        table = equity_table(hand_outcome_distribution(rules, policy, policy, deals, seed), rules)
        rows.append(
            {
                "rules": name,
                "target": rules.target,
                "P(A wins), A deals first": table.win_probability(0, 0, True),
                "P(shutout)": table.start(Value.SHUTOUT_A) + table.start(Value.SHUTOUT_B),
                "hands per game": table.start(Value.HANDS),
                "P(A wins) at 50:0": table.win_probability(50, 0, True),
                "P(A wins) at 90:0": table.win_probability(90, 0, True),
            }
        )
    return pd.DataFrame(rows)


__all__ = [
    "REPORT_CHECK_STATES",
    "REPORT_DEALS",
    "REPORT_GAMES",
    "REPORT_PRESETS",
    "EquityStudy",
    "equity_study",
    "preset_summary",
]
