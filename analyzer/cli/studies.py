"""Study commands: knock sweep, knock chart, knock schedule, tournament, variants, dealt."""

from __future__ import annotations

from typing import Any

import click

from ..core.limits import MAX_RAW_UNITS, MIN_VARIANT_DEALS
from ..gin.model.policies import format_policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import VARIANT_PRESETS
from .inputs import (
    UNITS,
    UNITS_OR_NONE,
    fail,
    get_player,
    get_policy,
    get_rules,
    policy_options,
    rules_options,
    split_player_list,
)
from .output import chance_text, echo_json, emit, output_options, save_chart, verdict_grid
from .progress import progress_bar
from .run_control import (
    checkpoint_options,
    interrupted,
    run_checkpoint,
    run_options,
    set_jobs,
    study_options,
)

#: The report's tournament field (``analyzer.gin.studies.sweeps.default_field``), written out so
#: that ``--help`` does not import the kernels.
DEFAULT_FIELD = "simple,basic,safe-discard,lookahead,gin-hunter,passive,marjj,expert"


@click.command("knock-sweep")
@rules_options
@policy_options
@click.option(
    "--deals",
    type=UNITS,
    default=20_000,
    show_default=True,
    help="Deals per threshold (each twice, seats swapped).",
)
@click.option(
    "--games", type=UNITS, default=2_000, show_default=True, help="Game pairs per threshold."
)
@study_options
@checkpoint_options
def knock_sweep_command(
    preset: str,
    overrides: tuple[str, ...],
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
    checkpoint: str | None,
    resume: bool,
) -> None:
    """Knock at deadwood <= t for t = 0..10: points per hand and games won.

    A is --a with its knock threshold set to t; the opponent is --b, or A's twin with
    --b same.

    \b
    Example:
      analyzer knock-sweep --a basic --b gin-hunter --deals 50000 --out sweep/
      analyzer knock-sweep --deals 1000000 --checkpoint sweep.json   # Ctrl-C, then --resume

    Ctrl-C or SIGTERM stops the sweep and exits with status 130; with --checkpoint the
    finished chunks are kept, and --resume ends with the same table bit for bit.
    """
    from ..gin.studies import sweeps as studies
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    subject = get_policy(policy_a)
    opponent = None if policy_b == "same" else get_policy(policy_b)
    set_jobs(jobs)
    identity = {
        "command": "knock-sweep",
        "rules": rules.describe(),
        "a": format_policy(subject),
        "b": policy_b if opponent is None else format_policy(opponent),
        "deals": deals,
        "games": games,
        "seed": seed,
    }
    with run_checkpoint(checkpoint, resume, identity) as saved:
        try:
            with progress_bar(None, "deal", no_progress) as update:
                sweep = studies.knock_sweep(
                    rules,
                    subject,
                    {policy_b: opponent},
                    deals,
                    games,
                    seed,
                    progress=update,
                    scheduler=scheduler,
                )
        except KeyboardInterrupt:
            interrupted(fmt == "json", None, saved)
    save_chart(
        out,
        "knock_sweep",
        sweep,
        lambda axes: charts.knock_sweep_panels(sweep, axes),
        (14, 4.2),
        ncols=3,
        title=f"Knock as soon as deadwood <= t: {policy_a} against {policy_b}",
        caption=f"Rules {preset}; {deals:,} deals and {games:,} game pairs per "
        f"threshold, seats swapped; bands: 95% CI; seed {seed}.",
    )
    emit(
        sweep,
        fmt,
        [
            "threshold",
            "points_mean",
            "diff_mean",
            "diff_low",
            "diff_high",
            "win_mean",
            "undercut_mean",
            "gin_mean",
            "turns_mean",
            "game_win_mean",
            "game_win_low",
            "game_win_high",
        ],
    )


