"""Monte Carlo driver: many hands or games in parallel, reproducible from one seed.

Every deal ``d`` of a run with seed ``s`` draws its deck from the stream
``stream_key(s, d)`` and its policies' random choices from a second stream of the same
deal, so a deal's result does not depend on the thread count, the chunk size or the
order in which deals run.  With ``swap_seats`` (the default) each deal is played twice
on the same deck, once with policy A as the non-dealer and once as the dealer: the two
policies meet on common cards, which removes most of the luck from a comparison.

Deals run in chunks (a parallel kernel per chunk), each chunk reduced to a few sums
before the next, so memory stays flat however many deals are asked for; the per-hand
rows are kept only when ``keep_rows`` is set.  The chunks run in this process or, with
``scheduler``, on a Dask cluster (:func:`analyzer.core.chunks.fold_chunks`) with the same
result bit for bit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from numba import njit, prange

from ...core.chunks import ChunkPlan, fold_chunks
from ...core.interrupts import raise_if_stop_requested
from ...core.progress import Progress
from ...core.rng import GAME_SALT, POLICY_SALT, SEARCH_SALT, shuffle_deck, stream_key
from ...core.stats import Estimate
from ..engine.transitions import (
    OUTCOME_NAMES,
    SCRATCH_SIZE,
    STATE_SIZE,
    Outcome,
    Slot,
    new_hand,
    stock_left,
)
from ..model.knowledge import note_scores
from ..model.policies import Policy
from ..model.rules import RuleField, Rules, Shutout
from .search import (
    Player,
    SearchPolicy,
    no_search,
    play_on,
    rollout_policy,
    run_stoppable,
    split_players,
)

#: Hands a game may last before it is stopped unfinished (counted, never seen so far).
MAX_HANDS_PER_GAME = 1000
DEFAULT_CHUNK = 1 << 15
#: Most deals per kernel call: Ctrl-C is noticed between calls, so this bounds the wait
#: (a few hundredths of a second on one core).
INTERRUPT_SPAN = 1 << 10
#: Parallel work units of a chunk (each owns its work space); many more than cores so
#: that uneven hand lengths even out.
_SLOTS = 256


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
def play_hand(deck_key: np.uint64, policy_key: np.uint64, dealer: np.int64,
              rules: npt.NDArray[np.int64], policies: npt.NDArray[np.int64],
              searchers: npt.NDArray[np.int64], state: npt.NDArray[np.int64],
              deck: npt.NDArray[np.int8], rng: npt.NDArray[np.uint64],
              scratch: npt.NDArray[np.int64], samples_used: npt.NDArray[np.int64]
              ) -> np.int64:
    """Deal from ``deck_key`` and play one hand to its end in ``state``; a seat with a
    search row (:mod:`analyzer.gin.play.search`) searches at its decisions.  Returns the
    searched decisions (their samples are added to ``samples_used[0]``)."""
    deal_hand(deck_key, dealer, rules, state, deck, rng)
    rng[0] = policy_key
    return play_on(state, rules, policies, searchers, np.int64(policy_key) ^ SEARCH_SALT, rng,
                   scratch, samples_used)


@njit(cache=True)
def deal_hand(deck_key: np.uint64, dealer: np.int64, rules: npt.NDArray[np.int64],
              state: npt.NDArray[np.int64], deck: npt.NDArray[np.int8],
              rng: npt.NDArray[np.uint64]) -> None:
    """Shuffle the deck of stream ``deck_key`` and deal it into ``state``."""
    rng[0] = deck_key
    shuffle_deck(rng, deck)
    new_hand(state, deck, dealer, rules)


@njit(cache=True)
def _write_hand_row(state: npt.NDArray[np.int64], deal: np.int64,
                    row: npt.NDArray[np.int64]) -> None:
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
    winner = state[Slot.WINNER]
    row[HandColumn.POINTS_A] = 0 if winner < 0 else (
        state[Slot.POINTS] if winner == 0 else -state[Slot.POINTS])


@njit(cache=True, parallel=True, nogil=True)  # nogil: see run_stoppable
def _hands_kernel(seed: np.int64, first_deal: np.int64, n_deals: np.int64, swap: bool,
                  rules: npt.NDArray[np.int64], policies: npt.NDArray[np.int64],
                  searchers: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
                  searched: npt.NDArray[np.int64]) -> None:
    """Rows for deals ``first_deal .. first_deal + n_deals``; A sits in seat 0.

    With ``swap`` row ``2i`` has A as non-dealer and row ``2i + 1`` A as dealer, on the
    same deck; otherwise the dealer alternates with the deal number.  ``searched[i]``
    gets the searched decisions and their samples of row ``i``.
    """
    reps = 2 if swap else 1
    # work space is allocated once per slot, not per deal: allocating inside the loop
    # serialises the threads on the allocator
    slots = min(n_deals, _SLOTS)
    per_slot = (n_deals + slots - 1) // max(slots, 1)
    for slot in prange(slots):
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        deck = np.empty(52, dtype=np.int8)
        rng = np.empty(1, dtype=np.uint64)
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        samples = np.zeros(1, dtype=np.int64)
        for i in range(slot * per_slot, min(n_deals, (slot + 1) * per_slot)):
            deal = first_deal + i
            deck_key = stream_key(seed, deal)
            policy_key = stream_key(seed ^ POLICY_SALT, deal)
            for rep in range(reps):
                dealer = np.int64(1 - rep) if swap else np.int64(deal % 2)
                samples[0] = 0
                row = i * reps + rep
                searched[row, 0] = play_hand(deck_key, policy_key, dealer, rules, policies,
                                             searchers, state, deck, rng, scratch, samples)
                searched[row, 1] = samples[0]
                _write_hand_row(state, deal, rows[row])


@njit(cache=True)
def close_game(scores: npt.NDArray[np.int64], boxes: npt.NDArray[np.int64],
                winner: np.int64, rules: npt.NDArray[np.int64],
                out_totals: npt.NDArray[np.int64]) -> bool:
    """Grand totals of one finished game into ``out_totals``; True when a shutout."""
    loser = 1 - winner
    game_bonus = rules[RuleField.GAME_BONUS]
    shutout = boxes[loser] == 0
    if shutout and rules[RuleField.SHUTOUT] == Shutout.BONUS200:
        game_bonus = 200
    for player in range(2):
        total = scores[player]
        if not rules[RuleField.LINE_IMMEDIATE]:
            total += rules[RuleField.LINE_BONUS] * boxes[player]
        out_totals[player] = total
    out_totals[winner] += game_bonus
    if shutout and rules[RuleField.SHUTOUT] == Shutout.DOUBLE:
        out_totals[winner] *= 2
    elif shutout and rules[RuleField.SHUTOUT] == Shutout.PLUS100:
        out_totals[winner] += 100
    return shutout


@njit(cache=True)
def play_game(seed: np.int64, game: np.int64, first_dealer: np.int64,
              rules: npt.NDArray[np.int64], score_policies: npt.NDArray[np.int64],
              regions: npt.NDArray[np.int64], searchers: npt.NDArray[np.int64],
              start: npt.NDArray[np.int64], row: npt.NDArray[np.int64]) -> None:
    """Play one game (or Hollywood session of three games) between seat 0 (A) and 1.

    Policies may depend on the score: before each hand seat ``s`` plays
    ``score_policies[s, regions[s, min(own, cap), min(other, cap)]]`` where ``own`` and
    ``other`` are the running scores (points, of the first Hollywood column) and ``cap``
    is the last index of the region tables.  The running scores are also written into
    the hand's state (``Slot.SCORE + seat``), where score-aware kernels such as the
    expert's knock read them.  A seat with a search row searches at its decisions
    (:mod:`analyzer.gin.play.search`).

    ``start`` holds the score (points) and boxes (hands won) each seat begins with:
    ``[score_a, score_b, boxes_a, boxes_b]`` (zeros for a new game; Hollywood columns
    all start from it).  Hand ``h`` of game ``g`` is dealt from stream
    ``g * MAX_HANDS_PER_GAME + h`` of the game seed, so two plays of a game with the
    first dealer swapped share decks for as long as they last.
    """
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int8)
    rng = np.empty(1, dtype=np.uint64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    samples = np.zeros(1, dtype=np.int64)
    columns = 3 if rules[RuleField.HOLLYWOOD] else 1
    scores = np.zeros((3, 2), dtype=np.int64)
    boxes = np.zeros((3, 2), dtype=np.int64)
    closed = np.zeros(3, dtype=np.bool_)
    wins = np.zeros(2, dtype=np.int64)
    totals = np.zeros(2, dtype=np.int64)
    policies = np.empty((2, score_policies.shape[2]), dtype=np.int64)
    cap = regions.shape[1] - 1
    for col in range(3):
        for seat in range(2):
            scores[col, seat] = start[seat]
            boxes[col, seat] = start[2 + seat]
    for i in range(row.shape[0]):
        row[i] = 0
    row[GameColumn.GAME] = game
    row[GameColumn.FIRST_DEALER] = first_dealer
    row[GameColumn.GAMES_PLAYED] = columns
    dealer = first_dealer
    game_seed = seed ^ GAME_SALT
    open_columns = columns
    hand_number = 0
    while open_columns > 0 and hand_number < MAX_HANDS_PER_GAME:
        stream = game * MAX_HANDS_PER_GAME + hand_number
        for seat in range(2):
            region = regions[seat, min(scores[0, seat], cap), min(scores[0, 1 - seat], cap)]
            policies[seat] = score_policies[seat, region]
        deal_hand(stream_key(game_seed, stream), dealer, rules, state, deck, rng)
        # the players see the score (of the first Hollywood column)
        note_scores(state, scores[0, 0], scores[0, 1])
        rng[0] = stream_key(game_seed ^ POLICY_SALT, stream)
        play_on(state, rules, policies, searchers,
                np.int64(stream_key(game_seed ^ POLICY_SALT, stream)) ^ SEARCH_SALT, rng,
                scratch, samples)
        hand_number += 1
        winner = state[Slot.WINNER]
        if winner < 0:
            row[GameColumn.DRAWN_HANDS] += 1
            continue
        points = state[Slot.POINTS]
        # Hollywood: a player's n-th hand won scores in the first n games (at most 3)
        reach = min(wins[winner] + 1, columns)
        wins[winner] += 1
        for col in range(reach):
            if closed[col]:
                continue
            scores[col, winner] += points
            boxes[col, winner] += 1
            if rules[RuleField.LINE_IMMEDIATE]:
                scores[col, winner] += rules[RuleField.LINE_BONUS]
            if scores[col, winner] >= rules[RuleField.TARGET]:
                closed[col] = True
                open_columns -= 1
                row[GameColumn.SHUTOUTS] += close_game(scores[col], boxes[col], winner,
                                                        rules, totals)
                row[GameColumn.GAMES_WON_A] += winner == 0
                row[GameColumn.TOTAL_A] += totals[0]
                row[GameColumn.TOTAL_B] += totals[1]
                row[GameColumn.MARGIN_A] += totals[0] - totals[1]
        if not rules[RuleField.WINNER_DEALS]:
            dealer = 1 - dealer
        else:
            dealer = winner
    row[GameColumn.HANDS] = hand_number
    row[GameColumn.FINISHED] = open_columns == 0


@njit(cache=True, parallel=True, nogil=True)  # nogil: see run_stoppable
def _games_kernel(seed: np.int64, first_game: np.int64, n_games: np.int64, swap: bool,
                  rules: npt.NDArray[np.int64], score_policies: npt.NDArray[np.int64],
                  regions: npt.NDArray[np.int64], searchers: npt.NDArray[np.int64],
                  start: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
    reps = 2 if swap else 1
    for i in prange(n_games):
        game = first_game + i
        for rep in range(reps):
            first_dealer = np.int64(1 - rep) if swap else np.int64(game % 2)
            play_game(seed, game, first_dealer, rules, score_policies, regions, searchers,
                      start, rows[i * reps + rep])


# ---------------------------------------------------------------------------- driver


@dataclass
class _Sums:
    """Mergeable sums over chunks (counts, sums and sums of squares per unit)."""

    values: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, value: float | np.number[Any]) -> None:
        self.values[name] = self.values.get(name, 0.0) + float(value)

    def get(self, name: str) -> float:
        return self.values.get(name, 0.0)


@dataclass
class HandResult:
    """Summary of a hands run; ``rows`` holds every hand when asked for (else None)."""

    deals: int
    hands: int
    seed: int
    rules: Rules
    policy_a: Player
    policy_b: Player
    outcomes: dict[str, float]
    points_a: Estimate
    """Points per hand to policy A (per deal: the mean over its seat-swapped pair)."""
    win_rate_a: Estimate
    turns: Estimate
    first_player_points: Estimate
    first_player_win_rate: float
    undercut_rate: float
    gin_rate: float
    elapsed_s: float
    rows: pd.DataFrame | None = None
    searched_decisions: int = 0
    """Decisions the search player(s) searched (0 without one)."""
    search_samples: int = 0
    """Samples those decisions rolled out."""
    interrupted: bool = False
    """True when Ctrl-C stopped the run: the summary covers the deals finished."""
    kernels_s: float = 0.0
    """Seconds spent loading (first run: compiling) the kernels before ``elapsed_s``
    started (0 on a cluster, where the workers load them)."""

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.elapsed_s if self.elapsed_s > 0 else float("inf")

    def to_frame(self) -> pd.DataFrame:
        """The estimates as a table: one row per metric (``mean``, 95% CI ``low`` and
        ``high``, ``n`` deals), then each outcome's share of hands."""
        return _estimates_frame(
            {"points_per_hand_a": self.points_a, "win_rate_a": self.win_rate_a,
             "turns_per_hand": self.turns, "first_player_points": self.first_player_points},
            {f"share_{name}": share for name, share in self.outcomes.items()}, self.deals)


