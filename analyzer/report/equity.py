"""The game-equity section: files, charts and Markdown of :mod:`analyzer.gin.studies.equity`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core.progress import Progress
from ..gin.studies.equity.charts import heatmap_data, threshold_data
from ..gin.studies.equity.response import BestResponse
from ..gin.studies.equity.study import (
    REPORT_CHECK_STATES,
    REPORT_DEALS,
    REPORT_GAMES,
    EquityStudy,
    equity_study,
)
from ..gin.studies.equity.table import EquityTable
from ..gin.studies.equity.validation import check_summary
from ..studies.files import make_folder, write_csv
from .common import Section, SectionRun, section_heading, section_intro
from .figures import figure_file, score_heatmap, threshold_heatmap
from .markdown import markdown_table

TITLE = "Game equity: a match-equity table for gin rummy"
#: File stem of the study's pair (the name ``analyzer equity`` gives the same run).
STEM = "standard-basic-vs-basic"


def write_table_files(
    table: EquityTable, distribution: pd.DataFrame, out_dir: Path, stem: str, title: str
) -> dict[str, Path]:
    """Write the hand-outcome distribution and the table (CSV) and its heatmap (PNG,
    one panel per dealer) as ``out_dir/<stem>_*``; returns the paths by kind.

    ``title`` names the run in the chart: rules preset, A's and B's policies."""
    paths = {
        "hand_outcomes": out_dir / f"{stem}_hand_outcomes.csv",
        "equity": out_dir / f"{stem}_equity.csv",
        "heatmap": out_dir / f"{stem}_equity.png",
    }
    write_csv(paths["hand_outcomes"], distribution, index=False)
    write_csv(paths["equity"], table.to_frame(), index=False, float_format="%.6g")
    deals = distribution.attrs.get("deals")
    with figure_file(
        paths["heatmap"],
        1,
        2,
        figsize=(11, 4.8),
        title=f"P(A wins the game to {table.rules.target}) from each score: {title}",
        caption="Dynamic program over the score on the hand-outcome law "
        + (f"of {deals:,} simulated deals" if deals else "given")
        + "; blue: A is favoured, red: B is; 95% CIs of checked "
        "states in the check CSV.",
    ) as axes:
        for ax, a_deals in zip(axes, (True, False), strict=True):
            score_heatmap(heatmap_data(table, a_deals), ax, f"{'A' if a_deals else 'B'} deals next")
    return paths


def write_response_files(
    response: BestResponse, out_dir: Path, stem: str, title: str
) -> dict[str, Path]:
    """Write the score-aware knock table (CSV, PNG) and each constant threshold's DP
    game-win probability (CSV) as ``out_dir/<stem>_*``; returns the paths by kind.

    ``title`` names the run in the chart (rules preset and opponent)."""
    paths = {
        "thresholds": out_dir / f"{stem}_knock_by_score.csv",
        "threshold_chart": out_dir / f"{stem}_knock_by_score.png",
        "constants": out_dir / f"{stem}_knock_constant.csv",
    }
    grid = threshold_data(response.aware, response.thresholds)
    write_csv(paths["thresholds"], grid)
    write_csv(paths["constants"], response.constant_frame(), index=False, float_format="%.6g")
    best = response.thresholds[response.best_constant]
    with figure_file(
        paths["threshold_chart"],
        figsize=(7.2, 5),
        title="Best knock threshold by score",
        caption=f"A's best response by backward induction on the game-equity "
        f"DP; the best fixed threshold is {best}. Measured gain with "
        "its 95% CI: knock_gain.csv.",
    ) as ax:
        threshold_heatmap(grid, ax, title, response.thresholds)
    return paths


def write_study_files(study: EquityStudy, out_dir: Path) -> dict[str, Path]:
    """Write every CSV and PNG of ``study`` into ``out_dir`` (created); paths by kind."""
    make_folder(out_dir)
    paths = write_table_files(
        study.table, study.distribution, out_dir, STEM, "standard rules, basic vs basic"
    )
    paths["check"] = out_dir / f"{STEM}_check.csv"
    write_csv(paths["check"], study.check, index=False, float_format="%.6g")
    paths["presets"] = out_dir / "presets_basic_vs_basic.csv"
    write_csv(paths["presets"], study.presets, index=False, float_format="%.6g")
    paths |= write_response_files(study.response, out_dir, STEM, "standard rules, A against basic")
    paths["gain"] = out_dir / f"{STEM}_knock_gain.csv"
    write_csv(paths["gain"], study.gain_frame(), index_label="game_win_rate")
    return paths


def run_equity(run: SectionRun) -> EquityStudy:
    """The study of the standard report, its files in the section's folder."""
    deals, games = run.size(2.5), run.size(0.5)
    study = run_and_write(run.folder, deals, games, run.seed, run.progress("equity"))
    run.write_meta(
        deals=deals,
        games=games,
        rules="standard",
        policies="basic v basic",
    )
    return study


