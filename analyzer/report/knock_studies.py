"""The knock studies, declared once (:mod:`analyzer.studies.study`): the knock threshold
sweep, knock now or play on by turn and deadwood, and the best knock schedule by own turn.
"""

from __future__ import annotations

import pandas as pd

from ..core.limits import MAX_SCHEDULE_ROUNDS
from ..core.progress import Progress
from ..studies.study import Answer, Chart, Inputs, Kind, Param, Study, register
from ..studies.text import interval_column, interval_text, verdict_grid

# ---------------------------------------------------------------- the knock sweep


def _knock_sweep(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import knocking
    from . import figures as charts

    deals, games, thresholds = inputs["deals"], inputs["games"], inputs["thresholds"]
    opponent = inputs["b"]
    name = knocking.SELF_PLAY_CHECK if opponent is None else inputs.labels["b"]
    sweep = knocking.knock_sweep(
        inputs.rules,
        inputs["a"],
        {name: opponent},
        deals,
        games,
        inputs.seed,
        thresholds,
        progress=progress,
        scheduler=scheduler,
    )
    reference = 10 if 10 in thresholds else thresholds[0]
    player, against = inputs.labels["a"], "its twin" if opponent is None else inputs.labels["b"]
    return Answer(
        inputs.title(
            "Knock as soon as deadwood <= t",
            players=f"{player} (knocking at <= t) against {against}",
            size=f"{deals:,} deals and {games:,} game pairs per threshold",
        ),
        sweep,
        sweep_table(sweep, reference),
        sweep_verdict(sweep, against, reference),
        Chart(
            "knock_sweep",
            lambda axes: charts.knock_sweep_panels(sweep, axes),
            (14, 4.2),
            f"Knock as soon as deadwood <= t: {player} against {inputs.labels['b']}",
            f"Rules {inputs.rules_name}; {deals:,} deals and {games:,} game pairs per "
            f"threshold, seats swapped; bands: 95% CI; seed {inputs.seed}.",
            panels=3,
        ),
        notes=[
            (
                f"vs t={reference}: points per hand more than knocking at {reference} or less, "
                "on the same deals."
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
    """The sweep's answer: the threshold with the most points per hand, and with the
    most games won, each with its CI."""
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


KNOCK_SWEEP = register(
    Study(
        "knock-sweep",
        "Knock at deadwood <= t for t = 0..10: points per hand and games won.",
        "A is --a with its knock threshold set to t; the opponent is --b, or A's twin with "
        "--b same. Each threshold is paired with t = 10 on common deals.",
        (
            "analyzer knock-sweep --a basic --b gin-hunter --deals 50000 --out sweep/",
            (
                "analyzer knock-sweep --deals 1000000 --checkpoint sweep.json   # Ctrl-C, then "
                "--resume"
            ),
        ),
        (
            Param("a", Kind.POLICY, "basic", "The player whose knock threshold is swept."),
            Param("b", Kind.OPPONENT, "basic", "Its opponent, or 'same': A's twin."),
            Param("deals", Kind.COUNT, 20_000, "Deals per threshold (each twice, seats swapped)."),
            Param("games", Kind.COUNT, 2_000, "Game pairs per threshold."),
            Param(
                "thresholds",
                Kind.THRESHOLDS,
                tuple(range(11)),
                "The knock thresholds tried (deadwood points, 0-10, each once).",
            ),
        ),
        _knock_sweep,
        checkpoint=True,
        notebook="``.plot()``: the three panels (points against t = 10, games won, undercuts).",
    )
)

# ---------------------------------------------------------------- knock now or play on


def _knock_chart(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import knocking
    from ..gin.studies.branching import MAX_TURN
    from . import figures as charts

    deals, min_samples = inputs["deals"], inputs["min_samples"]
    chart = knocking.knock_chart(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        deals,
        inputs.seed,
        min_samples,
        progress=progress,
        scheduler=scheduler,
        equity_deals=inputs["equity_deals"],
    )
    player, opponent = inputs.labels["a"], inputs.labels["b"]
    return Answer(
        inputs.title(
            "Knock now or play on?",
            players=f"{player} (A) against {opponent}",
            size=f"{deals:,} deals",
        ),
        chart,
        verdict_grid(chart, min_samples),
        chart_verdict(chart, min_samples),
        Chart(
            "knock_chart",
            lambda ax: charts.knock_chart_heatmap(chart, ax, MAX_TURN, min_samples),
            (12, 5.4),
            f"Knock now or play on? {player} against {opponent}",
            f"Each cell: mean points of knocking now minus playing on, rules "
            f"{inputs.rules_name}, {deals:,} deals (seed {inputs.seed}); 95% CIs in the CSV.",
        ),
    )


def chart_verdict(chart: pd.DataFrame, min_samples: int) -> str:
    """The knock chart in one sentence: how many cells say knock, play on or unclear,
    and the strongest cell of each side with its CI."""
    shown = chart[chart["n"] >= min_samples]
    counts = shown["verdict"].value_counts()
    parts = [
        (
            f"Knocking now beats playing on in {counts.get('knock', 0)} cells, playing on wins "
            f"in {counts.get('play on', 0)}, {counts.get('unclear', 0)} are too close to call"
        )
    ]
    for verdict, pick, word in (
        ("knock", "idxmax", "knocking"),
        ("play on", "idxmin", "playing on"),
    ):
        cells = shown[shown["verdict"] == verdict]
        if len(cells):
            cell = cells.loc[getattr(cells["mean"], pick)()]
            gap = interval_text(abs(cell["mean"]), cell["low"], cell["high"])
            parts.append(
                f"most for {word}: A's own turn {cell['turn']}, deadwood {cell['deadwood']}, "
                f"{gap} points per hand"
            )
    return "; ".join(parts) + "."


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
                100_000,
                "Deals whose knock decisions are branched (each twice, seats swapped).",
            ),
            Param("min_samples", Kind.COUNT, 300, "Cells with fewer states are greyed out."),
            Param(
                "equity_deals",
                Kind.COUNT,
                0,
                "Also value each hand as the chance of winning a game from 0:0, by an equity "
                "table from this many deals (0: points only).",
                low=0,
            ),
        ),
        _knock_chart,
        notebook="``.plot()``: the heat map.",
    )
)

# ---------------------------------------------------------------- the knock schedule


def _knock_schedule(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies import schedule
    from ..gin.studies.answers import rule_text
    from ..studies.text import table_lines
    from . import figures as charts

    objective, deals = inputs["objective"], inputs["deals"]
    search = schedule.best_schedule(
        inputs.rules,
        inputs["a"],
        inputs["b"],
        deals,
        inputs.seed,
        inputs["rounds"],
        objective,
        progress=progress,
        scheduler=scheduler,
    )
    unit = "points per hand" if objective == "points" else "game-win rate"
    digits = 2 if objective == "points" else 3
    steps, gaps = search.steps, search.gaps
    body = [
        *table_lines(
            pd.DataFrame(
                {
                    "round": steps["round"],
                    "side": steps["side"],
                    "best response": steps["schedule"],
                    f"gain ({unit})": _gains(steps, digits),
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
                    f"gain ({unit})": _gains(gaps, digits),
                }
            )
        ),
    ]
    player, opponent = inputs.labels["a"], inputs.labels["b"]
    final = "/".join(map(str, search.final_a))
    return Answer(
        inputs.title(
            f"Best knock schedule ({unit})",
            players=f"{player} (schedule searched) against {opponent}, then best responses",
            size=f"{deals:,} {'deals' if objective == 'points' else 'game pairs'} per evaluation",
        ),
        steps,
        body,
        f"A's best schedule is {final} ({rule_text(tuple(search.final_a))}); "
        f"B's best answer to it is {'/'.join(map(str, search.final_b))}.",
        Chart(
            "knock_schedule",
            lambda ax: charts.schedules_chart(
                {"A": search.final_a, "B": search.final_b}, schedule.SCHEDULE_BINS, ax
            ),
            (8, 3.8),
            f"Knock schedules after best responses: {player} against {opponent}",
            f"Rules {inputs.rules_name}, objective {objective}, {deals:,} deals per "
            f"evaluation; gains with 95% CIs in the CSV; seed {inputs.seed}.",
            tables={"knock_schedule_gaps.csv": gaps},
        ),
        notes=[
            (
                "A schedule such as 10/8/0/0 gives the knock threshold for A's own turns 1-3, "
                "4-6, 7-9 and 10 on: knock when deadwood is at most that number (0: only with "
                "gin)."
            )
        ],
        raw=pd.concat(
            [steps.assign(table="steps"), gaps.assign(table="gaps")], ignore_index=True
        ).pipe(lambda frame: frame[["table", *frame.columns.drop("table")]]),
        result=search,
    )


def _gains(table: pd.DataFrame, digits: int) -> list[str]:
    return interval_column(table, "gain", digits)


KNOCK_SCHEDULE = register(
    Study(
        "knock-schedule",
        "Best turn-dependent knock schedule, then alternating best responses.",
        "A (--a with its schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds "
        "to --b, then B (the same base policy) to A, and so on.",
        ("analyzer knock-schedule --objective games --deals 2000 --rounds 1",),
        (
            Param("a", Kind.POLICY, "basic", "The player whose schedule is searched first."),
            Param("b", Kind.POLICY, "basic", "Its opponent, which best-responds in turn."),
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
                5_000,
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
        notebook="``.gaps``: how far the final pair is from mutual best response; "
        "``.final_a``, ``.final_b``: the schedules; ``.plot()``: them.",
    )
)


__all__ = [
    "KNOCK_CHART",
    "KNOCK_SCHEDULE",
    "KNOCK_SWEEP",
    "chart_verdict",
    "sweep_table",
    "sweep_verdict",
]
