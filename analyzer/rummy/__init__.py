"""Plain rummy (not gin): rules as data, a numba hand engine, simulations and studies.

The game is the one described by the seed documents 000 and 004: players draw from the
stock or take the top discard, meld sets and runs face up, lay off onto melds on the
table and discard; the first to get rid of every card wins the point value of the cards
left in the other hands, doubled for going out "Rummy" in one turn.
"""

from .policies import PRESETS as POLICY_PRESETS
from .policies import PolicyField, RummyPolicy, format_policy, parse_policy, policy_name
from .rules import PRESETS as RULE_PRESETS
from .rules import RuleField, RummyRules, resolve_rules
from .simulate import GameResult, HandResult, play_games, simulate

__all__ = [
    "POLICY_PRESETS",
    "RULE_PRESETS",
    "GameResult",
    "HandResult",
    "PolicyField",
    "RuleField",
    "RummyPolicy",
    "RummyRules",
    "format_policy",
    "parse_policy",
    "play_games",
    "policy_name",
    "resolve_rules",
    "simulate",
]
