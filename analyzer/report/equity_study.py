"""The game-equity table of a policy pair, declared once (:mod:`analyzer.studies.study`):
``analyzer equity`` and ``az.equity``, with its check against whole games and the
score-aware knocking study."""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.progress import Progress, advance, after, tell_total
from ..core.rng import offset_seed
from ..core.stats import Estimate
from ..gin.model.policies import policy_name
from ..studies.files import staged_folder, write_csv
from ..studies.study import Inputs, Kind, Param, Study, register
from ..studies.text import interval_text
from .legacy import Answer, Chart, legacy

#: Spacing (points) of the grid the answer prints.
_GRID_STEP = 10


@dataclass(frozen=True)
class Equity:
    """What the equity study measured (the notebook's result reads these through)."""

    table: Any
    """The :class:`~analyzer.gin.studies.equity.table.EquityTable`: P(A wins) and the
    expected margin from every score; ``.to_frame()`` one row per state."""
    distribution: pd.DataFrame
    """The hand-outcome law the table is solved on (by dealer)."""
    check: pd.DataFrame | None
    """With ``check``: the table against whole games from sampled states."""
    response: Any
    """With ``score_aware``: A's best score-aware knock table against B
    (:class:`~analyzer.gin.studies.equity.response.BestResponse`)."""
    gain: dict[str, Estimate] | None
    """With ``score_aware``: the game-win rates of the score-aware table, of the best
    constant threshold and the gain (95% CIs)."""


def _slug(text: str) -> str:
    """A file-name-safe form of a run's name."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def _equity(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.equity.dp import check_rules
    from ..gin.studies.equity.law import hand_outcome_distribution
    from ..gin.studies.equity.table import equity_table

    a, b, deals, seed = inputs["a"], inputs["b"], inputs["deals"], inputs.seed
    check_rules(inputs.rules)
    distribution = hand_outcome_distribution(inputs.rules, a, b, deals, seed, progress)
    table = equity_table(distribution, inputs.rules)
    out = None if inputs.out is None else Path(inputs.out)
    stem = _slug(f"{inputs.preset}_{policy_name(a)}_vs_{policy_name(b)}")
    # the folder was shown writable before the run; its files appear together at the end
    # of the block, and a failure or stop before then leaves it as it was
    with nullcontext() if out is None else staged_folder(out):
        measured = _measure(inputs, table, distribution, after(progress, deals), out, stem)
    return _answer(inputs, measured)


@dataclass(frozen=True)
class _Measured:
    equity: Equity
    summary: dict[str, Any]
    paths: dict[str, Path]


def _measure(
    inputs: Inputs,
    table: Any,
    distribution: pd.DataFrame,
    progress: Progress | None,
    out: Path | None,
    stem: str,
) -> _Measured:
    """The check and the score-aware study where asked for, and every file ``out`` gets."""
    from ..gin.studies.equity.dp import Value
    from ..gin.studies.equity.response import (
        knock_distributions,
        measure_gain,
        score_aware_best_response,
    )
    from ..gin.studies.equity.validation import (
        check_against_simulation,
        check_summary,
        sample_states,
    )
    from .equity import write_response_files, write_table_files

    a, b, deals, games = (inputs[name] for name in ("a", "b", "deals", "games"))
    seed = inputs.seed
    who = f"{policy_name(a)} vs {policy_name(b)}"
    paths: dict[str, Path] = {}
    if out is not None:
        paths = write_table_files(table, distribution, out, stem, f"{inputs.preset} rules, {who}")
    summary: dict[str, Any] = {
        "rules": " ".join([inputs.preset, *inputs.overrides]),
        "policy_a": policy_name(a),
        "policy_b": policy_name(b),
        "deals": deals,
        "seed": seed,
        "win_if_a_deals_first": table.win_probability(0, 0, True),
        "win_if_b_deals_first": table.win_probability(0, 0, False),
        "margin_if_a_deals_first": table.expected_margin(0, 0, True),
        "hands_per_game": table.start(Value.HANDS),
    }
    checked = response = gain = None
    states = sample_states(table, inputs["check"], seed) if inputs["check"] else []
    tell_total(progress, len(states) + (2 if inputs["score_aware"] else 0))
    if states:
        checked = check_against_simulation(
            table,
            distribution,
            inputs.rules,
            a,
            b,
            states,
            max(games // 4, 10),
            offset_seed(seed, 1),
        )
        advance(progress, len(states))
        if out is not None:
            paths["check"] = out / f"{stem}_check.csv"
            write_csv(paths["check"], checked, index=False, float_format="%.6g")
        summary["check"] = check_summary(checked)
    if inputs["score_aware"]:
        response = score_aware_best_response(
            knock_distributions(inputs.rules, a, b, deals, offset_seed(seed, 2)), inputs.rules
        )
        advance(progress, 1)
        gain = measure_gain(
            inputs.rules,
            response.policy(a),
            response.best_policy(a),
            b,
            games,
            offset_seed(seed, 3),
        )
        advance(progress, 1)
        if out is not None:
            paths |= write_response_files(
                response, out, stem, f"{inputs.preset} rules, A against {policy_name(b)}"
            )
        summary["score_aware"] = {
            "best_constant_threshold": response.thresholds[response.best_constant],
            "dp_game_win": response.constant_frame()
            .set_index("threshold")["dp_game_win"]
            .to_dict(),
            **{f"game_win_{name}": e.as_dict() for name, e in gain.items()},
        }
    summary["files"] = {kind: str(path) for kind, path in paths.items()}
    return _Measured(Equity(table, distribution, checked, response, gain), summary, paths)


def _answer(inputs: Inputs, measured: _Measured) -> Answer:
    from ..gin.studies.equity.charts import heatmap_data

    equity, summary = measured.equity, measured.summary
    table = equity.table
    rows: list[dict[str, object]] = [
        {"metric": "P(A wins) from 0:0, A deals first", "mean": summary["win_if_a_deals_first"]},
        {"metric": "P(A wins) from 0:0, B deals first", "mean": summary["win_if_b_deals_first"]},
        {
            "metric": "E[final margin of A] (points), A deals first",
            "mean": summary["margin_if_a_deals_first"],
        },
        {"metric": "hands per game", "mean": summary["hands_per_game"]},
    ]
    lines = _grid_lines(summary, heatmap_data(table, True))
    for name, agreement in summary.get("check", {}).items():
        rows.append(
            {
                "metric": f"check {name}: share of {agreement['rows']} states within their "
                f"95% CI (chi2 p = {agreement['p_value']:.2f})",
                "mean": agreement["agree"] / agreement["rows"],
            }
        )
        lines.append(
            f"check {name:<7} {agreement['agree']}/{agreement['rows']} within 95%, "
            f"chi2 {agreement['chi2']:.1f} on {agreement['rows']} df, "
            f"p = {agreement['p_value']:.2f}"
        )
    for name, estimate in (equity.gain or {}).items():
        rows.append(
            {
                "metric": f"score-aware knocking: {name.replace('_', ' ')}",
                "mean": estimate.mean,
                "low": estimate.low,
                "high": estimate.high,
            }
        )
    if equity.gain is not None:
        gain = equity.gain["gain"]
        lines.append(
            "score-aware knocking: game-win gain "
            + interval_text(gain.mean, gain.low, gain.high, 1, percent=True)
            + " over the constant threshold "
            + str(summary["score_aware"]["best_constant_threshold"])
        )
    lines += [f"wrote {path} ({kind})" for kind, path in measured.paths.items()]

    def draw(axes: Any) -> None:
        from .figures import score_heatmap

        for ax, a_deals in zip(axes, (True, False), strict=True):
            score_heatmap(heatmap_data(table, a_deals), ax, f"{'A' if a_deals else 'B'} deals next")

    return Answer(
        inputs.title(
            "Game equity from every score",
            players=f"A {summary['policy_a']} against B {summary['policy_b']}",
            size=f"{summary['deals']:,} deals",
        ),
        pd.DataFrame(rows, columns=["metric", "mean", "low", "high"]),
        lines,
        f"From 0:0, A wins {summary['win_if_a_deals_first']:.1%} of games when A deals first "
        f"and {summary['win_if_b_deals_first']:.1%} when B does (solved from the hand-outcome "
        "law; --check compares it with whole games).",
        Chart(
            "equity",
            draw,
            (11, 4.8),
            f"P(A wins the game to {table.rules.target}) from each score",
            "P(A wins the game) from each score, by dynamic programming over the score on "
            "the simulated law of one hand; blue: A is favoured, red: B is.",
            panels=2,
        ),
        raw=table.to_frame(),
        data=summary,
        result=equity,
    )


def _grid_lines(summary: dict[str, Any], grid: pd.DataFrame) -> list[str]:
    """A's chances from 0:0 and a coarse grid of P(A wins) when A deals next."""
    coarse = grid.iloc[::_GRID_STEP, ::_GRID_STEP]
    return [
        (
            f"P(A wins) from 0:0:  {summary['win_if_a_deals_first']:.1%} if A deals first, "
            f"{summary['win_if_b_deals_first']:.1%} if B does"
        ),
        f"E[margin of A]:      {summary['margin_if_a_deals_first']:+.2f} points (A deals first)",
        f"hands per game:      {summary['hands_per_game']:.2f}",
        "",
        "P(A wins the game) when A deals next (rows: A's score, columns: B's score):",
        "      " + "".join(f"{column:>6}" for column in coarse.columns),
        *(
            f"{score:>6}" + "".join(f"{value:6.2f}" for value in row)
            for score, row in coarse.iterrows()
        ),
    ]


