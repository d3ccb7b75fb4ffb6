"""The FastAPI app: three pages over a JSON API (OpenAPI at ``/openapi.json``).

Every input is validated; a bad position, move or JSON body gets HTTP 400 with a one-line
``{"error": ...}``.  Request bodies are limited to :data:`MAX_BODY_BYTES`.  Advisor runs go
to one worker thread (numba releases nothing to share on two cores, and one queue keeps a
burst of requests from starving the rest) with a time budget: the sample budget is the
measured rate of earlier runs times ``advice_seconds``, and a run that still overruns by
far answers 503 while the server keeps serving.  Game moves run in the server's thread
pool (FastAPI runs plain ``def`` endpoints there), never on the event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest accepted request body (bytes); a position is well under 1 kB.
MAX_BODY_BYTES = 16 * 1024
#: Most games kept in memory (the least recently used is forgotten first).
MAX_GAMES = 500
#: Most samples one advisor request may ask for.
MAX_SAMPLES = 50_000
#: Longest wait for an advisor run with an explicit sample budget (s).
MAX_WAIT_S = 120.0
STATIC = Path(__file__).parent / "static"
CardList = str | list[str]


def default_opponent() -> str:
    """``expert``; ``gin-hunter`` (the strongest preset of the committed tournament) in a
    checkout without the expert preset."""
    from ..gin.policies import PRESETS

    return "expert" if "expert" in PRESETS else "gin-hunter"


# ------------------------------------------------------------------------ schemas


class PositionIn(BaseModel):
    """The CLI's ``--position`` JSON: cards in notation (``"Kd 9s"`` or ``["Kd", "9s"]``)."""

    model_config = ConfigDict(extra="forbid")
    hand: CardList = Field(description="Your 11 cards after drawing (or 10 with drawn).")
    pile: CardList = Field("", description="The discard pile, bottom to top.")
    opp_took: CardList = Field("", description="Cards the opponent took from the pile.")
    opp_threw: CardList = Field("", description="Cards the opponent discarded.")
    stock: int | None = Field(None, description="Cards left in the stock.")
    turn: int | None = Field(None, description="Your own turn number, this draw included.")
    dealer: Literal["me", "opp"] = "opp"
    drawn: str | None = Field(None, description="The card just drawn.")
    from_pile: bool = Field(False, description="Whether drawn came from the pile.")
    score: str | list[int] | None = Field(None, description="Score mine:theirs before this "
                                                            "hand; the objective becomes the "
                                                            "game-win probability.")
    upcard: str | None = Field(None, description="The hand's first upcard.")


class AdviseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: PositionIn
    rules: str = Field("standard", description="Rules preset.")
    opponent: str | None = Field(None, description="The opponent model (policy preset or "
                                                   "spec) [default: expert].")
    policy: str = Field("basic", description="How you play on after this discard.")
    samples: int | None = Field(None, ge=1, le=MAX_SAMPLES,
                                description="Sample budget [default: the time budget].")
    tolerance: float | None = Field(None, gt=0, description="Stop when every rival's "
                                    "difference to the best is this precise (95% half-width; "
                                    "points, or win probability with a score).")
    seed: int = 1


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = "standard"
    opponent: str | None = Field(None, description="Policy preset or spec [default: expert].")
    mode: Literal["hand", "game"] = Field("game", description="Single hands, or a game to "
                                                              "the rules' target.")
    hints: Literal["off", "before", "after"] = "before"
    seed: int | None = Field(None, description="Deals are reproducible from it [default: "
                                               "random].")


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(description="take, pass, stock, pile, 'play Kd', 'knock Kd', "
                                  "'gin Kd' or 'big gin'.", max_length=20)


# ------------------------------------------------------------------------ body limit


