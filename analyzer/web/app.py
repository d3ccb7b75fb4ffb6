"""The FastAPI app: its pages over a JSON API (OpenAPI at ``/openapi.json``, readable
at ``/docs``: :mod:`~analyzer.web.api_page`), each page with its routes in a router of its
own (:mod:`~analyzer.web.advisor_page`, :mod:`~analyzer.web.table_page`,
:mod:`~analyzer.web.rummy_page`, :mod:`~analyzer.web.strategy_page`); this module
assembles them with the guards, the static files and the error answers.

Every input is validated against the same ranges as the CLI
(:data:`~analyzer.web.schemas.LIMITS`, taken from :mod:`analyzer.core.limits`); anything
outside them, bad JSON, an impossible position or an illegal move gets HTTP 400 with a
one-line ``{"error": ...}``, and so does every other error the app answers (unknown
routes, wrong methods, a Host header that does not name this server).  The server bounds
what one client can take (:mod:`~analyzer.web.guards`, :mod:`~analyzer.web.advisor_service`,
:mod:`~analyzer.web.table_page`):

* request bodies: at most :data:`~analyzer.web.guards.MAX_BODY_BYTES` (connections, and
  the time of every request and answer, are bounded by :mod:`analyzer.web.server`);
* advisor work: runs go to one worker thread (numba shares nothing across two cores, and
  one queue keeps a burst from starving the rest), at most
  :data:`~analyzer.web.advisor_service.MAX_ADVISOR_QUEUE` waiting or running,
  :data:`~analyzer.web.advisor_service.MAX_ADVISOR_PER_CLIENT` of them from one client
  (429 beyond).  A run's answer depends on its request only (a request without
  ``samples`` runs the advisor's one default budget); a run that cannot finish within
  ``advice_seconds`` (:data:`~analyzer.web.advisor_service.MAX_RUN_SECONDS` by default) is
  refused, never answered from fewer samples.  A run whose client has gone, or whose
  request was already answered 503, stops between batches;
* games (of each table, gin's and plain rummy's): at most
  :data:`~analyzer.web.table_page.MAX_GAMES_PER_CLIENT` per client token
  (a cookie: every local process shares the user's address; a client's new game forgets
  its own least recently used one) and :data:`~analyzer.web.table_page.MAX_GAMES` in all
  (beyond, the game unused the longest gives way once unused for
  :data:`~analyzer.web.table_page.KEEP_GAME_S`; until then a new game replaces its
  client's own, or is refused).

Game moves run in the server's thread pool (FastAPI runs plain ``def`` endpoints there),
never on the event loop.  Every response carries basic security headers
(:data:`~analyzer.web.guards.SECURITY_HEADERS`).
"""

from __future__ import annotations

import http
import threading
from collections.abc import Callable, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .._version import __version__
from ..core.limits import INDEX_MAX
from ..studies.reading import DamagedFile
from .advisor_page import advisor_router
from .advisor_service import MAX_RUN_SECONDS, AdvisorService
from .api_page import api_page
from .common import STATIC, default_model, policy_named, rules_named
from .guards import MAX_BODY_BYTES, BodyLimit, Guard, host_policy, one_line
from .guide_page import guide_router
from .rummy_page import rummy_router
from .schemas import ERROR_RESPONSES, LIMITS
from .strategy_page import strategy_router
from .table_page import GameStore, table_router


