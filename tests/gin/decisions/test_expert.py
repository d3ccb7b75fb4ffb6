"""The expert's decisions follow its stated parameters on scripted positions."""

import numpy as np
import pytest

from analyzer.core import cards
from analyzer.core.rng import stream_key
from analyzer.gin.decisions.expert import danger, expert_discard, expert_wants_upcard, outs_mask
from analyzer.gin.decisions.inference import infer_hidden
from analyzer.gin.engine.transitions import (
    Phase,
    Slot,
    apply_discard,
    apply_draw,
    new_scratch,
)
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.model.policy_fields import PolicyField
from analyzer.gin.model.rules import Rules

from .. import scripted
from ..scripted import card, mask

RULES = Rules().to_array()
EXPERT = PRESETS["expert-v3"]
#: The expert with its sampled knock rule (the preset knocks by its table alone).
SAMPLED = EXPERT.changed(knock_rule="expert")


def dealt(first, second, upcard, stock):
    """:func:`scripted.dealt` with both players past the upcard offer: seat 0 to draw."""
    state = scripted.dealt(first, second, upcard, stock)
    state[Slot.OFFERS], state[Slot.PHASE] = 2, Phase.DRAW
    return state


def discard(state, policy, seed=1):
    scratch = new_scratch()
    rng = np.array([stream_key(np.int64(seed), np.int64(0))], dtype=np.uint64)
    card_index, knock = expert_discard(
        state, np.int64(state[Slot.TURN]), policy.to_array(), rng, scratch[:52], scratch[52:104]
    )
    return cards.format_card(int(card_index)), bool(knock)


def wants(state, policy):
    return bool(
        expert_wants_upcard(state, np.int64(state[Slot.TURN]), policy.to_array(), new_scratch())
    )


def test_policy_string_form_covers_every_expert_weight():
    policy = SAMPLED.changed(
        outs=7,
        danger=8,
        take_margin=-9,
        low_late=10,
        knock_bias=11,
        play_in=5,
        knock_stock=-12,
        knock_threat=13,
        knock_samples=14,
        game_push=15,
    )
    text = format_policy(policy)
    assert parse_policy(text) == policy
    assert "knock_rule=expert" in text and "take_margin=-9" in text
    assert "knock_alert=1:10/7:0" in text
    assert parse_policy("expert-v3") == EXPERT
    weights = policy.to_array()[PolicyField.KNOCK_RULE : PolicyField.PLAY_IN + 1]
    assert (weights == [1, 7, 8, -9, 10, 11, -12, 13, 14, 15, 5]).all()
    with pytest.raises(ValueError, match="knock rule"):
        parse_policy("expert,knock_rule=sometimes")


# --------------------------------------------------------------------------- draws

MELDS = "2c 3c 4c 5d 6d 7d"


def test_the_draw_takes_a_card_that_melds_whatever_the_margin():
    state = dealt("2c 3c 5d 6d 9h 9s Kc Qd Js Th", "", "4c", "")
    state[Slot.TURN] = 0
    assert wants(state, EXPERT)
    assert wants(state, EXPERT.changed(take_margin=100_000))
    # 5c makes no meld of a best arrangement: its value gain must clear the margin
    state = dealt("2c 3c 5d 6d 9h 9s Kc Qd Js Th", "", "4h", "")
    state[Slot.TURN] = 0
    assert not wants(state, EXPERT.changed(take_margin=100_000))
    assert wants(state, EXPERT.changed(take_margin=-100_000))


def test_the_draw_refuses_a_useless_card_unless_the_margin_is_negative():
    state = dealt(f"{MELDS} Ah 2s 3h Kh", "", "Qs", "")
    state[Slot.TURN] = 0
    assert not wants(state, EXPERT)
    assert wants(state, EXPERT.changed(take_margin=-100_000))


def test_the_draw_values_live_outs_by_the_outs_weight():
    # taking Ks (keeping Kh Ks, throwing 2s) raises the deadwood from 16 to 24 points but
    # adds the live set outs Kc Kd: worth it only at a high weight per out
    state = dealt(f"{MELDS} Ah 2s 3h Kh", "", "Ks", "")
    state[Slot.TURN] = 0
    assert not wants(state, EXPERT.changed(outs=0))
    assert wants(state, EXPERT.changed(outs=2_000))
    # with Kc and Kd dead (buried in the pile) the pair has no outs and no weight helps
    state[Slot.PILE_MASK] |= mask("Kc Kd")
    assert not wants(state, EXPERT.changed(outs=2_000))


def test_outs_are_the_cards_completing_pairs_and_run_draws():
    assert outs_mask(mask("7h 8h")) == mask("6h 9h")
    assert outs_mask(mask("7h 9h")) == mask("8h")
    assert outs_mask(mask("Qs Qd")) == mask("Qc Qh")
    assert outs_mask(mask("Ah 2h")) == mask("3h")
    assert outs_mask(mask("Qs Qd Qh")) == 0  # a set's fourth card is not counted


# ------------------------------------------------------------------------ discards


