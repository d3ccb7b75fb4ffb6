"""The study commands, made from the studies' declarations (:mod:`analyzer.studies.study`):
each declared parameter becomes an option with its default, range and help, and every
command takes the rules, run and output options, runs the study under a progress bar,
writes its chart with ``--out`` and prints its answer."""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from ..core.limits import MAX_LISTED_PLAYERS
from ..gin.model.policies import ranges_text as policy_ranges_text
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..studies.study import (
    GIN,
    TWIN,
    Inputs,
    Kind,
    Param,
    Rulebook,
    Study,
    check_presets,
    check_thresholds,
)
from ..studies.text import rules_text
from .files import check_raw_count, out_option, raw_option, write_raw
from .inputs import (
    FiniteFloatRange,
    fail,
    get_player,
    get_players,
    get_policy,
    rules_options_of,
    rules_preset_option,
    split_player_list,
)
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
    Kind.PLAYER: (
        f" A preset, draw=..,discard=..,knock=.. ({policy_ranges_text()}), or the search "
        "player search[,budget=..,rollout=..,model=..] (a model or rollout that is no preset "
        "in parentheses: model=(expert,knock=gin))."
    ),
    Kind.PLAYERS: f" Comma-separated, at most {MAX_LISTED_PLAYERS}.",
    Kind.PRESETS: f" Comma-separated: {', '.join(RULE_PRESETS)}.",
}


def _kind_help(param: Param, rulebook: Rulebook) -> str:
    """What the help adds for the kind of ``param``."""
    if param.kind in (Kind.POLICY, Kind.OPPONENT):
        return f" {rulebook.policy_help().capitalize()}."
    if param.kind is Kind.SEATS:
        return f" Comma-separated, each {rulebook.policy_help()}."
    return _KIND_HELP.get(param.kind, "")


def _option(param: Param, rulebook: Rulebook) -> Any:
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
    elif param.kind is Kind.FOLDER:
        settings["type"] = click.Path(file_okay=False, exists=True)
    elif param.kind is Kind.FLAG:
        if param.default:  # a flag on by default: --name/--no-name
            flag = param.flag
            return click.option(
                f"{flag}/--no-{flag[2:]}",
                param.name,
                default=True,
                show_default=True,
                help=param.help,
            )
        settings["is_flag"] = True
    elif param.kind in (Kind.PLAYERS, Kind.PRESETS) and param.default is not None:
        settings["default"] = ",".join(param.default)
    # a parameter that says it is "as --a" is not told the same kinds again
    help_text = param.help + ("" if "(as --" in param.help else _kind_help(param, rulebook))
    if param.argument:
        return click.argument(
            param.name, metavar=f"[{param.name.upper()}]", required=False, **settings
        )
    if param.metavar is not None:
        settings["metavar"] = param.metavar
    return click.option(param.flag, param.name, show_default=True, help=help_text, **settings)


def _policy(rulebook: Rulebook, text: str) -> Any:
    """A policy of ``rulebook``'s game, or the command fails with one line."""
    if rulebook is GIN:
        return get_policy(text)  # which says where the search player plays instead
    try:
        return rulebook.parse_policy(text)
    except ValueError as error:
        fail(str(error))


def _inputs(
    study: Study,
    preset: str,
    overrides: tuple[str, ...],
    seed: int,
    given: dict[str, Any],
    raw: str | None,
    out: str | None,
) -> Inputs:
    values: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for param in study.params:
        value = given[param.name]
        if param.kind is Kind.OPPONENT and value == TWIN:
            values[param.name], labels[param.name] = None, TWIN
        elif param.kind in (Kind.POLICY, Kind.OPPONENT):
            values[param.name], labels[param.name] = _policy(study.rulebook, value), value
        elif param.kind is Kind.PLAYER:
            values[param.name], labels[param.name] = get_player(value), value
        elif param.kind is Kind.SEATS:
            names = None if value is None else split_player_list(value)
            # gin's seats take the search player too, for the study to say where it plays
            seat = get_player if study.rulebook is GIN else partial(_policy, study.rulebook)
            values[param.name] = None if names is None else [(n, seat(n)) for n in names]
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
    if study.rows is not None:
        check_raw_count(raw, values[study.rows], study.rows)
    try:
        rules = study.rulebook.resolve(preset, overrides) if study.rules else None
    except ValueError as error:
        fail(str(error))
    return Inputs(
        rules,
        rules_text(preset, overrides),
        preset,
        bool(overrides),
        seed,
        values,
        labels,
        overrides,
        raw is not None,
        out,
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
        raw: str | None = None,
        **given: Any,
    ) -> None:
        inputs = _inputs(study, preset, overrides, seed, given, raw, out)
        if raw is not None and checkpoint is not None:
            fail("--raw and --checkpoint do not mix: a checkpoint keeps sums, not rows")
        set_jobs(jobs)
        counted = study.counted
        total = None if counted is None else inputs[counted]
        with run_checkpoint(checkpoint, resume, study.identity(inputs)) as saved:
            try:
                with progress_bar(total, study.unit, no_progress, study.step) as update:
                    answer = study.run(inputs, update, scheduler)
            except KeyboardInterrupt:
                if not study.checkpoint and counted is None:
                    raise
                nothing = None
                if counted is not None:  # stopped before its first chunk finished
                    nothing = {counted: 0, f"requested_{counted}": total, "seed": seed}
                interrupted(fmt == "json", nothing, saved)
            except ValueError as error:
                fail(str(error))
        if answer.stopped is None:
            write_raw(answer.rows, raw)
        chart = answer.chart
        # a stopped run writes nothing; a study that writes_out wrote its own files
        if out is not None and not study.writes_out and answer.stopped is None:
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
            else:
                save_tables(out, answer.files)
        shown = answer.frame if answer.raw is None else answer.raw
        if answer.text is not None and fmt == "table":
            click.echo(answer.text)
        elif answer.stopped is None or fmt == "table":  # a stopped run's JSON is its own
            show_result(
                fmt,
                answer.title,
                answer.body,
                answer.verdict,
                raw=answer.data if fmt == "json" and answer.data is not None else shown,
                notes=answer.notes,
            )
        if answer.stopped is not None:
            interrupted(fmt == "json", dict(answer.stopped), saved)

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
        decorated = out_option(study.out_help)(decorated)
    decorated = run_options(decorated)
    if study.rows is not None:
        decorated = raw_option(decorated)
    for param in reversed(study.params):
        decorated = _option(param, study.rulebook)(decorated)
    if study.presets_only:
        decorated = rules_preset_option(study.rulebook.presets())(decorated)
    elif study.rules:
        decorated = rules_options_of(study.rulebook)(decorated)
    made = click.command(study.name.split()[-1])(decorated)  # "rummy simulate": simulate
    (seed,) = [option for option in made.params if option.name == "seed"]
    seed.default = study.seed
    return made


def _commands() -> dict[str, click.Command]:
    from ..report.registry import STUDIES

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
