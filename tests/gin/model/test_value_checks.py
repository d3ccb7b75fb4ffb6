"""The evaluator's Python wrappers and the rules/policy values check what they are given
(issue 17, items 1, 5 and 6; table rows 1, 7 and 14)."""

import re

import numpy as np
import pytest

from analyzer.gin.evaluator.api import (
    MAX_HAND_CARDS,
    best_discard,
    best_melds,
    deadwood_after_layoff,
    min_deadwood,
    min_deadwood_batch,
)
from analyzer.gin.model.policies import Discard, parse_policy
from analyzer.gin.model.policy_fields import MAX_PENALTY
from analyzer.gin.model.rules import INT_RANGES, Rules, resolve_rules
from analyzer.gin.play.players import parse_player
from analyzer.rummy.policies import parse_policy as rummy_policy
from analyzer.rummy.rules import RummyRules

FULL_DECK = (1 << 52) - 1


@pytest.mark.parametrize("function", [min_deadwood, best_melds])
@pytest.mark.parametrize("value", [True, False, np.bool_(True), 7.5, None, b"As", {1, 2}])
def test_non_hands_are_type_errors_naming_the_value(function, value):
    with pytest.raises(TypeError, match=re.escape(repr(value))):
        function(value)


@pytest.mark.parametrize("value", [np.uint64(2**63 + 5), 2**70, -1, 1 << 52])
def test_out_of_range_masks_are_value_errors(value):
    with pytest.raises(ValueError, match="only bits 0-51"):
        min_deadwood(value)


def test_uint64_mask_in_range_is_read_as_its_value():
    assert min_deadwood(np.uint64(0b111)) == min_deadwood(0b111) == 0


@pytest.mark.parametrize("cards", [MAX_HAND_CARDS + 1, 40, 52])
def test_big_hands_are_refused_at_once(cards):
    """Row 1: 40-52 cards took seconds to minutes; now a ValueError before any search."""
    mask = (1 << cards) - 1
    for function in (min_deadwood, best_melds):
        with pytest.raises(ValueError, match=f"{cards} cards; the evaluator takes at most"):
            function(mask)
    with pytest.raises(ValueError, match="at most"):
        min_deadwood_batch([mask])
    with pytest.raises(ValueError, match="at most"):
        best_discard(mask)
    with pytest.raises(ValueError, match="at most"):
        deadwood_after_layoff(mask, [])


def test_largest_hand_is_evaluated():
    """Four ranks held four times (16 cards) is the worst case allowed: 6**4 choices."""
    quads = [rank + 13 * suit for rank in range(4) for suit in range(4)]
    assert min_deadwood(quads) == 0
    assert min_deadwood(quads[:2]) == 1 + 1  # two aces, no meld


@pytest.mark.parametrize(
    ("masks", "error", "text"),
    [
        ([7.5], TypeError, "7.5"),
        ([True], TypeError, "True"),
        (["As 2s"], TypeError, "'As 2s'"),
        ([2**70], ValueError, hex(2**70)),
        ([-3], ValueError, "only bits 0-51"),
        (np.array([2**63 + 1], dtype=np.uint64), ValueError, hex(2**63 + 1)),
        (np.array([1.0, 2.0]), TypeError, "float64"),
        (np.array([True]), TypeError, "bool"),
        ([[7, 7]], ValueError, "one-dimensional"),
    ],
)
def test_batch_checks_dtype_and_range(masks, error, text):
    with pytest.raises(error, match=re.escape(text)):
        min_deadwood_batch(masks)


@pytest.mark.parametrize("parallel", [True, False])
def test_batch_names_the_first_bad_mask_among_many(parallel):
    """The checks run inside the kernel (issue 22's regression: a separate numpy pass cost
    4x the evaluation); the error still names the first refused mask."""
    masks = np.full(10_000, 0b111, dtype=np.int64)
    masks[7_000] = (1 << 17) - 1
    masks[9_000] = -5
    with pytest.raises(ValueError, match=re.escape(f"{(1 << 17) - 1:#x} has 17 cards")):
        min_deadwood_batch(masks, parallel=parallel)
    masks[7_000] = 0
    with pytest.raises(ValueError, match="only bits 0-51"):
        min_deadwood_batch(masks, parallel=parallel)
    with pytest.raises(ValueError, match="only bits 0-51"):
        min_deadwood_batch(np.array([3, -1], dtype=np.int8), parallel=parallel)


def test_batch_accepts_every_card_count_up_to_the_limit():
    """The kernel's constant-time popcount agrees with Python's on 0-16 cards."""
    masks = [(1 << cards) - 1 for cards in range(MAX_HAND_CARDS + 1)]
    masks += [((1 << cards) - 1) << (52 - cards) for cards in range(MAX_HAND_CARDS + 1)]
    assert min_deadwood_batch(masks).tolist() == [min_deadwood(m) for m in masks]


