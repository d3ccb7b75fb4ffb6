"""How strong ``rummy-expert`` is: its margin against every plain-rummy preset and a set of
holding policies it was not fitted against (two players), and its share of the hands won
at three to six players, printed as the markdown tables of BENCHMARKS.md.

Every pair plays the same deals (seed ``--seed``), seats rotated deal by deal, so each
figure is paired; margins are points per hand (the expert's minus the mean of the other
seats'), with 95% CIs.  The fit (``scripts/fit_rummy.py``) played seeds derived from 2026
and its own held-out check; the default seed here is another.

Run from the repository root::

    python scripts/rummy_strength.py
    python scripts/rummy_strength.py --deals 5000 --rules seed004
"""

from __future__ import annotations

import argparse
import os
import time

from analyzer.core.stats import Estimate
from analyzer.rummy import POLICY_PRESETS, parse_policy, resolve_rules, simulate

EXPERT = "rummy-expert"
#: Holding policies outside the fit's panel: fixed holding horizons and point limits.
HELD_OUT = (
    *(f"meld=hold,hold_turns={turns}" for turns in (2, 3, 4, 5, 8, 10, 12)),
    *(f"meld=hold,hold_points={points}" for points in (15, 20, 30, 40)),
    "meld=hold,hold_turns=5,hold_points=25",
    "potential,meld=hold,hold_turns=6",
    "keeper,meld=hold,hold_turns=4",
)
#: The opponents of the many-player table (every other seat).
TABLE_OPPONENTS = ("simple", "potential", "hold6")


def _ci(estimate: Estimate, digits: int = 2, percent: bool = False) -> str:
    scale = 100 if percent else 1
    unit = "%" if percent else ""
    return (
        f"{estimate.mean * scale:+.{digits}f}{unit} "
        f"[{estimate.low * scale:+.{digits}f}, {estimate.high * scale:+.{digits}f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per table")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--rules", default="standard", help="rules preset")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    args = parser.parse_args()
    rules = resolve_rules(args.rules)
    expert = POLICY_PRESETS[EXPERT]
    started = time.perf_counter()

    print(f"Two players, rules {args.rules}, {args.deals:,} deals per pair, seed {args.seed}:")
    print()
    print("| opponent | fitted against | expert's margin (points/hand) | expert's hands won |")
    print("|---|---|---|---|")
    for name in [name for name in POLICY_PRESETS if name != EXPERT] + list(HELD_OUT):
        result = simulate(
            rules.replace(players=2), [expert, parse_policy(name)], args.deals, args.seed
        )
        fitted = "yes" if name in POLICY_PRESETS else "no (held out)"
        print(
            f"| `{name}` | {fitted} | {_ci(result.margin)} | "
            f"{_ci(result.player_win_rate[0], 1, percent=True)} |"
        )
    print()
    print("More players: the expert in one seat, the opponent in every other:")
    print()
    print(
        "| players | opponents | expert's margin (points/hand) | share of the hands won "
        "(fair: 1/players) | share of all hands | void hands |"
    )
    print("|---|---|---|---|---|---|")
    for players in args.players:
        for name in TABLE_OPPONENTS:
            seats = [expert] + [POLICY_PRESETS[name]] * (players - 1)
            result = simulate(rules.replace(players=players), seats, args.deals, args.seed)
            won = result.hands * (1 - result.void_rate.mean)
            share = Estimate.from_rate(result.player_win_rate[0].mean * result.hands, won)
            print(
                f"| {players} | {players - 1} x `{name}` | {_ci(result.margin)} | "
                f"{_ci(share, 1, percent=True)} | {_ci(result.player_win_rate[0], 1, percent=True)} "
                f"| {result.void_rate.mean:.1%} |"
            )
    load = os.getloadavg()
    print()
    print(
        f"({time.perf_counter() - started:.0f} s; load average {load[0]:.1f} / {load[1]:.1f} / "
        f"{load[2]:.1f})"
    )


if __name__ == "__main__":
    main()
