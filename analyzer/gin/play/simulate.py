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

import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ...core.arrays import Int64s
from ...core.chunks import ChunkPlan, fold_chunks
from ...core.fold_checks import first_part, sums_check
from ...core.interrupts import raise_if_stop_requested
from ...core.progress import Progress
from ...core.rng import POLICY_SALT, stream_key
from ..model.rules import Rules
from .game_kernels import (
    GameColumn,
    HandColumn,
    games_kernel,
    hand_work_space,
    hands_kernel,
    play_hand,
)
from .players import Player, game_seat_rows, split_players
from .results import (
    GameResult,
    HandResult,
    Sums,
    accumulate_games,
    accumulate_hands,
    game_result,
    game_sums_ranges,
    hand_frame,
    hand_result,
    hand_sums_problem,
    merge_sums,
)
from .stopping import run_kernel_spans, search_rows

DEFAULT_CHUNK = 1 << 15
#: Most deals per kernel call: Ctrl-C is noticed between calls, so this bounds the wait
#: (a few hundredths of a second on one core).
INTERRUPT_SPAN = 1 << 10


def hand_rows(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_deal: int,
    n_deals: int,
    swap_seats: bool = True,
) -> Int64s:
    """Per-hand rows (columns :class:`HandColumn`) of deals ``first_deal ..`` of a run."""
    return _searched_hand_rows(rules, policy_a, policy_b, seed, first_deal, n_deals, swap_seats)[0]


def _searched_hand_rows(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_deal: int,
    n_deals: int,
    swap_seats: bool,
) -> tuple[Int64s, Int64s]:
    """(per-hand rows, per-hand searched decisions and their samples)."""
    reps = 2 if swap_seats else 1
    rows = np.zeros((n_deals * reps, len(HandColumn)), dtype=np.int64)
    searched = np.zeros((n_deals * reps, 2), dtype=np.int64)
    rules_array = rules.to_array()
    policies, searchers = split_players([policy_a, policy_b])
    # in kernel calls of a bounded size on numba's threads: Ctrl-C is seen between them
    # (a kernel cannot be interrupted), and every deal has its own stream, so the rows
    # do not change with the split

    def span(first: int, count: int) -> None:
        part = slice(first * reps, (first + count) * reps)
        hands_kernel(
            np.int64(seed),
            np.int64(first_deal + first),
            np.int64(count),
            swap_seats,
            rules_array,
            policies,
            search_rows(searchers),
            rows[part],
            searched[part],
        )

    run_kernel_spans(span, n_deals, INTERRUPT_SPAN, searchers)
    return rows, searched


def hand_chunk_sums(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_deal: int,
    n_deals: int,
    swap_seats: bool = True,
) -> dict[str, float]:
    """Mergeable sums (counts, sums, sums of squares) over one chunk of deals.

    The values are integers or halves, so adding chunks' sums in any grouping is exact.
    """
    return _hand_chunk(
        rules, policy_a, policy_b, seed, first_deal, n_deals, swap_seats, keep_rows=False
    )[0]


def _hand_chunk(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_deal: int,
    n_deals: int,
    swap_seats: bool,
    keep_rows: bool,
) -> tuple[dict[str, float], Int64s | None]:
    """A chunk's sums, and its rows when ``keep_rows`` (the unit :func:`simulate` maps)."""
    rows, searched = _searched_hand_rows(
        rules, policy_a, policy_b, seed, first_deal, n_deals, swap_seats
    )
    sums = Sums()
    accumulate_hands(rows, 2 if swap_seats else 1, sums)
    sums.add("searched_decisions", searched[:, 0].sum())
    sums.add("search_samples", searched[:, 1].sum())
    return sums.values, rows if keep_rows else None


