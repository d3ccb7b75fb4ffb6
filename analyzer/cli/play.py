"""Commands that evaluate hands and play hands or games: deadwood, rules, simulate, games."""

from __future__ import annotations

import json
from typing import Any

import click

from ..core.cards import format_hand, parse_hand
from ..gin.evaluator import best_melds
from ..gin.rules import PRESETS as RULE_PRESETS
from ..gin.rules import Rules
from .options import (
    echo_header,
    echo_json,
    estimate_text,
    fail,
    get_player,
    get_policy,
    get_rules,
    policy_options,
    progress_bar,
    raw_option,
    rules_options,
    run_options,
    run_summary,
    scheduler_option,
    set_jobs,
    write_raw,
)


def _arrangement_dict(text: str) -> dict[str, Any]:
    hand = parse_hand(text)
    result = best_melds(hand)
    return {
        "hand": format_hand(hand),
        "melds": [format_hand(m) for m in result.melds],
        "deadwood_cards": format_hand(result.deadwood_cards),
        "deadwood": result.deadwood,
    }


@click.command()
@click.argument("hand", required=False)
@click.option("--file", "path", type=click.File("r"), help="Evaluate one hand per line; CSV out.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deadwood(hand: str | None, path: Any, as_json: bool) -> None:
    """Best melds, deadwood cards and deadwood points of HAND.

    \b
    Example:
      analyzer deadwood "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"
      analyzer deadwood --file hands.txt > deadwood.csv
    """
    if (hand is None) == (path is None):
        fail("give either a HAND or --file, not both")
    if path is not None:
        click.echo("hand,min_deadwood")
        for number, line in enumerate(path, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                result = _arrangement_dict(line)
            except ValueError as error:
                fail(f"line {number}: {error}")
            click.echo(f"{result['hand']},{result['deadwood']}")
        return
    try:
        result = _arrangement_dict(hand or "")
    except ValueError as error:
        fail(str(error))
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(f"hand:     {result['hand']}")
    click.echo(f"melds:    {' | '.join(result['melds']) or '-'}")
    click.echo(f"deadwood: {result['deadwood_cards'] or '-'} = {result['deadwood']} points")


# ------------------------------------------------------------------ shared options


@click.command("rules")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules_command(as_json: bool) -> None:
    """List the rules presets with every field.

    \b
    Example:
      analyzer rules
    """
    table = {name: rules.describe() for name, rules in RULE_PRESETS.items()}
    if as_json:
        echo_json(table)
        return
    names = list(table)
    field_names = list(table["standard"])
    width = max(len(f) for f in field_names)
    click.echo(" " * width + "  " + "  ".join(f"{n:>12}" for n in names))
    for field in field_names:
        cells = "  ".join(f"{_cell(table[n][field]):>12}" for n in names)
        click.echo(f"{field:<{width}}  {cells}")


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@click.command("simulate")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=100_000, show_default=True,
              help="Deals; each is played twice with seats swapped.")
@run_options
@raw_option
@scheduler_option
def simulate_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                     deals: int, seed: int, jobs: int | None, as_json: bool,
                     no_progress: bool, raw: str | None, scheduler: str | None) -> None:
    """Play DEALS hands of A against B and summarise them.

    Each deal is played twice on the same cards, A as non-dealer then as dealer.

    \b
    Example:
      analyzer simulate --rules standard --a basic --b basic --deals 1000000 --seed 1
      analyzer simulate --deals 10000 --raw hands.parquet
    """
    from ..gin.simulate import simulate

    rules = get_rules(preset, overrides)
    a, b = get_player(policy_a), get_player(policy_b)
    set_jobs(jobs)
    with progress_bar(deals, "deal", no_progress) as update:
        result = simulate(rules, a, b, deals, seed, keep_rows=raw is not None, progress=update,
                          scheduler=scheduler)
    write_raw(result.rows, raw)
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        **run_summary(preset, overrides, rules, seed, a, b),
        "outcomes": result.outcomes,
        "points_per_hand": result.points_a.as_dict(),
        "win_rate_a": result.win_rate_a.as_dict(),
        "turns_per_hand": result.turns.as_dict(),
        "first_player_points": result.first_player_points.as_dict(),
        "first_player_win_rate": result.first_player_win_rate,
        "elapsed_s": result.elapsed_s,
        "deals_per_s": result.deals_per_s,
    }
    if as_json:
        echo_json(summary)
        return
    echo_header(f"{result.deals:,} deals ({result.hands:,} hands)", seed, preset, overrides, a, b)
    mix = "  ".join(f"{k} {v:.2%}" for k, v in result.outcomes.items() if v or k != "tie")
    click.echo(f"outcomes:            {mix}")
    click.echo(f"points/hand to A:    {estimate_text(result.points_a)}  (95% CI)")
    click.echo(f"hand win rate of A:  {estimate_text(result.win_rate_a)}")
    click.echo(f"turns per hand:      {estimate_text(result.turns, 2)}  (draws, both players)")
    click.echo(f"first player edge:   {estimate_text(result.first_player_points)} points/hand, "
               f"wins {result.first_player_win_rate:.2%} of decided hands")
    click.echo(f"time:                {result.elapsed_s:.1f} s ({result.deals_per_s:,.0f} deals/s)")


