"""Study commands: knock sweep, knock chart, knock schedule, tournament, variants, dealt."""

from __future__ import annotations

from typing import Any

import click

from ..gin.rules import PRESETS as RULE_PRESETS
from ..gin.rules import VARIANT_PRESETS
from .options import (
    emit,
    fail,
    get_player,
    get_policy,
    get_rules,
    output_options,
    policy_options,
    progress_bar,
    rules_options,
    run_options,
    save_chart,
    set_jobs,
    split_player_list,
    study_options,
)


@click.command("knock-sweep")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=20_000, show_default=True,
              help="Deals per threshold (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=2_000, show_default=True,
              help="Game pairs per threshold.")
@study_options
def knock_sweep_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                        deals: int, games: int, seed: int, jobs: int | None, as_json: bool,
                        no_progress: bool, out: str | None, fmt: str,
                        scheduler: str | None) -> None:
    """Knock at deadwood <= t for t = 0..10: points per hand and games won.

    A is --a with its knock threshold set to t; the opponent is --b, or A's twin with
    --b same.

    \b
    Example:
      analyzer knock-sweep --a basic --b gin-hunter --deals 50000 --out sweep/
    """
    from ..gin import studies
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    subject = get_policy(policy_a)
    opponent = None if policy_b == "same" else get_policy(policy_b)
    set_jobs(jobs)
    with progress_bar(11 * (deals + games), "deal", no_progress) as update:
        sweep = studies.knock_sweep(rules, subject, {policy_b: opponent}, deals, games, seed,
                                    progress=update, scheduler=scheduler)
    save_chart(out, "knock_sweep", sweep, lambda axes: charts.knock_sweep_panels(sweep, axes),
               (14, 4.2), ncols=3)
    emit(sweep, "json" if as_json else fmt,
         ["threshold", "points_mean", "diff_mean", "diff_low", "diff_high", "win_mean",
          "undercut_mean", "gin_mean", "turns_mean", "game_win_mean", "game_win_low",
          "game_win_high"])


@click.command("knock-chart")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=100_000, show_default=True,
              help="Deals whose knock decisions are branched (each twice, seats swapped).")
@click.option("--min-samples", type=click.IntRange(1), default=300, show_default=True,
              help="Cells with fewer states are greyed out.")
@click.option("--equity-deals", type=click.IntRange(0), default=0, show_default=True,
              help="Also value each hand as the chance of winning a game from 0:0, by an "
                   "equity table from this many deals (0: points only).")
@study_options
def knock_chart_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                        deals: int, min_samples: int, equity_deals: int, seed: int,
                        jobs: int | None,
                        as_json: bool, no_progress: bool, out: str | None, fmt: str,
                        scheduler: str | None) -> None:
    """Knock now or play on? Mean points difference by own turn and deadwood.

    \b
    Example:
      analyzer knock-chart --deals 200000 --out chart/
    """
    from ..gin import studies
    from ..gin.branching import MAX_TURN
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    set_jobs(jobs)
    with progress_bar(deals, "deal", no_progress) as update:
        try:
            chart = studies.knock_chart(rules, get_policy(policy_a), get_policy(policy_b),
                                        deals, seed, min_samples, progress=update,
                                        scheduler=scheduler, equity_deals=equity_deals)
        except ValueError as error:
            fail(str(error))
    save_chart(out, "knock_chart", chart,
               lambda ax: charts.knock_chart_heatmap(chart, ax, MAX_TURN), (12, 5))
    emit(chart, "json" if as_json else fmt)


@click.command("knock-schedule")
@rules_options
@policy_options
@click.option("--objective", type=click.Choice(["points", "games"]), default="points",
              show_default=True, help="Maximise points per hand, or the game-win rate.")
@click.option("--deals", type=click.IntRange(1), default=5_000, show_default=True,
              help="Deals (points) or game pairs (games) per evaluation.")
@click.option("--rounds", type=click.IntRange(1, 10), default=2, show_default=True,
              help="Rounds of alternating best responses.")
@study_options
def knock_schedule_command(preset: str, overrides: tuple[str, ...], policy_a: str,
                           policy_b: str, objective: str, deals: int, rounds: int, seed: int,
                           jobs: int | None, as_json: bool, no_progress: bool, out: str | None,
                           fmt: str, scheduler: str | None) -> None:
    """Best turn-dependent knock schedule, then alternating best responses.

    A (--a with its schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds to
    --b, then B (the same base policy) to A, and so on.

    \b
    Example:
      analyzer knock-schedule --objective games --deals 2000 --rounds 1
    """
    from ..gin import studies
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    base = get_policy(policy_a)
    set_jobs(jobs)
    search = studies.best_schedule(rules, base, get_policy(policy_b), deals, seed, rounds,
                                   objective, scheduler=scheduler)
    save_chart(out, "knock_schedule", search.steps,
               lambda ax: charts.schedules_chart({"A": search.final_a, "B": search.final_b},
                                                 studies.SCHEDULE_BINS, ax), (8, 3.8))
    if out is not None:
        from pathlib import Path

        search.gaps.to_csv(Path(out) / "knock_schedule_gaps.csv", index=False)
    emit(search.steps, "json" if as_json else fmt)
    if fmt == "table" and not as_json:
        click.echo("")
        emit(search.gaps, fmt)


