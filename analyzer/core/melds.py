"""The table of every legal meld, as 52-bit masks.

A set is three or four cards of one rank (13 ranks x (1 four-card set + 4 three-card
sets) = 65 sets); a run is three to thirteen consecutive ranks of one suit, ace low
only, no wrap-around (4 suits x 66 = 264 runs).  329 melds in all.

>>> table = meld_table()
>>> len(table), int(table.is_run.sum())
(329, 264)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .arrays import Bools, Int64s
from .cards import N_RANKS, N_SUITS


@dataclass(frozen=True)
class MeldTable:
    """Every legal meld: ``masks[i]`` is the meld's card mask, ``is_run[i]`` its kind."""

    masks: Int64s
    is_run: Bools

    def __len__(self) -> int:
        return len(self.masks)


@cache
def meld_table() -> MeldTable:
    """Build (once) the table of all 329 melds: sets first by rank, then runs by suit."""
    masks: list[int] = []
    kinds: list[bool] = []
    for rank in range(N_RANKS):
        four = sum(1 << (suit * N_RANKS + rank) for suit in range(N_SUITS))
        masks.append(four)
        kinds.append(False)
        for left_out in range(N_SUITS):
            masks.append(four & ~(1 << (left_out * N_RANKS + rank)))
            kinds.append(False)
    for suit in range(N_SUITS):
        for length in range(3, N_RANKS + 1):
            for low in range(N_RANKS - length + 1):
                masks.append(((1 << length) - 1) << (suit * N_RANKS + low))
                kinds.append(True)
    return MeldTable(np.array(masks, dtype=np.int64), np.array(kinds, dtype=np.bool_))


def meld_index(mask: int) -> int:
    """Row of ``mask`` in :func:`meld_table`, or -1 when it is not exactly one legal meld.

    >>> meld_index(0b111) >= 0, meld_index(0b1011)
    (True, -1)
    """
    rows = np.flatnonzero(meld_table().masks == mask)
    return int(rows[0]) if len(rows) else -1
