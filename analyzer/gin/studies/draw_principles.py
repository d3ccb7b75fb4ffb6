"""Should I take the upcard?  The draw principles of the player's rule set
(:mod:`analyzer.gin.decisions.draw_principles`), each measured by what leaving it out costs.

Built as the discard answer is (:mod:`analyzer.gin.studies.discard_principles`): every arm
plays the champion's discard, knock and read of the opponent (the ``expert`` preset), so
only the draw differs, on common deals with seats swapped, against each opponent of the
panel (:func:`~analyzer.gin.studies.principle_runs.panel_members`): the rule set (the
``draw-principles`` preset), the rule set without each principle, the naive draw (take
the upcard only when it completes a meld: the ``meld`` draw, labelled ``meld``), the
champion itself (its card-tracking draw) and MARJJ's draw.  The runs are
:mod:`analyzer.gin.studies.principle_runs`'.
"""

from __future__ import annotations

from .principle_runs import PANEL, Principle, Roles, RuleSet

#: The preset of the player's rule set.
RULE_SET = "draw-principles"
#: The naive draw's arm.
NAIVE = "meld"
#: The naive draw a player already follows, in words.
NAIVE_RULE = "take the upcard only when it completes a meld"

PRINCIPLES: tuple[Principle, ...] = (
    Principle(
        "melds",
        {"take_melds": False},
        "Take the upcard when it makes a meld with cards you hold (in your best arrangement).",
        "the champion's first clause: it takes every card a best arrangement melds",
    ),
    Principle(
        "lower",
        {"take_points": 0},
        "Otherwise take it when, after your best throw, it takes {take_points} or more "
        "points off your deadwood.",
        "the champion's second clause: it takes a card that improves its hand value by "
        "more than `take_margin`",
    ),
    Principle(
        "outs",
        {"take_out_points": 0},
        "Count {take_out_points} points more for each unseen card that would make a meld "
        "with the upcard and another card you hold, and as many less for each that would "
        "with the card you throw.",
        "the live outs in the champion's hand value (`outs`, weighed by the share of the "
        "stock still to come)",
    ),
)


#: The draw rule set: its arms with a role are the rule set, the naive draw and the
#: champion; MARJJ's draw is one more arm.  The rule without its points takes only the
#: cards a best arrangement melds: the meld draw exactly, and the same policy as "without
#: lower", so the two are played once.
DRAW = RuleSet(
    RULE_SET,
    "draw",
    PRINCIPLES,
    Roles(
        RULE_SET,
        NAIVE,
        "champion",
        NAIVE_RULE,
        "the naive rule already takes the cards that meld, so the melds principle's worth "
        "is no part of the gain; without lower the rule is the naive rule itself, so "
        "lower's worth is the whole gain; and outs counts only inside lower, so its worth "
        "is part of lower's",
    ),
    {"take_points": 0},
    ("marjj draw", {"draw": "marjj"}),
)
ROLES = DRAW.roles
rule_set = DRAW.policy
principle_words = DRAW.words
arms = DRAW.arms
measure_draw_principles = DRAW.measure

__all__ = [
    "DRAW",
    "NAIVE",
    "NAIVE_RULE",
    "PANEL",
    "PRINCIPLES",
    "ROLES",
    "RULE_SET",
    "arms",
    "measure_draw_principles",
    "principle_words",
    "rule_set",
]
