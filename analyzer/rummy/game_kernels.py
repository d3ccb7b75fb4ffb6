"""The kernels of plain-rummy simulation: a span of deals (or games) of a chunk, summed
into one row of integer totals (the columns below), and per-hand rows when asked.  The
driver (:mod:`analyzer.rummy.simulate`) runs a chunk's spans on numba's threads
(:mod:`analyzer.core.threads`) and adds their totals."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ..core.rng import shuffle_deck, stream_key
from .engine import deal, play_hand
from .policies import N_POLICY_FIELDS
from .rules import RuleField
from .state import MAX_MELDS, N_COUNTERS, N_RESULT, End, ResultField

# Totals kept per chunk (columns of the kernel's ``totals``); *_SQ are sums of squares.
T_HANDS = 0
T_OUT = 1  # hands someone went out
T_VOID_STOCK = 2
T_RUMMY = 3
T_TURNS = 4
T_TURNS_SQ = 5
T_POINTS = 6  # winner's points, void hands counting 0
T_POINTS_SQ = 7
T_RESHUFFLES = 8
T_CALLS = 9
T_MARGIN = 10  # player 0's points minus player 1's
T_MARGIN_SQ = 11
T_SEAT_WINS = 12  # + seat
T_SEAT_POINTS = 18
T_SEAT_POINTS_SQ = 24
T_PLAYER_WINS = 30  # + player
T_PLAYER_POINTS = 36
T_PLAYER_POINTS_SQ = 42
T_PLAYER_RUMMY = 48
N_TOTALS = 54

# Totals of :func:`play_games`, per chunk.
G_GAMES = 0
G_FINISHED = 1  # games someone reached the target within MAX_GAME_HANDS hands
G_HANDS = 2
G_HANDS_SQ = 3
G_WINS = 4  # + player: games won
G_SCORE = 10  # + player: final scores, points
N_GAME_TOTALS = 16
MAX_GAME_HANDS = 1000

#: Columns of the per-hand rows.
ROW_COLUMNS = (
    "deal",
    "winner_seat",
    "winner_player",
    "points",
    "rummy",
    "turns",
    "end",
    "reshuffles",
    "calls",
)


@njit(cache=True)
def _work_space(
    players: np.int64,
) -> tuple[
    npt.NDArray[np.uint64],
    npt.NDArray[np.int8],
    npt.NDArray[np.int8],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """(rng state, deck, pile, hands, melds, meld owners, counters, result): the arrays a
    parallel slot plays its hands in, allocated once per slot."""
    return (
        np.empty(1, dtype=np.uint64),
        np.empty(52, dtype=np.int8),
        np.empty(52, dtype=np.int8),
        np.empty(players, dtype=np.int64),
        np.empty(MAX_MELDS, dtype=np.int64),
        np.empty(MAX_MELDS, dtype=np.int64),
        np.empty(N_COUNTERS, dtype=np.int64),
        np.empty(N_RESULT, dtype=np.int64),
    )


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def hands_kernel(
    seed: np.int64,
    first_deal: np.int64,
    n_deals: np.int64,
    rules: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rotate: bool,
    rd: npt.NDArray[np.int64],
    rm: npt.NDArray[np.int64],
    lp: npt.NDArray[np.int64],
    totals: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
) -> None:
    """Play deals ``first_deal .. first_deal + n_deals - 1``; add into ``totals``; fill
    ``rows[i]`` for deal ``first_deal + i`` (``len(ROW_COLUMNS) + players`` columns)
    when ``rows`` has a row per deal."""
    n = rules[RuleField.PLAYERS]
    keep_rows = rows.shape[0] == n_deals
    state, deck, pile, hands, melds, owners, counters, result = _work_space(n)
    seated = np.empty((n, N_POLICY_FIELDS), dtype=np.int64)
    for i in range(n_deals):
        deal_index = first_deal + i
        state[0] = stream_key(seed, deal_index)
        shuffle_deck(state, deck)
        shift = deal_index % n if rotate else 0
        for seat in range(n):
            seated[seat] = policies[(seat + shift) % n]
        deal(deck, rules, 0, hands, pile, counters)
        play_hand(hands, deck, pile, melds, owners, counters, rules, seated, rd, rm, lp, result)
        winner = result[ResultField.WINNER]
        points = result[ResultField.POINTS]
        turns = result[ResultField.TURNS]
        totals[T_HANDS] += 1
        totals[T_TURNS] += turns
        totals[T_TURNS_SQ] += turns * turns
        totals[T_RESHUFFLES] += result[ResultField.RESHUFFLES]
        totals[T_CALLS] += result[ResultField.CALLS]
        player = -1
        if result[ResultField.END] == End.OUT:
            player = (winner + shift) % n
            totals[T_OUT] += 1
            totals[T_RUMMY] += result[ResultField.RUMMY]
            totals[T_POINTS] += points
            totals[T_POINTS_SQ] += points * points
            totals[T_SEAT_WINS + winner] += 1
            totals[T_SEAT_POINTS + winner] += points
            totals[T_SEAT_POINTS_SQ + winner] += points * points
            totals[T_PLAYER_WINS + player] += 1
            totals[T_PLAYER_POINTS + player] += points
            totals[T_PLAYER_POINTS_SQ + player] += points * points
            totals[T_PLAYER_RUMMY + player] += result[ResultField.RUMMY]
            margin = points if player == 0 else -points if player == 1 else 0
            totals[T_MARGIN] += margin
            totals[T_MARGIN_SQ] += margin * margin
        elif result[ResultField.END] == End.STOCK:
            totals[T_VOID_STOCK] += 1
        if keep_rows:
            out = rows[i]
            out[0] = deal_index
            out[1] = winner
            out[2] = player
            out[3] = points
            out[4] = result[ResultField.RUMMY]
            out[5] = turns
            out[6] = result[ResultField.END]
            out[7] = result[ResultField.RESHUFFLES]
            out[8] = result[ResultField.CALLS]
            for seat in range(n):
                out[9 + seat] = result[ResultField.LEFT + seat]


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def games_kernel(
    seed: np.int64,
    first_game: np.int64,
    n_games: np.int64,
    rules: npt.NDArray[np.int64],
    policies: npt.NDArray[np.int64],
    rd: npt.NDArray[np.int64],
    rm: npt.NDArray[np.int64],
    lp: npt.NDArray[np.int64],
    totals: npt.NDArray[np.int64],
) -> None:
    """Play games ``first_game .. first_game + n_games - 1`` to ``rules[RuleField.TARGET]`` points; add into
    ``totals``.  Player j keeps seat j; the deal passes to the left each hand."""
    n = rules[RuleField.PLAYERS]
    state, deck, pile, hands, melds, owners, counters, result = _work_space(n)
    scores = np.empty(n, dtype=np.int64)
    for i in range(n_games):
        g = first_game + i
        # one stream per game: its hands are successive shuffles of that stream
        state[0] = stream_key(seed, g)
        scores[:] = 0
        first = g % n
        played = 0
        winner = -1
        while played < MAX_GAME_HANDS and winner < 0:
            shuffle_deck(state, deck)
            deal(deck, rules, first, hands, pile, counters)
            play_hand(
                hands, deck, pile, melds, owners, counters, rules, policies, rd, rm, lp, result
            )
            played += 1
            if result[ResultField.END] == End.OUT:
                scores[result[ResultField.WINNER]] += result[ResultField.POINTS]
                if scores[result[ResultField.WINNER]] >= rules[RuleField.TARGET]:
                    winner = result[ResultField.WINNER]
            first = (first + 1) % n
        totals[G_GAMES] += 1
        totals[G_HANDS] += played
        totals[G_HANDS_SQ] += played * played
        if winner >= 0:
            totals[G_FINISHED] += 1
            totals[G_WINS + winner] += 1
        for j in range(n):
            totals[G_SCORE + j] += scores[j]
