"""The report's opening boxes, "When to knock" and "How to discard": the answers kept
for the standard rules, as ``analyzer when-to-knock`` and ``analyzer how-to-discard``
print them, and around them what else those answers hold (each family's rule, the rule
against each test opponent, the published agents, the strongest response found) with the
answers other commands keep (the other rules presets, the equilibrium over the panel)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from ..core.stats import Estimate
from ..gin.studies.answers import FAMILIES
from ..gin.studies.exploit import parse_table
from ..gin.studies.panel_equilibrium import mixture_text
from ..studies.principles import DISCARDING, DRAWING, Decision, principles_answer
from ..studies.text import estimate_text, interval_text
from ..studies.when_to_knock import answer_lines_of, knock_answer, points_text
from .common import Entry, Found, ReportConfig, Section
from .markdown import markdown_table

#: The rules presets whose kept answers the knock box lists below the standard ones.
OTHER_PRESETS = ("classic", "oklahoma", "eaai")

GLOSSARY = """**Words used.** *Deadwood*: the points of the cards in no meld (ace 1, face
cards 10). *Knock*: end the hand with 10 or less deadwood; *gin*: with none (25 bonus
points). *Undercut*: the defender's deadwood is not above the knocker's (25 bonus points
to the defender). *Your turn*: your own turns, counted from your first draw (the
opponent's turns are not counted). *Test opponents*: the seven players every answer is
measured against: `basic` knocks as soon as it can, `simple` is the EAAI competition's
baseline, `gin-hunter` waits for gin, `taper` knocks at 10 early and ever lower later,
`marjj` replays a public EAAI agent (takes your discards, knocks only in its first three
turns, then waits for gin), `expert` is our champion (it tracks the cards, throws by an
evaluation learned from simulated deals and waits for the undercut once you have knocked
early against it), `search,budget=64` plays as `expert` but tries each knock out on 64
sampled hands. *Result*: points per hand, your points minus the opponent's, over hands
played from both seats. *x ± h*: the estimate and the half-width of its 95% confidence
interval."""


def _estimate(values: list[float]) -> Estimate:
    return Estimate(values[0], values[1], values[2], int(values[3]))


def _words(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``none of them`` when empty."""
    if not names:
        return "none of them"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _exploit_lines(answer: Any) -> list[str]:
    found = answer.facts.get("exploit")
    if found is None:
        return []
    points = _estimate(found["points"])
    strongest = (
        f"the strongest response found, `{found['response']}`, earns {points_text(points)} "
        f"against it ({found['deals']:,} held-out deals)"
    )
    verdict = strongest if found["beats"] else f"no response found beats it; {strongest}"
    tried = ", ".join(f"`{name}`" for name in answer["exploit"]["name"])
    return [
        f"**How far the rule can be exploited** (`analyzer exploit`): {verdict}.",
        (
            f"Tried: {tried} (the coordinate search changes the rule's knock table and its knock, "
            "draw and discard rules; `search, true model` tries each knock out on sampled hands, "
            "playing the opponent by this very rule)."
        ),
    ]


def _published_lines(answer: Any) -> list[str]:
    """Where the robust rule differs from the published agents' knocking: their early
    stop against it on average over the test opponents, against each one, in the worst
    case (a preference only where the paired difference excludes 0), and by how hands end."""
    if "published" not in answer.tables:
        return []
    table = answer["published"].set_index(["rule", "opponent"])
    names = [n for n in table.loc["robust"].index if n != "panel"]

    def cell(rule: str, name: str) -> Estimate:
        row = table.loc[(rule, name)]
        return Estimate(row["points"], row["points_low"], row["points_high"], int(row["deals"]))

    gain = _estimate(answer.facts["published_gain"])
    better = [f"`{n}`" for n in names if cell("published", n).mean > cell("robust", n).mean]
    worse = [f"`{n}`" for n in names if cell("published", n).mean < cell("robust", n).mean]
    if gain.low <= 0 <= gain.high:
        on_average = "the two are too close to call on average"
    else:
        on_average = (
            "the early stop earns more on average"
            if gain.mean > 0
            else ("the robust rule earns more on average")
        )
    parts = answer.facts["published_parts"]
    split = ", ".join(
        f"{parts[kind]:+.2f} from hands ending in {words}"
        for kind, words in (
            ("knock", "an ordinary knock"),
            ("gin", "gin"),
            ("undercut", "an undercut"),
        )
    )
    robust_rule = knock_answer(answer, "unknown").rule
    return [
        (
            "**Against the published agents.** MARJJ (a public EAAI-2021 competition agent) knocks "
            "only in its first three discards, and the knocking Goldstein et al. (AAAI-21) learned "
            "nearly stops after the first few draws. The robust rule: "
            f"{robust_rule[0].lower()}{robust_rule[1:]} Played by the same `expert` on the same "
            'deals, "10 or less on turns 1-3, then gin only" earns '
            f"{points_text(cell('published', 'panel'))} on average over the test opponents, "
            f"against {points_text(cell('robust', 'panel'))} for the robust rule (paired "
            f"difference {points_text(gain)}: {on_average}). It earns more against "
            f"{_words(better)} and less against {_words(worse)}. The robust rule minus the early "
            f"stop, by how hands end: {split} (points per hand). The published agents' other play "
            "(MARJJ takes discards to build its melds) is not copied here, only their knocking. "
            "[when_to_knock/standard/published.csv](when_to_knock/standard/published.csv) has each "
            "opponent."
        )
    ]


def _stop_words(history: pd.DataFrame) -> str:
    last = history.iloc[-1]
    gain = interval_text(last["gain"], last["gain_low"], last["gain_high"], sign=True)
    if bool(last["joins"]):
        return (
            f"after {int(last['iteration'])} iterations the strongest response found, "
            f"`{last['best_response']}`, still gains {gain} points per hand on it"
        )
    return (
        f"no response found beyond it gains on it (the strongest new one, "
        f"`{last['best_response']}`, gets {gain} points per hand)"
    )


def _equilibrium_row(rules: str, kept: Any, unknown: tuple[int, ...] | None) -> dict[str, str]:
    answer = kept["answer"].iloc[0]
    found = parse_table(str(answer["table"]))
    same = "not computed" if unknown is None else "same" if found == unknown else "differs"
    return {
        "rules": rules,
        "mixture": mixture_text(kept["mixture"], "`"),
        "how the search stopped": _stop_words(kept["convergence"]),
        "knock table against it": f"`{answer['table']}`",
        "result v the mixture": interval_text(
            answer["points"], answer["points_low"], answer["points_high"], sign=True
        ),
        "held-out deals": f"{int(answer['deals']):,}",
        "the unknown-opponent rule?": same,
    }


def _knock_box(found: Found, config: ReportConfig) -> str:
    answer = found["when_to_knock/standard"]
    robust = knock_answer(answer, "unknown")
    lines = [
        "> ### When to knock",
        "> The same answer as `analyzer when-to-knock` prints (`--opponent` gives the others",
        "> below).",
        "",
        "```text",
        robust.text(),
        "```",
        "",
        *_exploit_lines(answer),
        "",
        *_published_lines(answer),
        "",
        "Against a known opponent (`analyzer when-to-knock --opponent FAMILY`):",
        "",
    ]
    said: dict[tuple[int, ...], str] = {robust.line.table: "an unknown opponent"}
    for family in FAMILIES:
        if family == "unknown":
            continue
        spoken = knock_answer(answer, family)
        same = said.setdefault(spoken.line.table, f"`{family}`")
        head = (
            f"* **Against {spoken.opponent_words}** (`{family}`, measured against "
            f"`{spoken.line.opponent}`): "
        )
        if same != f"`{family}`":
            lines.append(
                f"{head}the same rule as against {same}. Result {points_text(spoken.line.result)}."
            )
        else:
            lines.append(
                f"{head}{spoken.rule[0].lower()}{spoken.rule[1:]} Result "
                f"{points_text(spoken.line.result)}; worst case {spoken.worst_text()}."
            )
    cells = answer["panel"].set_index(["answer", "member"])
    names = list(dict.fromkeys(answer["panel"]["member"]))
    order = [family for family in FAMILIES if family in cells.index.get_level_values(0)]
    grid = pd.DataFrame(
        [
            [
                interval_text(
                    *cells.loc[(f, m), ["points", "points_low", "points_high"]], sign=True
                )
                for m in names
            ]
            for f in order
        ],
        index=pd.Index(order, name="rule for (row) / test opponent (column)"),
        columns=names,
    )
    lines += [
        "",
        (
            "Each rule against each test opponent (points per hand, ± the 95% CI half-width, "
            f"{answer.inputs['deals']:,} deals per cell, seats swapped on the same deals). The "
            "lowest cell of a row picks the worst case, which is then measured again on twice as "
            "many fresh deals: the least of seven noisy results is biased low, so the worst cases "
            "above differ from these cells:"
        ),
        "",
        markdown_table(grid.reset_index()),
        "",
        *_other_presets(found),
        *_equilibria(found),
        GLOSSARY,
        "",
    ]
    return "\n".join(lines)


def _other_presets(found: Found) -> list[str]:
    rows = []
    for rules in OTHER_PRESETS:
        kept = found.get(f"when_to_knock/{rules}")
        if kept is None:
            continue
        for family, line in answer_lines_of(kept["answers"]).items():
            rule = knock_answer(kept, family).rule
            rows.append(
                {
                    "rules": rules,
                    "opponent": family,
                    "rule": rule,
                    "result": f"{interval_text(*line.result.as_tuple(), sign=True)}"
                    + (" (all)" if line.opponent == "panel" else f" v `{line.opponent}`"),
                    "worst case": f"{interval_text(*line.worst.as_tuple(), sign=True)} v "
                    f"`{line.worst_member}`",
                    "deals": f"{kept.inputs['deals']:,}",
                }
            )
    missing = [r for r in OTHER_PRESETS if found.get(f"when_to_knock/{r}") is None]
    lines = [
        (
            "**Under the other rules presets** (`analyzer when-to-knock --rules R`, kept by "
            "`analyzer when-to-knock --rules R --out results/when_to_knock/R`, each with its own "
            "robust table and the same seven test opponents):"
        ),
        "",
    ]
    if rows:
        lines.append(markdown_table(pd.DataFrame(rows)))
    if missing:
        lines += ["", f"Not computed yet: {', '.join(missing)}."]
    return [*lines, ""]


def _equilibria(found: Found) -> list[str]:
    rows = []
    for rules in ("standard", *OTHER_PRESETS):
        kept = found.get(f"panel_equilibrium/{rules}")
        if kept is None:
            continue
        answers = found.get(f"when_to_knock/{rules}")
        unknown = None if answers is None else knock_answer(answers, "unknown").line.table
        rows.append(_equilibrium_row(rules, kept, unknown))
    if not rows:
        return []
    return [
        (
            "**The equilibrium over the whole panel** (`analyzer panel-equilibrium --rules R --out "
            "results/panel_equilibrium/R`): PSRO (policy-space response oracles: add the strongest "
            "response to the current mix of players, solve the game among them again, repeat) "
            "over whole players (the seven test opponents, then each response that gains on the "
            "mixture: knock tables, every policy preset, `search` with the mixture's heaviest "
            "player as its model), and the knock table that does best against the mixture it "
            "settles on:"
        ),
        "",
        markdown_table(pd.DataFrame(rows)),
        "",
    ]


def _principles_box(decision: Decision) -> Callable[[Found, ReportConfig], str]:
    """The box of one decision's answer in principles (how to discard, how to draw)."""
    command = f"analyzer {decision.kept.replace('_', '-')}"

    def template(found: Found, config: ReportConfig) -> str:
        answer = found[f"{decision.kept}/standard"]
        unknown = principles_answer(decision, answer, "unknown")
        lines = [
            f"> ### {decision.question}",
            f"> The same answer as `{command}` prints (`--opponent` gives the others below).",
            "",
            "```text",
            unknown.text(),
            "```",
            "",
            f"![The principles' worth]({decision.kept}/standard/principles.png)",
            "",
            f"Against a known opponent (`{command} --opponent FAMILY`):",
            "",
        ]
        for family, (words, member) in FAMILIES.items():
            if member is None:
                continue
            spoken = principles_answer(decision, answer, family)
            worth = ", ".join(
                f"{line.key} {estimate_text(line.worth, 2, sign=True)}" for line in spoken.lines
            )
            lines.append(
                f"* **Against {words}** (`{family}`, measured against `{member}`): principles "
                f"by worth: {worth}; {spoken.result_text()}; {decision.published} scores "
                f"{estimate_text(spoken.marjj, 2, sign=True)} more than the rule."
            )
        return "\n".join([*lines, ""])

    return template


def _guide(found: Found, config: ReportConfig) -> str:
    """The whole guide on one page, when it is saved (``analyzer guide --out``)."""
    answer = found.get("guide/standard")
    command = f"analyzer guide --out {(config.out / 'guide' / 'standard').as_posix()}"
    if answer is None:
        return f"> The strategy guide on one page is not saved here yet: `{command}` saves it.\n"
    card = "[guide/standard/card.pdf](guide/standard/card.pdf), [card.png](guide/standard/card.png)"
    return (
        "> ### The whole guide\n"
        "> Draw, discard and knock on one screen, as `analyzer guide` prints it; as a "
        f"printable card: {card}.\n\n```text\n{answer.text()}\n```\n"
    )


def _kept(study: str, folder: str, rules: str) -> Entry:
    """An answer another command keeps in the report folder (the report only reads it)."""
    return Entry(study, folder, rules=rules, run=False, required=False)


KNOCK_BOX = Section(
    "when",
    None,
    (
        Entry(
            "when-to-knock",
            "when_to_knock/standard",
            lambda config: {
                "deals": config.size(0.05, least=200),
                "search_deals": config.size(0.025, least=100),
                "exploit_deals": config.size(0.025, least=100),
            },
            seconds=225,
            label="when to knock",
        ),
        *(_kept("when-to-knock", f"when_to_knock/{r}", r) for r in OTHER_PRESETS),
        *(
            _kept("panel-equilibrium", f"panel_equilibrium/{r}", r)
            for r in ("standard", *OTHER_PRESETS)
        ),
    ),
    _knock_box,
)

DISCARD_BOX = Section(
    "discard",
    None,
    (
        Entry(
            "how-to-discard",
            "how_to_discard/standard",
            lambda config: {"deals": config.size(0.5, least=200)},
            seconds=40,
            label="how to discard",
        ),
    ),
    _principles_box(DISCARDING),
)

DRAW_BOX = Section(
    "draw",
    None,
    (
        Entry(
            "how-to-draw",
            "how_to_draw/standard",
            lambda config: {"deals": config.size(0.5, least=200)},
            seconds=55,
            label="how to draw",
        ),
    ),
    _principles_box(DRAWING),
)

#: The whole guide, when saved: it reads the three answers below, so its own command runs
#: after the report (the report does not run it).
GUIDE_BOX = Section("guide", None, (_kept("guide", "guide/standard", "standard"),), _guide)

__all__ = ["DISCARD_BOX", "DRAW_BOX", "GUIDE_BOX", "KNOCK_BOX", "OTHER_PRESETS"]
