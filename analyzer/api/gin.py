"""Gin rummy in the notebook beside the studies: advice on a position and a hand replayed.

Each function checks its arguments first (:mod:`analyzer.api.arguments`), then calls the
study the command of the same name runs, and returns a :class:`~analyzer.api.results.Result`
(a :class:`~analyzer.api.results.ChartedResult` where the command draws a chart).
"""

from __future__ import annotations

from typing import Any

from ..core.limits import (
    MAX_SAMPLES,
    MAX_TEMPERATURE,
    MAX_TOLERANCE,
    MAX_UNITS,
    MIN_EQUITY_DEALS,
    check_count,
    check_float,
    check_int,
    check_seed,
)
from ..gin.engine.transitions import MAX_DRAWS
from ..gin.play.advisor import ADVICE_EQUITY_DEALS, ADVICE_SAMPLES, Position
from ..gin.play.advisor.position import UNDEALT
from ..gin.play.players import chosen_player
from ..gin.play.replay import parse_deck
from ..report.advice import (
    CROSS_CHECKS,
    advise_position,
    cross_check_model,
    position_equity,
    strongest_model,
)
from ..studies.study import DEFAULT_SEED
from .arguments import (
    PolicyLike,
    ProgressLike,
    RulesLike,
    check_run,
    check_text,
    chosen_policy,
    chosen_rules,
    listed,
    policy_label,
    progress_to,
    rules_label,
    rules_name,
)
from .results import TableResult as Result


