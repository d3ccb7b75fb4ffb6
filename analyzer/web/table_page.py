"""The practice table page (``/table``) and its API: games against a policy kept per
client token (:class:`GameStore`, the token in a cookie), moves, hints, the review of a hand's decisions and its
history.  Hints and reviews play on as the strongest preset (``expert``), as
``analyzer advise`` does."""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi import Path as PathParam

from ..core.limits import INDEX_MAX
from ..gin.play.advisor import HINT_SAMPLES
from ..studies.study import DEFAULT_SEED
from .advisor_service import AdvisorService
from .common import client_of, default_model, policy_named, rules_named, static_page
from .guards import one_line
from .schemas import MoveIn, NewGameIn

#: Most games kept in memory.
MAX_GAMES = 500
#: Most games one client (its token) keeps; its new game forgets its own oldest.
MAX_GAMES_PER_CLIENT = 20
#: Seconds after its last use during which no other client's new game takes a game's place.
KEEP_GAME_S = 30 * 60
#: The cookie holding a browser's client token, issued with its first game: the games are
#: kept per token, since every local process shares the user's address.
CLIENT_COOKIE = "table_client"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")


class GameStore:
    """Games by id with their client's token, least recently used first.  A client keeps
    at most ``per_client`` games (its new game forgets its own least recently used one).
    Beyond ``limit`` games in all, a new game takes the place of the game unused the
    longest if that is ``keep_seconds`` or more (by ``clock``, seconds), else of its
    client's own least recently used game, else it is refused (503): no client, however
    many tokens it takes, can push out a game another played within ``keep_seconds``."""

    def __init__(
        self,
        limit: int = MAX_GAMES,
        per_client: int = MAX_GAMES_PER_CLIENT,
        keep_seconds: float = KEEP_GAME_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.per_client = per_client
        self.keep_seconds = keep_seconds
        self.clock = clock
        #: game id -> (client token, game, time of its last use)
        self.games: OrderedDict[str, tuple[str, Any, float]] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: Any, client: str) -> list[str]:
        """Keep ``game`` for the client of token ``client``; the ids of the games
        forgotten to make room (503 when there is none)."""
        with self.lock:
            now = self.clock()
            own = [i for i, (owner, _, _) in self.games.items() if owner == client]
            forgotten = own[: max(0, len(own) - self.per_client + 1)]
            if len(self.games) - len(forgotten) >= self.limit:
                oldest, (_, _, used) = next(iter(self.games.items()))
                if now - used >= self.keep_seconds:
                    forgotten.append(oldest)
                elif len(own) > len(forgotten):
                    forgotten.append(own[len(forgotten)])
                else:
                    raise HTTPException(
                        503,
                        f"the table holds its limit of {self.limit} games, all played in "
                        f"the last {self.keep_seconds / 60:g} minutes; try again later",
                    )
            for game_id in forgotten:
                del self.games[game_id]
            self.games[game.game_id] = (client, game, now)
            return forgotten

    def get(self, game_id: str) -> Any:
        with self.lock:
            entry = self.games.get(game_id)
            if entry is None:
                raise HTTPException(
                    404,
                    f"no game {one_line(game_id, 40)!r} (the server "
                    "may have restarted, or the game was forgotten)",
                )
            self.games[game_id] = (entry[0], entry[1], self.clock())
            self.games.move_to_end(game_id)
            return entry[1]


def client_token(request: Request, cookie: str = CLIENT_COOKIE) -> str | None:
    """The client token of the request's cookie (None without a well-formed one)."""
    token = request.cookies.get(cookie)
    return token if token is not None and _TOKEN.fullmatch(token) else None


def client_for(
    request: Request, response: Response, cookie: str = CLIENT_COOKIE, path: str = "/api/games"
) -> str:
    """The request's client token, a new one issued (as the cookie ``cookie``, sent back
    to the routes under ``path`` only) when it carries none."""
    token = client_token(request, cookie)
    if token is None:
        token = secrets.token_urlsafe(16)
        response.set_cookie(cookie, token, path=path, httponly=True, samesite="strict")
    return token


def _principle(decision: Any) -> str | None:
    """The draw principle the draw before a move follows or breaks, and the discard
    principle a "play on" move follows or breaks, in a line (``None`` when neither tells,
    or without a position)."""
    from ..gin.play.advisor.draw_principles import draw_note
    from ..gin.play.advisor.principles import discard_note

    if decision.position is None:
        return None
    notes = [
        draw_note(decision.position, symbols=True),
        discard_note(decision.position, decision.action, symbols=True),
    ]
    return " ".join(note for note in notes if note) or None


def _decision_view(decision: Any, index: int) -> dict[str, Any]:
    """A decision with its advice, the cost of the move made (points, >= 0) and the
    discard principle it follows or breaks; without advice (``error`` says why) the
    advice fields are ``None``."""
    view: dict[str, Any] = {
        "index": index,
        "hand": decision.hand,
        "move": decision.action,
        "principle": _principle(decision),
        "position": None if decision.position is None else decision.position.describe(),
        "best": None,
        "cost": None,
        "cost_half_width": None,
        "verdict": None,
        "advice": decision.advice,
        "error": decision.error,
    }
    if decision.advice is not None:
        actions = decision.advice["actions"]
        chosen = next((a for a in actions if a["action"] == decision.action), None)
        view |= {"best": actions[0]["action"], "verdict": decision.advice["verdict"]}
        if chosen is not None:
            view |= {
                "cost": max(chosen["behind"], 0.0),
                "cost_half_width": chosen["behind_half_width"],
            }
    return view


