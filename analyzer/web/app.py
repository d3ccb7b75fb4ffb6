"""The FastAPI app: three pages over a JSON API (OpenAPI at ``/openapi.json``).

Every input is validated against the same ranges as the CLI (:data:`LIMITS`, taken from
:mod:`analyzer.cli`); anything outside them, bad JSON, an impossible position or an
illegal move gets HTTP 400 with a one-line ``{"error": ...}``, and so does every other
error the app answers (unknown routes, wrong methods, a Host header that does not name
this server).  The server bounds what one client can take:

* request bodies: at most :data:`MAX_BODY_BYTES`, received within :data:`BODY_TIMEOUT_S`
  (connections and header time are bounded by :mod:`analyzer.web.server`);
* advisor work: runs go to one worker thread (numba shares nothing across two cores, and
  one queue keeps a burst from starving the rest), at most :data:`MAX_ADVISOR_QUEUE`
  waiting or running, :data:`MAX_ADVISOR_PER_CLIENT` of them from one client (429
  beyond).  A run without ``samples`` gets the sample budget its time budget
  (``advice_seconds``) buys at the measured rate; every run stops at
  :data:`MAX_RUN_SECONDS` (an explicit ``samples`` budget is cut to what the measured
  rate fits in that time; the answer says so).  A run whose client has gone, or whose
  request was already answered 503, stops between batches;
* games: at most :data:`MAX_GAMES_PER_CLIENT` per client (a client's new game forgets
  its own least recently used one) and :data:`MAX_GAMES` in all (beyond, the client
  holding the most games gives one up).

Game moves run in the server's thread pool (FastAPI runs plain ``def`` endpoints there),
never on the event loop.  Every response carries basic security headers
(:data:`SECURITY_HEADERS`).
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import json
import logging
import socket
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import anyio
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.limits import MAX_SAMPLES, MAX_TOLERANCE, SEED_MAX
from ..gin.play.advisor.position import UNDEALT
from ..gin.engine.transitions import MAX_DRAWS

#: Largest accepted request body (bytes); a position is well under 1 kB.
MAX_BODY_BYTES = 16 * 1024
#: Seconds a request body may take to arrive (408 after).
BODY_TIMEOUT_S = 10.0
#: Most games kept in memory.
MAX_GAMES = 500
#: Most games one client (peer address) keeps; its new game forgets its oldest.
MAX_GAMES_PER_CLIENT = 20
#: Advisor runs waiting or running at once (503 beyond), and from one client (429 beyond).
MAX_ADVISOR_QUEUE = 8
MAX_ADVISOR_PER_CLIENT = 3
#: Longest advisor run (s), whatever its sample budget (at least twice advice_seconds).
MAX_RUN_SECONDS = 10.0
#: Longest text of a rules preset or policy spec.
MAX_SPEC_CHARS = 200
#: Largest decision index (an int64).
INDEX_MAX = 2**63 - 1
#: The ranges of every numeric API argument, shared with the CLI (``analyzer advise``
#: --samples, --tolerance, --seed, --stock, --turn).
LIMITS: dict[str, tuple[float, float]] = {
    "samples": (1, MAX_SAMPLES), "tolerance": (0, MAX_TOLERANCE), "seed": (0, SEED_MAX),
    "stock": (2, UNDEALT), "turn": (1, MAX_DRAWS // 2)}
STATIC = Path(__file__).parent / "static"
CardList = str | list[str]
log = logging.getLogger("analyzer.web")


def default_opponent() -> str:
    """``expert``; ``gin-hunter`` (the strongest preset of the committed tournament) in a
    checkout without the expert preset."""
    from ..gin.model.policies import PRESETS

    return "expert" if "expert" in PRESETS else "gin-hunter"


# ------------------------------------------------------------------------ schemas


class PositionIn(BaseModel):
    """The CLI's ``--position`` JSON: cards in notation (``"Kd 9s"`` or ``["Kd", "9s"]``)."""

    model_config = ConfigDict(extra="forbid")
    hand: CardList = Field(description="Your 11 cards after drawing (or 10 with drawn).")
    pile: CardList = Field("", description="The discard pile, bottom to top.")
    opp_took: CardList = Field("", description="Cards the opponent took from the pile.")
    opp_threw: CardList = Field("", description="Cards the opponent discarded.")
    stock: int | None = Field(None, ge=2, le=UNDEALT, description="Cards left in the stock.")
    turn: int | None = Field(None, ge=1, le=MAX_DRAWS // 2,
                             description="Your own turn number, this draw included.")
    dealer: Literal["me", "opp"] = "opp"
    drawn: str | None = Field(None, description="The card just drawn.", max_length=20)
    from_pile: bool = Field(False, description="Whether drawn came from the pile.")
    score: str | list[int] | None = Field(None, description="Score mine:theirs before this "
                                                            "hand; the objective becomes the "
                                                            "game-win probability.")
    upcard: str | None = Field(None, description="The hand's first upcard.", max_length=20)


class AdviseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: PositionIn
    rules: str = Field("standard", description="Rules preset.", max_length=MAX_SPEC_CHARS)
    opponent: str | None = Field(None, description="The opponent model (policy preset or "
                                                   "spec) [default: expert].",
                                 max_length=MAX_SPEC_CHARS)
    policy: str = Field("basic", description="How you play on after this discard.",
                        max_length=MAX_SPEC_CHARS)
    samples: int | None = Field(None, ge=1, le=MAX_SAMPLES,
                                description="Sample budget [default: the time budget]; a "
                                            "run stops at the server's time limit, so a "
                                            "budget the measured rate cannot fit in it is "
                                            "cut (the answer's sample_budget).")
    tolerance: float | None = Field(None, gt=0, le=MAX_TOLERANCE, allow_inf_nan=False,
                                    description="Stop when every rival's difference to the "
                                    "best is this precise (95% half-width; points, or win "
                                    "probability with a score).")
    seed: int = Field(1, ge=0, le=SEED_MAX, description="Random seed, 0 <= seed < 2**63.")


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field("standard", max_length=MAX_SPEC_CHARS)
    opponent: str | None = Field(None, description="Policy preset or spec [default: expert].",
                                 max_length=MAX_SPEC_CHARS)
    mode: Literal["hand", "game"] = Field("game", description="Single hands, or a game to "
                                                              "the rules' target.")
    hints: Literal["off", "before", "after"] = "before"
    seed: int | None = Field(None, ge=0, le=SEED_MAX,
                             description="Deals are reproducible from it, 0 <= seed < 2**63 "
                                         "[default: random].")


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(description="take, pass, stock, pile, 'play Kd', 'knock Kd', "
                                  "'gin Kd' or 'big gin'.", max_length=20)


class ErrorOut(BaseModel):
    error: str = Field(description="One-line reason.")


#: The error answers of every route, for the OpenAPI description (no 422: validation
#: errors are 400).
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Bad input: a value outside its range, bad "
                                            "JSON, an impossible position, an illegal "
                                            "move, or a Host header not naming this server."},
    "4XX": {"model": ErrorOut, "description": "404 no such game or decision, 405 wrong "
                                              "method, 408 body not received in time, "
                                              "413 body too large, 429 too many advisor "
                                              "requests from your address."},
    "5XX": {"model": ErrorOut, "description": "503: the advisor is busy or its run reached "
                                              "the time limit; try again."},
}


# ------------------------------------------------------------------------ guards


#: Headers every response carries.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action 'self'"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def one_line(text: object, limit: int = 300) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


@dataclass(frozen=True)
class HostPolicy:
    """The Host header values naming this server (the defence against DNS rebinding: a
    page of another site whose name resolves to this machine sends its own name)."""

    names: frozenset[str]
    """Host names and normalised IP addresses, lower case."""
    any_address: bool = False
    """Any IP address (a wildcard bind): a literal address cannot be rebound."""

    def allows(self, header: str | None) -> bool:
        if header is None:
            return True  # HTTP/1.0 without Host: no name to check (no browser sends it)
        name = host_name(header)
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return name in self.names
        return self.any_address or str(address) in self.names


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def host_name(header: str) -> str:
    """The name of a Host header, lower case, without port or brackets."""
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else value
    if value.count(":") == 1:
        value = value.partition(":")[0]
    return value.rstrip(".")


