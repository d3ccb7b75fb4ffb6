"""The report's second box, "How to discard": the answer of ``analyzer how-to-discard``
for an opponent you know nothing about, each family's principles in order, and where the
answer differs from the published agents' discards.

The run (:func:`~analyzer.gin.studies.discard_principles.measure_principles`, half the
report's base size per player and opponent) is saved into ``how_to_discard/standard/``,
where ``analyzer how-to-discard``, ``az.how_to_discard()`` and the web app read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..gin.model.rules import STANDARD
from ..gin.studies.answers import FAMILIES
from ..gin.studies.discard_principles import measure_principles
from ..studies.files import write_bytes
from ..studies.text import estimate_text
from .common import Section, SectionRun
from .discard_answer import FOLDER, DiscardAnswer, answer_of, member_of, save_run
from .figures import figure_bytes

#: The chart of the answer against an unknown opponent, in the answers' folder.
CHART = "principles.png"


@dataclass(frozen=True)
class DiscardBox:
    """The answers the box shows: one per family (by family key)."""

    answers: dict[str, DiscardAnswer]


def run_discard_box(run: SectionRun) -> DiscardBox:
    measured = measure_principles(
        STANDARD,
        run.size(0.5, least=200),
        run.seed,
        progress=run.progress("how to discard"),
        scheduler=run.scheduler,
    )
    folder = save_run(run.config.out, measured, "standard", run.config.command)
    source = f"measured by this report ([{FOLDER}/standard/]({FOLDER}/standard/))"
    answers = {
        family: answer_of(measured, "standard", member_of(family), source) for family in FAMILIES
    }
    write_bytes(folder / CHART, figure_bytes(answers["unknown"].plot()))
    return DiscardBox(answers)


def _principles_line(answer: DiscardAnswer) -> str:
    worth = ", ".join(
        f"{line.key} {estimate_text(line.worth, 2, sign=True)}" for line in answer.lines
    )
    return f"principles by worth: {worth}; {answer.result_text()}"


def render_discard_box(box: DiscardBox) -> str:
    """The answer against an unknown opponent as ``analyzer how-to-discard`` prints it,
    its chart, one line per family and the comparison with the published agents."""
    unknown = box.answers["unknown"]
    lines = [
        "> ### How to discard",
        "> The same answer as `analyzer how-to-discard` prints (`--opponent` gives the",
        "> others below).",
        "",
        "```text",
        unknown.text(),
        "```",
        "",
        f"![The principles' worth]({FOLDER}/standard/{CHART})",
        "",
        "Against a known opponent (`analyzer how-to-discard --opponent FAMILY`):",
        "",
    ]
    for family, (words, member) in FAMILIES.items():
        if member is None:
            continue
        answer = box.answers[family]
        lines.append(
            f"* **Against {words}** (`{family}`, measured against `{member}`): "
            f"{_principles_line(answer)}."
        )
    marjj = unknown.marjj
    lines += [
        "",
        "**Against the published agents' discards.** MARJJ (a public EAAI-2021 agent) throws, "
        "among its costliest unmelded cards, the one with the least deadwood expected after "
        "its next draw, computed over every unseen card, plus a table of the card's use to "
        "the opponent; the rule above counts the same draws by hand, 2 points per card that "
        "would make a meld, and MARJJ's weighing scores "
        f"{estimate_text(marjj, 2, sign=True)} points per hand more than the rule on average "
        "over the test opponents (with the champion's draw and knock tables, on the same deals; "
        "MARJJ's discard knocks by those tables without the champion's weighing of each "
        "knock; "
        + ", ".join(
            f"{estimate_text(box.answers[family].marjj, 2, sign=True)} against `{member}`"
            for family, (_, member) in FAMILIES.items()
            if member is not None
        )
        + "). The champion's learned discard, whose terms the principles name, scores "
        f"{estimate_text(unknown.champion, 2, sign=True)} more than the rule. "
        "GinRummyAndTonic's learned utilities are not compared: the analyzer has no replica "
        "of that agent.",
        "",
    ]
    return "\n".join(lines)


SECTION = Section("discard", None, run_discard_box, render_discard_box, seconds=30, folder=FOLDER)

__all__ = ["SECTION", "DiscardBox", "render_discard_box", "run_discard_box"]
