"""The standard report: every study run at one size and seed, written under ``results/``.

``generate_report`` runs the studies, writes each one's CSV tables, PNG charts and
``meta.json`` into its own folder, and assembles ``results/README.md``: for each study
the question, the answer in a sentence with its numbers, the chart, the table, and the
exact command, seed, deal counts, rules and policies that produced it.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numba
import pandas as pd

from .. import __version__
from ..gin import studies
from ..gin.branching import MAX_TURN
from ..gin.policies import PRESETS as POLICIES
from ..gin.policies import format_policy
from ..gin.rules import STANDARD, VARIANT_PRESETS
from . import figures as charts
from .equity import write_equity_report
from .exact import enumerate_and_write
from .figures import figure_file
from .markdown import markdown_table

DEFAULT_DEALS = 40_000
QUICK_DEALS = 1_500


@dataclass
class ReportConfig:
    """Sizes and seed of one report run; every study's size derives from ``deals``."""

    out: Path
    deals: int = DEFAULT_DEALS
    seed: int = 2026
    command: str = "analyzer report"
    scheduler: str | None = None
    progress: Callable[[str, int, int], Callable[[int], None]] | None = None
    """Factory of progress callbacks: (study, total units, ...) -> update(n)."""
    timings: dict[str, float] = field(default_factory=dict)

    def size(self, factor: float, least: int = 50) -> int:
        return max(least, int(self.deals * factor))


SectionWriter = Callable[[ReportConfig], str]


def _fmt(value: float, digits: int = 2, sign: bool = False) -> str:
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _ci(mean: float, low: float, high: float, digits: int = 2, sign: bool = True) -> str:
    return f"{_fmt(mean, digits, sign)} ± {(high - low) / 2:.{digits}f}"


def _meta(folder: Path, config: ReportConfig, study: str, started: float,
          **details: object) -> None:
    elapsed = time.perf_counter() - started
    config.timings[study] = elapsed
    meta = {"study": study, "seed": config.seed, "base_deals": config.deals,
            "command": config.command, "version": __version__, "elapsed_s": round(elapsed, 2),
            **details}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2, default=str) + "\n")


def _progress(config: ReportConfig, study: str, total: int) -> Callable[[int], None] | None:
    return None if config.progress is None else config.progress(study, total, 0)


def _folder(config: ReportConfig, name: str) -> Path:
    folder = config.out / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ------------------------------------------------------------------------- sections


def section_dealt(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "dealt")
    exact = _exact_distribution(config.out)
    n = config.size(25)
    distribution = studies.dealt_hands(n, config.seed)
    eligibility = studies.knock_eligibility(distribution)
    distribution.to_csv(folder / "distribution.csv", index=False)
    eligibility.to_csv(folder / "knock_eligibility.csv", index=False)
    with figure_file(folder / "dealt.png", figsize=(9, 4)) as ax:
        charts.dealt_histogram(distribution, ax, exact)
    exact_at = exact.groupby("cards")["probability"].cumsum().set_axis(
        pd.MultiIndex.from_frame(exact[["cards", "deadwood"]]))
    mc = eligibility.set_index(["cards", "limit"])
    table = pd.DataFrame({"knock limit (points)": range(11)})
    for cards, label in ((10, "10 dealt"), (11, "best 10 of 11")):
        table[f"P({label} <= limit), exact"] = [f"{exact_at[(cards, k)]:.4e}"
                                                 for k in range(11)]
        table[f"Monte Carlo ± 95% CI ({label})"] = [
            f"{mc.loc[(cards, k), 'probability']:.4e} ± {1.96 * mc.loc[(cards, k), 'se']:.1e}"
            for k in range(11)]
    inside = sum(abs(mc.loc[(c, k), "probability"] - exact_at[(c, k)])
                 <= 1.96 * mc.loc[(c, k), "se"] + 1e-12 for c in (10, 11) for k in range(11))
    mean10 = float((exact.query("cards == 10")["deadwood"]
                    * exact.query("cards == 10")["probability"]).sum())
    _meta(folder, config, "dealt", started, monte_carlo_hands_per_size=n,
          exact="results/exact (analyzer exact --cards 10 / --cards 11)")
    return f"""## 1. Dealt hands: how often can you knock at once?

**Question.** How is the deadwood of a dealt hand distributed, and how often can the
first player knock right away, for each knock limit (Oklahoma's upcard sets the limit)?

**Answer.** Exactly (every one of the C(52,10) = 15,820,024,220 ten-card hands and
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
{config.seed}. Tables: [distribution.csv](dealt/distribution.csv),
[knock_eligibility.csv](dealt/knock_eligibility.csv).
"""


