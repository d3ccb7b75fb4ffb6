"""Principles measured by leaving each out: the machinery the discard and draw answers share
(:mod:`analyzer.gin.studies.discard_principles`, :mod:`analyzer.gin.studies.draw_principles`).

A run plays arms (policies that differ in one decision only, the champion's play
elsewhere) against each opponent of the panel (:func:`panel_members`) on common deals, seats
swapped, and keeps mergeable sums of each arm's points per deal, its paired difference
from the rule set, and the pieces of the rule set's share of the champion's edge over the
naive rule.  Three arms have a role (:class:`Roles`): the rule set (the reference of every
difference), the naive rule a player already follows, and the champion.  The panel's line
is the mean over its members, deal by deal, so its intervals account for the common deals.
Chunks are reduced to sums, so memory stays flat in the number of deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Protocol

import numpy as np

from ...core.arrays import Float64s
from ...core.chunks import ChunkPlan, fold_to_end
from ...core.fold_checks import Range, sums_check, value_ranges
from ...core.progress import Progress
from ...core.stats import Estimate, ratio_estimate
from ..model.policies import PRESETS, Policy
from ..model.rules import Rules
from ..play.game_kernels import HandColumn
from ..play.players import Player
from ..play.results import MAX_HAND_POINTS, merge_sums
from ..play.simulate import hand_rows
from .choices import NaiveGain
from .compare import add_values, estimate_of
from .exploit import panel
from .registry import classify

#: The panel's line, the mean over its members.
PANEL = "panel"


@dataclass(frozen=True)
class Principle:
    """One principle of a rule set: the policy change that leaves it out, and where in the
    champion's play it comes from."""

    key: str
    without: dict[str, object]
    """The rule set's fields that leave this principle out."""
    words: str
    """The principle in a player's words (a sentence, with the rule's numbers as fields)."""
    learned: str
    """The champion's terms it stands for."""


@dataclass(frozen=True)
class Roles:
    """The labels of the arms with a role in a run (see the module notes)."""

    rule: str
    """The rule set, the reference of every paired difference."""
    naive: str
    """The rule a player already follows (the baseline of the gain and the edge)."""
    champion: str
    naive_words: str
    """The naive rule in a player's words (``throw your highest unmatched card``)."""
    why_not_additive: str
    """Why the principles' worths do not add up to the rule's gain over the naive rule:
    how this rule's principles work through each other (a clause of
    :func:`worths_text`)."""


def naive_gain(run: RunEstimates, opponent: str, roles: Roles) -> NaiveGain:
    """The rule set's gain over the naive rule against ``opponent`` (or :data:`PANEL`),
    paired on the run's deals, for an answer's JSON."""
    return NaiveGain(roles.naive_words, run.gain(opponent))


def worths_text(worths: Sequence[float], gain: float, roles: Roles) -> str:
    """Why the principles' leave-one-out ``worths`` (points per hand) add up to more (or
    less) than the rule's whole ``gain`` over the naive rule, in a sentence with both
    numbers."""
    total = sum(worths)
    relation = "more" if total > gain else "less"
    return (
        f"The worths add up to {total:+.2f} points per hand, {relation} than the rule's whole "
        f"gain over the naive rule ({gain:+.2f}): each is what leaving that one principle "
        f"out costs with the others kept, not a share of the whole, and "
        f"{roles.why_not_additive}."
    )


