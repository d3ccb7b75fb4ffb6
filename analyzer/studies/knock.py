"""The knock studies, declared once: the knock threshold sweep, knock now or play on by
turn and deadwood, and the best knock schedule by own turn.  Each computes its tables
(:mod:`analyzer.gin.studies.knocking`, :mod:`analyzer.gin.studies.schedule`) and presents
them (title, table for a person, verdict, chart description) from those tables alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.limits import MAX_SCHEDULE_ROUNDS
from ..core.progress import Progress
from ..gin.model.policies import Policy
from .charts import Axis, Chart, Mark, Panel, column
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import interval_column, interval_text, table_lines, verdict_grid

# ---------------------------------------------------------------- the knock sweep


def _knock_sweep(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import knocking

    opponents: dict[str, Policy | None] = {}
    for label, player in inputs["opponents"].items():
        if not isinstance(player, Policy):
            raise TypeError(f"opponents: {label!r} is the search player; give policies")
        opponents[label] = player
    sweep = knocking.knock_sweep(
        inputs.rules,
        inputs["a"],
        opponents,
        inputs["deals"],
        inputs["games"],
        inputs.seed,
        inputs["thresholds"],
        progress=progress,
        scheduler=scheduler,
    )
    return Computed({"sweep": sweep})


def _present_sweep(answer: Any) -> View:
    inputs, sweep = answer.inputs, answer["sweep"]
    thresholds = list(inputs["thresholds"])
    reference = 10 if 10 in thresholds else thresholds[0]
    deals, games, player = inputs["deals"], inputs["games"], inputs.labels["a"]
    against = ", ".join(inputs["opponents"])
    body = []
    for opponent, group in sweep.groupby("opponent", sort=False):
        body += [f"Against {opponent}:", *table_lines(sweep_table(group, reference)), ""]
    return View(
        inputs.title(
            "Knock as soon as deadwood <= t",
            players=f"{player} (knocking at <= t) against {against}",
            size=f"{deals:,} deals and {games:,} game pairs per threshold",
        ),
        body[:-1],
        " ".join(
            sweep_verdict(group, opponent, reference)
            for opponent, group in sweep.groupby("opponent", sort=False)
        ),
        sweep_chart(sweep, player, inputs.rules_name, deals, games, inputs.seed, reference),
        notes=[
            (
                f"vs t={reference}: points per hand more than knocking at {reference} or "
                "less, on the same deals."
            )
        ],
    )


def sweep_table(sweep: pd.DataFrame, reference: int = 10) -> pd.DataFrame:
    """The knock sweep for a person: one row per threshold, CIs as ``x ± h``."""
    return pd.DataFrame(
        {
            "t": sweep["threshold"],
            "points/hand": interval_column(sweep, "points_mean", stem="points"),
            f"vs t={reference}": interval_column(sweep, "diff_mean", stem="diff"),
            "hands won": [f"{v:.1%}" for v in sweep["win_mean"]],
            "undercut": [f"{v:.1%}" for v in sweep["undercut_mean"]],
            "gin": [f"{v:.1%}" for v in sweep["gin_mean"]],
            "turns": [f"{v:.1f}" for v in sweep["turns_mean"]],
            "games won": interval_column(
                sweep, "game_win_mean", 1, sign=False, percent=True, stem="game_win"
            ),
        }
    )


def sweep_verdict(sweep: pd.DataFrame, opponent: str, reference: int = 10) -> str:
    """The sweep's answer against one opponent: the threshold with the most points per
    hand, and with the most games won, each with its CI."""
    best = sweep.loc[sweep["diff_mean"].idxmax()]
    games = sweep.loc[sweep["game_win_mean"].idxmax()]
    gain = interval_text(best["diff_mean"], best["diff_low"], best["diff_high"], sign=True)
    won = interval_text(
        games["game_win_mean"], games["game_win_low"], games["game_win_high"], 1, percent=True
    )
    if best["threshold"] == reference or best["diff_low"] <= 0:
        points = (
            f"Against {opponent} no threshold scores significantly more points per hand than "
            f"knocking at {reference} or less (best: t = {best['threshold']}, {gain})"
        )
    else:
        points = (
            f"Against {opponent} knocking only at deadwood <= {best['threshold']} scores the "
            f"most: {gain} points per hand more than knocking at {reference} or less"
        )
    return f"{points}; most games won: t = {games['threshold']}, {won}."


def sweep_chart(
    sweep: pd.DataFrame,
    player: str,
    rules: str,
    deals: int,
    games: int,
    seed: int,
    reference: int = 10,
) -> Chart:
    """Three panels against the threshold t: points per hand relative to t =
    ``reference``, the game-win rate and the undercut rate; one line per opponent with
    its 95% CI band."""
    panels = []
    for metric, label, title, rule in (
        ("diff", f"points per hand vs knocking at {reference}", "Points per hand", 0.0),
        ("game_win", "game-win rate (games to 100)", "Games won", 0.5),
        ("undercut", "hands where A knocks and is undercut", "Undercut rate", None),
    ):
        marks = []
        for color, (opponent, group) in enumerate(sweep.groupby("opponent", sort=False)):
            x = column(group["threshold"])
            low = column(group[f"{metric}_low"]) if f"{metric}_low" in group else ()
            high = column(group[f"{metric}_high"]) if f"{metric}_high" in group else ()
            if low:
                marks.append(Mark("band", x=x, low=low, high=high, color=color % 7))
            y = column(group[f"{metric}_mean"])
            marks.append(Mark("line", x=x, y=y, label=opponent, color=color % 7, marker=True))
        if rule is not None:
            marks.append(Mark("hline", y=(rule,), color=7))
        panels.append(
            Panel(
                tuple(marks),
                title=title,
                x_label="A knocks at deadwood <= t (points)",
                y_label=label,
                x=Axis(ticks=tuple(range(11))),
                legend="best" if metric == "diff" else "none",
                legend_title="opponent (band: 95% CI)",
            )
        )
    return Chart(
        "sweep",
        f"Knock as soon as deadwood <= t: {player}, which t pays best?",
        f"Rules {rules}; {deals:,} deals and {games:,} game pairs per threshold, seats "
        f"swapped, common to all thresholds; bands: 95% CI; seed {seed}.",
        tuple(panels),
        size=(14, 4.2),
    )


KNOCK_SWEEP = register(
    Study(
        "knock-sweep",
        "Knock at deadwood <= t for t = 0..10: points per hand and games won.",
        "A is --a with its knock threshold set to t (the rest of its play unchanged), "
        "against each of --opponents. Each threshold is paired with t = 10 on common deals.",
        (
            "analyzer knock-sweep --a basic --opponents gin-hunter --deals 50000 --out sweep/",
            (
                "analyzer knock-sweep --deals 1000000 --checkpoint sweep.json   # Ctrl-C, then "
                "--resume"
            ),
        ),
        (
            Param("a", Kind.POLICY, "expert", "The player whose knock threshold is swept."),
            Param(
                "opponents",
                Kind.PLAYERS,
                ("basic", "expert"),
                "Its opponents (policies), each swept on its own.",
            ),
            Param("deals", Kind.COUNT, 20_000, "Deals per threshold (each twice, seats swapped)."),
            Param("games", Kind.COUNT, 1_000, "Game pairs per threshold."),
            Param(
                "thresholds",
                Kind.THRESHOLDS,
                tuple(range(11)),
                "The knock thresholds tried (deadwood points, 0-10, each once).",
            ),
        ),
        _knock_sweep,
        _present_sweep,
        checkpoint=True,
        keys={"sweep": ("opponent", "threshold")},
        notebook="``.plot()``: the three panels (points against t = 10, games won, undercuts).",
    )
)

# ---------------------------------------------------------------- knock now or play on


def _knock_chart(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import knocking

    chart = knocking.knock_chart(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        inputs["deals"],
        inputs.seed,
        inputs["min_samples"],
        progress=progress,
        scheduler=scheduler,
        equity_deals=inputs["equity_deals"],
    )
    return Computed({"knock_chart": chart})


def _present_chart(answer: Any) -> View:
    inputs, chart = answer.inputs, answer["knock_chart"]
    deals, min_samples = inputs["deals"], inputs["min_samples"]
    player, opponent = inputs.labels["a"], inputs.labels["b"]
    return View(
        inputs.title(
            "Knock now or play on?",
            players=f"{player} (A) against {opponent}",
            size=f"{deals:,} deals",
        ),
        verdict_grid(chart, min_samples),
        chart_verdict(chart, min_samples),
        knock_chart_chart(
            chart,
            min_samples,
            f"Knock now or play on? {player} against {opponent}, by own turn and deadwood",
            f"Each cell: mean points of knocking now minus playing on from the same states, "
            f"rules {inputs.rules_name}, {deals:,} deals (seed {inputs.seed}); 95% CIs in the "
            "table.",
        ),
    )


def chart_verdict(chart: pd.DataFrame, min_samples: int) -> str:
    """The knock chart in words: how many well-sampled cells say knock, play on or too
    close to call; per turn, the deadwood at which knocking now is significantly better;
    and, with game values, how often the game-win verdict agrees."""
    solid = chart[chart["n"] >= min_samples]
    counts = solid["verdict"].value_counts()
    text = (
        f"In {counts.get('knock', 0)} of {len(solid)} cells with {min_samples:,} states or "
        f"more knocking now is significantly better, in {counts.get('play on', 0)} playing on "
        f"is, and {counts.get('unclear', 0)} are too close to call."
    )
    knock = solid[solid["verdict"] == "knock"].groupby("turn")["deadwood"].agg(["min", "max"])
    if len(knock):
        spans = [
            f"turn {turn}: {low}-{high}" if low != high else f"turn {turn}: {low}"
            for turn, (low, high) in knock.iterrows()
        ]
        text += (
            f" Knock now with deadwood (points) {'; '.join(spans)}; from own turn "
            f"{int(knock.index.max()) + 1} on, playing on is never significantly worse."
        )
    else:
        text += " Knocking now is significantly better in no cell."
    if "win_verdict" in solid:
        differ = solid[solid["verdict"] != solid["win_verdict"]]
        opposite = differ[(differ["verdict"] != "unclear") & (differ["win_verdict"] != "unclear")]
        text += (
            " Valued as the chance of winning a game to 100 that this hand opens (columns "
            f"win_*), the verdict is the same in {len(solid) - len(differ)} of {len(solid)} "
            f"cells; in {len(differ) - len(opposite)} of the others one verdict is too close "
            f"to call, and {len(opposite)} are opposite."
        )
    return text


def knock_chart_chart(chart: pd.DataFrame, min_samples: int, title: str, caption: str) -> Chart:
    """Knock-minus-play-on points by (own turn, deadwood) as a heat map: grey where
    samples are fewer than ``min_samples``, a black line between the cells where knocking
    is better and those where playing on is."""
    from ..gin.studies.branching import MAX_TURN

    grid = np.full((10, MAX_TURN), np.nan)
    enough = np.zeros((10, MAX_TURN), dtype=bool)
    for row in chart.itertuples():
        grid[row.deadwood - 1, row.turn - 1] = row.mean
        enough[row.deadwood - 1, row.turn - 1] = row.n >= min_samples
    shown = np.where(enough, grid, np.nan)
    better = np.where(enough, grid > 0, False)
    pieces = []
    for d in range(10):
        for t in range(MAX_TURN):
            if (
                d + 1 < 10
                and enough[d, t]
                and enough[d + 1, t]
                and better[d, t] != better[d + 1, t]
            ):
                pieces.append((t + 0.5, d + 1.5, t + 1.5, d + 1.5))
            if (
                t + 1 < MAX_TURN
                and enough[d, t]
                and enough[d, t + 1]
                and better[d, t] != better[d, t + 1]
            ):
                pieces.append((t + 1.5, d + 0.5, t + 1.5, d + 1.5))
    cells = tuple(
        tuple(f"{value:+.1f}" if np.isfinite(value) else "" for value in row) for row in shown
    )
    heat = Mark(
        "heatmap",
        x=tuple(range(1, MAX_TURN + 1)),
        y=tuple(range(1, 11)),
        z=tuple(tuple(float(v) for v in row) for row in shown),
        text=cells,
        colorbar="knock now minus play on (points per hand)",
        categories=(
            ("#2166ac", "blue: knocking now is better"),
            ("#b2182b", "red: playing on is better"),
        ),
        missing=f"grey: fewer than {min_samples:,} states (not shown)",
    )
    boundary = Mark(
        "segments", z=tuple(pieces), color=7, label="boundary between knock and play on"
    )
    return Chart(
        "knock_chart",
        title,
        caption,
        (
            Panel(
                (heat, boundary),
                x_label=f"own turn (draws by the player; {MAX_TURN} = {MAX_TURN} or later)",
                y_label="deadwood after the discard (points)",
                x=Axis(ticks=tuple(range(1, MAX_TURN + 1))),
                y=Axis(ticks=tuple(range(1, 11))),
                legend="below",
                legend_columns=4,
            ),
        ),
        size=(12, 5.4),
    )


KNOCK_CHART = register(
    Study(
        "knock-chart",
        "Knock now or play on? Mean points difference by own turn and deadwood.",
        "Every knock decision of A's deals is branched: knock now, or play on by A's "
        "policy; each cell is the mean points difference with its 95% CI and a verdict.",
        ("analyzer knock-chart --deals 200000 --out chart/",),
        (
            Param("a", Kind.POLICY, "expert", "The player whose knock decisions are branched."),
            Param("b", Kind.POLICY, "expert", "Its opponent."),
            Param(
                "deals",
                Kind.COUNT,
                40_000,
                "Deals whose knock decisions are branched (each twice, seats swapped).",
            ),
            Param("min_samples", Kind.COUNT, 300, "Cells with fewer states are greyed out."),
            Param(
                "equity_deals",
                Kind.COUNT,
                10_000,
                "Also value each hand as the chance of winning a game from 0:0, by an equity "
                "table from this many deals (0: points only).",
                low=0,
            ),
        ),
        _knock_chart,
        _present_chart,
        keys={"knock_chart": ("turn", "deadwood")},
        notebook="``.plot()``: the heat map.",
    )
)

# ---------------------------------------------------------------- the knock schedule


def _knock_schedule(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import schedule

    search = schedule.best_schedule(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        inputs["deals"],
        inputs.seed,
        inputs["rounds"],
        inputs["objective"],
        progress=progress,
        scheduler=scheduler,
    )
    return Computed({"steps": search.steps, "gaps": search.gaps}, result=search)


def _schedule(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split("/"))


def _present_schedule(answer: Any) -> View:
    from ..gin.studies.answers import rule_text
    from ..gin.studies.schedule import SCHEDULE_BINS

    inputs, steps, gaps = answer.inputs, answer["steps"], answer["gaps"]
    objective, deals = inputs["objective"], inputs["deals"]
    unit = "points per hand" if objective == "points" else "game-win rate"
    digits = 2 if objective == "points" else 3
    final = {side: _schedule(group["schedule"].iloc[-1]) for side, group in steps.groupby("side")}
    first_a = _schedule(steps["schedule"].iloc[0])
    gain = f"gain ({unit})"
    body = [
        *table_lines(
            pd.DataFrame(
                {
                    "round": steps["round"],
                    "side": steps["side"],
                    "best response": steps["schedule"],
                    gain: interval_column(steps, "gain", digits),
                }
            )
        ),
        "",
        "How far the final pair is from a mutual best response (best one-bin change):",
        *table_lines(
            pd.DataFrame(
                {
                    "side": gaps["side"],
                    "schedule": gaps["schedule"],
                    "best change": gaps["best_deviation"],
                    gain: interval_column(gaps, "gain", digits),
                }
            )
        ),
    ]
    player, opponent = inputs.labels["a"], inputs.labels["b"]
    a, b = final["A"], final.get("B", final["A"])
    first = steps.iloc[0]
    return View(
        inputs.title(
            f"Best knock schedule ({unit})",
            players=f"{player} (schedule searched) against {opponent}, then best responses",
            size=f"{deals:,} {'deals' if objective == 'points' else 'game pairs'} per evaluation",
        ),
        body,
        f"Against {opponent} the best schedule is {steps['schedule'].iloc[0]} "
        f"({rule_text(first_a)}), gaining "
        f"{interval_text(first['gain'], first['gain_low'], first['gain_high'], digits, sign=True)}"
        f" ({unit}); after alternating best responses A plays {'/'.join(map(str, a))} "
        f"({rule_text(a)}) and B {'/'.join(map(str, b))}.",
        Chart(
            "knock_schedule",
            f"Knock schedules after best responses: {player} against {opponent}",
            f"Rules {inputs.rules_name}, objective {objective}, {deals:,} deals per "
            f"evaluation; gains with 95% CIs in the tables; seed {inputs.seed}.",
            (schedules_panel({"A, first": first_a, "A": a, "B": b}, SCHEDULE_BINS),),
            size=(8, 3.8),
        ),
        notes=[
            (
                "A schedule such as 10/8/0/0 gives the knock threshold for A's own turns 1-3, "
                "4-6, 7-9 and 10 on: knock when deadwood is at most that number (0: only "
                "with gin)."
            )
        ],
        raw=pd.concat(
            [steps.assign(table="steps"), gaps.assign(table="gaps")], ignore_index=True
        ).pipe(lambda frame: frame[["table", *frame.columns.drop("table")]]),
    )


def schedules_panel(
    schedules: dict[str, tuple[int, ...]],
    bins: tuple[tuple[int, int], ...],
    last_turn: int = 14,
) -> Panel:
    """Knock threshold by own turn, one step line per schedule (nudged apart vertically
    so that equal schedules stay visible)."""
    marks = []
    for offset, (label, thresholds) in enumerate(schedules.items()):
        turns: list[float] = []
        values: list[float] = []
        for (first, last), threshold in zip(bins, thresholds, strict=True):
            turns += [first - 0.5, min(last, last_turn) + 0.5]
            values += [threshold + 0.08 * offset] * 2
        marks.append(Mark("line", x=tuple(turns), y=tuple(values), label=label, color=offset))
    return Panel(
        tuple(marks),
        x_label="own turn",
        y_label="knock at deadwood <= (points)",
        x=Axis(ticks=tuple(range(1, last_turn + 1))),
        y=Axis(ticks=tuple(range(0, 11, 2)), low=-0.5, high=10.5),
        legend="right",
    )


KNOCK_SCHEDULE = register(
    Study(
        "knock-schedule",
        "Best turn-dependent knock schedule, then alternating best responses.",
        "A (--a with its schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds "
        "to --b, then B (the same base policy) to A, and so on.",
        ("analyzer knock-schedule --objective games --deals 2000 --rounds 1",),
        (
            Param("a", Kind.POLICY, "expert", "The player whose schedule is searched first."),
            Param("b", Kind.POLICY, "expert", "Its opponent, which best-responds in turn."),
            Param(
                "objective",
                Kind.CHOICE,
                "points",
                "Maximise points per hand, or the game-win rate.",
                choices=("points", "games"),
            ),
            Param(
                "deals",
                Kind.COUNT,
                3_000,
                "Deals (points) or game pairs (games) per evaluation.",
            ),
            Param(
                "rounds",
                Kind.COUNT,
                2,
                "Rounds of alternating best responses.",
                high=MAX_SCHEDULE_ROUNDS,
            ),
        ),
        _knock_schedule,
        _present_schedule,
        notebook="``.plot()``: the schedules.",
    )
)


__all__ = [
    "KNOCK_CHART",
    "KNOCK_SCHEDULE",
    "KNOCK_SWEEP",
    "chart_verdict",
    "knock_chart_chart",
    "schedules_panel",
    "sweep_chart",
    "sweep_table",
    "sweep_verdict",
]
