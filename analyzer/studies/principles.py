"""How should I discard?  When should I take the upcard?  Each a rule a person can
follow, its principles and what each is worth, measured with the champion's play for the
other decisions.

Both studies (``analyzer how-to-discard``, ``analyzer how-to-draw``) play, under one rules
preset, the player's rule set for the decision
(:mod:`analyzer.gin.studies.discard_principles`, :mod:`analyzer.gin.studies.draw_principles`),
the rule set without each principle, the naive rule a player already follows, the
champion's own rule and MARJJ's against every test opponent on common deals
(:meth:`~analyzer.gin.studies.principle_runs.RuleSet.measure`).  The answers are kept in
``results/how_to_discard/<rules>/`` and ``results/how_to_draw/<rules>/`` and read from
there by every door; ``--opponent`` only chooses which opponent's numbers are shown.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..core.limits import MAX_SEARCH_DEALS, MIN_SEARCH_DEALS
from ..core.progress import Progress
from ..core.stats import Estimate
from ..gin.model.policies import Policy
from ..gin.studies.answers import FAMILIES
from ..gin.studies.choices import NaiveGain
from ..gin.studies.discard_principles import DISCARD
from ..gin.studies.draw_principles import DRAW
from ..gin.studies.principle_runs import PANEL, RuleSet, panel_members, worths_text
from .charts import Axis, Chart, Mark, Panel
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import ANSWER_WIDTH, CI_NOTE, answer_lines, bracket_text, estimate_text, header_lines

#: What a principle is worth below which it is not shown to matter: its interval holds 0.
NOT_SHOWN = "not shown to matter"
#: The parts of the ``shares`` table: the rule's gain over the naive rule, the
#: champion's, and the share of the champion's the rule keeps.
_SHARE_PARTS = ("gain", "edge", "share")


@dataclass(frozen=True)
class Decision:
    """One decision's answer: its rule set and how the answer speaks of it."""

    rule_set: RuleSet
    kept: str
    """Where the answers are kept in the report folder, one subfolder per rules preset."""
    question: str
    """The title's question (``How to discard``)."""
    others: str
    """What the champion plays besides (``draw and knock as expert``)."""
    published: str
    """The published agent's rule for the decision, in a few words."""
    sentence: Callable[[Policy], str]
    """The rule set in one sentence, in a player's words."""


def _discard_sentence(policy: Policy) -> str:
    terms = [f"less {term}" for term in policy.discard.principle_terms(you=True)]
    counted = "its points" + "".join(f", {term}" for term in terms)
    return (
        "When you do not knock, throw one of your unmatched cards (never break a meld): the "
        f"one worth most, counting {counted}."
    )


def _draw_sentence(policy: Policy) -> str:
    terms = policy.draw.principle_terms(you=True)
    return f"Take the face-up card when {'; or when '.join(terms)}; else draw from the stock."


DISCARDING = Decision(
    DISCARD,
    "how_to_discard",
    "How to discard",
    "draw and knock as expert",
    "MARJJ's discard (the published EAAI agent's: the deadwood expected after the next draw)",
    _discard_sentence,
)
DRAWING = Decision(
    DRAW,
    "how_to_draw",
    "When to take the upcard",
    "discard and knock as expert",
    "MARJJ's draw (the published EAAI agent's: the upcard only when it lowers the deadwood "
    "and melds)",
    _draw_sentence,
)


def member_of(opponent: str) -> str:
    """The panel member (or :data:`PANEL`) an opponent argument stands for: a family of
    :data:`~analyzer.gin.studies.answers.FAMILIES` or a member's name."""
    for family, (_, member) in FAMILIES.items():
        if opponent == family:
            return PANEL if member is None else member
    if opponent in panel_members():
        return opponent
    raise ValueError(
        f"opponent {opponent!r} is neither a family ({', '.join(FAMILIES)}) nor a panel "
        f"member ({', '.join(panel_members())})"
    )


def opponent_words(member: str, members: tuple[str, ...]) -> str:
    """The opponent in a player's words, with the name of the player that stands for it."""
    if member == PANEL:
        return f"{FAMILIES['unknown'][0]} (the mean over {', '.join(members)})"
    for words, stands in FAMILIES.values():
        if stands == member:
            return f"{words} (`{member}`)"
    return f"`{member}`"


def _columns(part: str, estimate: Estimate) -> dict[str, str | float]:
    return {
        f"{part}_mean": estimate.mean,
        f"{part}_low": estimate.low,
        f"{part}_high": estimate.high,
    }


