"""When should I knock?  One knock rule per opponent family, in a player's words.

The study (``analyzer when-to-knock``) computes, under one rules preset, the knock rule
for every family of :data:`~analyzer.gin.studies.answers.FAMILIES` with the champion
playing everything but the knock (:func:`~analyzer.gin.studies.answers.knock_answers`):
the robust rule for an opponent you know nothing about (the heaviest table of the knock
equilibrium kept in ``results/robust_knock/<rules>/``, else a small equilibrium run now),
the best rule against each family's stand-in, each measured against every test opponent;
with them, the published agents' knocking on the same deals and the strongest response
found to the robust rule.  The answer is kept in ``results/when_to_knock/<rules>/`` and
read from there by every door; ``--opponent`` only chooses which family's rule is shown.

The rule is a knock table: a deadwood threshold (points) for each range of the player's
own turns, and a second set while the opponent holds a card it took from the discard
pile (:func:`analyzer.gin.studies.answers.rule_text`).  The chart translates own turns
into the cards left in the stock, as a player sees them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..core.limits import MAX_SEARCH_DEALS, MIN_SEARCH_DEALS
from ..core.progress import Counted, Progress, advance, after, tell_total
from ..core.stats import Estimate
from ..gin.play.players import format_player, parse_player
from ..gin.studies.answers import FAMILIES, NAIVE_RULE, AnswerLine, rule_text
from ..gin.studies.choices import NaiveGain
from ..gin.studies.exploit import parse_table, table_text
from ..gin.studies.registry import PANEL_SEARCH_BUDGET, PANEL_SEARCH_NAME
from ..gin.studies.schedule import SCHEDULE_BINS
from .charts import MISSING, PALETTE, Axis, Chart, Mark, Panel
from .equilibrium import kept_robust_table
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import CI_NOTE, answer_lines, header_lines

#: Where the answers are kept in the report folder, one subfolder per rules preset.
KEPT = "when_to_knock"
#: PSRO iterations of the equilibrium run now when no robust table is kept for the rules.
SMALL_EQUILIBRIUM_ITERATIONS = 3
#: The published agents' knocking: MARJJ knocks only in its first three discards, and
#: the knocking Goldstein et al. (AAAI-21) learned nearly stops after the first few
#: draws; as a table: 10 or less on own turns 1-3, then gin only (points of deadwood).
PUBLISHED_TABLE = (10, 0, 0, 0, 10, 0, 0, 0)

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


def points_text(estimate: Estimate) -> str:
    """``+1.23 ± 0.45 points per hand``."""
    return f"{estimate.mean:+.2f} ± {estimate.half_width:.2f} points per hand"


def stock_range(first: int, last: int) -> str:
    """Cards left in the stock when a player decides on own turns ``first``-``last``, if
    every draw so far came from the stock (31 cards after the deal and the upcard; the
    first player has drawn one card more than its opponent)."""
    most = 32 - 2 * first
    return f"{most}-{31 - 2 * last}" if last < 32 else f"{most} or fewer"


# ------------------------------------------------------------------------ computing


def _robust_table(
    inputs: Inputs, progress: Progress | None, scheduler: str | None
) -> tuple[tuple[int, ...], str, Progress | None]:
    """The robust table for the rules, where it came from, and the progress left for the
    rest: the kept equilibrium's heaviest table, else a small equilibrium run now."""
    from ..gin.model.policies import PRESETS
    from ..gin.studies.equilibrium import equilibrium_work, knock_equilibrium

    base, deals = PRESETS["expert"], inputs["deals"]
    kept = None if inputs.changed else kept_robust_table(inputs.preset)
    if kept is not None:
        return kept[0], f"from {kept[1]}", progress
    work = equilibrium_work(base, deals, SMALL_EQUILIBRIUM_ITERATIONS)
    tell_total(progress, work)
    counted = Counted(progress)
    equilibrium = knock_equilibrium(
        inputs.rules,
        base,
        deals,
        inputs.seed,
        iterations=SMALL_EQUILIBRIUM_ITERATIONS,
        rules_name=inputs.rules_name,
        progress=counted,
        scheduler=scheduler,
    )
    advance(progress, work - counted.done)
    weights = list(equilibrium.weights)
    table = equilibrium.population[weights.index(max(weights))]
    return table, "from a small equilibrium run now", after(progress, work)


