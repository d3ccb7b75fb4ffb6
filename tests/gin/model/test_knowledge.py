"""Each knowledge rule on scripted decks: refused upcards, cards taken and later thrown,
the discard log, exposure at the knock (layoffs included), and the derived live/dead
cards; plus invariants over random self-play."""

import numpy as np

from analyzer.core import cards
from analyzer.core.rng import shuffle_deck, stream_key
from analyzer.gin.engine.transitions import (
    Phase,
    Slot,
    apply_discard,
    apply_draw,
    deck_order,
    new_hand,
    new_scratch,
    new_state,
    play_from_deck,
    step,
)
from analyzer.gin.model.knowledge import (
    dead_cards,
    hidden_count,
    live_cards,
    took_then_threw,
    unseen_cards,
)
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import Rules

from ..scripted import bit, card, dealt, mask

STANDARD = Rules()
RULES = STANDARD.to_array()


def policies(a, b):
    return np.stack([PRESETS[a].to_array(), PRESETS[b].to_array()])


NON_DEALER = "As 2s 3s 4c 5c 6c 7h 8h Kd Qd"
DEALER = "Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks"


def test_both_pass_the_opening_upcard_so_both_refused_it():
    state = dealt(NON_DEALER, DEALER, "Js", "9d 5h")
    rng = np.zeros(1, dtype=np.uint64)
    scratch = new_scratch()
    passive = policies("passive", "passive")
    step(state, RULES, passive, rng, scratch)  # the non-dealer passes
    assert state[Slot.REFUSED + 0] == bit("Js") and state[Slot.REFUSED + 1] == 0
    step(state, RULES, passive, rng, scratch)  # the dealer passes
    assert state[Slot.REFUSED + 1] == bit("Js")
    assert state[Slot.PHASE] == Phase.DRAW and state[Slot.TURN] == 0
    step(state, RULES, passive, rng, scratch)  # forced stock draw: not a second refusal
    assert state[Slot.HAND + 0] & bit("9d")
    assert state[Slot.REFUSED + 0] == bit("Js")


def test_drawing_from_the_stock_refuses_the_pile_top():
    state = dealt(NON_DEALER, DEALER, "Js", "9d 5h 6h")
    state[Slot.OFFERS], state[Slot.PHASE] = 2, Phase.DRAW  # both passed
    apply_draw(state, False)
    apply_discard(state, card("9d"), False, RULES)
    # the dealer draws from the stock with 9d on top
    apply_draw(state, False)
    assert state[Slot.REFUSED + 1] == bit("9d")
    assert state[Slot.HAND + 1] & bit("5h")


def test_a_card_taken_and_later_thrown():
    state = dealt(NON_DEALER, DEALER, "9h", "2h 3h 4h")
    state[Slot.OFFERS], state[Slot.PHASE] = 0, Phase.DRAW
    apply_draw(state, True)  # seat 0 takes 9h
    assert state[Slot.TOOK + 0] == bit("9h") and state[Slot.HELD + 0] == bit("9h")
    apply_discard(state, card("Kd"), False, RULES)
    assert hidden_count(state, np.int64(1)) == 9  # one of seat 0's ten cards is known
    apply_draw(state, False)  # seat 1 draws 2h
    apply_discard(state, card("Ks"), False, RULES)
    apply_draw(state, False)  # seat 0 draws 3h
    apply_discard(state, card("9h"), False, RULES)  # and throws the card it took
    assert state[Slot.HELD + 0] == 0
    assert took_then_threw(state, np.int64(0)) == bit("9h")
    assert state[Slot.THREW + 0] == bit("Kd") | bit("9h")
    # the log keeps who threw each card and when (2 * draws + thrower + 1)
    assert state[Slot.LOG + card("Kd")] == 2 * 1 + 0 + 1
    assert state[Slot.LOG + card("Ks")] == 2 * 2 + 1 + 1
    assert state[Slot.LOG + card("9h")] == 2 * 3 + 0 + 1
    assert state[Slot.LOG + card("As")] == 0


