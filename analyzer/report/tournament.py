"""Section 5: the round robin of draw and discard policies."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import STANDARD
from ..gin.play.players import Player, format_player
from ..gin.studies import round_robin
from ..studies.files import write_csv
from . import figures as charts
from .common import Section, SectionRun, format_ci, section_intro
from .figures import figure_file
from .markdown import markdown_table


@dataclass(frozen=True)
class Tournament:
    """The round robin as the section shows it."""

    results: pd.DataFrame
    """One row per ordered pairing (:func:`analyzer.gin.studies.round_robin.tournament`)."""
    ranking: pd.DataFrame
    field_policies: dict[str, Player]
    deals: int
    """Deals per pairing."""
    games: int
    """Game pairs per pairing."""
    seed: int


def run_tournament(run: SectionRun) -> Tournament:
    deals, games = run.size(0.25), run.size(0.025, least=30)
    field_policies = round_robin.default_field()
    results = round_robin.tournament(
        STANDARD,
        field_policies,
        deals,
        games,
        run.seed,
        progress=run.progress("tournament"),
        scheduler=run.scheduler,
    )
    ranking = round_robin.ranking(results)
    write_csv(run.folder / "pairs.csv", results, index=False)
    write_csv(run.folder / "ranking.csv", ranking, index=False)
    order = list(ranking["policy"])
    with figure_file(
        run.folder / "tournament.png",
        1,
        2,
        figsize=(14, 5.5),
        title="Round robin of draw and discard policies: row against column",
        caption=f"Standard rules, seats swapped on common deals: {deals:,} deals "
        f"and {games:,} game pairs per pairing (seed {run.seed}). Each "
        "cell: estimate and ± 95% CI half-width; blue: the row policy "
        "is ahead.",
    ) as axes:
        charts.matrix_heatmap(
            results, "points", axes[0], order, 0.0, "points per hand (row vs column)", "+.2f"
        )
        charts.matrix_heatmap(
            results, "game_win", axes[1], order, 0.5, "game-win rate (row vs column)", ".2f"
        )
    run.write_meta(
        deals_per_pair=deals,
        games_per_pair=games,
        rules="standard",
        field={k: format_player(v) for k, v in field_policies.items()},
    )
    return Tournament(results, ranking, field_policies, deals, games, run.seed)


def render_tournament(result: Tournament) -> str:
    results, ranking, field_policies = result.results, result.ranking, result.field_policies
    deals, games = result.deals, result.games
    order = list(ranking["policy"])
    top, second = order[0], order[1]
    duel = results.set_index(["a", "b"]).loc[(top, second)]
    described = "\n".join(
        f"* `{name}`: `{format_policy(p) if isinstance(p, Policy) else format_player(p)}`"
        for name, p in field_policies.items()
    )
    table = ranking.assign(
        rank=range(1, len(ranking) + 1),
        points=[
            f"{m:+.2f} ± {h:.2f}"
            for m, h in zip(ranking["points"], ranking["points_half"], strict=True)
        ],
        game_win=[
            f"{m:.1%} ± {h:.1%}"
            for m, h in zip(ranking["game_win"], ranking["game_win_half"], strict=True)
        ],
    )[["rank", "policy", "points", "game_win"]].rename(
        columns={"points": "points per hand", "game_win": "games won"}
    )
    intro = section_intro(
        "Which way of drawing and discarding wins?",
        "Every policy of the field below against every other, seats swapped on common "
        "deals; each knocks by its own rule.",
        "standard",
    )
    return f"""\
{intro}**Answer.** Ranked by mean points per hand against the rest of the field:
{", ".join(f"`{name}`" for name in order)}. Head to head, `{top}` against `{second}` scores {format_ci(duel["points"], duel["points_low"], duel["points_high"])} points per hand and wins {duel["game_win"]:.1%} ± {(duel["game_win_high"] - duel["game_win_low"]) / 2:.1%} of games ({_duel_verdict(top, second, duel)}).
`search` is not in this field (it changes only the knock decision and plays hundreds of
times slower): the report's opening answer, "When to knock", measures it against every knock rule.

![tournament](tournament/tournament.png)

{markdown_table(table)}

Points per hand and share of games won against the rest of the field, each opponent
weighted equally; ± bounds the 95% CI half-width (the mean of the pairings' half-widths).

The field:
{described}

{deals:,} deals (each twice, seats swapped) and {games:,} game pairs per pairing, seed
{result.seed}. Tables: [pairs.csv](tournament/pairs.csv),
[ranking.csv](tournament/ranking.csv).
"""


def _duel_verdict(top: str, second: str, duel: pd.Series) -> str:
    """Who is ahead head to head, on points per hand (95% CI)."""
    if duel["points_low"] > 0:
        return f"`{top}` is ahead"
    if duel["points_high"] < 0:
        return f"`{second}` is ahead head to head, though behind against the field"
    return "too close to call head to head"


SECTION = Section(
    "tournament",
    "Draw and discard policies: a round robin",
    run_tournament,
    render_tournament,
    seconds=46,
    folder="tournament",
)
