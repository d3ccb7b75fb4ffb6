"""The scratch arrays of the plain-rummy kernels, made once per thread.

The kernels need a few small arrays besides the state (the deadwood after each discard,
the layoff views, the arrangement search's scratch, a second state to try a play on, the
features of each throw).  :func:`work_space` makes them once per thread, as views into
one int64 array and one float64 table, and the kernels pass them on one by one:
allocating in the hot loop serialises the threads, slicing a view costs about 15 ns an
array and unpacking a tuple of them in a call that is not inlined about 50 ns (reference
counting), ten times a turn.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypeAlias

import numpy as np
from numba import njit

from ..core.arrays import Float64s, Int64s
from .expert import N_FEATURES
from .layoffs import VIEW_SIZE
from .state import MAX_MELDS, STATE_SIZE


class Work(IntEnum):
    """Offsets of the int64 scratch arrays in one work array."""

    OUT = 0
    """52 entries: the deadwood after each discard (``MODE_DISCARD``)."""
    VIEW = 52
    """The layoff spots open to the seat to play (:func:`~analyzer.rummy.layoffs.build_view`)."""
    NO_TABLE = VIEW + VIEW_SIZE
    """An empty view (all zeros): the hand alone, nothing laid off."""
    CHOICE = NO_TABLE + VIEW_SIZE
    BEST = CHOICE + 2 * MAX_MELDS
    BEST_CHOICE = BEST + 3
    ALT = BEST_CHOICE + 2 * MAX_MELDS
    """A second state (:mod:`analyzer.rummy.expert` tries a play on it)."""
    OTHER_VIEW = ALT + STATE_SIZE
    """A second view (the layoff spots open to another seat)."""
    SIZE = OTHER_VIEW + VIEW_SIZE


#: (out, view, no_table, choice, best, best_choice, alt, other_view, features): the
#: arrays of :class:`Work` and the ``(52, N_FEATURES)`` table of each throw's features
#: (:class:`analyzer.rummy.expert.Feature`).
WorkViews: TypeAlias = tuple[
    Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Int64s, Float64s
]


@njit(cache=True)
def work_space() -> WorkViews:
    """Fresh scratch arrays (:data:`WorkViews`; zeros: the empty view stays empty)."""
    work = np.zeros(Work.SIZE.value, dtype=np.int64)
    return (
        work[Work.OUT : Work.VIEW],
        work[Work.VIEW : Work.NO_TABLE],
        work[Work.NO_TABLE : Work.CHOICE],
        work[Work.CHOICE : Work.BEST],
        work[Work.BEST : Work.BEST_CHOICE],
        work[Work.BEST_CHOICE : Work.ALT],
        work[Work.ALT : Work.OTHER_VIEW],
        work[Work.OTHER_VIEW : Work.SIZE],
        np.zeros((52, N_FEATURES), dtype=np.float64),
    )
