"""The Hand API: moves through the engine's kernels, seat views, legality and errors."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.cards import parse_card
from analyzer.gin.engine.transitions import Slot, deck_order, play_from_deck
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.hand import Hand
from analyzer.gin.play.moves import Move


def _cards(text: str) -> list[int]:
    return [parse_card(token) for token in text.split()]


def test_full_hand_plays_like_the_engine():
    """Hand.play_on with a policy ends in the same state as the engine's own loop."""
    for seed in range(6):
        hand = Hand.deal(RULES["standard"], seed=seed, dealer=seed % 2)
        deck = hand.state[Slot.DECK : Slot.DECK + 52].astype(
            np.int8
        )  # the deck order it was dealt from
        policies = np.stack([POLICIES["expert"].to_array(), POLICIES["simple"].to_array()])
        engine = play_from_deck(
            deck, seed % 2, RULES["standard"].to_array(), policies, policy_seed=seed
        )
        hand.play_on((POLICIES["expert"], POLICIES["simple"]))
        assert np.array_equal(hand.state, engine)


def test_legal_moves_follow_the_phases():
    deck = deck_order(
        _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh"),
        _cards("7c 7d 8h 8s Tc Td Jc Js Qh Kh"),
        parse_card("6s"),
        [],
    )
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
    assert (
        view.state[Slot.RULE_GIN_BONUS] == RULES["eaai"].gin_bonus
    )  # the rules a knock is valued by
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
    with pytest.raises(ValueError, match=r"^As was already seen in this hand$"):
        view.turn_upcard(parse_card("As"))
    view.turn_upcard(parse_card("8c"))
    with pytest.raises(ValueError, match=r"^the upcard is already known to be 8c, not 9c$"):
        view.turn_upcard(parse_card("9c"))
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
    # the work space too: it holds the inference the draw decision cached for the discard
    assert np.array_equal(other.scratch, hand.scratch) and other.scratch is not hand.scratch
    other.play(move)
    assert np.array_equal(hand.state, before)


@pytest.mark.parametrize(
    ("kind", "card", "text"),
    [
        ("fold", None, "unknown move"),
        ("discard", None, "needs card"),
        ("pass", 3, "takes no"),
        ("knock", 60, "bad card index 60: expected an integer 0-51"),
        ("knock", -1, "bad card index -1"),
        ("discard", "Kd", "bad card index 'Kd'"),
        ("discard", True, "bad card index True"),
        ("discard", 3.0, "bad card index 3.0"),
    ],
)
def test_bad_moves_are_value_errors(kind, card, text):
    with pytest.raises(ValueError, match=text):
        Move(kind, card)


def test_wall_hands_play_like_the_engine():
    """With ``stock_rule=wall`` (OpenSpiel's rules) hands that reach a stock of two play as
    in the engine's loop, the take to knock at the wall included."""
    rules, passive = RULES["openspiel"], POLICIES["passive"]
    at_the_wall = []
    for seed in (18, 250, 280):  # deals that reach the wall; at 250 and 280 a take to knock
        hand = Hand.deal(rules, seed=seed, dealer=seed % 2)
        deck = hand.state[Slot.DECK : Slot.DECK + 52].astype(np.int8)
        engine = play_from_deck(
            deck, seed % 2, rules.to_array(), np.stack([passive.to_array()] * 2), policy_seed=seed
        )
        while not hand.done:
            move = hand.decide(passive)
            if hand.phase == "draw" and hand.stock_left <= 2:
                assert Move("end") in hand.legal_moves() and move in hand.legal_moves()
                at_the_wall.append(move.kind)
            hand.play(move)
        assert np.array_equal(hand.state, engine)
    assert at_the_wall == ["end", "take", "take"]


def test_a_seat_view_takes_the_opponents_wall_knock_and_a_throw_back_when_allowed():
    cards = _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh")
    for throw_back in (False, True):
        view = Hand.seat_view(0, cards, dealer=1, rules=RULES["openspiel"], throw_back=throw_back)
        view.turn_upcard(parse_card("8c"))
        view.play(Move("pass"))
        view.opponent_plays(Move("take"))
        if not throw_back:
            with pytest.raises(ValueError, match="not legal"):
                view.opponent_plays(Move("discard", parse_card("8c")))
            continue
        view.opponent_plays(Move("discard", parse_card("8c")))  # OpenSpiel allows it
        assert view.threw(1) == (parse_card("8c"),) and view.held(1) == ()
    # the wall: the view cannot check the opponent's knock, so it takes the take
    view = Hand.seat_view(1, cards, dealer=0, rules=RULES["openspiel"])  # seat 1 draws first
    view.turn_upcard(parse_card("8c"))
    view.play(Move("pass"))
    view.opponent_plays(Move("pass"))
    opponent_card = iter(c for c in range(52) if c not in cards and c != parse_card("8c"))
    while view.stock_left > 2:
        if view.to_move == 0:
            view.opponent_plays(Move("draw"))
            view.opponent_plays(Move("discard", next(opponent_card)))
        else:
            view.play(Move("draw"), drawn=next(opponent_card))
            view.play(Move("discard", max(view.cards(1))))
    assert view.to_move == 0 and view.phase == "draw"
    view.opponent_plays(Move("take"))
    assert view.phase == "discard" and view.held(0) == (view.taken,)


