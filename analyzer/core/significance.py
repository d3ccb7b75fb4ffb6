"""Significance of many estimates at once: two-sided normal p-values and the
Benjamini-Hochberg step-up rule, which keeps the expected share of false discoveries
among the cells declared significant at most ``q`` (a chart of 100 cells tested one by
one at 5% would show about five false verdicts by chance alone).

>>> benjamini_hochberg([0.001, 0.02, 0.04, 0.5], q=0.05).tolist()
[True, True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .arrays import Bools, Float64s


def normal_p_value(mean: float, standard_error: float) -> float:
    """Two-sided p-value of ``mean`` against 0 under a normal approximation; 1 when the
    standard error is 0 or undefined (one sample says nothing about its spread)."""
    if not standard_error > 0:
        return 1.0
    return math.erfc(abs(mean) / standard_error / math.sqrt(2.0))


def benjamini_hochberg(p_values: Sequence[float] | Float64s, q: float = 0.05) -> Bools:
    """Which hypotheses to reject so that the false discovery rate is at most ``q``
    (Benjamini & Hochberg 1995): the ``k`` smallest p-values, for the largest ``k`` with
    ``p_(k) <= k q / m``."""
    p = np.asarray(p_values, dtype=np.float64)
    m = len(p)
    reject = np.zeros(m, dtype=bool)
    if m == 0:
        return reject
    order = np.argsort(p, kind="stable")
    below = p[order] <= q * np.arange(1, m + 1) / m
    if below.any():
        k = int(np.nonzero(below)[0].max()) + 1
        reject[order[:k]] = True
    return reject