def run_and_write(
    out_dir: Path, deals: int, games: int, seed: int, progress: Progress | None
) -> EquityStudy:
    """Run :func:`analyzer.gin.studies.equity.study.equity_study` and write its files to
    ``out_dir``."""
    study = equity_study(deals, games, seed, progress)
    write_study_files(study, out_dir)
    return study


def write_equity_report(
    out_dir: Path,
    deals: int = REPORT_DEALS,
    games: int = REPORT_GAMES,
    seed: int = 1,
    number: int | None = None,
    progress: Progress | None = None,
) -> str:
    """Run :func:`analyzer.gin.studies.equity.study.equity_study`, write its files to
    ``out_dir`` and return the report section (Markdown, links relative to
    ``out_dir.parent``)."""
    study = run_and_write(out_dir, deals, games, seed, progress)
    return section_heading(TITLE, number) + section_text(study, out_dir.name)


def section_text(study: EquityStudy, link: str) -> str:
    """The report section of ``study`` (Markdown, below its heading): files are linked as
    ``link/<stem>_*`` (``link`` is the folder relative to the report)."""
    table, check, presets, response, gain = (
        study.table,
        study.check,
        study.presets,
        study.response,
        study.gain,
    )
    deals, games, seed = study.deals, study.games, study.seed
    stem = STEM
    agreement = check_summary(check)
    best = response.thresholds[response.best_constant]
    hands, last = response.hands.iloc[response.best_constant], response.hands.iloc[-1]
    visits = response.aware.visit.sum(axis=2)
    other = response.aware.choice != response.best_constant
    departs = visits[other].sum() / visits.sum()
    where = f"all with A at {np.nonzero(other)[0].min()} points or more" if other.any() else "none"
    dp_gain = response.aware.start() - response.constant[response.best_constant].start()
    g = gain["gain"]
    verdict = (
        "no significant gain"
        if g.low <= 0 <= g.high
        else "a small but significant gain"
        if g.mean > 0
        else "a significant loss"
    )
    grid = heatmap_data(table, True).iloc[::20, ::20]
    grid = grid.rename(columns=lambda s: f"B {s}").reset_index(names="A's score")
    check_cols = [
        "score_a",
        "score_b",
        "a_deals",
        "boxes_a",
        "boxes_b",
        "dp_win",
        "sim_win",
        "z_win",
        "dp_margin",
        "sim_margin",
        "z_margin",
        "dp_hands",
        "sim_hands",
        "z_hands",
    ]
    agree_text = "; ".join(
        f"{name} {s['agree']}/{s['rows']} (chi2 {s['chi2']:.1f} on "
        f"{s['rows']} df, p = {s['p_value']:.2f})"
        for name, s in agreement.items()
    )
    file = f"{link}/{stem}"
    return "\n".join(
        [
            section_intro(
                "How likely is each player to win a game to 100 from any score, and does "
                "knocking by the score beat the best fixed knock threshold?",
                "`basic` against `basic`.",
                "standard",
                "the opening answer's rules ignore the score (they maximise points per hand); this "
                "section asks whether the score should move the knock.",
            ).rstrip("\n"),
            "",
            (
                f"**Answer.** Under the standard rules two basic players are even at 0:0 "
                f"(A wins {table.win_probability(0, 0, True):.3f} when A deals first), a player "
                f"at 90:0 who deals next wins {table.win_probability(90, 0, True):.3f}, and the "
                f"table matches whole-game simulation from sampled score states; a score-aware "
                f"knock table found by best response against basic gives {verdict}: "
                f"{g.mean:+.4f} ± {(g.high - g.low) / 2:.4f} game-win probability over "
                f"the best fixed threshold (knock at {best}), where the DP predicted "
                f"{dp_gain:+.4f}."
            ),
            "",
            f"![P(A wins) by score]({file}_equity.png)",
            "",
            (
                f"P(A wins the game) when A deals next, every 20 points (full table with "
                f"margins and game length: [{file}_equity.csv]({file}_equity.csv)):"
            ),
            "",
            markdown_table(grid, float_format=".3f", missing="-", align=False),
            "",
            (
                "**Method.** The law of one hand's result (winner and points, by dealer; drawn "
                f"hands are redealt) is estimated from {deals:,} deals played with both dealers "
                f"([{file}_hand_outcomes.csv]({file}_hand_outcomes.csv)). A backward dynamic "
                "program over (A's score, B's score, next dealer, has each won a hand) gives "
                "P(A wins), E[final margin] with the game, line and shutout bonuses (the line bonus per hand won enters "
                "the margin linearly, doubled in a shutout) and E[hands left]. It assumes that a "
                "hand's result does not depend on the score. For score-unaware policies that "
                "holds by construction: the simulator deals every hand from its own random stream "
                "and the same policies play it. The check below therefore tests the dynamic "
                "program and its bonus bookkeeping."
            ),
            "",
            (
                "**Check against whole games.** Whole games (the `play_games` kernel) run from "
                f"0:0 and {len(check) // 2 - 1} states drawn by how often games visit them, with the "
                f"hands won typical there: {study.check_games:,} games per state and first dealer. "
                "z = (DP - simulation) / combined standard error, the DP's from a 20-draw "
                f"bootstrap of the distribution. Rows within 95% (|z| < 1.96): {agree_text}. The "
                "chi-square takes the rows as independent, which holds only roughly: one "
                f"distribution feeds every DP row ([{file}_check.csv]({file}_check.csv))."
            ),
            "",
            markdown_table(check[check_cols], float_format=".3f", missing="-", align=False),
            "",
            (
                "**Presets** (basic vs basic; P(A wins) at 50:0 and 90:0 with A dealing next; "
                "oklahoma plays to 150):"
            ),
            "",
            markdown_table(presets, float_format=".3f", missing="-", align=False),
            "",
            (
                "**Score-aware knocking.** A chooses a knock threshold (0-10 deadwood points) for "
                "each (own score, opponent score) by backward induction on the DP. The inputs are "
                "the hand laws of each threshold against basic, estimated on common deals "
                f"({deals:,} per threshold). The choice cannot see the dealer, so each dealer is "
                "weighted by how often games reach the state. The score-aware table is measured "
                f"against the best constant threshold on {games:,} paired games per arm (each "
                "played with both first dealers on the same decks), on a seed the choice never saw."
            ),
            "",
            f"![knock threshold by score]({file}_knock_by_score.png)",
            "",
            markdown_table(
                pd.DataFrame(
                    {
                        "A's policy (vs basic)": ["score-aware", f"constant {best}", "gain"],
                        "game win rate (games, ± 95% CI)": [
                            f"{e.mean:.4f} ± {(e.high - e.low) / 2:.4f}"
                            for e in (gain["challenger"], gain["baseline"], g)
                        ],
                        "DP": [
                            response.aware.start(),
                            response.constant[response.best_constant].start(),
                            dp_gain,
                        ],
                    }
                ),
                float_format=".4f",
                missing="-",
                align=False,
            ),
            "",
            (
                f"Against basic the best fixed threshold is {best}: A wins {hands['hand_win']:.1%} "
                f"of hands at {hands['points_per_hand']:+.2f} points per hand (knocking at "
                f"{response.thresholds[-1]}: {last['hand_win']:.1%} at "
                f"{last['points_per_hand']:+.2f}). The score-aware table plays another threshold "
                f"in {departs:.1%} of the states its games visit (weighted by visits), {where} "
                "(chart)."
            ),
            "",
            (
                "Each fixed threshold against basic: A's hand win rate, points per hand and DP "
                "game-win probability from 0:0 "
                f"([{file}_knock_constant.csv]({file}_knock_constant.csv)):"
            ),
            "",
            markdown_table(
                response.constant_frame().set_index("threshold").T.reset_index(names=""),
                float_format=".3f",
                missing="-",
                align=False,
            ),
            "",
            (
                f"**Reproduce.** `write_equity_report(Path('results/{link}'), deals={deals}, "
                f"games={games}, seed={seed})`. The table, check and study for one pair: "
                f"`analyzer equity --rules standard --a basic --b basic --deals {deals} --seed "
                f"{seed} --check {REPORT_CHECK_STATES} --score-aware --games {games} --out "
                f"results/{link}` (its check and study use the same seed offsets)."
            ),
        ]
    )


#: Section 7 of the standard report.
SECTION = Section(
    "equity",
    TITLE,
    run_equity,
    lambda study: section_text(study, "equity"),
    seconds=28,
    folder="equity",
)

__all__ = [
    "SECTION",
    "STEM",
    "TITLE",
    "run_equity",
    "section_text",
    "write_equity_report",
    "write_response_files",
    "write_study_files",
    "write_table_files",
]