class BodyLimit:
    """ASGI middleware: 413 for bodies over ``limit`` bytes (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(self.limit, send)
                return
        # buffer the body (small by construction) so that an oversized one is refused
        # before the app reads any of it, however it is sent (declared or chunked)
        messages: list[Message] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                messages.append(message)
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await _too_large(self.limit, send)
                return
            messages.append(message)
            more = message.get("more_body", False)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


async def _too_large(limit: int, send: Send) -> None:
    body = json.dumps({"error": f"request body over {limit} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


# ------------------------------------------------------------------------ the advisor


@dataclass
class AdvisorService:
    """Runs advisor requests one at a time off the event loop, within a time budget."""

    seconds: float = 1.2
    """Time budget per request (s): sets the sample budget from the measured rate."""
    max_samples: int = 20_000
    first_samples: int = 2_000
    """Sample budget before any rate is measured."""
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="advisor"))
    rates: dict[str, float] = field(default_factory=dict)
    """Samples per second of earlier runs, per (rules, policies)."""

    def budget(self, key: str) -> int:
        rate = self.rates.get(key)
        if rate is None:
            return self.first_samples
        return int(min(self.max_samples, max(256, rate * self.seconds)))

    def run(self, position: Any, rules_preset: str, policy_text: str, opponent_text: str,
            samples: int | None, seed: int, tolerance: float | None = None,
            measure: bool = True) -> dict[str, Any]:
        """The advice as JSON-ready data (blocking: call it in :attr:`executor`)."""
        from ..gin.advisor import advise

        rules, policy, opponent = _rules(rules_preset), _policy(policy_text), _policy(
            opponent_text)
        key = f"{rules_preset}|{policy_text}|{opponent_text}"
        equity = None
        if position.score is not None:
            equity = _equity(rules_preset, policy_text, opponent_text)
        budget = samples if samples is not None else self.budget(key)
        advice = advise(position, rules, policy, opponent, samples=budget, seed=seed,
                        tolerance=tolerance, equity=equity)
        if measure and advice.elapsed_s > 0:
            self.rates[key] = advice.samples / advice.elapsed_s
        return advice.to_dict() | {"rules_preset": rules_preset, "sample_budget": budget}

    async def advise(self, position: Any, rules_preset: str, policy_text: str,
                     opponent_text: str, samples: int | None, seed: int,
                     tolerance: float | None = None) -> dict[str, Any]:
        """:meth:`run` in the advisor thread; 503 past a generous multiple of the budget
        (an explicit ``samples`` budget gets :data:`MAX_WAIT_S`)."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, self.run, position, rules_preset,
                                      policy_text, opponent_text, samples, seed, tolerance)
        limit = MAX_WAIT_S if samples is not None else 10 * self.seconds + 5
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=limit)
        except TimeoutError:
            raise HTTPException(503, "the advisor ran over its time budget; try again "
                                     "or ask for fewer samples") from None


@lru_cache(maxsize=64)
def _rules(preset: str) -> Any:
    from ..gin.rules import resolve_rules

    return resolve_rules(preset)


@lru_cache(maxsize=64)
def _policy(text: str) -> Any:
    from ..gin.policies import parse_policy

    return parse_policy(text)


@lru_cache(maxsize=8)
def _equity(rules_preset: str, policy_text: str, opponent_text: str
            ) -> Callable[[int, int, bool], float]:
    """The game-win table valuing final scores (20,000 deals, about 1.5 s, cached)."""
    from ..gin.equity import equity_function

    return equity_function(_rules(rules_preset), _policy(policy_text), _policy(opponent_text),
                           20_000, 1)


def _position(data: PositionIn) -> Any:
    from ..gin.advisor import Position

    return Position.from_json(data.model_dump(exclude_none=True))


# ------------------------------------------------------------------------ games


