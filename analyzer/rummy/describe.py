"""Plain rummy's players in words: what each preset does, how it fares and why, and the
same for any policy written as ``key=value`` items (``analyzer rummy policies``).

:func:`describe` reads a policy's fields; the presets carry a paragraph of their own
(:data:`PRESET_WORDS`) that says how they fare, which :func:`preset_records` measures
(each preset against ``simple`` and against ``rummy-expert``, seats rotated on common
deals, 95% CIs), so a door can print the words with the current figures beside them.
"""

from __future__ import annotations

import pandas as pd

from ..core.stats import Estimate
from .policies import PRESETS, RummyPolicy, parse_policy, policy_name
from .rules import RummyRules
from .simulate import simulate

#: The strongest player of plain rummy here.
STRONGEST = "rummy-expert"

#: Each preset in words: its play, and how it fares against the others and why.
PRESET_WORDS: dict[str, str] = {
    "simple": (
        "The benchmark player. It lays down every meld and lays off every card as soon "
        "as it can, takes the discard only when that lowers its deadwood, and throws the "
        "card that leaves the least deadwood (the highest on a tie). It never holds for "
        "Rummy and tracks no cards."
    ),
    "rummy": (
        "Holds every meld in hand to the end, to go out Rummy in one turn for double "
        "points; otherwise plays like simple. Against simple it wins about two hands in "
        "three, because its opponent has nothing of its to lay off onto and it goes out "
        "in one sweep, yet it loses points: it wins against an opponent who has laid most "
        "of its cards down and holds few points, so a win brings little even doubled, while "
        "every hand it loses catches it holding its whole hand, melds and all, worth four "
        "times as much. Holding to the end is the costliest way to play."
    ),
    "hold6": (
        "Holds its melds for Rummy through its own sixth turn, then plays like simple: "
        "the best of the fixed holding rules against simple, by a small margin. Holding a "
        "few turns costs little while the opponents are far from going out."
    ),
    "keeper": (
        "Plays like simple but lays off only to go out: the cards it could lay off stay in "
        "its hand, where they count against it whenever an opponent goes out first, so it "
        "loses to simple."
    ),
    "potential": (
        "Plays like simple but throws, among the cards in no meld, the one with the fewest "
        "partners (same rank, or same suit within two ranks), keeping partial melds alive: "
        "about even with simple at two players, ahead of it with more."
    ),
    STRONGEST: (
        "The strongest player here: it beats every other preset. It tracks the cards: "
        "the pile and the table, the cards each opponent took from the pile and still "
        "holds, and how many cards each opponent has left. After drawing it weighs "
        "holding its melds (keeping the double score of Rummy possible) against laying "
        "down and laying off all it can, and every throw, by an evaluation fitted from "
        "simulated deals: the deadwood left; the points left in hand, weighted by how close "
        "an opponent is to going out; the unseen cards that would still meld; and the cards "
        "a throw would feed, one the next player can lay off or that goes with cards it "
        "took. So it holds for Rummy while the opponents are far from going out and lays "
        "down as soon as one gets close, and it keeps its throws from helping the next "
        "player."
    ),
}
assert set(PRESET_WORDS) == set(PRESETS)

#: How the strongest player's edge over each other preset was measured (BENCHMARKS.md,
#: "Plain rummy's strong player", its two-player strength table).
EDGES_SOURCE = (
    "BENCHMARKS.md (python scripts/rummy_strength.py: two players, standard rules, "
    "20,000 deals per pair, seats rotated, seed 777)"
)
#: ``rummy-expert``'s margin over each other preset (points per hand, the expert's
#: minus the opponent's: the mean and its 95% CI), as :data:`EDGES_SOURCE` gives it.
EXPERT_EDGES: dict[str, tuple[float, float, float]] = {
    "simple": (5.05, 4.82, 5.28),
    "rummy": (14.35, 13.43, 15.26),
    "hold6": (2.56, 2.06, 3.05),
    "keeper": (5.34, 5.04, 5.64),
    "potential": (7.26, 6.92, 7.60),
}
assert set(EXPERT_EDGES) == set(PRESETS) - {STRONGEST}


