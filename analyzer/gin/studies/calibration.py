"""Snapshots of simulated hands for fitting and checking the opponent-hand inference.

:func:`inference_snapshots` plays hands with the given policies and stops each one once,
at a random point where the observer (seat 0) is about to draw; there it records, for
every card the observer has not seen, the inference's probability, the truth (whether
the opponent holds it) and the feature values of :mod:`analyzer.gin.decisions.inference`.  The
stopping point of hand ``i`` is drawn from the stream ``stream_key(seed, i)`` of the
policy salt, the deck from ``stream_key(seed, i)``, as in :mod:`analyzer.gin.play.simulate`.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pandas as pd
from numba import njit

from ...core.arrays import Float64s, Int64s
from ...core.lanes import bit_index
from ...core.rng import next_below, stream_key
from ..decisions.inference import N_FEATURES, Feature, card_features, infer_hidden
from ..engine.transitions import SCRATCH_SIZE, STATE_SIZE, Phase, Slot, step
from ..model.knowledge import hidden_count
from ..model.policies import Policy
from ..model.rules import Rules
from ..play.game_kernels import deal_hand

_STOP_SALT = np.int64(0x51A7)
#: Own turns of the observer at which a hand may be stopped (uniform over 1..this).
MAX_STOP_TURN = 12


class SnapshotColumn(IntEnum):
    HAND = 0
    CARD = 1
    HIDDEN = 2
    """the opponent's hidden cards at the snapshot (the probabilities sum to it)"""
    PROB = 3
    HELD = 4
    OWN_TURNS = 5
    FEATURES = 6


@njit(cache=True)
def _snapshot_rows(
    state: Int64s,
    hand_id: np.int64,
    columns: Float64s,
    unit: Float64s,
    probs: Float64s,
    rows: Float64s,
    start: np.int64,
) -> np.int64:
    """One row per card seat 0 has not seen, from ``start``; returns the next free row."""
    observer = np.int64(0)
    for feature in range(N_FEATURES):
        for i in range(N_FEATURES):
            unit[i] = 0.0
        unit[feature] = 1.0
        card_features(state, observer, unit, columns[feature])
    unseen = infer_hidden(state, observer, probs)
    hidden = hidden_count(state, observer)
    opponent_hand = state[Slot.HAND + 1]
    row = start
    rest = unseen
    while rest and row < rows.shape[0]:
        bit = rest & -rest
        rest ^= bit
        card = bit_index(bit)
        rows[row, SnapshotColumn.HAND] = hand_id
        rows[row, SnapshotColumn.CARD] = card
        rows[row, SnapshotColumn.HIDDEN] = hidden
        rows[row, SnapshotColumn.PROB] = probs[card]
        rows[row, SnapshotColumn.HELD] = 1.0 if opponent_hand & bit else 0.0
        rows[row, SnapshotColumn.OWN_TURNS] = state[Slot.OWN_TURNS + observer]
        for feature in range(N_FEATURES):
            rows[row, SnapshotColumn.FEATURES + feature] = columns[feature, card]
        row += 1
    return row


@njit(cache=True)
def _snapshots_kernel(
    seed: np.int64, n_hands: np.int64, rules: Int64s, policies: Int64s, rows: Float64s
) -> np.int64:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int8)
    rng = np.empty(1, dtype=np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    columns = np.zeros((N_FEATURES, 52), dtype=np.float64)
    unit = np.zeros(N_FEATURES, dtype=np.float64)
    probs = np.zeros(52, dtype=np.float64)
    row = np.int64(0)
    for hand in range(n_hands):
        deal_hand(stream_key(seed, hand), np.int64(hand % 2), rules, state, deck, rng)
        rng[0] = stream_key(seed ^ _STOP_SALT, hand)
        stop = 1 + next_below(rng, MAX_STOP_TURN)
        while state[Slot.PHASE] != Phase.DONE:
            if (
                state[Slot.PHASE] == Phase.DRAW
                and state[Slot.TURN] == 0
                and state[Slot.OWN_TURNS] >= stop
            ):
                row = _snapshot_rows(state, hand, columns, unit, probs, rows, row)
                break
            step(state, rules, policies, rng, scratch)
    return row


def inference_snapshots(
    rules: Rules, observer: Policy, opponent: Policy, n_hands: int, seed: int
) -> pd.DataFrame:
    """One row per (snapshot, unseen card): columns of :class:`SnapshotColumn` with the
    features named after :class:`Feature`.  Hands that end before their stopping point
    give no rows."""
    rows = np.zeros((n_hands * 45, SnapshotColumn.FEATURES + N_FEATURES), dtype=np.float64)
    policies = np.stack([observer.to_array(), opponent.to_array()])
    used = _snapshots_kernel(np.int64(seed), np.int64(n_hands), rules.to_array(), policies, rows)
    names = [c.name.lower() for c in SnapshotColumn][:-1] + [f.name.lower() for f in Feature]
    frame = pd.DataFrame(rows[:used], columns=names)
    for name in ("hand", "card", "hidden", "held", "own_turns"):
        frame[name] = frame[name].astype(np.int64)
    return frame
