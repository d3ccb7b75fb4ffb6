"""Chart data of an equity table: P(A wins) on the score grid, and the score-aware knock
thresholds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .response import KNOCK_THRESHOLDS
from .table import EquityTable


def heatmap_data(table: EquityTable, a_deals: bool = True) -> pd.DataFrame:
    """P(A wins) as a grid: index A's score, columns B's score (points)."""
    frame = table.to_frame()
    frame = frame[frame["a_deals"] == a_deals]
    grid = frame.pivot(index="score_a", columns="score_b", values="win")
    return grid.rename_axis(index="A's score", columns="B's score")


def threshold_data(
    table: EquityTable, thresholds: Sequence[int] = KNOCK_THRESHOLDS
) -> pd.DataFrame:
    """A's knock threshold (points) by score state: index own score, columns opponent's."""
    grid = np.asarray(thresholds)[table.choice]
    frame = pd.DataFrame(grid)
    frame.index.name, frame.columns.name = "own score", "opponent score"
    return frame


__all__ = ["heatmap_data", "threshold_data"]
