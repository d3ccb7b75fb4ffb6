"""The notebook API: one call per question, tables back as pandas DataFrames.

``import analyzer as az`` gives every function here.  Rules and policies may be given as
objects or by name (``"oklahoma"``, ``"basic"``, ``"basic,knock=7"``); every study takes
``seed`` and is reproducible from it; ``progress=True`` shows a bar (tqdm) and a callable
receives the units done (:mod:`analyzer.core.progress`).

Every argument is checked before any work, with the command line's ranges
(:mod:`analyzer.core.limits`): seeds ``0 <= seed < 2**63``, ``deals`` and ``games``
1-10**12 (at most 5,000,000 with ``keep_rows=True``, 2-5,000,000 for :func:`variants`),
``samples`` 1-1,000,000.  A wrong kind of value raises ``TypeError`` and a value out of
range ``ValueError``, each naming the argument as you wrote it:

>>> simulate(deals=10**13)
Traceback (most recent call last):
...
ValueError: deals must be 1-1000000000000, got 10000000000000

>>> import analyzer as az
>>> az.rules("standard", knock_limit=7).knock_limit
7
>>> az.policy("basic", knock=7).knock.schedule
((1, 7),)
>>> result = az.simulate("basic", "gin-hunter", deals=500, seed=1)
>>> result.to_frame().columns.tolist()
['metric', 'mean', 'low', 'high', 'n']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pandas as pd

from .core.limits import (
    MAX_RAW_UNITS,
    MAX_SAMPLES,
    MAX_TEMPERATURE,
    MAX_TOLERANCE,
    MAX_UNITS,
    MIN_VARIANT_DEALS,
    check_count,
    check_float,
    check_int,
    check_seed,
)
from .core.progress import Progress, bar_progress
from .gin.engine.transitions import MAX_DRAWS
from .gin.model.policies import PRESETS as POLICY_PRESETS
from .gin.model.policies import Policy, format_policy, parse_policy
from .gin.model.rules import PRESETS as RULE_PRESETS
from .gin.model.rules import Rules, resolve_rules
from .gin.play.advisor import Advice, Position
from .gin.play.advisor.position import UNDEALT
from .gin.play.replay import HandReplay, parse_deck
from .gin.play.results import GameResult, HandResult

RulesLike = Rules | str
PolicyLike = Policy | str
ProgressLike = bool | Progress | None


def rules(name: str = "standard", **fields: Any) -> Rules:
    """The rules preset ``name`` with ``fields`` changed (validated).

    >>> rules("oklahoma").target, rules(gin_bonus=20).gin_bonus
    (150, 20)
    """
    _check_text(name, "name")
    return dataclasses.replace(resolve_rules(name), **fields)


def policy(text: str = "basic", **fields: Any) -> Policy:
    """The policy preset (or string form) ``text`` with ``fields`` (by their string-form
    keys) changed; ``knock`` may be a number (a constant threshold).

    >>> format_policy(policy("simple", knock=8))
    'draw=meld,discard=random,knock=8,norepeat=yes'
    """
    _check_text(text, "text")
    base = parse_policy(text)
    knock = fields.pop("knock", None)
    if knock is not None:
        base = base.with_knock(knock)
    return base.changed(**fields)


def _check_text(value: object, name: str, none: bool = False) -> None:
    if not (isinstance(value, str) or (none and value is None)):
        raise TypeError(f"{name} must be a string{' or None' if none else ''}, got {value!r}")


def _rules(value: RulesLike, name: str = "rules") -> Rules:
    """Rules given as an object or a preset name; ``TypeError`` naming ``name`` else."""
    if isinstance(value, Rules):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a rules preset name or a Rules object, got {value!r}")
    return rules(value)


def _policy(value: PolicyLike, name: str) -> Policy:
    """A policy given as an object, a preset name or a string form; ``TypeError``
    naming the argument ``name`` else."""
    if isinstance(value, Policy):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, a policy string form or a Policy, got {value!r}"
        )
    return policy(value)


def _names(value: object, name: str, what: str) -> list[Any]:
    """A list of ``what`` given as a list or tuple (a single string is refused: it would
    be read one character at a time); ``TypeError`` naming ``name`` else."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, range)):
        hint = f" (write [{value!r}])" if isinstance(value, str) else ""
        raise TypeError(f"{name} must be a list of {what}, got {value!r}{hint}")
    if not value:
        raise ValueError(f"{name} is empty: give at least one of the {what}")
    return list(value)


