"""Monte Carlo driver: many deals of plain rummy in parallel, aggregated in the kernel.

Deal ``i`` is shuffled from its own random stream ``rng.stream_key(seed, i)``.  A run is
cut into chunks of deals (or games) that run here or on a Dask cluster
(:func:`analyzer.core.chunks.fold_chunks`, as gin's :func:`analyzer.gin.play.simulate.simulate`);
inside a chunk the kernel splits the deals among parallel slots.  Every total is an
integer sum, so every number returned is the same whatever the thread count, the chunk
size or the scheduler.  Memory stays flat: a chunk returns one row of totals, and
per-hand rows only when asked.

Players and seats
-----------------
``policies[j]`` is player ``j``.  With ``rotate`` (the default) player ``j`` sits in seat
``(j + i) % players`` in deal ``i``, so every player plays every seat equally often;
without it player ``j`` always has seat ``j``.  Seat 0 plays first, the last seat deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from ..core.arrays import Float64s, Int64s
from ..core.chunks import ChunkPlan, fold_chunks
from ..core.fold_checks import Range, first_part, totals_problem
from ..core.lanes import lane_tables
from ..core.progress import Progress
from ..core.results import RunResult
from ..core.stats import Estimate
from ..core.threads import run_calls, spans, thread_count
from .game_kernels import (
    MAX_GAME_HANDS,
    N_GAME_TOTALS,
    N_TOTALS,
    ROW_COLUMNS,
    GameTotal,
    HandTotal,
    games_kernel,
    hands_kernel,
)
from .policies import RummyPolicy
from .rules import INT_RANGES, MAX_PLAYERS, RummyRules

# ---------------------------------------------------------------------------- driver

#: Deals (or games) per kernel call or cluster task.
DEFAULT_CHUNK = 1 << 14
DEFAULT_GAME_CHUNK = 1 << 9

#: Most points one hand scores: the whole deck at 15 points a card (more than any card
#: counts) times the largest rummy multiplier.  A bound to check saved totals against
#: (:func:`_hand_layout`), far above any real hand.
MAX_HAND_POINTS = INT_RANGES["rummy_multiplier"][1] * 52 * 15
_MOST_TURNS = INT_RANGES["turn_limit"][1]


def _blocks(*blocks: tuple[str, int, int, Range]) -> tuple[list[Range], list[str]]:
    """Per-column ranges and names of totals laid out as ``(name, first column, width,
    range)`` blocks (width 1: one column; else one column per seat or player)."""
    size = max(first + width for _, first, width, _ in blocks)
    ranges: list[Range] = [(0, 0)] * size
    names = [""] * size
    for name, first, width, bounds in blocks:
        for offset in range(width):
            ranges[first + offset] = bounds
            names[first + offset] = name.lower() + (f"[{offset}]" if width > 1 else "")
    return ranges, names


def _hand_layout() -> tuple[list[Range], list[str]]:
    """What one deal (one hand) adds to each of :class:`HandTotal`'s totals."""
    points, turns, seats = MAX_HAND_POINTS, _MOST_TURNS, MAX_PLAYERS
    flag: Range = (0, 1)
    return _blocks(
        ("HANDS", HandTotal.HANDS, 1, (1, 1)),
        ("OUT", HandTotal.OUT, 1, flag),
        ("VOID_STOCK", HandTotal.VOID_STOCK, 1, flag),
        ("RUMMY", HandTotal.RUMMY, 1, flag),
        ("TURNS", HandTotal.TURNS, 1, (0, turns)),
        ("TURNS_SQ", HandTotal.TURNS_SQ, 1, (0, turns**2)),
        ("POINTS", HandTotal.POINTS, 1, (0, points)),
        ("POINTS_SQ", HandTotal.POINTS_SQ, 1, (0, points**2)),
        ("RESHUFFLES", HandTotal.RESHUFFLES, 1, (0, turns)),
        ("CALLS", HandTotal.CALLS, 1, (0, turns * seats)),
        ("MARGIN", HandTotal.MARGIN, 1, (-points, points)),
        ("MARGIN_SQ", HandTotal.MARGIN_SQ, 1, (0, points**2)),
        ("SEAT_WINS", HandTotal.SEAT_WINS, seats, flag),
        ("SEAT_POINTS", HandTotal.SEAT_POINTS, seats, (0, points)),
        ("SEAT_POINTS_SQ", HandTotal.SEAT_POINTS_SQ, seats, (0, points**2)),
        ("PLAYER_WINS", HandTotal.PLAYER_WINS, seats, flag),
        ("PLAYER_POINTS", HandTotal.PLAYER_POINTS, seats, (0, points)),
        ("PLAYER_POINTS_SQ", HandTotal.PLAYER_POINTS_SQ, seats, (0, points**2)),
        ("PLAYER_RUMMY", HandTotal.PLAYER_RUMMY, seats, flag),
    )


