"""The cross-engine table: the analyzer against the EAAI framework and OpenSpiel, each under
its matching preset (outcome shares, points per scored hand, draws per hand, 95% CIs).

Inputs: ``results/interop/eaai_reference.json`` (the framework's own self-play of its simple
player, see that file's ``how``) and ``results/interop/openspiel.json`` (written by
``scripts/openspiel_replay.py``).  The analyzer rows are simulated here.

Usage: python scripts/interop_table.py --deals 300000 --out results/interop
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from pathlib import Path

import numpy as np

from analyzer.gin.engine.transitions import Outcome
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS
from analyzer.gin.play.simulate import simulate

Z = 1.959964
COLUMNS = ("knock", "gin", "undercut", "tie", "draw")


def share_ci(count: float, n: int) -> list[float]:
    share = count / n
    half = Z * math.sqrt(share * (1 - share) / n)
    return [share, share - half, share + half]


def mean_ci(total: float, squares: float, n: int) -> list[float]:
    mean = total / n
    variance = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z * math.sqrt(variance / n)
    return [mean, mean - half, mean + half]


def analyzer_row(
    label: str, rules_name: str, rules: object, policy: str, deals: int, seed: int
) -> dict:
    """Shares and means with CIs over deals (the two seat-swapped hands of a deal are one
    unit, so their correlation widens the interval as it should)."""
    result = simulate(rules, POLICIES[policy], POLICIES[policy], deals, seed=seed, keep_rows=True)
    rows = result.rows
    assert rows is not None
    codes = rows["outcome"].cat.codes.to_numpy().reshape(deals, 2)
    row: dict = {
        "engine": "analyzer",
        "label": label,
        "rules": rules_name,
        "players": f"{policy} v {policy}",
        "hands": 2 * deals,
        "seed": seed,
    }
    for name in COLUMNS:
        per_deal = (codes == Outcome[name.upper()]).mean(axis=1)
        row[name] = _deal_ci(per_deal)
    scored = codes != Outcome.DRAW
    points = rows["points"].to_numpy().reshape(deals, 2).astype(float)
    # points per scored hand: a ratio estimator over deals (delta method)
    row["points_per_scored_hand"] = _ratio_ci((points * scored).sum(axis=1), scored.sum(axis=1))
    row["draws_per_hand"] = _deal_ci(rows["turns"].to_numpy().reshape(deals, 2).mean(axis=1))
    return row


def _deal_ci(values: np.ndarray) -> list[float]:
    mean = float(values.mean())
    half = Z * float(values.std(ddof=1)) / math.sqrt(len(values))
    return [mean, mean - half, mean + half]


def _ratio_ci(numerator: np.ndarray, denominator: np.ndarray) -> list[float]:
    ratio = numerator.sum() / denominator.sum()
    residual = numerator - ratio * denominator
    half = Z * math.sqrt(residual.var(ddof=1) / len(numerator)) / denominator.mean()
    return [float(ratio), float(ratio - half), float(ratio + half)]


def eaai_row(path: Path) -> dict:
    data = json.loads(path.read_text())
    total = data["total"]
    hands = total["hands"]
    row = {
        "engine": "EAAI framework (Java), reproduced here",
        "label": "framework self-play",
        "rules": "framework",
        "players": "SimpleGinRummyPlayer v SimpleGinRummyPlayer",
        "hands": hands,
        "seed": [r["seed"] for r in data["runs"]],
    }
    for name, key in (
        ("knock", "knock"),
        ("gin", "gin"),
        ("undercut", "undercut"),
        ("draw", "cancelled"),
    ):
        row[name] = share_ci(total[key], hands)
    row["tie"] = None
    row["points_per_scored_hand"] = mean_ci(total["points"], total["points_sq"], total["scored"])
    row["draws_per_hand"] = mean_ci(total["draws"], total["draws_sq"], hands)
    return row


def openspiel_rows(path: Path) -> list[dict]:
    data = json.loads(path.read_text())
    rows = []
    for replay in data["replay"]:
        for engine, summary in replay["engines"].items():
            row = {
                "engine": "OpenSpiel gin_rummy (C++)" if engine == "openspiel" else "analyzer",
                "label": f"replay, same {replay['deals']} decks",
                "rules": "openspiel",
                "players": f"{replay['policy']} v {replay['policy']}",
                "hands": summary["hands"],
                "seed": replay["seed"],
            }
            for name in COLUMNS:
                row[name] = summary["outcomes"].get(name, [0.0, 0.0, 0.0])
            row["points_per_scored_hand"] = summary["points_per_scored_hand"]
            row["draws_per_hand"] = summary["draws_per_hand"]
            rows.append(row)
    for match in data["matches"]:
        summary = match["hands"]
        opponent = match["opponent"].split(" (")[0]
        row = {
            "engine": "OpenSpiel gin_rummy (C++)",
            "label": "match in OpenSpiel",
            "rules": "openspiel",
            "players": f"{match['policy']} v {opponent}",
            "hands": summary["hands"],
            "seed": match["seed"],
        }
        for name in COLUMNS:
            row[name] = summary["outcomes"].get(name, [0.0, 0.0, 0.0])
        row["points_per_scored_hand"] = summary["points_per_scored_hand"]
        row["draws_per_hand"] = summary["draws_per_hand"]
        row["analyzer_points_per_hand"] = match["analyzer_points_per_hand"]
        rows.append(row)
    return rows


def _cell(value: list[float] | None, percent: bool) -> str:
    if value is None:
        return "—"
    scale, digits = (100, 2) if percent else (1, 2)
    mean, low, high = (v * scale for v in value)
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def markdown(rows: list[dict]) -> str:
    head = (
        "| engine | rules | players | hands | knock % | gin % | undercut % | tie % | "
        "cancelled/dead % | points per scored hand | draws per hand |"
    )
    lines = [head, "|" + "---|" * 11]
    for row in rows:
        cells = [
            row["engine"] + (f" ({row['label']})" if row.get("label") else ""),
            f"`{row['rules']}`",
            row["players"],
            f"{row['hands']:,}",
            *(_cell(row[name], True) for name in COLUMNS),
            _cell(row["points_per_scored_hand"], False),
            _cell(row["draws_per_hand"], False),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default="results/interop")
    parser.add_argument(
        "--reuse-analyzer",
        action="store_true",
        help="take the simulated analyzer rows from OUT/cross_engine.json",
    )
    args = parser.parse_args()
    out = Path(args.out)
    if args.reuse_analyzer:
        old = json.loads((out / "cross_engine.json").read_text())
        simulated = [r for r in old if r["engine"] == "analyzer" and r["rules"] != "openspiel"]
    else:
        eaai = PRESETS["eaai"]
        before = dataclasses.replace(
            eaai, defender_layoff="optimal", knocker_melds="fewest-layoffs"
        )
        simulated = [
            analyzer_row("EAAI procedure", "eaai", eaai, "eaai-simple", args.deals, args.seed),
            analyzer_row(
                "EAAI procedure, draw=meld", "eaai", eaai, "simple", args.deals, args.seed
            ),
            analyzer_row(
                "before: optimal layoffs",
                "eaai, defender_layoff=optimal, knocker_melds=fewest-layoffs",
                before,
                "simple",
                args.deals,
                args.seed,
            ),
        ]
    rows = [
        eaai_row(out / "eaai_reference.json"),
        *simulated,
        *openspiel_rows(out / "openspiel.json"),
    ]
    (out / "cross_engine.json").write_text(json.dumps(rows, indent=2) + "\n")
    (out / "cross_engine.md").write_text(markdown(rows))
    print(markdown(rows))


if __name__ == "__main__":
    main()
