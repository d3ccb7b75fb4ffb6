"""How a run is controlled: ``--seed``/``--jobs``/``--no-progress``, ``--scheduler``,
``--checkpoint``/``--resume``, and the end of a run stopped by Ctrl-C or SIGTERM."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, cast

import click

from ..core.chunks import checkpointing
from ..core.cluster import SCHEDULER_ENV, SchedulerUnreachable, resolve_scheduler
from ..core.interrupts import end_run
from ..core.limits import LOCAL_WORKERS_PER_CORE
from ..studies.checkpoint import Checkpoint, CheckpointMismatch
from .exits import exit_interrupted
from .files import check_file_path
from .inputs import JOBS, SEED, F, fail
from .output import echo_json


def run_options(function: F) -> F:
    """``--seed``/``--jobs``/``--no-progress``."""
    function = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(function)
    function = click.option(
        "--jobs",
        type=JOBS,
        default=None,
        help="Threads (default: all cores). Results do not depend on it.",
    )(function)
    return click.option(
        "--seed",
        type=SEED,
        default=1,
        show_default=True,
        help="Random seed, 0 <= seed < 2**63; a run is reproducible from it.",
    )(function)


def set_jobs(jobs: int | None) -> None:
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def checkpoint_options(function: F) -> F:
    """``--checkpoint FILE`` and ``--resume``."""
    function = click.option(
        "--resume",
        is_flag=True,
        help="Continue the run saved in --checkpoint; the result is the "
        "same bit for bit as an uninterrupted run.",
    )(function)
    return click.option(
        "--checkpoint",
        type=click.Path(dir_okay=False),
        default=None,
        callback=check_file_path,
        help="Save finished chunks to this file every few seconds and on "
        "Ctrl-C, so that --resume can continue the run.",
    )(function)


@contextmanager
def run_checkpoint(
    path: str | None, resume: bool, identity: Mapping[str, Any]
) -> Iterator[Checkpoint | None]:
    """The run's :class:`~analyzer.studies.checkpoint.Checkpoint` (None without --checkpoint),
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
        checkpoint = Checkpoint(path, identity, resume)
    except CheckpointMismatch as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write checkpoint {path}: {error.strerror or error}")
    try:
        with checkpointing(checkpoint):
            yield checkpoint
    except CheckpointMismatch as error:  # a stage's saved state found unfit on restore
        fail(str(error))


def interrupted(
    as_json: bool, partial: dict[str, Any] | None = None, checkpoint: Checkpoint | None = None
) -> NoReturn:
    """Report a run stopped by Ctrl-C/SIGTERM and exit with :data:`INTERRUPTED_EXIT`:
    with --json, the partial result marked ``"interrupted": true``.  A second stop while
    it reports is recorded, not raised (it would print a second line)."""
    end_run()
    if as_json:
        echo_json({**(partial or {}), "interrupted": True})
    where = f"; progress saved in {checkpoint.path}, continue with --resume" if checkpoint else ""
    click.echo(f"Error: interrupted{where}", err=True)
    exit_interrupted()


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
        "--scheduler",
        envvar=SCHEDULER_ENV,
        default=None,
        callback=_check_scheduler,
        metavar="ADDRESS|local:N",
        help="Run the chunks on a Dask cluster: a scheduler address (tcp://host:8786) or "
        f"local:N worker processes on this machine (N at most {LOCAL_WORKERS_PER_CORE} per core); "
        "default: in-process on all cores. "
        "Results are the same bit for bit. Env: ANALYZER_SCHEDULER.",
    )(cast(F, run))


class _UsageFailure(click.ClickException):
    """``Error: message`` on stderr and exit status 2, like the CLI's other input errors."""

    exit_code = 2


def _check_scheduler(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> str | None:
    if value is None or not value.strip():
        # an explicit empty option or variable means the in-process path
        return None if value is None else ""
    try:
        return resolve_scheduler(value)
    except (ValueError, ModuleNotFoundError) as error:
        raise click.BadParameter(str(error)) from None