def _exact_distribution(out: Path) -> pd.DataFrame:
    """The exact dealt distributions of ``analyzer exact``, enumerated here if missing."""
    frames = []
    for cards in (10, 11):
        path = out / "exact" / f"cards{cards}_counts.csv"
        if not path.exists():
            enumerate_and_write(cards, out / "exact", progress=False)
        counts = pd.read_csv(path)
        frames.append(pd.DataFrame({"cards": cards, "deadwood": counts["deadwood"],
                                    "probability": counts["count"] / counts["count"].sum()}))
    return pd.concat(frames, ignore_index=True)


def section_sweep(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "knock_sweep")
    deals, games = config.size(1.0), config.size(0.1)
    subject = POLICIES["basic"]
    opponents = studies.default_opponents()
    sweep = studies.knock_sweep(STANDARD, subject, opponents, deals, games, config.seed,
                                progress=_progress(config, "knock sweep",
                                                   33 * (deals + games)),
                                scheduler=config.scheduler)
    sweep.to_csv(folder / "sweep.csv", index=False)
    with figure_file(folder / "sweep.png", 1, 3, figsize=(14, 4.2)) as axes:
        charts.knock_sweep_panels(sweep, axes)
    _meta(folder, config, "knock_sweep", started, deals_per_arm=deals, games_per_arm=games,
          rules="standard", subject=format_policy(subject),
          opponents={k: (format_policy(v) if v else "A's twin") for k, v in opponents.items()})
    lines = []
    for opponent, group in sweep.groupby("opponent", sort=False):
        group = group.set_index("threshold")
        if opponent == "same threshold":
            fastest = group["turns_mean"].idxmin()
            lines.append(f"* Against its own twin every threshold is even by symmetry (0 points, "
                         f"50% of games); hands last {group.loc[0, 'turns_mean']:.1f} turns at "
                         f"t = 0 and {group.loc[fastest, 'turns_mean']:.1f} at t = {fastest}.")
            continue
        best = int(group["points_mean"].idxmax())
        best_game = int(group["game_win_mean"].idxmax())
        row, game_row = group.loc[best], group.loc[best_game]
        significant = row["diff_low"] > 0 or best == 10
        lines.append(
            f"* Against **{opponent}**: the most points per hand come from t = {best} "
            f"({_ci(row['diff_mean'], row['diff_low'], row['diff_high'])} points per hand over "
            f"t = 10{'' if significant else ', not significant'}); the most games from "
            f"t = {best_game} ({game_row['game_win_mean']:.1%} of games, "
            f"{_ci(100 * game_row['game_diff_mean'], 100 * game_row['game_diff_low'], 100 * game_row['game_diff_high'], 1)}"
            f" percentage points over t = 10). A's knocks at t = 10 are undercut in "
            f"{group.loc[10, 'undercut_mean']:.1%} of hands.")
    table = sweep[["opponent", "threshold", "points_mean", "diff_mean", "diff_low", "diff_high",
                   "win_mean", "undercut_mean", "gin_mean", "turns_mean", "game_win_mean",
                   "game_win_low", "game_win_high"]]
    return f"""## 2. Knock threshold sweep: knock at deadwood <= t

**Question.** If you knock as soon as your deadwood is at most t, which t earns the
most points per hand, and which wins the most games to 100, against opponents that
knock at once, hunt for gin, or play exactly like you?

**Answer.**
{chr(10).join(lines)}

Points per hand and game wins can disagree: a low threshold wins fewer hands but bigger
ones (gin bonuses, undercuts of an opponent who knocks into a strong hand).

![knock sweep](knock_sweep/sweep.png)

{markdown_table(table, {c: ".3f" for c in table.columns if c.endswith(("mean", "low", "high"))})}

A = `{format_policy(subject)}` with its threshold set to t; rules `standard`; {deals:,}
deals per arm (each played twice, seats swapped) and {games:,} game pairs per arm, common
to all arms (paired differences vs t = 10, 95% CIs); seed {config.seed}.
Table: [sweep.csv](knock_sweep/sweep.csv).
"""


