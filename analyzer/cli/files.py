"""The files a command writes: the ``--out`` folder and ``--raw`` Parquet options, checked
writable before any work starts, and the writing of the rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..core.limits import MAX_RAW_UNITS
from ..studies.files import EMPTY_FOLDER, check_writable, removed_on_failure, write_with
from .inputs import F, fail


def raw_option(function: F) -> F:
    """``--raw FILE``: write every row (hand or game) to a Parquet file."""
    return click.option(
        "--raw",
        type=click.Path(dir_okay=False),
        default=None,
        callback=_check_raw_path,
        help="Also write every row to this Parquet file (needs pyarrow: "
        "pip install -e '.[parquet]'); at most "
        f"{MAX_RAW_UNITS:,} deals or games.",
    )(function)


def _check_raw_path(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> str | None:
    if value is None:
        return None
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise click.BadParameter("needs pyarrow: pip install -e '.[parquet]'") from None
    return check_file_path(context, parameter, value)


def check_file_path(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> str | None:
    """Click callback of a file option (``--raw``, ``--checkpoint``): a file name, in a
    folder that can be created and written (checked as ``--out``'s is)."""
    if value is not None:
        path = Path(value)
        if path.is_dir():
            raise click.BadParameter(f"{value} is a folder, expected a file name")
        _probe_folder(path.parent if str(path.parent) else Path("."), parameter)
    return value


def _probe_folder(folder: Path, parameter: click.Parameter) -> None:
    try:
        check_writable(folder)
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.BadParameter(f"cannot write to {folder}: {reason}", param=parameter) from None


def check_out_folder(
    context: click.Context, parameter: click.Parameter, value: str | Path | None
) -> str | Path | None:
    """Click callback of an ``--out`` folder: it must be named, creatable and writable,
    checked before the command starts (and left as it was until the results are
    written).  An empty name would mean the current folder, which no one asks for."""
    if value is not None:
        if not str(value).strip():
            raise click.BadParameter(f"is empty: {EMPTY_FOLDER}", param=parameter)
        _probe_folder(Path(value), parameter)
    return value


def _check_out_path(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> Path | None:
    """:func:`check_out_folder` for commands that take the folder as a ``Path``."""
    checked = check_out_folder(context, parameter, value)
    return None if checked is None else Path(checked)


def out_option(
    help_text: str, *, dest: str = "out", default: str | None = None, as_path: bool = False
) -> Any:
    """``--out DIR``, a folder checked writable before the command starts
    (:func:`check_out_folder`); the command receives it as ``dest`` (a ``Path`` with
    ``as_path``)."""
    return click.option(
        "--out",
        dest,
        type=click.Path(file_okay=False),
        default=default,
        show_default=default is not None,
        callback=_check_out_path if as_path else check_out_folder,
        help=help_text,
    )


def check_raw_count(raw: str | None, count: int, unit: str) -> None:
    """Refuse ``--raw`` (which keeps every row) for runs whose rows would not fit the
    stated memory."""
    if raw is not None and count > MAX_RAW_UNITS:
        fail(f"--raw keeps every row in memory: at most {MAX_RAW_UNITS:,} {unit}, got {count:,}")


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
