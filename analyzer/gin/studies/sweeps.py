"""Strategy studies: each returns tidy pandas tables with 95% confidence intervals.

* :func:`dealt_hands` - distribution of dealt deadwood (10 cards; best 10 of 11).
* :func:`knock_sweep` - knock at deadwood <= t, t = 0..10, against several opponents,
  per hand and per game.
* :func:`knock_chart` - "knock now or play on?" by own turn and deadwood.
* :func:`tournament` - round robin of policies, seats swapped on common deals.
* :func:`variants` - the same policies under every rules preset.

Every comparison inside a study runs its arms on the same deals of the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from ...core.chunks import ChunkPlan, fold_to_end
from ...core.progress import Progress, advance, scaled, tell_total
from ...core.significance import benjamini_hochberg, normal_p_value
from ...core.stats import Z95, Estimate, sample_variance
from ..evaluator.dealt import dealt_deadwood_distribution
from ..model.policies import PRESETS as POLICY_PRESETS
from ..model.policies import TOURNAMENT_FIELD, Policy, format_policy, policy_name
from ..model.rules import PRESETS as RULE_PRESETS
from ..model.rules import Rules
from ..play.players import Player
from .branching import MAX_POINTS, MAX_TURN, N_SUMS, knock_chart_sums
from .compare import Arm, compare_games, compare_hands, knock_arms

# ---------------------------------------------------------------------- dealt hands


def dealt_hands(deals: int, seed: int, progress: Progress | None = None) -> pd.DataFrame:
    """Monte Carlo distribution of dealt deadwood: one row per (hand size, deadwood).

    Columns: ``cards`` (10, or 11 = the best 10 of 11 after the best discard),
    ``deadwood`` (points), ``count``, ``probability``, ``cumulative`` (P(deadwood <= d))
    and ``se`` (binomial standard error of ``cumulative``).  ``progress`` counts hands
    (``2 * n_deals`` in all).
    """
    frames = []
    tell_total(progress, 2 * deals)
    for cards in (10, 11):
        counts = dealt_deadwood_distribution(deals, cards, seed)
        advance(progress, deals)
        probability = counts / counts.sum()
        cumulative = np.cumsum(probability)
        frames.append(
            pd.DataFrame(
                {
                    "cards": cards,
                    "deadwood": np.arange(len(counts)),
                    "count": counts,
                    "probability": probability,
                    "cumulative": cumulative,
                    "se": np.sqrt(np.clip(cumulative * (1 - cumulative), 0, None) / counts.sum()),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def knock_eligibility(distribution: pd.DataFrame) -> pd.DataFrame:
    """P(gin) and P(deadwood <= k) for knock limits k = 1..10, by hand size."""
    rows = []
    for cards, group in distribution.groupby("cards"):
        cumulative = group.set_index("deadwood")["cumulative"]
        se = group.set_index("deadwood")["se"]
        for limit in range(11):
            rows.append(
                {
                    "cards": cards,
                    "limit": limit,
                    "probability": float(cumulative.get(limit, 0.0)),
                    "se": float(se.get(limit, 0.0)),
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------- knock sweep


#: Label of the knock sweep's arm against A's own twin: a determinism check (a policy
#: against itself with seats swapped on common deals is exactly even), not a strategy
#: answer.
SELF_PLAY_CHECK = "same threshold (determinism check)"


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


# ---------------------------------------------------------------------- knock chart


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
    plan = ChunkPlan(knock_chart_sums, deals, chunk, common)
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
) -> npt.NDArray[np.float64]:
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


# ----------------------------------------------------------------------- tournament


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


# ------------------------------------------------------------------------- variants


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
