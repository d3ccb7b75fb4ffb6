"""The plain-rummy practice table (``/rummy``) and its API: games of 2 to 4 players
against ``rummy-expert`` (:class:`~analyzer.web.rummy_table.RummyGame`), kept per client
token as the gin table's are (:class:`~analyzer.web.table_page.GameStore`, the token in a
cookie of its own), moves, the expert's hint for the move now, and the review of a
finished hand in words.  Every error is a one-line ``{"error": ...}``: 400 for a bad or
illegal move, 404 for a game the server does not hold."""

from __future__ import annotations

import secrets
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request, Response

from .common import static_page
from .schemas import NewRummyGameIn, RummyMoveIn
from .table_page import GameStore, client_for

#: The cookie holding a browser's client token for the rummy table, sent to its routes.
RUMMY_COOKIE = "rummy_client"
RUMMY_API = "/api/rummy"


@lru_cache(maxsize=16)
def rummy_rules_named(preset: str) -> Any:
    """Plain rummy's rules of a preset name, resolved once (``ValueError`` naming the
    presets for any other name)."""
    from ..rummy.rules import resolve_rules

    return resolve_rules(preset)


def rummy_router(games: GameStore) -> APIRouter:
    """The rummy table's page and routes, its games kept in ``games``."""
    router = APIRouter()
    router.get("/rummy", include_in_schema=False)(static_page("rummy.html"))

    @router.get(f"{RUMMY_API}/presets", summary="Plain rummy's rules presets and table sizes")
    def presets() -> dict[str, Any]:
        from ..rummy.hand import TABLE_PLAYERS
        from ..rummy.practice import EXPERT
        from ..rummy.rules import PRESETS

        return {"rules": list(PRESETS), "players": list(TABLE_PLAYERS), "opponent": EXPERT}

    @router.post(f"{RUMMY_API}/games", summary="Start a plain-rummy game against rummy-expert")
    def new_game(body: NewRummyGameIn, request: Request, response: Response) -> dict[str, Any]:
        from .rummy_table import RummyGame
        from .table import new_game_id

        rules = rummy_rules_named(body.rules)
        token = client_for(request, response, RUMMY_COOKIE, RUMMY_API)
        game = RummyGame(
            new_game_id(),
            rules,
            body.rules,
            players=body.players,
            seed=body.seed if body.seed is not None else secrets.randbits(62),
            hints=body.hints,
        )
        games.add(game, token)
        with game.lock:
            return game.view()

    @router.get(f"{RUMMY_API}/games/{{game_id}}", summary="The rummy game as you see it")
    def get_game(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.view()

    @router.post(
        f"{RUMMY_API}/games/{{game_id}}/move",
        summary="Make a move, then the computer seats theirs (400 and no change if illegal)",
    )
    def move(game_id: str, body: RummyMoveIn) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.move(body.move)
            return game.view()

    @router.post(f"{RUMMY_API}/games/{{game_id}}/next", summary="Deal the next hand")
    def next_hand(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            game.deal()
            return game.view()

    @router.get(
        f"{RUMMY_API}/games/{{game_id}}/hint",
        summary="What rummy-expert would do now in your place, and why",
    )
    def hint(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.hint()

    @router.get(
        f"{RUMMY_API}/games/{{game_id}}/review",
        summary="The finished hand reviewed in words: where you and rummy-expert differed",
    )
    def review(game_id: str) -> dict[str, Any]:
        game = games.get(game_id)
        with game.lock:
            return game.review()

    return router


__all__ = ["RUMMY_API", "RUMMY_COOKIE", "rummy_router", "rummy_rules_named"]
