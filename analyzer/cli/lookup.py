"""Commands that look things up: a hand's deadwood and melds, and the rules and policy
presets explained field by field."""

from __future__ import annotations

import json
from typing import Any

import click
import pandas as pd

from ..core.cards import format_hand, parse_hand
from ..core.limits import read_lines
from ..gin.evaluator.api import GIN_HAND_SIZES, best_melds
from ..gin.model.policies import format_policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..report.explain import (
    explained_lines,
    kind_text,
    policy_presets_lines,
    policy_presets_table,
    rule_presets_lines,
    wrapped_commas,
    wrapped_label,
)
from ..studies.text import MAX_WIDTH
from .inputs import (
    fail,
    get_policy,
    get_rules,
)
from .output import (
    echo_json,
    format_options,
)


def _arrangement_dict(text: str) -> dict[str, Any]:
    hand = parse_hand(text, GIN_HAND_SIZES)
    result = best_melds(hand)
    return {
        "hand": format_hand(hand),
        "melds": [format_hand(m) for m in result.melds],
        "deadwood_cards": format_hand(result.deadwood_cards),
        "deadwood": result.deadwood,
    }


@click.command()
@click.argument("hand", required=False)
@click.option(
    "--file",
    "path",
    type=click.File("r", encoding="utf-8-sig"),
    help="Evaluate one hand per line (UTF-8, '#' comments); CSV out.",
)
@format_options
def deadwood(hand: str | None, path: Any, fmt: str) -> None:
    """Best melds, deadwood cards and deadwood points of HAND (10 or 11 cards: a gin
    hand before or after its draw).

    \b
    Example:
      analyzer deadwood "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"
      analyzer deadwood --file hands.txt > deadwood.csv
    """
    if hand is not None and path is not None:
        fail("give either a HAND or --file, not both")
    if hand is None and path is None:
        fail('give a HAND (10 or 11 cards) or --file FILE, e.g. "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"')
    if path is not None:
        results = _file_arrangements(path)
        if fmt == "json":
            click.echo(json.dumps(results, indent=2))
            return
        click.echo("hand,min_deadwood")
        for result in results:
            click.echo(f"{result['hand']},{result['deadwood']}")
        return
    try:
        result = _arrangement_dict(hand or "")
    except ValueError as error:
        fail(str(error))
    if fmt == "json":
        echo_json(result)
    elif fmt == "csv":
        click.echo("hand,melds,deadwood_cards,deadwood")
        click.echo(
            f"{result['hand']},{' | '.join(result['melds'])},{result['deadwood_cards']},"
            f"{result['deadwood']}"
        )
    else:
        size = len(result["hand"].split())
        click.echo(f"Deadwood · the best melds of a {size}-card hand (gin rules: runs and sets)\n")
        click.echo(f"hand:     {result['hand']}")
        click.echo(f"melds:    {' | '.join(result['melds']) or '-'}")
        click.echo(f"deadwood: {result['deadwood_cards'] or '-'} = {result['deadwood']} points")


def _file_arrangements(path: Any) -> list[dict[str, Any]]:
    """Every hand of a --file, checked whole before anything is printed (at most
    :data:`~analyzer.core.limits.MAX_FILE_LINES` lines of at most
    :data:`~analyzer.core.limits.MAX_LINE_CHARS` characters)."""
    results = []
    try:
        for number, line in read_lines(path):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                results.append(_arrangement_dict(line))
            except ValueError as error:
                fail(f"line {number}: {error}")
    except (ValueError, OSError) as error:
        fail(
            str(error)
            if isinstance(error, ValueError)
            else f"cannot read {path.name}: {error.strerror or error}"
        )
    return results


@click.command("rules")
@click.argument("name", required=False)
@format_options
def rules_command(name: str | None, fmt: str) -> None:
    """List the rules presets, or explain every field of preset NAME.

    \b
    Example:
      analyzer rules
      analyzer rules oklahoma
      analyzer rules --format csv
    """
    from ..gin.model.describe import RULE_PRESET_NOTES, rule_fields

    if name is not None:
        rules = get_rules(name, ())
        rows = rule_fields(rules)
        if fmt == "json":
            echo_json(
                {
                    "preset": name,
                    "note": RULE_PRESET_NOTES.get(name, ""),
                    "fields": {f: {"value": v, "meaning": m} for f, v, m in rows},
                }
            )
        elif fmt == "csv":
            click.echo(
                pd.DataFrame(rows, columns=["field", "value", "meaning"]).to_csv(index=False),
                nl=False,
            )
        else:
            click.echo(f"{name}: {RULE_PRESET_NOTES.get(name, '')}")
            click.echo("\n".join(explained_lines(rows)))
        return
    if fmt == "json":
        echo_json(
            {
                n: {"note": RULE_PRESET_NOTES.get(n, ""), "fields": r.describe()}
                for n, r in RULE_PRESETS.items()
            }
        )
        return
    if fmt == "csv":
        frame = pd.DataFrame([{"preset": n, **r.describe()} for n, r in RULE_PRESETS.items()])
        click.echo(frame.to_csv(index=False), nl=False)
        return
    click.echo("\n".join(rule_presets_lines()))
    click.echo("\n'analyzer rules NAME' explains every field; --set FIELD=VALUE changes one.")


@click.command("policies")
@click.argument("name", required=False)
@format_options
def policies_command(name: str | None, fmt: str) -> None:
    """List the policy presets with their string form, or explain policy NAME.

    NAME is a preset or a string form such as 'basic,knock=7'.

    \b
    Example:
      analyzer policies
      analyzer policies gin-hunter
      analyzer policies "draw=meld,discard=safe,knock=8"
    """
    from ..gin.model.describe import explain_policy, policy_fields

    if name is not None:
        policy = get_policy(name)
        rows = policy_fields(policy)
        kind = kind_text(policy)
        if fmt == "json":
            echo_json(
                {
                    "policy": name,
                    "string": format_policy(policy),
                    "summary": explain_policy(policy),
                    "kind": kind,
                    "fields": {f: {"value": v, "meaning": m} for f, v, m in rows},
                }
            )
        elif fmt == "csv":
            click.echo(
                pd.DataFrame(rows, columns=["field", "value", "meaning"]).to_csv(index=False),
                nl=False,
            )
        else:
            # a string form given as NAME is shown whole below: its sentence gets the room
            label = name if len(name) <= MAX_WIDTH // 3 else "this policy"
            for line in wrapped_label(f"{label}: ", explain_policy(policy), len(label) + 2):
                click.echo(line)
            for line in wrapped_commas("string form: ", format_policy(policy), 13):
                click.echo(line)
            if kind:
                click.echo(f"kind: {kind}")
            click.echo("\n".join(explained_lines(rows)))
        return
    table = policy_presets_table()
    if fmt == "json":
        echo_json(table)
        return
    if fmt == "csv":
        click.echo(pd.DataFrame(table).to_csv(index=False), nl=False)
        return
    click.echo("\n".join(policy_presets_lines(table)))
    click.echo(
        "\n'analyzer policies NAME' explains every field; --a/--b take a preset or a string form."
    )
