"""The advisor's numbers: the cards a position leaves undealt, and the advisor's defaults,
the same at every door (the command line, the notebook, the web app), so that an answer
depends on its position, seed and samples only.

The doors take the defaults through the declaration of the advisor's inputs
(:mod:`.inputs`), which stays out of the modules kernels are made of
(:mod:`analyzer._kernel_cache`): its help is no kernel's, so editing it compiles nothing.
"""

from __future__ import annotations

#: Cards in the stock and pile together once both hands are dealt (52 - 10 - 10 - 1,
#: plus the upcard) -- the same for both openings.
UNDEALT = 31
#: The advisor's sample budget unless told otherwise.
ADVICE_SAMPLES = 20_000
#: The budget of the practice table's hints and reviews (fixed too: a hint is quick).
HINT_SAMPLES = 2_000
#: Deals behind the game-equity table that values a scored position's final scores.
ADVICE_EQUITY_DEALS = 30_000
#: Softness of the weighting model, points of deadwood per factor ``e`` (of 4, 8 and 16
#: it agreed best with the knock chart, ``scripts/advisor_crosscheck.py``).
ADVICE_TEMPERATURE = 8.0

__all__ = [
    "ADVICE_EQUITY_DEALS",
    "ADVICE_SAMPLES",
    "ADVICE_TEMPERATURE",
    "HINT_SAMPLES",
    "UNDEALT",
]
