"""Section 6: scoring variants."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.policies import format_policy
from ..gin.model.rules import VARIANT_PRESETS
from ..gin.studies import variants
from ..studies.files import write_csv
from . import figures as charts
from .common import Section, SectionRun, section_intro
from .figures import figure_file
from .markdown import markdown_table, with_ci


@dataclass(frozen=True)
class Variants:
    """The scoring-variants study as the section shows it."""

    table: pd.DataFrame
    """One row per rules preset (:func:`analyzer.gin.studies.variants.variants`)."""
    deals: int
    """Deals per preset."""
    games: int
    """Game pairs per preset."""
    seed: int


def run_variants(run: SectionRun) -> Variants:
    deals, games = run.size(0.25), run.size(0.05, least=30)
    baseline, strong, weak = POLICIES["basic"], POLICIES["gin-hunter"], POLICIES["basic"]
    table = variants.variants(
        VARIANT_PRESETS,
        baseline,
        strong,
        weak,
        deals,
        games,
        run.seed,
        progress=run.progress("variants"),
        scheduler=run.scheduler,
    )
    write_csv(run.folder / "variants.csv", table, index=False)
    with figure_file(
        run.folder / "variants.png",
        1,
        4,
        figsize=(15, 4.5),
        sharey=True,
        title="Scoring variants: what each rules preset does to the game",
        caption=f"basic self-play ({deals:,} deals, {games:,} game pairs per "
        f"preset) and gin-hunter against basic ({games:,} game pairs); "
        f"bars: 95% CI; seed {run.seed}.",
    ) as axes:
        charts.variant_bars(
            table, "hand_points", axes[0], "points scored per hand (mean)", "points"
        )
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game", "hands")
        charts.variant_bars(
            table,
            "strong_game_win",
            axes[2],
            "games won by gin-hunter against basic",
            "share of games",
            interval=True,
        )
        charts.variant_bars(
            table, "first_edge", axes[3], "non-dealer's points per hand", "points", interval=True
        )
    run.write_meta(
        deals=deals,
        games=games,
        baseline=format_policy(baseline),
        strong=format_policy(strong),
        weak=format_policy(weak),
    )
    return Variants(table, deals, games, run.seed)


#: The variants table's headers in words (the CSV keeps the short names), and formats.
_VARIANT_HEADERS = {
    "hand_points": "points a hand",
    "hand_points_sd": "their SD",
    "hands_per_game": "hands a game",
    "shutout_rate": "shutouts",
    "strong_game_win": "`gin-hunter`'s games won",
    "first_edge": "first player's edge (points a hand)",
    "best_threshold": "best knock threshold",
}
_VARIANT_FORMATS = {
    "points a hand": ".1f",
    "their SD": ".1f",
    "hands a game": ".1f",
    "shutouts": ".1%",
    "first player's edge (points a hand)": "+.3f",
}


def _variants_table(shown: pd.DataFrame) -> str:
    """The presets side by side, in words, shares as percentages."""
    triple = ("strong_game_win", "strong_game_win_low", "strong_game_win_high")
    table = with_ci(shown, {"strong_game_win": triple}, digits=1, percent=True)
    return markdown_table(table.rename(columns=_VARIANT_HEADERS), _VARIANT_FORMATS)


def render_variants(result: Variants) -> str:
    table, deals, games = result.table, result.deals, result.games
    skill = table.sort_values("strong_game_win", ascending=False)
    most, least = skill.iloc[0], skill.iloc[-1]
    separated = most["strong_game_win_low"] > least["strong_game_win_high"]
    longest = table.loc[table["hands_per_game"].idxmax()]
    biggest = table.loc[table["hand_points"].idxmax()]
    moved = table[table["best_threshold"] != table.loc[0, "best_threshold"]]["rules"]
    shown = table[
        [
            "rules",
            "hand_points",
            "hand_points_sd",
            "hands_per_game",
            "shutout_rate",
            "strong_game_win",
            "strong_game_win_low",
            "strong_game_win_high",
            "first_edge",
            "best_threshold",
        ]
    ]
    intro = section_intro(
        "Under each rules preset, how big and how spread are the hands, how long is a "
        "game, how much does skill decide it, and does the best knock threshold move?",
        "`basic` against `basic`; `gin-hunter` against `basic` for how much skill decides.",
        "every preset (`analyzer rules` lists them)",
    )
    return f"""\
{intro}**Answer.** Patient play pays differently by rule book: `gin-hunter` wins
{most["strong_game_win"]:.1%} of its games against `basic` under `{most["rules"]}` but
{least["strong_game_win"]:.1%} under `{least["rules"]}`
({"a significant difference" if separated else "the intervals overlap, so the presets cannot be told apart at this size"}).
Hands score most under `{biggest["rules"]}` ({biggest["hand_points"]:.1f} points a hand)
and games last longest under `{longest["rules"]}` ({longest["hands_per_game"]:.1f} hands).
The best knock threshold against `basic` is {table.loc[0, "best_threshold"]} under the
standard rules{"; it moves under " + ", ".join(f"`{r}`" for r in moved) if len(moved) else " and under every preset"}.

![variants](variants/variants.png)

{_variants_table(shown)}

Points a hand (and their standard deviation) and the first player's edge: `basic`
self-play, {deals:,} deals per preset (seats swapped); hands a game and shutouts:
{games:,} seat-swapped pairs of `basic` self-play games; `gin-hunter`'s games won:
{games:,} game pairs of `gin-hunter` against `basic` (± the 95% CI half-width, in
percentage points); best knock threshold: thresholds 0, 2, ..., 10 against `basic` on
common deals. Seed {result.seed}. Table: [variants.csv](variants/variants.csv) (its
columns keep their short names).
"""


SECTION = Section(
    "variants",
    "Scoring variants: how much does the rule book change the game?",
    run_variants,
    render_variants,
    seconds=10,
    folder="variants",
)
