"""The study commands, made from the studies' declarations (:mod:`analyzer.studies.study`):
each declared parameter becomes an option with its default, range and help, and every
command takes the rules, run and output options, runs the study under a progress bar,
writes its chart with ``--out`` and prints its answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..core.limits import MAX_LISTED_PLAYERS
from ..gin.model.policies import ranges_text as policy_ranges_text
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..studies.answer import find_kept, run
from ..studies.inputs import make_inputs
from ..studies.study import Kind, Param, Rulebook, Study, check_thresholds
from .files import check_raw_count, out_option, raw_option, write_raw
from .inputs import FiniteFloatRange, fail, rules_options_of, split_player_list
from .output import format_options, save_answer, show_answer
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
    if param.kind is Kind.POLICY:
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
        low, high = min(param.default), max(param.default)
        settings = {
            "type": ThresholdList(),
            "default": str(low) if low == high else f"{low}-{high}",
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


def _spelled(param: Param) -> str:
    """How the command line names ``param`` in an error: its option, or its argument."""
    return param.name.upper() if param.argument else param.flag


def _given(study: Study, given: dict[str, Any]) -> dict[str, Any]:
    """The options' values as the notebook gives them: the lists of players, seats and
    presets split out of their comma-separated texts."""
    values = {}
    for param in study.params:
        value = given[param.name]
        if isinstance(value, str) and param.kind in (Kind.PLAYERS, Kind.SEATS):
            value = split_player_list(value)
        elif isinstance(value, str) and param.kind is Kind.PRESETS:
            value = [name.strip() for name in value.split(",") if name.strip()]
        values[param.name] = value
    return values


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
        try:
            inputs = make_inputs(
                study,
                _given(study, given),
                rules=preset,
                overrides=overrides,
                seed=seed,
                keep_rows=raw is not None,
                out=out,
                spelled=lambda name: _spelled(study.param(name)),
            )
        except (TypeError, ValueError) as error:
            fail(str(error))
        if study.rows is not None:
            check_raw_count(raw, inputs[study.rows], study.rows)
        if raw is not None and checkpoint is not None:
            fail("--raw and --checkpoint do not mix: a checkpoint keeps sums, not rows")
        set_jobs(jobs)
        counted = study.counted
        total = None if counted is None else inputs[counted]
        with run_checkpoint(checkpoint, resume, study.identity(inputs)) as saved:
            try:
                # --out saves an answer computed now, never a copy of a kept one
                kept = (
                    None
                    if out is not None
                    else find_kept(study, inputs, given_results(study, given))
                )
                answer = kept
                if answer is None:
                    with progress_bar(total, study.unit, no_progress, study.step) as update:
                        answer = run(study, inputs, update, scheduler)
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
            if out is not None:  # a stopped run writes nothing
                save_answer(answer, out)
        show_answer(answer, fmt)
        if answer.stopped is not None:
            interrupted(fmt == "json", dict(answer.stopped), saved)

    examples = "\n".join(f"  {line}" for line in study.examples)
    command.__doc__ = f"{study.summary}\n\n\b\nExample:\n{examples}\n\n{study.description}\n"
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
    decorated = out_option(OUT_HELP)(decorated)
    decorated = run_options(decorated)
    if study.rows is not None:
        decorated = raw_option(decorated)
    for param in reversed(study.params):
        decorated = _option(param, study.rulebook)(decorated)
    if study.rules:
        decorated = rules_options_of(study.rulebook)(decorated)
    made = click.command(study.name.split()[-1])(decorated)  # "rummy simulate": simulate
    (seed,) = [option for option in made.params if option.name == "seed"]
    seed.default = study.seed
    return made


#: What ``--out`` does, for every study.
OUT_HELP = (
    "Save the answer in this folder (checked writable before the run): its tables (CSV), "
    "its chart (PNG) and meta.json, which names the command that rewrites the folder."
)


def given_results(study: Study, given: dict[str, Any]) -> Path | None:
    """The report folder a kept answer is read from: the ``results`` option's (a folder
    parameter), else None (the store's)."""
    folders = [p.name for p in study.params if p.kind is Kind.FOLDER]
    return Path(given[folders[0]]) if folders and given[folders[0]] is not None else None


def _commands() -> dict[str, click.Command]:
    from ..studies.registry import STUDIES

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
