"""Charts drawn with matplotlib, in one house style: a study's chart description
(:class:`analyzer.studies.charts.Chart`) as a figure (:func:`figure`) or PNG bytes
(:func:`png`).  The report, ``--out`` of every command and the notebook's ``.plot()``
draw with this; the web app draws the same descriptions with plotly.

Every chart has its title above its panels and its caption (how to read it, and the run
behind it) under them, so it reads without the report's text; both are also stored in
the PNG's ``Title`` and ``Description`` metadata.  A bare
:class:`~matplotlib.figure.Figure` needs no pyplot backend or global state.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import BoundaryNorm, Colormap, ListedColormap, Normalize, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..studies.charts import MISSING, PALETTE, Chart, Mark, Page, Panel

#: The house style: every chart is drawn inside ``rc_context(STYLE)``.
STYLE: dict[str, Any] = {
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.titleweight": "bold",
    "figure.titlesize": 13,
    "figure.titleweight": "bold",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "legend.fontsize": 8.5,
}
#: Diverging map for signed values (ColorBrewer RdBu, colour-blind safe): blue is good
#: for the row player or for knocking, red the opposite.
DIVERGING = "RdBu"
#: Sequential map for ordered values (perceptually uniform, colour-blind safe).
SEQUENTIAL = "viridis"
CAPTION_COLOR = "#333333"
_TITLE_INCHES = 0.45
#: Each further line of a long title, and how many characters fit an inch of it.
_TITLE_LINE_INCHES = 0.25
_TITLE_CHARS_PER_INCH = 9
_CAPTION_LINE_INCHES = 0.22
_CAPTION_CHARS_PER_INCH = 13


def text_color(rgba: Sequence[float]) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba`` (by the WCAG
    relative luminance: black text needs a luminance above about 0.18)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(c) for c in rgba[:3])
    return "black" if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.179 else "white"


def figure(chart: Chart) -> Figure:
    """``chart`` drawn: its panels side by side, the title above, the caption below."""
    title, caption = chart.title.replace("`", ""), chart.caption.replace("`", "")
    width, height = chart.size
    wrapped = textwrap.fill(caption, width=int(width * _CAPTION_CHARS_PER_INCH))
    caption_inches = 0.15 + _CAPTION_LINE_INCHES * (wrapped.count("\n") + 1)
    shown = textwrap.fill(title, width=int(width * _TITLE_CHARS_PER_INCH))
    title_inches = _TITLE_INCHES + _TITLE_LINE_INCHES * shown.count("\n")
    total = height + title_inches + caption_inches
    with mpl.rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib types keys as literals
        drawn = Figure(figsize=(width, total))
        axes = drawn.subplots(1, len(chart.panels), sharey=chart.share_y, squeeze=False)[0]
        for ax, panel in zip(axes, chart.panels, strict=True):
            _panel(panel, ax)
        drawn.suptitle(shown, y=1 - 0.12 / total, va="top")
        drawn.text(
            0.5, 0.08 / total, wrapped, ha="center", va="bottom", fontsize=9, color=CAPTION_COLOR
        )
        drawn.tight_layout(rect=(0, caption_inches / total, 1, 1))
    return drawn


def png(chart: Chart) -> bytes:
    """``chart`` as PNG bytes, its title and caption in the file's metadata."""
    buffer = io.BytesIO()
    with mpl.rc_context(STYLE):  # type: ignore[arg-type]
        figure(chart).savefig(
            buffer,
            format="png",
            metadata={"Title": chart.title.replace("`", ""), "Description": chart.caption},
        )
    return buffer.getvalue()


#: A printable page: it fits both A4 (8.27 x 11.69 in) and Letter (8.5 x 11 in).
PAGE_INCHES = (8.27, 11.0)
#: Its PNG's resolution: 1,240 x 1,650 pixels, sharp on a phone.
PAGE_DPI = 150


def page_figure(page: Page) -> Figure:
    """``page`` laid out on one sheet: the title, each block's heading in bold and its
    paragraphs wrapped to the width, the footer at the bottom."""
    width, height = PAGE_INCHES
    drawn = Figure(figsize=PAGE_INCHES)
    margin, size, leading = 0.6, 12.5, 1.35
    y = height - margin

    def write(text: str, points: float, bold: bool = False, gap: float = 0.0) -> None:
        nonlocal y
        # characters a line holds: the text's width over an average glyph's (bold wider)
        columns = int((width - 2 * margin) * 72 / (points * (0.6 if bold else 0.53)))
        for line in textwrap.wrap(text, columns):
            drawn.text(
                margin / width,
                y / height,
                line,
                fontsize=points,
                va="top",
                fontweight="bold" if bold else "normal",
            )
            y -= points * leading / 72
        y -= gap

    write(page.title, 19, bold=True, gap=0.15)
    for heading, paragraphs in page.blocks:
        write(heading, 15, bold=True, gap=0.04)
        for paragraph in paragraphs:
            write(paragraph, size, gap=0.06)
        y -= 0.08
    if y < margin + 0.3:
        raise ValueError(f"the page {page.name!r} does not fit one sheet")
    footer = textwrap.fill(page.footer, int((width - 2 * margin) * 72 / (9 * 0.58)))
    drawn.text(
        margin / width, margin / height, footer, fontsize=9, color=CAPTION_COLOR, va="bottom"
    )
    return drawn


