"""When to knock, as studies with 95% confidence intervals: knock at deadwood <= t,
t = 0..10, against several opponents, per hand and per game (:func:`knock_sweep`), and
"knock now or play on?" by own turn and deadwood (:func:`knock_chart`).  Every comparison
runs its arms on the same deals of the same seed."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...core.arrays import Float64s
from ...core.chunks import ChunkPlan, fold_to_end
from ...core.progress import Progress, scaled, tell_total
from ...core.significance import benjamini_hochberg, normal_p_value
from ...core.stats import Z95, Estimate, sample_variance
from ..model.policies import PRESETS as POLICY_PRESETS
from ..model.policies import Policy
from ..model.rules import Rules
from .branching import MAX_POINTS, MAX_TURN, N_SUMS, knock_chart_sums, knock_sums_problem
from .compare import compare_games, compare_hands, knock_arms


def default_opponents() -> dict[str, Policy | None]:
    """Opponents of the report's knock sweep: knock-ASAP and a patient gin hunter (A's
    twin, ``None``, is a determinism check the tests make, not an answer)."""
    return {
        "knock-ASAP (basic)": POLICY_PRESETS["basic"],
        "gin-hunter": POLICY_PRESETS["gin-hunter"],
    }


def knock_sweep(
    rules: Rules,
    subject: Policy,
    opponents: dict[str, Policy | None],
    deals: int,
    games: int,
    seed: int,
    thresholds: Sequence[int] = range(11),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """A knocks at deadwood <= t for each t, against each opponent.

    One row per (opponent, t) with A's per-hand metrics (see
    :func:`analyzer.gin.studies.compare.compare_hands`), ``diff`` = points per hand relative to
    t = 10 (paired on common deals), and per game: ``game_win`` rate, ``game_diff``
    relative to t = 10 (paired on common games), ``hands`` per game.  ``progress``
    counts arm-deals and arm-game-pairs.
    """
    frames = []
    reference = list(thresholds).index(10) if 10 in thresholds else 0
    tell_total(progress, len(opponents) * len(thresholds) * (deals + games))
    for name, opponent in opponents.items():
        arms = knock_arms(rules, subject, opponent, thresholds)
        per_arm = scaled(progress, len(arms))
        hands = compare_hands(arms, deals, seed, reference, progress=per_arm, scheduler=scheduler)
        game_table = compare_games(
            arms, games, seed, reference, progress=per_arm, scheduler=scheduler
        )
        game_table = game_table.drop(columns=["arm", "n"]).rename(
            columns={
                c: c.replace("diff", "game_diff")
                for c in game_table.columns
                if c.startswith("diff")
            }
        )
        frame = pd.concat([hands, game_table], axis=1)
        frame.insert(0, "opponent", name)
        frame.insert(1, "threshold", list(thresholds))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def knock_chart(
    rules: Rules,
    subject: Policy,
    opponent: Policy,
    deals: int,
    seed: int,
    min_samples: int = 200,
    chunk: int = 1 << 15,
    progress: Progress | None = None,
    scheduler: str | None = None,
    equity_deals: int = 0,
) -> pd.DataFrame:
    """Mean points (to A) of knocking now minus playing on, by (own turn, deadwood).

    One row per cell with ``n`` states, ``mean``, ``low``/``high`` (95% CI), ``p_value``
    (two-sided, against no difference), ``verdict`` (``knock`` / ``play on`` when the
    cell is significant after the Benjamini-Hochberg correction at a 5% false discovery
    rate over all the chart's cells, else ``unclear``) and ``enough``
    (n >= ``min_samples``).  Turn ``MAX_TURN`` pools later turns.

    With ``equity_deals`` > 0 the hand's result is also valued as A's chance to win a game
    to the target that this hand opens (score 0:0), by an equity table estimated from that
    many deals of the same policies: columns ``win_mean``, ``win_low``, ``win_high``
    (game-win probability, knock now minus play on) and ``win_verdict``.

    ``progress`` counts deals: ``equity_deals + n_deals`` in all.
    """
    values = None
    tell_total(progress, deals + equity_deals)
    if equity_deals:
        values = game_values_after_first_hand(
            rules, subject, opponent, equity_deals, seed, progress
        )
    common = {
        "rules": rules,
        "subject": subject,
        "opponent": opponent,
        "seed": seed,
        "game_values": values,
    }
    # integer-valued point sums: adding the chunks' arrays in order is exact
    plan = ChunkPlan(knock_chart_sums, deals, chunk, common, check=knock_sums_problem)
    total = fold_to_end(plan, np.add, np.zeros((MAX_TURN + 1, 11, N_SUMS)), scheduler, progress)
    rows = []
    for turn in range(1, MAX_TURN + 1):
        for deadwood in range(1, 11):
            n, points, points_sq, win, win_sq = total[turn, deadwood]
            if n == 0:
                continue
            row: dict[str, object] = {"turn": turn, "deadwood": deadwood, "n": int(n)}
            for prefix, s, sq in (("", points, points_sq), ("win_", win, win_sq)):
                if prefix and values is None:
                    continue
                estimate = Estimate.from_mean_sd(s / n, np.sqrt(sample_variance(s, sq, n)), n)
                # one state says nothing about the spread: no interval (and p = 1 below)
                row[f"{prefix}mean"] = estimate.mean
                row[f"{prefix}low"] = estimate.low if n > 1 else np.nan
                row[f"{prefix}high"] = estimate.high if n > 1 else np.nan
                row[f"{prefix}p_value"] = normal_p_value(estimate.mean, estimate.half_width / Z95)
            row["enough"] = n >= min_samples
            rows.append(row)
    frame = pd.DataFrame(rows)
    for prefix in ("", "win_"):
        if f"{prefix}p_value" not in frame:
            continue
        significant = benjamini_hochberg(frame[f"{prefix}p_value"].to_numpy())
        frame[f"{prefix}verdict"] = np.where(
            ~significant, "unclear", np.where(frame[f"{prefix}mean"] > 0, "knock", "play on")
        )
    return frame


def game_values_after_first_hand(
    rules: Rules,
    subject: Policy,
    opponent: Policy,
    deals: int,
    seed: int,
    progress: Progress | None = None,
) -> Float64s:
    """A's chance of winning a game from 0:0 after its first hand scores ``p`` points to A
    (negative: to B), as ``values[a_dealt, MAX_POINTS + p]``, from an equity table of
    the two policies estimated on ``deals`` deals."""
    from .equity.law import hand_outcome_distribution
    from .equity.table import equity_table

    table = equity_table(
        hand_outcome_distribution(rules, subject, opponent, deals, seed, progress), rules
    )
    values = np.zeros((2, 2 * MAX_POINTS + 1))
    for a_dealt in (0, 1):
        for points in range(-MAX_POINTS, MAX_POINTS + 1):
            values[a_dealt, MAX_POINTS + points] = table.win_probability_after(
                0, 0, points, bool(a_dealt)
            )
    return values
