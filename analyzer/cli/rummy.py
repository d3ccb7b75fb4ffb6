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
from ..report.files import csv_bytes, staged_folder, write_text, write_together
from ..report.rummy import write_rummy_report, write_study
from ..report.text import (
    estimate_text,
    interval_column,
    interval_text,
    label_lines,
    plus_minus,
    table_lines,
    title_text,
)
from ..rummy import studies
from ..rummy.policies import PRESETS as POLICY_PRESETS
from ..rummy.policies import RummyPolicy, parse_policy, policy_name
from ..rummy.rules import PRESETS as RULE_PRESETS
from ..rummy.rules import RummyRules, resolve_rules
from ..rummy.simulate import GameResult, HandResult, play_games, simulate
from .files import check_raw_count
from .inputs import UNITS, fail, rules_preset_option
from .output import output_options, show_result
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
@rules_preset_option(RULE_PRESETS)
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
        interrupted(fmt == "json", {"games" if games else "deals": 0, **requested, "seed": seed})
    data = {**_header(result), **result.summary()}
    if isinstance(result, HandResult):
        # a hand of rummy is one deal: the key gin's simulate uses for the same count
        data["deals"] = data.pop("hands")
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
            "players.csv": csv_bytes(table, index=False),
            "summary.json": json.dumps(data, indent=2, sort_keys=True).encode(),
        }
        if isinstance(result, HandResult) and result.rows is not None:
            files = {"hands.csv": csv_bytes(result.rows, index=False), **files}
        write_together(folder, files)
    if fmt == "table":
        _print_result(result, preset)
    else:
        show_result(fmt, "", [], "", raw=table if fmt == "csv" else data)


