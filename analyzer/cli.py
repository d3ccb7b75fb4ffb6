"""The ``analyzer`` command line: thin click commands over the library."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import click
from tqdm import tqdm

from . import __version__
from .cards import format_hand, parse_hand
from .evaluator import best_melds
from .policies import Policy, format_policy, parse_policy, policy_name
from .rules import PRESETS as RULE_PRESETS
from .rules import Rules, resolve_rules
from .simulate import Estimate, play_games, simulate

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="analyzer")
def cli() -> None:
    """Gin rummy and rummy strategy analyzer."""


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2 (bad usage or input)."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


def _arrangement_dict(text: str) -> dict[str, Any]:
    hand = parse_hand(text)
    result = best_melds(hand)
    return {
        "hand": format_hand(hand),
        "melds": [format_hand(m) for m in result.melds],
        "deadwood_cards": format_hand(result.deadwood_cards),
        "deadwood": result.deadwood,
    }


@cli.command()
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


def rules_options(function: F) -> F:
    """``--rules PRESET`` and repeatable ``--set field=value``."""
    function = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                            help="Override one rule field (repeatable), e.g. knock_limit=7.")(function)
    return click.option("--rules", "preset", default="standard", show_default=True,
                        help=f"Rules preset: {', '.join(RULE_PRESETS)}.")(function)


def run_options(function: F) -> F:
    """``--deals``/``--seed``/``--jobs``/``--json``/``--no-progress``."""
    function = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(function)
    function = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(
        function)
    function = click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help="Threads (default: all cores). Results do not depend on it.")(
        function)
    return click.option("--seed", type=int, default=1, show_default=True,
                        help="Random seed; a run is reproducible from it.")(function)


def policy_options(function: F) -> F:
    """``--a`` and ``--b`` policies."""
    function = click.option("--b", "policy_b", default="basic", show_default=True,
                            help="Policy of player B (preset or draw=..,discard=..,knock=..).")(
        function)
    return click.option("--a", "policy_a", default="basic", show_default=True,
                        help="Policy of player A (preset or draw=..,discard=..,knock=..).")(function)


def get_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    try:
        return resolve_rules(preset, overrides)
    except ValueError as error:
        fail(str(error))


def get_policy(text: str) -> Policy:
    try:
        return parse_policy(text)
    except ValueError as error:
        fail(str(error))


def set_jobs(jobs: int | None) -> None:
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))


@contextmanager
def progress_bar(total: int, unit: str, hidden: bool) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr fed by chunk completions (hidden for small runs or on request)."""
    with tqdm(total=total, unit=unit, unit_scale=True, disable=hidden or total < 20_000,
              file=sys.stderr, leave=False) as bar:
        yield bar.update


def estimate_text(estimate: Estimate, digits: int = 3) -> str:
    half = (estimate.high - estimate.low) / 2
    return f"{estimate.mean:.{digits}f} ± {half:.{digits}f}"


def echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


# ---------------------------------------------------------------------- commands


@cli.command("rules")
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


@cli.command("simulate")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=100_000, show_default=True,
              help="Deals; each is played twice with seats swapped.")
@run_options
def simulate_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                     deals: int, seed: int, jobs: int | None, as_json: bool,
                     no_progress: bool) -> None:
    """Play DEALS hands of A against B and summarise them.

    Each deal is played twice on the same cards, A as non-dealer then as dealer.

    \b
    Example:
      analyzer simulate --rules standard --a basic --b basic --deals 1000000 --seed 1
    """
    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    set_jobs(jobs)
    with progress_bar(deals, "deal", no_progress) as update:
        result = simulate(rules, a, b, deals, seed, progress=update)
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        "seed": seed,
        "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
        "rules_fields": rules.describe(),
        "policy_a": format_policy(a),
        "policy_b": format_policy(b),
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
    click.echo(f"{result.deals:,} deals ({result.hands:,} hands), seed {seed}, rules {preset}"
               + (f" with {', '.join(overrides)}" if overrides else ""))
    click.echo(f"A: {policy_name(a)}   B: {policy_name(b)}")
    mix = "  ".join(f"{k} {v:.2%}" for k, v in result.outcomes.items() if v or k != "tie")
    click.echo(f"outcomes:            {mix}")
    click.echo(f"points/hand to A:    {estimate_text(result.points_a)}  (95% CI)")
    click.echo(f"hand win rate of A:  {estimate_text(result.win_rate_a)}")
    click.echo(f"turns per hand:      {estimate_text(result.turns, 2)}  (draws, both players)")
    click.echo(f"first player edge:   {estimate_text(result.first_player_points)} points/hand, "
               f"wins {result.first_player_win_rate:.2%} of decided hands")
    click.echo(f"time:                {result.elapsed_s:.1f} s ({result.deals_per_s:,.0f} deals/s)")


@cli.command("games")
@rules_options
@policy_options
@click.option("--games", type=click.IntRange(1), default=10_000, show_default=True,
              help="Games; each is played twice with the first dealer swapped.")
@run_options
def games_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                  games: int, seed: int, jobs: int | None, as_json: bool,
                  no_progress: bool) -> None:
    """Play whole games to the target score of A against B.

    \b
    Example:
      analyzer games --rules standard --a basic --b gin-hunter --games 20000
    """
    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    set_jobs(jobs)
    with progress_bar(games, "game", no_progress) as update:
        result = play_games(rules, a, b, games, seed, progress=update)
    summary = {
        "games": result.games,
        "seed": seed,
        "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
        "rules_fields": rules.describe(),
        "policy_a": format_policy(a),
        "policy_b": format_policy(b),
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
    click.echo(f"{result.games:,} games, seed {seed}, rules {preset}"
               + (f" with {', '.join(overrides)}" if overrides else ""))
    click.echo(f"A: {policy_name(a)}   B: {policy_name(b)}")
    click.echo(f"game win rate of A:  {estimate_text(result.game_win_rate_a)}  (95% CI)")
    click.echo(f"final margin of A:   {estimate_text(result.margin_a, 1)} points")
    click.echo(f"hands per game:      {estimate_text(result.hands_per_game, 2)}")
    click.echo(f"shutout rate:        {result.shutout_rate:.2%}")
    click.echo(f"time:                {result.elapsed_s:.1f} s")