def danger_position():
    """Seat 0 to discard from 2c 3c 4c 5d 6d 7d Kh Qc 9s Ac Ad (Kh and Qc both leave 21
    points); seat 1 took Jh and Qh from the pile, so Kh would feed its run."""
    state = dealt("2c 3c 4c 5d 6d 7d Qh Kh Qc 9s", "Tc Jc 2d 3d 4d 7c 8c 5h 6h 9h", "Jh", "Ac Ad")
    state[Slot.TURN] = 1
    apply_draw(state, True)  # seat 1 takes Jh
    apply_discard(state, card("7c"), False, RULES)
    apply_draw(state, False)  # seat 0 draws Ac
    apply_discard(state, card("Qh"), False, RULES)
    apply_draw(state, True)  # seat 1 takes Qh
    apply_discard(state, card("8c"), False, RULES)
    apply_draw(state, False)  # seat 0 draws Ad
    assert state[Slot.HELD + 1] == mask("Jh Qh")
    return state


def test_danger_is_certain_for_a_card_extending_a_known_run():
    state = danger_position()
    probs = np.zeros(52)
    infer_hidden(state, np.int64(0), probs)
    assert danger(card("Kh"), probs) == pytest.approx(1.0)
    assert 0.0 < danger(card("Qc"), probs) < 1.0
    assert danger(card("Ac"), probs) < danger(card("Qc"), probs)


def test_the_discard_avoids_feeding_the_opponent_by_the_danger_weight():
    state = danger_position()
    # no danger weight: a tie on value goes to the higher card, Kh
    assert discard(state, EXPERT.changed(danger=0)) == ("Kh", False)
    # with a weight the throw minimises deadwood left + weight x danger (the three
    # candidates have the same outs): Kh and Qc leave 21 points, 9s leaves 22
    probs = np.zeros(52)
    infer_hidden(state, np.int64(0), probs)
    for weight in (150, 500, 2_000):
        cost = {
            name: left + weight / 100 * danger(card(name), probs)
            for name, left in (("Kh", 21), ("Qc", 21), ("9s", 22))
        }
        expected = min(cost, key=cost.get)
        assert discard(state, EXPERT.changed(danger=weight)) == (expected, False)
        assert expected != "Kh"
    assert discard(state, EXPERT.changed(danger=150))[0] == "Qc"


def test_low_cards_are_kept_late_by_the_low_late_weight():
    # seat 0 holds 2c 3c 4c 5c 5d 6d 7d 8d + 8h 9h As with 16 stock cards left: a heavy
    # weight on outs keeps the 8h 9h run draw and throws the ace; a heavy weight on
    # throwing points late throws the 9h and keeps the ace
    state = dealt("2c 3c 4c 5c 5d 6d 7d 8d 8h 9h", "", "Kd", "As")
    state[Slot.TURN] = 0
    apply_draw(state, False)
    state[Slot.STOCK_POS] = 36
    base = EXPERT.changed(outs=10_000, danger=0).with_knock(0)
    assert discard(state, base.changed(low_late=0)) == ("As", False)
    assert discard(state, base.changed(low_late=100_000)) == ("9h", False)


# --------------------------------------------------------------------------- knocks


def knock_position():
    """Seat 0 holds 2c 3c 4c 5d 6d 7d 9h 9s 9c Ad after drawing 2h: it can knock with 1
    (throwing 2h)."""
    state = dealt("2c 3c 4c 5d 6d 7d 9h 9s 9c Ad", "", "Kd", "Kh 2h")
    state[Slot.TURN] = 1
    apply_draw(state, False)  # seat 1 draws Kh
    apply_discard(state, card("Kh"), False, RULES)
    apply_draw(state, False)  # seat 0 draws 2h
    return state


def test_the_knock_follows_the_bias():
    state = knock_position()
    assert discard(state, SAMPLED.changed(knock_bias=-100_000)) == ("2h", True)
    thrown, knock = discard(state, SAMPLED.changed(knock_bias=100_000))
    assert not knock and thrown in ("2h", "Ad")


def test_the_schedule_caps_the_expert_knock_and_the_schedule_rule_knocks_at_once():
    state = knock_position()
    gin_only = SAMPLED.changed(knock_bias=-100_000).with_knock(0)
    assert discard(state, gin_only)[1] is False
    scheduled = SAMPLED.changed(knock_rule="schedule", knock_bias=100_000)
    assert discard(state, scheduled) == ("2h", True)


def test_gin_is_always_taken():
    state = dealt("2c 3c 4c 5c 5d 6d 7d 9h 9s 9c", "", "Kd", "Ks")
    state[Slot.TURN] = 0
    apply_draw(state, False)
    assert discard(state, EXPERT.changed(knock_bias=100_000)) == ("Ks", True)


def test_the_threat_weight_cuts_off_an_opponent_close_to_knocking():
    # seat 1 holds 4h 5h 6h 7s 8s 9s Qc Qd Qs + 2d (2 points) and is known to hold the
    # first nine: playing on gives it a good chance to knock; a strong threat weight knocks
    state = knock_position()
    state[Slot.HAND + 1] = mask("4h 5h 6h 7s 8s 9s Qc Qd Qs 2d")
    state[Slot.HELD + 1] = mask("4h 5h 6h 7s 8s 9s Qc Qd Qs")
    state[Slot.TOOK + 1] = state[Slot.HELD + 1]
    policy = SAMPLED.changed(knock_bias=2_000, knock_stock=0)
    assert discard(state, policy.changed(knock_threat=0))[1] is False
    assert discard(state, policy.changed(knock_threat=100_000))[1] is True
