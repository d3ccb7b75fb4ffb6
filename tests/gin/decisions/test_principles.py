"""The ``principles`` discard (a player's rule set): its outs and its "feeds the
opponent" test against brute force over the meld definitions, and its throw against a
plain Python reading of its rule on random positions."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.cards import CARD_POINTS
from analyzer.gin.decisions.choose import choose_discard
from analyzer.gin.decisions.principles import feeds, outs_of
from analyzer.gin.engine.transitions import Slot, new_scratch
from analyzer.gin.evaluator.partition import min_deadwood_kernel
from analyzer.gin.model.describe import explain_policy
from analyzer.gin.model.knowledge import unseen_cards
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.model.state import stock_left

from .. import scripted


def _is_meld(cards):
    ranks = sorted(card % 13 for card in cards)
    suits = {card // 13 for card in cards}
    same_rank = len(set(ranks)) == 1
    run = len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    return same_rank or run


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=2, max_size=11, unique=True))
def test_outs_are_the_cards_that_make_a_meld_of_three_with_the_card_and_one_held(cards):
    hand = sum(1 << card for card in cards)
    card = cards[0]
    expected = {
        out
        for out in range(52)
        if not hand >> out & 1 and any(_is_meld((card, other, out)) for other in cards[1:])
    }
    found = outs_of(np.int64(card), np.int64(hand))
    assert {out for out in range(52) if int(found) >> out & 1} == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 51), st.lists(st.integers(0, 51), max_size=8, unique=True))
def test_a_card_feeds_the_opponent_when_it_shares_a_rank_or_sits_two_ranks_away(card, held):
    near = any(
        other != card
        and (other % 13 == card % 13 or (other // 13 == card // 13 and abs(other - card) <= 2))
        for other in held
    )
    assert feeds(np.int64(card), np.int64(sum(1 << c for c in held))) == near


def _deadwood(mask):
    return int(min_deadwood_kernel(np.int64(mask)))


def _rule_throw(state, policy):
    """The rule as its docstring says, in plain Python: of the unmatched cards (throwing
    one leaves the hand's deadwood less its points), the highest value, ties to the
    higher rank then card index."""
    hand = int(state[Slot.HAND])
    cards = [c for c in range(52) if hand >> c & 1]
    after = {c: _deadwood(hand & ~(1 << c)) for c in cards}
    least = min(after[c] + int(CARD_POINTS[c]) for c in cards)
    unmatched = [c for c in cards if after[c] + int(CARD_POINTS[c]) == least]
    discard = policy.discard
    late = discard.late_stock and stock_left(state) <= discard.late_stock
    unseen = int(unseen_cards(state, np.int64(0)))
    held = int(state[Slot.HELD + 1])

    def value(card):
        points = int(CARD_POINTS[card])
        if discard.out_points and not late:
            outs = [
                out
                for out in range(52)
                if not hand >> out & 1
                and (unseen >> out & 1 or not discard.live_only)
                and any(_is_meld((card, other, out)) for other in cards if other != card)
            ]
            points -= discard.out_points * len(outs)
        if discard.feed_points and feeds(np.int64(card), np.int64(held)):
            points -= discard.feed_points
        return (points, int(CARD_POINTS[card]), card % 13, card)

    return max(unmatched, key=value)


def _throw(policy, state):
    scratch = new_scratch()
    rng = np.zeros(1, dtype=np.uint64)
    return choose_discard(state, np.int64(0), policy.to_array(), rng, scratch[:52], scratch[52:])


def test_the_throw_follows_the_rule_as_written_on_random_positions():
    """Random 11-card hands (after a stock draw) with some cards in the discard pile and
    some held by the opponent from the pile; the policy never knocks here (gin only)."""
    generator = np.random.default_rng(36)
    policies = [
        parse_policy("principles,knock=0,knock_alert=0,knock_racer=none"),
        parse_policy("principles,knock=0,knock_alert=0,knock_racer=none,live_only=no"),
        parse_policy(
            "principles,knock=0,knock_alert=0,knock_racer=none,out_points=5,late_stock=20"
        ),
    ]
    checked = 0
    for _ in range(80):
        state, deck = scripted.shuffled(generator)
        state[Slot.HAND] |= np.int64(1) << deck[21]
        state[Slot.STOCK_POS] += int(generator.integers(1, 20))
        state[Slot.HELD + 1] = sum(np.int64(1) << c for c in deck[10:12])
        state[Slot.PILE_MASK] = sum(np.int64(1) << c for c in deck[30:34])
        if _deadwood(int(state[Slot.HAND])) == 0:
            continue
        for policy in policies:
            card, knock = _throw(policy, state)
            assert not knock
            assert card == _rule_throw(state, policy)
            checked += 1
    assert checked > 200


def test_without_its_principles_the_rule_throws_the_highest_unmatched_card():
    state = scripted.dealt(
        "As 2s 3s 4h 5h 6h 7c 8c Kd Qc", "Ac 2c 3c 4d 5d 6d 7s 8s 9s Qh", "Jh", "Jc"
    )
    state[Slot.HAND] |= np.int64(scripted.bit("9d"))
    plain = parse_policy("principles,out_points=0,feed_points=0,knock=0,knock_alert=0")
    # unmatched: 7c 8c Kd Qc 9d; the highest is the king (ties: Kd and Qc are 10, K higher)
    assert _throw(plain, state) == (scripted.card("Kd"), False)
    # the opponent took the jack of diamonds: the king and the nine of diamonds would feed
    # it (within two ranks in its suit), so they count 2 points less and the queen goes
    state[Slot.HELD + 1] = scripted.bit("Jd")
    feeding = parse_policy("principles,out_points=0,feed_points=2,knock=0,knock_alert=0")
    assert _throw(feeding, state) == (scripted.card("Qc"), False)


def test_the_preset_is_the_champion_but_for_its_discard_and_reads_as_a_checklist():
    rule_set, champion = PRESETS["principles"], PRESETS["expert"]
    assert rule_set.draw == champion.draw and rule_set.knock == champion.knock
    assert (rule_set.discard.rule, rule_set.discard.racer_rule) == ("principles", "same")
    assert parse_policy(format_policy(rule_set)) == rule_set
    text = explain_policy(rule_set)
    assert "throws the unmatched card of highest value: its points less 2 points for each" in text
    assert "less 2 points if the opponent could use it" in text
    for key, value in itertools.product(("out_points", "feed_points"), (0, 10)):
        assert parse_policy(f"principles,{key}={value}").value(key) == value


def test_the_note_names_the_principle_a_throw_follows_or_breaks():
    from analyzer.core.cards import parse_card
    from analyzer.gin.play.advisor import Position
    from analyzer.gin.play.advisor.principles import principle_note, rule_throw, throw_values

    position = Position.from_json(
        {
            "hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 9h Kd",
            "pile": "Td Ks Jh Ts",
            "opp_took": "Qd",
            "opp_threw": "Jh Ts",
            "stock": 20,
        }
    )
    values = throw_values(position)
    # the king would feed the queen the opponent took (10 - 2 = 8), the nine is alone (9)
    assert (values[parse_card("Kd")].value, values[parse_card("9h")].value) == (8, 9)
    assert rule_throw(values) == parse_card("9h")
    note = principle_note
    assert note(position, parse_card("9h")).startswith("Follows the discard principles")
    assert "don't feed your opponent (Kd is next to or of the rank of Qd" in note(
        position, parse_card("Kd")
    )
    assert note(position, parse_card("3c")).startswith("Breaks a meld")
    assert "keep the cards that can still make melds (Ah had 1 unseen card that" in note(
        position, parse_card("Ah")
    )
