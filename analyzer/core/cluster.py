"""Run seed-addressed chunks of work in this process or on a Dask cluster.

Every driver (``simulate``, ``play_games``, the studies) cuts its run into chunks whose
results depend only on their arguments: chunk ``k`` of a run is deals
``[k * size, (k + 1) * size)`` of the run's seed, and each deal draws its cards from its
own counter-based stream (:mod:`analyzer.core.rng`).  A chunk therefore gives the same result
wherever and whenever it runs, and :func:`map_chunks` can hand chunks to any worker, retry
them after a crash and still return the same values.  Chunk functions return small
aggregates (counts, sums, sums of squares, histograms) that the caller merges in chunk
order, so a run's result is the same bit for bit in-process and on a cluster of any size.

The scheduler is chosen by one string (argument, ``--scheduler`` or the
``ANALYZER_SCHEDULER`` environment variable):

* unset or empty: chunks run one after another in this process, each one a numba-parallel
  kernel over all cores (the default);
* ``local:N``: a Dask ``LocalCluster`` of ``N`` worker processes on this machine;
* an address such as ``tcp://scheduler.example:8786``: a running ``dask.distributed``
  scheduler, whose workers must have the same version of ``analyzer`` installed.

Dask is the optional ``cluster`` extra (``pip install 'rummy-analyzer[cluster]'``) and is
imported only when a scheduler is given.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from .interrupts import interrupt_on_sigterm, raise_if_stop_requested

if TYPE_CHECKING:
    from distributed import Client

R = TypeVar("R")
A = TypeVar("A")
F = TypeVar("F", bound=Callable[..., Any])

#: Environment variable read when no scheduler is passed.
SCHEDULER_ENV = "ANALYZER_SCHEDULER"
#: Seconds to wait for a scheduler to answer before giving up on it.
CONNECT_TIMEOUT_S = 10.0
#: Times Dask reruns a chunk whose function raised.  A worker that dies is a separate
#: case: the scheduler reruns its chunks elsewhere on its own (up to
#: ``distributed.scheduler.allowed-failures`` deaths per chunk).
TASK_RETRIES = 2

# One chunk at a time per worker process, whatever the worker's thread count: each chunk
# already uses the process's share of the cores as numba threads, and numba's "workqueue"
# threading layer (the fallback without OpenMP or TBB) aborts the process when two
# threads launch parallel kernels at once.
_CHUNK_LOCK = threading.Lock()


class SchedulerUnreachable(ConnectionError):
    """No Dask scheduler answered at the given address."""


class ChunksInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`map_chunks` before every chunk had finished.

    It is a ``KeyboardInterrupt``, so a caller that does not catch it stops as on any
    Ctrl-C; a caller that does can report on the chunks that finished.
    """

    def __init__(self, finished: dict[int, Any], total: int) -> None:
        super().__init__(f"interrupted after {len(finished)} of {total} chunks")
        self.finished = finished
        """Result of every chunk that finished, by chunk index."""
        self.total = total
        """Number of chunks the run was cut into."""


def resolve_scheduler(scheduler: str | None) -> str:
    """The scheduler to use: ``scheduler`` if given, else ``$ANALYZER_SCHEDULER``.

    Returns ``""`` for the in-process path.  Raises ``ValueError`` for a malformed
    ``local:N``.

    >>> resolve_scheduler(" local:2 ")
    'local:2'
    >>> resolve_scheduler("")
    ''
    """
    text = (os.environ.get(SCHEDULER_ENV, "") if scheduler is None else scheduler).strip()
    _local_workers(text)
    return text


def _local_workers(scheduler: str) -> int | None:
    """``N`` of a ``local:N`` scheduler, else None."""
    if scheduler != "local" and not scheduler.startswith("local:"):
        return None
    count = scheduler.partition(":")[2]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"expected local:N with N >= 1 worker processes, got {scheduler!r}")
    return int(count)


