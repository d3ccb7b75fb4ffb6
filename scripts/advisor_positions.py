"""Positions for the advisor scripts: seat 0's knock decisions on simulated hands.

The process is the knock chart's (:mod:`analyzer.gin.studies.branching`): two basic players, seats
swapped over each deal, and at every legal non-gin knock of seat 0 the main line plays
on with the policy's throw, so later turns are visited too.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from analyzer.gin.decisions.choose import choose_discard
from analyzer.gin.engine.transitions import Slot, apply_discard, new_scratch, new_state
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import Rules
from analyzer.gin.play.advisor import Position
from analyzer.gin.studies.branching import decision_policies, next_knock_decision, start_hand


def branch_points(rules: Rules, n_deals: int, seed: int) -> list[dict[str, object]]:
    """Every non-gin knock opportunity of seat 0 on the chart's main line, with the
    chart's two candidate discards, for deals ``0 .. n_deals`` (both seatings)."""
    subject = POLICIES["basic"]
    policies = np.stack([subject.to_array(), subject.to_array()])
    knock_now, hold = decision_policies(subject)
    rules_array = rules.to_array()
    state, scratch = new_state(), new_scratch()
    deck = np.empty(52, dtype=np.int8)
    rng = np.empty(1, dtype=np.uint64)
    found = []
    for deal in range(n_deals):
        for rep in range(2):
            start_hand(state, deck, rng, np.int64(seed), np.int64(deal), np.int64(rep), rules_array)
            while (
                deadwood := next_knock_decision(state, rules_array, policies, rng, scratch)
            ) >= 0:
                knock_card, _ = choose_discard(
                    state.copy(), np.int64(0), knock_now, rng.copy(), scratch[:52], scratch[52:]
                )
                hold_card, _ = choose_discard(
                    state, np.int64(0), hold, rng, scratch[:52], scratch[52:]
                )
                found.append(
                    {
                        "deal": deal,
                        "rep": rep,
                        "state": state.copy(),
                        "deadwood": int(deadwood),
                        "turn": int(state[Slot.OWN_TURNS]),
                        "knock_card": int(knock_card),
                        "hold_card": int(hold_card),
                    }
                )
                apply_discard(state, hold_card, False, rules_array)
    return found


def seat0_position(state: npt.NDArray[np.int64]) -> Position:
    """What seat 0 knows in ``state`` (it holds 11 cards and is to discard)."""

    def cards(mask: int) -> tuple[int, ...]:
        return tuple(c for c in range(52) if int(mask) >> c & 1)

    taken = int(state[Slot.TAKEN])
    return Position(
        hand=cards(state[Slot.HAND]),
        pile=tuple(int(c) for c in state[Slot.PILE : Slot.PILE + state[Slot.PILE_LEN]]),
        opp_took=cards(state[Slot.TOOK + 1]),
        opp_threw=cards(state[Slot.THREW + 1]),
        stock=int(52 - state[Slot.STOCK_POS]),
        turn=int(state[Slot.OWN_TURNS]),
        dealer="me" if state[Slot.DEALER] == 0 else "opp",
        drawn=taken if taken >= 0 else None,
        from_pile=taken >= 0,
        upcard=int(state[Slot.UPCARD]) if state[Slot.UPCARD] >= 0 else None,
    )
