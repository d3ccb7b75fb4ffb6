"""``when-to-knock`` and ``how-to-discard``: the knock and discard answers in a player's
words."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..core.limits import MAX_SEARCH_DEALS, MIN_SEARCH_DEALS
from ..gin.studies.answers import FAMILIES
from ..gin.studies.discard_principles import panel_members
from .files import out_option
from .inputs import JOBS, SEED, fail, rules_preset_option
from .output import echo_frame, echo_json, format_options
from .progress import progress_bar
from .run_control import scheduler_option, set_jobs

F = TypeVar("F", bound=Callable[..., Any])


def answer_options(
    opponents: str, deals: int, deals_unit: str, folder: str, who: str
) -> Callable[[F], F]:
    """The options of an answer in a player's words: --rules, --opponent (``opponents``:
    its metavar's second part and the help's list), --deals (default ``deals``, counted
    in ``deals_unit``), --seed, --results, --out (writing into OUT/``folder``/<rules>/,
    the answers against ``who``), --jobs, --format, --no-progress and --scheduler."""
    metavar, listed = opponents.split(":", 1)
    options = (
        rules_preset_option(),
        click.option(
            "--opponent",
            default="unknown",
            show_default=True,
            metavar=f"FAMILY|{metavar}",
            help=f"Whom you play: a family ({', '.join(FAMILIES)}){listed}.",
        ),
        click.option(
            "--deals",
            type=click.IntRange(MIN_SEARCH_DEALS, MAX_SEARCH_DEALS),
            default=deals,
            show_default=True,
            help=f"Deals per {deals_unit} when the answer is not in the report folder and is "
            "computed now (minutes at the default).",
        ),
        click.option(
            "--seed",
            type=SEED,
            default=2026,
            show_default=True,
            help="Random seed of a computed answer, 0 <= seed < 2**63.",
        ),
        click.option(
            "--results",
            type=click.Path(file_okay=False, exists=True),
            default=None,
            help="Report folder to read the answer from (default: $ANALYZER_RESULTS, else "
            "./results, else the results/ of the project an editable install came from).",
        ),
        out_option(
            f"Compute the answers against {who} under --rules (not standard: the report "
            f"writes those) and write them into OUT/{folder}/<rules>/, where this command and "
            "the web app read them (e.g. --out results)."
        ),
        click.option("--jobs", type=JOBS, default=None, help="Threads."),
        format_options,
        click.option("--no-progress", is_flag=True, help="Hide progress."),
        scheduler_option,
    )

    def decorate(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


@click.command(
    "when-to-knock", short_help="When should I knock? The rule in words, with its result."
)
@answer_options(
    "POLICY:, a test opponent (basic, marjj, gin-hunter, ...) or any policy string",
    1_000,
    "comparison",
    "when_to_knock_by_rules",
    "every family",
)
def when_to_knock_command(
    preset: str,
    opponent: str,
    deals: int,
    seed: int,
    results: str | None,
    out: str | None,
    jobs: int | None,
    fmt: str,
    no_progress: bool,
    scheduler: str | None,
) -> None:
    """When should I knock? The rule, a chart by your turn and the cards left in the
    stock, what it earns against the opponent and its worst case, with 95% CIs.

    Read from the committed report when it holds the answer (every family under the
    standard, classic, oklahoma and eaai rules), computed at --deals otherwise.

    \b
    Examples:
      analyzer when-to-knock
      analyzer when-to-knock --opponent knocks-at-once
      analyzer when-to-knock --rules oklahoma --opponent gin-hunter --deals 500
      analyzer when-to-knock --rules classic --out results
    """
    from ..report.when_to_knock import knock_answer

    set_jobs(jobs)
    if out is not None:
        _save_every_family(preset, deals, seed, Path(out), no_progress, scheduler)
        results = out
    with progress_bar(None, "hand", no_progress, "when to knock") as update:
        answer = _answer(knock_answer, preset, opponent, deals, seed, results, update, scheduler)
    _show(answer, fmt, lambda: answer.chart().reset_index(names="deadwood"))


def _answer(
    find: Callable[..., Any],
    preset: str,
    opponent: str,
    deals: int,
    seed: int,
    results: str | None,
    update: Any,
    scheduler: str | None,
) -> Any:
    """``find``'s answer (the knock or the discard answer), or the command fails with its
    one-line error."""
    try:
        return find(
            preset,
            opponent,
            deals,
            seed,
            None if results is None else Path(results),
            progress=update,
            scheduler=scheduler,
        )
    except ValueError as error:
        fail(str(error))


def _show(answer: Any, fmt: str, frame: Callable[[], Any]) -> None:
    """Print an answer: its dictionary (json), its table (``frame()``, csv) or its text."""
    if fmt == "json":
        echo_json(answer.to_dict())
    elif fmt == "csv":
        echo_frame(frame(), "csv")
    else:
        click.echo(answer.text())


def _refuse_standard_out(preset: str) -> None:
    if preset == "standard":
        fail("--out: the standard rules' answers are the report's ('analyzer report' writes them)")


def _save_every_family(
    preset: str, deals: int, seed: int, out: Path, no_progress: bool, scheduler: str | None
) -> None:
    """Compute the answers for every family under ``preset`` and write them into ``out``."""
    from ..report.files import staged_folder
    from ..report.knock_answer import find_results
    from ..report.when_to_knock import compute_answers, save_answers

    _refuse_standard_out(preset)
    families = {family: member for family, (_, member) in FAMILIES.items()}
    robust_from = find_results(out if out.exists() else None)
    with progress_bar(None, "hand", no_progress, "when to knock, every family") as update:
        try:
            answers, source = compute_answers(
                preset, families, deals, seed, robust_from, update, scheduler
            )
        except ValueError as error:
            fail(str(error))
    with staged_folder(out):  # the answers with their panel and meta.json, or nothing
        save_answers(out, answers, seed, source)


@click.command(
    "how-to-discard", short_help="How should I discard? The principles, with their worth."
)
@answer_options(
    f"MEMBER: or a test opponent ({', '.join(panel_members())})",
    10_000,
    "player and opponent",
    "how_to_discard",
    "every test opponent",
)
def how_to_discard_command(
    preset: str,
    opponent: str,
    deals: int,
    seed: int,
    results: str | None,
    out: str | None,
    jobs: int | None,
    fmt: str,
    no_progress: bool,
    scheduler: str | None,
) -> None:
    """How should I discard? The principles of a rule a person can follow, each with
    what it is worth in points per hand against the opponent (95% CIs), and how much of
    the champion's edge the rule keeps.

    Read from the committed results when they hold the rules preset (standard, written by
    the report, and eaai), computed at --deals otherwise.

    \b
    Examples:
      analyzer how-to-discard
      analyzer how-to-discard --opponent camper
      analyzer how-to-discard --rules oklahoma --opponent basic --deals 2000
      analyzer how-to-discard --rules classic --out results
    """
    from ..report.discard_answer import discard_answer, member_of, save_run

    set_jobs(jobs)
    try:
        member_of(opponent)  # an unknown opponent fails before any work
    except ValueError as error:
        fail(str(error))
    if out is not None:
        from ..gin.model.rules import resolve_rules
        from ..gin.studies.discard_principles import measure_principles

        _refuse_standard_out(preset)
        with progress_bar(deals, "deal", no_progress, "how to discard, every opponent") as update:
            run = measure_principles(
                resolve_rules(preset), deals, seed, progress=update, scheduler=scheduler
            )
        command = (
            f"analyzer how-to-discard --rules {preset} --deals {deals} --seed {seed} "
            f"--out {shlex.quote(out)}"
        )
        save_run(Path(out), run, preset, command)
        results = out
    with progress_bar(deals, "deal", no_progress, "how to discard") as update:
        answer = _answer(discard_answer, preset, opponent, deals, seed, results, update, scheduler)
    _show(answer, fmt, answer.to_frame)
