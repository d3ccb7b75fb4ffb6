"""The ``analyzer serve`` command: the advisor, the practice table and the strategy charts
in the browser (a local web app over a JSON API)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import fail


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default serves this machine only.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to bind.")
@click.option("--results", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results"), show_default=True,
              help="Folder of the committed report whose CSVs the strategy page charts.")
@click.option("--advice-seconds", type=click.FloatRange(min=0.1), default=1.2,
              show_default=True,
              help="Time budget of one advisor request (sets its sample budget).")
def serve_command(host: str, port: int, results: Path, advice_seconds: float) -> None:
    """Start the web app: advisor, practice table and strategy charts.

    Open the printed address in a browser. The JSON API is described at /openapi.json.
    Nothing is fetched from the internet: the page scripts, plotly included, are served
    from the installed packages.
    """
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as error:
        fail(f"{error.name} is missing: install the web extra, pip install -e '.[web]'")
    app = create_app(results, advice_seconds=advice_seconds)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            limit_concurrency=64, timeout_keep_alive=5)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"analyzer serve: http://{shown}:{port}/ (advisor), /table, /strategy, "
               "/openapi.json; Ctrl+C stops", err=True)
    server.run()