def _print_result(result: HandResult | GameResult, preset: str) -> None:
    defaults = RummyRules()
    changed = [f"{k}={v}" for k, v in result.rules.describe().items() if v != getattr(defaults, k)]
    hands = isinstance(result, HandResult)
    rows = _player_table(result)
    won = interval_column(rows, "win_rate", 1, sign=False, percent=True, stem="win")
    table = pd.DataFrame(
        {
            "player": rows["player"],
            "policy": rows["policy"],
            ("hands won" if hands else "games won"): won,
            **(
                {"points/hand": [estimate_text(e, 2) for e in result.player_points]}
                if isinstance(result, HandResult)
                else {"final score": [f"{v:.1f}" for v in rows["points"]]}
            ),
        }
    )
    if isinstance(result, HandResult):
        facts = [
            ("turns per hand", estimate_text(result.turns, 2)),
            ("winner's points", f"{estimate_text(result.winner_points, 2)} per won hand"),
            ("Rummy", f"{result.rummy_rate.mean:.2%} of won hands"),
            ("void hands", f"{result.void_rate.mean:.1%} (no winner)"),
        ]
        size = f"{result.hands:,} deals"
    else:
        facts = [
            ("hands per game", estimate_text(result.hands_per_game, 2)),
            ("finished", f"{result.finished_rate.mean:.1%} of games reached {result.target}"),
        ]
        size = f"{result.games:,} games to {result.target} points"
    leader = int(rows["win_rate"].idxmax())
    if isinstance(result, HandResult) and result.margin is not None:
        margin = plus_minus(abs(result.margin.mean), result.margin.half_width)
        significant = result.margin.low > 0 or result.margin.high < 0
        verdict = (
            f"Player 0 ({rows.at[0, 'policy']}) scores {margin} points per hand "
            f"{'more' if result.margin.mean >= 0 else 'less'} than player 1 "
            f"({rows.at[1, 'policy']})" + ("." if significant else ": no significant edge.")
        )
    else:
        verdict = f"Player {leader} ({rows.at[leader, 'policy']}) wins the most: {won[leader]}."
    show_result(
        "table",
        title_text(
            "Plain rummy " + ("hands" if hands else "games"),
            rules=preset + (f" with {', '.join(changed)}" if changed else ""),
            players=f"{len(result.policies)} players",
            size=size,
            seed=result.seed,
        ),
        [*table_lines(table), "", *label_lines(facts)],
        verdict,
        notes=[
            f"player {j} {policy_name(policy)}: {policy}"
            for j, policy in enumerate(result.policies)
            if policy_name(policy) != str(policy)
        ],
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
        with staged_folder(folder), progress_bar(None, "deal", no_progress) as progress:
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
        write_study(Path(out), stem, table, deals, seed)
    show_result(
        fmt,
        title_text(
            STUDY_TITLES[name],
            rules="standard",
            size=f"{deals:,} deals per row",
            seed=seed,
        ),
        study_table(table),
        STUDY_VERDICTS[name](table),
        raw=table,
        notes=[
            (
                "hold turns: the last own turn the holder keeps its melds in hand (at once: it "
                "melds at once; to the end: it never gives up); hold points: it gives up once "
                "more points sit in held melds (no limit: never)."
            )
        ]
        if name == "meld-or-hold"
        else [],
    )


#: What each study's table shows, for its title.
STUDY_TITLES = {
    "meld-or-hold": "Meld at once or hold for Rummy: the holder against a player melding at once",
    "players": "Plain rummy from 2 to 6 players (seats fixed, seat 0 plays first)",
    "options": "What each rule option does (2 players)",
}

#: The value meaning "no limit" in the holding rules of the meld-or-hold study.
_NO_LIMIT = 999


def study_table(table: pd.DataFrame) -> pd.DataFrame:
    """A study's table for a person: each ``x`` with ``x_lo``/``x_hi`` as one ``x ± h``
    column, rates as percentages, and the holding rules' 999 in words."""
    shown: dict[str, list[str] | pd.Series] = {}
    for column in table.columns:
        if column.endswith(("_lo", "_hi")):
            continue
        values = table[column]
        name = column.replace("_", " ")
        percent = column.endswith(("rate", "share"))
        if f"{column}_lo" in table:
            shown[name] = [
                interval_text(
                    m, lo, hi, 1 if percent else 2, percent=percent, sign=column.endswith("margin")
                )
                for m, lo, hi in zip(
                    values, table[f"{column}_lo"], table[f"{column}_hi"], strict=True
                )
            ]
        elif column == "hold_turns":
            shown[name] = [
                "at once" if v == 0 else "to the end" if v == _NO_LIMIT else str(v) for v in values
            ]
        elif column == "hold_points":
            shown[name] = ["no limit" if v == _NO_LIMIT else str(v) for v in values]
        elif percent:
            shown[name] = ["-" if pd.isna(v) else f"{v:.1%}" for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown[name] = [f"{v:.2f}" for v in values]
        else:
            shown[name] = values
    return pd.DataFrame(shown)


def _meld_or_hold_verdict(table: pd.DataFrame) -> str:
    best = table.loc[table["margin"].idxmax()]
    turns, points = int(best["hold_turns"]), int(best["hold_points"])
    rule = (
        "melding at once"
        if turns == 0
        else "holding to the end"
        if turns == _NO_LIMIT
        else f"holding through own turn {turns}"
    ) + ("" if points == _NO_LIMIT else f", giving up above {points} points in melds")
    gain = interval_text(best["margin"], best["margin_lo"], best["margin_hi"], sign=True)
    if best["margin_lo"] <= 0:
        return (
            f"No holding rule gains significantly over melding at once; the best, {rule}, "
            f"gets {gain} points per hand."
        )
    return f"The best holding rule is {rule}: {gain} points per hand over melding at once."


def _players_verdict(table: pd.DataFrame) -> str:
    first = table[table["seat"] == 0]
    low, high = first.iloc[0], first.iloc[-1]
    return (
        f"Seat 0 wins {interval_text(low['win_share'], low['win_share_lo'], low['win_share_hi'], 1, percent=True)} "
        f"of the won hands with {int(low['players'])} players ({low['stock']} stock) and "
        f"{interval_text(high['win_share'], high['win_share_lo'], high['win_share_hi'], 1, percent=True)} "
        f"with {int(high['players'])} ({high['stock']} stock)."
    )


def _options_verdict(table: pd.DataFrame) -> str:
    best = table.loc[table["hold_margin"].idxmax()]
    gain = interval_text(
        best["hold_margin"], best["hold_margin_lo"], best["hold_margin_hi"], sign=True
    )
    return f"Holding for Rummy pays most under '{best['variant']}': {gain} points per hand."


#: Each study's answer in one sentence.
STUDY_VERDICTS = {
    "meld-or-hold": _meld_or_hold_verdict,
    "players": _players_verdict,
    "options": _options_verdict,
}
