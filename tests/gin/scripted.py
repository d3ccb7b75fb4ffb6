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


def shuffled(generator, rules=RULES):
    """A fresh hand dealt from a random deck order (seat 1 dealing), and that order:
    seat 0 holds ``deck[:10]``, seat 1 ``deck[10:20]``, the upcard is ``deck[20]`` and
    the stock ``deck[21:]`` in draw order."""
    deck = generator.permutation(52)
    state = new_state()
    new_hand(state, deck_order(deck[:10], deck[10:20], deck[20], deck[21:]), np.int64(1), rules)
    return state, deck
