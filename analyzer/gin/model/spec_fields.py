"""The declared fields the policy specs of :mod:`analyzer.gin.model.policies` are made of.

A spec is a frozen dataclass, one per decision rule, whose every field is declared with
:func:`rule_choice`, :func:`integer`, :func:`flag` or :func:`declare`: its key in a
policy's string form, its meaning, its check, how it is parsed from and written to the
string form and which entry of the kernel's parameter row it fills.  Checking a spec
(:class:`Spec`), compiling it (:meth:`Spec.write`), parsing and printing a policy,
describing it (:mod:`analyzer.gin.model.describe`) and the command line's ranges all read
these declarations, so a field is declared once.

>>> from analyzer.gin.model.policies import Discard
>>> Discard(slack=101)
Traceback (most recent call last):
...
ValueError: slack must be 0-100, got 101
>>> declared(Discard, "slack").key, declared(Discard, "slack").span
('slack', (0, 100))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import Any

import numpy as np

from ...core.arrays import Int64s
from ...core.options import parse_int, parse_yes_no
from ...core.spec import Spec as BaseSpec


@dataclass(frozen=True)
class Declared:
    """What a spec field declares (see the module notes)."""

    key: str
    """The field's key in a policy's string form (``knock_bias``)."""
    text: str
    """Its meaning, one sentence (``analyzer policies NAME``)."""
    slot: int | None
    """Its index in the kernel's parameter row, None when the spec writes it itself."""
    check: Callable[[str, Any], None]
    """Raises ``TypeError``/``ValueError`` naming the key for a value it refuses."""
    parse: Callable[[str, str], Any]
    """The value of the text after ``key=`` (``ValueError`` naming the key)."""
    show: Callable[[Any], str]
    """The value as written after ``key=``."""
    limits: str
    """The values it takes, in words (``0-100``, ``yes/no``), for ``--help``."""
    encode: Callable[[Any], int] = int
    """The value as the kernel's integer."""
    always: bool = False
    """Written in every string form (else only when it differs from its default)."""
    span: tuple[int, int] | None = None
    """An integer field's range (low, high), both included."""
    choices: tuple[str, ...] = ()
    """A rule field's rule names, in the order of their kernel numbers."""
    clause: str = ""
    """A flag's phrase in a policy's plain-English sentence, added when it is set."""


def declared(spec: type[Spec] | Spec, name: str) -> Declared:
    """The declaration of the field ``name`` of a spec (class or value)."""
    for item in fields(spec):
        if item.name == name:
            found: Declared = item.metadata["declared"]
            return found
    raise KeyError(name)


def is_int(value: object) -> bool:
    """Whether ``value`` is an integer (numpy's included), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def declare(default: Any, declaration: Declared) -> Any:
    """A spec field with ``default`` and its :class:`Declared`."""
    return field(default=default, metadata={"declared": declaration})


def rule_choice(
    default: str,
    rules: type[IntEnum],
    key: str,
    text: str,
    slot: int,
    always: bool = False,
    unset: str | None = None,
    notes: Mapping[str, str] | None = None,
) -> Any:
    """A rule field: one of the lower-case names of ``rules``, compiled to its number, or
    the name ``unset`` (when given), compiled to -1.  Its sentence is ``text`` followed
    by every name it takes, read from ``rules`` (so that none is left out), each with its
    note in ``notes`` in parentheses."""
    choices = tuple(member.name.lower() for member in rules)
    allowed = choices if unset is None else (unset, *choices)
    what = key.removesuffix("_rule")
    named = [f"{name} ({notes[name]})" if notes and name in notes else name for name in allowed]
    text = f"{text}: {', '.join(named[:-1])} or {named[-1]}."

    def check(name: str, value: object) -> None:
        if value not in allowed:
            raise ValueError(f"unknown {what} rule {value!r}; choose from {', '.join(allowed)}")

    def encode(value: str) -> int:
        return -1 if value == unset else choices.index(value)

    return declare(
        default,
        Declared(
            key,
            text,
            slot,
            check,
            lambda text, key: text,
            str,
            "/".join(allowed),
            encode,
            always=always,
            choices=choices,
        ),
    )


def integer(default: int, low: int, high: int, key: str, text: str, slot: int) -> Any:
    """An integer field within ``low..high``."""
    limits = f"{low}-{high}" if low >= 0 else f"{low} to {high}"

    def check(name: str, value: object) -> None:
        if not is_int(value):
            raise TypeError(f"{name} must be an integer, got {value!r}")
        if not low <= value <= high:  # type: ignore[operator]
            raise ValueError(f"{name} must be {limits}, got {value}")

    return declare(
        default, Declared(key, text, slot, check, parse_int, str, limits, span=(low, high))
    )


def flag(default: bool, key: str, text: str, slot: int, clause: str) -> Any:
    """A yes/no field (``True``/``False`` in Python)."""

    def check(name: str, value: object) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, got {value!r}")

    return declare(
        default,
        Declared(
            key,
            text,
            slot,
            check,
            parse_yes_no,
            lambda value: "yes" if value else "no",
            "yes/no",
            clause=clause,
        ),
    )


@dataclass(frozen=True)
class Spec(BaseSpec):
    """A decision rule's part of a policy: every field declared (see the module notes),
    checked when the spec is made (:class:`analyzer.core.spec.Spec` runs each
    declaration's check)."""

    def declarations(self) -> list[tuple[Declared, Any]]:
        """``(declaration, value)`` of every field, in field order."""
        return [(item.metadata["declared"], getattr(self, item.name)) for item in fields(self)]

    def write(self, row: Int64s) -> None:
        """Fill this spec's entries of the kernel's parameter row."""
        for declaration, value in self.declarations():
            if declaration.slot is not None:
                row[declaration.slot] = declaration.encode(value)


__all__ = [
    "Declared",
    "Spec",
    "declare",
    "declared",
    "flag",
    "integer",
    "is_int",
    "rule_choice",
]
