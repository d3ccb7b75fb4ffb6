"""A study's arguments checked in one place for every door: the notebook's values, the
command line's (after click has read them) and the values a saved answer records
(:meth:`analyzer.studies.answer.Answer.load`) become the same :class:`Inputs`, or the
same ``TypeError``/``ValueError`` naming the argument.

Each parameter kind (:class:`~analyzer.studies.study.Kind`) is checked by
:func:`check_value`: policies by name, string form or object, counts within their
:mod:`~analyzer.core.limits` ranges, lists as lists.  :func:`recorded` is the reverse: a
value as JSON (policies by their label), which :func:`check_value` reads back to the same
value.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..core.limits import check_count, check_float, check_seed
from ..gin.model.policies import Policy, parse_policy
from ..gin.play.players import Player, chosen_player, format_player, player_field
from .study import (
    GIN,
    Inputs,
    Kind,
    Param,
    Rulebook,
    Study,
    check_presets,
    check_thresholds,
)
from .text import rules_text


def check_text(value: object, name: str, none: bool = False) -> None:
    if not (isinstance(value, str) or (none and value is None)):
        raise TypeError(f"{name} must be a string{' or None' if none else ''}, got {value!r}")


def listed(value: object, name: str, what: str) -> list[Any]:
    """A list of ``what`` given as a list or tuple (a single string is refused: it would
    be read one character at a time); ``TypeError`` naming ``name`` else."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, range)):
        hint = f" (write [{value!r}])" if isinstance(value, str) else ""
        raise TypeError(f"{name} must be a list of {what}, got {value!r}{hint}")
    if not value:
        raise ValueError(f"{name} is empty: give at least one of the {what}")
    return list(value)


def policy_label(given: object, chosen: Policy | Player) -> str:
    """How a title names a player: as given by name, else its string form."""
    return given if isinstance(given, str) else format_player(chosen)


def policy_of(rulebook: Rulebook, value: object, name: str) -> Any:
    """A policy of ``rulebook``'s game given as an object, a preset name or a string form;
    ``TypeError`` naming ``name`` for anything else."""
    if isinstance(value, rulebook.policy_type()):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, a policy string form or a "
            f"{rulebook.policy_type().__name__}, got {value!r}"
        )
    return parse_policy(value) if rulebook is GIN else rulebook.parse_policy(value)


def _labelled(entry: object, name: str) -> tuple[str, Player]:
    chosen = chosen_player(entry, name)
    return policy_label(entry, chosen), chosen


