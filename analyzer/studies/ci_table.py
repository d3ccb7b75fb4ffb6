"""A study's table for reading in a notebook or a page: every estimate with its 95% CI,
given by its bounds or a half-width in any of the studies' column spellings, written one
way, ``x ± h`` (:func:`ci_table`)."""

from __future__ import annotations

import math

import pandas as pd

from .text import plus_minus

#: Suffix pairs that bound a 95% interval, in the spellings the studies use (longest
#: first, so that ``x_low95`` is not read as ``x_low`` + ``95``).
_BOUNDS: tuple[tuple[str, str], ...] = (
    ("_low95", "_high95"),
    ("_low", "_high"),
    ("_lo", "_hi"),
    ("low95", "high95"),
    ("low", "high"),
)


def _digits(half_width: float) -> int:
    """Decimals that show a half-width with two significant digits (at least 2, at most
    8; 2 for a zero or missing one)."""
    if not (math.isfinite(half_width) and half_width > 0):
        return 2
    return int(min(8, max(2, 1 - math.floor(math.log10(half_width)))))


def _interval_columns(frame: pd.DataFrame) -> list[tuple[str, str, str, str]]:
    """(shown name, mean column, low column, high column) of each interval in ``frame``:
    ``x`` or ``x_mean`` with ``x_low`` and ``x_high`` (shown as ``x``), ``mean`` with
    ``low`` and ``high``, and the ``_lo``/``_hi`` and ``low95``/``high95`` spellings."""
    found = []
    used: set[str] = set()
    for column in frame.columns:
        if not isinstance(column, str) or column in used:
            continue
        for low_suffix, high_suffix in _BOUNDS:
            if not column.endswith(low_suffix):
                continue
            stem = column[: len(column) - len(low_suffix)]
            high = stem + high_suffix
            means = [stem, f"{stem}_mean"] if stem else ["mean"]
            mean = next((m for m in means if m in frame.columns and m not in used), None)
            if high in frame.columns and mean is not None:
                found.append((stem or "mean", mean, column, high))
                used.update((mean, column, high))
            break
    return found


def _half_width_columns(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(shown name, mean column, half-width column): ``mean`` with ``half_width``, ``x``
    with ``x_half_width``."""
    found = []
    for column in frame.columns:
        if isinstance(column, str) and column.endswith("half_width"):
            stem = column[: -len("half_width")].rstrip("_")
            mean = stem or "mean"
            if mean in frame.columns:
                found.append((mean, mean, column))
    return found


def ci_table(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` for reading: each estimate with its 95% CI (bounds, or a half-width)
    becomes one column of text ``x ± h`` (h the half-width), in the estimate's place;
    other columns stay."""
    shown = frame.copy()
    intervals = [
        (name, mean, [low, high], (frame[high] - frame[low]) / 2)
        for name, mean, low, high in _interval_columns(frame)
    ]
    intervals += [
        (name, mean, [half_column], frame[half_column])
        for name, mean, half_column in _half_width_columns(frame)
    ]
    for name, mean, bounds, half in intervals:
        # a number without a CI gets the decimals of the finest CI in its column
        plain = _digits(half[half > 0].min()) if (half > 0).any() else 2
        text = [_estimate_text(m, h, plain) for m, h in zip(frame[mean], half, strict=True)]
        position = list(shown.columns).index(mean)
        shown = shown.drop(columns=[mean, *bounds])
        shown.insert(min(position, len(shown.columns)), name, text)
    return shown


def _estimate_text(mean: float, half: float, plain_digits: int) -> str:
    """``x ± h`` with the decimals of ``h`` (:func:`_digits`); ``x`` alone, with
    ``plain_digits`` decimals, for a plain number (no CI); ``nan`` when nothing was
    measured."""
    if not math.isfinite(mean):
        return "nan"
    if not math.isfinite(half):
        return f"{mean:.{plain_digits}f}"
    return plus_minus(mean, half, _digits(half))


__all__ = ["ci_table"]
