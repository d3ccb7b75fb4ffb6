"""Matplotlib charts of the studies' tables, in one house style.

The data arrive prepared (tidy pandas tables from :mod:`analyzer.gin`); the drawing
functions only draw on a given ``Axes``, label axes with units and add CI bands or bars.
:func:`chart` is the one place a chart is created and rendered (size, dpi, style), and
:func:`figure_file` saves one.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..studies.files import write_bytes

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
#: Okabe-Ito qualitative palette: distinguishable with every common colour-vision
#: deficiency (Okabe & Ito 2008, "Color Universal Design").
COLORS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: Diverging map for signed values (ColorBrewer RdBu is colour-blind safe): blue is
#: good for the row player / knocking, red the opposite.
DIVERGING = "RdBu"
#: Cells left out for lack of samples.
MISSING_COLOR = "#d9d9d9"
CAPTION_COLOR = "#333333"
_TITLE_INCHES = 0.45
#: Each further line of a long title (13-point text), and how many characters fit an
#: inch of it: longer titles wrap instead of running off the figure.
_TITLE_LINE_INCHES = 0.25
_TITLE_CHARS_PER_INCH = 9
_CAPTION_LINE_INCHES = 0.22
_CAPTION_CHARS_PER_INCH = 13


def figure_bytes(figure: Any, **options: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", **options)
    return buffer.getvalue()


def text_color(rgba: Sequence[float]) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba`` (by the
    WCAG relative luminance: black text needs a luminance above about 0.18)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(c) for c in rgba[:3])
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "black" if luminance > 0.179 else "white"


class Chart:
    """A chart being drawn by :func:`chart`: its ``axes`` inside the block, its PNG
    ``png`` (bytes) after it."""

    def __init__(self, axes: Any) -> None:
        self.axes = axes
        self.png = b""


@contextmanager
def chart(
    rows: int = 1,
    columns: int = 1,
    figsize: tuple[float, float] = (9, 4),
    *,
    title: str,
    caption: str,
    sharey: bool = False,
) -> Iterator[Chart]:
    """A new figure in the house style, drawn inside the block and rendered as PNG bytes
    at its end (``Chart.png``), for writing with other files at once.

    Every chart has a ``title`` (what it shows) above its panels and a ``caption``
    under them (how to read it, and the run behind it), so it reads without the report
    text; both are also stored in the PNG's ``Title`` and ``Description`` metadata.
    ``figsize`` is in inches, the panels' area: the title and caption are added around
    it; ``sharey`` gives the panels one y axis.  A bare
    :class:`~matplotlib.figure.Figure` needs no pyplot backend or global state.
    """
    if not title.strip() or not caption.strip():
        raise ValueError("every chart needs a title and a caption")
    # a chart is no Markdown: code marks in the texts it shares with the report go
    title, caption = title.replace("`", ""), caption.replace("`", "")
    width, height = figsize
    wrapped = textwrap.fill(caption, width=int(width * _CAPTION_CHARS_PER_INCH))
    caption_inches = 0.15 + _CAPTION_LINE_INCHES * (wrapped.count("\n") + 1)
    shown = textwrap.fill(title, width=int(width * _TITLE_CHARS_PER_INCH))
    title_inches = _TITLE_INCHES + _TITLE_LINE_INCHES * shown.count("\n")
    total = height + title_inches + caption_inches
    with mpl.rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib types keys as literals
        figure = Figure(figsize=(width, total))
        drawn = Chart(figure.subplots(rows, columns, sharey=sharey))
        yield drawn
        # tight_layout leaves room for the suptitle itself, not for free text
        figure.suptitle(shown, y=1 - 0.12 / total, va="top")
        figure.text(
            0.5, 0.08 / total, wrapped, ha="center", va="bottom", fontsize=9, color=CAPTION_COLOR
        )
        figure.tight_layout(rect=(0, caption_inches / total, 1, 1))
        drawn.png = figure_bytes(figure, metadata={"Title": title, "Description": caption})


@contextmanager
def figure_file(
    path: Path,
    rows: int = 1,
    columns: int = 1,
    figsize: tuple[float, float] = (9, 4),
    *,
    title: str,
    caption: str,
    sharey: bool = False,
) -> Iterator[Any]:
    """Axes of a new :func:`chart`, saved as PNG to ``path`` on exit (whole: see
    :mod:`analyzer.studies.files`)."""
    with chart(rows, columns, figsize, title=title, caption=caption, sharey=sharey) as drawn:
        yield drawn.axes
    write_bytes(path, drawn.png)


def knock_sweep_panels(sweep: pd.DataFrame, axes: Sequence[Axes]) -> None:
    """Three panels against threshold t: points per hand relative to t = 10, game-win
    rate, and the rate at which A's knocks are undercut; one line per opponent, with
    its 95% CI band."""
    panels = (
        ("diff", "points per hand vs knocking at 10", "Points per hand, relative to t = 10"),
        ("game_win", "game-win rate of A (games to 100)", "Games won"),
        ("undercut", "hands where A knocks and is undercut", "Undercut rate"),
    )
    for ax, (metric, label, title) in zip(axes, panels, strict=True):
        for color, (opponent, group) in zip(
            COLORS, sweep.groupby("opponent", sort=False), strict=False
        ):
            ax.plot(
                group["threshold"],
                group[f"{metric}_mean"],
                marker="o",
                ms=3,
                color=color,
                label=opponent,
            )
            ax.fill_between(
                group["threshold"],
                group[f"{metric}_low"],
                group[f"{metric}_high"],
                color=color,
                alpha=0.2,
                lw=0,
            )
        ax.set_xlabel("A knocks at deadwood <= t (points)")
        ax.set_ylabel(label)
        ax.set_title(title)
        ax.set_xticks(range(11))
    axes[0].axhline(0, color="black", lw=0.8)
    axes[1].axhline(0.5, color="black", lw=0.8)
    axes[0].legend(title="opponent (band: 95% CI)")


def knock_chart_heatmap(
    chart: pd.DataFrame, ax: Axes, max_turn: int, min_samples: int | None = None
) -> None:
    """Knock-minus-play-on points by (own turn, deadwood); grey where samples are
    fewer than ``min_samples``; a black line separates the cells where knocking is
    better from those where playing on is.  A legend explains both."""
    grid = np.full((10, max_turn), np.nan)
    enough = np.zeros((10, max_turn), dtype=bool)
    for row in chart.itertuples():
        grid[row.deadwood - 1, row.turn - 1] = row.mean
        enough[row.deadwood - 1, row.turn - 1] = row.enough
    shown = np.where(enough, grid, np.nan)
    limit = np.nanmax(np.abs(shown)) if np.isfinite(shown).any() else 1.0
    cmap = mpl.colormaps[DIVERGING].with_extremes(bad=MISSING_COLOR)
    norm = TwoSlopeNorm(0, -limit, limit)
    image = ax.imshow(
        shown,
        origin="lower",
        aspect="auto",
        cmap=cmap,
        norm=norm,
        extent=(0.5, max_turn + 0.5, 0.5, 10.5),
    )
    for deadwood in range(10):
        for turn in range(max_turn):
            if enough[deadwood, turn]:
                value = grid[deadwood, turn]
                ax.text(
                    turn + 1,
                    deadwood + 1,
                    f"{value:+.1f}",
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color=text_color(cmap(norm(value))),
                )
    # boundary: edges between a "knock better" cell and a "play on better" one
    better = np.where(enough, grid > 0, False)
    for deadwood in range(10):
        for turn in range(max_turn):
            if (
                deadwood + 1 < 10
                and enough[deadwood, turn]
                and enough[deadwood + 1, turn]
                and better[deadwood, turn] != better[deadwood + 1, turn]
            ):
                ax.plot([turn + 0.5, turn + 1.5], [deadwood + 1.5] * 2, color="black", lw=2)
            if (
                turn + 1 < max_turn
                and enough[deadwood, turn]
                and enough[deadwood, turn + 1]
                and better[deadwood, turn] != better[deadwood, turn + 1]
            ):
                ax.plot([turn + 1.5] * 2, [deadwood + 0.5, deadwood + 1.5], color="black", lw=2)
    ax.set_xlabel(f"own turn (draws by the player; {max_turn} = {max_turn} or later)")
    ax.set_ylabel("deadwood after the discard (points)")
    ax.set_yticks(range(1, 11))
    ax.set_xticks(range(1, max_turn + 1))
    ax.grid(False)
    few = "too few states" if min_samples is None else f"fewer than {min_samples:,} states"
    ax.legend(
        handles=[
            Patch(facecolor=cmap(norm(limit)), label="blue: knocking now is better"),
            Patch(facecolor=cmap(norm(-limit)), label="red: playing on is better"),
            Patch(facecolor=MISSING_COLOR, label=f"grey: {few} (not shown)"),
            Line2D([], [], color="black", lw=2, label="boundary between knock and play on"),
        ],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.13),
        ncol=4,
    )
    colorbar = ax.figure.colorbar(image, ax=ax, fraction=0.04)
    colorbar.set_label("knock now minus play on (points per hand)")


def knock_rule_chart(table: Sequence[int], ax: Axes, bins: Sequence[tuple[int, int]]) -> None:
    """A knock table as a grid: deadwood 0-10 (rows) by own turn (columns, one per bin of
    ``bins``, up to turn 20), blue where the rule knocks, grey where it plays on; with a
    pickup half (``table`` twice as long as ``bins``) that differs, a hatched band marks
    the cells that play on only while the opponent holds a card it took from the pile."""
    last_turn = 20
    plain, alert = list(table[: len(bins)]), list(table[len(bins) :] or table[: len(bins)])
    knocks = np.zeros((11, last_turn))
    for (first, last), threshold, alert_threshold in zip(bins, plain, alert, strict=True):
        for turn in range(first, min(last, last_turn) + 1):
            knocks[: min(threshold, alert_threshold) + 1, turn - 1] = 2  # knocks either way
            low, high = sorted((threshold, alert_threshold))
            knocks[low + 1 : high + 1, turn - 1] = 1  # knocks only without the signal
    cmap = mpl.colors.ListedColormap([MISSING_COLOR, "#9ecae1", COLORS[0]])
    ax.imshow(
        knocks,
        origin="lower",
        aspect="auto",
        cmap=cmap,
        vmin=0,
        vmax=2,
        extent=(0.5, last_turn + 0.5, -0.5, 10.5),
    )
    ax.set_xlabel("your own turn")
    ax.set_ylabel("deadwood (points)")
    ax.set_yticks(range(11))
    ax.set_xticks(range(1, last_turn + 1, 2))
    ax.legend(
        handles=[
            Patch(color=COLORS[0], label="knock"),
            Patch(color="#9ecae1", label="knock unless the opponent took from the pile"),
            Patch(color=MISSING_COLOR, label="play on"),
        ],
        loc="upper right",
        fontsize=8,
    )


def schedules_chart(
    schedules: Mapping[str, Sequence[int]],
    bins: Sequence[tuple[int, int]],
    ax: Axes,
    last_turn: int = 14,
) -> None:
    """Knock threshold by own turn, one step line per schedule (lines nudged apart
    vertically so that equal schedules stay visible)."""
    for offset, (color, (label, thresholds)) in enumerate(
        zip(COLORS, schedules.items(), strict=False)
    ):
        turns, values = [], []
        for (first, last), threshold in zip(bins, thresholds, strict=True):
            turns += [first - 0.5, min(last, last_turn) + 0.5]
            values += [threshold, threshold]
        ax.plot(turns, np.array(values) + 0.08 * offset, color=color, lw=2, label=label)
    ax.set_xlabel("own turn")
    ax.set_ylabel("knock at deadwood <= (points)")
    ax.set_ylim(-0.5, 10.5)
    ax.set_yticks(range(0, 11, 2))
    ax.set_xticks(range(1, last_turn + 1))
    # the lines run along 0 and 10: the middle of the right side is free
    ax.legend(loc="center right")
