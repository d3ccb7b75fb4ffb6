"""Seed-addressed chunk plans and the one driver that folds them, in order, anywhere.

Every run (``simulate``, ``play_games``, the studies, the exact enumeration) cuts its
work into chunks whose results depend only on their arguments: chunk ``k`` of a run is
units ``[k * size, (k + 1) * size)`` of the run's seed, and each deal draws its cards
from its own counter-based stream (:mod:`analyzer.core.rng`).  A chunk therefore gives
the same result wherever and whenever it runs, so :func:`fold_chunks` can run chunks in
this process or hand them to a Dask cluster (:mod:`analyzer.core.cluster`), retry them
after a crash and still fold the same values.  Chunk functions return small aggregates
(counts, sums, sums of squares, histograms) folded in chunk order, so a run's result is
the same bit for bit in-process and on a cluster of any size.

A run can be saved as it goes and resumed: the outer layer (the command line) makes a
checkpoint object (:class:`analyzer.studies.checkpoint.Checkpoint`) and hands it to the
folds inside a :func:`checkpointing` block.  This module only calls it (see
:class:`FoldCheckpoint`); it writes no file itself.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .cluster import resolve_scheduler, results_on_cluster
from .interrupts import raise_if_stop_requested
from .plans import ChunkPlan, ChunkSpan
from .progress import Progress

R = TypeVar("R")
A = TypeVar("A")


@dataclass
class FoldState(Generic[A]):
    """A fold over the first ``chunks`` chunks of a plan (``units`` deals or games)."""

    value: A
    chunks: int = 0
    units: int = 0


class FoldCheckpoint(Protocol):
    """What a fold needs of a checkpoint: the outer layer's object that keeps the fold
    states of a run's plans (:class:`analyzer.studies.checkpoint.Checkpoint`)."""

    def stage(self, plan: ChunkPlan) -> str:
        """The key of the next plan folded in this run."""

    def restore(self, stage: str, state: FoldState[A], plan: ChunkPlan) -> FoldState[A]:
        """The saved state of ``stage``, else ``state`` (the fold's start)."""

    def maybe_save(self, stage: str, state: FoldState[Any]) -> None:
        """Save ``state`` if the last save is old enough."""

    def save(self, stage: str, state: FoldState[Any]) -> None:
        """Save ``state`` now."""


_ACTIVE_CHECKPOINT: ContextVar[FoldCheckpoint | None] = ContextVar("checkpoint", default=None)


@contextmanager
def checkpointing(checkpoint: FoldCheckpoint | None) -> Iterator[FoldCheckpoint | None]:
    """Make every :func:`fold_chunks` inside the block save to (and resume from)
    ``checkpoint``; None does nothing."""
    token = _ACTIVE_CHECKPOINT.set(checkpoint)
    try:
        yield checkpoint
    finally:
        _ACTIVE_CHECKPOINT.reset(token)


def fold_chunks(
    plan: ChunkPlan,
    fold: Callable[[A, R], A],
    initial: A,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> tuple[A, bool]:
    """Fold ``plan``'s chunk results into ``initial`` in chunk order, as they arrive.

    Returns ``(value, interrupted)``: the fold over every chunk and False, or, when
    Ctrl-C or SIGTERM stopped the run, the fold over the chunks finished in order and
    True (a stop before any chunk finished raises ``KeyboardInterrupt``: there is no
    part to report).

    ``fold(value, result)`` returns the new value.  Results are folded strictly in chunk
    order, whatever order they finish in, so the value is the same bit for bit on every
    scheduler, and a run resumed from a checkpoint (see :func:`checkpointing`) ends with
    the bits of an uninterrupted one; with a checkpoint active, the state is saved every
    few seconds, at the end and at a stop.  Memory stays flat: the plan is a generator
    and a cluster holds a few chunks per worker thread at most.

    ``scheduler``: None reads ``$ANALYZER_SCHEDULER``; ``""`` runs the chunks one after
    another in this process; anything else is a Dask scheduler
    (:func:`analyzer.core.cluster.resolve_scheduler`).  ``progress`` is called with the
    units of each chunk folded (and once with the units restored from a checkpoint).

    Examples
    --------
    >>> plan = ChunkPlan(pow, 5, 2, {"base": 3}, first_key="exp", count_key="mod")
    >>> fold_chunks(plan, lambda seen, part: [*seen, part], [], scheduler="")
    ([1, 1, 0], False)
    """
    scheduler = resolve_scheduler(scheduler)
    book = _ACTIVE_CHECKPOINT.get()
    stage = book.stage(plan) if book is not None else None
    state: FoldState[A] = FoldState(initial)
    if book is not None and stage is not None:
        state = book.restore(stage, state, plan)
        if progress is not None and state.units:
            progress(state.units)
    # a generator: nothing runs until the loop asks; closed below whatever happens, so
    # a cluster's client (and a local:N cluster) shuts down before this returns
    results = (
        results_on_cluster(plan, scheduler, state.chunks)
        if scheduler
        else _results_in_process(plan, state.chunks)
    )
    try:
        for span, result in results:
            state.value = fold(state.value, result)
            state.chunks = span.index + 1
            state.units += span.count
            if progress is not None:
                progress(span.count)
            if book is not None and stage is not None:
                book.maybe_save(stage, state)
            # a Ctrl-C swallowed part way (numba's first compile runs Python callbacks
            # that drop exceptions) still stops the run here, with the chunks finished
            raise_if_stop_requested()
    except KeyboardInterrupt:
        if book is not None and stage is not None:
            book.save(stage, state)
        if not state.chunks:
            raise
        return state.value, True
    finally:
        results.close()
    if book is not None and stage is not None:
        book.save(stage, state)
    return state.value, False


def fold_to_end(
    plan: ChunkPlan,
    fold: Callable[[A, R], A],
    initial: A,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> A:
    """The value of :func:`fold_chunks` over every chunk, for a study that has no use
    for part of a run: a stop part way raises ``KeyboardInterrupt`` (after saving the
    checkpoint, as any stop does)."""
    value, interrupted = fold_chunks(plan, fold, initial, scheduler, progress)
    if interrupted:
        raise KeyboardInterrupt
    return value


def map_spans(
    function: Callable[..., R],
    total: int,
    chunk: int,
    common: Mapping[str, Any],
    scheduler: str | None = None,
    progress: Progress | None = None,
    first_key: str = "first",
    count_key: str = "count",
) -> list[R]:
    """The list of chunk results of a :class:`ChunkPlan` run to its end (for runs of few
    chunks; long runs should fold instead, which keeps memory flat)."""

    def append(results: list[R], result: R) -> list[R]:
        results.append(result)
        return results

    plan = ChunkPlan(function, total, chunk, common, first_key, count_key)
    initial: list[R] = []
    return fold_to_end(plan, append, initial, scheduler, progress)


def _results_in_process(plan: ChunkPlan, start: int) -> Generator[tuple[ChunkSpan, Any]]:
    """The chunks from ``start`` on, run one after another in this process."""
    for span in plan.spans(start):
        yield span, plan.function(**plan.kwargs(span))


__all__ = [
    "ChunkPlan",
    "ChunkSpan",
    "FoldCheckpoint",
    "FoldState",
    "checkpointing",
    "fold_chunks",
    "fold_to_end",
    "map_spans",
]