def _game_layout() -> tuple[list[Range], list[str]]:
    """What one game adds to each of :class:`GameTotal`'s totals."""
    hands = MAX_GAME_HANDS
    return _blocks(
        ("GAMES", GameTotal.GAMES, 1, (1, 1)),
        ("FINISHED", GameTotal.FINISHED, 1, (0, 1)),
        ("HANDS", GameTotal.HANDS, 1, (1, hands)),
        ("HANDS_SQ", GameTotal.HANDS_SQ, 1, (1, hands**2)),
        ("WINS", GameTotal.WINS, MAX_PLAYERS, (0, 1)),
        ("SCORE", GameTotal.SCORE, MAX_PLAYERS, (0, hands * MAX_HAND_POINTS)),
    )


def _totals_check(
    layout: tuple[list[Range], list[str]],
) -> Callable[[Int64s, int], str | None]:
    ranges, names = layout

    def check(totals: Int64s, units: int) -> str | None:
        return totals_problem(totals, units, ranges, names)

    return check


def _estimate(total: float, squares: float, count: float) -> Estimate:
    return Estimate.from_sums(total, squares, count)


def _rate(hits: float, count: float) -> Estimate:
    return Estimate.from_rate(hits, count)


@dataclass
class HandResult(RunResult):
    """Summary of a hands run of :func:`simulate`; every :class:`Estimate` is a mean with
    its 95% CI.  Points are per hand played (void hands count 0) unless stated; ``rows``
    holds one row per hand when asked for (``left_seat<k>``: points left in seat k's
    hand).  After Ctrl-C (``interrupted``) it covers the chunks finished."""

    rules: RummyRules
    policies: tuple[RummyPolicy, ...]
    seed: int
    rotate: bool
    totals: Int64s
    """The raw integer totals (``T_*`` columns, summed over chunks)."""
    hands: int
    turns: Estimate
    """Turns per hand, all players together."""
    void_rate: Estimate
    void_stock_rate: Estimate
    rummy_rate: Estimate
    """Share of won hands that were won "Rummy"."""
    winner_points: Estimate
    """Points per won hand."""
    points_per_hand: Estimate
    reshuffles_per_hand: float
    calls_per_hand: float
    seat_win_rate: tuple[Estimate, ...]
    seat_points: tuple[Estimate, ...]
    player_win_rate: tuple[Estimate, ...]
    player_points: tuple[Estimate, ...]
    player_rummies: tuple[int, ...]
    margin: Estimate
    """Player 0's points per hand minus the mean of the other players' (paired within
    each deal; with two players, player 0's points minus player 1's)."""
    elapsed_s: float
    rows: pd.DataFrame | None = None
    interrupted: bool = False

    summary_fields = (
        "hands",
        "turns",
        "void_rate",
        "void_stock_rate",
        "rummy_rate",
        "winner_points",
        "points_per_hand",
        "reshuffles_per_hand",
        "calls_per_hand",
        "seat_win_rate",
        "seat_points",
        "player_win_rate",
        "player_points",
        "player_rummies",
        "margin",
    )

    @property
    def deals(self) -> int:
        """Deals played (one hand each)."""
        return self.hands

    @property
    def units(self) -> int:
        return self.hands


