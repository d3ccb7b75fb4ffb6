"""The studies that play hands or whole games, declared once: ``simulate`` (hands of A
against B, seats swapped) and ``games`` (whole games of A against B, or of three or four
players).  Each computes its table and run summary (:mod:`analyzer.gin.play.simulate`,
:mod:`analyzer.gin.play.multiplayer`) and presents them from those alone."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.limits import MAX_MULTIPLAYER_GAMES, MAX_UNITS
from ..core.progress import Progress
from ..core.stats import Estimate
from ..gin.play.players import Player, SearchPolicy, format_player
from .charts import Axis, Chart, Mark, Panel, column
from .study import GIN, Computed, Inputs, Kind, Param, Study, View, register
from .text import bracket_text, estimate_text, label_lines, table_lines


def _run_summary(inputs: Inputs) -> dict[str, Any]:
    """The JSON keys both two-player studies share."""
    return {
        "seed": inputs.seed,
        "rules": " ".join([inputs.preset, *inputs.overrides]),
        "rules_fields": inputs.rules.describe(),
        "policy_a": GIN.format_player(inputs["a"]),
        "policy_b": GIN.format_player(inputs["b"]),
    }


def players_text(a: Player, b: Player) -> str:
    """Who plays whom in a title: ``A basic against B gin-hunter``."""
    return f"A {format_player(a)} against B {format_player(b)}"


def edge_verdict(
    a: Player, b: Player, estimate: Estimate, text: str, even: float, units: str, level: str
) -> str:
    """One sentence: does A do better than B, by ``estimate`` (written ``text``, e.g.
    ``+1.20 ± 0.31 points per hand to A``) against the ``even`` value (0 points, 50%).
    An estimate exactly ``even`` with no spread says every seat-swapped pair came out
    ``level`` (e.g. "every deal's two hands cancel out"): "the same policy" only when A
    and B are the same policy written out in full, else a tie on these ``units``."""
    name_a, name_b = format_player(a), format_player(b)
    if estimate.low == estimate.high == even:
        if GIN.format_player(a) == GIN.format_player(b):
            return f"A and B are even: {text}, exactly (the same policy, seats swapped)."
        return (
            f"A ({name_a}) and B ({name_b}) tie on these {units}: {text}, exactly ({level}); "
            "they are different policies."
        )
    if estimate.low > even:
        return f"A ({name_a}) beats B ({name_b}): {text}."
    if estimate.high < even:
        return f"B ({name_b}) beats A ({name_a}): {text}."
    return f"No significant difference between A ({name_a}) and B ({name_b}): {text}."


def _estimates(table: pd.DataFrame) -> dict[str, Estimate]:
    """The rows of a run's table (``metric, mean, low, high, n``) as estimates, by metric."""
    return {
        str(row.metric): Estimate(float(row.mean), float(row.low), float(row.high), int(row.n))
        for row in table.itertuples()
    }


def _bars(
    table: pd.DataFrame, labels: dict[str, str], title: str, axis: str, even: float, color: int
) -> Panel:
    """The metrics of ``table`` named in ``labels`` as bars with their 95% CIs (where the
    table gives one), a rule at ``even``."""
    rows = table.set_index("metric").loc[list(labels)]
    ci = rows["low"].notna().all()
    bars = Mark(
        "hbars",
        x=column(rows["mean"]),
        y=tuple(labels.values()),
        low=column(rows["low"]) if ci else (),
        high=column(rows["high"]) if ci else (),
        color=color,
    )
    return Panel(
        (bars, Mark("vline", x=(even,), color=7)),
        title=title,
        x_label=axis,
        y=Axis(reversed=True),
        legend="none",
    )


_A = Param("a", Kind.PLAYER, "basic", "Policy of player A.")
_B = Param("b", Kind.PLAYER, "basic", "Policy of player B (as --a).")

# ---------------------------------------------------------------------------- hands


