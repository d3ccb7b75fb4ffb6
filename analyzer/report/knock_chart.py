"""Section 3: the knock chart (knock now or play on, by turn and deadwood)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.policies import format_policy
from ..gin.model.rules import STANDARD
from ..gin.studies import knocking
from ..gin.studies.branching import MAX_TURN
from ..studies.files import write_csv
from . import figures as charts
from .common import Section, SectionRun, section_intro
from .figures import figure_file


@dataclass(frozen=True)
class KnockChart:
    """The knock chart as the section shows it."""

    chart: pd.DataFrame
    """One row per (turn, deadwood) (:func:`analyzer.gin.studies.knocking.knock_chart`)."""
    deals: int
    equity_deals: int
    """Deals of the equity table valuing game wins."""
    seed: int


def run_chart(run: SectionRun) -> KnockChart:
    deals = run.size(4.0)
    subject = opponent = POLICIES["basic"]
    equity_deals = run.size(0.5)
    chart = knocking.knock_chart(
        STANDARD,
        subject,
        opponent,
        deals,
        run.seed,
        min_samples=300,
        progress=run.progress("knock chart"),
        scheduler=run.scheduler,
        equity_deals=equity_deals,
    )
    write_csv(run.folder / "knock_chart.csv", chart, index=False)
    with figure_file(
        run.folder / "knock_chart.png",
        figsize=(12, 5.4),
        title="Knock now or play on? Points gained by knocking, by turn and deadwood",
        caption=f"Each cell: mean points of knocking now minus playing on from "
        f"the same states, basic against basic, standard rules, "
        f"{deals:,} deals (seed {run.seed}); 95% CIs in "
        "knock_chart.csv.",
    ) as ax:
        charts.knock_chart_heatmap(chart, ax, MAX_TURN, min_samples=300)
    run.write_meta(
        deals=deals,
        rules="standard",
        subject=format_policy(subject),
        opponent=format_policy(opponent),
        equity_deals=equity_deals,
    )
    return KnockChart(chart, deals, equity_deals, run.seed)


def render_chart(result: KnockChart) -> str:
    deals, equity_deals = result.deals, result.equity_deals
    statement = _chart_statement(result.chart)
    intro = section_intro(
        "You may knock with d deadwood on your n-th own turn. Is it better to knock now "
        "or to play on (and knock at the next chance)?",
        "`basic` against `basic` (both knock as soon as they can, at 10).",
        "standard",
        "this chart values one knock against an opponent who knocks at once, while the "
        "opening answer's rules are knock tables for a whole hand against several kinds of opponent "
        "(its knocks-at-once line: knock only with gin). The chart's player knocks now "
        "with a high count early because its opponent will knock soon anyway; with a low "
        "count it waits, since such a hand undercuts the opponent's coming knock.",
    )
    return f"""\
{intro}**Answer.** {statement}

Each cell is the mean of (points if you knock now) minus (points if you discard the same
way without knocking and play on), both continued from the same stock order; positive
(blue) = knock. Cells with fewer than 300 states are grey; the black line is the
knock / play-on boundary.

![knock chart](knock_chart/knock_chart.png)

States come from {deals:,} deals (each played twice, seats swapped) of `basic` against
`basic` under the standard rules, the player holding back its knock along the main line
so later turns are reached; seed {result.seed}. The game-win values use an equity table of
the same pair from {equity_deals:,} deals. Full table with CIs (points and game-win):
[knock_chart.csv](knock_chart/knock_chart.csv).
"""


SECTION = Section(
    "chart",
    "When to knock, by turn: knock now or play on?",
    run_chart,
    render_chart,
    seconds=4,
    folder="knock_chart",
)


def _chart_statement(chart: pd.DataFrame) -> str:
    """One paragraph summarising the knock chart: counts of verdicts, then per turn the
    deadwood values at which knocking is significantly better."""
    solid = chart[chart["enough"]]
    counts = solid["verdict"].value_counts()
    text = (
        f"In {counts.get('knock', 0)} of {len(solid)} well-sampled cells knocking now is "
        f"significantly better, in {counts.get('play on', 0)} playing on is, and "
        f"{counts.get('unclear', 0)} are too close to call."
    )
    knock = solid[solid["verdict"] == "knock"].groupby("turn")["deadwood"].agg(["min", "max"])
    if len(knock):
        spans = [
            f"turn {turn}: {low}-{high}" if low != high else f"turn {turn}: {low}"
            for turn, (low, high) in knock.iterrows()
        ]
        last = int(knock.index.max())
        text += (
            f" Knock now with deadwood (points) {'; '.join(spans)}; from own turn "
            f"{last + 1} on, playing on is never significantly worse."
        )
    if "win_verdict" in solid:
        differ = solid[solid["verdict"] != solid["win_verdict"]]
        opposite = differ[(differ["verdict"] != "unclear") & (differ["win_verdict"] != "unclear")]
        text += (
            f" Valued as the chance of winning a game to 100 that this hand opens "
            f"(columns `win_*`), the verdict is the same in {len(solid) - len(differ)} of "
            f"{len(solid)} cells; in {len(differ) - len(opposite)} of the others one "
            f"verdict is too close to call, and {len(opposite)} are opposite."
        )
    play = solid[solid["verdict"] == "play on"]
    if len(play):
        low = play[play["deadwood"] <= 3]
        text += (
            f" With 3 or less deadwood, playing on is better in {len(low)} of "
            f"{len(solid[solid['deadwood'] <= 3])} cells: an opponent who knocks at its "
            "first chance is undercut by such a hand, and gin is near."
        )
    return text
