"""The advisor page (``/``) and its API: the presets every page offers, and the ranking
of a position's actions (``POST /api/advise``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from ..gin.play.advisor import ADVICE_SAMPLES
from .advisor_service import AdvisorService
from .common import client_of, default_model, policy_named, rules_named, static_page
from .schemas import LIMITS, AdviseIn


def advisor_router(service: AdvisorService) -> APIRouter:
    """The advisor page and the routes of the advisor API, run by ``service``."""
    router = APIRouter()
    router.get("/", include_in_schema=False)(static_page("advisor.html"))

    @router.get(
        "/api/presets",
        summary="Rules presets, policy presets, the default opponent and play-on policy, "
        "and the ranges of the numeric arguments",
    )
    def presets() -> dict[str, Any]:
        from ..gin.model.policies import PRESETS as POLICIES
        from ..gin.model.rules import PRESETS as RULES

        return {
            "rules": list(RULES),
            "policies": list(POLICIES),
            "default_opponent": default_model(),
            "default_policy": default_model(),
            "advice_samples": ADVICE_SAMPLES,
            "advice_limit_seconds": service.limit_seconds,
            "limits": {name: list(bounds) for name, bounds in LIMITS.items()},
        }

    @router.post("/api/advise", summary="Rank every action of a position (the advisor)")
    async def advise_position(body: AdviseIn, request: Request) -> dict[str, Any]:
        from ..gin.play.advisor import check_game_position

        given = body.model_dump()
        position = _position({k: v for k, v in given["position"].items() if v is not None})
        opponent = given["opponent"] or default_model()
        policy = given["policy"] or default_model()
        # 400 before queueing
        check_game_position(position, rules_named(given["rules"]))
        policy_named(policy), policy_named(opponent)
        return await service.advise(
            position,
            given["rules"],
            policy,
            opponent,
            given["samples"],
            given["seed"],
            given["tolerance"],
            client_of(request),
            request.is_disconnected,
        )

    return router


def _position(fields: dict[str, Any]) -> Any:
    """The position of the request's fields (those given), or a 400 saying why not."""
    from ..gin.play.advisor import Position

    try:
        return Position.from_json(fields)
    except (ValueError, TypeError) as error:
        raise HTTPException(400, _turn_error(fields, error) or str(error)) from None


def _turn_error(fields: dict[str, Any], error: Exception) -> str | None:
    """A turn given without a stock count sets the stock: when the stock it implies is
    out of range, the error is the turn's, with the turns that fit (``None``: another
    error)."""
    from ..gin.play.advisor import Position

    turn = fields.get("turn")
    if turn is None or "stock" in fields or "the stock must hold" not in str(error):
        return None

    def fits(earlier: int) -> bool:
        try:
            Position.from_json(fields | {"turn": earlier})
        except (ValueError, TypeError):
            return False
        return True

    latest = next((earlier for earlier in range(turn - 1, 0, -1) if fits(earlier)), None)
    if latest is None:
        return None
    return (
        f"position.turn: turn {turn} does not fit this position: without a stock "
        f"count the turn sets it, and no stock is left by then (this position fits turns "
        f"1-{latest}, or give the stock)"
    )