@dataclass(frozen=True)
class RuleSet:
    """A player's rule set for one decision and how an answer measures it: the preset that
    plays it (the champion's play elsewhere), its principles, the roles of the arms, the
    fields that turn it into the naive rule, and the published agent's rule for that
    decision (MARJJ's) as one more arm."""

    preset: str
    decision: str
    """The :class:`~analyzer.gin.model.policies.Policy` spec the rule is (``discard``,
    ``draw``): its fields fill the principles' words."""
    principles: tuple[Principle, ...]
    roles: Roles
    naive: dict[str, object]
    """The rule set's fields that make the naive rule (the arm ``roles.naive``)."""
    published: tuple[str, dict[str, object]]
    """(label, the rule set's fields that make it) of the published agent's rule."""

    def policy(self) -> Policy:
        """The player's rule set as a policy (its preset)."""
        return PRESETS[self.preset]

    def words(self, principle: Principle) -> str:
        """The principle's sentence with the rule set's numbers in it."""
        return principle.words.format(**asdict(getattr(self.policy(), self.decision)))

    def arms(self) -> dict[str, Policy]:
        """The arms by label, the rule set first (the reference of every difference)."""
        base = self.policy()
        chosen: dict[str, Policy] = {self.preset: base}
        for principle in self.principles:
            chosen[f"without {principle.key}"] = base.changed(**principle.without)
        chosen[self.roles.naive] = base.changed(**self.naive)
        chosen[self.roles.champion] = PRESETS["expert"]
        label, changes = self.published
        chosen[label] = base.changed(**changes)
        return chosen

    def measure(
        self,
        rules: Rules,
        deals: int,
        seed: int,
        opponents: Sequence[str] | None = None,
        progress: Progress | None = None,
        scheduler: str | None = None,
        chosen: Mapping[str, Policy] | None = None,
    ) -> PrinciplesRun:
        """Every arm (``chosen``, default :meth:`arms`; more arms for a fit of the rule's
        points, ``scripts/fit_principles.py``) against each of ``opponents`` (default:
        every member of :func:`panel_members`) on ``deals`` common deals from ``seed``,
        seats swapped (:func:`measure_arms`)."""
        return measure_arms(
            rules, deals, seed, chosen or self.arms(), self.roles, opponents, progress, scheduler
        )


def panel_members() -> dict[str, Player]:
    """The opponents: the knock answer's panel without ``search`` (whose rollouts on every
    knock would make each of the arms' runs some hundred times slower)."""
    return {name: player for name, player in panel().items() if not classify(player).searches}


def _deal_points(rules: Rules, a: Player, b: Player, seed: int, first: int, count: int) -> Float64s:
    rows = hand_rows(rules, a, b, seed, first, count)
    points: Float64s = rows[:, HandColumn.POINTS_A].astype(np.float64).reshape(-1, 2).mean(axis=1)
    return points


def _add(sums: dict[str, float], opponent: str, by_arm: dict[str, Float64s], roles: Roles) -> None:
    reference = by_arm[roles.rule]
    for label, points in by_arm.items():
        add_values(sums, f"{opponent}|{label}|points", points)
        add_values(sums, f"{opponent}|{label}|diff", points - reference)
    gain = reference - by_arm[roles.naive]
    edge = by_arm[roles.champion] - by_arm[roles.naive]
    add_values(sums, f"{opponent}|share|gain", gain)
    add_values(sums, f"{opponent}|share|edge", edge)
    sums[f"{opponent}|share|product"] = sums.get(f"{opponent}|share|product", 0.0) + float(
        (gain * edge).sum()
    )


def _sums_ranges(opponents: Sequence[str], labels: Sequence[str]) -> dict[str, Range]:
    """What one deal adds to each sum of :func:`principles_chunk` (points per deal, each
    within :data:`~analyzer.gin.play.results.MAX_HAND_POINTS` either way)."""
    points = MAX_HAND_POINTS
    ranges: dict[str, Range] = {}
    for opponent in [*opponents, *([PANEL] if len(opponents) > 1 else [])]:
        for label in labels:
            ranges |= value_ranges(f"{opponent}|{label}|points", 1, -points, points)
            ranges |= value_ranges(f"{opponent}|{label}|diff", 1, -2 * points, 2 * points)
        for part in ("gain", "edge"):
            ranges |= value_ranges(f"{opponent}|share|{part}", 1, -2 * points, 2 * points)
        ranges[f"{opponent}|share|product"] = (-4 * points**2, 4 * points**2)
    return ranges


