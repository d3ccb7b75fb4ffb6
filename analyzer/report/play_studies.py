"""The studies that play hands or whole games, declared once (:mod:`analyzer.studies.study`):
``simulate`` (hands of A against B, seats swapped) and ``games`` (whole games of A against
B, or of three or four players)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.limits import MAX_MULTIPLAYER_GAMES, MAX_UNITS
from ..core.progress import Progress
from ..gin.play.players import Player, SearchPolicy, format_player
from ..studies.study import GIN, Inputs, Kind, Param, Study, register
from ..studies.text import bracket_text, estimate_text, label_lines, table_lines, title_text
from .legacy import Answer, legacy

if TYPE_CHECKING:
    from ..core.stats import Estimate


def _run_summary(inputs: Inputs, a: Player, b: Player) -> dict[str, Any]:
    """The JSON keys both two-player studies share."""
    return {
        "seed": inputs.seed,
        "rules": " ".join([inputs.preset, *inputs.overrides]),
        "rules_fields": inputs.rules.describe(),
        "policy_a": GIN.format_player(a),
        "policy_b": GIN.format_player(b),
    }


def players_text(a: Player, b: Player) -> str:
    """Who plays whom in a title: ``A basic against B gin-hunter``."""
    return f"A {format_player(a)} against B {format_player(b)}"


def edge_verdict(a: Player, b: Player, estimate: Estimate, text: str, even: float) -> str:
    """One sentence: does A do better than B, by ``estimate`` (written ``text``, e.g.
    ``+1.20 ± 0.31 points per hand to A``) against the ``even`` value (0 points, 50%)."""
    name_a, name_b = format_player(a), format_player(b)
    if estimate.low == estimate.high == even:
        return f"A and B are even: {text}, exactly (the same policy, seats swapped)."
    if estimate.low > even:
        return f"A ({name_a}) beats B ({name_b}): {text}."
    if estimate.high < even:
        return f"B ({name_b}) beats A ({name_a}): {text}."
    return f"No significant difference between A ({name_a}) and B ({name_b}): {text}."


_A = Param("a", Kind.PLAYER, "basic", "Policy of player A.")
_B = Param("b", Kind.PLAYER, "basic", "Policy of player B (as --a).")

# ---------------------------------------------------------------------------- hands


def _simulate(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.play.simulate import simulate

    a, b, deals = inputs["a"], inputs["b"], inputs["deals"]
    result = simulate(
        inputs.rules,
        a,
        b,
        deals,
        inputs.seed,
        keep_rows=inputs.keep_rows,
        progress=progress,
        scheduler=scheduler,
    )
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        **_run_summary(inputs, a, b),
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
    mix = "  ".join(f"{k} {v:.2%}" for k, v in result.outcomes.items() if v or k != "tie")
    first_edge = (
        f"{estimate_text(result.first_player_points, 3, sign=True)} points per hand, wins "
        f"{result.first_player_win_rate:.2%} of decided hands"
    )
    timing = (
        f"{result.elapsed_s:.1f} s ({result.deals_per_s:,.0f} deals/s; kernels loaded "
        f"before, in {result.kernels_s:.1f} s)"
    )
    rows = [
        ("outcomes", mix),
        ("points per hand to A", estimate_text(result.points_a, 3, sign=True)),
        ("hands won by A", estimate_text(result.win_rate_a, 1, percent=True)),
        ("turns per hand", f"{estimate_text(result.turns, 2)} (draws, both players)"),
        ("first player edge", first_edge),
        ("time", timing),
    ]
    return Answer(
        inputs.title(
            "Hands",
            players=players_text(a, b),
            size=f"{result.deals:,} deals ({result.hands:,} hands, seats swapped)",
        ),
        result.to_frame(),
        label_lines(rows),
        edge_verdict(
            a,
            b,
            result.points_a,
            f"{estimate_text(result.points_a, 2, sign=True)} points per hand to A",
            0.0,
        ),
        None,
        raw=summary,
        result=result,
        rows=result.rows,
        stopped={**summary, "requested_deals": deals} if result.interrupted else None,
    )


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
        *legacy(_simulate),
        checkpoint=True,
        rows="deals",
        notebook=(
            "The simulation's fields read through (``.points_a``, ``.win_rate_a``...); "
            "``.rows`` holds every hand with ``keep_rows``."
        ),
    )
)

# ---------------------------------------------------------------------------- games


def _games(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    players, policies = inputs["players"], inputs["policies"]
    if players == 2 and policies is not None:
        raise ValueError("policies is for 3 or 4 players; with 2 use a and b")
    if players > 2:
        return _multiplayer(inputs, progress)
    from ..gin.play.simulate import play_games

    a, b, games = inputs["a"], inputs["b"], inputs["games"]
    result = play_games(
        inputs.rules,
        a,
        b,
        games,
        inputs.seed,
        keep_rows=inputs.keep_rows,
        progress=progress,
        scheduler=scheduler,
    )
    summary = {
        "games": result.games,
        **_run_summary(inputs, a, b),
        "game_win_rate_a": result.game_win_rate_a.as_dict(),
        "margin_a": result.margin_a.as_dict(),
        "hands_per_game": result.hands_per_game.as_dict(),
        "shutout_rate": result.shutout_rate,
        "unfinished": result.unfinished,
        "elapsed_s": result.elapsed_s,
    }
    rows = [
        ("games won by A", estimate_text(result.game_win_rate_a, 1, percent=True)),
        ("final margin of A", f"{estimate_text(result.margin_a, 1, sign=True)} points"),
        ("hands per game", estimate_text(result.hands_per_game, 2)),
        ("shutout rate", f"{result.shutout_rate:.2%}"),
        ("time", f"{result.elapsed_s:.1f} s"),
    ]
    won = estimate_text(result.game_win_rate_a, 1, percent=True)
    return Answer(
        inputs.title(
            "Games",
            players=players_text(a, b),
            size=f"{result.games:,} games (first dealer swapped)",
        ),
        result.to_frame(),
        label_lines(rows),
        edge_verdict(a, b, result.game_win_rate_a, f"A wins {won} of the games", 0.5),
        None,
        raw=summary,
        result=result,
        rows=result.rows,
        stopped={**summary, "requested_games": games} if result.interrupted else None,
    )


def _multiplayer(inputs: Inputs, progress: Progress | None) -> Answer:
    from ..gin.play.multiplayer import multiplayer_summary, play_multiplayer_games

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
            f"hands per game: {frame['hands'].mean():.2f}   "
            f"shutout rate: {frame['shutout'].mean():.2%}"
        ),
    ]
    return Answer(
        title_text(
            f"Games of {players} players ({seating})",
            rules=inputs.preset,
            size=f"{games:,} games",
            seed=inputs.seed,
        ),
        summary,
        body,
        _most_wins_verdict(frame, summary["win_rate"], table, games_won),
        None,
        result=_SeatGames(frame),
        rows=frame,
    )


class _SeatGames:
    """What a game of three or four players reads through: its games."""

    def __init__(self, rows: pd.DataFrame) -> None:
        self.rows = rows
        """Every game: each side's final total, the winner, hands, shutout."""


def _most_wins_verdict(
    frame: pd.DataFrame, rates: pd.Series, table: pd.DataFrame, games_won: list[str]
) -> str:
    """Who wins the most games (``rates``: each side's share), when its lead over the
    runner-up has a 95% CI above 0; else that it is too close to call between them."""
    from ..gin.play.multiplayer import lead_over

    leader, second = (
        int(side) for side in rates.sort_values(ascending=False, kind="stable").index[:2]
    )
    lead = lead_over(frame, leader, second)
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
        *legacy(_games),
        unit="game",
        rows="games",
        function="play_games",
        notebook=(
            "With two players the games' fields read through (``.game_win_rate_a``...); "
            "``.rows`` holds every game with ``keep_rows``; with three or four the table is "
            "each side's share of the games won."
        ),
    )
)