def _simulate(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.play.simulate import simulate

    result = simulate(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        inputs["deals"],
        inputs.seed,
        keep_rows=inputs.keep_rows,
        progress=progress,
        scheduler=scheduler,
    )
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        **_run_summary(inputs),
        "outcomes": result.outcomes,
        "points_per_hand": result.points_a.as_dict(),
        "win_rate_a": result.win_rate_a.as_dict(),
        "turns_per_hand": result.turns.as_dict(),
        "first_player_points": result.first_player_points.as_dict(),
        "first_player_win_rate": result.first_player_win_rate,
        "elapsed_s": result.elapsed_s,
        "deals_per_s": result.deals_per_s,
        "kernels_s": result.kernels_s,
    }
    stopped = {**summary, "requested_deals": inputs["deals"]} if result.interrupted else None
    return Computed(
        {"hands": result.to_frame()},
        summary,
        result=result,
        rows=result.rows,
        stopped=stopped,
    )


def _present_hands(answer: Any) -> View:
    inputs, table, summary = answer.inputs, answer["hands"], answer.facts
    a, b = inputs["a"], inputs["b"]
    found = _estimates(table)
    points, first = found["points_per_hand_a"], found["first_player_points"]
    mix = "  ".join(f"{k} {v:.2%}" for k, v in summary["outcomes"].items() if v or k != "tie")
    first_edge = (
        f"{estimate_text(first, 3, sign=True)} points per hand, wins "
        f"{summary['first_player_win_rate']:.2%} of decided hands"
    )
    timing = (
        f"{summary['elapsed_s']:.1f} s ({summary['deals_per_s']:,.0f} deals/s; kernels loaded "
        f"before, in {summary['kernels_s']:.1f} s)"
    )
    rows = [
        ("outcomes", mix),
        ("points per hand to A", estimate_text(points, 3, sign=True)),
        ("hands won by A", estimate_text(found["win_rate_a"], 1, percent=True)),
        ("turns per hand", f"{estimate_text(found['turns_per_hand'], 2)} (draws, both players)"),
        ("first player edge", first_edge),
        ("time", timing),
    ]
    deals, hands = summary["deals"], summary["hands"]
    title = inputs.title(
        "Hands",
        players=players_text(a, b),
        size=f"{deals:,} deals ({hands:,} hands, seats swapped)",
    )
    shares = {f"share_{name}": name for name in summary["outcomes"] if f"share_{name}" in found}
    chart = Chart(
        "hands",
        title,
        f"Points per hand (A's: per deal, the mean of its two seat-swapped hands) with 95% "
        f"CIs; how the hands ended, as shares of the {hands:,} hands.",
        (
            _bars(
                table,
                {"points_per_hand_a": "to A", "first_player_points": "to the first player"},
                "Points per hand",
                "points per hand",
                0.0,
                0,
            ),
            _bars(table, shares, "How hands end", "share of hands", 0.0, 1),
        ),
        size=(11, 3.6),
    )
    verdict = edge_verdict(
        a,
        b,
        points,
        f"{estimate_text(points, 2, sign=True)} points per hand to A",
        0.0,
        "deals",
        "every deal's two hands, seats swapped, cancel out",
    )
    return View(title, label_lines(rows), verdict, chart, raw=dict(summary))


SIMULATE = register(
    Study(
        "simulate",
        "Play DEALS hands of A against B and summarise them.",
        "Each deal is played twice on the same cards, A as non-dealer then as dealer. A run "
        "stopped by Ctrl-C or SIGTERM first prints the summary of the deals it finished "
        '(with --json, marked "interrupted": true).',
        (
            "analyzer simulate --rules standard --a basic --b basic --deals 1000000 --seed 1",
            "analyzer simulate --deals 10000 --raw hands.parquet",
            (
                "analyzer simulate --deals 100000000 --checkpoint run.json   # Ctrl-C, then "
                "add --resume"
            ),
        ),
        (
            _A,
            _B,
            Param("deals", Kind.COUNT, 100_000, "Deals; each is played twice with seats swapped."),
        ),
        _simulate,
        _present_hands,
        keys={"hands": ("metric",)},
        checkpoint=True,
        rows="deals",
        notebook=(
            "The simulation's fields read through (``.points_a``, ``.win_rate_a``...); "
            "``.rows`` holds every hand with ``keep_rows``; ``.plot()``: points per hand and "
            "how hands end."
        ),
    )
)

# ---------------------------------------------------------------------------- games


