"""The ``marjj`` replica follows MARJJ's published rules on hand-worked positions, and
answers as the original did on short games logged in the EAAI framework."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from analyzer.core import cards
from analyzer.core.rng import stream_key
from analyzer.gin.decisions.marjj import (
    framework_melds,
    marjj_choices,
    marjj_discard,
    marjj_seen,
    marjj_wants_upcard,
    opponent_score,
)
from analyzer.gin.engine.transitions import Phase, Slot, play_from_deck
from analyzer.gin.model.describe import explain_policy
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.model.policy_fields import (
    DISCARD_RULES,
    DRAW_RULES,
    DiscardRule,
    DrawRule,
    PolicyField,
)
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS

from .. import scripted
from ..scripted import bit, card, mask

MARJJ = PRESETS["marjj"]
EAAI = RULE_PRESETS["eaai"].to_array()
ROOT = Path(__file__).resolve().parents[3]
LOG = Path(__file__).parents[1] / "data" / "marjj_games.jsonl"


def position(hand, own_turns=1, threw="", opponent_threw="", opponent_took=""):
    """Seat 0 (non-dealer; the first upcard was 2D, offered to it first) to throw from the
    11 ``hand`` cards on its turn ``own_turns``; it threw ``threw`` before, the opponent
    threw ``opponent_threw`` and took ``opponent_took`` from the pile."""
    state = scripted.dealt("", "", "2D", "")
    state[Slot.HAND] = mask(hand)
    state[Slot.HAND + 1] = mask(opponent_took) if opponent_took else 0
    state[Slot.PHASE], state[Slot.TURN], state[Slot.TAKEN] = Phase.DISCARD, 0, -1
    state[Slot.OWN_TURNS] = own_turns
    state[Slot.KNOCK_LIMIT] = 10
    for slot, text in (
        (Slot.THREW, threw),
        (Slot.THREW + 1, opponent_threw),
        (Slot.TOOK + 1, opponent_took),
    ):
        state[slot] = mask(text) if text else 0
    return state


def choices(state):
    found = int(marjj_choices(state, np.int64(0), np.zeros(52, np.int64), np.zeros(0, np.int64)))
    return {cards.format_card(c) for c in range(52) if found >> c & 1}


def discard(state, seed=1):
    scratch, work = np.zeros(52, np.int64), np.zeros(52, np.int64)
    rng = np.array([stream_key(np.int64(seed), np.int64(0))], dtype=np.uint64)
    found, knock = marjj_discard(state, np.int64(0), MARJJ.to_array(), rng, scratch, work)
    return cards.format_card(int(found)), bool(knock)


def offer(hand, upcard, opponent_threw=""):
    """Seat 0 (non-dealer) offered ``upcard`` (the pile's top) holding 10 ``hand`` cards."""
    state = scripted.dealt(hand, "", upcard, "")
    state[Slot.THREW + 1] = mask(opponent_threw) if opponent_threw else 0
    return bool(marjj_wants_upcard(state, np.int64(0), np.zeros(52, np.int64)))


def test_preset_parses_formats_and_is_described():
    assert format_policy(MARJJ) == "draw=marjj,discard=marjj,knock=1:10/4:0"
    assert parse_policy("draw=marjj,discard=marjj,knock=1:10/4:0") == MARJJ
    assert parse_policy("marjj,knock=7").knock.schedule == ((1, 7),)
    row = MARJJ.to_array()
    assert row[PolicyField.DRAW] == DrawRule.MARJJ and row[PolicyField.DISCARD] == DiscardRule.MARJJ
    assert "MARJJ" in explain_policy(MARJJ)
    # the best-response search's rule lists are unchanged
    assert "marjj" not in DRAW_RULES and "marjj" not in DISCARD_RULES


# ---------------------------------------------------------------- draw


def test_draw_needs_a_lower_deadwood_not_only_a_meld():
    # gin in hand: 9S extends a run but cannot lower 0 deadwood
    assert not offer("2C 3C 4C 5H 5D 5S TS JS QS KS", "9S")
    # the same card lowering the deadwood of a hand holding a king is taken
    assert offer("2C 3C 4C 5H 5D 5S TS JS QS KD", "9S")
    # a card lowering the deadwood without melding (AH for KD) is not
    assert not offer("2C 3C 4C 5H 5D 5S TS JS QS KD", "AH")


def test_draw_follows_the_meld_set_least_exposed_to_layoffs():
    # 8S makes 8S-9S-TS (leaving 9H 9D: 18) or sits beside 9S-9H-9D (leaving 8S TS: 18):
    # two best meld sets of the 11 cards.  With 7S and JS unseen the run is exposed for
    # 8 + 10 points, the set for 9 (9C unseen): MARJJ lays the set down, so 8S is not
    # in its melds and it refuses the card that lowers its deadwood 10 -> 8.
    hand = "9S TS 9H 9D 2C 3C 4C 2H 3H 4H"
    assert not offer(hand, "8S")
    # once the opponent threw 7S and JS the run is exposed for 0 points: it takes 8S
    assert offer(hand, "8S", opponent_threw="7S JS")


def test_framework_meld_order_runs_by_its_suits_then_sets():
    out = np.zeros(160, np.int64)
    count = framework_melds(np.int64(mask("2C 3C 4C 5C 7H 7D 7S 7C 8H 9H")), out)
    melds = [cards.format_hand(int(m)) for m in out[:count]]
    # runs: clubs, hearts (the framework's second suit), then sets of 7: missing C, H, S,
    # D in its suit order, then all four
    assert melds[:4] == [
        cards.format_hand(mask(t)) for t in ("2C 3C 4C", "2C 3C 4C 5C", "3C 4C 5C", "7H 8H 9H")
    ]
    assert melds[4:] == [
        cards.format_hand(mask(t))
        for t in ("7H 7S 7D", "7C 7S 7D", "7C 7H 7D", "7C 7H 7S", "7C 7H 7S 7D")
    ]


def test_seen_leaves_out_the_upcard_the_opponent_took_before_it_was_offered():
    state = scripted.dealt("2C 3C", "", "KD", "")  # seat 1 deals, seat 0 is offered first
    assert marjj_seen(state, np.int64(0)) & bit("KD")
    assert marjj_seen(state, np.int64(1)) & bit("KD")  # on the pile: offered to seat 1 next
    state[Slot.TOOK] = bit("KD")  # seat 0 took it: seat 1 never saw it offered
    assert not marjj_seen(state, np.int64(1)) & bit("KD")
    assert marjj_seen(state, np.int64(0)) & bit("KD")


# ---------------------------------------------------------------- discard and knock

MELDED = "2C 3C 4C 5H 5D 5S 9S TS JS"


def test_candidates_within_five_points_of_the_costliest_unmelded_card():
    # unmelded KD (10) and 4H (4): 4H is more than 5 points below, KD is thrown at once
    assert choices(position(MELDED + " KD 4H")) == {"Kd"}
    # 6H (6) is within 5 points of KD: both are candidates and the scores decide
    assert choices(position(MELDED + " KD 6H")) <= {"Kd", "6h"}


def test_a_card_melded_in_one_best_set_is_a_candidate_when_unmelded_in_another():
    # 8S 9S TS or 9S 9H 9D (both leave 18 with 2C..4H melded): 8S, 9H, 9D and TS are
    # each unmelded in some best meld set; 8S, TS (and 9H, 9D) stay within 5 points
    state = position("8S 9S TS 9H 9D 2C 3C 4C 2H 3H 4H")
    assert choices(state) <= {"8s", "Ts", "9h", "9d"}
    scratch = np.zeros(52, np.int64)
    marjj_choices(state, np.int64(0), scratch, np.zeros(0, np.int64))
    for text, left in (("8S", 18 - 8), ("TS", 18 - 10), ("9H", 18 - 9), ("9D", 18 - 9)):
        assert scratch[card(text)] == left


def test_knocks_on_its_first_three_turns_then_only_with_gin():
    hand = MELDED + " KD 4H"  # throwing KD leaves 4 points
    assert discard(position(hand, own_turns=1)) == ("Kd", True)
    assert discard(position(hand, own_turns=3)) == ("Kd", True)
    assert discard(position(hand, own_turns=4)) == ("Kd", False)
    assert discard(position(MELDED + " QS KD", own_turns=9)) == ("Kd", True)  # gin


def test_a_card_just_taken_from_the_pile_is_never_thrown():
    state = position(MELDED + " KD 4H")
    state[Slot.TAKEN] = card("KD")
    assert choices(state) == {"4h"}


def test_opponent_model_scores_on_hand_worked_cards():
    def score(text, hand="", seen="", took=""):
        return opponent_score(
            np.int64(card(text)),
            np.int64(mask(hand + " " + text)),
            np.int64(mask(seen + " " + text)),
            np.int64(mask(took) if took else 0),
        )

    # a lone ace: below it nothing (-5) and nothing two below (-3); the same-rank count
    # includes the card itself, so one "unavailable" card costs the rank penalty (+4)
    assert score("AC") == -5 - 3 + 4
    # the opponent took 6H and 8H: 7H completes its run (+20), +4 as above
    assert score("7H", took="6H 8H") == 20 + 4
    # the opponent took two sevens: 7H completes its set (+20); no rank penalty then
    assert score("7H", took="7C 7S") == 20
    # a queen whose king the opponent took: +5 for that, and the original's slip marks
    # the king "unavailable" as well (-5), then +4 for the rank
    assert score("QS", took="KS") == 5 - 5 + 4
    # jack and ten of the suit seen (thrown), two other queens seen: no run (-10), and
    # three unavailable queens counting itself (-10)
    assert score("QS", seen="JS TS QC QD") == -10 - 10


def test_opponent_model_turns_a_tie_between_symmetric_kings():
    # KD and KH are alike for the hand and the unseen cards (QD and QH both thrown by
    # this player): a tie.  Once the opponent took QD, KD feeds its run: KH is thrown.
    hand = "2C 3C 4C 5H 5D 9S TS JS 5C KD KH"
    assert choices(position(hand, own_turns=5, threw="QD QH")) == {"Kd", "Kh"}
    assert choices(position(hand, own_turns=5, threw="QD QH", opponent_took="QD")) == {"Kh"}
    took = mask("QD")
    seen = int(marjj_seen(position(hand, threw="QD QH", opponent_took="QD"), np.int64(0)))
    assert (
        opponent_score(np.int64(card("KD")), np.int64(mask(hand)), np.int64(seen), np.int64(took))
        == -5 + 5 - 4
    )
    assert (
        opponent_score(np.int64(card("KH")), np.int64(mask(hand)), np.int64(seen), np.int64(took))
        == -10 - 4
    )


def test_plays_whole_hands_reproducibly():
    policies = np.stack([MARJJ.to_array(), PRESETS["eaai-simple"].to_array()])
    rng = np.random.default_rng(5)
    for deal in range(3):
        deck = rng.permutation(52).astype(np.int8)
        first = play_from_deck(deck, deal % 2, EAAI, policies, deal)
        again = play_from_deck(deck, deal % 2, EAAI, policies, deal)
        assert (first == again).all() and first[Slot.PHASE] == Phase.DONE


# ---------------------------------------------------------------- the original's games


@pytest.fixture(scope="module")
def agreement():
    path = ROOT / "scripts" / "eaai" / "replica_agreement.py"
    spec = importlib.util.spec_from_file_location("replica_agreement", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.replay([LOG], "marjj", show=3)


def test_replica_answers_as_the_original_on_logged_games(agreement):
    # every question of the logged hands: draws, discards (up to the original's coin
    # flips between tied cards) and knocks
    assert agreement["hands"] >= 4 and agreement["questions"] >= 100
    assert agreement["draw"]["agree"] == 1.0, agreement["disagreements"]
    assert agreement["discard"]["agree_tie_aware"] == 1.0, agreement["disagreements"]
    assert agreement["knock"]["agree"] == 1.0, agreement["disagreements"]
    assert agreement["knock"]["original_knocks"] >= 1