@dataclass
class GameResult(RunResult):
    """Summary of a games run of :func:`play_games` (player ``j`` keeps seat ``j``)."""

    rules: RummyRules
    policies: tuple[RummyPolicy, ...]
    seed: int
    games: int
    target: int
    finished_rate: Estimate
    """Share of games someone reached the target within 1,000 hands."""
    hands_per_game: Estimate
    player_game_win_rate: tuple[Estimate, ...]
    player_final_score: tuple[float, ...]
    """Mean final score of each player, points."""
    elapsed_s: float
    interrupted: bool = False

    summary_fields = (
        "games",
        "target",
        "finished_rate",
        "hands_per_game",
        "player_game_win_rate",
        "player_final_score",
    )

    @property
    def units(self) -> int:
        return self.games


def _check_players(
    rules: RummyRules, policies: Sequence[RummyPolicy], count: int, what: str
) -> None:
    if len(policies) != rules.players:
        raise ValueError(
            f"{rules.players} players need {rules.players} policies, got {len(policies)}"
        )
    if count < 1:
        raise ValueError(f"{what} must be >= 1, got {count}")


def _policy_rows(policies: Sequence[RummyPolicy]) -> Int64s:
    return np.array([p.to_array() for p in policies], dtype=np.int64)


def hand_chunk(
    rules: RummyRules,
    policies: Sequence[RummyPolicy],
    seed: int,
    rotate: bool,
    keep_rows: bool,
    first_deal: int,
    n_deals: int,
) -> tuple[Int64s, Int64s | None]:
    """Totals (``T_*`` columns) of deals ``first_deal ..`` of a run, and their rows when
    ``keep_rows``: the unit :func:`simulate` maps over chunks."""
    width = len(ROW_COLUMNS) + rules.players
    rows = np.zeros((n_deals if keep_rows else 0, width), dtype=np.int64)
    rd, rm, lp = lane_tables(rules.run_cap)
    rules_array, policy_rows = rules.to_array(), _policy_rows(policies)

    def span(totals: Int64s, first: int, count: int) -> None:
        hands_kernel(
            np.int64(seed),
            np.int64(first_deal + first),
            np.int64(count),
            rules_array,
            policy_rows,
            rotate,
            rd,
            rm,
            lp,
            totals,
            rows[first : first + count],
        )

    return _span_totals(span, n_deals, N_TOTALS), rows if keep_rows else None


def game_chunk(
    rules: RummyRules, policies: Sequence[RummyPolicy], seed: int, first_game: int, n_games: int
) -> Int64s:
    """Totals (``G_*`` columns) of games ``first_game ..`` of a run: the unit
    :func:`play_games` maps over chunks."""
    rd, rm, lp = lane_tables(rules.run_cap)
    rules_array, policy_rows = rules.to_array(), _policy_rows(policies)

    def span(totals: Int64s, first: int, count: int) -> None:
        games_kernel(
            np.int64(seed),
            np.int64(first_game + first),
            np.int64(count),
            rules_array,
            policy_rows,
            rd,
            rm,
            lp,
            totals,
        )

    return _span_totals(span, n_games, N_GAME_TOTALS)


def _span_totals(span: Callable[[Int64s, int, int], None], n_items: int, width: int) -> Int64s:
    """The integer totals of items ``0 .. n_items``, summed over spans run on numba's
    threads, each into its own row (integer sums: the split does not change them)."""
    threads = thread_count()
    parts = spans(n_items, n_items, threads)
    totals = np.zeros((len(parts), width), dtype=np.int64)
    run_calls(
        [partial(span, totals[k], first, count) for k, (first, count) in enumerate(parts)],
        threads,
    )
    return totals.sum(axis=0)


