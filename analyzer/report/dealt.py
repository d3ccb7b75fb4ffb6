"""Section 1: dealt hands, exact and by Monte Carlo."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.stats import half_width_of_se
from ..gin.studies import dealing
from ..gin.studies.exact import exact_study
from ..studies.files import make_folder, write_csv, written
from ..studies.reading import COUNT, read_table
from . import figures as charts
from .common import Section, SectionRun, section_intro
from .exact import write_study
from .figures import figure_file
from .markdown import markdown_table


@dataclass(frozen=True)
class Dealt:
    """The dealt-hands study as the section shows it."""

    table: pd.DataFrame
    """P(deadwood <= limit) by knock limit: exact, and Monte Carlo with its 95% CI."""
    exact_at: pd.Series
    """Exact P(deadwood <= limit) by (cards, limit)."""
    mean10: float
    """Mean dealt deadwood of 10 cards (points)."""
    inside: int
    """Cells (of 22) whose Monte Carlo CI contains the exact value."""
    hands: int
    """Monte Carlo hands of each size."""
    seed: int


def run_dealt(run: SectionRun) -> Dealt:
    exact = _exact_distribution(run)
    n = run.size(25)
    distribution = dealing.dealt_hands(n, run.seed, progress=run.progress("dealt hands"))
    eligibility = dealing.knock_eligibility(distribution)
    write_csv(run.folder / "distribution.csv", distribution, index=False)
    write_csv(run.folder / "knock_eligibility.csv", eligibility, index=False)
    with figure_file(
        run.folder / "dealt.png",
        figsize=(9, 4.2),
        title="Deadwood of a dealt hand: how often can you knock at once?",
        caption=f"Lines: exact, every hand. Points: {n:,} Monte Carlo hands of "
        f"each size (seed {run.seed}). Shaded: deadwood <= 10, where "
        "a standard-rules knock is allowed at once. Log scale: P(gin) "
        "is about 1 in 115,700.",
    ) as ax:
        charts.dealt_histogram(distribution, ax, exact)
    exact_at = (
        exact.groupby("cards")["probability"]
        .cumsum()
        .set_axis(pd.MultiIndex.from_frame(exact[["cards", "deadwood"]]))
    )
    mc = eligibility.set_index(["cards", "limit"])
    table = pd.DataFrame({"knock limit (points)": range(11)})
    for cards, label in ((10, "10 dealt"), (11, "best 10 of 11")):
        table[f"P({label} <= limit), exact"] = [f"{exact_at[(cards, k)]:.4e}" for k in range(11)]
        table[f"Monte Carlo ± 95% CI ({label})"] = [
            f"{mc.loc[(cards, k), 'probability']:.4e} ± {half_width_of_se(mc.loc[(cards, k), 'se']):.1e}"
            for k in range(11)
        ]
    inside = sum(
        abs(mc.loc[(c, k), "probability"] - exact_at[(c, k)])
        <= half_width_of_se(mc.loc[(c, k), "se"]) + 1e-12
        for c in (10, 11)
        for k in range(11)
    )
    mean10 = float(
        (exact.query("cards == 10")["deadwood"] * exact.query("cards == 10")["probability"]).sum()
    )
    run.write_meta(
        monte_carlo_hands_per_size=n,
        exact="results/exact (analyzer exact --cards 10 / --cards 11)",
    )
    return Dealt(table, exact_at, mean10, inside, n, run.seed)


def render_dealt(dealt: Dealt) -> str:
    table, exact_at, mean10, inside, n = (
        dealt.table,
        dealt.exact_at,
        dealt.mean10,
        dealt.inside,
        dealt.hands,
    )
    intro = section_intro(
        "How is the deadwood of a dealt hand distributed, and how often can the first "
        "player knock right away, for each knock limit (Oklahoma's upcard sets the limit)?",
        "Nobody: dealt hands only, before any play.",
        "any preset (only the knock limit matters here)",
    )
    return f"""\
{intro}**Answer.** Exactly (every one of the C(52,10) = 15,820,024,220 ten-card hands and
C(52,11) = 60,403,728,840 eleven-card hands enumerated), a dealt hand is gin with
probability {exact_at[(10, 0)]:.4e} (1 in {1 / exact_at[(10, 0)]:,.0f}) and
knock-eligible (deadwood <= 10) with probability {exact_at[(10, 10)]:.4e}; after taking
the upcard, the best 10 of 11 cards is knock-eligible with probability
{exact_at[(11, 10)]:.4e}. The mean dealt deadwood is {mean10:.2f} points. The Monte Carlo
estimate from {n:,} hands of each size contains the exact value in {inside} of 22 cells
of the table (about 21 expected at 95%).

![dealt deadwood](dealt/dealt.png)

{markdown_table(table)}

Exact counts, wall times and charts: [exact/](exact/) (`analyzer exact --cards 10` and
`--cards 11`; the report runs them when their files are missing). Monte Carlo seed
{dealt.seed}. Tables: [distribution.csv](dealt/distribution.csv),
[knock_eligibility.csv](dealt/knock_eligibility.csv).
"""


SECTION = Section(
    "dealt",
    "Dealt hands: how often can you knock at once?",
    run_dealt,
    render_dealt,
    seconds=1,
    folder="dealt",
)


def _exact_distribution(run: SectionRun) -> pd.DataFrame:
    """The exact dealt distributions of ``analyzer exact``, enumerated here if missing."""
    out = run.config.out
    frames = []
    for cards in (10, 11):
        name = f"exact/cards{cards}_counts.csv"
        if not (out / name).exists():
            make_folder(out / "exact")
            write_study(
                exact_study(cards, progress=run.progress(f"exact {cards} cards")),
                out / "exact",
            )
        # just written, the files are still staged (see report.files.staged_folder)
        counts = read_table(written(out, name), name, {"deadwood": COUNT, "count": COUNT})
        frames.append(
            pd.DataFrame(
                {
                    "cards": cards,
                    "deadwood": counts["deadwood"],
                    "probability": counts["count"] / counts["count"].sum(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)
