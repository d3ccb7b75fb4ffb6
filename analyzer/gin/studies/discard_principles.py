"""How should I discard?  The discard principles of the player's rule set
(:mod:`analyzer.gin.decisions.principles`), each measured by what leaving it out costs.

Every arm plays the champion's draw, knock and read of the opponent (the ``expert``
preset), so only the discard differs, on common deals with seats swapped, against each
opponent of the panel (:func:`panel_members`): the rule set (the ``principles`` preset),
the rule set without each principle, the rule set with no principle (always the highest
unmatched card, the baseline, labelled ``high``), the champion itself (its learned
discard) and MARJJ's discard (the published agent's next-draw term, with its own knock
check: the deadwood its throw leaves against the champion's knock tables, without the
expert's valuation of each knock).  The panel's line is the mean over its members, deal
by deal, so its intervals account for the common deals.  Chunks are reduced to sums, so
memory stays flat in the number of deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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
from .compare import add_values, estimate_of
from .exploit import panel
from .registry import classify

#: The preset of the player's rule set.
RULE_SET = "principles"
#: The panel's line, the mean over its members.
PANEL = "panel"


@dataclass(frozen=True)
class Principle:
    """One principle of the rule set: the policy change that leaves it out, and where in
    the champion's learned discard (:mod:`analyzer.gin.decisions.learned`) it comes from."""

    key: str
    without: dict[str, object]
    """The rule set's fields that leave this principle out."""
    words: str
    """The principle in a player's words (a sentence)."""
    learned: str
    """The learned discard's terms it stands for."""


PRINCIPLES: tuple[Principle, ...] = (
    Principle(
        "keep-melds",
        {"out_points": 0},
        "Keep the cards that can still make melds: count each card {out_points} points "
        "cheaper for every card that would make a meld with it and another card you hold.",
        "the expected deadwood after the next draw (`learned_future`, its heaviest weight)",
    ),
    Principle(
        "no-feeding",
        {"feed_points": 0},
        "Don't feed your opponent: count a card {feed_points} points cheaper when it has the "
        "rank of, or is within two ranks in the suit of, a card your opponent took from the "
        "discard pile.",
        "the chance the opponent melds the card and MARJJ's table of its use to the opponent "
        "(`learned_danger`, `learned_table`)",
    ),
    Principle(
        "live-only",
        {"live_only": False},
        "Count only the cards that can still come: not those in the discard pile or taken by "
        "your opponent.",
        "the live outs (`learned_outs`)",
    ),
    Principle(
        "late",
        {"late_stock": 0},
        "Late in the hand ({late_stock} or fewer cards left in the stock), stop counting melds "
        "to come: throw your highest unmatched card.",
        "the next-draw term's smaller weight late in the hand and the card's points late "
        "(`learned_future_late`, `learned_late`)",
    ),
)


def rule_set() -> Policy:
    """The player's rule set as a policy (the ``principles`` preset)."""
    return PRESETS[RULE_SET]


def principle_words(principle: Principle) -> str:
    """The principle's sentence with the rule set's numbers in it."""
    policy = rule_set()
    discard = policy.discard
    return principle.words.format(
        out_points=discard.out_points,
        feed_points=discard.feed_points,
        late_stock=discard.late_stock,
    )


def arms() -> dict[str, Policy]:
    """The discard arms by label, the rule set first (the reference of every difference)."""
    base = rule_set()
    chosen: dict[str, Policy] = {RULE_SET: base}
    for principle in PRINCIPLES:
        chosen[f"without {principle.key}"] = base.changed(**principle.without)
    # the highest unmatched card with the same knock (discard=high would knock by the
    # schedule alone, without the expert's valuation of each knock)
    chosen["high"] = base.changed(out_points=0, feed_points=0)
    chosen["champion"] = PRESETS["expert"]
    chosen["marjj discard"] = base.changed(discard="marjj")
    return chosen


def panel_members() -> dict[str, Player]:
    """The opponents: the knock answer's panel without ``search`` (whose rollouts on every
    knock would make each of the arms' runs some hundred times slower)."""
    return {name: player for name, player in panel().items() if not classify(player).searches}


