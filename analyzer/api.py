"""The notebook API: one call per question, tables back as pandas DataFrames.

``import analyzer as az`` gives every function here.  Rules and policies may be given as
objects or by name (``"oklahoma"``, ``"basic"``, ``"basic,knock=7"``); every study takes
``seed`` and is reproducible from it; ``progress=True`` shows a bar (tqdm) and a callable
receives the units done (:mod:`analyzer.core.progress`).

>>> import analyzer as az
>>> az.rules("standard", knock_limit=7).knock_limit
7
>>> az.policy("basic", knock=7).knock
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

from .core.progress import Progress, bar_progress
from .gin.advisor import Advice, Position
from .gin.policies import PRESETS as POLICY_PRESETS
from .gin.policies import Policy, format_policy, parse_policy
from .gin.replay import HandReplay, parse_deck
from .gin.rules import PRESETS as RULE_PRESETS
from .gin.rules import Rules, resolve_rules
from .gin.simulate import GameResult, HandResult

RulesLike = Rules | str
PolicyLike = Policy | str
ProgressLike = bool | Progress | None


def rules(name: str = "standard", **fields: Any) -> Rules:
    """The rules preset ``name`` with ``fields`` changed (validated).

    >>> rules("oklahoma").target, rules(gin_bonus=20).gin_bonus
    (150, 20)
    """
    return dataclasses.replace(resolve_rules(name), **fields)


def policy(text: str = "basic", **fields: Any) -> Policy:
    """The policy preset (or string form) ``text`` with ``fields`` changed; ``knock`` may
    be a number (a constant threshold).

    >>> format_policy(policy("simple", knock=8))
    'draw=meld,discard=random,knock=8,norepeat=yes'
    """
    base = parse_policy(text)
    knock = fields.pop("knock", None)
    if knock is not None:
        base = base.with_knock(knock)
    return dataclasses.replace(base, **fields)


def _rules(value: RulesLike) -> Rules:
    return rules(value) if isinstance(value, str) else value


def _policy(value: PolicyLike) -> Policy:
    return policy(value) if isinstance(value, str) else value


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
    from .gin.describe import RULE_PRESET_NOTES

    return pd.DataFrame([{"preset": name, "note": RULE_PRESET_NOTES.get(name, ""),
                          **preset.describe()} for name, preset in RULE_PRESETS.items()])


def policies() -> pd.DataFrame:
    """One row per policy preset: its name, string form and a plain-English sentence."""
    from .gin.describe import explain_policy

    return pd.DataFrame([{"policy": name, "string": format_policy(p),
                          "summary": explain_policy(p)} for name, p in POLICY_PRESETS.items()])


def simulate(a: PolicyLike = "basic", b: PolicyLike = "basic", rules: RulesLike = "standard",
             deals: int = 10_000, seed: int = 1, keep_rows: bool = False,
             progress: ProgressLike = None) -> HandResult:
    """Play ``deals`` deals of A against B (each twice, seats swapped); ``.to_frame()``
    gives the estimates, ``.rows`` every hand with ``keep_rows``."""
    from .gin.simulate import simulate as run

    with _progress(progress, "deal") as update:
        return run(_rules(rules), _policy(a), _policy(b), deals, seed, keep_rows=keep_rows,
                   progress=update)


def play_games(a: PolicyLike = "basic", b: PolicyLike = "basic", rules: RulesLike = "standard",
               games: int = 2_000, seed: int = 1, progress: ProgressLike = None) -> GameResult:
    """Play ``games`` whole games of A against B (each twice, first dealer swapped)."""
    from .gin.simulate import play_games as run

    with _progress(progress, "game") as update:
        return run(_rules(rules), _policy(a), _policy(b), games, seed, progress=update)


def knock_sweep(a: PolicyLike = "basic", b: PolicyLike | None = "basic",
                rules: RulesLike = "standard", deals: int = 20_000, games: int = 2_000,
                seed: int = 1, thresholds: Sequence[int] = range(11),
                progress: ProgressLike = None) -> pd.DataFrame:
    """A knocks at deadwood <= t for each t against B (``None``: A's twin); one row per t
    with points per hand, the paired difference to t = 10 and game-win rates (95% CIs)."""
    from .gin import studies

    opponent = None if b is None else _policy(b)
    name = studies.SELF_PLAY_CHECK if b is None else (b if isinstance(b, str) else format_policy(b))
    with _progress(progress, "deal") as update:
        return studies.knock_sweep(_rules(rules), _policy(a), {name: opponent}, deals, games,
                                   seed, thresholds, progress=update)


def knock_chart(a: PolicyLike = "basic", b: PolicyLike = "basic", rules: RulesLike = "standard",
                deals: int = 50_000, seed: int = 1, min_samples: int = 300,
                progress: ProgressLike = None) -> pd.DataFrame:
    """Knock now or play on: mean points of knocking minus playing on by (own turn,
    deadwood), with CI and verdict."""
    from .gin import studies

    with _progress(progress, "deal") as update:
        return studies.knock_chart(_rules(rules), _policy(a), _policy(b), deals, seed,
                                   min_samples, progress=update)


def tournament(policies: Sequence[PolicyLike] = ("basic", "simple", "gin-hunter"),
               rules: RulesLike = "standard", deals: int = 10_000, games: int = 1_000,
               seed: int = 1, progress: ProgressLike = None) -> pd.DataFrame:
    """Round robin: one row per ordered pair with points per hand and game-win rate."""
    from .gin import studies

    field = {(p if isinstance(p, str) else format_policy(p)): _policy(p) for p in policies}
    with _progress(progress, "deal") as update:
        return studies.tournament(_rules(rules), field, deals, games, seed, progress=update)


def variants(presets: Sequence[str] = ("standard", "classic", "oklahoma"),
             baseline: PolicyLike = "basic", strong: PolicyLike = "gin-hunter",
             weak: PolicyLike = "basic", deals: int = 10_000, games: int = 1_000, seed: int = 1,
             progress: ProgressLike = None) -> pd.DataFrame:
    """One row per rules preset: hand size, game length, skill share, best threshold."""
    from .gin import studies

    with _progress(progress, "deal") as update:
        return studies.variants(list(presets), _policy(baseline), _policy(strong), _policy(weak),
                                deals, games, seed, progress=update)


def dealt(deals: int = 100_000, seed: int = 1, progress: ProgressLike = None) -> pd.DataFrame:
    """P(dealt deadwood <= limit) for limits 0..10, by hand size (11: best 10 of 11)."""
    from .gin import studies

    with _progress(progress, "hand") as update:
        return studies.knock_eligibility(studies.dealt_hands(deals, seed, progress=update))


def advise(hand: str, pile: str = "", opp_took: str = "", opp_threw: str = "",
           stock: int | None = None, turn: int | None = None, dealer: str = "opp",
           drawn: str | None = None, score: str | None = None, rules: RulesLike = "standard",
           policy: PolicyLike = "basic", opponent: PolicyLike = "basic",
           samples: int = 5_000, seed: int = 1, progress: ProgressLike = None,
           **options: Any) -> Advice:
    """Rank knocking, gin and playing on (with each discard) for a position given in
    notation; ``.to_frame()`` is the ranked table, ``.verdict`` the one-line advice.
    ``options`` go to :func:`analyzer.gin.advisor.advise` (``tolerance``, ``weights``...)."""
    from .gin.advisor import advise as run

    position = Position.from_options(hand, pile, opp_took, opp_threw, stock, turn, dealer,
                                     drawn, score=score)
    chosen_rules = _rules(rules)
    equity = None
    if score is not None:
        from .gin.equity import equity_function

        equity = equity_function(chosen_rules, _policy(policy), _policy(opponent), 30_000, seed)
    with _progress(progress, "sample") as update:
        return run(position, chosen_rules, _policy(policy), _policy(opponent), samples=samples,
                   seed=seed, equity=equity, progress=update, **options)


def replay(seed: int = 1, deal: int = 0, a: PolicyLike = "basic", b: PolicyLike = "basic",
           rules: RulesLike = "standard", a_dealer: bool = False,
           deck: str | None = None) -> HandReplay:
    """Play one hand decision by decision (deal ``deal`` of a run with ``seed``, or the
    cards ``deck`` in the notation of ``analyzer replay --deck``); ``.to_frame()`` lists
    the decisions, ``.summary()`` the result."""
    from .gin.replay import replay as run

    cards = None if deck is None else parse_deck(deck)
    return run(_rules(rules), _policy(a), _policy(b), seed, deal, a_dealer, cards)


#: The names ``import analyzer as az`` exposes from this module.
API: tuple[str, ...] = ("advise", "dealt", "knock_chart", "knock_sweep", "play_games",
                        "policies", "policy", "replay", "rule_presets", "rules", "simulate",
                        "tournament", "variants")

__all__ = list(API)