EQUITY = register(
    Study(
        "equity",
        "P(A wins the game) and E[final margin] from every score state.",
        "Estimates the law of one hand's result by simulation, then solves the game by "
        "dynamic programming over (A's score, B's score, next dealer). The check (seed + 1) "
        "plays whole games from sampled score states; the score-aware study finds A's best "
        "knock threshold by score (seed + 2) and measures its game-win gain over the best "
        "constant threshold (seed + 3).",
        (
            "analyzer equity --rules standard --a basic --b basic",
            "analyzer equity --rules oklahoma --out out/equity",
            "analyzer equity --check 8 --score-aware --format json",
        ),
        (
            Param("a", Kind.POLICY, "basic", "Policy of player A."),
            Param("b", Kind.POLICY, "basic", "Policy of player B."),
            Param(
                "deals",
                Kind.COUNT,
                100_000,
                "Deals for the hand-outcome distribution (each played by both dealers).",
            ),
            Param(
                "check",
                Kind.COUNT,
                0,
                "Check the table against whole games from N score states (0:0 and a sample "
                "of the states games visit; 0: no check).",
                low=0,
            ),
            Param(
                "games",
                Kind.COUNT,
                20_000,
                "Games per arm of the score-aware study; the check plays a quarter of it per "
                "state.",
            ),
            Param(
                "score_aware",
                Kind.FLAG,
                False,
                "Also find A's best score-aware knock table against B (a knock threshold "
                "0-10 per score, replacing A's knock schedule) and measure its game-win gain "
                "over the best constant threshold.",
            ),
        ),
        *legacy(_equity),
        scheduler=False,
        notebook="``.table`` is the whole equity table; ``.plot()`` the two heat maps.",
    )
)
