"""Every declared study (:data:`STUDIES`), each declaring module imported: the one list
both front doors make their commands and notebook functions from."""

from __future__ import annotations

from ..report import (  # noqa: F401  (each registers its studies; moving here)
    exact_study,
    survey_studies,
)
from . import (  # noqa: F401
    discard_fit,
    equilibrium,
    equity,
    guide,
    knock,
    panel,
    play,
    principles,
    rummy,
    rummy_study,
    when_to_knock,
)
from .study import STUDIES

__all__ = ["STUDIES"]
