"""Monte Carlo driver: many deals of plain rummy in parallel, aggregated in the kernel.

Deal ``i`` is shuffled from its own random stream ``rng.stream_key(seed, i)``, and deals
are split into a fixed number of chunks whose integer totals are summed afterwards, so
every number returned is the same whatever the thread count.  Memory stays flat: the
kernel keeps one row of totals per chunk and writes per-hand rows only when asked.

Numba's on-disk cache keys these kernels on this file alone: after editing
:mod:`.engine`, whose functions they compile in, clear ``analyzer/rummy/__pycache__``.

Players and seats
-----------------
``policies[j]`` is player ``j``.  With ``rotate`` (the default) player ``j`` sits in seat
``(j + i) % players`` in deal ``i``, so every player plays every seat equally often;
without it player ``j`` always has seat ``j``.  Seat 0 plays first, the last seat deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from numba import njit, prange

from ..core.lanes import lane_tables
from ..core.rng import shuffle_deck, stream_key
from ..core.stats import Z95_EXACT, Estimate
from .engine import (
    END_OUT,
    END_STOCK,
    MAX_MELDS,
    N_COUNTERS,
    N_RESULT,
    RES_CALLS,
    RES_END,
    RES_LEFT,
    RES_POINTS,
    RES_RESHUFFLES,
    RES_RUMMY,
    RES_TURNS,
    RES_WINNER,
    deal,
    play_hand,
)
from .policies import N_POLICY_FIELDS, RummyPolicy
from .rules import R_PLAYERS, R_TARGET, RummyRules

# Totals kept per chunk (columns of the kernel's ``totals``); *_SQ are sums of squares.
T_HANDS = 0
T_OUT = 1            # hands someone went out
T_VOID_STOCK = 2
T_RUMMY = 3
T_TURNS = 4
T_TURNS_SQ = 5
T_POINTS = 6         # winner's points, void hands counting 0
T_POINTS_SQ = 7
T_RESHUFFLES = 8
T_CALLS = 9
T_MARGIN = 10        # player 0's points minus player 1's
T_MARGIN_SQ = 11
T_SEAT_WINS = 12     # + seat
T_SEAT_POINTS = 18
T_SEAT_POINTS_SQ = 24
T_PLAYER_WINS = 30   # + player
T_PLAYER_POINTS = 36
T_PLAYER_POINTS_SQ = 42
T_PLAYER_RUMMY = 48
N_TOTALS = 54

# Totals of :func:`simulate_games`, per chunk.
G_GAMES = 0
G_FINISHED = 1       # games someone reached the target within _MAX_GAME_HANDS hands
G_HANDS = 2
G_HANDS_SQ = 3
G_WINS = 4           # + player: games won
G_SCORE = 10         # + player: final scores, points
N_GAME_TOTALS = 16
_MAX_GAME_HANDS = 1000

#: Columns of the per-hand rows.
ROW_COLUMNS = ("deal", "winner_seat", "winner_player", "points", "rummy", "turns", "end",
               "reshuffles", "calls")
_N_CHUNKS = 64


@njit(cache=True)
def _work_space(players: np.int64) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int8],
                                            npt.NDArray[np.int8], npt.NDArray[np.int64],
                                            npt.NDArray[np.int64], npt.NDArray[np.int64],
                                            npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(rng state, deck, pile, hands, melds, meld owners, counters, result): the arrays a
    parallel slot plays its hands in, allocated once per slot."""
    return (np.empty(1, dtype=np.uint64), np.empty(52, dtype=np.int8),
            np.empty(52, dtype=np.int8), np.empty(players, dtype=np.int64),
            np.empty(MAX_MELDS, dtype=np.int64), np.empty(MAX_MELDS, dtype=np.int64),
            np.empty(N_COUNTERS, dtype=np.int64), np.empty(N_RESULT, dtype=np.int64))


