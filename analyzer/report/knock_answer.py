"""The knock answer in a player's words: one rule per opponent family and rules preset.

:func:`knock_answer` gives it: read from the committed report when it holds that rules
preset and opponent (``results/when_to_knock`` for the standard rules, written by
``analyzer report``; ``results/when_to_knock_by_rules/<rules>`` for the other presets,
written by ``analyzer when-to-knock --rules <rules> --out results``; the robust tables in
``results/robust_knock``), computed at ``deals`` otherwise.  The report's opening box,
``analyzer when-to-knock``, ``az.when_to_knock()`` and the web app's strategy page all
print it through
:meth:`KnockAnswer.text` (or :meth:`KnockAnswer.to_dict`), so they say the same thing the
same way.

The rule is a knock table: a deadwood threshold (points) for each range of the player's
own turns, and a second set while the opponent holds a card it took from the discard pile
(:func:`analyzer.gin.studies.answers.rule_text`).  The chart translates own turns into the
cards left in the stock, as a player sees them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.stats import Estimate
from ..gin.model.policies import Policy
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import resolve_rules
from ..gin.play.players import format_player, parse_player
from ..gin.studies.answers import FAMILIES, NAIVE_COLUMNS, AnswerLine, KnockAnswers, rule_text
from ..gin.studies.exploit import parse_table, table_of
from ..gin.studies.registry import PANEL_SEARCH_BUDGET, PANEL_SEARCH_NAME
from ..gin.studies.schedule import SCHEDULE_BINS
from .reading import (
    COUNT,
    KNOCK_TABLE,
    NUMBER,
    TEXT,
    DamagedFile,
    one_value,
    read_meta,
    read_table,
    shown_path,
)
from .store import find_report
from .text import answer_lines, header_lines

#: Folders inside the report folder: the box's answers (standard rules), the answers for
#: the other rules presets (one subfolder each) and ``analyzer equilibrium --out``.
ANSWERS_FOLDER = "when_to_knock"
BY_RULES_FOLDER = "when_to_knock_by_rules"
ROBUST_FOLDER = "robust_knock"
#: PSRO iterations of the equilibrium a computed answer runs when no robust table is
#: committed for its rules.
SMALL_EQUILIBRIUM_ITERATIONS = 3


def answers_folder(rules: str) -> str:
    """Where the answers for the rules preset ``rules`` are, inside the report folder."""
    return ANSWERS_FOLDER if rules == "standard" else f"{BY_RULES_FOLDER}/{rules}"


#: Each panel member in a few words (the worst case names one).
MEMBER_WORDS = {
    "basic": "knocks as soon as it can",
    "simple": "the EAAI competition's baseline player",
    "gin-hunter": "waits for gin",
    "taper": "knocks at 10 early and ever lower later",
    "marjj": "replica of a public EAAI agent: takes your discards, then waits for gin",
    "expert": "our champion: tracks the cards, camps once you race it",
    PANEL_SEARCH_NAME: (
        f"plays as expert but tries each knock out on {PANEL_SEARCH_BUDGET} sampled hands"
    ),
}

#: The cells of the chart.
KNOCK, PLAY_ON = "knock", "play on"


def _half(estimate: Estimate) -> float:
    return (estimate.high - estimate.low) / 2


def points_text(estimate: Estimate) -> str:
    """``+1.23 ± 0.45 points per hand``."""
    return f"{estimate.mean:+.2f} ± {_half(estimate):.2f} points per hand"


def stock_range(first: int, last: int) -> str:
    """Cards left in the stock when a player decides on own turns ``first``-``last``, if
    every draw so far came from the stock (31 cards after the deal and the upcard; the
    first player has drawn one card more than its opponent)."""
    most = 32 - 2 * first
    return f"{most}-{31 - 2 * last}" if last < 32 else f"{most} or fewer"


@dataclass(frozen=True)
class KnockAnswer:
    """When to knock against one opponent family under one rules preset."""

    rules_name: str
    family: str
    """A key of :data:`analyzer.gin.studies.answers.FAMILIES` or an opponent's policy string."""
    line: AnswerLine
    base: str
    """The policy that plays everything but the knock."""
    deals: int
    """Deals per comparison (each played twice, seats swapped)."""
    seed: int
    source: str
    """Where the numbers come from (a committed file, or computed now)."""
    panel_size: int

    @property
    def opponent_words(self) -> str:
        if self.family in FAMILIES:
            return FAMILIES[self.family][0]
        return f"`{self.family}`"

    @property
    def title(self) -> str:
        return f"When to knock · {self.rules_name} rules · against {self.opponent_words}"

    @property
    def run_text(self) -> str:
        """Who plays what and the run's size: the title's second line."""
        return (
            f"everything but the knock played as {self.base} · {self.deals:,} deals per "
            f"comparison, seats swapped · seed {self.seed}"
        )

    @property
    def rule(self) -> str:
        """The rule in a sentence (capitalised, with a full stop)."""
        text = rule_text(self.line.table)
        return f"{text[0].upper()}{text[1:]}."

    def chart(self) -> pd.DataFrame:
        """Knock or play on, by deadwood (rows) and own turns (columns); with a pickup
        signal, more rows for "the opponent holds a card it took from the pile"."""
        bins = len(SCHEDULE_BINS)
        plain, alert = self.line.table[:bins], self.line.table[bins:]
        columns = [f"{first}-{last}" if last < 32 else f"{first}+" for first, last in SCHEDULE_BINS]
        blocks = [("", plain)]
        if alert and tuple(alert) != tuple(plain):
            blocks.append(("if it took from the pile: ", alert))
        rows = {}
        for prefix, thresholds in blocks:
            for low, high in _deadwood_groups(thresholds):
                if prefix and high == 0:
                    continue  # gin is always a knock: said once
                label = "0 (gin)" if high == 0 else (f"{low}" if low == high else f"{low}-{high}")
                rows[f"{prefix}deadwood {label}"] = [
                    KNOCK if high <= threshold else PLAY_ON for threshold in thresholds
                ]
        frame = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
        frame.columns.name = "own turn"
        return frame

    def result_text(self) -> str:
        if self.line.opponent == "panel":
            return (
                f"{points_text(self.line.result)} on average over the {self.panel_size} "
                "test opponents"
            )
        return f"{points_text(self.line.result)} against `{self.line.opponent}`"

    def worst_text(self) -> str:
        member = self.line.worst_member
        words = MEMBER_WORDS.get(member)
        return (
            f"{points_text(self.line.worst)} against `{member}`"
            + (f" ({words})" if words else "")
            + f", measured again on {self.line.worst.n:,} fresh deals"
        )

    def text(self) -> str:
        """The answer as a person reads it: title, rule, chart, result, worst case, source
        (at most 100 columns)."""
        chart = self.chart()
        stock = [stock_range(first, last) for first, last in SCHEDULE_BINS]
        label_width = max(len(label) for label in [*chart.index, "cards left in the stock"])
        widths = [
            max(len(c), len(s), len(PLAY_ON)) for c, s in zip(chart.columns, stock, strict=True)
        ]

        def row(label: str, cells: list[str]) -> str:
            body = "  ".join(cell.rjust(width) for cell, width in zip(cells, widths, strict=True))
            return f"  {label.ljust(label_width)}  {body}".rstrip()

        lines = [
            *header_lines(self.title, ""),
            *header_lines(self.run_text, "  "),
            "",
            *answer_lines(self.rule),
            "",
            row("your turn", list(chart.columns)),
            row("cards left in the stock", stock),
            *(row(label, list(cells)) for label, cells in chart.iterrows()),
            "",
            *answer_lines(f"Result: {self.result_text()}."),
            *answer_lines(f"Worst case: {self.worst_text()}."),
            "",
            *answer_lines(f"Source: {self.source}."),
            "x ± h: the estimate x and the half-width h of its 95% confidence interval.",
        ]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-safe data (the web app's ``/api/when-to-knock``)."""
        chart = self.chart()
        return {
            "title": self.title,
            "rules": self.rules_name,
            "family": self.family,
            "opponent": self.opponent_words,
            "rule": self.rule,
            "table": list(self.line.table),
            "chart": {
                "turns": list(chart.columns),
                "stock": [stock_range(first, last) for first, last in SCHEDULE_BINS],
                "rows": [
                    {"deadwood": str(label), "cells": list(cells)}
                    for label, cells in chart.iterrows()
                ],
            },
            "result": _estimate_dict(self.line.result, self.line.opponent),
            "result_text": self.result_text(),
            "worst": _estimate_dict(self.line.worst, self.line.worst_member),
            "worst_text": self.worst_text(),
            "base": self.base,
            "deals": self.deals,
            "seed": self.seed,
            "source": self.source,
            "text": self.text(),
        }

    def to_frame(self) -> pd.DataFrame:
        """The chart (knock or play on by deadwood and own turn)."""
        return self.chart()

    def plot(self) -> Any:
        """The rule as a chart (:func:`analyzer.report.figures.knock_rule_chart`): a
        :class:`matplotlib.figure.Figure`, shown by a notebook; ``.savefig(path)`` writes it."""
        from .figures import chart, knock_rule_chart

        with chart(
            figsize=(8, 3.6),
            title=self.title,
            caption=f"{self.rule} Result: {self.result_text()}. Worst case: "
            f"{self.worst_text()}. {self.run_text[0].upper()}{self.run_text[1:]}.",
        ) as drawn:
            knock_rule_chart(self.line.table, drawn.axes, SCHEDULE_BINS)
        return drawn.axes.figure

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return (
            f"<p><b>{self.title}</b></p><p>{self.rule}</p>{self.chart().to_html()}"
            f"<p>Result: {self.result_text()}.<br>Worst case: {self.worst_text()}.</p>"
            f"<p><small>{self.run_text[0].upper()}{self.run_text[1:]}; source: "
            f"{self.source}.</small></p>"
        )


def _estimate_dict(estimate: Estimate, against: str) -> dict[str, Any]:
    return {"mean": estimate.mean, "half": _half(estimate), "against": against}


def _deadwood_groups(thresholds: tuple[int, ...]) -> list[tuple[int, int]]:
    """Deadwood 0-10 cut where the verdict can change: (0, 0), then up to each threshold."""
    cuts = sorted({0, *thresholds, 10})
    return [(0, 0), *((low + 1, high) for low, high in itertools.pairwise(cuts))]


# ---------------------------------------------------------------- where answers come from


def find_results(results: Path | None = None) -> Path | None:
    """The report folder: ``results`` when given, else the first folder of the results
    store (:mod:`analyzer.report.store`: ``$ANALYZER_RESULTS``, ``./results``, the
    project's ``results`` of an editable install) that holds the answers; None when none
    holds them."""
    if results is not None:
        return results
    found = find_report(f"{ANSWERS_FOLDER}/answers.csv")
    return None if found is None else found.path


def robust_table(results: Path, rules_name: str) -> tuple[tuple[int, ...], str] | None:
    """The heaviest knock table of a committed equilibrium mixture and where it came from;
    None when ``results/robust_knock/<rules>_mixture.csv`` is missing, :class:`DamagedFile`
    when it is damaged."""
    name = f"{ROBUST_FOLDER}/{rules_name}_mixture.csv"
    if not (results / name).exists():
        return None
    mixture = read_table(results, name, {"table": KNOCK_TABLE, "weight": NUMBER})
    best = mixture.loc[mixture["weight"].idxmax()]
    return parse_table(str(best["table"])), name


def start_table(rules_name: str, base: Policy) -> tuple[int, ...]:
    """The committed robust knock table for ``rules_name`` (found as :func:`find_results`
    finds the report folder), else ``base``'s own knock table."""
    folder = find_results()
    found = robust_table(folder, rules_name) if folder is not None else None
    return found[0] if found is not None else table_of(base)


#: The columns :func:`load_answers` reads, and what each holds.
ANSWER_COLUMNS = {
    "rules": TEXT,
    "base": TEXT,
    "family": TEXT,
    "table": KNOCK_TABLE,
    "opponent": TEXT,
    "points": NUMBER,
    "points_low": NUMBER,
    "points_high": NUMBER,
    "worst_member": TEXT,
    "worst": NUMBER,
    "worst_low": NUMBER,
    "worst_high": NUMBER,
    "worst_deals": COUNT,
    "deals": COUNT,
}
#: The columns of ``panel.csv`` beside the answers: each answer against each panel member.
PANEL_COLUMNS = {
    "answer": TEXT,
    "member": TEXT,
    "points": NUMBER,
    "points_low": NUMBER,
    "points_high": NUMBER,
    "deals": COUNT,
}


def load_answers(results: Path, rules: str = "standard") -> KnockAnswers | None:
    """The answers for the rules preset ``rules`` written into ``results`` (see
    :func:`answers_folder`); None when absent, :class:`DamagedFile` when a file of them
    is damaged."""
    folder = answers_folder(rules)
    name = f"{folder}/answers.csv"
    if not (results / name).exists():
        return None
    frame = read_table(results, name, ANSWER_COLUMNS, optional=dict.fromkeys(NAIVE_COLUMNS, NUMBER))
    members = read_table(results, f"{folder}/panel.csv", PANEL_COLUMNS)
    if not frame["family"].is_unique or "unknown" not in set(frame["family"]):
        raise DamagedFile(
            results, name, "column 'family' must name each family once, 'unknown' among them"
        )
    lines = [
        AnswerLine(
            str(row.family),
            parse_table(str(row.table)),
            str(row.opponent),
            Estimate(row.points, row.points_low, row.points_high, int(row.deals)),
            Estimate(row.worst, row.worst_low, row.worst_high, int(row.worst_deals)),
            str(row.worst_member),
            _naive_gain(row, int(row.deals) if row.opponent == "panel" else int(row.worst_deals)),
        )
        for row in frame.itertuples()
    ]
    return KnockAnswers(
        str(one_value(results, name, frame, "rules")),
        str(one_value(results, name, frame, "base")),
        lines,
        members,
        int(one_value(results, name, frame, "deals")),
    )


def _naive_gain(row: Any, deals: int) -> Estimate | None:
    """A saved line's gain over the naive knock (None when its answers predate it)."""
    if not hasattr(row, "naive") or pd.isna(row.naive):
        return None
    return Estimate(row.naive, row.naive_low, row.naive_high, deals)


def family_of(opponent: str) -> str:
    """The family an opponent argument names: a family key, or the family a panel member
    stands for (``basic`` -> ``knocks-at-once``); any other policy string is its own."""
    for family, (_, member) in FAMILIES.items():
        if opponent in (family, member):
            return family
    try:
        return format_player(parse_player(opponent))
    except ValueError as error:
        raise ValueError(
            f"opponent {opponent!r} is neither a family ({', '.join(FAMILIES)}) nor a "
            f"policy: {error}"
        ) from None


def read_answer(
    folder: Path,
    saved: KnockAnswers,
    rules: str,
    family: str,
    panel_size: int,
    shown: str | None = None,
) -> KnockAnswer | None:
    """The answer for ``rules`` and ``family`` among the answers ``saved`` that
    :func:`load_answers` read from ``folder`` (named ``shown`` in its source, default its
    path); None when they do not hold it."""
    if saved.rules_name != rules:
        return None
    for line in saved.lines:
        if line.family == family:
            source, seed = committed_source(
                folder, f"{answers_folder(rules)}/answers.csv", shown=shown
            )
            return KnockAnswer(
                rules, family, line, saved.base, saved.deals, seed, source, panel_size
            )
    return None


def same_hands_presets(rules: str) -> list[str]:
    """The other rules presets under which every hand plays and scores as under the
    preset ``rules`` (they differ only in how games are scored, e.g. Hollywood and
    standard)."""
    spec = resolve_rules(rules)
    return [
        name for name, other in RULE_PRESETS.items() if name != rules and spec.same_hands(other)
    ]


def committed_source(
    folder: Path, name: str, command: str = "analyzer report", shown: str | None = None
) -> tuple[str, int]:
    """The file ``folder/name`` with the command that wrote it, and that run's seed: both
    from the ``meta.json`` beside the file when there is one, else ``command`` and 0.  The
    file is shown inside ``shown`` (the folder as the reader knows it) when given, else
    by its path (:func:`~analyzer.report.reading.shown_path`)."""
    meta = read_meta(folder, (Path(name).parent / "meta.json").as_posix())
    place = f"{shown}/{name}" if shown is not None else shown_path(folder / name)
    return f"{place} (`{meta.get('command', command)}`)", int(meta.get("seed", 0))


__all__ = [
    "ANSWERS_FOLDER",
    "BY_RULES_FOLDER",
    "ROBUST_FOLDER",
    "KnockAnswer",
    "answers_folder",
    "committed_source",
    "find_results",
    "load_answers",
    "read_answer",
    "robust_table",
]
