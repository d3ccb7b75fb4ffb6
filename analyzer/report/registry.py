"""Every declared study (:data:`STUDIES`), each declaring module imported: the one list
both front doors make their commands and notebook functions from."""

from __future__ import annotations

from ..studies.study import STUDIES
from . import (  # noqa: F401  (each registers its studies)
    answer_studies,
    discard_fit_study,
    equilibrium_studies,
    equity_study,
    exact_study,
    knock_studies,
    play_studies,
    rummy_studies,
    survey_studies,
)

__all__ = ["STUDIES"]
