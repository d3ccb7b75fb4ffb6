"""How to play plain rummy, in a player's words: ``analyzer rummy how-to-play`` and
``analyzer rummy options`` (``az.rummy_how_to_play``, ``az.rummy_options``), computed by
:mod:`analyzer.rummy.lessons` with the strong player ``rummy-expert``.

Each of the expert's principles is worth what the expert loses when that one decision
is replaced by a simple rule, paired deal by deal against a panel of the expert itself
and ``simple`` (points per hand, 95% CIs).  how-to-play answers, for a rules preset and
a number of players: when to meld and when to hold for Rummy, what to throw, when to lay
off, and how the number of players (2 to 6) changes each.  options answers, for each
rule option of the documents: how it changes what pays (the principles' worth under it)
and how much it changes who wins (the expert's edge over ``simple``, paired with the
standard rules).

Both keep their answers in the report folder, one per rules preset and number of
players (``results/rummy_how_to_play/standard-2-players/``), and every door reads the
kept answer unless asked for a run of its own (``--deals``, ``--seed``, ``--set``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.progress import Progress
from .charts import Axis, Chart, Mark, Panel, column
from .study import RUMMY, Computed, Inputs, Kind, Param, Study, View, register
from .text import CI_NOTE, header_lines, interval_text, table_lines
from .text import answer_lines as _wrapped

#: The strong player every figure is played by, and the panel it plays against.
EXPERT = "rummy-expert"
#: The answers' headings, by the question a principle answers.
QUESTION_HEADINGS = {
    "meld": "When to meld and when to hold for Rummy",
    "throw": "What to throw",
    "layoff": "When to lay off",
}


def ci_text(row: Any, name: str, digits: int = 2, **style: bool) -> str:
    """``x ± h`` of column ``name`` of ``row`` and its ``_lo``/``_hi`` bounds."""
    return interval_text(row[name], row[f"{name}_lo"], row[f"{name}_hi"], digits, **style)


def status(row: Any, name: str = "worth") -> str:
    """``pays`` when the 95% CI of column ``name`` lies above 0, ``costs`` below 0,
    ``none`` when it holds 0."""
    if row[f"{name}_lo"] > 0:
        return "pays"
    if row[f"{name}_hi"] < 0:
        return "costs"
    return "none"


#: How a line says a principle's status (all opponents alike, or against one of them).
_STATUS_WORDS = {
    "pays": ("it pays", "it pays against {}"),
    "costs": ("the simple rule does better", "the simple rule does better against {}"),
    "none": ("no measurable worth", "no measurable worth against {}"),
    "same": (
        "no difference: the expert plays as the rule here",
        "the expert plays as the rule against {}",
    ),
}
#: A status in a word or two, for the lines on the number of players.
_SHORT_WORDS = {"pays": "pays", "costs": "costs", "none": "no measurable worth"}


def answer_lines(text: str) -> list[str]:
    """``text`` in lines of a player's answer, never broken inside an ``x ± h``."""
    kept = text.replace(" ± ", "\u00a0±\u00a0")  # no-break spaces: textwrap does not break there
    return [line.replace("\u00a0", " ") for line in _wrapped(kept)]


def bullet_lines(text: str) -> list[str]:
    """``text`` as a list item: ``- `` before its first line, the others indented."""
    return [("  " if i else "- ") + part for i, part in enumerate(answer_lines(text))]


def _counts_text(counts: list[int]) -> str:
    """``2 players``, ``2-4 players``, ``2, 4 and 6 players`` (``counts`` ascending)."""
    if len(counts) == 1:
        return f"{counts[0]} players"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]} players"
    return ", ".join(map(str, counts[:-1])) + f" and {counts[-1]} players"


def panel_words(opponents: list[str]) -> str:
    return " and ".join("itself" if opponent == EXPERT else opponent for opponent in opponents)


# ------------------------------------------------------------------------ how to play