def _check_progress(progress: object) -> None:
    if not (progress is None or isinstance(progress, bool) or callable(progress)):
        raise TypeError(f"progress must be True, False, None or a callable, got {progress!r}")


def _check_run(seed: object, progress: object = None, **counts: object) -> list[int]:
    """The seed, the progress argument and each count of deals or games (1-10**12); the
    seed and the counts as plain ``int`` (numpy integers are accepted)."""
    checked = [check_seed(seed)]
    _check_progress(progress)
    checked += [check_count(value, name) for name, value in counts.items()]
    return checked


@contextmanager
def _progress(progress: ProgressLike, unit: str) -> Iterator[Progress | None]:
    """``None``, the caller's callable, or (``True``) a tqdm bar that adopts the total the
    study announces."""
    if progress is None or progress is False:
        yield None
        return
    if callable(progress):
        yield progress
        return
    from tqdm.auto import tqdm

    with tqdm(unit=unit, unit_scale=True, leave=False) as bar:
        yield bar_progress(bar)


def rule_presets() -> pd.DataFrame:
    """One row per rules preset: its name, a one-sentence note and every field."""
    from .gin.model.describe import RULE_PRESET_NOTES

    return pd.DataFrame(
        [
            {"preset": name, "note": RULE_PRESET_NOTES.get(name, ""), **preset.describe()}
            for name, preset in RULE_PRESETS.items()
        ]
    )


def policies() -> pd.DataFrame:
    """One row per policy preset: its name, string form and a plain-English sentence."""
    from .gin.model.describe import explain_policy

    return pd.DataFrame(
        [
            {"policy": name, "string": format_policy(p), "summary": explain_policy(p)}
            for name, p in POLICY_PRESETS.items()
        ]
    )


def simulate(
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    deals: int = 10_000,
    seed: int = 1,
    keep_rows: bool = False,
    progress: ProgressLike = None,
) -> HandResult:
    """Play ``deals`` deals of A against B (each twice, seats swapped); ``.to_frame()``
    gives the estimates, ``.rows`` every hand with ``keep_rows`` (at most
    5,000,000 deals: the rows are kept in memory)."""
    from .gin.play.simulate import simulate as run

    seed, deals = _check_run(seed, progress, deals=deals)
    if not isinstance(keep_rows, bool):
        raise TypeError(f"keep_rows must be True or False, got {keep_rows!r}")
    if keep_rows:
        check_count(deals, "deals with keep_rows=True", 1, MAX_RAW_UNITS)
    chosen = _rules(rules), _policy(a, "a"), _policy(b, "b")
    with _progress(progress, "deal") as update:
        return run(*chosen, deals, seed, keep_rows=keep_rows, progress=update)


def play_games(
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    games: int = 2_000,
    seed: int = 1,
    progress: ProgressLike = None,
) -> GameResult:
    """Play ``games`` whole games of A against B (each twice, first dealer swapped)."""
    from .gin.play.simulate import play_games as run

    seed, games = _check_run(seed, progress, games=games)
    chosen = _rules(rules), _policy(a, "a"), _policy(b, "b")
    with _progress(progress, "game") as update:
        return run(*chosen, games, seed, progress=update)


