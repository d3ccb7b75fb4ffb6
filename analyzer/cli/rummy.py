"""``analyzer rummy``: the group of plain rummy's commands, made from its studies'
declarations (:mod:`analyzer.studies.rummy`, :mod:`analyzer.studies.rummy_study`,
:mod:`analyzer.studies.rummy_lessons`), and ``analyzer rummy policies``, its players in
words."""

from __future__ import annotations

from typing import Any

import click
import pandas as pd

from ..core.limits import MAX_SPEC_CHARS
from ..report.explain import wrapped_commas, wrapped_label
from ..studies.text import CI_NOTE, MAX_WIDTH, interval_text
from .inputs import fail
from .output import echo_json, format_options
from .study_commands import COMMANDS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def rummy() -> None:
    """Plain rummy (not gin): how to play, its players, the rule options; simulate hands
    and games and run the studies.

    \b
    Example:
      analyzer rummy how-to-play --players 4
      analyzer rummy policies
      analyzer rummy simulate --a rummy-expert --b simple --deals 2000
    """


for _name, _command in COMMANDS.items():
    if _name.startswith("rummy "):
        rummy.add_command(_command)


def _edge(name: str) -> dict[str, float] | None:
    """``rummy-expert``'s measured margin over preset ``name`` (None: none measured)."""
    from ..rummy.describe import EXPERT_EDGES

    if name not in EXPERT_EDGES:
        return None
    mean, low, high = EXPERT_EDGES[name]
    return {"mean": mean, "low": low, "high": high}


def _edge_text(edge: dict[str, float]) -> str:
    return interval_text(edge["mean"], edge["low"], edge["high"], sign=True)


def _strongest_line() -> str:
    """The strongest player's edges, from the smallest to the largest."""
    from ..rummy.describe import EXPERT_EDGES

    ordered = sorted(EXPERT_EDGES, key=lambda name: EXPERT_EDGES[name][0])
    least, most = ordered[0], ordered[-1]
    least_edge, most_edge = _edge(least), _edge(most)
    assert least_edge is not None and most_edge is not None
    return (
        f"Measured at two players, it beats every other preset: by {_edge_text(least_edge)} "
        f"({least}) to {_edge_text(most_edge)} ({most}) points per hand."
    )


def _row(name: str, policy: Any) -> dict[str, Any]:
    """One policy in words: its name, string form, description and the strongest
    player's measured edge over it (None: not measured)."""
    from ..rummy.describe import describe
    from ..rummy.policies import format_policy

    return {
        "policy": name,
        "string": format_policy(policy),
        "description": describe(policy),
        "expert_edge": _edge(name),
    }


def _lines(row: dict[str, Any], width: int) -> list[str]:
    from ..rummy.describe import STRONGEST

    lines = wrapped_label(row["policy"], row["description"], width)
    lines += wrapped_commas(" " * width + "string form: ", row["string"], width + 13)
    if row["policy"] == STRONGEST:
        lines += wrapped_label("", _strongest_line(), width)
    elif row["expert_edge"] is not None:
        lines += wrapped_label(
            "",
            f"{STRONGEST} scores {_edge_text(row['expert_edge'])} points per hand more than it.",
            width,
        )
    return lines


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as CSV columns: the edge as three numbers (empty: not measured)."""

    def part(row: dict[str, Any], key: str) -> float | None:
        return None if row["expert_edge"] is None else row["expert_edge"][key]

    return pd.DataFrame(
        {
            "policy": [row["policy"] for row in rows],
            "string": [row["string"] for row in rows],
            "description": [row["description"] for row in rows],
            "expert_edge": [part(row, "mean") for row in rows],
            "expert_edge_low": [part(row, "low") for row in rows],
            "expert_edge_high": [part(row, "high") for row in rows],
        }
    )


@rummy.command("policies")
@click.argument("name", required=False)
@format_options
def policies_command(name: str | None, fmt: str) -> None:
    """Plain rummy's players in words, the strongest (rummy-expert) first, or policy NAME.

    \b
    Example:
      analyzer rummy policies
      analyzer rummy policies rummy
      analyzer rummy policies "meld=hold,hold_turns=4,layoff=keep"

    NAME is a preset or key=value items (a preset followed by key=value items changes
    it). Each preset is said in words: how it melds, lays off and throws, and how it
    fares and why; with rummy-expert's edge over it as measured for BENCHMARKS.md (two
    players, points per hand, 95% CI).
    """
    from ..rummy.describe import EDGES_SOURCE, preset_descriptions
    from ..rummy.policies import PRESETS, parse_policy, policy_name

    if name is None:
        rows = [_row(preset, PRESETS[preset]) for preset in preset_descriptions()]
    else:
        if len(name) > MAX_SPEC_CHARS:
            fail(f"a policy is at most {MAX_SPEC_CHARS} characters, got {len(name):,}")
        try:
            policy = parse_policy(name)
        except ValueError as error:
            fail(str(error))
        rows = [_row(policy_name(policy), policy)]
    if fmt == "json":
        echo_json(
            {"policies": rows, "source": EDGES_SOURCE}
            if name is None
            else {**rows[0], "source": EDGES_SOURCE}
        )
        return
    if fmt == "csv":
        click.echo(_frame(rows).to_csv(index=False), nl=False)
        return
    # a policy given as key=value items is named by its string form, shown whole below
    named = [
        row if len(row["policy"]) <= MAX_WIDTH // 3 else {**row, "policy": "this policy"}
        for row in rows
    ]
    width = max(len(row["policy"]) for row in named) + 2
    lines = [line for row in named for line in ["", *_lines(row, width)]][1:]
    if name is None:
        heading = (
            "Plain rummy's players, the strongest first ('analyzer rummy policies NAME' explains "
            "one, or any key=value policy):"
        )
        lines = [*wrapped_label("", heading, 0), "", *lines]
    if any(row["expert_edge"] is not None for row in rows) or name is None:
        lines += ["", *wrapped_label("", f"Edges: {EDGES_SOURCE}.", 0), CI_NOTE]
    click.echo("\n".join(lines))