def _how_to_play(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..rummy.lessons import how_to_play

    answer = how_to_play(
        inputs.rules,
        inputs["players"],
        inputs["deals"],
        inputs.seed,
        progress=progress,
        scheduler=scheduler,
    )
    return Computed({"principles": answer.by_players, "expert": answer.expert}, result=answer)


def principle_line(row: Any, opponents: list[str], table: pd.DataFrame) -> str:
    """One principle at one table: what the expert does rather than the simple rule,
    and its worth against each panel opponent (``table``: its rows, by opponent)."""
    rows = table.set_index("opponent")
    figures = ", ".join(
        f"{ci_text(rows.loc[o], 'worth', sign=True)} against {'itself' if o == EXPERT else o}"
        for o in opponents
    )
    # a worth of exactly 0 on every deal: the expert plays as the simple rule there
    states = {
        o: "same"
        if rows.loc[o, "worth_lo"] == rows.loc[o, "worth_hi"] == 0
        else status(rows.loc[o])
        for o in opponents
    }
    if len(set(states.values())) == 1:
        verdict = _STATUS_WORDS[states[opponents[0]]][0]
    else:
        verdict = "; ".join(
            _STATUS_WORDS[states[o]][1].format("itself" if o == EXPERT else o) for o in opponents
        )
    does = str(row["expert_does"])
    return f"{does[0].upper()}{does[1:]}, rather than {row['instead']}: {figures}; {verdict}."


def _change_lines(principles: pd.DataFrame, opponent: str) -> list[str]:
    """Each principle whose status against ``opponent`` differs from one player count to
    another: at which counts it pays, costs or is worth nothing measurable."""
    lines = []
    rows = principles[principles["opponent"] == opponent]
    for name, group in rows.groupby("principle", sort=False):
        by_status: dict[str, list[int]] = {}
        for _, row in group.sort_values("players").iterrows():
            by_status.setdefault(status(row), []).append(int(row["players"]))
        if len(by_status) > 1:
            parts = [f"{_SHORT_WORDS[s]} at {_counts_text(c)}" for s, c in by_status.items()]
            lines.append(f"'{name}' {', '.join(parts)}.")
    return lines


def _by_players_table(principles: pd.DataFrame, opponent: str) -> pd.DataFrame:
    """Each principle's worth against ``opponent`` at every player count (``x ± h``)."""
    rows = principles[principles["opponent"] == opponent]
    counts = sorted(int(n) for n in rows["players"].unique())
    names = list(dict.fromkeys(rows["principle"]))
    cells = rows.set_index(["principle", "players"])
    return pd.DataFrame(
        {
            "principle": names,
            **{
                str(n): [ci_text(cells.loc[(name, n)], "worth", sign=True) for name in names]
                for n in counts
            },
        }
    )


def _expert_line(expert: pd.DataFrame, players: int) -> str:
    """How the expert fares at this table against each panel opponent."""
    parts = []
    for _, row in expert.iterrows():
        who = "itself" if row["opponent"] == EXPERT else str(row["opponent"])
        rummy = row["rummy_share"]
        parts.append(
            f"against {who}, a margin of {ci_text(row, 'margin', sign=True)} points per hand (its "
            f"points less the other seats' mean) and {ci_text(row, 'win_share', 1, percent=True)} "
            f"of the hands someone won (fair {1 / players:.1%})"
            + ("" if pd.isna(rummy) else f", {rummy:.0%} of its wins Rummy")
            + f", {row['void_rate']:.0%} of the hands void"
        )
    return f"{EXPERT} itself at this table: " + "; ".join(parts) + "."


def _present_how_to_play(answer: Any) -> View:
    inputs, principles, expert = answer.inputs, answer["principles"], answer["expert"]
    players = inputs["players"]
    opponents = list(dict.fromkeys(principles["opponent"]))
    here = principles[principles["players"] == players]
    title = inputs.title(
        "How to play plain rummy",
        players=f"{players} players · {EXPERT} against a panel of {panel_words(opponents)}",
        size=f"{inputs['deals']:,} deals per run",
    )
    lines = [
        *answer_lines(
            f"Each principle is what {EXPERT}, the strongest player here, does; its worth is "
            f"what the expert loses, in points per hand, when that one decision is replaced by "
            f"the simple rule after 'rather than', playing the same deals against a panel of "
            f"{panel_words(opponents)} in every other seat."
        ),
    ]
    for question, heading in QUESTION_HEADINGS.items():
        lines += ["", heading]
        asked = here[here["question"] == question]
        for _, rows in asked.groupby("principle", sort=False):
            lines += bullet_lines(principle_line(rows.iloc[0], opponents, rows))
    counts = sorted(int(n) for n in principles["players"].unique())
    if len(counts) > 1:
        lines += ["", "How the number of players changes this"]
        for opponent in opponents:
            who = "itself" if opponent == EXPERT else opponent
            lines += [
                "",
                f"Worth against {who} in every other seat, points per hand, by players:",
                *table_lines(_by_players_table(principles, opponent)),
            ]
            for line in _change_lines(principles, opponent):
                lines += bullet_lines(f"Against {who}: {line}")
    lines += ["", *answer_lines(_expert_line(expert, players))]
    verdict = _how_to_play_verdict(here, opponents, players)
    return View(
        title,
        lines,
        verdict,
        _how_to_play_chart(principles, players, opponents, title),
        frame=principles,
        text=answer_text(answer, title, verdict, lines),
        data={
            **answer_header(answer, title, verdict),
            "players": players,
            "deals": inputs["deals"],
            "panel": opponents,
            "principles": table_records(here),
            "by_players": table_records(principles),
            "expert": table_records(expert),
        },
    )


def answer_text(answer: Any, title: str, verdict: str, lines: list[str]) -> str:
    """The whole answer as the command prints it: the title, the verdict, the ``lines``,
    where it came from and the CI legend."""
    source = answer.source or "computed now"
    return "\n".join(
        [
            *header_lines(title, "  "),
            "",
            *answer_lines(verdict),
            "",
            *lines,
            "",
            *answer_lines(f"Source: {source}."),
            CI_NOTE,
        ]
    )


def answer_header(answer: Any, title: str, verdict: str) -> dict[str, Any]:
    """What the JSON of an answer opens with: its title, verdict, rules, seed and where it
    came from."""
    inputs = answer.inputs
    return {
        "title": title,
        "verdict": verdict,
        "rules": inputs.rules_name,
        "seed": inputs.seed,
        "source": answer.source or "computed now",
    }


def table_records(table: pd.DataFrame) -> list[dict[str, Any]]:
    from .answer import records

    return records(table)


def _how_to_play_verdict(here: pd.DataFrame, opponents: list[str], players: int) -> str:
    """The principles that pay against the whole panel, the most valuable first (by
    their worth against the expert itself)."""
    first = here[here["opponent"] == opponents[0]].set_index("principle")
    paying = [
        name
        for name in first.index
        if all(status(row) == "pays" for _, row in here[here["principle"] == name].iterrows())
    ]
    paying.sort(key=lambda name: -first.loc[name, "worth"])
    if not paying:
        return f"At {players} players no principle of {EXPERT} pays against the whole panel."
    top = ", ".join(
        f"'{name}' ({ci_text(first.loc[name], 'worth', sign=True)})" for name in paying[:3]
    )
    return (
        f"At {players} players {len(paying)} of {len(first)} principles of {EXPERT} pay "
        f"against the whole panel; worth most against the expert itself: {top} points per hand."
    )


def _how_to_play_chart(
    principles: pd.DataFrame, players: int, opponents: list[str], title: str
) -> Chart:
    """Each principle's worth at this table against each panel opponent, and against
    the first (the expert itself) at every player count."""
    here = principles[principles["players"] == players]
    names = tuple(dict.fromkeys(here["principle"]))
    width = 0.8 / len(opponents)
    bars = [Mark("vline", x=(0.0,), color=7)]
    for index, opponent in enumerate(opponents):
        rows = here[here["opponent"] == opponent].set_index("principle").loc[list(names)]
        bars.append(
            Mark(
                "hbars",
                x=column(rows["worth"]),
                y=names,
                low=column(rows["worth_lo"]),
                high=column(rows["worth_hi"]),
                label=f"against {'itself' if opponent == EXPERT else opponent}",
                color=index,
                width=width,
                offset=(index - (len(opponents) - 1) / 2) * width,
            )
        )
    panels = [
        Panel(
            tuple(bars),
            title=f"At {players} players",
            x_label="worth, points per hand (bars: 95% CI)",
            y=Axis(reversed=True),
            legend="below",
        )
    ]
    counts = sorted(int(n) for n in principles["players"].unique())
    if len(counts) > 1:
        cells = principles[principles["opponent"] == opponents[0]].set_index(
            ["principle", "players"]
        )
        z = tuple(tuple(float(cells.loc[(name, n), "worth"]) for n in counts) for name in names)
        panels.append(
            Panel(
                (
                    Mark(
                        "heatmap",
                        x=tuple(f"{n}" for n in counts),
                        y=names,
                        z=z,
                        text=tuple(tuple(f"{value:+.1f}" for value in row) for row in z),
                        colorbar="points per hand",
                    ),
                ),
                title="Against itself, by number of players",
                x_label="players",
                y=Axis(reversed=True),
                legend="none",
            )
        )
    return Chart(
        "principles",
        f"How to play plain rummy: what each of {EXPERT}'s principles is worth",
        f"{title}. The worth of a principle: the expert's points per hand less those of the "
        "expert with that decision replaced by a simple rule, on the same deals.",
        tuple(panels),
        size=(5.0 * len(panels) + 2, 4.5),
    )


def players_param(what: str) -> Param:
    return Param(
        "players",
        Kind.COUNT,
        2,
        f"Number of players, 2-6 ({what}).",
        low=2,
        high=6,
    )


def deals_param() -> Param:
    return Param(
        "deals", Kind.COUNT, 20_000, "Deals per run (the same deals for every run).", low=50
    )


def results_param() -> Param:
    return Param(
        "results",
        Kind.FOLDER,
        None,
        "Report folder to read the answer from (default: $ANALYZER_RESULTS, else ./results, "
        "else the results/ of the project an editable install came from).",
    )


_PRINCIPLE_KEYS = ("players", "opponent", "principle")
_PRINCIPLE_COLUMNS = (
    *_PRINCIPLE_KEYS,
    "question",
    "expert_does",
    "instead",
    "worth",
    "worth_lo",
    "worth_hi",
)

RUMMY_HOW_TO_PLAY = register(
    Study(
        "rummy how-to-play",
        "How should I play plain rummy? The strong player's principles, with their worth.",
        "When to meld and when to hold for Rummy, what to throw, when to lay off, and how the "
        f"number of players changes each: every principle of {EXPERT}, the strongest player "
        "here, with what it is worth in points per hand (95% CIs) against a panel of the "
        "expert itself and simple, at 2 to 6 players. Read from the report folder when it "
        "keeps the answer for the rules preset and number of players "
        "(results/rummy_how_to_play/<rules>-<N>-players/), computed otherwise (about a "
        "minute at the default size on 2 cores).",
        (
            "analyzer rummy how-to-play",
            "analyzer rummy how-to-play --players 4",
            "analyzer rummy how-to-play --rules seed004 --deals 2000",
        ),
        (players_param("the table the answer is for"), deals_param(), results_param()),
        _how_to_play,
        _present_how_to_play,
        step="how to play",
        rulebook=RUMMY,
        kept="rummy_how_to_play",
        kept_by=("players",),
        keys={"principles": _PRINCIPLE_KEYS, "expert": ("opponent",)},
        columns={
            "principles": _PRINCIPLE_COLUMNS,
            "expert": (
                "opponent",
                "margin",
                "margin_lo",
                "margin_hi",
                "win_share",
                "win_share_lo",
                "win_share_hi",
                "rummy_share",
                "void_rate",
            ),
        },
        notebook="``.plot()``: each principle's worth; ``.to_dict()``: the numbers.",
    )
)

__all__ = [
    "EXPERT",
    "RUMMY_HOW_TO_PLAY",
    "answer_header",
    "answer_lines",
    "answer_text",
    "bullet_lines",
    "ci_text",
    "deals_param",
    "panel_words",
    "players_param",
    "principle_line",
    "results_param",
    "status",
    "table_records",
]
