"""A round robin of policies, seats swapped on common deals (:func:`tournament`), and
its standings (:func:`ranking`)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...core.progress import Progress, tell_total
from ..model.policies import PRESETS as POLICY_PRESETS
from ..model.policies import TOURNAMENT_FIELD
from ..model.rules import Rules
from ..play.players import Player
from .compare import Arm, compare_games, compare_hands


def default_field() -> dict[str, Player]:
    """The tournament field (:data:`~analyzer.gin.model.policies.TOURNAMENT_FIELD`) by name."""
    return {name: POLICY_PRESETS[name] for name in TOURNAMENT_FIELD}


def tournament(
    rules: Rules,
    field: Mapping[str, Player],
    deals: int,
    games: int,
    seed: int,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Round robin: one row per ordered pair (a, b), a != b, with a's points per hand
    and game-win rate against b (95% CIs), seats swapped on common deals and games.
    A player may be the search player (:class:`analyzer.gin.play.players.SearchPolicy`);
    ``progress`` counts deals and game pairs."""
    names = list(field)
    rows = []
    tell_total(progress, len(names) * (len(names) - 1) // 2 * (deals + games))
    for i, name_a in enumerate(names):
        for name_b in names[i + 1 :]:
            arm = [Arm(f"{name_a} v {name_b}", rules, field[name_a], field[name_b])]
            hands = compare_hands(arm, deals, seed, progress=progress, scheduler=scheduler)
            game_table = compare_games(arm, games, seed, progress=progress, scheduler=scheduler)
            h, g = hands.iloc[0], game_table.iloc[0]
            for a, b, sign in ((name_a, name_b, 1.0), (name_b, name_a, -1.0)):
                points = sorted((sign * h["points_low"], sign * h["points_high"]))
                win = g["game_win_mean"] if sign > 0 else 1 - g["game_win_mean"]
                half = (g["game_win_high"] - g["game_win_low"]) / 2
                rows.append(
                    {
                        "a": a,
                        "b": b,
                        "points": sign * h["points_mean"],
                        "points_low": points[0],
                        "points_high": points[1],
                        "game_win": win,
                        "game_win_low": win - half,
                        "game_win_high": win + half,
                        "deals": int(h["n"]),
                        "games": int(g["n"]),
                    }
                )
    return pd.DataFrame(rows)


def ranking(results: pd.DataFrame) -> pd.DataFrame:
    """Policies ranked by mean points per hand against the rest of the field (each
    opponent weighted equally), with the game-win rate likewise.

    ``points_half`` and ``game_win_half`` bound the 95% CI half-width of those means: the
    mean of the pairings' half-widths, which holds however the pairings' estimates are
    correlated (they share deals), since the standard deviation of a sum is at most the
    sum of the standard deviations."""
    halves = results.assign(
        points_half=(results["points_high"] - results["points_low"]) / 2,
        game_win_half=(results["game_win_high"] - results["game_win_low"]) / 2,
    )
    table = halves.groupby("a").agg(
        points=("points", "mean"),
        points_half=("points_half", "mean"),
        game_win=("game_win", "mean"),
        game_win_half=("game_win_half", "mean"),
    )
    return (
        table.sort_values("points", ascending=False).reset_index().rename(columns={"a": "policy"})
    )
