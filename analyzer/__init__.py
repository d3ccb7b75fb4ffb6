"""Gin rummy and rummy strategy analyzer.

Cards are indices ``suit * 13 + rank`` (clubs, diamonds, hearts, spades; ace low) and
hands are 52-bit ``np.int64`` masks; see :mod:`analyzer.core.cards`.
"""

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

__all__ = [
    "__version__",
    "best_discard",
    "best_melds",
    "deadwood_after_layoff",
    "dealt_deadwood_distribution",
    "format_card",
    "format_hand",
    "min_deadwood",
    "min_deadwood_batch",
    "parse_card",
    "parse_hand",
    "to_indices",
    "to_mask",
]