@click.command("games")
@rules_options
@policy_options
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="3: separate scores (seating by the three_player rule); 4: partnerships "
                   "0+2 v 1+3.")
@click.option("--policies", default=None,
              help="With 3 or 4 players: comma-separated policies, one per player "
                   "(default: --a and --b alternating).")
@click.option("--games", type=click.IntRange(1), default=10_000, show_default=True,
              help="Games; with 2 players each is played twice with the first dealer swapped.")
@run_options
@raw_option
@scheduler_option
def games_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                  players: int, policies: str | None, games: int, seed: int, jobs: int | None,
                  as_json: bool, no_progress: bool, raw: str | None,
                  scheduler: str | None) -> None:
    """Play whole games to the target score of A against B (or 3-4 players).

    \b
    Example:
      analyzer games --rules standard --a basic --b gin-hunter --games 20000
      analyzer games --players 3 --policies basic,simple,gin-hunter --set three_player=loser-sits-out
    """
    rules = get_rules(preset, overrides)
    set_jobs(jobs)
    if players > 2:
        names = ([n.strip() for n in policies.split(",")] if policies
                 else [policy_a if i % 2 == 0 else policy_b for i in range(players)])
        if len(names) != players:
            fail(f"--policies needs {players} policies, got {len(names)}")
        _multiplayer(rules, preset, names, games, seed, as_json, raw)
        return
    from ..gin.simulate import play_games

    a, b = get_player(policy_a), get_player(policy_b)
    with progress_bar(games, "game", no_progress) as update:
        result = play_games(rules, a, b, games, seed, keep_rows=raw is not None,
                            progress=update, scheduler=scheduler)
    write_raw(result.rows, raw)
    summary = {
        "games": result.games,
        **run_summary(preset, overrides, rules, seed, a, b),
        "game_win_rate_a": result.game_win_rate_a.as_dict(),
        "margin_a": result.margin_a.as_dict(),
        "hands_per_game": result.hands_per_game.as_dict(),
        "shutout_rate": result.shutout_rate,
        "unfinished": result.unfinished,
        "elapsed_s": result.elapsed_s,
    }
    if as_json:
        echo_json(summary)
        return
    echo_header(f"{result.games:,} games", seed, preset, overrides, a, b)
    click.echo(f"game win rate of A:  {estimate_text(result.game_win_rate_a)}  (95% CI)")
    click.echo(f"final margin of A:   {estimate_text(result.margin_a, 1)} points")
    click.echo(f"hands per game:      {estimate_text(result.hands_per_game, 2)}")
    click.echo(f"shutout rate:        {result.shutout_rate:.2%}")
    click.echo(f"time:                {result.elapsed_s:.1f} s")


def _multiplayer(rules: Rules, preset: str, names: list[str], games: int, seed: int,
                 as_json: bool, raw: str | None) -> None:
    from ..gin.multiplayer import multiplayer_summary, play_multiplayer_games

    chosen = [get_policy(name) for name in names]
    try:
        frame = play_multiplayer_games(rules, chosen, games, seed)
    except ValueError as error:
        fail(str(error))
    write_raw(frame, raw)
    summary = multiplayer_summary(frame)
    summary.insert(1, "policy", names if len(names) == 3 else
                   [f"{names[0]} + {names[2]}", f"{names[1]} + {names[3]}"])
    if as_json:
        echo_json({"games": games, "seed": seed, "players": len(names), "rules": preset,
                   "hands_per_game": float(frame["hands"].mean()),
                   "shutout_rate": float(frame["shutout"].mean()),
                   "sides": summary.to_dict(orient="records")})
        return
    seating = rules.three_player if len(names) == 3 else "partnerships 0+2 v 1+3"
    click.echo(f"{games:,} games of {len(names)} players ({seating}), seed {seed}, rules {preset}")
    click.echo(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    click.echo(f"hands per game: {frame['hands'].mean():.2f}   "
               f"shutout rate: {frame['shutout'].mean():.2%}")


# ------------------------------------------------------------------------- studies
