"""The answer of a study: the one product every door renders.

An :class:`Answer` is what a study computed (its tables and facts, for checked inputs)
together with how long it took; what people read of it (title, body, verdict, chart
description, JSON) is its :attr:`Answer.view`, made by the study's own ``present``
function from those saved parts alone.  So an answer saved with :meth:`Answer.save` and
read back with :meth:`Answer.load` reads exactly as the fresh one, and the report, the
command line, the notebook and the web app cannot tell them apart.

A saved answer is a folder: each table as ``<name>.csv``, the chart as ``<name>.png``
when a door drew it, and ``meta.json``: the study, the command that rewrites this very
folder (``--out`` and every option that differs from its default), the seconds it took,
the inputs, the facts and each table's column types.  The writer adds the folder's
manifest (:mod:`analyzer.studies.files`) and the reader refuses a folder whose files do
not match it (:func:`analyzer.studies.reading.read_folder`), whose ``meta.json`` is not
what this version writes, or whose inputs or tables fail the study's own checks.
"""

from __future__ import annotations

import io
import json
import math
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._version import __version__
from ..core.progress import Progress
from .charts import Chart
from .files import csv_bytes, staged_folder, write_bytes
from .inputs import check_value, make_inputs, recorded
from .reading import DamagedFile, Folder, read_folder, shown_path
from .study import STUDIES, Computed, Inputs, Kind, Study, View
from .text import CI_NOTE, table_lines, wrapped

#: The file of a saved answer that says what it is.
META = "meta.json"
#: The column types a saved table may have, as ``meta.json`` records them.
_DTYPES = {"b": "bool", "i": "int", "u": "int", "f": "float", "O": "text"}


