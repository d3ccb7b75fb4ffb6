"""Seed-addressed chunk plans: a run of units (deals or games) cut into chunks whose
results depend only on their arguments.

The plan is data only: :mod:`analyzer.core.chunks` folds a plan's chunks in this process
or hands them to a cluster (:mod:`analyzer.core.cluster`); both read it from here, so
neither imports the other's types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ChunkSpan:
    """Chunk ``index`` of a run: units (deals or games) ``first .. first + count - 1``."""

    index: int
    first: int
    count: int


@dataclass(frozen=True)
class ChunkPlan:
    """A run of ``total`` units cut into seed-addressed chunks of ``chunk`` units.

    The plan is lazy: :meth:`spans` yields the chunks one by one, so a run of 10**12
    deals costs no more memory to start than a run of ten.  Chunk ``k`` calls
    ``function(**common, first_key=k * chunk, count_key=its length)``.  ``function`` is
    a module-level function of the ``analyzer`` package (cluster workers import it by
    name) whose result depends on its arguments only.
    """

    function: Callable[..., Any]
    total: int
    chunk: int
    common: Mapping[str, Any]
    first_key: str = "first"
    count_key: str = "count"
    check: Callable[[Any, int], str | None] | None = None
    """Why a value folded over a number of units cannot be a fold of this plan's chunks
    (None when it can): the sums those units can add, the keys the chunks give
    (:mod:`analyzer.core.fold_checks`).  A state read back from a checkpoint is checked
    with it, beyond its shape."""

    def __post_init__(self) -> None:
        for name in ("total", "chunk"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")

    def __len__(self) -> int:
        return (self.total + self.chunk - 1) // self.chunk

    def spans(self, start: int = 0) -> Iterator[ChunkSpan]:
        """The chunks from index ``start`` on, in order, made as they are asked for."""
        for index in range(start, len(self)):
            first = index * self.chunk
            yield ChunkSpan(index, first, min(self.chunk, self.total - first))

    def kwargs(self, span: ChunkSpan) -> dict[str, Any]:
        """Keyword arguments of ``function`` for one chunk."""
        return {**self.common, self.first_key: span.first, self.count_key: span.count}

    def units_before(self, index: int) -> int:
        """Units in the chunks before chunk ``index``."""
        return min(index * self.chunk, self.total)
