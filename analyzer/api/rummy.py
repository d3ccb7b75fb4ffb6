"""Plain rummy (not gin) in the notebook: hands, games and the three studies of
``analyzer rummy``.

Rules are :func:`rummy_rules` or a preset name (``standard``, ``seed004``,
``reshuffle``, ``own-layoffs``); policies a preset name (``simple``, ``rummy``,
``hold6``, ``keeper``, ``potential``), ``key=value`` items or a
:class:`~analyzer.rummy.policies.RummyPolicy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.limits import MAX_RAW_UNITS, check_count, check_int
from ..rummy import studies
from ..rummy.policies import RummyPolicy, parse_policy, policy_name
from ..rummy.rules import INT_RANGES, RummyRules
from ..rummy.rules import PRESETS as RULE_PRESETS
from .arguments import ProgressLike, check_run, check_text, count_label, listed, progress_to
from .results import ChartedResult, Result

RummyRulesLike = RummyRules | str
RummyPolicyLike = RummyPolicy | str


def rummy_rules(name: str = "standard", **fields: Any) -> RummyRules:
    """The plain-rummy rules preset ``name`` with ``fields`` changed (validated).

    >>> rummy_rules("seed004", players=3).max_run
    4
    """
    check_text(name, "name")
    if name not in RULE_PRESETS:
        raise ValueError(f"unknown rules preset {name!r}; choose from {', '.join(RULE_PRESETS)}")
    return RULE_PRESETS[name].replace(**fields)


def _rules(value: RummyRulesLike, players: int | None) -> tuple[RummyRules, str]:
    """The rules and how a title names them."""
    if isinstance(value, RummyRules):
        name = next((n for n, preset in RULE_PRESETS.items() if preset == value), "custom")
        chosen = value
    elif isinstance(value, str):
        name, chosen = value, rummy_rules(value)
    else:
        raise TypeError(f"rules must be a rules preset name or a RummyRules object, got {value!r}")
    if players is not None:
        low, high = INT_RANGES["players"]
        chosen = chosen.replace(players=check_int(players, "players", low, high))
    return chosen, f"{name} rules"


def _policy(value: RummyPolicyLike, name: str) -> RummyPolicy:
    if isinstance(value, RummyPolicy):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, key=value items or a RummyPolicy, got {value!r}"
        )
    return parse_policy(value)


def _seats(
    rules: RummyRules, a: RummyPolicyLike, b: RummyPolicyLike, policies: Sequence[Any] | None
) -> list[RummyPolicy]:
    """Each seat's policy: ``policies`` (one per player) or A then B in every other seat."""
    if policies is None:
        return [_policy(a, "a")] + [_policy(b, "b")] * (rules.players - 1)
    entries = listed(policies, "policies", "policies, one per player")
    if len(entries) != rules.players:
        raise ValueError(f"policies lists {len(entries)} policies for {rules.players} players")
    return [_policy(entry, f"policies[{index}]") for index, entry in enumerate(entries)]


def _players_label(seats: list[RummyPolicy]) -> str:
    names = [policy_name(p) for p in seats]
    if len(set(names[1:])) == 1:
        rest = f"{names[1]}" if len(names) == 2 else f"{len(names) - 1} x {names[1]}"
        return f"{names[0]} (player 0) against {rest}"
    return ", ".join(names)