def _folder(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a folder (a str or a Path) or None, got {value!r}")
    folder = os.fspath(value)
    if not os.path.isdir(folder):
        raise ValueError(f"{name} must be an existing folder, got {folder!r}")
    return folder


def check_value(
    param: Param, value: Any, rulebook: Rulebook = GIN, name: str | None = None
) -> tuple[Any, str | None]:
    """A parameter's value as the study takes it, and how a title names it (None: not a
    player); an error names the parameter ``name`` (default: its own name)."""
    kind, name = param.kind, name or param.name
    if kind is Kind.POLICY:
        chosen = policy_of(rulebook, value, name)
        return chosen, policy_label(value, chosen)
    if kind is Kind.PLAYER:
        return _labelled(value, name)[::-1]
    if value is None and param.default is None and kind not in (Kind.FLAG, Kind.TEXT):
        return None, None  # optional: the study's own default
    if kind is Kind.TEXT:
        check_text(value, name)
        return value, None
    if kind is Kind.FOLDER:
        return _folder(value, name), None
    if kind is Kind.FLAG:
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, got {value!r}")
        return value, None
    if kind is Kind.COUNT:
        return check_count(value, name, int(param.low), int(param.high)), None
    if kind is Kind.NUMBER:
        return check_float(value, name, param.low, param.high, low_open=True), None
    if kind is Kind.CHOICE:
        if value not in param.choices:
            raise ValueError(f"{name} must be one of {', '.join(param.choices)}, got {value!r}")
        return value, None
    if kind is Kind.PRESETS:
        return check_presets(listed(value, name, "rules preset names"), name), None
    if kind is Kind.SEATS:
        seats = listed(value, name, "policies")
        if rulebook is GIN:  # gin's seats take the search player, for the study to refuse
            return [_labelled(entry, f"{name}[{i}]") for i, entry in enumerate(seats)], None
        pairs = []
        for index, entry in enumerate(seats):
            chosen = policy_of(rulebook, entry, f"{name}[{index}]")
            pairs.append((policy_label(entry, chosen), chosen))
        return pairs, None
    if kind is Kind.PLAYERS:
        entries = listed(value, name, "policies")
        labelled = (_labelled(entry, f"{name}[{i}]") for i, entry in enumerate(entries))
        return player_field(labelled, len(entries), name), None
    return check_thresholds(listed(value, name, "knock thresholds 0-10")), None


def recorded(param: Param, inputs: Inputs) -> Any:
    """The value of ``param`` in ``inputs`` as JSON, read back by :func:`check_value`:
    a player by its label, a list as a list."""
    value = inputs[param.name]
    if param.kind in (Kind.POLICY, Kind.PLAYER):
        return inputs.labels[param.name]
    if param.kind is Kind.SEATS:
        return None if value is None else [label for label, _ in value]
    if param.kind in (Kind.PLAYERS, Kind.THRESHOLDS, Kind.PRESETS):
        return None if value is None else list(value)
    return value


def rules_of(rulebook: Rulebook, value: object) -> tuple[Any, str]:
    """Rules given as a preset name or an object of ``rulebook``'s game, and the preset
    they are (``custom`` for an object equal to none)."""
    if isinstance(value, rulebook.rules_type()):
        presets = rulebook.presets().items()
        return value, next((name for name, preset in presets if preset == value), "custom")
    if not isinstance(value, str):
        raise TypeError(
            f"rules must be a rules preset name or a {rulebook.rules_type().__name__} object, "
            f"got {value!r}"
        )
    return rulebook.resolve(value, ()), value


def make_inputs(
    study: Study,
    given: Mapping[str, Any],
    *,
    rules: object = "standard",
    overrides: tuple[str, ...] = (),
    seed: object = None,
    keep_rows: bool = False,
    out: str | None = None,
    spelled: Callable[[str], str] = str,
) -> Inputs:
    """The checked :class:`Inputs` of ``study`` from each parameter's value in ``given``
    (missing: its default), the rules (a preset name with ``overrides``, or an object)
    and the seed (None: the default).  A parameter (or the seed) whose value is not its
    default counts as given explicitly (:attr:`Inputs.explicit`).  An error names a
    parameter as ``spelled`` spells it (the command line: ``--members``)."""
    book = study.rulebook
    the_rules, preset = None, "standard"
    if study.rules:
        if overrides:
            check_text(rules, "rules")
            the_rules, preset = book.resolve(str(rules), overrides), str(rules)
        else:
            the_rules, preset = rules_of(book, rules)
    values: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for param in study.params:
        value, label = check_value(
            param, given.get(param.name, param.default), book, spelled(param.name)
        )
        values[param.name] = value
        if label is not None:
            labels[param.name] = label
    inputs = Inputs(
        the_rules,
        rules_text(preset, overrides),
        preset,
        bool(overrides) or preset == "custom",
        check_seed(study.seed if seed is None else seed),
        values,
        labels,
        overrides,
        keep_rows,
        out,
    )
    explicit = {p.name for p in study.params if recorded(p, inputs) != _default_recorded(p)}
    if inputs.seed != study.seed:
        explicit.add("seed")
    return replace(inputs, explicit=frozenset(explicit))


def _default_recorded(param: Param) -> Any:
    """A parameter's default as :func:`recorded` writes a value."""
    default = param.default
    return list(default) if isinstance(default, (tuple, range)) else default


__all__ = [
    "check_text",
    "check_value",
    "listed",
    "make_inputs",
    "policy_label",
    "policy_of",
    "recorded",
    "rules_of",
]
