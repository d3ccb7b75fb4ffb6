"""The plain-rummy report section: its charts, CSV tables and Markdown.

The tables come from :mod:`analyzer.rummy.studies`; this module draws them on a given
``Axes`` and writes the files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from ..core.progress import Progress, advance, tell_total
from ..rummy.rules import RummyRules
from ..rummy.studies import (
    HOLD_POINTS,
    HOLD_TURNS,
    OPTION_VARIANTS,
    PLAYER_COUNTS,
    REPORT_DEALS,
    STOCK_RULES,
    meld_or_hold,
    option_values,
    player_counts,
)
from ..studies.files import csv_bytes, make_folder, write_together
from .common import Section, SectionRun, section_heading, section_intro
from .figures import chart
from .markdown import markdown_table


def _errors(table: pd.DataFrame, column: str) -> np.ndarray:
    return np.vstack([table[column] - table[f"{column}_lo"], table[f"{column}_hi"] - table[column]])


def plot_meld_or_hold(table: pd.DataFrame, ax: Axes) -> None:
    """Holder's edge (points per hand, 95% CI) against the last turn it holds, one line
    per points limit; the hold-never baseline is the dashed zero line."""
    holding = table[table.hold_turns > 0]
    for points, group in holding.groupby("hold_points"):
        label = "no points limit" if points >= 999 else f"give up above {points} points"
        x = np.minimum(group.hold_turns, 20)
        ax.errorbar(
            x, group.margin, yerr=_errors(group, "margin"), marker="o", capsize=3, label=label
        )
    ax.axhline(0, color="grey", linestyle="--", linewidth=1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # turns are whole
    ax.set_xlabel("holds for Rummy through own turn (20 = always)")
    ax.set_ylabel("holder's edge, points per hand")
    ax.legend(fontsize="small")


def plot_player_counts(table: pd.DataFrame, ax: Axes) -> None:
    """Each seat's share of the won hands (95% CI) by number of players, pile turned over
    when the stock runs dry; the fair share ``1 / players`` is marked.  Seat 0 plays first."""
    table = table[table.stock == list(STOCK_RULES)[-1]]
    seats = int(table.seat.max()) + 1
    width = 0.8 / seats
    for seat in range(seats):
        rows = table[table.seat == seat]
        ax.bar(
            rows.players + (seat - (seats - 1) / 2) * width,
            rows.win_share,
            width,
            yerr=_errors(rows, "win_share"),
            capsize=2,
            label=f"seat {seat}",
        )
    counts = np.array(sorted(table.players.unique()))
    ax.hlines(
        1 / counts,
        counts - 0.45,
        counts + 0.45,
        colors="black",
        linestyles="--",
        linewidth=1,
        label="fair share",
    )
    ax.set_xticks(counts)
    ax.set_xlabel("players (last seat deals)")
    ax.set_ylabel("share of won hands")
    ax.legend(fontsize="small", ncol=4)


def plot_option_values(table: pd.DataFrame, ax: Axes) -> None:
    """Edge of holding for Rummy (holder's points minus the other's per hand, 95% CI)
    under each rule variant; the winner's points and hand lengths are in the table."""
    y = np.arange(len(table))
    ax.barh(y, table.hold_margin, xerr=_errors(table, "hold_margin"), capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(y, table.variant)
    ax.invert_yaxis()
    ax.set_xlabel("edge of holding for Rummy through turn 6, points per hand")


# ------------------------------------------------------------------------- report


def _markdown(table: pd.DataFrame, columns: dict[str, str], digits: int = 2) -> str:
    """A Markdown table of ``columns`` (column -> header); a ``*_lo``/``*_hi`` pair is
    shown as ``mean [lo, hi]``."""
    shown = {}
    for column, header in columns.items():
        values = table[column]
        if f"{column}_lo" in table.columns:
            values = pd.Series(
                [
                    f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
                    for m, lo, hi in zip(
                        values, table[f"{column}_lo"], table[f"{column}_hi"], strict=True
                    )
                ]
            )
        shown[header] = values.reset_index(drop=True)
    return markdown_table(pd.DataFrame(shown), float_format=f".{digits}f", align=False)


def _hold_labels(table: pd.DataFrame) -> pd.DataFrame:
    """``hold_turns`` / ``hold_points`` as words: 0 turns melds at once, 999 is no limit."""
    turns = table.hold_turns.map(
        lambda t: "melds at once" if t == 0 else "to the end" if t >= 999 else f"turn {t}"
    )
    points = table.hold_points.map(lambda p: "-" if p >= 999 else f"> {p} points")
    points[table.hold_turns == 0] = "-"
    return table.assign(hold_turns=turns, hold_points=points)


def _ci(row: pd.Series, column: str, digits: int = 2) -> str:
    """``x ± h`` of a column and its ``_lo`` / ``_hi`` 95% bounds."""
    half = (row[f"{column}_hi"] - row[f"{column}_lo"]) / 2
    return f"{row[column]:.{digits}f} ± {half:.{digits}f}"


def _units_only(progress: Progress | None) -> Progress | None:
    """``progress`` without the totals that each study announces (the report gives one
    total for all three)."""
    if progress is None:
        return None
    outer = progress

    def report(units: int, /, total: int | None = None) -> None:
        advance(outer, units)

    return report


def report_deals(deals: int) -> int:
    """Deals that :func:`write_rummy_report` plays in hand runs (the progress total)."""
    hold_runs = sum(len(HOLD_POINTS) if turns else 1 for turns in HOLD_TURNS)
    return deals * (hold_runs + len(STOCK_RULES) * len(PLAYER_COUNTS) + 2 * len(OPTION_VARIANTS))


#: The section's heading.
TITLE = "Plain rummy"


@dataclass(frozen=True)
class RummyStudies:
    """The three plain-rummy studies' tables, and the run that made them."""

    hold: pd.DataFrame
    """Meld now or hold for Rummy (:func:`analyzer.rummy.studies.meld_or_hold`)."""
    seats: pd.DataFrame
    """By player count and seat (:func:`analyzer.rummy.studies.player_counts`)."""
    options: pd.DataFrame
    """By rule option (:func:`analyzer.rummy.studies.option_values`)."""
    deals: int
    """Deals per configuration."""
    seed: int
    out_dir: Path
    """The folder of their files."""


def write_rummy_report(
    out_dir: Path,
    deals: int = REPORT_DEALS,
    seed: int = 0,
    links_from_parent: bool = True,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> str:
    """Run the three studies, write CSV and PNG files into ``out_dir`` and return the
    report's Markdown section on plain rummy (see :func:`run_rummy_studies` and
    :func:`render_rummy`)."""
    studies = run_rummy_studies(out_dir, deals, seed, progress, scheduler)
    return section_heading(TITLE) + render_rummy(studies, links_from_parent)


def run_rummy_studies(
    out_dir: Path,
    deals: int = REPORT_DEALS,
    seed: int = 0,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> RummyStudies:
    """Run the three studies and write CSV and PNG files into ``out_dir``.

    Parameters
    ----------
    out_dir : Path
        Directory for ``meld_or_hold.csv``, ``player_counts.csv``, ``option_values.csv``
        and one PNG chart each (created if missing).
    deals : int
        Deals per configuration (51 configurations of hands, 19 of games).
    seed : int
        Seed of every run.
    progress, scheduler
        As in :func:`analyzer.rummy.simulate.simulate`; ``progress`` is told the total,
        :func:`report_deals`, first.
    """
    make_folder(out_dir)
    tell_total(progress, report_deals(deals))
    units = _units_only(progress)
    hold = meld_or_hold(deals, seed, progress=units, scheduler=scheduler)
    seats = player_counts(deals, seed, progress=units, scheduler=scheduler)
    options = option_values(deals, seed, progress=units, scheduler=scheduler)
    for name, table in (
        ("meld_or_hold", hold),
        ("player_counts", seats),
        ("option_values", options),
    ):
        write_study(out_dir, name, table, deals, seed)
    return RummyStudies(hold, seats, options, deals, seed, out_dir)


def run_rummy(run: SectionRun) -> RummyStudies:
    """The studies of the standard report, their files in the section's folder."""
    deals = run.size(0.3)
    # plain rummy reports no progress of its own: the bar shows the elapsed time
    run.progress("plain rummy")
    studies = run_rummy_studies(run.folder, deals=deals, seed=run.seed)
    run.write_meta(deals=deals)
    return studies


def render_rummy(studies: RummyStudies, links_from_parent: bool = True) -> str:
    """The Markdown of the studies, below the heading; chart links relative to the parent
    of their folder (``rummy/meld_or_hold.png``, for the report's README) or, when
    ``links_from_parent`` is False, to the folder itself (for a ``report.md`` written
    inside it)."""
    hold, seats, options = studies.hold, studies.seats, studies.options
    deals, seed, out_dir = studies.deals, studies.seed, studies.out_dir
    link = f"{out_dir.name}/" if links_from_parent else ""
    command = f"analyzer rummy study all --deals {deals} --seed {seed} --out {out_dir}"
    best = hold.loc[hold.margin.idxmax()]
    always = hold[
        (hold.hold_turns == hold.hold_turns.max()) & (hold.hold_points == hold.hold_points.max())
    ].iloc[0]
    limit = (
        "no points limit"
        if best.hold_points >= 999
        else f"giving up above {int(best.hold_points)} points held"
    )
    hold_answer = (
        f"Against a player who melds at once, the best holding rule tried (hold through own "
        f"turn {int(best.hold_turns)}, {limit}) gains {_ci(best, 'margin')} points per hand "
        f"and wins {_ci(best, 'game_win_rate')} of games to {RummyRules().target}, while "
        f"holding to the very end scores {_ci(always, 'margin')} points per hand: it wins "
        f"{always.win_rate:.0%} of hands, but small ones."
    )
    per_game = seats[seats.seat == 0].set_index(["stock", "players"])
    void, turned = (per_game.loc[name] for name in STOCK_RULES)
    dealer = seats.groupby(["stock", "players"]).last().loc[list(STOCK_RULES)[-1]]
    seat_answer = (
        f"With the standard rule that a dry stock voids the hand, hands last "
        f"{void.turns.iloc[0]:.1f} turns with 2 players and {void.turns.iloc[-1]:.1f} with 6, "
        f"and {void.void_rate.iloc[0]:.0%} of 2-player hands but {void.void_rate.iloc[-1]:.0%} "
        f"of 6-player hands die unscored; "
        f"turning the pile over instead, {turned.void_rate.iloc[-1]:.0%} of 6-player hands "
        f"still reach the {RummyRules().turn_limit}-turn limit (fixed policies and an "
        f"unshuffled pile can cycle), a won hand pays "
        f"{_ci(turned.iloc[0], 'winner_points', 1)} points with 2 players and "
        f"{_ci(turned.iloc[-1], 'winner_points', 1)} with 6, and the first seat takes "
        f"{_ci(turned.iloc[0], 'win_share', 3)} of won 2-player hands (fair 0.500) and "
        f"{_ci(turned.iloc[-1], 'win_share', 3)} of 6-player ones (fair 0.167; the dealer "
        f"{dealer.win_share.iloc[-1]:.3f})."
    )
    base = options.iloc[0]
    single = options.iloc[1:][~options.variant.iloc[1:].str.startswith("all")]
    longest = single.loc[(single.turns - base.turns).abs().idxmax()]
    flattest = single.loc[single.hold_margin.idxmin()]
    richest = single.loc[(single.winner_points - base.winner_points).abs().idxmax()]
    option_answer = (
        f"Against the standard rules ({base.turns:.1f} turns per hand, {base.winner_points:.2f} "
        f"points per won hand, an edge of {base.hold_margin:.2f} points per hand for holding "
        f"for Rummy), '{longest.variant}' changes hand length most "
        f"({_ci(longest, 'turns', 1)} turns), '{flattest.variant}' shrinks the edge of holding "
        f"most ({_ci(flattest, 'hold_margin')}), and '{richest.variant}' moves the winner's "
        f"points most ({_ci(richest, 'winner_points')})."
    )
    return "\n".join(
        [
            section_intro(
                "In plain rummy, should you meld at once or hold for Rummy, how does the "
                "number of players change a hand, and what is each rule option worth?",
                "2 to 6 scripted players, each melding and laying off at once and throwing "
                "the card that leaves the least deadwood unless stated.",
                "plain rummy (seeds 000 and 004), not gin",
            ).rstrip("\n"),
            "",
            (
                "Plain rummy (seeds 000 and 004), not gin: lay off onto any meld, score the cards "
                "left in the other hands, double for going out 'Rummy'.  Both players meld and lay "
                "off at once and throw the card leaving the least deadwood unless stated."
            ),
            "",
            f"Command: `{command}` (seed {seed}, {deals:,} deals per configuration).",
            "",
            "### Should I meld now or hold for Rummy?",
            "",
            hold_answer,
            "",
            f"![meld or hold]({link}meld_or_hold.png)",
            "",
            _markdown(
                _hold_labels(hold),
                {
                    "hold_turns": "holds through",
                    "hold_points": "gives up at",
                    "margin": "edge, points/hand",
                    "win_rate": "hands won",
                    "rummy_rate": "Rummy share of wins",
                    "game_win_rate": "games won (to 100)",
                },
            ),
            "",
            "### Player count: hand length, winner's points, seat advantage",
            "",
            seat_answer,
            "",
            f"![seat advantage]({link}player_counts.png)",
            "",
            _markdown(
                seats,
                {
                    "stock": "dry stock",
                    "players": "players",
                    "seat": "seat",
                    "cards": "cards",
                    "turns": "turns/hand",
                    "winner_points": "winner's points",
                    "void_rate": "void rate",
                    "win_share": "share of won hands",
                },
            ),
            "",
            "### What each optional rule is worth",
            "",
            option_answer,
            "",
            f"![rule options]({link}option_values.png)",
            "",
            _markdown(
                options,
                {
                    "variant": "rules",
                    "turns": "turns/hand",
                    "winner_points": "winner's points",
                    "void_rate": "void rate",
                    "rummy_rate": "Rummy rate",
                    "hold_margin": "holder's edge",
                },
            ),
            "",
        ]
    )


def write_study(out_dir: Path, stem: str, table: pd.DataFrame, deals: int, seed: int) -> None:
    """Write one study's table as ``stem``.csv and its chart as ``stem``.png (both, or
    neither and no folder made for them); ``deals`` per configuration, ``seed``: the run
    the chart's caption names."""
    plot, title, what = CHARTS[stem]
    with chart(
        figsize=(7, 3.6),
        title=title,
        caption=f"Plain rummy, {what}; 95% CIs. {deals:,} deals per configuration, seed {seed}.",
    ) as drawn:
        plot(table, drawn.axes)
    write_together(
        out_dir, {f"{stem}.csv": csv_bytes(table, index=False), f"{stem}.png": drawn.png}
    )


#: Chart of each study by file stem (see :data:`analyzer.rummy.studies.STUDIES`): how it
#: is drawn, its title, and what it shows (for its caption).
CHARTS = {
    "meld_or_hold": (
        plot_meld_or_hold,
        "Meld now or hold for Rummy?",
        "two players: the holder's points per hand less the other's",
    ),
    "player_counts": (
        plot_player_counts,
        "Seat advantage by player count",
        (
            "2-6 players, the pile turned over when the stock runs out: each seat's share "
            "of the won hands"
        ),
    ),
    "option_values": (
        plot_option_values,
        "What each rule option does to holding for Rummy",
        "two players holding for Rummy through own turn 6 under each rule option",
    ),
}

#: Section 8 of the standard report.
SECTION = Section("rummy", TITLE, run_rummy, render_rummy, seconds=8, folder="rummy")

__all__ = [
    "CHARTS",
    "SECTION",
    "TITLE",
    "RummyStudies",
    "plot_meld_or_hold",
    "plot_option_values",
    "plot_player_counts",
    "render_rummy",
    "report_deals",
    "run_rummy",
    "run_rummy_studies",
    "write_rummy_report",
    "write_study",
]
