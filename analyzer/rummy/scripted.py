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
from .state import MAX_MELDS, N_COUNTERS, N_RESULT, Counter, End, ResultField


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
    used = 0
    for mask in [*hands, *(m for m, _ in melds)] + [1 << c for c in [*stock, *pile]]:
        if used & mask:
            raise ValueError("a card appears twice in the scripted position")
        used |= mask
    deck = np.zeros(52, dtype=np.int8)
    ptr = 52 - len(stock)
    # the stock ends the deck; the drawn part before it is never read again
    deck[:] = [c for c in range(52) if c not in set(stock)] + list(stock)
    pile_array = np.zeros(52, dtype=np.int8)
    pile_array[: len(pile)] = pile
    hand_array = np.array(hands, dtype=np.int64)
    meld_array = np.zeros(MAX_MELDS, dtype=np.int64)
    owner_array = np.zeros(MAX_MELDS, dtype=np.int64)
    for i, (mask, owner) in enumerate(melds):
        meld_array[i], owner_array[i] = mask, owner
    counters = np.zeros(N_COUNTERS, dtype=np.int64)
    counters[Counter.STOCK] = ptr
    counters[Counter.PILE] = len(pile)
    counters[Counter.MELDS] = len(melds)
    counters[Counter.PLAYER] = first
    result = np.zeros(N_RESULT, dtype=np.int64)
    rd, rm, lp = lane_tables(int(rules_array[RuleField.MAX_RUN]))
    play_hand(
        hand_array,
        deck,
        pile_array,
        meld_array,
        owner_array,
        counters,
        rules_array,
        np.ascontiguousarray(policies, dtype=np.int64),
        rd,
        rm,
        lp,
        result,
    )
    return HandOutcome(
        winner=int(result[ResultField.WINNER]),
        points=int(result[ResultField.POINTS]),
        rummy=bool(result[ResultField.RUMMY]),
        turns=int(result[ResultField.TURNS]),
        end=End(int(result[ResultField.END])),
        reshuffles=int(result[ResultField.RESHUFFLES]),
        calls=int(result[ResultField.CALLS]),
        hands=tuple(int(h) for h in hand_array),
        melds=tuple(
            (int(meld_array[i]), int(owner_array[i])) for i in range(counters[Counter.MELDS])
        ),
        pile=tuple(int(c) for c in pile_array[: counters[Counter.PILE]]),
        stock=tuple(int(c) for c in deck[counters[Counter.STOCK] :]),
    )
