"""The legal moves of plain rummy (:mod:`analyzer.rummy.actions`) against hand-worked
positions of the seed rules and a brute-force oracle, and the stepping
:class:`~analyzer.rummy.hand.Hand` against the simulation."""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.cards import format_card, parse_card, parse_hand, to_indices, to_mask
from analyzer.core.lanes import lane_tables
from analyzer.rummy import RummyRules, parse_policy
from analyzer.rummy.actions import MAX_MOVES, Kind, legal_moves
from analyzer.rummy.game_kernels import N_TOTALS, RowColumn, hands_kernel
from analyzer.rummy.hand import Hand
from analyzer.rummy.moves import Move
from analyzer.rummy.practice import PracticeHand
from analyzer.rummy.scripted import scripted_state
from analyzer.rummy.state import Slot
from analyzer.rummy.transitions import apply_draw
from analyzer.rummy.work import work_space


def position(hands, stock="", pile="", melds=(), first=0, rules=None, draw=None):
    """A Hand at a scripted position (every seat a person); ``draw``: the seat to move
    first draws (``"stock"`` or ``"pile"``) so that the hand is in its play phase."""
    rules = rules or RummyRules(players=len(hands))
    state = scripted_state(
        [to_mask(h) for h in hands],
        parse_hand(stock),
        parse_hand(pile),
        [(to_mask(m), owner) for m, owner in melds],
        first,
    )
    if draw is not None:
        apply_draw(state, rules.to_array(), draw == "pile")
    return Hand(state, rules, [parse_policy("rummy-expert")] * rules.players, range(rules.players))


def listed(hand, kind):
    return sorted(str(m) for m in hand.legal_moves() if m.kind == kind)


# --- drawing and calling ----------------------------------------------------------------


def test_the_draw_offers_the_stock_and_the_pile_top():
    hand = position(["4c 5c Kd", "2h 3h 9s"], stock="Qs", pile="7d")
    assert [str(m) for m in hand.legal_moves()] == ["draw", "take"]
    empty = position(["4c 5c Kd", "2h 3h 9s"], stock="Qs")
    assert [str(m) for m in empty.legal_moves()] == ["draw"]


# --- playing: melds, layoffs and throws -------------------------------------------------------


def test_melds_are_every_set_and_run_the_hand_makes():
    hand = position(["7c 7d 7h 7s 4c 5c 6c 2d", "Kd Qh"], stock="Ks", pile="Jc", draw="stock")
    melds = listed(hand, "meld")
    # the four sevens, each three of them, and the run (4c 5c 6c and 5c 6c 7c, 4c-7c)
    assert "meld 7c 7d 7h 7s" in melds
    assert sum(m.startswith("meld 7") and len(m.split()) == 4 for m in melds) == 4
    assert {"meld 4c 5c 6c", "meld 5c 6c 7c", "meld 4c 5c 6c 7c"} <= set(melds)
    assert len(melds) == 8


def test_run_cap_limits_the_runs_listed():
    rules = RummyRules(max_run=4)
    hand = position(
        ["3c 4c 5c 6c 7c 2d", "Kd Qh"], stock="Ks", pile="Jc", rules=rules, draw="stock"
    )
    runs = [m for m in listed(hand, "meld") if m.startswith(("meld 3c", "meld 4c"))]
    assert "meld 3c 4c 5c 6c 7c" not in runs
    assert "meld 3c 4c 5c 6c" in runs


def test_layoffs_onto_any_meld_or_only_ones_own():
    kwargs = {
        "stock": "2s",
        "pile": "Jc",
        "melds": [("5s 6s 7s", 1), ("Qc Qd Qh", 0)],
        "draw": "stock",
    }
    hands = ["8s Qs 4h 9d", "Ad 3c"]
    assert listed(position(hands, **kwargs), "layoff") == ["layoff 8s 0", "layoff Qs 1"]
    own = position(hands, rules=RummyRules(layoff_own_only=True), **kwargs)
    assert listed(own, "layoff") == ["layoff Qs 1"]


def test_the_card_taken_from_the_pile_may_not_be_thrown():
    hand = position(["Kd Qh 9s", "2h 3h 4d"], stock="5s", pile="8c", draw="pile")
    assert hand.taken == parse_card("8c")
    assert "discard 8c" not in listed(hand, "discard")
    assert len(listed(hand, "discard")) == 3


