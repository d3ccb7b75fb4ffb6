"""Section 5: the round robin of draw and discard policies."""

from __future__ import annotations

import time

from ..gin.studies import sweeps as studies
from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import STANDARD
from ..gin.play.players import Player, format_player
from . import figures as charts
from .common import ReportConfig, format_ci, progress_for, section_folder, write_meta
from .figures import figure_file
from .files import write_csv
from .markdown import markdown_table


def _full_form(player: Player) -> str:
    """A policy's string form, or every setting of a search player."""
    if isinstance(player, Policy):
        return format_policy(player)
    return (f"search,budget={player.budget},rollout={format_player(player.rollout)},"
            f"sampler={player.sampler},temperature={player.temperature},scope={player.scope},"
            f"batch={player.batch},min_samples={player.min_samples}")


def section_tournament(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = section_folder(config, "tournament")
    deals, games = config.size(0.25), config.size(0.025, least=30)
    field_policies = studies.default_field()
    results = studies.tournament(STANDARD, field_policies, deals, games, config.seed,
                                 progress=progress_for(config, "tournament"),
                                 scheduler=config.scheduler)
    ranking = studies.ranking(results)
    write_csv(folder / "pairs.csv", results, index=False)
    write_csv(folder / "ranking.csv", ranking, index=False)
    order = list(ranking["policy"])
    with figure_file(folder / "tournament.png", 1, 2, figsize=(14, 5.5),
                     title="Round robin of draw and discard policies: row against column",
                     caption=f"Standard rules, seats swapped on common deals: {deals:,} deals "
                             f"and {games:,} game pairs per pairing (seed {config.seed}). Each "
                             "cell: estimate and ± 95% CI half-width; blue: the row policy "
                             "is ahead.") as axes:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0,
                              "points per hand (row vs column)", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5,
                              "game-win rate (row vs column)", ".2f")
    write_meta(folder, config, "tournament", started, deals_per_pair=deals, games_per_pair=games,
               rules="standard", field={k: format_player(v) for k, v in field_policies.items()})
    top, second = order[0], order[1]
    duel = results.set_index(["a", "b"]).loc[(top, second)]
    described = "\n".join(f"* `{name}`: `{_full_form(p)}`" for name, p in field_policies.items())
    return f"""## 5. Draw and discard policies: a round robin

**Question.** Which draw / discard policy wins, seats swapped on common deals?

**Answer.** Ranked by mean points per hand against the field: {", ".join(order)}.
Head to head, `{top}` beats `{second}` by
{format_ci(duel["points"], duel["points_low"], duel["points_high"])} points per hand and wins
{duel["game_win"]:.1%} ± {(duel["game_win_high"] - duel["game_win_low"]) / 2:.1%} of games.

![tournament](tournament/tournament.png)

{markdown_table(ranking, {"points": "+.3f", "game_win": ".3f"})}

The field:
{described}

{deals:,} deals (each twice, seats swapped) and {games:,} game pairs per pairing, standard
rules, seed {config.seed}; cells show the estimate ± the 95% CI half-width.
Tables: [pairs.csv](tournament/pairs.csv), [ranking.csv](tournament/ranking.csv).
"""
