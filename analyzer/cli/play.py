"""The command that plays one hand turn by turn: replay (simulate and games are studies,
:mod:`analyzer.studies.play`)."""

from __future__ import annotations

from typing import Any

import click

from ..core.limits import MAX_UNITS, load_json, read_text
from ..gin.evaluator.api import min_deadwood
from ..gin.model.policies import policy_name
from ..studies.study import DEFAULT_SEED
from .inputs import (
    SEED,
    fail,
    get_policy,
    get_rules,
    policy_options,
    rules_options,
)
from .output import echo_json, format_options


@click.command("replay")
@rules_options
@policy_options
@click.option(
    "--seed",
    type=SEED,
    default=DEFAULT_SEED,
    show_default=True,
    help="Seed of the run the deal comes from (as in simulate), 0 <= seed < 2**63.",
)
@click.option(
    "--deal",
    type=click.IntRange(0, MAX_UNITS - 1),
    default=0,
    show_default=True,
    help="Deal number within the run (below 10**12, the most deals of a run).",
)
@click.option("--a-deals", is_flag=True, help="A deals (default: B deals, A starts).")
@click.option(
    "--deck",
    default=None,
    help="Deal these cards instead: 'non-dealer | dealer | upcard [| stock]' "
    "(hands may be short; the rest is filled in card order) or all 52 cards.",
)
@click.option(
    "--position",
    "position_file",
    type=click.File("r", encoding="utf-8-sig"),
    default=None,
    help="A JSON file with the key deck (same text as --deck); at most 64 KB.",
)
@format_options
def replay_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    seed: int,
    deal: int,
    a_deals: bool,
    deck: str | None,
    position_file: Any,
    fmt: str,
) -> None:
    """Play one hand and show it turn by turn: cards, draws, discards, deadwood, the
    knock, melds, layoffs and the score.

    The deal is deal --deal of a simulate run with --seed: the same cards and the same
    choices as 'analyzer simulate' plays.

    \b
    Example:
      analyzer replay --seed 1 --deal 0 --a basic --b gin-hunter
      analyzer replay --deck 'As 2s 3s 4s 7h 7d 7c Kd Qh 9c | | 5d' --format json
    """
    from ..gin.play.replay import parse_deck, replay

    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    if deck is not None and position_file is not None:
        fail("give either --deck or --position, not both")
    try:
        if position_file is not None:
            data = load_json(read_text(position_file), f"position file {position_file.name}")
            if not isinstance(data, dict) or "deck" not in data:
                raise ValueError(
                    f"bad position file {position_file.name}: expected a JSON "
                    "object with the key 'deck'"
                )
            deck = str(data["deck"])
        cards = None if deck is None else parse_deck(deck)
        hand = replay(rules, a, b, seed, deal, a_deals, cards)
    except (ValueError, OSError) as error:
        fail(
            str(error)
            if isinstance(error, ValueError)
            else f"cannot read {position_file.name}: {error.strerror or error}"
        )
    if fmt == "json":
        echo_json(hand.to_dict())
        return
    if fmt == "csv":
        click.echo(hand.to_frame().to_csv(index=False), nl=False)
        return
    origin = f"deal {deal} of seed {seed}" if deck is None else "the given deck"
    click.echo(
        f"{origin}, rules {preset}"
        + (f" with {', '.join(overrides)}" if overrides else "")
        + f"; {hand.dealer} deals"
    )
    click.echo(f"A: {policy_name(a)}   B: {policy_name(b)}")
    click.echo(f"A holds {hand.start_a}   (deadwood {min_deadwood(hand.start_a)})")
    click.echo(f"B holds {hand.start_b}   (deadwood {min_deadwood(hand.start_b)})")
    if hand.upcard:
        click.echo(f"upcard  {hand.upcard}")
    click.echo("")
    click.echo(
        f"{'#':>3}  {'who':<3} {'action':<13} {'card':<4}  {'cards held after':<32}  "
        f"{'dw':>3} {'stock':>5}"
    )
    for event in hand.events:
        click.echo(
            f"{event.step:>3}  {event.player:<3} {event.action:<13} {event.card:<4}  "
            f"{event.hand:<32}  {event.deadwood:>3} {event.stock:>5}"
        )
    click.echo("")
    if hand.knocker:
        defender = "B" if hand.knocker == "A" else "A"
        click.echo(
            f"{hand.knocker} lays out  {' | '.join(hand.knocker_melds) or '-'}  "
            f"(deadwood {hand.knocker_deadwood})"
        )
        click.echo(
            f"{defender} melds     {' | '.join(hand.defender_melds) or '-'}"
            + (f", lays off {hand.layoffs}" if hand.layoffs else "")
            + f"  (deadwood {hand.defender_deadwood})"
        )
    click.echo(f"result: {hand.summary()}")
