"""The strategy page (``/strategy``) and its API: the written knock answer and the
report's charts as plotly figures, read again when the report's files change."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query

from .common import static_page
from .schemas import MAX_SPEC_CHARS

#: The rules preset of a written answer, as both answers' routes take it.
AnswerRules = Annotated[str, Query(max_length=MAX_SPEC_CHARS, description="Rules preset.")]


def strategy_router(results: Path) -> APIRouter:
    """The strategy page and the route of its charts, read from ``results`` (a folder of
    the report; a relative one is looked up by the results store, see
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
        stamp = _stamp(folder.path)
        if charts_cache.get("stamp") != stamp:
            charts_cache.update(stamp=stamp, data=strategy_charts(folder.path))
        return {"results": folder.shown, "found": folder.found} | charts_cache["data"]

    @router.get(
        "/api/when-to-knock",
        summary="When to knock, in a player's words, from the committed report",
    )
    def when_to_knock(
        rules: AnswerRules = "standard",
        opponent: str = Query(
            "unknown",
            max_length=MAX_SPEC_CHARS,
            description="Opponent family (unknown, knocks-at-once, camper, gin-hunter), "
            "panel member or policy.",
        ),
    ) -> dict[str, Any]:
        """The answer of ``analyzer when-to-knock`` as JSON (``answer``), read from the
        committed report; never computed here (``answer`` null and ``missing`` says why
        when the report does not hold it)."""
        from .strategy import kept_answer, locate_results

        return kept_answer(locate_results(results), "when-to-knock", rules, opponent)

    @router.get(
        "/api/how-to-discard",
        summary="How to discard, in a player's words, from the committed results",
    )
    def how_to_discard(
        rules: AnswerRules = "standard",
        opponent: str = Query(
            "unknown",
            max_length=MAX_SPEC_CHARS,
            description="Opponent family (unknown, knocks-at-once, camper, gin-hunter) or "
            "panel member.",
        ),
    ) -> dict[str, Any]:
        """The answer of ``analyzer how-to-discard`` as JSON (``answer``), read from the
        committed results; never computed here (``answer`` null and ``missing`` says why
        when they do not hold it)."""
        from .strategy import kept_answer, locate_results

        return kept_answer(locate_results(results), "how-to-discard", rules, opponent)

    return router


def _stamp(folder: Path) -> str:
    """The files of the report's studies and their times: the charts are built again when
    it changes.  A file gone while it is looked at (a report moving its files in) counts
    as gone."""
    times = []
    for path in folder.rglob("*"):
        with suppress(OSError):
            times.append((path.as_posix(), path.stat().st_mtime))
    return repr((folder, sorted(times)))
