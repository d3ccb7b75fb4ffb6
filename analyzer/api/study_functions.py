"""The notebook's study functions, made from the studies' declarations as the commands
are: the same parameters, defaults and ranges, checked before any work, the same kept
answer read or the same computation run, returned as a :class:`~analyzer.api.results.Result`.

The functions are made at import (:mod:`analyzer.api.functions`), each with its
signature and help from its declaration; their typed signatures for type checkers and
editors are written out in ``analyzer/api/functions.pyi`` by :func:`stub_source`
(``python scripts/write_api.py``; a test keeps the file in step with the declarations).
Each calls :func:`call` with its arguments.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
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
    # out= saves an answer computed now, never a copy of a kept one
    answer = (
        None
        if out is not None
        else find_kept(study, inputs, None if results is None else Path(results))
    )
    if answer is None:
        with progress_to(progress, study.unit) as update:
            answer = run(study, inputs, update, None)
    if out is not None and answer.stopped is None:
        from ..report.charts import figures

        answer.save(out, figures(answer))
    return Result.of(answer)


# ------------------------------------------------------------- the functions


def _annotation(param: Param, study: Study) -> str:
    written = _ANNOTATIONS[param.kind]
    if study.rulebook.game != "gin":
        written = written.replace("Policy | SearchPolicy", "RummyPolicy").replace(
            "Policy", "RummyPolicy"
        )
    optional = param.default is None and not written.endswith("None")
    return written + (" | None" if optional else "")


def _default(param: Param) -> Any:
    return tuple(param.default) if isinstance(param.default, range) else param.default


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
    lines.append(
        f"As ``analyzer {study.name}`` prints it: ``.title``, ``.text()``, ``.to_frame()``, "
        f"``.plot()``. {study.notebook}"
    )
    return "\n".join(lines)


def signature(study: Study) -> inspect.Signature:
    """``(players..., rules="standard", *, other parameters..., out=None, seed=2026,
    progress=None)``, annotations as text (no ``rules`` for a study that is not played
    under one set of rules)."""
    players = [
        p for p in study.params if (p.kind in POSITIONAL or p.argument) and not p.keyword_only
    ]
    others = [p for p in study.params if p not in players]
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    rules = "Rules" if study.rulebook.game == "gin" else "RummyRules"

    def made(param: Param, kind: Any) -> inspect.Parameter:
        return inspect.Parameter(
            param.name, kind, default=_default(param), annotation=_annotation(param, study)
        )

    parameters = [made(p, positional) for p in players]
    if study.rules:
        parameters.append(
            inspect.Parameter("rules", positional, default="standard", annotation=f"str | {rules}")
        )
    parameters += [made(p, keyword) for p in others]
    if study.rows is not None:
        parameters.append(inspect.Parameter("keep_rows", keyword, default=False, annotation="bool"))
    parameters += [
        inspect.Parameter("out", keyword, default=None, annotation="str | Path | None"),
        inspect.Parameter("seed", keyword, default=study.seed, annotation="int"),
        inspect.Parameter("progress", keyword, default=None, annotation="ProgressLike"),
    ]
    return inspect.Signature(parameters, return_annotation="Result")


def study_function(study: Study) -> Callable[..., Result]:
    """The notebook function of ``study``: its :func:`signature`, its help, and
    :func:`call`."""
    declared = signature(study)

    def function(*args: Any, **kwargs: Any) -> Result:
        bound = declared.bind(*args, **kwargs)
        bound.apply_defaults()
        return call(study.name, bound.arguments)

    function.__name__ = function.__qualname__ = study.function_name
    function.__module__ = "analyzer.api"
    function.__doc__ = _docstring(study)
    function.__signature__ = declared  # type: ignore[attr-defined]
    return function


_STUB_HEADER = '''"""What type checkers and editors see of :mod:`analyzer.api.functions` (the notebook's
study functions, made at import from the studies' declarations): written by
``python scripts/write_api.py`` (do not edit; a test keeps this file in step)."""

from collections.abc import Sequence
from pathlib import Path

from ..gin.model.policies import Policy
from ..gin.model.rules import Rules
from ..gin.play.players import SearchPolicy
from ..rummy.policies import RummyPolicy
from ..rummy.rules import RummyRules
from .arguments import ProgressLike
from .results import Result
'''


def _unquoted(declared: inspect.Signature) -> str:
    """The signature as Python source (its annotations are kept as text)."""
    parts, starred = [], False
    for parameter in declared.parameters.values():
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and not starred:
            parts.append("*")
            starred = True
        parts.append(f"{parameter.name}: {parameter.annotation} = {parameter.default!r}")
    return f"({', '.join(parts)}) -> {declared.return_annotation}"


def stub_source() -> str:
    """The whole stub :file:`analyzer/api/functions.pyi`."""
    studies = sorted(_studies().values(), key=lambda study: study.function_name)
    names = "".join(f'    "{study.function_name}",\n' for study in studies)
    bodies = "\n".join(
        f"def {study.function_name}{_unquoted(signature(study))}: ...\n" for study in studies
    )
    return f"{_STUB_HEADER}\n{bodies}\n__all__ = [\n{names}]\n"


__all__ = ["call", "check_out", "signature", "stub_source", "study_function"]
