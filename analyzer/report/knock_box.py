"""The report's opening box, "When to knock": one knock rule per opponent family.

The rules come from :func:`analyzer.gin.studies.answers.knock_answers`: the robust rule
for an opponent the player knows nothing about (the heaviest knock table of the
approximate equilibrium computed by ``analyzer equilibrium --rules standard --out
results/robust_knock``, read when present since it takes far longer than the report;
without it the report runs a small equilibrium itself and says so) and the best rule
against each family's stand-in.  The box prints the robust answer exactly as
``analyzer when-to-knock`` does (:class:`analyzer.report.knock_answer.KnockAnswer`), then
one line per family.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.rules import STANDARD
from ..gin.play.players import format_player
from ..gin.studies.answers import FAMILIES, KnockAnswers, knock_answers
from ..gin.studies.equilibrium import knock_equilibrium, table_policy
from ..gin.studies.exploit import (
    ExploitResult,
    MixturePayoffs,
    exploit,
    panel,
    parse_table,
    response_name,
    rule_coordinates,
    table_text,
)
from ..gin.studies.panel_equilibrium import mixture_text
from ..studies.files import write_csv
from ..studies.reading import COUNT, FLAG, KNOCK_TABLE, NUMBER, TEXT, read_table
from .common import Section, SectionRun, format_ci
from .knock_answer import (
    ANSWERS_FOLDER,
    ROBUST_FOLDER,
    KnockAnswer,
    load_answers,
    points_text,
    robust_table,
)
from .markdown import markdown_table

GLOSSARY = """**Words used.** *Deadwood*: the points of the cards in no meld (ace 1, face
cards 10). *Knock*: end the hand with 10 or less deadwood; *gin*: with none (25 bonus
points). *Undercut*: the defender's deadwood is not above the knocker's (25 bonus points
to the defender). *Your turn*: your own turns, counted from your first draw (the
opponent's turns are not counted). *Test opponents*: the seven players every answer is
measured against: `basic` knocks as soon as it can, `simple` is the EAAI competition's
baseline, `gin-hunter` waits for gin, `taper` knocks at 10 early and ever lower later,
`marjj` replays a public EAAI agent (takes your discards, knocks only in its first three
turns, then waits for gin), `expert` is our champion (it tracks the cards, throws by
an evaluation learned from simulated deals and waits for the undercut once you have
knocked early against it), `search,budget=64` plays as `expert` but tries each knock
out on 64 sampled hands. *Result*: points per hand, your
points minus the opponent's, over hands played from both seats. *x ± h*: the estimate and
the half-width of its 95% confidence interval."""


#: The published agents' knocking: MARJJ knocks only in its first three discards, and
#: the knocking Goldstein et al. (AAAI-21) learned nearly stops after the first few draws;
#: as a table: 10 or less on own turns 1-3, then gin only (points of deadwood).
PUBLISHED_TABLE = (10, 0, 0, 0, 10, 0, 0, 0)

#: The rules presets whose answers the box reads from the committed results.
OTHER_PRESETS = ("classic", "oklahoma", "eaai")


@dataclass(frozen=True)
class KnockBox:
    """The answers of the "When to knock" box, and where the robust table came from."""

    answers: KnockAnswers
    source: str
    panel_size: int
    seed: int
    exploited: ExploitResult
    """``analyzer exploit`` of the robust rule: the strongest response found to it."""
    published: MixturePayoffs
    """The robust rule (candidate 0) and :data:`PUBLISHED_TABLE` (candidate 1) against
    the panel, equally weighted, on the deals of the box's panel table."""
    others: dict[str, KnockAnswers]
    """The committed answers for the other rules presets (``analyzer when-to-knock
    --rules R --out results``), by preset; the ones not computed are missing."""
    panel_equilibria: dict[str, dict[str, pd.DataFrame]] | None = None
    """The committed equilibria over the whole panel (``analyzer panel-equilibrium
    --rules R --out results/panel_equilibrium``) by rules preset: each one's
    ``convergence``, ``mixture`` and ``answer`` tables; the ones not computed are
    missing."""

    def answer(self, family: str) -> KnockAnswer:
        return KnockAnswer(
            self.answers.rules_name,
            family,
            self.answers.line(family),
            self.answers.base,
            self.answers.deals,
            self.seed,
            f"measured by this report (robust rule from {self.source})",
            self.panel_size,
        )


def run_knock_box(run: SectionRun) -> KnockBox:
    expert = POLICIES["expert"]
    found = robust_table(run.config.out, "standard")
    if found is None:
        equilibrium = knock_equilibrium(
            STANDARD,
            expert,
            run.size(0.05, least=200),
            run.seed,
            iterations=3,
            rules_name="standard",
            progress=run.progress("robust knock table"),
            scheduler=run.scheduler,
        )
        weights = list(equilibrium.weights)
        table = equilibrium.population[weights.index(max(weights))]
        source = "a small equilibrium run by this report (no committed robust_knock/ files)"
    else:
        table, source = found
    members = panel()
    answers = knock_answers(
        STANDARD,
        expert,
        table,
        members,
        run.size(0.05, least=200),
        run.seed,
        "standard",
        # the searches only pick each family's table; the measurement plays twice as many
        search_deals=run.size(0.025, least=100),
        # the published agents' knocking, played by the same expert on the panel table's
        # deals (paired with the robust rule)
        extra_tables=[PUBLISHED_TABLE],
        progress=run.progress("when to knock"),
        scheduler=run.scheduler,
    )
    # how far the robust rule can be exploited, as `analyzer exploit` measures it (one
    # sweep of the policy coordinates: the report's share of the command's search)
    exploited = exploit(
        STANDARD,
        table_policy(expert, table),
        run.size(0.025, least=100),
        run.seed + 29,
        rules_name="standard",
        rounds=1,
        progress=run.progress("strongest response to the robust rule"),
        scheduler=run.scheduler,
        coordinates=rule_coordinates,
    )
    assert answers.compared is not None  # extra_tables given
    published = answers.compared
    write_csv(run.folder / "answers.csv", answers.to_frame(), index=False)
    write_csv(run.folder / "panel.csv", answers.panel, index=False)
    write_csv(run.folder / "exploit.csv", exploited.tried, index=False)
    write_csv(run.folder / "published.csv", published_frame(published, list(members)), index=False)
    run.write_meta(
        deals_per_comparison=answers.deals,
        rules="standard",
        base="expert",
        robust_table=table_text(table),
        robust_source=source,
        strongest_response=format_player(exploited.response),
        strongest_response_points=exploited.points.mean,
        strongest_response_low=exploited.points.low,
        strongest_response_high=exploited.points.high,
        strongest_response_deals=exploited.deals,
    )
    others = {
        rules: saved
        for rules in OTHER_PRESETS
        if (saved := load_answers(run.config.out, rules)) is not None
    }
    return KnockBox(
        answers,
        source,
        len(members),
        run.seed,
        exploited,
        published,
        others,
        {
            rules: tables
            for rules in ("standard", *OTHER_PRESETS)
            if (tables := load_panel_equilibrium(run.config.out, rules)) is not None
        },
    )


#: Where ``analyzer panel-equilibrium --out`` writes, under the report folder.
PANEL_FOLDER = "panel_equilibrium"


#: What the box reads of each table of a panel equilibrium, and what each column holds.
PANEL_TABLES = {
    "convergence": {
        "iteration": COUNT,
        "best_response": TEXT,
        "gain": NUMBER,
        "gain_low": NUMBER,
        "gain_high": NUMBER,
        "joins": FLAG,
    },
    "mixture": {"player": TEXT, "weight": NUMBER},
    "answer": {
        "table": KNOCK_TABLE,
        "points": NUMBER,
        "points_low": NUMBER,
        "points_high": NUMBER,
        "deals": COUNT,
    },
}


def load_panel_equilibrium(results: Path, rules_name: str) -> dict[str, pd.DataFrame] | None:
    """The committed panel equilibrium's tables for ``rules_name`` (None when any of
    ``convergence``, ``mixture`` and ``answer`` is missing; :class:`DamagedFile` when one
    is damaged)."""
    names = {part: f"{PANEL_FOLDER}/{rules_name}_{part}.csv" for part in PANEL_TABLES}
    if not all((results / name).exists() for name in names.values()):
        return None
    return {part: read_table(results, names[part], PANEL_TABLES[part]) for part in names}


def _stop_words(history: pd.DataFrame) -> str:
    """Whether the last PSRO iteration found a response that still gains on the mixture."""
    last = history.iloc[-1]
    gain = format_ci(last["gain"], last["gain_low"], last["gain_high"])
    if bool(last["joins"]):
        return (
            f"after {int(last['iteration'])} iterations the strongest response found, "
            f"`{last['best_response']}`, still gains {gain} points per hand on it"
        )
    return (
        f"no response found beyond it gains on it (the strongest new one, "
        f"`{last['best_response']}`, gets {gain} points per hand)"
    )


def _answer_words(answer: pd.Series, robust_table: tuple[int, ...]) -> str:
    """The knock table found best against the mixture, or "the robust rule itself"."""
    table = parse_table(str(answer["table"]))
    return "the robust rule itself" if table == robust_table else f"`{answer['table']}`"


def panel_equilibrium_lines(
    tables: dict[str, pd.DataFrame], robust_table: tuple[int, ...]
) -> list[str]:
    """The equilibrium over the whole panel and the knock table that answers it (one
    paragraph of the box)."""
    answer = tables["answer"].iloc[0]
    points = format_ci(answer["points"], answer["points_low"], answer["points_high"])
    return [
        (
            "**The equilibrium over the whole panel** (`analyzer panel-equilibrium`): PSRO "
            "(policy-space response oracles: add the strongest response to the current mix of "
            "players, solve the game among them again, repeat) over whole players (the seven "
            "test opponents, then each response that gains on "
            f"the mixture: knock tables, every policy preset, `search` with the mixture's "
            f"heaviest player as its model) settles on {mixture_text(tables['mixture'], '`')}; "
            f"{_stop_words(tables['convergence'])}. The knock table that does best against "
            f"that mixture is {_answer_words(answer, robust_table)}, at {points} points per "
            f"hand against it ({int(answer['deals']):,} held-out deals; "
            f"[{PANEL_FOLDER}/]({PANEL_FOLDER}/)): the search over knock tables found none "
            "better against it."
        )
    ]


def other_panel_equilibria_lines(
    equilibria: dict[str, dict[str, pd.DataFrame]], others: dict[str, KnockAnswers]
) -> list[str]:
    """The whole-panel equilibrium of each other rules preset, one table row each: its
    mixture, how PSRO stopped and the knock table against it, beside that preset's
    unknown-opponent rule (when computed)."""
    rows = []
    for rules in OTHER_PRESETS:
        if rules not in equilibria:
            continue
        tables = equilibria[rules]
        answer = tables["answer"].iloc[0]
        unknown = others[rules].line("unknown").table if rules in others else None
        found = parse_table(str(answer["table"]))
        rows.append(
            {
                "rules": rules,
                "mixture": mixture_text(tables["mixture"], "`"),
                "how the search stopped": _stop_words(tables["convergence"]),
                "knock table against it": f"`{answer['table']}`",
                "result v the mixture": format_ci(
                    answer["points"], answer["points_low"], answer["points_high"]
                ),
                "held-out deals": f"{int(answer['deals']):,}",
                "the unknown-opponent rule above?": (
                    "not computed" if unknown is None else "same" if found == unknown else "differs"
                ),
            }
        )
    if not rows:
        return []
    return [
        (
            "The equilibrium over the whole panel under the other presets (`analyzer "
            "panel-equilibrium --rules R --out results/panel_equilibrium`, each starting from "
            "the seven test opponents and the preset's robust knock table, "
            f"[{ROBUST_FOLDER}/]({ROBUST_FOLDER}/)):"
        ),
        "",
        markdown_table(pd.DataFrame(rows)),
    ]


def other_presets_lines(others: dict[str, KnockAnswers]) -> list[str]:
    """The answers for the other rules presets, one table row per preset and family."""
    missing = [rules for rules in OTHER_PRESETS if rules not in others]
    lines = [
        (
            "**Under the other rules presets** (`analyzer when-to-knock --rules R`; computed "
            "by `analyzer when-to-knock --rules R --out results`, each with its own robust "
            "table and the same seven test opponents):"
        ),
        "",
    ]
    rows = [
        {
            "rules": rules,
            "opponent": family,
            "rule": line.rule[0].upper() + line.rule[1:] + ".",
            "result": f"{format_ci(line.result.mean, line.result.low, line.result.high)}"
            + (" (all)" if line.opponent == "panel" else f" v `{line.opponent}`"),
            "worst case": f"{format_ci(line.worst.mean, line.worst.low, line.worst.high)} "
            f"v `{line.worst_member}`",
            "deals": f"{answers.deals:,}",
        }
        for rules, answers in others.items()
        for family in FAMILIES
        for line in answers.lines
        if line.family == family
    ]
    if rows:
        lines.append(markdown_table(pd.DataFrame(rows)))
    if missing:
        lines += ["", f"Not computed yet: {', '.join(missing)}."]
    return lines


def published_frame(published: MixturePayoffs, names: list[str]) -> pd.DataFrame:
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


def published_lines(published: MixturePayoffs, robust_rule: str, names: list[str]) -> list[str]:
    """Where the answer (``robust_rule``, in words) differs from the published agents'
    knocking: their early stop against the robust rule on average over the test opponents
    (``names``, the panel's order), against each one, and by how hands end."""
    gain = published.gain(1)
    robust = {name: published.pair(0, j) for j, name in enumerate(names)}
    early = {name: published.pair(1, j) for j, name in enumerate(names)}
    better = [f"`{n}`" for n in names if early[n].mean > robust[n].mean]
    worse = [f"`{n}`" for n in names if early[n].mean < robust[n].mean]
    worst_robust = min(names, key=lambda n: robust[n].mean)
    worst_early = min(names, key=lambda n: early[n].mean)
    if early[worst_early].mean > robust[worst_robust].mean:
        verdict = (
            "The early stop has the better worst case too, so the robust rule should "
            "change to it; it is kept here until a search over the test opponents confirms "
            "it on fresh deals."
        )
    else:
        verdict = (
            "The robust rule is the answer for an opponent you know nothing about because "
            "its worst case is better; against an opponent known to knock at once or to "
            "wait for gin, the rules below earn more still."
        )
    split = ", ".join(
        f"{published.part(0, name).mean - published.part(1, name).mean:+.2f} from hands "
        f"ending in {words}"
        for name, words in (
            ("knock", "an ordinary knock"),
            ("gin", "gin"),
            ("undercut", "an undercut"),
        )
    )
    return [
        (
            "**Against the published agents.** MARJJ (a public EAAI-2021 competition agent) "
            "knocks only in its first three discards, and the knocking Goldstein et al. "
            "(AAAI-21) learned nearly stops after the first few draws. The robust rule: "
            f"{robust_rule[0].lower()}{robust_rule[1:]}. Played by the same `expert` on the "
            'same deals, "10 or less on turns 1-3, then gin only" earns '
            f"{points_text(published.value(1))} on average over the test opponents, against "
            f"{points_text(published.value(0))} for the robust rule (paired difference "
            f"{points_text(gain)}). It earns more against {_words(better)} and less "
            f"against {_words(worse)}; its lowest result is {points_text(early[worst_early])} "
            f"against `{worst_early}`, the robust rule's {points_text(robust[worst_robust])} "
            f"against `{worst_robust}` (the cells of the table below, "
            f"{robust[worst_robust].n:,} deals each; the worst case above is the robust "
            f"rule measured again on fresh deals). {verdict} The robust "
            f"rule minus the early stop, by how hands end: {split} (points per hand). The "
            "published agents' other play (MARJJ takes discards to build its melds) is not "
            "copied here, only their knocking. "
            "[when_to_knock/published.csv](when_to_knock/published.csv) has each opponent."
        )
    ]


def _words(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``none of them`` when empty."""
    if not names:
        return "none of them"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def exploit_lines(exploited: ExploitResult) -> list[str]:
    """What the strongest response found earns against the robust rule, and what was
    tried (one paragraph of the box)."""
    response = response_name(exploited.response, exploited.target)
    found = (
        f"the strongest response found, `{response}`, earns "
        f"{points_text(exploited.points)} against it ({exploited.deals:,} held-out deals)"
    )
    verdict = "**How far the rule can be exploited** (`analyzer exploit`): " + (
        f"{found}." if exploited.beats_target else f"no response found beats it; {found}."
    )
    tried = ", ".join(f"`{name}`" for name in exploited.tried["name"])
    return [
        verdict,
        (
            f"Tried: {tried} (the coordinate search changes the rule's knock table and its "
            "knock, draw and discard rules; `search, true model` tries each knock out on "
            "sampled hands, playing the opponent by this very rule). "
            "[when_to_knock/exploit.csv](when_to_knock/exploit.csv) has each one's result."
        ),
    ]


def render_knock_box(box: KnockBox) -> str:
    """The robust answer as ``analyzer when-to-knock`` prints it, one line per family,
    the results against each test opponent, and the glossary."""
    robust = box.answer("unknown")
    equilibria = box.panel_equilibria or {}
    lines = [
        "> ### When to knock",
        "> The same answer as `analyzer when-to-knock` prints (`--opponent` gives the",
        "> others below).",
        "",
        "```text",
        robust.text(),
        "```",
        "",
        *exploit_lines(box.exploited),
        "",
        *published_lines(box.published, box.answers.line("unknown").rule, list(panel())),
        "",
        *(
            [
                *panel_equilibrium_lines(equilibria["standard"], box.answers.line("unknown").table),
                "",
            ]
            if "standard" in equilibria
            else []
        ),
        "Against a known opponent (`analyzer when-to-knock --opponent FAMILY`):",
        "",
    ]
    said: dict[tuple[int, ...], str] = {robust.line.table: "an unknown opponent"}
    for family in FAMILIES:
        if family == "unknown":
            continue
        answer = box.answer(family)
        same = said.setdefault(answer.line.table, f"`{family}`")
        if same != f"`{family}`":
            lines.append(
                f"* **Against {answer.opponent_words}** (`{family}`, measured against "
                f"`{answer.line.opponent}`): the same rule as against {same}. Result "
                f"{points_text(answer.line.result)}."
            )
            continue
        lines.append(
            f"* **Against {answer.opponent_words}** (`{family}`, measured against "
            f"`{answer.line.opponent}`): {answer.rule[0].lower()}{answer.rule[1:]} "
            f"Result {points_text(answer.line.result)}; worst case {answer.worst_text()}."
        )
    rows = box.answers.panel.set_index(["answer", "member"])
    names = list(panel())
    order = [family for family in FAMILIES if family in rows.index.get_level_values(0)]
    cells = pd.DataFrame(
        [
            [
                format_ci(*rows.loc[(family, member), ["points", "points_low", "points_high"]])
                for member in names
            ]
            for family in order
        ],
        index=pd.Index(order, name="rule for (row) / test opponent (column)"),
        columns=names,
    )
    lines += [
        "",
        (
            "Each rule against each test opponent (points per hand, ± the 95% CI "
            f"half-width, {box.answers.deals:,} deals per cell, seats swapped on the same "
            "deals; [when_to_knock/](when_to_knock/)). The lowest cell of a row picks the "
            "worst case, which is then measured again on twice as many fresh deals: the "
            "least of seven noisy results is biased low, so the worst cases above differ "
            "from these cells:"
        ),
        "",
        markdown_table(cells.reset_index()),
        "",
        *other_presets_lines(box.others),
        "",
        *(
            [*others_equilibria, ""]
            if (others_equilibria := other_panel_equilibria_lines(equilibria, box.others))
            else []
        ),
        GLOSSARY,
        "",
    ]
    return "\n".join(lines)


#: The report's opening box, above the run's description (no heading of its own).
SECTION = Section("when", None, run_knock_box, render_knock_box, seconds=90, folder=ANSWERS_FOLDER)