def game_rows(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_game: int,
    n_games: int,
    swap_seats: bool = True,
    start: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Int64s:
    """Per-game rows (columns :class:`GameColumn`) of games ``first_game ..`` of a run."""
    reps = 2 if swap_seats else 1
    rows = np.zeros((n_games * reps, len(GameColumn)), dtype=np.int64)
    arrays, regions, searchers = game_seat_rows(policy_a, policy_b, rules.target)
    rules_array, scores = rules.to_array(), np.array(start, dtype=np.int64)

    def span(first: int, count: int) -> None:  # bounded kernel calls, as in hand_rows
        games_kernel(
            np.int64(seed),
            np.int64(first_game + first),
            np.int64(count),
            swap_seats,
            rules_array,
            arrays,
            regions,
            search_rows(searchers),
            scores,
            rows[first * reps : (first + count) * reps],
        )

    # a game is about a dozen hands
    run_kernel_spans(span, n_games, max(1, INTERRUPT_SPAN // 16), searchers)
    return rows


def game_chunk_sums(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_game: int,
    n_games: int,
    swap_seats: bool = True,
    start: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> dict[str, float]:
    """Mergeable sums over one chunk of games (see :func:`hand_chunk_sums`)."""
    return _game_chunk(
        rules, policy_a, policy_b, seed, first_game, n_games, swap_seats, start, keep_rows=False
    )[0]


def _game_chunk(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    first_game: int,
    n_games: int,
    swap_seats: bool,
    start: tuple[int, int, int, int],
    keep_rows: bool,
) -> tuple[dict[str, float], Int64s | None]:
    """A chunk's sums, and its rows when ``keep_rows`` (the unit :func:`play_games` maps)."""
    rows = game_rows(rules, policy_a, policy_b, seed, first_game, n_games, swap_seats, start)
    sums = Sums()
    accumulate_games(rows, 2 if swap_seats else 1, sums)
    return sums.values, rows if keep_rows else None


def _run_arguments(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    seed: int,
    swap_seats: bool,
    keep_rows: bool,
    **more: object,
) -> dict[str, object]:
    """The arguments every chunk of a run shares (all but its first unit and count):
    those of :func:`_hand_chunk`, and with ``more`` (``start``) of :func:`_game_chunk`."""
    return {
        "rules": rules,
        "policy_a": policy_a,
        "policy_b": policy_b,
        "seed": seed,
        "swap_seats": swap_seats,
        **more,
        "keep_rows": keep_rows,
    }


def _run_chunks(
    function: Callable[..., tuple[dict[str, float], Int64s | None]],
    total: int,
    chunk: int,
    first_key: str,
    count_key: str,
    common: dict[str, object],
    check: Callable[[Any, int], str | None],
    scheduler: str | None,
    progress: Progress | None,
) -> tuple[dict[str, float], list[Int64s], bool]:
    """Merged sums, kept rows and whether Ctrl-C stopped it, of the chunks of a run;
    after Ctrl-C, of the chunks finished in order (re-raising when none had).  ``check``:
    why merged sums cannot be those of a number of units (a checkpoint's are checked)."""

    def fold(
        value: tuple[dict[str, float], list[Int64s]], part: tuple[dict[str, float], Int64s | None]
    ) -> tuple[dict[str, float], list[Int64s]]:
        sums, kept = value
        if part[1] is not None:
            kept.append(part[1])
        return merge_sums([sums, part[0]]), kept

    plan = ChunkPlan(function, total, chunk, common, first_key, count_key, first_part(check))
    initial: tuple[dict[str, float], list[Int64s]] = ({}, [])
    (sums, kept), interrupted = fold_chunks(plan, fold, initial, scheduler, progress)
    return sums, kept, interrupted


def simulate(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    deals: int,
    seed: int = 0,
    swap_seats: bool = True,
    keep_rows: bool = False,
    chunk: int = DEFAULT_CHUNK,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> HandResult:
    """Play ``deals`` deals (two hands each with ``swap_seats``) of A against B.

    ``chunk`` deals go to each kernel call (or cluster task); ``progress`` is called
    with the deals of each chunk finished.  ``scheduler`` (see
    :func:`analyzer.core.chunks.fold_chunks`; None reads ``$ANALYZER_SCHEDULER``) runs the
    chunks on a Dask cluster with the same result bit for bit; ``elapsed_s`` then
    includes connecting to it.  A ``KeyboardInterrupt`` stops the run; the summary then
    covers the chunks finished so far.
    """
    if deals < 1:
        raise ValueError(f"deals must be >= 1, got {deals}")
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
    common = _run_arguments(rules, policy_a, policy_b, seed, swap_seats, keep_rows)
    check = functools.partial(hand_sums_problem, reps=2 if swap_seats else 1)
    sums, kept, interrupted = _run_chunks(
        _hand_chunk, deals, chunk, "first_deal", "n_deals", common, check, scheduler, progress
    )
    elapsed = time.perf_counter() - started
    result = hand_result(
        sums, seed, rules, policy_a, policy_b, elapsed, hand_frame(kept) if keep_rows else None
    )
    result.interrupted = interrupted
    result.kernels_s = started - warm_up
    return result


def play_games(
    rules: Rules,
    policy_a: Player,
    policy_b: Player,
    games: int,
    seed: int = 0,
    swap_seats: bool = True,
    keep_rows: bool = False,
    chunk: int = 1 << 12,
    progress: Progress | None = None,
    start: tuple[int, int, int, int] = (0, 0, 0, 0),
    scheduler: str | None = None,
) -> GameResult:
    """Play ``games`` whole games of A against B (twice each with ``swap_seats``: B
    dealing first, then A, on common decks), from the ``start`` scores and boxes
    ``(score_a, score_b, boxes_a, boxes_b)``.

    ``chunk``, ``progress``, ``scheduler`` and Ctrl-C work as in :func:`simulate`, in
    games."""
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    started = time.perf_counter()
    common = _run_arguments(rules, policy_a, policy_b, seed, swap_seats, keep_rows, start=start)
    check = sums_check(game_sums_ranges(2 if swap_seats else 1))
    sums, kept, interrupted = _run_chunks(
        _game_chunk, games, chunk, "first_game", "n_games", common, check, scheduler, progress
    )
    frame = None
    if keep_rows:
        frame = pd.DataFrame(np.concatenate(kept), columns=[c.name.lower() for c in GameColumn])
    result = game_result(
        sums, seed, rules, policy_a, policy_b, time.perf_counter() - started, frame
    )
    result.interrupted = interrupted
    return result


def replay_deal(
    rules: Rules, policy_a: Player, policy_b: Player, seed: int, deal: int, a_dealer: bool = False
) -> Int64s:
    """The final state of one deal of a :func:`simulate` run (A is seat 0)."""
    work = hand_work_space()  # its first array is the state
    policies, searchers = split_players([policy_a, policy_b])
    play_hand(
        np.uint64(stream_key(np.int64(seed), np.int64(deal))),
        np.uint64(stream_key(np.int64(seed) ^ POLICY_SALT, np.int64(deal))),
        np.int64(0 if a_dealer else 1),
        rules.to_array(),
        policies,
        search_rows(searchers),
        *work,
    )
    return work[0]


__all__ = [
    "game_chunk_sums",
    "game_rows",
    "hand_chunk_sums",
    "hand_rows",
    "play_games",
    "replay_deal",
    "simulate",
]
