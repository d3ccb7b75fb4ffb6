"""Scripted-deck tests of the plain rummy engine: one test (or pair) per rule and option.

Each position is written out card by card: the two hands, the stock (drawn from the
front), the discard pile (bottom first) and any melds already on the table.  Seat 0
plays first unless ``first`` says otherwise.
"""

import numpy as np
import pytest

from analyzer.core.cards import parse_hand, to_mask
from analyzer.core.lanes import lane_tables
from analyzer.rummy import layoffs
from analyzer.rummy.policies import parse_policy
from analyzer.rummy.rules import RummyRules
from analyzer.rummy.scripted import HandOutcome, play_scripted
from analyzer.rummy.state import MAX_MELDS, End


def play(
    hands, stock="", pile="", rules=None, policies=("simple", "simple"), melds=(), first=0
) -> HandOutcome:
    rules = rules or RummyRules()
    return play_scripted(
        [to_mask(h) for h in hands],
        parse_hand(stock),
        parse_hand(pile),
        rules.to_array(),
        np.array([parse_policy(p).to_array() for p in policies]),
        [(to_mask(m), owner) for m, owner in melds],
        first,
    )


def points(text):
    return sum(min(c % 13 + 1, 10) for c in parse_hand(text))


# --- going out, with and without the final discard, and the Rummy double -------------

OUT_HANDS = ("4c 5c 6c 7c 9h 9d", "Kd Qh 2s")


def test_going_out_without_final_discard_melds_everything():
    result = play(OUT_HANDS, stock="3s", pile="9s")
    assert (result.winner, result.end, result.turns) == (0, End.OUT, 1)
    assert result.pile == ()  # 9s taken, nothing discarded
    assert result.hands[0] == 0
    assert {m for m, _ in result.melds} == {to_mask("4c 5c 6c 7c"), to_mask("9h 9d 9s")}
    # nothing melded before: Rummy doubles the points left in the other hand
    assert result.rummy
    assert result.points == 2 * points("Kd Qh 2s")


def test_going_out_with_final_discard_throws_the_last_card():
    result = play(OUT_HANDS, stock="3s", pile="9s", rules=RummyRules(final_discard=True))
    assert (result.winner, result.end) == (0, End.OUT)
    assert result.pile == tuple(parse_hand("7c"))
    assert {m for m, _ in result.melds} == {to_mask("4c 5c 6c"), to_mask("9h 9d 9s")}


def test_final_discard_rule_blocks_going_out_when_every_card_is_needed():
    # 4c 5c 6c + 9h 9d 9s: throwing any card breaks a meld, so no out on this turn
    hands = ("4c 5c 6c 9h 9d", "2d 3h As")
    assert play(hands, pile="9s").winner == 0
    blocked = play(hands, pile="9s", rules=RummyRules(final_discard=True))
    assert blocked.end == End.STOCK


def test_rummy_multiplier_one_switches_the_double_off():
    result = play(OUT_HANDS, stock="3s", pile="9s", rules=RummyRules(rummy_multiplier=1))
    assert result.rummy
    assert result.points == points("Kd Qh 2s")


def test_no_rummy_after_melding_earlier_in_the_hand():
    # seat 0 owns a meld already on the table, so going out now is not Rummy
    result = play(OUT_HANDS, stock="3s", pile="9s", melds=[("Jc Jd Jh", 0)])
    assert result.winner == 0
    assert not result.rummy
    assert result.points == points("Kd Qh 2s")


# --- the second-turn rule ------------------------------------------------------------


def test_second_turn_rule_delays_going_out():
    hands = ("4c 5c 6c 9h 9d 9s", "2d 3h As")
    free = play(hands, stock="Kh Ks Jh", pile="Qd")
    assert (free.winner, free.turns) == (0, 1)
    rules = RummyRules(second_turn_out=True)
    delayed = play(hands, stock="Kh Ks Jh", pile="Qd", rules=rules)
    # turn 1: seat 0 may not go out; turn 2: seat 1; turn 3: seat 0 goes out
    assert (delayed.winner, delayed.turns, delayed.end) == (0, 3, End.OUT)
    assert delayed.rummy


# --- stock exhaustion both ways -------------------------------------------------------

DRY = {"hands": ("4c 5c 9h 9d 9s", "2d 3h As"), "stock": "", "pile": "6c Kd"}


def test_empty_stock_ends_the_hand_with_no_score():
    result = play(**DRY)
    assert (result.winner, result.points, result.end, result.turns) == (-1, 0, End.STOCK, 0)


def test_empty_stock_turns_the_pile_over_with_reshuffle():
    result = play(**DRY, rules=RummyRules(reshuffle=True))
    assert result.reshuffles == 1
    # the pile's bottom card (6c) is the top of the new stock and completes the run
    assert (result.winner, result.end) == (0, End.OUT)
    assert result.stock == tuple(parse_hand("Kd"))


