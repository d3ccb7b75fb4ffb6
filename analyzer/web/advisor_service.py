"""The advisor behind the API: one worker thread, a bounded queue, and runs that stop at
their time limit or once nobody waits for them.

An answer depends on its request only (the position, the rules, the players, the seed
and the samples), never on the server's speed: a request without ``samples`` runs the
advisor's one default budget (:data:`~analyzer.gin.play.advisor.ADVICE_SAMPLES`, as
``analyzer advise`` does), and a run that cannot finish its samples within the time limit
is refused (503), never answered from fewer."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from fastapi import HTTPException

from ..core.limits import ADVICE_RUN_SECONDS
from ..gin.play.advisor import ADVICE_EQUITY_DEALS
from ..studies.study import DEFAULT_SEED
from .common import policy_named, rules_named

#: Advisor runs queued or running at once (503 beyond), and requests one client waits on at
#: once (429 beyond).  A request that stops waiting (the client went, or the page moved on)
#: frees its client's place at once; its run holds its place in the queue until it stops,
#: at its next batch, so abandoned requests cannot flood the queue.
MAX_ADVISOR_QUEUE = 8
MAX_ADVISOR_PER_CLIENT = 3
#: Longest advisor run (s): a run still going then is refused (``analyzer serve
#: --advice-seconds`` sets it).
MAX_RUN_SECONDS = ADVICE_RUN_SECONDS


class AdvisorStopped(Exception):
    """A run stopped between batches: over its time limit, or nobody waits for it."""


@dataclass
class AdvisorService:
    """Runs advisor requests one at a time off the event loop, within bounds (see
    :mod:`analyzer.web.app`)."""

    limit_seconds: float = MAX_RUN_SECONDS
    """Longest run (s): one that has not finished its samples by then is refused."""
    max_queue: int = MAX_ADVISOR_QUEUE
    max_per_client: int = MAX_ADVISOR_PER_CLIENT
    poll_seconds: float = 0.2
    """How often a waiting request checks whether its client has gone."""
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="advisor")
    )
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: the running run stops too."""
    _pending: Counter[str] = field(default_factory=Counter)
    """Runs in the executor (queued or running), per client."""
    _waiting: Counter[str] = field(default_factory=Counter)
    """Requests waiting for their answer, per client."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def wait_seconds(self) -> float:
        """Longest wait of a request, queue included (503 after, and its run stops)."""
        return 3 * self.limit_seconds

    def run(
        self,
        position: Any,
        rules_preset: str,
        policy_text: str,
        opponent_text: str,
        samples: int,
        seed: int,
        tolerance: float | None = None,
        cancel: threading.Event | None = None,
    ) -> dict[str, Any]:
        """The advice as JSON-ready data (blocking: call it in :attr:`executor`).

        Raises :class:`AdvisorStopped` between batches once ``cancel`` or
        :attr:`closing` is set or the run passes :attr:`limit_seconds`.
        """
        from ..gin.play.advisor import advise

        started = time.monotonic()

        def stop_reason() -> str | None:
            if self.closing.is_set():
                return "the server is stopping"
            if cancel is not None and cancel.is_set():
                return "nobody waits for this run any more"
            if time.monotonic() - started > self.limit_seconds:
                return (
                    f"the advisor could not finish its {samples:,} samples within the "
                    f"server's {self.limit_seconds:g} s: ask for fewer samples (the answer "
                    "depends on them), or run analyzer advise"
                )
            return None

        if (reason := stop_reason()) is not None:
            raise AdvisorStopped(reason)
        rules, policy = rules_named(rules_preset), policy_named(policy_text)
        opponent = policy_named(opponent_text)
        equity = None
        if position.score is not None:
            equity = _equity(rules_preset, policy_text, opponent_text)

        def progress(count: int) -> None:
            if (reason := stop_reason()) is not None:
                raise AdvisorStopped(reason)

        advice = advise(
            position,
            rules,
            policy,
            opponent,
            samples=samples,
            seed=seed,
            tolerance=tolerance,
            equity=equity,
            progress=progress,
        )
        from ..gin.play.advisor.draw_principles import draw_note
        from ..gin.play.advisor.principles import best_discard_note

        return advice.to_dict() | {
            "principle": best_discard_note(position, advice.actions[0].action, symbols=True),
            "draw_principle": draw_note(position, symbols=True),
            "rules_preset": rules_preset,
            "sample_budget": samples,
            "time_limit_s": self.limit_seconds,
        }

    async def advise(
        self,
        position: Any,
        rules_preset: str,
        policy_text: str,
        opponent_text: str,
        samples: int,
        seed: int,
        tolerance: float | None = None,
        client: str = "",
        disconnected: Callable[[], Awaitable[bool]] | None = None,
    ) -> dict[str, Any]:
        """:meth:`run` in the advisor thread.  503 when the queue is full or the answer
        takes over :attr:`wait_seconds`, 429 when ``client`` has too many runs queued;
        the run stops once nobody waits for it (503 given, or ``disconnected()``)."""
        with self._lock:
            if sum(self._pending.values()) >= self.max_queue:
                raise HTTPException(
                    503,
                    f"the advisor is busy ({self.max_queue} requests waiting); try again shortly",
                )
            if self._waiting[client] >= self.max_per_client:
                raise HTTPException(
                    429, f"at most {self.max_per_client} advisor requests from one address at once"
                )
            self._pending[client] += 1
            self._waiting[client] += 1
        cancel = threading.Event()
        try:
            job = self.executor.submit(
                self.run,
                position,
                rules_preset,
                policy_text,
                opponent_text,
                samples,
                seed,
                tolerance,
                cancel,
            )
        except RuntimeError:  # the executor is shut down: the server is stopping
            self._release(self._pending, client)
            self._release(self._waiting, client)
            raise HTTPException(503, "the server is stopping") from None
        job.add_done_callback(lambda _: self._release(self._pending, client))
        waiter = asyncio.wrap_future(job)
        waiter.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait_seconds
        try:
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise HTTPException(
                        503,
                        "the advisor did not answer within "
                        f"{self.wait_seconds:g} s (busy); try again shortly",
                    )
                done, _ = await asyncio.wait({waiter}, timeout=min(self.poll_seconds, remaining))
                if done:
                    try:
                        return waiter.result()
                    except AdvisorStopped as error:
                        raise HTTPException(503, str(error)) from None
                if disconnected is not None and await disconnected():
                    raise HTTPException(503, "the client went away")
        finally:
            cancel.set()  # no effect on a finished run; stops one nobody waits for
            self._release(self._waiting, client)

    def _release(self, counts: Counter[str], client: str) -> None:
        with self._lock:
            counts[client] -= 1
            if counts[client] <= 0:
                del counts[client]

    def stop(self) -> None:
        """Stop the running run and forget the queued ones (the server is stopping)."""
        self.closing.set()
        self.executor.shutdown(wait=False, cancel_futures=True)


@lru_cache(maxsize=8)
def _equity(
    rules_preset: str, policy_text: str, opponent_text: str
) -> Callable[[int, int, bool], float]:
    """The game-win table valuing final scores (:data:`ADVICE_EQUITY_DEALS` deals, a few
    seconds, cached)."""
    from ..gin.studies.equity.table import equity_function

    return equity_function(
        rules_named(rules_preset),
        policy_named(policy_text),
        policy_named(opponent_text),
        ADVICE_EQUITY_DEALS,
        DEFAULT_SEED,
    )