@click.command("tournament")
@rules_options
@click.option("--policies", default="simple,basic,safe-discard,lookahead,gin-hunter,passive",
              show_default=True, help="Comma-separated policy presets in the round robin (a search player "
                   "takes its options after it: search,budget=32,basic).")
@click.option("--deals", type=click.IntRange(1), default=10_000, show_default=True,
              help="Deals per pairing (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=1_000, show_default=True,
              help="Game pairs per pairing.")
@study_options
def tournament_command(preset: str, overrides: tuple[str, ...], policies: str, deals: int,
                       games: int, seed: int, jobs: int | None, as_json: bool,
                       no_progress: bool, out: str | None, fmt: str,
                       scheduler: str | None) -> None:
    """Round robin of policy presets: points per hand and game-win rates.

    \b
    Example:
      analyzer tournament --policies basic,simple,lookahead --deals 20000
    """
    from ..gin import studies
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    names = split_player_list(policies)
    if len(names) < 2:
        fail("--policies needs at least two presets")
    field = {name: get_player(name) for name in names}
    set_jobs(jobs)
    pairs = len(names) * (len(names) - 1) // 2
    with progress_bar(pairs * (deals + games), "deal", no_progress) as update:
        results = studies.tournament(rules, field, deals, games, seed, progress=update,
                                     scheduler=scheduler)
    order = list(studies.ranking(results)["policy"])

    def draw(axes: Any) -> None:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0, "points per hand", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5, "game-win rate", ".2f")

    save_chart(out, "tournament", results, draw, (14, 5.5), ncols=2)
    emit(results, "json" if as_json else fmt)


@click.command("variants")
@click.option("--presets", default=",".join(VARIANT_PRESETS), show_default=True,
              help="Comma-separated rules presets to compare.")
@click.option("--baseline", default="basic", show_default=True,
              help="Policy for self-play statistics and the knock-threshold search.")
@click.option("--a", "policy_a", default="gin-hunter", show_default=True,
              help="The stronger policy of the skill measure.")
@click.option("--b", "policy_b", default="basic", show_default=True,
              help="The weaker policy of the skill measure.")
@click.option("--deals", type=click.IntRange(2), default=10_000, show_default=True,
              help="Deals per preset (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=1_000, show_default=True,
              help="Game pairs per preset.")
@study_options
def variants_command(presets: str, baseline: str, policy_a: str, policy_b: str, deals: int,
                     games: int, seed: int, jobs: int | None, as_json: bool, no_progress: bool,
                     out: str | None, fmt: str, scheduler: str | None) -> None:
    """Compare rules presets: hand size, game length, skill share, best threshold.

    \b
    Example:
      analyzer variants --presets standard,classic,oklahoma --deals 20000
    """
    from ..gin import studies
    from ..report import figures as charts

    names = [n.strip() for n in presets.split(",") if n.strip()]
    unknown = [n for n in names if n not in RULE_PRESETS]
    if unknown:
        fail(f"unknown rules preset {unknown[0]!r}; choose from {', '.join(RULE_PRESETS)}")
    set_jobs(jobs)
    with progress_bar(len(names) * (2 * deals + 2 * games), "deal", no_progress) as update:
        table = studies.variants(names, get_policy(baseline), get_policy(policy_a),
                                 get_policy(policy_b), deals, games, seed, progress=update,
                                 scheduler=scheduler)

    def draw(axes: Any) -> None:
        charts.variant_bars(table, "hand_points", axes[0], "points per hand")
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game")
        charts.variant_bars(table, "strong_game_win", axes[2], "games won by --a vs --b",
                            interval=True)

    save_chart(out, "variants", table, draw, (14, 4.5), ncols=3)
    emit(table, "json" if as_json else fmt)


@click.command("dealt")
@click.option("--deals", type=click.IntRange(1), default=1_000_000, show_default=True,
              help="Random hands of each size.")
@run_options
@output_options
def dealt_command(deals: int, seed: int, jobs: int | None, as_json: bool, no_progress: bool,
                  out: str | None, fmt: str) -> None:
    """Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k.

    \b
    Example:
      analyzer dealt --deals 5000000
    """
    from ..gin import studies
    from ..report import figures as charts

    set_jobs(jobs)
    distribution = studies.dealt_hands(deals, seed)
    save_chart(out, "dealt", distribution,
               lambda ax: charts.dealt_histogram(distribution, ax), (9, 4))
    emit(studies.knock_eligibility(distribution), "json" if as_json else fmt)
