"""Choose the points of the discard principles (``out_points``, ``feed_points``) and see
what their switches are worth, from simulated deals: every variant of the ``principles``
preset plays the test opponents of ``analyzer how-to-discard`` on common deals (the
champion's draw and knock), and the table gives each one's points per hand minus the
preset's, averaged over the opponents deal by deal (95% CIs, paired).

    python scripts/fit_principles.py --rules standard --deals 5000 --seed 11

Prints a Markdown table (BENCHMARKS.md, "How to discard").
"""

from __future__ import annotations

import argparse
import time

from analyzer.gin.model.rules import resolve_rules
from analyzer.gin.studies.discard_principles import PANEL, RULE_SET, arms, measure_principles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    chosen = arms()
    base = chosen[RULE_SET]
    for out_points in range(5):
        for feed_points in range(5):
            label = f"out_points={out_points},feed_points={feed_points}"
            chosen[label] = base.changed(out_points=out_points, feed_points=feed_points)
    for late in (0, 4, 12):
        chosen[f"late_stock={late}"] = base.changed(late_stock=late)
    started = time.perf_counter()
    run = measure_principles(resolve_rules(args.rules), args.deals, args.seed, chosen=chosen)
    seconds = time.perf_counter() - started
    print(
        f"{args.rules} rules, {args.deals:,} deals per arm and opponent, seed {args.seed}, "
        f"opponents {', '.join(run.opponents)}; {seconds:.0f} s\n"
    )
    print("| arm | points per hand minus the preset's (mean over the opponents) |")
    print("|---|---:|")
    for label in chosen:
        diff = run.diff(PANEL, label)
        print(f"| {label} | {diff.mean:+.2f} ± {diff.half_width:.2f} |")


if __name__ == "__main__":
    main()