def test_going_out_by_melding_everything_unless_a_final_discard_is_required():
    # 4c 5c 6c 9h 9d + 9s from the pile: everything melds
    hands = ["4c 5c 6c 9h 9d", "Kd Qh 2s"]
    free = position(hands, stock="3s", pile="9s", draw="pile")
    assert "meld 9d 9h 9s" in listed(free, "meld")
    strict = position(
        hands, stock="3s", pile="9s", rules=RummyRules(final_discard=True), draw="pile"
    )
    # with a final discard the last cards may not be melded away: melding one meld
    # leaves three cards, the other meld then would empty the hand
    strict.play("meld 4c 5c 6c")
    assert listed(strict, "meld") == []
    assert listed(strict, "discard") == ["discard 9d", "discard 9h"]


def test_no_going_out_on_the_first_turn_with_the_second_turn_rule():
    rules = RummyRules(second_turn_out=True)
    hand = position(["4c 5c 6c Kd", "2h 3h 9s"], stock="Qs", pile="7d", rules=rules, draw="stock")
    # melding the run leaves Kd and Qs; throwing one of them is fine (one card stays)
    hand.play("meld 4c 5c 6c")
    assert listed(hand, "discard") == ["discard Kd", "discard Qs"]
    # a hand of one card on its first turn may not throw it
    last = position(["4c 5c 6c", "2h 3h 9s"], stock="Qs", pile="7d", rules=rules, draw="stock")
    assert "meld 4c 5c 6c" not in listed(last, "meld")


def test_must_meld_forbids_throwing_while_a_meld_is_held():
    rules = RummyRules(must_meld=True)
    hand = position(
        ["4c 5c 6c Kd Qh", "2h 3h 9s"], stock="Js", pile="7d", rules=rules, draw="stock"
    )
    assert listed(hand, "discard") == []
    hand.play("meld 4c 5c 6c")
    assert len(listed(hand, "discard")) == 3


def test_an_illegal_move_is_refused_and_changes_nothing():
    hand = position(["Kd Qh 9s", "2h 3h 4d"], stock="5s", pile="8c", draw="pile")
    before = hand.state.copy()
    with pytest.raises(ValueError, match="not legal now"):
        hand.play("discard 8c")
    with pytest.raises(ValueError, match="a layoff is"):
        hand.play("layoff 8c")
    assert (hand.state == before).all()


def test_rummy_on_the_board_asks_the_next_seats_in_turn():
    rules = RummyRules(players=3, rummy_on_board=True)
    hand = position(
        ["Kd Qd 2c", "8s 2d Ah", "Jh 4h 3d"], stock="2h 5d", pile="Jc",
        melds=[("5s 6s 7s", 2)], first=1, rules=rules,
    )  # fmt: skip
    hand.play("draw")
    hand.play("discard 8s")  # seat 1 throws the 8s, which extends seat 2's run
    assert (hand.phase, hand.to_move) == ("call", 2)
    assert listed(hand, "call") == ["call"] and listed(hand, "pass") == ["pass"]
    hand.play("call")
    assert to_mask("5s 6s 7s 8s") in [to_mask(cards) for cards, _ in hand.melds]
    assert (hand.phase, hand.to_move) == ("draw", 2)


# --- the brute-force oracle ------------------------------------------------------------------


def is_meld(cards, cap):
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return 3 <= len(cards) <= 4
    suits = {c // 13 for c in cards}
    low = min(cards)
    return (
        len(suits) == 1
        and 3 <= len(cards) <= cap
        and sorted(cards) == list(range(low, low + len(cards)))
    )


@settings(max_examples=150, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), min_size=3, max_size=11, unique=True),
    cap=st.sampled_from([3, 4, 13]),
)
def test_every_meld_of_the_hand_is_listed_and_nothing_else(cards, cap):
    rules = RummyRules(max_run=0 if cap == 13 else cap).to_array()
    others = [c for c in range(52) if c not in cards]
    state = scripted_state([to_mask(cards), to_mask(others[:3])], [others[3]], [others[4]])
    apply_draw(state, rules, False)
    moves = np.zeros((MAX_MOVES, 3), dtype=np.int64)
    count = legal_moves(state, rules, moves, work_space()[1])
    listed_melds = {int(m[1]) for m in moves[:count] if m[0] == Kind.MELD}
    hand = to_indices(int(state[Slot.HAND]))
    expected = {
        to_mask(list(combo))
        for size in range(3, len(hand) + 1)
        for combo in combinations(hand, size)
        if is_meld(combo, cap) and len(combo) < len(hand)  # melding all of it is going out
    }
    # going out by melding every card is legal too (no final discard, not the 1st turn)
    if is_meld(hand, cap):
        expected.add(to_mask(hand))
    assert listed_melds == expected


