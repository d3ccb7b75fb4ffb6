"""The when-to-knock answer for a rules preset and an opponent: read from the committed
results when they hold it, else computed now (``analyzer when-to-knock --rules R``), and
saved where :func:`knock_answer` and the web app read it (``--out``).  The answer's text
is :class:`analyzer.report.knock_answer.KnockAnswer`."""

from __future__ import annotations

import json
import shlex
from dataclasses import replace
from pathlib import Path

from ..core.progress import Counted, Progress, advance, after, tell_total
from ..gin.model.describe import rule_changes_text
from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.rules import resolve_rules
from ..gin.play.players import parse_player
from ..gin.studies.answers import FAMILIES, KnockAnswers, knock_answers
from ..gin.studies.equilibrium import equilibrium_work, knock_equilibrium
from ..gin.studies.exploit import panel, table_of
from ..studies.files import make_folder, write_csv, write_text
from .knock_answer import (
    ROBUST_FOLDER,
    SMALL_EQUILIBRIUM_ITERATIONS,
    KnockAnswer,
    answers_folder,
    committed_source,
    family_of,
    find_results,
    load_answers,
    read_answer,
    robust_table,
    same_hands_presets,
)


def knock_answer(
    rules: str = "standard",
    opponent: str = "unknown",
    deals: int = 1_000,
    seed: int = 2026,
    results: Path | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> KnockAnswer:
    """When to knock under the rules preset ``rules`` against ``opponent`` (a family of
    :data:`~analyzer.gin.studies.answers.FAMILIES`, a panel member or any policy string):
    read from the report folder (:func:`find_results`) when it holds them, else computed
    on ``deals`` deals per comparison from ``seed`` (minutes).  Raises ``ValueError`` for
    an unknown rules preset or opponent."""
    resolve_rules(rules)
    family = family_of(opponent)
    folder = find_results(results)
    if folder is not None:
        for twin in [rules, *same_hands_presets(rules)]:
            saved = load_answers(folder, twin)
            if saved is None:
                continue
            found_answer = read_answer(folder, saved, twin, family, len(panel()))
            if found_answer is None:
                continue
            if twin == rules:
                return found_answer
            changes = rule_changes_text(resolve_rules(rules), resolve_rules(twin))
            return replace(
                found_answer,
                rules_name=rules,
                source=f"{found_answer.source}: {rules} changes only how games are "
                f"scored ({changes}), so every hand plays and scores as under {twin} "
                f"and these are {twin}'s answers",
            )
    member = FAMILIES[family][1] if family in FAMILIES else family
    answers, source = compute_answers(
        rules, {family: member}, deals, seed, folder, progress, scheduler
    )
    return KnockAnswer(
        rules,
        family,
        answers.lines[0],
        answers.base,
        deals,
        seed,
        f"computed now ({source})",
        int(answers.panel["member"].nunique()),
    )


def compute_answers(
    rules: str,
    families: dict[str, str | None],
    deals: int,
    seed: int,
    folder: Path | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> tuple[KnockAnswers, str]:
    """The answers for ``families`` (family -> the panel member or policy string standing
    for it, None for the unknown opponent) under the rules preset ``rules``, with
    ``expert`` playing everything but the knock, on ``deals`` deals per comparison, and
    where the robust table came from: ``folder``'s committed equilibrium when it has one,
    else a small equilibrium run now (for the unknown opponent), else ``expert``'s own
    table (the start of each family's search)."""
    rules_spec = resolve_rules(rules)
    base = POLICIES["expert"]
    found = None if folder is None else robust_table(folder, rules)
    if found is not None and folder is not None:
        table, name = found
        command = f"analyzer equilibrium --rules {rules} --out results/{ROBUST_FOLDER}"
        table_source = f"from {committed_source(folder, name, command)[0]}"
    elif "unknown" in families:
        # one bar for both phases: the equilibrium's most work, then the answers'
        work = equilibrium_work(base, deals, SMALL_EQUILIBRIUM_ITERATIONS)
        tell_total(progress, work)
        counted = Counted(progress)
        equilibrium = knock_equilibrium(
            rules_spec,
            base,
            deals,
            seed,
            iterations=SMALL_EQUILIBRIUM_ITERATIONS,
            rules_name=rules,
            progress=counted,
        )
        advance(progress, work - counted.done)
        progress = after(progress, work)
        weights = list(equilibrium.weights)
        table = equilibrium.population[weights.index(max(weights))]
        table_source = "from a small equilibrium run now"
    else:
        table, table_source = table_of(base), "of expert's own knock rule"
    members = panel()
    for member in families.values():
        if member is not None and member not in members:
            members[member] = parse_player(member)
    answers = knock_answers(
        rules_spec,
        base,
        table,
        members,
        deals,
        seed,
        rules,
        families=families,
        progress=progress,
        scheduler=scheduler,
    )
    return answers, f"robust table {table_source}"


def save_answers(results: Path, answers: KnockAnswers, seed: int, source: str) -> Path:
    """Write ``answers`` (for a rules preset other than standard, whose answers the report
    writes) where :func:`knock_answer` and the web app read them; the folder written."""
    if answers.rules_name == "standard":
        raise ValueError(
            "the standard rules' answers are the report's: 'analyzer report' writes them"
        )
    folder = make_folder(results / answers_folder(answers.rules_name))
    write_csv(folder / "answers.csv", answers.to_frame(), index=False)
    write_csv(folder / "panel.csv", answers.panel, index=False)
    meta = {
        "study": "when_to_knock",
        "rules": answers.rules_name,
        "seed": seed,
        "deals_per_comparison": answers.deals,
        "base": answers.base,
        "robust_source": source,
        "command": (
            f"analyzer when-to-knock --rules {answers.rules_name} --deals {answers.deals} "
            f"--seed {seed} --out {shlex.quote(str(results))}"
        ),
    }
    write_text(folder / "meta.json", json.dumps(meta, indent=2) + "\n")
    return folder


__all__ = ["compute_answers", "knock_answer", "save_answers"]
