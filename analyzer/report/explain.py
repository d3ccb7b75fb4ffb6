"""The rules and policy presets explained for a person: each field with its value and
meaning, wrapped to the terminal width (``analyzer rules NAME``, ``analyzer policies NAME``)."""

from __future__ import annotations

import re
import textwrap

from ..gin.model.describe import (
    RULE_PRESET_NOTES,
    explain_policy,
    rule_changes_text,
    rule_value_text,
)
from ..gin.model.policies import PRESETS as POLICY_PRESETS
from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.studies.registry import classify
from ..studies.text import MAX_WIDTH


def wrapped_label(label: str, text: str, indent: int) -> list[str]:
    """``label`` padded to ``indent`` columns, then ``text`` wrapped to the terminal width
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


def wrapped_commas(label: str, text: str, indent: int) -> list[str]:
    """``text`` (a policy string form) broken after commas to fit the terminal width."""
    lines, line = [], f"{label:<{indent}}"
    pieces = text.split(",")
    for index, piece in enumerate(pieces):
        candidate = line + piece if line.endswith((" ", ",")) else f"{line},{piece}"
        # a line broken after this piece ends in its comma, which must fit too
        comma = int(index < len(pieces) - 1)
        if len(candidate) + comma > MAX_WIDTH and line.strip():
            lines.append(line + ",")
            line = " " * indent + piece
        else:
            line = candidate
    return [*lines, line]


def explained_lines(rows: list[tuple[str, object, str]]) -> list[str]:
    """Field, value and meaning of each field, wrapped to the terminal width; fields that
    share one meaning (the expert weights) are listed together, the meaning said once."""
    width = max(len(f"{name} = {rule_value_text(value)}") for name, value, _ in rows) + 2
    groups: list[tuple[list[str], str]] = []
    for name, value, meaning in rows:
        label = f"{name} = {rule_value_text(value)}"
        if groups and groups[-1][1] == meaning:
            groups[-1][0].append(label)
        else:
            groups.append(([label], meaning))
    shown: list[str] = []
    for labels, meaning in groups:
        text = plain_text(meaning)
        if len(labels) > 1:
            text = f"Each of these {len(labels)}: {text[0].lower()}{text[1:]}"
        lines = wrapped_label(labels[0], text, width)
        for index, label in enumerate(labels[1:], start=1):
            if index < len(lines):
                lines[index] = f"{label:<{width}}{lines[index][width:]}"
            else:
                lines.append(label)
        shown += [line.rstrip() for line in lines]
    return shown


def rule_presets_lines() -> list[str]:
    """Every rules preset with its note and how it differs from the standard rules."""
    width = max(len(name) for name in RULE_PRESETS) + 2
    lines = []
    for preset, rules in RULE_PRESETS.items():
        lines += wrapped_label(preset, RULE_PRESET_NOTES.get(preset, ""), width)
        changes = rule_changes_text(rules)
        if changes:
            lines += wrapped_label("", "differs: " + changes, width)
    return lines


def kind_text(policy: Policy) -> str:
    """What kind of player ``policy`` is, its classifier's tags joined by commas ("" for
    none)."""
    return ", ".join(classify(policy).tags())


def policy_presets_table() -> list[dict[str, str]]:
    """One row per policy preset: its name, string form, plain-English sentence and kind
    (:func:`kind_text`)."""
    return [
        {
            "policy": name,
            "string": format_policy(policy),
            "summary": explain_policy(policy),
            "kind": kind_text(policy),
        }
        for name, policy in POLICY_PRESETS.items()
    ]


def policy_presets_lines(table: list[dict[str, str]]) -> list[str]:
    """Every policy preset of ``table`` (:func:`policy_presets_table`) with its string
    form, its summary and its kind."""
    width = max(len(row["policy"]) for row in table) + 2
    lines = []
    for row in table:
        lines += wrapped_commas(row["policy"], row["string"], width)
        lines += wrapped_label("", row["summary"], width)
        if row["kind"]:
            lines += wrapped_label("", f"kind: {row['kind']}", width)
    return lines


__all__ = [
    "explained_lines",
    "kind_text",
    "plain_text",
    "policy_presets_lines",
    "policy_presets_table",
    "rule_presets_lines",
    "wrapped_commas",
    "wrapped_label",
]
