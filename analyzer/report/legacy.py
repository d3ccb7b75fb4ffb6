"""Scaffolding while the studies move to :mod:`analyzer.studies` (to be removed): a
declaration still written the old way (one ``run`` returning a :class:`LegacyAnswer`)
as the ``compute`` and ``present`` of a :class:`~analyzer.studies.study.Study`.  Its
answers are computed, not saved or loaded, and draw no chart description."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..core.progress import Progress
from ..studies.study import Computed, Inputs, View


@dataclass(frozen=True)
class Chart:
    name: str
    draw: Callable[[Any], None]
    figsize: tuple[float, float]
    title: str
    caption: str
    panels: int = 1
    tables: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    sharey: bool = False
    frame: pd.DataFrame | None = None


@dataclass(frozen=True)
class Answer:
    title: str
    frame: pd.DataFrame
    body: pd.DataFrame | Sequence[str]
    verdict: str
    chart: Chart | None
    notes: Sequence[str] = ()
    raw: pd.DataFrame | Mapping[str, Any] | None = None
    data: Mapping[str, Any] | None = None
    result: object = None
    files: Mapping[str, pd.DataFrame | bytes] = field(default_factory=dict)
    rows: pd.DataFrame | None = None
    stopped: Mapping[str, Any] | None = None
    text: str | None = None


def legacy(
    run: Callable[[Inputs, Progress | None, str | None], Answer],
) -> tuple[Callable[..., Computed], Callable[[Any], View]]:
    """``(compute, present)`` of an old-style ``run``."""

    def compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
        old = run(inputs, progress, scheduler)
        return Computed({"table": old.frame}, result=old, rows=old.rows, stopped=old.stopped)

    def present(answer: Any) -> View:
        old = answer.result
        return View(
            old.title,
            old.body,
            old.verdict,
            None,
            old.notes,
            None,
            old.raw,
            old.data,
            old.text,
        )

    return compute, present