def figures(answer: Any) -> dict[str, bytes]:
    """The files a door writes beside an answer it saves: its chart as PNG, and its page
    (if any) as PNG and one-page PDF."""
    view = answer.view
    files = {} if view.chart is None else {f"{view.chart.name}.png": png(view.chart)}
    if view.page is not None:
        sheet = page_figure(view.page)
        for kind in ("png", "pdf"):
            buffer = io.BytesIO()
            sheet.savefig(buffer, format=kind, dpi=PAGE_DPI, metadata={"Title": view.page.title})
            files[f"{view.page.name}.{kind}"] = buffer.getvalue()
    return files


def _categories(panel: Panel, axis: str) -> list[str]:
    """The text values the panel's marks put on ``axis`` (``x`` or ``y``), in order: a
    categorical axis, each category at 0, 1, ..."""
    seen: dict[str, None] = {}
    for mark in panel.marks:
        for value in getattr(mark, axis):
            if isinstance(value, str):
                seen.setdefault(value, None)
    return list(seen)


def _positions(values: Sequence[Any], categories: list[str]) -> np.ndarray:
    return np.array([categories.index(v) if isinstance(v, str) else v for v in values], dtype=float)


def _panel(panel: Panel, ax: Axes) -> None:
    x_names, y_names = _categories(panel, "x"), _categories(panel, "y")
    legend: list[Any] = []
    for mark in panel.marks:
        x, y = _positions(mark.x, x_names), _positions(mark.y, y_names)
        if mark.kind == "heatmap":
            legend += _heatmap(mark, ax, x, y, bool(y_names))
        else:
            _mark(mark, ax, x, y)
            if mark.label and mark.kind == "segments":
                legend.append(Line2D([], [], color=PALETTE[mark.color], lw=2, label=mark.label))
    ax.set_title(panel.title)
    ax.set_xlabel(panel.x_label)
    ax.set_ylabel(panel.y_label)
    for axis, names, spec in (("x", x_names, panel.x), ("y", y_names, panel.y)):
        ticks, labels = list(spec.ticks), list(spec.tick_labels)
        if names and not ticks:
            ticks, labels = list(range(len(names))), names
        if spec.log:
            getattr(ax, f"set_{axis}scale")("log")
        if ticks and axis == "y":
            ax.set_yticks(ticks, labels or None)
        elif ticks and labels and max(map(len, labels)) > 6:
            ax.set_xticks(ticks, labels, rotation=30, ha="right")
        elif ticks:
            ax.set_xticks(ticks, labels or None)
        if spec.low is not None or spec.high is not None:
            getattr(ax, f"set_{axis}lim")(spec.low, spec.high)
        if spec.reversed and not getattr(ax, f"{axis}axis_inverted")():
            getattr(ax, f"invert_{axis}axis")()
    handles = [*ax.get_legend_handles_labels()[0], *legend]
    if handles and panel.legend != "none":
        placed: dict[str, Any] = {"loc": panel.legend if panel.legend != "below" else "best"}
        if panel.legend == "below":
            placed = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.13)}
        elif panel.legend == "right":
            placed = {"loc": "center right"}
        ax.legend(
            handles=handles,
            title=panel.legend_title or None,
            ncol=panel.legend_columns,
            **placed,
        )


