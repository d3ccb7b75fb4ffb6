"""Gin rummy in the notebook beside the studies: advice on a position and a hand replayed.

Each function checks its arguments first (:mod:`analyzer.api.arguments`), then calls the
study the command of the same name runs, and returns a :class:`~analyzer.api.results.Result`
(a :class:`~analyzer.api.results.ChartedResult` where the command draws a chart).
"""

from __future__ import annotations

from typing import Any

from ..core.limits import (
    DEFAULT_SEED,
    MAX_SAMPLES,
    MAX_UNITS,
    check_count,
    check_float,
    check_int,
    check_seed,
)
from ..gin.play.advisor import Position
from ..gin.play.advisor.constants import ADVICE_EQUITY_DEALS, ADVICE_SAMPLES, ADVICE_TEMPERATURE
from ..gin.play.advisor.inputs import ADVICE_OPTIONS, POSITION_FIELDS, Input, InputKind
from ..gin.play.players import chosen_player
from ..gin.play.replay import parse_deck
from ..report.advice import (
    CROSS_CHECKS,
    advise_position,
    cross_check_model,
    position_equity,
    strongest_model,
)
from .arguments import (
    PolicyLike,
    ProgressLike,
    RulesLike,
    check_progress,
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
    from_pile: bool = False,
    score: str | None = None,
    upcard: str | None = None,
    rules: RulesLike = "standard",
    policy: PolicyLike | None = None,
    opponent: PolicyLike | None = None,
    cross_check: str | None = None,
    samples: int = ADVICE_SAMPLES,
    tolerance: float | None = None,
    weights: str = "model",
    temperature: float = ADVICE_TEMPERATURE,
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
    :func:`analyzer.gin.play.advisor.advise` (``actions``, ``equity_games``, ``batch``).

    The position's fields and the run's options are those of ``analyzer advise``
    (declared once, :mod:`analyzer.gin.play.advisor.inputs`):
    """
    # the declared inputs by name (the signature is the declaration's: a test holds it)
    given = locals()
    values = {spec.name: _checked(spec, given[spec.name]) for spec in POSITION_FIELDS}
    run = {spec.name: _checked(spec, given[spec.name]) for spec in ADVICE_OPTIONS}
    samples, seed, equity_deals = run.pop("samples"), run.pop("seed"), run.pop("equity_deals")
    check_text(cross_check, "cross_check", none=True)
    if cross_check is not None and cross_check not in CROSS_CHECKS:
        raise ValueError(
            f"cross_check must be one of {', '.join(CROSS_CHECKS)}, got {cross_check!r}"
        )
    check_progress(progress)
    _check_advisor_options(options)
    position = Position.from_options(**values)
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
            **run,  # the advisor's own options: tolerance, weights, temperature
            **options,
        )
    return Result(answer.title, answer.to_frame(), answer)


def _checked(spec: Input, value: object) -> Any:
    """``value`` of the declared input ``spec`` checked as the command line's option is
    (``TypeError`` for a wrong kind of value, ``ValueError`` out of range, each naming
    it); counts and numbers come back as ``int`` and ``float``."""
    if value is None and spec.default is None and not spec.required:
        return None
    if spec.kind is InputKind.COUNT:
        return check_int(value, spec.name, int(spec.low), int(spec.high))
    if spec.kind is InputKind.NUMBER:
        return check_float(value, spec.name, spec.low, spec.high, low_open=True)
    if spec.kind is InputKind.FLAG:
        if not isinstance(value, bool):
            raise TypeError(f"{spec.name} must be True or False, got {value!r}")
        return value
    check_text(value, spec.name)  # notation: cards, a card, a choice, a score
    if spec.kind is InputKind.CHOICE and value not in spec.choices:
        options = " or ".join(map(repr, spec.choices))
        raise ValueError(f"{spec.name} must be {options}, got {value!r}")
    return value


def _parameters_help() -> str:
    """One line per declared input, for :func:`advise`'s docstring."""

    def spell(name: str) -> str:
        return f"``{name}``"

    lines = []
    for spec in (*POSITION_FIELDS, *ADVICE_OPTIONS):
        default = f"default {spec.default_words(spell) or repr(spec.default)}"
        lines.append(f"    {spell(spec.name)} ({'required' if spec.required else default}): ")
        lines[-1] += spec.text(spell)
    return "\n".join(lines) + "\n"


advise.__doc__ = f"{advise.__doc__}\n{_parameters_help()}"

#: The advisor's options (:func:`analyzer.gin.play.advisor.advise`) that :func:`advise`
#: passes on besides the declared ones.
_ADVISOR_OPTIONS = ("actions", "equity_games", "batch")


def _check_advisor_options(options: dict[str, Any]) -> None:
    for name in options:
        if name not in _ADVISOR_OPTIONS:
            raise TypeError(
                f"advise() got an unexpected keyword argument {name!r}; the "
                f"advisor's options are {', '.join(_ADVISOR_OPTIONS)}"
            )
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
