"""``analyzer rummy``: thin click commands over the plain-rummy simulator and studies.

Register with ``cli.add_command(rummy)``.  Numbers are read as text and checked here so
every bad option ends in one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pandas as pd

from ..core.limits import MAX_UNITS
from ..core.options import split_policy_list
from ..core.stats import Estimate
from ..report.files import csv_bytes, removed_on_failure, write_text, write_together
from ..report.rummy import write_rummy_report, write_study
from ..rummy import studies
from ..rummy.policies import PRESETS as POLICY_PRESETS
from ..rummy.policies import RummyPolicy, parse_policy, policy_name
from ..rummy.rules import PRESETS as RULE_PRESETS
from ..rummy.rules import RummyRules, resolve_rules
from ..rummy.simulate import GameResult, HandResult, play_games, simulate
from .files import check_raw_count
from .inputs import UNITS, fail
from .output import emit, output_options
from .progress import progress_bar
from .run_control import interrupted, run_options, scheduler_option, set_jobs


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def rummy() -> None:
    """Plain rummy (not gin): simulate hands and run the studies."""


def _rules(preset: str, players: int | None, overrides: tuple[str, ...]) -> RummyRules:
    assignments = ([f"players={players}"] if players else []) + list(overrides)
    try:
        return resolve_rules(preset, assignments)
    except ValueError as error:
        fail(str(error))


def _policies(n: int, policy_a: str, policy_b: str, listed: str | None) -> list[RummyPolicy]:
    texts = split_policy_list(listed) if listed else [policy_a] + [policy_b] * (n - 1)
    if len(texts) != n:
        fail(f"--policies lists {len(texts)} policies for {n} players")
    try:
        return [parse_policy(text) for text in texts]
    except ValueError as error:
        fail(str(error))


def _ci_text(estimate: Estimate, digits: int = 2) -> str:
    return f"{estimate.mean:.{digits}f} [{estimate.low:.{digits}f}, {estimate.high:.{digits}f}]"


def _header(result: HandResult | GameResult) -> dict[str, Any]:
    return {
        "rules": result.rules.describe(),
        "policies": [str(p) for p in result.policies],
        "seed": result.seed,
        "interrupted": result.interrupted,
    }


def _player_table(result: HandResult | GameResult) -> pd.DataFrame:
    """One row per player: its policy and win rate (of hands, or of games) with 95% CI,
    and its points per hand (or final score per game)."""
    rows = []
    for j, policy in enumerate(result.policies):
        if isinstance(result, HandResult):
            win, points = result.player_win_rate[j], result.player_points[j].mean
        else:
            win, points = result.player_game_win_rate[j], result.player_final_score[j]
        rows.append(
            {
                "player": j,
                "policy": policy_name(policy),
                "win_rate": win.mean,
                "win_low": win.low,
                "win_high": win.high,
                "points": points,
            }
        )
    return pd.DataFrame(rows)


@rummy.command("simulate")
@click.option(
    "--players",
    type=click.IntRange(2, 6),
    default=None,
    help="Number of players, 2-6 (default: the preset's).",
)
@click.option(
    "--deals",
    type=UNITS,
    default=10_000,
    show_default=True,
    help="Hands (or with --games, games) to play, 1 to 10**12.",
)
@click.option(
    "--rules",
    "preset",
    default="standard",
    show_default=True,
    metavar="PRESET",
    help=f"Rules preset: {', '.join(RULE_PRESETS)}.",
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="FIELD=VALUE",
    help="Override a rule field, e.g. --set max_run=4 (repeatable); flags yes/no.",
)
@click.option(
    "--a",
    "policy_a",
    default="simple",
    show_default=True,
    metavar="POLICY",
    help=f"Player 0's policy: a preset ({', '.join(POLICY_PRESETS)}), "
    "key=value items, or a preset followed by key=value items.",
)
@click.option(
    "--b",
    "policy_b",
    default="simple",
    show_default=True,
    metavar="POLICY",
    help="Policy of every other player.",
)
@click.option(
    "--policies",
    "listed",
    default=None,
    metavar="P1,P2,...",
    help="One policy per player, comma-separated (overrides --a/--b); key=value "
    "items belong to the preset before them: rummy,hold_turns=4,simple.",
)
@click.option("--no-rotate", is_flag=True, help="Keep player j in seat j (seat 0 plays first).")
@click.option(
    "--games",
    is_flag=True,
    help="Play --deals games to the target score (--set target=500) instead of hands.",
)
@run_options
@output_options
@scheduler_option
def simulate_command(
    players: int | None,
    deals: int,
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    listed: str | None,
    no_rotate: bool,
    games: bool,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Play many hands of plain rummy and report win rates and points with 95% CIs.

    With --out, writes summary.json, players.csv and (hands only) hands.csv, one row per
    hand.

    Ctrl-C or SIGTERM stops the run and exits with status 130, after printing the summary
    of the hands (or games) finished (with --json, marked "interrupted": true); --out
    then writes nothing.

    \b
    Example:
      analyzer rummy simulate --deals 20000 --a rummy --b simple
      analyzer rummy simulate --players 3 --policies rummy,hold_turns=4,simple,simple
      analyzer rummy simulate --players 4 --rules seed004 --set reshuffle=yes --format json
      analyzer rummy simulate --games --deals 2000 --set target=500 --a hold6
    """
    rules = _rules(preset, players, overrides)
    policies = _policies(rules.players, policy_a, policy_b, listed)
    set_jobs(jobs)
    result: HandResult | GameResult
    requested = {"requested_games" if games else "requested_deals": deals}
    if not games and out is not None:
        check_raw_count(out, deals, "hands", option="--out")
    try:
        with progress_bar(deals, "game" if games else "deal", no_progress) as progress:
            if games:
                result = play_games(
                    rules, policies, deals, seed, progress=progress, scheduler=scheduler
                )
            else:
                result = simulate(
                    rules,
                    policies,
                    deals,
                    seed,
                    rotate=not no_rotate,
                    keep_rows=out is not None,
                    progress=progress,
                    scheduler=scheduler,
                )
    except KeyboardInterrupt:  # before the first chunk finished
        interrupted(fmt == "json", {"games" if games else "hands": 0, **requested, "seed": seed})
    data = {**_header(result), **result.summary()}
    if isinstance(result, HandResult):
        data["rotate"] = result.rotate
    table = _player_table(result)
    if result.interrupted:
        # the partial summary, as gin's simulate gives it: status 130, no files
        if fmt == "table":
            _print_result(result, preset)
        interrupted(fmt == "json", {**data, **requested})
    if out is not None:
        folder = Path(out)
        files = {
            folder / "players.csv": csv_bytes(table, index=False),
            folder / "summary.json": json.dumps(data, indent=2, sort_keys=True).encode(),
        }
        if isinstance(result, HandResult) and result.rows is not None:
            files = {folder / "hands.csv": csv_bytes(result.rows, index=False), **files}
        with removed_on_failure():
            write_together(files)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, sort_keys=True))
    elif fmt == "csv":
        emit(table, fmt)
    else:
        _print_result(result, preset)


