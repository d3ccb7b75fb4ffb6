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
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import click
import pandas as pd

from ..studies.answer import Answer
from ..studies.text import (
    CI_NOTE,
    table_lines,
    wrapped,
)
from .inputs import F


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


def show_answer(answer: Answer, fmt: str) -> None:
    """Print ``answer`` in ``--format`` ``fmt``: its text for a person (``table``), or its
    data (``csv``/``json``: the study's own data, else its table at full precision).  A
    stopped run's JSON is printed by the stop itself."""
    if fmt == "table":
        click.echo(answer.text())
        return
    if answer.stopped is not None:
        return
    view = answer.view
    if fmt == "json" and view.data is not None:
        echo_json(dict(view.data))
        return
    data = answer.to_frame() if view.raw is None else view.raw
    if isinstance(data, pd.DataFrame):
        echo_frame(data, fmt)
    else:
        echo_summary(dict(data), fmt)


def save_answer(answer: Answer, out: str) -> None:
    """Save ``answer`` into ``out`` with its chart drawn (:mod:`analyzer.report.charts`)."""
    from ..report.charts import figures

    drawn = figures(answer)
    folder = answer.save(out, drawn)
    click.echo(f"wrote {folder}/ ({', '.join(sorted([*answer.tables, *drawn]))})", err=True)
