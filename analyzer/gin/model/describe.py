"""Rules presets and policies in plain English, for ``analyzer rules`` / ``analyzer
policies`` and notebooks.

Field explanations come from the attribute docstrings of :class:`~analyzer.gin.model.rules.Rules`
and from the declarations of the policy specs (:mod:`analyzer.gin.model.policies`), so
they cannot drift from the code.

>>> explain_policy(PRESETS["gin-hunter"]).split("; ")[-1]
'knocks from own turn 1 only with gin, then from own turn 10 as soon as its deadwood is 10 or less.'
>>> rule_fields(RULE_PRESETS["classic"])[1][:2]
('gin_bonus', 20)
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import fields
from functools import cache
from itertools import pairwise

from .policies import KEYS, PRESETS, Policy, declaration
from .policy_fields import Schedule, format_schedule
from .rules import PRESETS as RULE_PRESETS
from .rules import STANDARD, Rules

#: One sentence per rules preset: what a player at that table would notice.
RULE_PRESET_NOTES = {
    "standard": "The common book: knock at 10 or less, gin 25, undercut 25, game to 100.",
    "classic": "Older scoring: gin 20, undercut 10, line bonus 20, a shutout scores 200.",
    "undercut20": "Standard, but an undercut earns 20 instead of 25.",
    "eaai": "The EAAI competition's game: no game, line or shutout bonus, the deal "
    "alternates, and its framework's knock and layoff procedures.",
    "openspiel": "OpenSpiel's game: a tie is no undercut, the wall rule at the end of the "
    "stock, no bonuses but gin and undercut.",
    "oklahoma": "The first upcard sets the knock limit and a spade upcard doubles the hand; "
    "game to 150.",
    "oklahoma-nodouble": "Oklahoma without the spade double.",
    "oklahoma-acegin": "Oklahoma where an ace upcard means gin only.",
    "straight": "No knocking at all: only gin ends a hand.",
    "biggin": "Standard plus big gin: 11 melded cards after the draw win 31 plus deadwood.",
    "hollywood": "Three games scored at once on one sheet (Hollywood scoring).",
    "target150": "Standard, but the game runs to 150 points.",
    "target250": "Standard, but the game runs to 250 points.",
}


def _schedule_text(schedule: Schedule) -> str:
    def at(threshold: int) -> str:
        return (
            "only with gin" if threshold == 0 else f"as soon as its deadwood is {threshold} or less"
        )

    if len(schedule) == 1:
        return at(schedule[0][1])
    return ", then ".join(f"from own turn {turn} {at(threshold)}" for turn, threshold in schedule)


def _knock_text(policy: Policy) -> str:
    knock = policy.knock
    text = "knocks " + _schedule_text(knock.schedule)
    if knock.alert is not None:
        text += (
            "; while the opponent holds a card it took from the pile it knocks "
            + _schedule_text(knock.alert)
        )
    if knock.racer is not None:
        text += (
            "; once the opponent has shown itself a racer (in an earlier hand of the game it "
            "knocked short of gin where these tables would not have) it knocks "
            + _schedule_text(knock.racer)
            + " instead, to wait for the undercut or gin"
        )
    return (
        text + policy.discard.KNOCK_NOTE.get(policy.discard.rule, "") + knock.RULE_TEXT[knock.rule]
    )


def explain_policy(policy: Policy) -> str:
    """One plain-English sentence saying how ``policy`` draws, throws and knocks (the
    rules' sentences are the specs' ``RULE_TEXT``)."""
    parts = [policy.draw.explain(), policy.discard.explain(), _knock_text(policy)]
    parts += [
        found.clause for key in KEYS if (found := declaration(key)).clause and policy.value(key)
    ]
    return "; ".join(parts) + "."


def policy_fields(policy: Policy) -> list[tuple[str, object, str]]:
    """``(field, value, meaning)`` for every field of ``policy``, by string-form key."""
    rows: list[tuple[str, object, str]] = []
    for key in KEYS:
        value = policy.value(key)
        if isinstance(value, tuple):
            value = format_schedule(value)
        rows.append((key, value, declaration(key).text))
    return rows


@cache
def rule_field_docs() -> dict[str, str]:
    """The attribute docstring of every :class:`Rules` field, joined on one line."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(Rules)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, following in pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def rule_fields(rules: Rules) -> list[tuple[str, object, str]]:
    """``(field, value, meaning)`` for every field of ``rules``."""
    docs = rule_field_docs()
    return [(f.name, getattr(rules, f.name), docs.get(f.name, "")) for f in fields(rules)]


def rule_changes(rules: Rules, base: Rules = STANDARD) -> dict[str, object]:
    """The fields of ``rules`` that differ from ``base``."""
    return {
        f.name: getattr(rules, f.name)
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(base, f.name)
    }


def rule_value_text(value: object) -> str:
    """A rule's value as an override writes it (``yes``/``no`` for a flag)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def rule_changes_text(rules: Rules, base: Rules = STANDARD) -> str:
    """The fields of ``rules`` that differ from ``base`` as overrides:
    ``hollywood=yes, target=150``."""
    return ", ".join(f"{k}={rule_value_text(v)}" for k, v in rule_changes(rules, base).items())


__all__ = [
    "PRESETS",
    "RULE_PRESETS",
    "RULE_PRESET_NOTES",
    "explain_policy",
    "policy_fields",
    "rule_changes",
    "rule_changes_text",
    "rule_field_docs",
    "rule_fields",
    "rule_value_text",
]
