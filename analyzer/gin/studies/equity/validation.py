"""Checks of an equity table against whole games simulated from sampled score states,
with the DP's own error from a bootstrap of its distribution."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ....core.arrays import Float64s
from ....core.stats import Z95
from ...model.policies import Policy
from ...model.rules import Rules
from ...play.game_kernels import GameColumn
from ...play.simulate import game_rows
from .dp import Value, solve
from .law import resample, stack_laws
from .table import EquityTable


def sample_states(table: EquityTable, n_states: int, seed: int) -> list[tuple[int, int]]:
    """``n_states`` distinct score states drawn with the visit probability of a game
    from 0:0 (0:0 always first), so checks cover the states games pass through."""
    rng = np.random.default_rng(seed)
    weight: Float64s = table.visit.sum(axis=2).ravel()
    weight[0] = 0.0
    visited = int(np.count_nonzero(weight))
    if not visited:  # a game to 1 point ends with its first hand: 0:0 is all it visits
        return [(0, 0)]
    picks = rng.choice(
        weight.size, size=min(n_states - 1, visited), replace=False, p=weight / weight.sum()
    )
    target = table.rules.target
    return [(0, 0), *sorted((int(i // target), int(i % target)) for i in picks)]


def dp_standard_errors(
    distribution: pd.DataFrame, rules: Rules, n_boot: int, seed: int
) -> Float64s:
    """Bootstrap standard errors of the table's values from the sampling error of the
    distribution: same shape as :attr:`EquityTable.values`."""
    rng = np.random.default_rng(seed)
    draws = [
        solve(stack_laws([resample(distribution, rng)], rules), rules)[0][
            : rules.target, : rules.target
        ]
        for _ in range(n_boot)
    ]
    errors: Float64s = np.std(draws, axis=0, ddof=1)
    return errors


def check_against_simulation(
    table: EquityTable,
    distribution: pd.DataFrame,
    rules: Rules,
    policy_a: Policy,
    policy_b: Policy,
    states: Sequence[tuple[int, int]],
    games: int,
    seed: int,
    n_boot: int = 20,
) -> pd.DataFrame:
    """Compare the table with whole games simulated from the given score states.

    From each state (A's score, B's score), with the boxes a game from 0:0 typically
    has there (rounded, at least 1 for a positive score), ``games`` games are played
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
    columns = {
        "win": GameColumn.GAMES_WON_A,
        "margin": GameColumn.MARGIN_A,
        "hands": GameColumn.HANDS,
    }
    rows = []
    for index, (score_a, score_b) in enumerate(states):
        seen = table.visit[score_a, score_b].sum()
        typical = table.boxes[score_a, score_b].sum(axis=0) / seen if seen > 0 else np.ones(2)
        boxes = [
            0 if score == 0 else max(1, round(mean))
            for score, mean in zip((score_a, score_b), typical, strict=True)
        ]
        # games of distinct numbers per state: their decks differ, so states' errors
        # are independent (the DP's errors are not: one distribution serves all states)
        simulated = game_rows(
            rules,
            policy_a,
            policy_b,
            seed,
            index * games,
            games,
            start=(score_a, score_b, boxes[0], boxes[1]),
        )
        for dealer in (0, 1):
            cell = (score_a, score_b, dealer, int(boxes[0] > 0), int(boxes[1] > 0))
            state = table.values[cell]
            dp = {
                "win": state[Value.WIN],
                "margin": table._margin(state, np.array(boxes, dtype=float)),
                "hands": state[Value.HANDS],
            }
            dp_se = {
                "win": error[cell][Value.WIN],
                "margin": error[cell][Value.MARGIN],
                "hands": error[cell][Value.HANDS],
            }
            played = simulated[simulated[:, GameColumn.FIRST_DEALER] == dealer]
            row: dict[str, object] = {
                "score_a": score_a,
                "score_b": score_b,
                "a_deals": dealer == 0,
                "boxes_a": boxes[0],
                "boxes_b": boxes[1],
                "games": len(played),
            }
            for name, column in columns.items():
                values = played[:, column].astype(np.float64)
                sim, sim_se = values.mean(), values.std(ddof=1) / np.sqrt(len(values))
                combined = np.hypot(dp_se[name], sim_se)
                # no error on either side (a game to 1 point: one hand, every time): the
                # two agree exactly or not at all
                z = (dp[name] - sim) / combined if combined > 0 else _exact_z(dp[name], sim)
                row.update(
                    {
                        f"dp_{name}": float(dp[name]),
                        f"dp_{name}_se": dp_se[name],
                        f"sim_{name}": sim,
                        f"sim_{name}_se": sim_se,
                        f"z_{name}": z,
                        f"agree_{name}": abs(z) < Z95,
                    }
                )
            rows.append(row)
    return pd.DataFrame(rows)


def _exact_z(dp: float, simulated: float) -> float:
    """The z score of two values known without error: 0 when they agree, NaN else."""
    return 0.0 if math.isclose(dp, simulated, rel_tol=1e-9, abs_tol=1e-12) else math.nan


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
        summary[name] = {
            "agree": int(check[f"agree_{name}"].sum()),
            "rows": len(z),
            "chi2": statistic,
            "p_value": chi2_even_sf(statistic, len(z)),
        }
    return summary


__all__ = [
    "check_against_simulation",
    "check_summary",
    "chi2_even_sf",
    "dp_standard_errors",
    "sample_states",
]
