"""Gin rummy and rummy strategy analyzer.

Cards are indices ``suit * 13 + rank`` (clubs, diamonds, hearts, spades; ace low) and
hands are 52-bit ``np.int64`` masks; see :mod:`analyzer.core.cards`.

The notebook API (:mod:`analyzer.api`: ``az.when_to_knock``, ``az.simulate``,
``az.knock_sweep``, ``az.equity``, ``az.rummy_simulate``, ``az.advise``, ``az.rules``,
``az.policy``... every study of the command line) is imported on first use, so that the
command line starts fast.  See ``docs/api.md``.
"""

# first: a stop while the command line loads is noted, not raised (no traceback of a module)
from ._startup import defer_stops as _defer_stops

_defer_stops()

import importlib
from typing import TYPE_CHECKING, Any

# before any kernel module is imported: numba reads the cache folder at decoration time
from ._kernel_cache import configure as _configure_kernel_cache
from ._version import __version__

_configure_kernel_cache()

#: Names served from the modules that define them, imported on first use: importing the
#: package loads neither numpy nor numba, so that the command line starts (and answers
#: Ctrl-C) at once.
_LAZY = {
    **dict.fromkeys(
        ("format_card", "format_hand", "parse_card", "parse_hand", "to_indices", "to_mask"),
        "core.cards",
    ),
    **dict.fromkeys(
        (
            "best_discard",
            "best_melds",
            "deadwood_after_layoff",
            "min_deadwood",
            "min_deadwood_batch",
        ),
        "gin.evaluator.api",
    ),
    "dealt_deadwood_distribution": "gin.evaluator.dealt",
    "Hand": "gin.play.hand",
    "Move": "gin.play.moves",
}

if TYPE_CHECKING:  # what the notebook API gives, as type checkers and editors see it
    from .api import *


def __getattr__(name: str) -> Any:
    """The evaluator's and card notation's functions and the notebook API's
    (:mod:`analyzer.api`), imported on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if not name.startswith("_") and name != "api":
        # the notebook API (it loads pandas and numpy), on first use
        api = importlib.import_module(".api", __name__)
        if name in _public(api):
            return getattr(api, name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def _public(api: Any) -> set[str]:
    """The notebook API's names: its functions and objects (not its modules)."""
    return {
        name
        for name, value in vars(api).items()
        if not name.startswith("_") and not isinstance(value, type(importlib))
    }


def __dir__() -> list[str]:
    api = importlib.import_module(".api", __name__)
    return sorted({*globals(), *_LAZY, *_public(api)})


# ``from analyzer import *`` gives the names above; the notebook API's are analyzer.api's
__all__ = [  # noqa: PLE0604
    "__version__",
    *_LAZY,
]