@click.command("knock-chart")
@rules_options
@policy_options
@click.option(
    "--deals",
    type=UNITS,
    default=100_000,
    show_default=True,
    help="Deals whose knock decisions are branched (each twice, seats swapped).",
)
@click.option(
    "--min-samples",
    type=UNITS,
    default=300,
    show_default=True,
    help="Cells with fewer states are greyed out.",
)
@click.option(
    "--equity-deals",
    type=UNITS_OR_NONE,
    default=0,
    show_default=True,
    help="Also value each hand as the chance of winning a game from 0:0, by an "
    "equity table from this many deals (0: points only).",
)
@study_options
def knock_chart_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    deals: int,
    min_samples: int,
    equity_deals: int,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Knock now or play on? Mean points difference by own turn and deadwood.

    \b
    Example:
      analyzer knock-chart --deals 200000 --out chart/
    """
    from ..gin.studies import sweeps as studies
    from ..gin.studies.branching import MAX_TURN
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    set_jobs(jobs)
    with progress_bar(None, "deal", no_progress) as update:
        try:
            chart = studies.knock_chart(
                rules,
                get_policy(policy_a),
                get_policy(policy_b),
                deals,
                seed,
                min_samples,
                progress=update,
                scheduler=scheduler,
                equity_deals=equity_deals,
            )
        except ValueError as error:
            fail(str(error))
    save_chart(
        out,
        "knock_chart",
        chart,
        lambda ax: charts.knock_chart_heatmap(chart, ax, MAX_TURN, min_samples),
        (12, 5.4),
        title=f"Knock now or play on? {policy_a} against {policy_b}",
        caption=f"Each cell: mean points of knocking now minus playing on, rules "
        f"{preset}, {deals:,} deals (seed {seed}); 95% CIs in the CSV.",
    )
    if fmt == "table":
        click.echo(f"{deals:,} deals, rules {preset}, A: {policy_a} v B: {policy_b}, seed {seed}")
        for line in verdict_grid(chart, min_samples):
            click.echo(line)
    else:
        emit(chart, fmt)


@click.command("knock-schedule")
@rules_options
@policy_options
@click.option(
    "--objective",
    type=click.Choice(["points", "games"]),
    default="points",
    show_default=True,
    help="Maximise points per hand, or the game-win rate.",
)
@click.option(
    "--deals",
    type=UNITS,
    default=5_000,
    show_default=True,
    help="Deals (points) or game pairs (games) per evaluation.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, 10),
    default=2,
    show_default=True,
    help="Rounds of alternating best responses.",
)
@study_options
def knock_schedule_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    objective: str,
    deals: int,
    rounds: int,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Best turn-dependent knock schedule, then alternating best responses.

    A (--a with its schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds to
    --b, then B (the same base policy) to A, and so on.

    \b
    Example:
      analyzer knock-schedule --objective games --deals 2000 --rounds 1
    """
    from ..gin.studies import schedule
    from ..report import figures as charts

    rules = get_rules(preset, overrides)
    base = get_policy(policy_a)
    set_jobs(jobs)
    with progress_bar(None, "deal", no_progress) as update:
        search = schedule.best_schedule(
            rules,
            base,
            get_policy(policy_b),
            deals,
            seed,
            rounds,
            objective,
            progress=update,
            scheduler=scheduler,
        )
    save_chart(
        out,
        "knock_schedule",
        search.steps,
        lambda ax: charts.schedules_chart(
            {"A": search.final_a, "B": search.final_b}, schedule.SCHEDULE_BINS, ax
        ),
        (8, 3.8),
        title=f"Knock schedules after best responses: {policy_a} against {policy_b}",
        caption=f"Rules {preset}, objective {objective}, {deals:,} deals per "
        f"evaluation; gains with 95% CIs in the CSV; seed {seed}.",
        tables={"knock_schedule_gaps.csv": search.gaps},
    )
    emit(search.steps, fmt)
    if fmt == "table":
        click.echo("")
        emit(search.gaps, fmt)


@click.command("tournament")
@rules_options
@click.option(
    "--policies",
    default=DEFAULT_FIELD,
    show_default=True,
    help="Comma-separated policy presets in the round robin (a search player "
    "takes its options after it: search,budget=32,basic).",
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
    names = split_player_list(policies)
    if len(names) < 2:
        fail("--policies needs at least two presets")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        fail(f"--policies names {repeated[0]!r} twice; each policy plays once")
    field = {name: get_player(name) for name in names}
    set_jobs(jobs)
    with progress_bar(None, "deal", no_progress) as update:
        results = studies.tournament(
            rules, field, deals, games, seed, progress=update, scheduler=scheduler
        )
    order = list(studies.ranking(results)["policy"])

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
    emit(results, fmt)


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
    emit(table, fmt)


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
    if fmt == "json":
        echo_json(
            {"deals": deals, "seed": seed, "knock_limits": eligibility.to_dict(orient="records")}
        )
    elif fmt == "csv":
        emit(eligibility, fmt)
    else:
        click.echo(f"{deals:,} random hands of each size, seed {seed}")
        click.echo("P(dealt deadwood <= limit); limit 0 is gin; ± 95% CI")
        shown = eligibility.assign(
            chance=[chance_text(p) for p in eligibility["probability"]],
            probability=[
                f"{p:.3e} ± {1.96 * e:.1e}"
                for p, e in zip(eligibility["probability"], eligibility["se"], strict=True)
            ],
        )
        click.echo(shown[["cards", "limit", "probability", "chance"]].to_string(index=False))
