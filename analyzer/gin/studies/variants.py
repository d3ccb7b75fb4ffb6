"""One match-up under every rules preset (:func:`variants`): how much the rule book
changes the game, how much skill decides it, and whether the best knock threshold
moves."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...core.progress import Progress, advance, scaled, tell_total
from ...core.stats import Estimate
from ..model.policies import Policy
from ..model.rules import PRESETS as RULE_PRESETS
from .compare import Arm, compare_games, compare_hands, knock_arms

#: The knock thresholds each preset's sweep tries; the last, 10, is the reference
#: (knock as soon as the rules allow).
SWEEP_THRESHOLDS = (0, 2, 4, 6, 8, 10)


def variants(
    presets: Sequence[str],
    a: Policy,
    b: Policy,
    deals: int,
    games: int,
    seed: int,
    thresholds: Sequence[int] = SWEEP_THRESHOLDS,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """One row per rules preset, every figure from ``a`` against ``b``, seats swapped.

    Per hand (``deals`` deals): ``hand_points`` (mean, with CI, and ``hand_points_sd``
    of the points a hand scores), ``a_points`` (``a``'s points per hand) and
    ``first_edge`` (points per hand to the non-dealer).  Per game (``games`` pairs, all
    presets on common games): ``game_win`` (``a``'s share of games), ``game_win_diff``
    (that share minus under the first preset, paired game by game), ``hands_per_game``
    and ``shutout_rate``.  ``best_threshold``: the threshold of ``thresholds`` (which
    must hold 10) at which ``a`` scores most per hand against ``b`` (``deals // 2`` deals,
    every threshold on common deals), and ``best_gain``: its paired gain over knocking
    at 10 (NaN under rules without knocking).  Every ``_low``/``_high`` is a 95% CI
    bound.  ``progress`` counts deals, arm-game-pairs and arm-deals of the sweeps.
    """
    from ..play.simulate import simulate

    sweep_deals = max(1, deals // 2)
    reference = list(thresholds).index(10)
    tell_total(progress, len(presets) * (deals + games + sweep_deals * len(thresholds)))
    arms = [Arm(name, RULE_PRESETS[name], a, b) for name in presets]
    game_table = compare_games(
        arms, games, seed, progress=scaled(progress, len(arms)), scheduler=scheduler
    )
    rows = []
    for arm, (_, played) in zip(arms, game_table.iterrows(), strict=True):
        hands = simulate(arm.rules, a, b, deals, seed, keep_rows=True, progress=progress)
        if hands.interrupted:  # a study stops on Ctrl-C; only simulate reports partials
            raise KeyboardInterrupt
        assert hands.rows is not None  # keep_rows
        per_deal = hands.rows.groupby("deal")["points"].mean().to_numpy(dtype=np.float64)
        hand_points = Estimate.from_sums(per_deal.sum(), np.square(per_deal).sum(), len(per_deal))
        best, gain = np.nan, (np.nan, np.nan, np.nan)
        if arm.rules.straight:
            advance(progress, sweep_deals * len(thresholds))
        else:
            sweep = compare_hands(
                knock_arms(arm.rules, a, b, thresholds),
                sweep_deals,
                seed,
                reference=reference,
                progress=scaled(progress, len(thresholds)),
                scheduler=scheduler,
            )
            top = sweep.loc[sweep["points_mean"].idxmax()]
            best = float(thresholds[int(sweep["points_mean"].idxmax())])
            gain = (top["diff_mean"], top["diff_low"], top["diff_high"])
        rows.append(
            {
                "rules": arm.label,
                **_columns("hand_points", hand_points.as_tuple()),
                "hand_points_sd": float(hands.rows["points"].std()),
                **_columns("a_points", hands.points_a.as_tuple()),
                **_columns("first_edge", hands.first_player_points.as_tuple()),
                **{
                    f"{name}{end}": played[f"{stem}{end}"]
                    for name, stem in (
                        ("game_win", "game_win"),
                        ("game_win_diff", "diff"),
                        ("hands_per_game", "hands"),
                    )
                    for end in ("_mean", "_low", "_high")
                },
                "shutout_rate": played["shutout_mean"],
                "best_threshold": best,
                **_columns("best_gain", gain),
            }
        )
    return pd.DataFrame(rows).rename(columns=lambda name: name.removesuffix("_mean"))


def _columns(name: str, interval: tuple[float, float, float]) -> dict[str, float]:
    """``name``, ``name_low`` and ``name_high`` of an estimate and its 95% CI."""
    mean, low, high = interval
    return {name: float(mean), f"{name}_low": float(low), f"{name}_high": float(high)}
