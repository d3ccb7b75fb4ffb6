"""The HTTP server under ``analyzer serve``: uvicorn with bounded connections.

uvicorn's own h11 protocol keeps a connection that sends nothing, or sends its headers a
byte at a time, open for ever, and its ``limit_concurrency`` answers every request 503
once that many connections are merely open.  :class:`GuardedProtocol` replaces that with

* a per-client cap (:data:`MAX_CONNECTIONS_PER_CLIENT`, by peer address) and a total cap
  (:data:`MAX_CONNECTIONS`).  A new connection over either cap closes the connection of
  that client (or, over the total cap, of any client) that has been idle the longest:
  idle is a connection the app has no request of, one that sent nothing yet, part of a
  request's headers, or is kept alive after its response.  Every client of a server on
  127.0.0.1 has the same address, so without this a few idle sockets of any local
  process would lock the user's browser out.  Only when every connection is busy with a
  request is the new one answered 503 and closed at once;
* a first-byte deadline (:data:`FIRST_BYTE_TIMEOUT_S`): a real client sends its request
  as it connects, so a connection that sends nothing is closed soon;
* a header deadline (:data:`HEADER_TIMEOUT_S`): a request's line and headers must arrive
  within that time of its first byte; trickling bytes does not extend it.  The rest of a
  body the app answered without reading (a refused Host, say) has the same deadline.
  Idle keep-alive connections close after :data:`KEEP_ALIVE_S`.  The body has its own
  deadline in the app (:data:`analyzer.web.guards.BODY_TIMEOUT_S`).

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

#: Seconds a new connection may take to send its first byte.
FIRST_BYTE_TIMEOUT_S = 2.0
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
    """uvicorn's h11 protocol with per-client and total connection caps that close idle
    connections first, and first-byte and header deadlines (see the module notes).  The
    limits are class attributes: :func:`make_server` makes a subclass with its own."""

    first_byte_timeout: float = FIRST_BYTE_TIMEOUT_S
    header_timeout: float = HEADER_TIMEOUT_S
    max_connections: int = MAX_CONNECTIONS
    max_per_client: int = MAX_CONNECTIONS_PER_CLIENT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._refused = False
        self._heard = False
        #: when the connection was made or its last response sent (the loop's clock)
        self._idle_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = self.loop.time()
        refusal = self._make_room()
        if refusal is not None:
            self._refuse(refusal)
        else:
            self._arm_header_timer(self.first_byte_timeout)

    def _make_room(self) -> str | None:
        """Under each cap this connection would pass, close the connection idle the
        longest; the reason to refuse this one when every connection is busy."""
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
                idle = [other for other in open_ if other._waiting_on_client()]
                if not idle:
                    return message
                min(idle, key=lambda other: other._idle_since)._hang_up(
                    503,
                    "Service Unavailable",
                    "connection closed to serve another: its request's headers were incomplete",
                )
        return None

    def _refuse(self, message: str) -> None:
        self._refused = True
        self.transport.write(canned_response(503, "Service Unavailable", message))
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if not self._heard:  # the first-byte deadline is met; the header deadline starts
            self._heard = True
            self._disarm_header_timer()
        super().data_received(data)
        if self.transport.is_closing() or not self._waiting_on_client():
            self._disarm_header_timer()
        else:
            # the deadline runs from the first byte and is not renewed by further bytes
            self._arm_header_timer(self.header_timeout)

    def _waiting_on_client(self) -> bool:
        """Whether the connection waits for the client with nothing for the app to do:
        (the rest of) a request's headers, or the rest of a body the app answered
        without reading."""
        their, ours = self.conn.their_state, self.conn.our_state
        return their is h11.IDLE or (their is h11.SEND_BODY and ours is h11.DONE)

    def on_response_complete(self) -> None:
        self._idle_since = self.loop.time()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self, timeout: float) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(timeout, self._header_timed_out)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timed_out(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._waiting_on_client():
            return
        self._hang_up(
            408,
            "Request Timeout",
            f"request headers not received within {self.header_timeout:g} s",
        )

    def _hang_up(self, status: int, reason: str, message: str) -> None:
        """Close the connection, telling a client that sent part of a request's headers
        why (one that sent nothing, or whose response is sent, is closed without a word)."""
        self._disarm_header_timer()
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self.transport.write(canned_response(status, reason, message))
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
    first_byte_timeout: float = FIRST_BYTE_TIMEOUT_S,
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
            "first_byte_timeout": first_byte_timeout,
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
    "FIRST_BYTE_TIMEOUT_S",
    "HEADER_TIMEOUT_S",
    "KEEP_ALIVE_S",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_CLIENT",
    "GuardedProtocol",
    "canned_response",
    "listen_socket",
    "make_server",
]