class GameStore:
    """Games by id, least recently used forgotten beyond :data:`MAX_GAMES`."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self.games: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: Any) -> None:
        with self.lock:
            self.games[game.game_id] = game
            while len(self.games) > self.limit:
                self.games.popitem(last=False)

    def get(self, game_id: str) -> Any:
        with self.lock:
            game = self.games.get(game_id)
            if game is None:
                raise HTTPException(404, f"no game {game_id!r} (the server may have restarted)")
            self.games.move_to_end(game_id)
            return game


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
               warm_up: bool = True) -> FastAPI:
    """The web app reading strategy charts from ``results`` (a folder of the report)."""
    results = Path(results)
    service = AdvisorService(seconds=advice_seconds)
    games = GameStore()
    charts_cache: dict[str, Any] = {}
    #: game id -> (decision index, advice) of the last hint, reused by the review
    hints: dict[str, tuple[int, dict[str, Any]]] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if warm_up:
            threading.Thread(target=_warm_up, args=(service,), daemon=True,
                             name="warm-up").start()
        yield
        service.executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="Rummy strategy analyzer", version=_version(), lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="The advisor, the practice table and the strategy charts of "
                              "the analyzer, as a JSON API. Errors are HTTP 400 with "
                              "{\"error\": \"one-line reason\"}.")
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _one_line(error)}, status_code=400)

    @app.exception_handler(ValueError)
    async def bad_value(request: Request, error: ValueError) -> JSONResponse:
        return JSONResponse({"error": str(error).splitlines()[0]}, status_code=400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

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
    @app.get("/api/presets", summary="Rules presets, policy presets and the default opponent")
    def presets() -> dict[str, Any]:
        from ..gin.policies import PRESETS as POLICIES
        from ..gin.rules import PRESETS as RULES

        return {"rules": list(RULES), "policies": list(POLICIES),
                "default_opponent": default_opponent(), "advice_seconds": service.seconds}

    @app.post("/api/advise", summary="Rank every action of a position (the advisor)")
    async def advise_position(body: AdviseIn) -> dict[str, Any]:
        position = _position(body.position)
        opponent = body.opponent or default_opponent()
        _rules(body.rules), _policy(body.policy), _policy(opponent)  # 400 before queueing
        return await service.advise(position, body.rules, body.policy, opponent, body.samples,
                                    body.seed, body.tolerance)

    @app.post("/api/games", summary="Start a practice game against a policy")
    def new_game(body: NewGameIn) -> dict[str, Any]:
        import secrets

        from .table import PracticeGame, new_game_id

        opponent = body.opponent or default_opponent()
        game = PracticeGame(new_game_id(), _rules(body.rules), body.rules, _policy(opponent),
                            opponent, mode=body.mode, hints=body.hints,
                            seed=body.seed if body.seed is not None else secrets.randbits(62))
        games.add(game)
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
    async def hint(game_id: str, decision: int | None = None) -> dict[str, Any]:
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
        advice = await service.advise(position, preset, "basic", opponent, None, 1)
        hints[game_id] = (index, advice)
        while len(hints) > MAX_GAMES:
            hints.pop(next(iter(hints)))
        return advice

    @app.get("/api/games/{game_id}/decisions/{index}",
             summary="One of your discard decisions with the advisor's verdict and its cost")
    async def decision(game_id: str, index: int) -> dict[str, Any]:
        game = games.get(game_id)
        if not 0 <= index < len(game.decisions):
            raise HTTPException(404, f"no decision {index} in this game")
        return await _advised(game, index)

    @app.get("/api/games/{game_id}/review",
             summary="Your decisions of the last finished hand, costliest first (points)")
    async def review(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        if not game.results:
            raise HTTPException(400, "no hand has finished yet")
        hand = game.results[-1]["hand"]
        indices = [i for i, d in enumerate(game.decisions) if d.hand == hand]
        rows = [await _advised(game, i) for i in indices]
        rows.sort(key=lambda row: -(row["cost"] or 0.0))
        total = sum(row["cost"] or 0.0 for row in rows)
        return {"hand": hand, "decisions": rows, "total_cost": total}

    async def _advised(game: Any, index: int) -> dict[str, Any]:
        decision = game.decisions[index]
        if decision.advice is None and decision.position is not None and not decision.error:
            try:
                decision.advice = await service.advise(decision.position, game.rules_preset,
                                                       "basic", game.opponent_name, None, 1)
            except ValueError as error:
                decision.error = str(error).splitlines()[0]
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


def _one_line(error: RequestValidationError) -> str:
    """The first validation error as ``where: what``."""
    first = error.errors()[0] if error.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
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
    from ..gin.advisor import Position
    from .table import PracticeGame

    opponent = default_opponent()
    game = PracticeGame("warm-up", _rules("standard"), "standard", _policy(opponent), opponent,
                        seed=0)
    game.legal_moves()
    position = Position.from_options("3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
                                     pile="Td Ks Jh Ts Kd Tc", opp_took="8d 9s",
                                     opp_threw="Tc Jh Ts Ks", stock=25, turn=5, upcard="5c")
    service.executor.submit(service.run, position, "standard", "basic", opponent, 512, 1,
                            None, False)


__all__ = ["MAX_BODY_BYTES", "AdvisorService", "create_app", "default_opponent"]
