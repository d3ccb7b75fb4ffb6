"""The opponent-hand inference: its invariants on scripted positions, the direction of
each feature, and its calibration on simulated hands."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.rng import stream_key
from analyzer.gin.decisions.inference import (
    CALIBRATION_X,
    CALIBRATION_Y,
    calibrated,
    from_sampling_table,
    infer_hidden,
    opponent_outlook,
    sample_hidden,
    sample_played_in,
    to_sampling_table,
)
from analyzer.gin.engine.transitions import (
    Phase,
    Slot,
    apply_discard,
    apply_draw,
    new_scratch,
)
from analyzer.gin.evaluator.api import min_deadwood
from analyzer.gin.model.knowledge import hidden_count
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import Rules
from analyzer.gin.studies.calibration import inference_snapshots

from ..scripted import card, dealt, mask

STANDARD = Rules()
RULES = STANDARD.to_array()


def position():
    """Seat 1 took 9h and threw 3s; seat 0 (the observer) is to draw."""
    state = dealt("As 2s 4c 5c 6c 7h 8h Kd Qd Jd", "3s Tc Jc 2d 3d 4d 7c 8c Kh Ks", "9h", "2h 5h")
    state[Slot.OFFERS], state[Slot.PHASE], state[Slot.TURN] = 1, Phase.DRAW, 1
    apply_draw(state, True)  # seat 1 takes 9h
    apply_discard(state, card("3s"), False, RULES)
    apply_draw(state, False)  # seat 0 draws 2h, throws Kd
    apply_discard(state, card("Kd"), False, RULES)
    apply_draw(state, False)  # seat 1 refuses Kd, draws 5h, throws Ks
    apply_discard(state, card("Ks"), False, RULES)
    return state


def probabilities(state, observer=0):
    probs = np.zeros(52)
    unseen = infer_hidden(state, np.int64(observer), probs)
    return probs, unseen


def test_probabilities_sum_to_the_hidden_cards_and_respect_what_is_seen():
    state = position()
    probs, unseen = probabilities(state)
    assert hidden_count(state, np.int64(0)) == 9
    assert probs[card("9h")] == 1.0  # known: taken from the pile and kept
    held_unseen = sum(probs[c] for c in range(52) if unseen >> c & 1)
    assert held_unseen == pytest.approx(9.0)
    for seen in ("As", "2h", "Kd", "Ks", "3s"):  # own hand and pile
        assert probs[card(seen)] == 0.0
    assert ((probs >= 0) & (probs <= 1)).all()


def test_each_observation_moves_the_related_cards_the_stated_way():
    state = position()
    probs, _ = probabilities(state)
    baseline = probs[card("5d")]  # nothing of seat 1's record relates to it
    # it threw 3s: its rank mates and suit neighbours are less likely
    assert probs[card("3c")] < baseline and probs[card("4s")] < baseline
    # it refused Kd: the other kings are less likely
    assert probs[card("Kc")] < baseline
    # it took and kept 9h: 9c and Th are more likely
    assert probs[card("9c")] > baseline and probs[card("Th")] > baseline


@given(st.one_of(st.floats(-0.5, 1.5), st.sampled_from([float(x) for x in CALIBRATION_X])))
def test_the_calibration_curve_is_numpys_interp_bit_for_bit(share):
    assert calibrated(share) == np.interp(share, CALIBRATION_X, CALIBRATION_Y)


def test_the_sampling_table_round_trips():
    state = position()
    probs, unseen = probabilities(state)
    table = probs.copy()
    to_sampling_table(unseen, table)
    assert (np.diff(table) >= 0).all()
    from_sampling_table(state, np.int64(0), unseen, table)
    assert np.allclose(table, probs)


def test_sampled_hands_follow_the_probabilities_roughly():
    # successive sampling by odds is not exactly the marginals, but a card's sampled
    # frequency rises with its probability: compare the lower and upper halves
    state = position()
    probs, unseen = probabilities(state)
    table = probs.copy()
    to_sampling_table(unseen, table)
    rng = np.array([stream_key(np.int64(4), np.int64(0))], dtype=np.uint64)
    counts = np.zeros(52)
    n = 3000
    for _ in range(n):
        hand = sample_hidden(state, np.int64(0), table, unseen, rng)
        counts += [(hand >> c) & 1 for c in range(52)]
    cards_unseen = [c for c in range(52) if unseen >> c & 1]
    order = sorted(cards_unseen, key=lambda c: probs[c])
    half = len(order) // 2
    assert counts[order[half:]].sum() > 1.3 * counts[order[:half]].sum()
    assert counts[card("9h")] == n  # known


def test_sampled_hands_hold_the_known_cards_and_only_unseen_ones():
    state = position()
    probs, unseen = probabilities(state)
    to_sampling_table(unseen, probs)
    rng = np.array([stream_key(np.int64(5), np.int64(0))], dtype=np.uint64)
    scratch = new_scratch()
    for _ in range(200):
        hand = sample_hidden(state, np.int64(0), probs, unseen, rng)
        assert bin(hand).count("1") == 10 and hand & mask("9h")
        assert hand & ~(unseen | mask("9h")) == 0
        played = sample_played_in(state, np.int64(0), probs, unseen, np.int64(2), rng, scratch)
        assert bin(played).count("1") == 10 and played & mask("9h")


def test_played_in_hands_are_better_than_marginal_draws():
    state = position()
    probs, unseen = probabilities(state)
    to_sampling_table(unseen, probs)
    rng = np.array([stream_key(np.int64(6), np.int64(0))], dtype=np.uint64)
    scratch = new_scratch()
    n = 400
    raw = [
        min_deadwood(int(sample_hidden(state, np.int64(0), probs, unseen, rng))) for _ in range(n)
    ]
    played = [
        min_deadwood(
            int(sample_played_in(state, np.int64(0), probs, unseen, np.int64(3), rng, scratch))
        )
        for _ in range(n)
    ]
    gap = np.mean(raw) - np.mean(played)
    half = 1.96 * np.sqrt((np.var(raw) + np.var(played)) / n)
    assert gap > half  # three rounds of play-in lower the deadwood, beyond noise


def test_outlook_returns_consistent_estimates():
    state = position()
    probs, unseen = probabilities(state)
    to_sampling_table(unseen, probs)
    rng = np.array([stream_key(np.int64(7), np.int64(0))], dtype=np.uint64)
    deadwoods = np.zeros(64, dtype=np.int64)
    mean, ends, gins = opponent_outlook(
        state,
        np.int64(0),
        probs,
        unseen,
        np.int64(card("2h")),
        np.int64(64),
        np.int64(2),
        rng,
        new_scratch()[:52],
        deadwoods,
    )
    assert mean == pytest.approx(deadwoods.mean())
    assert 0.0 <= gins <= ends <= 1.0
    assert (deadwoods >= 0).all() and (deadwoods <= 100).all()


@pytest.mark.parametrize("opponent", ["basic", "expert"])
def test_calibration_on_simulated_hands(opponent):
    """Bucket the predicted probabilities by tenths; in each bucket with at least 300
    cards the observed frequency is within 4 binomial standard errors (from the
    predicted p's) of the mean prediction; and the overall log score beats the uniform
    guess (k / unseen) by a margin."""
    frame = inference_snapshots(STANDARD, PRESETS["basic"], PRESETS[opponent], 2000, 11)
    assert len(frame) > 25_000
    frame["bucket"] = np.minimum((frame["prob"] * 10).astype(int), 9)
    checked = 0
    for _, rows in frame.groupby("bucket"):
        if len(rows) < 300:
            continue
        predicted = rows["prob"].mean()
        observed = rows["held"].mean()
        error = np.sqrt((rows["prob"] * (1 - rows["prob"])).sum()) / len(rows)
        assert abs(observed - predicted) < 4 * error, (predicted, observed, len(rows))
        checked += 1
    assert checked >= 4
    sizes = frame.groupby("hand")["card"].transform("size")
    uniform = frame["hidden"] / sizes
    held = frame["held"]

    def log_score(p):
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return float(np.mean(held * np.log(p) + (1 - held) * np.log(1 - p)))

    assert log_score(frame["prob"]) > log_score(uniform) + 0.01
