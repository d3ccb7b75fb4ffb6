"""The strategy page (``/strategy``) and its API: the report's charts as plotly figures,
read again when the report's files change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter

from .common import static_page


def strategy_router(results: Path) -> APIRouter:
    """The strategy page and the route of its charts, read from ``results`` (a folder of
    the report; a relative one is also looked for next to the source checkout, see
    :func:`~analyzer.web.strategy.locate_results`)."""
    router = APIRouter()
    router.get("/strategy", include_in_schema=False)(static_page("strategy.html"))
    charts_cache: dict[str, Any] = {}

    @router.get("/api/strategy", summary="The strategy charts (plotly figures) from results/")
    def strategy() -> dict[str, Any]:
        from .strategy import locate_results, strategy_charts

        folder = locate_results(results)
        if folder.path is None:
            return {"results": None, "found": folder.found, "charts": [], "notes": []}
        stamp = repr(
            (
                folder.path,
                sorted((p.as_posix(), p.stat().st_mtime) for p in folder.path.glob("*/*")),
            )
        )
        if charts_cache.get("stamp") != stamp:
            charts_cache.update(stamp=stamp, data=strategy_charts(folder.path))
        return {"results": str(folder.path), "found": folder.found} | charts_cache["data"]

    return router
