"""Running a serial kernel over spans of a range of items on a pool of threads.

The engine's kernels are compiled serially (``nogil=True``, no ``parallel=True``) and
run here, on spans of their range, from as many Python threads as numba's thread count.
Numba's parallel loops would cost more to compile: the loop body, its gufunc wrapper and
its launcher are each optimised separately with everything the body calls inlined, so a
kernel that plays the whole engine compiled a fifth slower (about 95 s of CPU against 75 s
for the hand simulation's).  Each item has its own random stream and its own rows (or a
caller-fixed slot of sums), so the results do not depend on the split or the thread count.

A stop (Ctrl-C or SIGTERM) reaches the waiting main thread at once, also while a worker
compiles a kernel; the spans not started are dropped and ``on_stop`` (which may ask
running kernels to return early) is called before the exception goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any

import numba

#: Seconds a stopped run waits for the running spans to return before it raises.
STOP_WAIT_S = 2.0


def thread_count() -> int:
    """Numba's thread count for this thread (``--jobs``, ``NUMBA_NUM_THREADS``)."""
    return int(numba.get_num_threads())


def spans(n_items: int, longest: int, threads: int, start: int = 0) -> list[tuple[int, int]]:
    """``(first, count)`` pairs covering items ``start .. start + n_items`` in order, each
    at most ``longest`` items and short enough that every thread gets a span."""
    size = max(1, min(longest, -(-n_items // max(threads, 1))))
    end = start + n_items
    return [(first, min(size, end - first)) for first in range(start, end, size)]


def run_calls(
    calls: Sequence[Callable[[], Any]], threads: int, on_stop: Callable[[], None] | None = None
) -> list[Any]:
    """Each call's result, in order, the calls run on ``threads`` worker threads.

    An exception in a call (or a ``KeyboardInterrupt`` in the waiting thread) drops the
    calls not started, calls ``on_stop``, waits up to :data:`STOP_WAIT_S` for the running
    ones and is raised.
    """
    pool = ThreadPoolExecutor(max_workers=max(1, min(threads, len(calls))))
    futures: list[Future[Any]] = [pool.submit(call) for call in calls]
    try:
        pending: set[Future[Any]] = set(futures)
        while pending:
            # a short timeout: the main thread sees a signal between waits
            done, pending = wait(pending, timeout=0.05, return_when=FIRST_EXCEPTION)
            for future in done:
                future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        if on_stop is not None:
            on_stop()
        wait(futures, timeout=STOP_WAIT_S)
        raise
    pool.shutdown()
    return [future.result() for future in futures]


def run_spans(
    work: Callable[[int, int], None],
    n_items: int,
    longest: int,
    on_stop: Callable[[], None] | None = None,
    start: int = 0,
) -> None:
    """``work(first, count)`` on spans of items ``start .. start + n_items``
    (:func:`spans`), on :func:`thread_count` threads; on one thread without ``on_stop``,
    in this thread."""
    threads = thread_count()
    parts = spans(n_items, longest, threads, start)
    if threads == 1 and on_stop is None:
        for first, count in parts:
            work(first, count)
        return
    run_calls([_bound(work, first, count) for first, count in parts], threads, on_stop)


def _bound(work: Callable[[int, int], None], first: int, count: int) -> Callable[[], None]:
    return lambda: work(first, count)


__all__ = ["STOP_WAIT_S", "run_calls", "run_spans", "spans", "thread_count"]
