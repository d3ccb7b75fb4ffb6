"""What the notebook API's studies return: a titled table that shows itself in a notebook.

A :class:`Result` holds a title line (the question, the rules, the players and the
deals behind the numbers), the study's table as a pandas DataFrame (:meth:`Result.to_frame`,
or :attr:`Result.frame`) and, when the study has one, the study's own result object,
whose fields read through (``result.points_a`` of a simulation). In a notebook it shows
as the title and the table with every 95% CI written one way, ``x ± h``
(:func:`ci_table`); :class:`ChartedResult` adds :meth:`~ChartedResult.plot`, the chart
the command line writes with ``--out``, drawn by :mod:`analyzer.report.figures`.

>>> import pandas as pd
>>> frame = pd.DataFrame({"threshold": [0, 10], "points_mean": [-1.234, 0.5],
...                       "points_low": [-1.5, 0.25], "points_high": [-0.968, 0.75]})
>>> ci_table(frame)
   threshold        points
0          0  -1.23 ± 0.27
1         10   0.50 ± 0.25
>>> result = Result("Knock sweep · standard rules", frame)
>>> result
Knock sweep · standard rules
 threshold       points
         0 -1.23 ± 0.27
        10  0.50 ± 0.25
>>> result._repr_html_().startswith("<p><b>Knock sweep · standard rules</b></p>")
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import pandas as pd

from ..report.common import format_ci, format_number

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
        return format_number(mean, plain_digits)
    return format_ci(mean, mean - half, mean + half, _digits(half), sign=False)


def chart_functions() -> Any:
    """The chart functions (:mod:`analyzer.report.figures`), imported when a chart is
    drawn: importing the API does not load matplotlib."""
    from ..report import figures

    return figures


class Result:
    """A study's answer: :attr:`title`, its table (:meth:`to_frame`) and, as
    :attr:`result`, the study's own result object, whose fields read through."""

    def __init__(
        self,
        title: str,
        frame: pd.DataFrame,
        result: object = None,
        shown: pd.DataFrame | None = None,
        verdict: str = "",
    ) -> None:
        self.title = title
        """One line: what was measured, under which rules, between whom, on how many
        deals (and the seed)."""
        self.frame = frame
        """The table, numbers only (CI bounds as their own columns)."""
        self.result = result
        """The study's own result (None when the table is all of it)."""
        self._verdict = verdict
        self._shown = shown

    @property
    def verdict(self) -> str:
        """The answer in one sentence with its number and CI, as the command prints it
        (else the study's own result's ``verdict``, else "")."""
        return self._verdict or str(getattr(self.result, "verdict", ""))

    def to_frame(self) -> pd.DataFrame:
        """The table (:attr:`frame`)."""
        return self.frame

    def shown_frame(self) -> pd.DataFrame:
        """The table for reading: every 95% CI as ``x ± h`` (:func:`ci_table`)."""
        return ci_table(self.frame) if self._shown is None else self._shown

    def _repr_html_(self) -> str:
        title = f"<p><b>{html.escape(self.title, quote=False)}</b></p>"
        verdict = f"<p>{html.escape(self._verdict, quote=False)}</p>" if self._verdict else ""
        return title + str(self.shown_frame().to_html(index=False)) + verdict

    def __repr__(self) -> str:
        verdict = f"\n\n{self._verdict}" if self._verdict else ""
        return f"{self.title}\n{self.shown_frame().to_string(index=False)}{verdict}"

    def __getattr__(self, name: str) -> Any:
        # only for names the class lacks: the study's own result's fields and methods
        if name.startswith("_") or self.__dict__.get("result") is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self.__dict__["result"], name)

    def __dir__(self) -> list[str]:
        inner = [] if self.result is None else [n for n in dir(self.result) if n[0] != "_"]
        return sorted({*super().__dir__(), *inner})


class ChartedResult(Result):
    """A :class:`Result` with the study's chart: :meth:`plot`."""

    def __init__(
        self,
        title: str,
        frame: pd.DataFrame,
        draw: Callable[[Any], None],
        caption: str,
        figsize: tuple[float, float] = (9, 4),
        panels: int = 1,
        result: object = None,
        shown: pd.DataFrame | None = None,
        sharey: bool = False,
        verdict: str = "",
    ) -> None:
        super().__init__(title, frame, result, shown, verdict)
        self._draw = draw
        self._caption = caption
        self._figsize = figsize
        self._panels = panels
        self._sharey = sharey

    def plot(self) -> Any:
        """The study's chart, as a :class:`matplotlib.figure.Figure` (shown by a notebook;
        ``.savefig(path)`` writes it): the house style of :mod:`analyzer.report.figures`,
        with the title line above and how to read it below."""
        from ..report.figures import chart

        with chart(
            1,
            self._panels,
            self._figsize,
            title=self.title,
            caption=self._caption,
            sharey=self._sharey,
        ) as drawn:
            self._draw(drawn.axes)
        axes = drawn.axes
        return (axes.flat[0] if hasattr(axes, "flat") else axes).figure


__all__ = ["ChartedResult", "Result", "chart_functions", "ci_table"]
