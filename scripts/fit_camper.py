"""Research for the champion's camping mode: fit the learned discard's weights for a
player that camps (waits for the undercut or gin: knock table ``1:10/3:0`` from the first
hand, no read) against a panel of racers that do not include the EAAI simple player,
then measure it against that player in games.

    python scripts/fit_camper.py --seed 2026

It prints the fitted policy string, the fit's held-out gains per opponent and the games
won against ``eaai-simple`` (``--rules eaai``, seats swapped, 95% CIs) by the camper with
the fitted weights, with the starting weights and with the MARJJ discard.  Nothing is
written: the answer is a measurement for BENCHMARKS.md, not a preset.
"""

from __future__ import annotations

import argparse

from analyzer.gin.model.policies import format_policy, parse_policy
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.simulate import play_games
from analyzer.gin.studies.discard_fit import fit_discard

#: The camper: the champion's draw and discard features, knocking only under 3 points
#: after its third turn, from the first hand, with no read of the opponent.
CAMPER = "expert,knock=1:10/3:0,knock_alert=1:10/3:0,knock_racer=none,discard_racer=same"
#: Racers to fit against: each knocks as soon as its deadwood is 10 or less.
RACERS = ("basic", "lookahead", "safe-discard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--generations", type=int, default=5)
    parser.add_argument("--population", type=int, default=10)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", type=int, default=3000, help="game pairs per measurement")
    parser.add_argument("--game-seed", type=int, default=501)
    args = parser.parse_args()
    rules = RULES["eaai"]
    base = parse_policy(CAMPER)
    fit = fit_discard(
        rules,
        "eaai",
        base,
        RACERS,
        generations=args.generations,
        population=args.population,
        elite=3,
        deals=args.deals,
        held_out_deals=10_000,
        softness=2.0,
        seed=args.seed,
    )
    print("fitted:", format_policy(fit.fitted))
    for name, gain in fit.held_out.items():
        print(
            f"held out v {name}: {gain.mean:+.2f} [{gain.low:+.2f}, {gain.high:+.2f}] points per hand"
        )
    simple = parse_policy("eaai-simple")
    arms = {
        "fitted camper": fit.fitted,
        "starting camper": base.changed(discard="learned"),
        "camper, MARJJ discard": base.changed(discard="marjj"),
    }
    for label, policy in arms.items():
        result = play_games(rules, policy, simple, args.games, seed=args.game_seed)
        won = result.game_win_rate_a
        print(
            f"{label} v eaai-simple: {100 * won.mean:.1f}% [{100 * won.low:.1f}, {100 * won.high:.1f}]"
        )


if __name__ == "__main__":
    main()
