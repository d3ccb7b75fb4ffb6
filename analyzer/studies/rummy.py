"""Plain rummy's hands and games, declared once: ``analyzer rummy simulate`` and
``rummy games`` and their notebook functions ``az.rummy_simulate`` and
``az.rummy_games`` (the report's questions are :mod:`analyzer.studies.rummy_study`)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ..core.progress import Progress
from ..core.results import plain
from .charts import Axis, Chart, Mark, Panel, column
from .study import RUMMY, Computed, Inputs, Kind, Param, Study, View, register
from .text import interval_column, interval_text, label_lines, table_lines, title_text

# ----------------------------------------------------------------- hands and games


def _seats(inputs: Inputs) -> tuple[Any, list[Any]]:
    """The rules (with ``players`` when given) and each seat's policy: ``policies``, or
    A in seat 0 and B in every other."""
    rules = inputs.rules
    if inputs["players"] is not None:
        rules = rules.replace(players=inputs["players"])
    listed = inputs["policies"]
    if listed is None:
        return rules, [inputs["a"]] + [inputs["b"]] * (rules.players - 1)
    if len(listed) != rules.players:
        raise ValueError(f"policies lists {len(listed)} policies for {rules.players} players")
    return rules, [policy for _, policy in listed]


def _finite(value: Any) -> Any:
    """JSON data with a missing number (NaN) as ``None`` (``meta.json`` holds no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def _run(result: Any, inputs: Inputs, count: str) -> Computed:
    """A run's tables (its metrics, one row per player) and its summary (the JSON)."""
    from ..rummy.policies import policy_name
    from ..rummy.simulate import HandResult

    hands = isinstance(result, HandResult)
    summary = {
        "rules": result.rules.describe(),
        "policies": [str(p) for p in result.policies],
        "seed": result.seed,
        "interrupted": result.interrupted,
        **result.summary(),
    }
    if hands:
        # a hand of rummy is one deal: the key gin's simulate uses for the same count
        summary["deals"] = summary.pop("hands")
        summary["rotate"] = result.rotate
    wins = result.player_win_rate if hands else result.player_game_win_rate
    points = [e.mean for e in result.player_points] if hands else result.player_final_score
    players = pd.DataFrame(
        {
            "player": range(len(result.policies)),
            "policy": [policy_name(p) for p in result.policies],
            "win_rate": [e.mean for e in wins],
            "win_low": [e.low for e in wins],
            "win_high": [e.high for e in wins],
            "points": points,
        }
    )
    summary = _finite(plain(summary))
    return Computed(
        {"players": players, "metrics": result.to_frame()},
        {"summary": summary},
        result=result,
        rows=result.rows if hands else None,
        stopped={**summary, f"requested_{count}": inputs[count]} if result.interrupted else None,
    )


def _simulate(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..rummy.simulate import simulate

    rules, seats = _seats(inputs)
    result = simulate(
        rules,
        seats,
        inputs["deals"],
        inputs.seed,
        rotate=inputs["rotate"],
        keep_rows=inputs.keep_rows,
        progress=progress,
        scheduler=scheduler,
    )
    return _run(result, inputs, "deals")


def _games(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..rummy.simulate import play_games

    rules, seats = _seats(inputs)
    result = play_games(
        rules, seats, inputs["games"], inputs.seed, progress=progress, scheduler=scheduler
    )
    return _run(result, inputs, "games")


def most_wins_verdict(rows: pd.DataFrame, won: list[str]) -> str:
    """Who wins the most, when the leader's 95% CI lies above the runner-up's (a
    conservative test: the runs keep no paired difference); else that it is too close to
    call between the two."""
    leader, second = (
        int(j) for j in rows["win_rate"].sort_values(ascending=False, kind="stable").index[:2]
    )

    def who(j: int) -> str:
        return f"player {j} ({rows.at[j, 'policy']})"

    if rows.at[leader, "win_low"] > rows.at[second, "win_high"]:
        return f"{who(leader).capitalize()} wins the most: {won[leader]}."
    return (
        f"Too close to call between {who(leader)}, {won[leader]}, and {who(second)}, {won[second]}."
    )


def _present_run(answer: Any) -> View:
    """A run of hands or of games: the players' table and facts, its verdict and chart."""
    inputs, players = answer.inputs, answer["players"]
    summary = answer.facts["summary"]
    metric = answer["metrics"].set_index("metric")
    hands = answer.study.name == "rummy simulate"
    won = interval_column(players, "win_rate", 1, sign=False, percent=True, stem="win")

    def estimate(name: str, digits: int = 2, percent: bool = False) -> str:
        row = metric.loc[name]
        return interval_text(row["mean"], row["low"], row["high"], digits, percent=percent)

    shown = {"player": players["player"], "policy": players["policy"]}
    if hands:
        shown |= {"hands won": won}
        shown["points/hand"] = [estimate(f"player_points_{j}") for j in players["player"]]
        facts = [
            ("turns per hand", estimate("turns")),
            ("winner's points", f"{estimate('winner_points')} per won hand"),
            ("Rummy", f"{metric.at['rummy_rate', 'mean']:.2%} of won hands"),
            ("void hands", f"{metric.at['void_rate', 'mean']:.1%} (no winner)"),
        ]
        size = f"{summary['deals']:,} deals"
    else:
        shown |= {"games won": won, "final score": [f"{v:.1f}" for v in players["points"]]}
        facts = [
            ("hands per game", estimate("hands_per_game")),
            (
                "finished",
                f"{metric.at['finished_rate', 'mean']:.1%} of games reached {summary['target']}",
            ),
        ]
        size = f"{summary['games']:,} games to {summary['target']} points"
    if hands and "margin" in metric.index:
        margin = metric.loc["margin"]
        significant = margin["low"] > 0 or margin["high"] < 0
        verdict = (
            f"Player 0 ({players.at[0, 'policy']}) scores "
            f"{interval_text(abs(margin['mean']), margin['low'], margin['high'])} points per hand "
            f"{'more' if margin['mean'] >= 0 else 'less'} than player 1 "
            f"({players.at[1, 'policy']})" + ("." if significant else ": no significant edge.")
        )
    else:
        verdict = most_wins_verdict(players, won)
    rules, _ = _seats(inputs)
    defaults = type(rules)()
    changed = [f"{k}={v}" for k, v in rules.describe().items() if v != getattr(defaults, k)]
    title = title_text(
        "Plain rummy " + ("hands" if hands else "games"),
        rules=inputs.preset + (f" with {', '.join(changed)}" if changed else ""),
        players=f"{len(players)} players",
        size=size,
        seed=inputs.seed,
    )
    return View(
        title,
        [*table_lines(pd.DataFrame(shown)), "", *label_lines(facts)],
        verdict,
        _players_chart(answer, title, hands),
        notes=[
            f"player {j} {name}: {policy}"
            for j, (name, policy) in enumerate(
                zip(players["policy"], summary["policies"], strict=True)
            )
            if name != policy
        ],
        frame=answer["metrics"],
        raw=players,
        data=summary,
    )


def _players_chart(answer: Any, title: str, hands: bool) -> Chart:
    """Each player's share of the hands (or games) won with its 95% CI, and, for hands,
    its points per hand."""
    players, metric = answer["players"], answer["metrics"].set_index("metric")
    # a policy written out in full would not fit beside the bars: its player number does
    names = tuple(
        f"{j} {name}" if len(name) <= 14 else f"player {j}"
        for j, name in zip(players["player"], players["policy"], strict=True)
    )
    what = "hands" if hands else "games"
    wins = players.rename(columns={"win_rate": "mean", "win_low": "low", "win_high": "high"})
    panels = [_bars_panel(wins, names, f"Share of the {what} won", f"{what} won", 0)]
    if hands:
        rows = metric.loc[[f"player_points_{j}" for j in players["player"]]]
        panels.append(_bars_panel(rows, names, "Points per hand", "points per hand", 1))
    return Chart(
        "players",
        f"Plain rummy: who wins the {what}?",
        title + ".",
        tuple(panels),
        size=(4.5 * len(panels), 0.5 * len(players) + 2.0),
    )


def _bars_panel(
    rows: pd.DataFrame, names: tuple[str, ...], title: str, what: str, color: int
) -> Panel:
    """One bar per player of ``rows``' ``mean`` with its 95% CI (``low``, ``high``)."""
    bars = Mark(
        "hbars",
        x=column(rows["mean"]),
        y=names,
        low=column(rows["low"]),
        high=column(rows["high"]),
        color=color,
    )
    return Panel(
        (Mark("vline", x=(0.0,), color=7), bars),
        title=title,
        x_label=f"{what} (bars: 95% CI)",
        y=Axis(reversed=True),
        legend="none",
    )


def _seat_params(count: Param) -> tuple[Param, ...]:
    return (
        Param("a", Kind.POLICY, "simple", "Player 0's policy."),
        Param("b", Kind.POLICY, "simple", "Policy of every other player."),
        Param(
            "players",
            Kind.COUNT,
            None,
            "Number of players, 2-6 (default: the preset's).",
            low=2,
            high=6,
        ),
        Param(
            "policies",
            Kind.SEATS,
            None,
            "One policy per player (instead of a and b); key=value items belong to the "
            "policy before them: rummy,hold_turns=4,simple.",
        ),
        count,
    )


RUMMY_SIMULATE = register(
    Study(
        "rummy simulate",
        "Play many hands of plain rummy and report win rates and points with 95% CIs.",
        "Player 0 plays A and every other player B, or each its own of --policies; the seats "
        "rotate from hand to hand unless --no-rotate. A run stopped by Ctrl-C or SIGTERM "
        'first prints the summary of the hands finished (with --json, marked "interrupted": '
        "true).",
        (
            "analyzer rummy simulate --deals 20000 --a rummy --b simple",
            "analyzer rummy simulate --players 3 --policies rummy,hold_turns=4,simple,simple",
            "analyzer rummy simulate --players 4 --rules seed004 --set reshuffle=yes --format json",
        ),
        (
            *_seat_params(Param("deals", Kind.COUNT, 10_000, "Hands to play.")),
            Param(
                "rotate",
                Kind.FLAG,
                True,
                "Rotate the seats from hand to hand (--no-rotate: player j keeps seat j, "
                "seat 0 plays first).",
            ),
        ),
        _simulate,
        _present_run,
        rows="deals",
        rulebook=RUMMY,
        notebook="The run's fields read through (``.player_win_rate``, ``.margin``...).",
    )
)

RUMMY_GAMES = register(
    Study(
        "rummy games",
        "Play games of plain rummy to the rules' target score (--set target=500).",
        "Player j keeps seat j; each player's game-win rate (95% CI) and final score, and "
        "hands per game. A run stopped by Ctrl-C or SIGTERM first prints the summary of the "
        'games finished (with --json, marked "interrupted": true).',
        ("analyzer rummy games --games 2000 --set target=500 --a hold6",),
        _seat_params(Param("games", Kind.COUNT, 2_000, "Games to play.")),
        _games,
        _present_run,
        unit="game",
        count="games",
        rulebook=RUMMY,
        notebook="The run's fields read through (``.player_game_win_rate``...).",
    )
)

__all__ = ["RUMMY_GAMES", "RUMMY_SIMULATE", "most_wins_verdict"]
