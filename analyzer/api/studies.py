"""The gin studies beyond the knock sweep and chart, in the notebook: when to knock, the
game-equity table, the best response to a policy, the knock equilibrium, the best knock
schedule and the exact distribution of dealt deadwood.

Each function checks its arguments first with the ranges of the command of the same name
(:mod:`analyzer.core.limits`), then runs the study that command runs, and returns a
:class:`~analyzer.api.results.Result` whose title names the rules, the players and the
deals, and whose study result reads through.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..core.cards import N_RANKS, N_SUITS
from ..core.limits import (
    MAX_SEARCH_DEALS,
    MIN_SEARCH_DEALS,
    check_count,
    check_int,
)
from ..core.rng import offset_seed
from ..core.stats import Estimate
from ..gin.model.rules import PRESETS as RULE_PRESETS
from .arguments import (
    PolicyLike,
    ProgressLike,
    RulesLike,
    check_run,
    check_text,
    chosen_policy,
    chosen_rules,
    count_label,
    policy_label,
    progress_to,
    rules_label,
)
from .results import ChartedResult, chart_functions

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


@dataclass(frozen=True)
class Equity:
    """What :func:`equity` measured (its result reads these through)."""

    table: Any
    """The :class:`~analyzer.gin.studies.equity.table.EquityTable`: P(A wins) and the
    expected margin from every score; ``.to_frame()`` one row per state."""
    distribution: pd.DataFrame
    """The hand-outcome law the table is solved on (by dealer)."""
    check: pd.DataFrame | None
    """With ``check``: the table against whole games from sampled states."""
    response: Any
    """With ``score_aware``: A's best score-aware knock table against B
    (:class:`~analyzer.gin.studies.equity.response.BestResponse`)."""
    gain: dict[str, Estimate] | None
    """With ``score_aware``: the game-win rates of the score-aware table, of the best
    constant threshold and the gain (95% CIs)."""


def equity(
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    deals: int = 100_000,
    seed: int = 1,
    check: int = 0,
    games: int = 20_000,
    score_aware: bool = False,
    progress: ProgressLike = None,
) -> ChartedResult:
    """P(A wins the game) and E[final margin] from every score, by dynamic programming
    on the law of one hand's result (``deals`` simulated deals, each dealt by both).
    The table: A's chances from 0:0 and hands per game; with ``check`` (score states)
    the table is checked against whole games (``games // 4`` per state, seed + 1);
    with ``score_aware`` A's best knock threshold by score is found (seed + 2) and its
    game-win gain over the best constant threshold measured on ``games`` games
    (seed + 3). ``.table`` is the whole equity table; ``.plot()`` the two heat maps."""
    from ..gin.studies.equity.charts import heatmap_data
    from ..gin.studies.equity.dp import Value, check_rules
    from ..gin.studies.equity.law import hand_outcome_distribution
    from ..gin.studies.equity.response import (
        knock_distributions,
        measure_gain,
        score_aware_best_response,
    )
    from ..gin.studies.equity.table import equity_table
    from ..gin.studies.equity.validation import (
        check_against_simulation,
        check_summary,
        sample_states,
    )

    seed, deals, games = check_run(seed, progress, deals=deals, games=games)
    check = check_count(check, "check", 0)
    if not isinstance(score_aware, bool):
        raise TypeError(f"score_aware must be True or False, got {score_aware!r}")
    the_rules = chosen_rules(rules)
    check_rules(the_rules)
    mine, theirs = chosen_policy(a, "a"), chosen_policy(b, "b")
    with progress_to(progress, "deal") as update:
        distribution = hand_outcome_distribution(the_rules, mine, theirs, deals, seed, update)
    table = equity_table(distribution, the_rules)
    rows: list[dict[str, object]] = [
        {"metric": name, "mean": value}
        for name, value in (
            ("P(A wins) from 0:0, A deals first", table.win_probability(0, 0, True)),
            ("P(A wins) from 0:0, B deals first", table.win_probability(0, 0, False)),
            ("E[final margin of A] (points), A deals first", table.expected_margin(0, 0, True)),
            ("hands per game", table.start(Value.HANDS)),
        )
    ]
    checked = None
    if check:
        checked = check_against_simulation(
            table,
            distribution,
            the_rules,
            mine,
            theirs,
            sample_states(table, check, seed),
            max(games // 4, 10),
            offset_seed(seed, 1),
        )
        rows += [
            {
                "metric": f"check {name}: share of {agreement['rows']} states within their "
                f"95% CI (chi2 p = {agreement['p_value']:.2f})",
                "mean": agreement["agree"] / agreement["rows"],
            }
            for name, agreement in check_summary(checked).items()
        ]
    response = gain = None
    if score_aware:
        response = score_aware_best_response(
            knock_distributions(the_rules, mine, theirs, deals, offset_seed(seed, 2)), the_rules
        )
        gain = measure_gain(
            the_rules,
            response.policy(mine),
            response.best_policy(mine),
            theirs,
            games,
            offset_seed(seed, 3),
        )
        rows += [
            {
                "metric": f"score-aware knocking: {name.replace('_', ' ')}",
                "mean": estimate.mean,
                "low": estimate.low,
                "high": estimate.high,
            }
            for name, estimate in gain.items()
        ]
    frame = pd.DataFrame(rows, columns=["metric", "mean", "low", "high"])

    def draw(axes: Any) -> None:
        for ax, a_deals in zip(axes, (True, False), strict=True):
            chart_functions().score_heatmap(
                heatmap_data(table, a_deals), ax, f"{'A' if a_deals else 'B'} deals next"
            )

    return ChartedResult(
        f"Game equity of {policy_label(a, mine)} (A) against {policy_label(b, theirs)} (B), "
        f"{rules_label(rules, the_rules)}, games to {the_rules.target}, hand law from "
        f"{count_label(deals, 'deal', seed)}",
        frame,
        draw,
        "P(A wins the game) from each score, by dynamic programming over the score on "
        "the simulated law of one hand; blue: A is favoured, red: B is.",
        (11, 4.8),
        panels=2,
        result=Equity(table, distribution, checked, response, gain),
    )


@dataclass(frozen=True)
class Exact:
    """What :func:`exact` counted (its result reads these through)."""

    counts: npt.NDArray[np.int64]
    """``counts[v]``: hands of ``v`` points."""
    stats: dict[str, Any]
    """``hands``, ``p_gin``, ``p_at_most`` (knock limit -> probability), ``mean``, ``sd``,
    ``median`` (:func:`analyzer.gin.studies.exact_stats.summarize`)."""
    classes: int
    """Suit-symmetry classes evaluated."""
    seconds: float
    mc_counts: npt.NDArray[np.int64] | None
    """The Monte Carlo overlay's histogram (``mc_deals``), None without one."""


def exact(
    cards: int = 10,
    ranks: int = N_RANKS,
    suits: int = N_SUITS,
    mc_deals: int = 0,
    mc_seed: int = 0,
    progress: ProgressLike = None,
) -> ChartedResult:
    """The exact distribution of dealt deadwood over every hand of ``cards`` cards (10:
    the least deadwood; 11: after the best discard), one row per deadwood (points) with
    its count, probability and P(deadwood <= value). ``ranks`` (1-13) and ``suits``
    (1-4) give a reduced deck, for checks; ``mc_deals`` Monte Carlo hands of the full
    deck (0 to 10**12, seed ``mc_seed``) to overlay on ``.plot()``. ``.stats`` has
    P(gin), the mean and the median."""
    from ..gin.studies.exact import exact_enumeration, exact_study
    from ..gin.studies.exact_stats import chart_data, distribution_table, summarize

    if isinstance(cards, bool) or not isinstance(cards, numbers.Integral) or cards not in (10, 11):
        raise ValueError(f"cards must be 10 or 11, got {cards!r}")
    ranks = check_int(ranks, "ranks", 1, N_RANKS)
    suits = check_int(suits, "suits", 1, N_SUITS)
    (mc_seed,) = check_run(mc_seed, progress)
    mc_deals = check_count(mc_deals, "mc_deals", 0)
    if cards > ranks * suits:
        raise ValueError(f"a deck of {suits} suits x {ranks} ranks cannot deal {cards} cards")
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    if mc_deals and not full_deck:
        raise ValueError("mc_deals needs the full deck: the overlay deals 52 cards")
    mc_counts = None
    with progress_to(progress, "class") as update:
        if mc_deals:
            study = exact_study(cards, ranks, suits, mc_deals, mc_seed, update)
            result, mc_counts = study.result, study.mc_counts
        else:
            result = exact_enumeration(cards, ranks, suits, progress=update)
    stats = summarize(result.counts)
    deck = "" if full_deck else f" of a {suits}-suit, {ranks}-rank deck"
    what = "least deadwood" if cards == 10 else "deadwood after the best discard"
    data = chart_data(result.counts, mc_counts)

    def draw(axes: Any) -> None:
        figures = chart_functions()
        figures.exact_distribution_chart(data, axes[0])
        figures.exact_distribution_chart(data, axes[1], log=True)

    return ChartedResult(
        f"Exact {what} of every {cards}-card hand{deck}: {stats['hands']:,} hands, "
        f"P(gin) {stats['p_gin']:.3e}, mean {stats['mean']:.2f} points",
        distribution_table(result.counts),
        draw,
        "Bars: every hand enumerated"
        + ("" if mc_counts is None else f"; points: {mc_deals:,} Monte Carlo hands (± 2 SE)")
        + "; shaded: deadwood <= 10.",
        (12, 4.2),
        panels=2,
        result=Exact(result.counts, stats, result.classes, result.seconds, mc_counts),
    )


__all__ = [
    "Equity",
    "Exact",
    "equity",
    "exact",
    "how_to_discard",
    "when_to_knock",
]
