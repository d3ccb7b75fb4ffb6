"""Reading back what the analyzer wrote: the files of a results folder (CSV tables and
``meta.json``) and the text of a checkpoint, each checked as it is read.

A folder is read whole (:func:`read_folder`): every file its manifest names
(:data:`~analyzer.studies.files.MANIFEST`), each checked against its SHA-256, so that the
files read are one run's; a folder that a killed run left half moved is first finished
(:func:`~analyzer.studies.files.finish_moves`), and one whose files still do not match
(another run's file copied in, a file changed or missing) is refused, naming the file.

A file that cannot be what the analyzer wrote (larger than the limit of
:mod:`analyzer.core.limits`, not UTF-8, empty, not JSON, a field missing or of the wrong
type, a CSV without its columns or with a bad value) raises :class:`DamagedFile`, a
``ValueError`` naming the file: the command line prints it as one ``Error:`` line (exit
status 2), the notebook API raises it, and the web app answers with a JSON error naming
the file relative to the results folder (:meth:`DamagedFile.public`), never a path of the
server's disk.
"""

from __future__ import annotations

import io
import json
import math
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.limits import MAX_RESULTS_FILE_BYTES, check_count, check_seed, load_json, read_file
from ..gin.studies.exploit import parse_table
from .files import MANIFEST, file_hash, finish_moves


def shown_path(path: Path) -> str:
    """``path`` as a person at this prompt would type it: relative to the current folder
    when inside it, else absolute."""
    path = path.absolute()
    return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


class DamagedFile(ValueError):
    """A file of a results folder that does not hold what the analyzer writes there."""

    def __init__(self, root: Path, name: str, problem: str) -> None:
        self.name = name
        """The file, relative to the results folder ``root``."""
        self.problem = problem
        super().__init__(f"damaged file {shown_path(root / name)}: {problem}")

    def public(self) -> str:
        """The error without the results folder's place on disk (for the web app)."""
        return f"damaged results file {self.name}: {self.problem}"


def _text(root: Path, name: str) -> str:
    try:
        return read_file(root / name, MAX_RESULTS_FILE_BYTES, "the file")
    except ValueError as error:
        raise DamagedFile(root, name, str(error)) from None
    except OSError as error:
        raise DamagedFile(root, name, f"cannot be read ({error.strerror or error})") from None


# ------------------------------------------------------------------------- whole folders


@dataclass(frozen=True)
class Folder:
    """The files of one folder of a results folder, read together and checked against
    their manifest (:func:`read_folder`)."""

    root: Path
    """The results folder (files are named relative to it in errors)."""
    path: str
    """The folder, relative to :attr:`root` ("" for the root itself)."""
    files: Mapping[str, bytes]
    """Each file the manifest names, by name."""

    def name(self, file: str) -> str:
        """``file`` as errors name it: relative to :attr:`root`."""
        return f"{self.path}/{file}" if self.path else file

    def text(self, file: str) -> str:
        """The file ``file`` as UTF-8 text; :class:`DamagedFile` when absent or not text."""
        if file not in self.files:
            raise DamagedFile(
                self.root, self.name(file), "is missing (not in the folder's manifest)"
            )
        try:
            return self.files[file].decode("utf-8")
        except UnicodeDecodeError:
            raise DamagedFile(self.root, self.name(file), "is not UTF-8 text") from None

    def json(self, file: str) -> Any:
        """The JSON value in ``file``."""
        try:
            return load_json(self.text(file), "the file")
        except ValueError as error:
            if isinstance(error, DamagedFile):
                raise
            raise DamagedFile(self.root, self.name(file), str(error)) from None

    def table(
        self, file: str, columns: Mapping[str, str], optional: Mapping[str, str] | None = None
    ) -> pd.DataFrame:
        """The CSV table ``file``, checked as :func:`read_table` checks it."""
        return parse_csv(self.root, self.name(file), self.text(file), columns, optional)


def _file_bytes(root: Path, name: str) -> bytes:
    path = root / name
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            raise DamagedFile(root, name, "is not a regular file")
        if status.st_size > MAX_RESULTS_FILE_BYTES:
            raise DamagedFile(root, name, f"is larger than {MAX_RESULTS_FILE_BYTES:,} bytes")
        return path.read_bytes()
    except FileNotFoundError:
        raise DamagedFile(root, name, "is missing") from None
    except OSError as error:
        raise DamagedFile(root, name, f"cannot be read ({error.strerror or error})") from None


