"""Means with 95% confidence intervals: the one place a CI is computed.

Every Monte Carlo figure is a mean over independent samples (deals, games, paired
differences) summarised by its sum and sum of squares, so chunks merge by addition.  The
interval is the normal approximation ``mean ± z * sqrt(s² / n)`` with the unbiased sample
variance ``s²``; a proportion is the mean of 0/1 samples (its sum of squares is its sum).

One ``z``, :data:`Z95`, serves gin and plain rummy alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

#: Two-sided 95% quantile of the standard normal, to 7 digits (8e-9 relative from the
#: exact quantile, far below any Monte Carlo error).
Z95 = 1.959964


def sample_variance(total: float, squares: float, n: float) -> float:
    """Unbiased variance of ``n`` samples from their ``total`` and sum of ``squares``
    (0 for a single sample; rounding below 0 is clipped).

    >>> sample_variance(4.0, 10.0, 2)  # samples 1 and 3
    2.0
    """
    mean = total / n
    return max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)


def half_width(variance: float, n: float, z: float = Z95) -> float:
    """Half-width of the normal CI of a mean of ``n`` samples of ``variance``.

    >>> round(half_width(4.0, 100), 6)
    0.391993
    """
    return z * math.sqrt(variance / n)


def half_width_of_se(se: float, z: float = Z95) -> float:
    """Half-width of the normal CI of an estimate with standard error ``se`` (same units).

    >>> round(half_width_of_se(0.5), 6)
    0.979982
    """
    return z * se


@dataclass
class Estimate:
    """A mean with its 95% confidence interval (normal approximation) over ``n`` samples;
    ``low``, ``high`` are in the mean's units.  With ``n == 0`` all three are NaN."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def from_sums(cls, total: float, squares: float, n: float, z: float = Z95) -> Estimate:
        """The mean of ``n`` samples from their ``total`` and sum of ``squares``.

        >>> Estimate.from_sums(6.0, 14.0, 3).mean
        2.0
        """
        if n <= 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = total / n
        half = half_width(sample_variance(total, squares, n), n, z)
        return cls(mean, mean - half, mean + half, int(n))

    @classmethod
    def of(cls, values: ArrayLike, z: float = Z95) -> Estimate:
        """The mean of the samples ``values`` (a 1-D array or sequence).

        >>> Estimate.of([1.0, 3.0]).mean
        2.0
        """
        array = np.asarray(values, dtype=np.float64)
        return cls.from_sums(float(array.sum()), float((array * array).sum()), len(array), z)

    @classmethod
    def from_mean_sd(cls, mean: float, sd: float, n: float, z: float = Z95) -> Estimate:
        """The mean of ``n`` samples of standard deviation ``sd``.

        The half-width is rounded as ``(z * sd) / sqrt(n)``, which may differ from
        :meth:`from_sums` in the last bit; the knock chart's committed figures use it.
        """
        half = z * sd / math.sqrt(n)
        return cls(mean, mean - half, mean + half, int(n))

    @classmethod
    def from_rate(cls, hits: float, n: float, z: float = Z95) -> Estimate:
        """A proportion: ``hits`` of ``n`` 0/1 samples (unbiased variance).

        >>> Estimate.from_rate(1, 2).mean
        0.5
        """
        return cls.from_sums(hits, hits, n, z)

    @classmethod
    def wilson(cls, hits: int, n: int, z: float = Z95) -> Estimate:
        """A proportion of ``hits`` in ``n`` trials with its Wilson score interval, which
        stays within [0, 1] (the normal interval around a rate near 0 or 1 does not) and
        so is not centred on the rate.

        >>> e = Estimate.wilson(0, 10)
        >>> e.mean, e.low, round(e.high, 4)
        (0.0, 0.0, 0.2775)
        """
        rate = hits / n
        spread = z * z / n
        centre = (rate + spread / 2) / (1 + spread)
        half = z * math.sqrt(rate * (1 - rate) / n + spread / (4 * n)) / (1 + spread)
        return cls(rate, max(0.0, centre - half), min(1.0, centre + half), n)

    @property
    def half_width(self) -> float:
        """Half the width of the interval (in the mean's units)."""
        return (self.high - self.low) / 2

    def as_tuple(self) -> tuple[float, float, float]:
        """``(mean, low, high)``."""
        return self.mean, self.low, self.high

    def as_columns(self, prefix: str) -> dict[str, float]:
        """The mean and the interval as three table columns: ``prefix``, ``prefix_lo``,
        ``prefix_hi``.

        >>> Estimate(1.0, 0.5, 1.5, 9).as_columns("gain")
        {'gain': 1.0, 'gain_lo': 0.5, 'gain_hi': 1.5}
        """
        return {prefix: self.mean, f"{prefix}_lo": self.low, f"{prefix}_hi": self.high}

    def as_dict(self) -> dict[str, object]:
        return {"mean": self.mean, "ci95": [self.low, self.high]}

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


def ratio_estimate(
    x_total: float,
    x_squares: float,
    y_total: float,
    y_squares: float,
    products: float,
    n: float,
    z: float = Z95,
) -> Estimate:
    """The ratio ``mean(x) / mean(y)`` of ``n`` paired samples ``(x, y)`` from their
    totals, sums of squares and the sum of the products ``x * y``, with the delta-method
    interval ``R ± z * sqrt((s_x² - 2 R s_xy + R² s_y²) / n) / |mean(y)|`` (a share of one
    paired gain in another; NaN when ``mean(y)`` is 0 or ``n < 2``).

    >>> round(ratio_estimate(2.0, 2.0, 4.0, 8.0, 4.0, 2).mean, 6)  # x = (1, 1), y = (2, 2)
    0.5
    """
    if n < 2 or y_total == 0:
        return Estimate(math.nan, math.nan, math.nan, int(n))
    x_mean, y_mean = x_total / n, y_total / n
    ratio = x_mean / y_mean
    covariance = (products / n - x_mean * y_mean) * n / (n - 1)
    variance = (
        sample_variance(x_total, x_squares, n)
        - 2 * ratio * covariance
        + ratio * ratio * sample_variance(y_total, y_squares, n)
    )
    half = half_width(max(variance, 0.0), n, z) / abs(y_mean)
    return Estimate(ratio, ratio - half, ratio + half, int(n))


__all__ = ["Z95", "Estimate", "half_width", "ratio_estimate", "sample_variance"]
