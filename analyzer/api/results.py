"""What the notebook API returns: a study's answer (:class:`Result`, an
:class:`~analyzer.studies.answer.Answer` with ``.plot()`` and a notebook view) that shows
itself with every 95% CI written one way, ``x ± h`` (:func:`ci_table`).

>>> import pandas as pd
>>> frame = pd.DataFrame({"threshold": [0, 10], "points_mean": [-1.234, 0.5],
...                       "points_low": [-1.5, 0.25], "points_high": [-0.968, 0.75]})
>>> ci_table(frame)
   threshold        points
0          0  -1.23 ± 0.27
1         10   0.50 ± 0.25
>>> result = TableResult("Knock sweep · standard rules", frame)
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
from dataclasses import fields
from pathlib import Path
from typing import Any

import pandas as pd

from ..studies.answer import Answer
from ..studies.ci_table import ci_table


class Result(Answer):
    """A study's answer in the notebook: :attr:`title`, :meth:`text`, :meth:`to_frame`,
    :meth:`plot` and :meth:`to_dict` as for every door, an HTML view with every 95% CI
    written ``x ± h``, and the study's own result object (when it ran in this process)
    read through: ``result.points_a`` of a simulation."""

    @classmethod
    def of(cls, answer: Answer) -> Result:
        """``answer`` as a notebook result."""
        return cls(**{field.name: getattr(answer, field.name) for field in fields(Answer)})

    def plot(self) -> Any:
        """The study's chart as a :class:`matplotlib.figure.Figure` (shown by a notebook;
        ``.savefig(path)`` writes it), drawn as the report and ``--out`` draw it."""
        from ..report.charts import figure

        if self.chart is None:
            raise ValueError(f"{self.study.name} draws no chart; .to_frame() has its table")
        return figure(self.chart)

    def shown_frame(self) -> pd.DataFrame:
        """The table for reading: every 95% CI as ``x ± h`` (:func:`ci_table`)."""
        body = self.view.body
        return body if isinstance(body, pd.DataFrame) else ci_table(self.to_frame())

    def _repr_html_(self) -> str:
        view = self.view
        title = f"<p><b>{html.escape(view.title, quote=False)}</b></p>"
        if view.text is not None or not isinstance(view.body, pd.DataFrame):
            return title + f"<pre>{html.escape(self.text(), quote=False)}</pre>"
        verdict = f"<p>{html.escape(view.verdict, quote=False)}</p>" if view.verdict else ""
        return title + str(self.shown_frame().to_html(index=False)) + verdict

    def __repr__(self) -> str:
        return self.text()

    def __getattr__(self, name: str) -> Any:
        # only for names the class lacks: the study's own result's fields and methods
        result = self.__dict__.get("result")
        if name.startswith("_") or result is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(result, name)


def load(folder: str | Path) -> Result:
    """The answer saved in ``folder`` (``--out``, ``out=``, or a folder of the report),
    checked as every door checks it: ``ValueError`` naming the damaged file."""
    return Result.of(Answer.load(folder))


class TableResult:
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


__all__ = ["Result", "TableResult", "ci_table", "load"]
