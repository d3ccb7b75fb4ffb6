"""Scripted positions shared by the knowledge, inference and expert tests: cards by name,
and a hand dealt from a chosen deck order."""

import numpy as np

from analyzer.core import cards
from analyzer.gin.engine.transitions import deck_order, new_hand, new_state
from analyzer.gin.model.rules import Rules

RULES = Rules().to_array()


def card(text):
    return cards.parse_card(text)


def mask(text):
    return cards.to_mask(cards.parse_hand(text))


def bit(text):
    return 1 << card(text)


def dealt(first, second, upcard, stock):
    """A fresh hand under standard rules, seat 1 dealing: seat 0 (non-dealer) gets
    ``first``, seat 1 ``second``, then the upcard and the stock in draw order."""
    state = new_state()
    deck = deck_order(
        cards.parse_hand(first), cards.parse_hand(second), card(upcard), cards.parse_hand(stock)
    )
    new_hand(state, deck, np.int64(1), RULES)
    return state