def advise(
    hand: str,
    pile: str = "",
    opp_took: str = "",
    opp_threw: str = "",
    stock: int | None = None,
    turn: int | None = None,
    dealer: str = "opp",
    drawn: str | None = None,
    score: str | None = None,
    rules: RulesLike = "standard",
    policy: PolicyLike | None = None,
    opponent: PolicyLike | None = None,
    cross_check: str | None = None,
    samples: int = ADVICE_SAMPLES,
    equity_deals: int = ADVICE_EQUITY_DEALS,
    seed: int = DEFAULT_SEED,
    progress: ProgressLike = None,
    **options: Any,
) -> Result:
    """Rank knocking, gin and playing on (with each discard) for a position given in
    notation, as ``analyzer advise`` does: you play on as ``policy`` against the opponent
    model ``opponent`` (both the strongest affordable preset, expert, by default), and the
    ranking is checked against the ``cross_check`` model (basic, expert or none; default
    basic, or expert against basic) on a quarter of the samples. ``.to_frame()`` is the
    ranked table, ``.verdict`` the one-line advice, ``.best`` the recommended action,
    ``.difference()`` the cross-check's line (None when it agrees). ``options`` go to
    :func:`analyzer.gin.play.advisor.advise` (``tolerance``, ``weights``...).
    ``samples`` 1-1,000,000; ``equity_deals`` (a position with a ``score``) as
    ``--equity-deals``; ``temperature`` and ``tolerance`` finite, above 0 and at most
    1000."""
    for name, text in (
        ("hand", hand),
        ("pile", pile),
        ("opp_took", opp_took),
        ("opp_threw", opp_threw),
        ("dealer", dealer),
    ):
        check_text(text, name)
    for name, optional in (("drawn", drawn), ("score", score), ("cross_check", cross_check)):
        check_text(optional, name, none=True)
    if cross_check is not None and cross_check not in CROSS_CHECKS:
        raise ValueError(
            f"cross_check must be one of {', '.join(CROSS_CHECKS)}, got {cross_check!r}"
        )
    for name, count, low, high in (("stock", stock, 2, UNDEALT), ("turn", turn, 1, MAX_DRAWS // 2)):
        if count is not None:  # the ranges of analyzer advise --stock and --turn
            check_int(count, name, low, high)
    stock, turn = (None if v is None else int(v) for v in (stock, turn))
    (seed,) = check_run(seed, progress)
    samples = check_count(samples, "samples", 1, MAX_SAMPLES)
    equity_deals = check_count(equity_deals, "equity_deals", MIN_EQUITY_DEALS, MAX_UNITS)
    _check_advisor_options(options)
    position = Position.from_options(
        hand, pile, opp_took, opp_threw, stock, turn, dealer, drawn, score=score
    )
    the_rules = chosen_rules(rules)
    mine = chosen_player(strongest_model() if policy is None else policy, "policy")
    theirs = chosen_player(strongest_model() if opponent is None else opponent, "opponent")
    equity = None
    if position.score is not None:  # as analyzer advise: a table only for a game score
        with progress_to(progress, "deal") as update:
            equity = position_equity(position, the_rules, mine, theirs, equity_deals, seed, update)
    with progress_to(progress, "sample") as update:
        answer = advise_position(
            position,
            the_rules,
            rules_name(rules, the_rules),
            mine,
            theirs,
            cross_check_model(cross_check, theirs),
            samples,
            seed,
            update,
            equity=equity,
            **options,
        )
    return Result(answer.title, answer.to_frame(), answer)


#: The advisor's options (:func:`analyzer.gin.play.advisor.advise`) that :func:`advise` passes on.
_ADVISOR_OPTIONS = ("tolerance", "weights", "temperature", "actions", "equity_games", "batch")


def _check_advisor_options(options: dict[str, Any]) -> None:
    for name in options:
        if name not in _ADVISOR_OPTIONS:
            raise TypeError(
                f"advise() got an unexpected keyword argument {name!r}; the "
                f"advisor's options are {', '.join(_ADVISOR_OPTIONS)}"
            )
    if options.get("temperature") is not None:
        check_float(options["temperature"], "temperature", 0, MAX_TEMPERATURE, low_open=True)
    if options.get("tolerance") is not None:
        check_float(options["tolerance"], "tolerance", 0, MAX_TOLERANCE, low_open=True)
    if "weights" in options and options["weights"] not in ("model", "uniform"):
        raise ValueError(f"weights must be 'model' or 'uniform', got {options['weights']!r}")
    if "batch" in options:
        options["batch"] = check_count(options["batch"], "batch", 1, MAX_SAMPLES)
    if "equity_games" in options:
        options["equity_games"] = check_count(options["equity_games"], "equity_games", 1, MAX_UNITS)
    actions = options.get("actions")
    if actions is not None:
        for action in listed(actions, "actions", "actions such as 'knock Kd'"):
            check_text(action, "an action")


def replay(
    seed: int = DEFAULT_SEED,
    deal: int = 0,
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    a_dealer: bool = False,
    deck: str | None = None,
) -> Result:
    """Play one hand decision by decision (deal ``deal`` of a run with ``seed``, or the
    cards ``deck`` in the notation of ``analyzer replay --deck``); ``.to_frame()`` lists
    the decisions, ``.summary()`` the result.  ``deal`` is below 10**12 (the most deals of
    a run)."""
    from ..gin.play.replay import replay as run

    seed = check_seed(seed)
    deal = check_int(deal, "deal", 0, MAX_UNITS - 1)
    if not isinstance(a_dealer, bool):
        raise TypeError(f"a_dealer must be True or False, got {a_dealer!r}")
    check_text(deck, "deck", none=True)
    cards = None if deck is None else parse_deck(deck)
    chosen = chosen_rules(rules), chosen_policy(a, "a"), chosen_policy(b, "b")
    hand = run(*chosen, seed, deal, a_dealer, cards)
    which = "the given deck" if deck is not None else f"deal {deal:,} of seed {seed}"
    title = (
        f"{policy_label(a, chosen[1])} (A) against {policy_label(b, chosen[2])} (B), "
        f"{rules_label(rules, chosen[0])}, {which}: {hand.summary()}"
    )
    return Result(title, hand.to_frame(), hand)


__all__ = ["advise", "replay"]
