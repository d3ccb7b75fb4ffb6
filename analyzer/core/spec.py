"""Frozen, validated specs (the rules of each game, the players' policies and the search
player), their overrides and named presets.

A spec is a frozen dataclass whose every field has a default of type ``bool``, ``int`` or
``str`` (or of another type the spec checks and reads itself), or declares how it is
checked (a field whose metadata holds a ``declared`` object with a ``key`` and a
``check(key, value)``: gin's policy parts, :mod:`analyzer.gin.model.spec_fields`).
:class:`Spec` gives each of them the same contract:

* a field of the wrong type raises ``TypeError`` naming the field and the value (numpy
  integers and booleans are accepted and stored as Python ``int`` / ``bool``); a value of
  the right type out of its range (:attr:`Spec.int_ranges`) or not one of its choices
  (:attr:`Spec.choices`), or breaking a rule of the subclass's own
  (:meth:`Spec.check`), raises ``ValueError``;
* :meth:`~Spec.replace` and :meth:`~Spec.with_overrides` (``field=value`` text, yes/no for
  flags) give validated copies; :meth:`~Spec.describe` a plain dict;
* :meth:`~Spec.to_array` packs it into the ``np.int64`` array kernels read, by the
  subclass's :attr:`~Spec.array_fields` enum and :meth:`~Spec.array_values`.

:class:`Presets` names specs and resolves a name plus overrides.

>>> from dataclasses import dataclass
>>> from enum import IntEnum
>>> class Slot(IntEnum):
...     SIZE = 0
...     ROUND = 1
>>> @dataclass(frozen=True)
... class Table(Spec):
...     size: int = 4
...     round: bool = False
...     int_ranges = {"size": (2, 8)}
...     array_fields = Slot
...     def array_values(self):
...         return {Slot.SIZE: self.size, Slot.ROUND: self.round}
>>> Table().with_overrides(["size=6", "round=yes"]).to_array().tolist()
[6, 1]
>>> Table(size=9)
Traceback (most recent call last):
...
ValueError: size must be 2-8, got 9
>>> Table(size="6")
Traceback (most recent call last):
...
TypeError: size must be an integer, got '6'
>>> Presets("table", {"square": Table()}).resolve("round")
Traceback (most recent call last):
...
ValueError: unknown table preset 'round'; choose from square
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from enum import IntEnum
from typing import Any, ClassVar, Self, TypeVar

import numpy as np

from .arrays import Int64s
from .options import convert_field, parse_field_values

SpecT = TypeVar("SpecT", bound="Spec")


def _typed(name: str, value: object, kind: type) -> object:
    """``value`` as a field of type ``kind`` (numpy scalars made Python ones), or
    ``TypeError`` naming ``name`` and the value."""
    if kind is bool:
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"{name} must be True or False, got {value!r}")
    if kind is int:
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            return int(value)
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if kind is str and not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r}")
    return value


@dataclasses.dataclass(frozen=True)
class Spec:
    """Base of a frozen spec (see the module docstring); subclasses are frozen dataclasses
    that set the class attributes below and may add checks in :meth:`check`."""

    int_ranges: ClassVar[Mapping[str, tuple[int, int]]] = {}
    """Inclusive range of each integer field that has one."""
    choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The allowed values of each text field."""
    array_fields: ClassVar[type[IntEnum]]
    """The index of each entry of :meth:`to_array`."""
    item_name: ClassVar[str] = "rule override"
    """What a ``field=value`` item is called in errors."""
    subject: ClassVar[str] = ""
    """What errors name a field after (``"search "``: "search budget must be ...")."""

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            declared = item.metadata.get("declared")
            if declared is not None:  # a declared field checks itself, by its key
                declared.check(declared.key, getattr(self, item.name))
                continue
            named = self.subject + item.name
            value = _typed(named, getattr(self, item.name), type(item.default))
            object.__setattr__(self, item.name, value)
        for name, (low, high) in self.int_ranges.items():
            if not low <= getattr(self, name) <= high:
                raise ValueError(
                    f"{self.subject}{name} must be {low}-{high}, got {getattr(self, name)}"
                )
        for name, allowed in self.choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"{self.subject}{name} must be one of {', '.join(allowed)}; "
                    f"got {getattr(self, name)!r}"
                )
        self.check()

    def check(self) -> None:
        """Raise ``ValueError`` when the fields, each valid, break a rule together."""

    def replace(self, **changes: Any) -> Self:
        """A validated copy with ``changes`` (field names to values)."""
        return dataclasses.replace(self, **changes)

    def with_overrides(self, assignments: Iterable[str]) -> Self:
        """A validated copy with ``field=value`` assignments applied (``yes/no`` for flags,
        integers for numbers); a malformed item raises ``ValueError`` naming it."""
        kinds = {item.name: type(item.default) for item in dataclasses.fields(self)}
        return self.replace(
            **{
                name: self.parse_value(name, text, kinds[name])
                for name, text in parse_field_values(assignments, kinds, self.item_name)
            }
        )

    def parse_value(self, name: str, text: str, kind: type) -> object:
        """The value of field ``name`` (of the type ``kind`` of its default) written
        ``text``: yes/no for a flag, an integer (:func:`~analyzer.core.options.parse_int`)
        for a number, the text itself otherwise; a spec with fields of other types reads
        them here."""
        return convert_field(self.subject + name, text, kind)

    def describe(self) -> dict[str, object]:
        """The spec as a plain dict, field by field (for reports and JSON)."""
        return dataclasses.asdict(self)

    def array_values(self) -> Mapping[IntEnum, int | bool]:
        """The value of each entry of :meth:`to_array`."""
        raise NotImplementedError

    def to_array(self) -> Int64s:
        """The spec as the ``np.int64`` array kernels read, indexed by :attr:`array_fields`."""
        array = np.zeros(len(self.array_fields), dtype=np.int64)
        for field, value in self.array_values().items():
            array[field] = int(value)
        return array


class Presets(Mapping[str, SpecT]):
    """Named specs of one kind, in order, read-only.

    ``what`` names the kind in error messages (``"rules"``: "unknown rules preset ...").
    """

    def __init__(self, what: str, specs: Mapping[str, SpecT]) -> None:
        self._what = what
        self._specs = dict(specs)

    def __getitem__(self, name: str) -> SpecT:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def resolve(self, name: str, overrides: Iterable[str] = ()) -> SpecT:
        """The preset ``name`` with ``field=value`` overrides; an unknown name raises
        ``ValueError`` listing the presets."""
        if name not in self._specs:
            raise ValueError(
                f"unknown {self._what} preset {name!r}; choose from {', '.join(self._specs)}"
            )
        return self._specs[name].with_overrides(overrides)


__all__ = ["Presets", "Spec"]
