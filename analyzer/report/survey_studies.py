"""The survey studies, declared once (:mod:`analyzer.studies.study`): the round robin of
policies, the rules presets compared, and the deadwood of dealt hands."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.limits import MAX_RAW_UNITS, MIN_VARIANT_DEALS
from ..core.progress import Progress
from ..core.stats import half_width_of_se
from ..gin.model.policies import TOURNAMENT_FIELD
from ..gin.model.rules import VARIANT_PRESETS
from ..studies.study import Inputs, Kind, Param, Study, register
from ..studies.text import (
    chance_text,
    interval_column,
    interval_text,
    plus_minus,
    table_lines,
    title_text,
)
from .legacy import Answer, Chart, legacy

# ---------------------------------------------------------------- the round robin


def _tournament(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import round_robin
    from . import figures as charts

    field, deals, games = inputs["policies"], inputs["deals"], inputs["games"]
    if len(field) < 2:
        raise ValueError("policies needs at least two policies for a round robin")
    results = round_robin.tournament(
        inputs.rules, field, deals, games, inputs.seed, progress=progress, scheduler=scheduler
    )
    standings = round_robin.ranking(results)
    order = list(standings["policy"])

    def draw(axes: Any) -> None:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0, "points per hand", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5, "game-win rate", ".2f")

    first, second = order[:2]
    duel = results[(results["a"] == first) & (results["b"] == second)].iloc[0]
    duel_points = interval_text(duel["points"], duel["points_low"], duel["points_high"], sign=True)
    duel_games = interval_text(
        duel["game_win"], duel["game_win_low"], duel["game_win_high"], 1, percent=True
    )
    standings_shown = pd.DataFrame(
        {
            "rank": range(1, len(standings) + 1),
            "policy": standings["policy"],
            "points/hand": [
                plus_minus(m, h, sign=True)
                for m, h in zip(standings["points"], standings["points_half"], strict=True)
            ],
            "games won": [
                plus_minus(m, h, 1, percent=True)
                for m, h in zip(standings["game_win"], standings["game_win_half"], strict=True)
            ],
        }
    )
    body = [
        *table_lines(standings_shown),
        "",
        (
            f"Head to head, {first} against {second}: {duel_points} points per hand, "
            f"{duel_games} of games won."
        ),
    ]
    return Answer(
        inputs.title(
            "Round robin ranking",
            players=f"{len(field)} policies, each against every other",
            size=f"{deals:,} deals and {games:,} game pairs per pairing",
        ),
        results,
        body,
        f"{first} ranks first with "
        f"{plus_minus(*standings.iloc[0][['points', 'points_half']], sign=True)} points per "
        f"hand against the field; against {second}, the runner-up, it scores {duel_points}.",
        Chart(
            "tournament",
            draw,
            (14, 5.5),
            "Round robin of policies: row against column",
            f"Rules {inputs.rules_name}, seats swapped on common deals: {deals:,} deals and "
            f"{games:,} game pairs per pairing (seed {inputs.seed}); each cell: estimate "
            "and ± 95% CI half-width.",
            panels=2,
        ),
        notes=[
            (
                "points/hand and games won: the mean over the policy's opponents; its ± h is the "
                "mean of their half-widths (a safe bound: every pairing plays the same deals)."
            )
        ],
        result=_Ranking(standings),
    )


class _Ranking:
    """What a tournament's result reads through: its ranking."""

    def __init__(self, ranking: pd.DataFrame) -> None:
        self.ranking = ranking
        """Policies by mean points per hand against the rest of the field (and mean
        game-win rate), best first."""


TOURNAMENT = register(
    Study(
        "tournament",
        "Round robin of policy presets: points per hand and game-win rates.",
        "Every player plays every other on common deals, seats swapped; the ranking is "
        "by mean points per hand against the rest of the field.",
        ("analyzer tournament --policies basic,simple,lookahead --deals 20000",),
        (
            Param(
                "policies",
                Kind.PLAYERS,
                TOURNAMENT_FIELD,
                "The players of the round robin, each once (a search player takes its "
                "options after it: search,budget=32,basic).",
            ),
            Param("deals", Kind.COUNT, 10_000, "Deals per pairing (each twice, seats swapped)."),
            Param("games", Kind.COUNT, 1_000, "Game pairs per pairing."),
        ),
        *legacy(_tournament),
        notebook="``.ranking``: the policies by mean points per hand; ``.plot()``: the two "
        "matrices, best policy first.",
    )
)

# ---------------------------------------------------------------- the rules presets compared


