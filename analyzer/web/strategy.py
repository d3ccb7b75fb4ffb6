"""Interactive strategy charts from the committed CSVs in ``results/`` (never recomputed).

Each chart is a plotly figure (as JSON-ready dicts) whose hover shows the 95% CI and the
number of samples behind every point, with a title and a subtitle naming the opponent and
the rules preset, as every strategy figure of the project does.  The page shows the title
and the subtitle as text above the figure (a plotly title does not wrap: on a phone it is
cut), so the figures carry no title of their own.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..gin.studies.sweeps import SELF_PLAY_CHECK
from ..report.reading import (
    COUNT,
    FLAG,
    NUMBER,
    NUMBER_OR_NOTHING,
    TEXT,
    Check,
    DamagedFile,
    check_table,
    count_field,
    names_field,
    read_meta,
    read_table,
    text_field,
)

#: The rules presets in the order the page shows their charts: the standard rules first.
RULES_ORDER = ("standard", "classic", "oklahoma")


@dataclass(frozen=True)
class ResultsFolder:
    """Where the strategy page reads the report from, and how it was found."""

    path: Path | None
    """The folder read (``None``: none found)."""
    found: str
    """One sentence for the page: which folder, and why that one."""
    shown: str
    """The folder as the page names it: as the server was given it, never its place on
    the server's disk (a client need not know the server's folders)."""


def locate_results(requested: Path) -> ResultsFolder:
    """The report folder ``requested`` (an absolute path, or relative to the current
    folder); a relative one missing there is looked for next to the analyzer's source
    checkout (``pip install -e .`` keeps the package in the clone, beside ``results/``),
    so that a server started in another folder still finds the committed report."""
    shown = (requested.name or "/") if requested.is_absolute() else requested.as_posix()
    if requested.is_dir():
        return ResultsFolder(
            requested.resolve(), f"Read from {shown} (the server's results folder).", shown
        )
    if requested.is_absolute():
        return ResultsFolder(
            None, f"No results folder: the server's results folder {shown} does not exist.", shown
        )
    beside = Path(__file__).resolve().parents[2] / requested
    if beside.is_dir():
        return ResultsFolder(
            beside,
            f"Read from {shown} next to the analyzer's source checkout (the server's folder "
            f"has no folder {shown}).",
            shown,
        )
    return ResultsFolder(
        None,
        f"No results folder: looked for {shown} in the server's folder and next to the "
        "analyzer's source checkout (start 'analyzer serve --results FOLDER', or run "
        "'analyzer report').",
        shown,
    )


#: The knock chart's cells are (own turn, deadwood) with these columns; a cell with too
#: few samples has no CI.
_CHART_COLUMNS = {
    "turn": COUNT,
    "deadwood": COUNT,
    "n": COUNT,
    "mean": NUMBER,
    "low": NUMBER_OR_NOTHING,
    "high": NUMBER_OR_NOTHING,
}
_CHART_OPTIONAL = {
    "enough": FLAG,
    "verdict": TEXT,
    "win_mean": NUMBER,
    "win_low": NUMBER_OR_NOTHING,
    "win_high": NUMBER_OR_NOTHING,
    "win_verdict": TEXT,
}
_SWEEP_COLUMNS = {
    "opponent": TEXT,
    "threshold": COUNT,
    "n": COUNT,
    **dict.fromkeys(
        (f"{metric}_{part}" for metric in ("diff", "game_win") for part in ("mean", "low", "high")),
        NUMBER,
    ),
}
#: The robust rule's table (``analyzer equilibrium --out``): the mixture's knock
#: probability by turn bin and deadwood.
_STRATEGY_COLUMNS = {
    "turns": TEXT,
    "first_turn": COUNT,
    "deadwood": COUNT,
    "knock_probability": NUMBER,
}
_STRATEGY_OPTIONAL = {"opponent_holds_pile_card": COUNT, "rules": TEXT}
#: What the charts' subtitles read from the ``meta.json`` beside the knock chart and the
#: knock sweep.
_CHART_META = {
    "rules": text_field,
    "subject": text_field,
    "opponent": text_field,
    "deals": count_field,
}
_SWEEP_META = {
    "rules": text_field,
    "subject": text_field,
    "opponents": names_field,
    "games_per_arm": count_field,
}


def _meta(results: Path, folder: str, fields: Mapping[str, Check]) -> dict[str, Any]:
    """The ``meta.json`` of the study ``folder`` (empty when it has none)."""
    return read_meta(results, f"{folder}/meta.json", fields)


def _preset_name(meta: dict[str, Any], key: str) -> str:
    """A policy as written in meta.json: its preset's name when it is one, else the spec."""
    text = str(meta.get(key, "?"))
    from ..gin.model.policies import PRESETS, format_policy

    return next((name for name, preset in PRESETS.items() if format_policy(preset) == text), text)


