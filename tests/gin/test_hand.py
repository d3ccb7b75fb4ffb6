"""The Hand API: moves through the engine's kernels, seat views, legality and errors."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.cards import parse_card
from analyzer.gin.engine import Slot, deck_order, play_from_deck
from analyzer.gin.hand import Hand, Move
from analyzer.gin.policies import PRESETS as POLICIES
from analyzer.gin.rules import PRESETS as RULES


def _cards(text: str) -> list[int]:
    return [parse_card(token) for token in text.split()]


def test_full_hand_plays_like_the_engine():
    """Hand.play_on with a policy ends in the same state as the engine's own loop."""
    for seed in range(6):
        hand = Hand.deal(RULES["standard"], seed=seed, dealer=seed % 2)
        deck = hand.state[Slot.DECK:Slot.DECK + 52].astype(np.int8)  # the deck order it was dealt from
        policies = np.stack([POLICIES["expert"].to_array(), POLICIES["simple"].to_array()])
        engine = play_from_deck(deck, seed % 2, RULES["standard"].to_array(), policies,
                                policy_seed=seed)
        hand.play_on((POLICIES["expert"], POLICIES["simple"]))
        assert np.array_equal(hand.state, engine)


def test_legal_moves_follow_the_phases():
    deck = deck_order(_cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh"),
                      _cards("7c 7d 8h 8s Tc Td Jc Js Qh Kh"), parse_card("6s"), [])
    hand = Hand.deal(RULES["standard"], deck=deck, dealer=1)
    assert hand.phase == "offer" and hand.to_move == 0
    assert hand.legal_moves() == [Move("pass"), Move("take")]
    hand.play(Move("take"))
    assert hand.taken == parse_card("6s") and hand.held(0) == (parse_card("6s"),)
    moves = hand.legal_moves()
    assert Move("discard", parse_card("6s")) not in moves  # the card just taken
    assert Move("knock", parse_card("9h")) not in moves  # 9d + Kc + Qd + Jh left: over 10
    with pytest.raises(ValueError, match="not legal"):
        hand.play(Move("discard", parse_card("6s")))
    hand.play(Move("discard", parse_card("Kc")))
    assert hand.phase == "draw" and hand.to_move == 1 and hand.pile_top == parse_card("Kc")
    assert hand.threw(0) == (parse_card("Kc"),)


def test_both_refusals_force_the_first_draw():
    hand = Hand.deal(seed=3)
    hand.play(Move("pass"))
    hand.play(Move("pass"))
    assert hand.legal_moves() == [Move("draw")]
    assert hand.refused(0) == hand.refused(1) == (hand.upcard,)


def test_seat_view_records_what_the_seat_sees():
    cards = _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh")
    view = Hand.seat_view(0, cards, dealer=1, rules=RULES["eaai"], scores=(40, 75))
    assert view.scores == (40, 75)
    assert view.state[Slot.RULE_GIN_BONUS] == RULES["eaai"].gin_bonus  # the rules a knock is valued by
    view.turn_upcard(parse_card("8c"))
    view.play(Move("pass"))
    view.opponent_plays(Move("take"))
    assert view.held(1) == (parse_card("8c"),) and view.taken == parse_card("8c")
    view.opponent_plays(Move("discard", parse_card("Ks")))  # a card the view never saw
    assert view.held(1) == (parse_card("8c"),) and view.threw(1) == (parse_card("Ks"),)
    assert view.refused(0) == (parse_card("8c"),)
    with pytest.raises(ValueError, match="names the card"):
        view.play(Move("draw"))
    view.play(Move("draw"), drawn=parse_card("6s"))
    assert parse_card("6s") in view.cards(0) and view.stock_left == 30
    with pytest.raises(ValueError, match="not legal"):
        view.play(Move("discard", parse_card("Ks")))  # not in this seat's hand


def test_seat_view_refuses_impossible_reports():
    view = Hand.seat_view(1, _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh"), dealer=1)
    with pytest.raises(ValueError, match="already seen"):
        view.turn_upcard(parse_card("As"))
    view.turn_upcard(parse_card("8c"))
    view.opponent_plays(Move("pass"))
    with pytest.raises(ValueError, match="opponent_plays is for"):
        view.opponent_plays(Move("pass"))  # seat 1's own move now
    with pytest.raises(ValueError, match="dealt 10 cards"):
        Hand.seat_view(0, _cards("As 2s"), dealer=0)
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        Hand.seat_view(7, _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh"), dealer=0)


def test_decide_leaves_the_state_alone_and_copy_is_independent():
    hand = Hand.deal(seed=5)
    before = hand.state.copy()
    move = hand.decide(POLICIES["expert"])
    assert np.array_equal(hand.state, before) and move in hand.legal_moves()
    other = hand.copy()
    other.play(move)
    assert np.array_equal(hand.state, before)


@pytest.mark.parametrize(("kind", "card", "text"), [
    ("fold", None, "unknown move"), ("discard", None, "needs card"), ("pass", 3, "takes no"),
    ("knock", 60, "not 0-51")])
def test_bad_moves_are_value_errors(kind, card, text):
    with pytest.raises(ValueError, match=text):
        Move(kind, card)