def knock_sweep(
    a: PolicyLike = "basic",
    b: PolicyLike | None = "basic",
    rules: RulesLike = "standard",
    deals: int = 20_000,
    games: int = 2_000,
    seed: int = 1,
    thresholds: Sequence[int] = range(11),
    progress: ProgressLike = None,
) -> pd.DataFrame:
    """A knocks at deadwood <= t for each t against B (``None``: A's twin); one row per t
    with points per hand, the paired difference to t = 10 and game-win rates (95% CIs).
    ``thresholds``: distinct knock thresholds 0-10."""
    from .gin.studies import sweeps as studies

    seed, deals, games = _check_run(seed, progress, deals=deals, games=games)
    chosen = _names(thresholds, "thresholds", "knock thresholds 0-10")
    for threshold in chosen:
        check_int(threshold, "a knock threshold", 0, 10)
    if len(set(chosen)) < len(chosen):
        raise ValueError(f"thresholds lists a threshold twice: {chosen}")
    subject, chosen_rules = _policy(a, "a"), _rules(rules)
    opponent = None if b is None else _policy(b, "b")
    name = studies.SELF_PLAY_CHECK if b is None else (b if isinstance(b, str) else format_policy(b))
    with _progress(progress, "deal") as update:
        return studies.knock_sweep(
            chosen_rules,
            subject,
            {name: opponent},
            deals,
            games,
            seed,
            [int(t) for t in chosen],
            progress=update,
        )


def knock_chart(
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    deals: int = 50_000,
    seed: int = 1,
    min_samples: int = 300,
    progress: ProgressLike = None,
) -> pd.DataFrame:
    """Knock now or play on: mean points of knocking minus playing on by (own turn,
    deadwood), with CI and verdict."""
    from .gin.studies import sweeps as studies

    seed, deals, min_samples = _check_run(seed, progress, deals=deals, min_samples=min_samples)
    chosen = _rules(rules), _policy(a, "a"), _policy(b, "b")
    with _progress(progress, "deal") as update:
        return studies.knock_chart(*chosen, deals, seed, min_samples, progress=update)


def tournament(
    policies: Sequence[PolicyLike] = ("basic", "simple", "gin-hunter"),
    rules: RulesLike = "standard",
    deals: int = 10_000,
    games: int = 1_000,
    seed: int = 1,
    progress: ProgressLike = None,
) -> pd.DataFrame:
    """Round robin: one row per ordered pair with points per hand and game-win rate."""
    from .gin.studies import sweeps as studies

    seed, deals, games = _check_run(seed, progress, deals=deals, games=games)
    listed = _names(policies, "policies", "policies")
    field = {}
    for index, entry in enumerate(listed):
        chosen = _policy(entry, f"policies[{index}]")
        name = entry if isinstance(entry, str) else format_policy(chosen)
        if name in field:
            raise ValueError(f"policies names {name!r} twice")
        field[name] = chosen
    if len(field) < 2:
        raise ValueError("policies needs at least two policies for a round robin")
    chosen_rules = _rules(rules)
    with _progress(progress, "deal") as update:
        return studies.tournament(chosen_rules, field, deals, games, seed, progress=update)


def variants(
    presets: Sequence[str] = ("standard", "classic", "oklahoma"),
    baseline: PolicyLike = "basic",
    strong: PolicyLike = "gin-hunter",
    weak: PolicyLike = "basic",
    deals: int = 10_000,
    games: int = 1_000,
    seed: int = 1,
    progress: ProgressLike = None,
) -> pd.DataFrame:
    """One row per rules preset: hand size, game length, skill share, best threshold.
    ``deals`` 2-5,000,000 (the self-play hands are kept in memory)."""
    from .gin.studies import sweeps as studies

    seed, games = _check_run(seed, progress, games=games)
    deals = check_count(deals, "deals", MIN_VARIANT_DEALS, MAX_RAW_UNITS)
    names = _names(presets, "presets", "rules preset names")
    for name in names:
        _check_text(name, "a preset")
        if name not in RULE_PRESETS:
            raise ValueError(
                f"unknown rules preset {name!r}; choose from {', '.join(RULE_PRESETS)}"
            )
    if len(set(names)) < len(names):
        raise ValueError("presets names a preset twice")
    chosen = (_policy(baseline, "baseline"), _policy(strong, "strong"), _policy(weak, "weak"))
    with _progress(progress, "deal") as update:
        return studies.variants(names, *chosen, deals, games, seed, progress=update)


