"""The strategy page (``/strategy``) and its API: the kept answers in a player's words
(when to knock, how to discard, when to take the upcard) and every kept answer's chart as
plotly figures, read again when the report folder's files change."""

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

    for study, what in ANSWERS.items():
        _answer_route(router, results, study, what)

    return router


#: The answers in a player's words the page shows, each at ``/api/<study>``.
ANSWERS = {
    "when-to-knock": "When to knock",
    "how-to-discard": "How to discard",
    "how-to-draw": "When to take the upcard",
}


def _answer_route(router: APIRouter, results: Path, study: str, what: str) -> None:
    """``GET /api/<study>``: the kept answer of ``analyzer <study>`` as its ``--json``
    prints it (``answer``), read from the report folder and never computed here
    (``answer`` null and ``missing`` saying why and which command computes it)."""

    def answer(
        rules: AnswerRules = "standard",
        opponent: str = Query(
            "unknown",
            max_length=MAX_SPEC_CHARS,
            description="Opponent family (unknown, knocks-at-once, camper, gin-hunter) or "
            "test opponent" + (" or any policy." if study == "when-to-knock" else "."),
        ),
    ) -> dict[str, Any]:
        from .strategy import kept_answer, locate_results

        return kept_answer(locate_results(results), study, rules, opponent)

    answer.__doc__ = (
        _answer_route.__doc__.replace("<study>", study) if _answer_route.__doc__ else None
    )
    router.get(f"/api/{study}", summary=f"{what}, in a player's words, from the kept answers")(
        answer
    )


def _stamp(folder: Path) -> str:
    """The files of the report's studies and their times: the charts are built again when
    it changes.  A file gone while it is looked at (a report moving its files in) counts
    as gone."""
    times = []
    for path in folder.rglob("*"):
        with suppress(OSError):
            times.append((path.as_posix(), path.stat().st_mtime))
    return repr((folder, sorted(times)))
