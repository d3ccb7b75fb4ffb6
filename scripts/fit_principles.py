"""Choose the points of the discard or the draw principles and see what their switches are
worth, from simulated deals: every variant of the rule set's preset plays the test
opponents of ``analyzer how-to-discard`` (or ``how-to-draw``) on common deals (the
champion's play elsewhere), and the table gives each one's points per hand minus the
preset's, averaged over the opponents deal by deal (95% CIs, paired).

    python scripts/fit_principles.py --answer discard --rules standard --deals 5000 --seed 11
    python scripts/fit_principles.py --answer draw --rules standard --deals 5000 --seed 11

The discard's grid: ``out_points`` x ``feed_points`` 0-4, ``late_stock`` 0/4/12; the
draw's: ``take_points`` 3-10 x ``take_out_points`` 0-3, ``take_late_stock`` 0/8/16 and
``take_live_only`` off.  Prints a Markdown table (BENCHMARKS.md, "How to discard" and
"How to draw").
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from analyzer.gin.model.policies import Policy
from analyzer.gin.model.rules import resolve_rules
from analyzer.gin.studies.discard_principles import DISCARD
from analyzer.gin.studies.draw_principles import DRAW
from analyzer.gin.studies.principle_runs import PANEL, RuleSet


def discard_grid(base: Policy) -> dict[str, Policy]:
    """The discard's variants by label."""
    chosen = {}
    for out_points in range(5):
        for feed_points in range(5):
            label = f"out_points={out_points},feed_points={feed_points}"
            chosen[label] = base.changed(out_points=out_points, feed_points=feed_points)
    for late in (0, 4, 12):
        chosen[f"late_stock={late}"] = base.changed(late_stock=late)
    return chosen


def draw_grid(base: Policy) -> dict[str, Policy]:
    """The draw's variants by label."""
    chosen = {}
    for take_points in range(3, 11):
        for out_points in range(4):
            label = f"take_points={take_points},take_out_points={out_points}"
            chosen[label] = base.changed(take_points=take_points, take_out_points=out_points)
    for late in (0, 8, 16):
        chosen[f"take_late_stock={late}"] = base.changed(take_late_stock=late)
    chosen["take_live_only=no"] = base.changed(take_live_only=False)
    return chosen


#: Per answer: its rule set and the variants of its points.
ANSWERS: dict[str, tuple[RuleSet, Callable[[Policy], dict[str, Policy]]]] = {
    "discard": (DISCARD, discard_grid),
    "draw": (DRAW, draw_grid),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answer", choices=tuple(ANSWERS), default="discard")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rule_set, grid = ANSWERS[args.answer]
    chosen = rule_set.arms() | grid(rule_set.policy())
    started = time.perf_counter()
    run = rule_set.measure(resolve_rules(args.rules), args.deals, args.seed, chosen=chosen)
    seconds = time.perf_counter() - started
    print(
        f"{args.answer}: {args.rules} rules, {args.deals:,} deals per arm and opponent, seed "
        f"{args.seed}, opponents {', '.join(run.opponents)}; {seconds:.0f} s\n"
    )
    print("| arm | points per hand minus the preset's (mean over the opponents) |")
    print("|---|---:|")
    for label in chosen:
        diff = run.diff(PANEL, label)
        print(f"| {label} | {diff.mean:+.2f} ± {diff.half_width:.2f} |")


if __name__ == "__main__":
    main()