def host_policy(host: str, allow: Iterable[str] = ()) -> HostPolicy:
    """The Host headers a server bound to ``host`` answers: its address (and
    ``localhost`` for a loopback one); any IP address plus this machine's names for a
    wildcard bind; and the names in ``allow``."""
    names = {host_name(name) for name in allow if name.strip()}
    bound = host_name(host) if host else ""
    wildcard = bound in ("", "0.0.0.0", "::")
    addresses: set[str] = set()
    try:
        addresses.add(str(ipaddress.ip_address(bound)))
    except ValueError:
        if bound and not wildcard:
            names.add(bound)
            with suppress(OSError, ValueError):  # a name: its addresses name it too
                addresses |= {str(ipaddress.ip_address(str(info[4][0]).partition("%")[0]))
                              for info in socket.getaddrinfo(bound, None)}
    names |= addresses
    if wildcard:
        names |= LOOPBACK_NAMES | {socket.gethostname().lower(), socket.getfqdn().lower()}
    if bound == "localhost" or any(ipaddress.ip_address(a).is_loopback for a in addresses):
        names |= LOOPBACK_NAMES
    return HostPolicy(frozenset(names), any_address=wildcard)


async def _json_error(send: Send, status: int, message: str, close: bool = False) -> None:
    body = json.dumps({"error": one_line(message)}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if close:  # the rest of the request was not read: end the connection
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware (outermost): the Host check, security headers on every answer,
    and a one-line JSON 500 (traceback in the log) for an unexpected error."""

    def __init__(self, app: ASGIApp, hosts: HostPolicy) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        api = scope.get("path", "").startswith("/api/")

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        host = next((value.decode("latin-1") for name, value in scope.get("headers", [])
                     if name == b"host"), None)
        if not self.hosts.allows(host):
            await _json_error(guarded_send, 400, f"the Host header {host!r} does not name "
                                                 "this server (analyzer serve --allow-host "
                                                 "NAME adds a name)", close=True)
            return
        try:
            await self.app(scope, receive, guarded_send)
        except Exception as error:
            log.exception("error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            await _json_error(guarded_send, 500, f"internal error: {type(error).__name__}")


class BodyLimit:
    """ASGI middleware: 413 for bodies over ``limit`` bytes (declared or streamed), 408
    for one not received within ``timeout`` seconds, 400 for a body that is not UTF-8."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = BODY_TIMEOUT_S) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _json_error(send, 413, f"request body over {self.limit} bytes", True)
                return
        # buffer the body (small by construction) so that an oversized or slow one is
        # refused before the app reads any of it, however it is sent (declared or chunked)
        messages: list[Message] = []
        size = 0
        try:
            with anyio.fail_after(self.timeout):
                while True:
                    message = await receive()
                    messages.append(message)
                    if message["type"] != "http.request":
                        break
                    size += len(message.get("body", b""))
                    if size > self.limit:
                        await _json_error(send, 413, f"request body over {self.limit} "
                                                     "bytes", True)
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _json_error(send, 408, f"request body not received within "
                                         f"{self.timeout:g} s", True)
            return
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        if body:
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as error:
                await _json_error(send, 400, f"bad JSON: the body is not UTF-8 "
                                             f"({error.reason} at byte {error.start})")
                return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


# ------------------------------------------------------------------------ the advisor


class AdvisorStopped(Exception):
    """A run stopped between batches: over its time limit, or nobody waits for it."""


@dataclass
class AdvisorService:
    """Runs advisor requests one at a time off the event loop, within bounds (see the
    module notes)."""

    seconds: float = 1.2
    """Time budget of a request without ``samples`` (s): sets its sample budget from the
    measured rate."""
    limit_seconds: float = MAX_RUN_SECONDS
    """Longest run (s); raised to twice :attr:`seconds` if that is more."""
    max_samples: int = 20_000
    """Largest budget of a run without ``samples``."""
    first_samples: int = 2_000
    """Sample budget before any rate is measured."""
    max_budget: int = MAX_SAMPLES
    """Largest budget of any run (``samples`` above it are cut)."""
    max_queue: int = MAX_ADVISOR_QUEUE
    max_per_client: int = MAX_ADVISOR_PER_CLIENT
    poll_seconds: float = 0.2
    """How often a waiting request checks whether its client has gone."""
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="advisor"))
    rates: OrderedDict[str, float] = field(default_factory=OrderedDict)
    """Samples per second of earlier runs, per (rules, policies), the latest 256."""
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: the running run stops too."""
    _pending: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.limit_seconds = max(self.limit_seconds, 2 * self.seconds)

    @property
    def wait_seconds(self) -> float:
        """Longest wait of a request, queue included (503 after, and its run stops)."""
        return 3 * self.limit_seconds

    def budget(self, key: str, samples: int | None = None) -> int:
        """The sample budget of a run: ``samples`` cut to :attr:`max_budget` and to what
        fits in the time limit at the measured rate (before any rate is measured,
        :attr:`first_samples` are assumed to take :attr:`seconds`); without ``samples``,
        what the time budget buys at that rate."""
        rate = self.rates.get(key)
        if samples is not None:
            assumed = rate if rate is not None else self.first_samples / self.seconds
            return max(1, min(samples, self.max_budget,
                              int(0.75 * assumed * self.limit_seconds)))
        if rate is None:
            return self.first_samples
        return int(min(self.max_samples, max(256, rate * self.seconds)))

    def _measured(self, key: str, rate: float) -> None:
        self.rates[key] = rate
        self.rates.move_to_end(key)
        while len(self.rates) > 256:
            self.rates.popitem(last=False)

    def run(self, position: Any, rules_preset: str, policy_text: str, opponent_text: str,
            samples: int | None, seed: int, tolerance: float | None = None,
            measure: bool = True, cancel: threading.Event | None = None,
            limit: bool = True) -> dict[str, Any]:
        """The advice as JSON-ready data (blocking: call it in :attr:`executor`).

        Raises :class:`AdvisorStopped` between batches once ``cancel`` or
        :attr:`closing` is set or (with ``limit``) the run passes :attr:`limit_seconds`.
        """
        from ..gin.play.advisor import advise

        started = time.monotonic()

        def stop_reason() -> str | None:
            if self.closing.is_set():
                return "the server is stopping"
            if cancel is not None and cancel.is_set():
                return "nobody waits for this run any more"
            if limit and time.monotonic() - started > self.limit_seconds:
                return (f"the advisor run reached the server's {self.limit_seconds:g} s "
                        "limit; ask for fewer samples")
            return None

        if (reason := stop_reason()) is not None:
            raise AdvisorStopped(reason)
        rules, policy, opponent = _rules(rules_preset), _policy(policy_text), _policy(
            opponent_text)
        key = f"{rules_preset}|{policy_text}|{opponent_text}"
        equity = None
        if position.score is not None:
            equity = _equity(rules_preset, policy_text, opponent_text)
        budget = self.budget(key, samples)
        # the rate is measured from the end of the first batch (which may include the
        # JIT compilation of a cold cache) to the end of the last
        marks: list[tuple[float, int]] = []  # (time, samples done) of the first and last
        done = 0

        def progress(count: int) -> None:
            nonlocal done
            done += count
            marks[min(len(marks), 1):] = [(time.perf_counter(), done)]
            if (reason := stop_reason()) is not None:
                self._measure(key, marks, measure)
                raise AdvisorStopped(reason)

        advice = advise(position, rules, policy, opponent, samples=budget, seed=seed,
                        tolerance=tolerance, equity=equity, progress=progress)
        if not self._measure(key, marks, measure) and measure and advice.elapsed_s > 0:
            self._measured(key, advice.samples / advice.elapsed_s)
        data = advice.to_dict() | {"rules_preset": rules_preset, "sample_budget": budget,
                                   "time_limit_s": self.limit_seconds}
        if samples is not None:
            data["samples_requested"] = samples
        return data

    def _measure(self, key: str, marks: list[tuple[float, int]], measure: bool) -> bool:
        """Keep the rate between the first and the last batch; False when there is none."""
        if not measure or len(marks) < 2 or marks[1][0] <= marks[0][0]:
            return False
        self._measured(key, (marks[1][1] - marks[0][1]) / (marks[1][0] - marks[0][0]))
        return True

    async def advise(self, position: Any, rules_preset: str, policy_text: str,
                     opponent_text: str, samples: int | None, seed: int,
                     tolerance: float | None = None, client: str = "",
                     disconnected: Callable[[], Awaitable[bool]] | None = None
                     ) -> dict[str, Any]:
        """:meth:`run` in the advisor thread.  503 when the queue is full or the answer
        takes over :attr:`wait_seconds`, 429 when ``client`` has too many runs queued;
        the run stops once nobody waits for it (503 given, or ``disconnected()``)."""
        with self._lock:
            if sum(self._pending.values()) >= self.max_queue:
                raise HTTPException(503, f"the advisor is busy ({self.max_queue} requests "
                                         "waiting); try again shortly")
            if self._pending[client] >= self.max_per_client:
                raise HTTPException(429, f"at most {self.max_per_client} advisor requests "
                                         "from one address at once")
            self._pending[client] += 1
        cancel = threading.Event()
        try:
            job = self.executor.submit(self.run, position, rules_preset, policy_text,
                                       opponent_text, samples, seed, tolerance, True, cancel)
        except RuntimeError:  # the executor is shut down: the server is stopping
            self._release(client)
            raise HTTPException(503, "the server is stopping") from None
        job.add_done_callback(lambda _: self._release(client))
        waiter = asyncio.wrap_future(job)
        waiter.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait_seconds
        try:
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise HTTPException(503, "the advisor did not answer within "
                                             f"{self.wait_seconds:g} s (busy); try again "
                                             "or ask for fewer samples")
                done, _ = await asyncio.wait({waiter}, timeout=min(self.poll_seconds,
                                                                   remaining))
                if done:
                    try:
                        return waiter.result()
                    except AdvisorStopped as error:
                        raise HTTPException(503, str(error)) from None
                if disconnected is not None and await disconnected():
                    raise HTTPException(503, "the client went away")
        finally:
            cancel.set()  # no effect on a finished run; stops one nobody waits for

    def _release(self, client: str) -> None:
        with self._lock:
            self._pending[client] -= 1
            if self._pending[client] <= 0:
                del self._pending[client]

    def stop(self) -> None:
        """Stop the running run and forget the queued ones (the server is stopping)."""
        self.closing.set()
        self.executor.shutdown(wait=False, cancel_futures=True)


@lru_cache(maxsize=64)
def _rules(preset: str) -> Any:
    from ..gin.model.rules import resolve_rules

    return resolve_rules(preset)


@lru_cache(maxsize=64)
def _policy(text: str) -> Any:
    from ..gin.model.policies import parse_policy

    return parse_policy(text)


@lru_cache(maxsize=8)
def _equity(rules_preset: str, policy_text: str, opponent_text: str
            ) -> Callable[[int, int, bool], float]:
    """The game-win table valuing final scores (20,000 deals, about 1.5 s, cached)."""
    from ..gin.studies.equity.table import equity_function

    return equity_function(_rules(rules_preset), _policy(policy_text), _policy(opponent_text),
                           20_000, 1)


def _position(data: PositionIn) -> Any:
    from ..gin.play.advisor import Position

    try:
        return Position.from_json(data.model_dump(exclude_none=True))
    except (ValueError, TypeError) as error:
        raise HTTPException(400, str(error)) from None


def client_of(request: Request) -> str:
    """The client a request counts against: its peer address."""
    return request.client.host if request.client else ""


# ------------------------------------------------------------------------ games


class GameStore:
    """Games by id with their client, least recently used first.  A client keeps at most
    ``per_client`` games (its new game forgets its own least recently used one); beyond
    ``limit`` games in all, the client holding the most gives up its least recently used
    one, so no client can push out another's games by starting many."""

    def __init__(self, limit: int = MAX_GAMES, per_client: int = MAX_GAMES_PER_CLIENT
                 ) -> None:
        self.limit = limit
        self.per_client = per_client
        self.games: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: Any, client: str = "") -> list[str]:
        """Keep ``game`` for ``client``; the ids of the games forgotten to make room."""
        with self.lock:
            self.games[game.game_id] = (client, game)
            forgotten: list[str] = []
            own = [i for i, (owner, _) in self.games.items() if owner == client]
            for game_id in own[:max(0, len(own) - self.per_client)]:
                del self.games[game_id]
                forgotten.append(game_id)
            while len(self.games) > self.limit:
                counts = Counter(owner for owner, _ in self.games.values())
                most = max(counts.values())
                game_id = next(i for i, (owner, _) in self.games.items()
                               if counts[owner] == most)
                del self.games[game_id]
                forgotten.append(game_id)
            return forgotten

    def get(self, game_id: str) -> Any:
        with self.lock:
            entry = self.games.get(game_id)
            if entry is None:
                raise HTTPException(404, f"no game {one_line(game_id, 40)!r} (the server "
                                         "may have restarted, or the game was forgotten)")
            self.games.move_to_end(game_id)
            return entry[1]


