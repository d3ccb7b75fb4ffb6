"""Every declared study (:data:`STUDIES`), each declaring module imported: the one list
both front doors make their commands and notebook functions from."""

from __future__ import annotations

from ..report import (  # noqa: F401  (each registers its studies; moving here)
    answer_studies,
    discard_fit_study,
    equilibrium_studies,
    exact_study,
    play_studies,
    survey_studies,
)
from . import equity, knock, rummy, rummy_study  # noqa: F401
from .study import STUDIES

__all__ = ["STUDIES"]
