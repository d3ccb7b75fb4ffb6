"""The kernels of plain-rummy simulation: a span of deals (or games) of a chunk, summed
into one row of integer totals (the columns below), and per-hand rows when asked.  The
driver (:mod:`analyzer.rummy.simulate`) runs a chunk's spans on numba's threads
(:mod:`analyzer.core.threads`) and adds their totals."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ..core.arrays import Int8s, Int64s, UInt64s
from ..core.rng import shuffle_deck, stream_key
from .engine import play_hand
from .policies import N_POLICY_FIELDS
from .rules import MAX_PLAYERS, RuleField
from .state import STATE_SIZE, End, Slot
from .transitions import new_hand
from .work import WorkViews, work_space


class HandTotal(IntEnum):
    """Totals of a chunk of hands (columns of :func:`hands_kernel`'s ``totals``); ``*_SQ``
    are sums of squares; a ``SEAT_*`` or ``PLAYER_*`` total is a block of one column per
    seat or player (:data:`~analyzer.rummy.rules.MAX_PLAYERS` wide)."""

    HANDS = 0
    OUT = 1
    """Hands someone went out."""
    VOID_STOCK = 2
    RUMMY = 3
    TURNS = 4
    TURNS_SQ = 5
    POINTS = 6
    """The winner's points, a void hand counting 0."""
    POINTS_SQ = 7
    RESHUFFLES = 8
    CALLS = 9
    MARGIN = 10
    """Player 0's points times ``players - 1`` minus the other players' points (its
    points minus their mean, in units of ``1 / (players - 1)`` point: integer sums)."""
    MARGIN_SQ = 11
    SEAT_WINS = 12
    SEAT_POINTS = 18
    SEAT_POINTS_SQ = 24
    PLAYER_WINS = 30
    PLAYER_POINTS = 36
    PLAYER_POINTS_SQ = 42
    PLAYER_RUMMY = 48


N_TOTALS = HandTotal.PLAYER_RUMMY + MAX_PLAYERS


class GameTotal(IntEnum):
    """Totals of a chunk of games (:func:`games_kernel`); ``WINS`` and ``SCORE`` are
    blocks of one column per player."""

    GAMES = 0
    FINISHED = 1
    """Games someone reached the target within :data:`MAX_GAME_HANDS` hands."""
    HANDS = 2
    HANDS_SQ = 3
    WINS = 4
    SCORE = 10
    """Final scores, points."""


N_GAME_TOTALS = GameTotal.SCORE + MAX_PLAYERS
MAX_GAME_HANDS = 1000


class RowColumn(IntEnum):
    """Columns of the per-hand rows; ``LEFT`` is a block of one column per seat (the
    points each seat is left holding)."""

    DEAL = 0
    WINNER_SEAT = 1
    WINNER_PLAYER = 2
    POINTS = 3
    RUMMY = 4
    TURNS = 5
    END = 6
    RESHUFFLES = 7
    CALLS = 8
    LEFT = 9


#: The names of the per-hand rows' columns before the ``LEFT`` block.
ROW_COLUMNS = tuple(column.name.lower() for column in RowColumn if column is not RowColumn.LEFT)


@njit(cache=True)
def _work_space() -> tuple[UInt64s, Int8s, Int64s, WorkViews]:
    """(rng state, deck, hand state, scratch arrays): the arrays a thread plays its
    hands in, allocated once per span."""
    return (
        np.empty(1, dtype=np.uint64),
        np.empty(52, dtype=np.int8),
        np.zeros(STATE_SIZE, dtype=np.int64),
        work_space(),
    )


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def hands_kernel(
    seed: np.int64,
    first_deal: np.int64,
    n_deals: np.int64,
    rules: Int64s,
    policies: Int64s,
    rotate: bool,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    totals: Int64s,
    rows: Int64s,
) -> None:
    """Play deals ``first_deal .. first_deal + n_deals - 1``; add into ``totals``; fill
    ``rows[i]`` for deal ``first_deal + i`` (``len(ROW_COLUMNS) + players`` columns)
    when ``rows`` has a row per deal."""
    n = rules[RuleField.PLAYERS]
    keep_rows = rows.shape[0] == n_deals
    rng, deck, state, ws = _work_space()
    seated = np.empty((n, N_POLICY_FIELDS), dtype=np.int64)
    for i in range(n_deals):
        deal_index = first_deal + i
        rng[0] = stream_key(seed, deal_index)
        shuffle_deck(rng, deck)
        shift = deal_index % n if rotate else 0
        for seat in range(n):
            seated[seat] = policies[(seat + shift) % n]
        new_hand(state, deck, rules, 0)
        play_hand(state, rules, seated, rd, rm, lp, ws)
        winner = state[Slot.WINNER]
        points = state[Slot.POINTS]
        turns = state[Slot.TOTAL_TURNS]
        totals[HandTotal.HANDS] += 1
        totals[HandTotal.TURNS] += turns
        totals[HandTotal.TURNS_SQ] += turns * turns
        totals[HandTotal.RESHUFFLES] += state[Slot.RESHUFFLES]
        totals[HandTotal.CALLS] += state[Slot.CALLS]
        player = -1
        if state[Slot.END] == End.OUT:
            player = (winner + shift) % n
            totals[HandTotal.OUT] += 1
            totals[HandTotal.RUMMY] += state[Slot.RUMMY]
            totals[HandTotal.POINTS] += points
            totals[HandTotal.POINTS_SQ] += points * points
            totals[HandTotal.SEAT_WINS + winner] += 1
            totals[HandTotal.SEAT_POINTS + winner] += points
            totals[HandTotal.SEAT_POINTS_SQ + winner] += points * points
            totals[HandTotal.PLAYER_WINS + player] += 1
            totals[HandTotal.PLAYER_POINTS + player] += points
            totals[HandTotal.PLAYER_POINTS_SQ + player] += points * points
            totals[HandTotal.PLAYER_RUMMY + player] += state[Slot.RUMMY]
            margin = points * (n - 1) if player == 0 else -points
            totals[HandTotal.MARGIN] += margin
            totals[HandTotal.MARGIN_SQ] += margin * margin
        elif state[Slot.END] == End.STOCK:
            totals[HandTotal.VOID_STOCK] += 1
        if keep_rows:
            out = rows[i]
            out[RowColumn.DEAL] = deal_index
            out[RowColumn.WINNER_SEAT] = winner
            out[RowColumn.WINNER_PLAYER] = player
            out[RowColumn.POINTS] = points
            out[RowColumn.RUMMY] = state[Slot.RUMMY]
            out[RowColumn.TURNS] = turns
            out[RowColumn.END] = state[Slot.END]
            out[RowColumn.RESHUFFLES] = state[Slot.RESHUFFLES]
            out[RowColumn.CALLS] = state[Slot.CALLS]
            for seat in range(n):
                out[RowColumn.LEFT + seat] = state[Slot.LEFT + seat]


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def games_kernel(
    seed: np.int64,
    first_game: np.int64,
    n_games: np.int64,
    rules: Int64s,
    policies: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    totals: Int64s,
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` to ``rules[RuleField.TARGET]`` points; add into
    ``totals``.  Player j keeps seat j; the deal passes to the left each hand."""
    n = rules[RuleField.PLAYERS]
    rng, deck, state, ws = _work_space()
    scores = np.empty(n, dtype=np.int64)
    for i in range(n_games):
        g = first_game + i
        # one stream per game: its hands are successive shuffles of that stream
        rng[0] = stream_key(seed, g)
        scores[:] = 0
        first = g % n
        played = 0
        winner = -1
        while played < MAX_GAME_HANDS and winner < 0:
            shuffle_deck(rng, deck)
            new_hand(state, deck, rules, first)
            play_hand(state, rules, policies, rd, rm, lp, ws)
            played += 1
            if state[Slot.END] == End.OUT:
                scores[state[Slot.WINNER]] += state[Slot.POINTS]
                if scores[state[Slot.WINNER]] >= rules[RuleField.TARGET]:
                    winner = state[Slot.WINNER]
            first = (first + 1) % n
        totals[GameTotal.GAMES] += 1
        totals[GameTotal.HANDS] += played
        totals[GameTotal.HANDS_SQ] += played * played
        if winner >= 0:
            totals[GameTotal.FINISHED] += 1
            totals[GameTotal.WINS + winner] += 1
        for j in range(n):
            totals[GameTotal.SCORE + j] += scores[j]