def simulate(
    rules: RummyRules,
    policies: Sequence[RummyPolicy],
    deals: int,
    seed: int = 0,
    rotate: bool = True,
    keep_rows: bool = False,
    chunk: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> HandResult:
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
    keep_rows : bool
        Also return a DataFrame with one row per hand (memory grows with ``deals``).
    chunk, progress, scheduler
        Deals per kernel call or cluster task; a callback given the deals of each chunk
        finished; a Dask scheduler (see :func:`analyzer.core.chunks.fold_chunks`).  The
        result is the same bit for bit whatever they are.

    Examples
    --------
    >>> from analyzer.rummy import RummyRules, parse_policy
    >>> result = simulate(RummyRules(), [parse_policy("simple")] * 2, deals=200, seed=1)
    >>> result.hands
    200
    """
    _check_players(rules, policies, deals, "deals")
    started = time.perf_counter()
    common = {
        "rules": rules,
        "policies": tuple(policies),
        "seed": seed,
        "rotate": rotate,
        "keep_rows": keep_rows,
    }
    check = first_part(_totals_check(_hand_layout()))
    plan = ChunkPlan(hand_chunk, deals, chunk, common, "first_deal", "n_deals", check)

    def fold(
        value: tuple[Int64s, list[Int64s]], part: tuple[Int64s, Int64s | None]
    ) -> tuple[Int64s, list[Int64s]]:
        if part[1] is not None:
            value[1].append(part[1])
        return value[0] + part[0], value[1]

    initial: tuple[Int64s, list[Int64s]] = (
        np.zeros(N_TOTALS, dtype=np.int64),
        [],
    )
    (totals, kept), interrupted = fold_chunks(plan, fold, initial, scheduler, progress)
    rows = None
    if keep_rows:
        columns = [*ROW_COLUMNS, *(f"left_seat{s}" for s in range(rules.players))]
        width = len(columns)
        rows = pd.DataFrame(
            np.concatenate(kept) if kept else np.zeros((0, width), np.int64), columns=columns
        )
    return hand_result(
        totals,
        rules,
        tuple(policies),
        seed,
        rotate,
        time.perf_counter() - started,
        rows,
        interrupted,
    )


def hand_result(
    totals: Int64s,
    rules: RummyRules,
    policies: tuple[RummyPolicy, ...],
    seed: int,
    rotate: bool,
    elapsed: float,
    rows: pd.DataFrame | None = None,
    interrupted: bool = False,
) -> HandResult:
    """The summary of a hands run from its summed totals (see the ``T_*`` columns)."""
    t = [float(x) for x in totals]
    hands = t[HandTotal.HANDS]
    players = rules.players
    return HandResult(
        rules=rules,
        policies=policies,
        seed=seed,
        rotate=rotate,
        totals=totals,
        hands=int(hands),
        turns=_estimate(t[HandTotal.TURNS], t[HandTotal.TURNS_SQ], hands),
        void_rate=_rate(hands - t[HandTotal.OUT], hands),
        void_stock_rate=_rate(t[HandTotal.VOID_STOCK], hands),
        rummy_rate=_rate(t[HandTotal.RUMMY], t[HandTotal.OUT]),
        winner_points=_estimate(t[HandTotal.POINTS], t[HandTotal.POINTS_SQ], t[HandTotal.OUT]),
        points_per_hand=_estimate(t[HandTotal.POINTS], t[HandTotal.POINTS_SQ], hands),
        reshuffles_per_hand=t[HandTotal.RESHUFFLES] / hands,
        calls_per_hand=t[HandTotal.CALLS] / hands,
        seat_win_rate=tuple(_rate(t[HandTotal.SEAT_WINS + s], hands) for s in range(players)),
        seat_points=tuple(
            _estimate(t[HandTotal.SEAT_POINTS + s], t[HandTotal.SEAT_POINTS_SQ + s], hands)
            for s in range(players)
        ),
        player_win_rate=tuple(_rate(t[HandTotal.PLAYER_WINS + j], hands) for j in range(players)),
        player_points=tuple(
            _estimate(t[HandTotal.PLAYER_POINTS + j], t[HandTotal.PLAYER_POINTS_SQ + j], hands)
            for j in range(players)
        ),
        player_rummies=tuple(int(t[HandTotal.PLAYER_RUMMY + j]) for j in range(players)),
        margin=_estimate(
            t[HandTotal.MARGIN] / (players - 1),
            t[HandTotal.MARGIN_SQ] / (players - 1) ** 2,
            hands,
        ),
        elapsed_s=elapsed,
        rows=rows,
        interrupted=interrupted,
    )


def deal_margins(
    rules: RummyRules,
    policies: Sequence[RummyPolicy],
    deals: int,
    seed: int = 0,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Float64s:
    """Player 0's margin on each deal (its points minus the mean of the others', seats
    rotated as :func:`simulate` rotates them): the paired samples that compare two
    players on common deals (the same ``seed`` and ``deals``)."""
    rows = simulate(
        rules, policies, deals, seed, keep_rows=True, progress=progress, scheduler=scheduler
    ).rows
    assert rows is not None  # kept
    points = rows["points"].to_numpy(np.float64)
    winner = rows["winner_player"].to_numpy()
    margins: Float64s = np.where(
        winner == 0, points, np.where(winner > 0, -points / (rules.players - 1), 0.0)
    )
    return margins


def play_games(
    rules: RummyRules,
    policies: Sequence[RummyPolicy],
    games: int,
    seed: int = 0,
    chunk: int = DEFAULT_GAME_CHUNK,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> GameResult:
    """Play ``games`` games to ``rules.target`` points and summarise them.

    Player ``j`` keeps seat ``j``; the first hand of game ``g`` is dealt by the player
    to the right of seat ``g % players`` and the deal passes left every hand.  Hands that
    end with no score still count as hands.  ``chunk``, ``progress`` and ``scheduler``
    work as in :func:`simulate`, in games.

    Examples
    --------
    >>> from analyzer.rummy import RummyRules, parse_policy
    >>> result = play_games(RummyRules(), [parse_policy("simple")] * 2, games=20)
    >>> result.games, result.finished_rate.mean
    (20, 1.0)
    """
    _check_players(rules, policies, games, "games")
    started = time.perf_counter()
    common = {"rules": rules, "policies": tuple(policies), "seed": seed}
    check = _totals_check(_game_layout())
    plan = ChunkPlan(game_chunk, games, chunk, common, "first_game", "n_games", check)
    totals, interrupted = fold_chunks(
        plan,
        lambda total, part: total + part,
        np.zeros(N_GAME_TOTALS, dtype=np.int64),
        scheduler,
        progress,
    )
    t = [float(x) for x in totals]
    players = range(rules.players)
    return GameResult(
        rules=rules,
        policies=tuple(policies),
        seed=seed,
        games=int(t[GameTotal.GAMES]),
        target=rules.target,
        finished_rate=_rate(t[GameTotal.FINISHED], t[GameTotal.GAMES]),
        hands_per_game=_estimate(t[GameTotal.HANDS], t[GameTotal.HANDS_SQ], t[GameTotal.GAMES]),
        player_game_win_rate=tuple(
            _rate(t[GameTotal.WINS + j], t[GameTotal.GAMES]) for j in players
        ),
        player_final_score=tuple(t[GameTotal.SCORE + j] / t[GameTotal.GAMES] for j in players),
        elapsed_s=time.perf_counter() - started,
        interrupted=interrupted,
    )


__all__ = [
    "DEFAULT_CHUNK",
    "ROW_COLUMNS",
    "GameResult",
    "HandResult",
    "deal_margins",
    "game_chunk",
    "hand_chunk",
    "hand_result",
    "play_games",
    "simulate",
]
