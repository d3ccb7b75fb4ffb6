"""Options, argument parsing and output helpers shared by every command family."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from ..core.cluster import (
    SCHEDULER_ENV,
    Checkpoint,
    CheckpointMismatch,
    SchedulerUnreachable,
    checkpointing,
    resolve_scheduler,
)
from ..core.limits import MAX_RAW_UNITS, MAX_UNITS, SEED_MAX
from ..core.progress import Progress, bar_progress
from ..gin.model.policies import Policy, format_policy, parse_policy
from ..gin.model.policies import ranges_text as policy_ranges_text
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import Rules, ranges_text, resolve_rules
from ..gin.play.players import Player, format_player, parse_player
from ..report.files import csv_bytes, removed_on_failure, write_bytes, write_together, write_with
from .exits import exit_interrupted

if TYPE_CHECKING:
    from ..core.stats import Estimate

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2 (bad usage or input)."""
    click.echo(f"Error: {' '.join(message.split())}", err=True)
    sys.exit(2)


# ---------------------------------------------------------------- input ranges
#
# Every number a user can type has a range, checked by click before any work starts and
# shown in --help.  The ranges are analyzer.core.limits's, shared with the notebook API
# and the web app (the memory each one allows is stated there).

SEED = click.IntRange(0, SEED_MAX)
UNITS = click.IntRange(1, MAX_UNITS)
UNITS_OR_NONE = click.IntRange(0, MAX_UNITS)