def section_chart(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "knock_chart")
    deals = config.size(4.0)
    subject = opponent = POLICIES["basic"]
    equity_deals = config.size(0.5)
    chart = studies.knock_chart(STANDARD, subject, opponent, deals, config.seed,
                                min_samples=300,
                                progress=_progress(config, "knock chart", deals),
                                scheduler=config.scheduler, equity_deals=equity_deals)
    chart.to_csv(folder / "knock_chart.csv", index=False)
    with figure_file(folder / "knock_chart.png", figsize=(12, 5)) as ax:
        charts.knock_chart_heatmap(chart, ax, MAX_TURN)
    _meta(folder, config, "knock_chart", started, deals=deals, rules="standard",
          subject=format_policy(subject), opponent=format_policy(opponent),
          equity_deals=equity_deals)
    statement = _chart_statement(chart)
    return f"""## 3. When to knock, by turn: knock now or play on?

**Question.** You may knock with d deadwood on your n-th turn. Is it better to knock
now or to play on (and knock at the next chance)?

**Answer.** {statement}

Each cell is the mean of (points if you knock now) minus (points if you discard the same
way without knocking and play on), both continued from the same stock order; positive
(blue) = knock. Cells with fewer than 300 states are grey; the black line is the
knock / play-on boundary.

![knock chart](knock_chart/knock_chart.png)

States come from {deals:,} deals (each played twice, seats swapped) of `basic` against
`basic` under the standard rules, the player holding back its knock along the main line
so later turns are reached; seed {config.seed}. The game-win values use an equity table of
the same pair from {equity_deals:,} deals. Full table with CIs (points and game-win):
[knock_chart.csv](knock_chart/knock_chart.csv).
"""


def _chart_statement(chart: pd.DataFrame) -> str:
    """One paragraph summarising the knock chart: counts of verdicts, then per turn the
    deadwood values at which knocking is significantly better."""
    solid = chart[chart["enough"]]
    counts = solid["verdict"].value_counts()
    text = (f"In {counts.get('knock', 0)} of {len(solid)} well-sampled cells knocking now is "
            f"significantly better, in {counts.get('play on', 0)} playing on is, and "
            f"{counts.get('unclear', 0)} are too close to call.")
    knock = solid[solid["verdict"] == "knock"].groupby("turn")["deadwood"].agg(["min", "max"])
    if len(knock):
        spans = [f"turn {turn}: {low}-{high}" if low != high else f"turn {turn}: {low}"
                 for turn, (low, high) in knock.iterrows()]
        last = int(knock.index.max())
        text += (f" Knock now with deadwood (points) {'; '.join(spans)}; from own turn "
                 f"{last + 1} on, playing on is never significantly worse.")
    if "win_verdict" in solid:
        differ = solid[solid["verdict"] != solid["win_verdict"]]
        opposite = differ[(differ["verdict"] != "unclear") & (differ["win_verdict"] != "unclear")]
        text += (f" Valued as the chance of winning a game to 100 that this hand opens "
                 f"(columns `win_*`), the verdict is the same in {len(solid) - len(differ)} of "
                 f"{len(solid)} cells; in {len(differ) - len(opposite)} of the others one "
                 f"verdict is too close to call, and {len(opposite)} are opposite.")
    play = solid[solid["verdict"] == "play on"]
    if len(play):
        low = play[play["deadwood"] <= 3]
        text += (f" With 3 or less deadwood, playing on is better in {len(low)} of "
                 f"{len(solid[solid['deadwood'] <= 3])} cells: an opponent who knocks at its "
                 "first chance is undercut by such a hand, and gin is near.")
    return text


