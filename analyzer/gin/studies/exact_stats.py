"""Statistics and chart data of an exact dealt-deadwood distribution (counts of hands by
deadwood, from :mod:`analyzer.gin.studies.exact`): the table, the summary, the check of a
Monte Carlo distribution against it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

#: Modes of the enumeration kernel: count classes only, minimum deadwood, deadwood
#: after the best discard.
MODE_COUNT, MODE_DEADWOOD, MODE_DISCARD = 0, 1, 2


def distribution_table(counts: npt.ArrayLike) -> pd.DataFrame:
    """Per-deadwood table: ``deadwood`` (points), ``count``, ``probability`` and
    ``cumulative`` = P(deadwood <= value), the chance a hand may knock at that limit.

    >>> distribution_table([1, 0, 3]).cumulative.tolist()
    [0.25, 0.25, 1.0]
    """
    array = np.asarray(counts, dtype=np.int64)
    total = int(array.sum())
    cumulative = np.cumsum(array)
    return pd.DataFrame(
        {
            "deadwood": np.arange(len(array), dtype=np.int64),
            "count": array,
            "probability": array / total,
            "cumulative": cumulative / total,
        }
    )


def summarize(counts: npt.ArrayLike) -> dict[str, Any]:
    """Derived statistics of exact counts (``counts[v]`` hands of ``v`` points).

    Returns ``hands`` (the total), ``p_gin`` (= P(deadwood = 0)), ``p_at_most`` (a dict
    knock limit k -> P(deadwood <= k) for every k from 0 to the largest value), ``mean``
    and ``sd`` (points), ``mean_exact`` (the mean as an exact fraction ``"p/q"``) and
    ``median`` (points; the least k with P(deadwood <= k) >= 1/2).

    >>> s = summarize([1, 0, 3])
    >>> s["p_gin"], s["mean"], s["mean_exact"], s["median"], s["p_at_most"][1]
    (0.25, 1.5, '3/2', 2, 0.25)
    """
    array = [int(x) for x in np.asarray(counts, dtype=np.int64)]
    total = sum(array)
    if total == 0:
        raise ValueError("no hands counted")
    moment1 = sum(v * n for v, n in enumerate(array))
    moment2 = sum(v * v * n for v, n in enumerate(array))
    mean = moment1 / total
    running = 0
    at_most = {}
    median = None
    for value, count in enumerate(array):
        running += count
        at_most[value] = running / total
        if median is None and 2 * running >= total:
            median = value
    fraction = math.gcd(moment1, total)
    return {
        "hands": total,
        "p_gin": array[0] / total,
        "p_at_most": at_most,
        "mean": mean,
        "mean_exact": f"{moment1 // fraction}/{total // fraction}",
        "sd": math.sqrt(max(0.0, moment2 / total - mean * mean)),
        "median": median,
    }


def monte_carlo_check(exact_counts: npt.ArrayLike, mc_counts: npt.ArrayLike) -> dict[str, Any]:
    """Compare a Monte Carlo histogram with the exact distribution.

    Returns the sample size, its P(gin) and mean (points), and ``mean_z``: the
    difference of means in standard errors of the exact distribution.
    """
    exact = summarize(exact_counts)
    mc = np.asarray(mc_counts, dtype=np.int64)
    n = int(mc.sum())
    mean = float((np.arange(len(mc)) * mc).sum() / n)
    return {
        "n_deals": n,
        "p_gin": float(mc[0] / n),
        "mean": mean,
        "mean_z": (mean - exact["mean"]) / (exact["sd"] / math.sqrt(n)),
    }


# -------------------------------------------------------------------------- chart data


def chart_data(counts: npt.ArrayLike, mc_counts: npt.ArrayLike | None = None) -> pd.DataFrame:
    """Chart table: ``deadwood``, ``exact`` probability, and when ``mc_counts`` is given
    ``mc`` (estimated probability) and ``mc_se`` (its binomial standard error)."""
    table = distribution_table(counts)[["deadwood", "probability"]].rename(
        columns={"probability": "exact"}
    )
    if mc_counts is not None:
        mc = np.asarray(mc_counts, dtype=np.int64)
        n = int(mc.sum())
        padded = np.zeros(len(table), dtype=np.float64)
        size = min(len(mc), len(table))
        padded[:size] = mc[:size] / n
        table["mc"] = padded
        table["mc_se"] = np.sqrt(table.exact * (1 - table.exact) / n)
    return table
