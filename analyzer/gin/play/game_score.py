"""The scoring of a game of gin rummy as data: the running score of a sequence of hands.

A game is one ``np.int64`` array indexed by :class:`GameSlot`, as a hand is one state
array (:mod:`analyzer.gin.model.state`).  :func:`score_hand` applies a finished hand to
it: each seat's read of its opponent, the winner's points, box (hand won) and immediate
line bonus in every Hollywood column the win reaches, the target and the closing totals
of a column, and the next dealer.  The game kernel (:func:`analyzer.gin.play.game_kernels.play_game`)
plays its hands through it, and :class:`analyzer.gin.play.game.Game` lets Python front
doors (the practice table) do the same hand by hand; the multiplayer games add their hands with
:func:`add_hand_won` and close with :func:`close_game`, which take any number of sides.

Hollywood: a player's n-th hand won scores in the first n of three columns (games); each
column closes when its winner reaches the target, and the game is over when every column
has closed.  Without Hollywood there is one column.  Scores are in points.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ...core.arrays import Int64s
from ..engine.transitions import Slot
from ..model.knowledge import outraced
from ..model.rules import RuleField, Shutout

__all__ = [
    "COLUMNS",
    "GAME_SIZE",
    "GameSlot",
    "add_hand_won",
    "close_game",
    "new_game",
    "score_hand",
]

#: Score columns of a Hollywood game (one game otherwise).
COLUMNS = 3


class GameSlot(IntEnum):
    """Slots of a game array (seat 0 is player A)."""

    SCORE = 0  # 2 * column + seat: points before bonuses
    BOXES = 6  # 2 * column + seat: hands won
    CLOSED = 12  # + column: 1 once the column's game is over
    WINS = 15  # + seat: hands won in the whole game (the Hollywood reach)
    RACES = 17  # + seat: earlier hands showing the seat's opponent a racer
    DEALER = 19  # the dealer of the next hand
    HANDS = 20  # hands played, drawn hands included
    DRAWN_HANDS = 21
    COLUMNS = 22  # score columns in play: 3 with Hollywood, else 1
    OPEN_COLUMNS = 23  # columns not yet closed: the game is over at 0
    SHUTOUTS = 24  # closed columns the loser won no hand of
    GAMES_WON = 25  # + seat: closed columns won
    TOTAL = 27  # + seat: grand totals (points, bonuses included) over closed columns
    LAST_WINNER = 29  # the winner of the column closed last (-1 before any)
    LAST_TOTAL = 30  # + seat: the grand totals of the column closed last
    TARGET = 32  # points that close a column
    SIZE = 33


#: Length of a game array.
GAME_SIZE = int(GameSlot.SIZE)


@njit(cache=True)
def new_game(
    game: Int64s, first_dealer: np.int64, start: Int64s, columns: np.int64, target: np.int64
) -> None:
    """Reset ``game`` for a new game dealt first by ``first_dealer`` with ``columns``
    score columns (1, or 3 for Hollywood), each closed when a seat reaches ``target``
    points; ``start`` holds the score (points) and boxes each seat begins with,
    ``[score_a, score_b, boxes_a, boxes_b]``, in every column."""
    game[:] = 0
    for col in range(COLUMNS):
        for seat in range(2):
            game[GameSlot.SCORE + 2 * col + seat] = start[seat]
            game[GameSlot.BOXES + 2 * col + seat] = start[2 + seat]
    game[GameSlot.DEALER] = first_dealer
    game[GameSlot.COLUMNS] = columns
    game[GameSlot.OPEN_COLUMNS] = columns
    game[GameSlot.LAST_WINNER] = -1
    game[GameSlot.TARGET] = target


@njit(cache=True)
def add_hand_won(
    scores: Int64s, boxes: Int64s, side: np.int64, points: np.int64, rules: Int64s
) -> None:
    """``side`` won a hand worth ``points``: its points, its box and, when the rules pay
    it at once, its line bonus."""
    scores[side] += points
    boxes[side] += 1
    if rules[RuleField.LINE_IMMEDIATE]:
        scores[side] += rules[RuleField.LINE_BONUS]


@njit(cache=True)
def close_game(
    scores: Int64s, boxes: Int64s, winner: np.int64, rules: Int64s, out_totals: Int64s
) -> bool:
    """Grand totals (points) of one finished game between ``len(scores)`` sides into
    ``out_totals``: each side's points and line bonuses, the game bonus and the
    shutout's to the winner; True when a shutout (no other side won a hand)."""
    shutout = True
    for side in range(scores.shape[0]):
        if side != winner and boxes[side] > 0:
            shutout = False
    game_bonus = rules[RuleField.GAME_BONUS]
    if shutout and rules[RuleField.SHUTOUT] == Shutout.BONUS200:
        game_bonus = 200
    for side in range(scores.shape[0]):
        total = scores[side]
        if not rules[RuleField.LINE_IMMEDIATE]:
            total += rules[RuleField.LINE_BONUS] * boxes[side]
        out_totals[side] = total
    out_totals[winner] += game_bonus
    if shutout and rules[RuleField.SHUTOUT] == Shutout.DOUBLE:
        out_totals[winner] *= 2
    elif shutout and rules[RuleField.SHUTOUT] == Shutout.PLUS100:
        out_totals[winner] += 100
    return shutout


@njit(cache=True)
def score_hand(game: Int64s, state: Int64s, policies: Int64s, rules: Int64s) -> None:
    """Apply the finished hand ``state``, played by ``policies`` (one row per seat), to
    ``game``: each seat's read of its opponent, the winner's points in every column its
    win reaches, the columns it closes with their totals, and the next dealer (the same
    after a drawn hand)."""
    for seat in range(2):
        game[GameSlot.RACES + seat] += outraced(state, np.int64(seat), policies[seat])
    game[GameSlot.HANDS] += 1
    winner = state[Slot.WINNER]
    if winner < 0:
        game[GameSlot.DRAWN_HANDS] += 1
        return
    reach = min(game[GameSlot.WINS + winner] + 1, game[GameSlot.COLUMNS])
    game[GameSlot.WINS + winner] += 1
    for col in range(reach):
        if game[GameSlot.CLOSED + col]:
            continue
        scores = game[GameSlot.SCORE + 2 * col : GameSlot.SCORE + 2 * col + 2]
        boxes = game[GameSlot.BOXES + 2 * col : GameSlot.BOXES + 2 * col + 2]
        add_hand_won(scores, boxes, winner, state[Slot.POINTS], rules)
        if scores[winner] >= game[GameSlot.TARGET]:
            game[GameSlot.CLOSED + col] = 1
            game[GameSlot.OPEN_COLUMNS] -= 1
            totals = game[GameSlot.LAST_TOTAL : GameSlot.LAST_TOTAL + 2]
            game[GameSlot.SHUTOUTS] += close_game(scores, boxes, winner, rules, totals)
            game[GameSlot.LAST_WINNER] = winner
            game[GameSlot.GAMES_WON + winner] += 1
            for seat in range(2):
                game[GameSlot.TOTAL + seat] += totals[seat]
    if rules[RuleField.WINNER_DEALS]:
        game[GameSlot.DEALER] = winner
    else:
        game[GameSlot.DEALER] = 1 - game[GameSlot.DEALER]
