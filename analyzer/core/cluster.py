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

import logging
import os
import signal
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from distributed import Client

R = TypeVar("R")
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
    except KeyboardInterrupt:
        raise ChunksInterrupted(finished, len(chunk_kwargs)) from None
    return [finished[index] for index in range(len(chunk_kwargs))]


def map_spans(function: Callable[..., R], total: int, chunk: int, common: Mapping[str, Any],
              scheduler: str | None = None, progress: Callable[[int], None] | None = None,
              first_key: str = "first", count_key: str = "count") -> list[R]:
    """:func:`map_chunks` over the seed-addressed spans of a run of ``total`` units (deals
    or games): chunk ``k`` gets ``common`` plus ``first_key = k * chunk`` and
    ``count_key`` = its length, and reports that length to ``progress``."""
    spans = [(first, min(chunk, total - first)) for first in range(0, total, chunk)]
    calls = [{**common, first_key: first, count_key: count} for first, count in spans]
    return map_chunks(function, calls, scheduler, progress, [count for _, count in spans])


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
        numba.set_num_threads(max(1, numba.config.NUMBA_NUM_THREADS // processes))
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


def dask_setup(worker: object) -> None:
    """Dask preload hook of the ``local:N`` workers: ignore SIGINT.

    Ctrl-C in a terminal signals the whole process group, workers included.  Only the
    client process should react, by cancelling the chunks and closing the cluster; a
    worker that died of the signal would print a traceback and be restarted for nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["CONNECT_TIMEOUT_S", "SCHEDULER_ENV", "TASK_RETRIES", "ChunksInterrupted",
           "SchedulerUnreachable", "map_chunks", "resolve_scheduler"]