def _variants(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import variants
    from . import figures as charts

    deals, games = inputs["deals"], inputs["games"]
    baseline, strong, weak = (inputs.labels[name] for name in ("baseline", "a", "b"))
    table = variants.variants(
        inputs["presets"],
        inputs["baseline"],
        inputs["a"],
        inputs["b"],
        deals,
        games,
        inputs.seed,
        progress=progress,
        scheduler=scheduler,
    )

    def draw(axes: Any) -> None:
        charts.variant_bars(table, "hand_points", axes[0], "points per hand", "points")
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game", "hands")
        charts.variant_bars(
            table,
            "strong_game_win",
            axes[2],
            f"games won by {strong} against {weak}",
            "share of games",
            interval=True,
        )

    body = pd.DataFrame(
        {
            "rules": table["rules"],
            "points/hand": [f"{v:.1f}" for v in table["hand_points"]],
            "first player edge": interval_column(table, "first_edge"),
            "hands/game": [f"{v:.1f}" for v in table["hands_per_game"]],
            "shutouts": [f"{v:.1%}" for v in table["shutout_rate"]],
            f"{strong} wins": interval_column(
                table, "strong_game_win", 1, sign=False, percent=True
            ),
            "best t": [
                "-" if t.startswith("n/a") else t for t in table["best_threshold"].astype(str)
            ],
        }
    )
    skill = table.loc[table["strong_game_win"].idxmax()]
    skill_share = interval_text(
        skill["strong_game_win"],
        skill["strong_game_win_low"],
        skill["strong_game_win_high"],
        1,
        percent=True,
    )
    return Answer(
        title_text(
            "Rules presets compared",
            players=f"{baseline} self-play; skill: {strong} against {weak}",
            size=f"{deals:,} deals and {games:,} game pairs per preset",
            seed=inputs.seed,
        ),
        table,
        body,
        f"Skill counts most under {skill['rules']} rules: {strong} wins {skill_share} of its "
        f"games against {weak}.",
        Chart(
            "variants",
            draw,
            (14, 4.5),
            "Rules presets compared",
            f"{baseline} self-play and {strong} against {weak}: {deals:,} deals and "
            f"{games:,} game pairs per preset; bars: 95% CI; seed {inputs.seed}.",
            panels=3,
            sharey=True,
        ),
        notes=[
            (
                f"points/hand: points a hand scores in {baseline} self-play; first player edge: "
                f"points per hand to the non-dealer; {strong} wins: its share of games against "
                f"{weak}; best t: the knock threshold scoring most against {baseline} (-: no "
                "knocking in these rules)."
            )
        ],
    )


VARIANTS = register(
    Study(
        "variants",
        "Compare rules presets: hand size, game length, skill share, best threshold.",
        "Under each preset: the baseline's self-play (points a hand scores, the first "
        "player's edge, hands per game, shutouts, the best knock threshold against it) and "
        "the share of games the stronger policy A wins against B.",
        ("analyzer variants --presets standard,classic,oklahoma --deals 20000",),
        (
            Param("presets", Kind.PRESETS, VARIANT_PRESETS, "The rules presets compared."),
            Param(
                "baseline",
                Kind.POLICY,
                "basic",
                "Policy for self-play statistics and the knock-threshold search.",
            ),
            Param("a", Kind.POLICY, "gin-hunter", "The stronger policy of the skill measure."),
            Param("b", Kind.POLICY, "basic", "The weaker policy of the skill measure."),
            Param(
                "deals",
                Kind.COUNT,
                10_000,
                "Deals per preset (each twice, seats swapped); the self-play hands are kept "
                "in memory.",
                low=MIN_VARIANT_DEALS,
                high=MAX_RAW_UNITS,
            ),
            Param("games", Kind.COUNT, 1_000, "Game pairs per preset."),
        ),
        *legacy(_variants),
        rules=False,
        notebook="``.plot()``: the three bar panels.",
    )
)

# ---------------------------------------------------------------- dealt hands


def _dealt(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import dealing
    from . import figures as charts

    deals = inputs["deals"]
    distribution = dealing.dealt_hands(deals, inputs.seed, progress=progress)
    eligibility = dealing.knock_eligibility(distribution)
    body = pd.DataFrame(
        {
            "cards": eligibility["cards"],
            "limit": eligibility["limit"],
            "probability": [
                f"{p:.2e} ± {half_width_of_se(e):.1e}"
                for p, e in zip(eligibility["probability"], eligibility["se"], strict=True)
            ],
            "chance": [chance_text(p) for p in eligibility["probability"]],
        }
    )
    gin = eligibility[(eligibility["cards"] == 10) & (eligibility["limit"] == 0)].iloc[0]
    return Answer(
        title_text(
            "P(dealt deadwood <= limit); limit 0 is gin",
            size=f"{deals:,} random hands of each size",
            seed=inputs.seed,
        ),
        eligibility,
        body,
        f"A dealt 10-card hand is gin {chance_text(gin['probability'])} "
        f"({gin['probability']:.2e} ± {half_width_of_se(gin['se']):.1e}); "
        "analyzer exact gives the exact figures.",
        Chart(
            "dealt",
            lambda ax: charts.dealt_histogram(distribution, ax),
            (9, 4.2),
            "Deadwood of a dealt hand",
            f"{deals:,} Monte Carlo hands of each size (seed {inputs.seed}); shaded: "
            "deadwood <= 10, where a standard-rules knock is allowed. Log scale.",
        ),
        result=_Dealt(distribution),
    )


class _Dealt:
    """What a dealt study's result reads through: the whole distribution."""

    def __init__(self, distribution: pd.DataFrame) -> None:
        self.distribution = distribution
        """One row per hand size and deadwood: ``count``, ``probability``, ``cumulative``
        and its standard error ``se``."""


DEALT = register(
    Study(
        "dealt",
        "Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k.",
        "Random hands of 10 and 11 cards (11: the best 10 of them), their least deadwood "
        "counted: the chance of each knock limit, with its binomial standard error.",
        ("analyzer dealt --deals 5000000",),
        (Param("deals", Kind.COUNT, 1_000_000, "Random hands of each size."),),
        *legacy(_dealt),
        unit="hand",
        rules=False,
        scheduler=False,
        notebook="``.distribution``: every deadwood's probability; ``.plot()``: its histogram.",
    )
)


__all__ = ["DEALT", "TOURNAMENT", "VARIANTS"]
