"""Play one plain-rummy hand from a position written out card by card (tests, examples).

>>> from analyzer.rummy import RummyRules, parse_policy
>>> from analyzer.core.cards import parse_hand, to_mask
>>> simple = parse_policy("simple").to_array()
>>> outcome = play_scripted([to_mask("4c 5c 6c 7c 9h 9d"), to_mask("Kd Qh 2s")],
...                         parse_hand("3s"), parse_hand("9s"), RummyRules().to_array(),
...                         np.array([simple, simple]))
>>> outcome.winner, outcome.end == End.OUT, outcome.turns
(0, True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.arrays import Int64s
from ..core.lanes import lane_tables
from .engine import play_hand
from .rules import RuleField
from .state import STATE_SIZE, End, Slot
from .transitions import new_position
from .work import work_space


@dataclass(frozen=True)
class HandOutcome:
    """End of one hand played by :func:`play_scripted`.

    ``winner`` is the seat that went out (-1 when void), ``points`` its score in points,
    ``hands`` the masks left by seat, ``melds`` the table as (mask, owner seat) pairs,
    ``pile`` the discard pile bottom first, ``stock`` the undrawn stock top first.
    """

    winner: int
    points: int
    rummy: bool
    turns: int
    end: End
    reshuffles: int
    calls: int
    hands: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]
    pile: tuple[int, ...]
    stock: tuple[int, ...]


def play_scripted(
    hands: Sequence[int],
    stock: Sequence[int],
    pile: Sequence[int],
    rules_array: Int64s,
    policies: Int64s,
    melds: Sequence[tuple[int, int]] = (),
    first: int = 0,
) -> HandOutcome:
    """Play one hand from an explicit position (cards as indices, hands as masks).

    ``stock`` is drawn from the front; ``pile`` lists the discard pile bottom first;
    ``melds`` are table melds as (mask, owner seat).  Every card must appear at most once.
    """
    n = int(rules_array[RuleField.PLAYERS])
    if len(hands) != n or policies.shape[0] != n:
        raise ValueError(f"need {n} hands and {n} policies")
    state = scripted_state(hands, stock, pile, melds, first)
    rd, rm, lp = lane_tables(int(rules_array[RuleField.MAX_RUN]))
    play_hand(
        state,
        rules_array,
        np.ascontiguousarray(policies, dtype=np.int64),
        rd,
        rm,
        lp,
        work_space(),
    )
    n_pile, n_melds = int(state[Slot.PILE_LEN]), int(state[Slot.N_MELDS])
    return HandOutcome(
        winner=int(state[Slot.WINNER]),
        points=int(state[Slot.POINTS]),
        rummy=bool(state[Slot.RUMMY]),
        turns=int(state[Slot.TOTAL_TURNS]),
        end=End(int(state[Slot.END])),
        reshuffles=int(state[Slot.RESHUFFLES]),
        calls=int(state[Slot.CALLS]),
        hands=tuple(int(state[Slot.HAND + seat]) for seat in range(n)),
        melds=tuple(
            (int(state[Slot.MELDS + m]), int(state[Slot.OWNERS + m])) for m in range(n_melds)
        ),
        pile=tuple(int(c) for c in state[Slot.PILE : Slot.PILE + n_pile]),
        stock=tuple(int(c) for c in state[Slot.DECK + state[Slot.STOCK] : Slot.DECK + 52]),
    )


def scripted_state(
    hands: Sequence[int],
    stock: Sequence[int],
    pile: Sequence[int],
    melds: Sequence[tuple[int, int]] = (),
    first: int = 0,
) -> Int64s:
    """The state array of a position written out card by card (as :func:`play_scripted`
    takes it); ``ValueError`` when a card appears twice."""
    used = 0
    for mask in [*hands, *(m for m, _ in melds)] + [1 << c for c in [*stock, *pile]]:
        if used & mask:
            raise ValueError("a card appears twice in the scripted position")
        used |= mask
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    new_position(
        state,
        np.array(hands, dtype=np.int64),
        np.array(stock, dtype=np.int64),
        np.array(pile, dtype=np.int64),
        np.array([m for m, _ in melds], dtype=np.int64),
        np.array([owner for _, owner in melds], dtype=np.int64),
        np.int64(first),
    )
    return state
