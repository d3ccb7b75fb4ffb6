"""``analyzer serve``'s HTTP server on 127.0.0.1: connection, header and body bounds,
advisor runs of departed clients, and the start on a busy port.

Other clients are other loopback source addresses (127.0.0.2, ...): the server counts
connections per peer address.
"""

import json
import os
import re
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
def serving(app, **limits):
    """``app`` behind :func:`make_server` on 127.0.0.1 (a free port), in a thread."""
    sock = listen_socket("127.0.0.1", 0)
    server = make_server(app, **limits)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)


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
    return create_app(results_dir, warm_up=False, body_timeout=0.5)


def test_idle_connections_of_one_client_do_not_lock_out_the_others(app):
    """The issue's 63 idle connections, with the default limits: the client holding them
    gets 503 past its cap at once, and everyone else is served."""
    with serving(app) as port:
        idle = [connect(port, "127.0.0.2") for _ in range(63)]
        try:
            refused = [read_response(sock) for sock in idle[16:]]
            assert {status for status, _, _ in refused} == {503}
            assert "too many connections from your address" in refused[0][2]["error"]
            for source in ("127.0.0.1", "127.0.0.3"):
                status, headers, body = get(port, source=source)
                assert status == 200 and "rules" in body
                assert headers["x-frame-options"] == "DENY"
        finally:
            for sock in idle:
                sock.close()


def test_past_the_total_connection_cap_new_connections_get_503_at_once(app):
    with serving(app, max_connections=6, max_per_client=4) as port:
        held = [connect(port, "127.0.0.2") for _ in range(4)]
        held += [connect(port, "127.0.0.3") for _ in range(2)]
        try:
            time.sleep(0.2)  # all six accepted
            status, _, body = get(port, source="127.0.0.4")
            assert status == 503 and "limit of 6 connections" in body["error"]
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.2)
        assert get(port, source="127.0.0.4")[0] == 200


def test_connections_that_send_nothing_or_trickle_headers_are_closed(app):
    with serving(app, header_timeout=0.5, keep_alive=1) as port:
        silent = connect(port)
        trickle = connect(port)
        started = time.monotonic()
        trickle.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for n in range(8):  # a header line every 0.1 s does not extend the deadline
            with suppress(OSError):
                trickle.sendall(f"X-Slow-{n}: 1\r\n".encode())
            time.sleep(0.1)
        status, _, body = read_response(trickle)
        assert status == 408 and "request headers not received within 0.5 s" in body["error"]
        assert time.monotonic() - started < 2
        assert closed_within(trickle, 2)
        assert closed_within(silent, 2)  # nothing sent: closed without a word
        # a request answered on a kept-alive connection, then idle: closed after 1 s
        with connect(port) as kept:
            kept.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_response(kept)[0] == 200
            assert closed_within(kept, 3)
        silent.close()
        trickle.close()


def test_a_body_not_sent_in_time_gets_408_and_the_connection_closes(app):
    with serving(app) as port, connect(port) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b'Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"mo'
        )
        started = time.monotonic()
        status, headers, body = read_response(sock)
        assert status == 408 and "request body not received within 0.5 s" in body["error"]
        assert time.monotonic() - started < 3
        assert headers["connection"] == "close"
        assert closed_within(sock, 2)


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
    service = Recording(
        seconds=0.5, limit_seconds=8, poll_seconds=0.05, first_samples=10**6
    )  # runs to the limit unless stopped
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
        while not service.ends and time.monotonic() - started < 8:
            time.sleep(0.05)
        assert service.ends == ["nobody waits for this run any more"]
        assert time.monotonic() - started < 3  # within a batch, not at the 8 s limit
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


def test_serve_prints_the_bound_port_and_serves_with_the_guards(tmp_path):
    """``analyzer serve --port 0`` as a user starts it: the URL names the port it got."""
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
                status, headers, _ = get(port)
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert status == 200 and headers["x-content-type-options"] == "nosniff"
        assert get(port, host="rebound.example")[0] == 400
    finally:
        process.terminate()
        process.wait(15)