def test_reshuffle_loop_stops_at_the_turn_limit():
    # neither player can improve: the pile goes round until the turn limit voids the hand
    rules = RummyRules(reshuffle=True, turn_limit=30)
    result = play(("Kc Qd", "Kh Qs"), stock="", pile="2c 7d 4h", rules=rules)
    assert (result.winner, result.turns) == (-1, 30)
    assert result.reshuffles >= 2


# --- laying off ------------------------------------------------------------------------

LAYOFF = {
    "hands": ("8s 2c 2d 2h", "As 3d"),
    "stock": "9s",
    "pile": "Kd",
    "melds": [("5s 6s 7s", 1)],
}


def test_lay_off_onto_an_opponents_meld_to_go_out():
    result = play(**LAYOFF)
    assert (result.winner, result.end) == (0, End.OUT)
    assert (to_mask("5s 6s 7s 8s 9s"), 1) in result.melds
    # layoffs in the going-out turn still count as Rummy (nothing played before)
    assert result.rummy


def test_own_layoffs_only_forbids_the_opponents_meld():
    result = play(**LAYOFF, rules=RummyRules(layoff_own_only=True))
    assert result.end == End.STOCK
    assert (to_mask("5s 6s 7s"), 1) in result.melds
    assert (to_mask("2c 2d 2h"), 0) in result.melds


def test_fourth_card_laid_off_onto_a_set():
    result = play(("Qs 4d 5d 6d", "Kc Kd"), stock="2h", pile="Jh", melds=[("Qc Qd Qh", 1)])
    assert result.winner == 0
    assert (to_mask("Qc Qd Qh Qs"), 1) in result.melds


# --- seed 004 options --------------------------------------------------------------------


def test_runs_capped_at_four_cards():
    hands = ("3c 4c 5c 6c 7c Kd", "Qh Qs")
    free = play(hands, stock="Kh", pile="Jd")
    assert to_mask("3c 4c 5c 6c 7c") in {m for m, _ in free.melds}
    capped = play(hands, stock="Kh", pile="Jd", rules=RummyRules(max_run=4))
    # the cheaper end card (3c) stays in hand
    assert to_mask("4c 5c 6c 7c") in {m for m, _ in capped.melds}
    assert capped.hands[0] & to_mask("3c")


def test_no_layoff_onto_a_full_run_under_the_cap():
    rules = RummyRules(max_run=4)
    result = play(
        ("8s 2c 2d 2h", "As 3d"), stock="3s", pile="Kd", melds=[("4s 5s 6s 7s", 1)], rules=rules
    )
    assert result.winner == -1
    assert (to_mask("4s 5s 6s 7s"), 1) in result.melds


def test_must_meld_overrides_holding_for_rummy():
    hands = ("4c 5c 6c Kd Qh", "9h 9d")
    held = play(hands, stock="2s", pile="Jd", policies=("rummy", "simple"))
    assert held.melds == ()
    forced = play(
        hands, stock="2s", pile="Jd", policies=("rummy", "simple"), rules=RummyRules(must_meld=True)
    )
    assert forced.melds == ((to_mask("4c 5c 6c"), 0),)


def test_rummy_on_the_board_call_lays_off_the_discard():
    # own-only layoffs: seat 1 cannot use 8s, discards it, seat 0 calls it onto its run
    position = {
        "hands": ("Kd Qd", "8s 2c 2d Ah"),
        "stock": "2h",
        "pile": "Jc",
        "melds": [("5s 6s 7s", 0)],
        "first": 1,
    }
    assert play(**position, rules=RummyRules(layoff_own_only=True)).calls == 0
    called = play(**position, rules=RummyRules(layoff_own_only=True, rummy_on_board=True))
    assert called.calls == 1
    assert (to_mask("5s 6s 7s 8s"), 0) in called.melds
    assert called.pile == tuple(parse_hand("Jc"))


def test_rummy_on_the_board_call_takes_a_run_from_the_pile():
    position = {"hands": ("Kd Qd", "7h 2c 2d Ah"), "stock": "2h", "pile": "8h 9h", "first": 1}
    called = play(**position, rules=RummyRules(rummy_on_board=True))
    assert called.calls == 1
    assert (to_mask("7h 8h 9h"), 0) in called.melds
    assert called.pile == ()
    refused = play(
        **position, rules=RummyRules(rummy_on_board=True), policies=("simple,call=no", "simple")
    )
    assert refused.calls == 0


def test_cannot_discard_the_card_just_taken():
    # the potential policy would throw Ah (its only card without a partner), but it was
    # just taken from the pile, so the highest of the rest goes instead
    result = play(("Kd Qd 9h 9s 5c 5h", "As 3d"), pile="Ah", policies=("potential", "simple"))
    assert result.pile == tuple(parse_hand("Kd"))
    assert result.hands[0] & to_mask("Ah")


# --- lane tables --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "lane", "dead"),
    [
        (13, 0b11111, 0),
        (4, 0b11111, 1),
        (3, 0b1111, 1),
        (4, 0b111111, 0),
        (3, 0b11111, 3),
    ],
)
def test_lane_tables_respect_the_run_cap(cap, lane, dead):
    deadwood, melded, _ = lane_tables(cap)
    assert deadwood[lane] == dead
    assert melded[lane] | lane == lane


