"""Matplotlib charts of the studies' tables, in one house style.

The data arrive prepared (tidy pandas tables from :mod:`analyzer.gin`); the drawing
functions only draw on a given ``Axes``, label axes with units and add CI bands or bars.
:func:`figure_file` is the one place a chart is created and saved (size, dpi, style).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.image import AxesImage

STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
}
COLORS = mpl.colormaps["tab10"].colors


@contextmanager
def figure_file(path: Path, rows: int = 1, columns: int = 1,
                figsize: tuple[float, float] = (9, 4), title: str | None = None
                ) -> Iterator[Any]:
    """Axes of a new figure in the house style, saved as PNG to ``path`` on exit.

    ``figsize`` is in inches at :data:`STYLE`'s dpi; ``title`` is the figure's title
    above every panel.  A bare :class:`~matplotlib.figure.Figure` needs no pyplot
    backend or global state.
    """
    with mpl.rc_context(STYLE):
        figure = Figure(figsize=figsize)
        axes = figure.subplots(rows, columns)
        yield axes
        if title is not None:
            figure.suptitle(title)
        figure.tight_layout()
        figure.savefig(path)


def dealt_histogram(distribution: pd.DataFrame, ax: Axes,
                    exact: pd.DataFrame | None = None) -> None:
    """Probability of each dealt deadwood for 10 cards and the best 10 of 11."""
    for color, (cards, group) in zip(COLORS, distribution.groupby("cards"), strict=False):
        label = "10 cards dealt" if cards == 10 else "best 10 of 11 (after the first draw)"
        ax.bar(group["deadwood"] + (0.2 if cards == 11 else -0.2), group["probability"],
               width=0.4, color=color, alpha=0.75, label=f"{label} (Monte Carlo)")
    if exact is not None:
        for color, (cards, group) in zip(COLORS, exact.groupby("cards"), strict=False):
            ax.plot(group["deadwood"], group["probability"], color=color, lw=1.2,
                    label=f"{cards} cards: exact enumeration")
    ax.set_xlabel("deadwood (points)")
    ax.set_ylabel("probability")
    ax.set_xlim(-1, 100)
    ax.legend(fontsize=8)


def knock_sweep_panels(sweep: pd.DataFrame, axes: Sequence[Axes]) -> None:
    """Three panels against threshold t: points per hand relative to t = 10, game-win
    rate, and the rate at which A's knocks are undercut; one line per opponent."""
    panels = (("diff", "points per hand vs knocking at 10"),
              ("game_win", "game-win rate of A (games to 100)"),
              ("undercut", "hands where A knocks and is undercut"))
    for ax, (metric, label) in zip(axes, panels, strict=True):
        for color, (opponent, group) in zip(COLORS, sweep.groupby("opponent", sort=False),
                                            strict=False):
            ax.plot(group["threshold"], group[f"{metric}_mean"], marker="o", ms=3,
                    color=color, label=opponent)
            ax.fill_between(group["threshold"], group[f"{metric}_low"],
                            group[f"{metric}_high"], color=color, alpha=0.2, lw=0)
        ax.set_xlabel("A knocks at deadwood <= t (points)")
        ax.set_ylabel(label)
        ax.set_xticks(range(11))
    axes[0].axhline(0, color="black", lw=0.8)
    axes[1].axhline(0.5, color="black", lw=0.8)
    axes[0].legend(title="opponent", fontsize=8)


def knock_chart_heatmap(chart: pd.DataFrame, ax: Axes, max_turn: int) -> None:
    """Knock-minus-play-on points by (own turn, deadwood); grey where samples are few;
    the black line separates the cells where knocking is better."""
    grid = np.full((10, max_turn), np.nan)
    enough = np.zeros((10, max_turn), dtype=bool)
    for row in chart.itertuples():
        grid[row.deadwood - 1, row.turn - 1] = row.mean
        enough[row.deadwood - 1, row.turn - 1] = row.enough
    shown = np.where(enough, grid, np.nan)
    limit = np.nanmax(np.abs(shown)) if np.isfinite(shown).any() else 1.0
    cmap = mpl.colormaps["RdBu"].with_extremes(bad="#d9d9d9")
    image = ax.imshow(shown, origin="lower", aspect="auto", cmap=cmap,
                      norm=TwoSlopeNorm(0, -limit, limit),
                      extent=(0.5, max_turn + 0.5, 0.5, 10.5))
    for deadwood in range(10):
        for turn in range(max_turn):
            if enough[deadwood, turn]:
                ax.text(turn + 1, deadwood + 1, f"{grid[deadwood, turn]:+.1f}", ha="center",
                        va="center", fontsize=6)
    # boundary: edges between a "knock better" cell and a "play on better" one
    better = np.where(enough, grid > 0, False)
    for deadwood in range(10):
        for turn in range(max_turn):
            if deadwood + 1 < 10 and enough[deadwood, turn] and enough[deadwood + 1, turn] \
                    and better[deadwood, turn] != better[deadwood + 1, turn]:
                ax.plot([turn + 0.5, turn + 1.5], [deadwood + 1.5] * 2, color="black", lw=2)
            if turn + 1 < max_turn and enough[deadwood, turn] and enough[deadwood, turn + 1] \
                    and better[deadwood, turn] != better[deadwood, turn + 1]:
                ax.plot([turn + 1.5] * 2, [deadwood + 0.5, deadwood + 1.5], color="black", lw=2)
    ax.set_xlabel(f"own turn (draws by the player; {max_turn} = {max_turn} or later)")
    ax.set_ylabel("deadwood after the discard (points)")
    ax.set_yticks(range(1, 11))
    ax.set_xticks(range(1, max_turn + 1))
    ax.grid(False)
    colorbar = ax.figure.colorbar(image, ax=ax, fraction=0.04)
    colorbar.set_label("knock now minus play on (points per hand)")