def table_router(service: AdvisorService, games: GameStore) -> APIRouter:
    """The table page and the game routes, the games kept in ``games`` and their advice
    asked of ``service``."""
    router = APIRouter()
    router.get("/table", include_in_schema=False)(static_page("table.html"))
    #: game id -> (decision index, advice) of the last hint, reused by the review
    hints: dict[str, tuple[int, dict[str, Any]]] = {}

    @router.post("/api/games", summary="Start a practice game against a policy")
    def new_game(body: NewGameIn, request: Request, response: Response) -> dict[str, Any]:
        from .table import PracticeGame, new_game_id

        token = client_for(request, response)
        opponent = body.opponent or default_model()
        game = PracticeGame(
            new_game_id(),
            rules_named(body.rules),
            body.rules,
            policy_named(opponent),
            opponent,
            mode=body.mode,
            hints=body.hints,
            seed=body.seed if body.seed is not None else secrets.randbits(62),
        )
        for forgotten in games.add(game, token):
            hints.pop(forgotten, None)
        with game.lock:
            return game.view()

    @router.get("/api/games/{game_id}", summary="The game as its player sees it")
    def get_game(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.view()

    @router.post("/api/games/{game_id}/move", summary="Make a move (400 and no change if illegal)")
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

    @router.post("/api/games/{game_id}/next", summary="Deal the next hand")
    def next_hand(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.deal()
            return game.view()

    @router.get("/api/games/{game_id}/hint", summary="The advisor's verdict for the decision now")
    async def hint(
        game_id: str, request: Request, decision: int | None = Query(None, ge=0, le=INDEX_MAX)
    ) -> dict[str, Any]:
        """With ``decision`` (the game's decision count when the page asked), a game that
        has moved on since answers ``{"stale": true}``, not an error: the page's request
        simply arrived late.  A hint still running when the player moves stops and answers
        the same, so that a quick player's stale hints do not hold the advisor."""
        game = games.get(game_id)
        with game.lock:
            if decision is not None and (
                decision != len(game.decisions) or game.phase != "discard"
            ):
                return {"stale": True}
            position = game.position()
            index = len(game.decisions)
            preset, opponent = game.rules_preset, game.opponent_name

        async def moved_on_or_gone() -> bool:
            """The player has moved (the hint is stale) or closed the page."""
            return len(game.decisions) != index or await request.is_disconnected()

        try:
            advice = await service.advise(
                position,
                preset,
                default_model(),
                opponent,
                HINT_SAMPLES,
                DEFAULT_SEED,
                client=client_of(request),
                disconnected=moved_on_or_gone,
            )
        except HTTPException:
            if len(game.decisions) != index:
                return {"stale": True}
            raise
        hints[game_id] = (index, advice)
        while len(hints) > MAX_GAMES:
            hints.pop(next(iter(hints)))
        return advice

    @router.get(
        "/api/games/{game_id}/history",
        summary="The current or last hand as JSON: log, your decisions with their "
        "advisor positions, and the result",
    )
    def history(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.history()

    @router.get(
        "/api/games/{game_id}/decisions/{index}",
        summary="One of your discard decisions with the advisor's verdict and its cost",
    )
    async def decision(
        game_id: str, request: Request, index: int = PathParam(ge=0, le=INDEX_MAX)
    ) -> dict[str, Any]:
        game = games.get(game_id)
        if not 0 <= index < len(game.decisions):
            raise HTTPException(404, f"no decision {index} in this game")
        return await _advised(game, index, request)

    @router.get(
        "/api/games/{game_id}/review",
        summary="Your decisions of the last finished hand, costliest first (points)",
    )
    async def review(game_id: str, request: Request) -> dict[str, Any]:
        game = games.get(game_id)
        if not game.results:
            raise HTTPException(400, "no hand has finished yet")
        hand = game.results[-1]["hand"]
        indices = [i for i, d in enumerate(game.decisions) if d.hand == hand]
        rows = [await _advised(game, i, request) for i in indices]
        rows.sort(key=lambda row: -(row["cost"] or 0.0))
        total = sum(row["cost"] or 0.0 for row in rows)
        return {"hand": hand, "decisions": rows, "total_cost": total}

    async def _advised(game: Any, index: int, request: Request) -> dict[str, Any]:
        decision = game.decisions[index]
        if decision.advice is None and decision.position is not None and not decision.error:
            try:
                decision.advice = await service.advise(
                    decision.position,
                    game.rules_preset,
                    default_model(),
                    game.opponent_name,
                    HINT_SAMPLES,
                    DEFAULT_SEED,
                    client=client_of(request),
                    disconnected=request.is_disconnected,
                )
            except ValueError as error:
                decision.error = one_line(str(error))
        return _decision_view(decision, index)

    return router
