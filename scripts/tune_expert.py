"""Tune the ``expert`` policy's weights by self-play optimisation (cross-entropy method).

Each generation draws ``--population`` candidate weight vectors from a Gaussian
(clipped to each weight's range; candidate 0 is the current mean) and plays every
candidate against every opponent of the panel on the *same* deals (common random
numbers: one seed per generation, seats swapped on each deal).  A candidate's score is
a soft minimum of its points per hand over the panel, ``-T log mean exp(-x / T)`` with
``T = --softness`` points (the plain mean as ``T`` grows), so that no opponent is
sacrificed for the others; the ``--elite`` best set the next mean and spread.  The panel holds the existing presets, the knock schedules that were best
responses in the report (``results/schedule/``), and the incumbent ``expert`` (the
mean at the start of the generation), so a candidate must also beat the current best.

At the end the final mean is compared with the starting weights on fresh deals (paired,
95% CI), opponent by opponent.  Writes ``<out>/expert_log.csv`` (one row per candidate
and generation: weights, score per opponent, gain over the incumbent with its 95% CI)
and ``<out>/expert_tuning.md``; prints the tuned policy string.

    PYTHONPATH=. python scripts/tune_expert.py --generations 8 --population 12 --deals 1500
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.gin.model.policies import Policy, format_policy, parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.studies.discard_fit import per_deal_points

#: (weight, low, high, starting spread) in the policy's units (hundredths of a point).
SPACE = (
    ("outs", 0, 500, 100),
    ("danger", 0, 2000, 300),
    ("take_margin", -300, 3000, 300),
    ("low_late", 0, 150, 30),
    ("knock_bias", -500, 2000, 400),
    ("knock_stock", -60, 100, 20),
    ("play_in", 0, 10, 2),
)
PANEL = (
    "basic",
    "gin-hunter",
    "safe-discard",
    "lookahead",
    "simple",
    "passive",
    "basic,knock=1:10/4:0",
    "basic,knock=1:10/7:0",
)


Space = tuple[tuple[str, int, int, int], ...]


def with_weights(base: Policy, space: Space, weights: np.ndarray) -> Policy:
    return base.changed(**{name: round(w) for (name, *_), w in zip(space, weights, strict=True)})


def chosen_space(names: str) -> Space:
    """The entries of :data:`SPACE` named in ``names`` (comma-separated; ``all``: every one)."""
    if names == "all":
        return SPACE
    wanted = [name.strip() for name in names.split(",")]
    unknown = sorted(set(wanted) - {s[0] for s in SPACE})
    if unknown:
        raise SystemExit(
            f"unknown weight(s) {', '.join(unknown)}; choose from {', '.join(s[0] for s in SPACE)}"
        )
    return tuple(s for s in SPACE if s[0] in wanted)


def standard_points(policy: Policy, opponent: Policy, seed: int, deals: int) -> np.ndarray:
    """Points per hand to ``policy`` on each deal under standard rules (the mean of its
    two seats)."""
    return per_deal_points(STANDARD, policy, opponent, seed, deals)


def paired(diff: np.ndarray) -> tuple[float, float, float]:
    half = 1.959964 * diff.std(ddof=1) / np.sqrt(len(diff))
    return float(diff.mean()), float(diff.mean() - half), float(diff.mean() + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1500, help="deals per opponent")
    parser.add_argument("--final-deals", type=int, default=6000)
    parser.add_argument("--start", default="expert", help="starting policy")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--softness",
        type=float,
        default=1.0,
        help="T of the soft minimum over the panel (points per hand)",
    )
    parser.add_argument(
        "--weights",
        default="all",
        help="comma-separated weights to tune (the others stay as in --start)",
    )
    parser.add_argument("--out", default="results/tuning")
    args = parser.parse_args()
    space = chosen_space(args.weights)

    base = parse_policy(args.start)
    low = np.array([s[1] for s in space], dtype=np.float64)
    high = np.array([s[2] for s in space], dtype=np.float64)
    mean = np.array([base.value(s[0]) for s in space], dtype=np.float64)
    spread = np.array([s[3] for s in space], dtype=np.float64)
    start = mean.copy()
    panel = {name: parse_policy(name) for name in PANEL}
    rng = np.random.default_rng(args.seed)
    records = []
    started = time.perf_counter()
    load = os.getloadavg()[0]
    for generation in range(args.generations):
        seed = args.seed * 1000 + generation
        incumbent = with_weights(base, space, mean)
        opponents = {**panel, "incumbent": incumbent}
        candidates = [mean.copy()] + [
            np.clip(mean + spread * rng.standard_normal(len(space)), low, high)
            for _ in range(args.population - 1)
        ]
        points = np.zeros((len(candidates), len(opponents), args.deals))
        for c, weights in enumerate(candidates):
            policy = with_weights(base, space, weights)
            for o, opponent in enumerate(opponents.values()):
                points[c, o] = standard_points(policy, opponent, seed, args.deals)
        per_opponent = points.mean(axis=2)
        scores = -args.softness * np.log(np.mean(np.exp(-per_opponent / args.softness), axis=1))
        for c, weights in enumerate(candidates):
            gain, gain_low, gain_high = paired(points[c].mean(axis=0) - points[0].mean(axis=0))
            record = {
                "generation": generation,
                "candidate": c,
                "score": scores[c],
                "gain": gain,
                "gain_low": gain_low,
                "gain_high": gain_high,
                **{name: round(w) for (name, *_), w in zip(space, weights, strict=True)},
            }
            record.update({f"vs {name}": points[c, o].mean() for o, name in enumerate(opponents)})
            records.append(record)
        elite = np.argsort(-scores)[: args.elite]
        chosen = np.array([candidates[i] for i in elite])
        mean = chosen.mean(axis=0)
        spread = np.maximum(0.7 * spread + 0.3 * chosen.std(axis=0), 0.05 * (high - low))
        best = elite[0]
        print(
            f"gen {generation}: best {scores[best]:+.3f} (incumbent {scores[0]:+.3f}), "
            f"mean -> {format_policy(with_weights(base, space, mean))}  "
            f"[{time.perf_counter() - started:.0f} s]",
            flush=True,
        )

    tuned = with_weights(base, space, mean)
    final_seed = args.seed * 1000 + 999
    final = []
    for name, opponent in panel.items():
        new = standard_points(tuned, opponent, final_seed, args.final_deals)
        old = standard_points(
            with_weights(base, space, start), opponent, final_seed, args.final_deals
        )
        gain, gain_low, gain_high = paired(new - old)
        mean_new, low_new, high_new = paired(new)
        final.append(
            {
                "opponent": name,
                "tuned": mean_new,
                "tuned_low": low_new,
                "tuned_high": high_new,
                "gain": gain,
                "gain_low": gain_low,
                "gain_high": gain_high,
                "deals": args.final_deals,
            }
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame.from_records(records).to_csv(out / "expert_log.csv", index=False)
    table = pd.DataFrame.from_records(final)
    table.to_csv(out / "expert_final.csv", index=False)
    elapsed = time.perf_counter() - started
    lines = [
        "# Tuning the `expert` policy",
        "",
        (
            f"Command: `PYTHONPATH=. python scripts/tune_expert.py --generations {args.generations} "
            f"--population {args.population} --elite {args.elite} --deals {args.deals} "
            f"--final-deals {args.final_deals} --start '{args.start}' --seed {args.seed} "
            f"--softness {args.softness} --weights {args.weights}` "
            f"({elapsed / 60:.0f} min on the 2-core machine, load average {load:.1f} at the start)."
        ),
        "",
        "Method: cross-entropy method over the weights "
        + ", ".join(f"`{s[0]}` [{s[1]}, {s[2]}]" for s in space)
        + ". Each generation plays every candidate against every opponent of the panel on "
        f"the same {args.deals:,} deals (seats swapped: {2 * args.deals:,} hands per pairing, "
        "standard rules); score = soft minimum over the panel of the points per hand, "
        f"-T log mean exp(-x/T), T = {args.softness} (the other weights as in the start "
        "policy); the "
        f"{args.elite} best of {args.population} set the next mean. Panel: "
        + ", ".join(f"`{p}`" for p in PANEL)
        + ", and the incumbent (the generation's "
        "starting mean).",
        "",
        f"Start: `{format_policy(with_weights(base, space, start))}`",
        "",
        f"Tuned: `{format_policy(tuned)}`",
        "",
        (
            "Per generation (candidate 0 is the incumbent; gain = paired difference over the "
            "panel, 95% CI), best candidate:"
        ),
        "",
        "| generation | incumbent score | best score | best gain [95% CI] |",
        "|---:|---:|---:|---|",
    ]
    log = pd.DataFrame.from_records(records)
    for generation, rows in log.groupby("generation"):
        best_row = rows.loc[rows["score"].idxmax()]
        lines.append(
            f"| {generation} | {rows['score'].iloc[0]:+.3f} | {best_row['score']:+.3f}"
            f" | {best_row['gain']:+.3f} [{best_row['gain_low']:+.3f}, "
            f"{best_row['gain_high']:+.3f}] |"
        )
    lines += [
        "",
        (
            f"Final check on fresh deals ({args.final_deals:,} per opponent, seats "
            "swapped): tuned expert's points per hand, and its gain over the start weights "
            "(paired), 95% CIs:"
        ),
        "",
        "| opponent | tuned pts/hand | gain over start |",
        "|---|---|---|",
    ]
    for row in final:
        lines.append(
            f"| `{row['opponent']}` | {row['tuned']:+.3f} [{row['tuned_low']:+.3f}, "
            f"{row['tuned_high']:+.3f}] | {row['gain']:+.3f} [{row['gain_low']:+.3f}, "
            f"{row['gain_high']:+.3f}] |"
        )
    (out / "expert_tuning.md").write_text("\n".join(lines) + "\n")
    print(format_policy(tuned))


if __name__ == "__main__":
    main()
