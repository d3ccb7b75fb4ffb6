"""Plain rummy (not gin): rules as data, a numba hand engine, simulations and studies.

The game is the one described by the seed documents 000 and 004: players draw from the
stock or take the top discard, meld sets and runs face up, lay off onto melds on the
table and discard; the first to get rid of every card wins the point value of the cards
left in the other hands, doubled for going out "Rummy" in one turn.

The players are the scripted presets and ``rummy-expert``, the strongest, which weighs
holding for Rummy against playing and chooses its throws by an evaluation fitted from
simulated deals (:mod:`analyzer.rummy.expert`, :mod:`analyzer.rummy.fit`).
:class:`Hand` plays one hand move by move (:class:`PracticeHand`: with hints and a
review in words, for a practice table); :func:`how_to_play` and :func:`option_values` measure what the expert's
principles and the rule options are worth; :func:`describe` says what a policy does.
"""

from .describe import STRONGEST, describe, preset_descriptions
from .hand import Hand
from .lessons import how_to_play, option_values
from .moves import Move
from .policies import PRESETS as POLICY_PRESETS
from .policies import PolicyField, RummyPolicy, format_policy, parse_policy, policy_name
from .practice import PracticeHand
from .rules import PRESETS as RULE_PRESETS
from .rules import RuleField, RummyRules, resolve_rules
from .simulate import GameResult, HandResult, deal_margins, play_games, simulate

__all__ = [
    "POLICY_PRESETS",
    "RULE_PRESETS",
    "STRONGEST",
    "GameResult",
    "Hand",
    "HandResult",
    "Move",
    "PolicyField",
    "PracticeHand",
    "RuleField",
    "RummyPolicy",
    "RummyRules",
    "deal_margins",
    "describe",
    "format_policy",
    "how_to_play",
    "option_values",
    "parse_policy",
    "play_games",
    "policy_name",
    "preset_descriptions",
    "resolve_rules",
    "simulate",
]
