""" "When to knock": one knock rule per opponent family, in words a player can remember.

Each answer is a knock table (see :mod:`analyzer.gin.studies.equilibrium`) played with a
base policy (``expert`` by default) for everything but the knock decision:

* against **an opponent you know nothing about**: the robust table, the heaviest table of
  the approximate knock equilibrium; its result is its mean over the opponent panel
  (:func:`analyzer.gin.studies.exploit.panel`, equally weighted);
* against **an opponent who knocks at once** (``basic``), **a camper** (``marjj``, the
  replica of a public EAAI agent) and **a gin hunter** (``gin-hunter``): the best knock
  table against that opponent (coordinate search with the significance rule), its result
  against that opponent.

Every answer is measured against every panel member on the same deals; its worst case is
the member it does worst against (the panel includes ``search``, which weighs each knock
by playing it out, so the worst case is what a stronger player takes from the rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ...core.progress import Counted, Progress, advance, tell_total
from ...core.stats import Estimate
from ..model.policies import Policy, policy_name
from ..model.rules import Rules
from ..play.players import Player
from .choices import NaiveGain, RuleChoice
from .compare import Arm, compare_hands
from .equilibrium import knock_coordinates, table_policy
from .exploit import MixturePayoffs, best_response, mixture_payoffs, table_of, table_text
from .schedule import SCHEDULE_BINS

#: The naive knock a player already follows, as a knock table (10 or less, the most the
#: standard rules allow, on every turn; the rules' own limit caps it) and in words.
NAIVE_TABLE = (10,) * (2 * len(SCHEDULE_BINS))
NAIVE_RULE = "knock as soon as you can"


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


def rule_size(table: tuple[int, ...]) -> int:
    """How many parts the words of a knock table have (:func:`rule_text`: one per span of
    turns with one threshold, and the alert half's when it differs): fewer is simpler."""
    bins = len(SCHEDULE_BINS)
    size = len(_spans(table[:bins]))
    if len(table) > bins and tuple(table[bins:]) != tuple(table[:bins]):
        size += len(_spans(table[bins:]))
    return size


def _spans(table: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """(first turn, last turn, threshold) of each run of bins with one threshold."""
    spans: list[tuple[int, int, int]] = []
    for (first, last), threshold in zip(SCHEDULE_BINS, table, strict=True):
        if spans and spans[-1][2] == threshold:
            spans[-1] = (spans[-1][0], last, threshold)
        else:
            spans.append((first, last, threshold))
    return spans


def _schedule_text(table: tuple[int, ...]) -> str:
    spans = _spans(table)
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


#: The opponent families the knock answer is given for: family -> (the opponent in a
#: player's words, the panel member that stands for it; None: the whole panel, equally
#: weighted, for an opponent the player knows nothing about).
FAMILIES: dict[str, tuple[str, str | None]] = {
    "unknown": ("an opponent you know nothing about", None),
    "knocks-at-once": ("an opponent who knocks as soon as it can", "basic"),
    "camper": (
        "a camper: an opponent who takes the cards you throw and waits for gin",
        "marjj",
    ),
    "gin-hunter": ("an opponent who waits for gin", "gin-hunter"),
}


@dataclass(frozen=True)
class AnswerLine:
    """The knock rule for one opponent family, and what it earns."""

    family: str
    """A key of :data:`FAMILIES`, or the policy string of a named opponent."""
    table: tuple[int, ...]
    """The knock table (:func:`analyzer.gin.studies.exploit.table_of`)."""
    opponent: str
    """The panel member it is measured against ("panel": the whole panel, equally weighted)."""
    result: Estimate
    """Points per hand against ``opponent`` (a member: measured again on twice the deals,
    fresh ones, as ``worst``)."""
    worst: Estimate
    """Points per hand against the panel member it does worst against: every member whose
    result's interval reaches the lowest one is measured again on twice the deals, fresh
    ones, and the lowest of those is the worst case (the least of several noisy results
    is biased low)."""
    worst_member: str
    naive: Estimate | None = None
    """Points per hand of this rule minus knocking as soon as you can (:data:`NAIVE_TABLE`,
    the same base play), paired deal by deal against ``opponent``: on the panel table's
    deals for the whole panel, on the fresh deals of ``result`` for a member (None: not
    measured, as in answers saved before it was)."""

    @property
    def rule(self) -> str:
        return rule_text(self.table)

    def naive_gain(self) -> NaiveGain | None:
        """The gain over the naive knock, for an answer's JSON (None when not measured)."""
        return None if self.naive is None else NaiveGain(NAIVE_RULE, self.naive)


@dataclass(frozen=True)
class KnockAnswers:
    """One knock rule per opponent family, each measured against every panel member on
    the same deals."""

    rules_name: str
    base: str
    """The policy that plays everything but the knock (its string form or preset name)."""
    lines: list[AnswerLine]
    panel: pd.DataFrame
    """Points per hand of each line (``answer``: its family) against each panel member
    (``member``), with the 95% CI (``points_low``, ``points_high``) and ``deals``."""
    deals: int
    """Deals per comparison (each played twice, seats swapped)."""
    compared: MixturePayoffs | None = None
    """The robust rule (candidate 0) and each extra table asked for (candidates 1..)
    against every member on the panel table's deals; None when none was asked for."""
    choices: tuple[tuple[RuleChoice, RuleChoice], ...] = ()
    """For each extra table (in order): the choice between it and the robust rule on
    average over the panel (from ``compared``) and in the worst case (:func:`worst_choice`,
    on fresh deals); empty when none was asked for or the answers were read back."""

    def line(self, family: str) -> AnswerLine:
        for line in self.lines:
            if line.family == family:
                return line
        raise KeyError(family)

    def to_frame(self) -> pd.DataFrame:
        """One row per line: its rule, its result against its opponent and its worst case,
        points per hand with 95% CIs."""
        return pd.DataFrame(
            [
                {
                    "rules": self.rules_name,
                    "base": self.base,
                    "family": line.family,
                    "table": table_text(line.table),
                    "rule": line.rule,
                    "opponent": line.opponent,
                    "points": line.result.mean,
                    "points_low": line.result.low,
                    "points_high": line.result.high,
                    "worst_member": line.worst_member,
                    "worst": line.worst.mean,
                    "worst_low": line.worst.low,
                    "worst_high": line.worst.high,
                    "worst_deals": line.worst.n,
                    "deals": self.deals,
                }
                | _naive_columns(line)
                for line in self.lines
            ]
        )

    def choices_frame(self) -> pd.DataFrame:
        """One row per choice of :attr:`choices`: the two rules, the criterion, their paired
        difference (first minus second, points per hand, 95% CI), whether it is decided and
        the rule kept (the simpler one when it is not), and the sentence."""
        return pd.DataFrame(
            [
                {
                    "first": choice.first,
                    "second": choice.second,
                    "by": choice.by,
                    "difference": choice.difference.mean,
                    "difference_low": choice.difference.low,
                    "difference_high": choice.difference.high,
                    "deals": choice.difference.n,
                    "decided": choice.decided,
                    "kept": choice.kept,
                    "text": choice.text(),
                }
                for pair in self.choices
                for choice in pair
            ],
            columns=[
                "first",
                "second",
                "by",
                "difference",
                "difference_low",
                "difference_high",
                "deals",
                "decided",
                "kept",
                "text",
            ],
        )


def _naive_columns(line: AnswerLine) -> dict[str, float]:
    """The naive-gain columns of a line's row (none when it was not measured)."""
    if line.naive is None:
        return {}
    return {"naive": line.naive.mean, "naive_low": line.naive.low, "naive_high": line.naive.high}


#: The columns of :meth:`KnockAnswers.to_frame` that answers saved before the naive
#: gain was measured lack: a reader takes them as optional.
NAIVE_COLUMNS = ("naive", "naive_low", "naive_high")


def knock_answers(
    rules: Rules,
    base: Policy,
    robust_table: tuple[int, ...],
    members: dict[str, Player],
    deals: int,
    seed: int,
    rules_name: str = "",
    families: dict[str, str | None] | None = None,
    search_deals: int | None = None,
    extra_tables: Sequence[tuple[int, ...]] = (),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> KnockAnswers:
    """The knock rule for each family of ``families`` (family -> the member of
    ``members`` that stands for it; default: :data:`FAMILIES`) with ``base`` play for
    everything else: ``robust_table`` for the unknown opponent (member None), the best
    knock table against the member otherwise (one sweep of coordinate search with the
    significance rule, ``search_deals`` deals per comparison, default ``deals``). Every
    line is then measured against every member on the same ``deals`` deals (seats
    swapped), which gives its result and its worst case, and so is knocking as soon as you
    can (:data:`NAIVE_TABLE`), which gives each line's paired gain over it.
    ``extra_tables`` are played by ``base`` on those deals too, paired with the robust
    rule: the answers' ``compared``; each is then chosen or not against the robust rule
    on average and in the worst case, outside the noise only (the answers' ``choices``)."""
    if families is None:
        families = {family: member for family, (_, member) in FAMILIES.items()}
    robust = table_policy(base, robust_table)
    # units: deals x candidates (x members); a search's sweep is bounded by its
    # coordinates' candidates plus one each (the current policy, when it moved away)
    search_deals = search_deals or deals
    search_units = search_deals * sum(len(c) + 1 for _, c in knock_coordinates(robust))
    searches = sum(member is not None for member in families.values())
    # the re-measure (see below) plays each line against a few members on twice the
    # deals; the exact count is told once known
    known = searches * search_units + deals * (len(families) + len(extra_tables) + 1) * len(members)
    tell_total(progress, known + 6 * deals * len(families) + 4 * deals * len(extra_tables))
    policies: dict[str, Policy] = {}
    for family, member in families.items():
        if member is None:
            policies[family] = robust
            continue
        counted = Counted(progress)
        search = best_response(
            rules,
            [members[member]],
            [1.0],
            robust,
            search_deals,
            seed + 1,
            rounds=1,
            coordinates=knock_coordinates,
            progress=counted,
            scheduler=scheduler,
        )
        advance(progress, search_units - counted.done)
        policies[family] = search.response
    names = list(members)
    weights = [1.0 / len(names)] * len(names)
    # families answered by the same table share its measurements; the robust rule leads
    # when extra tables are compared with it (the gains are relative to the first)
    extras = [table_policy(base, table) for table in extra_tables]
    lead = [robust] if extras else []
    naive = table_policy(base, NAIVE_TABLE)
    distinct = list(dict.fromkeys([*lead, *policies.values(), *extras, naive]))
    index_of = {family: distinct.index(policy) for family, policy in policies.items()}
    payoffs = mixture_payoffs(
        rules,
        distinct,
        list(members.values()),
        weights,
        deals,
        seed + 17,
        progress=progress,
        scheduler=scheduler,
        baseline=distinct.index(naive),
    )
    rows, suspects = [], {}
    for family, index in index_of.items():
        pairs = {name: payoffs.pair(index, j) for j, name in enumerate(names)}
        rows += [
            {
                "answer": family,
                "member": name,
                "points": estimate.mean,
                "points_low": estimate.low,
                "points_high": estimate.high,
                "deals": estimate.n,
            }
            for name, estimate in pairs.items()
        ]
        # every member that may be the worst: its interval reaches the lowest cell's
        lowest = min(pairs.values(), key=lambda estimate: estimate.mean)
        suspects[family] = {name for name, e in pairs.items() if e.low <= lowest.high}
    # the suspects and a line's own opponent are measured again on fresh deals, and the
    # worst case is the lowest of those measurements
    wanted: dict[int, set[str]] = {}
    for family, index in index_of.items():
        member = families[family]
        wanted.setdefault(index, set()).update(suspects[family], [] if member is None else [member])
    # the lines' own opponents are measured against the naive knock on the same fresh
    # deals too, for their gains over it
    own = {member for member in families.values() if member is not None}
    tell_total(
        progress,
        searches * search_units
        + deals * len(distinct) * len(members)
        + 2 * deals * (sum(len(names) for names in wanted.values()) + len(own))
        + 4 * deals * len(extras),
    )
    again, over_naive = _measure_again(
        rules, distinct, wanted, members, 2 * deals, seed + 31, progress, scheduler, naive, own
    )
    lines = []
    for family, index in index_of.items():
        member = families[family]
        worst = min(suspects[family], key=lambda name: again[index, name].mean)
        lines.append(
            AnswerLine(
                family,
                table_of(distinct[index]),
                "panel" if member is None else member,
                payoffs.value(index) if member is None else again[index, member],
                again[index, worst],
                worst,
                payoffs.over_baseline(index) if member is None else over_naive[index, member],
            )
        )
    compared = (
        payoffs.select([distinct.index(policy) for policy in lead + extras]) if extras else None
    )
    choices = tuple(
        _choices(
            rules,
            payoffs,
            names,
            members,
            (robust, distinct.index(robust)),
            (extra, distinct.index(extra)),
            2 * deals,
            seed + 43 + number,
            progress,
            scheduler,
        )
        for number, extra in enumerate(extras)
    )
    return KnockAnswers(
        rules_name, policy_name(base), lines, pd.DataFrame(rows), deals, compared, choices
    )


def _negated(estimate: Estimate) -> Estimate:
    """The estimate of minus the quantity (the interval mirrored)."""
    return Estimate(-estimate.mean, -estimate.high, -estimate.low, estimate.n)


def _choices(
    rules: Rules,
    payoffs: MixturePayoffs,
    names: list[str],
    members: dict[str, Player],
    first: tuple[Policy, int],
    second: tuple[Policy, int],
    deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
) -> tuple[RuleChoice, RuleChoice]:
    """The choice between two candidates of ``payoffs`` (policy, index; the reference
    candidate first) on average over the members, from ``payoffs``, and in the worst
    case: each one's worst member is the lowest cell of its row in ``payoffs``, and the
    worst cases are compared on ``deals`` fresh deals (:func:`worst_choice`)."""
    (first_policy, first_index), (second_policy, second_index) = first, second
    average = RuleChoice(
        rule_text(table_of(first_policy)),
        rule_text(table_of(second_policy)),
        "on average over the test opponents",
        _negated(payoffs.gain(second_index)),
        rule_size(table_of(first_policy)),
        rule_size(table_of(second_policy)),
    )

    def worst_of(index: int) -> str:
        return min(names, key=lambda name: payoffs.pair(index, names.index(name)).mean)

    worst = worst_choice(
        rules,
        (first_policy, worst_of(first_index)),
        (second_policy, worst_of(second_index)),
        members,
        deals,
        seed,
        progress,
        scheduler,
    )
    return average, worst


def worst_choice(
    rules: Rules,
    first: tuple[Policy, str],
    second: tuple[Policy, str],
    members: dict[str, Player],
    deals: int,
    seed: int,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> RuleChoice:
    """The choice between two knock rules by their worst cases: each rule (a policy with
    the name of the member of ``members`` it does worst against, chosen on other deals)
    plays that member on the same ``deals`` deals (seats swapped), and the difference of
    the two results is paired deal by deal (the same opponent when both worst members are
    one)."""
    (first_policy, first_member), (second_policy, second_member) = first, second
    table = compare_hands(
        [
            Arm("second", rules, second_policy, members[second_member]),
            Arm("first", rules, first_policy, members[first_member]),
        ],
        deals,
        seed,
        progress=progress,
        scheduler=scheduler,
    )
    row = table.iloc[1]
    difference = Estimate(
        float(row["diff_mean"]), float(row["diff_low"]), float(row["diff_high"]), int(row["n"])
    )
    against = (
        f"both against `{first_member}`"
        if first_member == second_member
        else f"against `{first_member}` and `{second_member}`"
    )
    return RuleChoice(
        rule_text(table_of(first_policy)),
        rule_text(table_of(second_policy)),
        "in its worst case",
        difference,
        rule_size(table_of(first_policy)),
        rule_size(table_of(second_policy)),
        f"{against}, each rule's lowest cell, on {difference.n:,} fresh deals",
    )


def _measure_again(
    rules: Rules,
    policies: list[Policy],
    wanted: dict[int, set[str]],
    members: dict[str, Player],
    deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
    naive: Policy,
    own: set[str],
) -> tuple[dict[tuple[int, str], Estimate], dict[tuple[int, str], Estimate]]:
    """Points per hand of each policy (by index) against each member ``wanted`` for it
    (the own opponents of the lines it answers and the members it may do worst against),
    measured again on ``deals`` fresh deals: the least of several noisy results is biased
    low (a 1,000-deal cell against ``marjj`` can miss by 2 points, BENCHMARKS.md), and a
    line's result and worst case against the same member must be one number.  Against
    the members of ``own`` the ``naive`` policy plays the same deals, and the second
    mapping holds each policy's paired gain over it there."""
    by_member: dict[str, list[int]] = {}
    for index, names in wanted.items():
        for name in names:
            by_member.setdefault(name, []).append(index)
    values, gains = {}, {}
    for member, group in by_member.items():
        candidates = [policies[index] for index in group]
        baseline = None
        if member in own:
            baseline = len(candidates)
            candidates.append(naive)
        table = mixture_payoffs(
            rules,
            candidates,
            [members[member]],
            [1.0],
            deals,
            seed,
            progress=progress,
            scheduler=scheduler,
            baseline=baseline,
        )
        values.update({(index, member): table.value(i) for i, index in enumerate(group)})
        if baseline is not None:
            gains.update({(index, member): table.over_baseline(i) for i, index in enumerate(group)})
    return values, gains
