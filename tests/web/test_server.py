"""``analyzer serve``'s HTTP server on 127.0.0.1: connection, header and body bounds,
advisor runs of departed clients, and the start on a busy port.

Other clients are other loopback source addresses (127.0.0.2, ...): the server counts
connections per peer address.
"""

import asyncio
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, suppress

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
from click.testing import CliRunner

from analyzer.cli.serve import serve_command
from analyzer.web.app import create_app
from analyzer.web.server import listen_socket, make_server

from .conftest import KNOCK_DECISION, ROOT
from .recording import Recording


@contextmanager
def serving_with_state(app, **limits):
    """``app`` behind :func:`make_server` on 127.0.0.1 (a free port), in a thread: the
    server (whose state a test may wait on) and the port."""
    sock = listen_socket("127.0.0.1", 0)
    server = make_server(app, **limits)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield server, sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def serving(app, **limits):
    """``app`` behind :func:`make_server` on 127.0.0.1 (a free port), in a thread."""
    with serving_with_state(app, **limits) as (_, port):
        yield port


def wait_until(condition, seconds=10):
    """Poll ``condition`` (the server's state, read from the test's thread) until it holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there"
        time.sleep(0.01)


def open_connections(server):
    """The server's connections that are not closing."""
    return sum(not c.transport.is_closing() for c in list(server.server_state.connections))


def connect(port, source="127.0.0.1"):
    sock = socket.socket()
    try:
        sock.settimeout(5)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
    except OSError:  # refused while the server starts: the caller may try again
        sock.close()
        raise
    return sock


def read_response(sock):
    """(status, headers, JSON body) of the response on ``sock``, read to its end."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
        if length and len(body) >= int(length.group(1)):
            break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])
    }
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def get(port, path="/api/presets", source="127.0.0.1", host="127.0.0.1"):
    with connect(port, source) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        return read_response(sock)


def closed_within(sock, seconds):
    """Whether the peer closes ``sock`` within ``seconds`` (any bytes it sends first are
    read and ignored)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    with suppress(ConnectionResetError):
        while time.monotonic() < deadline:
            try:
                if not sock.recv(65536):
                    return True
            except TimeoutError:
                return False
    return True


@pytest.fixture
def app(results_dir):
    return create_app(results_dir, warm_up=False)


def still_open(sock):
    """Whether ``sock`` is open at the other end with nothing to read."""
    sock.setblocking(False)
    try:
        return not sock.recv(1)
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.setblocking(True)


def stalled_body(port):
    """Complete headers announcing a 5,000-byte body, and no body."""
    sock = connect(port)
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
    )
    return sock


def chunked_without_chunks(port):
    """Complete headers announcing a chunked body, and no chunk."""
    sock = connect(port)
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    return sock