def schedules_chart(schedules: dict[str, Sequence[int]], bins: Sequence[tuple[int, int]],
                    ax: Axes, last_turn: int = 14) -> None:
    """Knock threshold by own turn, one step line per schedule."""
    for offset, (color, (label, thresholds)) in enumerate(
            zip(COLORS, schedules.items(), strict=False)):
        turns, values = [], []
        for (first, last), threshold in zip(bins, thresholds, strict=True):
            turns += [first - 0.5, min(last, last_turn) + 0.5]
            values += [threshold, threshold]
        ax.plot(turns, np.array(values) + 0.08 * offset, color=color, lw=2, label=label)
    ax.set_xlabel("own turn")
    ax.set_ylabel("knock at deadwood <= (points)")
    ax.set_ylim(-0.5, 10.5)
    ax.set_yticks(range(0, 11, 2))
    ax.legend(fontsize=8)


def matrix_heatmap(results: pd.DataFrame, metric: str, ax: Axes, order: Sequence[str],
                   center: float, label: str, fmt: str) -> None:
    """Round-robin matrix: row policy's ``metric`` against the column policy."""
    table = results.pivot(index="a", columns="b", values=metric).reindex(index=order,
                                                                         columns=order)
    half = results.set_index(["a", "b"])
    values = table.to_numpy(dtype=float)
    spread = np.nanmax(np.abs(values - center)) or 1.0
    cmap = mpl.colormaps["RdBu"].with_extremes(bad="#eeeeee")
    image = ax.imshow(values, cmap=cmap, norm=TwoSlopeNorm(center, center - spread,
                                                           center + spread))
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a != b:
                row = half.loc[(a, b)]
                width = (row[f"{metric}_high"] - row[f"{metric}_low"]) / 2
                ax.text(j, i, f"{row[metric]:{fmt}}\n±{width:{fmt.lstrip('+')}}", ha="center",
                        va="center", fontsize=7)
    ax.set_xticks(range(len(order)), order, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("opponent")
    ax.set_ylabel("policy")
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, fraction=0.046).set_label(label)


def variant_bars(table: pd.DataFrame, metric: str, ax: Axes, label: str,
                 interval: bool = False) -> None:
    """One bar per rules preset (with a 95% CI bar when ``interval``)."""
    positions = np.arange(len(table))
    errors = None
    if interval:
        errors = np.vstack([table[metric] - table[f"{metric}_low"],
                            table[f"{metric}_high"] - table[metric]])
    ax.barh(positions, table[metric], xerr=errors, color=COLORS[0], alpha=0.8)
    ax.set_yticks(positions, table["rules"])
    ax.invert_yaxis()
    ax.set_xlabel(label)


def score_heatmap(grid: pd.DataFrame, ax: Axes, title: str = "",
                  label: str = "P(A wins game)", cmap: str = "RdBu",
                  levels: Sequence[float] = (0.25, 0.5, 0.75), vmin: float = 0.0,
                  vmax: float = 1.0) -> AxesImage:
    """Draw a score grid (:func:`analyzer.gin.equity.heatmap_data`) on ``ax``, with
    contour lines at ``levels``."""
    image = ax.imshow(grid.to_numpy(), origin="lower", cmap=cmap, vmin=vmin, vmax=vmax,
                      aspect="equal", interpolation="nearest")
    if levels:
        contours = ax.contour(grid.to_numpy(), levels=list(levels), colors="k", linewidths=0.7)
        ax.clabel(contours, fmt="%.2f", fontsize=7)
    ax.set_xlabel(f"{grid.columns.name or 'column'} (points)")
    ax.set_ylabel(f"{grid.index.name or 'row'} (points)")
    ax.set_title(title)
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label=label, shrink=0.8)
    return image


def exact_distribution_chart(data: pd.DataFrame, ax: Axes, log: bool = False,
                             knock_limit: int = 10) -> None:
    """The exact distribution (:func:`analyzer.gin.exact.chart_data`) as bars, the
    Monte Carlo estimate (if any) as points with two-standard-error bars, and the knock
    limit as a dashed line."""
    ax.bar(data.deadwood, data.exact, width=1.0, color="#9ecae1", edgecolor="#3182bd",
           linewidth=0.4, label="exact (every hand)")
    if "mc" in data:
        shown = data[data.mc > 0]
        ax.errorbar(shown.deadwood, shown.mc, yerr=2 * shown.mc_se, fmt="o", ms=2.2,
                    color="#d62728", elinewidth=0.6, label="Monte Carlo estimate (±2 SE)")
    ax.axvline(knock_limit + 0.5, color="0.3", linestyle="--", linewidth=0.8,
               label=f"knock limit {knock_limit}")
    ax.set_xlabel("Deadwood (points)")
    ax.set_ylabel("Probability" + (" (log scale)" if log else ""))
    if log:
        ax.set_yscale("log")
        ax.set_ylim(bottom=data.exact[data.exact > 0].min() / 2)
    ax.set_xlim(-1, len(data))
    ax.legend(fontsize=8)
