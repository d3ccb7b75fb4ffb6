"""The thread runner of the engine's serial kernels (analyzer.core.threads)."""

from __future__ import annotations

import threading

import numba
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.threads import run_calls, run_spans, spans


@given(
    n_items=st.integers(0, 5_000),
    longest=st.integers(1, 3_000),
    threads=st.integers(1, 8),
    start=st.integers(0, 100),
)
def test_spans_cover_the_range_in_order_and_feed_every_thread(
    n_items: int, longest: int, threads: int, start: int
) -> None:
    parts = spans(n_items, longest, threads, start)
    covered = [item for first, count in parts for item in range(first, first + count)]
    assert covered == list(range(start, start + n_items))
    assert all(1 <= count <= longest for _, count in parts)
    assert len(parts) >= min(threads, n_items)


@pytest.mark.parametrize("threads", [1, 2])
def test_run_spans_does_every_item_once_whatever_the_thread_count(threads: int) -> None:
    done = [0] * 1_000
    lock = threading.Lock()

    def work(first: int, count: int) -> None:
        with lock:
            for item in range(first, first + count):
                done[item] += 1

    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        run_spans(work, 990, 64, start=10)
    finally:
        numba.set_num_threads(before)
    assert done == [0] * 10 + [1] * 990


def test_run_calls_returns_results_in_order() -> None:
    assert run_calls([lambda k=k: k * k for k in range(7)], 2) == [k * k for k in range(7)]


def test_a_failing_call_asks_the_others_to_stop_and_is_raised() -> None:
    stopped = threading.Event()

    def fails() -> None:
        raise ValueError("bad span")

    def waits_for_stop() -> None:
        assert stopped.wait(5.0)  # returns as soon as on_stop is called

    with pytest.raises(ValueError, match="bad span"):
        run_calls([waits_for_stop, fails], 2, on_stop=stopped.set)
    assert stopped.is_set()