def _games(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    players, policies = inputs["players"], inputs["policies"]
    if players == 2 and policies is not None:
        raise ValueError("policies is for 3 or 4 players; with 2 use a and b")
    if players > 2:
        return _multiplayer(inputs, progress)
    from ..gin.play.simulate import play_games

    result = play_games(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        inputs["games"],
        inputs.seed,
        keep_rows=inputs.keep_rows,
        progress=progress,
        scheduler=scheduler,
    )
    summary = {
        "games": result.games,
        **_run_summary(inputs),
        "game_win_rate_a": result.game_win_rate_a.as_dict(),
        "margin_a": result.margin_a.as_dict(),
        "hands_per_game": result.hands_per_game.as_dict(),
        "shutout_rate": result.shutout_rate,
        "unfinished": result.unfinished,
        "elapsed_s": result.elapsed_s,
    }
    stopped = {**summary, "requested_games": inputs["games"]} if result.interrupted else None
    return Computed(
        {"games": result.to_frame()}, summary, result=result, rows=result.rows, stopped=stopped
    )


def _present_games(answer: Any) -> View:
    if answer.inputs["players"] > 2:
        return _present_sides(answer)
    inputs, table, summary = answer.inputs, answer["games"], answer.facts
    a, b = inputs["a"], inputs["b"]
    found = _estimates(table)
    won = estimate_text(found["game_win_rate_a"], 1, percent=True)
    rows = [
        ("games won by A", won),
        ("final margin of A", f"{estimate_text(found['margin_a'], 1, sign=True)} points"),
        ("hands per game", estimate_text(found["hands_per_game"], 2)),
        ("shutout rate", f"{summary['shutout_rate']:.2%}"),
        ("time", f"{summary['elapsed_s']:.1f} s"),
    ]
    title = inputs.title(
        "Games",
        players=players_text(a, b),
        size=f"{summary['games']:,} games (first dealer swapped)",
    )
    chart = Chart(
        "games",
        title,
        "The share of games A wins and A's final margin (points), per pair of games with "
        "the first dealer swapped, with 95% CIs.",
        (
            _bars(table, {"game_win_rate_a": "A"}, "Games won", "share of games", 0.5, 0),
            _bars(table, {"margin_a": "A"}, "Final margin", "points per game", 0.0, 1),
        ),
        size=(10, 2.6),
    )
    verdict = edge_verdict(
        a,
        b,
        found["game_win_rate_a"],
        f"A wins {won} of the games",
        0.5,
        "games",
        "A wins half of every pair of games, first dealer swapped",
    )
    return View(title, label_lines(rows), verdict, chart, raw=dict(summary))


def _multiplayer(inputs: Inputs, progress: Progress | None) -> Computed:
    from ..gin.play.multiplayer import lead_over, multiplayer_summary, play_multiplayer_games

    players, games, given = inputs["players"], inputs["games"], inputs["policies"]
    sides = ("a", "b")
    seats = given or [(inputs.labels[sides[i % 2]], inputs[sides[i % 2]]) for i in range(players)]
    if len(seats) != players:
        raise ValueError(f"policies needs {players} policies, got {len(seats)}")
    if games > MAX_MULTIPLAYER_GAMES:
        raise ValueError(
            f"with {players} players at most {MAX_MULTIPLAYER_GAMES:,} games (every game "
            f"is kept in memory), got {games:,}"
        )
    searching = [name for name, player in seats if isinstance(player, SearchPolicy)]
    if searching:
        raise ValueError(
            f"{searching[0]!r}: the search player plays two-player games only; give a policy"
        )
    names, chosen = [name for name, _ in seats], [player for _, player in seats]
    frame = play_multiplayer_games(inputs.rules, chosen, games, inputs.seed, progress)
    summary = multiplayer_summary(frame)
    summary.insert(
        1,
        "policy",
        names if players == 3 else [f"{names[0]} + {names[2]}", f"{names[1]} + {names[3]}"],
    )
    leader, second = (
        int(side)
        for side in summary["win_rate"].sort_values(ascending=False, kind="stable").index[:2]
    )
    lead = lead_over(frame, leader, second)
    facts = {
        "hands_per_game": float(frame["hands"].mean()),
        "shutout_rate": float(frame["shutout"].mean()),
        "leader": leader,
        "second": second,
        "lead": [lead.mean, lead.low, lead.high, lead.n],
    }
    # every game (each side's final total, the winner, hands, shutout) is the answer's rows
    return Computed({"sides": summary}, facts, rows=frame)


def _present_sides(answer: Any) -> View:
    inputs, summary, facts = answer.inputs, answer["sides"], answer.facts
    players, games = inputs["players"], inputs["games"]
    seating = inputs.rules.three_player if players == 3 else "partnerships 0+2 v 1+3"
    games_won = [
        bracket_text(*bounds, 1)
        for bounds in zip(summary["win_rate"], summary["win_low"], summary["win_high"], strict=True)
    ]
    table = pd.DataFrame(
        {
            "side": summary["side"],
            "policy": summary["policy"],
            "games won": games_won,
            "final total": [f"{v:.1f}" for v in summary["mean_total"]],
        }
    )
    body = [
        *table_lines(table),
        "",
        (
            f"hands per game: {facts['hands_per_game']:.2f}   "
            f"shutout rate: {facts['shutout_rate']:.2%}"
        ),
    ]
    title = inputs.title(f"Games of {players} players ({seating})", size=f"{games:,} games")
    names = tuple(
        f"{side}: {policy}" for side, policy in zip(summary["side"], summary["policy"], strict=True)
    )
    bars = Mark(
        "hbars",
        x=column(summary["win_rate"]),
        y=names,
        low=column(summary["win_low"]),
        high=column(summary["win_high"]),
    )
    chart = Chart(
        "sides",
        title,
        f"Each side's share of the {games:,} games, with its 95% (Wilson) CI; the line: "
        "an equal share.",
        (
            Panel(
                (bars, Mark("vline", x=(1 / len(summary),), color=7)),
                x_label="share of games won",
                y=Axis(reversed=True),
                legend="none",
            ),
        ),
        size=(8, 1 + 0.5 * len(summary)),
    )
    return View(title, body, _most_wins_verdict(facts, table, games_won), chart)


def _most_wins_verdict(facts: dict[str, Any], table: pd.DataFrame, games_won: list[str]) -> str:
    """Who wins the most games, when its lead over the runner-up (``facts``) has a 95% CI
    above 0; else that it is too close to call between them."""
    leader, second = facts["leader"], facts["second"]
    mean, low, high, n = facts["lead"]
    lead = Estimate(float(mean), float(low), float(high), int(n))
    lead_text = estimate_text(lead, 1, sign=True, percent=True)

    def who(side: int) -> str:
        return f"{table.at[side, 'policy']} (side {table.at[side, 'side']})"

    if lead.low > 0:
        return (
            f"{who(leader)} wins the most games: {games_won[leader]}, {lead_text} more "
            f"than {who(second)}."
        )
    return (
        f"Too close to call between {who(leader)} ({games_won[leader]} of the games) and "
        f"{who(second)} ({games_won[second]}): the lead is {lead_text}."
    )


GAMES = register(
    Study(
        "games",
        "Play whole games to the target score of A against B (or 3-4 players).",
        "With two players each game is played twice, the first dealer swapped.",
        (
            "analyzer games --rules standard --a basic --b gin-hunter --games 20000",
            (
                "analyzer games --players 3 --policies basic,simple,gin-hunter --set "
                "three_player=loser-sits-out"
            ),
        ),
        (
            _A,
            _B,
            Param(
                "players",
                Kind.COUNT,
                2,
                "3: separate scores (seating by the three_player rule); 4: partnerships 0+2 v 1+3.",
                low=2,
                high=4,
            ),
            Param(
                "policies",
                Kind.SEATS,
                None,
                "With 3 or 4 players: the policies, one per player (default: a and b alternating).",
            ),
            Param(
                "games",
                Kind.COUNT,
                10_000,
                "Games; with 2 players each is played twice with the first dealer swapped; "
                f"with 3 or 4 at most {MAX_MULTIPLAYER_GAMES:,}.",
                high=MAX_UNITS,
            ),
        ),
        _games,
        _present_games,
        unit="game",
        rows="games",
        function="play_games",
        notebook=(
            "With two players the games' fields read through (``.game_win_rate_a``...); "
            "``.rows`` holds every game with ``keep_rows``; with three or four the table is "
            "each side's share of the games won.  ``.plot()``: the share of games won with "
            "its CI."
        ),
    )
)


__all__ = ["GAMES", "SIMULATE", "edge_verdict", "players_text"]
