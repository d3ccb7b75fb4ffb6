"""A chart as data: what to draw, not how.

A study describes its chart with these frozen records (a :class:`Chart` of
:class:`Panel` s, each a stack of :class:`Mark` s); the doors draw the same description
their own way: the report, the command line and the notebook with matplotlib
(:mod:`analyzer.report.charts`), the web app with plotly (:mod:`analyzer.web.charts`).
A description holds plain numbers and strings only, so it turns into JSON and back
(:meth:`Chart.to_dict`, :meth:`Chart.from_dict`) and no door keeps a chart of its own.

Colours are named by role, never by value: a mark's ``color`` is an index into the
house palette (Okabe-Ito, safe for every common colour-vision deficiency), a heat map's
``scale`` one of :data:`SCALES`.

>>> line = Mark("line", x=(0, 1, 2), y=(0.5, 0.25, 0.0), label="basic")
>>> chart = Chart("sweep", "Title", "How to read it", (Panel((line,), x_label="t"),))
>>> Chart.from_dict(chart.to_dict()) == chart
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: What a mark draws: ``line`` (through its points, ``marker`` at each, ``step`` as
#: stairs), ``points`` (markers only, with ``low``/``high`` as error bars when given),
#: ``band`` (the area between ``low`` and ``high`` along ``x``), ``bars`` and ``hbars``
#: (bars at ``x`` of height ``y``, error bars from ``low``/``high``; ``offset`` and
#: ``width`` place bars of several marks side by side), ``hline``/``vline`` (a rule at
#: ``y[0]``/``x[0]``, over ``low[0]``-``high[0]`` when given), ``vspan`` (the strip
#: ``x[0]``-``x[1]``), ``heatmap`` (``z`` by rows, with ``x``/``y`` its column and row
#: positions or labels), ``segments`` (straight pieces ``(x0, y0, x1, y1)`` in ``z``).
KINDS = (
    "line",
    "points",
    "band",
    "bars",
    "hbars",
    "hline",
    "vline",
    "vspan",
    "heatmap",
    "segments",
)
#: How a heat map colours its values: ``diverging`` (red below ``center``, blue above,
#: symmetric about it), ``probability`` (the diverging map over 0-1), ``sequential``
#: (ordered values, one colour per whole number when ``levels`` are given),
#: ``categories`` (the whole numbers 0, 1, ... each the colour and name of
#: ``categories``).
SCALES = ("diverging", "probability", "sequential", "categories")

#: The house palette (Okabe & Ito 2008, "Color Universal Design").
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: Cells shown without a value (too few samples), and "play on" in a rule grid.
MISSING = "#d9d9d9"

Value = float | str


@dataclass(frozen=True)
class Mark:
    """One layer of a panel (see :data:`KINDS`).  Missing values are ``nan``."""

    kind: str
    x: tuple[Value, ...] = ()
    y: tuple[Value, ...] = ()
    low: tuple[float, ...] = ()
    high: tuple[float, ...] = ()
    z: tuple[tuple[float, ...], ...] = ()
    """A heat map's values by row (``nan``: no value), or the pieces of ``segments``."""
    text: tuple[tuple[str, ...], ...] = ()
    """A heat map's cell texts by row ("" for none)."""
    label: str = ""
    """Its name in the legend ("" for none)."""
    color: int = 0
    """Index into :data:`PALETTE` (black: 7)."""
    marker: bool = False
    step: bool = False
    dashed: bool = False
    opacity: float = 1.0
    width: float = 0.8
    """A bar's width, in units of the axis."""
    offset: float = 0.0
    """How far a bar stands from its ``x`` (bars of several marks side by side)."""
    scale: str = "diverging"
    center: float = 0.0
    levels: tuple[float, ...] = ()
    """A ``sequential`` heat map's whole numbers, or the contour lines drawn over a heat
    map."""
    categories: tuple[tuple[str, str], ...] = ()
    """A heat map's legend entries, (colour, name) each; for the ``categories`` scale
    also the colours of 0, 1, ..."""
    colorbar: str = ""
    """A heat map's colour bar title ("" for no colour bar)."""
    missing: str = ""
    """The legend entry of a heat map's cells without a value ("" for none)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown mark kind {self.kind!r}; choose from {', '.join(KINDS)}")
        if self.kind == "heatmap" and self.scale not in SCALES:
            raise ValueError(f"unknown scale {self.scale!r}; choose from {', '.join(SCALES)}")
        if not 0 <= self.color < len(PALETTE):
            raise ValueError(f"color must be 0-{len(PALETTE) - 1}, got {self.color}")


@dataclass(frozen=True)
class Axis:
    """One axis of a panel: its title, ticks (positions with labels, or none: the
    renderer's own) and range."""

    title: str = ""
    ticks: tuple[Value, ...] = ()
    tick_labels: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    log: bool = False
    reversed: bool = False


@dataclass(frozen=True)
class Panel:
    """One set of axes: its marks, bottom layer first."""

    marks: tuple[Mark, ...]
    title: str = ""
    x_label: str = ""
    y_label: str = ""
    x: Axis = field(default_factory=Axis)
    y: Axis = field(default_factory=Axis)
    legend: str = "best"
    """Where the legend goes: ``best``, ``below``, ``right`` or ``none``."""
    legend_title: str = ""
    legend_columns: int = 1


@dataclass(frozen=True)
class Chart:
    """A figure: panels side by side under a title, with how to read it below."""

    name: str
    """The file stem (``sweep`` for ``sweep.png``)."""
    title: str
    caption: str
    panels: tuple[Panel, ...]
    size: tuple[float, float] = (9.0, 4.0)
    """Width and height of the panels' area, in inches."""
    share_y: bool = False

    def __post_init__(self) -> None:
        if not self.title.strip() or not self.caption.strip():
            raise ValueError("every chart needs a title and a caption")
        if not self.panels:
            raise ValueError("a chart needs a panel")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (``nan`` as ``None``)."""
        return _plain(asdict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Chart:
        """The chart :meth:`to_dict` gave."""
        panels = tuple(
            Panel(
                **{
                    **panel,
                    "marks": tuple(Mark(**_tuples(mark, Mark)) for mark in panel["marks"]),
                    "x": Axis(**_tuples(panel["x"], Axis)),
                    "y": Axis(**_tuples(panel["y"], Axis)),
                }
            )
            for panel in data["panels"]
        )
        return cls(**{**data, "panels": panels, "size": tuple(data["size"])})


@dataclass(frozen=True)
class Page:
    """A printable page of text (a strategy card): a title, blocks each a heading and its
    paragraphs, and a footer; drawn on one sheet that fits both A4 and Letter."""

    name: str
    """The file stem (``card`` for ``card.png`` and ``card.pdf``)."""
    title: str
    blocks: tuple[tuple[str, tuple[str, ...]], ...]
    footer: str = ""


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _tuples(data: Mapping[str, Any], kind: type) -> dict[str, Any]:
    """``data``'s lists as the tuples ``kind``'s fields hold (``None`` in them back to
    ``nan``)."""

    def back(item: Any) -> Any:
        if isinstance(item, list):
            return tuple(math.nan if inner is None else back(inner) for inner in item)
        return item

    names = {f.name for f in fields(kind)}
    return {key: back(value) if key in names else value for key, value in data.items()}


def column(values: Sequence[Any]) -> tuple[Any, ...]:
    """A table column as a mark's values: plain Python numbers and strings."""
    return tuple(item.item() if hasattr(item, "item") else item for item in values)


__all__ = [
    "KINDS",
    "MISSING",
    "PALETTE",
    "SCALES",
    "Axis",
    "Chart",
    "Mark",
    "Page",
    "Panel",
    "column",
]