def create_app(
    results: Path | str = "results",
    advice_seconds: float = MAX_RUN_SECONDS,
    warm_up: bool = True,
    host: str = "127.0.0.1",
    allow_hosts: Iterable[str] = (),
    service: AdvisorService | None = None,
    games: GameStore | None = None,
    rummy_games: GameStore | None = None,
) -> FastAPI:
    """The web app reading strategy charts from ``results`` (a folder of the report),
    answering requests whose Host header names ``host`` (the bound address) or one of
    ``allow_hosts`` (see :func:`~analyzer.web.guards.host_policy`)."""
    results = Path(results)
    service = service or AdvisorService(limit_seconds=advice_seconds)
    games = games or GameStore()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if warm_up:
            threading.Thread(target=_warm_up, args=(service,), daemon=True, name="warm-up").start()
        yield
        service.stop()

    app = FastAPI(
        title="Rummy strategy analyzer",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=ERROR_RESPONSES,
        description="The advisor, the practice tables (gin and plain rummy) and the strategy "
        "charts of "
        "the analyzer, as a JSON API. Every error is "
        '{"error": "one-line reason"}: HTTP 400 for bad input '
        "(numbers outside their ranges, the same as the CLI's: "
        + ", ".join(f"{name} {low:g}-{high:g}" for name, (low, high) in LIMITS.items())
        + f"). Bodies are limited to {MAX_BODY_BYTES} bytes; "
        f"advisor runs stop at {service.limit_seconds:g} s.",
    )
    app.openapi = _exact_integer_bounds(app.openapi)  # type: ignore[method-assign]
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(Guard, hosts=host_policy(host, allow_hosts))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(_one_line(error))}, status_code=400)

    @app.exception_handler(ValueError)
    async def bad_value(request: Request, error: ValueError) -> JSONResponse:
        return JSONResponse(
            {"error": one_line(str(error).splitlines()[0] if str(error) else type(error).__name__)},
            status_code=400,
        )

    @app.exception_handler(DamagedFile)
    async def damaged_results(request: Request, error: DamagedFile) -> JSONResponse:
        # the server's own files, not the request, are at fault; the folder is not named
        return JSONResponse({"error": one_line(error.public())}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = str(error.detail)
        if detail == http.HTTPStatus(error.status_code).phrase:  # the router's own
            if error.status_code == 404:
                detail = f"no page or API route {one_line(request.url.path, 80)}"
            elif error.status_code == 405:
                allowed = (error.headers or {}).get("Allow", "")
                detail = f"{request.method} is not allowed on {one_line(request.url.path, 80)}" + (
                    f" (allowed: {allowed})" if allowed else ""
                )
        elif detail == "There was an error parsing the body":
            detail = "bad JSON: the body could not be parsed"
        return JSONResponse(
            {"error": one_line(detail)}, status_code=error.status_code, headers=error.headers
        )

    app.include_router(advisor_router(service))
    app.include_router(table_router(service, games))
    app.include_router(rummy_router(rummy_games or GameStore()))
    app.include_router(strategy_router(results))
    app.include_router(guide_router(results))

    @app.get("/static/plotly.min.js", include_in_schema=False)
    async def plotly_js() -> FileResponse:
        import plotly

        return FileResponse(
            Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
            media_type="text/javascript",
        )

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(api_page(app.openapi()))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    return app


def _exact_integer_bounds(openapi: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """``openapi`` with the integer bounds exact: FastAPI's schema model stores them as
    floats, which turns 2**63 - 1 into 2**63."""
    exact = {
        float(bound): bound
        for bound in (
            *(b for pair in LIMITS.values() for b in pair if isinstance(b, int)),
            INDEX_MAX,
        )
    }

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "integer":
                for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                    value = node.get(key)
                    if isinstance(value, float):
                        node[key] = exact.get(
                            value,
                            int(value) if value.is_integer() and abs(value) < 2**53 else value,
                        )
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


def _warm_up(service: AdvisorService) -> None:
    """Load the JIT-compiled kernels of the advisor and the two tables before the first
    request needs them."""
    from ..gin.play.advisor import Position
    from .rummy_page import rummy_rules_named
    from .rummy_table import RummyGame
    from .table import PracticeGame

    opponent = default_model()
    game = PracticeGame(
        "warm-up", rules_named("standard"), "standard", policy_named(opponent), opponent, seed=0
    )
    game.legal_moves()
    RummyGame("warm-up", rummy_rules_named("standard"), "standard", seed=0).hint()
    position = Position.from_options(
        "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
        pile="Td Ks Jh Ts Kd Tc",
        opp_took="8d 9s",
        opp_threw="Tc Jh Ts Ks",
        stock=25,
        turn=5,
        upcard="5c",
    )
    with suppress(RuntimeError):  # RuntimeError: the server stopped first
        # the kernels compile before the first batch, so the time limit (checked between
        # batches) cannot cut a cold compile short; the run's answer is not wanted
        service.executor.submit(service.run, position, "standard", opponent, opponent, 512, 1)


__all__ = ["create_app"]
