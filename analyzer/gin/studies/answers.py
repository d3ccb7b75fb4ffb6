""" "When to knock": the robust rule and the two adjustments a player can remember.

Each line of the answer is a knock table (see :mod:`analyzer.gin.studies.equilibrium`) played
with a base policy (``expert`` by default) for everything but the knock decision:

* **robust**: the heaviest table of the approximate knock equilibrium; its edge is its
  worst case over the opponent panel (:func:`analyzer.gin.studies.exploit.panel`);
* **against an opponent who knocks at once** (``basic``) and **against a gin hunter**
  (``gin-hunter``): the best knock table against that opponent (coordinate search with
  the significance rule), its edge against that opponent.

Every line also carries its exploitability: the held-out gain of the best response
:func:`analyzer.gin.studies.exploit.exploit` finds against it (points per hand, 95% CI), over
knock tables and the knock, draw and discard rules (one sweep).  Edges
are split into what they come from: hands ending in gin, undercuts and ordinary knocks.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ...core.progress import Progress
from ...core.stats import Estimate
from ..model.policies import Policy, policy_name
from ..model.rules import Rules
from ..play.players import Player
from .equilibrium import knock_coordinates, table_policy
from .exploit import (
    OUTCOME_PARTS,
    best_response,
    exploit,
    mixture_payoffs,
    panel_table,
    rule_coordinates,
    table_of,
    table_text,
)
from .schedule import SCHEDULE_BINS


def rule_text(table: tuple[int, ...]) -> str:
    """A knock table in words, e.g. ``knock with 10 or less on turns 1-6, then only
    with gin``; an alert half that differs (see :func:`analyzer.gin.studies.exploit.table_of`)
    adds ``; while the opponent holds a card it took from the pile, knock ...``."""
    bins = len(SCHEDULE_BINS)
    text = _schedule_text(table[:bins])
    if len(table) > bins and tuple(table[bins:]) != tuple(table[:bins]):
        text += "; while the opponent holds a card it took from the pile, " + _schedule_text(
            table[bins:]
        )
    return text


def _schedule_text(table: tuple[int, ...]) -> str:
    spans: list[tuple[int, int, int]] = []
    for (first, last), threshold in zip(SCHEDULE_BINS, table, strict=True):
        if spans and spans[-1][2] == threshold:
            spans[-1] = (spans[-1][0], last, threshold)
        else:
            spans.append((first, last, threshold))
    parts = []
    for index, (first, last, threshold) in enumerate(spans):
        what = "only with gin" if threshold == 0 else f"with {threshold} or less"
        if len(spans) == 1:
            when = "on every turn"
        elif index == len(spans) - 1:
            when = f"from turn {first} on"
        else:
            when = f"on turns {first}-{last}"
        parts.append(f"{what} {when}")
    return "knock " + ", then ".join(parts)


@dataclass
class AnswerLine:
    """One line of the "When to knock" box."""

    label: str
    table: tuple[int, ...]
    opponent: str
    """Whom the edge is measured against (a panel member, or "worst case (name)")."""
    edge: Estimate
    """Points per hand against ``opponent``."""
    edge_parts: dict[str, Estimate]
    exploitability: Estimate
    """Held-out gain of the best response found against this line's policy."""
    exploiter: str

    @property
    def rule(self) -> str:
        return rule_text(self.table)


@dataclass
class KnockAnswers:
    """The box's lines plus the panel table behind the robust line."""

    rules_name: str
    base: str
    lines: list[AnswerLine]
    panel: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for line in self.lines:
            row: dict[str, object] = {
                "rules": self.rules_name,
                "base": self.base,
                "line": line.label,
                "table": table_text(line.table),
                "rule": line.rule,
                "opponent": line.opponent,
                "edge": line.edge.mean,
                "edge_low": line.edge.low,
                "edge_high": line.edge.high,
            }
            for name, part in line.edge_parts.items():
                row[f"edge_{name}"] = part.mean
            row.update(
                {
                    "exploitability": line.exploitability.mean,
                    "exploitability_low": line.exploitability.low,
                    "exploitability_high": line.exploitability.high,
                    "exploiter": line.exploiter,
                }
            )
            rows.append(row)
        return pd.DataFrame(rows)


def knock_answers(
    rules: Rules,
    base: Policy,
    robust_table: tuple[int, ...],
    members: dict[str, Player],
    deals: int,
    seed: int,
    rules_name: str = "",
    adjust_to: tuple[str, ...] = ("basic", "gin-hunter"),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> KnockAnswers:
    """The robust line (``robust_table`` with ``base`` play) and one adjustment per
    member named in ``adjust_to``; ``deals`` deals per comparison."""
    robust = table_policy(base, robust_table)
    table = panel_table(rules, {"robust": robust}, members, deals, seed, progress, scheduler)
    worst = table.iloc[-1]
    worst_name = str(worst["member"])
    worst_member = worst_name[len("worst case (") : -1]
    lines = [
        _line(
            rules,
            "robust",
            robust,
            worst_name,
            members[worst_member],
            deals,
            seed,
            progress,
            scheduler,
        )
    ]
    for name in adjust_to:
        opponent = members[name]
        search = best_response(
            rules,
            [opponent],
            [1.0],
            robust,
            deals,
            seed + 1,
            coordinates=knock_coordinates,
            progress=progress,
            scheduler=scheduler,
        )
        lines.append(
            _line(
                rules,
                f"against {name}",
                search.response,
                name,
                opponent,
                deals,
                seed + 2,
                progress,
                scheduler,
            )
        )
    return KnockAnswers(rules_name, policy_name(base), lines, table)


def _line(
    rules: Rules,
    label: str,
    policy: Policy,
    opponent_name: str,
    opponent: Player,
    n_deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
) -> AnswerLine:
    edge = mixture_payoffs(
        rules,
        [policy],
        [opponent],
        [1.0],
        n_deals,
        seed + 17,
        progress=progress,
        scheduler=scheduler,
    )
    # one sweep over knock tables and draw, discard and knock rules (not the numeric
    # weights): the report must stay within minutes; `analyzer exploit` searches it all
    found = exploit(
        rules,
        policy,
        n_deals,
        seed + 31,
        rounds=1,
        progress=progress,
        scheduler=scheduler,
        coordinates=rule_coordinates,
    )
    return AnswerLine(
        label,
        table_of(policy),
        opponent_name,
        edge.value(0),
        {name: edge.part(0, name) for name in OUTCOME_PARTS},
        found.points,
        policy_name(found.response),
    )