class FiniteFloatRange(click.FloatRange):
    """A :class:`click.FloatRange` that also refuses ``nan`` and ``inf`` (which compare
    as inside any open range)."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


def rules_options(function: F) -> F:
    """``--rules PRESET`` and repeatable ``--set field=value``."""
    function = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                            help="Override one rule field (repeatable), e.g. knock_limit=7; "
                                 f"ranges: {ranges_text()}; flags yes/no.")(function)
    return click.option("--rules", "preset", default="standard", show_default=True,
                        help=f"Rules preset: {', '.join(RULE_PRESETS)}.")(function)


def run_options(function: F) -> F:
    """``--seed``/``--jobs``/``--no-progress``."""
    function = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(function)
    function = click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help="Threads (default: all cores). Results do not depend on it.")(
        function)
    return click.option("--seed", type=SEED, default=1, show_default=True,
                        help="Random seed, 0 <= seed < 2**63; a run is reproducible from it.")(
        function)


def policy_options(function: F) -> F:
    """``--a`` and ``--b`` policies."""
    function = click.option("--b", "policy_b", default="basic", show_default=True,
                            help="Policy of player B (as --a).")(function)
    return click.option("--a", "policy_a", default="basic", show_default=True,
                        help="Policy of player A: a preset, draw=..,discard=..,knock=.. "
                             f"({policy_ranges_text()}), or the search player "
                             "search[,budget=..,rollout=..].")(function)



def get_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    try:
        return resolve_rules(preset, overrides)
    except ValueError as error:
        fail(str(error))


def get_policy(text: str) -> Policy:
    try:
        return parse_policy(text)
    except ValueError as error:
        if text.strip().startswith("search"):
            fail("the search player plays in simulate, games, tournament and advise only; "
                 "here give a policy")
        fail(str(error))


def get_player(text: str) -> Player:
    """A policy or the search player (``search,budget=..,rollout=..``)."""
    try:
        return parse_player(text)
    except ValueError as error:
        fail(str(error))


def split_player_list(text: str) -> list[str]:
    """Players listed in one option: separated by ``;`` when there is one, else by commas,
    a ``key=value`` part joining the player before it (``search,budget=32,basic`` is
    ``search,budget=32`` and ``basic``)."""
    if ";" in text:
        return [part.strip() for part in text.split(";") if part.strip()]
    names: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and names:
            names[-1] += "," + part
        else:
            names.append(part)
    return names


def set_jobs(jobs: int | None) -> None:
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


#: Widest line the CLI prints (tables, bars): fits a 100-column terminal.
MAX_WIDTH = 100
#: Seconds a step runs before its progress bar appears (quick steps stay quiet).
PROGRESS_DELAY_S = 2.0


#: Set to ``always`` to show progress bars on a stderr that is not a terminal (a log
#: file of a long run); ``--no-progress`` still hides them.
PROGRESS_ENV = "ANALYZER_PROGRESS"


def progress_hidden(no_progress: bool) -> bool:
    """Bars are hidden under ``--no-progress`` and when stderr is not a terminal
    (a pipe, a log file, a test runner), unless ``$ANALYZER_PROGRESS`` is ``always``."""
    if no_progress:
        return True
    return not sys.stderr.isatty() and os.environ.get(PROGRESS_ENV, "") != "always"


@contextmanager
def progress_bar(total: int | None, unit: str, hidden: bool,
                 desc: str | None = None) -> Iterator[Progress]:
    """The CLI's one progress display: a tqdm bar with an ETA on stderr, fed by the
    compute layers' plain progress callable (:mod:`analyzer.core.progress`).

    ``total`` may be ``None`` when the study announces it (``progress(0, total=T)``).
    The bar appears once a step has run :data:`PROGRESS_DELAY_S` seconds, and never
    under ``--no-progress`` or when stderr is not a terminal.
    """
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, unit_scale=True, desc=desc, delay=PROGRESS_DELAY_S,
              disable=progress_hidden(hidden), file=sys.stderr, leave=False,
              ncols=MAX_WIDTH, dynamic_ncols=False) as bar:

        # on a terminal, redraw every second once the delay is over, so that the elapsed
        # time moves even while a long chunk (or a step that reports nothing) runs
        stop = threading.Event()

        def tick() -> None:
            if stop.wait(PROGRESS_DELAY_S):
                return
            while not stop.wait(1.0):
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        if not bar.disable and sys.stderr.isatty():  # a log file gets no idle redraws
            ticker.start()
        try:
            yield bar_progress(bar)
        finally:
            stop.set()
            if ticker.is_alive():
                ticker.join()


def estimate_text(estimate: Estimate, digits: int = 3) -> str:
    """``mean ± half-width`` of a 95% CI."""
    half = (estimate.high - estimate.low) / 2
    return f"{estimate.mean:.{digits}f} ± {half:.{digits}f}"


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


def echo_summary(summary: dict[str, Any], fmt: str) -> None:
    """A run summary as one JSON object, or as ``key,value`` CSV rows (nested keys
    joined with dots)."""
    if fmt == "json":
        echo_json(summary)
        return
    click.echo("key,value")
    for key, value in _flatten(summary):
        click.echo(f"{key},{json.dumps(value) if isinstance(value, (list, str)) else value}")


def _flatten(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


# ---------------------------------------------------------------------- commands


def raw_option(function: F) -> F:
    """``--raw FILE``: write every row (hand or game) to a Parquet file."""
    return click.option("--raw", type=click.Path(dir_okay=False), default=None,
                        callback=_check_raw_path,
                        help="Also write every row to this Parquet file (needs pyarrow: "
                             "pip install -e '.[parquet]'); at most "
                             f"{MAX_RAW_UNITS:,} deals or games.")(function)


def _check_raw_path(context: click.Context, parameter: click.Parameter,
                    value: str | None) -> str | None:
    if value is None:
        return None
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise click.BadParameter("needs pyarrow: pip install -e '.[parquet]'") from None
    path = Path(value)
    if path.is_dir():
        raise click.BadParameter(f"{value} is a folder, expected a file name")
    _probe_folder(path.parent if str(path.parent) else Path("."), parameter)
    return value


def _probe_folder(folder: Path, parameter: click.Parameter) -> None:
    """Show that files can be made in ``folder`` (creating it if need be), and leave
    nothing behind: the run writes there only once its work is done."""
    created: list[Path] = []
    try:
        missing = [folder, *folder.parents]
        for candidate in reversed(missing):
            if not candidate.exists():
                candidate.mkdir()
                created.append(candidate)
        if not folder.is_dir():
            raise NotADirectoryError(f"{folder} is not a folder")
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write to {folder}: {reason}",
                                 param=parameter) from None
    finally:
        for made in reversed(created):
            made.rmdir()


def check_out_folder(context: click.Context, parameter: click.Parameter,
                     value: str | Path | None) -> str | Path | None:
    """Click callback of an ``--out`` folder: it must be named, creatable and writable,
    checked before the command starts (and left as it was until the results are
    written).  An empty name would mean the current folder, which no one asks for."""
    if value is not None:
        if not str(value).strip():
            raise click.BadParameter("is empty: give a folder name (. for the current "
                                     "folder)", param=parameter)
        _probe_folder(Path(value), parameter)
    return value


def check_out_path(context: click.Context, parameter: click.Parameter,
                   value: str | None) -> Path | None:
    """:func:`check_out_folder` for commands that take the folder as a ``Path``."""
    checked = check_out_folder(context, parameter, value)
    return None if checked is None else Path(checked)


def check_raw_count(raw: str | None, count: int, unit: str, option: str = "--raw") -> None:
    """Refuse ``option`` (which keeps every row) for runs whose rows would not fit the
    stated memory."""
    if raw is not None and count > MAX_RAW_UNITS:
        fail(f"{option} keeps every row in memory: at most {MAX_RAW_UNITS:,} {unit}, "
             f"got {count:,}")


def checkpoint_options(function: F) -> F:
    """``--checkpoint FILE`` and ``--resume``."""
    function = click.option("--resume", is_flag=True,
                            help="Continue the run saved in --checkpoint; the result is the "
                                 "same bit for bit as an uninterrupted run.")(function)
    return click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
                        callback=_check_raw_free_path,
                        help="Save finished chunks to this file every few seconds and on "
                             "Ctrl-C, so that --resume can continue the run.")(function)


def _check_raw_free_path(context: click.Context, parameter: click.Parameter,
                         value: str | None) -> str | None:
    if value is not None:
        path = Path(value)
        if path.is_dir():
            raise click.BadParameter(f"{value} is a folder, expected a file name")
        _probe_folder(path.parent if str(path.parent) else Path("."), parameter)
    return value


@contextmanager
def run_checkpoint(path: str | None, resume: bool, identity: Mapping[str, Any]
                   ) -> Iterator[Checkpoint | None]:
    """The run's :class:`~analyzer.core.cluster.Checkpoint` (None without --checkpoint),
    active inside the block; a file of another run, a damaged file, or --resume without
    a file, is a one-line error (exit status 2), before any work where it can be seen
    then.  The checkpoint's folder is created as --out's is, and outlives a stopped run
    with the file."""
    if path is None:
        if resume:
            fail("--resume needs --checkpoint FILE")
        yield None
        return
    if not resume and Path(path).exists():
        fail(f"checkpoint {path} exists: add --resume to continue it, or delete it")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        checkpoint = Checkpoint(path, identity, resume, write=_write_checkpoint)
    except CheckpointMismatch as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write checkpoint {path}: {error.strerror or error}")
    try:
        with checkpointing(checkpoint):
            yield checkpoint
    except CheckpointMismatch as error:  # a stage's saved state found unfit on restore
        fail(str(error))


def _write_checkpoint(path: Path, data: bytes) -> None:
    # kept when a run fails or stops: it is what --resume continues from
    write_bytes(path, data, track=False)


def interrupted(as_json: bool, partial: dict[str, Any] | None = None,
                checkpoint: Checkpoint | None = None) -> NoReturn:
    """Report a run stopped by Ctrl-C/SIGTERM and exit with :data:`INTERRUPTED_EXIT`:
    with --json, the partial result marked ``"interrupted": true``."""
    if as_json:
        echo_json({**(partial or {}), "interrupted": True})
    where = f"; progress saved in {checkpoint.path}, continue with --resume" if checkpoint else ""
    click.echo(f"Error: interrupted{where}", err=True)
    exit_interrupted()


def write_raw(frame: Any, path: str | None) -> None:
    """Write ``frame`` as Parquet to ``path``; a missing pyarrow is a one-line error."""
    if path is None:
        return
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        fail("--raw needs pyarrow: pip install -e '.[parquet]'")
    with removed_on_failure():  # the folders made for it go if it cannot be written
        write_with(path, lambda temporary: frame.to_parquet(temporary, index=False))
    click.echo(f"wrote {len(frame):,} rows to {path}", err=True)


def run_summary(preset: str, overrides: tuple[str, ...], rules: Rules, seed: int,
                 a: Player, b: Player) -> dict[str, Any]:
    """The JSON keys every simulation command shares."""
    return {"seed": seed,
            "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
            "rules_fields": rules.describe(), "policy_a": player_form(a),
            "policy_b": player_form(b)}


def player_form(player: Player) -> str:
    """The full string form of a player: a policy's every field
    (:func:`analyzer.gin.model.policies.format_policy`), or the search player's parts."""
    return format_policy(player) if isinstance(player, Policy) else format_player(player)


