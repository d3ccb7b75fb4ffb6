"""Section 2: the knock threshold sweep."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import STANDARD
from ..gin.studies import knocking
from ..studies.files import write_csv
from . import figures as charts
from .common import Section, SectionRun, format_ci, section_intro
from .figures import figure_file
from .markdown import markdown_table, with_ci


@dataclass(frozen=True)
class Sweep:
    """The knock sweep as the section shows it."""

    sweep: pd.DataFrame
    """One row per (opponent, threshold) (:func:`analyzer.gin.studies.knocking.knock_sweep`)."""
    subject: Policy
    deals: int
    """Deals per arm."""
    games: int
    """Game pairs per arm."""
    seed: int


def run_sweep(run: SectionRun) -> Sweep:
    deals, games = run.size(1.0), run.size(0.1)
    subject = POLICIES["basic"]
    opponents = knocking.default_opponents()
    sweep = knocking.knock_sweep(
        STANDARD,
        subject,
        opponents,
        deals,
        games,
        run.seed,
        progress=run.progress("knock sweep"),
        scheduler=run.scheduler,
    )
    write_csv(run.folder / "sweep.csv", sweep, index=False)
    with figure_file(
        run.folder / "sweep.png",
        1,
        3,
        figsize=(14, 4.2),
        title="Knock as soon as deadwood <= t: which t pays best?",
        caption=f"Player A = basic with threshold t against two opponents "
        f"(legend), standard rules; {deals:,} deals and {games:,} game "
        f"pairs per arm, seats swapped; bands: 95% CI; seed "
        f"{run.seed}.",
    ) as axes:
        charts.knock_sweep_panels(sweep, axes)
    run.write_meta(
        deals_per_arm=deals,
        games_per_arm=games,
        rules="standard",
        subject=format_policy(subject),
        opponents={k: (format_policy(v) if v else "A's twin") for k, v in opponents.items()},
    )
    return Sweep(sweep, subject, deals, games, run.seed)


def render_sweep(result: Sweep) -> str:
    sweep, subject, deals, games = result.sweep, result.subject, result.deals, result.games
    lines = []
    for opponent, group in sweep.groupby("opponent", sort=False):
        group = group.set_index("threshold")
        best = int(group["points_mean"].idxmax())
        best_game = int(group["game_win_mean"].idxmax())
        row, game_row = group.loc[best], group.loc[best_game]
        significant = row["diff_low"] > 0 or best == 10
        lines.append(
            f"* Against **{opponent}**: the most points per hand come from t = {best} "
            f"({format_ci(row['diff_mean'], row['diff_low'], row['diff_high'])} points per hand over "
            f"t = 10{'' if significant else ', not significant'}); the most games from "
            f"t = {best_game} ({game_row['game_win_mean']:.1%} of games, "
            f"{format_ci(100 * game_row['game_diff_mean'], 100 * game_row['game_diff_low'], 100 * game_row['game_diff_high'], 1)}"
            f" percentage points over t = 10). A's knocks at t = 10 are undercut in "
            f"{group.loc[10, 'undercut_mean']:.1%} of hands."
        )
    table = with_ci(
        sweep[
            [
                "opponent",
                "threshold",
                "points_mean",
                "diff_mean",
                "diff_low",
                "diff_high",
                "win_mean",
                "undercut_mean",
                "gin_mean",
                "turns_mean",
                "game_win_mean",
                "game_win_low",
                "game_win_high",
            ]
        ].rename(
            columns={
                "threshold": "t",
                "points_mean": "points per hand",
                "win_mean": "hands won",
                "undercut_mean": "undercut",
                "gin_mean": "gin",
                "turns_mean": "turns",
            }
        ),
        {
            "gain over t = 10": ("diff_mean", "diff_low", "diff_high"),
            "games won": ("game_win_mean", "game_win_low", "game_win_high"),
        },
    )
    intro = section_intro(
        "If you knock as soon as your deadwood is at most t (the same t all hand long), "
        "which t earns the most points per hand, and which wins the most games to 100?",
        "You play `basic` (draw a card that improves the hand, throw the highest) "
        "knocking at t; the opponent is `basic` (knocks as soon as it can, at 10) or "
        "`gin-hunter` (waits for gin).",
        "standard",
        "the opening answer's player is `expert` and its rule may change with the turn and with "
        "what the opponent took from the pile; here the threshold is fixed for the whole "
        "hand and the player is `basic`. Both agree that against an opponent who knocks "
        "at once, waiting for gin pays.",
    )
    return f"""\
{intro}**Answer.**
{chr(10).join(lines)}

Points per hand and game wins can disagree: a low threshold wins fewer hands but bigger
ones (gin bonuses, undercuts of an opponent who knocks into a strong hand).

![knock sweep](knock_sweep/sweep.png)

{markdown_table(table, {"points per hand": "+.3f", "hands won": ".3f", "undercut": ".3f", "gin": ".3f", "turns": ".1f"})}

A = `{format_policy(subject)}` with its threshold set to t; {deals:,} deals per arm (each
played twice, seats swapped) and {games:,} game pairs per arm, common to all arms (gains:
paired differences vs t = 10, points per hand; games won: share of games to 100; ± the
95% CI half-width); seed {result.seed}. Table: [sweep.csv](knock_sweep/sweep.csv).
"""


SECTION = Section(
    "sweep",
    "Knock threshold sweep: knock at deadwood <= t",
    run_sweep,
    render_sweep,
    seconds=16,
    folder="knock_sweep",
)
