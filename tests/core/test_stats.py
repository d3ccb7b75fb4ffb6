"""Estimate and the 95% CI helpers against direct numpy computations."""

import math
import re
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from analyzer.core.stats import (
    Z95,
    Estimate,
    half_width,
    half_width_of_se,
    sample_variance,
)


def test_from_sums_matches_numpy_mean_and_unbiased_sd():
    values = np.random.default_rng(7).normal(3.0, 2.0, size=500)
    estimate = Estimate.from_sums(values.sum(), np.square(values).sum(), len(values))
    half = Z95 * values.std(ddof=1) / math.sqrt(len(values))
    assert estimate.mean == pytest.approx(values.mean(), rel=1e-12)
    assert estimate.low == pytest.approx(values.mean() - half, rel=1e-9)
    assert estimate.high == pytest.approx(values.mean() + half, rel=1e-9)
    assert estimate.half_width == pytest.approx(half, rel=1e-9)
    assert estimate.n == 500


def test_rate_is_the_mean_of_zero_one_samples():
    samples = np.array([1.0] * 30 + [0.0] * 70)
    rate = Estimate.from_rate(30, 100)
    direct = Estimate.from_sums(samples.sum(), np.square(samples).sum(), 100)
    assert rate == direct
    assert rate.mean == 0.3


@pytest.mark.parametrize(("hits", "n"), [(0, 10), (1, 10), (3, 7), (100, 400), (9, 9), (500, 1000)])
def test_wilson_bounds_are_where_the_rate_is_z_standard_errors_away(hits: int, n: int) -> None:
    # the Wilson interval is every p with |rate - p| <= z sqrt(p (1 - p) / n): its ends
    # solve that with equality (the quadratic's roots), and it holds the rate
    estimate = Estimate.wilson(hits, n)
    rate = hits / n
    assert estimate.mean == rate and 0.0 <= estimate.low <= rate <= estimate.high <= 1.0
    for end in (estimate.low, estimate.high):
        assert (rate - end) ** 2 == pytest.approx(Z95**2 * end * (1 - end) / n, abs=1e-12)


def test_empty_sample_is_nan_and_single_sample_has_zero_width():
    empty = Estimate.from_sums(0.0, 0.0, 0)
    assert math.isnan(empty.mean) and math.isnan(empty.low) and empty.n == 0
    single = Estimate.from_sums(5.0, 25.0, 1)
    assert single.as_tuple() == (5.0, 5.0, 5.0)


def test_rounding_never_gives_a_negative_variance():
    # 0.1 * 3 samples of the same value: squares / n - mean**2 rounds slightly below 0
    assert sample_variance(0.3, 0.03, 3) >= 0.0


def test_the_quantile_is_the_normal_one_to_eight_digits():
    quantile = NormalDist().inv_cdf(0.975)
    assert half_width(1.0, 1, Z95) == pytest.approx(quantile, rel=1e-8)
    assert round(quantile, 6) == Z95


def test_gin_simulate_reexports_the_core_estimate():
    from analyzer.gin.play.results import Estimate as GinEstimate

    assert GinEstimate is Estimate


def test_mean_sd_form_agrees_with_sums_to_rounding():
    values = np.arange(1.0, 41.0)
    by_sums = Estimate.from_sums(values.sum(), np.square(values).sum(), 40)
    by_sd = Estimate.from_mean_sd(values.mean(), values.std(ddof=1), 40)
    assert by_sd.mean == by_sums.mean
    assert by_sd.low == pytest.approx(by_sums.low, rel=1e-14)
    assert by_sd.high == pytest.approx(by_sums.high, rel=1e-14)


def test_no_module_but_core_stats_holds_the_normal_quantile():
    """Every interval comes from here: no other module multiplies by 1.96 or keeps its
    own copy of the quantile (prose such as ``|z| < 1.96`` in a docstring is fine)."""
    package = Path(__file__).resolve().parents[2] / "analyzer"
    own_copy = re.compile(r"1\.96\d*\s*\*|\*\s*1\.96|=\s*1\.959")
    found = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        if path != package / "core" / "stats.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if own_copy.search(line)
    ]
    assert found == []


def test_half_width_of_a_standard_error():
    assert half_width_of_se(0.25) == Z95 * 0.25 == half_width(0.0625, 1)
