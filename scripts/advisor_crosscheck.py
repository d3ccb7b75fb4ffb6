"""Cross-check: the advisor's knock-vs-play-on verdicts against the knock chart.

The knock chart (:func:`analyzer.gin.studies.knocking.knock_chart`) branches at every legal non-gin
knock of seat 0 with the true hidden cards and averages "knock now minus play on" (points)
by cell (own turn, deadwood).  Here the same process (same policies, the main line
playing on after every branch point) is replayed on another seed, branch points are
sampled uniformly, and each is turned into what seat 0 knows: a :class:`Position`.  The
advisor then estimates, from that knowledge alone, the same difference: knock with the
chart's knock discard minus play on with the policy's throw.

Reported:

* **agreement** -- how often the sign of the advisor's difference matches the sign of
  the chart's cell mean (all positions, and those whose cell has a clear verdict);
* **on average** -- the mean advisor difference against the mean cell value over the
  same positions (equal in expectation when the advisor's hidden-card distribution is the
  true one, by the tower property), and their correlation;
* the same agreement for the advisor's full verdict (best of every legal action).

Run: ``python scripts/advisor_crosscheck.py [--positions 150] [--chart-deals 200000]``.
Writes ``results/advisor_crosscheck/{positions.csv,summary.json}``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
from advisor_positions import branch_points, seat0_position

from analyzer.core.cards import format_card
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import Rules
from analyzer.gin.play.advisor import advise
from analyzer.gin.studies.knocking import knock_chart

SEED = 20261130
CHART_SEED = 1
OUT = Path("results/advisor_crosscheck")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--deals", type=int, default=400, help="Deals to draw positions from.")
    parser.add_argument("--chart-deals", type=int, default=200_000)
    parser.add_argument("--samples", type=int, default=4000, help="Advisor budget per run.")
    parser.add_argument(
        "--temperature",
        type=float,
        default=8.0,
        help="Softness of the advisor's weighting model (points).",
    )
    args = parser.parse_args()
    rules, basic = Rules(), POLICIES["basic"]
    started = time.perf_counter()
    chart = knock_chart(rules, basic, basic, args.chart_deals, CHART_SEED)
    cells = chart.set_index(["turn", "deadwood"])
    chart_s = time.perf_counter() - started

    points = branch_points(rules, args.deals, SEED)
    picks = np.random.default_rng(SEED).choice(
        len(points), size=min(args.positions, len(points)), replace=False
    )
    rows, skipped = [], 0
    for index in sorted(picks):
        point = points[index]
        cell = (min(point["turn"], int(chart["turn"].max())), point["deadwood"])
        if cell not in cells.index:
            skipped += 1
            continue
        try:
            position = seat0_position(point["state"])
        except ValueError:  # a card thrown, retaken and held again: outside the model
            skipped += 1
            continue
        pair = [
            f"knock {format_card(point['knock_card'])}",
            f"play {format_card(point['hold_card'])}",
        ]
        row = {
            "deal": point["deal"],
            "rep": point["rep"],
            "turn": point["turn"],
            "deadwood": point["deadwood"],
            "cell_mean": cells.loc[cell, "mean"],
            "cell_n": cells.loc[cell, "n"],
            "cell_verdict": cells.loc[cell, "verdict"],
        }
        for weights in ("uniform", "model"):
            advice = advise(
                position,
                rules,
                basic,
                basic,
                samples=args.samples,
                seed=SEED,
                weights=weights,
                temperature=args.temperature,
                actions=pair,
            )
            # the margin is best minus the other action: turn it into knock minus play on
            sign = 1.0 if advice.best.kind == "knock" else -1.0
            row[f"diff_{weights}"] = sign * advice.margin
            row[f"half_{weights}"] = advice.margin_half_width
            row[f"ess_share_{weights}"] = advice.ess / advice.samples
        full = advise(
            position,
            rules,
            basic,
            basic,
            samples=args.samples,
            seed=SEED,
            temperature=args.temperature,
        )
        row["full_best"] = full.best.action
        row["full_says_knock"] = full.best.kind == "knock"
        row["full_margin"] = full.margin
        rows.append(row)
    frame = pd.DataFrame(rows)
    chart_knock = frame["cell_mean"] > 0
    clear = frame["cell_verdict"] != "unclear"
    summary = {
        "positions": len(frame),
        "skipped": skipped,
        "seed": SEED,
        "chart_seed": CHART_SEED,
        "chart_deals": args.chart_deals,
        "advisor_samples_budget": args.samples,
        "temperature": args.temperature,
        "median_ess_share_model": float(frame["ess_share_model"].median()),
        "elapsed_s": time.perf_counter() - started,
        "chart_s": chart_s,
    }
    for weights in ("uniform", "model"):
        agree = (frame[f"diff_{weights}"] > 0) == chart_knock
        summary[f"agreement_{weights}"] = float(agree.mean())
        summary[f"agreement_{weights}_clear_cells"] = float(agree[clear].mean())
        summary[f"mean_diff_{weights}"] = float(frame[f"diff_{weights}"].mean())
        summary[f"mean_diff_{weights}_se"] = float(
            frame[f"diff_{weights}"].std() / np.sqrt(len(frame))
        )
        summary[f"correlation_{weights}"] = float(frame[f"diff_{weights}"].corr(frame["cell_mean"]))
    summary["mean_cell_value"] = float(frame["cell_mean"].mean())
    summary["agreement_full_verdict"] = float((frame["full_says_knock"] == chart_knock).mean())
    summary["agreement_full_verdict_clear_cells"] = float(
        (frame["full_says_knock"] == chart_knock)[clear].mean()
    )
    OUT.mkdir(parents=True, exist_ok=True)
    frame.to_csv(OUT / "positions.csv", index=False)
    (OUT / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    print(json.dumps(summary, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
