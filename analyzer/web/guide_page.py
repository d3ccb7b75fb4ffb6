"""The guide page (``/guide``) and its API: the strategy guide saved in the report folder
(``analyzer guide --rules R --out results/guide/R``), as text a browser prints on one
page, and its strategy card as PNG and PDF; read as every door reads an answer, never
computed here."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

from .common import static_page
from .strategy_page import AnswerRules

#: Where the guides are saved in the report folder, one subfolder per rules preset.
FOLDER = "guide"
MEDIA = {"png": "image/png", "pdf": "application/pdf"}


def guide_router(results: Path) -> APIRouter:
    """The guide page and its routes, read from the report folder ``results``."""
    router = APIRouter()
    router.get("/guide", include_in_schema=False)(static_page("guide.html"))

    @router.get("/api/guide", summary="The strategy guide saved for a rules preset")
    def guide(rules: AnswerRules = "standard") -> dict[str, Any]:
        """The guide's text and its card's blocks (``answer``), or ``None`` with
        ``missing`` naming the command that saves it."""
        from ..gin.model.rules import resolve_rules
        from ..studies.answer import Answer
        from .strategy import locate_results

        resolve_rules(rules)
        folder = locate_results(results)
        saved = None if folder.path is None else folder.path / FOLDER / rules
        if saved is None or not (saved / "meta.json").exists():
            keep = f"`analyzer guide --rules {rules} --out results/{FOLDER}/{rules}`"
            return {"rules": rules, "answer": None, "missing": f"No guide saved: {keep} saves it."}
        answer = Answer.load(saved, folder.path, named=folder.shown)
        page = answer.view.page
        return {
            "rules": rules,
            "answer": {
                "title": answer.title,
                "text": answer.text(),
                "blocks": [] if page is None else [list(block) for block in page.blocks],
                "footer": "" if page is None else page.footer,
                "source": answer.source,
            },
            "missing": None,
        }

    @router.get("/guide/card.{kind}", summary="The strategy card, as PNG or one-page PDF")
    def card(kind: Literal["png", "pdf"], rules: AnswerRules = "standard") -> Response:
        from ..gin.model.rules import resolve_rules
        from ..studies.reading import read_folder
        from .strategy import locate_results

        resolve_rules(rules)
        folder = locate_results(results)
        name = f"{FOLDER}/{rules}"
        if folder.path is None or not (folder.path / name / "meta.json").exists():
            raise HTTPException(404, f"no guide saved for the {rules} rules")
        files = read_folder(folder.path, name).files
        if f"card.{kind}" not in files:
            raise HTTPException(404, f"the guide for the {rules} rules has no card.{kind}")
        return Response(files[f"card.{kind}"], media_type=MEDIA[kind])

    return router


__all__ = ["guide_router"]
