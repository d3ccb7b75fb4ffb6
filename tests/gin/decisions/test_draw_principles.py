"""The ``principles`` draw (a player's rule for the upcard): its take against a plain
Python reading of its rule on random positions (deadwood by exhaustive search over the
melds, outs by the meld definitions), hand-worked positions, and each principle's switch
changing only the takes it should."""

import numpy as np
import pytest

from analyzer.core.cards import format_card
from analyzer.core.cards import parse_card as parse
from analyzer.gin.decisions.choose import wants_upcard
from analyzer.gin.decisions.draw_principles import take_gain
from analyzer.gin.engine.transitions import Slot, new_scratch
from analyzer.gin.model.describe import explain_policy
from analyzer.gin.model.knowledge import pile_top, unseen_cards
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.model.policy_fields import DRAW_RULES
from analyzer.gin.model.state import stock_left

from .. import reference, scripted

RULE = PRESETS["draw-principles"]


def _cards(mask):
    return frozenset(c for c in range(52) if mask >> c & 1)


def _is_meld(cards):
    return reference.is_meld(frozenset(cards))


def _outs(card, hand):
    """Cards outside ``hand`` making a meld of three with ``card`` and one card of it."""
    return {
        out
        for out in range(52)
        if out not in hand and any(_is_meld((card, other, out)) for other in hand - {card})
    }


def _melded(hand11, card):
    """Whether some least-deadwood arrangement of ``hand11`` melds ``card``."""
    least = reference.min_deadwood(hand11)
    return any(
        card in meld and reference.min_deadwood(hand11 - meld) == least
        for meld in reference.melds_in(hand11)
    )


def _rule_takes(state, policy):
    """The rule as its docstring says it, in plain Python, for seat 0."""
    draw = policy.draw
    hand = _cards(int(state[Slot.HAND]))
    card = int(pile_top(state))
    hand11 = hand | {card}
    if draw.take_melds and _melded(hand11, card):
        return True
    if not draw.take_points:
        return False
    unseen = _cards(int(unseen_cards(state, np.int64(0))))
    stock = int(stock_left(state))
    late = draw.take_late_stock and stock <= draw.take_late_stock
    points = 0 if late else draw.take_out_points

    def counted(of, held, thrown=None):
        outs = _outs(of, held) - {thrown}
        return len(outs & unseen if draw.take_live_only else outs)

    now = reference.min_deadwood(hand)
    gain = max(
        now
        - reference.min_deadwood(hand11 - {throw})
        + points * counted(card, hand11 - {throw}, throw)
        - points * counted(throw, hand)
        for throw in hand
    )
    return gain >= draw.take_points


def _offer(policy, state):
    return bool(wants_upcard(state, np.int64(0), policy.to_array(), new_scratch()))


def _random_position(generator):
    """Seat 0 offered the pile's top, with some of the stock drawn, some cards buried in
    the pile and up to two cards the opponent took and holds."""
    state, deck = scripted.shuffled(generator)
    state[Slot.STOCK_POS] += int(generator.integers(0, 22))
    state[Slot.HELD + 1] = sum(np.int64(1) << c for c in deck[10 : 10 + generator.integers(0, 3)])
    state[Slot.PILE_MASK] |= sum(np.int64(1) << c for c in deck[40:44])
    return state


VARIANTS = [
    RULE,
    RULE.changed(take_live_only=False),
    RULE.changed(take_points=3, take_out_points=3, take_late_stock=20),
    RULE.changed(take_melds=False, take_points=4, take_out_points=1),
    RULE.changed(take_out_points=0),
]


def test_the_take_follows_the_rule_as_written_on_random_positions():
    generator = np.random.default_rng(52)
    takes = 0
    for _ in range(60):
        state = _random_position(generator)
        for policy in VARIANTS:
            expected = _rule_takes(state, policy)
            assert _offer(policy, state) == expected, format_policy(policy)
            takes += expected
    assert 20 < takes < 250  # both answers are exercised


def _position(hand, upcard, pile="", held="", stock_drawn=0):
    """Seat 0 (10 cards, ``hand``) offered ``upcard``, other cards dealt to the opponent
    and the stock; ``pile`` cards buried under the upcard, ``held`` cards the opponent
    took from the pile; ``stock_drawn`` cards gone from the stock."""
    used = scripted.mask(hand) | scripted.bit(upcard)
    rest = [c for c in range(52) if not used >> c & 1]
    state = scripted.dealt(hand, _names(rest[:10]), upcard, _names(rest[10:]))
    state[Slot.PILE_MASK] |= scripted.mask(pile) if pile else 0
    state[Slot.HELD + 1] = scripted.mask(held) if held else 0
    state[Slot.STOCK_POS] += stock_drawn
    return state


def _names(cards):
    return " ".join(format_card(c) for c in cards)


def test_a_card_that_melds_is_taken_and_without_the_principle_it_is_not():
    state = _position("5s 6s Kd Qc 9h 2c 3d 8h Jc 4h", "7s")
    assert _offer(RULE, state)
    assert not _offer(RULE.changed(take_melds=False, take_points=0), state)
    assert _offer(parse_policy("basic,draw=meld"), state)


def test_a_low_card_for_a_high_unmatched_one_is_taken_at_the_rule_s_points():
    # nothing melds; taking the ace and throwing a king takes 9 points off, and neither
    # card has an out (no other ace, no club near it; the kings are not paired)
    hand = "Kd Qc 9h 5s 8h Jc 4h 7d Ts 3d"
    state = _position(hand, "Ac")
    gain, throw = take_gain(
        state[Slot.HAND], np.int64(scripted.card("Ac")), unseen_cards(state, np.int64(0)),
        stock_left(state), RULE.to_array(), np.zeros(52, dtype=np.int64),
    )  # fmt: skip
    assert (gain, throw) == (9, scripted.card("Kd"))
    assert _offer(RULE.changed(take_points=9), state)
    assert not _offer(RULE.changed(take_points=10), state)


