"""The report's opening box, "When to knock": the robust rule and two adjustments.

Each line is measured with :func:`analyzer.gin.studies.answers.knock_answers`: its edge (points
per hand, split into gin, undercut and ordinary-knock hands) against the opponent it is
meant for (the robust rule: its worst case over the panel), and its exploitability (the
held-out gain of the best response :func:`analyzer.gin.studies.exploit.exploit` finds).

The robust rule is the heaviest knock table of the approximate equilibrium computed by
``analyzer equilibrium --rules standard --out results/robust_knock`` (its files are read
when present, since that computation takes far longer than the report); without them the
report runs a small equilibrium itself and says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.rules import STANDARD
from ..gin.studies.answers import KnockAnswers, knock_answers, rule_text
from ..gin.studies.equilibrium import knock_equilibrium
from ..gin.studies.exploit import panel, parse_table, table_of, table_text
from .common import ReportConfig, Section, format_ci, progress_for, section_folder, write_meta
from .files import write_csv
from .markdown import markdown_table

#: Folder (inside the report folder) of ``analyzer equilibrium --out``.
ROBUST_FOLDER = "robust_knock"

GLOSSARY = """**Words used.** *Deadwood*: the points of the cards in no meld. *Knock*: end
the hand with 10 or less deadwood. *Gin*: knock with no deadwood (25 bonus points).
*Undercut*: the defender's deadwood is not above the knocker's (25 bonus points to the
defender). *Panel*: the opponents every answer is tested against (`basic` knocks at
once, `simple` is the EAAI competition's baseline, `gin-hunter` waits for gin for 9 turns,
`taper` knocks at 10 early and ever lower later, `marjj` replays a public EAAI-2021
competition agent that knocks only in its first three turns and then waits for gin,
`expert` reads the opponent's pickups and discards, `search` plays as `expert` but weighs
each knock by playing it out on sampled hands). *Exploitability*: the most a player who
studies the rule and adapts to it gains against it, in points per hand. *± x*: the 95%
confidence interval."""


def robust_table(out: Path, rules_name: str = "standard") -> tuple[tuple[int, ...], str] | None:
    """The heaviest knock table of a committed equilibrium mixture, and where it came
    from; None when ``out/robust_knock/<rules>_mixture.csv`` is missing."""
    path = out / ROBUST_FOLDER / f"{rules_name}_mixture.csv"
    if not path.exists():
        return None
    mixture = pd.read_csv(path)
    best = mixture.loc[mixture["weight"].idxmax()]
    table = parse_table(str(best["table"]))
    return table, f"{ROBUST_FOLDER}/{path.name} (weight {best['weight']:.0%})"


@dataclass(frozen=True)
class KnockBox:
    """The answers of the "When to knock" box, and where they came from."""

    answers: KnockAnswers
    deals: int
    """Deals per comparison."""
    source: str
    """Where the robust table came from."""
    experts_own: bool
    """Whether the robust rule is the ``expert`` preset's own knock rule."""


def run_knock_box(config: ReportConfig) -> KnockBox:
    started = time.perf_counter()
    folder = section_folder(config, "when_to_knock")
    expert = POLICIES["expert"]
    found = robust_table(config.out)
    if found is None:
        equilibrium = knock_equilibrium(
            STANDARD,
            expert,
            config.size(0.05, least=200),
            config.seed,
            iterations=3,
            rules_name="standard",
            progress=progress_for(config, "robust knock table"),
            scheduler=config.scheduler,
        )
        weights = list(equilibrium.weights)
        table = equilibrium.population[weights.index(max(weights))]
        source = "a small equilibrium run by this report (no committed robust_knock/ files)"
    else:
        table, source = found
    deals = config.size(0.025, least=200)
    answers = knock_answers(
        STANDARD,
        expert,
        table,
        panel(),
        deals,
        config.seed,
        "standard",
        progress=progress_for(config, "when to knock"),
        scheduler=config.scheduler,
    )
    write_csv(folder / "answers.csv", answers.to_frame(), index=False)
    write_csv(folder / "panel.csv", answers.panel, index=False)
    write_meta(
        folder,
        config,
        "when_to_knock",
        started,
        deals_per_comparison=deals,
        rules="standard",
        base="expert",
        robust_table=table_text(table),
        robust_source=source,
    )
    return KnockBox(answers, deals, source, table_of(expert) == answers.lines[0].table)