def never_reading(port, close=False):
    """A request for plotly (4.8 MB) whose answer is never read (a small receive buffer,
    so that the kernel cannot take the whole answer for the client)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(5)
    sock.bind(("127.0.0.1", 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        b"GET /static/plotly.min.js HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + (b"Connection: close\r\n" if close else b"")
        + b"\r\n"
    )
    return sock


def test_idle_connections_do_not_lock_out_a_request_from_the_same_address(app):
    """Every local client of a server on 127.0.0.1 shares the user's address: 63 idle
    connections (some with part of a request's headers) cost the user nothing, and no
    more than the cap stay open."""
    with serving_with_state(app, first_byte_timeout=30) as (server, port):
        idle = [connect(port) for _ in range(63)]
        try:
            for sock in idle[::9]:
                sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            status, headers, body = get(port)
            assert status == 200 and "rules" in body
            assert headers["x-frame-options"] == "DENY"
            wait_until(lambda: open_connections(server) <= 16)
            assert all(closed_within(sock, 5) for sock in idle[:-16])
            assert get(port, source="127.0.0.3")[0] == 200
        finally:
            for sock in idle:
                sock.close()


def test_the_connection_stalled_the_longest_is_closed_first(app):
    """Stalled since its last progress (here its last response), not since it
    connected: a connection in use stays."""
    with serving_with_state(app, first_byte_timeout=30, max_per_client=3) as (server, port):
        used, silent, partial = connect(port), connect(port), connect(port)
        try:
            partial.sendall(b"GET /api/presets HTTP/1.1\r\n")
            wait_until(lambda: open_connections(server) == 3)
            used.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_response(used)[0] == 200  # kept alive, idle from now
            with connect(port) as fourth:
                assert closed_within(silent, 5)  # made room: silent, without a word
                assert still_open(used) and still_open(partial)
                with connect(port):
                    status, _, body = read_response(partial)  # then the partial request
                    assert status == 503 and "no progress for the longest" in body["error"]
                    assert still_open(used) and still_open(fourth)
        finally:
            for sock in (used, silent, partial):
                sock.close()


def held_app(results_dir, release):
    """The app with a route ``/held`` that answers once ``release`` is set: its requests
    keep the app busy, not waiting on their client."""
    app = create_app(results_dir, warm_up=False)

    @app.get("/held")
    async def held() -> dict[str, bool]:
        while not release.is_set():
            await asyncio.sleep(0.01)
        return {"released": True}

    return app


@pytest.mark.parametrize(
    ("limits", "sources", "newcomer", "message"),
    [
        (
            {"max_per_client": 2},
            ["127.0.0.2"] * 2,
            "127.0.0.2",
            "too many connections from your address",
        ),
        (
            {"max_connections": 3, "max_per_client": 2},
            ["127.0.0.2", "127.0.0.2", "127.0.0.3"],
            "127.0.0.4",
            "limit of 3 connections",
        ),
    ],
)
def test_past_a_cap_with_every_connection_busy_in_the_app_new_ones_get_503_at_once(
    results_dir, limits, sources, newcomer, message
):
    """A request the app is working on is never closed to make room."""
    release = threading.Event()
    with serving_with_state(held_app(results_dir, release), **limits) as (server, port):
        busy = [connect(port, source) for source in sources]
        try:
            for sock in busy:
                sock.sendall(b"GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            wait_until(lambda: len(server.server_state.tasks) == len(busy))
            status, _, body = get(port, source=newcomer)
            assert status == 503 and message in body["error"]
            assert all(still_open(sock) for sock in busy)
            release.set()
            assert all(read_response(sock)[2] == {"released": True} for sock in busy)
        finally:
            for sock in busy:
                sock.close()
        wait_until(lambda: open_connections(server) == 0)
        assert get(port, source=newcomer)[0] == 200


def test_connections_that_send_nothing_or_trickle_headers_are_closed(app):
    with serving(app, first_byte_timeout=0.3, header_timeout=0.5, keep_alive=1) as port:
        silent = connect(port)
        trickle = connect(port)
        trickle.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # the first byte ends the 0.3 s deadline; a header line every 0.1 s does not
        # extend the header deadline: the answer comes while the lines still trickle
        answered_while_trickling = False
        for n in range(100):
            with suppress(OSError):
                trickle.sendall(f"X-Slow-{n}: 1\r\n".encode())
            if select.select([trickle], [], [], 0.1)[0]:
                answered_while_trickling = True
                break
        status, _, body = read_response(trickle)
        assert answered_while_trickling
        assert status == 408 and "request headers not received within 0.5 s" in body["error"]
        assert closed_within(trickle, 2)
        assert closed_within(silent, 2)  # nothing sent: closed without a word
        # a request answered on a kept-alive connection, then idle: closed after 1 s
        with connect(port) as kept:
            kept.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_response(kept)[0] == 200
            assert closed_within(kept, 3)
        silent.close()
        trickle.close()


@pytest.mark.parametrize(
    "framing",
    [b'Content-Length: 50\r\n\r\n{"mo', b'Transfer-Encoding: chunked\r\n\r\n4\r\n{"mo\r\n'],
    ids=["declared", "chunked"],
)
def test_a_body_not_sent_in_time_gets_408_and_the_connection_closes(app, framing):
    """The body's deadline runs from the end of the headers; bytes of it arriving do not
    extend it."""
    with serving(app, body_timeout=0.5) as port, connect(port) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\n" + framing
        )
        answered_while_trickling = False
        for _ in range(100):
            with suppress(OSError):
                sock.sendall(b" " if b"Length" in framing else b"1\r\n \r\n")
            if select.select([sock], [], [], 0.1)[0]:
                answered_while_trickling = True
                break
        status, headers, body = read_response(sock)
        assert answered_while_trickling
        assert status == 408 and "request body not received within 0.5 s" in body["error"]
        assert headers["connection"] == "close"
        assert headers["x-frame-options"] == "DENY"
        assert closed_within(sock, 2)


@pytest.mark.parametrize("close", [False, True], ids=["kept-alive", "connection-close"])
def test_an_answer_the_client_does_not_read_is_dropped_at_the_write_deadline(app, close):
    with serving_with_state(app, write_timeout=0.5) as (server, port):
        sock = never_reading(port, close)
        try:
            wait_until(lambda: len(server.server_state.connections) == 1)
            wait_until(lambda: len(server.server_state.connections) == 0)
            assert get(port)[0] == 200
        finally:
            sock.close()


def test_at_the_cap_the_connection_with_the_least_progress_goes_whatever_its_stage(
    results_dir,
):
    """Waiting for its body since before the others' last progress, the stalled request
    is closed (told why), not the kept-alive connection or the one the app is busy with."""
    release = threading.Event()
    app = held_app(results_dir, release)
    with serving_with_state(app, max_per_client=3) as (server, port):
        stalled, kept, busy = connect(port), connect(port), connect(port)
        try:
            stalled.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"
            )
            kept.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_response(kept)[0] == 200
            busy.sendall(b"GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            wait_until(lambda: len(server.server_state.tasks) == 2)
            with connect(port) as newcomer:
                status, _, body = read_response(stalled)
                assert status == 503 and "no progress for the longest" in body["error"]
                assert still_open(kept) and still_open(busy) and still_open(newcomer)
            release.set()
            assert read_response(busy)[2] == {"released": True}
        finally:
            for sock in (stalled, kept, busy):
                sock.close()


def test_malformed_requests_and_foreign_hosts_get_error_json(app):
    with serving(app) as port:
        with connect(port) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            status, _, body = read_response(sock)
            assert status == 400 and body["error"].startswith("invalid HTTP request")
        status, _, body = get(port, host="rebound.example:8000")
        assert status == 400 and "Host header" in body["error"]
        status, _, body = get(port, "/api/nowhere")
        assert status == 404 and "/api/nowhere" in body["error"]
        # refused before its body was read: the connection ends, the body cannot trickle
        with connect(port) as sock:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: rebound.example\r\n"
                b"Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{"
            )
            status, headers, body = read_response(sock)
            assert status == 400 and headers["connection"] == "close"
            assert closed_within(sock, 2)


def test_an_advisor_run_stops_when_its_client_hangs_up(results_dir, warm_advisor):
    # a million samples run for seconds at least, unless stopped; the limit is a backstop
    service = Recording(limit_seconds=60, poll_seconds=0.05)
    app = create_app(results_dir, warm_up=False, service=service)
    body = json.dumps(
        {"position": KNOCK_DECISION, "opponent": "basic", "samples": 10**6, "tolerance": 1e-9}
    ).encode()
    with serving(app) as port:
        sock = connect(port)
        sock.sendall(
            b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
            b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        time.sleep(0.5)
        sock.close()
        started = time.monotonic()
        while not service.ends and time.monotonic() - started < 60:
            time.sleep(0.05)
        # stopped by the hang-up, not refused at the 60 s limit
        assert service.ends == ["nobody waits for this run any more"]
        assert get(port)[0] == 200  # still serving


def test_serve_on_a_busy_port_fails_in_one_line_without_a_url():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(serve_command, ["--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert "http://" not in result.output


@contextmanager
def serve_process(tmp_path):
    """``analyzer serve --port 0`` as a user starts it, in a process of its own: the port
    its printed URL names, once it answers."""
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "serve", "--port", "0", "--results", str(tmp_path)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=os.environ | {"PYTHONPATH": str(ROOT)},
        )
    try:
        deadline = time.monotonic() + 60
        while not (match := re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no URL printed"
            time.sleep(0.1)
        port = int(match.group(1))
        assert port != 0
        while True:
            try:
                with connect(port):
                    break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        assert process.wait(15) == 0


def test_serve_prints_the_bound_port_and_serves_with_the_guards(tmp_path):
    with serve_process(tmp_path) as port:
        status, headers, _ = get(port)
        assert status == 200 and headers["x-content-type-options"] == "nosniff"
        assert get(port, host="rebound.example")[0] == 400
    # SIGTERM (or Ctrl-C) is how a server is meant to end: a quiet stop, not an error
    log = (tmp_path / "serve.log").read_text()
    assert log.rstrip().endswith("analyzer serve: stopped") and "Error" not in log


def test_seventy_idle_sockets_leave_analyzer_serve_answering_at_once(tmp_path):
    """With 70 idle sockets open to ``analyzer serve`` (every tenth with part of a
    request's headers), a normal request gets 200 at once: before the idle connections
    it kept have reached their 2 s first-byte deadline."""
    with serve_process(tmp_path) as port:
        idle = []
        try:
            for n in range(70):
                idle.append(connect(port))
                if n % 10 == 9:
                    idle[-1].sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            status, _, body = get(port)
            kept = idle[-15:]
            assert status == 200 and "rules" in body
            assert all(still_open(sock) for sock in kept), "answered only after timeouts"
            # the 16 newest connections at most are left; every older one was closed
            assert all(closed_within(sock, 5) for sock in idle[:-15])
        finally:
            for sock in idle:
                sock.close()


@pytest.mark.parametrize("stall", [stalled_body, chunked_without_chunks, never_reading])
def test_twenty_four_stalled_connections_leave_the_address_answered_within_2_s(results_dir, stall):
    """A local process holding 24 connections stalled at any stage (its body, its chunks,
    or reading its answer) does not lock out another request from the same address: at the
    cap the connection stalled the longest is closed, and the request is answered within
    2 s, long before any deadline of the default server could have freed a place."""
    app = create_app(results_dir, warm_up=False)
    with serving_with_state(app) as (server, port):
        stalled = []
        try:
            for _ in range(24):
                stalled.append(stall(port))
                time.sleep(0.01)
            wait_until(lambda: open_connections(server) <= 16)
            started = time.monotonic()
            with connect(port) as sock:
                sock.settimeout(2)
                sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                status, _, body = read_response(sock)
            assert time.monotonic() - started < 2
            assert status == 200 and "rules" in body, body
        finally:
            for sock in stalled:
                sock.close()