def _manifest(root: Path, folder: str) -> dict[str, str]:
    """The files (name -> SHA-256) the manifest of ``root/folder`` names."""
    name = f"{folder}/{MANIFEST}" if folder else MANIFEST
    if not (root / name).exists():
        raise DamagedFile(
            root,
            name,
            "is missing: the folder was not written whole by the analyzer (run its command again)",
        )
    try:
        data = load_json(_file_bytes(root, name).decode("utf-8", "replace"), "the file")
    except ValueError as error:
        raise DamagedFile(root, name, str(error)) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not isinstance(data.get("run"), str):
        raise DamagedFile(root, name, "must hold a run id and an object of file hashes")
    for file, digest in files.items():
        plain = file not in ("", ".", "..", MANIFEST) and "/" not in file and "\\" not in file
        if not plain or not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
            raise DamagedFile(root, name, f"names {_shown(file)} with {_shown(digest)}")
    return files


_SHA256 = re.compile(r"[0-9a-f]{64}")


def read_folder(root: Path, folder: str = "", own: bool = False) -> Folder:
    """Every file the manifest of ``root/folder`` names, each matching its hash: one
    run's files.  A move that a killed run left part way is finished first, once;
    :class:`DamagedFile` names the first file that still does not match.  ``own``: the
    folder is the staged copy this very run is writing (no manifest yet): every file."""
    if own:
        path = root / folder
        names = sorted(entry.name for entry in path.iterdir() if entry.is_file())
        files = {name: _file_bytes(root, f"{folder}/{name}" if folder else name) for name in names}
        return Folder(root, folder, files)
    try:
        return _checked_folder(root, folder)
    except DamagedFile:
        finish_moves(root / folder)  # a move a killed run left part way: finish it, once
        return _checked_folder(root, folder)


def _checked_folder(root: Path, folder: str) -> Folder:
    """Every file the manifest of ``root/folder`` names, each matching its hash."""
    found: dict[str, bytes] = {}
    for file, digest in sorted(_manifest(root, folder).items()):
        name = f"{folder}/{file}" if folder else file
        if not (root / name).exists():
            raise DamagedFile(root, name, "is missing (the folder's manifest names it)")
        data = _file_bytes(root, name)
        if file_hash(data) != digest:
            raise DamagedFile(
                root,
                name,
                "does not match the folder's manifest (another run's file, or changed since "
                "it was written)",
            )
        found[file] = data
    return Folder(root, folder, found)


# ------------------------------------------------------------------------- meta.json

#: A check of one field of a JSON object: the value, or ``TypeError``/``ValueError``
#: naming the field (its second argument).
Check = Callable[[object, str], object]