def section_schedule(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "schedule")
    deals, games = config.size(0.15, least=200), config.size(0.05, least=50)
    base = POLICIES["basic"]
    search = studies.best_schedule(STANDARD, base, base, deals, config.seed, rounds=2,
                                   progress=_progress(config, "best schedule", 0),
                                   scheduler=config.scheduler)
    for_games, game_gain, game_low, game_high = studies.best_response(
        STANDARD, base, [10] * len(studies.SCHEDULE_BINS), base, games, config.seed,
        objective="games", scheduler=config.scheduler)
    search.steps.to_csv(folder / "steps.csv", index=False)
    search.gaps.to_csv(folder / "gaps.csv", index=False)
    bins = studies.SCHEDULE_BINS
    with figure_file(folder / "schedules.png", figsize=(8, 3.8)) as ax:
        charts.schedules_chart({"A: most points against knock-at-10": _first_a(search),
                                "A: most games against knock-at-10": for_games,
                                "A after best responses (points)": search.final_a,
                                "B after best responses (points)": search.final_b}, bins, ax)
    _meta(folder, config, "schedule", started, deals_per_evaluation=deals,
          game_pairs_per_evaluation=games, rules="standard", base=format_policy(base),
          bins=bins, games_schedule=for_games,
          games_gain=[game_gain, game_low, game_high])
    first = search.steps.iloc[0]
    gap_text = "; ".join(
        f"{g.side} could still gain {_ci(g.gain, g.gain_low, g.gain_high, 2)} points per hand "
        f"by switching to {g.best_deviation}" for g in search.gaps.itertuples())
    bin_names = ", ".join(f"{a}-{b}" if b < 30 else f"{a}+" for a, b in bins)
    return f"""## 4. Best knock schedule and best responses

**Question.** If the knock threshold may change with the turn, which schedule earns the
most points per hand (and which wins the most games), and where do two players end up
when each keeps best-responding?

**Answer.** Against a knock-at-10 opponent the best schedule for points (thresholds for
own turns {bin_names}) is {first.schedule}, gaining
{_ci(first.gain, first.gain_low, first.gain_high)} points per hand; the best for games to
100 is {"/".join(map(str, for_games))}, gaining
{_ci(100 * game_gain, 100 * game_low, 100 * game_high, 1)} percentage points of game wins.
After alternating best responses for points the schedules are
A = {"/".join(map(str, search.final_a))} and B = {"/".join(map(str, search.final_b))}.
Distance from a mutual best response: {gap_text}.

![schedules](schedule/schedules.png)

{markdown_table(search.steps, {"gain": "+.3f", "gain_low": "+.3f", "gain_high": "+.3f"})}

Coordinate ascent over the four turn bins (a bin moves only on a significant paired gain),
{deals:,} deals per evaluation for points and {games:,} seat-swapped game pairs for games
(common deals), base policy `{format_policy(base)}`, standard rules, seed {config.seed}.
Tables: [steps.csv](schedule/steps.csv), [gaps.csv](schedule/gaps.csv).
"""


def _first_a(search: studies.ScheduleSearch) -> tuple[int, ...]:
    return tuple(int(t) for t in search.steps.iloc[0]["schedule"].split("/"))