def map_chunks(function: Callable[..., R], chunk_kwargs: Sequence[Mapping[str, Any]],
               scheduler: str | None = None, progress: Callable[[int], None] | None = None,
               weights: Sequence[int] | None = None) -> list[R]:
    """``[function(**kwargs) for kwargs in chunk_kwargs]``, in-process or on a cluster.

    Parameters
    ----------
    function : callable
        A module-level function of the ``analyzer`` package (workers import it by name)
        whose result depends on its arguments only; it should return a small aggregate.
    chunk_kwargs : sequence of dict
        Keyword arguments of each chunk, in chunk order.  They are pickled to the
        workers, so keep them small (rules, policies, seed, first deal, count).
    scheduler : str, optional
        ``None`` reads ``$ANALYZER_SCHEDULER``; ``""`` runs in this process; ``local:N``
        starts a ``LocalCluster`` of ``N`` processes; anything else is the address of a
        ``dask.distributed`` scheduler (``tcp://host:8786``).
    progress : callable, optional
        Called with ``weights[k]`` each time chunk ``k`` finishes (in completion order).
    weights : sequence of int, optional
        Units of work of each chunk reported to ``progress`` (e.g. deals); default 1.

    Returns
    -------
    list
        The chunks' results in chunk order, whatever order they finished in, so merging
        them in list order gives the same bits on every scheduler.

    Raises
    ------
    ChunksInterrupted
        On Ctrl-C, after cancelling the chunks not yet finished; it carries the results
        of those that were.
    SchedulerUnreachable
        When no scheduler answers at the address within :data:`CONNECT_TIMEOUT_S`.

    Notes
    -----
    On a cluster each chunk is one task.  A chunk whose worker dies is rerun on another
    worker by the scheduler, and one that raises is retried :data:`TASK_RETRIES` times;
    since chunks are deterministic, neither changes the result.  A worker process runs
    one chunk at a time on ``NUMBA_NUM_THREADS // P`` numba threads, ``P`` being the
    number of worker processes on its host when the run starts: the chunks share each
    machine's cores without oversubscribing them, whatever the workers' layout.

    Examples
    --------
    >>> map_chunks(pow, [{"base": 2, "exp": 10}, {"base": 3, "exp": 4}], scheduler="")
    [1024, 81]
    """
    scheduler = resolve_scheduler(scheduler)
    weights = [1] * len(chunk_kwargs) if weights is None else list(weights)
    if len(weights) != len(chunk_kwargs):
        raise ValueError(f"{len(weights)} weights for {len(chunk_kwargs)} chunks")
    finished: dict[int, R] = {}
    try:
        if scheduler:
            _map_on_cluster(function, chunk_kwargs, scheduler, progress, weights, finished)
        else:
            for index, kwargs in enumerate(chunk_kwargs):
                finished[index] = function(**kwargs)
                if progress is not None:
                    progress(weights[index])
                raise_if_stop_requested()
    except KeyboardInterrupt:
        raise ChunksInterrupted(finished, len(chunk_kwargs)) from None
    return [finished[index] for index in range(len(chunk_kwargs))]


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
    ``function(**common, first_key=k * chunk, count_key=its length)``.
    """

    function: Callable[..., Any]
    total: int
    chunk: int
    common: Mapping[str, Any]
    first_key: str = "first"
    count_key: str = "count"

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


@dataclass
class FoldState(Generic[A]):
    """A fold over the first ``chunks`` chunks of a plan (``units`` deals or games)."""

    value: A
    chunks: int = 0
    units: int = 0


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, see :func:`interrupt_on_sigterm`) stopped :func:`fold_plan`.

    It carries the fold over the chunks finished in order before the stop, so that a
    caller can report a partial result; with a checkpoint active, that state is saved.
    """

    def __init__(self, state: FoldState[Any], total: int) -> None:
        super().__init__(f"interrupted after {state.units} of {total} units")
        self.state = state
        self.total = total


#: Chunks in flight on a cluster per worker thread: enough to keep workers busy while
#: results travel back, few enough that memory stays flat on runs of any length.
IN_FLIGHT_PER_WORKER = 4