def test_outs_count_only_while_unseen_and_before_the_late_stock():
    # taking the 7 of diamonds and throwing the king: 10 - 7 = 3 points off, and the 8 of
    # diamonds would make a run with it and the 9 held: one out, 2 points (the preset)
    hand = "Kc Qh Js 9d 5s 3h Ac 2s 4c Tc"
    state = _position(hand, "7d")
    row = RULE.to_array()

    def gain(state, row):
        return int(
            take_gain(
                state[Slot.HAND],
                np.int64(scripted.card("7d")),
                unseen_cards(state, np.int64(0)),
                stock_left(state),
                row,
                np.zeros(52, dtype=np.int64),
            )[0]
        )

    assert gain(state, row) == 3 + 2
    dead = _position(hand, "7d", pile="8d")  # the out is buried in the pile
    assert gain(dead, row) == 3
    assert gain(dead, RULE.changed(take_live_only=False).to_array()) == 3 + 2
    late = RULE.changed(take_late_stock=20).to_array()
    assert gain(state, late) == 3 + 2
    assert gain(_position(hand, "7d", stock_drawn=12), late) == 3  # 19 left


@pytest.mark.parametrize(
    ("switch", "moves"),
    [
        # leaving out "melds" changes only the offers of cards a best arrangement melds
        ({"take_melds": False}, "melds"),
        # leaving out "lower" changes only the others, and is the meld draw exactly
        ({"take_points": 0}, "others"),
        # the outs and their refinements change only the others too
        ({"take_out_points": 0}, "others"),
        ({"take_live_only": False}, "others"),
        ({"take_late_stock": 10}, "others"),
    ],
)
def test_each_principle_switch_changes_only_the_takes_it_should(switch, moves):
    meld_draw = parse_policy("basic,draw=meld")
    changed = RULE.changed(**switch)
    generator = np.random.default_rng(7)
    differ = 0
    for _ in range(300):
        state = _random_position(generator)
        melds = _offer(meld_draw, state)
        before, after = _offer(RULE, state), _offer(changed, state)
        if before != after:
            differ += 1
            assert melds == (moves == "melds")
        if "take_points" in switch:
            assert after == melds
        if "take_late_stock" in switch and stock_left(state) > 10:
            assert before == after
    assert differ > 0


def test_the_preset_is_the_champion_but_for_its_draw_and_reads_as_a_checklist():
    rule, champion = PRESETS["draw-principles"], PRESETS["expert"]
    assert rule.discard == champion.discard and rule.knock == champion.knock
    assert rule.tracking == champion.tracking and rule.draw.rule == "principles"
    assert parse_policy(format_policy(rule)) == rule
    text = explain_policy(rule)
    assert text.startswith(
        "Takes the face-up card when it fits a meld of a best arrangement, or when it takes "
        f"{rule.draw.take_points} or more points off its deadwood after its best throw"
    )
    # a checklist, not a contender: kept out of the best-response searches' draw rules
    assert "principles" not in DRAW_RULES
    assert explain_policy(rule.changed(take_melds=False, take_points=0)).startswith(
        "Never takes the face-up card"
    )


def test_the_note_names_the_draw_principle_a_draw_follows_or_breaks():
    from analyzer.gin.play.advisor import Position
    from analyzer.gin.play.advisor.draw_principles import draw_note, draw_reading

    hand = "Kd Qc 9h 5s 8h Jc 4h 7d Ts 3d"  # no meld, 76 points of deadwood

    def position(drawn, from_pile, pile):
        return Position.from_options(hand, pile=pile, drawn=drawn, from_pile=from_pile, stock=25)

    took_ace = position("Ac", True, "2h 6c")
    reading = draw_reading(took_ace)
    assert (reading.gain, reading.deadwood_off, reading.takes) == (9, 9, True)
    assert draw_note(took_ace) == (
        "Follows the draw principles: you took Ac; Ac makes no meld; taking it and "
        "throwing Kd takes 9 points off your deadwood: 9 points, at least the 6 the rule asks."
    )
    # the ace left on the pile, the 2 of spades drawn from the stock: the rule takes it
    left_ace = position("2s", False, "2h Ac")
    assert (draw_reading(left_ace).upcard, draw_reading(left_ace).took) == (parse("Ac"), False)
    assert draw_note(left_ace).startswith(
        "Breaks the draw principles: you left Ac and drew from the stock; they take Ac: "
    )
    # the queen of hearts takes nothing off (throwing the king of diamonds) but would make
    # a set with the queen of clubs held and the queen of diamonds or spades: 2 x 2
    # points, less than 6
    took_queen = position("Qh", True, "2h")
    assert draw_note(took_queen) == (
        "Breaks the draw principles: you took Qh; they draw from the stock: Qh makes no "
        "meld; taking it and throwing Kd takes 0 points off your deadwood, +4 for the "
        "cards that would make a meld with it: 4 points, less than the 6 the rule asks."
    )
    took_seven = position("7h", True, "2h")  # 7h 8h 9h
    assert draw_note(took_seven) == (
        "Follows the draw principles: you took 7h; 7h makes a meld with cards you hold."
    )
    # a stock draw whose card is not named does not tell the draw
    assert draw_reading(Position.from_options(hand + " 2s", pile="2h", stock=25)) is None
