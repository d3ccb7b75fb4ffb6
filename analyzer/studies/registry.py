"""Every declared study (:data:`STUDIES`), each declaring module imported: the one list
both front doors make their commands and notebook functions from."""

from __future__ import annotations

from . import (  # noqa: F401
    discard_fit,
    equilibrium,
    equity,
    exact,
    guide,
    knock,
    panel,
    play,
    principles,
    rummy,
    rummy_lessons,
    rummy_options,
    rummy_study,
    survey,
    when_to_knock,
)
from .study import STUDIES

__all__ = ["STUDIES"]