def rummy_simulate(
    a: RummyPolicyLike = "simple",
    b: RummyPolicyLike = "simple",
    rules: RummyRulesLike = "standard",
    deals: int = 10_000,
    seed: int = 1,
    players: int | None = None,
    policies: Sequence[RummyPolicyLike] | None = None,
    rotate: bool = True,
    keep_rows: bool = False,
    progress: ProgressLike = None,
) -> Result:
    """Play ``deals`` hands of plain rummy: player 0 plays ``a``, every other player
    ``b`` (or ``policies``, one per player); ``players`` 2-6 (default: the preset's).
    The table: win rates and points per hand with 95% CIs, turns per hand, void hands;
    the seats rotate unless ``rotate=False``; ``.rows`` every hand with ``keep_rows``
    (at most 5,000,000)."""
    from ..rummy.simulate import simulate

    seed, deals = check_run(seed, progress, deals=deals)
    for name, flag in (("rotate", rotate), ("keep_rows", keep_rows)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if keep_rows:
        check_count(deals, "deals with keep_rows=True", 1, MAX_RAW_UNITS)
    chosen, label = _rules(rules, players)
    seats = _seats(chosen, a, b, policies)
    with progress_to(progress, "deal") as update:
        result = simulate(
            chosen, seats, deals, seed, rotate=rotate, keep_rows=keep_rows, progress=update
        )
    return Result(
        f"Plain rummy: {_players_label(seats)}, {label}, {chosen.players} players, "
        f"{count_label(deals, 'hand', seed)}",
        result.to_frame(),
        result,
    )


def rummy_games(
    a: RummyPolicyLike = "simple",
    b: RummyPolicyLike = "simple",
    rules: RummyRulesLike = "standard",
    games: int = 2_000,
    seed: int = 1,
    players: int | None = None,
    policies: Sequence[RummyPolicyLike] | None = None,
    progress: ProgressLike = None,
) -> Result:
    """Play ``games`` games of plain rummy to the rules' target score (``rummy_rules(
    target=500)``); player ``j`` keeps seat ``j``. The table: each player's game-win rate
    (95% CI) and final score, hands per game."""
    from ..rummy.simulate import play_games

    seed, games = check_run(seed, progress, games=games)
    chosen, label = _rules(rules, players)
    seats = _seats(chosen, a, b, policies)
    with progress_to(progress, "game") as update:
        result = play_games(chosen, seats, games, seed, progress=update)
    return Result(
        f"Plain rummy games to {chosen.target}: {_players_label(seats)}, {label}, "
        f"{chosen.players} players, {count_label(games, 'game', seed)}",
        result.to_frame(),
        result,
    )


def _chart(stem: str) -> Any:
    """The chart function of a study (:data:`analyzer.report.rummy.CHARTS`), imported when
    a chart is drawn: importing the API does not load matplotlib."""
    from ..report.rummy import CHARTS

    return CHARTS[stem][0]


#: What each study of :func:`rummy_study` answers, for its title line.
_QUESTIONS = {
    "meld-or-hold": "Meld at once or hold for Rummy? The holder's edge against a player "
    "who melds at once (2 players, standard rules)",
    "players": "What changes from 2 to 6 players: hand length, the winner's points, "
    "each seat's share of the wins",
    "options": "What each rule option does to hand length, the winner's points, void hands "
    "and the edge of holding for Rummy (2 players)",
}


def rummy_study(
    name: str = "meld-or-hold", deals: int = 12_000, seed: int = 1, progress: ProgressLike = None
) -> ChartedResult:
    """One of the plain-rummy studies of ``analyzer rummy study`` (the report runs them
    with seed 2026): ``meld-or-hold``, ``players`` or ``options``, ``deals`` deals per
    configuration; ``.plot()`` its chart."""
    check_text(name, "name")
    if name not in studies.STUDIES:
        raise ValueError(f"unknown study {name!r}: choose from {', '.join(studies.STUDIES)}")
    seed, deals = check_run(seed, progress, deals=deals)
    run, stem = studies.STUDIES[name]
    with progress_to(progress, "deal") as update:
        table = run(deals, seed, progress=update)
    return ChartedResult(
        f"{_QUESTIONS[name]}; {count_label(deals, 'deal')} per configuration, seed {seed}",
        table,
        lambda ax: _chart(stem)(table, ax),
        "95% CIs as error bars; the numbers are in the table.",
        (7, 4.2),
    )


__all__ = ["rummy_games", "rummy_rules", "rummy_simulate", "rummy_study"]
