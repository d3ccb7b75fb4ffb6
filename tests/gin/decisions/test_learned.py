"""The learned discard (its features against brute force, its choice against a plain
rule it must reduce to) and the read of a racing opponent across a game."""

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cli.main import cli
from analyzer.core.melds import meld_table
from analyzer.gin.decisions.choose import choose_discard
from analyzer.gin.decisions.expert import _TAG
from analyzer.gin.decisions.learned import WEIGHT_KEYS
from analyzer.gin.engine.transitions import (
    SCRATCH_SIZE,
    Slot,
    knock_threshold,
    new_scratch,
)
from analyzer.gin.evaluator.future import (
    FUTURE_CARDS,
    LOWEST_AT,
    future_deadwood,
    lowest_space,
    meld_partners,
)
from analyzer.gin.evaluator.partition import (
    best_discard_kernel,
    least_after_throw_kernel,
    min_deadwood_kernel,
)
from analyzer.gin.model.describe import explain_policy
from analyzer.gin.model.knowledge import outraced
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.gin.play.simulate import game_rows, hand_rows

from .. import scripted

EAAI = RULE_PRESETS["eaai"]
#: The learned discard reduced to "least deadwood, ties to the higher card": the ``high``
#: rule, which the expert's knock part then matches exactly.
PLAIN = ",".join(
    [f"{key}={100 if key == 'learned_deadwood' else 0}" for key in WEIGHT_KEYS]
    + ["learned_window=0"]
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True),
    st.lists(st.integers(0, 51), min_size=0, max_size=40, unique=True),
)
def test_future_deadwood_equals_the_mean_of_the_seven_best_draws_over_the_whole_pool(
    hand_cards, pool_cards
):
    """Only the pool's cards that make a meld with two cards of the hand are evaluated in
    full; trying every card of the pool and every throw confirms it."""
    hand = np.int64(sum(1 << c for c in hand_cards))
    pool_cards = [c for c in pool_cards if c not in hand_cards]
    pool = np.int64(sum(1 << c for c in pool_cards))
    fast = future_deadwood(hand, min_deadwood_kernel(hand), pool, np.empty(7, dtype=np.int64))
    work = np.zeros(52, dtype=np.int64)
    every = sorted(best_discard_kernel(hand | 1 << c, hand | 1 << c, work)[0] for c in pool_cards)
    expected = np.mean(every[:7]) if every else float(min_deadwood_kernel(hand))
    assert fast == pytest.approx(expected, abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=16, unique=True))
def test_meld_partners_are_the_cards_in_some_meld_with_the_hand(cards):
    """Every legal meld tried: a card outside the hand is a partner exactly when some meld
    holds it and otherwise only cards of the hand."""
    hand = sum(1 << c for c in cards)
    melds = [int(m) for m in meld_table().masks]
    expected = 0
    for card in set(range(52)) - set(cards):
        bit = 1 << card
        if any(m & bit and not m & ~(hand | bit) for m in melds):
            expected |= bit
    assert int(meld_partners(np.int64(hand))) == expected


def test_with_only_the_deadwood_weighed_it_plays_every_hand_as_the_high_rule():
    """Deadwood weight 100, every other weight 0 and a window of 0: the least deadwood,
    ties to the higher card, which is the ``high`` discard; hand by hand the same games."""
    learned = parse_policy(f"expert-v3,discard=learned,{PLAIN}")
    high = parse_policy("expert-v3,discard=high")
    for opponent in ("eaai-simple", "marjj"):
        rows_learned = hand_rows(EAAI, learned, PRESETS[opponent], 11, 0, 300)
        rows_high = hand_rows(EAAI, high, PRESETS[opponent], 11, 0, 300)
        assert np.array_equal(rows_learned, rows_high)


def test_the_learned_discard_parses_prints_and_is_described():
    policy = parse_policy("expert-v3,discard=learned,learned_future=1200,learned_window=6")
    assert parse_policy(format_policy(policy)) == policy
    assert "learned from simulated deals" in explain_policy(policy)


def test_a_knock_where_the_readers_own_table_would_not_knock_reads_a_racer():
    """The expert's table: 10 or less on own turns 1-9, gin only from turn 10; while the
    reader holds a card it took from the pile, gin only from turn 7."""
    table = PRESETS["expert-v3"].to_array()
    state = scripted.dealt(
        "As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "Ac 2c 3c 4d 5d 6d 7s 8s 9s Qh", "Jh", "Jc"
    )
    state[Slot.KNOCKER] = 1
    state[Slot.KNOCKER_DEADWOOD] = 4
    state[Slot.OWN_TURNS + 1] = 9
    assert not outraced(state, 0, table)  # the reader knocks there too
    state[Slot.OWN_TURNS + 1] = 10
    assert outraced(state, 0, table)
    assert not outraced(state, 1, table)  # the knocker reads nothing of itself
    state[Slot.OWN_TURNS + 1] = 7
    assert not outraced(state, 0, table)
    state[Slot.HELD] = scripted.bit("Jh")  # the reader holds a card from the pile
    assert outraced(state, 0, table)
    state[Slot.KNOCKER_DEADWOOD] = 0
    assert not outraced(state, 0, table)  # gin is no race
    state[Slot.KNOCKER] = -1
    assert not outraced(state, 0, table)


