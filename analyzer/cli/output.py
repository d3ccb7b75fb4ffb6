"""What the CLI prints and draws: formats, tables, summaries, headers and charts."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import Rules
from ..gin.play.players import Player, format_player
from ..report.files import csv_bytes, removed_on_failure, write_together
from .files import check_out_folder
from .inputs import F
from .progress import MAX_WIDTH

if TYPE_CHECKING:
    from ..core.stats import Estimate


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


def run_summary(
    preset: str, overrides: tuple[str, ...], rules: Rules, seed: int, a: Player, b: Player
) -> dict[str, Any]:
    """The JSON keys every simulation command shares."""
    return {
        "seed": seed,
        "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
        "rules_fields": rules.describe(),
        "policy_a": player_form(a),
        "policy_b": player_form(b),
    }


def player_form(player: Player) -> str:
    """The full string form of a player: a policy's every field
    (:func:`analyzer.gin.model.policies.format_policy`), or the search player's parts."""
    return format_policy(player) if isinstance(player, Policy) else format_player(player)


def echo_header(
    what: str, seed: int, preset: str, overrides: tuple[str, ...], a: Player, b: Player
) -> None:
    click.echo(
        f"{what}, seed {seed}, rules {preset}"
        + (f" with {', '.join(overrides)}" if overrides else "")
    )
    click.echo(f"A: {format_player(a)}   B: {format_player(b)}")


FORMATS = ("table", "csv", "json")


def format_options(function: F) -> F:
    """``--format table|csv|json`` and its alias ``--json``; the command receives one
    ``fmt`` argument."""

    @functools.wraps(function)
    def run(*args: Any, fmt: str, as_json: bool, **kwargs: Any) -> Any:
        return function(*args, fmt="json" if as_json else fmt, **kwargs)

    run = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(run)
    return cast(
        F,
        click.option(
            "--format",
            "fmt",
            type=click.Choice(FORMATS),
            default="table",
            show_default=True,
            help="Terminal output format.",
        )(run),
    )


def output_options(function: F) -> F:
    """``--out DIR`` and ``--format table|csv|json`` (``--json``)."""
    function = format_options(function)
    return click.option(
        "--out",
        type=click.Path(file_okay=False),
        default=None,
        callback=check_out_folder,
        help="Write the table (CSV) and chart (PNG) into this folder "
        "(checked writable before the run; default: write nothing).",
    )(function)


def emit(frame: Any, fmt: str, columns: list[str] | None = None) -> None:
    """Print a study table as an aligned table (wrapped into blocks of columns that fit
    :data:`MAX_WIDTH`), CSV or JSON records."""
    shown = frame if columns is None else frame[columns]
    if fmt == "csv":
        click.echo(shown.to_csv(index=False), nl=False)
    elif fmt == "json":
        click.echo(shown.to_json(orient="records", indent=2))
    else:
        text = shown.to_string(index=False, float_format=lambda v: f"{v:.3f}", line_width=MAX_WIDTH)
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
    cells = {
        (int(r.turn), int(r.deadwood)): marks[r.verdict] if r.n >= min_samples else " "
        for r in chart.itertuples()
    }
    lines = ["own turn   deadwood " + " ".join(f"{d:>2}" for d in range(1, 11))]
    for turn in range(1, MAX_TURN + 1):
        label = f"{turn}+" if turn == MAX_TURN else str(turn)
        row = " ".join(f"{cells.get((turn, d), ' '):>2}" for d in range(1, 11))
        lines.append(f"{label:>8}            {row}".rstrip())
    lines.append(
        f"K knock now, P play on (95% CI excludes 0), · too close to call, blank: "
        f"under {min_samples} states"
    )
    return lines


def save_chart(
    out: str | None,
    name: str,
    frame: Any,
    draw: Callable[[Any], None],
    figsize: tuple[float, float],
    ncols: int = 1,
    *,
    title: str,
    caption: str,
    sharey: bool = False,
    tables: Mapping[str, Any] | None = None,
) -> None:
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
    files = {
        folder / f"{name}.csv": csv_bytes(frame, index=False),
        folder / f"{name}.png": drawn.png,
        **{folder / file: csv_bytes(table, index=False) for file, table in (tables or {}).items()},
    }
    with removed_on_failure():
        write_together(files)
    click.echo(f"wrote {folder / name}.csv and .png", err=True)