def _print_result(result: HandResult | GameResult, preset: str) -> None:
    if isinstance(result, HandResult):
        _print_hands(result, preset)
    else:
        _print_games(result)


def _print_hands(result: HandResult, preset: str) -> None:
    defaults = RummyRules()
    changed = {k: v for k, v in result.rules.describe().items() if v != getattr(defaults, k)}
    click.echo(f"rules:            {preset} {changed or ''}".rstrip())
    click.echo(
        f"hands:            {result.hands:,} (seed {result.seed}), void {result.void_rate.mean:.1%}"
    )
    click.echo(f"turns per hand:   {_ci_text(result.turns)}")
    click.echo(f"winner's points:  {_ci_text(result.winner_points)} per won hand")
    click.echo(f"Rummy:            {result.rummy_rate.mean:.2%} of won hands")
    for j, policy in enumerate(result.policies):
        click.echo(
            f"player {j}: wins {_ci_text(result.player_win_rate[j], 3)}, "
            f"points/hand {_ci_text(result.player_points[j])}  ({policy})"
        )
    if result.margin is not None:
        click.echo(f"player 0 - player 1: {_ci_text(result.margin)} points per hand")


def _print_games(result: GameResult) -> None:
    click.echo(
        f"games:            {result.games:,} to {result.target} points "
        f"(seed {result.seed}), {result.finished_rate.mean:.1%} finished"
    )
    click.echo(f"hands per game:   {_ci_text(result.hands_per_game)}")
    for j, policy in enumerate(result.policies):
        click.echo(
            f"player {j}: wins {_ci_text(result.player_game_win_rate[j], 3)} of games, "
            f"final score {result.player_final_score[j]:.1f}  ({policy})"
        )


@rummy.command("study")
@click.argument("name")
@click.option(
    "--deals",
    type=click.IntRange(1, MAX_UNITS),
    default=studies.REPORT_DEALS,
    show_default=True,
    help="Deals per configuration.",
)
@run_options
@output_options
@scheduler_option
def study_command(
    name: str,
    deals: int,
    seed: int,
    jobs: int | None,
    no_progress: bool,
    out: str | None,
    fmt: str,
    scheduler: str | None,
) -> None:
    """Run study NAME: meld-or-hold, players, options, or all (the report section).

    The report runs them with seed 2026.  With 'all', --out is required and also gets
    report.md; the terminal shows where the files went.

    \b
    Example:
      analyzer rummy study meld-or-hold --deals 20000 --out rummy_out
      analyzer rummy study players --deals 2000 --format csv
      analyzer rummy study all --seed 2026 --out rummy_out
    """
    set_jobs(jobs)
    if name == "all":
        if out is None:
            fail("study all writes CSV and PNG files: give --out DIR")
        folder = Path(out)
        with removed_on_failure(), progress_bar(None, "deal", no_progress) as progress:
            markdown = write_rummy_report(
                folder, deals, seed, links_from_parent=False, progress=progress, scheduler=scheduler
            )
            write_text(folder / "report.md", markdown)
        click.echo(f"wrote {folder / 'report.md'} and the studies' CSV and PNG files", err=True)
        return
    if name not in studies.STUDIES:
        fail(f"unknown study {name!r}: choose from {', '.join(studies.STUDIES)}, all")
    run, stem = studies.STUDIES[name]
    with progress_bar(None, "deal", no_progress) as progress:
        table: pd.DataFrame = run(deals, seed, progress=progress, scheduler=scheduler)
    if out is not None:
        write_study(Path(out), stem, table)
    emit(table, fmt)
