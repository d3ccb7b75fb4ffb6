"""Survey commands: the tournament of policy presets, the rules presets compared
(variants), and dealt hands (the knock studies are made from their declarations in
:mod:`analyzer.cli.study_commands`)."""

from __future__ import annotations

from typing import Any

import click
import pandas as pd

from ..core.limits import MAX_LISTED_PLAYERS, MAX_RAW_UNITS, MIN_VARIANT_DEALS
from ..core.stats import half_width_of_se
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import VARIANT_PRESETS
from ..report.text import interval_text, plus_minus, rules_text, table_lines, title_text
from .inputs import (
    UNITS,
    fail,
    get_players,
    get_policy,
    get_rules,
    rules_options,
)
from .output import chance_text, output_options, save_chart, show_result
from .progress import progress_bar
from .run_control import (
    run_options,
    set_jobs,
    study_options,
)

#: The report's tournament field (``analyzer.gin.studies.sweeps.default_field``), written out so
#: that ``--help`` does not import the kernels.
DEFAULT_FIELD = "simple,basic,safe-discard,lookahead,gin-hunter,passive,marjj,expert-v3,expert"


@click.command("tournament")
@rules_options
@click.option(
    "--policies",
    default=DEFAULT_FIELD,
    show_default=True,
    help="Comma-separated policy presets in the round robin, each once, at most "
    f"{MAX_LISTED_PLAYERS} (a search player takes its options after it: "
    "search,budget=32,basic).",
)
@click.option(
    "--deals",
    type=UNITS,
    default=10_000,
    show_default=True,
    help="Deals per pairing (each twice, seats swapped).",
)
@click.option(
    "--games", type=UNITS, default=1_000, show_default=True, help="Game pairs per pairing."
)
@study_options
def tournament_command(
    preset: str,
    overrides: tuple[str, ...],
    policies: str,
    deals: int,
    games: int,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Round robin of policy presets: points per hand and game-win rates.

    \b
    Example:
      analyzer tournament --policies basic,simple,lookahead --deals 20000
    """
    from ..gin.studies import sweeps as studies
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    field = get_players(policies, "--policies")
    if len(field) < 2:
        fail("--policies needs at least two presets")
    set_jobs(jobs)
    with progress_bar(None, "deal", no_progress) as update:
        results = studies.tournament(
            rules, field, deals, games, seed, progress=update, scheduler=scheduler
        )
    standings = studies.ranking(results)
    order = list(standings["policy"])

    def draw(axes: Any) -> None:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0, "points per hand", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5, "game-win rate", ".2f")

    save_chart(
        out,
        "tournament",
        results,
        draw,
        (14, 5.5),
        ncols=2,
        title="Round robin of policies: row against column",
        caption=f"Rules {preset}, seats swapped on common deals: {deals:,} deals and "
        f"{games:,} game pairs per pairing (seed {seed}); each cell: estimate "
        "and ± 95% CI half-width.",
    )
    first, second = order[:2]
    duel = results[(results["a"] == first) & (results["b"] == second)].iloc[0]
    duel_points = interval_text(duel["points"], duel["points_low"], duel["points_high"], sign=True)
    duel_games = interval_text(
        duel["game_win"], duel["game_win_low"], duel["game_win_high"], 1, percent=True
    )
    body = [
        *table_lines(
            pd.DataFrame(
                {
                    "rank": range(1, len(standings) + 1),
                    "policy": standings["policy"],
                    "points/hand": [
                        plus_minus(m, h, sign=True)
                        for m, h in zip(standings["points"], standings["points_half"], strict=True)
                    ],
                    "games won": [
                        plus_minus(m, h, 1, percent=True)
                        for m, h in zip(
                            standings["game_win"], standings["game_win_half"], strict=True
                        )
                    ],
                }
            )
        ),
        "",
        (
            f"Head to head, {first} against {second}: {duel_points} points per hand, "
            f"{duel_games} of games won."
        ),
    ]
    show_result(
        fmt,
        title_text(
            "Round robin ranking",
            rules=rules_text(preset, overrides),
            players=f"{len(field)} policies, each against every other",
            size=f"{deals:,} deals and {games:,} game pairs per pairing",
            seed=seed,
        ),
        body,
        f"{first} ranks first with {plus_minus(*standings.iloc[0][['points', 'points_half']], sign=True)} "
        f"points per hand against the field; against {second}, the runner-up, it scores "
        f"{duel_points}.",
        raw=results,
        notes=[
            (
                "points/hand and games won: the mean over the policy's opponents; its ± h is the "
                "mean of their half-widths (a safe bound: every pairing plays the same deals)."
            )
        ],
    )


@click.command("variants")
@click.option(
    "--presets",
    default=",".join(VARIANT_PRESETS),
    show_default=True,
    help="Comma-separated rules presets to compare.",
)
@click.option(
    "--baseline",
    default="basic",
    show_default=True,
    help="Policy for self-play statistics and the knock-threshold search.",
)
@click.option(
    "--a",
    "policy_a",
    default="gin-hunter",
    show_default=True,
    help="The stronger policy of the skill measure.",
)
@click.option(
    "--b",
    "policy_b",
    default="basic",
    show_default=True,
    help="The weaker policy of the skill measure.",
)
@click.option(
    "--deals",
    type=click.IntRange(MIN_VARIANT_DEALS, MAX_RAW_UNITS),
    default=10_000,
    show_default=True,
    help="Deals per preset (each twice, seats swapped); the self-play hands are kept in memory.",
)
@click.option(
    "--games", type=UNITS, default=1_000, show_default=True, help="Game pairs per preset."
)
@study_options
def variants_command(
    presets: str,
    baseline: str,
    policy_a: str,
    policy_b: str,
    deals: int,
    games: int,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Compare rules presets: hand size, game length, skill share, best threshold.

    \b
    Example:
      analyzer variants --presets standard,classic,oklahoma --deals 20000
    """
    from ..gin.studies import sweeps as studies
    from ..report import figures as charts

    names = [n.strip() for n in presets.split(",") if n.strip()]
    if not names:
        fail(f"--presets is empty; choose from {', '.join(RULE_PRESETS)}")
    if len(set(names)) < len(names):
        fail("--presets names a preset twice")
    unknown = [n for n in names if n not in RULE_PRESETS]
    if unknown:
        fail(f"unknown rules preset {unknown[0]!r}; choose from {', '.join(RULE_PRESETS)}")
    set_jobs(jobs)
    with progress_bar(None, "deal", no_progress) as update:
        table = studies.variants(
            names,
            get_policy(baseline),
            get_policy(policy_a),
            get_policy(policy_b),
            deals,
            games,
            seed,
            progress=update,
            scheduler=scheduler,
        )

    def draw(axes: Any) -> None:
        charts.variant_bars(table, "hand_points", axes[0], "points per hand", "points")
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game", "hands")
        charts.variant_bars(
            table,
            "strong_game_win",
            axes[2],
            f"games won by {policy_a} against {policy_b}",
            "share of games",
            interval=True,
        )

    save_chart(
        out,
        "variants",
        table,
        draw,
        (14, 4.5),
        ncols=3,
        sharey=True,
        title="Rules presets compared",
        caption=f"{baseline} self-play and {policy_a} against {policy_b}: {deals:,} "
        f"deals and {games:,} game pairs per preset; bars: 95% CI; seed "
        f"{seed}.",
    )
    body = pd.DataFrame(
        {
            "rules": table["rules"],
            "points/hand": [f"{v:.1f}" for v in table["hand_points"]],
            "first player edge": [
                interval_text(m, lo, hi, sign=True)
                for m, lo, hi in zip(
                    table["first_edge"],
                    table["first_edge_low"],
                    table["first_edge_high"],
                    strict=True,
                )
            ],
            "hands/game": [f"{v:.1f}" for v in table["hands_per_game"]],
            "shutouts": [f"{v:.1%}" for v in table["shutout_rate"]],
            f"{policy_a} wins": [
                interval_text(m, lo, hi, 1, percent=True)
                for m, lo, hi in zip(
                    table["strong_game_win"],
                    table["strong_game_win_low"],
                    table["strong_game_win_high"],
                    strict=True,
                )
            ],
            "best t": [
                "-" if t.startswith("n/a") else t for t in table["best_threshold"].astype(str)
            ],
        }
    )
    skill = table.loc[table["strong_game_win"].idxmax()]
    show_result(
        fmt,
        title_text(
            "Rules presets compared",
            players=f"{baseline} self-play; skill: {policy_a} against {policy_b}",
            size=f"{deals:,} deals and {games:,} game pairs per preset",
            seed=seed,
        ),
        body,
        f"Skill counts most under {skill['rules']} rules: {policy_a} wins "
        + interval_text(
            skill["strong_game_win"],
            skill["strong_game_win_low"],
            skill["strong_game_win_high"],
            1,
            percent=True,
        )
        + f" of its games against {policy_b}.",
        raw=table,
        notes=[
            (
                f"points/hand: points a hand scores in {baseline} self-play; first player edge: "
                f"points per hand to the non-dealer; {policy_a} wins: its share of games "
                f"against {policy_b}; best t: the knock threshold scoring most against "
                f"{baseline} (-: no knocking in these rules)."
            )
        ],
    )


@click.command("dealt")
@click.option(
    "--deals", type=UNITS, default=1_000_000, show_default=True, help="Random hands of each size."
)
@run_options
@output_options
def dealt_command(
    deals: int, seed: int, jobs: int | None, no_progress: bool, out: str | None, fmt: str
) -> None:
    """Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k.

    \b
    Example:
      analyzer dealt --deals 5000000
    """
    from ..gin.studies import sweeps as studies
    from ..report import figures as charts

    set_jobs(jobs)
    with progress_bar(None, "hand", no_progress) as update:
        distribution = studies.dealt_hands(deals, seed, progress=update)
    save_chart(
        out,
        "dealt",
        distribution,
        lambda ax: charts.dealt_histogram(distribution, ax),
        (9, 4.2),
        title="Deadwood of a dealt hand",
        caption=f"{deals:,} Monte Carlo hands of each size (seed {seed}); shaded: "
        "deadwood <= 10, where a standard-rules knock is allowed. Log scale.",
    )
    eligibility = studies.knock_eligibility(distribution)
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
    show_result(
        fmt,
        title_text(
            "P(dealt deadwood <= limit); limit 0 is gin",
            size=f"{deals:,} random hands of each size",
            seed=seed,
        ),
        body,
        f"A dealt 10-card hand is gin {chance_text(gin['probability'])} "
        f"({gin['probability']:.2e} ± {half_width_of_se(gin['se']):.1e}); "
        "analyzer exact gives the exact figures.",
        raw=eligibility,
    )
