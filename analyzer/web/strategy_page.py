"""The strategy page (``/strategy``) and its API: the report's charts as plotly figures,
read again when the report's files change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter

from .common import static_page


def strategy_router(results: Path) -> APIRouter:
    """The strategy page and the route of its charts, read from ``results`` (a folder of
    the report)."""
    router = APIRouter()
    router.get("/strategy", include_in_schema=False)(static_page("strategy.html"))
    charts_cache: dict[str, Any] = {}

    @router.get("/api/strategy", summary="The strategy charts (plotly figures) from results/")
    def strategy() -> dict[str, Any]:
        from .strategy import strategy_charts

        stamp = (
            repr(sorted((p.as_posix(), p.stat().st_mtime) for p in results.glob("*/*.csv")))
            if results.is_dir()
            else ""
        )
        if charts_cache.get("stamp") != stamp:
            charts_cache.update(stamp=stamp, data=strategy_charts(results))
        return dict(charts_cache["data"])

    return router
