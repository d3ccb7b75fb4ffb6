"""The same policies under every rules preset (:func:`variants`): how much the scoring
variant changes the game."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...core.progress import Progress, advance, scaled, tell_total
from ..model.policies import Policy, format_policy, policy_name
from ..model.rules import PRESETS as RULE_PRESETS
from .compare import Arm, compare_games, compare_hands, knock_arms


def variants(
    presets: Sequence[str],
    baseline: Policy,
    strong: Policy,
    weak: Policy,
    deals: int,
    games: int,
    seed: int,
    thresholds: Sequence[int] = (0, 2, 4, 6, 8, 10),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """One row per rules preset.

    Columns: ``hand_points`` (mean and SD of the points a hand scores in ``baseline``
    self-play), ``first_edge`` (points per hand to the non-dealer, with CI),
    ``hands_per_game`` and ``shutout_rate`` (``baseline`` self-play games),
    ``strong_game_win`` (share of games ``strong`` wins against ``weak``, with CI: how
    much the variant rewards skill), ``best_threshold`` (the knock threshold among
    ``thresholds`` with the most points per hand against ``baseline``).
    ``progress`` counts deals, game pairs and arm-deals of the threshold search.
    """
    from ..play.simulate import simulate

    rows = []
    sweep_work = (deals // 2) * len(thresholds)
    tell_total(progress, len(presets) * (deals + 2 * games + sweep_work))
    for name in presets:
        rules = RULE_PRESETS[name]
        self_play = simulate(
            rules, baseline, baseline, deals, seed, keep_rows=True, progress=progress
        )
        if self_play.interrupted:  # a study stops on Ctrl-C; only simulate reports partials
            raise KeyboardInterrupt
        assert self_play.rows is not None  # keep_rows
        hand_points = self_play.rows["points"]
        skill = compare_games(
            [Arm(name, rules, strong, weak)], games, seed, progress=progress, scheduler=scheduler
        ).iloc[0]
        game_table = compare_games(
            [Arm(name, rules, baseline, baseline)],
            games,
            seed,
            progress=progress,
            scheduler=scheduler,
        ).iloc[0]
        if rules.straight:
            best = "n/a (no knocking)"
            advance(progress, sweep_work)
        else:
            sweep = compare_hands(
                knock_arms(rules, baseline, baseline, thresholds),
                deals // 2,
                seed,
                reference=len(thresholds) - 1,
                progress=scaled(progress, len(thresholds)),
                scheduler=scheduler,
            )
            best = str(thresholds[int(sweep["points_mean"].idxmax())])
        rows.append(
            {
                "rules": name,
                "hand_points": float(hand_points.mean()),
                "hand_points_sd": float(hand_points.std()),
                "first_edge": self_play.first_player_points.mean,
                "first_edge_low": self_play.first_player_points.low,
                "first_edge_high": self_play.first_player_points.high,
                "hands_per_game": game_table["hands_mean"],
                "shutout_rate": game_table["shutout_mean"],
                "strong_game_win": skill["game_win_mean"],
                "strong_game_win_low": skill["game_win_low"],
                "strong_game_win_high": skill["game_win_high"],
                "best_threshold": best,
            }
        )
    return pd.DataFrame(rows)


def describe_policy(policy: Policy) -> str:
    """Preset name and string form, for report captions."""
    name = policy_name(policy)
    text = format_policy(policy)
    return name if name == text else f"{name} ({text})"
