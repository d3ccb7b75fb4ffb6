"""What the strategy page shows, from the answers kept in the report folder (loaded as
every door loads them, :meth:`analyzer.studies.answer.Answer.load`; never computed
here): the answers in a player's words, and each answer's chart drawn with plotly from
its chart description (:mod:`analyzer.web.charts`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..studies.answer import META, Answer, NotKept, command_line, find_kept
from ..studies.inputs import make_inputs
from ..studies.reading import DamagedFile
from ..studies.registry import STUDIES
from ..studies.store import RESULTS_VARIABLE, find_report, looked_in
from .charts import figures

#: The studies whose kept answers the page shows first, in this order (the answers in a
#: player's words in the page's order, then the knock studies); then the others.
FIRST = (
    "when-to-knock",
    "how-to-discard",
    "how-to-draw",
    "equilibrium",
    "knock-chart",
    "knock-sweep",
)


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


def _answers(results: Path) -> list[tuple[str, Path]]:
    """Every answer folder under ``results`` (one holding ``meta.json``), by path."""
    return sorted(
        (path.parent.relative_to(results).as_posix(), path.parent)
        for path in results.rglob(META)
        if not any(part.startswith(".") for part in path.relative_to(results).parts)
    )


def strategy_charts(results: Path) -> dict[str, Any]:
    """Every chart of an answer kept in ``results``, the answers in a player's words and
    the knock studies first (:data:`FIRST`, each study's standard rules before the other
    presets), each with the command that rewrites its folder; and notes
    naming the folders whose files are damaged (their charts are left out; the notes
    name files inside ``results`` only)."""
    charts: list[dict[str, Any]] = []
    notes: list[str] = []
    loaded = []
    for name, folder in _answers(results):
        try:
            loaded.append((name, Answer.load(folder, results, named="results")))
        except DamagedFile as error:
            notes.append(f"{error.public()}: not shown")
    order = {study: place for place, study in enumerate(FIRST)}
    loaded.sort(
        key=lambda item: (
            order.get(item[1].study.name, len(FIRST)),
            item[1].inputs.preset != "standard",  # a study's standard rules first
            item[0],
        )
    )
    for name, answer in loaded:
        chart = answer.chart
        if chart is None:
            continue
        command = command_line(answer.study, answer.inputs, out=f"results/{name}")
        stem = name.replace("/", "-").replace("_", "-")
        charts.append(
            {
                "id": stem,
                "title": chart.title,
                "subtitle": chart.caption,
                "panels": [
                    {"id": f"{stem}-{index}", "figure": figure}
                    for index, figure in enumerate(figures(chart))
                ],
                "source": f"{name}/ (`{command}`)",
            }
        )
    if not loaded:
        notes.append("No answers in the results folder yet: run 'analyzer report'.")
    return {"charts": charts, "notes": notes}


def kept_answer(folder: ResultsFolder, study: str, rules: str, opponent: str) -> dict[str, Any]:
    """The answer of ``study`` (``when-to-knock``, ``how-to-discard``, ``how-to-draw``)
    for the rules preset ``rules`` and ``opponent``, as its ``--json`` prints it, read
    from the answers kept in the report folder and never computed here: ``answer`` is the
    answer's data, or ``None`` with ``missing`` saying why and which command computes it.
    ``ValueError`` for an unknown rules preset or opponent;
    :class:`~analyzer.studies.reading.DamagedFile` for a damaged kept answer."""
    from ..gin.studies.answers import FAMILIES
    from ..studies.principles import DISCARDING, DRAWING, member_of

    declared = STUDIES[study]
    inputs = make_inputs(declared, {"opponent": opponent}, rules=rules)
    if declared.kept in (DISCARDING.kept, DRAWING.kept):
        # its opponent is text to the study, checked only against a kept answer: an
        # unknown one is refused whether or not the rules preset is kept
        member_of(opponent)
    data: dict[str, Any] = {
        "rules": rules,
        "opponent": opponent,
        "families": {key: words for key, (words, _) in FAMILIES.items()},
        "answer": None,
        "missing": None,
    }
    compute = f"`{command_line(declared, inputs)}` computes it (minutes)"
    if folder.path is None:
        data["missing"] = f"{folder.found} {compute}."
        return data
    try:
        found = find_kept(declared, inputs, folder.path, named=folder.shown)
    except NotKept:
        found = None
    if found is None:
        kept = f"{folder.shown}/{declared.kept}/{rules}"
        data["missing"] = (
            f"{kept} keeps no answer against this opponent: "
            f"`{command_line(declared, inputs, out=f'results/{declared.kept}/{rules}')}` "
            f"keeps one; {compute}."
        )
    else:
        data["answer"] = dict(found.view.data or {})
    return data


__all__ = ["ResultsFolder", "kept_answer", "locate_results", "strategy_charts"]
