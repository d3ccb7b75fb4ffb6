"""What a fold's state may hold, beyond its shape: the sums a number of units can add.

A run's chunk results are sums over their units (deals or games), and each unit adds to
each sum a number within a range its rules fix (a hand scores a bounded number of points,
a count grows by at most one per hand).  So a state folded over ``units`` units holds, for
each sum, a finite number within ``units`` times that range, and exactly the sums the
chunks give.  A plan declares this (:attr:`analyzer.core.plans.ChunkPlan.check`, made with
the helpers here), and a checkpoint read back is checked against it
(:mod:`analyzer.report.checkpoint`): a damaged or edited file is refused, in one line,
rather than printed as a result.

>>> per_deal = {"hands": (2, 2), "knock": (0, 2)}
>>> sums_problem({"hands": 20.0, "knock": 21.0}, 10, per_deal)
"'knock' is 21, outside what 10 units add (0 to 20)"
>>> sums_problem({"hands": 20.0}, 10, per_deal)
"has no 'knock'"
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

#: What one unit adds to a sum: (least, most).
Range = tuple[float, float]


def value_ranges(name: str, count: int, low: float, high: float) -> dict[str, Range]:
    """The per-unit ranges of the sums ``name``, ``name_sq`` and ``name_n`` when each unit
    adds ``count`` values within ``[low, high]`` (a sum, its sum of squares and its count,
    as :func:`analyzer.gin.studies.compare.add_values` keeps them)."""
    square = max(low * low, high * high)
    least = 0.0 if low <= 0 <= high else min(low * low, high * high)
    return {
        name: (count * low, count * high),
        f"{name}_sq": (count * least, count * square),
        f"{name}_n": (count, count),
    }


def finite_number(value: Any) -> bool:
    """Whether ``value`` is a finite int or float (not a bool, an array or a string)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def sums_problem(sums: Mapping[str, Any], units: int, per_unit: Mapping[str, Range]) -> str | None:
    """Why ``sums`` cannot be what ``units`` units add when each adds to every sum of
    ``per_unit`` a number within its range, or None: the keys must be exactly those of
    ``per_unit`` (none before the first unit), each a finite number within ``units``
    times its range."""
    if units == 0:
        return None if not sums else "holds sums before any unit was played"
    missing = [key for key in per_unit if key not in sums]
    if missing:
        return f"has no {missing[0]!r}"
    extra = [key for key in sums if key not in per_unit]
    if extra:
        return f"has a sum no chunk gives, {extra[0]!r}"
    for key, (low, high) in per_unit.items():
        problem = _out_of_range(repr(key), sums[key], units, low, high)
        if problem is not None:
            return problem
    return None


def totals_problem(
    totals: np.ndarray, units: int, per_unit: Sequence[Range], names: Sequence[str]
) -> str | None:
    """Why the array ``totals`` cannot be what ``units`` units add when each adds to
    column ``i`` (``names[i]``) a number within ``per_unit[i]``, or None."""
    for name, value, (low, high) in zip(names, totals.tolist(), per_unit, strict=True):
        problem = _out_of_range(name, value, units, low, high)
        if problem is not None:
            return problem
    return None


def _out_of_range(name: str, value: Any, units: int, low: float, high: float) -> str | None:
    if not finite_number(value):
        if isinstance(value, (int, float)):
            return f"{name} is {value!r}, not a finite number"
        return f"{name} is not a number"
    if not units * low <= value <= units * high:
        return (
            f"{name} is {value:,g}, outside what {units:,} units add "
            f"({units * low:,g} to {units * high:,g})"
        )
    return None


def first_part(
    check: Callable[[Any, int], str | None],
) -> Callable[[Any, int], str | None]:
    """``check`` applied to the first part of a fold value (a tuple's sums beside the rows
    a run keeps)."""

    def checked(value: Any, units: int) -> str | None:
        return check(value[0], units)

    return checked


def sums_check(per_unit: Mapping[str, Range]) -> Callable[[Any, int], str | None]:
    """A plan's check (:attr:`~analyzer.core.plans.ChunkPlan.check`) of a fold of named
    sums whose units each add within ``per_unit``."""

    def checked(value: Any, units: int) -> str | None:
        return sums_problem(value, units, per_unit)

    return checked


__all__ = [
    "Range",
    "finite_number",
    "first_part",
    "sums_check",
    "sums_problem",
    "totals_problem",
    "value_ranges",
]