def _compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.model.policies import PRESETS
    from ..gin.studies.answers import knock_answers
    from ..gin.studies.equilibrium import table_policy
    from ..gin.studies.exploit import exploit, panel, rule_coordinates

    family = family_of(inputs["opponent"])
    table, source, progress = _robust_table(inputs, progress, scheduler)
    base = PRESETS["expert"]
    members = panel()
    families = {name: member for name, (_, member) in FAMILIES.items()}
    if family not in families:  # a named opponent: its own line, measured against it
        families[family] = family
        members.setdefault(family, parse_player(family))
    answers = knock_answers(
        inputs.rules,
        base,
        table,
        members,
        inputs["deals"],
        inputs.seed,
        inputs.rules_name,
        families=families,
        search_deals=inputs["search_deals"],
        extra_tables=[PUBLISHED_TABLE],
        progress=progress,
        scheduler=scheduler,
    )
    tables = {"answers": answers.to_frame(), "panel": answers.panel}
    if answers.choices:
        tables["choices"] = answers.choices_frame()
    facts: dict[str, Any] = {"robust_source": source, "base": answers.base}
    published = answers.compared
    if published is not None:
        names = list(members)
        tables["published"] = published_frame(published, names)
        gain = published.gain(1)
        facts["published_gain"] = [gain.mean, gain.low, gain.high, gain.n]
        facts["published_parts"] = {
            kind: published.part(0, kind).mean - published.part(1, kind).mean
            for kind in ("knock", "gin", "undercut")
        }
    if inputs["exploit_deals"]:
        exploited = exploit(
            inputs.rules,
            table_policy(base, table),
            inputs["exploit_deals"],
            inputs.seed + 29,
            rules_name=inputs.rules_name,
            rounds=1,
            scheduler=scheduler,
            coordinates=rule_coordinates,
        )
        tables["exploit"] = exploited.tried
        from ..gin.studies.exploit import response_name

        points = exploited.points
        facts["exploit"] = {
            "response": response_name(exploited.response, exploited.target),
            "points": [points.mean, points.low, points.high, points.n],
            "beats": bool(exploited.beats_target),
            "deals": exploited.deals,
        }
    return Computed(tables, facts, result=answers)


def published_frame(published: Any, names: list[str]) -> pd.DataFrame:
    """Points per hand of the robust rule and of the published agents' knocking against
    each panel member and the panel as a whole (95% CIs)."""
    rows = []
    for index, rule in enumerate(("robust", "published")):
        estimates = {name: published.pair(index, j) for j, name in enumerate(names)}
        estimates["panel"] = published.value(index)
        rows += [
            {
                "rule": rule,
                "table": table_text(PUBLISHED_TABLE) if index else "",
                "opponent": name,
                "points": e.mean,
                "points_low": e.low,
                "points_high": e.high,
                "deals": e.n,
            }
            for name, e in estimates.items()
        ]
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ the answer


def answer_lines_of(answers: pd.DataFrame) -> dict[str, AnswerLine]:
    """Each family's line of a kept answer (its ``answers`` table), by family."""
    return {
        str(row.family): AnswerLine(
            str(row.family),
            parse_table(str(row.table)),
            str(row.opponent),
            Estimate(row.points, row.points_low, row.points_high, int(row.deals)),
            Estimate(row.worst, row.worst_low, row.worst_high, int(row.worst_deals)),
            str(row.worst_member),
            Estimate(row.naive, row.naive_low, row.naive_high, int(row.deals)),
        )
        for row in answers.itertuples()
    }