def _compute(
    decision: Decision, inputs: Inputs, progress: Progress | None, scheduler: str | None
) -> Computed:
    member_of(inputs["opponent"])  # an unknown opponent fails before any work
    run = decision.rule_set.measure(
        inputs.rules, inputs["deals"], inputs.seed, progress=progress, scheduler=scheduler
    )
    records: list[dict[str, str | float]] = []
    shares: list[dict[str, str | float]] = []
    for opponent in (*run.opponents, PANEL):
        for arm in decision.rule_set.arms():
            records.append(
                {"opponent": opponent, "arm": arm}
                | _columns("points", run.points(opponent, arm))
                | _columns("diff", run.diff(opponent, arm))
            )
        row: dict[str, str | float] = {"opponent": opponent}
        for part, estimate in zip(_SHARE_PARTS, (run.gain, run.edge, run.share), strict=True):
            row |= _columns(part, estimate(opponent))
        shares.append(row)
    tables = {"arms": pd.DataFrame.from_records(records), "shares": pd.DataFrame(shares)}
    return Computed(tables, {"opponents": list(run.opponents)}, result=run)


@dataclass(frozen=True)
class PrincipleLine:
    """One principle and what leaving it out of the rule set costs."""

    key: str
    words: str
    learned: str
    worth: Estimate
    """Points per hand the rule set scores above itself without the principle (paired)."""