def test_once_the_opponent_raced_the_racer_table_replaces_the_others():
    policy = parse_policy("basic,knock=10,knock_alert=1:10/2:0,knock_racer=1:10/3:0")
    row = policy.to_array()
    state = scripted.dealt(
        "As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "Ac 2c 3c 4d 5d 6d 7s 8s 9s Qh", "Jh", "Jc"
    )
    state[Slot.OWN_TURNS] = 5
    assert knock_threshold(state, 0, row) == 10
    state[Slot.HELD + 1] = scripted.bit("Jh")
    assert knock_threshold(state, 0, row) == 0  # the alert table
    state[Slot.RACES] = 1
    assert knock_threshold(state, 0, row) == 0  # the racer table from turn 3
    state[Slot.OWN_TURNS] = 2
    assert knock_threshold(state, 0, row) == 10
    without = parse_policy("basic,knock=10").to_array()
    state[Slot.HELD + 1] = 0
    state[Slot.OWN_TURNS] = 5
    assert knock_threshold(state, 0, without) == 10  # no read: the racer count is ignored


def _throw(policy, state):
    scratch = new_scratch()
    rng = np.zeros(1, dtype=np.uint64)
    return choose_discard(state, np.int64(0), policy.to_array(), rng, scratch[:52], scratch[52:])


def test_once_the_opponent_raced_the_racer_discard_replaces_the_rule():
    """``discard_racer=marjj``: before the read the learned throw, after it MARJJ's,
    position by position on random deals (some of which the two rules throw apart)."""
    mixed = parse_policy("expert-v3,discard=learned,discard_racer=marjj")
    learned = parse_policy("expert-v3,discard=learned")
    marjj = parse_policy("expert-v3,discard=marjj")
    assert parse_policy(format_policy(mixed)) == mixed
    assert "once the opponent has shown itself a racer it throws" in explain_policy(mixed)
    generator = np.random.default_rng(7)
    apart = 0
    for _ in range(60):
        state, deck = scripted.shuffled(generator, EAAI.to_array())
        state[Slot.HAND] |= np.int64(1) << deck[21]  # seat 0 drew the stock's top card
        state[Slot.OWN_TURNS] = 2
        before, after = _throw(learned, state), _throw(marjj, state)
        assert _throw(mixed, state) == before
        state[Slot.RACES] = 1
        assert _throw(mixed, state) == after
        apart += before != after
    assert apart > 0


def test_a_bad_racer_discard_is_one_line_naming_it():
    with pytest.raises(ValueError, match="unknown discard_racer rule 'nonsense'; choose from same"):
        parse_policy("expert-v3,discard_racer=nonsense")
    result = CliRunner().invoke(cli, ["policies", "expert,discard_racer=nonsense"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "discard_racer" in lines[0] and lines[0].startswith("Error:")


def test_in_games_the_read_waits_against_a_racer_and_changes_nothing_against_a_camper():
    """Against ``marjj`` (which knocks only on its turns 1-3) the read never fires, so the
    games are the same with and without it; against the EAAI simple player it fires and
    the reader knocks less often in later hands."""
    base = parse_policy("expert-v3")
    reader = base.changed(knock_racer=((1, 10), (3, 0)))
    camper = PRESETS["marjj"]
    assert np.array_equal(
        game_rows(EAAI, reader, camper, 5, 0, 40), game_rows(EAAI, base, camper, 5, 0, 40)
    )
    racer = PRESETS["eaai-simple"]
    with_read = game_rows(EAAI, reader, racer, 5, 0, 200)
    without = game_rows(EAAI, base, racer, 5, 0, 200)
    assert not np.array_equal(with_read, without)
    # single hands have no earlier hand to read: the same hands
    assert np.array_equal(
        hand_rows(EAAI, reader, racer, 5, 0, 200), hand_rows(EAAI, base, racer, 5, 0, 200)
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True))
def test_least_after_a_throw_equals_trying_every_throw(hand_cards):
    hand = np.int64(sum(1 << c for c in hand_cards))
    expected, _ = best_discard_kernel(hand, hand, np.zeros(52, dtype=np.int64))
    assert least_after_throw_kernel(hand) == expected


def test_the_engine_scratch_holds_the_next_draw_work_space_after_the_inference_tag():
    """The decision work array is the engine's scratch from entry 52: the expert's 52
    probabilities and 6-entry inference tag, then the next-draw term's lowest values,
    which must fit (else every decision would allocate them)."""
    assert LOWEST_AT >= _TAG + 6
    assert SCRATCH_SIZE - 52 >= LOWEST_AT + FUTURE_CARDS
    work = np.zeros(SCRATCH_SIZE, dtype=np.int64)[52:]
    space = lowest_space(work)
    space[:] = 1
    assert work[LOWEST_AT : LOWEST_AT + FUTURE_CARDS].sum() == FUTURE_CARDS  # a view
    assert len(lowest_space(np.zeros(0, dtype=np.int64))) == FUTURE_CARDS
