"""Options, argument parsing and output helpers shared by every command family."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from ..core.cluster import SCHEDULER_ENV, SchedulerUnreachable, resolve_scheduler
from ..gin.policies import Policy, parse_policy
from ..gin.rules import PRESETS as RULE_PRESETS
from ..gin.rules import Rules, resolve_rules
from ..gin.search import Player, format_player, parse_player

if TYPE_CHECKING:
    from ..gin.simulate import Estimate

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2 (bad usage or input)."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


def rules_options(function: F) -> F:
    """``--rules PRESET`` and repeatable ``--set field=value``."""
    function = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                            help="Override one rule field (repeatable), e.g. knock_limit=7.")(function)
    return click.option("--rules", "preset", default="standard", show_default=True,
                        help=f"Rules preset: {', '.join(RULE_PRESETS)}.")(function)


def run_options(function: F) -> F:
    """``--deals``/``--seed``/``--jobs``/``--json``/``--no-progress``."""
    function = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(function)
    function = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(
        function)
    function = click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help="Threads (default: all cores). Results do not depend on it.")(
        function)
    return click.option("--seed", type=int, default=1, show_default=True,
                        help="Random seed; a run is reproducible from it.")(function)


def policy_options(function: F) -> F:
    """``--a`` and ``--b`` policies."""
    function = click.option("--b", "policy_b", default="basic", show_default=True,
                            help="Policy of player B (preset, draw=..,discard=..,knock=.., or "
                                 "search[,budget=..,rollout=..]).")(function)
    return click.option("--a", "policy_a", default="basic", show_default=True,
                        help="Policy of player A (preset, draw=..,discard=..,knock=.., or "
                             "search[,budget=..,rollout=..]).")(function)


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

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))


@contextmanager
def progress_bar(total: int, unit: str, hidden: bool) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr fed by chunk completions (hidden for small runs or on request)."""
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, unit_scale=True, disable=hidden or total < 20_000,
              file=sys.stderr, leave=False) as bar:
        yield bar.update


def estimate_text(estimate: Estimate, digits: int = 3) -> str:
    """``mean ± half-width`` of a 95% CI."""
    half = (estimate.high - estimate.low) / 2
    return f"{estimate.mean:.{digits}f} ± {half:.{digits}f}"


def echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


# ---------------------------------------------------------------------- commands


def raw_option(function: F) -> F:
    """``--raw FILE``: write every row (hand or game) to a Parquet file."""
    return click.option("--raw", type=click.Path(dir_okay=False), default=None,
                        help="Also write every row to this Parquet file (needs pyarrow: "
                             "pip install -e '.[parquet]').")(function)


def write_raw(frame: Any, path: str | None) -> None:
    """Write ``frame`` as Parquet to ``path``; a missing pyarrow is a one-line error."""
    if path is None:
        return
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        fail("--raw needs pyarrow: pip install -e '.[parquet]'")
    frame.to_parquet(path, index=False)
    click.echo(f"wrote {len(frame):,} rows to {path}", err=True)


def run_summary(preset: str, overrides: tuple[str, ...], rules: Rules, seed: int,
                 a: Player, b: Player) -> dict[str, Any]:
    """The JSON keys every simulation command shares."""
    return {"seed": seed,
            "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
            "rules_fields": rules.describe(), "policy_a": format_player(a),
            "policy_b": format_player(b)}


def echo_header(what: str, seed: int, preset: str, overrides: tuple[str, ...], a: Player,
                 b: Player) -> None:
    click.echo(f"{what}, seed {seed}, rules {preset}"
               + (f" with {', '.join(overrides)}" if overrides else ""))
    click.echo(f"A: {format_player(a)}   B: {format_player(b)}")


def output_options(function: F) -> F:
    """``--out DIR`` and ``--format table|csv|json``."""
    function = click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]),
                            default="table", show_default=True, help="Terminal output format.")(
        function)
    return click.option("--out", type=click.Path(file_okay=False), default=None,
                        help="Also write the table (CSV) and chart (PNG) into this folder.")(
        function)


def study_options(function: F) -> F:
    """The options every study command shares: run, output and scheduler options."""
    return run_options(output_options(scheduler_option(function)))


def emit(frame: Any, fmt: str, columns: list[str] | None = None) -> None:
    """Print a study table as an aligned table, CSV or JSON records."""
    shown = frame if columns is None else frame[columns]
    if fmt == "csv":
        click.echo(shown.to_csv(index=False), nl=False)
    elif fmt == "json":
        click.echo(shown.to_json(orient="records", indent=2))
    else:
        click.echo(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def save_chart(out: str | None, name: str, frame: Any, draw: Callable[[Any], None],
               figsize: tuple[float, float], ncols: int = 1) -> None:
    """Write ``name``.csv and ``name``.png into ``out`` when given."""
    if out is None:
        return
    from pathlib import Path

    from ..report.figures import figure_file

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / f"{name}.csv", index=False)
    with figure_file(folder / f"{name}.png", 1, ncols, figsize) as axes:
        draw(axes)
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