def _decision_view(decision: Any, index: int) -> dict[str, Any]:
    """A decision with its advice and the cost of the move made (points, >= 0); without
    advice (``error`` says why) the advice fields are ``None``."""
    view: dict[str, Any] = {
        "index": index, "hand": decision.hand, "move": decision.action,
        "position": None if decision.position is None else decision.position.describe(),
        "best": None, "cost": None, "cost_half_width": None, "verdict": None,
        "advice": decision.advice, "error": decision.error}
    if decision.advice is not None:
        actions = decision.advice["actions"]
        chosen = next((a for a in actions if a["action"] == decision.action), None)
        view |= {"best": actions[0]["action"], "verdict": decision.advice["verdict"]}
        if chosen is not None:
            view |= {"cost": max(chosen["behind"], 0.0),
                     "cost_half_width": chosen["behind_half_width"]}
    return view


# ------------------------------------------------------------------------ the app


def create_app(results: Path | str = "results", advice_seconds: float = 1.2,
               warm_up: bool = True, host: str = "127.0.0.1",
               body_timeout: float = BODY_TIMEOUT_S,
               allow_hosts: Iterable[str] = (),
               service: AdvisorService | None = None, games: GameStore | None = None
               ) -> FastAPI:
    """The web app reading strategy charts from ``results`` (a folder of the report),
    answering requests whose Host header names ``host`` (the bound address) or one of
    ``allow_hosts`` (see :func:`host_policy`)."""
    results = Path(results)
    service = service or AdvisorService(seconds=advice_seconds)
    games = games or GameStore()
    charts_cache: dict[str, Any] = {}
    #: game id -> (decision index, advice) of the last hint, reused by the review
    hints: dict[str, tuple[int, dict[str, Any]]] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if warm_up:
            threading.Thread(target=_warm_up, args=(service,), daemon=True,
                             name="warm-up").start()
        yield
        service.stop()

    app = FastAPI(title="Rummy strategy analyzer", version=_version(), lifespan=lifespan,
                  docs_url=None, redoc_url=None, responses=ERROR_RESPONSES,
                  description="The advisor, the practice table and the strategy charts of "
                              "the analyzer, as a JSON API. Every error is "
                              "{\"error\": \"one-line reason\"}: HTTP 400 for bad input "
                              "(numbers outside their ranges, the same as the CLI's: "
                              + ", ".join(f"{name} {low:g}-{high:g}" for name, (low, high)
                                          in LIMITS.items())
                              + f"). Bodies are limited to {MAX_BODY_BYTES} bytes; "
                              f"advisor runs stop at {service.limit_seconds:g} s.")
    app.openapi = _exact_integer_bounds(app.openapi)  # type: ignore[method-assign]
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, timeout=body_timeout)
    app.add_middleware(Guard, hosts=host_policy(host, allow_hosts))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(_one_line(error))}, status_code=400)

    @app.exception_handler(ValueError)
    async def bad_value(request: Request, error: ValueError) -> JSONResponse:
        return JSONResponse({"error": one_line(str(error).splitlines()[0] if str(error)
                                               else type(error).__name__)},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = str(error.detail)
        if detail == http.HTTPStatus(error.status_code).phrase:  # the router's own
            if error.status_code == 404:
                detail = f"no page or API route {one_line(request.url.path, 80)}"
            elif error.status_code == 405:
                allowed = (error.headers or {}).get("Allow", "")
                detail = (f"{request.method} is not allowed on "
                          f"{one_line(request.url.path, 80)}"
                          + (f" (allowed: {allowed})" if allowed else ""))
        elif detail == "There was an error parsing the body":
            detail = "bad JSON: the body could not be parsed"
        return JSONResponse({"error": one_line(detail)}, status_code=error.status_code,
                            headers=error.headers)

    # pages ------------------------------------------------------------------
    def page(name: str) -> Callable[[], Awaitable[FileResponse]]:
        async def serve_page() -> FileResponse:
            return FileResponse(STATIC / name, media_type="text/html")
        return serve_page

    app.get("/", include_in_schema=False)(page("advisor.html"))
    app.get("/table", include_in_schema=False)(page("table.html"))
    app.get("/strategy", include_in_schema=False)(page("strategy.html"))

    @app.get("/static/plotly.min.js", include_in_schema=False)
    async def plotly_js() -> FileResponse:
        import plotly

        return FileResponse(Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
                            media_type="text/javascript")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    # api --------------------------------------------------------------------
    @app.get("/api/presets", summary="Rules presets, policy presets, the default opponent "
                                     "and the ranges of the numeric arguments")
    def presets() -> dict[str, Any]:
        from ..gin.model.policies import PRESETS as POLICIES
        from ..gin.model.rules import PRESETS as RULES

        return {"rules": list(RULES), "policies": list(POLICIES),
                "default_opponent": default_opponent(), "advice_seconds": service.seconds,
                "advice_limit_seconds": service.limit_seconds,
                "limits": {name: list(bounds) for name, bounds in LIMITS.items()}}

    @app.post("/api/advise", summary="Rank every action of a position (the advisor)")
    async def advise_position(body: AdviseIn, request: Request) -> dict[str, Any]:
        from ..gin.play.advisor import check_game_position

        position = _position(body.position)
        opponent = body.opponent or default_opponent()
        # 400 before queueing
        check_game_position(position, _rules(body.rules))
        _policy(body.policy), _policy(opponent)
        return await service.advise(position, body.rules, body.policy, opponent, body.samples,
                                    body.seed, body.tolerance, client_of(request),
                                    request.is_disconnected)

    @app.post("/api/games", summary="Start a practice game against a policy")
    def new_game(body: NewGameIn, request: Request) -> dict[str, Any]:
        import secrets

        from .table import PracticeGame, new_game_id

        opponent = body.opponent or default_opponent()
        game = PracticeGame(new_game_id(), _rules(body.rules), body.rules, _policy(opponent),
                            opponent, mode=body.mode, hints=body.hints,
                            seed=body.seed if body.seed is not None else secrets.randbits(62))
        for forgotten in games.add(game, client_of(request)):
            hints.pop(forgotten, None)
        with game.lock:
            return game.view()

    @app.get("/api/games/{game_id}", summary="The game as its player sees it")
    def get_game(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.view()

    @app.post("/api/games/{game_id}/move", summary="Make a move (400 and no change if illegal)")
    def move(game_id: str, body: MoveIn) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            before = len(game.decisions)
            game.move(body.move)
            view = game.view()
            hinted = hints.pop(game_id, None)
            if len(game.decisions) > before and hinted and hinted[0] == before:
                game.decisions[before].advice = hinted[1]  # the hint shown for this move
        view["decision_made"] = before if len(game.decisions) > before else None
        return view

    @app.post("/api/games/{game_id}/next", summary="Deal the next hand")
    def next_hand(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.deal()
            return game.view()

    @app.get("/api/games/{game_id}/hint", summary="The advisor's verdict for the decision now")
    async def hint(game_id: str, request: Request,
                   decision: int | None = Query(None, ge=0, le=INDEX_MAX)
                   ) -> dict[str, Any]:
        """With ``decision`` (the game's decision count when the page asked), a game that
        has moved on since answers ``{"stale": true}``, not an error: the page's request
        simply arrived late."""
        game = games.get(game_id)
        with game.lock:
            if decision is not None and (decision != len(game.decisions)
                                         or game.phase != "discard"):
                return {"stale": True}
            position = game.position()
            index = len(game.decisions)
            preset, opponent = game.rules_preset, game.opponent_name
        advice = await service.advise(position, preset, "basic", opponent, None, 1,
                                      client=client_of(request),
                                      disconnected=request.is_disconnected)
        hints[game_id] = (index, advice)
        while len(hints) > MAX_GAMES:
            hints.pop(next(iter(hints)))
        return advice

    @app.get("/api/games/{game_id}/decisions/{index}",
             summary="One of your discard decisions with the advisor's verdict and its cost")
    async def decision(game_id: str, request: Request,
                       index: int = PathParam(ge=0, le=INDEX_MAX)) -> dict[str, Any]:
        game = games.get(game_id)
        if not 0 <= index < len(game.decisions):
            raise HTTPException(404, f"no decision {index} in this game")
        return await _advised(game, index, request)

    @app.get("/api/games/{game_id}/review",
             summary="Your decisions of the last finished hand, costliest first (points)")
    async def review(game_id: str, request: Request) -> dict[str, Any]:
        game = games.get(game_id)
        if not game.results:
            raise HTTPException(400, "no hand has finished yet")
        hand = game.results[-1]["hand"]
        indices = [i for i, d in enumerate(game.decisions) if d.hand == hand]
        rows = [await _advised(game, i, request) for i in indices]
        rows.sort(key=lambda row: -(row["cost"] or 0.0))
        total = sum(row["cost"] or 0.0 for row in rows)
        return {"hand": hand, "decisions": rows, "total_cost": total}

    async def _advised(game: Any, index: int, request: Request) -> dict[str, Any]:
        decision = game.decisions[index]
        if decision.advice is None and decision.position is not None and not decision.error:
            try:
                decision.advice = await service.advise(
                    decision.position, game.rules_preset, "basic", game.opponent_name, None,
                    1, client=client_of(request), disconnected=request.is_disconnected)
            except ValueError as error:
                decision.error = one_line(str(error))
        return _decision_view(decision, index)

    @app.get("/api/strategy", summary="The strategy charts (plotly figures) from results/")
    def strategy() -> dict[str, Any]:
        from .strategy import strategy_charts

        stamp = repr(sorted((p.as_posix(), p.stat().st_mtime)
                            for p in results.glob("*/*.csv"))) if results.is_dir() else ""
        if charts_cache.get("stamp") != stamp:
            charts_cache.update(stamp=stamp, data=strategy_charts(results))
        return dict(charts_cache["data"])

    return app


def _exact_integer_bounds(openapi: Callable[[], dict[str, Any]]
                          ) -> Callable[[], dict[str, Any]]:
    """``openapi`` with the integer bounds exact: FastAPI's schema model stores them as
    floats, which turns 2**63 - 1 into 2**63."""
    exact = {float(bound): bound for bound in (*(b for pair in LIMITS.values() for b in pair
                                                 if isinstance(b, int)), INDEX_MAX)}

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "integer":
                for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                    value = node.get(key)
                    if isinstance(value, float):
                        node[key] = exact.get(value, int(value) if value.is_integer()
                                              and abs(value) < 2**53 else value)
            for child in node.values():
                fix(child)
        elif isinstance(node, list):
            for child in node:
                fix(child)

    def schema() -> dict[str, Any]:
        result = openapi()
        fix(result)
        return result

    return schema


def _one_line(error: RequestValidationError) -> str:
    """The first validation error as ``where: what``."""
    first = error.errors()[0] if error.errors() else {}
    loc = list(first.get("loc", ()))
    if loc and loc[0] in ("body", "path", "query", "header"):
        loc = loc[1:]
    where = ".".join(one_line(p, 40) for p in loc)
    message = str(first.get("msg", "invalid request"))
    if first.get("type") == "json_invalid":
        return f"bad JSON: {first.get('ctx', {}).get('error', message)}"
    return f"{where}: {message}" if where else message


def _version() -> str:
    from .. import __version__

    return __version__


def _warm_up(service: AdvisorService) -> None:
    """Load the JIT-compiled kernels of the advisor and the table before the first
    request needs them (and measure the advisor's rate for the default opponent)."""
    from ..gin.play.advisor import Position
    from .table import PracticeGame

    opponent = default_opponent()
    game = PracticeGame("warm-up", _rules("standard"), "standard", _policy(opponent), opponent,
                        seed=0)
    game.legal_moves()
    position = Position.from_options("3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
                                     pile="Td Ks Jh Ts Kd Tc", opp_took="8d 9s",
                                     opp_threw="Tc Jh Ts Ks", stock=25, turn=5, upcard="5c")
    with suppress(RuntimeError):  # RuntimeError: the server stopped first
        # no time limit: a cold JIT cache compiles for minutes
        service.executor.submit(service.run, position, "standard", "basic", opponent, 512, 1,
                                None, False, None, False)


__all__ = ["BODY_TIMEOUT_S", "LIMITS", "MAX_BODY_BYTES", "MAX_GAMES",
           "MAX_GAMES_PER_CLIENT", "SECURITY_HEADERS", "AdvisorService", "AdvisorStopped",
           "GameStore", "HostPolicy", "create_app", "default_opponent", "host_policy",
           "one_line"]