def _mark(mark: Mark, ax: Axes, x: np.ndarray, y: np.ndarray) -> None:
    color = PALETTE[mark.color]
    label = mark.label or None
    style = "--" if mark.dashed else "-"
    errors = None
    if mark.low and mark.high and mark.kind in ("line", "points", "bars", "hbars"):
        middle = x if mark.kind == "hbars" else y
        errors = np.vstack([middle - np.array(mark.low), np.array(mark.high) - middle])
    if mark.kind in ("line", "points"):
        if errors is not None:
            ax.errorbar(
                x,
                y,
                yerr=errors,
                fmt="o" + ("" if mark.kind == "points" else style),
                ms=3 if mark.marker or mark.kind == "points" else 0,
                capsize=3,
                elinewidth=0.8,
                color=color,
                label=label,
            )
            return
        ax.plot(
            x,
            y,
            linestyle="none" if mark.kind == "points" else style,
            marker="o" if mark.marker or mark.kind == "points" else None,
            ms=3 if mark.marker else 2.5,
            color=color,
            alpha=mark.opacity,
            drawstyle="steps-post" if mark.step else "default",
            label=label,
            lw=2 if mark.step else 1.5,
        )
    elif mark.kind == "band":
        ax.fill_between(x, mark.low, mark.high, color=color, alpha=0.2 * mark.opacity, lw=0)
    elif mark.kind == "bars":
        ax.bar(
            x + mark.offset,
            y,
            mark.width,
            yerr=errors,
            color=color,
            alpha=mark.opacity,
            capsize=2,
            label=label,
            error_kw={"ecolor": "black", "lw": 1},
        )
    elif mark.kind == "hbars":
        ax.barh(
            y + mark.offset,
            x,
            mark.width,
            xerr=errors,
            color=color,
            alpha=mark.opacity,
            capsize=3,
            label=label,
            error_kw={"ecolor": "black", "lw": 1},
        )
    elif mark.kind in ("hline", "vline"):
        ruled = ax.axhline if mark.kind == "hline" else ax.axvline
        at = (y if mark.kind == "hline" else x)[0]
        if mark.low:
            spans = ax.hlines if mark.kind == "hline" else ax.vlines
            spans(
                y,
                mark.low,
                mark.high,
                colors=color,
                linestyles="dashed" if mark.dashed else "solid",
                lw=1,
                label=mark.label,
            )
        else:
            ruled(at, color=color, lw=0.8, linestyle=style, label=label)
    elif mark.kind == "vspan":
        ax.axvspan(x[0], x[1], color=color, alpha=0.12 * mark.opacity, lw=0, label=label)
    elif mark.kind == "segments":
        for x0, y0, x1, y1 in mark.z:
            ax.plot([x0, x1], [y0, y1], color=color, lw=2)


def _scale(mark: Mark, values: np.ndarray) -> tuple[Colormap, Normalize]:
    """The colour map and norm of a heat map (see :data:`~analyzer.studies.charts.SCALES`)."""
    if mark.scale == "categories":
        cmap: Colormap = ListedColormap([color for color, _ in mark.categories])
        return cmap, Normalize(-0.5, len(mark.categories) - 0.5)
    if mark.scale == "sequential":
        levels = np.array(mark.levels, dtype=float)
        bounds = np.arange(levels.min() - 0.5, levels.max() + 1.5)
        cmap = mpl.colormaps[SEQUENTIAL].resampled(len(bounds) - 1)
        return cmap.with_extremes(bad=MISSING), BoundaryNorm(bounds, cmap.N)
    cmap = mpl.colormaps[DIVERGING].with_extremes(bad=MISSING)
    if mark.scale == "probability":
        return cmap, Normalize(0.0, 1.0)
    finite = values[np.isfinite(values)]
    spread = float(np.max(np.abs(finite - mark.center))) if finite.size else 1.0
    spread = spread or 1.0
    return cmap, TwoSlopeNorm(mark.center, mark.center - spread, mark.center + spread)


def _heatmap(mark: Mark, ax: Axes, x: np.ndarray, y: np.ndarray, rows_named: bool) -> list[Any]:
    """Draw a heat map mark; the legend entries it adds."""
    values = np.array(mark.z, dtype=float)
    cmap, norm = _scale(mark, values)
    step_x = float(x[1] - x[0]) if len(x) > 1 else 1.0
    step_y = float(y[1] - y[0]) if len(y) > 1 else 1.0
    extent = (
        x[0] - step_x / 2,
        x[-1] + step_x / 2,
        *(
            (y[-1] + step_y / 2, y[0] - step_y / 2)
            if rows_named
            else (y[0] - step_y / 2, y[-1] + step_y / 2)
        ),
    )
    image = ax.imshow(
        np.ma.masked_invalid(values),
        origin="upper" if rows_named else "lower",
        aspect="auto" if mark.scale in ("diverging", "categories") else "equal",
        cmap=cmap,
        norm=norm,
        extent=extent,
        interpolation="nearest",
    )
    for i, row in enumerate(mark.text):
        for j, cell in enumerate(row):
            if cell and math.isfinite(values[i, j]):
                ax.text(
                    x[j],
                    y[i],
                    cell,
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color=text_color(cmap(norm(values[i, j]))),
                )
    if mark.levels and mark.scale != "sequential" and min(values.shape) >= 2:
        contours = ax.contour(x, y, values, levels=list(mark.levels), colors="k", linewidths=0.7)
        ax.clabel(contours, fmt="%.2f", fontsize=7)
    ax.grid(False)
    if mark.colorbar:
        ticks = list(mark.levels) if mark.scale == "sequential" else None
        bar = ax.figure.colorbar(image, ax=ax, fraction=0.046, ticks=ticks)
        bar.set_label(mark.colorbar)
    entries = [Patch(facecolor=color, label=name) for color, name in mark.categories]
    if mark.missing:
        entries.append(Patch(facecolor=MISSING, label=mark.missing))
    return entries


__all__ = [
    "DIVERGING",
    "SEQUENTIAL",
    "STYLE",
    "figure",
    "figures",
    "page_figure",
    "png",
    "text_color",
]
