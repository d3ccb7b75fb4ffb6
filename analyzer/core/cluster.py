"""Run a chunk plan's chunks on a Dask cluster: the executor behind the schedulers.

The scheduler is chosen by one string (argument, ``--scheduler`` or the
``ANALYZER_SCHEDULER`` environment variable):

* unset or empty: chunks run one after another in this process, each one a numba-parallel
  kernel over all cores (the default; :func:`analyzer.core.chunks.fold_chunks` does it
  without this module's help);
* ``local:N``: a Dask ``LocalCluster`` of ``N`` worker processes on this machine;
* an address such as ``tcp://scheduler.example:8786``: a running ``dask.distributed``
  scheduler, whose workers must have the same version of ``analyzer`` installed.

On a cluster each chunk is one task.  A chunk whose worker dies is rerun on another
worker by the scheduler, and one that raises is retried :data:`TASK_RETRIES` times;
since chunks are deterministic, neither changes the result.  A worker process runs one
chunk at a time on ``NUMBA_NUM_THREADS // P`` numba threads, ``P`` being the number of
worker processes on its host when the run starts: the chunks share each machine's cores
without oversubscribing them, whatever the workers' layout.

Dask is the optional ``cluster`` extra (``pip install 'rummy-analyzer[cluster]'``) and is
imported only when a scheduler is given.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from .limits import LOCAL_WORKERS_PER_CORE, MAX_SCHEDULER_CHARS, max_local_workers

if TYPE_CHECKING:
    from distributed import Client

    from .plans import ChunkPlan, ChunkSpan

R = TypeVar("R")

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


def resolve_scheduler(scheduler: str | None) -> str:
    """The scheduler to use: ``scheduler`` if given, else ``$ANALYZER_SCHEDULER``.

    Returns ``""`` for the in-process path.  Raises ``ValueError`` for a malformed one:
    ``local:N`` with ``N`` outside 1 to :func:`~analyzer.core.limits.max_local_workers`,
    or an address that is no Dask address (an unknown protocol, no port, spaces);
    ``ModuleNotFoundError`` for any scheduler when dask.distributed is not installed.
    Whether an address answers is known only once a run connects to it.

    >>> resolve_scheduler(" local:2 ")
    'local:2'
    >>> resolve_scheduler("")
    ''
    """
    text = (os.environ.get(SCHEDULER_ENV, "") if scheduler is None else scheduler).strip()
    if text and _local_workers(text) is None:
        _check_address_form(text)
    return text


def _local_workers(scheduler: str) -> int | None:
    """``N`` of a ``local:N`` scheduler, else None."""
    if scheduler != "local" and not scheduler.startswith("local:"):
        return None
    count, high = scheduler.partition(":")[2], max_local_workers()
    # ASCII digits only, and few of them: int() takes other scripts' digits and fails
    # on thousands of digits
    if not (count.isascii() and count.isdigit() and len(count) <= 6 and 1 <= int(count) <= high):
        raise ValueError(
            f"expected local:N with N 1-{high} worker processes ({LOCAL_WORKERS_PER_CORE} "
            f"per core of this machine), got {_shown(scheduler)}"
        )
    return int(count)


def _check_address_form(scheduler: str) -> None:
    """``ValueError`` unless ``scheduler`` is written as a Dask address
    (``[protocol://]host:port`` of a protocol Dask knows), without resolving the host."""
    _needs_distributed()
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port

    problem = None
    if len(scheduler) > MAX_SCHEDULER_CHARS:
        problem = f"longer than {MAX_SCHEDULER_CHARS} characters"
    elif not scheduler.isprintable() or any(char.isspace() for char in scheduler):
        problem = "it holds spaces or control characters"
    else:
        protocol, location = parse_address(scheduler)
        if protocol not in registry.backends:
            known = ", ".join(sorted(registry.backends))
            problem = f"unknown protocol {protocol!r}; Dask knows {known}"
        elif protocol != "inproc":
            try:
                port = parse_host_port(location)[1]
            except ValueError:
                port = None
            if not (isinstance(port, int) and 1 <= port <= 65535):
                problem = "expected host:port with a port 1-65535"
    if problem:
        raise ValueError(
            f"not a Dask scheduler address or local:N: {_shown(scheduler)} ({problem})"
        )


def _shown(text: str) -> str:
    """``repr(text)``, cut to 60 characters (an environment variable may be long)."""
    shown = repr(text)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _needs_distributed() -> None:
    """``ModuleNotFoundError`` with the command that installs dask.distributed when it is
    missing."""
    try:
        import distributed  # noqa: F401
    except ImportError as error:
        raise ModuleNotFoundError(
            "running on a Dask cluster needs dask.distributed: "
            "pip install 'rummy-analyzer[cluster]'"
        ) from error


#: Chunks in flight on a cluster per worker thread: enough to keep workers busy while
#: results travel back, few enough that memory stays flat on runs of any length.
IN_FLIGHT_PER_WORKER = 4


def results_on_cluster(
    plan: ChunkPlan, scheduler: str, start: int
) -> Generator[tuple[ChunkSpan, Any]]:
    """Run the chunks from ``start`` on as Dask tasks, a bounded number at a time, and
    yield their results in chunk order (the cluster path of
    :func:`analyzer.core.chunks.fold_chunks`).

    Raises :class:`SchedulerUnreachable` when no scheduler answers at the address within
    :data:`CONNECT_TIMEOUT_S`.  Closing the generator (Ctrl-C included) cancels the
    chunks in flight and closes the client (and a ``local:N`` cluster)."""
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
                future = client.submit(
                    _run_chunk,
                    plan.function,
                    plan.kwargs(span),
                    processes_by_host,
                    key=key,
                    retries=TASK_RETRIES,
                    pure=False,
                )
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


def _run_chunk(
    function: Callable[..., R], kwargs: Mapping[str, Any], processes_by_host: Mapping[str, int]
) -> R:
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
    _needs_distributed()
    from distributed import Client, LocalCluster

    workers = _local_workers(scheduler)
    if workers is not None:
        # loopback only; the scheduler's HTTP server (always started, even without a
        # dashboard) takes any free port rather than warn when 8787 is taken
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.ERROR,
            preload=[__name__],
        )
        with cluster, Client(cluster, set_as_default=False) as client:
            yield client
        return
    address = _checked_address(scheduler)
    _check_handshake(address, scheduler)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise SchedulerUnreachable(
            f"cannot reach the Dask scheduler at {scheduler}: "
            f"no answer within {CONNECT_TIMEOUT_S:g} s"
        ) from error
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
        raise SchedulerUnreachable(
            f"not a Dask scheduler address: {scheduler!r} ({error})"
        ) from None
    except OSError as error:
        raise SchedulerUnreachable(
            f"cannot reach the Dask scheduler at {scheduler}: {error.strerror or error}"
        ) from None
    return address


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
        with socket.create_connection(
            (host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S
        ) as probe:
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
        raise SchedulerUnreachable(
            f"cannot reach the Dask scheduler at {scheduler}: "
            f"{getattr(error, 'strerror', None) or error}"
        ) from None
    if b"compression" not in greeting:
        raise SchedulerUnreachable(
            f"{scheduler} answers but is not a Dask scheduler (no "
            f"handshake within {HANDSHAKE_TIMEOUT_S:g} s)"
        )


def dask_setup(worker: object) -> None:
    """Dask preload hook of the ``local:N`` workers: ignore SIGINT.

    Ctrl-C in a terminal signals the whole process group, workers included.  Only the
    client process should react, by cancelling the chunks and closing the cluster; a
    worker that died of the signal would print a traceback and be restarted for nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = [
    "CONNECT_TIMEOUT_S",
    "HANDSHAKE_TIMEOUT_S",
    "IN_FLIGHT_PER_WORKER",
    "SCHEDULER_ENV",
    "TASK_RETRIES",
    "SchedulerUnreachable",
    "dask_setup",
    "resolve_scheduler",
    "results_on_cluster",
]
