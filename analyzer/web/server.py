"""The HTTP server under ``analyzer serve``: uvicorn with bounded connections.

uvicorn's own h11 protocol keeps a connection that sends nothing, or sends its headers a
byte at a time, open for ever, and its ``limit_concurrency`` answers every request 503
once that many connections are merely open.  :class:`GuardedProtocol` replaces that with

* a per-client cap (:data:`MAX_CONNECTIONS_PER_CLIENT`, by peer address) and a total cap
  (:data:`MAX_CONNECTIONS`): a connection over either is answered 503 and closed at once,
  so one client holding idle connections cannot lock the others out;
* a header deadline (:data:`HEADER_TIMEOUT_S`): a request's line and headers must arrive
  within that time of its first byte (or of the connection, for its first request);
  trickling bytes does not extend it.  The rest of a body the app answered without
  reading (a refused Host, say) has the same deadline.  Idle keep-alive connections close after
  :data:`KEEP_ALIVE_S`.  The body has its own deadline in the app
  (:data:`analyzer.web.guards.BODY_TIMEOUT_S`).

Every answer the protocol writes itself is JSON, ``{"error": "one-line reason"}``, like
the app's.  :func:`listen_socket` binds the address before anything is printed, so a busy
port is a one-line error, not a URL followed by a traceback.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a request's line and headers may take from its first byte.
HEADER_TIMEOUT_S = 10.0
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
        "x-content-type-options: nosniff\r\n\r\n"
    )
    return head.encode("ascii") + body


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with per-client and total connection caps and a header
    deadline (see the module notes).  The limits are class attributes:
    :func:`make_server` makes a subclass with its own."""

    header_timeout: float = HEADER_TIMEOUT_S
    max_connections: int = MAX_CONNECTIONS
    max_per_client: int = MAX_CONNECTIONS_PER_CLIENT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        same = sum(1 for other in self.connections if other is not self and _peer(other) == peer)
        if len(self.connections) > self.max_connections:
            self._refuse(
                f"the server holds its limit of {self.max_connections} "
                "connections; try again shortly"
            )
        elif same >= self.max_per_client:
            self._refuse(
                f"too many connections from your address (at most {self.max_per_client} at once)"
            )
        else:
            self._arm_header_timer()

    def _refuse(self, message: str) -> None:
        self._refused = True
        self.transport.write(canned_response(503, "Service Unavailable", message))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        if self.transport.is_closing() or not self._waiting_on_client():
            self._disarm_header_timer()
        else:
            # the deadline runs from the first byte and is not renewed by further bytes
            self._arm_header_timer()

    def _waiting_on_client(self) -> bool:
        """Whether the connection waits for the client with nothing for the app to do:
        (the rest of) a request's headers, or the rest of a body the app answered
        without reading."""
        their, ours = self.conn.their_state, self.conn.our_state
        return their is h11.IDLE or (their is h11.SEND_BODY and ours is h11.DONE)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._header_timed_out)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timed_out(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._waiting_on_client():
            return
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            # part of a request's headers arrived: say why the connection ends
            self.transport.write(
                canned_response(
                    408,
                    "Request Timeout",
                    f"request headers not received within {self.header_timeout:g} s",
                )
            )
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: 400 with a JSON reason (uvicorn's is plain text)."""
        self._disarm_header_timer()
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
    header_timeout: float = HEADER_TIMEOUT_S,
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
            "header_timeout": header_timeout,
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
    "HEADER_TIMEOUT_S",
    "KEEP_ALIVE_S",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_CLIENT",
    "GuardedProtocol",
    "canned_response",
    "listen_socket",
    "make_server",
]
