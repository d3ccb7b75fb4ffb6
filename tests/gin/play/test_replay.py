"""A replayed hand's end as the engine scored it: the defender's layoffs, chains included."""

from analyzer.core.cards import to_indices, to_mask
from analyzer.gin.evaluator.api import min_deadwood
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.replay import replay


def test_the_layoffs_shown_leave_the_defender_the_deadwood_scored():
    chained = 0
    for deal in range(300):
        hand = replay(STANDARD, PRESETS["basic"], PRESETS["basic"], seed=1, deal=deal)
        if hand.outcome not in ("knock", "undercut", "tie"):
            continue
        defender = "B" if hand.knocker == "A" else "A"
        cards = to_mask(next(e.hand for e in reversed(hand.events) if e.player == defender))
        laid = to_mask(hand.layoffs)
        melded = sum(to_mask(meld) for meld in hand.defender_melds)
        assert laid & ~cards == 0 and melded & ~(cards & ~laid) == 0
        assert min_deadwood(cards & ~laid) == hand.defender_deadwood
        knocker_melded = sum(to_mask(meld) for meld in hand.knocker_melds)
        assert min_deadwood(knocker_melded | laid) == 0
        # a card laid off beyond another on a run fits none of the knocker's melds alone
        chained += any(min_deadwood(knocker_melded | 1 << c) > 0 for c in to_indices(laid))
    assert chained > 0
