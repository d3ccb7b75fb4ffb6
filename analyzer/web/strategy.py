"""Interactive strategy charts from the committed CSVs in ``results/`` (never recomputed).

Each chart is a plotly figure (as JSON-ready dicts) whose hover shows the 95% CI and the
number of samples behind every point, with a title and a subtitle naming the opponent and
the rules preset, as every strategy figure of the project does.  The page shows the title
and the subtitle as text above the figure (a plotly title does not wrap: on a phone it is
cut), so the figures carry no title of their own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..studies.reading import (
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
from ..studies.store import RESULTS_VARIABLE, find_report, looked_in
from .strategy_figures import (
    knock_chart_figure,
    knock_chart_subtitle,
    knock_sweep_figure,
    knock_sweep_subtitle,
    preset_name,
    robust_strategy_figure,
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
    """The report folder ``requested`` (an absolute path, or a name looked up by the
    results store, :mod:`analyzer.studies.store`: ``$ANALYZER_RESULTS`` for the default
    name, the current folder, then the project folder of an editable install), so that a
    server started in another folder still finds the committed report."""
    shown = (requested.name or "/") if requested.is_absolute() else requested.as_posix()
    found = find_report(requested=requested)
    if found is None:
        if requested.is_absolute():
            return ResultsFolder(
                None,
                f"No results folder: the server's results folder {shown} does not exist.",
                shown,
            )
        return ResultsFolder(
            None,
            f"No results folder: looked for {shown} in {looked_in(requested)} (start "
            "'analyzer serve --results FOLDER', or run 'analyzer report').",
            shown,
        )
    sentence = {
        "given": f"Read from {shown} (the server's results folder).",
        "current": f"Read from {shown} (the server's results folder).",
        "variable": f"Read from the folder ${RESULTS_VARIABLE} names.",
        "project": f"Read from {found.origin} (the server's folder has no folder {shown}).",
    }[found.kind]
    return ResultsFolder(found.path.resolve(), sentence, shown)


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
    who = f"{preset_name(meta, 'subject')} against {preset_name(meta, 'opponent')}"
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


def _answer_frame(command: str, rules: str, opponent: str) -> tuple[dict[str, Any], str, str]:
    """The JSON of a committed answer before it is read (``answer`` and ``missing`` still
    ``None``), what computes it and what writes it (``command``: ``when-to-knock`` or
    ``how-to-discard``)."""
    from ..gin.studies.answers import FAMILIES

    data: dict[str, Any] = {
        "rules": rules,
        "opponent": opponent,
        "families": {key: words for key, (words, _) in FAMILIES.items()},
        "answer": None,
        "missing": None,
    }
    compute = f"'analyzer {command} --rules {rules} --opponent {opponent}' computes it (minutes)"
    writer = (
        "'analyzer report'"
        if rules == "standard"
        else f"'analyzer {command} --rules {rules} --out results'"
    )
    return data, compute, writer


def committed_knock_answer(folder: ResultsFolder, rules: str, opponent: str) -> dict[str, Any]:
    """The written knock answer for the rules preset ``rules`` and ``opponent`` (a family
    of :data:`~analyzer.gin.studies.answers.FAMILIES`, a panel member or a policy), read
    from the committed report and never computed: ``answer`` is
    :meth:`~analyzer.report.knock_answer.KnockAnswer.to_dict`, or ``None`` with
    ``missing`` saying why and which command computes it.  ``ValueError`` for an unknown
    rules preset or opponent; :class:`~analyzer.studies.reading.DamagedFile` for a damaged
    file of the answers."""
    from ..gin.model.rules import resolve_rules
    from ..gin.studies.exploit import panel
    from ..report.knock_answer import answers_folder, family_of, load_answers, read_answer

    resolve_rules(rules)
    family = family_of(opponent)
    data, compute, writer = _answer_frame("when-to-knock", rules, opponent)
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


def committed_discard_answer(folder: ResultsFolder, rules: str, opponent: str) -> dict[str, Any]:
    """The written discard answer for the rules preset ``rules`` and ``opponent`` (a family
    of :data:`~analyzer.gin.studies.answers.FAMILIES` or a panel member), read from the
    committed results and never computed: ``answer`` is
    :meth:`~analyzer.report.discard_answer.DiscardAnswer.to_dict`, or ``None`` with
    ``missing`` saying why and which command computes it.  ``ValueError`` for an unknown
    rules preset or opponent; :class:`~analyzer.studies.reading.DamagedFile` for a damaged
    file of the answers."""
    from ..gin.model.rules import resolve_rules
    from ..report.discard_answer import FOLDER, load_run, member_of, saved_answer

    resolve_rules(rules)
    member = member_of(opponent)
    data, compute, writer = _answer_frame("how-to-discard", rules, opponent)
    if folder.path is None:
        data["missing"] = f"{folder.found} {compute}."
    elif (found := saved_answer(folder.path, rules, member)) is not None:
        data["answer"] = found.to_dict()
    elif (saved := load_run(folder.path, rules)) is None:
        data["missing"] = (
            f"{folder.shown}/{FOLDER}/{rules} is missing: {writer} writes it; {compute}."
        )
    else:
        data["missing"] = (
            f"The committed answers ({folder.shown}/{FOLDER}/{rules}) are for the opponents "
            f"{', '.join(saved[0].opponents)}; {compute}."
        )
    return data
