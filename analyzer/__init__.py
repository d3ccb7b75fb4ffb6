"""Gin rummy and rummy strategy analyzer.

Cards are indices ``suit * 13 + rank`` (clubs, diamonds, hearts, spades; ace low) and
hands are 52-bit ``np.int64`` masks; see :mod:`analyzer.core.cards`.

The notebook API (:mod:`analyzer.api`: ``az.simulate``, ``az.knock_sweep``, ``az.advise``,
``az.replay``, ``az.rules``, ``az.policy``...) is imported on first use, so that the
command line starts fast.  See ``docs/api.md``.
"""

from typing import Any

# before any kernel module is imported: numba reads the cache folder at decoration time
from ._kernel_cache import configure as _configure_kernel_cache

_configure_kernel_cache()

from .core.cards import format_card, format_hand, parse_card, parse_hand, to_indices, to_mask
from .gin.evaluator import (
    best_discard,
    best_melds,
    deadwood_after_layoff,
    dealt_deadwood_distribution,
    min_deadwood,
    min_deadwood_batch,
)

__version__ = "0.1.0"

_API = ("advise", "dealt", "knock_chart", "knock_sweep", "play_games", "policies", "policy",
        "replay", "rule_presets", "rules", "simulate", "tournament", "variants")


def __getattr__(name: str) -> Any:
    """The notebook API's functions, imported from :mod:`analyzer.api` on first use."""
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")

__all__ = [
    "__version__",
    "advise",
    "best_discard",
    "best_melds",
    "deadwood_after_layoff",
    "dealt",
    "dealt_deadwood_distribution",
    "format_card",
    "format_hand",
    "knock_chart",
    "knock_sweep",
    "min_deadwood",
    "min_deadwood_batch",
    "parse_card",
    "parse_hand",
    "play_games",
    "policies",
    "policy",
    "replay",
    "rule_presets",
    "rules",
    "simulate",
    "to_indices",
    "to_mask",
    "tournament",
    "variants",
]
