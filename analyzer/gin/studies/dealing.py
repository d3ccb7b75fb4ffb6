"""How good dealt hands are: the distribution of dealt deadwood (:func:`dealt_hands`:
10 cards, and the best 10 of 11) and the chance to knock at once by knock limit
(:func:`knock_eligibility`), with standard errors."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.progress import Progress, advance, tell_total
from ..evaluator.dealt import dealt_deadwood_distribution


def dealt_hands(deals: int, seed: int, progress: Progress | None = None) -> pd.DataFrame:
    """Monte Carlo distribution of dealt deadwood: one row per (hand size, deadwood).

    Columns: ``cards`` (10, or 11 = the best 10 of 11 after the best discard),
    ``deadwood`` (points), ``count``, ``probability``, ``cumulative`` (P(deadwood <= d))
    and ``se`` (binomial standard error of ``cumulative``).  ``progress`` counts hands
    (``2 * n_deals`` in all).
    """
    frames = []
    tell_total(progress, 2 * deals)
    for cards in (10, 11):
        counts = dealt_deadwood_distribution(deals, cards, seed)
        advance(progress, deals)
        probability = counts / counts.sum()
        cumulative = np.cumsum(probability)
        frames.append(
            pd.DataFrame(
                {
                    "cards": cards,
                    "deadwood": np.arange(len(counts)),
                    "count": counts,
                    "probability": probability,
                    "cumulative": cumulative,
                    "se": np.sqrt(np.clip(cumulative * (1 - cumulative), 0, None) / counts.sum()),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def knock_eligibility(distribution: pd.DataFrame) -> pd.DataFrame:
    """P(gin) and P(deadwood <= k) for knock limits k = 1..10, by hand size."""
    rows = []
    for cards, group in distribution.groupby("cards"):
        cumulative = group.set_index("deadwood")["cumulative"]
        se = group.set_index("deadwood")["se"]
        for limit in range(11):
            rows.append(
                {
                    "cards": cards,
                    "limit": limit,
                    "probability": float(cumulative.get(limit, 0.0)),
                    "se": float(se.get(limit, 0.0)),
                }
            )
    return pd.DataFrame(rows)
