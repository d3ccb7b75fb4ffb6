"""Stopping a kernel that plays search players when Ctrl-C (or SIGTERM) comes.

A kernel that plays search players runs in a worker thread (:func:`run_stoppable`) while
the calling thread waits, so Ctrl-C is seen at once; the searches then read the
:attr:`~analyzer.gin.play.players.SearchField.STOP` flag of their row before every sample
(:func:`stop_asked`) and return at the next one, and the kernel's results are thrown away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core.arrays import Int64s
from ...core.threads import run_calls, run_spans
from .players import SearchField

_STOP = np.int64(SearchField.STOP)


@intrinsic
def _shared_read(typingctx: Any, array: Any, index: Any) -> Any:
    """``array[index]`` of a one-dimensional int64 array, read as an atomic (monotonic)
    load: a value another thread writes while the kernel runs is seen, and the compiler
    may not keep an earlier read of it (hoisted out of a loop)."""
    if not (
        isinstance(array, types.Array)
        and array.ndim == 1
        and array.dtype == types.int64
        and isinstance(index, types.Integer)
    ):
        return None
    signature = types.int64(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_type, index_type = sig.args
        view = context.make_array(array_type)(context, builder, args[0])
        position = context.cast(builder, args[1], index_type, types.intp)
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, view, [position], wraparound=False
        )
        return builder.load_atomic(pointer, "monotonic", 8)

    return signature, codegen


@njit(cache=True)
def stop_asked(params: Int64s) -> bool:
    """Whether another thread asked the search of this row to stop (:attr:`SearchField.STOP`)."""
    return _shared_read(params, _STOP) != 0  # type: ignore[call-arg]


def searches(searchers: Int64s) -> bool:
    """Whether any seat of these search rows (one row, or one per seat) searches."""
    return bool(np.any(searchers[..., SearchField.BUDGET] > 0))


def search_rows(searchers: Int64s) -> Int64s | None:
    """The search rows to give a kernel: ``None`` when no seat searches, so that the
    kernel is compiled (and cached) without the search
    (:func:`~analyzer.gin.play.search.play_on`)."""
    return searchers if searches(searchers) else None


def _stop(searchers: Int64s) -> Callable[[], None]:
    def ask() -> None:
        searchers[..., SearchField.STOP] = 1

    return ask


def run_stoppable(kernel: Callable[..., Any], *args: Any, searchers: Int64s) -> Any:
    """``kernel(*args)``, stoppable by Ctrl-C (or SIGTERM) while it searches.

    A kernel cannot be interrupted, and one search decision may run for seconds, so when
    a seat of ``searchers`` (the search rows the kernel reads, passed among ``args``)
    searches, the kernel runs in a worker thread (it must release the GIL: ``nogil=True``)
    and this thread waits for it, seeing a ``KeyboardInterrupt`` at once.  It then sets
    every row's :attr:`SearchField.STOP`, so that the searches return at their next
    sample and the kernel ends within a few milliseconds, waits for that (at most
    :data:`~analyzer.core.threads.STOP_WAIT_S`) and raises the ``KeyboardInterrupt``:
    what the kernel wrote is to be thrown away.  Without a searching seat the kernel runs
    in this thread.
    """
    if not searches(searchers):
        return kernel(*args)
    return run_calls([lambda: kernel(*args)], 1, _stop(searchers))[0]


def run_kernel_spans(
    work: Callable[[int, int], None], n_items: int, longest: int, searchers: Int64s
) -> None:
    """``work(first, count)`` over spans of items ``0 .. n_items`` on numba's threads
    (:func:`~analyzer.core.threads.run_spans`), each span at most ``longest`` items;
    stoppable as :func:`run_stoppable` is when a seat of ``searchers`` searches."""
    run_spans(work, n_items, longest, _stop(searchers) if searches(searchers) else None)


__all__ = ["run_kernel_spans", "run_stoppable", "search_rows", "searches", "stop_asked"]