def text_field(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be text, got {_shown(value)}")
    return value


def count_field(value: object, name: str) -> int:
    return check_count(value, name, 0)


def names_field(value: object, name: str) -> dict[str, str]:
    """An object of texts (the knock sweep's opponents: name -> policy)."""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise TypeError(f"{name} must be an object of texts, got {_shown(value)}")
    return value


#: The fields of every ``meta.json`` the report and ``when-to-knock --out`` write.
META_FIELDS: dict[str, Check] = {"command": text_field, "seed": check_seed}


def read_meta(root: Path, name: str, fields: Mapping[str, Check] = META_FIELDS) -> dict[str, Any]:
    """The object in ``root/name`` (a ``meta.json``) with each of ``fields`` present and
    checked (key -> check); empty when the file is missing."""
    if not (root / name).is_file():
        return {}
    text = _text(root, name)
    try:
        data = load_json(text, "the file")
    except ValueError as error:
        raise DamagedFile(root, name, str(error)) from None
    if not isinstance(data, dict):
        raise DamagedFile(root, name, f"must hold a JSON object, got {_shown(data)}")
    for key, check in fields.items():
        if key not in data:
            raise DamagedFile(root, name, f"has no field {key!r}")
        try:
            check(data[key], f"field {key!r}")
        except (TypeError, ValueError) as error:
            raise DamagedFile(root, name, str(error)) from None
    return data


def _shown(value: object) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------------------- CSV tables

#: The kinds of a CSV column: what it must hold.
TEXT = "text"
NUMBER = "numbers"
NUMBER_OR_NOTHING = "numbers or nothing"  # a CI bound left empty where too few samples
INTEGER = "whole numbers"
COUNT = "whole numbers >= 0"
FLAG = "True or False"
KNOCK_TABLE = "knock tables"


def _bad_rows(column: pd.Series, kind: str) -> pd.Series:
    """Which cells of ``column`` (as pandas read it) are not of ``kind``."""
    if kind in (TEXT, KNOCK_TABLE):
        bad = column.isna() | column.astype(str).str.strip().eq("")
        return bad | ~column.map(_is_knock_table) if kind == KNOCK_TABLE else bad
    if kind == FLAG:
        return ~column.map(lambda cell: isinstance(cell, (bool, np.bool_)))
    if column.dtype.kind not in "iuf":  # text or True/False in it: those cells
        return pd.to_numeric(column, errors="coerce").isna() | column.map(
            lambda cell: isinstance(cell, (bool, np.bool_))
        )
    values = column.astype(float)
    bad = ~values.map(math.isfinite)
    if kind == NUMBER_OR_NOTHING:
        return bad & ~values.isna()
    if kind in (INTEGER, COUNT):
        bad |= values.map(lambda v: math.isfinite(v) and not v.is_integer())
        if not bad.any() and column.dtype.kind == "f":
            bad |= True  # 1000.0: the analyzer writes whole numbers as 1000
    return bad | (values < 0) if kind == COUNT else bad


def _is_knock_table(cell: object) -> bool:
    """A knock table as :func:`~analyzer.gin.studies.exploit.table_text` writes it, each
    threshold a deadwood of 0-10."""
    try:
        return all(0 <= threshold <= 10 for threshold in parse_table(str(cell)))
    except ValueError:
        return False


def read_table(
    root: Path, name: str, columns: Mapping[str, str], optional: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """The CSV table ``root/name`` as pandas reads it (numbers parsed as ever; columns of
    :data:`TEXT` kept as text), checked by :func:`check_table`."""
    return parse_csv(root, name, _text(root, name), columns, optional)


def parse_csv(
    root: Path,
    name: str,
    text: str,
    columns: Mapping[str, str],
    optional: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """The CSV ``text`` of ``root/name`` as a table, checked by :func:`check_table`."""
    expected = {**columns, **(optional or {})}
    texts = {column: str for column, kind in expected.items() if kind in (TEXT, KNOCK_TABLE)}
    try:
        table = pd.read_csv(io.StringIO(text), dtype=texts)
    except pd.errors.EmptyDataError:
        raise DamagedFile(root, name, "the file is empty") from None
    except (ValueError, pd.errors.ParserError) as error:
        problem = " ".join(str(error).split())
        raise DamagedFile(root, name, f"not a CSV table ({problem})") from None
    return check_table(root, name, table, columns, optional)


def check_table(
    root: Path,
    name: str,
    table: pd.DataFrame,
    columns: Mapping[str, str],
    optional: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """``table`` (read from ``root/name``) when it has at least one row, each of
    ``columns`` (name -> kind: :data:`TEXT`, :data:`NUMBER`, ...) with every cell of its
    kind, and each of the ``optional`` columns it has likewise; else :class:`DamagedFile`
    naming the first column or cell that is not."""
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise DamagedFile(root, name, f"lacks the column(s) {', '.join(missing)}")
    if table.empty:
        raise DamagedFile(root, name, "has no rows")
    for column, kind in {**columns, **(optional or {})}.items():
        if column not in table.columns:
            continue
        bad = _bad_rows(table[column], kind)
        if bad.any():
            row = int(bad.to_numpy().argmax())
            cell = table[column].iloc[row]
            raise DamagedFile(
                root,
                name,
                f"column {column!r} must hold {kind}; row {row + 1} has {_cell_text(cell)}",
            )
    return table


def _cell_text(cell: Any) -> str:
    """A cell as the file has it: ``nothing``, ``'text'``, ``800.5``, ``True``."""
    if pd.isna(cell):
        return "nothing"
    return repr(cell.item() if isinstance(cell, np.generic) else cell)


def one_value(root: Path, name: str, table: pd.DataFrame, column: str) -> Any:
    """The value every row of ``table`` (read from ``root/name``) has in ``column``."""
    values = table[column].unique()
    if len(values) != 1:
        raise DamagedFile(
            root, name, f"column {column!r} must hold one value, got {', '.join(map(str, values))}"
        )
    return values[0]


__all__ = [
    "COUNT",
    "FLAG",
    "INTEGER",
    "KNOCK_TABLE",
    "META_FIELDS",
    "NUMBER",
    "NUMBER_OR_NOTHING",
    "TEXT",
    "DamagedFile",
    "Folder",
    "check_table",
    "count_field",
    "names_field",
    "one_value",
    "parse_csv",
    "read_folder",
    "read_meta",
    "read_table",
    "shown_path",
    "text_field",
]
