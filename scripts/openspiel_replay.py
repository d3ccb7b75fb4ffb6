"""Replay check and matches against OpenSpiel's gin_rummy (needs ``pip install open-spiel``).

1. Replay: deal ``k`` (the analyzer's deck of stream ``k`` of the seed) is played by the same
   deterministic policy in both seats, once in the analyzer's engine (``openspiel`` preset) and
   once in OpenSpiel's engine through :class:`analyzer.interop.openspiel.AnalyzerBot`; the
   outcome and the points must agree.  Differences are counted by cause.
2. Matches: analyzer policies against OpenSpiel's C++ simple bot inside OpenSpiel's engine,
   seats alternating, with 95% CIs.

Usage (the committed results/interop/openspiel.json):
  python scripts/openspiel_replay.py --deals 10000 --games 2000 --policies basic --out results/interop
  python scripts/openspiel_replay.py --deals 2000 --games 2000 --policies lookahead \
      --out results/interop --append
  python scripts/openspiel_replay.py --games 100 --policies basic --opponent ismcts \
      --skip-replay --out results/interop --append
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pyspiel

from analyzer.core.rng import shuffle_deck, stream_key
from analyzer.gin.engine.transitions import OUTCOME_NAMES, Slot, play_from_deck
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS
from analyzer.interop.openspiel import TO_OPENSPIEL, AnalyzerBot

GIN = pyspiel.gin_rummy


def spiel_outcome(state) -> tuple[str, int]:
    """(outcome name, points to player 0) of a finished OpenSpiel hand."""
    returns = state.returns()
    knocked = state.knocked()
    if not any(knocked):
        return "draw", 0
    knocker = 0 if knocked[0] else 1
    if state.deadwood()[knocker] == 0:
        name = "gin"
    elif returns[knocker] > 0:
        name = "knock"
    elif returns[knocker] < 0:
        name = "undercut"
    else:
        name = "tie"
    return name, int(returns[0])


def deck_of(seed: int, deal: int) -> np.ndarray:
    rng = np.array([stream_key(np.int64(seed), np.int64(deal))], dtype=np.uint64)
    deck = np.empty(52, dtype=np.int8)
    shuffle_deck(rng, deck)
    return deck


class EngineTally:
    """Outcome counts, points per scored hand and draws per hand of one engine."""

    def __init__(self) -> None:
        self.outcomes: Counter[str] = Counter()
        self.points: list[float] = []
        self.draws: list[float] = []

    def add(self, outcome: str, points: int, draws: int) -> None:
        self.outcomes[outcome] += 1
        if outcome != "draw":
            self.points.append(abs(points))
        self.draws.append(draws)

    def summary(self) -> dict:
        hands = len(self.draws)
        return {
            "hands": hands,
            "outcomes": {k: _share(v, hands) for k, v in sorted(self.outcomes.items())},
            "points_per_scored_hand": _ci(self.points),
            "draws_per_hand": _ci(self.draws),
        }


def _share(count: int, n: int) -> list[float]:
    share = count / n
    half = 1.959964 * math.sqrt(share * (1 - share) / n)
    return [share, share - half, share + half]


def replay(policy_name: str, deals: int, seed: int) -> dict:
    rules = PRESETS["openspiel"]
    rules_array = rules.to_array()
    policy = POLICIES[policy_name]
    policies = np.stack([policy.to_array(), policy.to_array()])
    game = pyspiel.load_game("gin_rummy")
    bots = [AnalyzerBot(game, p, policy, rules) for p in range(2)]
    causes: Counter[str] = Counter()
    examples: dict[str, int] = {}
    tallies = {"analyzer": EngineTally(), "openspiel": EngineTally()}
    for deal in range(deals):
        deck = deck_of(seed, deal)
        ours = play_from_deck(deck, 1, rules_array, policies)
        our_name = OUTCOME_NAMES[int(ours[Slot.OUTCOME])]
        winner = int(ours[Slot.WINNER])
        our_points = 0 if winner < 0 else int(ours[Slot.POINTS]) * (1 if winner == 0 else -1)
        tallies["analyzer"].add(our_name, our_points, int(ours[Slot.DRAWS]))
        state = game.new_initial_state()
        for bot in bots:
            bot.restart()
        refused = [b.refused_knocks for b in bots]
        position = 0
        draws = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(TO_OPENSPIEL[deck[position]]))
                position += 1
            else:
                action = bots[state.current_player()].step(state)
                draws += (
                    action == GIN.DRAW_UPCARD_ACTION
                    or action == GIN.DRAW_STOCK_ACTION
                    or (action == GIN.KNOCK_ACTION and state.current_phase() == GIN.Phase.WALL)
                )
                state.apply_action(action)
        name, points = spiel_outcome(state)
        tallies["openspiel"].add(name, points, draws)
        if (name, points) == (our_name, our_points):
            causes["identical"] += 1
            continue
        if any(b.refused_knocks > r for b, r in zip(bots, refused, strict=True)):
            cause = "openspiel refused a legal knock (its 11-card deadwood check)"
        elif name == "draw" and our_name != "draw":
            cause = "hand ended as a draw in OpenSpiel only (50 upcard draws or repeated move)"
        else:
            cause = f"other: analyzer {our_name} {our_points:+d}, openspiel {name} {points:+d}"
        causes[cause] += 1
        examples.setdefault(cause, deal)
    return {
        "policy": policy_name,
        "rules": "openspiel",
        "deals": deals,
        "seed": seed,
        "counts": dict(causes),
        "first_deal_of_each_cause": examples,
        "engines": {k: v.summary() for k, v in tallies.items()},
    }


def _ci(values: list[float]) -> list[float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1))
    half = 1.959964 * sd / math.sqrt(n)
    return [mean, mean - half, mean + half]


def simple_bot(game, player: int, seed: int):
    """OpenSpiel's C++ simple gin rummy bot (deterministic)."""
    return pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)


