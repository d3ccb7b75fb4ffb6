"""The study commands, made from the studies' declarations (:mod:`analyzer.report.study`):
each declared parameter becomes an option with its default, range and help, and every
command takes the rules, run and output options, runs the study under a progress bar,
writes its chart with ``--out`` and prints its answer."""

from __future__ import annotations

from typing import Any

import click

from ..core.limits import MAX_LISTED_PLAYERS
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..report.study import TWIN, Inputs, Kind, Param, Study, check_presets, check_thresholds
from ..report.text import rules_text
from .files import check_out_folder
from .inputs import FiniteFloatRange, fail, get_players, get_policy, get_rules, rules_options
from .output import format_options, save_chart, save_tables, show_result
from .progress import progress_bar
from .run_control import (
    checkpoint_options,
    interrupted,
    run_checkpoint,
    run_options,
    scheduler_option,
    set_jobs,
)


class ThresholdList(click.ParamType):
    """Knock thresholds 0-10, comma-separated, ``a-b`` for a range: ``0,5-10``."""

    name = "thresholds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, tuple):
            return value
        try:
            parts = [part.partition("-") for part in str(value).replace(" ", "").split(",")]
            ends = [(int(low), int(high or low)) for low, _, high in parts]
        except ValueError:
            ends = []
        if not ends or any(high < low for low, high in ends):
            self.fail(
                f"{value!r} is not a list of knock thresholds 0-10 such as 0,5-10", param, ctx
            )
        try:
            return tuple(check_thresholds([t for low, high in ends for t in range(low, high + 1)]))
        except ValueError as error:
            self.fail(f"{value!r}: {error}", param, ctx)


#: What the help adds for each kind of parameter.
_KIND_HELP = {
    Kind.POLICY: " A preset or a policy string (analyzer policies).",
    Kind.OPPONENT: " A preset or a policy string (analyzer policies).",
    Kind.PLAYERS: f" Comma-separated, at most {MAX_LISTED_PLAYERS}.",
    Kind.PRESETS: f" Comma-separated: {', '.join(RULE_PRESETS)}.",
}


def _option(param: Param) -> Any:
    """The click option of one declared parameter."""
    settings: dict[str, Any] = {"default": param.default}
    if param.kind is Kind.COUNT:
        settings["type"] = click.IntRange(int(param.low), int(param.high))
    elif param.kind is Kind.CHOICE:
        settings["type"] = click.Choice(param.choices)
    elif param.kind is Kind.THRESHOLDS:
        settings = {
            "type": ThresholdList(),
            "default": f"{min(param.default)}-{max(param.default)}",
        }
    elif param.kind is Kind.NUMBER:
        settings["type"] = FiniteFloatRange(min=param.low, min_open=True, max=param.high)
    elif param.kind in (Kind.PLAYERS, Kind.PRESETS) and param.default is not None:
        settings["default"] = ",".join(param.default)
    help_text = param.help + _KIND_HELP.get(param.kind, "")
    if param.argument:
        return click.argument(
            param.name, metavar=f"[{param.name.upper()}]", required=False, **settings
        )
    return click.option(param.flag, param.name, show_default=True, help=help_text, **settings)


def _inputs(
    study: Study, preset: str, overrides: tuple[str, ...], seed: int, given: dict[str, Any]
) -> Inputs:
    values: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for param in study.params:
        value = given[param.name]
        if param.kind is Kind.OPPONENT and value == TWIN:
            values[param.name], labels[param.name] = None, TWIN
        elif param.kind in (Kind.POLICY, Kind.OPPONENT):
            values[param.name], labels[param.name] = get_policy(value), value
        elif param.kind is Kind.PLAYERS:
            values[param.name] = None if value is None else get_players(value, param.flag)
        elif param.kind is Kind.PRESETS:
            try:
                values[param.name] = check_presets(
                    [name.strip() for name in value.split(",") if name.strip()], param.flag
                )
            except ValueError as error:
                fail(str(error))
        else:
            values[param.name] = list(value) if param.kind is Kind.THRESHOLDS else value
    rules = get_rules(preset, overrides)
    return Inputs(
        rules, rules_text(preset, overrides), preset, bool(overrides), seed, values, labels
    )


def study_command(study: Study) -> click.Command:
    """The click command of ``study``."""

    def command(
        seed: int,
        jobs: int | None,
        no_progress: bool,
        fmt: str,
        out: str | None = None,
        preset: str = "standard",
        overrides: tuple[str, ...] = (),
        scheduler: str | None = None,
        checkpoint: str | None = None,
        resume: bool = False,
        **given: Any,
    ) -> None:
        inputs = _inputs(study, preset, overrides, seed, given)
        set_jobs(jobs)
        with run_checkpoint(checkpoint, resume, study.identity(inputs)) as saved:
            try:
                with progress_bar(None, study.unit, no_progress, study.step) as update:
                    answer = study.run(inputs, update, scheduler)
            except KeyboardInterrupt:
                if not study.checkpoint:
                    raise
                interrupted(fmt == "json", None, saved)
            except ValueError as error:
                fail(str(error))
        chart = answer.chart
        if chart is not None:
            save_chart(
                out,
                chart.name,
                answer.frame if chart.frame is None else chart.frame,
                chart.draw,
                chart.figsize,
                ncols=chart.panels,
                title=chart.title,
                caption=chart.caption,
                tables=dict(chart.tables) or None,
                sharey=chart.sharey,
            )
        elif out is not None:
            save_tables(out, answer.files)
        raw = answer.frame if answer.raw is None else answer.raw
        show_result(
            fmt,
            answer.title,
            answer.body,
            answer.verdict,
            raw=answer.data if fmt == "json" and answer.data is not None else raw,
            notes=answer.notes,
        )

    examples = "\n".join(f"  {line}" for line in study.examples)
    command.__doc__ = f"{study.summary}\n\n{study.description}\n\n\b\nExample:\n{examples}\n"
    if study.checkpoint:
        command.__doc__ += (
            "\nCtrl-C or SIGTERM stops the run and exits with status 130; with --checkpoint the "
            "finished chunks are kept, and --resume ends with the same table bit for bit.\n"
        )
    decorated: Any = command
    if study.checkpoint:
        decorated = checkpoint_options(decorated)
    if study.scheduler:
        decorated = scheduler_option(decorated)
    decorated = format_options(decorated)
    if study.out_help is not None:
        decorated = click.option(
            "--out",
            type=click.Path(file_okay=False),
            default=None,
            callback=check_out_folder,
            help=study.out_help,
        )(decorated)
    decorated = run_options(decorated)
    for param in reversed(study.params):
        decorated = _option(param)(decorated)
    if study.rules:
        decorated = rules_options(decorated)
    made = click.command(study.name)(decorated)
    (seed,) = [option for option in made.params if option.name == "seed"]
    seed.default = study.seed
    return made


def _commands() -> dict[str, click.Command]:
    from ..report import (  # noqa: F401  (they register their studies)
        equilibrium_studies,
        knock_studies,
        survey_studies,
    )
    from ..report.study import STUDIES

    return {name: study_command(study) for name, study in STUDIES.items()}


#: Every study's command, by name.
COMMANDS = _commands()


def __getattr__(name: str) -> click.Command:
    """The commands as this module's attributes, as ``analyzer.cli.main`` names them
    (``knock_sweep_command``...)."""
    command = COMMANDS.get(name.removesuffix("_command").replace("_", "-"))
    if command is None or not name.endswith("_command"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return command
