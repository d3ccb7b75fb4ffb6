"""The kernels that play many hands or games in parallel and write one row per hand or game.

A seat with a search row (:mod:`analyzer.gin.play.search`) searches at its decisions.
The drivers in :mod:`analyzer.gin.play.simulate` call them in chunks and sum their rows.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ...core.arrays import Int8s, Int64s, UInt64s
from ...core.rng import GAME_SALT, POLICY_SALT, SEARCH_SALT, shuffle_deck, stream_key
from ..engine.transitions import SCRATCH_SIZE, STATE_SIZE, Slot, new_hand, stock_left
from ..model.knowledge import note_races, note_scores
from ..model.rules import RuleField
from ..model.state import points_to
from .game_score import COLUMNS, GAME_SIZE, GameSlot, new_game, score_hand
from .search import play_on

#: Hands a game may last before it is stopped unfinished (counted, never seen so far).
MAX_HANDS_PER_GAME = 1000


class HandColumn(IntEnum):
    """Columns of the per-hand rows written by the hand kernel."""

    DEAL = 0
    DEALER = 1
    OUTCOME = 2
    WINNER = 3
    POINTS = 4
    KNOCKER = 5
    KNOCKER_DEADWOOD = 6
    DEFENDER_DEADWOOD = 7
    TURNS = 8
    STOCK_LEFT = 9
    POINTS_A = 10


class GameColumn(IntEnum):
    """Columns of the per-game rows written by the game kernel (player A is seat 0)."""

    GAME = 0
    FIRST_DEALER = 1
    GAMES_WON_A = 2
    GAMES_PLAYED = 3
    MARGIN_A = 4
    TOTAL_A = 5
    TOTAL_B = 6
    HANDS = 7
    DRAWN_HANDS = 8
    SHUTOUTS = 9
    FINISHED = 10


@njit(cache=True)
def hand_work_space() -> tuple[Int64s, Int8s, UInt64s, Int64s, Int64s]:
    """(state, deck, rng state, scratch, samples used): the arrays :func:`play_hand`
    plays in, allocated once per kernel call and reused hand after hand."""
    return (
        np.zeros(STATE_SIZE, dtype=np.int64),
        np.empty(52, dtype=np.int8),
        np.empty(1, dtype=np.uint64),
        np.zeros(SCRATCH_SIZE, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@njit(cache=True)
def play_hand(
    deck_key: np.uint64,
    policy_key: np.uint64,
    dealer: np.int64,
    rules: Int64s,
    policies: Int64s,
    searchers: Int64s | None,
    state: Int64s,
    deck: Int8s,
    rng: UInt64s,
    scratch: Int64s,
    samples_used: Int64s,
) -> np.int64:
    """Deal from ``deck_key`` and play one hand to its end in ``state``; a seat with a
    search row (:mod:`analyzer.gin.play.search`) searches at its decisions.  Returns the
    searched decisions (their samples are added to ``samples_used[0]``)."""
    deal_hand(deck_key, dealer, rules, state, deck, rng)
    rng[0] = policy_key
    return play_on(
        state,
        rules,
        policies,
        searchers,
        np.int64(policy_key) ^ SEARCH_SALT,
        rng,
        scratch,
        samples_used,
    )


@njit(cache=True)
def deal_hand(
    deck_key: np.uint64, dealer: np.int64, rules: Int64s, state: Int64s, deck: Int8s, rng: UInt64s
) -> None:
    """Shuffle the deck of stream ``deck_key`` and deal it into ``state``."""
    rng[0] = deck_key
    shuffle_deck(rng, deck)
    new_hand(state, deck, dealer, rules)


@njit(cache=True)
def _write_hand_row(state: Int64s, deal: np.int64, row: Int64s) -> None:
    row[HandColumn.DEAL] = deal
    row[HandColumn.DEALER] = state[Slot.DEALER]
    row[HandColumn.OUTCOME] = state[Slot.OUTCOME]
    row[HandColumn.WINNER] = state[Slot.WINNER]
    row[HandColumn.POINTS] = state[Slot.POINTS]
    row[HandColumn.KNOCKER] = state[Slot.KNOCKER]
    row[HandColumn.KNOCKER_DEADWOOD] = state[Slot.KNOCKER_DEADWOOD]
    row[HandColumn.DEFENDER_DEADWOOD] = state[Slot.DEFENDER_DEADWOOD]
    row[HandColumn.TURNS] = state[Slot.DRAWS]
    row[HandColumn.STOCK_LEFT] = stock_left(state)
    row[HandColumn.POINTS_A] = points_to(state, np.int64(0))


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def hands_kernel(
    seed: np.int64,
    first_deal: np.int64,
    n_deals: np.int64,
    swap: bool,
    rules: Int64s,
    policies: Int64s,
    searchers: Int64s | None,
    rows: Int64s,
    searched: Int64s,
) -> None:
    """Rows for deals ``first_deal .. first_deal + n_deals``; A sits in seat 0.

    With ``swap`` row ``2i`` has A as non-dealer and row ``2i + 1`` A as dealer, on the
    same deck; otherwise the dealer alternates with the deal number.  ``searched[i]``
    gets the searched decisions and their samples of row ``i``.
    """
    reps = 2 if swap else 1
    state, deck, rng, scratch, samples = hand_work_space()
    for i in range(n_deals):
        deal = first_deal + i
        deck_key = stream_key(seed, deal)
        policy_key = stream_key(seed ^ POLICY_SALT, deal)
        for rep in range(reps):
            dealer = np.int64(1 - rep) if swap else np.int64(deal % 2)
            samples[0] = 0
            row = i * reps + rep
            searched[row, 0] = play_hand(
                deck_key,
                policy_key,
                dealer,
                rules,
                policies,
                searchers,
                state,
                deck,
                rng,
                scratch,
                samples,
            )
            searched[row, 1] = samples[0]
            _write_hand_row(state, deal, rows[row])


@njit(cache=True)
def play_game(
    seed: np.int64,
    game: np.int64,
    first_dealer: np.int64,
    rules: Int64s,
    score_policies: Int64s,
    regions: Int64s,
    searchers: Int64s | None,
    start: Int64s,
    row: Int64s,
) -> None:
    """Play one game (or Hollywood session of three games) between seat 0 (A) and 1.

    Policies may depend on the score: before each hand seat ``s`` plays
    ``score_policies[s, regions[s, min(own, cap), min(other, cap)]]`` where ``own`` and
    ``other`` are the running scores (points, of the first Hollywood column) and ``cap``
    is the last index of the region tables.  The running scores are also written into
    the hand's state (``Slot.SCORE + seat``), where score-aware kernels such as the
    expert's knock read them, and so is each seat's read of its opponent
    (``Slot.RACES + seat``: the earlier hands in which the opponent raced).  A seat with a search row searches at its decisions
    (:mod:`analyzer.gin.play.search`).

    ``start`` holds the score (points) and boxes (hands won) each seat begins with:
    ``[score_a, score_b, boxes_a, boxes_b]`` (zeros for a new game; Hollywood columns
    all start from it).  Hand ``h`` of game ``g`` is dealt from stream
    ``g * MAX_HANDS_PER_GAME + h`` of the game seed, so two plays of a game with the
    first dealer swapped share decks for as long as they last.
    """
    state, deck, rng, scratch, samples = hand_work_space()
    policies = np.empty((2, score_policies.shape[2]), dtype=np.int64)
    played = np.empty(GAME_SIZE, dtype=np.int64)
    columns = np.int64(COLUMNS if rules[RuleField.HOLLYWOOD] else 1)
    new_game(played, first_dealer, start, columns, rules[RuleField.TARGET])
    cap = regions.shape[1] - 1
    game_seed = seed ^ GAME_SALT
    while played[GameSlot.OPEN_COLUMNS] > 0 and played[GameSlot.HANDS] < MAX_HANDS_PER_GAME:
        stream = game * MAX_HANDS_PER_GAME + played[GameSlot.HANDS]
        # the players see the score (of the first Hollywood column)
        score_a, score_b = played[GameSlot.SCORE], played[GameSlot.SCORE + 1]
        for seat in range(2):
            own, other = (score_a, score_b) if seat == 0 else (score_b, score_a)
            policies[seat] = score_policies[seat, regions[seat, min(own, cap), min(other, cap)]]
        deal_hand(stream_key(game_seed, stream), played[GameSlot.DEALER], rules, state, deck, rng)
        note_scores(state, score_a, score_b)
        note_races(state, played[GameSlot.RACES], played[GameSlot.RACES + 1])
        rng[0] = stream_key(game_seed ^ POLICY_SALT, stream)
        play_on(
            state,
            rules,
            policies,
            searchers,
            np.int64(stream_key(game_seed ^ POLICY_SALT, stream)) ^ SEARCH_SALT,
            rng,
            scratch,
            samples,
        )
        score_hand(played, state, policies, rules)
    for i in range(row.shape[0]):
        row[i] = 0
    row[GameColumn.GAME] = game
    row[GameColumn.FIRST_DEALER] = first_dealer
    row[GameColumn.GAMES_PLAYED] = played[GameSlot.COLUMNS]
    row[GameColumn.GAMES_WON_A] = played[GameSlot.GAMES_WON]
    row[GameColumn.TOTAL_A] = played[GameSlot.TOTAL]
    row[GameColumn.TOTAL_B] = played[GameSlot.TOTAL + 1]
    row[GameColumn.MARGIN_A] = played[GameSlot.TOTAL] - played[GameSlot.TOTAL + 1]
    row[GameColumn.HANDS] = played[GameSlot.HANDS]
    row[GameColumn.DRAWN_HANDS] = played[GameSlot.DRAWN_HANDS]
    row[GameColumn.SHUTOUTS] = played[GameSlot.SHUTOUTS]
    row[GameColumn.FINISHED] = played[GameSlot.OPEN_COLUMNS] == 0


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def games_kernel(
    seed: np.int64,
    first_game: np.int64,
    n_games: np.int64,
    swap: bool,
    rules: Int64s,
    score_policies: Int64s,
    regions: Int64s,
    searchers: Int64s | None,
    start: Int64s,
    rows: Int64s,
) -> None:
    reps = 2 if swap else 1
    for i in range(n_games):
        game = first_game + i
        for rep in range(reps):
            first_dealer = np.int64(1 - rep) if swap else np.int64(game % 2)
            play_game(
                seed,
                game,
                first_dealer,
                rules,
                score_policies,
                regions,
                searchers,
                start,
                rows[i * reps + rep],
            )
