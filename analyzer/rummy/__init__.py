"""Plain rummy (not gin): rules as data, a numba hand engine, simulations and studies.

The game is the one described by the seed documents 000 and 004: players draw from the
stock or take the top discard, meld sets and runs face up, lay off onto melds on the
table and discard; the first to get rid of every card wins the point value of the cards
left in the other hands, doubled for going out "Rummy" in one turn.
"""

from .policies import POLICY_PRESETS, RummyPolicy, parse_policy
from .rules import RULE_PRESETS, RummyRules, rules_from_options
from .simulate import SimulationResult, simulate, simulate_games

__all__ = [
    "POLICY_PRESETS",
    "RULE_PRESETS",
    "RummyPolicy",
    "RummyRules",
    "SimulationResult",
    "parse_policy",
    "rules_from_options",
    "simulate",
    "simulate_games",
]
