"""Every declared study (:data:`STUDIES`), each declaring module imported: the one list
both front doors make their commands and notebook functions from."""

from __future__ import annotations

from ..report import (  # noqa: F401  (each registers its studies; moving here)
    discard_fit_study,
    equilibrium_studies,
    equity_study,
    exact_study,
    play_studies,
    rummy_studies,
    survey_studies,
)
from . import guide, knock, principles, when_to_knock  # noqa: F401
from .study import STUDIES

__all__ = ["STUDIES"]
