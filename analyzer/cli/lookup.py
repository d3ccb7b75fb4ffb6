"""Commands that look things up: a hand's deadwood and melds, and the rules and policy
presets explained field by field."""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any

import click
import pandas as pd

from ..core.cards import format_hand, parse_hand
from ..core.limits import read_lines
from ..gin.evaluator.api import GIN_HAND_SIZES, best_melds
from ..gin.model.policies import format_policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..report.text import MAX_WIDTH
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


# ------------------------------------------------------------------ shared options


def _wrapped(label: str, text: str, indent: int) -> list[str]:
    """``label`` padded to ``indent`` columns, then ``text`` wrapped to the CLI width
    (never inside a hyphenated word such as ``loser-sits-out``)."""
    return textwrap.wrap(
        text,
        MAX_WIDTH,
        initial_indent=f"{label:<{indent}}",
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    ) or [label]


def plain_text(meaning: str) -> str:
    """A field's meaning, written for the documentation, as plain text for a person:
    ````wall```` as wall, Python's True, False and None as yes, no and none.

    >>> plain_text("``end``: at the end; if False the hand scores 0 (None: as knock)")
    'end: at the end; if no, the hand scores 0 (none: as knock)'
    """
    text = re.sub(r"``([^`]+)``", r"\1", meaning)
    for python, word in (("True", "yes"), ("False", "no")):
        text = re.sub(rf"\bif {python}\b,?", f"if {word},", text)
        text = re.sub(rf"\b{python}\b", word, text)
    return re.sub(r"\bNone\b", "none", text)


def _wrapped_commas(label: str, text: str, indent: int) -> list[str]:
    """``text`` (a policy string form) broken after commas to fit the CLI width."""
    lines, line = [], f"{label:<{indent}}"
    for piece in text.split(","):
        candidate = line + piece if line.endswith((" ", ",")) else f"{line},{piece}"
        if len(candidate) > MAX_WIDTH and line.strip():
            lines.append(line + ",")
            line = " " * indent + piece
        else:
            line = candidate
    return [*lines, line]


def _explain_table(rows: list[tuple[str, object, str]]) -> None:
    """Field, value and meaning of each field, wrapped to the CLI width; fields that
    share one meaning (the expert weights) are listed together, the meaning said once."""
    from ..gin.model.describe import rule_value_text

    width = max(len(f"{name} = {rule_value_text(value)}") for name, value, _ in rows) + 2
    groups: list[tuple[list[str], str]] = []
    for name, value, meaning in rows:
        label = f"{name} = {rule_value_text(value)}"
        if groups and groups[-1][1] == meaning:
            groups[-1][0].append(label)
        else:
            groups.append(([label], meaning))
    for labels, meaning in groups:
        text = plain_text(meaning)
        if len(labels) > 1:
            text = f"Each of these {len(labels)}: {text[0].lower()}{text[1:]}"
        lines = _wrapped(labels[0], text, width)
        for index, label in enumerate(labels[1:], start=1):
            if index < len(lines):
                lines[index] = f"{label:<{width}}{lines[index][width:]}"
            else:
                lines.append(label)
        for line in lines:
            click.echo(line.rstrip())


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
    from ..gin.model.describe import RULE_PRESET_NOTES, rule_changes_text, rule_fields

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
            _explain_table(rows)
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
    width = max(len(n) for n in RULE_PRESETS) + 2
    for preset, rules in RULE_PRESETS.items():
        changes = rule_changes_text(rules)
        for line in _wrapped(preset, RULE_PRESET_NOTES.get(preset, ""), width):
            click.echo(line)
        if changes:
            text = "differs: " + changes
            for line in _wrapped("", text, width):
                click.echo(line)
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
    from ..gin.model.policies import PRESETS as POLICY_PRESETS

    if name is not None:
        policy = get_policy(name)
        rows = policy_fields(policy)
        if fmt == "json":
            echo_json(
                {
                    "policy": name,
                    "string": format_policy(policy),
                    "summary": explain_policy(policy),
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
            for line in _wrapped(f"{label}: ", explain_policy(policy), len(label) + 2):
                click.echo(line)
            for line in _wrapped_commas("string form: ", format_policy(policy), 13):
                click.echo(line)
            _explain_table(rows)
        return
    table = [
        {"policy": n, "string": format_policy(p), "summary": explain_policy(p)}
        for n, p in POLICY_PRESETS.items()
    ]
    if fmt == "json":
        echo_json(table)
        return
    if fmt == "csv":
        click.echo(pd.DataFrame(table).to_csv(index=False), nl=False)
        return
    width = max(len(n) for n in POLICY_PRESETS) + 2
    for row in table:
        for line in _wrapped_commas(row["policy"], row["string"], width):
            click.echo(line)
        for line in _wrapped("", row["summary"], width):
            click.echo(line)
    click.echo(
        "\n'analyzer policies NAME' explains every field; --a/--b take a preset or a string form."
    )
