"""The answers in a player's words, declared once for both front doors: ``when-to-knock``
(:mod:`analyzer.report.when_to_knock`) and ``how-to-discard``
(:mod:`analyzer.report.discard_answer`).

Each reads the answer from the report folder when it holds the rules preset and
opponent, and computes it now otherwise; the command prints the answer's own text and the
notebook returns the answer object itself (``.text()``, ``.to_frame()``, ``.plot()``),
the one the web app shows.  With ``--out`` (``out``) the answers for every opponent are
computed under the rules and written where both doors and the web app read them.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.limits import MAX_SEARCH_DEALS, MIN_SEARCH_DEALS
from ..core.progress import Progress
from ..gin.studies.answers import FAMILIES
from ..gin.studies.discard_principles import panel_members
from ..studies.study import Inputs, Kind, Param, Study, register
from .legacy import Answer, legacy

_RESULTS_HELP = (
    "Report folder to read the answer from (default: $ANALYZER_RESULTS, else ./results, "
    "else the results/ of the project an editable install came from)."
)


def _params(opponents: str, metavar: str, deals: int, deals_unit: str) -> tuple[Param, ...]:
    """--opponent (``opponents`` ends its help, ``metavar`` its metavar), --deals
    (``deals`` per ``deals_unit``) and --results."""
    return (
        Param(
            "opponent",
            Kind.TEXT,
            "unknown",
            f"Whom you play: a family ({', '.join(FAMILIES)}){opponents}.",
            metavar=f"FAMILY|{metavar}",
        ),
        Param(
            "deals",
            Kind.COUNT,
            deals,
            f"Deals per {deals_unit} when the answer is not in the report folder and is "
            "computed now (minutes at the default).",
            low=MIN_SEARCH_DEALS,
            high=MAX_SEARCH_DEALS,
        ),
        Param("results", Kind.FOLDER, None, _RESULTS_HELP),
    )


def _out_help(who: str, folder: str) -> str:
    return (
        f"Compute the answers against {who} under --rules (not standard: the report writes "
        f"those) and write them into OUT/{folder}/<rules>/, where this command and the web "
        "app read them (e.g. --out results)."
    )


def _refuse_standard_out(preset: str) -> None:
    if preset == "standard":
        raise ValueError(
            "--out: the standard rules' answers are the report's ('analyzer report' writes them)"
        )


def _spoken(
    find: Callable[..., Any],
    csv: Callable[[Any], pd.DataFrame],
    inputs: Inputs,
    results: str | None,
    progress: Progress | None,
    scheduler: str | None,
) -> Answer:
    """The answer ``find`` reads from ``results`` (the results store's when None) or
    computes, as the study's answer: its own text, its dictionary (JSON) and ``csv(answer)``
    (CSV)."""
    answer = find(
        inputs.preset,
        inputs["opponent"],
        inputs["deals"],
        inputs.seed,
        None if results is None else Path(results),
        progress=progress,
        scheduler=scheduler,
    )
    return Answer(
        answer.title,
        answer.to_frame(),
        (),
        "",
        None,
        raw=csv(answer),
        data=answer.to_dict(),
        result=answer,
        text=answer.text(),
    )


def _when_to_knock(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..studies.files import staged_folder
    from .knock_answer import family_of, find_results
    from .when_to_knock import compute_answers, knock_answer, save_answers

    family_of(inputs["opponent"])  # an unknown opponent fails before any work
    results = inputs["results"]
    if inputs.out is not None:
        _refuse_standard_out(inputs.preset)
        out = Path(inputs.out)
        families = {family: member for family, (_, member) in FAMILIES.items()}
        robust_from = find_results(out if out.exists() else None)
        answers, source = compute_answers(
            inputs.preset, families, inputs["deals"], inputs.seed, robust_from, progress, scheduler
        )
        with staged_folder(out):  # the answers with their panel and meta.json, or nothing
            save_answers(out, answers, inputs.seed, source)
        results = inputs.out
    # the chart by deadwood: what the command's CSV always was
    chart = lambda answer: answer.chart().reset_index(names="deadwood")
    return _spoken(knock_answer, chart, inputs, results, progress, scheduler)


def _how_to_discard(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.discard_principles import measure_principles
    from .discard_answer import discard_answer, member_of, save_run

    member_of(inputs["opponent"])  # an unknown opponent fails before any work
    results = inputs["results"]
    if inputs.out is not None:
        _refuse_standard_out(inputs.preset)
        deals, seed = inputs["deals"], inputs.seed
        run = measure_principles(inputs.rules, deals, seed, progress=progress, scheduler=scheduler)
        command = (
            f"analyzer how-to-discard --rules {inputs.preset} --deals {deals} --seed {seed} "
            f"--out {shlex.quote(inputs.out)}"
        )
        save_run(Path(inputs.out), run, inputs.preset, command)
        results = inputs.out
    return _spoken(
        discard_answer, lambda answer: answer.to_frame(), inputs, results, progress, scheduler
    )


register(
    Study(
        "when-to-knock",
        "When should I knock? The rule in words, with its result.",
        "The rule, a chart by your turn and the cards left in the stock, "
        "what it earns against the opponent and its worst case, with 95% CIs. Read from the "
        "committed report when it holds the answer (every family under the standard, classic, "
        "oklahoma and eaai rules), computed at --deals otherwise.",
        (
            "analyzer when-to-knock",
            "analyzer when-to-knock --opponent knocks-at-once",
            "analyzer when-to-knock --rules oklahoma --opponent gin-hunter --deals 500",
            "analyzer when-to-knock --rules classic --out results",
        ),
        _params(
            ", a test opponent (basic, marjj, gin-hunter, ...) or any policy string",
            "POLICY",
            1_000,
            "comparison",
        ),
        *legacy(_when_to_knock),
        unit="hand",
        step="when to knock",
    )
)

register(
    Study(
        "how-to-discard",
        "How should I discard? The principles, with their worth.",
        "The principles of a rule a person can follow, each with what "
        "it is worth in points per hand against the opponent (95% CIs), and how much of the "
        "champion's edge the rule keeps. Read from the committed results when they hold the "
        "rules preset (standard, written by the report, and eaai), computed at --deals "
        "otherwise.",
        (
            "analyzer how-to-discard",
            "analyzer how-to-discard --opponent camper",
            "analyzer how-to-discard --rules oklahoma --opponent basic --deals 2000",
            "analyzer how-to-discard --rules classic --out results",
        ),
        _params(
            f" or a test opponent ({', '.join(panel_members())})",
            "MEMBER",
            10_000,
            "player and opponent",
        ),
        *legacy(_how_to_discard),
        step="how to discard",
        count="deals",
    )
)
