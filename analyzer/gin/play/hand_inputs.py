"""The checks of what a :class:`~analyzer.gin.play.hand.Hand` is built from: seats,
rules, seeds, card lists, deck orders, the seats' reads and scores (each a ``TypeError``
or ``ValueError`` naming the argument)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ...core.arrays import Int8s
from ...core.cards import check_card, to_mask
from ...core.limits import SEED_MAX, check_int, check_seed
from ...core.rng import stream_key
from ..model.rules import Rules, resolve_rules
from .game_kernels import MAX_HANDS_PER_GAME


def check_seat(value: object, name: str) -> int:
    """A seat number: the integer 0 or 1 (not ``True``, not ``1.0``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be 0 or 1, got {value!r}")
    if value not in (0, 1):
        raise ValueError(f"{name} must be 0 or 1, got {value!r}")
    return int(value)


def rules_given(value: object) -> Rules:
    """Rules given as a :class:`Rules` or a preset name."""
    if isinstance(value, Rules):
        return value
    if not isinstance(value, str):
        raise TypeError(f"rules must be a Rules or a rules preset name, got {value!r}")
    return resolve_rules(value)


def hand_stream_key(seed: object, hand_index: object) -> np.uint64:
    """The key of a hand's random stream: hand ``hand_index`` (0 or more) of ``seed``
    (0 <= seed < 2**63)."""
    seed = check_seed(seed)
    hand_index = check_int(hand_index, "hand_index", 0, SEED_MAX)
    return stream_key(np.int64(seed), np.int64(hand_index))


def card_list(cards: object, name: str) -> list[int]:
    """``cards`` as a list of card indices, when it is a sequence or an array of them (a
    string or a mask is a ``TypeError``: a hand's cards are listed one by one); a value
    that is no card index 0-51 is a ``ValueError`` naming it, before any conversion, so
    that none wraps around into a card."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a list of card indices 0-51, got {cards!r}")
    return [check_card(card) for card in cards]


def deck_order(deck: object) -> Int8s:
    """A deck order: the 52 card indices, each once."""
    order = card_list(deck, "deck")
    if len(order) != 52:
        raise ValueError(f"a deck order holds the 52 cards, got {len(order)} values")
    to_mask(order)  # ValueError naming a card listed twice
    return np.array(order, dtype=np.int8)


def check_races(races: object) -> tuple[int, int]:
    """Each seat's read of its opponent: two counts of earlier hands of the game, each
    0 up to the most hands a game is played (``MAX_HANDS_PER_GAME``)."""
    if isinstance(races, (str, bytes)) or not isinstance(races, (Sequence, np.ndarray)):
        raise TypeError(f"races must be a pair of integers (seat 0's, seat 1's), got {races!r}")
    if len(races) != 2:
        raise ValueError(f"races must be a pair of integers (seat 0's, seat 1's), got {races!r}")
    first, second = (
        check_int(count, f"races[{seat}]", 0, MAX_HANDS_PER_GAME)
        for seat, count in enumerate(races)
    )
    return first, second


def check_scores(scores: object, rules: Rules) -> tuple[int, int]:
    """The seats' game scores before a hand: two integers, each 0 up to below the rules'
    target (a game is over at the target)."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (Sequence, np.ndarray)):
        raise TypeError(f"scores must be a pair of integers (seat 0's, seat 1's), got {scores!r}")
    if len(scores) != 2:
        raise ValueError(f"scores must be a pair of integers (seat 0's, seat 1's), got {scores!r}")
    low, high = 0, rules.target - 1
    first, second = (
        check_int(score, f"scores[{seat}]", low, high) for seat, score in enumerate(scores)
    )
    return first, second


__all__ = [
    "card_list",
    "check_races",
    "check_scores",
    "check_seat",
    "deck_order",
    "hand_stream_key",
    "rules_given",
]