@dataclass
class GameResult:
    """Summary of a games run (a Hollywood session counts as three games)."""

    games: int
    seed: int
    rules: Rules
    policy_a: GamePolicy
    policy_b: GamePolicy
    game_win_rate_a: Estimate
    margin_a: Estimate
    hands_per_game: Estimate
    shutout_rate: float
    unfinished: int
    elapsed_s: float
    rows: pd.DataFrame | None = None
    interrupted: bool = False
    """True when Ctrl-C stopped the run: the summary covers the games finished."""

    def to_frame(self) -> pd.DataFrame:
        """The estimates as a table: one row per metric (``mean``, 95% CI ``low`` and
        ``high``, ``n`` games)."""
        return _estimates_frame(
            {"game_win_rate_a": self.game_win_rate_a, "margin_a": self.margin_a,
             "hands_per_game": self.hands_per_game}, {"shutout_rate": self.shutout_rate},
            self.games)


def _estimates_frame(estimates: dict[str, Estimate], shares: dict[str, float],
                     n: int) -> pd.DataFrame:
    rows = [{"metric": name, "mean": e.mean, "low": e.low, "high": e.high, "n": e.n}
            for name, e in estimates.items()]
    rows += [{"metric": name, "mean": value, "low": float("nan"), "high": float("nan"), "n": n}
             for name, value in shares.items()]
    return pd.DataFrame(rows, columns=["metric", "mean", "low", "high", "n"])