def echo_header(what: str, seed: int, preset: str, overrides: tuple[str, ...], a: Player,
                 b: Player) -> None:
    click.echo(f"{what}, seed {seed}, rules {preset}"
               + (f" with {', '.join(overrides)}" if overrides else ""))
    click.echo(f"A: {format_player(a)}   B: {format_player(b)}")


FORMATS = ("table", "csv", "json")


def format_options(function: F) -> F:
    """``--format table|csv|json`` and its alias ``--json``; the command receives one
    ``fmt`` argument."""

    @functools.wraps(function)
    def run(*args: Any, fmt: str, as_json: bool, **kwargs: Any) -> Any:
        return function(*args, fmt="json" if as_json else fmt, **kwargs)

    run = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(run)
    return cast(F, click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                                show_default=True, help="Terminal output format.")(run))


def output_options(function: F) -> F:
    """``--out DIR`` and ``--format table|csv|json`` (``--json``)."""
    function = format_options(function)
    return click.option("--out", type=click.Path(file_okay=False), default=None,
                        callback=check_out_folder,
                        help="Write the table (CSV) and chart (PNG) into this folder "
                             "(checked writable before the run; default: write nothing).")(
        function)


def study_options(function: F) -> F:
    """The options every study command shares: run, output and scheduler options."""
    return run_options(output_options(scheduler_option(function)))


