"""The HTTP server under ``analyzer serve``: uvicorn with bounded connections.

uvicorn's own h11 protocol keeps a connection that sends nothing, sends its headers or its
body a byte at a time, or never reads its answer, open for ever, and its
``limit_concurrency`` answers every request 503 once that many connections are merely
open.  :class:`GuardedProtocol` replaces that with

* a per-client cap (:data:`MAX_CONNECTIONS_PER_CLIENT`, by peer address) and a total cap
  (:data:`MAX_CONNECTIONS`).  A new connection over either cap closes the connection of
  that client (or, over the total cap, of any client) that has made the least progress:
  of those waiting for their client, whatever for (a request's first byte, the rest of
  its headers, its body, declared or chunked, the client reading its answer, or its next
  request), the one whose last progress is the oldest; when none waits, the same among
  those whose answer is on its way.  Progress is a stage done: the connection made, a
  request's headers or its body arrived whole, the client taking its answer (the write
  buffer draining), or an answer sent whole; bytes that trickle in are none (a client
  sending its headers a byte at a time makes no progress).  Every client of a server
  on 127.0.0.1 has the same address, so without this a few stalled sockets of any local
  process would lock the user's browser out.  A connection whose request the app is
  working on (its answer not begun) waits for no client and is never closed to make
  room; only when every connection is such is the new one answered 503 and closed at
  once;
* read deadlines, none renewed by trickling bytes: the first byte within
  :data:`FIRST_BYTE_TIMEOUT_S` of connecting (a real client sends its request as it
  connects), a request's line and headers within :data:`HEADER_TIMEOUT_S` of its first
  byte, and its body (declared or chunked, read by the app or not) within
  :data:`BODY_TIMEOUT_S` of its headers (408 after).  Idle keep-alive connections close
  after :data:`KEEP_ALIVE_S`;
* write deadlines: an answer the client does not take is dropped.  Once more than the
  transport's high-water mark (64 kB) waits to be sent, the client must read it down to
  the low-water mark (16 kB) within :data:`WRITE_TIMEOUT_S`, and what is left when an
  answer is complete must be read within that time too.

Every answer the protocol writes itself is JSON, ``{"error": "one-line reason"}``, like
the app's, with the app's security headers.  :func:`listen_socket` binds the address
before anything is printed, so a busy port is a one-line error, not a URL followed by a
traceback.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .guards import SECURITY_HEADERS

#: Seconds a new connection may take to send its first byte.
FIRST_BYTE_TIMEOUT_S = 2.0
#: Seconds a request's line and headers may take from its first byte.
HEADER_TIMEOUT_S = 10.0
#: Seconds a request's body may take from the end of its headers.
BODY_TIMEOUT_S = 10.0
#: Seconds the client may take to read a stalled part of an answer (see the module notes).
WRITE_TIMEOUT_S = 10.0
#: Seconds an idle keep-alive connection stays open between requests.
KEEP_ALIVE_S = 5
#: Open connections from one peer address (a browser opens at most 6 per host).
MAX_CONNECTIONS_PER_CLIENT = 16
#: Open connections in all.
MAX_CONNECTIONS = 128


def canned_response(status: int, reason: str, message: str) -> bytes:
    """A complete HTTP/1.1 response with a JSON error body that closes the connection."""
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n"
        + "".join(f"{name.decode()}: {value.decode()}\r\n" for name, value in SECURITY_HEADERS)
        + "\r\n"
    )
    return head.encode("ascii") + body


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with per-client and total connection caps that close the
    connection that has made the least progress, and read and write deadlines at every stage (see the
    module notes).  The limits are class attributes: :func:`make_server` makes a
    subclass with its own."""

    first_byte_timeout: float = FIRST_BYTE_TIMEOUT_S
    header_timeout: float = HEADER_TIMEOUT_S
    body_timeout: float = BODY_TIMEOUT_S
    write_timeout: float = WRITE_TIMEOUT_S
    max_connections: int = MAX_CONNECTIONS
    max_per_client: int = MAX_CONNECTIONS_PER_CLIENT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_timer: asyncio.TimerHandle | None = None
        #: what the read timer waits for: "first byte", "headers" or "body"
        self._awaited: str | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        self._refused = False
        self._heard = False
        #: when the connection last made progress (the loop's clock)
        self._progress_at = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._progress_at = self.loop.time()
        refusal = self._make_room()
        if refusal is not None:
            self._refuse(refusal)
        else:
            self._watch_reading()

    def _make_room(self) -> str | None:
        """Under each cap this connection would pass, close the connection that has made
        no progress for the longest; the reason to refuse this one when every connection
        is busy in the app."""
        peer = _peer(self)
        per_client = (
            f"too many connections from your address (at most {self.max_per_client} at once)"
        )
        in_all = (
            f"the server holds its limit of {self.max_connections} connections; try again shortly"
        )
        for cap, same_client, message in (
            (self.max_per_client, True, per_client),
            (self.max_connections, False, in_all),
        ):
            open_ = [
                other
                for other in self.connections
                if isinstance(other, GuardedProtocol)
                and other is not self
                and not other.transport.is_closing()
                and (not same_client or _peer(other) == peer)
            ]
            if len(open_) >= cap:
                ranked = [(rank, other) for other in open_ if (rank := other._stall_rank())]
                if not ranked:
                    return message
                min(ranked, key=lambda pair: pair[0])[1]._hang_up(
                    503,
                    "Service Unavailable",
                    "connection closed to serve another: it made no progress for the longest",
                )
        return None

    def _refuse(self, message: str) -> None:
        self._refused = True
        self.transport.write(canned_response(503, "Service Unavailable", message))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        self._heard = True
        before = self.conn.their_state
        super().data_received(data)
        if self.conn.their_state is not before:  # a request's headers, or all of it, came
            self._progress_at = self.loop.time()
        self._watch_reading()

    def _stall_rank(self) -> tuple[bool, float] | None:
        """How little progress the connection has made, the least first: one waiting for
        its client (to send a request, the rest of its headers or of its body, or to read
        what waits in the write buffer), by the time of its last progress; then one whose
        answer is on its way, by the same; None while the app works on its request and
        has not begun its answer (such a connection is never closed to make room)."""
        their = self.conn.their_state
        if (
            their is h11.IDLE
            or their is h11.SEND_BODY
            or self.flow.write_paused
            or self.transport.get_write_buffer_size() > 0
        ):
            return (False, self._progress_at)
        if self.cycle is not None and self.cycle.response_started:
            return (True, self._progress_at)
        return None

    def _watch_reading(self) -> None:
        """Arm the read deadline of what the connection now waits for from its client (a
        deadline already running for the same thing is kept, so that trickling bytes do
        not extend it); none while the app works or uvicorn's keep-alive timer runs."""
        awaited: str | None = None
        if not self.transport.is_closing():
            their = self.conn.their_state
            if their is h11.SEND_BODY:
                awaited = "body"
            elif their is h11.IDLE and self.conn.trailing_data[0]:
                awaited = "headers"
            elif their is h11.IDLE and not self._heard:
                awaited = "first byte"
        if awaited == self._awaited:
            return
        self._disarm_reading()
        if awaited is not None:
            timeout = {
                "first byte": self.first_byte_timeout,
                "headers": self.header_timeout,
                "body": self.body_timeout,
            }[awaited]
            self._awaited = awaited
            self._read_timer = self.loop.call_later(timeout, self._read_timed_out, timeout)

    def _disarm_reading(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
        self._read_timer = None
        self._awaited = None

    def _read_timed_out(self, timeout: float) -> None:
        awaited = self._awaited
        self._read_timer = None
        self._awaited = None
        if not self.transport.is_closing():
            self._hang_up(
                408, "Request Timeout", f"request {awaited} not received within {timeout:g} s"
            )

    def pause_writing(self) -> None:
        """More than the high-water mark waits to be sent: the client must read it down
        within the write deadline."""
        super().pause_writing()
        self._arm_writing()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._progress_at = self.loop.time()
        self._disarm_writing()

    def on_response_complete(self) -> None:
        if self.transport.get_write_buffer_size():  # the client must read the rest in time
            self._arm_writing()
        else:
            self._progress_at = self.loop.time()
            self._disarm_writing()
        super().on_response_complete()
        self._watch_reading()  # a pipelined request may have begun

    def _arm_writing(self) -> None:
        self._disarm_writing()
        self._write_timer = self.loop.call_later(self.write_timeout, self._write_timed_out)

    def _disarm_writing(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _write_timed_out(self) -> None:
        self._write_timer = None
        if self.transport.get_write_buffer_size():
            self.transport.abort()  # close() would wait for the client to read it

    def shutdown(self) -> None:
        """The server stops: an answer its client does not read is dropped at once (the
        app's task would wait for it past the server's grace period)."""
        if self.flow.write_paused:
            self.transport.abort()
        else:
            super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_reading()
        self._disarm_writing()
        super().connection_lost(exc)

    def _hang_up(self, status: int, reason: str, message: str) -> None:
        """Close the connection, telling a client that sent part of a request and has no
        answer yet why (one that sent nothing, or whose answer is under way or sent, is
        closed without a word); what its client did not read is dropped."""
        self._disarm_reading()
        their = self.conn.their_state
        if (their is h11.IDLE and self.conn.trailing_data[0]) or (
            their is h11.SEND_BODY and not self.cycle.response_started
        ):
            self.transport.write(canned_response(status, reason, message))
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: 400 with a JSON reason (uvicorn's is plain text)."""
        self._disarm_reading()
        self.transport.write(
            canned_response(400, "Bad Request", "invalid HTTP request: " + msg.rstrip("."))
        )
        self.transport.close()


def _peer(connection: Any) -> str | None:
    client = getattr(connection, "client", None)
    return client[0] if client else None


def listen_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (as uvicorn binds it: IPv6 when the host
    has a colon, ``SO_REUSEADDR``); ``OSError`` when the address is busy or not ours."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def make_server(
    app: Any,
    *,
    first_byte_timeout: float = FIRST_BYTE_TIMEOUT_S,
    header_timeout: float = HEADER_TIMEOUT_S,
    body_timeout: float = BODY_TIMEOUT_S,
    write_timeout: float = WRITE_TIMEOUT_S,
    keep_alive: int = KEEP_ALIVE_S,
    max_connections: int = MAX_CONNECTIONS,
    max_per_client: int = MAX_CONNECTIONS_PER_CLIENT,
) -> Any:
    """A ``uvicorn.Server`` for ``app`` with :class:`GuardedProtocol`; start it with
    ``server.run(sockets=[listen_socket(host, port)])``."""
    import uvicorn

    protocol = type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {
            "first_byte_timeout": first_byte_timeout,
            "header_timeout": header_timeout,
            "body_timeout": body_timeout,
            "write_timeout": write_timeout,
            "max_connections": max_connections,
            "max_per_client": max_per_client,
        },
    )
    config = uvicorn.Config(
        app,
        http=protocol,
        ws="none",
        log_level="warning",
        limit_concurrency=None,
        timeout_keep_alive=keep_alive,
        timeout_graceful_shutdown=3,
    )
    return uvicorn.Server(config)


__all__ = [
    "BODY_TIMEOUT_S",
    "FIRST_BYTE_TIMEOUT_S",
    "HEADER_TIMEOUT_S",
    "KEEP_ALIVE_S",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_CLIENT",
    "WRITE_TIMEOUT_S",
    "GuardedProtocol",
    "canned_response",
    "listen_socket",
    "make_server",
]
