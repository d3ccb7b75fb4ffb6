"""What the CLI prints and draws: formats, tables, summaries, headers and charts.

Every command prints its result through :func:`show_result`: a title line
(:func:`title_text`: what, rules, who plays whom, deals, seed), the table (cells written
with :func:`plus_minus`, one CI style everywhere: ``x ± h``), and a verdict sentence;
``--format csv|json`` (:func:`format_options`) prints the raw data instead."""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click
import pandas as pd

from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import Rules
from ..gin.play.players import Player, format_player
from ..report.files import csv_bytes, write_together
from .files import check_out_folder
from .inputs import F
from .progress import MAX_WIDTH

if TYPE_CHECKING:
    from ..core.stats import Estimate


def plus_minus(
    mean: float, half: float, digits: int = 2, *, sign: bool = False, percent: bool = False
) -> str:
    """A value and the half-width of its 95% CI, written the one way every table of the
    CLI writes it: ``x ± h`` (``+x ± h`` with ``sign``; both as percentages with
    ``percent``, e.g. ``41.6% ± 1.1%``).

    >>> plus_minus(0.0951, 0.064), plus_minus(0.416, 0.011, 1, percent=True)
    ('0.10 ± 0.06', '41.6% ± 1.1%')
    """
    scale, unit = (100.0, "%") if percent else (1.0, "")
    signed = "+" if sign else ""
    return f"{mean * scale:{signed}.{digits}f}{unit} ± {half * scale:.{digits}f}{unit}"


def interval_text(
    mean: float,
    low: float,
    high: float,
    digits: int = 2,
    *,
    sign: bool = False,
    percent: bool = False,
) -> str:
    """:func:`plus_minus` of a 95% CI given by its ends (``h`` is half its width)."""
    return plus_minus(mean, (high - low) / 2, digits, sign=sign, percent=percent)


def interval_column(frame: pd.DataFrame, name: str) -> list[str]:
    """Column ``name`` of ``frame`` with its ``_low`` and ``_high`` bounds as signed
    ``x ± h`` texts."""
    return [
        interval_text(m, lo, hi, sign=True)
        for m, lo, hi in zip(frame[name], frame[f"{name}_low"], frame[f"{name}_high"], strict=True)
    ]


def estimate_text(
    estimate: Estimate, digits: int = 3, *, sign: bool = False, percent: bool = False
) -> str:
    """An :class:`~analyzer.core.stats.Estimate` as ``mean ± half-width`` of its 95% CI."""
    return interval_text(
        estimate.mean, estimate.low, estimate.high, digits, sign=sign, percent=percent
    )


def rules_text(preset: str, overrides: tuple[str, ...] = ()) -> str:
    """The rules a run used: ``standard``, or ``standard with knock_limit=7``."""
    return preset + (f" with {', '.join(overrides)}" if overrides else "")


def title_text(
    what: str,
    *,
    rules: str | None = None,
    players: str | None = None,
    size: str | None = None,
    seed: int | None = None,
) -> str:
    """A command's title line: what the table is, then each given part, joined by
    `` · ``, e.g. ``Knock threshold sweep · rules standard · basic against expert ·
    5,000 deals per threshold · seed 1``."""
    parts = [
        what,
        None if rules is None else f"rules {rules}",
        players,
        size,
        None if seed is None else f"seed {seed}",
    ]
    return " · ".join(part for part in parts if part)


#: The legend under every table that writes a CI.
CI_NOTE = "x ± h: the estimate x and the half-width h of its 95% confidence interval."

#: A cell that reads as a number (with its unit, sign, ``± h`` or ``%``): right-aligned.
_NUMBER_CELL = re.compile(r"^[-+−]?[\d.,]+(e[-+]\d+)?%?( ± [\d.,]+(e[-+]\d+)?%?)?[*]?$|^-?$|^best$")


