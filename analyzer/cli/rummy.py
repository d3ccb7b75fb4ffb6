"""``analyzer rummy``: thin click commands over the plain-rummy simulator and studies.

Register with ``cli.add_command(rummy)``.  Numbers are read as text and checked here so
every bad option ends in one ``Error:`` line and exit status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

import click
import pandas as pd
from matplotlib.figure import Figure

from ..core.cluster import write_atomic
from ..rummy import studies
from ..rummy.policies import POLICY_PRESETS, RummyPolicy, parse_policy
from ..rummy.rules import RULE_PRESETS, RummyRules, rules_from_options
from ..rummy.simulate import SimulationResult, simulate, simulate_games
from .options import (
    MAX_UNITS,
    SEED_MAX,
    check_out_folder,
    check_raw_count,
    fail,
    new_files_removed_on_failure,
)

# study name -> (table function, chart function, file stem shared with the report)
_STUDIES = {
    "meld-or-hold": (studies.meld_or_hold, studies.plot_meld_or_hold, "meld_or_hold"),
    "players": (studies.player_counts, studies.plot_player_counts, "player_counts"),
    "options": (studies.option_values, studies.plot_option_values, "option_values"),
}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def rummy() -> None:
    """Plain rummy (not gin): simulate hands and run the studies."""


def _fail(message: str) -> NoReturn:
    fail(message)
    raise SystemExit(2)  # fail() has exited already; this tells type checkers it never returns


def _integer(name: str, text: str, low: int, high: int | None = None) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        _fail(f"{name} must be an integer, got {text!r}")
    if value < low or (high is not None and value > high):
        _fail(f"{name} must be {low}-{high}, got {value}" if high is not None
             else f"{name} must be >= {low}, got {value}")
    return value


def _rules(preset: str, players: str | None, sets: tuple[str, ...]) -> RummyRules:
    options = ([f"players={_integer('--players', players, 2, 6)}"] if players else []) + list(sets)
    try:
        return rules_from_options(preset, options)
    except ValueError as error:
        _fail(str(error))


def _policies(n: int, policy_a: str, policy_b: str, listed: str | None) -> list[RummyPolicy]:
    texts = [t for t in listed.split(";") if t.strip()] if listed else \
        [policy_a] + [policy_b] * (n - 1)
    if len(texts) != n:
        _fail(f"--policies lists {len(texts)} policies for {n} players")
    try:
        return [parse_policy(text) for text in texts]
    except ValueError as error:
        _fail(str(error))


def _summary_dict(result: SimulationResult) -> dict[str, Any]:
    return {
        "rules": result.rules.to_dict(),
        "policies": [str(p) for p in result.policies],
        "seed": result.seed,
        "deals": result.deals,
        "rotate": result.rotate,
        "summary": result.summary,
    }


def _ci_text(values: tuple[float, float, float], digits: int = 2) -> str:
    mean, low, high = values
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


@rummy.command("simulate")
@click.option("--players", default=None, metavar="INT", help="Number of players, 2-6 (default: the preset's).")
@click.option("--deals", default="10000", show_default=True, metavar="INT",
              help="Hands (or with --games, games) to play, 1 to 10**12.")
@click.option("--seed", default="0", show_default=True, metavar="INT",
              help="Random seed, 0 <= seed < 2**63 (deal i uses stream i).")
@click.option("--rules", "preset", default="standard", show_default=True, metavar="PRESET",
              help=f"Rules preset: {', '.join(RULE_PRESETS)}.")
@click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
              help="Override a rule field, e.g. --set max_run=4 (repeatable).")
@click.option("--a", "policy_a", default="simple", show_default=True, metavar="POLICY",
              help=f"Player 0's policy: a preset ({', '.join(POLICY_PRESETS)}) or key=value list.")
@click.option("--b", "policy_b", default="simple", show_default=True, metavar="POLICY",
              help="Policy of every other player.")
@click.option("--policies", "listed", default=None, metavar="P1;P2;...",
              help="One policy per player, separated by ';' (overrides --a/--b).")
@click.option("--no-rotate", is_flag=True, help="Keep player j in seat j (seat 0 plays first).")
@click.option("--games", is_flag=True,
              help="Play --deals games to the target score (--set target=500) instead of hands.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              callback=check_out_folder,
              help="Write summary.json and hands.csv (one row per hand) here.")
def simulate_command(players: str | None, deals: str, seed: str, preset: str,
                     sets: tuple[str, ...], policy_a: str, policy_b: str, listed: str | None,
                     no_rotate: bool, games: bool, as_json: bool, out: Path | None) -> None:
    """Play many hands of plain rummy and report win rates and points with 95% CIs.

    \b
    Example:
      analyzer rummy simulate --deals 20000 --a rummy --b simple
      analyzer rummy simulate --players 4 --rules seed004 --set reshuffle=true --json
      analyzer rummy simulate --games --deals 2000 --set target=500 --a hold6
    """
    n_deals = _integer("--deals", deals, 1, MAX_UNITS)
    rules = _rules(preset, players, sets)
    policies = _policies(rules.players, policy_a, policy_b, listed)
    if games:
        _report_games(rules, policies, n_deals, _integer("--seed", seed, 0, SEED_MAX), as_json)
        return
    if out is not None:
        check_raw_count(str(out), n_deals, "hands", option="--out")
    result = simulate(rules, policies, n_deals, _integer("--seed", seed, 0, SEED_MAX),
                      rotate=not no_rotate, keep_hands=out is not None)
    data = _summary_dict(result)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        assert result.hands is not None
        write_atomic(out / "hands.csv", result.hands.to_csv(index=False).encode())
        write_atomic(out / "summary.json",
                     json.dumps(data, indent=2, sort_keys=True).encode())
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    s = result.summary
    changed = {k: v for k, v in rules.to_dict().items() if v != getattr(RummyRules(), k)}
    click.echo(f"rules:            {preset} {changed or ''}".rstrip())
    click.echo(f"hands:            {s['hands']:,} (seed {result.seed}), "
               f"void {s['void_rate'][0]:.1%}")
    click.echo(f"turns per hand:   {_ci_text(s['turns'])}")
    click.echo(f"winner's points:  {_ci_text(s['winner_points'])} per won hand")
    click.echo(f"Rummy:            {s['rummy_rate'][0]:.2%} of won hands")
    for j, policy in enumerate(policies):
        click.echo(f"player {j}: wins {_ci_text(s['player_win_rate'][j], 3)}, "
                   f"points/hand {_ci_text(s['player_points'][j])}  ({policy})")
    if "margin" in s:
        click.echo(f"player 0 - player 1: {_ci_text(s['margin'])} points per hand")


def _report_games(rules: RummyRules, policies: list[RummyPolicy], games: int, seed: int,
                  as_json: bool) -> None:
    summary = simulate_games(rules, policies, games, seed)
    if as_json:
        data = {"rules": rules.to_dict(), "policies": [str(p) for p in policies],
                "seed": seed, "games": games, "summary": summary}
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    click.echo(f"games:            {games:,} to {rules.target} points (seed {seed}), "
               f"{summary['finished_rate'][0]:.1%} finished")
    click.echo(f"hands per game:   {_ci_text(summary['hands_per_game'])}")
    for j, policy in enumerate(policies):
        click.echo(f"player {j}: wins {_ci_text(summary['player_game_win_rate'][j], 3)} of games, "
                   f"final score {summary['player_final_score'][j]:.1f}  ({policy})")


@rummy.command("study")
@click.argument("name")
@click.option("--deals", default=str(studies.REPORT_DEALS), show_default=True, metavar="INT",
              help="Deals per configuration.")
@click.option("--seed", default="0", show_default=True, metavar="INT",
              help="Random seed of every run, 0 <= seed < 2**63.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              callback=check_out_folder,
              help="Write the table (CSV) and chart (PNG) here; with 'all', also report.md.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON records.")
def study_command(name: str, deals: str, seed: str, out: Path | None, as_json: bool) -> None:
    """Run study NAME: meld-or-hold, players, options, or all (the report section).

    \b
    Example:
      analyzer rummy study meld-or-hold --deals 20000 --out results/rummy
      analyzer rummy study all --out results/rummy
    """
    n_deals = _integer("--deals", deals, 1, MAX_UNITS)
    n_seed = _integer("--seed", seed, 0, SEED_MAX)
    if name == "all":
        if out is None:
            _fail("study all writes CSV and PNG files: give --out DIR")
        with new_files_removed_on_failure(out):
            markdown = studies.write_rummy_report(out, n_deals, n_seed)
            write_atomic(out / "report.md", markdown.encode())
        click.echo(markdown)
        return
    if name not in _STUDIES:
        _fail(f"unknown study {name!r}: choose from {', '.join(_STUDIES)}, all")
    run, plot, stem = _STUDIES[name]
    table: pd.DataFrame = run(n_deals, n_seed)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(out / f"{stem}.csv", table.to_csv(index=False).encode())
        figure = Figure(figsize=(7, 4.2))
        plot(table, figure.add_subplot())
        figure.tight_layout()
        figure.savefig(out / f"{stem}.png", dpi=110)
    if as_json:
        click.echo(table.to_json(orient="records", indent=2))
    else:
        click.echo(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
