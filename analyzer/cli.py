"""The ``analyzer`` command line: thin click commands over the library."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from . import __version__
from .cards import format_hand, parse_hand
from .evaluator import best_melds

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="analyzer")
def cli() -> None:
    """Gin rummy and rummy strategy analyzer."""


def fail(message: str) -> None:
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
