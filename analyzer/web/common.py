"""What the pages share: their HTML files, the presets they name (resolved once), the
default model and the client a request counts against."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import FileResponse

STATIC = Path(__file__).parent / "static"


def static_page(name: str) -> Callable[[], Awaitable[FileResponse]]:
    """The endpoint serving the HTML page ``name`` of :data:`STATIC`."""

    async def serve_page() -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    return serve_page


def default_model() -> str:
    """The default opponent model and the default play-on policy of the advisor, the hints
    and the table's opponent: ``expert``, as ``analyzer advise`` (``gin-hunter``, the
    strongest preset of the committed tournament, in a checkout without the expert
    preset)."""
    from ..gin.model.policies import PRESETS

    return "expert" if "expert" in PRESETS else "gin-hunter"


@lru_cache(maxsize=64)
def rules_named(preset: str) -> Any:
    """The rules of a preset name (or preset with overrides), resolved once."""
    from ..gin.model.rules import resolve_rules

    return resolve_rules(preset)


@lru_cache(maxsize=64)
def policy_named(text: str) -> Any:
    """The policy of a preset name or spec, parsed once."""
    from ..gin.model.policies import parse_policy

    return parse_policy(text)


def client_of(request: Request) -> str:
    """The client a request counts against: its peer address."""
    return request.client.host if request.client else ""
