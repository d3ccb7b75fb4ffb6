"""How should I discard?  The discard principles of the player's rule set
(:mod:`analyzer.gin.decisions.principles`), each measured by what leaving it out costs.

Every arm plays the champion's draw, knock and read of the opponent (the ``expert``
preset), so only the discard differs, on common deals with seats swapped, against each
opponent of the panel (:func:`panel_members`): the rule set (the ``principles`` preset),
the rule set without each principle, the rule set with no principle (always the highest
unmatched card, the baseline, labelled ``high``), the champion itself (its learned
discard) and MARJJ's discard (the published agent's next-draw term, with its own knock
check: the deadwood its throw leaves against the champion's knock tables, without the
expert's valuation of each knock).  The runs are
:mod:`analyzer.gin.studies.principle_runs`' (shared with the draw answer).
"""

from __future__ import annotations

from .principle_runs import PANEL, Principle, PrinciplesRun, Roles, RuleSet, panel_members

#: The preset of the player's rule set.
RULE_SET = "principles"


PRINCIPLES: tuple[Principle, ...] = (
    Principle(
        "keep-melds",
        {"out_points": 0},
        "Keep the cards that can still make melds: count each card {out_points} points "
        "cheaper for every card that would make a meld with it and another card you hold.",
        "the expected deadwood after the next draw (`learned_future`, its heaviest weight)",
    ),
    Principle(
        "no-feeding",
        {"feed_points": 0},
        "Don't feed your opponent: count a card {feed_points} points cheaper when it has the "
        "rank of, or is within two ranks in the suit of, a card your opponent took from the "
        "discard pile.",
        "the chance the opponent melds the card and MARJJ's table of its use to the opponent "
        "(`learned_danger`, `learned_table`)",
    ),
    Principle(
        "live-only",
        {"live_only": False},
        "Count only the cards that can still come: not those in the discard pile or taken by "
        "your opponent.",
        "the live outs (`learned_outs`)",
    ),
    Principle(
        "late",
        {"late_stock": 0},
        "Late in the hand ({late_stock} or fewer cards left in the stock), stop counting melds "
        "to come: a card is worth its points, still {feed_points} less when your opponent "
        "could use it.",
        "the next-draw term's smaller weight late in the hand and the card's points late "
        "(`learned_future_late`, `learned_late`)",
    ),
)


#: The naive discard a player already follows, in words.
NAIVE_RULE = "throw your highest unmatched card"
#: The discard rule set: its arms with a role are the rule set, the naive rule (always the
#: highest unmatched card, labelled ``high``, with the same knock: ``discard=high`` would
#: knock by the schedule alone, without the expert's valuation of each knock) and the
#: champion; MARJJ's discard is one more arm.
DISCARD = RuleSet(
    RULE_SET,
    "discard",
    PRINCIPLES,
    Roles(
        RULE_SET,
        "high",
        "champion",
        NAIVE_RULE,
        "the principles work through each other: counting only the cards that can still "
        "come and stopping late change only how melds to come are counted, so leaving out "
        "keep-melds takes theirs away too and that part is counted in more than one worth",
    ),
    {"out_points": 0, "feed_points": 0},
    ("marjj discard", {"discard": "marjj"}),
)
ROLES = DISCARD.roles
rule_set = DISCARD.policy
principle_words = DISCARD.words
arms = DISCARD.arms
measure_principles = DISCARD.measure

__all__ = [
    "DISCARD",
    "NAIVE_RULE",
    "PANEL",
    "PRINCIPLES",
    "ROLES",
    "RULE_SET",
    "Principle",
    "PrinciplesRun",
    "arms",
    "measure_principles",
    "panel_members",
    "principle_words",
    "rule_set",
]