def test_batch_accepts_any_integer_dtype_and_python_ints():
    hands = [0b111, (1 << 13) | 1 | (1 << 26), 0]
    expected = [min_deadwood(h) for h in hands]
    for masks in (
        hands,
        np.array(hands, dtype=np.int32),
        np.array(hands, dtype=np.uint64),
        tuple(np.int64(h) for h in hands),
    ):
        assert min_deadwood_batch(masks).tolist() == expected
    assert min_deadwood_batch([]).tolist() == []


# ------------------------------------------------------------------ rules and policies


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("gin_bonus", 2**62),
        ("undercut_bonus", 1001),
        ("target", 100_000),
        ("target", 0),
        ("knock_limit", 11),
        ("line_bonus", -1),
    ],
)
def test_rule_ranges(field, value):
    low, high = INT_RANGES[field]
    with pytest.raises(ValueError, match=f"{field} must be {low}-{high}, got {value}"):
        resolve_rules("standard", [f"{field}={value}"])


def test_row7_overflowing_bonuses_are_refused_before_play():
    with pytest.raises(ValueError, match="gin_bonus must be 0-1000"):
        resolve_rules("standard", [f"gin_bonus={2**62}", f"undercut_bonus={2**62}"])


@pytest.mark.parametrize("value", [True, 2.0, "25", np.float64(25)])
def test_rule_fields_must_be_integers(value):
    with pytest.raises(TypeError, match="gin_bonus must be an integer"):
        Rules(gin_bonus=value)


@pytest.mark.parametrize("text", ["basic,norepeat=maybe", "basic,norepeat="])
def test_norepeat_is_yes_or_no(text):
    with pytest.raises(ValueError, match="expected yes or no"):
        parse_policy(text)


@pytest.mark.parametrize(
    "text",
    [
        "basic,slack=1e23",
        f"basic,slack={10**23}",
        f"basic,danger_penalty={MAX_PENALTY + 1}",
        "basic,slack=-1",
    ],
)
def test_policy_parameters_are_bounded(text):
    with pytest.raises(ValueError, match=r"slack|danger_penalty"):
        parse_policy(text)


@pytest.mark.parametrize(
    ("parse", "text", "key"),
    [
        (parse_policy, "basic,knock=5,knock=7", "knock"),
        (parse_policy, "draw=meld,discard=high,draw=never", "draw"),
        (parse_player, "search,budget=2,budget=3", "budget"),
        (parse_player, "search,budget=2,rollout=basic,budget=2", "budget"),
        (rummy_policy, "meld=hold,hold_turns=4,hold_turns=6", "hold_turns"),
        (rummy_policy, "rummy,hold-turns=4,hold_turns=6", "hold_turns"),
        (
            lambda text: resolve_rules("standard", text.split(",")),
            "knock_limit=5,knock_limit=7",
            "knock_limit",
        ),
    ],
)
def test_a_key_given_twice_is_refused_naming_it(parse, text, key):
    """A repeated key is not silently overridden by its last value: one of the two is a
    mistake, and the reader cannot tell which."""
    with pytest.raises(ValueError, match=rf"\b{key}\b.* twice"):
        parse(text)


def test_policy_values_are_typed():
    with pytest.raises(TypeError, match=r"slack must be an integer, got 4\.5"):
        Discard(slack=4.5)
    with pytest.raises(TypeError, match="norepeat must be True or False"):
        Discard(norepeat="no")


@pytest.mark.parametrize(
    ("field", "value"),
    [("turn_limit", 10**30), ("rummy_multiplier", 10**30), ("target", 10**6), ("hand_size", 14)],
)
def test_rummy_rule_ranges(field, value):
    with pytest.raises(ValueError, match=field):
        RummyRules(**{field: value})


def test_dealt_distribution_does_not_depend_on_its_kernel_spans(monkeypatch):
    from analyzer.gin.evaluator import dealt as evaluator

    whole = evaluator.dealt_deadwood_distribution(5_000, 11, seed=9)
    monkeypatch.setattr(evaluator, "DEALT_SPAN", 777)  # interruptible pieces
    assert evaluator.dealt_deadwood_distribution(5_000, 11, seed=9).tolist() == whole.tolist()
    assert whole.sum() == 5_000


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"deals": 2.0}, TypeError),
        ({"deals": True}, TypeError),
        ({"deals": -1}, ValueError),
        ({"deals": 10, "seed": 2**63}, ValueError),
        ({"deals": 10, "seed": -1}, ValueError),
        ({"deals": 10, "hand_size": 12}, ValueError),
    ],
)
def test_dealt_distribution_arguments(kwargs, error):
    from analyzer.gin.evaluator.dealt import dealt_deadwood_distribution

    with pytest.raises(error):
        dealt_deadwood_distribution(**kwargs)