def section_tournament(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "tournament")
    deals, games = config.size(0.25), config.size(0.025, least=30)
    field_policies = studies.default_field()
    results = studies.tournament(STANDARD, field_policies, deals, games, config.seed,
                                 progress=_progress(config, "tournament", 0),
                                 scheduler=config.scheduler)
    ranking = studies.ranking(results)
    results.to_csv(folder / "pairs.csv", index=False)
    ranking.to_csv(folder / "ranking.csv", index=False)
    order = list(ranking["policy"])
    with figure_file(folder / "tournament.png", 1, 2, figsize=(14, 5.5)) as axes:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0,
                              "points per hand (row vs column)", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5,
                              "game-win rate (row vs column)", ".2f")
    _meta(folder, config, "tournament", started, deals_per_pair=deals, games_per_pair=games,
          rules="standard", field={k: format_policy(v) for k, v in field_policies.items()})
    top, second = order[0], order[1]
    duel = results.set_index(["a", "b"]).loc[(top, second)]
    described = "\n".join(f"* `{name}`: `{format_policy(p)}`"
                          for name, p in field_policies.items())
    return f"""## 5. Draw and discard policies: a round robin

**Question.** Which draw / discard policy wins, seats swapped on common deals?

**Answer.** Ranked by mean points per hand against the field: {", ".join(order)}.
Head to head, `{top}` beats `{second}` by
{_ci(duel["points"], duel["points_low"], duel["points_high"])} points per hand and wins
{duel["game_win"]:.1%} ± {(duel["game_win_high"] - duel["game_win_low"]) / 2:.1%} of games.

![tournament](tournament/tournament.png)

{markdown_table(ranking, {"points": "+.3f", "game_win": ".3f"})}

The field:
{described}

{deals:,} deals (each twice, seats swapped) and {games:,} game pairs per pairing, standard
rules, seed {config.seed}; cells show the estimate ± the 95% CI half-width.
Tables: [pairs.csv](tournament/pairs.csv), [ranking.csv](tournament/ranking.csv).
"""


def section_variants(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "variants")
    deals, games = config.size(0.25), config.size(0.05, least=30)
    baseline, strong, weak = POLICIES["basic"], POLICIES["gin-hunter"], POLICIES["basic"]
    table = studies.variants(VARIANT_PRESETS, baseline, strong, weak, deals, games, config.seed,
                             progress=_progress(config, "variants", 0),
                             scheduler=config.scheduler)
    table.to_csv(folder / "variants.csv", index=False)
    with figure_file(folder / "variants.png", 1, 4, figsize=(15, 4.5)) as axes:
        charts.variant_bars(table, "hand_points", axes[0], "points scored per hand (mean)")
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game")
        charts.variant_bars(table, "strong_game_win", axes[2],
                            "games won by gin-hunter against basic", interval=True)
        charts.variant_bars(table, "first_edge", axes[3],
                            "non-dealer's points per hand", interval=True)
    _meta(folder, config, "variants", started, deals=deals, games=games,
          baseline=format_policy(baseline), strong=format_policy(strong),
          weak=format_policy(weak))
    skill = table.sort_values("strong_game_win", ascending=False)
    most, least = skill.iloc[0], skill.iloc[-1]
    separated = most["strong_game_win_low"] > least["strong_game_win_high"]
    longest = table.loc[table["hands_per_game"].idxmax()]
    biggest = table.loc[table["hand_points"].idxmax()]
    moved = table[table["best_threshold"] != table.loc[0, "best_threshold"]]["rules"]
    shown = table[["rules", "hand_points", "hand_points_sd", "hands_per_game", "shutout_rate",
                   "strong_game_win", "strong_game_win_low", "strong_game_win_high",
                   "first_edge", "best_threshold"]]
    return f"""## 6. Scoring variants: how much does the rule book change the game?

**Question.** Under each rules preset, how big and how spread are the hands, how long is
a game, how much does skill decide it, and does the best knock threshold move?

**Answer.** Patient play pays differently by rule book: `gin-hunter` wins
{most["strong_game_win"]:.1%} of its games against `basic` under `{most["rules"]}` but
{least["strong_game_win"]:.1%} under `{least["rules"]}`
({"a significant difference" if separated else "the intervals overlap, so the presets cannot be told apart at this size"}).
Hands score most under `{biggest["rules"]}` ({biggest["hand_points"]:.1f} points a hand)
and games last longest under `{longest["rules"]}` ({longest["hands_per_game"]:.1f} hands).
The best knock threshold against `basic` is {table.loc[0, "best_threshold"]} under the
standard rules{"; it moves under " + ", ".join(f"`{r}`" for r in moved) if len(moved) else " and under every preset"}.

![variants](variants/variants.png)

{markdown_table(shown, {c: ".3f" for c in shown.columns if c not in ("rules", "best_threshold")})}

`hand_points`, `first_edge`: `basic` self-play, {deals:,} deals per preset (seats swapped);
`hands_per_game`, `shutout_rate`: {games:,} seat-swapped pairs of `basic` self-play games;
`strong_game_win`: {games:,} game pairs of `gin-hunter` against `basic`;
`best_threshold`: knock thresholds 0, 2, ..., 10 against `basic` on common deals. Seed
{config.seed}. Table: [variants.csv](variants/variants.csv).
"""