@dataclass(frozen=True)
class KnockAnswer:
    """When to knock against one opponent family under one rules preset."""

    rules_name: str
    family: str
    line: AnswerLine
    base: str
    """The policy that plays everything but the knock."""
    deals: int
    """Deals per comparison (each played twice, seats swapped)."""
    seed: int
    source: str
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

    def _naive(self) -> Estimate:
        if self.line.naive is None:  # every answer this version computes or reads has it
            raise ValueError("this answer has no gain over the naive rule")
        return self.line.naive

    def naive_text(self) -> str:
        """What the rule gains over knocking as soon as you can, on the same deals."""
        naive = self._naive()
        gain = points_text(naive)
        verdict = (
            f"too close to call against {NAIVE_RULE} ({gain})"
            if naive.low <= 0 <= naive.high
            else f"{gain} over {NAIVE_RULE} (the naive rule)"
        )
        return f"{verdict}, same opponents, same deals, paired"

    def worst_text(self) -> str:
        member = self.line.worst_member
        words = MEMBER_WORDS.get(member)
        return (
            f"{points_text(self.line.worst)} against `{member}`"
            + (f" ({words})" if words else "")
            + f", measured again on {self.line.worst.n:,} fresh deals"
        )

    def text(self) -> str:
        """The answer as a person reads it (at most 100 columns)."""
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
            *answer_lines(f"Gain: {self.naive_text()}."),
            *answer_lines(f"Worst case: {self.worst_text()}."),
            "",
            *answer_lines(f"Source: {self.source}."),
            CI_NOTE,
        ]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The answer as JSON-safe data."""
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
            "naive": NaiveGain(NAIVE_RULE, self._naive()).as_dict(),
            "naive_text": self.naive_text(),
            "worst": _estimate_dict(self.line.worst, self.line.worst_member),
            "worst_text": self.worst_text(),
            "base": self.base,
            "deals": self.deals,
            "seed": self.seed,
            "source": self.source,
            "text": self.text(),
        }

    def chart_description(self) -> Chart:
        """The rule as a grid: deadwood 0-10 by own turn (up to 20), blue where it
        knocks, grey where it plays on, light blue where it knocks only while the
        opponent holds no card it took from the pile."""
        last_turn = 20
        bins = len(SCHEDULE_BINS)
        plain = list(self.line.table[:bins])
        alert = list(self.line.table[bins:] or self.line.table[:bins])
        cells = [[0.0] * last_turn for _ in range(11)]
        for (first, last), threshold, alert_threshold in zip(
            SCHEDULE_BINS, plain, alert, strict=True
        ):
            low, high = sorted((threshold, alert_threshold))
            for turn in range(first, min(last, last_turn) + 1):
                for deadwood in range(11):
                    if deadwood <= low:
                        cells[deadwood][turn - 1] = 2.0  # knocks either way
                    elif deadwood <= high:
                        cells[deadwood][turn - 1] = 1.0  # only without the signal
        grid = Mark(
            "heatmap",
            x=tuple(range(1, last_turn + 1)),
            y=tuple(range(11)),
            z=tuple(tuple(row) for row in cells),
            scale="categories",
            categories=(
                (MISSING, "play on"),
                ("#9ecae1", "knock unless the opponent took from the pile"),
                (PALETTE[0], "knock"),
            ),
        )
        return Chart(
            "rule",
            self.title,
            f"{self.rule} Result: {self.result_text()}. Worst case: {self.worst_text()}. "
            f"{self.run_text[0].upper()}{self.run_text[1:]}.",
            (
                Panel(
                    (grid,),
                    x_label="your own turn",
                    y_label="deadwood (points)",
                    x=Axis(ticks=tuple(range(1, last_turn + 1, 2))),
                    y=Axis(ticks=tuple(range(11))),
                    legend="right",
                ),
            ),
            size=(8, 3.6),
        )


def _estimate_dict(estimate: Estimate, against: str) -> dict[str, Any]:
    return {"mean": estimate.mean, "half": estimate.half_width, "against": against}


def _deadwood_groups(thresholds: tuple[int, ...]) -> list[tuple[int, int]]:
    """Deadwood 0-10 cut where the verdict can change: (0, 0), then up to each threshold."""
    cuts = sorted({0, *thresholds, 10})
    return [(0, 0), *((low + 1, high) for low, high in itertools.pairwise(cuts))]


def knock_answer(answer: Any, family: str | None = None) -> KnockAnswer:
    """One family's answer (default: the one ``--opponent`` asks for) from the kept or
    fresh study answer."""
    inputs = answer.inputs
    chosen = family or family_of(inputs["opponent"])
    lines = answer_lines_of(answer["answers"])
    if chosen not in lines:
        raise ValueError(f"this answer holds no rule against {chosen!r}")
    source = answer.source or f"computed now (robust table {answer.facts['robust_source']})"
    return KnockAnswer(
        inputs.rules_name,
        chosen,
        lines[chosen],
        str(answer.facts["base"]),
        inputs["deals"],
        inputs.seed,
        source,
        int(answer["panel"]["member"].nunique()),
    )


def _present(answer: Any) -> View:
    spoken = knock_answer(answer)
    return View(
        spoken.title,
        [],
        spoken.rule,
        spoken.chart_description(),
        frame=spoken.chart().reset_index(names="deadwood"),
        data=spoken.to_dict(),
        text=spoken.text(),
    )


def covers(answer: Any, inputs: Inputs) -> bool:
    """Whether a kept answer holds the rule against the family ``inputs`` asks for."""
    return family_of(inputs["opponent"]) in set(answer["answers"]["family"])


_RESULTS_HELP = (
    "Report folder to read the answer from (default: $ANALYZER_RESULTS, else ./results, "
    "else the results/ of the project an editable install came from)."
)

WHEN_TO_KNOCK = register(
    Study(
        "when-to-knock",
        "When should I knock? The rule in words, with its result.",
        "The rule, a chart by your turn and the cards left in the stock, what it earns "
        "against the opponent and its worst case, with 95% CIs. Read from the report folder "
        "when it keeps the answer for the rules preset (results/when_to_knock/<rules>/: "
        "standard, classic, oklahoma and eaai are committed; hollywood reads standard's, "
        "whose hands it plays alike), computed otherwise (minutes at the default sizes).",
        (
            "analyzer when-to-knock",
            "analyzer when-to-knock --opponent knocks-at-once",
            "analyzer when-to-knock --rules oklahoma --opponent gin-hunter --deals 500",
            "analyzer when-to-knock --rules classic --out results/when_to_knock/classic",
        ),
        (
            Param(
                "opponent",
                Kind.TEXT,
                "unknown",
                f"Whom you play: a family ({', '.join(FAMILIES)}), a test opponent (basic, "
                "marjj, gin-hunter, ...) or any policy string.",
                metavar="FAMILY|POLICY",
            ),
            Param(
                "deals",
                Kind.COUNT,
                1_000,
                "Deals per comparison (each twice, seats swapped).",
                low=MIN_SEARCH_DEALS,
                high=MAX_SEARCH_DEALS,
            ),
            Param(
                "search_deals",
                Kind.COUNT,
                500,
                "Deals per comparison of the search for each family's rule.",
                low=MIN_SEARCH_DEALS,
                high=MAX_SEARCH_DEALS,
            ),
            Param(
                "exploit_deals",
                Kind.COUNT,
                500,
                "Deals per comparison of the search for the strongest response to the robust "
                "rule (0: no search).",
                low=0,
                high=MAX_SEARCH_DEALS,
            ),
            Param("results", Kind.FOLDER, None, _RESULTS_HELP),
        ),
        _compute,
        _present,
        unit="hand",
        step="when to knock",
        kept=KEPT,
        view=("opponent",),
        keys={"answers": ("family",), "panel": ("answer", "member")},
        columns={
            "answers": (
                "family",
                "table",
                "opponent",
                "points",
                "points_low",
                "points_high",
                "worst_member",
                "worst",
                "worst_low",
                "worst_high",
                "worst_deals",
                "deals",
                "naive",
                "naive_low",
                "naive_high",
            ),
            "panel": ("answer", "member", "points", "points_low", "points_high"),
        },
        covers=covers,
        notebook="``.plot()``: the rule as a grid by turn and deadwood; ``.to_dict()``: "
        "the answer's data.",
    )
)

__all__ = [
    "KEPT",
    "MEMBER_WORDS",
    "PUBLISHED_TABLE",
    "WHEN_TO_KNOCK",
    "KnockAnswer",
    "answer_lines_of",
    "family_of",
    "knock_answer",
    "points_text",
    "published_frame",
    "stock_range",
]
