"""Section 4: the best knock schedule and alternating best responses."""

from __future__ import annotations

from dataclasses import dataclass

from ..gin.model.policies import PRESETS as POLICIES
from ..gin.model.policies import Policy, format_policy
from ..gin.model.rules import STANDARD
from ..gin.studies import schedule as studies
from ..studies.files import write_csv
from . import figures as charts
from .common import Section, SectionRun, format_ci, section_intro
from .figures import figure_file
from .markdown import markdown_table, with_ci


@dataclass(frozen=True)
class Schedule:
    """The knock-schedule search as the section shows it."""

    search: studies.ScheduleSearch
    """Best schedules for points, then alternating best responses."""
    for_games: list[int]
    """The best schedule for games to 100."""
    game_gain: tuple[float, float, float]
    """Its gain in game-win rate: mean, 95% CI low and high."""
    base: Policy
    deals: int
    """Deals per evaluation (points)."""
    games: int
    """Game pairs per evaluation (games)."""
    seed: int


def run_schedule(run: SectionRun) -> Schedule:
    deals, games = run.size(0.15, least=200), run.size(0.05, least=50)
    base = POLICIES["basic"]
    search = studies.best_schedule(
        STANDARD,
        base,
        base,
        deals,
        run.seed,
        rounds=2,
        progress=run.progress("best schedule"),
        scheduler=run.scheduler,
    )
    for_games, game_gain, game_low, game_high = studies.best_response(
        STANDARD,
        base,
        [10] * len(studies.SCHEDULE_BINS),
        base,
        games,
        run.seed,
        objective="games",
        progress=run.progress("best schedule (games)"),
        scheduler=run.scheduler,
    )
    write_csv(run.folder / "steps.csv", search.steps, index=False)
    write_csv(run.folder / "gaps.csv", search.gaps, index=False)
    bins = studies.SCHEDULE_BINS
    with figure_file(
        run.folder / "schedules.png",
        figsize=(8, 3.8),
        title="Best knock threshold by own turn",
        caption=f"Schedules found by coordinate ascent, standard rules, base "
        f"policy basic, opponent knock-at-10 (then best responses); "
        f"{deals:,} deals per evaluation, gains with 95% CIs in "
        f"steps.csv; seed {run.seed}.",
    ) as ax:
        charts.schedules_chart(
            {
                "A: most points against knock-at-10": _first_a(search),
                "A: most games against knock-at-10": for_games,
                "A after best responses (points)": search.final_a,
                "B after best responses (points)": search.final_b,
            },
            bins,
            ax,
        )
    run.write_meta(
        deals_per_evaluation=deals,
        game_pairs_per_evaluation=games,
        rules="standard",
        base=format_policy(base),
        bins=bins,
        games_schedule=for_games,
        games_gain=[game_gain, game_low, game_high],
    )
    return Schedule(
        search, for_games, (game_gain, game_low, game_high), base, deals, games, run.seed
    )


def render_schedule(result: Schedule) -> str:
    search, for_games, base = result.search, result.for_games, result.base
    game_gain, game_low, game_high = result.game_gain
    deals, games, bins = result.deals, result.games, studies.SCHEDULE_BINS
    first = search.steps.iloc[0]
    gap_text = "; ".join(
        f"{g.side} could still gain {format_ci(g.gain, g.gain_low, g.gain_high, 2)} points per hand "
        f"by switching to {g.best_deviation}"
        for g in search.gaps.itertuples()
    )
    bin_names = ", ".join(f"{a}-{b}" if b < 30 else f"{a}+" for a, b in bins)
    intro = section_intro(
        "If the knock threshold may change with the turn, which schedule earns the most "
        "points per hand (and which wins the most games), and where do two players end "
        "up when each keeps best-responding?",
        "`basic` players (draw to improve, throw the highest card): first against one "
        "that knocks at 10 on every turn, then each against the other's latest schedule.",
        "standard",
        "the opening answer's player is `expert`, which plays better between knocks and also "
        "watches what the opponent takes from the pile; its rules are tested against "
        "seven kinds of opponent, not one. A schedule is written as four thresholds, for "
        "own turns 1-3, 4-6, 7-9 and 10 on: `10/0/0/0` = knock with 10 or less on "
        "turns 1-3, then only with gin.",
    )
    steps = with_ci(search.steps, {"gain (points per hand)": ("gain", "gain_low", "gain_high")})
    return f"""\
{intro}**Answer.** Against a knock-at-10 opponent the best schedule for points (thresholds for
own turns {bin_names}) is {first.schedule}, gaining
{format_ci(first.gain, first.gain_low, first.gain_high)} points per hand; the best for games to
100 is {"/".join(map(str, for_games))}, gaining
{format_ci(100 * game_gain, 100 * game_low, 100 * game_high, 1)} percentage points of game wins.
After alternating best responses for points the schedules are
A = {"/".join(map(str, search.final_a))} and B = {"/".join(map(str, search.final_b))}.
Distance from a mutual best response: {gap_text}.

![schedules](schedule/schedules.png)

{markdown_table(steps)}

Coordinate ascent over the four turn bins (a bin moves only on a significant paired gain),
{deals:,} deals per evaluation for points and {games:,} seat-swapped game pairs for games
(common deals), base policy `{format_policy(base)}`, standard rules, seed {result.seed}.
Tables: [steps.csv](schedule/steps.csv), [gaps.csv](schedule/gaps.csv).
"""


SECTION = Section(
    "schedule",
    "Best knock schedule and best responses",
    run_schedule,
    render_schedule,
    seconds=51,
    folder="schedule",
)


def _first_a(search: studies.ScheduleSearch) -> tuple[int, ...]:
    return tuple(int(t) for t in search.steps.iloc[0]["schedule"].split("/"))