# --- the hand against the simulation ----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"rummy_on_board": True, "max_run": 4}),
        (4, {"must_meld": True, "final_discard": True}),
    ],
)
def test_a_hand_of_computers_plays_as_the_simulation(players, options):
    rules = RummyRules(players=players, **options)
    policies = [parse_policy(p) for p in ("rummy-expert", "simple", "hold6", "potential")[:players]]
    rd, rm, lp = lane_tables(rules.run_cap)
    rows = np.zeros((30, 9 + players), dtype=np.int64)
    hands_kernel(
        np.int64(11), np.int64(0), np.int64(30), rules.to_array(),
        np.array([p.to_array() for p in policies]), False, rd, rm, lp,
        np.zeros(N_TOTALS, dtype=np.int64), rows,
    )  # fmt: skip
    for deal in range(30):
        hand = Hand.deal(rules, seed=11, hand_index=deal, people=())
        hand.policies = tuple(policies)
        hand.policy_rows = np.array([p.to_array() for p in policies])
        played = hand.advance()
        assert hand.done and played
        row = rows[deal]
        assert (hand.winner if hand.winner is not None else -1) == row[RowColumn.WINNER_SEAT]
        assert hand.points == row[RowColumn.POINTS]
        assert int(hand.state[Slot.TOTAL_TURNS]) == row[RowColumn.TURNS]


def test_a_person_following_every_hint_plays_as_the_expert():
    for deal in range(6):
        person = PracticeHand.deal(players=3, seed=5, hand_index=deal, people=(0,))
        computer = Hand.deal(players=3, seed=5, hand_index=deal, people=())
        while not person.done:
            person.advance()
            if person.done:
                break
            moves, reason = person.hint()
            assert reason
            for move in moves:
                person.play(move)
        computer.advance()
        assert person.winner == computer.winner and person.points == computer.points
        review = person.review()
        assert review[0].startswith("You and rummy-expert agreed on")
        assert "agreed on" in review[0] and review[0].split()[5] == review[0].split()[7]


def test_random_legal_play_keeps_every_card_in_one_place():
    rng = np.random.default_rng(4)
    for deal in range(8):
        rules = RummyRules(players=2 + deal % 3, rummy_on_board=bool(deal % 2))
        hand = PracticeHand.deal(rules, seed=9, hand_index=deal, people=range(rules.players))
        while not hand.done:
            moves = hand.legal_moves()
            assert moves
            hand.play(moves[rng.integers(len(moves))])
            parts = [to_mask(hand.cards(s)) for s in range(rules.players)]
            parts += [to_mask(cards) for cards, _ in hand.melds] + [to_mask(hand.pile)]
            stock = hand.state[Slot.DECK + hand.state[Slot.STOCK] : Slot.DECK + 52]
            parts.append(to_mask([int(c) for c in stock]))
            assert sum(bin(p).count("1") for p in parts) == 52
            assert np.bitwise_or.reduce(parts) == (1 << 52) - 1
        assert hand.review()[-1]


def test_moves_read_back_from_their_text():
    for text in ("draw", "take", "meld 4c 5c 6c", "layoff 8s 2", "discard Kd", "call", "pass"):
        assert str(Move.parse(text)) == text
    with pytest.raises(ValueError, match="unknown move"):
        Move.parse("knock Kd")
    with pytest.raises(ValueError, match="takes 3-13 cards"):
        Move.parse("meld 4c 5c")


def test_public_shows_a_seat_what_it_may_see():
    hand = Hand.deal(players=3, seed=2, people=(0,))
    view = hand.public(0)
    assert view["cards"] == [format_card(c) for c in hand.cards(0)]
    assert view["hand_sizes"] == [7, 7, 7] and view["legal_moves"] == ["draw", "take"]
    assert hand.public(1)["legal_moves"] == []  # not seat 1's move
    hand.play("draw")
    hand.play(hand.legal_moves()[-1])
    hand.advance()
    while not hand.done:
        hand.play(hand.decide()[0])
        hand.advance()
    assert {"winner", "points", "rummy", "end"} <= set(hand.public(2))
    with pytest.raises(ValueError, match="seat must be 0-2"):
        hand.public(3)
