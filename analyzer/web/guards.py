"""The app's guards, as ASGI middleware: the Host check (against DNS rebinding), the
security headers of every answer, a one-line JSON 500, and the size of a request body
(its time is bounded by the server, :mod:`analyzer.web.server`)."""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest accepted request body (bytes); a position is well under 1 kB.
MAX_BODY_BYTES = 16 * 1024
log = logging.getLogger("analyzer.web")


#: Headers every response carries.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action 'self'",
    ),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def one_line(text: object, limit: int = 300) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


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
                addresses |= {
                    str(ipaddress.ip_address(str(info[4][0]).partition("%")[0]))
                    for info in socket.getaddrinfo(bound, None)
                }
    names |= addresses
    if wildcard:
        names |= LOOPBACK_NAMES | {socket.gethostname().lower(), socket.getfqdn().lower()}
    if bound == "localhost" or any(ipaddress.ip_address(a).is_loopback for a in addresses):
        names |= LOOPBACK_NAMES
    return HostPolicy(frozenset(names), any_address=wildcard)


async def _json_error(send: Send, status: int, message: str, close: bool = False) -> None:
    body = json.dumps({"error": one_line(message)}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
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

        host = next(
            (
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name == b"host"
            ),
            None,
        )
        if not self.hosts.allows(host):
            await _json_error(
                guarded_send,
                400,
                f"the Host header {host!r} does not name "
                "this server (analyzer serve --allow-host "
                "NAME adds a name)",
                close=True,
            )
            return
        try:
            await self.app(scope, receive, guarded_send)
        except Exception as error:
            log.exception("error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            await _json_error(guarded_send, 500, f"internal error: {type(error).__name__}")


class BodyLimit:
    """ASGI middleware: 413 for bodies over ``limit`` bytes (declared or streamed), 400
    for a body that is not UTF-8."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _json_error(send, 413, f"request body over {self.limit} bytes", True)
                return
        # buffer the body (small by construction) so that an oversized one is refused
        # before the app reads any of it, however it is sent (declared or chunked)
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went, or the server closed it (a body too slow)
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.limit:
                await _json_error(send, 413, f"request body over {self.limit} bytes", True)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(m.get("body", b"") for m in messages)
        if body:
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as error:
                await _json_error(
                    send,
                    400,
                    f"bad JSON: the body is not UTF-8 ({error.reason} at byte {error.start})",
                )
                return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)