def table_lines(table: pd.DataFrame, width: int = MAX_WIDTH) -> list[str]:
    """``table`` as aligned text, two spaces between columns: numbers right-aligned, words
    left-aligned.  A table wider than ``width`` is cut into blocks of columns, each
    repeating the first column, one after the other."""
    cells = table.astype(str)
    right = {
        column: all(_NUMBER_CELL.match(value) for value in cells[column])
        for column in cells.columns
    }
    widths = {
        column: max([len(str(column)), *(len(value) for value in cells[column])])
        for column in cells.columns
    }

    def block_lines(block: list[Any]) -> list[str]:
        def line(values: list[str]) -> str:
            return "  ".join(
                value.rjust(widths[c]) if right[c] else value.ljust(widths[c])
                for c, value in zip(block, values, strict=True)
            ).rstrip()

        rows = [line([str(c) for c in block])]
        rows += [line([cells.at[i, c] for c in block]) for i in cells.index]
        return rows

    blocks: list[list[Any]] = [[]]
    for column in cells.columns:
        trial = blocks[-1] + [column]
        if blocks[-1] and sum(widths[c] + 2 for c in trial) - 2 > width:
            blocks.append([cells.columns[0], column])
        else:
            blocks[-1] = trial
    lines: list[str] = []
    for number, block in enumerate(blocks):
        lines += ([""] if number else []) + block_lines(block)
    return lines


def wrapped(text: str, width: int = MAX_WIDTH, indent: str = "") -> list[str]:
    """``text`` broken into lines of at most ``width`` columns, the later lines indented
    by ``indent``."""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False
    ) or [""]


def show_result(
    fmt: str,
    title: str,
    body: pd.DataFrame | Sequence[str],
    verdict: str,
    raw: pd.DataFrame | Mapping[str, Any] | None = None,
    notes: Sequence[str] = (),
) -> None:
    """Print a command's result in ``--format`` ``fmt``.  The one printer of every command.

    ``table``: the ``title`` line, a blank line, ``body`` (a table of ready-made cells,
    numbers written with :func:`plus_minus`, laid out by :func:`table_lines`; or lines of
    text), the ``notes`` (legend lines), a blank line and the ``verdict``: the answer in
    one sentence with its number and CI.  Title, notes and verdict are wrapped to
    :data:`MAX_WIDTH` columns.

    ``csv`` and ``json``: the ``raw`` data (``body`` when omitted), every column at full
    precision, and no title or verdict: a table as CSV rows or a JSON list of records
    with the same keys; a mapping (a run summary) as one JSON object or as ``key,value``
    CSV rows, nested keys joined with dots.
    """
    data = body if raw is None else raw
    if fmt != "table":
        if isinstance(data, pd.DataFrame):
            echo_frame(data, fmt)
        elif isinstance(data, Mapping):
            echo_summary(dict(data), fmt)
        else:
            raise TypeError("show_result needs raw data (a table or a mapping) for csv/json")
        return
    lines = [*wrapped(title, indent="  "), ""]
    if isinstance(body, pd.DataFrame):
        lines += table_lines(body)
    else:
        lines += [part for line in body for part in wrapped(line, indent="  ")]
    if " ± " in verdict or any(" ± " in line for line in lines[1:]):
        notes = [*notes, CI_NOTE]
    lines += [part for note in notes for part in wrapped(note, indent="  ")]
    if verdict:
        lines += ["", *wrapped(verdict, indent="  ")]
    click.echo("\n".join(lines))


def label_lines(rows: list[tuple[str, str]]) -> list[str]:
    """``label:  value`` lines, the values aligned after the longest label."""
    width = max(len(label) for label, _ in rows) + 2
    return [f"{label + ':':<{width}}{value}" for label, value in rows]


def echo_frame(frame: pd.DataFrame, fmt: str) -> None:
    """A table as CSV, or as a JSON list of records (the CSV's columns as keys), every
    number at full precision."""
    if fmt == "csv":
        click.echo(frame.to_csv(index=False), nl=False)
    else:
        records = json.loads(frame.to_json(orient="records", double_precision=15))
        click.echo(json.dumps(records, indent=2))  # keys in the CSV's column order


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


def echo_summary(summary: dict[str, Any], fmt: str) -> None:
    """A run summary as one JSON object, or as ``key,value`` CSV rows (nested keys
    joined with dots; a list as its JSON text, quoted)."""
    if fmt == "json":
        echo_json(summary)
        return
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["key", "value"])
    for key, value in _flatten(summary):
        writer.writerow([key, json.dumps(value) if isinstance(value, list) else value])
    click.echo(buffer.getvalue(), nl=False)


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
        f"{name}.csv": csv_bytes(frame, index=False),
        f"{name}.png": drawn.png,
        **{file: csv_bytes(table, index=False) for file, table in (tables or {}).items()},
    }
    write_together(folder, files)
    click.echo(f"wrote {folder / name}.csv and .png", err=True)