def dealt(deals: int = 100_000, seed: int = 1, progress: ProgressLike = None) -> pd.DataFrame:
    """P(dealt deadwood <= limit) for limits 0..10, by hand size (11: best 10 of 11)."""
    from .gin.studies import sweeps as studies

    seed, deals = _check_run(seed, progress, deals=deals)
    with _progress(progress, "hand") as update:
        return studies.knock_eligibility(studies.dealt_hands(deals, seed, progress=update))


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
    policy: PolicyLike = "basic",
    opponent: PolicyLike = "basic",
    samples: int = 5_000,
    seed: int = 1,
    progress: ProgressLike = None,
    **options: Any,
) -> Advice:
    """Rank knocking, gin and playing on (with each discard) for a position given in
    notation; ``.to_frame()`` is the ranked table, ``.verdict`` the one-line advice.
    ``options`` go to :func:`analyzer.gin.play.advisor.advise` (``tolerance``, ``weights``...).
    ``samples`` 1-1,000,000; ``temperature`` and ``tolerance`` finite, above 0 and at
    most 1000."""
    from .gin.play.advisor import advise as run

    for name, text in (
        ("hand", hand),
        ("pile", pile),
        ("opp_took", opp_took),
        ("opp_threw", opp_threw),
        ("dealer", dealer),
    ):
        _check_text(text, name)
    for name, optional in (("drawn", drawn), ("score", score)):
        _check_text(optional, name, none=True)
    for name, count, low, high in (("stock", stock, 2, UNDEALT), ("turn", turn, 1, MAX_DRAWS // 2)):
        if count is not None:  # the ranges of analyzer advise --stock and --turn
            check_int(count, name, low, high)
    stock, turn = (None if v is None else int(v) for v in (stock, turn))
    (seed,) = _check_run(seed, progress)
    samples = check_count(samples, "samples", 1, MAX_SAMPLES)
    _check_advisor_options(options)
    position = Position.from_options(
        hand, pile, opp_took, opp_threw, stock, turn, dealer, drawn, score=score
    )
    chosen_rules = _rules(rules)
    mine, theirs = _policy(policy, "policy"), _policy(opponent, "opponent")
    equity = None
    if score is not None:
        from .gin.play.advisor import check_game_position
        from .gin.studies.equity.table import equity_function

        check_game_position(position, chosen_rules)
        equity = equity_function(chosen_rules, mine, theirs, 30_000, seed)
    with _progress(progress, "sample") as update:
        return run(
            position,
            chosen_rules,
            mine,
            theirs,
            samples=samples,
            seed=seed,
            equity=equity,
            progress=update,
            **options,
        )


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
        for action in _names(actions, "actions", "actions such as 'knock Kd'"):
            _check_text(action, "an action")


def replay(
    seed: int = 1,
    deal: int = 0,
    a: PolicyLike = "basic",
    b: PolicyLike = "basic",
    rules: RulesLike = "standard",
    a_dealer: bool = False,
    deck: str | None = None,
) -> HandReplay:
    """Play one hand decision by decision (deal ``deal`` of a run with ``seed``, or the
    cards ``deck`` in the notation of ``analyzer replay --deck``); ``.to_frame()`` lists
    the decisions, ``.summary()`` the result.  ``deal`` is below 10**12 (the most deals of
    a run)."""
    from .gin.play.replay import replay as run

    seed = check_seed(seed)
    deal = check_int(deal, "deal", 0, MAX_UNITS - 1)
    if not isinstance(a_dealer, bool):
        raise TypeError(f"a_dealer must be True or False, got {a_dealer!r}")
    _check_text(deck, "deck", none=True)
    cards = None if deck is None else parse_deck(deck)
    return run(_rules(rules), _policy(a, "a"), _policy(b, "b"), seed, deal, a_dealer, cards)


#: The names ``import analyzer as az`` exposes from this module.
API: tuple[str, ...] = (
    "advise",
    "dealt",
    "knock_chart",
    "knock_sweep",
    "play_games",
    "policies",
    "policy",
    "replay",
    "rule_presets",
    "rules",
    "simulate",
    "tournament",
    "variants",
)

__all__ = list(API)
