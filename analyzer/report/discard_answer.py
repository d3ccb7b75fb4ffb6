"""The discard answer in a player's words: "how should I discard?".

:func:`discard_answer` gives it for a rules preset and an opponent family (or panel
member): read from ``results/how_to_discard/<rules>/`` when the results store holds it
(written by ``analyzer how-to-discard --rules R --out results``), computed otherwise
(:func:`analyzer.gin.studies.discard_principles.measure_principles`, minutes).
``analyzer how-to-discard``, ``az.how_to_discard()``, the report's second box and the web
app's strategy page all print it through :meth:`DiscardAnswer.text` (or
:meth:`DiscardAnswer.to_dict`), so they say the same thing the same way.
"""

from __future__ import annotations

import html
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.progress import Progress
from ..core.stats import Estimate
from ..gin.model.describe import rule_changes_text
from ..gin.model.policies import Policy
from ..gin.model.rules import resolve_rules
from ..gin.studies.answers import FAMILIES
from ..gin.studies.discard_principles import (
    PANEL,
    PRINCIPLES,
    RULE_SET,
    PrinciplesRun,
    arms,
    measure_principles,
    panel_members,
    principle_words,
    rule_set,
)
from ..studies.files import staged_folder, write_csv, write_text
from ..studies.reading import COUNT, NUMBER, TEXT, read_meta, read_table
from ..studies.store import find_report
from ..studies.text import (
    ANSWER_WIDTH,
    CI_NOTE,
    answer_lines,
    bracket_text,
    estimate_text,
    header_lines,
)
from .knock_answer import same_hands_presets

#: The answers' folder inside the report folder (one subfolder per rules preset).
FOLDER = "how_to_discard"
#: What a principle is worth below which it is not shown to matter: its interval holds 0.
NOT_SHOWN = "not shown to matter"
#: The table of every arm against every opponent.
TABLE = "arms.csv"
_TABLE_COLUMNS = {
    "opponent": TEXT,
    "arm": TEXT,
    "points_mean": NUMBER,
    "points_low": NUMBER,
    "points_high": NUMBER,
    "diff_mean": NUMBER,
    "diff_low": NUMBER,
    "diff_high": NUMBER,
    "deals": COUNT,
}
#: The rule set's gain over the ``high`` discard, the champion's, and the share.
SHARES = "shares.csv"
_SHARE_PARTS = ("gain", "edge", "share")
_SHARE_COLUMNS = {"opponent": TEXT} | {
    f"{part}_{end}": NUMBER for part in _SHARE_PARTS for end in ("mean", "low", "high")
}


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


@dataclass(frozen=True)
class PrincipleLine:
    """One principle and what leaving it out of the rule set costs."""

    key: str
    words: str
    learned: str
    worth: Estimate
    """Points per hand the rule set scores above itself without the principle (paired)."""


