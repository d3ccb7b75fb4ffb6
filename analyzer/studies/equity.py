"""The game-equity study, declared once: ``analyzer equity`` and ``az.equity``.

It estimates the law of one hand's result of A against B by simulation, solves the game
to the target by dynamic programming over the score (:mod:`analyzer.gin.studies.equity`)
and, as asked, checks the table against whole games, asks whether knocking by the score
pays, and solves the same pair under other rules presets.  Score-aware knocking chooses,
at each score, among A's own knock and variants of it that differ only in when they
knock (:func:`~analyzer.gin.studies.equity.response.knock_options`), and is measured
against A's own knock on paired whole games the choice never saw.

Seeds: the hand laws (the table's, each knock option's and each preset's) are played on
the deals of ``seed`` (common to all of them), the check on ``seed + 1`` and the gain of
the score-aware player on ``seed + 2``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pandas as pd

from ..core.progress import Progress, advance, tell_total
from ..core.rng import offset_seed
from ..gin.model.policies import format_policy
from .charts import PALETTE, Chart, Mark, Panel
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import interval_text, label_lines, table_lines

#: Spacing (points) of the grid the answer prints.
_GRID_STEP = 10
#: Contours drawn over the P(A wins) heat maps.
_CONTOURS = (0.25, 0.5, 0.75)
#: The headline numbers of a table, by column of the summary and presets tables.
_HEADLINE = {
    "win_a_deals": "P(A wins) from 0:0, A deals first",
    "win_b_deals": "P(A wins) from 0:0, B deals first",
    "margin_a_deals": "E[final margin of A] (points), A deals first",
    "shutout": "P(the game ends in a shutout)",
    "hands": "hands per game",
    "win_50_0": "P(A wins) at 50:0, A deals next",
    "win_90_0": "P(A wins) at 90:0, A deals next",
}
#: The same, as the presets table heads its columns.
_SHORT = {
    "win_a_deals": "P(A wins), A deals",
    "win_b_deals": "B deals",
    "margin_a_deals": "margin",
    "shutout": "shutouts",
    "hands": "hands",
    "win_50_0": "at 50:0",
    "win_90_0": "at 90:0",
}


def _rounded(frame: pd.DataFrame) -> pd.DataFrame:
    """The equity table with its values to 6 significant digits (a file a tenth the
    size; the DP's own error is far larger)."""
    shown = frame.copy()
    for column in shown.columns[3:]:
        shown[column] = [float(f"{value:.6g}") for value in shown[column]]
    return shown


def _headline(table: pd.DataFrame, target: int) -> dict[str, float]:
    """The headline numbers (:data:`_HEADLINE`) of a saved equity table."""
    cell = table.set_index(["score_a", "score_b", "a_deals"])
    start = cell.loc[(0, 0)]
    found = {
        "win_a_deals": cell.at[(0, 0, True), "win"],
        "win_b_deals": cell.at[(0, 0, False), "win"],
        "margin_a_deals": cell.at[(0, 0, True), "margin"],
        "shutout": (start["shutout_win"] + start["shutout_loss"]).mean(),
        "hands": start["hands_left"].mean(),
    }
    for lead in (50, 90):
        found[f"win_{lead}_0"] = cell.at[(lead, 0, True), "win"] if lead < target else np.nan
    return {name: float(value) for name, value in found.items()}


def _compute(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.model.rules import resolve_rules
    from ..gin.studies.equity.dp import check_rules
    from ..gin.studies.equity.law import hand_outcome_distribution
    from ..gin.studies.equity.response import (
        knock_distributions,
        knock_options,
        measure_gain,
        score_aware_best_response,
    )
    from ..gin.studies.equity.table import equity_table
    from ..gin.studies.equity.validation import check_against_simulation, sample_states

    a, b, deals, games = (inputs[name] for name in ("a", "b", "deals", "games"))
    seed = inputs.seed
    rules = inputs.rules
    check_rules(rules)
    options = knock_options(a, inputs["caps"], inputs["floors"]) if inputs["score_aware"] else {}
    presets = [resolve_rules(preset) for preset in inputs["presets"] or ()]
    for other in presets:
        check_rules(other)
    states = inputs["check"]
    played = max(len(options), 1) + sum(not _same_law(other, rules) for other in presets)
    tell_total(progress, played + (states > 0) + 2 * bool(options))
    distribution = hand_outcome_distribution(rules, a, b, deals, seed)
    advance(progress, 1)
    table = equity_table(distribution, rules)
    equity = _rounded(table.to_frame())
    headline = _headline(equity, rules.target)
    tables = {
        "summary": pd.DataFrame(
            {
                "key": list(_HEADLINE),
                "metric": list(_HEADLINE.values()),
                "value": list(headline.values()),
            }
        ),
        "equity": equity,
        "hand_outcomes": distribution,
    }
    if states:
        tables["check"] = check_against_simulation(
            table,
            distribution,
            rules,
            a,
            b,
            sample_states(table, states, seed),
            max(games // 4, 10),
            offset_seed(seed, 1),
        )
        advance(progress, 1)
    response = None
    if options:
        variants = list(options.values())[1:]
        laws = [distribution, *knock_distributions(rules, variants, b, deals, seed)]
        advance(progress, len(variants))
        response = score_aware_best_response(laws, rules, list(options))
        advance(progress, 1)
        gain = measure_gain(
            rules, response.player(list(options.values())), a, b, games, offset_seed(seed, 2)
        )
        advance(progress, 1)
        target = rules.target
        scores = np.indices((target, target)).reshape(2, -1)
        choice = pd.DataFrame(
            {"score_a": scores[0], "score_b": scores[1], "option": response.aware.choice.ravel()}
        )
        frame = response.options_frame()
        frame.insert(1, "knock", [_knock_text(p) for p in options.values()] + ["by the score"])
        where = [_where(choice[choice["option"] == index]) for index in range(len(options))]
        frame["scores"] = [*where, "every score"]
        tables["options"] = frame
        tables["knock_by_score"] = choice
        tables["gain"] = pd.DataFrame(
            [
                {"arm": arm, "mean": e.mean, "low": e.low, "high": e.high, "games": e.n}
                for arm, e in zip(("score-aware", "own", "gain"), gain.values(), strict=True)
            ]
        )
    if presets:
        rows = []
        for preset, own in zip(inputs["presets"], presets, strict=True):
            law = distribution
            if not _same_law(own, rules):
                law = hand_outcome_distribution(own, a, b, deals, seed)
                advance(progress, 1)
            found = _headline(_rounded(equity_table(law, own).to_frame()), own.target)
            rows.append({"rules": preset, "target": own.target, **found})
        tables["presets"] = pd.DataFrame(rows)
    return Computed(tables, result=_Result(table, distribution, response))


def _same_law(rules: Any, other: Any) -> bool:
    """Whether a hand dealt at 0:0 plays and scores the same under both rules, so that
    one law of a hand serves both: they differ at most in how games are scored and in
    the target (which a policy reads only once a game has a score)."""
    return bool(rules.same_hands(dataclasses.replace(other, target=rules.target)))


@dataclasses.dataclass(frozen=True)
class _Result:
    """What the notebook reads through."""

    table: Any
    """The :class:`~analyzer.gin.studies.equity.table.EquityTable` at full precision."""
    distribution: pd.DataFrame
    """The law of one hand it is solved on."""
    response: Any
    """The score-aware choice (:class:`~analyzer.gin.studies.equity.response.BestResponse`),
    or None without the score-aware study."""


def _where(states: pd.DataFrame) -> str:
    """The score states a knock option is played in, in brief: ``A 88-99, B 0-99 (881
    states)``."""
    if states.empty:
        return "none"
    a, b = states["score_a"], states["score_b"]
    return f"A {a.min()}-{a.max()}, B {b.min()}-{b.max()} ({len(states):,} states)"


def _knock_text(policy: Any) -> str:
    """A policy's knock tables as the string form writes them: ``1:10/10:0, alert
    1:10/7:0, racer 1:10/3:0``."""
    words = dict(word.split("=", 1) for word in format_policy(policy).split(","))
    tables = [f"{key[6:]} {words[key]}" for key in ("knock_alert", "knock_racer") if key in words]
    return ", ".join([words["knock"], *tables])


# ------------------------------------------------------------------ the presentation


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON records, a missing number as ``None`` (the answer's module is not
    imported here: it reads the registry, which imports this module)."""
    return list(json.loads(frame.to_json(orient="records", double_precision=15)))


def _grid(equity: pd.DataFrame, a_deals: bool) -> pd.DataFrame:
    """P(A wins) with ``a_deals`` as a grid: rows A's score, columns B's score."""
    rows = equity[equity["a_deals"] == a_deals]
    return rows.pivot(index="score_a", columns="score_b", values="win")


def _check_summary(check: pd.DataFrame) -> dict[str, dict[str, float]]:
    from ..gin.studies.equity.validation import check_summary

    return check_summary(check)


def _gain_text(gain: pd.DataFrame, row: str, sign: bool = False) -> str:
    found = gain.set_index("arm").loc[row]
    return interval_text(found["mean"], found["low"], found["high"], 1, sign=sign, percent=True)


def _score_aware_verdict(answer: Any) -> str:
    options, gain = answer["options"], answer["gain"]
    row = gain.set_index("arm").loc["gain"]
    names = ", ".join(options["option"].iloc[1:-1])
    games = f"{int(row['games']):,} paired games"
    if row["low"] > 0 or row["high"] < 0:
        more = "more" if row["low"] > 0 else "fewer"
        low, high = sorted((abs(row["low"]), abs(row["high"])))
        found = (
            f"wins {interval_text(abs(row['mean']), low, high, 1, percent=True)} {more} of its "
            f"games than A's own knock ({games})"
        )
        if more == "fewer":
            found += ": the DP's choice does not survive whole games"
    else:
        found = (
            f"is too close to call against A's own knock: {_gain_text(gain, 'gain', True)} "
            f"games won ({games}), so A keeps its own knock"
        )
    verdict = f"Knocking by the score (at each score, its own knock or {names}) {found}."
    fixed = options.iloc[:-1]
    best = fixed.loc[fixed["dp_game_win"].idxmax()]
    if best["option"] != fixed["option"].iloc[0]:
        verdict += (
            f" Played at every score, {best['option']} alone wins {best['dp_game_win']:.1%} of "
            f"games by the DP against {fixed['dp_game_win'].iloc[0]:.1%} for A's own knock: "
            "that part of the gain owes nothing to the score."
        )
    return verdict


def _present(answer: Any) -> View:
    inputs, equity = answer.inputs, answer["equity"]
    head = dict(zip(answer["summary"]["key"], answer["summary"]["value"], strict=True))
    player, opponent = inputs.labels["a"], inputs.labels["b"]
    coarse = _grid(equity, True).iloc[::_GRID_STEP, ::_GRID_STEP]
    body = [
        *label_lines(
            [
                (
                    "P(A wins) from 0:0",
                    (
                        f"{head['win_a_deals']:.1%} if A deals first, "
                        f"{head['win_b_deals']:.1%} if B does"
                    ),
                ),
                ("E[margin of A]", f"{head['margin_a_deals']:+.2f} points (A deals first)"),
                ("shutouts", f"{head['shutout']:.1%} of games"),
                ("hands per game", f"{head['hands']:.2f}"),
            ]
        ),
        "",
        "P(A wins the game) when A deals next (rows: A's score, columns: B's score):",
        "      " + "".join(f"{column:>6}" for column in coarse.columns),
        *(
            f"{score:>6}" + "".join(f"{value:6.2f}" for value in row)
            for score, row in coarse.iterrows()
        ),
    ]
    verdict = (
        f"From 0:0, A wins {head['win_a_deals']:.1%} of games when A deals first and "
        f"{head['win_b_deals']:.1%} when B does (solved from the law of one hand)."
    )
    data: dict[str, Any] = {
        "win_if_a_deals_first": head["win_a_deals"],
        "win_if_b_deals_first": head["win_b_deals"],
        "margin_if_a_deals_first": head["margin_a_deals"],
        "hands_per_game": head["hands"],
    }
    if "check" in answer.tables:
        summary = _check_summary(answer["check"])
        data["check"] = summary
        states = len(answer["check"]) // 2
        body += ["", f"Check against whole games from {states} score states:"]
        body += [
            f"  {name:<7} {s['agree']}/{s['rows']} rows within their 95% CI, chi2 "
            f"{s['chi2']:.1f} on {s['rows']} df, p = {s['p_value']:.2f}"
            for name, s in summary.items()
        ]
        win = summary["win"]
        agree = "agree" if win["p_value"] >= 0.05 else "disagree"
        verdict += (
            f" Whole games from {states} score state{'s' * (states > 1)} {agree}: P(A wins) "
            f"within its 95% CI in {win['agree']} of {win['rows']} rows (chi-square p = "
            f"{win['p_value']:.2f})."
        )
    if "options" in answer.tables:
        options = answer["options"]
        body += [
            "",
            f"Knocking by the score against {opponent}:",
            *table_lines(options_table(options)),
        ]
        body.append(
            f"score-aware {_gain_text(answer['gain'], 'score-aware')} against own "
            f"{_gain_text(answer['gain'], 'own')} games won: gain "
            f"{_gain_text(answer['gain'], 'gain', True)}"
        )
        verdict += " " + _score_aware_verdict(answer)
        data["score_aware"] = {
            "options": _records(options.drop(columns=["knock", "scores"])),
            **{
                f"game_win_{row.arm.replace('-', '_')}": {
                    "mean": row.mean,
                    "ci95": [row.low, row.high],
                }
                for row in answer["gain"].itertuples()
            },
        }
    if "presets" in answer.tables:
        body += ["", "Other rules presets (the same pair, the same deals):"]
        body += table_lines(presets_table(answer["presets"]))
        data["presets"] = _records(answer["presets"])
    return View(
        inputs.title(
            "Game equity from every score",
            players=f"A {player} against B {opponent}",
            size=f"{inputs['deals']:,} deals",
        ),
        body,
        verdict,
        _chart(answer),
        notes=_notes(answer),
        frame=answer["summary"],
        raw=equity,
        data=data,
    )


def _notes(answer: Any) -> list[str]:
    notes = []
    if "options" in answer.tables:
        notes.append(
            "Options: A's knock tables (by own turn; while the opponent holds a pile card) "
            "with every threshold at most c or at least f, without A's read of the opponent; "
            "DP P(win): the game-win chance from 0:0 if A played that option at every score; "
            "played in: the share of the score-aware player's visited states; at scores: the "
            "ranges of A's and B's scores (points) where it plays that option."
        )
    return notes


def options_table(options: pd.DataFrame) -> pd.DataFrame:
    """The knock options for a person: each option's knock tables, hand results and DP
    game-win chance, and where the score-aware player plays it."""
    return pd.DataFrame(
        {
            "option": options["option"],
            "knock": options["knock"],
            "hands won": ["-" if np.isnan(v) else f"{v:.1%}" for v in options["hand_win"]],
            "points/hand": [
                # a symmetric pair's -1e-17 points is shown +0.00
                "-" if np.isnan(v) else f"{round(v, 6) + 0.0:+.2f}"
                for v in options["points_per_hand"]
            ],
            "DP P(win)": [f"{v:.4f}" for v in options["dp_game_win"]],
            "played in": [f"{v:.1%}" for v in options["share"]],
            "at scores": options["scores"],
        }
    )


def presets_table(presets: pd.DataFrame) -> pd.DataFrame:
    """The headline numbers under each rules preset, for a person."""
    shown = presets[["rules", "target"]].copy()
    for name, header in _SHORT.items():
        digits = 2 if name in ("margin_a_deals", "hands") else 3
        shown[header] = ["-" if np.isnan(v) else f"{v:.{digits}f}" for v in presets[name]]
    return shown


def _score_panel(grid: pd.DataFrame, title: str, legend: str, **style: Any) -> Panel:
    """A heat map over the scores: rows A's score, columns B's score (points)."""
    heat = Mark(
        "heatmap",
        x=tuple(int(v) for v in grid.columns),
        y=tuple(int(v) for v in grid.index),
        z=tuple(tuple(float(v) for v in row) for row in grid.to_numpy()),
        **style,
    )
    return Panel(
        (heat,),
        title=title,
        x_label="B's score (points)",
        y_label="A's score (points)",
        legend=legend,
        legend_columns=2,
    )


def _chart(answer: Any) -> Chart:
    inputs, equity = answer.inputs, answer["equity"]
    panels = [
        _score_panel(
            _grid(equity, deals),
            f"{'A' if deals else 'B'} deals next",
            "none",
            scale="probability",
            levels=_CONTOURS,
            colorbar="P(A wins the game); lines: contours",
        )
        for deals in (True, False)
    ]
    caption = (
        f"P(A wins the game) from each score, by dynamic programming over the score on the law "
        f"of one hand from {inputs['deals']:,} simulated deals; blue: A is favoured, red: B is."
    )
    if "options" in answer.tables:
        labels = list(answer["options"]["option"].iloc[:-1])
        choice = answer["knock_by_score"].pivot(index="score_a", columns="score_b", values="option")
        panels.append(
            _score_panel(
                choice,
                "A's knock by the score",
                "below",
                scale="categories",
                categories=tuple((PALETTE[i % 7], label) for i, label in enumerate(labels)),
            )
        )
        caption += " Right: the knock option A's best score-aware response plays at each score."
    return Chart(
        "equity",
        f"P(A wins the game to {inputs.rules.target}): {inputs.labels['a']} against "
        f"{inputs.labels['b']}, rules {inputs.rules_name}",
        caption + f" Seed {inputs.seed}.",
        tuple(panels),
        size=(5.2 * len(panels), 4.8),
    )


EQUITY = register(
    Study(
        "equity",
        "P(A wins the game) and E[final margin] from every score state.",
        "Estimates the law of one hand's result by simulation, then solves the game by "
        "dynamic programming over (A's score, B's score, next dealer). The check plays "
        "whole games from sampled score states (seed + 1); the score-aware study lets A "
        "choose, at each score, among its own knock and variants of it (every threshold of "
        "its knock tables at most --caps or at least --floors, without its read of the "
        "opponent), chosen on the table's deals, and measures the game-win gain over A's own "
        "knock on paired games (seed + 2).",
        (
            "analyzer equity --a basic --b basic --deals 100000 --caps 0-9",
            "analyzer equity --rules oklahoma --no-score-aware --check 0 --out out/equity",
            "analyzer equity --presets classic,oklahoma --format json",
        ),
        (
            Param("a", Kind.POLICY, "expert", "Policy of player A."),
            Param("b", Kind.POLICY, "expert", "Policy of player B."),
            Param(
                "deals",
                Kind.COUNT,
                20_000,
                "Deals per hand-outcome law (each played by both dealers; the same deals for "
                "every law).",
            ),
            Param(
                "check",
                Kind.COUNT,
                4,
                "Check the table against whole games from N score states (0:0 and a sample "
                "of the states games visit; 0: no check).",
                low=0,
            ),
            Param(
                "games",
                Kind.COUNT,
                2_000,
                "Games per arm of the score-aware gain (each with both first dealers); the "
                "check plays a quarter of it per state.",
            ),
            Param(
                "score_aware",
                Kind.FLAG,
                True,
                "Find A's best knock option for each score and measure its game-win gain "
                "over A's own knock.",
            ),
            Param(
                "caps",
                Kind.THRESHOLDS,
                (0,),
                "Knock options: A's knock tables with every threshold at most c (0: gin only).",
            ),
            Param(
                "floors",
                Kind.THRESHOLDS,
                (10,),
                "Knock options: A's knock tables with every threshold at least f (10: knock "
                "at every chance).",
            ),
            Param(
                "presets",
                Kind.PRESETS,
                None,
                "Also solve the pair's table under these rules presets, on the same deals.",
            ),
        ),
        _compute,
        _present,
        unit="step",
        scheduler=False,
        notebook=(
            "``.table`` is the whole equity table, ``.response`` the score-aware choice; "
            "``.plot()`` the heat maps."
        ),
    )
)


__all__ = ["EQUITY", "options_table", "presets_table"]