def test_known_cards_and_the_unseen_live_and_dead_cards():
    state = dealt(NON_DEALER, DEALER, "9h", "2h 3h 4h")
    state[Slot.OFFERS], state[Slot.PHASE] = 0, Phase.DRAW
    apply_draw(state, True)  # seat 0 takes 9h
    apply_discard(state, card("Kd"), False, RULES)
    apply_draw(state, False)  # seat 1 draws 2h and throws Ks over Kd
    apply_discard(state, card("Ks"), False, RULES)
    observer = np.int64(1)
    seen = mask(DEALER) | bit("2h")
    seen &= ~bit("Ks")
    assert state[Slot.HAND + 1] == seen
    # seat 1 knows its hand, the pile (Kd, Ks) and that seat 0 holds 9h
    expected_unseen = ((1 << 52) - 1) & ~seen & ~(bit("Kd") | bit("Ks")) & ~bit("9h")
    assert unseen_cards(state, observer) == expected_unseen
    assert dead_cards(state, observer) == bit("Kd") | bit("9h")  # Ks is the live top
    assert live_cards(state, observer) == expected_unseen | bit("Ks")
    assert hidden_count(state, observer) == 9


def test_a_knock_exposes_both_hands_and_the_laid_off_cards():
    # the non-dealer takes 9h (7h 8h 9h) and knocks with 10; the defender lays 7c 8c off
    # on 4c 5c 6c (scenario A of test_engine)
    deck = deck_order(cards.parse_hand(NON_DEALER), cards.parse_hand(DEALER), card("9h"), [])
    state = play_from_deck(deck, 1, RULES, policies("basic", "basic"))
    assert state[Slot.DEFENDER_DEADWOOD] == 20
    knocker_hand = mask(NON_DEALER) | bit("9h")
    knocker_hand &= ~bit("Kd")
    assert state[Slot.EXPOSED + 0] == knocker_hand == state[Slot.HAND + 0]
    assert state[Slot.EXPOSED + 1] == mask(DEALER)
    assert state[Slot.EXPOSED + 1] & (bit("7c") | bit("8c")) == bit("7c") | bit("8c")


def test_knowledge_invariants_over_random_self_play():
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.empty(52, dtype=np.int8)
    scratch = new_scratch()
    for name in ("basic", "expert", "simple"):
        pair = policies(name, "basic")
        for deal in range(150):
            state = new_state()
            rng[0] = stream_key(np.int64(3), np.int64(deal))
            shuffle_deck(rng, deck)
            new_hand(state, deck, np.int64(deal % 2), RULES)
            while state[Slot.PHASE] != Phase.DONE:
                step(state, RULES, pair, rng, scratch)
                for player in range(2):
                    hand = state[Slot.HAND + player]
                    # a card of a hand that its holder ever took came from the pile
                    assert state[Slot.HELD + player] == state[Slot.TOOK + player] & hand
                    # a refused card was on the pile; none is in the refuser's hand
                    # unless it took it later
                    refused = state[Slot.REFUSED + player]
                    assert refused & hand & ~state[Slot.TOOK + player] == 0
                    observer = np.int64(player)
                    unseen = unseen_cards(state, observer)
                    # the opponent's hidden cards are all unseen
                    hidden = state[Slot.HAND + 1 - player] & ~state[Slot.HELD + 1 - player]
                    assert hidden & ~unseen == 0
                    assert bin(hidden).count("1") == hidden_count(state, observer)
            thrown = np.flatnonzero(state[Slot.LOG : Slot.LOG + 52])
            assert set(thrown) == {
                c for c in range(52) if (state[Slot.THREW] | state[Slot.THREW + 1]) >> c & 1
            }


def test_the_alert_knock_schedule_applies_while_the_opponent_holds_a_pile_card():
    from analyzer.gin.model.policies import parse_policy
    from analyzer.gin.model.state import knock_threshold

    policy = parse_policy("basic,knock=1:10/7:0,knock_alert=1:4/4:0").to_array()
    state = dealt(NON_DEALER, DEALER, "9h", "2h 3h 4h")
    state[Slot.OWN_TURNS + 1] = 2
    assert knock_threshold(state, np.int64(1), policy) == 10  # seat 0 holds no pile card
    state[Slot.OFFERS], state[Slot.PHASE] = 0, Phase.DRAW
    apply_draw(state, True)  # seat 0 takes 9h: the signal is on for seat 1
    assert knock_threshold(state, np.int64(1), policy) == 4
    assert knock_threshold(state, np.int64(0), policy) == 10  # seat 1 took nothing
    state[Slot.OWN_TURNS + 1] = 8
    assert knock_threshold(state, np.int64(1), policy) == 0
    apply_discard(state, card("9h"), False, RULES)  # thrown back: the signal is off
    assert knock_threshold(state, np.int64(1), policy) == 0  # turn 8: gin only either way
    state[Slot.OWN_TURNS + 1] = 2
    assert knock_threshold(state, np.int64(1), policy) == 10