@dataclass(frozen=True)
class DiscardAnswer:
    """How to discard against one opponent under one rules preset (see the module notes)."""

    rules_name: str
    member: str
    """The panel member measured against, or :data:`PANEL` (the mean over ``members``)."""
    members: tuple[str, ...]
    lines: tuple[PrincipleLine, ...]
    """By worth, the most first."""
    gain: Estimate
    """The rule set's points per hand minus the ``high`` discard's (paired)."""
    edge: Estimate
    """The champion's points per hand minus the ``high`` discard's (paired)."""
    share: Estimate
    """``gain / edge`` (a fraction)."""
    marjj: Estimate
    """MARJJ's discard's points per hand minus the rule set's (paired)."""
    champion: Estimate
    """The champion's points per hand minus the rule set's (paired)."""
    deals: int
    seed: int
    source: str

    def title(self) -> str:
        if self.member == PANEL:
            against = f"an unknown opponent ({len(self.members)} test opponents)"
        else:
            family = next((f for f, (_, m) in FAMILIES.items() if m == self.member), None)
            against = f"`{self.member}`" + (f" ({family})" if family else "")
        return f"How to discard · {self.rules_name} rules · against {against}"

    def run_text(self) -> str:
        return (
            f"draw and knock as expert · {self.deals:,} deals per player and opponent, seats "
            f"swapped · seed {self.seed}"
        )

    def rule(self) -> str:
        """The rule set in one sentence, in a player's words."""
        return rule_words(rule_set())

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

        lines = [*header_lines(self.title(), ""), *header_lines(self.run_text(), "  "), ""]
        lines += answer_lines(f"Against {opponent_words(self.member, self.members)}.")
        lines += [*answer_lines(self.rule()), ""]
        lines += ["The principles behind it, by what each is worth (points per hand):"]
        for number, line in enumerate(self.lines, 1):
            worth = estimate_text(line.worth, 2, sign=True)
            if line.worth.low <= 0 <= line.worth.high:
                worth += f", {NOT_SHOWN}"
            lines += item(f"{line.words} Worth {worth}.", f"  {number}. ")
        lines += [
            "",
            "Where each comes from in the champion's discard, learned from simulated deals:",
        ]
        for line in self.lines:
            lines += item(f"{line.key}: {line.learned}.", "  - ")
        lines += [""]
        lines += answer_lines(
            "A principle's worth is what leaving it out of the rule costs, on the same deals. "
            f"The rule is the preset `{RULE_SET}` (`analyzer games --a {RULE_SET} --b basic` "
            f"plays it). MARJJ's discard (the published EAAI agent's: the deadwood expected "
            f"after the next draw) scores {estimate_text(self.marjj, 2, sign=True)} points per "
            "hand more than the rule."
        )
        lines += ["", *answer_lines(f"Source: {self.source}.")]
        lines += [CI_NOTE, ""]
        lines += answer_lines(f"Result: {self.result_text()}.")
        return "\n".join(lines)

    def result_text(self) -> str:
        """What following the rule earns over always throwing the highest unmatched card,
        and the share of the champion's edge it keeps; "too close to call" when the
        rule's gain has an interval holding 0."""
        gain = estimate_text(self.gain, 2, sign=True)
        against = "always throwing your highest unmatched card (basic's discard)"
        if self.gain.low <= 0 <= self.gain.high:
            verdict = f"the rule and {against} are too close to call ({gain} points per hand)"
        else:
            verdict = f"the rule gains {gain} points per hand over {against}"
        return (
            f"{verdict}; the champion's discard gains "
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

    def chart_rows(self) -> pd.DataFrame:
        """What the chart shows, one row per bar (points per hand, 95% CI): each
        principle's worth, then the rule set's and the champion's gain over the ``high``
        discard."""
        rows = [(line.key, line.worth) for line in self.lines]
        rows += [("the whole rule", self.gain), ("the champion's discard", self.edge)]
        return pd.DataFrame.from_records(
            {"bar": name, "mean": value.mean, "low": value.low, "high": value.high}
            for name, value in rows
        )

    def plot(self) -> Any:
        """The principles' worth as a bar chart with 95% CIs: a
        :class:`matplotlib.figure.Figure`, shown by a notebook; ``.savefig(path)`` writes it."""
        from .figures import chart

        rows = self.chart_rows()
        with chart(
            figsize=(8, 3.2),
            title=self.title(),
            caption="Points per hand each principle is worth (what leaving it out costs), "
            "then what the whole rule and the champion's learned discard gain over always "
            f"throwing the highest unmatched card; bars: 95% CIs. {self.deals:,} deals per "
            f"player and opponent, seed {self.seed}, {self.rules_name} rules.",
        ) as drawn:
            axes = drawn.axes
            places = list(range(len(rows)))[::-1]
            axes.barh(
                places,
                rows["mean"],
                xerr=[rows["mean"] - rows["low"], rows["high"] - rows["mean"]],
                color=["#4c72b0"] * len(self.lines) + ["#55a868", "#c44e52"],
                capsize=3,
            )
            axes.set_yticks(places, rows["bar"])
            axes.axvline(0, color="black", linewidth=0.8)
            axes.set_xlabel("points per hand")
        return drawn.axes.figure

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        items = "".join(
            f"<li>{html.escape(line.words)} <b>{estimate_text(line.worth, 2, sign=True)}</b></li>"
            for line in self.lines
        )
        return (
            f"<p><b>{html.escape(self.title())}</b></p><p>{html.escape(self.rule())}</p>"
            f"<ol>{items}</ol><p>The rule gains {estimate_text(self.gain, 2, sign=True)} "
            f"points per hand over the highest card, the champion "
            f"{estimate_text(self.edge, 2, sign=True)}: the rule keeps "
            f"{bracket_text(*self.share.as_tuple())} of its edge.</p><p><small>{self.deals:,} deals per "
            f"player and opponent, seed {self.seed}; {html.escape(self.source)}.</small></p>"
        )

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-ready data (the web app's)."""
        return {
            "title": self.title(),
            "rules": self.rules_name,
            "opponent": self.member,
            "rule": self.rule(),
            "principles": [
                {"key": line.key, "words": line.words, "learned": line.learned}
                | _interval(line.worth)
                for line in self.lines
            ],
            "result_text": self.result_text(),
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


def rule_words(policy: Policy) -> str:
    """The ``principles`` discard of ``policy`` in a player's words (one sentence)."""
    terms = [f"less {term}" for term in policy.discard.principle_terms(you=True)]
    counted = "its points" + "".join(f", {term}" for term in terms)
    return (
        "When you do not knock, throw one of your unmatched cards (never break a meld): the "
        f"one worth most, counting {counted}."
    )


def _interval(estimate: Estimate) -> dict[str, float]:
    return {"mean": estimate.mean, "low": estimate.low, "high": estimate.high}


def answer_of(
    run: PrinciplesRun | SavedRun, rules_name: str, member: str, source: str
) -> DiscardAnswer:
    """The answer against ``member`` (or :data:`PANEL`) from a measured run."""
    lines = [
        PrincipleLine(
            principle.key,
            principle_words(principle),
            principle.learned,
            _negated(run.diff(member, f"without {principle.key}")),
        )
        for principle in PRINCIPLES
    ]
    lines.sort(key=lambda line: -line.worth.mean)
    return DiscardAnswer(
        rules_name,
        member,
        run.opponents,
        tuple(lines),
        run.gain(member),
        run.edge(member),
        run.share(member),
        run.diff(member, "marjj discard"),
        run.diff(member, "champion"),
        run.deals,
        run.seed,
        source,
    )


def _negated(estimate: Estimate) -> Estimate:
    return Estimate(-estimate.mean, -estimate.high, -estimate.low, estimate.n)


def _columns(part: str, estimate: Estimate) -> dict[str, float]:
    return {
        f"{part}_mean": estimate.mean,
        f"{part}_low": estimate.low,
        f"{part}_high": estimate.high,
    }


def save_run(results: Path, run: PrinciplesRun, rules_name: str, command: str) -> Path:
    """Write ``run`` (made by ``command``) where :func:`discard_answer` reads it (whole or
    not at all); the folder written."""
    folder = results / FOLDER / rules_name
    records = []
    shares = []
    for opponent in (*run.opponents, PANEL):
        for arm in arms():
            points, diff = run.points(opponent, arm), run.diff(opponent, arm)
            records.append(
                {"opponent": opponent, "arm": arm}
                | _columns("points", points)
                | _columns("diff", diff)
                | {"deals": run.deals}
            )
        parts = (run.gain(opponent), run.edge(opponent), run.share(opponent))
        shares.append(
            {"opponent": opponent}
            | {
                key: value
                for part, estimate in zip(_SHARE_PARTS, parts, strict=True)
                for key, value in _columns(part, estimate).items()
            }
        )
    meta = {
        "study": "how_to_discard",
        "rules": rules_name,
        "seed": run.seed,
        "deals": run.deals,
        "opponents": list(run.opponents),
        "command": command,
    }
    with staged_folder(folder):
        write_csv(folder / TABLE, pd.DataFrame.from_records(records), index=False)
        write_csv(folder / SHARES, pd.DataFrame.from_records(shares), index=False)
        write_text(folder / "meta.json", json.dumps(meta, indent=2) + "\n")
    return folder


class SavedRun:
    """A run read back from its files (:func:`load_run`): the estimates of
    :class:`~analyzer.gin.studies.discard_principles.PrinciplesRun`, as saved."""

    def __init__(
        self,
        opponents: tuple[str, ...],
        deals: int,
        seed: int,
        table: pd.DataFrame,
        shares: pd.DataFrame,
    ) -> None:
        self.opponents, self.deals, self.seed = opponents, deals, seed
        self.table, self.shares = table, shares

    def _row(self, frame: pd.DataFrame, **keys: str) -> pd.Series:
        found = frame
        for column, value in keys.items():
            found = found[found[column] == value]
        if len(found) != 1:
            raise ValueError(f"the saved answer has no single row for {keys}")
        return found.iloc[0]

    def _estimate(self, row: pd.Series, part: str) -> Estimate:
        return Estimate(row[f"{part}_mean"], row[f"{part}_low"], row[f"{part}_high"], self.deals)

    def points(self, opponent: str, arm: str) -> Estimate:
        return self._estimate(self._row(self.table, opponent=opponent, arm=arm), "points")

    def diff(self, opponent: str, arm: str) -> Estimate:
        return self._estimate(self._row(self.table, opponent=opponent, arm=arm), "diff")

    def gain(self, opponent: str) -> Estimate:
        return self._estimate(self._row(self.shares, opponent=opponent), "gain")

    def edge(self, opponent: str) -> Estimate:
        return self._estimate(self._row(self.shares, opponent=opponent), "edge")

    def share(self, opponent: str) -> Estimate:
        return self._estimate(self._row(self.shares, opponent=opponent), "share")


def load_run(results: Path, rules_name: str) -> tuple[SavedRun, str] | None:
    """The run saved for ``rules_name`` under ``results`` and the command that wrote it;
    None when there is none."""
    name = f"{FOLDER}/{rules_name}"
    meta = read_meta(results, f"{name}/meta.json")
    if not meta:
        return None
    table = read_table(results, f"{name}/{TABLE}", _TABLE_COLUMNS)
    shares = read_table(results, f"{name}/{SHARES}", _SHARE_COLUMNS)
    run = SavedRun(tuple(meta["opponents"]), int(meta["deals"]), int(meta["seed"]), table, shares)
    return run, str(meta["command"])


def discard_answer(
    rules: str = "standard",
    opponent: str = "unknown",
    deals: int = 10_000,
    seed: int = 2026,
    results: Path | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> DiscardAnswer:
    """How to discard under the rules preset ``rules`` against ``opponent`` (a family of
    :data:`~analyzer.gin.studies.answers.FAMILIES` or a panel member): read from the
    results store (or ``results``) when it holds the answer for ``rules``, else computed
    on ``deals`` deals per player and opponent from ``seed`` (minutes).  Raises
    ``ValueError`` for an unknown rules preset or opponent."""
    resolve_rules(rules)
    member = member_of(opponent)
    folder = results
    if folder is None:
        found = find_report(f"{FOLDER}/{rules}/meta.json")
        if found is None:  # a preset whose hands are another's reads that one's answers
            twins = (
                find_report(f"{FOLDER}/{twin}/meta.json") for twin in same_hands_presets(rules)
            )
            found = next((twin for twin in twins if twin is not None), None)
        folder = None if found is None else found.path
    if folder is not None and (saved := saved_answer(folder, rules, member)) is not None:
        return saved
    opponents = None if member == PANEL else (member,)
    run = measure_principles(
        resolve_rules(rules), deals, seed, opponents, progress=progress, scheduler=scheduler
    )
    return answer_of(run, rules, member, "computed now")


def saved_answer(folder: Path, rules: str, member: str) -> DiscardAnswer | None:
    """The answer against ``member`` (or :data:`PANEL`) saved under ``folder`` for the
    rules preset ``rules``, or for a preset under which every hand plays and scores as
    under it (the source says so); None when neither is saved or the saved run did not
    play ``member``."""
    for twin in (rules, *same_hands_presets(rules)):
        saved = load_run(folder, twin)
        if saved is None or (member != PANEL and member not in saved[0].opponents):
            continue
        source = f"from the committed results (`{saved[1]}`)"
        if twin != rules:
            changes = rule_changes_text(resolve_rules(rules), resolve_rules(twin))
            source += (
                f": {rules} changes only how games are scored ({changes}), so every hand "
                f"plays and scores as under {twin} and these are {twin}'s answers"
            )
        return answer_of(saved[0], rules, member, source)
    return None


__all__ = [
    "FOLDER",
    "DiscardAnswer",
    "PrincipleLine",
    "answer_of",
    "discard_answer",
    "load_run",
    "member_of",
    "save_run",
    "saved_answer",
]
