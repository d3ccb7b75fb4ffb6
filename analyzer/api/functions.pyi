"""What type checkers and editors see of :mod:`analyzer.api.functions` (the notebook's
study functions, made at import from the studies' declarations): written by
``python scripts/write_api.py`` (do not edit; a test keeps this file in step)."""

from collections.abc import Sequence
from pathlib import Path

from ..gin.model.policies import Policy
from ..gin.model.rules import Rules
from ..gin.play.players import SearchPolicy
from ..rummy.policies import RummyPolicy
from ..rummy.rules import RummyRules
from .arguments import ProgressLike
from .results import Result

def dealt(
    *,
    deals: int = 500000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def equilibrium(
    base: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    deals: int = 5000,
    iterations: int = 8,
    tolerance: float = 0.1,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def equity(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    presets: Sequence[str] | None = None,
    rules: str | Rules = "standard",
    *,
    deals: int = 20000,
    check: int = 4,
    games: int = 2000,
    score_aware: bool = True,
    caps: Sequence[int] = (0,),
    floors: Sequence[int] = (10,),
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def exact(
    *,
    cards: int = 10,
    ranks: int = 13,
    suits: int = 4,
    mc_deals: int = 1000000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def exploit(
    policy: str | Policy = "basic",
    rules: str | Rules = "standard",
    *,
    deals: int = 5000,
    games: int = 1000,
    rounds: int = 2,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def fit_discard(
    rules: str | Rules = "standard",
    *,
    generations: int = 6,
    population: int = 10,
    elite: int = 3,
    deals: int = 2000,
    held_out: int = 10000,
    softness: float = 2.0,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def guide(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def how_to_discard(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 10000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def how_to_draw(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 10000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def knock_chart(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    deals: int = 40000,
    min_samples: int = 300,
    equity_deals: int = 10000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def knock_schedule(
    a: str | Policy = "expert",
    b: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    objective: str = "points",
    deals: int = 3000,
    rounds: int = 2,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def knock_sweep(
    a: str | Policy = "expert",
    opponents: Sequence[str | Policy | SearchPolicy] = ("basic", "expert"),
    rules: str | Rules = "standard",
    *,
    deals: int = 20000,
    games: int = 1000,
    thresholds: Sequence[int] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def panel_equilibrium(
    base: str | Policy = "expert",
    rules: str | Rules = "standard",
    *,
    members: Sequence[str | Policy | SearchPolicy] | None = None,
    deals: int = 1000,
    iterations: int = 4,
    tolerance: float = 0.1,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def play_games(
    a: str | Policy | SearchPolicy = "basic",
    b: str | Policy | SearchPolicy = "basic",
    rules: str | Rules = "standard",
    *,
    players: int = 2,
    policies: Sequence[str | Policy] | None = None,
    games: int = 10000,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def rummy_games(
    a: str | RummyPolicy = "simple",
    b: str | RummyPolicy = "simple",
    rules: str | RummyRules = "standard",
    *,
    players: int | None = None,
    policies: Sequence[str | RummyPolicy] | None = None,
    games: int = 2000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def rummy_how_to_play(
    rules: str | RummyRules = "standard",
    *,
    players: int = 2,
    deals: int = 20000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def rummy_options(
    *,
    players: int = 2,
    deals: int = 20000,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def rummy_simulate(
    a: str | RummyPolicy = "simple",
    b: str | RummyPolicy = "simple",
    rules: str | RummyRules = "standard",
    *,
    players: int | None = None,
    policies: Sequence[str | RummyPolicy] | None = None,
    deals: int = 10000,
    rotate: bool = True,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def rummy_study(
    name: str = "meld-or-hold",
    *,
    deals: int = 6000,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def simulate(
    a: str | Policy | SearchPolicy = "basic",
    b: str | Policy | SearchPolicy = "basic",
    rules: str | Rules = "standard",
    *,
    deals: int = 100000,
    keep_rows: bool = False,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def tournament(
    policies: Sequence[str | Policy | SearchPolicy] = (
        "simple",
        "basic",
        "safe-discard",
        "lookahead",
        "gin-hunter",
        "passive",
        "marjj",
        "expert-v3",
        "expert",
    ),
    rules: str | Rules = "standard",
    *,
    deals: int = 5000,
    games: int = 500,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def variants(
    presets: Sequence[str] = (
        "standard",
        "classic",
        "undercut20",
        "oklahoma",
        "oklahoma-nodouble",
        "oklahoma-acegin",
        "straight",
        "biggin",
        "hollywood",
        "target150",
        "target250",
    ),
    a: str | Policy = "expert",
    b: str | Policy = "basic",
    *,
    deals: int = 2000,
    games: int = 500,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...
def when_to_knock(
    rules: str | Rules = "standard",
    *,
    opponent: str = "unknown",
    deals: int = 1000,
    search_deals: int = 500,
    exploit_deals: int = 500,
    results: str | Path | None = None,
    out: str | Path | None = None,
    seed: int = 2026,
    progress: ProgressLike = None,
) -> Result: ...

__all__ = [
    "dealt",
    "equilibrium",
    "equity",
    "exact",
    "exploit",
    "fit_discard",
    "guide",
    "how_to_discard",
    "how_to_draw",
    "knock_chart",
    "knock_schedule",
    "knock_sweep",
    "panel_equilibrium",
    "play_games",
    "rummy_games",
    "rummy_how_to_play",
    "rummy_options",
    "rummy_simulate",
    "rummy_study",
    "simulate",
    "tournament",
    "variants",
    "when_to_knock",
]
