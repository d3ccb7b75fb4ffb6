"""The whole guide on one screen: the three decisions of a turn (take the upcard or
draw, what to throw, knock or play on), each rule with what it gains over the rule a
player already follows, and what changes under the chosen rule book.

``analyzer guide`` reads the three answers kept for the rules preset
(:mod:`~analyzer.studies.when_to_knock`, :mod:`~analyzer.studies.principles`) and
computes nothing of its own: it refuses, naming the command, when one is not kept.  Its
answer holds the three rules in words with their gains (the ``rules`` table), and for
another preset than standard the standard rules beside them; ``--out`` writes it with a
one-page strategy card (``card.png``, ``card.pdf``) that prints on A4 and Letter.  The
guides saved in ``results/guide/<rules>/`` are what the web app's ``/guide`` page shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ..core.progress import Progress
from ..gin.studies.answers import FAMILIES
from .answer import Answer, NotKept, command_line, find_kept
from .charts import Page
from .inputs import make_inputs
from .principles import HOW_TO_DISCARD, HOW_TO_DRAW
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import CI_NOTE, answer_lines, header_lines, plus_minus
from .when_to_knock import WHEN_TO_KNOCK

#: The three decisions of a turn, in their order, with the study that answers each.
DECISIONS = (
    ("draw", "Take the upcard, or draw from the stock?", "how-to-draw"),
    ("discard", "Which card to throw?", "how-to-discard"),
    ("knock", "Knock now, or play on?", "when-to-knock"),
)


def _kept(study: str, rules: str, opponent: str, results: Path | None) -> Answer:
    """The kept answer of ``study`` for ``rules`` against ``opponent``; ``ValueError``
    naming the command that keeps it when there is none."""
    declared = {item.name: item for item in (HOW_TO_DRAW, HOW_TO_DISCARD, WHEN_TO_KNOCK)}[study]
    inputs = make_inputs(declared, {"opponent": opponent}, rules=rules)
    try:
        found = find_kept(declared, inputs, results)
    except NotKept:  # a bad opponent is its own error, not "none kept"
        found = None
    if found is None:
        keep = command_line(declared, inputs, out=f"results/{declared.kept}/{rules}")
        raise ValueError(
            f"the guide reads the kept answers, and {study} keeps none for the {rules} rules "
            f"against {opponent}: `{keep}` keeps it (minutes)"
        )
    return found


def _row(decision: str, answer: Answer) -> dict[str, Any]:
    """One decision's rule, its gain over the naive rule and where it comes from."""
    data = answer.view.data or {}
    naive = data["naive"]
    low, high = naive["gain"]["ci95"]
    rule = data["rule"]
    return {
        "decision": decision,
        "rule": rule,
        "naive": naive["rule"],
        "gain_mean": naive["gain"]["mean"],
        "gain_low": low,
        "gain_high": high,
        "source": answer.source,
    }


def _compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    opponent = inputs["opponent"]
    if opponent not in FAMILIES:
        raise ValueError(f"opponent must be a family ({', '.join(FAMILIES)}), got {opponent!r}")
    results = None if inputs["results"] is None else Path(inputs["results"])
    rows = [
        _row(decision, _kept(study, inputs.preset, opponent, results))
        for decision, _, study in DECISIONS
    ]
    tables = {"rules": pd.DataFrame(rows)}
    if inputs.preset != "standard":
        standard = [
            _row(decision, _kept(study, "standard", opponent, results))
            for decision, _, study in DECISIONS
        ]
        tables["standard"] = pd.DataFrame(standard)
    return Computed(tables)


def _gain(row: Any) -> str:
    gain = plus_minus(row.gain_mean, (row.gain_high - row.gain_low) / 2, sign=True)
    if row.gain_low <= 0 <= row.gain_high:
        return f"too close to call against the naive rule ({row.naive}): {gain} points per hand"
    return f"{gain} points per hand over the naive rule ({row.naive})"


def _changes(answer: Any) -> list[str]:
    """What the chosen rule book changes in the three rules (none for standard)."""
    if "standard" not in answer.tables:
        return []
    standard = answer["standard"].set_index("decision")
    changed = [
        f"{row.decision}: {row.rule} (under the standard rules: "
        f"{standard.loc[row.decision, 'rule']})"
        for row in answer["rules"].itertuples()
        if row.rule != standard.loc[row.decision, "rule"]
    ]
    if not changed:
        return [
            (
                f"Under the {answer.inputs.preset} rules the three rules are the standard "
                "rules'; only how much each earns changes."
            )
        ]
    return [
        f"Under the {answer.inputs.preset} rules, unlike the standard rules: " + "; ".join(changed)
    ]


def _present(answer: Any) -> View:
    inputs = answer.inputs
    against = FAMILIES[inputs["opponent"]][0]
    title = f"Strategy guide · {inputs.rules_name} rules · against {against}"
    lines = [
        *header_lines(title, ""),
        *header_lines("played by the champion (expert) · read from the kept answers", "  "),
        "",
    ]
    blocks: list[tuple[str, tuple[str, ...]]] = []
    for number, (row, (_, question, _)) in enumerate(
        zip(answer["rules"].itertuples(), DECISIONS, strict=True), start=1
    ):
        gain = f"Gain: {_gain(row)}."
        lines += [f"{number}. {question}", *answer_lines(row.rule), *answer_lines(gain), ""]
        blocks.append((f"{number}. {question}", (row.rule, gain)))
    changes = _changes(answer)
    if changes:
        lines += [*(part for change in changes for part in answer_lines(change)), ""]
        blocks.append((f"Under the {inputs.preset} rules", tuple(changes)))
    sources = "; ".join(f"{row.decision}: {row.source}" for row in answer["rules"].itertuples())
    lines += [*answer_lines(f"Sources: {sources}."), CI_NOTE]
    verdict = " ".join(row.rule for row in answer["rules"].itertuples())
    page = Page(
        "card",
        title,
        tuple(blocks),
        f"Each rule is played by the champion (expert), measured against the test opponents "
        f"on common deals, seats swapped; x ± h: the estimate and the half-width of its 95% "
        f"confidence interval. analyzer guide --rules {inputs.preset}.",
    )
    return View(title, [], verdict, text="\n".join(lines), page=page)


GUIDE = register(
    Study(
        "guide",
        "The whole guide: draw, discard and knock, each with its gain over the naive rule.",
        "The three decisions of a turn on one screen, each rule in a player's words with "
        "what it gains over the rule a player already follows (points per hand, 95% CI), "
        "read from the answers kept for the rules preset (when-to-knock, how-to-discard, "
        "how-to-draw), and what the rule book changes. --out writes a one-page strategy card "
        "(PNG and PDF, A4 and Letter).",
        (
            "analyzer guide",
            "analyzer guide --rules oklahoma",
            "analyzer guide --opponent camper --out guide/",
        ),
        (
            Param(
                "opponent",
                Kind.CHOICE,
                "unknown",
                "Whom you play: a family of opponents.",
                choices=tuple(FAMILIES),
            ),
            Param(
                "results",
                Kind.FOLDER,
                None,
                "Report folder to read the answers from (default: $ANALYZER_RESULTS, else "
                "./results, else the results/ of the project an editable install came from).",
            ),
        ),
        _compute,
        _present,
        scheduler=False,
        keys={"rules": ("decision",)},
        notebook="``.text()``: the guide; ``.to_frame()``: the three rules with their gains.",
    )
)

__all__ = ["DECISIONS", "GUIDE"]
