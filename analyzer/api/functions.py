"""The notebook's study functions, one per study declaration, made at import
(:func:`analyzer.api.study_functions.study_function`): each checks its arguments as the
command line does, reads the kept answer or computes it, and returns a
:class:`~analyzer.api.results.Result`.  Their typed signatures, for type checkers and
editors, are in ``functions.pyi`` beside this module."""

from __future__ import annotations

from ..studies.registry import STUDIES
from .study_functions import study_function

_FUNCTIONS = {study.function_name: study_function(study) for study in STUDIES.values()}
globals().update(_FUNCTIONS)

__all__ = sorted(_FUNCTIONS)  # noqa: PLE0605  (made from the declarations)
