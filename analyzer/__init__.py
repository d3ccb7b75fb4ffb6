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
from typing import Any

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

#: The notebook API's names (:data:`analyzer.api.API`), written out so that importing the
#: package does not import the API.
_API = (
    "advise",
    "dealt",
    "equilibrium",
    "equity",
    "exact",
    "exploit",
    "fit_discard",
    "how_to_discard",
    "knock_chart",
    "knock_schedule",
    "knock_sweep",
    "panel_equilibrium",
    "play_games",
    "policies",
    "policy",
    "replay",
    "rule_presets",
    "rules",
    "rummy_games",
    "rummy_rules",
    "rummy_simulate",
    "rummy_study",
    "simulate",
    "tournament",
    "variants",
    "when_to_knock",
)


def __getattr__(name: str) -> Any:
    """The evaluator's and card notation's functions and the notebook API's
    (:mod:`analyzer.api`), imported on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_API})


__all__ = [
    "Hand",
    "Move",
    "__version__",
    "advise",
    "best_discard",
    "best_melds",
    "deadwood_after_layoff",
    "dealt",
    "dealt_deadwood_distribution",
    "equilibrium",
    "equity",
    "exact",
    "exploit",
    "fit_discard",
    "format_card",
    "format_hand",
    "how_to_discard",
    "knock_chart",
    "knock_schedule",
    "knock_sweep",
    "min_deadwood",
    "min_deadwood_batch",
    "panel_equilibrium",
    "parse_card",
    "parse_hand",
    "play_games",
    "policies",
    "policy",
    "replay",
    "rule_presets",
    "rules",
    "rummy_games",
    "rummy_rules",
    "rummy_simulate",
    "rummy_study",
    "simulate",
    "to_indices",
    "to_mask",
    "tournament",
    "variants",
    "when_to_knock",
]
