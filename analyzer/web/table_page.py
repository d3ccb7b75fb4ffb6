"""The practice table page (``/table``) and its API: games against a policy kept per
client (:class:`GameStore`), moves, hints, the review of a hand's decisions and its
history.  Hints and reviews play on as the strongest preset (``expert``), as
``analyzer advise`` does."""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi import Path as PathParam

from ..core.limits import INDEX_MAX
from ..gin.play.advisor.race import HINT_SAMPLES
from ..studies.study import DEFAULT_SEED
from .advisor_service import AdvisorService
from .common import client_of, default_model, policy_named, rules_named, static_page
from .guards import one_line
from .schemas import MoveIn, NewGameIn

#: Most games kept in memory.
MAX_GAMES = 500
#: Most games one client (peer address) keeps; its new game forgets its oldest.
MAX_GAMES_PER_CLIENT = 20


class GameStore:
    """Games by id with their client, least recently used first.  A client keeps at most
    ``per_client`` games (its new game forgets its own least recently used one); beyond
    ``limit`` games in all, the client holding the most gives up its least recently used
    one, so no client can push out another's games by starting many."""

    def __init__(self, limit: int = MAX_GAMES, per_client: int = MAX_GAMES_PER_CLIENT) -> None:
        self.limit = limit
        self.per_client = per_client
        self.games: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: Any, client: str = "") -> list[str]:
        """Keep ``game`` for ``client``; the ids of the games forgotten to make room."""
        with self.lock:
            self.games[game.game_id] = (client, game)
            forgotten: list[str] = []
            own = [i for i, (owner, _) in self.games.items() if owner == client]
            for game_id in own[: max(0, len(own) - self.per_client)]:
                del self.games[game_id]
                forgotten.append(game_id)
            while len(self.games) > self.limit:
                counts = Counter(owner for owner, _ in self.games.values())
                most = max(counts.values())
                game_id = next(i for i, (owner, _) in self.games.items() if counts[owner] == most)
                del self.games[game_id]
                forgotten.append(game_id)
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
            self.games.move_to_end(game_id)
            return entry[1]


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
    def new_game(body: NewGameIn, request: Request) -> dict[str, Any]:
        import secrets

        from .table import PracticeGame, new_game_id

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
        for forgotten in games.add(game, client_of(request)):
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
