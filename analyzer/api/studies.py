"""The answers in a player's words, in the notebook: when to knock and how to discard.

Each function checks its arguments first with the ranges of the command of the same name
(:mod:`analyzer.core.limits`), then reads the committed answer or computes it as that
command does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..core.limits import (
    MAX_SEARCH_DEALS,
    MIN_SEARCH_DEALS,
    check_count,
)
from ..gin.model.rules import PRESETS as RULE_PRESETS
from .arguments import (
    ProgressLike,
    check_run,
    check_text,
    progress_to,
)

if TYPE_CHECKING:
    from ..report.discard_answer import DiscardAnswer
    from ..report.knock_answer import KnockAnswer


def when_to_knock(
    rules: str = "standard",
    opponent: str = "unknown",
    deals: int = 1_000,
    seed: int = 2026,
    results: str | Path | None = None,
    progress: ProgressLike = None,
) -> KnockAnswer:
    """When to knock, in a player's words, as ``analyzer when-to-knock`` prints it: the
    rule, a chart of knock or play on by deadwood and own turn (with the cards left in
    the stock), what it earns against ``opponent`` and its worst case (points per hand,
    95% CIs). ``opponent``: ``unknown``, ``knocks-at-once``, ``camper``, ``gin-hunter``,
    a test opponent (``basic``, ``marjj``...) or a policy string. Read from the report
    folder ``results`` (default: the results store's, :mod:`analyzer.report.store`) when it holds
    the answer, else computed on ``deals`` deals per comparison (100-10,000,000) from
    ``seed`` (minutes at the default). ``.text()`` is the answer as the command prints it,
    ``.to_frame()`` the chart; a notebook shows all of it."""
    from ..report.knock_answer import family_of
    from ..report.when_to_knock import knock_answer

    seed, deals, folder = _answer_arguments(rules, opponent, deals, seed, results, progress)
    family_of(opponent)  # an unknown opponent fails here, before any work
    with progress_to(progress, "hand") as update:
        return knock_answer(rules, opponent, deals, seed, folder, progress=update)


def how_to_discard(
    rules: str = "standard",
    opponent: str = "unknown",
    deals: int = 10_000,
    seed: int = 2026,
    results: str | Path | None = None,
    progress: ProgressLike = None,
) -> DiscardAnswer:
    """How to discard, in a player's words, as ``analyzer how-to-discard`` prints it: a
    rule a person can follow, its principles ordered by what each is worth against
    ``opponent`` (points per hand, 95% CIs: what leaving it out costs), and the share of
    the champion's edge over always throwing the highest unmatched card that the rule
    keeps.  ``opponent``: ``unknown``, ``knocks-at-once``, ``camper``, ``gin-hunter`` or a
    test opponent (``basic``, ``simple``, ``gin-hunter``, ``taper``, ``marjj``,
    ``expert``).  Read from the report folder ``results`` (default: the results store's)
    when it holds the rules preset, else computed on ``deals`` deals per player and
    opponent (100-10,000,000) from ``seed``.  ``.text()`` is the answer as the command
    prints it, ``.to_frame()`` the principles, ``.plot()`` their worth."""
    from ..report.discard_answer import discard_answer, member_of

    seed, deals, folder = _answer_arguments(rules, opponent, deals, seed, results, progress)
    member_of(opponent)  # an unknown opponent fails here, before any work
    with progress_to(progress, "deal") as update:
        return discard_answer(rules, opponent, deals, seed, folder, progress=update)


def _answer_arguments(
    rules: str,
    opponent: str,
    deals: int,
    seed: int,
    results: str | Path | None,
    progress: ProgressLike,
) -> tuple[int, int, Path | None]:
    """The checked seed, deals and results folder of an answer in a player's words."""
    check_text(rules, "rules")
    if rules not in RULE_PRESETS:
        raise ValueError(f"unknown rules preset {rules!r}; choose from {', '.join(RULE_PRESETS)}")
    check_text(opponent, "opponent")
    (seed,) = check_run(seed, progress)
    deals = check_count(deals, "deals", MIN_SEARCH_DEALS, MAX_SEARCH_DEALS)
    if results is not None:
        if not isinstance(results, (str, Path)):
            raise TypeError(f"results must be a folder (a str or a Path) or None, got {results!r}")
        if not Path(results).is_dir():
            raise ValueError(f"results must be an existing folder, got {str(results)!r}")
    return seed, deals, None if results is None else Path(results)


__all__ = [
    "how_to_discard",
    "when_to_knock",
]