def hand_rows(rules: Rules, policy_a: Player, policy_b: Player, seed: int, first_deal: int,
              n_deals: int, swap_seats: bool = True) -> npt.NDArray[np.int64]:
    """Per-hand rows (columns :class:`HandColumn`) of deals ``first_deal ..`` of a run."""
    return _searched_hand_rows(rules, policy_a, policy_b, seed, first_deal, n_deals,
                               swap_seats)[0]


def _searched_hand_rows(rules: Rules, policy_a: Player, policy_b: Player, seed: int,
                        first_deal: int, n_deals: int, swap_seats: bool
                        ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(per-hand rows, per-hand searched decisions and their samples)."""
    reps = 2 if swap_seats else 1
    rows = np.zeros((n_deals * reps, len(HandColumn)), dtype=np.int64)
    searched = np.zeros((n_deals * reps, 2), dtype=np.int64)
    rules_array = rules.to_array()
    policies, searchers = split_players([policy_a, policy_b])
    # in kernel calls of a bounded size: Ctrl-C is seen between them (a kernel cannot
    # be interrupted), and every deal has its own stream, so the rows do not change
    for start in range(0, n_deals, INTERRUPT_SPAN):
        count = min(INTERRUPT_SPAN, n_deals - start)
        span = slice(start * reps, (start + count) * reps)
        run_stoppable(_hands_kernel, np.int64(seed), np.int64(first_deal + start),
                      np.int64(count), swap_seats, rules_array, policies, searchers,
                      rows[span], searched[span], searchers=searchers)
    return rows, searched


def hand_chunk_sums(rules: Rules, policy_a: Player, policy_b: Player, seed: int,
                    first_deal: int, n_deals: int, swap_seats: bool = True) -> dict[str, float]:
    """Mergeable sums (counts, sums, sums of squares) over one chunk of deals.

    The values are integers or halves, so adding chunks' sums in any grouping is exact.
    """
    return _hand_chunk(rules, policy_a, policy_b, seed, first_deal, n_deals, swap_seats,
                       keep_rows=False)[0]


def _hand_chunk(rules: Rules, policy_a: Player, policy_b: Player, seed: int, first_deal: int,
                n_deals: int, swap_seats: bool, keep_rows: bool
                ) -> tuple[dict[str, float], npt.NDArray[np.int64] | None]:
    """A chunk's sums, and its rows when ``keep_rows`` (the unit :func:`simulate` maps)."""
    rows, searched = _searched_hand_rows(rules, policy_a, policy_b, seed, first_deal, n_deals,
                                         swap_seats)
    sums = _Sums()
    _accumulate_hands(rows, 2 if swap_seats else 1, sums)
    sums.add("searched_decisions", searched[:, 0].sum())
    sums.add("search_samples", searched[:, 1].sum())
    return sums.values, rows if keep_rows else None


@dataclass(frozen=True)
class ScoreAware:
    """A policy that changes with the score: before each hand of a game the player uses
    ``policies[regions[own_score, other_score]]`` (scores in points, capped at the last
    index of ``regions``, a square ``np.int64`` table)."""

    policies: tuple[Policy, ...]
    regions: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        if self.regions.ndim != 2 or self.regions.shape[0] != self.regions.shape[1]:
            raise ValueError("regions must be a square table indexed by (own, other) score")
        if self.regions.min() < 0 or self.regions.max() >= len(self.policies):
            raise ValueError("regions must index into policies")


GamePolicy = Policy | SearchPolicy | ScoreAware


def _score_policy_arrays(policy_a: GamePolicy, policy_b: GamePolicy, target: int
                         ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                    npt.NDArray[np.int64]]:
    """(policies by seat and region, region tables by seat, search rows by seat) for the
    game kernel; a search player's policy is its rollout policy."""
    plain = [p if isinstance(p, ScoreAware) else rollout_policy(p) for p in (policy_a, policy_b)]
    sides = [p if isinstance(p, ScoreAware) else
             ScoreAware((p,), np.zeros((target + 1, target + 1), dtype=np.int64))
             for p in plain]
    n_regions = max(len(side.policies) for side in sides)
    size = max(side.regions.shape[0] for side in sides)
    first = sides[0].policies[0].to_array()
    arrays = np.zeros((2, n_regions, len(first)), dtype=np.int64)
    regions = np.zeros((2, size, size), dtype=np.int64)
    for seat, side in enumerate(sides):
        for index, policy in enumerate(side.policies):
            arrays[seat, index] = policy.to_array()
        table = side.regions
        # pad by repeating the last row and column: scores past the table use its edge
        regions[seat] = np.pad(table, ((0, size - table.shape[0]), (0, size - table.shape[0])),
                               mode="edge")
    searchers = no_search()
    for seat, player in enumerate((policy_a, policy_b)):
        if isinstance(player, SearchPolicy):
            searchers[seat] = player.to_array()
    return arrays, regions, searchers


def game_rows(rules: Rules, policy_a: GamePolicy, policy_b: GamePolicy, seed: int,
              first_game: int, n_games: int, swap_seats: bool = True,
              start: tuple[int, int, int, int] = (0, 0, 0, 0)) -> npt.NDArray[np.int64]:
    """Per-game rows (columns :class:`GameColumn`) of games ``first_game ..`` of a run."""
    reps = 2 if swap_seats else 1
    rows = np.zeros((n_games * reps, len(GameColumn)), dtype=np.int64)
    arrays, regions, searchers = _score_policy_arrays(policy_a, policy_b, rules.target)
    rules_array, scores = rules.to_array(), np.array(start, dtype=np.int64)
    span = max(1, INTERRUPT_SPAN // 16)  # a game is about a dozen hands
    for offset in range(0, n_games, span):  # bounded kernel calls, as in hand_rows
        count = min(span, n_games - offset)
        run_stoppable(_games_kernel, np.int64(seed), np.int64(first_game + offset),
                      np.int64(count), swap_seats, rules_array, arrays, regions, searchers,
                      scores, rows[offset * reps:(offset + count) * reps],
                      searchers=searchers)
    return rows


def game_chunk_sums(rules: Rules, policy_a: GamePolicy, policy_b: GamePolicy, seed: int,
                    first_game: int, n_games: int, swap_seats: bool = True,
                    start: tuple[int, int, int, int] = (0, 0, 0, 0)) -> dict[str, float]:
    """Mergeable sums over one chunk of games (see :func:`hand_chunk_sums`)."""
    return _game_chunk(rules, policy_a, policy_b, seed, first_game, n_games, swap_seats,
                       start, keep_rows=False)[0]


def _game_chunk(rules: Rules, policy_a: GamePolicy, policy_b: GamePolicy, seed: int,
                first_game: int, n_games: int, swap_seats: bool,
                start: tuple[int, int, int, int], keep_rows: bool
                ) -> tuple[dict[str, float], npt.NDArray[np.int64] | None]:
    """A chunk's sums, and its rows when ``keep_rows`` (the unit :func:`play_games` maps)."""
    rows = game_rows(rules, policy_a, policy_b, seed, first_game, n_games, swap_seats, start)
    sums = _Sums()
    _accumulate_games(rows, 2 if swap_seats else 1, sums)
    return sums.values, rows if keep_rows else None


def merge_sums(parts: list[dict[str, float]]) -> dict[str, float]:
    """Add chunk sums key by key (in list order)."""
    total = _Sums()
    for part in parts:
        for name, value in part.items():
            total.add(name, value)
    return total.values


def _run_chunks(function: Callable[..., tuple[dict[str, float], npt.NDArray[np.int64] | None]],
                total: int, chunk: int, first_key: str, count_key: str,
                common: dict[str, object], scheduler: str | None, progress: Progress | None
                ) -> tuple[dict[str, float], list[npt.NDArray[np.int64]], bool]:
    """Merged sums, kept rows and whether Ctrl-C stopped it, of the chunks of a run;
    after Ctrl-C, of the chunks finished in order (re-raising when none had)."""
    def fold(value: tuple[dict[str, float], list[npt.NDArray[np.int64]]],
             part: tuple[dict[str, float], npt.NDArray[np.int64] | None]
             ) -> tuple[dict[str, float], list[npt.NDArray[np.int64]]]:
        sums, kept = value
        if part[1] is not None:
            kept.append(part[1])
        return merge_sums([sums, part[0]]), kept

    plan = ChunkPlan(function, total, chunk, common, first_key, count_key)
    initial: tuple[dict[str, float], list[npt.NDArray[np.int64]]] = ({}, [])
    (sums, kept), interrupted = fold_chunks(plan, fold, initial, scheduler, progress)
    return sums, kept, interrupted


def simulate(rules: Rules, policy_a: Player, policy_b: Player, n_deals: int, seed: int = 0,
             swap_seats: bool = True, keep_rows: bool = False, chunk: int = DEFAULT_CHUNK,
             progress: Progress | None = None, scheduler: str | None = None) -> HandResult:
    """Play ``n_deals`` deals (two hands each with ``swap_seats``) of A against B.

    ``chunk`` deals go to each kernel call (or cluster task); ``progress`` is called
    with the deals of each chunk finished.  ``scheduler`` (see
    :func:`analyzer.core.chunks.fold_chunks`; None reads ``$ANALYZER_SCHEDULER``) runs the
    chunks on a Dask cluster with the same result bit for bit; ``elapsed_s`` then
    includes connecting to it.  A ``KeyboardInterrupt`` stops the run; the summary then
    covers the chunks finished so far.
    """
    if n_deals < 1:
        raise ValueError(f"n_deals must be >= 1, got {n_deals}")
    warm_up = time.perf_counter()
    if scheduler is None:
        # load (or, on a first run, compile) the kernels before the clock starts, so that
        # deals_per_s measures play, not numba: loading costs seconds whatever the count
        try:
            _hand_chunk(rules, policy_a, policy_b, seed, 0, 1, swap_seats, False)
        except Exception:
            # a Ctrl-C swallowed inside numba's compiler can surface as a numba error
            raise_if_stop_requested()
            raise
    started = time.perf_counter()
    common = {"rules": rules, "policy_a": policy_a, "policy_b": policy_b, "seed": seed,
              "swap_seats": swap_seats, "keep_rows": keep_rows}
    sums, kept, interrupted = _run_chunks(_hand_chunk, n_deals, chunk, "first_deal",
                                          "n_deals", common, scheduler, progress)
    elapsed = time.perf_counter() - started
    result = hand_result(sums, seed, rules, policy_a, policy_b, elapsed,
                         _hand_frame(kept) if keep_rows else None)
    result.interrupted = interrupted
    result.kernels_s = started - warm_up
    return result


def _accumulate_hands(rows: npt.NDArray[np.int64], reps: int, sums: _Sums) -> None:
    outcome = rows[:, HandColumn.OUTCOME]
    for code, name in enumerate(OUTCOME_NAMES):
        sums.add(name, np.count_nonzero(outcome == code))
    sums.add("hands", len(rows))
    per_deal = rows[:, HandColumn.POINTS_A].reshape(-1, reps).mean(axis=1)
    sums.add("deals", len(per_deal))
    sums.add("points_a", per_deal.sum())
    sums.add("points_a_sq", np.square(per_deal).sum())
    wins = (rows[:, HandColumn.WINNER] == 0).astype(np.float64)
    deal_wins = wins.reshape(-1, reps).mean(axis=1)
    sums.add("wins_a", deal_wins.sum())
    sums.add("wins_a_sq", np.square(deal_wins).sum())
    turns = rows[:, HandColumn.TURNS].astype(np.float64)
    sums.add("turns", turns.sum())
    sums.add("turns_sq", np.square(turns).sum())
    # first player = the non-dealer; its points are + when it wins
    first = 1 - rows[:, HandColumn.DEALER]
    winner = rows[:, HandColumn.WINNER]
    first_points = np.where(winner < 0, 0,
                            np.where(winner == first, 1, -1) * rows[:, HandColumn.POINTS])
    sums.add("first_points", first_points.sum())
    sums.add("first_points_sq", np.square(first_points.astype(np.float64)).sum())
    sums.add("first_wins", np.count_nonzero(winner == first))
    sums.add("decided", np.count_nonzero(winner >= 0))


def hand_result(sums: dict[str, float], seed: int, rules: Rules, policy_a: Player,
                policy_b: Player, elapsed: float, rows: pd.DataFrame | None = None
                ) -> HandResult:
    """The summary of a hands run from its merged sums."""
    def get(name: str) -> float:
        return sums.get(name, 0.0)

    deals, hands = int(get("deals")), int(get("hands"))
    outcomes = {name: get(name) / hands for name in OUTCOME_NAMES}
    decided = get("decided")
    return HandResult(
        deals=deals, hands=hands, seed=seed, rules=rules, policy_a=policy_a,
        policy_b=policy_b, outcomes=outcomes,
        points_a=Estimate.from_sums(get("points_a"), get("points_a_sq"), deals),
        win_rate_a=Estimate.from_sums(get("wins_a"), get("wins_a_sq"), deals),
        turns=Estimate.from_sums(get("turns"), get("turns_sq"), hands),
        first_player_points=Estimate.from_sums(get("first_points"), get("first_points_sq"),
                                               hands),
        first_player_win_rate=get("first_wins") / decided if decided else float("nan"),
        undercut_rate=outcomes["undercut"], gin_rate=outcomes["gin"] + outcomes["big_gin"],
        elapsed_s=elapsed, rows=rows, searched_decisions=int(get("searched_decisions")),
        search_samples=int(get("search_samples")))


def _hand_frame(chunks: list[npt.NDArray[np.int64]]) -> pd.DataFrame:
    rows = np.concatenate(chunks) if chunks else np.zeros((0, len(HandColumn)), np.int64)
    frame = pd.DataFrame(rows, columns=[c.name.lower() for c in HandColumn])
    frame["outcome"] = pd.Categorical.from_codes(frame["outcome"], categories=OUTCOME_NAMES)
    return frame


def _accumulate_games(rows: npt.NDArray[np.int64], reps: int, sums: _Sums) -> None:
    played = rows[:, GameColumn.GAMES_PLAYED].astype(np.float64)
    per_game = (rows[:, GameColumn.GAMES_WON_A] / played).reshape(-1, reps).mean(axis=1)
    margin = rows[:, GameColumn.MARGIN_A].astype(np.float64).reshape(-1, reps).mean(axis=1)
    hands = rows[:, GameColumn.HANDS].astype(np.float64)
    for name, values in (("win", per_game), ("margin", margin), ("hands", hands)):
        sums.add(name, values.sum())
        sums.add(name + "_sq", np.square(values).sum())
        sums.add(name + "_n", len(values))
    sums.add("shutouts", rows[:, GameColumn.SHUTOUTS].sum())
    sums.add("games", played.sum())
    sums.add("unfinished", np.count_nonzero(rows[:, GameColumn.FINISHED] == 0))


def game_result(sums: dict[str, float], seed: int, rules: Rules, policy_a: GamePolicy,
                policy_b: GamePolicy, elapsed: float, rows: pd.DataFrame | None = None
                ) -> GameResult:
    """The summary of a games run from its merged sums."""
    def estimate(name: str) -> Estimate:
        return Estimate.from_sums(sums.get(name, 0.0), sums.get(name + "_sq", 0.0),
                                  int(sums.get(name + "_n", 0)))

    games = sums.get("games", 0.0)
    return GameResult(games=int(games), seed=seed, rules=rules, policy_a=policy_a,
                      policy_b=policy_b, game_win_rate_a=estimate("win"),
                      margin_a=estimate("margin"), hands_per_game=estimate("hands"),
                      shutout_rate=sums.get("shutouts", 0.0) / max(games, 1),
                      unfinished=int(sums.get("unfinished", 0)), elapsed_s=elapsed, rows=rows)


def play_games(rules: Rules, policy_a: GamePolicy, policy_b: GamePolicy, n_games: int,
               seed: int = 0,
               swap_seats: bool = True, keep_rows: bool = False, chunk: int = 1 << 12,
               progress: Progress | None = None,
               start: tuple[int, int, int, int] = (0, 0, 0, 0),
               scheduler: str | None = None) -> GameResult:
    """Play ``n_games`` whole games of A against B (twice each with ``swap_seats``: B
    dealing first, then A, on common decks), from the ``start`` scores and boxes
    ``(score_a, score_b, boxes_a, boxes_b)``.

    ``chunk``, ``progress``, ``scheduler`` and Ctrl-C work as in :func:`simulate`, in
    games."""
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    started = time.perf_counter()
    common: dict[str, object] = {
        "rules": rules, "policy_a": policy_a, "policy_b": policy_b, "seed": seed,
        "swap_seats": swap_seats, "start": start, "keep_rows": keep_rows}
    sums, kept, interrupted = _run_chunks(_game_chunk, n_games, chunk, "first_game",
                                          "n_games", common, scheduler, progress)
    frame = None
    if keep_rows:
        frame = pd.DataFrame(np.concatenate(kept), columns=[c.name.lower() for c in GameColumn])
    result = game_result(sums, seed, rules, policy_a, policy_b,
                         time.perf_counter() - started, frame)
    result.interrupted = interrupted
    return result


def replay_deal(rules: Rules, policy_a: Player, policy_b: Player, seed: int, deal: int,
                a_dealer: bool = False) -> npt.NDArray[np.int64]:
    """The final state of one deal of a :func:`simulate` run (A is seat 0)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    policies, searchers = split_players([policy_a, policy_b])
    play_hand(np.uint64(stream_key(np.int64(seed), np.int64(deal))),
              np.uint64(stream_key(np.int64(seed) ^ POLICY_SALT, np.int64(deal))),
              np.int64(0 if a_dealer else 1), rules.to_array(), policies, searchers, state,
              np.empty(52, dtype=np.int8), np.empty(1, dtype=np.uint64),
              np.zeros(SCRATCH_SIZE, dtype=np.int64), np.zeros(1, dtype=np.int64))
    return state


__all__ = ["Estimate", "GameResult", "HandResult", "Outcome", "game_chunk_sums", "hand_chunk_sums",
           "merge_sums", "play_games", "replay_deal", "simulate"]