@dataclass(frozen=True, eq=False)
class Answer:
    """A study's answer (see the module's description)."""

    study: Study
    inputs: Inputs
    tables: Mapping[str, pd.DataFrame]
    facts: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    """How long computing it took (wall seconds)."""
    source: str = ""
    """Where it was read from ("" when computed in this process)."""
    result: object = None
    """The study's own result object (only in the process that computed it)."""
    rows: pd.DataFrame | None = None
    stopped: Mapping[str, Any] | None = None

    @cached_property
    def view(self) -> View:
        """The answer as people read it (the study's ``present``)."""
        return self.study.present(self)

    @property
    def title(self) -> str:
        """One line: what was measured, under which rules, between whom, the size and
        the seed."""
        return self.view.title

    @property
    def verdict(self) -> str:
        """The answer in one sentence, with its number and CI."""
        return self.view.verdict

    @property
    def chart(self) -> Chart | None:
        """The chart's description (None: the study draws none)."""
        return self.view.chart

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    def to_frame(self) -> pd.DataFrame:
        """The main table: numbers only, CI bounds as their own columns."""
        view = self.view
        return view.frame if view.frame is not None else next(iter(self.tables.values()))

    def text(self) -> str:
        """The answer as the command line prints it: the title line, the table or lines,
        the notes and the verdict, wrapped to 100 columns (or the study's own text)."""
        view = self.view
        if view.text is not None:
            return view.text
        lines = [*wrapped(view.title, indent="  "), ""]
        if isinstance(view.body, pd.DataFrame):
            lines += table_lines(view.body)
        else:
            lines += [part for line in view.body for part in wrapped(line, indent="  ")]
        notes = list(view.notes)
        if " ± " in view.verdict or any(" ± " in line for line in lines[1:]):
            notes.append(CI_NOTE)
        lines += [part for note in notes for part in wrapped(note, indent="  ")]
        if view.verdict:
            lines += ["", *wrapped(view.verdict, indent="  ")]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data: title, verdict, text, the data (or the main
        table as records), the chart's description, the run and where it came from."""
        view = self.view
        data = view.data
        if data is None:
            frame = view.raw if isinstance(view.raw, pd.DataFrame) else self.to_frame()
            data = {"rows": records(frame)} if not isinstance(view.raw, Mapping) else view.raw
        return {
            "study": self.study.name,
            "title": view.title,
            "verdict": view.verdict,
            "text": self.text(),
            **dict(data),
            "chart": None if view.chart is None else view.chart.to_dict(),
            "rules": self.inputs.rules_name,
            "seed": self.inputs.seed,
            "source": self.source or "computed now",
            "command": command_line(self.study, self.inputs),
        }

    def save(self, folder: str | Path, figures: Mapping[str, bytes] | None = None) -> Path:
        """Write the answer into ``folder`` (its tables, ``meta.json`` and the ``figures``
        a door drew, file name -> bytes): all of them or none, replacing the answer saved
        there before."""
        path = Path(folder)
        tables = {
            f"{name}.csv": csv_bytes(table, index=False) for name, table in self.tables.items()
        }
        meta = {
            "study": self.study.name,
            "command": command_line(self.study, self.inputs, out=str(folder)),
            "seconds": round(self.seconds, 1),
            "version": __version__,
            "rules": self.inputs.preset,
            "overrides": list(self.inputs.overrides),
            "seed": self.inputs.seed,
            "inputs": {
                param.name: recorded(param, self.inputs)
                for param in self.study.params
                if param.kind is not Kind.FOLDER
            },
            "facts": _plain(self.facts),
            "tables": {name: column_types(table) for name, table in self.tables.items()},
        }
        text = json.dumps(meta, indent=2, allow_nan=False) + "\n"
        with staged_folder(path):
            for name, data in {**tables, **(figures or {}), META: text.encode()}.items():
                write_bytes(path / name, data)
        return path

    @classmethod
    def load(
        cls,
        folder: str | Path,
        root: str | Path | None = None,
        own: bool = False,
        named: str | None = None,
    ) -> Answer:
        """The answer saved in ``folder`` (named relative to the results folder ``root``
        in errors, when given); :class:`~analyzer.studies.reading.DamagedFile` naming the
        file when any part is not what :meth:`save` writes.  ``own``: the staged copy
        this run is writing (see :func:`~analyzer.studies.reading.read_folder`).  Its
        source names the folder inside ``named`` (how the reader knows ``root``: the web
        app never shows a path of its disk) when given, else by its path."""
        path = Path(folder)
        base = Path(root) if root is not None else path.parent
        relative = path.relative_to(base).as_posix() if root is not None else path.name
        files = read_folder(base, relative, own)
        if named is None:
            return _loaded(files, shown_path(path))
        # the command that rewrites it names the folder as the reader knows it too, not
        # as its writer's ``--out`` spelled it (the writer's disk)
        return _loaded(files, f"{named}/{relative}", out=f"{named}/{relative}")


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON records (the CSV's columns as keys), numbers at full precision."""
    return list(json.loads(frame.to_json(orient="records", double_precision=15)))


def column_types(table: pd.DataFrame) -> dict[str, str]:
    """Each column's type as ``meta.json`` records it: bool, int, float or text."""
    return {str(name): _DTYPES.get(table[name].dtype.kind, "text") for name in table.columns}


def _plain(value: Any) -> Any:
    """``value`` as plain JSON: numpy numbers as Python ones, tuples as lists."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def command_line(study: Study, inputs: Inputs, out: str | None = None) -> str:
    """The command that computes this answer (into ``out`` when given): every option that
    differs from its default spelled out."""
    words = ["analyzer", *study.name.split()]
    if study.rules and inputs.preset != "standard":
        words += ["--rules", inputs.preset]
    for override in inputs.overrides:
        words += ["--set", override]
    for param in study.params:
        if param.kind is Kind.FOLDER or param.name in study.view:
            continue
        if param.name not in inputs.explicit:
            continue
        value = recorded(param, inputs)
        if param.kind is Kind.FLAG:
            words.append(param.flag if value else f"--no-{param.flag[2:]}")
            continue
        shown = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        words += [shown] if param.argument else [param.flag, shown]
    if inputs.seed != study.seed:
        words += ["--seed", str(inputs.seed)]
    if out is not None:
        words += ["--out", out]
    return shlex.join(words)


def run(
    study: Study, inputs: Inputs, progress: Progress | None = None, scheduler: str | None = None
) -> Answer:
    """Compute ``study``'s answer for ``inputs``."""
    started = time.perf_counter()
    computed: Computed = study.compute(inputs, progress, scheduler)
    return Answer(
        study,
        inputs,
        dict(computed.tables),
        dict(computed.facts),
        time.perf_counter() - started,
        result=computed.result,
        rows=computed.rows,
        stopped=computed.stopped,
    )


def _loaded(folder: Folder, shown: str, out: str | None = None) -> Answer:
    """The answer in the checked files of ``folder``; its source names it ``shown``, with
    the command that rewrites it: the one it was written by, or the same into ``out``."""
    meta = folder.json(META)
    where = folder.name(META)

    def damaged(problem: str) -> DamagedFile:
        return DamagedFile(folder.root, where, problem)

    expected = {"study", "command", "seconds", "version", "rules", "overrides", "seed"}
    expected |= {"inputs", "facts", "tables"}
    if not isinstance(meta, dict) or set(meta) != expected:
        found = sorted(meta) if isinstance(meta, dict) else type(meta).__name__
        raise damaged(f"must hold exactly the fields {', '.join(sorted(expected))}; has {found}")
    study = STUDIES.get(meta["study"]) if isinstance(meta["study"], str) else None
    if study is None:
        raise damaged(f"names no study of this version: {meta['study']!r}")
    seconds = meta["seconds"]
    if (
        not isinstance(seconds, (int, float))
        or isinstance(seconds, bool)
        or not (math.isfinite(seconds) and seconds >= 0)
    ):
        raise damaged(f"field 'seconds' must be a number of seconds >= 0, got {seconds!r}")
    for key in ("command", "version", "rules"):
        if not isinstance(meta[key], str):
            raise damaged(f"field {key!r} must be text, got {meta[key]!r}")
    inputs_given, tables_given = meta["inputs"], meta["tables"]
    if not isinstance(meta["overrides"], list) or not all(
        isinstance(item, str) for item in meta["overrides"]
    ):
        raise damaged("field 'overrides' must be a list of field=value texts")
    if not isinstance(meta["facts"], dict):
        raise damaged("field 'facts' must be an object")
    names = {param.name for param in study.params if param.kind is not Kind.FOLDER}
    if not isinstance(inputs_given, dict) or set(inputs_given) != names:
        raise damaged(f"field 'inputs' must name exactly {', '.join(sorted(names)) or 'nothing'}")
    try:
        for param in study.params:
            if param.kind is not Kind.FOLDER:
                check_value(param, inputs_given[param.name], study.rulebook)
        inputs = make_inputs(
            study,
            inputs_given,
            rules=meta["rules"],
            overrides=tuple(meta["overrides"]),
            seed=meta["seed"],
        )
    except (TypeError, ValueError) as error:
        raise damaged(f"its inputs are not the study's: {error}") from None
    if not isinstance(tables_given, dict) or not tables_given:
        raise damaged("field 'tables' must name the answer's tables")
    tables = {}
    for name, types in tables_given.items():
        if not isinstance(types, dict) or not all(t in _DTYPES.values() for t in types.values()):
            raise damaged(f"the column types of table {name!r} are not bool, int, float or text")
        tables[name] = _table(folder, f"{name}.csv", types)
    for name, needed in study.columns.items():
        missing = [c for c in needed if name in tables and c not in tables[name].columns]
        if name not in tables or missing:
            where = folder.name(f"{name}.csv")
            lacks = f"the column(s) {', '.join(missing)}" if missing else "the whole table"
            raise DamagedFile(folder.root, where, f"lacks {lacks} (written by another version)")
    for name, columns in study.keys.items():
        table = tables.get(name)
        if table is None or not set(columns) <= set(table.columns):
            raise damaged(f"the answer lacks its table {name!r} with the columns {columns}")
        if table.duplicated(list(columns)).any():
            raise DamagedFile(
                folder.root, folder.name(f"{name}.csv"), f"names a row twice ({', '.join(columns)})"
            )
    command = meta["command"] if out is None else command_line(study, inputs, out=out)
    source = f"{shown} (`{command}`)"
    return Answer(study, inputs, tables, meta["facts"], float(seconds), source=source)


def _table(folder: Folder, file: str, types: Mapping[str, str]) -> pd.DataFrame:
    """The table ``file`` with exactly the columns ``types`` records, each of its type
    (text read as text, numbers finite unless the column records missing values)."""
    text = folder.text(file)
    texts = {name: str for name, kind in types.items() if kind == "text"}
    try:
        table = pd.read_csv(io.StringIO(text), dtype=texts, keep_default_na=False, na_values=[""])
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        problem = " ".join(str(error).split()) or "not a CSV table"
        raise DamagedFile(folder.root, folder.name(file), problem) from None
    if list(table.columns) != list(types):
        raise DamagedFile(
            folder.root, folder.name(file), f"must have the columns {', '.join(types)}"
        )
    for name, kind in types.items():
        found = _DTYPES.get(table[name].dtype.kind, "text")
        empty = table[name].isna().all()
        if found != kind and not (empty or (kind == "float" and found == "int")):
            raise DamagedFile(
                folder.root, folder.name(file), f"column {name!r} must hold {kind} values"
            )
        if kind in ("int", "float") and np.isinf(table[name].to_numpy(dtype=float)).any():
            raise DamagedFile(folder.root, folder.name(file), f"column {name!r} is not finite")
        if kind == "float":
            table[name] = table[name].astype(float)
    return table


class NotKept(ValueError):
    """The report folder read keeps no answer for the inputs asked (see
    :func:`find_kept`)."""


def find_kept(
    study: Study, inputs: Inputs, results: Path | None = None, named: str | None = None
) -> Answer | None:
    """The kept answer of ``study`` (:attr:`Study.kept`) for ``inputs``'s rules preset in
    the report folder (``results``, else the one :mod:`analyzer.studies.store` finds);
    None when it keeps none, or when the caller asks for a run of their own (a parameter
    or the seed given other than its default: that answer is computed).  A preset whose
    hands play as another's (Hollywood: only the game scoring differs) reads that preset's
    answer.  With ``results`` given, a folder that keeps no such answer is a
    :class:`NotKept` naming it, and a run asked for at once a ``ValueError``; so is an
    opponent the study does not know (its ``covers``)."""
    from .store import find_report

    if study.kept is None:
        return None
    own = sorted(
        name
        for name in inputs.explicit
        if name not in (*study.view, *study.kept_by) and name != "results" and name != "out"
    )
    if inputs.changed or own:
        if results is not None:
            asked = ", ".join(["--set" if inputs.changed else "", *own]).strip(", ")
            raise ValueError(
                f"results: {results} is read as it is kept; {asked} ask for a run of your "
                "own: give one or the other"
            )
        return None
    for preset in [inputs.preset, *same_hands_presets(study, inputs.preset)]:
        name = kept_folder(study, inputs, preset)
        if results is None:
            found = find_report(f"{name}/{META}")
            if found is None:
                continue
            base = found.path
        elif (results / name / META).exists():
            base = results
        else:
            continue
        answer = Answer.load(base / name, base, named=named)
        if study.covers is not None and not study.covers(answer, inputs):
            if results is not None:
                raise NotKept(f"results: {base / name} keeps no answer for this opponent")
            return None
        return _shown_as(answer, inputs, preset)
    if results is not None:
        chosen = "".join(f", {name} {inputs[name]}" for name in study.kept_by)
        raise NotKept(
            f"results: {results} keeps no {study.name} answer for the {inputs.preset} rules"
            f"{chosen} (no {results / kept_folder(study, inputs, inputs.preset) / META})"
        )
    return None


def kept_folder(study: Study, inputs: Inputs, preset: str | None = None) -> str:
    """Where the report folder keeps ``study``'s answer for ``inputs`` under the rules
    ``preset`` (default: theirs): ``<kept>/<preset>``, with the value and name of each
    :attr:`~analyzer.studies.study.Study.kept_by` parameter after the preset
    (``rummy_how_to_play/standard-4-players``)."""
    assert study.kept is not None, f"{study.name} keeps no answers"
    chosen = "".join(f"-{inputs[name]}-{name}" for name in study.kept_by)
    return f"{study.kept}/{preset or inputs.preset}{chosen}"


def _shown_as(answer: Answer, inputs: Inputs, preset: str) -> Answer:
    """The kept ``answer`` (of rules ``preset``) with the view ``inputs`` ask for, under
    their rules; its source says when they are another preset's."""
    view = answer.study.view
    shown = replace(
        answer.inputs,
        values={**answer.inputs.values, **{name: inputs[name] for name in view}},
        labels={
            **answer.inputs.labels,
            **{n: inputs.labels[n] for n in view if n in inputs.labels},
        },
        rules=inputs.rules,
        rules_name=inputs.rules_name,
        preset=inputs.preset,
    )
    source = answer.source
    if preset != inputs.preset:
        theirs, ours = inputs.rules.describe(), answer.inputs.rules.describe()
        changes = ", ".join(f"{key}={value}" for key, value in theirs.items() if ours[key] != value)
        source += (
            f": {inputs.preset} changes only how games are scored ({changes}), so every hand "
            f"plays and scores as under {preset} and these are {preset}'s answers"
        )
    return replace(answer, inputs=shown, source=source)


def same_hands_presets(study: Study, preset: str) -> list[str]:
    """The other rules presets under which every hand plays and scores as under
    ``preset`` (they differ only in how games are scored)."""
    presets = study.rulebook.presets()
    if preset not in presets or not hasattr(presets[preset], "same_hands"):
        return []
    spec = presets[preset]
    return [name for name, other in presets.items() if name != preset and spec.same_hands(other)]


__all__ = [
    "META",
    "Answer",
    "NotKept",
    "column_types",
    "command_line",
    "find_kept",
    "kept_folder",
    "records",
    "run",
    "same_hands_presets",
]
