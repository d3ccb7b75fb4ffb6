"""Markdown for the report: the one table helper every section uses."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

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


def with_ci(
    frame: pd.DataFrame,
    columns: Mapping[str, tuple[str, str, str]],
    digits: int = 2,
    scale: float = 1.0,
    percent: bool = False,
) -> pd.DataFrame:
    """``frame`` with each triple of columns (mean, 95% CI low, high) replaced by one
    text column ``x ± h`` (h: the half-width), named by the key of ``columns``, at the
    place of the mean; ``scale`` multiplies all three (100: percentage points);
    ``percent`` writes shares as ``58.7% ± 2.4`` (percentage points, unsigned).

    >>> frame = pd.DataFrame({"t": [0], "d": [1.234], "d_low": [1.0], "d_high": [1.468]})
    >>> with_ci(frame, {"gain": ("d", "d_low", "d_high")})
       t          gain
    0  0  +1.23 ± 0.23
    """
    shown = frame.copy()
    for name, (mean, low, high) in columns.items():
        factor, sign, unit = (100.0, "", "%") if percent else (scale, "+", "")
        text = [
            f"{factor * m:{sign}.{digits}f}{unit} ± {factor * (h - lo) / 2:.{digits}f}"
            for m, lo, h in zip(shown[mean], shown[low], shown[high], strict=True)
        ]
        place = list(shown.columns).index(mean)
        shown = shown.drop(columns=[mean, low, high])
        shown.insert(min(place, len(shown.columns)), name, text)
    return shown


def answer_section(
    answer: Any,
    folder: str,
    config: Any,
    question: str,
    players: str,
    relation: str = "",
) -> str:
    """A section of one saved answer: the question, who plays, under which rules and how
    it relates to the opening answer; the answer in words; its chart, its table (or
    lines), notes and title line; and the command that rewrites its folder."""
    from ..studies.answer import command_line
    from .common import section_intro

    view = answer.view
    parts = [
        section_intro(question, players, answer.inputs.rules_name, relation),
        f"**Answer.** {view.verdict}\n",
    ]
    if view.chart is not None:
        parts.append(f"![{view.chart.title}]({folder}/{view.chart.name}.png)\n")
    if isinstance(view.body, pd.DataFrame):
        parts.append(markdown_table(view.body) + "\n")
    else:
        parts.append("```text\n" + "\n".join(view.body) + "\n```\n")
    notes = " ".join(view.notes)
    tables = ", ".join(f"[{name}.csv]({folder}/{name}.csv)" for name in answer.tables)
    command = command_line(answer.study, answer.inputs, out=(config.out / folder).as_posix())
    parts.append(
        f"{notes + ' ' if notes else ''}{view.title}. Tables: {tables}. Rewritten alone by "
        f"`{command}`.\n"
    )
    return "\n".join(parts)


__all__ = ["answer_section", "markdown_table", "with_ci"]
