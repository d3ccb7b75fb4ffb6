"""The ``analyzer equity`` command: the game-equity table of a policy pair, its check
against whole games, and the score-aware knocking study."""

from __future__ import annotations

import re
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
import pandas as pd

from ..core.rng import offset_seed
from ..gin.model.policies import policy_name
from ..gin.studies.equity.charts import heatmap_data
from ..gin.studies.equity.dp import Value, check_rules
from ..gin.studies.equity.law import hand_outcome_distribution
from ..gin.studies.equity.response import (
    knock_distributions,
    measure_gain,
    score_aware_best_response,
)
from ..gin.studies.equity.table import equity_table
from ..gin.studies.equity.validation import check_against_simulation, check_summary, sample_states
from ..report.equity import write_response_files, write_table_files
from ..report.files import staged_folder, write_csv
from ..report.text import interval_text, title_text
from .files import out_option
from .inputs import (
    SEED,
    UNITS,
    UNITS_OR_NONE,
    fail,
    get_policy,
    get_rules,
    policy_options,
    rules_options,
)
from .output import echo_json, format_options, show_result
from .progress import progress_bar

#: Spacing (points) of the grid printed by ``--format table``.
_GRID_STEP = 10


@click.command("equity")
@rules_options
@policy_options
@click.option(
    "--deals",
    type=UNITS,
    default=100_000,
    show_default=True,
    help="Deals for the hand-outcome distribution (each played by both dealers).",
)
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed, 0 <= seed < 2**63; the check uses seed+1, the knock laws seed+2, the gain seed+3.",
)
@out_option(
    "Write the CSV files and charts into this folder (checked writable before the run; "
    "default: write nothing).",
    dest="out_dir",
    as_path=True,
)
@format_options
@click.option(
    "--check",
    "n_check",
    type=UNITS_OR_NONE,
    default=0,
    show_default=True,
    help="Check the table against whole games from N score states (0:0 and a "
    "sample of the states games visit).",
)
@click.option(
    "--games",
    type=UNITS,
    default=20_000,
    show_default=True,
    help="Games per arm of --score-aware; --check plays a quarter of it per state.",
)
@click.option(
    "--score-aware",
    is_flag=True,
    help="Also find A's best score-aware knock table against B (a knock "
    "threshold 0-10 per score, replacing A's knock schedule) and measure its "
    "game-win gain over the best constant threshold.",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def equity(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    deals: int,
    seed: int,
    out_dir: Path | None,
    fmt: str,
    n_check: int,
    games: int,
    score_aware: bool,
    no_progress: bool,
) -> None:
    """P(A wins the game) and E[final margin] from every score state.

    Estimates the law of one hand's result by simulation, then solves the game by
    dynamic programming over (A's score, B's score, next dealer); with --out, writes
    the table (CSV) and a heatmap (PNG) there.

    \b
    Example:
      analyzer equity --rules standard --a basic --b basic
      analyzer equity --check 8 --score-aware --format json
    """
    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    try:
        check_rules(rules)
    except ValueError as error:
        fail(str(error))
    stem = _slug(f"{preset}_{policy_name(a)}_vs_{policy_name(b)}")
    with progress_bar(deals, "deal", no_progress) as update:
        distribution = hand_outcome_distribution(rules, a, b, deals, seed, update)
    try:
        table = equity_table(distribution, rules)
    except ValueError as error:
        fail(str(error))
    # the folder was shown writable before the run; its files appear together at the end
    # of the block, and a failure or stop before then leaves it as it was
    with staged_folder(out_dir) if out_dir is not None else nullcontext():
        paths: dict[str, Path] = {}
        if out_dir is not None:
            paths = write_table_files(
                table,
                distribution,
                out_dir,
                stem,
                f"{preset} rules, {policy_name(a)} vs {policy_name(b)}",
            )
        summary: dict[str, Any] = {
            "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
            "policy_a": policy_name(a),
            "policy_b": policy_name(b),
            "deals": deals,
            "seed": seed,
            "win_if_a_deals_first": table.win_probability(0, 0, True),
            "win_if_b_deals_first": table.win_probability(0, 0, False),
            "margin_if_a_deals_first": table.expected_margin(0, 0, True),
            "hands_per_game": table.start(Value.HANDS),
        }
        if n_check:
            with progress_bar(None, "state", no_progress, "check") as update:
                states = sample_states(table, n_check, seed)
                update(0, total=len(states))
                check = check_against_simulation(
                    table,
                    distribution,
                    rules,
                    a,
                    b,
                    states,
                    max(games // 4, 10),
                    offset_seed(seed, 1),
                )
                update(len(states))
            if out_dir is not None:
                paths["check"] = out_dir / f"{stem}_check.csv"
                write_csv(paths["check"], check, index=False, float_format="%.6g")
            summary["check"] = check_summary(check)
        if score_aware:
            with progress_bar(2, "step", no_progress, "score-aware") as update:
                response = score_aware_best_response(
                    knock_distributions(rules, a, b, deals, offset_seed(seed, 2)), rules
                )
                update(1)
                gain = measure_gain(
                    rules,
                    response.policy(a),
                    response.best_policy(a),
                    b,
                    games,
                    offset_seed(seed, 3),
                )
                update(1)
            if out_dir is not None:
                paths |= write_response_files(
                    response, out_dir, stem, f"{preset} rules, A against {policy_name(b)}"
                )
            summary["score_aware"] = {
                "best_constant_threshold": response.thresholds[response.best_constant],
                "dp_game_win": response.constant_frame()
                .set_index("threshold")["dp_game_win"]
                .to_dict(),
                **{f"game_win_{name}": e.as_dict() for name, e in gain.items()},
            }
    summary["files"] = {kind: str(path) for kind, path in paths.items()}
    if fmt == "json":
        echo_json(summary)
    elif fmt == "csv":
        click.echo(table.to_frame().to_csv(index=False, float_format="%.6g"), nl=False)
    else:
        _echo_table(summary, heatmap_data(table, True))


def _slug(text: str) -> str:
    """A file-name-safe form of a run's name."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


def _echo_table(summary: dict[str, Any], grid: pd.DataFrame) -> None:
    coarse = grid.iloc[::_GRID_STEP, ::_GRID_STEP]
    lines = [
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
    for name, result in summary.get("check", {}).items():
        lines.append(
            f"check {name:<7} {result['agree']}/{result['rows']} within 95%, "
            f"chi2 {result['chi2']:.1f} on {result['rows']} df, "
            f"p = {result['p_value']:.2f}"
        )
    if "score_aware" in summary:
        study = summary["score_aware"]
        gain = study["game_win_gain"]
        lines.append(
            "score-aware knocking: game-win gain "
            + interval_text(gain["mean"], gain["ci95"][0], gain["ci95"][1], 1, percent=True)
            + f" over the constant threshold {study['best_constant_threshold']}"
        )
    lines += [f"wrote {path} ({kind})" for kind, path in summary["files"].items()]
    show_result(
        "table",
        title_text(
            "Game equity from every score",
            rules=summary["rules"],
            players=f"A {summary['policy_a']} against B {summary['policy_b']}",
            size=f"{summary['deals']:,} deals",
            seed=summary["seed"],
        ),
        lines,
        f"From 0:0, A wins {summary['win_if_a_deals_first']:.1%} of games when A deals first "
        f"and {summary['win_if_b_deals_first']:.1%} when B does (solved from the hand-outcome "
        "law; --check compares it with whole games).",
    )
