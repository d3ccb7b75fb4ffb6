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
from collections.abc import Callable
from typing import Any

import pandas as pd

from ..studies.ci_table import ci_table


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
