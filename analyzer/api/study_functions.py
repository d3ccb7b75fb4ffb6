"""The study functions of the notebook, made from the studies' declarations
(:mod:`analyzer.studies.study`), as the commands are: the same parameters, defaults and
ranges, checked before any work, and the same title, table and verdict, returned as a
:class:`~analyzer.api.results.ChartedResult`."""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any

import pandas as pd

from ..core.limits import MAX_RAW_UNITS, check_count, check_float
from ..gin.play.players import Player, chosen_player, format_player, player_field
from ..studies.study import (
    GIN,
    POSITIONAL,
    TWIN,
    Inputs,
    Kind,
    Param,
    Rulebook,
    Study,
    check_presets,
    check_thresholds,
)
from .arguments import (
    check_run,
    check_text,
    chosen_policy,
    listed,
    policy_label,
    progress_to,
    rules_name,
)
from .results import ChartedResult, Result

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


def _rules_of(rulebook: Rulebook, value: object, presets_only: bool) -> Any:
    """Rules given as a preset name or (unless ``presets_only``) an object of
    ``rulebook``'s game."""
    if presets_only:
        check_text(value, "rules")
    elif isinstance(value, rulebook.rules_type()):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"rules must be a rules preset name or a {rulebook.rules_type().__name__} object, "
            f"got {value!r}"
        )
    return rulebook.resolve(value, ())


def _policy_of(rulebook: Rulebook, value: object, name: str) -> Any:
    """A policy of ``rulebook``'s game given as an object, a preset name or a string form."""
    if rulebook is GIN:
        return chosen_policy(value, name)  # type: ignore[arg-type]
    if isinstance(value, rulebook.policy_type()):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, key=value items or a "
            f"{rulebook.policy_type().__name__}, got {value!r}"
        )
    return rulebook.parse_policy(value)


def _label(rulebook: Rulebook, given: object, chosen: Any) -> str:
    """How a title names a policy: as given by name, else its string form."""
    if rulebook is GIN:
        return policy_label(given, chosen)
    return given if isinstance(given, str) else rulebook.format_player(chosen)


def _checked(param: Param, value: Any, rulebook: Rulebook = GIN) -> tuple[Any, str | None]:
    """A parameter's value as the study takes it, and how a title names it."""
    if param.kind is Kind.OPPONENT and (value is None or value == TWIN):
        return None, TWIN
    if param.kind in (Kind.POLICY, Kind.OPPONENT):
        chosen = _policy_of(rulebook, value, param.name)
        return chosen, _label(rulebook, value, chosen)
    if param.kind is Kind.TEXT:
        check_text(value, param.name)
        return value, None
    if param.kind is Kind.FOLDER:
        folder = _folder(value, param.name)
        if folder is not None and not os.path.isdir(folder):
            raise ValueError(f"{param.name} must be an existing folder, got {folder!r}")
        return folder, None
    if param.kind is Kind.FLAG:
        if not isinstance(value, bool):
            raise TypeError(f"{param.name} must be True or False, got {value!r}")
        return value, None
    if param.kind is Kind.PLAYER:
        label, player = _labelled(value, param.name)
        return player, label
    if param.kind is Kind.SEATS:
        if value is None:
            return None, None
        seats = listed(value, param.name, "policies")
        # gin's seats take the search player too, for the study to say where it plays
        if rulebook is GIN:
            return [_labelled(entry, f"{param.name}[{i}]") for i, entry in enumerate(seats)], None
        return [
            (_label(rulebook, entry, chosen), chosen)
            for index, entry in enumerate(seats)
            for chosen in [_policy_of(rulebook, entry, f"{param.name}[{index}]")]
        ], None
    if param.kind is Kind.COUNT:
        if value is None and param.default is None:  # optional: the study's own default
            return None, None
        return check_count(value, param.name, int(param.low), int(param.high)), None
    if param.kind is Kind.NUMBER:
        return check_float(value, param.name, param.low, param.high, low_open=True), None
    if param.kind is Kind.CHOICE:
        if value not in param.choices:
            raise ValueError(
                f"{param.name} must be one of {', '.join(param.choices)}, got {value!r}"
            )
        return value, None
    if param.kind is Kind.PRESETS:
        return check_presets(listed(value, param.name, "rules preset names")), None
    if param.kind is Kind.PLAYERS:
        if value is None and param.default is None:
            return None, None
        entries = listed(value, param.name, "policies")
        return player_field(
            (_labelled(entry, f"{param.name}[{index}]") for index, entry in enumerate(entries)),
            len(entries),
            param.name,
        ), None
    return check_thresholds(listed(value, param.name, "knock thresholds 0-10")), None