def _policy_label(meta: dict[str, Any], key: str) -> str:
    """A policy as written in meta.json, named by its preset when it is one."""
    text, name = str(meta.get(key, "?")), _preset_name(meta, key)
    return text if name == text else f"{name} ({text})"


def knock_chart_figure(chart: pd.DataFrame, value: str = "") -> dict[str, Any]:
    """Heatmap of knocking minus playing on by (own turn, deadwood), each well-sampled
    cell labelled with its value and a black line between the cells where knocking is
    better and those where playing on is (as in the report's knock_chart.png).

    ``value`` is the column prefix: ``""`` for points per hand (``mean``, ``low``,
    ``high``) or ``"win_"`` for the game-win probability from 0:0 (percentage points).
    """
    import plotly.graph_objects as go

    mean, low, high = (f"{value}{part}" for part in ("mean", "low", "high"))
    turns = sorted(int(t) for t in chart["turn"].unique())
    deadwoods = sorted(int(d) for d in chart["deadwood"].unique())
    cells = chart.set_index(["deadwood", "turn"])
    scale = 100.0 if value == "win_" else 1.0
    z: list[list[float | None]] = []
    custom: list[list[Any]] = []
    for dw in deadwoods:
        z_row: list[float | None] = []
        custom_row: list[Any] = []
        for turn in turns:
            if (dw, turn) not in cells.index:
                z_row.append(None)
                custom_row.append([None, None, 0, "no data"])
                continue
            cell = cells.loc[(dw, turn)]
            enough = bool(cell.get("enough", True))
            z_row.append(float(cell[mean]) * scale if enough else None)
            custom_row.append(
                [
                    float(cell[low]) * scale,
                    float(cell[high]) * scale,
                    int(cell["n"]),
                    str(cell.get(f"{value}verdict", cell.get("verdict", "")))
                    + ("" if enough else " (too few samples)"),
                ]
            )
        z.append(z_row)
        custom.append(custom_row)
    finite = [abs(v) for row in z for v in row if v is not None]
    limit = max(finite) if finite else 1.0
    unit = "percentage points" if value == "win_" else "points"
    figure = go.Figure(
        go.Heatmap(
            x=turns,
            y=deadwoods,
            z=z,
            customdata=custom,
            colorscale="RdBu",
            zmid=0,
            zmin=-limit,
            zmax=limit,
            texttemplate="%{z:+.1f}",
            textfont={"size": 9},
            colorbar={"title": {"text": f"knock − play on ({unit})", "side": "right"}},
            hovertemplate=(
                "own turn %{x}, deadwood %{y}<br>knock − play on: %{z:+.2f}"
                "<br>95% CI [%{customdata[0]:+.2f}, %{customdata[1]:+.2f}]"
                "<br>n = %{customdata[2]} knock decisions<br>%{customdata[3]}"
                "<extra></extra>"
            ),
        )
    )
    for x0, y0, x1, y1 in _boundary(z, turns, deadwoods):
        figure.add_shape(
            type="line", x0=x0, y0=y0, x1=x1, y1=y1, line={"color": "black", "width": 3}
        )
    figure.add_trace(
        go.Scatter(  # the boundary's legend entry (the shapes have none)
            x=[None],
            y=[None],
            mode="lines",
            line={"color": "black", "width": 3},
            name="boundary: knock (blue) / play on (red)",
            hoverinfo="skip",
        )
    )
    figure.update_layout(
        xaxis={"title": {"text": "own turn"}, "dtick": 1},
        yaxis={"title": {"text": "deadwood (points)"}, "dtick": 1},
        plot_bgcolor="#d9d9d9",
        showlegend=True,
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())


