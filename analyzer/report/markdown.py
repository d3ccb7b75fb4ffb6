"""Markdown for the report: the one table helper every section uses."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd


def _is_float(value: object) -> bool:
    return isinstance(value, float | np.floating)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | np.number)


def markdown_table(
    frame: pd.DataFrame,
    formats: Mapping[str, str] | None = None,
    *,
    float_format: str | None = None,
    missing: str | None = None,
    align: bool = True,
) -> str:
    """A GitHub Markdown (pipe) table of ``frame``, without the index.

    Parameters
    ----------
    frame : pandas.DataFrame
        The rows to show; column names become the header.
    formats : mapping, optional
        Column name -> format spec (``".3f"``, ``"+.2f"``) for that column's numbers.
    float_format : str, optional
        Format spec of floats in columns without an entry in ``formats``.
    missing : str, optional
        Text of a missing float (NaN); default: the float formatted as any other.
    align : bool
        Right-align numeric columns (``---:``); ``False`` leaves every column plain.

    Examples
    --------
    >>> frame = pd.DataFrame({"a": ["x", "y"], "b": [1.23456, float("nan")]})
    >>> print(markdown_table(frame, {"b": ".2f"}))
    | a | b |
    |---|---:|
    | x | 1.23 |
    | y | nan |
    >>> print(markdown_table(frame, float_format=".1f", missing="-", align=False))
    | a | b |
    |---|---|
    | x | 1.2 |
    | y | - |
    """
    formats = formats or {}
    header = "| " + " | ".join(str(column) for column in frame.columns) + " |"
    rule = (
        "|"
        + "|".join(
            "---:" if align and pd.api.types.is_numeric_dtype(frame[column]) else "---"
            for column in frame.columns
        )
        + "|"
    )
    lines = [header, rule]
    for row in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, row, strict=True):
            spec = formats.get(column, float_format if _is_float(value) else None)
            if missing is not None and _is_float(value) and math.isnan(value):
                cells.append(missing)
            elif spec and _is_number(value):
                cells.append(format(value, spec))
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


__all__ = ["markdown_table"]