def _deal_points(rules: Rules, a: Player, b: Player, seed: int, first: int, count: int) -> Float64s:
    rows = hand_rows(rules, a, b, seed, first, count)
    points: Float64s = rows[:, HandColumn.POINTS_A].astype(np.float64).reshape(-1, 2).mean(axis=1)
    return points


def _add(sums: dict[str, float], opponent: str, by_arm: dict[str, Float64s]) -> None:
    reference = by_arm[RULE_SET]
    for label, points in by_arm.items():
        add_values(sums, f"{opponent}|{label}|points", points)
        add_values(sums, f"{opponent}|{label}|diff", points - reference)
    gain = reference - by_arm["high"]
    edge = by_arm["champion"] - by_arm["high"]
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
) -> dict[str, float]:
    """Mergeable sums of the points per deal of every arm of ``chosen`` (label -> policy,
    with the labels of :func:`arms`' rule set, ``high`` and ``champion``) against each
    opponent of ``opponents`` (names of :func:`panel_members`) and the panel's mean, over
    deals ``first .. first + count``."""
    members = panel_members()
    sums: dict[str, float] = {}
    panel_points = {label: np.zeros(count) for label in chosen}
    for opponent in opponents:
        by_arm = {
            label: _deal_points(rules, policy, members[opponent], seed, first, count)
            for label, policy in chosen.items()
        }
        _add(sums, opponent, by_arm)
        for label, points in by_arm.items():
            panel_points[label] += points / len(opponents)
    if len(opponents) > 1:
        _add(sums, PANEL, panel_points)
    return sums


@dataclass(frozen=True)
class PrinciplesRun:
    """What :func:`measure_principles` measured: points per hand of each arm against each
    opponent (``PANEL``: the mean over the opponents), paired differences against the
    rule set, and the rule set's share of the champion's edge over the ``high`` discard."""

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
        """The rule set's points per hand minus the ``high`` discard's (paired)."""
        return estimate_of(self.sums, f"{opponent}|share|gain")

    def edge(self, opponent: str) -> Estimate:
        """The champion's points per hand minus the ``high`` discard's (paired)."""
        return estimate_of(self.sums, f"{opponent}|share|edge")

    def share(self, opponent: str) -> Estimate:
        """The rule set's gain over the ``high`` discard divided by the champion's (a
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


def measure_principles(
    rules: Rules,
    deals: int,
    seed: int,
    opponents: Sequence[str] | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    chosen: Mapping[str, Policy] | None = None,
) -> PrinciplesRun:
    """Every arm (``chosen``, default :func:`arms`; more arms for a fit of the rule's
    points, ``scripts/fit_principles.py``) against each of ``opponents`` (default: every
    member of :func:`panel_members`) on ``deals`` common deals from ``seed``, seats
    swapped."""
    names = tuple(opponents if opponents is not None else panel_members())
    unknown = [name for name in names if name not in panel_members()]
    if unknown or not names:
        raise ValueError(
            f"opponents must be panel members ({', '.join(panel_members())}), got {names!r}"
        )
    chunk = max(512, -(-deals // 20))
    labelled = dict(chosen or arms())
    common = {"rules": rules, "seed": seed, "opponents": names, "chosen": labelled}
    check = sums_check(_sums_ranges(names, list(labelled)))
    plan = ChunkPlan(principles_chunk, deals, chunk, common, check=check)

    def merge(total: dict[str, float], part: dict[str, float]) -> dict[str, float]:
        return merge_sums([total, part])

    empty: dict[str, float] = {}
    sums = fold_to_end(plan, merge, empty, scheduler, progress)
    return PrinciplesRun(names, deals, seed, sums)


__all__ = [
    "PANEL",
    "PRINCIPLES",
    "RULE_SET",
    "Principle",
    "PrinciplesRun",
    "arms",
    "measure_principles",
    "panel_members",
    "principle_words",
    "rule_set",
]