def test_from_position_is_what_the_player_knows():
    from analyzer.gin.play.advisor import Position, legal_actions

    position = Position.from_options(
        "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
        pile="Td Ks Jh Ts Kd Tc",
        opp_took="8d 9s",
        opp_threw="Tc Jh Ts Ks 7c",
        stock=22,
        turn=5,
    )
    hand = Hand.from_position(position, RULES["standard"])
    assert hand.seat == 0 and hand.phase == "discard" and hand.to_move == 0
    assert hand.cards(0) == tuple(sorted(position.hand))
    assert hand.cards(1) == tuple(sorted(position.known_opp_cards))
    assert hand.took(1) == tuple(sorted(position.opp_took))
    assert hand.threw(1) == tuple(sorted(position.opp_threw))
    assert hand.stock_left == 22 and hand.own_turns(0) == 5 and hand.own_turns(1) == 4
    # 31 - 22 = 9 pile cards: 7c (the opponent's throw seen nowhere else), 2 unknown, then the 6 given
    assert hand.pile == (parse_card("7c"), -1, -1, *position.pile)
    # the cards the opponent took and still holds follow from the description (the
    # policies read them: the alert knock schedule, the danger of a throw)
    assert hand.held(1) == (parse_card("8d"), parse_card("9s"))
    assert hand.held(0) == () and hand.scores == (0, 0)  # a description keeps no more
    moves = {(m.kind, m.card) for m in hand.legal_moves()}
    actions = {
        ("discard" if a.verb == "play" else "knock", a.card) for a in legal_actions(position)
    }
    assert moves == actions


def test_big_gin_comes_first_and_may_be_declined():
    deck = deck_order(
        _cards("As 2s 3s 4s 5s 7h 7d 7c Kc Kd"),
        _cards("2c 3c 8h 8s Tc Td Jc Js Qh Qd"),
        parse_card("Ks"),
        [],
    )
    hand = Hand.deal(RULES["biggin"], deck=deck, dealer=1)
    hand.play(Move("take"))
    moves = hand.legal_moves()
    assert moves[0] == Move("big_gin") and hand.decide(POLICIES["basic"]) == Move("big_gin")
    assert Move("knock", parse_card("As")) in moves  # gin with ten of the eleven
    assert Move("discard", parse_card("Ks")) not in moves  # just taken
    hand.play(Move("knock", parse_card("As")))
    assert hand.result["outcome"] == "gin"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seed": -1}, "seed must be"),
        ({"seed": 2**63}, "seed must be"),
        ({"hand_index": -1}, "hand_index must be"),
    ],
)
def test_a_deal_refuses_a_seed_outside_its_range(arguments, message):
    with pytest.raises(ValueError, match=message):
        Hand.deal(**arguments)


STANDARD_TARGET = RULES["standard"].target


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        # a deck value is checked before any conversion: 256 would wrap to card 0 as int8
        ({"deck": [256, *range(1, 52)]}, ValueError, "bad card index 256"),
        ({"deck": np.arange(52) + 256}, ValueError, "bad card index .*256"),
        ({"deck": [*range(51), 50]}, ValueError, "duplicate card 'Qs'"),
        ({"deck": list(range(51))}, ValueError, "holds the 52 cards, got 51 values"),
        ({"deck": [*range(52), 0]}, ValueError, "holds the 52 cards, got 53 values"),
        ({"deck": [0.0, *range(1, 52)]}, ValueError, "bad card index 0.0"),
        ({"deck": [True, 0, *range(2, 52)]}, ValueError, "bad card index True"),
        ({"deck": "As 2s 3s"}, TypeError, "deck must be a list of card indices"),
        ({"deck": 2**52 - 1}, TypeError, "deck must be a list of card indices"),
        ({"scores": (0, 0, 0)}, ValueError, "scores must be a pair of integers"),
        ({"scores": 5}, TypeError, "scores must be a pair of integers"),
        ({"scores": "05"}, TypeError, "scores must be a pair of integers"),
        ({"scores": (True, 0)}, TypeError, r"scores\[0\] must be an integer, got True"),
        ({"scores": (0, 1.5)}, TypeError, r"scores\[1\] must be an integer, got 1.5"),
        ({"scores": (-1, 0)}, ValueError, rf"scores\[0\] must be 0-{STANDARD_TARGET - 1}, got -1"),
        (
            {"scores": (0, STANDARD_TARGET)},
            ValueError,
            rf"scores\[1\] must be 0-{STANDARD_TARGET - 1}",
        ),
        ({"scores": (0, 2**64)}, ValueError, r"scores\[1\] must be"),
        ({"dealer": True}, TypeError, "dealer must be 0 or 1, got True"),
        ({"dealer": 1.0}, TypeError, "dealer must be 0 or 1, got 1.0"),
        ({"dealer": 2}, ValueError, "dealer must be 0 or 1, got 2"),
        ({"rules": "nonsense"}, ValueError, "nonsense"),
        ({"rules": 5}, TypeError, "rules must be a Rules or a rules preset name"),
        ({"seed": "1"}, TypeError, "seed must be an integer"),
    ],
)
def test_a_deal_checks_every_argument(arguments, error, message):
    with pytest.raises(error, match=message):
        Hand.deal(**arguments)