def describe(policy: RummyPolicy | str) -> str:
    """A policy in words: a preset's paragraph (:data:`PRESET_WORDS`), or for any other
    policy what its fields make it do (``ValueError`` for text that is no policy).

    >>> describe("meld=hold,hold_turns=4,layoff=keep")[:60]
    'Holds its melds for Rummy through its own turn 4; lays off o'
    """
    chosen = parse_policy(policy) if isinstance(policy, str) else policy
    name = policy_name(chosen)
    if name in PRESET_WORDS:
        return PRESET_WORDS[name]
    parts = [_meld_words(chosen), _layoff_words(chosen), _discard_words(chosen)]
    if not chosen.call:
        parts.append("never calls rummy on the board")
    text = "; ".join(parts)
    if chosen.evaluates and chosen.weights() != PRESETS[STRONGEST].weights():
        changed = [
            f"{key}={value}"
            for key, value in chosen.weights().items()
            if value != getattr(PRESETS[STRONGEST], key)
        ]
        text += f"; its evaluation differs from {STRONGEST}'s in {', '.join(changed)}"
    return text[0].upper() + text[1:] + "."


def _meld_words(policy: RummyPolicy) -> str:
    if policy.meld == "asap":
        return "lays down every meld as soon as it holds one"
    if policy.meld == "expert":
        return (
            "weighs holding its melds for Rummy against laying them down, turn by turn, "
            f"by {STRONGEST}'s evaluation"
        )
    limits = []
    if policy.hold_turns < 999:
        limits.append(f"through its own turn {policy.hold_turns}")
    if policy.hold_points < 999:
        limits.append(f"while at most {policy.hold_points} points sit in its melds")
    return "Holds its melds for Rummy " + (" and ".join(limits) if limits else "to the end")


def _layoff_words(policy: RummyPolicy) -> str:
    if policy.layoff == "keep":
        return "lays off only to go out"
    return "lays off every card it can whenever it plays"


def _discard_words(policy: RummyPolicy) -> str:
    return {
        "points": "throws the card leaving the least deadwood",
        "potential": "throws the loose card with the fewest partners",
        "expert": f"throws by {STRONGEST}'s evaluation (deadwood, risk, live cards, feeding)",
    }[policy.discard]


def preset_descriptions() -> dict[str, str]:
    """Every preset's paragraph, the strongest first."""
    return {STRONGEST: PRESET_WORDS[STRONGEST]} | {
        name: PRESET_WORDS[name] for name in PRESETS if name != STRONGEST
    }


def preset_records(
    deals: int,
    seed: int = 0,
    rules: RummyRules | None = None,
    opponents: tuple[str, ...] = ("simple", STRONGEST),
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Each preset against each of ``opponents`` at two players, ``deals`` deals per
    pair, seats rotated (the same deals for every pair).

    Returns one row per (``policy``, ``opponent``): ``win_rate`` (share of the hands,
    + 95% CI ``_lo`` / ``_hi``), ``margin`` (points per hand minus the opponent's, + CI),
    ``points_per_win`` (its points per hand it won, + CI), ``points_per_loss`` (the
    opponent's points per hand the opponent won, + CI) and ``rummy_share`` (the share of
    its wins that were Rummy).  The same preset against itself has margin 0 by symmetry
    only on average: its row measures the noise.
    """
    base = (rules or RummyRules()).replace(players=2)
    rows = []
    for name, policy in PRESETS.items():
        for opponent in opponents:
            result = simulate(
                base, [policy, PRESETS[opponent]], deals, seed, keep_rows=True, scheduler=scheduler
            )
            hands = result.rows
            assert hands is not None  # kept
            won = hands[hands.winner_player == 0].points.to_numpy(float)
            lost = hands[hands.winner_player == 1].points.to_numpy(float)
            rummies = result.player_rummies[0]
            rows.append(
                {
                    "policy": name,
                    "opponent": opponent,
                    **result.player_win_rate[0].as_columns("win_rate"),
                    **result.margin.as_columns("margin"),
                    **Estimate.of(won).as_columns("points_per_win"),
                    **Estimate.of(lost).as_columns("points_per_loss"),
                    "rummy_share": rummies / len(won) if len(won) else float("nan"),
                }
            )
    return pd.DataFrame(rows)


__all__ = [
    "EDGES_SOURCE",
    "EXPERT_EDGES",
    "PRESET_WORDS",
    "STRONGEST",
    "describe",
    "preset_descriptions",
    "preset_records",
]