@njit(cache=True, parallel=True)
def _simulate_kernel(seed: np.int64, n_deals: np.int64, rules: npt.NDArray[np.int64],
                     policies: npt.NDArray[np.int64], rotate: bool, rd: npt.NDArray[np.int64],
                     rm: npt.NDArray[np.int64], lp: npt.NDArray[np.int64],
                     totals: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
    """Play deals ``0 .. n_deals - 1``; add into ``totals[chunk]``; fill ``rows[deal]``
    (``len(ROW_COLUMNS) + players`` columns) when ``rows`` has a row per deal."""
    n = rules[R_PLAYERS]
    n_chunks = totals.shape[0]
    chunk = (n_deals + n_chunks - 1) // n_chunks
    keep_rows = rows.shape[0] == n_deals
    for k in prange(n_chunks):
        state, deck, pile, hands, melds, owners, counters, result = _work_space(n)
        seated = np.empty((n, N_POLICY_FIELDS), dtype=np.int64)
        row = totals[k]
        for i in range(k * chunk, min(n_deals, (k + 1) * chunk)):
            state[0] = stream_key(seed, i)
            shuffle_deck(state, deck)
            shift = i % n if rotate else 0
            for seat in range(n):
                seated[seat] = policies[(seat + shift) % n]
            deal(deck, rules, 0, hands, pile, counters)
            play_hand(hands, deck, pile, melds, owners, counters, rules, seated, rd, rm, lp, result)
            winner = result[RES_WINNER]
            points = result[RES_POINTS]
            turns = result[RES_TURNS]
            row[T_HANDS] += 1
            row[T_TURNS] += turns
            row[T_TURNS_SQ] += turns * turns
            row[T_RESHUFFLES] += result[RES_RESHUFFLES]
            row[T_CALLS] += result[RES_CALLS]
            player = -1
            if result[RES_END] == END_OUT:
                player = (winner + shift) % n
                row[T_OUT] += 1
                row[T_RUMMY] += result[RES_RUMMY]
                row[T_POINTS] += points
                row[T_POINTS_SQ] += points * points
                row[T_SEAT_WINS + winner] += 1
                row[T_SEAT_POINTS + winner] += points
                row[T_SEAT_POINTS_SQ + winner] += points * points
                row[T_PLAYER_WINS + player] += 1
                row[T_PLAYER_POINTS + player] += points
                row[T_PLAYER_POINTS_SQ + player] += points * points
                row[T_PLAYER_RUMMY + player] += result[RES_RUMMY]
                margin = points if player == 0 else -points if player == 1 else 0
                row[T_MARGIN] += margin
                row[T_MARGIN_SQ] += margin * margin
            elif result[RES_END] == END_STOCK:
                row[T_VOID_STOCK] += 1
            if keep_rows:
                out = rows[i]
                out[0] = i
                out[1] = winner
                out[2] = player
                out[3] = points
                out[4] = result[RES_RUMMY]
                out[5] = turns
                out[6] = result[RES_END]
                out[7] = result[RES_RESHUFFLES]
                out[8] = result[RES_CALLS]
                for seat in range(n):
                    out[9 + seat] = result[RES_LEFT + seat]


@njit(cache=True, parallel=True)
def _games_kernel(seed: np.int64, n_games: np.int64, rules: npt.NDArray[np.int64],
                  policies: npt.NDArray[np.int64], rd: npt.NDArray[np.int64],
                  rm: npt.NDArray[np.int64], lp: npt.NDArray[np.int64],
                  totals: npt.NDArray[np.int64]) -> None:
    """Play games ``0 .. n_games - 1`` to ``rules[R_TARGET]`` points; add into
    ``totals[chunk]``.  Player j keeps seat j; the deal passes to the left each hand."""
    n = rules[R_PLAYERS]
    n_chunks = totals.shape[0]
    chunk = (n_games + n_chunks - 1) // n_chunks
    for k in prange(n_chunks):
        state, deck, pile, hands, melds, owners, counters, result = _work_space(n)
        scores = np.empty(n, dtype=np.int64)
        row = totals[k]
        for g in range(k * chunk, min(n_games, (k + 1) * chunk)):
            # one stream per game: its hands are successive shuffles of that stream
            state[0] = stream_key(seed, g)
            scores[:] = 0
            first = g % n
            played = 0
            winner = -1
            while played < _MAX_GAME_HANDS and winner < 0:
                shuffle_deck(state, deck)
                deal(deck, rules, first, hands, pile, counters)
                play_hand(hands, deck, pile, melds, owners, counters, rules, policies,
                          rd, rm, lp, result)
                played += 1
                if result[RES_END] == END_OUT:
                    scores[result[RES_WINNER]] += result[RES_POINTS]
                    if scores[result[RES_WINNER]] >= rules[R_TARGET]:
                        winner = result[RES_WINNER]
                first = (first + 1) % n
            row[G_GAMES] += 1
            row[G_HANDS] += played
            row[G_HANDS_SQ] += played * played
            if winner >= 0:
                row[G_FINISHED] += 1
                row[G_WINS + winner] += 1
            for j in range(n):
                row[G_SCORE + j] += scores[j]


def simulate_games(rules: RummyRules, policies: Sequence[RummyPolicy], games: int,
                   seed: int = 0) -> dict[str, Any]:
    """Play ``games`` games to ``rules.target`` points and summarise them.

    Player ``j`` keeps seat ``j``; the first hand of game ``g`` is dealt by the player
    to the right of seat ``g % players`` and the deal passes left every hand.  Hands that
    end with no score still count as hands.

    Returns
    -------
    dict
        ``games``; ``finished_rate`` (share of games someone reached the target within
        1,000 hands); ``hands_per_game`` (mean, 95% CI); ``player_game_win_rate`` and
        ``player_final_score`` (points) per player.

    Examples
    --------
    >>> from analyzer.rummy import RummyRules, parse_policy
    >>> summary = simulate_games(RummyRules(), [parse_policy("simple")] * 2, games=20)
    >>> summary["games"], summary["finished_rate"][0]
    (20, 1.0)
    """
    if len(policies) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} policies, "
                         f"got {len(policies)}")
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    totals = np.zeros((_N_CHUNKS, N_GAME_TOTALS), dtype=np.int64)
    rd, rm, lp = lane_tables(rules.run_cap)
    _games_kernel(np.int64(seed), np.int64(games), rules.to_array(),
                  np.array([p.to_array() for p in policies], dtype=np.int64), rd, rm, lp, totals)
    t = [float(x) for x in totals.sum(axis=0)]
    return {
        "games": int(t[G_GAMES]),
        "target": rules.target,
        "finished_rate": rate_ci(t[G_FINISHED], t[G_GAMES]),
        "hands_per_game": mean_ci(t[G_HANDS], t[G_HANDS_SQ], t[G_GAMES]),
        "player_game_win_rate": [rate_ci(t[G_WINS + j], t[G_GAMES]) for j in range(rules.players)],
        "player_final_score": [t[G_SCORE + j] / t[G_GAMES] for j in range(rules.players)],
    }


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of :func:`simulate`.

    ``summary`` holds means with 95% confidence intervals (see :func:`summarise`),
    ``totals`` the raw integer totals (``T_*`` columns summed over chunks) and ``hands``
    one row per deal when asked for (``left_seat<k>``: points left in seat k's hand).
    """

    rules: RummyRules
    policies: tuple[RummyPolicy, ...]
    seed: int
    deals: int
    rotate: bool
    totals: npt.NDArray[np.int64]
    summary: dict[str, Any]
    hands: pd.DataFrame | None


def simulate(rules: RummyRules, policies: Sequence[RummyPolicy], deals: int, seed: int = 0,
             rotate: bool = True, keep_hands: bool = False) -> SimulationResult:
    """Play ``deals`` hands of rummy and summarise them.

    Parameters
    ----------
    rules : RummyRules
        The rules; ``rules.players`` must equal ``len(policies)``.
    policies : sequence of RummyPolicy
        Player ``j``'s policy.
    deals : int
        Number of hands (deals) to play.
    seed : int
        Seed of the random streams; deal ``i`` uses stream ``i``.
    rotate : bool
        Rotate players through the seats deal by deal (else player j sits in seat j).
    keep_hands : bool
        Also return a DataFrame with one row per hand (memory grows with ``deals``).

    Examples
    --------
    >>> from analyzer.rummy import RummyRules, parse_policy
    >>> result = simulate(RummyRules(), [parse_policy("simple")] * 2, deals=200, seed=1)
    >>> result.summary["hands"]
    200
    """
    if len(policies) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} policies, "
                         f"got {len(policies)}")
    if deals < 1:
        raise ValueError(f"deals must be >= 1, got {deals}")
    rules_array = rules.to_array()
    policy_array = np.array([p.to_array() for p in policies], dtype=np.int64)
    totals = np.zeros((_N_CHUNKS, N_TOTALS), dtype=np.int64)
    width = len(ROW_COLUMNS) + rules.players
    rows = np.zeros((deals if keep_hands else 0, width), dtype=np.int64)
    rd, rm, lp = lane_tables(rules.run_cap)
    _simulate_kernel(np.int64(seed), np.int64(deals), rules_array, policy_array, rotate,
                     rd, rm, lp, totals, rows)
    summed = totals.sum(axis=0)
    hands = None
    if keep_hands:
        columns = [*ROW_COLUMNS, *(f"left_seat{s}" for s in range(rules.players))]
        hands = pd.DataFrame(rows, columns=columns)
    return SimulationResult(rules, tuple(policies), seed, deals, rotate, summed,
                            summarise(summed, rules.players), hands)


def mean_ci(total: float, total_sq: float, count: float) -> tuple[float, float, float]:
    """(mean, low, high): a mean and its normal 95% confidence interval from a sum and a
    sum of squares over ``count`` samples.

    >>> mean_ci(6.0, 14.0, 3)[0]
    2.0
    """
    return Estimate.from_sums(total, total_sq, count, Z95_EXACT).as_tuple()


def rate_ci(hits: float, count: float) -> tuple[float, float, float]:
    """(rate, low, high) of a proportion with its normal 95% confidence interval."""
    return mean_ci(hits, hits, count)


def summarise(totals: npt.NDArray[np.int64], players: int) -> dict[str, Any]:
    """Means and 95% CIs from summed totals (see the ``T_*`` columns).

    Points are per hand played (void hands count 0); ``winner_points`` is per hand that
    someone won.
    """
    t = [float(x) for x in totals]
    hands = t[T_HANDS]
    out: dict[str, Any] = {
        "hands": int(hands),
        "turns": mean_ci(t[T_TURNS], t[T_TURNS_SQ], hands),
        "void_rate": rate_ci(hands - t[T_OUT], hands),
        "void_stock_rate": rate_ci(t[T_VOID_STOCK], hands),
        "rummy_rate": rate_ci(t[T_RUMMY], t[T_OUT]),
        "winner_points": mean_ci(t[T_POINTS], t[T_POINTS_SQ], t[T_OUT]),
        "points_per_hand": mean_ci(t[T_POINTS], t[T_POINTS_SQ], hands),
        "reshuffles_per_hand": t[T_RESHUFFLES] / hands,
        "calls_per_hand": t[T_CALLS] / hands,
        "seat_win_rate": [rate_ci(t[T_SEAT_WINS + s], hands) for s in range(players)],
        "seat_points": [mean_ci(t[T_SEAT_POINTS + s], t[T_SEAT_POINTS_SQ + s], hands)
                        for s in range(players)],
        "player_win_rate": [rate_ci(t[T_PLAYER_WINS + j], hands) for j in range(players)],
        "player_points": [mean_ci(t[T_PLAYER_POINTS + j], t[T_PLAYER_POINTS_SQ + j], hands)
                          for j in range(players)],
        "player_rummies": [int(t[T_PLAYER_RUMMY + j]) for j in range(players)],
    }
    if players == 2:
        out["margin"] = mean_ci(t[T_MARGIN], t[T_MARGIN_SQ], hands)
    return out