def ismcts_bot(game, player: int, seed: int):
    """OpenSpiel's C++ IS-MCTS bot: ``ISMCTS_SIMULATIONS`` simulations per move, one random
    rollout per leaf, observation strings as information states (gin_rummy has no
    information-state string)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(
        seed,
        evaluator,
        2.0,
        ISMCTS_SIMULATIONS,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        True,
        True,
    )


ISMCTS_SIMULATIONS = 100
_ISMCTS_NAME = f"OpenSpiel ISMCTSBot (C++, {ISMCTS_SIMULATIONS} simulations, random rollouts)"
OPPONENTS = {
    "simple": ("OpenSpiel SimpleGinRummyBot (C++, make_simple_gin_rummy_bot)", simple_bot),
    "ismcts": (_ISMCTS_NAME, ismcts_bot),
}


def match(policy_name: str, games: int, seed: int, opponent: str = "simple") -> dict:
    """Analyzer policy against an OpenSpiel bot, one hand per game, seats alternating;
    points are the analyzer's (negative when the bot scores)."""
    rules = PRESETS["openspiel"]
    game = pyspiel.load_game("gin_rummy")
    opponent_name, make_opponent = OPPONENTS[opponent]
    points: list[float] = []
    tally = EngineTally()
    rng = np.random.default_rng(seed)
    outcomes: Counter[str] = Counter()
    for index in range(games):
        seat = index % 2
        ours = AnalyzerBot(game, seat, POLICIES[policy_name], rules, seed=index)
        theirs = make_opponent(game, 1 - seat, seed + index)
        state = game.new_initial_state()
        draws = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                bot = ours if state.current_player() == seat else theirs
                action = bot.step(state)
                draws += (
                    action == GIN.DRAW_UPCARD_ACTION
                    or action == GIN.DRAW_STOCK_ACTION
                    or (action == GIN.KNOCK_ACTION and state.current_phase() == GIN.Phase.WALL)
                )
                state.apply_action(action)
        name, p0 = spiel_outcome(state)
        knocked = state.knocked()
        knocker = 0 if knocked[0] else 1 if knocked[1] else -1
        label = (
            name
            if knocker < 0
            else (f"{name} (knocker: {'analyzer' if knocker == seat else opponent})")
        )
        outcomes[label] += 1
        points.append(p0 if seat == 0 else -p0)
        tally.add(name, p0, draws)
    return {
        "policy": policy_name,
        "rules": "openspiel",
        "opponent": opponent_name,
        "games": games,
        "seed": seed,
        "analyzer_points_per_hand": _ci(points),
        "outcomes_by_knocker": {k: _share(v, games) for k, v in sorted(outcomes.items())},
        "hands": tally.summary(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--policies",
        default="basic",
        help="comma-separated deterministic policies to replay and match",
    )
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="simple")
    parser.add_argument("--skip-replay", action="store_true")
    parser.add_argument("--out", default=None)
    parser.add_argument(
        "--append",
        action="store_true",
        help="add to the replays and matches already in OUT/openspiel.json",
    )
    args = parser.parse_args()
    report: dict = {"replay": [], "matches": [], "seconds": 0.0}
    target = Path(args.out) / "openspiel.json" if args.out else None
    if args.append and target is not None and target.exists():
        report = json.loads(target.read_text())
    started = time.perf_counter()
    names = args.policies.split(",")
    for name in [] if args.skip_replay else names:
        report["replay"].append(replay(name, args.deals, args.seed))
        print(json.dumps(report["replay"][-1]), flush=True)
    for name in names:
        report["matches"].append(match(name, args.games, args.seed, args.opponent))
        print(json.dumps(report["matches"][-1]), flush=True)
    report["seconds"] += time.perf_counter() - started
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
