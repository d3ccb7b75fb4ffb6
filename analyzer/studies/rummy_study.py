"""Plain rummy's fixed studies, declared once: ``analyzer rummy study NAME`` and
``az.rummy_study`` (:mod:`analyzer.rummy.studies` computes them).

One ``NAME`` per question: ``meld-or-hold`` (meld at once or hold for Rummy, fixed
holding rules against ``simple``), ``players`` (2 to 6 players, ``rummy-expert``, the
strongest, in every seat: the report shows it) and ``options`` (what each rule option
does, with ``simple`` players).  Each is its own answer, saved in its own folder, with a
verdict and a chart.  How to play and the options valued with the strong player are
:mod:`analyzer.studies.rummy_lessons` and :mod:`analyzer.studies.rummy_options`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.progress import Progress
from .charts import Axis, Chart, Mark, Panel, column
from .study import RUMMY, Computed, Inputs, Kind, Param, Study, View, register
from .text import interval_text, title_text

#: Each study's table (and folder) name, and what its table shows, for its title.
STUDY_TABLES = {
    "meld-or-hold": (
        "meld_or_hold",
        "Meld at once or hold for Rummy: the holder against a player melding at once",
    ),
    "players": (
        "player_counts",
        "Plain rummy from 2 to 6 players, rummy-expert in every seat (seats fixed)",
    ),
    "options": ("option_values", "What each rule option does (2 players)"),
}

#: The player in every seat of the players study.
PLAYERS_POLICY = "rummy-expert"
#: The value meaning "no limit" in the holding rules of the meld-or-hold study.
_NO_LIMIT = 999


def study_table(table: pd.DataFrame) -> pd.DataFrame:
    """A study's table for a person: each ``x`` with ``x_lo``/``x_hi`` as one ``x ± h``
    column, rates as percentages, and the holding rules' 999 in words."""
    shown: dict[str, list[str] | pd.Series] = {}
    for name in table.columns:
        if name.endswith(("_lo", "_hi")):
            continue
        values = table[name]
        header = name.replace("_", " ")
        percent = name.endswith(("rate", "share"))
        if f"{name}_lo" in table:
            shown[header] = [
                interval_text(
                    m, lo, hi, 1 if percent else 2, percent=percent, sign=name.endswith("margin")
                )
                for m, lo, hi in zip(values, table[f"{name}_lo"], table[f"{name}_hi"], strict=True)
            ]
        elif name == "hold_turns":
            shown[header] = [
                "at once" if v == 0 else "to the end" if v == _NO_LIMIT else str(v) for v in values
            ]
        elif name == "hold_points":
            shown[header] = ["no limit" if v == _NO_LIMIT else str(v) for v in values]
        elif percent:
            shown[header] = ["-" if pd.isna(v) else f"{v:.1%}" for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown[header] = [f"{v:.2f}" for v in values]
        else:
            shown[header] = values
    return pd.DataFrame(shown)


def _ci(row: pd.Series, name: str, digits: int = 2, **style: bool) -> str:
    """``x ± h`` of column ``name`` of ``row`` and its ``_lo``/``_hi`` bounds."""
    return interval_text(row[name], row[f"{name}_lo"], row[f"{name}_hi"], digits, **style)


def _hold_rule(turns: int, points: int) -> str:
    rule = (
        "melding at once"
        if turns == 0
        else "holding to the end"
        if turns == _NO_LIMIT
        else f"holding through own turn {turns}"
    )
    return rule + ("" if points == _NO_LIMIT else f", giving up above {points} points in melds")


def _meld_or_hold_verdict(table: pd.DataFrame) -> str:
    from ..rummy.rules import RummyRules

    best = table.loc[table["margin"].idxmax()]
    rule = _hold_rule(int(best["hold_turns"]), int(best["hold_points"]))
    gain = _ci(best, "margin", sign=True)
    if best["margin_lo"] <= 0:
        text = (
            f"No holding rule gains significantly over melding at once; the best, {rule}, "
            f"gets {gain} points per hand."
        )
    else:
        text = (
            f"The best holding rule is {rule}: {gain} points per hand over melding at once, "
            f"and {_ci(best, 'game_win_rate', 1, percent=True)} of games to "
            f"{RummyRules().target} won."
        )
    always = table[
        (table["hold_turns"] == table["hold_turns"].max())
        & (table["hold_points"] == table["hold_points"].max())
    ].iloc[0]
    return text + (
        f" Holding to the very end scores {_ci(always, 'margin', sign=True)} points per hand: "
        f"it wins {_ci(always, 'win_rate', 1, percent=True)} of hands, at "
        f"{always['winner_points']:.1f} points per won hand."
    )


def _players_verdict(table: pd.DataFrame) -> str:
    from ..rummy.rules import RummyRules
    from ..rummy.studies import STOCK_RULES

    first = table[table["seat"] == 0].set_index(["stock", "players"])
    void, turned = (first.loc[name] for name in STOCK_RULES)
    fewest, most = turned.index.min(), turned.index.max()
    return (
        f"With the standard rule that a dry stock voids the hand, hands last "
        f"{void['turns'].iloc[0]:.1f} turns with {fewest} players and "
        f"{void['turns'].iloc[-1]:.1f} with {most}, and {void['void_rate'].iloc[0]:.0%} of "
        f"{fewest}-player hands but {void['void_rate'].iloc[-1]:.0%} of {most}-player hands die "
        f"unscored; turning the pile over instead, {turned['void_rate'].iloc[-1]:.0%} of "
        f"{most}-player hands still reach the {RummyRules().turn_limit}-turn limit, a won hand "
        f"pays {_ci(turned.iloc[0], 'winner_points', 1)} points with {fewest} players and "
        f"{_ci(turned.iloc[-1], 'winner_points', 1)} with {most}, and the first seat takes "
        f"{_ci(turned.iloc[0], 'win_share', 1, percent=True)} of the won {fewest}-player hands "
        f"(fair {1 / fewest:.1%}) and {_ci(turned.iloc[-1], 'win_share', 1, percent=True)} of "
        f"the {most}-player ones (fair {1 / most:.1%})."
    )


def _options_verdict(table: pd.DataFrame) -> str:
    base = table.iloc[0]
    single = table.iloc[1:][~table["variant"].iloc[1:].str.startswith("all")]
    longest = single.loc[(single["turns"] - base["turns"]).abs().idxmax()]
    flattest = single.loc[single["hold_margin"].idxmin()]
    richest = single.loc[(single["winner_points"] - base["winner_points"]).abs().idxmax()]
    best = table.loc[table["hold_margin"].idxmax()]
    return (
        f"Under the standard rules a hand lasts {_ci(base, 'turns', 1)} turns and a won hand "
        f"pays {_ci(base, 'winner_points')} points; '{longest['variant']}' changes hand length "
        f"most ({_ci(longest, 'turns', 1)} turns) and '{richest['variant']}' the winner's points "
        f"most ({_ci(richest, 'winner_points')}). Holding for Rummy pays most under "
        f"'{best['variant']}' ({_ci(best, 'hold_margin', sign=True)} points per hand) and least "
        f"under '{flattest['variant']}' ({_ci(flattest, 'hold_margin', sign=True)})."
    )


def _bounds(table: pd.DataFrame, name: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The 95% CI bounds of column ``name``, as a mark's ``low`` and ``high``."""
    return column(table[f"{name}_lo"]), column(table[f"{name}_hi"])


def _meld_or_hold_panel(table: pd.DataFrame) -> Panel:
    """The holder's edge against the last turn it holds, one line per points limit."""
    holding = table[table["hold_turns"] > 0]
    marks = [Mark("hline", y=(0.0,), color=7, dashed=True)]
    for color, (points, group) in enumerate(holding.groupby("hold_points")):
        label = "no points limit" if points >= _NO_LIMIT else f"give up above {points} points"
        turns = np.minimum(group["hold_turns"], 20)
        low, high = _bounds(group, "margin")
        marks.append(
            Mark(
                "line",
                x=column(turns),
                y=column(group["margin"]),
                low=low,
                high=high,
                label=label,
                color=color,
                marker=True,
            )
        )
    return Panel(
        tuple(marks),
        x=Axis(ticks=tuple(sorted({min(int(t), 20) for t in holding["hold_turns"]}))),
        x_label="holds for Rummy through own turn (20 = always)",
        y_label="holder's edge, points per hand",
    )


def _player_counts_panel(table: pd.DataFrame) -> Panel:
    """Each seat's share of the won hands by number of players, pile turned over when
    the stock runs dry; the fair share ``1 / players`` marked."""
    from ..rummy.studies import STOCK_RULES

    table = table[table["stock"] == list(STOCK_RULES)[-1]]
    seats = int(table["seat"].max()) + 1
    width = 0.8 / seats
    marks = []
    for seat in range(seats):
        rows = table[table["seat"] == seat]
        low, high = _bounds(rows, "win_share")
        marks.append(
            Mark(
                "bars",
                x=column(rows["players"]),
                y=column(rows["win_share"]),
                low=low,
                high=high,
                label=f"seat {seat}",
                color=seat % 7,
                width=width,
                offset=(seat - (seats - 1) / 2) * width,
            )
        )
    counts = sorted(int(n) for n in table["players"].unique())
    marks.append(
        Mark(
            "hline",
            y=tuple(1 / n for n in counts),
            low=tuple(n - 0.45 for n in counts),
            high=tuple(n + 0.45 for n in counts),
            color=7,
            dashed=True,
            label="fair share",
        )
    )
    return Panel(
        tuple(marks),
        x_label="players (last seat deals)",
        y_label="share of won hands",
        x=Axis(ticks=tuple(counts)),
        legend_columns=4,
    )


def _option_values_panel(table: pd.DataFrame) -> Panel:
    """The edge of holding for Rummy under each rule variant."""
    low, high = _bounds(table, "hold_margin")
    return Panel(
        (
            Mark("vline", x=(0.0,), color=7),
            Mark(
                "hbars",
                x=column(table["hold_margin"]),
                y=column(table["variant"]),
                low=low,
                high=high,
            ),
        ),
        x_label="edge of holding for Rummy through turn 6, points per hand",
        y=Axis(reversed=True),
        legend="none",
    )


#: Each study's verdict, chart panel, chart title and what the chart shows (its caption).
_STUDY_VIEWS = {
    "meld-or-hold": (
        _meld_or_hold_verdict,
        _meld_or_hold_panel,
        "Meld now or hold for Rummy?",
        "two players: the holder's points per hand less the other's",
    ),
    "players": (
        _players_verdict,
        _player_counts_panel,
        "Seat advantage by player count",
        (
            "2-6 players, the pile turned over when the stock runs out: each seat's share of "
            "the won hands"
        ),
    ),
    "options": (
        _options_verdict,
        _option_values_panel,
        "What each rule option does to holding for Rummy",
        "two players holding for Rummy through own turn 6 under each rule option",
    ),
}


def _study(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..rummy import studies
    from ..rummy.policies import PRESETS

    name = inputs["name"]
    run, stem = studies.STUDIES[name]
    # the game's own facts (hand length, seat advantage) as the strongest player plays it
    chosen = {"policy": PRESETS[PLAYERS_POLICY]} if name == "players" else {}
    table = run(inputs["deals"], inputs.seed, progress=progress, scheduler=scheduler, **chosen)
    return Computed({stem: table})


def _present_study(answer: Any) -> View:
    inputs, name = answer.inputs, answer.inputs["name"]
    stem, what = STUDY_TABLES[name]
    table = answer[stem]
    verdict, panel, title, shows = _STUDY_VIEWS[name]
    deals = inputs["deals"]
    return View(
        title_text(what, rules="standard", size=f"{deals:,} deals per row", seed=inputs.seed),
        study_table(table),
        verdict(table),
        Chart(
            stem,
            title,
            f"Plain rummy, {shows}; 95% CIs. {deals:,} deals per configuration, seed "
            f"{inputs.seed}.",
            (panel(table),),
            size=(7, 3.6),
        ),
        notes=[
            (
                "hold turns: the last own turn the holder keeps its melds in hand (at once: it "
                "melds at once; to the end: it never gives up); hold points: it gives up once "
                "more points sit in held melds (no limit: never)."
            )
        ]
        if name == "meld-or-hold"
        else [],
    )


RUMMY_STUDY = register(
    Study(
        "rummy study",
        "Run study NAME of plain rummy: meld-or-hold, players or options.",
        "meld-or-hold: melding at once against holding melds to go out Rummy, by how long "
        "and how many points the holder holds (against simple); players: hand length, the "
        "winner's points and each seat's share of the wins from 2 to 6 players, rummy-expert in "
        "every seat; options: what each rule option does to hand length, the winner's points "
        "and the edge of holding for Rummy (with simple players). The report shows players; "
        "how to play and the options valued with the strong player are 'analyzer rummy "
        "how-to-play' and 'analyzer rummy options'.",
        (
            "analyzer rummy study meld-or-hold --deals 20000 --out rummy_out",
            "analyzer rummy study players --deals 2000 --format csv",
        ),
        (
            Param(
                "name",
                Kind.CHOICE,
                "meld-or-hold",
                "The study.",
                choices=tuple(STUDY_TABLES),
                argument=True,
            ),
            Param("deals", Kind.COUNT, 6_000, "Deals per configuration."),
        ),
        _study,
        _present_study,
        rules=False,
        rulebook=RUMMY,
        notebook="``.plot()`` draws its chart.",
    )
)


__all__ = ["RUMMY_STUDY", "STUDY_TABLES", "study_table"]
