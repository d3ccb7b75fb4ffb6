"""Stopping a kernel that plays search players when Ctrl-C (or SIGTERM) comes.

A kernel that plays search players runs in a worker thread (:func:`run_stoppable`) while
the calling thread waits, so Ctrl-C is seen at once; the searches then read the
:attr:`~analyzer.gin.play.players.SearchField.STOP` flag of their row before every sample
(:func:`stop_asked`) and return at the next one, and the kernel's results are thrown away.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

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
def stop_asked(params: npt.NDArray[np.int64]) -> bool:
    """Whether another thread asked the search of this row to stop (:attr:`SearchField.STOP`)."""
    return _shared_read(params, _STOP) != 0  # type: ignore[call-arg]


def searches(searchers: npt.NDArray[np.int64]) -> bool:
    """Whether any seat of these search rows (one row, or one per seat) searches."""
    return bool(np.any(searchers[..., SearchField.BUDGET] > 0))


#: Seconds :func:`run_stoppable` waits, after asking a stopped kernel to stop, for it to
#: return (it returns within one sample; the first call of a kernel compiles it first).
STOP_WAIT_S = 2.0


def run_stoppable(kernel: Callable[..., Any], *args: Any, searchers: npt.NDArray[np.int64]) -> Any:
    """``kernel(*args)``, stoppable by Ctrl-C (or SIGTERM) while it searches.

    A kernel cannot be interrupted, and one search decision may run for seconds, so when
    a seat of ``searchers`` (the search rows the kernel reads, passed among ``args``)
    searches, the kernel runs in a worker thread (it must release the GIL: ``nogil=True``)
    and this thread waits for it, seeing a ``KeyboardInterrupt`` at once.  It then sets
    every row's :attr:`SearchField.STOP`, so that the searches return at their next
    sample and the kernel ends within a few milliseconds, waits for that (at most
    :data:`STOP_WAIT_S`) and raises the ``KeyboardInterrupt``: what the kernel wrote is
    to be thrown away.  Without a searching seat the kernel runs in this thread.
    """
    if not searches(searchers):
        return kernel(*args)
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = kernel(*args)
        except BaseException as error:  # noqa: BLE001 (handed to the waiting thread)
            outcome["error"] = error

    worker = threading.Thread(target=work, name="search-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        searchers[..., SearchField.STOP] = 1
        worker.join(STOP_WAIT_S)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


__all__ = ["STOP_WAIT_S", "run_stoppable", "searches", "stop_asked"]