@dataclass(frozen=True)
class PrinciplesAnswer:
    """One decision's rule against one opponent under one rules preset."""

    decision: Decision
    rules_name: str
    member: str
    """The panel member measured against, or :data:`PANEL` (the mean over ``members``)."""
    members: tuple[str, ...]
    lines: tuple[PrincipleLine, ...]
    """By worth, the most first."""
    gain: Estimate
    """The rule set's points per hand minus the naive rule's (paired)."""
    edge: Estimate
    """The champion's points per hand minus the naive rule's (paired)."""
    share: Estimate
    """``gain / edge`` (a fraction)."""
    marjj: Estimate
    """MARJJ's rule's points per hand minus the rule set's (paired)."""
    champion: Estimate
    """The champion's points per hand minus the rule set's (paired)."""
    deals: int
    seed: int
    source: str

    @property
    def title(self) -> str:
        if self.member == PANEL:
            against = f"an unknown opponent ({len(self.members)} test opponents)"
        else:
            family = next((f for f, (_, m) in FAMILIES.items() if m == self.member), None)
            against = f"`{self.member}`" + (f" ({family})" if family else "")
        return f"{self.decision.question} · {self.rules_name} rules · against {against}"

    def run_text(self) -> str:
        return (
            f"{self.decision.others} · {self.deals:,} deals per player and opponent, seats "
            f"swapped · seed {self.seed}"
        )

    def rule(self) -> str:
        """The rule set in one sentence, in a player's words."""
        return self.decision.sentence(self.decision.rule_set.policy())

    @property
    def naive(self) -> NaiveGain:
        """The rule's gain over the naive rule a player already follows."""
        return NaiveGain(self.decision.rule_set.roles.naive_words, self.gain)

    def text(self) -> str:
        """The answer as ``analyzer how-to-discard`` prints it (at most 100 columns)."""

        def item(text: str, start: str) -> list[str]:
            return textwrap.wrap(
                text,
                ANSWER_WIDTH,
                initial_indent=start,
                subsequent_indent=" " * len(start),
                break_on_hyphens=False,
                break_long_words=False,
            )

        lines = [*header_lines(self.title, ""), *header_lines(self.run_text(), "  "), ""]
        lines += answer_lines(f"Against {opponent_words(self.member, self.members)}.")
        lines += [*answer_lines(self.rule()), ""]
        lines += ["The principles behind it, by what each is worth (points per hand):"]
        for number, line in enumerate(self.lines, 1):
            worth = estimate_text(line.worth, 2, sign=True)
            if line.worth.low <= 0 <= line.worth.high:
                worth += f", {NOT_SHOWN}"
            lines += item(f"{line.words} Worth {worth}.", f"  {number}. ")
        lines += ["", "Where each comes from in the champion's play:"]
        for line in self.lines:
            lines += item(f"{line.key}: {line.learned}.", "  - ")
        lines += [""]
        preset = self.decision.rule_set.preset
        worths = worths_text(
            [line.worth.mean for line in self.lines], self.gain.mean, self.decision.rule_set.roles
        )
        lines += answer_lines(
            "A principle's worth is what leaving it out of the rule costs, on the same deals. "
            f"{worths} The rule is the preset `{preset}` (`analyzer games --a {preset} --b "
            f"basic` plays it). {self.decision.published} scores "
            f"{estimate_text(self.marjj, 2, sign=True)} points per hand more than the rule."
        )
        lines += ["", *answer_lines(f"Source: {self.source}."), CI_NOTE, ""]
        lines += answer_lines(f"Result: {self.result_text()}.")
        return "\n".join(lines)

    def result_text(self) -> str:
        """What following the rule earns over the naive rule, and the share of the
        champion's edge it keeps; "too close to call" when the rule's gain has an
        interval holding 0."""
        gain = estimate_text(self.gain, 2, sign=True)
        naive = f"the naive rule ({self.naive.rule})"
        if self.gain.low <= 0 <= self.gain.high:
            verdict = f"the rule and {naive} are too close to call ({gain} points per hand)"
        else:
            verdict = f"the rule gains {gain} points per hand over {naive}"
        return (
            f"{verdict}; the champion's {self.decision.rule_set.decision} gains "
            f"{estimate_text(self.edge, 2, sign=True)}, so the rule keeps "
            f"{bracket_text(*self.share.as_tuple())} of the champion's edge"
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per principle: its words and worth (points per hand, 95% CI)."""
        return pd.DataFrame.from_records(
            {
                "principle": line.key,
                "words": line.words,
                "worth_mean": line.worth.mean,
                "worth_low": line.worth.low,
                "worth_high": line.worth.high,
            }
            for line in self.lines
        )

    def chart_description(self) -> Chart:
        """Each principle's worth, then the whole rule's and the champion's gain over the
        naive discard, as bars with 95% CIs."""
        rows = [(line.key, line.worth, 0) for line in self.lines]
        champion = f"the champion's {self.decision.rule_set.decision}"
        rows += [("the whole rule", self.gain, 2), (champion, self.edge, 3)]
        marks = tuple(
            Mark("hbars", x=(e.mean,), y=(name,), low=(e.low,), high=(e.high,), color=color)
            for name, e, color in rows
        )
        return Chart(
            "principles",
            self.title,
            "Points per hand each principle is worth (what leaving it out costs), then what "
            f"the whole rule and {champion} gain over the naive rule ({self.naive.rule}); "
            f"bars: 95% CIs. {self.deals:,} deals per player and opponent, seed {self.seed}, "
            f"{self.rules_name} rules.",
            (
                Panel(
                    (*marks, Mark("vline", x=(0.0,), color=7)),
                    x_label="points per hand",
                    y=Axis(reversed=True),
                    legend="none",
                ),
            ),
            size=(8, 3.2),
        )

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data (what ``--json`` prints and the web app shows)."""
        return {
            "title": self.title,
            "rules": self.rules_name,
            "opponent": self.member,
            "rule": self.rule(),
            "principles": [
                {"key": line.key, "words": line.words, "learned": line.learned}
                | _interval(line.worth)
                for line in self.lines
            ],
            "result_text": self.result_text(),
            "naive": self.naive.as_dict(),
            "gain": _interval(self.gain),
            "edge": _interval(self.edge),
            "share": _interval(self.share),
            "marjj": _interval(self.marjj),
            "champion": _interval(self.champion),
            "deals": self.deals,
            "seed": self.seed,
            "source": self.source,
            "text": self.text(),
        }


def _interval(estimate: Estimate) -> dict[str, float]:
    return {"mean": estimate.mean, "low": estimate.low, "high": estimate.high}


def _estimate(row: pd.Series, part: str, deals: int) -> Estimate:
    return Estimate(
        float(row[f"{part}_mean"]), float(row[f"{part}_low"]), float(row[f"{part}_high"]), deals
    )


def principles_answer(
    decision: Decision, answer: Any, opponent: str | None = None
) -> PrinciplesAnswer:
    """The answer against one opponent (default: the one ``--opponent`` asks for) from
    the kept or fresh study answer."""
    inputs = answer.inputs
    member = member_of(opponent or inputs["opponent"])
    deals = inputs["deals"]
    table = answer["arms"][answer["arms"]["opponent"] == member].set_index("arm")
    shares = answer["shares"][answer["shares"]["opponent"] == member]
    if table.empty or len(shares) != 1 or not table.index.is_unique:
        raise ValueError(f"this answer holds no single set of numbers against {member!r}")
    share = shares.iloc[0]

    def diff(arm: str) -> Estimate:
        return _estimate(table.loc[arm], "diff", deals)

    rule_set = decision.rule_set
    lines = sorted(
        (
            PrincipleLine(
                principle.key,
                rule_set.words(principle),
                principle.learned,
                Estimate(-d.mean, -d.high, -d.low, d.n),
            )
            for principle in rule_set.principles
            for d in [diff(f"without {principle.key}")]
        ),
        key=lambda line: -line.worth.mean,
    )
    return PrinciplesAnswer(
        decision,
        inputs.rules_name,
        member,
        tuple(answer.facts["opponents"]),
        tuple(lines),
        _estimate(share, "gain", deals),
        _estimate(share, "edge", deals),
        _estimate(share, "share", deals),
        diff(rule_set.published[0]),
        diff(rule_set.roles.champion),
        deals,
        inputs.seed,
        answer.source or "computed now",
    )


def covers(answer: Any, inputs: Inputs) -> bool:
    """Whether a kept answer holds the opponent ``inputs`` ask for."""
    return member_of(inputs["opponent"]) in set(answer["arms"]["opponent"])


def _study(
    decision: Decision, name: str, summary: str, what: str, examples: tuple[str, ...]
) -> Study:
    """The study of one decision's answer."""

    def compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
        return _compute(decision, inputs, progress, scheduler)

    def present(answer: Any) -> View:
        spoken = principles_answer(decision, answer)
        return View(
            spoken.title,
            [],
            spoken.result_text(),
            spoken.chart_description(),
            frame=spoken.to_frame(),
            data=spoken.to_dict(),
            text=spoken.text(),
        )

    return register(
        Study(
            name,
            summary,
            f"The principles of a rule a person can follow {what}, each with what it is worth "
            "in points per hand against the opponent (95% CIs), what the rule gains over the "
            f"naive rule ({decision.rule_set.roles.naive_words}), and how much of the "
            "champion's edge it keeps. Read from the report folder when it keeps the answer "
            f"for the rules preset (results/{decision.kept}/<rules>/), computed otherwise "
            "(minutes at the default size).",
            examples,
            (
                Param(
                    "opponent",
                    Kind.TEXT,
                    "unknown",
                    f"Whom you play: a family ({', '.join(FAMILIES)}) or a test opponent "
                    f"({', '.join(panel_members())}).",
                    metavar="FAMILY|MEMBER",
                ),
                Param(
                    "deals",
                    Kind.COUNT,
                    10_000,
                    "Deals per player and opponent (each twice, seats swapped).",
                    low=MIN_SEARCH_DEALS,
                    high=MAX_SEARCH_DEALS,
                ),
                Param(
                    "results",
                    Kind.FOLDER,
                    None,
                    "Report folder to read the answer from (default: $ANALYZER_RESULTS, else "
                    "./results, else the results/ of the project an editable install came "
                    "from).",
                ),
            ),
            compute,
            present,
            step=name.replace("-", " "),
            count="deals",
            kept=decision.kept,
            view=("opponent",),
            keys={"arms": ("opponent", "arm"), "shares": ("opponent",)},
            covers=covers,
            notebook="``.plot()``: each principle's worth; ``.to_dict()``: the answer's data.",
        )
    )


HOW_TO_DISCARD = _study(
    DISCARDING,
    "how-to-discard",
    "How should I discard? The principles, with their worth.",
    "when throwing a card",
    (
        "analyzer how-to-discard",
        "analyzer how-to-discard --opponent camper",
        "analyzer how-to-discard --rules oklahoma --opponent basic --deals 2000",
        "analyzer how-to-discard --rules classic --out results/how_to_discard/classic",
    ),
)
HOW_TO_DRAW = _study(
    DRAWING,
    "how-to-draw",
    "Should I take the upcard? The principles, with their worth.",
    "when the face-up card is offered",
    (
        "analyzer how-to-draw",
        "analyzer how-to-draw --opponent gin-hunter",
        "analyzer how-to-draw --rules eaai --out results/how_to_draw/eaai",
    ),
)

__all__ = [
    "DISCARDING",
    "DRAWING",
    "HOW_TO_DISCARD",
    "HOW_TO_DRAW",
    "Decision",
    "PrincipleLine",
    "PrinciplesAnswer",
    "member_of",
    "opponent_words",
    "principles_answer",
]