def section_equity(config: ReportConfig) -> str:
    started = time.perf_counter()
    folder = _folder(config, "equity")
    text = write_equity_report(folder, deals=config.size(2.5), games=config.size(0.5),
                               seed=config.seed, number=7)
    _meta(folder, config, "equity", started, deals=config.size(2.5), games=config.size(0.5),
          rules="standard", policies="basic v basic")
    return text


def section_rummy(config: ReportConfig) -> str:
    from ..rummy.studies import write_rummy_report

    started = time.perf_counter()
    folder = _folder(config, "rummy")
    deals = config.size(0.3)
    text = write_rummy_report(folder, deals=deals, seed=config.seed)
    _meta(folder, config, "rummy", started, deals=deals)
    return text.replace("## Plain rummy", "## 8. Plain rummy", 1)


SECTIONS: dict[str, SectionWriter] = {
    "dealt": section_dealt,
    "sweep": section_sweep,
    "chart": section_chart,
    "schedule": section_schedule,
    "tournament": section_tournament,
    "variants": section_variants,
    "equity": section_equity,
    "rummy": section_rummy,
}


def generate_report(config: ReportConfig, sections: list[str] | None = None) -> Path:
    """Run the studies and write ``config.out/README.md`` with every section."""
    config.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    parts = [section(config) for name, section in SECTIONS.items()
             if sections is None or name in sections]
    elapsed = time.perf_counter() - started
    header = f"""# Gin rummy strategy report

Generated by `{config.command}` (analyzer {__version__}) with seed {config.seed} and base
size {config.deals:,} deals, in {elapsed / 60:.1f} minutes on {numba.config.NUMBA_NUM_THREADS}
threads ({platform.processor() or platform.machine()}, Python {platform.python_version()}).
Every number comes with a 95% confidence interval (normal approximation over independent
deals or games; comparisons are paired on common deals). The run is reproducible bit for
bit from its seed, whatever the thread count.

Study run times: {", ".join(f"{k} {v:.0f} s" for k, v in config.timings.items())}.

Two folders here come from their own commands: [exact/](exact/) (`analyzer exact --cards
10` and `--cards 11`, run by this report only when missing: the counts are exact, so they
never change) and [advisor_crosscheck/](advisor_crosscheck/)
(`python scripts/advisor_crosscheck.py`: the advisor's verdicts against the knock chart).
"""
    path = config.out / "README.md"
    path.write_text(header + "\n" + "\n".join(parts))
    return path