def emit(frame: Any, fmt: str, columns: list[str] | None = None) -> None:
    """Print a study table as an aligned table (wrapped into blocks of columns that fit
    :data:`MAX_WIDTH`), CSV or JSON records."""
    shown = frame if columns is None else frame[columns]
    if fmt == "csv":
        click.echo(shown.to_csv(index=False), nl=False)
    elif fmt == "json":
        click.echo(shown.to_json(orient="records", indent=2))
    else:
        text = shown.to_string(index=False, float_format=lambda v: f"{v:.3f}",
                               line_width=MAX_WIDTH)
        click.echo("\n".join(line.rstrip() for line in text.splitlines()))


def chance_text(probability: float) -> str:
    """A probability a player can read at any size: ``1 in 115,733`` below 1 %, else a
    percentage.

    >>> chance_text(8.64e-06), chance_text(0.0412), chance_text(0.0)
    ('1 in 115,741', '4.12%', 'never seen')
    """
    if probability <= 0:
        return "never seen"
    if probability < 0.01:
        return f"1 in {round(1 / probability):,}"
    return f"{probability:.2%}"


def verdict_grid(chart: Any, min_samples: int) -> list[str]:
    """The knock chart as a turn x deadwood grid of verdicts: ``K`` knock now, ``P``
    play on (95% CI excludes 0), ``·`` too close to call, blank: fewer than
    ``min_samples`` states."""
    from ..gin.studies.branching import MAX_TURN

    marks = {"knock": "K", "play on": "P", "unclear": "·"}
    cells = {(int(r.turn), int(r.deadwood)): marks[r.verdict] if r.n >= min_samples else " "
             for r in chart.itertuples()}
    lines = ["own turn   deadwood " + " ".join(f"{d:>2}" for d in range(1, 11))]
    for turn in range(1, MAX_TURN + 1):
        label = f"{turn}+" if turn == MAX_TURN else str(turn)
        row = " ".join(f"{cells.get((turn, d), ' '):>2}" for d in range(1, 11))
        lines.append(f"{label:>8}            {row}".rstrip())
    lines.append(f"K knock now, P play on (95% CI excludes 0), · too close to call, blank: "
                 f"under {min_samples} states")
    return lines


def save_chart(out: str | None, name: str, frame: Any, draw: Callable[[Any], None],
               figsize: tuple[float, float], ncols: int = 1, *, title: str,
               caption: str, sharey: bool = False,
               tables: Mapping[str, Any] | None = None) -> None:
    """Write ``name``.csv and ``name``.png (with ``title`` and ``caption``, see
    :func:`analyzer.report.figures.chart`), and each of ``tables`` (file name -> table)
    as CSV, into ``out`` when given: all of them or none, and no folder made for them
    left behind when they cannot be written."""
    if out is None:
        return
    from ..report.figures import chart

    with chart(1, ncols, figsize, title=title, caption=caption, sharey=sharey) as drawn:
        draw(drawn.axes)
    folder = Path(out)
    files = {folder / f"{name}.csv": csv_bytes(frame, index=False),
             folder / f"{name}.png": drawn.png,
             **{folder / file: csv_bytes(table, index=False)
                for file, table in (tables or {}).items()}}
    with removed_on_failure():
        write_together(files)
    click.echo(f"wrote {folder / name}.csv and .png", err=True)


def scheduler_option(command: F) -> F:
    """``--scheduler`` (or ``$ANALYZER_SCHEDULER``) for a click command.

    The command receives ``scheduler: str | None`` to pass on to the library.  An
    unreachable scheduler becomes a one-line ``Error: ...`` and exit status 2.
    """

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except SchedulerUnreachable as error:
            raise _UsageFailure(str(error)) from error

    return click.option(
        "--scheduler", envvar=SCHEDULER_ENV, default=None, callback=_check_scheduler,
        metavar="ADDRESS|local:N",
        help="Run the chunks on a Dask cluster: a scheduler address (tcp://host:8786) or "
             "local:N worker processes on this machine; default: in-process on all cores. "
             "Results are the same bit for bit. Env: ANALYZER_SCHEDULER.")(cast(F, run))


class _UsageFailure(click.ClickException):
    """``Error: message`` on stderr and exit status 2, like the CLI's other input errors."""

    exit_code = 2


def _check_scheduler(context: click.Context, parameter: click.Parameter,
                     value: str | None) -> str | None:
    if value is None or not value.strip():
        # an explicit empty option or variable means the in-process path
        return None if value is None else ""
    try:
        resolve_scheduler(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from error
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise click.BadParameter("needs dask.distributed: "
                                 "pip install 'rummy-analyzer[cluster]'") from None
    return value.strip()