def _boundary(
    z: list[list[float | None]], turns: list[int], deadwoods: list[int]
) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) between two neighbouring shown cells of which one
    favours knocking (``z > 0``) and the other playing on."""
    segments = []
    for i, row in enumerate(z):
        for j, value in enumerate(row):
            if value is None:
                continue
            above = z[i + 1][j] if i + 1 < len(z) else None
            if above is not None and (value > 0) != (above > 0):
                y = (deadwoods[i] + deadwoods[i + 1]) / 2
                segments.append((turns[j] - 0.5, y, turns[j] + 0.5, y))
            right = row[j + 1] if j + 1 < len(row) else None
            if right is not None and (value > 0) != (right > 0):
                x = (turns[j] + turns[j + 1]) / 2
                segments.append((x, deadwoods[i] - 0.5, x, deadwoods[i] + 0.5))
    return segments


def knock_chart_subtitle(meta: dict[str, Any], value: str = "") -> str:
    """Who plays, the rules, the unit and how to read the knock chart."""
    unit = (
        "percentage points of the chance to win a game from 0:0"
        if value == "win_"
        else "points per hand"
    )
    deals = meta.get("deals")
    return (
        f"Player {_policy_label(meta, 'subject')} against opponent "
        f"{_policy_label(meta, 'opponent')}, rules {meta.get('rules', '?')}"
        + (f", {deals:,} deals" if isinstance(deals, int) else "")
        + f". Each cell: {unit} gained by knocking now rather than playing on; blue: knock, "
        "red: play on, grey: too few samples; the black line is the boundary. Hover a cell "
        "for its 95% CI and sample count. The chart values one knock against this "
        "opponent; the written answer above is a rule for the whole hand against a kind of "
        "opponent, so the two need not agree."
    )


def knock_sweep_figure(sweep: pd.DataFrame, meta: dict[str, Any], metric: str) -> dict[str, Any]:
    """One line per opponent against the knock threshold, with the 95% CI as error bars
    (the sweep's determinism check, a policy against its own twin, is left out: it is a
    test of the simulator, not a strategy answer).

    ``metric`` is ``diff`` (points per hand relative to knocking at 10) or ``game_win``
    (the probability of winning a game to the target).
    """
    import plotly.graph_objects as go

    scale, label = _SWEEP_METRICS[metric]
    samples = "games" if metric == "game_win" else "deals"
    n_games = meta.get("games_per_arm")
    figure = go.Figure()
    for opponent, group in sweep[sweep["opponent"] != SELF_PLAY_CHECK].groupby(
        "opponent", sort=False
    ):
        mean = group[f"{metric}_mean"] * scale
        low, high = group[f"{metric}_low"] * scale, group[f"{metric}_high"] * scale
        n = [n_games] * len(group) if metric == "game_win" and n_games else group["n"]
        figure.add_trace(
            go.Scatter(
                x=group["threshold"],
                y=mean,
                name=str(opponent),
                mode="lines+markers",
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": high - mean,
                    "arrayminus": mean - low,
                },
                customdata=list(zip(low, high, n, strict=True)),
                hovertemplate=(
                    f"opponent {opponent}<br>knock at deadwood ≤ %{{x}}<br>"
                    f"{label}: %{{y:.2f}}<br>95% CI [%{{customdata[0]:.2f}}, "
                    f"%{{customdata[1]:.2f}}]<br>n = %{{customdata[2]}} {samples}"
                    "<extra></extra>"
                ),
            )
        )
    figure.update_layout(
        xaxis={"title": {"text": "knock at deadwood ≤ t (points)"}, "dtick": 1},
        yaxis={"title": {"text": label}},
        legend={"title": {"text": "opponent"}, "orientation": "h", "y": -0.25},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())


#: (scale, axis label) of each metric of the knock sweep.
_SWEEP_METRICS = {
    "diff": (1.0, "points per hand vs knocking at 10"),
    "game_win": (100.0, "game-win rate (%)"),
}


def knock_sweep_subtitle(meta: dict[str, Any], metric: str) -> str:
    """Who plays, the rules and the unit of a knock sweep chart."""
    opponents = ", ".join(
        f"{name} ({text})"
        for name, text in meta.get("opponents", {}).items()
        if name != SELF_PLAY_CHECK
    )
    return (
        f"Player {_policy_label(meta, 'subject')} knocking at deadwood ≤ t, rules "
        f"{meta.get('rules', '?')}; opponents {opponents or '?'}. "
        f"{_SWEEP_METRICS[metric][1].capitalize()}; error bars: 95% CI."
    )


def robust_strategy_figure(strategy: pd.DataFrame, source: str) -> dict[str, Any]:
    """Heatmap of the robust knock rule (``analyzer equilibrium --out
    results/robust_knock``): the equilibrium mixture's knock probability by own-turn bin
    and deadwood, each cell labelled.  A mixture weight, not a sample mean: its precision
    is in the run's ``_convergence.csv`` (exploitability by iteration), so the hover gives
    the source."""
    import plotly.graph_objects as go

    if "opponent_holds_pile_card" in strategy:
        # one column per turn bin and pickup signal, the alert columns after the others
        strategy = strategy.assign(
            turns=strategy["turns"].where(
                strategy["opponent_holds_pile_card"] == 0, strategy["turns"] + " (alert)"
            )
        )
        strategy = strategy.sort_values(["opponent_holds_pile_card", "first_turn"])
    else:
        strategy = strategy.sort_values("first_turn")
    bins = strategy.drop_duplicates("turns")["turns"].tolist()
    deadwoods = sorted(strategy["deadwood"].unique())
    cells = strategy.set_index(["deadwood", "turns"])["knock_probability"]
    z = [
        [float(cells[(dw, turns)]) if (dw, turns) in cells.index else None for turns in bins]
        for dw in deadwoods
    ]
    figure = go.Figure(
        go.Heatmap(
            x=bins,
            y=deadwoods,
            z=z,
            zmin=0,
            zmax=1,
            colorscale="Blues",
            texttemplate="%{z:.0%}",
            textfont={"size": 10},
            colorbar={"title": {"text": "P(knock)", "side": "right"}},
            hovertemplate=(
                "own turns %{x}, deadwood %{y}<br>knock probability %{z:.0%}"
                f"<br>equilibrium mixture from {source} (no sampling CI: see its "
                "_convergence.csv)<extra></extra>"
            ),
        )
    )
    figure.update_layout(
        xaxis={
            "title": {"text": "own turns (alert: the opponent holds a pile card)"},
            "type": "category",
        },
        yaxis={"title": {"text": "deadwood (points)"}, "dtick": 1},
        margin={"t": 10, "l": 50, "r": 10},
    )
    return json.loads(figure.to_json())


def _rules_rank(path: Path) -> tuple[int, str]:
    """Sort key of a robust chart file: the standard rules first, then :data:`RULES_ORDER`,
    then the rest by name."""
    for rank, rules in enumerate(RULES_ORDER):
        if path.stem.startswith(rules):
            return rank, path.name
    return len(RULES_ORDER), path.name


def _robust_chart_files(results: Path) -> list[Path]:
    """CSV files of a robust knock chart, if ``results/`` has one (standard rules first)."""
    found = sorted(results.glob("*robust*/*.csv")) + sorted(
        results.glob("knock_chart/*robust*.csv")
    )
    return sorted(dict.fromkeys(found), key=_rules_rank)


def _chart(
    chart_id: str, title: str, subtitle: str, source: str, figure: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": chart_id,
        "title": title,
        "subtitle": subtitle,
        "source": source,
        "figure": figure,
    }


def _robust_chart(results: Path, path: Path) -> list[dict[str, Any]]:
    """The chart of a robust rule's file (its strategy table, or a table in the knock
    chart's format); none for the equilibrium's other files; :class:`DamagedFile` for a
    file that is none of these."""
    name = path.relative_to(results).as_posix()
    table = read_table(results, name, {})
    if set(table.columns) >= set(_STRATEGY_COLUMNS):
        check_table(results, name, table, _STRATEGY_COLUMNS, _STRATEGY_OPTIONAL)
        rules = str(table["rules"].iloc[0]) if "rules" in table else "?"
        chart = _chart(
            "robust-" + path.stem,
            f"The robust knock rule, {rules} rules",
            f"Rules {rules}; opponents: every knock table of the approximate "
            "equilibrium mixture (the rule no knock table can exploit). Each cell: "
            "the share of the mixture that knocks with this deadwood on these own "
            "turns; alert columns: while the opponent holds a card it took from the "
            "pile.",
            name,
            robust_strategy_figure(table, name),
        )
        return [chart]
    if set(table.columns) >= set(_CHART_COLUMNS):
        check_table(results, name, table, _CHART_COLUMNS, _CHART_OPTIONAL)
        meta = _meta(results, path.parent.relative_to(results).as_posix(), _CHART_META)
        chart = _chart(
            "robust-" + path.stem,
            f"Robust knock chart ({name}): knock now or play on?",
            knock_chart_subtitle(meta),
            name,
            knock_chart_figure(table),
        )
        return [chart]
    if path.name.endswith(("_mixture.csv", "_convergence.csv")):
        return []  # the equilibrium's other files: its strategy file is charted
    raise DamagedFile(
        results, name, "not in the knock chart's format (turn, deadwood, n, mean, low, high)"
    )


def _knock_charts(results: Path) -> list[dict[str, Any]]:
    """The knock chart, in points and (when written) in games."""
    name = "knock_chart/knock_chart.csv"
    chart = read_table(results, name, _CHART_COLUMNS, _CHART_OPTIONAL)
    meta = _meta(results, "knock_chart", _CHART_META)
    who = f"{_preset_name(meta, 'subject')} against {_preset_name(meta, 'opponent')}"
    charts = [
        _chart(
            "knock-chart",
            f"Knock now or play on, by turn: {who}",
            knock_chart_subtitle(meta),
            name,
            knock_chart_figure(chart),
        )
    ]
    if {"win_mean", "win_low", "win_high"} <= set(chart.columns):
        charts.append(
            _chart(
                "knock-chart-games",
                f"Knock now or play on, in game-win chance: {who}",
                knock_chart_subtitle(meta, "win_"),
                name,
                knock_chart_figure(chart, value="win_"),
            )
        )
    return charts


def _sweep_charts(results: Path) -> list[dict[str, Any]]:
    """The knock sweep, in points and in games."""
    name = "knock_sweep/sweep.csv"
    sweep = read_table(results, name, _SWEEP_COLUMNS)
    meta = _meta(results, "knock_sweep", _SWEEP_META)
    titles = {
        "diff": "One knock threshold for the whole hand: points per hand",
        "game_win": "One knock threshold for the whole hand: games won",
    }
    return [
        _chart(
            f"knock-sweep-{metric.replace('_', '-')}",
            title,
            knock_sweep_subtitle(meta, metric),
            name,
            knock_sweep_figure(sweep, meta, metric),
        )
        for metric, title in titles.items()
    ]


def strategy_charts(results: Path) -> dict[str, Any]:
    """Every chart the strategy page shows, in its order (the robust rule first, standard
    rules first; then the knock chart and the knock sweep), plus notes about what is
    missing or damaged (a damaged file's chart is left out; the notes name files inside
    ``results`` only)."""
    charts: list[dict[str, Any]] = []
    notes: list[str] = []

    def add(make: Callable[[], list[dict[str, Any]]]) -> None:
        try:
            charts.extend(make())
        except DamagedFile as error:
            notes.append(f"{error.public()}: not shown")

    robust = _robust_chart_files(results)
    for path in robust:
        add(functools.partial(_robust_chart, results, path))
    if not robust:
        notes.append(
            "No robust knock chart in results/ yet: it appears here once "
            "'analyzer equilibrium --out results/robust_knock' is committed."
        )
    if (results / "knock_chart" / "knock_chart.csv").is_file():
        add(lambda: _knock_charts(results))
    else:
        notes.append("No knock chart in results/ (run 'analyzer report').")
    if (results / "knock_sweep" / "sweep.csv").is_file():
        add(lambda: _sweep_charts(results))
    else:
        notes.append("No knock sweep in results/ (run 'analyzer report').")
    return {"charts": charts, "notes": notes}


def committed_knock_answer(folder: ResultsFolder, rules: str, opponent: str) -> dict[str, Any]:
    """The written knock answer for the rules preset ``rules`` and ``opponent`` (a family
    of :data:`~analyzer.gin.studies.answers.FAMILIES`, a panel member or a policy), read
    from the committed report and never computed: ``answer`` is
    :meth:`~analyzer.report.knock_answer.KnockAnswer.to_dict`, or ``None`` with
    ``missing`` saying why and which command computes it.  ``ValueError`` for an unknown
    rules preset or opponent; :class:`~analyzer.report.reading.DamagedFile` for a damaged
    file of the answers."""
    from ..gin.model.rules import resolve_rules
    from ..gin.studies.answers import FAMILIES
    from ..gin.studies.exploit import panel
    from ..report.knock_answer import answers_folder, family_of, load_answers, read_answer

    resolve_rules(rules)
    family = family_of(opponent)
    data: dict[str, Any] = {
        "rules": rules,
        "opponent": opponent,
        "families": {key: words for key, (words, _) in FAMILIES.items()},
        "answer": None,
        "missing": None,
    }
    compute = (
        f"'analyzer when-to-knock --rules {rules} --opponent {opponent}' computes it (minutes)"
    )
    writer = (
        "'analyzer report'"
        if rules == "standard"
        else f"'analyzer when-to-knock --rules {rules} --out results'"
    )
    if folder.path is None:
        data["missing"] = f"{folder.found} {compute}."
        return data
    answers = f"{folder.shown}/{answers_folder(rules)}/answers.csv"
    saved = load_answers(folder.path, rules)
    if saved is None:
        data["missing"] = f"{answers} is missing: {writer} writes it; {compute}."
    elif (
        found := read_answer(folder.path, saved, rules, family, len(panel()), folder.shown)
    ) is None:
        data["missing"] = (
            f"The committed answers ({answers}) are for the {saved.rules_name} rules and "
            f"the opponents {', '.join(line.family for line in saved.lines)}; {compute}."
        )
    else:
        data["answer"] = found.to_dict()
    return data