def fold_plan(plan: ChunkPlan, fold: Callable[[A, R], A], initial: A,
              scheduler: str | None = None, progress: Callable[[int], None] | None = None
              ) -> FoldState[A]:
    """Fold ``plan``'s chunk results into ``initial`` in chunk order, as they arrive.

    ``fold(value, result)`` returns the new value.  Results are folded strictly in chunk
    order, whatever order they finish in, so the value is the same bit for bit on every
    scheduler, and a run resumed from a checkpoint (see :func:`checkpointing`) ends with
    the bits of an uninterrupted one.  Memory stays flat: the plan is a generator and a
    cluster holds at most :data:`IN_FLIGHT_PER_WORKER` chunks per worker thread.

    ``progress`` is called with the units of each chunk finished.  Ctrl-C raises
    :class:`RunInterrupted` with the state folded so far.
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
    results = (_results_on_cluster(plan, scheduler, state.chunks) if scheduler
               else _results_in_process(plan, state.chunks))
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
        raise RunInterrupted(state, plan.total) from None
    finally:
        results.close()
    if book is not None and stage is not None:
        book.save(stage, state)
    return state


def _results_in_process(plan: ChunkPlan, start: int) -> Generator[tuple[ChunkSpan, Any]]:
    for span in plan.spans(start):
        yield span, plan.function(**plan.kwargs(span))


def map_spans(function: Callable[..., R], total: int, chunk: int, common: Mapping[str, Any],
              scheduler: str | None = None, progress: Callable[[int], None] | None = None,
              first_key: str = "first", count_key: str = "count") -> list[R]:
    """The list of chunk results of a :class:`ChunkPlan` (for runs of few chunks; long
    runs should :func:`fold_plan` instead, which keeps memory flat)."""
    def append(results: list[R], result: R) -> list[R]:
        results.append(result)
        return results

    plan = ChunkPlan(function, total, chunk, common, first_key, count_key)
    initial: list[R] = []
    return fold_plan(plan, append, initial, scheduler, progress).value


def _map_on_cluster(function: Callable[..., R], chunk_kwargs: Sequence[Mapping[str, Any]],
                    scheduler: str, progress: Callable[[int], None] | None,
                    weights: Sequence[int], finished: dict[int, R]) -> None:
    """Run the chunks as Dask tasks, filling ``finished`` as they complete."""
    from distributed import as_completed
    from distributed.comm.addressing import get_address_host

    with _client(scheduler) as client:
        processes_by_host = Counter(get_address_host(worker) for worker in client.nthreads())
        # unique keys: two runs of the same chunk on a shared cluster stay apart, and
        # the dashboard names each task after its function and chunk
        run = uuid.uuid4().hex[:8]
        keys = [f"{function.__name__}-{run}-{index}" for index in range(len(chunk_kwargs))]
        futures = client.map(_run_chunk, [function] * len(chunk_kwargs), list(chunk_kwargs),
                             [processes_by_host] * len(chunk_kwargs), key=keys,
                             retries=TASK_RETRIES)
        index_of = {key: index for index, key in enumerate(keys)}
        try:
            for future, result in as_completed(futures, loop=client.loop, with_results=True):
                index = index_of[future.key]
                finished[index] = result
                if progress is not None:
                    progress(weights[index])
        except KeyboardInterrupt:
            client.cancel(futures)
            raise


def _results_on_cluster(plan: ChunkPlan, scheduler: str, start: int
                        ) -> Generator[tuple[ChunkSpan, Any]]:
    """Run the chunks from ``start`` on as Dask tasks, a bounded number at a time, and
    yield their results in chunk order."""
    from distributed import as_completed
    from distributed.comm.addressing import get_address_host

    with _client(scheduler) as client:
        threads = client.nthreads()
        processes_by_host = Counter(get_address_host(worker) for worker in threads)
        limit = IN_FLIGHT_PER_WORKER * max(1, sum(threads.values()))
        run = uuid.uuid4().hex[:8]
        spans = plan.spans(start)
        in_flight: dict[str, tuple[ChunkSpan, Any]] = {}
        arrived: dict[int, tuple[ChunkSpan, Any]] = {}
        queue = as_completed([], loop=client.loop, with_results=True)

        def fill() -> None:
            # arrived-but-unfolded results count against the limit too: a slow first
            # chunk must not let the buffer behind it grow without bound
            while len(in_flight) + len(arrived) < limit:
                span = next(spans, None)
                if span is None:
                    return
                key = f"{plan.function.__name__}-{run}-{span.index}"
                future = client.submit(_run_chunk, plan.function, plan.kwargs(span),
                                       processes_by_host, key=key, retries=TASK_RETRIES,
                                       pure=False)
                in_flight[key] = (span, future)
                queue.add(future)

        next_index = start
        try:
            fill()
            for future, result in queue:
                span, _ = in_flight.pop(future.key)
                arrived[span.index] = (span, result)
                while next_index in arrived:
                    yield arrived.pop(next_index)
                    next_index += 1
                fill()
        finally:
            if in_flight:
                client.cancel([future for _, future in in_flight.values()])


def _run_chunk(function: Callable[..., R], kwargs: Mapping[str, Any],
               processes_by_host: Mapping[str, int]) -> R:
    """One chunk on a worker: ``function(**kwargs)`` on this process's share of its
    host's numba threads (all of them on a host the run did not see at its start)."""
    import numba
    from distributed import get_worker
    from distributed.comm.addressing import get_address_host

    processes = processes_by_host.get(get_address_host(get_worker().address), 1)
    with _CHUNK_LOCK:
        # thread-local in numba, so set in the task's own thread
        numba.set_num_threads(max(1, numba.config.NUMBA_NUM_THREADS // processes))  # type: ignore[attr-defined]
        return function(**kwargs)


@contextmanager
def _client(scheduler: str) -> Iterator[Client]:
    """A Dask client of ``scheduler`` (starting the cluster for ``local:N``)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise ModuleNotFoundError(
            "running on a Dask cluster needs dask.distributed: "
            "pip install 'rummy-analyzer[cluster]'") from error
    workers = _local_workers(scheduler)
    if workers is not None:
        # loopback only; the scheduler's HTTP server (always started, even without a
        # dashboard) takes any free port rather than warn when 8787 is taken
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None,
                               scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                               silence_logs=logging.ERROR, preload=[__name__])
        with cluster, Client(cluster, set_as_default=False) as client:
            yield client
        return
    address = _checked_address(scheduler)
    _check_handshake(address, scheduler)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {scheduler}: "
                                   f"no answer within {CONNECT_TIMEOUT_S:g} s") from error
    with client:
        yield client


def _checked_address(scheduler: str) -> str:
    """``scheduler`` resolved to an IP address, or :class:`SchedulerUnreachable`."""
    from distributed.comm.addressing import resolve_address

    try:
        # checked before making the Client: a Client that fails on a malformed address
        # stalls the interpreter's exit for twice the timeout
        address = resolve_address(scheduler)
    except ValueError as error:
        raise SchedulerUnreachable(f"not a Dask scheduler address: {scheduler!r} ({error})"
                                   ) from None
    except OSError as error:
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {scheduler}: "
                                   f"{error.strerror or error}") from None
    return address


# ------------------------------------------------------------------ checkpoints

#: Version of the checkpoint file layout.
CHECKPOINT_FORMAT = 1
#: Seconds between checkpoint writes during a fold (and always at its end or stop).
CHECKPOINT_INTERVAL_S = 2.0


class CheckpointMismatch(ValueError):
    """A checkpoint file that belongs to another run, or is not a checkpoint."""


class Checkpoint:
    """Fold states of a run's chunk plans, saved to one JSON file.

    A run folds its plans in a fixed order; the ``n``-th plan of the run is stage ``n``
    (with its function, total and chunk size in the key, so a changed run cannot pick
    up a wrong state).  Each stage stores the chunks folded so far and the folded value
    (floats written by ``repr``, which reads back to the same bits), so a resumed run
    folds the remaining chunks onto the very same value and ends bit-identical.

    ``identity`` (JSON-able) names the run, e.g. the command and its options; resuming
    from a file with another identity raises :class:`CheckpointMismatch`, and so does a
    file whose fields do not hold what this code writes (every field is checked: a
    checkpoint may have been edited or damaged).  ``write(path, data)`` saves the file;
    it must write whole files (a temporary name and a rename, as
    :func:`analyzer.report.files.write_bytes` does), so the file is whole whenever the
    run stops.  This layer computes and never writes files itself.
    """

    def __init__(self, path: str | os.PathLike[str], identity: Mapping[str, Any],
                 resume: bool = False, interval_s: float = CHECKPOINT_INTERVAL_S, *,
                 write: Callable[[Path, bytes], object]) -> None:
        self.path = Path(path)
        self.identity = json.loads(json.dumps(identity, sort_keys=True, default=str))
        self.interval_s = interval_s
        self.stages: dict[str, dict[str, Any]] = {}
        self._write_file = write
        self._restored: dict[str, FoldState[Any]] = {}
        self._count = 0
        self._last_save = time.monotonic()
        if resume:
            self._load()
        self._write()

    def _bad(self, problem: str) -> CheckpointMismatch:
        return CheckpointMismatch(f"checkpoint {self.path} is damaged: {problem}")

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            raise CheckpointMismatch(f"no checkpoint to resume at {self.path}") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CheckpointMismatch(f"not a checkpoint file: {self.path} ({error})") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointMismatch(f"not a checkpoint file: {self.path}")
        if data.get("identity") != self.identity:
            raise CheckpointMismatch(f"checkpoint {self.path} belongs to another run: "
                                     f"{json.dumps(data.get('identity'), sort_keys=True)}")
        stages = data.get("stages")
        if not isinstance(stages, dict):
            raise self._bad(f"field 'stages' must be an object, got {_shown(stages)}")
        for key, entry in stages.items():
            where = f"stages[{key!r}]"
            if not isinstance(entry, dict):
                raise self._bad(f"{where} must be an object, got {_shown(entry)}")
            for field in ("chunks", "units"):
                count = entry.get(field)
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise self._bad(f"{where}.{field} must be a whole number >= 0, "
                                    f"got {_shown(count)}")
            if "value" not in entry:
                raise self._bad(f"{where} has no field 'value'")
            try:
                value = _decode(entry["value"])
            except (ValueError, TypeError, KeyError, AttributeError, OverflowError,
                    RecursionError) as error:
                raise self._bad(f"{where}.value cannot be read ({error})") from None
            self._restored[key] = FoldState(value, entry["chunks"], entry["units"])
        self.stages = stages

    def stage(self, plan: ChunkPlan) -> str:
        """The key of the next plan folded in this run."""
        function = plan.function
        key = (f"{self._count}:{function.__module__}.{function.__qualname__}:"
               f"{plan.total}:{plan.chunk}")
        self._count += 1
        return key

    def restore(self, stage: str, state: FoldState[A], plan: ChunkPlan) -> FoldState[A]:
        """The saved state of ``stage``, else ``state`` (the fold's start).

        Raises :class:`CheckpointMismatch` when the saved state cannot be one of
        ``plan``: more chunks than it has, units that are not those of its first chunks,
        or a value not shaped like the fold's."""
        saved = self._restored.get(stage)
        if saved is None:
            return state
        where = f"stages[{stage!r}]"
        if saved.chunks > len(plan):
            raise self._bad(f"{where}.chunks is {saved.chunks:,}, but the run has "
                            f"{len(plan):,} chunks")
        if saved.units != plan.units_before(saved.chunks):
            raise self._bad(f"{where}.units is {saved.units:,}, but {saved.chunks:,} "
                            f"chunks hold {plan.units_before(saved.chunks):,}")
        problem = _misfit(saved.value, state.value)
        if problem is not None:
            raise self._bad(f"{where}.value {problem}")
        return FoldState(saved.value, saved.chunks, saved.units)

    def maybe_save(self, stage: str, state: FoldState[Any]) -> None:
        """Save when :attr:`interval_s` has passed since the last save."""
        if time.monotonic() - self._last_save >= self.interval_s:
            self.save(stage, state)

    def save(self, stage: str, state: FoldState[Any]) -> None:
        """Record ``state`` for ``stage`` and write the file."""
        self.stages[stage] = {"chunks": state.chunks, "units": state.units,
                              "value": _encode(state.value)}
        self._write()

    def _write(self) -> None:
        text = json.dumps({"format": CHECKPOINT_FORMAT, "identity": self.identity,
                           "stages": self.stages})
        self._write_file(self.path, text.encode())
        self._last_save = time.monotonic()


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _misfit(saved: Any, start: Any) -> str | None:
    """Why ``saved`` cannot be a fold value that began as ``start``, or None.

    Structure the start fixes (an array's dtype and shape, a tuple's length, a dict's
    keys) must match; what a fold adds (list items, new dict keys) must be numbers,
    numeric arrays or containers of them, the only things the runs fold."""
    if isinstance(start, np.ndarray):
        if not isinstance(saved, np.ndarray) or saved.dtype != start.dtype \
                or saved.shape != start.shape:
            return f"must be a {start.dtype} array of shape {start.shape}"
        return None
    if isinstance(start, (bool, np.bool_)) or start is None or isinstance(start, str):
        return None if type(saved) is type(start) else f"must be {start!r}-like"
    if isinstance(start, (int, float, np.integer, np.floating)):
        return None if _numeric(saved) and not isinstance(saved, (list, tuple, dict)) \
            else "must be a number"
    if isinstance(start, tuple):
        if not isinstance(saved, tuple) or len(saved) != len(start):
            return f"must be a list of {len(start)} parts"
        for index, (item, first) in enumerate(zip(saved, start, strict=True)):
            problem = _misfit(item, first)
            if problem is not None:
                return f"part {index} {problem}"
        return None
    if isinstance(start, dict):
        if not isinstance(saved, dict):
            return "must be a table of named sums"
        for key, first in start.items():
            if key not in saved:
                return f"has no {key!r}"
            problem = _misfit(saved[key], first)
            if problem is not None:
                return f"{key!r} {problem}"
        return None if all(_numeric(v) for k, v in saved.items() if k not in start) \
            else "holds something other than numbers"
    if isinstance(start, list):
        return None if isinstance(saved, list) and all(_numeric(v) for v in saved) \
            else "must be a list of numbers"
    return None if type(saved) is type(start) else f"must be a {type(start).__name__}"


def _numeric(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf"
    if isinstance(value, dict):
        return all(isinstance(k, str) and _numeric(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_numeric(v) for v in value)
    return False


_ACTIVE_CHECKPOINT: ContextVar[Checkpoint | None] = ContextVar("checkpoint", default=None)


@contextmanager
def checkpointing(checkpoint: Checkpoint | None) -> Iterator[Checkpoint | None]:
    """Make every :func:`fold_plan` inside the block save to (and resume from)
    ``checkpoint``; None does nothing."""
    token = _ACTIVE_CHECKPOINT.set(checkpoint)
    try:
        yield checkpoint
    finally:
        _ACTIVE_CHECKPOINT.reset(token)


def _encode(value: Any) -> Any:
    """``value`` as JSON data that :func:`_decode` reads back to the same bits."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return {"float": float(value).hex()}
    if isinstance(value, np.ndarray):
        return {"array": value.ravel().tolist() if value.dtype.kind in "iub" else
                [float(v).hex() for v in value.ravel()],
                "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, Mapping):
        return {"dict": [[key, _encode(item)] for key, item in value.items()]}
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple": [_encode(v) for v in value]}
    raise TypeError(f"cannot checkpoint a {type(value).__name__}")


def _decode(data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    if "float" in data:
        return float.fromhex(data["float"])
    if "array" in data:
        dtype = np.dtype(data["dtype"])
        items = data["array"] if dtype.kind in "iub" else [float.fromhex(v) for v in data["array"]]
        return np.array(items, dtype=dtype).reshape(data["shape"])
    if "dict" in data:
        return {key: _decode(item) for key, item in data["dict"]}
    if "list" in data:
        return [_decode(v) for v in data["list"]]
    return tuple(_decode(v) for v in data["tuple"])


#: Seconds a TCP scheduler has to send its handshake once connected (a scheduler sends
#: it at once: this is a network round trip plus slack).
HANDSHAKE_TIMEOUT_S = 1.5


def _check_handshake(address: str, scheduler: str) -> None:
    """Raise :class:`SchedulerUnreachable` unless a plain ``tcp://`` address answers
    like a Dask scheduler: one sends its handshake (a msgpack map naming its
    ``compression``) as soon as a connection opens.  Without this check a Client waits
    forever on a server of another kind that accepts the connection and stays silent."""
    protocol, _, location = address.partition("://")
    if protocol != "tcp":
        return
    host, _, port = location.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)),
                                      timeout=CONNECT_TIMEOUT_S) as probe:
            probe.settimeout(HANDSHAKE_TIMEOUT_S)
            greeting = b""
            while len(greeting) < 512 and b"compression" not in greeting:
                data = probe.recv(512)
                if not data:
                    break
                greeting += data
    except TimeoutError:
        greeting = b""
    except (OSError, ValueError) as error:
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {scheduler}: "
                                   f"{getattr(error, 'strerror', None) or error}") from None
    if b"compression" not in greeting:
        raise SchedulerUnreachable(f"{scheduler} answers but is not a Dask scheduler (no "
                                   f"handshake within {HANDSHAKE_TIMEOUT_S:g} s)")


def dask_setup(worker: object) -> None:
    """Dask preload hook of the ``local:N`` workers: ignore SIGINT.

    Ctrl-C in a terminal signals the whole process group, workers included.  Only the
    client process should react, by cancelling the chunks and closing the cluster; a
    worker that died of the signal would print a traceback and be restarted for nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["CHECKPOINT_INTERVAL_S", "CONNECT_TIMEOUT_S", "IN_FLIGHT_PER_WORKER", "SCHEDULER_ENV",
           "TASK_RETRIES", "Checkpoint", "CheckpointMismatch", "ChunkPlan", "ChunkSpan",
           "ChunksInterrupted", "FoldState", "RunInterrupted", "SchedulerUnreachable",
           "checkpointing", "fold_plan", "interrupt_on_sigterm", "map_chunks", "map_spans",
           "resolve_scheduler"]