# --- policies ------------------------------------------------------------------------------


def test_keeper_lays_off_only_to_go_out():
    position = {
        "hands": ("8s Kd Qh 2c", "As 3c"),
        "stock": "3d",
        "pile": "Jc",
        "melds": [("5s 6s 7s", 1)],
    }
    eager = play(**position)
    assert (to_mask("5s 6s 7s 8s"), 1) in eager.melds
    kept = play(**position, policies=("keeper", "simple"))
    assert kept.melds == ((to_mask("5s 6s 7s"), 1),)
    assert kept.hands[0] & to_mask("8s")


@pytest.mark.parametrize(
    ("policy", "melded"),
    [
        ("rummy", False),  # holds to the end
        ("meld=hold,hold_turns=1", True),  # holds on its first turn, melds on its second
        ("meld=hold,hold_points=10", True),  # 15 points in melds: gives up at once
        ("simple", True),
    ],
)
def test_holding_for_rummy_and_giving_up(policy, melded):
    result = play(
        ("4c 5c 6c Kd Qh Jd", "As 2d"), stock="2s 3h 9d", pile="Tc", policies=(policy, "simple")
    )
    assert ((to_mask("4c 5c 6c"), 0) in result.melds) == melded


# --- the engine's deadwood search against the gin evaluator ---------------------------------


def test_deadwood_without_table_matches_the_gin_evaluator():
    from analyzer.gin.evaluator.partition import (
        RUN_DEADWOOD,
        discard_deadwoods_kernel,
        min_deadwood_kernel,
    )

    rd, _, _ = lane_tables(13)
    assert (rd == RUN_DEADWOOD).all()
    view = np.zeros(layoffs.VIEW_SIZE, dtype=np.int64)
    work = [
        np.zeros(52, dtype=np.int64),
        np.zeros(2 * MAX_MELDS, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(2 * MAX_MELDS, dtype=np.int64),
    ]
    out, choice, best, best_choice = work
    want = np.zeros(52, dtype=np.int64)
    rng = np.random.default_rng(8)
    for _ in range(3000):
        cards = rng.choice(52, rng.integers(3, 12), replace=False)
        hand = np.int64(to_mask([int(c) for c in cards]))
        least = layoffs.with_table(
            hand, view, rd, layoffs.MODE_MIN, hand, out, choice, best, best_choice
        )
        assert least == min_deadwood_kernel(hand)
        layoffs.with_table(
            hand, view, rd, layoffs.MODE_DISCARD, hand, out, choice, best, best_choice
        )
        discard_deadwoods_kernel(hand, hand, want)
        held = [c for c in range(52) if hand >> c & 1]
        assert (out[held] == want[held]).all()
        layoffs.with_table(hand, view, rd, layoffs.MODE_ARRANGE, 0, out, choice, best, best_choice)
        assert best[0] == least


def _first_best_sets(lanes, pending, rd):
    """(least deadwood, cards in sets) by recursion over the ranks of ``pending``, lowest
    first, trying no set, a set of every card, then the three-card sets leaving clubs,
    diamonds, hearts, spades to the runs, and keeping the first best found: the tie order
    the engine's arrangements follow."""
    if pending == 0:
        return sum(int(rd[lane]) for lane in lanes), 0
    bit = pending & -pending
    rest = pending ^ bit
    best = _first_best_sets(lanes, rest, rd)
    held = [suit for suit in range(4) if lanes[suit] & bit]
    options = [held] + (
        [[s for s in held if s != out] for out in range(4)] if len(held) == 4 else []
    )
    for suits in options:
        value, sets = _first_best_sets(
            [lane & ~bit if suit in suits else lane for suit, lane in enumerate(lanes)], rest, rd
        )
        if value < best[0]:
            rank = bit.bit_length() - 1
            best = value, sets | sum(1 << (13 * suit + rank) for suit in suits)
    return best


@pytest.mark.parametrize("cap", [13, 4, 3])
def test_best_sets_breaks_ties_in_rank_order(cap):
    rd, _, _ = lane_tables(cap)
    rng = np.random.default_rng(cap)
    ranks = rng.choice(13, size=(4000, 4), replace=True)
    for row in ranks:
        # hands crowded on a few ranks: many set decisions, many ties
        cards = [int(13 * suit + rank) for rank in row for suit in range(4) if rng.random() < 0.8]
        cards += [int(c) for c in rng.choice(52, rng.integers(0, 5), replace=False)]
        c, d, h, s = (
            np.int64(to_mask(sorted({x for x in cards if x // 13 == suit})) >> 13 * suit)
            for suit in range(4)
        )
        pending = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)
        got = layoffs.best_sets(c, d, h, s, pending, rd)
        want = _first_best_sets([int(c), int(d), int(h), int(s)], int(pending), rd)
        assert (int(got[0]), int(got[1])) == want