def test_a_deal_takes_rules_by_name_and_the_scores_up_to_the_target():
    named = Hand.deal("oklahoma", seed=4, scores=(149, 0))
    assert named.rules == RULES["oklahoma"] and named.scores == (149, 0)
    assert np.array_equal(named.state, Hand.deal(RULES["oklahoma"], seed=4, scores=(149, 0)).state)
    deck = np.arange(52, dtype=np.int64)  # any integer dtype: the values are what counts
    assert Hand.deal(deck=deck).cards(0) == Hand.deal(deck=list(range(52))).cards(0)


def test_a_seat_view_and_a_position_check_their_arguments():
    from analyzer.gin.play.advisor import Position

    cards = _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh")
    position = Position.from_options("3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h", stock=25)
    cases = [
        (lambda: Hand.seat_view(0, [*cards[:9], cards[0]], 1), ValueError, "duplicate card 'As'"),
        (lambda: Hand.seat_view(0, [*cards[:9], 300], 1), ValueError, "bad card index 300"),
        (lambda: Hand.seat_view(0, [*cards[:9], "Kd"], 1), ValueError, "bad card index 'Kd'"),
        (lambda: Hand.seat_view(0, "As 2s", 1), TypeError, "cards must be a list of card"),
        (lambda: Hand.seat_view(True, cards, 1), TypeError, "seat must be 0 or 1, got True"),
        (lambda: Hand.seat_view(0, cards, 1, seed=-1), ValueError, "seed must be"),
        (lambda: Hand.seat_view(0, cards, 1, hand_index=2**63), ValueError, "hand_index must"),
        (lambda: Hand.seat_view(0, cards, 1, throw_back=1), TypeError, "throw_back must be True"),
        (lambda: Hand.seat_view(0, cards, 1, scores=[0, -5]), ValueError, r"scores\[1\] must be"),
        (lambda: Hand.seat_view(0, cards, 1, rules=None), TypeError, "rules must be a Rules"),
        (lambda: Hand.from_position("As 2s"), TypeError, "position must be an advisor Position"),
        (lambda: Hand.from_position(position, seed=2**63), ValueError, "seed must be"),
        (lambda: Hand.from_position(position, rules="nonsense"), ValueError, "nonsense"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()
    assert Hand.from_position(position, "standard").cards(0) == tuple(sorted(position.hand))


def test_every_method_checks_seats_cards_moves_and_players():
    hand = Hand.deal(seed=5)
    for read in (
        hand.cards,
        hand.hand_mask,
        hand.own_turns,
        hand.took,
        hand.threw,
        hand.held,
        hand.refused,
        hand.deadwood,
    ):
        with pytest.raises(ValueError, match="seat must be 0 or 1, got 2"):
            read(2)
        with pytest.raises(ValueError, match="seat must be 0 or 1, got -1"):
            read(-1)  # would read the slot before the seat's
        with pytest.raises(TypeError, match="seat must be 0 or 1, got True"):
            read(True)
    before = hand.state.copy()
    with pytest.raises(TypeError, match="move must be a Move"):
        hand.play("pass")
    with pytest.raises(TypeError, match="player must be a policy name"):
        hand.decide(5)
    with pytest.raises(ValueError, match="nonsense"):
        hand.decide("nonsense")
    with pytest.raises(TypeError, match="players must be a pair of players"):
        hand.play_on("basic")
    with pytest.raises(ValueError, match="players must be a pair of players, one per seat, got 3"):
        hand.play_on(("basic", "basic", "basic"))
    with pytest.raises(TypeError, match=r"players\[1\] must be a policy name"):
        hand.play_on(("basic", None))
    assert np.array_equal(hand.state, before)
    view = Hand.seat_view(0, _cards("As 2s 3s 4s 5s 9h 9d Kc Qd Jh"), dealer=1)
    with pytest.raises(ValueError, match="bad card index 60"):
        view.turn_upcard(60)
    view.turn_upcard(parse_card("8c"))
    view.play(Move("pass"))
    view.opponent_plays(Move("pass"))
    with pytest.raises(ValueError, match="bad card index True"):
        view.play(Move("draw"), drawn=True)
    with pytest.raises(ValueError, match=r"^8c was already seen in this hand$"):
        view.play(Move("draw"), drawn=parse_card("8c"))


def test_decide_and_play_on_take_players_by_name():
    hand = Hand.deal(seed=9)
    assert hand.copy().decide("basic") == hand.copy().decide(POLICIES["basic"])
    by_name, by_object = hand.copy(), hand.copy()
    moves = by_name.play_on(["expert", "simple,knock=7"])
    assert moves == by_object.play_on((POLICIES["expert"], POLICIES["simple"].with_knock(7)))
    assert np.array_equal(by_name.state, by_object.state)