def _folder(value: object, name: str) -> str | None:
    """A folder given as a str or a Path, as a string (None: none); ``TypeError`` naming
    ``name`` else."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a folder (a str or a Path) or None, got {value!r}")
    return os.fspath(value)


def _labelled(entry: object, name: str) -> tuple[str, Player]:
    """A player of a list with its label: the name or string form it was given by, else
    its string form."""
    chosen = chosen_player(entry, name)
    return (entry if isinstance(entry, str) else format_player(chosen)), chosen


def study_signature(study: Study) -> inspect.Signature:
    """``(players..., rules="standard", *, other parameters..., seed=1, progress=None)``
    (no ``rules`` for a study that is not played under one set of rules)."""
    players = [
        p for p in study.params if (p.kind in POSITIONAL or p.argument) and not p.keyword_only
    ]
    others = [p for p in study.params if p not in players]
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    keyword = inspect.Parameter.KEYWORD_ONLY
    book = study.rulebook
    rules_annotation = f"str | {book.rules_type().__name__}"

    def annotation(param: Param) -> str:
        written = _ANNOTATIONS[param.kind].replace("Policy", book.policy_type().__name__)
        optional = param.default is None and not written.endswith("None")
        return written + (" | None" if optional else "")

    return inspect.Signature(
        [
            *(
                inspect.Parameter(p.name, positional, default=p.default, annotation=annotation(p))
                for p in players
            ),
            *(
                [
                    inspect.Parameter(
                        "rules", positional, default="standard", annotation=rules_annotation
                    )
                ]
                if study.rules
                else []
            ),
            *(
                inspect.Parameter(p.name, keyword, default=p.default, annotation=annotation(p))
                for p in others
            ),
            *(
                [inspect.Parameter("keep_rows", keyword, default=False, annotation="bool")]
                if study.rows is not None
                else []
            ),
            *(
                [inspect.Parameter("out", keyword, default=None, annotation="str | Path | None")]
                if study.writes_out
                else []
            ),
            inspect.Parameter("seed", keyword, default=study.seed, annotation="int"),
            inspect.Parameter("progress", keyword, default=None, annotation="ProgressLike"),
        ],
        return_annotation=study.notebook_result or "Result",
    )


def study_function(study: Study) -> Callable[..., Result]:
    """The notebook function of ``study``."""
    signature = study_signature(study)

    def function(*args: Any, **kwargs: Any) -> Result:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        given = bound.arguments
        (seed,) = check_run(given["seed"], given["progress"])
        book = study.rulebook
        the_rules = _rules_of(book, given["rules"], study.presets_only) if study.rules else None
        values: dict[str, Any] = {}
        labels: dict[str, str] = {}
        for param in study.params:
            values[param.name], label = _checked(param, given[param.name], book)
            if label is not None:
                labels[param.name] = label
        keep_rows = given.get("keep_rows", False)
        if not isinstance(keep_rows, bool):
            raise TypeError(f"keep_rows must be True or False, got {keep_rows!r}")
        if keep_rows and study.rows is not None:
            check_count(values[study.rows], f"{study.rows} with keep_rows=True", 1, MAX_RAW_UNITS)
        out = _folder(given.get("out"), "out")
        name = rules_name(given.get("rules", "standard"), the_rules, book)
        inputs = Inputs(
            the_rules,
            name,
            name,
            name == "custom",
            seed,
            values,
            labels,
            keep_rows=keep_rows,
            out=out,
        )
        with progress_to(given["progress"], study.unit) as update:
            answer = study.run(inputs, update, None)
        if study.notebook_result:
            return answer.result  # type: ignore[return-value]
        chart = answer.chart
        shown = answer.body if isinstance(answer.body, pd.DataFrame) else None
        if chart is None:
            return Result(answer.title, answer.frame, answer.result, shown, answer.verdict)
        return ChartedResult(
            answer.title,
            answer.frame,
            chart.draw,
            chart.caption,
            chart.figsize,
            panels=chart.panels,
            result=answer.result,
            shown=shown,
            sharey=chart.sharey,
            verdict=answer.verdict,
        )

    lines = [
        f"{param.name}: {param.help}"
        + (f" ({int(param.low):,}-{int(param.high):,})" if param.kind is Kind.COUNT else "")
        for param in study.params
    ]
    if study.rows is not None:
        lines.append(
            f"keep_rows: keep every row played (``.rows``); at most {MAX_RAW_UNITS:,} {study.rows}."
        )
    if study.writes_out and study.out_help is not None:
        lines.append(f"out: {study.out_help}")
    function.__name__ = function.__qualname__ = study.function_name
    function.__module__ = "analyzer.api"
    function.__doc__ = (
        f"{study.summary} {study.description}\n\n"
        + "\n".join(lines)
        + f"\n\nAs ``analyzer {study.name}`` prints it: ``.title``, ``.to_frame()``, "
        f"``.verdict``. {study.notebook}"
    )
    function.__signature__ = signature  # type: ignore[attr-defined]
    return function


def _functions() -> dict[str, Callable[..., Result]]:
    from ..report.registry import STUDIES

    return {study.function_name: study_function(study) for study in STUDIES.values()}


#: Every study's notebook function, by name.
FUNCTIONS = _functions()


def __getattr__(name: str) -> Callable[..., Result]:
    """The study functions as this module's attributes (``knock_sweep``...)."""
    try:
        return FUNCTIONS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


__all__ = ["FUNCTIONS", "study_function"]
