"""Benjamini-Hochberg against its definition, and the normal p-value."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.significance import benjamini_hochberg, normal_p_value


@given(st.lists(st.floats(0.0, 1.0), max_size=40), st.sampled_from([0.01, 0.05, 0.2]))
def test_benjamini_hochberg_matches_its_definition(p_values, q):
    m = len(p_values)
    ranked = sorted(p_values)
    passing = [k for k in range(1, m + 1) if ranked[k - 1] <= q * k / m]
    reject = benjamini_hochberg(p_values, q)
    # the step-up rule rejects exactly the k smallest p-values, k the largest passing rank
    assert int(np.sum(reject)) == (max(passing) if passing else 0)
    rejected = [p for p, r in zip(p_values, reject, strict=True) if r]
    kept = [p for p, r in zip(p_values, reject, strict=True) if not r]
    assert not rejected or not kept or max(rejected) <= min(kept)


def test_normal_p_value():
    assert normal_p_value(1.959964, 1.0) == pytest.approx(0.05, abs=1e-6)
    assert normal_p_value(0.0, 1.0) == 1.0
    assert normal_p_value(5.0, 0.0) == 1.0  # one sample: no evidence either way
    assert math.isclose(normal_p_value(-3.0, 1.0), normal_p_value(3.0, 1.0))
