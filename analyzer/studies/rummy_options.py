"""The rule options of the documents, valued with the strong player: ``analyzer rummy
options`` (``az.rummy_options``), computed by :func:`analyzer.rummy.lessons.option_values`.

For each option (final discard to go out, must meld, calling rummy on the board, going
out only from the second turn, turning the pile over when the stock runs dry, laying off
only on one's own melds), played alone on top of the standard rules: how it changes what
pays (each principle of ``rummy-expert`` measured under it, as ``rummy how-to-play``
measures them) and how much it changes who wins (the expert's edge over ``simple`` and
its change from the standard rules, paired on the same deals).  Kept per number of
players in ``results/rummy_options/standard-<N>-players/``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.progress import Progress
from .charts import Axis, Chart, Mark, Panel, column
from .rummy_lessons import (
    EXPERT,
    answer_header,
    answer_lines,
    answer_text,
    ci_text,
    deals_param,
    panel_words,
    players_param,
    results_param,
    status,
    table_records,
)
from .study import RUMMY, Computed, Inputs, Study, View, register

#: The standard rules' row (every option is measured against it).
STANDARD = "standard rules"


def _compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..rummy.lessons import OPTIONS, option_values

    worth, edges = option_values(
        inputs["deals"], inputs.seed, inputs["players"], progress=progress, scheduler=scheduler
    )
    edges.insert(
        1,
        "fields",
        [
            # the standard rules change no field ("none": an empty text reads back as missing)
            ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in OPTIONS[o].items()) or "none"
            for o in edges["option"]
        ],
    )
    return Computed({"edges": edges, "worth": worth}, result=(worth, edges))


def _who_wins(row: Any) -> str:
    """How an option changes the expert's edge over ``simple``."""
    edge = f"{EXPERT}'s edge over simple is {ci_text(row, 'edge', sign=True)} points per hand"
    change = ci_text(row, "edge_change", sign=True)
    if status(row, "edge_change") == "none":
        return f"Who wins: {edge}, no measurable change from the standard rules ({change})."
    return f"Who wins: {edge}, a change of {change} from the standard rules."


#: The most principles a line on what pays names under one option (the rest are counted).
SHOWN_CHANGES = 3


def _what_pays(worth: pd.DataFrame, option: str, opponents: list[str]) -> str:
    """The principles whose worth under ``option`` differs from the standard rules' (the
    paired change's 95% CI excludes 0), the largest changes first."""
    rows = worth.set_index(["option", "opponent", "principle"])
    here = worth[worth["option"] == option]
    moved = here[[status(row, "worth_change") != "none" for _, row in here.iterrows()]]
    moved = moved.reindex(moved["worth_change"].abs().sort_values(ascending=False).index)
    if moved.empty:
        return "What pays: no principle's worth changes measurably."
    changed = []
    for _, row in moved.head(SHOWN_CHANGES).iterrows():
        base = rows.loc[(STANDARD, row["opponent"], row["principle"])]
        who = "itself" if row["opponent"] == EXPERT else row["opponent"]
        changed.append(
            f"'{row['principle']}' against {who} {ci_text(base, 'worth', sign=True)} -> "
            f"{ci_text(row, 'worth', sign=True)} (change {ci_text(row, 'worth_change', sign=True)})"
        )
    more = len(moved) - len(changed)
    rest = f"; and {more} smaller change{'s' if more > 1 else ''} (in the JSON)" if more else ""
    return "What pays, the largest changes: " + "; ".join(changed) + rest + "."


def _paying(worth: pd.DataFrame, option: str, opponents: list[str]) -> list[str]:
    rows = worth[worth["option"] == option]
    return [
        name
        for name in dict.fromkeys(rows["principle"])
        if all(status(r) == "pays" for _, r in rows[rows["principle"] == name].iterrows())
    ]


def _verdict(edges: pd.DataFrame) -> str:
    moved = edges[[status(row, "edge_change") != "none" for _, row in edges.iterrows()]]
    moved = moved.reindex(moved["edge_change"].abs().sort_values(ascending=False).index)
    standard = edges[edges["option"] == STANDARD].iloc[0]
    base = f"{EXPERT}'s edge over simple under the standard rules: {ci_text(standard, 'edge', sign=True)} points per hand"
    if moved.empty:
        return f"No option changes who wins measurably; {base}."
    changes = ", ".join(
        f"'{row['option']}' {ci_text(row, 'edge_change', sign=True)}" for _, row in moved.iterrows()
    )
    return f"{len(moved)} of {len(edges) - 1} options change who wins: {changes} ({base})."