def principles_chunk(
    rules: Rules,
    seed: int,
    first: int,
    count: int,
    opponents: Sequence[str],
    chosen: Mapping[str, Policy],
    roles: Roles,
) -> dict[str, float]:
    """Mergeable sums of the points per deal of every arm of ``chosen`` (label -> policy,
    with the labels of ``roles`` among them) against each opponent of ``opponents`` (names
    of :func:`panel_members`) and the panel's mean, over deals ``first .. first + count``."""
    members = panel_members()
    sums: dict[str, float] = {}
    panel_points = {label: np.zeros(count) for label in chosen}
    for opponent in opponents:
        played: dict[Policy, Float64s] = {}  # arms that play alike are played once
        by_arm = {}
        for label, policy in chosen.items():
            if policy not in played:
                played[policy] = _deal_points(rules, policy, members[opponent], seed, first, count)
            by_arm[label] = played[policy]
        _add(sums, opponent, by_arm, roles)
        for label, points in by_arm.items():
            panel_points[label] += points / len(opponents)
    if len(opponents) > 1:
        _add(sums, PANEL, panel_points, roles)
    return sums


class RunEstimates(Protocol):
    """What an answer reads of a run: a :class:`PrinciplesRun`, or one read back from its
    saved tables."""

    def gain(self, opponent: str) -> Estimate: ...


@dataclass(frozen=True)
class PrinciplesRun:
    """What :func:`measure_arms` measured: points per hand of each arm against each
    opponent (``PANEL``: the mean over the opponents), paired differences against the
    rule set, and the rule set's share of the champion's edge over the naive rule."""

    opponents: tuple[str, ...]
    deals: int
    seed: int
    sums: dict[str, float]

    def points(self, opponent: str, arm: str) -> Estimate:
        """Points per hand of ``arm`` against ``opponent``."""
        return estimate_of(self.sums, f"{opponent}|{arm}|points")

    def diff(self, opponent: str, arm: str) -> Estimate:
        """Points per hand of ``arm`` minus the rule set's, paired deal by deal."""
        return estimate_of(self.sums, f"{opponent}|{arm}|diff")

    def gain(self, opponent: str) -> Estimate:
        """The rule set's points per hand minus the naive rule's (paired)."""
        return estimate_of(self.sums, f"{opponent}|share|gain")

    def edge(self, opponent: str) -> Estimate:
        """The champion's points per hand minus the naive rule's (paired)."""
        return estimate_of(self.sums, f"{opponent}|share|edge")

    def share(self, opponent: str) -> Estimate:
        """The rule set's gain over the naive rule divided by the champion's (a
        fraction), with its delta-method interval."""
        key = f"{opponent}|share|"
        return ratio_estimate(
            self.sums[key + "gain"],
            self.sums[key + "gain_sq"],
            self.sums[key + "edge"],
            self.sums[key + "edge_sq"],
            self.sums[key + "product"],
            self.sums[key + "gain_n"],
        )


def measure_arms(
    rules: Rules,
    deals: int,
    seed: int,
    chosen: Mapping[str, Policy],
    roles: Roles,
    opponents: Sequence[str] | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> PrinciplesRun:
    """Every arm of ``chosen`` (label -> policy, ``roles``' labels among them) against each
    of ``opponents`` (default: every member of :func:`panel_members`) on ``deals`` common
    deals from ``seed``, seats swapped."""
    names = tuple(opponents if opponents is not None else panel_members())
    unknown = [name for name in names if name not in panel_members()]
    if unknown or not names:
        raise ValueError(
            f"opponents must be panel members ({', '.join(panel_members())}), got {names!r}"
        )
    missing = [label for label in (roles.rule, roles.naive, roles.champion) if label not in chosen]
    if missing:
        raise ValueError(f"the arms lack {', '.join(missing)} (roles {roles})")
    chunk = max(512, -(-deals // 20))
    common = {
        "rules": rules,
        "seed": seed,
        "opponents": names,
        "chosen": dict(chosen),
        "roles": roles,
    }
    check = sums_check(_sums_ranges(names, list(chosen)))
    plan = ChunkPlan(principles_chunk, deals, chunk, common, check=check)

    def merge(total: dict[str, float], part: dict[str, float]) -> dict[str, float]:
        return merge_sums([total, part])

    empty: dict[str, float] = {}
    sums = fold_to_end(plan, merge, empty, scheduler, progress)
    return PrinciplesRun(names, deals, seed, sums)


__all__ = [
    "PANEL",
    "Principle",
    "PrinciplesRun",
    "Roles",
    "RuleSet",
    "RunEstimates",
    "measure_arms",
    "naive_gain",
    "panel_members",
    "principles_chunk",
    "worths_text",
]