def _line_text(answers: KnockAnswers, index: int) -> tuple[str, str]:
    line = answers.lines[index]
    edge = format_ci(line.edge.mean, line.edge.low, line.edge.high)
    exploit = format_ci(line.exploitability.mean, line.exploitability.low, line.exploitability.high)
    parts = ", ".join(f"{name} {part.mean:+.2f}" for name, part in line.edge_parts.items())
    opponent = (
        f"its worst panel opponent, {line.opponent[len('worst case (') : -1]}"
        if line.opponent.startswith("worst case (")
        else line.opponent
    )
    return (
        f"{rule_text(line.table)[0].upper()}{rule_text(line.table)[1:]}",
        (
            f"edge {edge} points per hand against {opponent} (from gin hands, "
            f"undercuts and ordinary knocks: {parts}); exploitability {exploit}"
        ),
    )


def render_knock_box(box: KnockBox) -> str:
    """The Markdown box (a quote block) and the table behind it."""
    answers, deals, source, experts_own = box.answers, box.deals, box.source, box.experts_own
    robust_rule, robust_numbers = _line_text(answers, 0)
    own = " (`expert` itself knocks by the robust rule)" if experts_own else ""
    lines = [
        "> ### When to knock",
        f"> Standard rules; everything but the knock is played as `expert` would{own}.",
        ">",
        f"> **{robust_rule}.** The robust rule: {robust_numbers}.",
    ]
    labels = {
        "against basic": "Against an opponent who knocks at once",
        "against gin-hunter": "Against an opponent who hunts for gin",
    }
    members = answers.panel[
        (answers.panel["answer"] == "robust")
        & ~answers.panel["member"].str.startswith("worst case")
    ]
    lines.append(
        "> Against each panel member: "
        + ", ".join(
            f"{row.member} {row.points:+.2f} ± {(row.points_high - row.points_low) / 2:.2f}"
            for row in members.itertuples()
        )
        + "."
    )
    beaten_by = [str(row.member) for row in members.itertuples() if row.points_high < 0]
    if beaten_by:
        why = {
            "search": "`search` weighs each knock by playing it out on sampled hands, "
            "which no table of thresholds can match"
        }
        lines.append(
            "> It loses to "
            + ", ".join(f"`{name}`" for name in beaten_by)
            + ": "
            + "; ".join(why.get(name, f"`{name}` is ahead of it") for name in beaten_by)
            + "."
        )
    for index, line in enumerate(answers.lines[1:], start=1):
        rule, numbers = _line_text(answers, index)
        lines.append(
            f"> * {labels.get(line.label, line.label)}: {rule[0].lower()}{rule[1:]}; {numbers}."
        )
    lines += [
        ">",
        (
            f"> Edges and exploitabilities in points per hand, ± the 95% CI, "
            f"{deals:,} deals per comparison (seats swapped on common deals); the robust "
            f"table comes from {source}. Details: [when_to_knock/](when_to_knock/)."
        ),
        "",
    ]
    frame = answers.to_frame()[
        [
            "line",
            "rule",
            "opponent",
            "edge",
            "edge_low",
            "edge_high",
            "exploitability",
            "exploitability_low",
            "exploitability_high",
        ]
    ]
    return "\n".join(lines) + "\n" + markdown_table(frame.round(3)) + "\n\n" + GLOSSARY + "\n"


#: The report's opening box, above the run's description (no heading of its own).
SECTION = Section("when", None, run_knock_box, render_knock_box)
