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

from collections.abc import Mapping, Sequence

from ...core.progress import Progress
from ..model.policies import PRESETS, Policy
from ..model.rules import Rules
from .principle_runs import (
    PANEL,
    Principle,
    PrinciplesRun,
    Roles,
    measure_arms,
    panel_members,
)

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


def rule_set() -> Policy:
    """The player's rule set as a policy (the ``principles`` preset)."""
    return PRESETS[RULE_SET]


def principle_words(principle: Principle) -> str:
    """The principle's sentence with the rule set's numbers in it."""
    policy = rule_set()
    discard = policy.discard
    return principle.words.format(
        out_points=discard.out_points,
        feed_points=discard.feed_points,
        late_stock=discard.late_stock,
    )


def arms() -> dict[str, Policy]:
    """The discard arms by label, the rule set first (the reference of every difference)."""
    base = rule_set()
    chosen: dict[str, Policy] = {RULE_SET: base}
    for principle in PRINCIPLES:
        chosen[f"without {principle.key}"] = base.changed(**principle.without)
    # the highest unmatched card with the same knock (discard=high would knock by the
    # schedule alone, without the expert's valuation of each knock)
    chosen["high"] = base.changed(out_points=0, feed_points=0)
    chosen["champion"] = PRESETS["expert"]
    chosen["marjj discard"] = base.changed(discard="marjj")
    return chosen


#: The naive discard a player already follows, in words.
NAIVE_RULE = "throw your highest unmatched card"
#: The arms with a role: the rule set, the naive rule (always the highest unmatched card)
#: and the champion.
ROLES = Roles(
    RULE_SET,
    "high",
    "champion",
    NAIVE_RULE,
    "the principles work through each other: counting only the cards that can still come "
    "and stopping late change only how melds to come are counted, so leaving out "
    "keep-melds takes theirs away too and that part is counted in more than one worth",
)


def measure_principles(
    rules: Rules,
    deals: int,
    seed: int,
    opponents: Sequence[str] | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    chosen: Mapping[str, Policy] | None = None,
) -> PrinciplesRun:
    """Every arm (``chosen``, default :func:`arms`; more arms for a fit of the rule's
    points, ``scripts/fit_principles.py``) against each of ``opponents`` (default: every
    member of :func:`panel_members`) on ``deals`` common deals from ``seed``, seats
    swapped (:func:`~analyzer.gin.studies.principle_runs.measure_arms`)."""
    return measure_arms(rules, deals, seed, chosen or arms(), ROLES, opponents, progress, scheduler)


__all__ = [
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