def _present(answer: Any) -> View:
    inputs, edges, worth = answer.inputs, answer["edges"], answer["worth"]
    players = inputs["players"]
    opponents = list(dict.fromkeys(worth["opponent"]))
    title = inputs.title(
        "Plain rummy's rule options, valued with the strong player",
        players=f"{players} players · {EXPERT} against a panel of {panel_words(opponents)}",
        size=f"{inputs['deals']:,} deals per run",
    )
    verdict = _verdict(edges)
    lines = answer_lines(
        "Each option is played alone on top of the standard rules, on the same deals. Who "
        f"wins: {EXPERT}'s margin over simple in every other seat, and its change from the "
        "standard rules (paired). What pays: the principles of 'analyzer rummy how-to-play' "
        "whose worth changes most under the option (the standard rules' worth -> the option's, "
        "and the paired change; every principle's is in the JSON)."
    )
    standard = ", ".join(f"'{name}'" for name in _paying(worth, STANDARD, opponents))
    lines += ["", STANDARD.capitalize()]
    lines += [
        "  " + part
        for part in answer_lines(
            f"Who wins: {EXPERT}'s edge over simple is "
            f"{ci_text(edges[edges['option'] == STANDARD].iloc[0], 'edge', sign=True)} points per hand. "
            f"What pays against the whole panel: {standard or 'no principle'}."
        )
    ]
    for _, row in edges.iterrows():
        if row["option"] == STANDARD:
            continue
        lines += ["", f"{str(row['option']).capitalize()} ({row['fields']})"]
        for sentence in (_who_wins(row), _what_pays(worth, row["option"], opponents)):
            lines += ["  " + part for part in answer_lines(sentence)]
    return View(
        title,
        lines,
        verdict,
        _chart(edges, worth, opponents[0], title),
        frame=edges,
        text=answer_text(answer, title, verdict, lines),
        data={
            **answer_header(answer, title, verdict),
            "players": players,
            "deals": inputs["deals"],
            "panel": opponents,
            "options": table_records(edges),
            "principles": table_records(worth),
        },
    )


def _chart(edges: pd.DataFrame, worth: pd.DataFrame, opponent: str, title: str) -> Chart:
    """The expert's edge over ``simple`` under each option, and each principle's worth
    against ``opponent`` under each option."""
    options = tuple(str(o) for o in edges["option"])
    standard = float(edges[edges["option"] == STANDARD]["edge"].iloc[0])
    edge = Panel(
        (
            Mark("vline", x=(standard,), color=7, dashed=True),
            Mark(
                "hbars",
                x=column(edges["edge"]),
                y=options,
                low=column(edges["edge_lo"]),
                high=column(edges["edge_hi"]),
            ),
        ),
        title="Who wins",
        x_label=f"{EXPERT}'s edge over simple, points per hand (bars: 95% CI)",
        y=Axis(reversed=True),
        legend="none",
    )
    cells = worth[worth["opponent"] == opponent].set_index(["principle", "option"])
    names = tuple(dict.fromkeys(worth["principle"]))
    z = tuple(tuple(float(cells.loc[(name, o), "worth"]) for o in options) for name in names)
    pays = Panel(
        (
            Mark(
                "heatmap",
                x=options,
                y=names,
                z=z,
                text=tuple(tuple(f"{value:+.1f}" for value in row) for row in z),
                colorbar="points per hand",
            ),
        ),
        title=f"What pays: worth against {'itself' if opponent == EXPERT else opponent}",
        y=Axis(reversed=True),
        legend="none",
    )
    return Chart(
        "options",
        f"Plain rummy's rule options, valued with {EXPERT}",
        f"{title}. Each option alone on top of the standard rules (dashed: the standard rules' "
        "edge).",
        (edge, pays),
        size=(13.0, 4.8),
    )


RUMMY_OPTIONS = register(
    Study(
        "rummy options",
        "What does each rule option change? Valued with the strong player.",
        "For each rule option of the documents (final discard to go out, must meld, rummy on "
        "the board, going out only from the second turn, turning the pile over, laying off "
        f"only on one's own melds), alone on top of the standard rules: {EXPERT}'s edge over "
        "simple and its change from the standard rules (who wins, paired on the same deals), "
        "and the worth of each of the expert's principles under it (what pays), 95% CIs. "
        "Read from the report folder when it keeps the answer for the number of players "
        "(results/rummy_options/standard-<N>-players/), computed otherwise (minutes at the "
        "default size).",
        (
            "analyzer rummy options",
            "analyzer rummy options --players 4 --deals 4000",
        ),
        (players_param("at the table"), deals_param(), results_param()),
        _compute,
        _present,
        step="options",
        rules=False,
        rulebook=RUMMY,
        kept="rummy_options",
        kept_by=("players",),
        keys={"edges": ("option",), "worth": ("option", "opponent", "principle")},
        columns={
            "edges": (
                "option",
                "fields",
                "edge",
                "edge_lo",
                "edge_hi",
                "edge_change",
                "edge_change_lo",
                "edge_change_hi",
            ),
            "worth": (
                "option",
                "opponent",
                "principle",
                "worth",
                "worth_lo",
                "worth_hi",
                "worth_change",
                "worth_change_lo",
                "worth_change_hi",
            ),
        },
        notebook="``.plot()``: the edge and the principles' worth under each option.",
    )
)

__all__ = ["RUMMY_OPTIONS", "STANDARD"]
