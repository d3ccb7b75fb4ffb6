"""The ``analyzer serve`` command: the advisor, the practice table and the strategy charts
in the browser (a local web app over a JSON API)."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import click

from ..core.interrupts import forget_stop
from ..core.limits import ADVICE_RUN_SECONDS, MAX_ADVICE_SECONDS
from .inputs import FiniteFloatRange, fail


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to bind; the default serves this machine only.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to bind (0: any free port, printed at start).",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests addressed to this host name (repeatable), e.g. "
    "a reverse proxy's; requests naming another host get 400 (a defence "
    "against DNS rebinding).",
)
@click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Report folder whose kept answers the strategy and guide pages read.",
)
@click.option(
    "--advice-seconds",
    type=FiniteFloatRange(1, MAX_ADVICE_SECONDS),
    default=ADVICE_RUN_SECONDS,
    show_default=True,
    help="Longest advisor run (seconds): a request that cannot finish its samples in that "
    f"time is refused, never answered from fewer; 1-{MAX_ADVICE_SECONDS:g}.",
)
def serve_command(
    host: str, port: int, allow_hosts: tuple[str, ...], results: Path, advice_seconds: float
) -> None:
    """Start the web app: advisor, practice table and strategy charts.

    \b
    Example:
      analyzer serve                       # then open http://127.0.0.1:8000/
      analyzer serve --port 0              # any free port, printed at start

    Open the printed address in a browser. The JSON API is described at /docs (a
    readable page) and /openapi.json.
    Nothing is fetched from the internet: the page scripts, plotly included, are served
    from the installed packages.
    """
    try:
        from ..web.app import create_app
        from ..web.server import listen_socket, make_server
    except ImportError as error:
        fail(f"{error.name} is missing: install the web extra, pip install -e '.[web]'")
    try:  # bound before anything is printed: a busy port is one line, and no URL
        sock = listen_socket(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    port = sock.getsockname()[1]
    app = create_app(results, advice_seconds=advice_seconds, host=host, allow_hosts=allow_hosts)
    server = make_server(app)
    shown = f"[{host}]" if ":" in host else host
    click.echo(
        f"analyzer serve: http://{shown}:{port}/ (advisor), /table, /strategy, /guide, "
        "/docs (the API); Ctrl+C stops",
        err=True,
    )
    with suppress(KeyboardInterrupt):  # Ctrl-C is how a server is meant to end: no error
        server.run(sockets=[sock])
    forget_stop()
    click.echo("analyzer serve: stopped", err=True)
