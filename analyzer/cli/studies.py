"""The knock study commands: knock sweep, knock chart, knock schedule (the tournament, the
variants and dealt hands are in :mod:`analyzer.cli.surveys`)."""

from __future__ import annotations

import click
import pandas as pd

from ..core.limits import MAX_SCHEDULE_ROUNDS
from ..gin.model.policies import format_policy
from .inputs import (
    UNITS,
    UNITS_OR_NONE,
    fail,
    get_policy,
    get_rules,
    policy_options,
    policy_pair_options,
    rules_options,
)
from .output import (
    interval_text,
    rules_text,
    save_chart,
    show_result,
    table_lines,
    title_text,
    verdict_grid,
)
from .progress import progress_bar
from .run_control import (
    checkpoint_options,
    interrupted,
    run_checkpoint,
    set_jobs,
    study_options,
)


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
    against = "its twin" if opponent is None else policy_b
    show_result(
        fmt,
        title_text(
            "Knock as soon as deadwood <= t",
            rules=rules_text(preset, overrides),
            players=f"{policy_a} (knocking at <= t) against {against}",
            size=f"{deals:,} deals and {games:,} game pairs per threshold",
            seed=seed,
        ),
        sweep_table(sweep),
        sweep_verdict(sweep, against),
        raw=sweep,
        notes=["vs t=10: points per hand more than knocking at 10 or less, on the same deals."],
    )


def sweep_table(sweep: pd.DataFrame) -> pd.DataFrame:
    """The knock sweep for a person: one row per threshold, CIs as ``x ± h``."""
    return pd.DataFrame(
        {
            "t": sweep["threshold"],
            "points/hand": [
                interval_text(m, lo, hi, sign=True)
                for m, lo, hi in zip(
                    sweep["points_mean"], sweep["points_low"], sweep["points_high"], strict=True
                )
            ],
            "vs t=10": [
                interval_text(m, lo, hi, sign=True)
                for m, lo, hi in zip(
                    sweep["diff_mean"], sweep["diff_low"], sweep["diff_high"], strict=True
                )
            ],
            "hands won": [f"{v:.1%}" for v in sweep["win_mean"]],
            "undercut": [f"{v:.1%}" for v in sweep["undercut_mean"]],
            "gin": [f"{v:.1%}" for v in sweep["gin_mean"]],
            "turns": [f"{v:.1f}" for v in sweep["turns_mean"]],
            "games won": [
                interval_text(m, lo, hi, 1, percent=True)
                for m, lo, hi in zip(
                    sweep["game_win_mean"],
                    sweep["game_win_low"],
                    sweep["game_win_high"],
                    strict=True,
                )
            ],
        }
    )


def sweep_verdict(sweep: pd.DataFrame, opponent: str) -> str:
    """The sweep's answer: the threshold with the most points per hand, and with the
    most games won, each with its CI."""
    best = sweep.loc[sweep["diff_mean"].idxmax()]
    games = sweep.loc[sweep["game_win_mean"].idxmax()]
    gain = interval_text(best["diff_mean"], best["diff_low"], best["diff_high"], sign=True)
    won = interval_text(
        games["game_win_mean"], games["game_win_low"], games["game_win_high"], 1, percent=True
    )
    if best["threshold"] == 10 or best["diff_low"] <= 0:
        points = (
            f"Against {opponent} no threshold scores significantly more points per hand than "
            f"knocking at 10 or less (best: t = {best['threshold']}, {gain})"
        )
    else:
        points = (
            f"Against {opponent} knocking only at deadwood <= {best['threshold']} scores the "
            f"most: {gain} points per hand more than knocking at 10 or less"
        )
    return f"{points}; most games won: t = {games['threshold']}, {won}."


@click.command("knock-chart")
@rules_options
@policy_pair_options("expert")
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
    show_result(
        fmt,
        title_text(
            "Knock now or play on?",
            rules=rules_text(preset, overrides),
            players=f"{policy_a} (A) against {policy_b}",
            size=f"{deals:,} deals",
            seed=seed,
        ),
        verdict_grid(chart, min_samples),
        chart_verdict(chart, min_samples),
        raw=chart,
    )


def chart_verdict(chart: pd.DataFrame, min_samples: int) -> str:
    """The knock chart in one sentence: how many cells say knock, play on or unclear,
    and the strongest cell of each side with its CI."""
    shown = chart[chart["n"] >= min_samples]
    counts = shown["verdict"].value_counts()
    parts = [
        (
            f"Knocking now beats playing on in {counts.get('knock', 0)} cells, playing on wins "
            f"in {counts.get('play on', 0)}, {counts.get('unclear', 0)} are too close to call"
        )
    ]
    for verdict, pick, word in (
        ("knock", "idxmax", "knocking"),
        ("play on", "idxmin", "playing on"),
    ):
        cells = shown[shown["verdict"] == verdict]
        if len(cells):
            cell = cells.loc[getattr(cells["mean"], pick)()]
            gap = interval_text(abs(cell["mean"]), cell["low"], cell["high"])
            parts.append(
                f"most for {word}: A's own turn {cell['turn']}, deadwood {cell['deadwood']}, "
                f"{gap} points per hand"
            )
    return "; ".join(parts) + "."


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
    type=click.IntRange(1, MAX_SCHEDULE_ROUNDS),
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
    from ..gin.studies.answers import rule_text
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
    unit = "points per hand" if objective == "points" else "game-win rate"
    digits = 2 if objective == "points" else 3
    steps = search.steps
    body = [
        *table_lines(
            pd.DataFrame(
                {
                    "round": steps["round"],
                    "side": steps["side"],
                    "best response": steps["schedule"],
                    f"gain ({unit})": _gains(steps, digits),
                }
            )
        ),
        "",
        "How far the final pair is from a mutual best response (best one-bin change):",
        *table_lines(
            pd.DataFrame(
                {
                    "side": search.gaps["side"],
                    "schedule": search.gaps["schedule"],
                    "best change": search.gaps["best_deviation"],
                    f"gain ({unit})": _gains(search.gaps, digits),
                }
            )
        ),
    ]
    final = "/".join(map(str, search.final_a))
    show_result(
        fmt,
        title_text(
            f"Best knock schedule ({unit})",
            rules=rules_text(preset, overrides),
            players=f"{policy_a} (schedule searched) against {policy_b}, then best responses",
            size=f"{deals:,} {'deals' if objective == 'points' else 'game pairs'} per evaluation",
            seed=seed,
        ),
        body,
        f"A's best schedule is {final} ({rule_text(tuple(search.final_a))}); "
        f"B's best answer to it is {'/'.join(map(str, search.final_b))}.",
        raw=pd.concat(
            [steps.assign(table="steps"), search.gaps.assign(table="gaps")], ignore_index=True
        ).pipe(lambda frame: frame[["table", *frame.columns.drop("table")]]),
        notes=[
            (
                "A schedule such as 10/8/0/0 gives the knock threshold for A's own turns 1-3, "
                "4-6, 7-9 and 10 on: knock when deadwood is at most that number (0: only with "
                "gin)."
            )
        ],
    )


def _gains(table: pd.DataFrame, digits: int) -> list[str]:
    return [
        interval_text(m, lo, hi, digits, sign=True)
        for m, lo, hi in zip(table["gain"], table["gain_low"], table["gain_high"], strict=True)
    ]
