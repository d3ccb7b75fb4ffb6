"""Rules presets and policies in plain English, for ``analyzer rules`` / ``analyzer
policies`` and notebooks.

Field explanations come from the attribute docstrings of :class:`~analyzer.gin.model.rules.Rules`
and from the policy's own field values, so they cannot drift from the code.

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

from .policies import PRESETS, Policy, format_schedule
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

_DRAW_TEXT = {
    "never": "Never takes the face-up card",
    "improve": "Takes the face-up card when that lowers its deadwood",
    "meld": "Takes the face-up card when it fits a meld of a best arrangement",
    "anymeld": "Takes the face-up card when it forms any meld with its cards",
    "expert": "Takes the face-up card when it fits a meld of a best arrangement, or when it "
              "improves its hand value (deadwood less its live outs, read from what the "
              "opponent is inferred to hold) by more than {take_margin_points:g} points",
    "marjj": "Takes the face-up card, as the EAAI-2021 agent MARJJ does, when it lowers its "
             "deadwood and fits a meld of the arrangement it would lay down (of its "
             "least-deadwood arrangements, the one least exposed to layoffs)",
}
_DISCARD_TEXT = {
    "high": "throws the card leaving the least deadwood (the highest card on ties)",
    "random": "throws a random card among those leaving the least deadwood",
    "safe": "throws the card leaving the least deadwood plus {danger_penalty} points per card "
            "it could give the opponent (judged from the cards the opponent took)",
    "lookahead": "throws, among discards within {slack} points of the least deadwood, the "
                 "one with the best expected deadwood after the next draw",
    "expert": "throws the card best for its hand value, weighing the chance the opponent "
              "melds it",
    "marjj": "throws, among its costliest unmelded cards, the one with the least deadwood "
             "now plus expected deadwood after its next draws plus MARJJ's table of the "
             "opponent's use for the card",
}
_POLICY_FIELD_TEXT = {
    "draw": "When to take the face-up card: never, improve (when it lowers the deadwood), "
            "meld (when it fits a meld of a best arrangement), anymeld (any meld), expert "
            "or marjj.",
    "discard": "Which card to throw: high, random, safe, lookahead, expert or marjj.",
    "knock": "Deadwood (points) at or under which to knock, by own turn (turn:threshold "
             "steps); gin is always taken.",
    "norepeat": "Never take a face-up card and throw the same card twice in a hand.",
    "danger_penalty": "Points added per dangerous card (used by discard=safe).",
    "slack": "Points above the least deadwood a lookahead discard may leave.",
    "knock_alert": "Knock thresholds used instead while the opponent holds a card it took "
                   "from the pile (None: the same as knock).",
    "knock_rule": "schedule (knock by the knock thresholds) or expert.",
}


def _schedule_text(schedule: tuple[tuple[int, int], ...]) -> str:
    def at(threshold: int) -> str:
        return "only with gin" if threshold == 0 else f"as soon as its deadwood is " \
                                                        f"{threshold} or less"

    if len(schedule) == 1:
        return at(schedule[0][1])
    return ", then ".join(f"from own turn {turn} {at(threshold)}" for turn, threshold in schedule)


def _knock_text(policy: Policy) -> str:
    text = "knocks " + _schedule_text(policy.knock)
    if policy.knock_alert is not None:
        text += ("; while the opponent holds a card it took from the pile it knocks "
                 + _schedule_text(policy.knock_alert))
    if policy.discard == "marjj":
        text += " (the deadwood left by the card it chose to throw)"
    if policy.knock_rule == "expert":
        text += (" (when allowed, only if the knock is worth more than playing on, judged on "
                 "sampled opponent hands)")
    return text


def explain_policy(policy: Policy) -> str:
    """One plain-English sentence saying how ``policy`` draws, throws and knocks."""
    discard = _DISCARD_TEXT[policy.discard].format(danger_penalty=policy.danger_penalty,
                                                   slack=policy.slack)
    draw = _DRAW_TEXT[policy.draw].format(take_margin_points=policy.take_margin / 100)
    sentence = f"{draw}; {discard}; {_knock_text(policy)}"
    if policy.norepeat:
        sentence += "; never repeats a take-and-throw pair"
    return sentence + "."


#: Meaning of the fields that only the expert rules read.
_EXPERT_FIELD_TEXT = "A weight of the expert rules (analyzer.gin.decisions.expert); others ignore it."


def policy_fields(policy: Policy) -> list[tuple[str, object, str]]:
    """``(field, value, meaning)`` for every field of ``policy``."""
    rows: list[tuple[str, object, str]] = []
    for item in fields(policy):
        value = getattr(policy, item.name)
        if item.name in ("knock", "knock_alert") and value is not None:
            value = format_schedule(value)
        rows.append((item.name, value, _POLICY_FIELD_TEXT.get(item.name, _EXPERT_FIELD_TEXT)))
    return rows


@cache
def rule_field_docs() -> dict[str, str]:
    """The attribute docstring of every :class:`Rules` field, joined on one line."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(Rules)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, following in pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def rule_fields(rules: Rules) -> list[tuple[str, object, str]]:
    """``(field, value, meaning)`` for every field of ``rules``."""
    docs = rule_field_docs()
    return [(f.name, getattr(rules, f.name), docs.get(f.name, "")) for f in fields(rules)]


def rule_changes(rules: Rules, base: Rules = STANDARD) -> dict[str, object]:
    """The fields of ``rules`` that differ from ``base``."""
    return {f.name: getattr(rules, f.name) for f in fields(rules)
            if getattr(rules, f.name) != getattr(base, f.name)}


__all__ = ["PRESETS", "RULE_PRESETS", "RULE_PRESET_NOTES", "explain_policy", "policy_fields",
           "rule_changes", "rule_field_docs", "rule_fields"]
