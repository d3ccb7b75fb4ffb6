"""The notebook's study functions, made from the studies' declarations as the commands
are: the same parameters, defaults and ranges, checked before any work, the same kept
answer read or the same computation run, returned as a :class:`~analyzer.api.results.Result`.

The functions themselves are written out as Python in :mod:`analyzer.api.functions` by
:func:`functions_source` (``python scripts/write_api.py``; a test keeps the file in step
with the declarations), so that type checkers and editors see each one's parameters;
each calls :func:`call` with its arguments.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.limits import MAX_RAW_UNITS, check_count
from ..studies.answer import find_kept, run
from ..studies.files import EMPTY_FOLDER, check_writable
from ..studies.inputs import make_inputs
from ..studies.study import POSITIONAL, Kind, Param, Study
from .arguments import check_progress, progress_to
from .results import Result

#: What each kind of parameter accepts, as the signature says it.
_ANNOTATIONS = {
    Kind.POLICY: "str | Policy",
    Kind.OPPONENT: "str | Policy | None",
    Kind.COUNT: "int",
    Kind.CHOICE: "str",
    Kind.THRESHOLDS: "Sequence[int]",
    Kind.PLAYERS: "Sequence[str | Policy | SearchPolicy]",
    Kind.PRESETS: "Sequence[str]",
    Kind.NUMBER: "float",
    Kind.PLAYER: "str | Policy | SearchPolicy",
    Kind.FLAG: "bool",
    Kind.SEATS: "Sequence[str | Policy] | None",
    Kind.TEXT: "str",
    Kind.FOLDER: "str | Path | None",
}


def _studies() -> Mapping[str, Study]:
    from ..studies.registry import STUDIES

    return STUDIES


def check_out(out: object) -> str | None:
    """The ``out`` folder of a notebook call, checked writable before any work (as the
    command line's ``--out`` is)."""
    if out is None:
        return None
    if not isinstance(out, (str, Path)):
        raise TypeError(f"out must be a folder (a str or a Path) or None, got {out!r}")
    if not str(out).strip():
        raise ValueError(f"out is empty: {EMPTY_FOLDER}")
    try:
        check_writable(out)
    except OSError as error:
        raise ValueError(f"out: cannot write to {out}: {error.strerror or error}") from None
    return str(out)


def call(name: str, arguments: Mapping[str, Any]) -> Result:
    """Run the study ``name`` with the notebook function's ``arguments`` (its
    ``locals()``): check them, read the kept answer or compute it, save it when ``out``
    names a folder."""
    study = _studies()[name]
    given = dict(arguments)
    progress, seed = given.pop("progress"), given.pop("seed")
    check_progress(progress)
    out = check_out(given.pop("out"))
    keep_rows = given.pop("keep_rows", False)
    if not isinstance(keep_rows, bool):
        raise TypeError(f"keep_rows must be True or False, got {keep_rows!r}")
    rules = given.pop("rules", "standard")
    inputs = make_inputs(study, given, rules=rules, seed=seed, keep_rows=keep_rows, out=out)
    if keep_rows and study.rows is not None:
        check_count(inputs[study.rows], f"{study.rows} with keep_rows=True", 1, MAX_RAW_UNITS)
    folders = [p.name for p in study.params if p.kind is Kind.FOLDER]
    results = inputs[folders[0]] if folders else None
    answer = find_kept(study, inputs, None if results is None else Path(results))
    if answer is None:
        with progress_to(progress, study.unit) as update:
            answer = run(study, inputs, update, None)
    if out is not None and answer.stopped is None:
        from ..report.charts import figures

        answer.save(out, figures(answer))
    return Result.of(answer)


# ------------------------------------------------------------- the functions' source


def _annotation(param: Param, study: Study) -> str:
    written = _ANNOTATIONS[param.kind]
    if study.rulebook.game != "gin":
        written = written.replace("Policy | SearchPolicy", "RummyPolicy").replace(
            "Policy", "RummyPolicy"
        )
    optional = param.default is None and not written.endswith("None")
    return written + (" | None" if optional else "")


def _default(param: Param) -> str:
    value = param.default
    if isinstance(value, range):
        value = tuple(value)
    return repr(value)


def _docstring(study: Study) -> str:
    lines = [f"{study.summary} {study.description}", ""]
    for param in study.params:
        bounds = f" ({int(param.low):,}-{int(param.high):,})" if param.kind is Kind.COUNT else ""
        lines.append(f"{param.name}: {param.help}{bounds}")
    if study.rows is not None:
        lines.append(
            f"keep_rows: keep every row played (``.rows``); at most {MAX_RAW_UNITS:,} {study.rows}."
        )
    lines.append("out: save the answer in this folder (tables, chart, meta.json), or None.")
    lines += [
        "",
        (
            f"As ``analyzer {study.name}`` prints it: ``.title``, ``.text()``, "
            f"``.to_frame()``, ``.plot()``. {study.notebook}"
        ),
    ]
    wrapped = [textwrap.fill(line, 88) if line else "" for line in lines]
    return textwrap.indent('"""' + "\n".join(wrapped).strip() + '\n"""', "    ")


def function_source(study: Study) -> str:
    """The Python source of ``study``'s notebook function."""
    players = [
        p for p in study.params if (p.kind in POSITIONAL or p.argument) and not p.keyword_only
    ]
    others = [p for p in study.params if p not in players]
    rules_type = "Rules" if study.rulebook.game == "gin" else "RummyRules"
    parts = [f"{p.name}: {_annotation(p, study)} = {_default(p)}" for p in players]
    if study.rules:
        parts.append(f'rules: str | {rules_type} = "standard"')
    parts.append("*")
    parts += [f"{p.name}: {_annotation(p, study)} = {_default(p)}" for p in others]
    if study.rows is not None:
        parts.append("keep_rows: bool = False")
    parts += ["out: str | Path | None = None", f"seed: int = {study.seed}"]
    parts.append("progress: ProgressLike = None")
    signature = "".join(f"    {part},\n" for part in parts)
    return (
        f"def {study.function_name}(\n{signature}) -> Result:\n{_docstring(study)}\n"
        "    arguments = dict(locals())\n"
        "    from .study_functions import call\n\n"
        f"    return call({study.name!r}, arguments)\n"
    )


_HEADER = '''"""The notebook's study functions, one per study declaration: written by
``python scripts/write_api.py`` from the declarations (do not edit; a test keeps this file
in step).  Each checks its arguments as the command line does, reads the kept answer or
computes it, and returns a :class:`~analyzer.api.results.Result`; importing it loads no
study."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..gin.model.policies import Policy
    from ..gin.model.rules import Rules
    from ..gin.play.players import SearchPolicy
    from ..rummy.policies import RummyPolicy
    from ..rummy.rules import RummyRules
    from .arguments import ProgressLike
    from .results import Result
'''


def functions_source() -> str:
    """The whole source of :mod:`analyzer.api.functions`."""
    studies = sorted(_studies().values(), key=lambda study: study.function_name)
    names = "".join(f'    "{study.function_name}",\n' for study in studies)
    bodies = "\n\n".join(function_source(study) for study in studies)
    return f"{_HEADER}\n\n{bodies}\n\n__all__ = [\n{names}]\n"


__all__ = ["call", "check_out", "function_source", "functions_source"]
