"""Gin rummy games for three players, and for four as two partnerships.

Every hand is still a two-player hand (:func:`analyzer.gin.play.game_kernels.play_hand`); what changes
is who sits in and how the scores add up:

* **Three players**, each with a separate score, first to the target wins the game.
  ``dealer-sits-out``: the dealer deals to the other two and sits out; the deal passes
  to the left (player ``d + 1`` acts first, ``d + 2`` holds the dealer's seat).
  ``loser-sits-out``: the loser of a hand sits out the next, the winner deals to the
  player who sat out (the first hand is dealt by player 0 to player 1; a drawn hand is
  replayed by the same two).
* **Four players** as partnerships 0+2 and 1+3: each round is two hands side by side,
  partners facing different opponents (0 v 1 and 2 v 3, then 0 v 3 and 2 v 1, and so
  on), and each team adds its two players' points; the first team to the target wins.

Bonuses follow the rules: the game bonus goes to the winner, each player (or team) gets
the line bonus per hand won, and a shutout (the losers won no hand) applies the rules'
shutout to the winner's total.  Hollywood scoring is not combined with these seatings.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pandas as pd
from numba import njit

from ...core.arrays import Int64s
from ...core.progress import Progress, advance, tell_total
from ...core.rng import GAME_SALT, POLICY_SALT, stream_key
from ...core.stats import Estimate
from ...core.threads import run_spans
from ..engine.transitions import Slot
from ..model.policies import Policy
from ..model.rules import RuleField, Rules
from .game_kernels import MAX_HANDS_PER_GAME, hand_work_space, play_hand
from .game_score import add_hand_won, close_game


class MultiColumn(IntEnum):
    """Columns of a multiplayer game row; ``TOTAL + i`` is side ``i``'s grand total."""

    GAME = 0
    WINNER = 1
    HANDS = 2
    DRAWN_HANDS = 3
    SHUTOUT = 4
    FINISHED = 5
    TOTAL = 6  # then one column per side (player, or team)


@njit(cache=True)
def _seats(
    players: np.int64,
    rotation: np.int64,
    table: np.int64,
    dealer: np.int64,
    last_winner: np.int64,
    last_out: np.int64,
    loser_sits_out: bool,
) -> tuple[np.int64, np.int64]:
    """(player in seat 0 = acts first, player in seat 1 = dealer) of one hand."""
    if players == 3:
        if loser_sits_out:
            if last_winner < 0:
                return np.int64(1), np.int64(0)
            return last_out, last_winner
        return (dealer + 1) % 3, (dealer + 2) % 3
    # four players: table 0 seats player 0 or 2, table 1 the other; opponents rotate
    home = np.int64(0) if table == 0 else np.int64(2)
    away = np.int64(1) if (table + rotation) % 2 == 0 else np.int64(3)
    return (home, away) if rotation % 2 == 0 else (away, home)


@njit(cache=True)
def _play_multi(
    seed: np.int64,
    game: np.int64,
    players: np.int64,
    rules: Int64s,
    policies: Int64s,
    loser_sits_out: bool,
    row: Int64s,
) -> None:
    state, deck, rng, scratch, samples = hand_work_space()
    pair = np.empty((2, policies.shape[1]), dtype=np.int64)
    sides = 3 if players == 3 else 2
    scores = np.zeros(sides, dtype=np.int64)
    boxes = np.zeros(sides, dtype=np.int64)
    for i in range(row.shape[0]):
        row[i] = 0
    row[MultiColumn.GAME] = game
    row[MultiColumn.WINNER] = -1
    game_seed = seed ^ GAME_SALT
    dealer = np.int64(0)
    last_winner = np.int64(-1)
    last_out = np.int64(2)
    rotation = np.int64(0)
    hand_number = 0
    winner_side = -1
    while winner_side < 0 and hand_number < MAX_HANDS_PER_GAME:
        tables = 1 if players == 3 else 2
        for table in range(tables):
            first, second = _seats(
                players, rotation, table, dealer, last_winner, last_out, loser_sits_out
            )
            pair[0] = policies[first]
            pair[1] = policies[second]
            stream = game * MAX_HANDS_PER_GAME + hand_number
            play_hand(
                stream_key(game_seed, stream),
                stream_key(game_seed ^ POLICY_SALT, stream),
                np.int64(1),
                rules,
                pair,
                None,  # no seat searches here (see search.play_on)
                state,
                deck,
                rng,
                scratch,
                samples,
            )
            hand_number += 1
            seat = state[Slot.WINNER]
            if seat < 0:
                row[MultiColumn.DRAWN_HANDS] += 1
                continue
            hand_winner = first if seat == 0 else second
            side = hand_winner if players == 3 else hand_winner % 2
            add_hand_won(scores, boxes, side, state[Slot.POINTS], rules)
            if players == 3 and loser_sits_out:
                last_out = 3 - first - second
                last_winner = hand_winner
        if players == 3 and not loser_sits_out and state[Slot.WINNER] >= 0:
            dealer = (dealer + 1) % 3  # a drawn hand is dealt again by the same dealer
        rotation += 1
        best = np.int64(-1)
        for side in range(sides):
            if scores[side] >= rules[RuleField.TARGET] and (
                best < 0 or scores[side] > scores[best]
            ):
                best = side
        winner_side = best
    row[MultiColumn.HANDS] = hand_number
    if winner_side < 0:
        return
    row[MultiColumn.FINISHED] = 1
    row[MultiColumn.WINNER] = winner_side
    shutout = close_game(
        scores, boxes, winner_side, rules, row[MultiColumn.TOTAL : MultiColumn.TOTAL + sides]
    )
    row[MultiColumn.SHUTOUT] = shutout


@njit(cache=True, nogil=True)  # nogil: run on threads (analyzer.core.threads)
def _multi_kernel(
    seed: np.int64,
    first_game: np.int64,
    players: np.int64,
    rules: Int64s,
    policies: Int64s,
    loser_sits_out: bool,
    rows: Int64s,
) -> None:
    """Games ``first_game ..`` of the run into ``rows`` (one row per game)."""
    for i in range(rows.shape[0]):
        _play_multi(seed, first_game + i, players, rules, policies, loser_sits_out, rows[i])


#: Games per kernel call: a progress report after each.
_CHUNK = 1 << 11


def play_multiplayer_games(
    rules: Rules,
    policies: list[Policy],
    games: int,
    seed: int = 0,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Play ``games`` games for three players or two partnerships of two.

    Returns one row per game: ``winner`` (player 0-2, or team 0 = players 0+2 and
    team 1 = players 1+3), ``hands``, ``drawn_hands``, ``shutout``, ``finished`` and the
    grand total (points) of each player or team.  Game ``g`` depends only on ``seed`` and
    ``g``; ``progress`` counts games.
    """
    players = len(policies)
    if players not in (3, 4):
        raise ValueError(f"multiplayer games take 3 or 4 policies, got {players}")
    if rules.hollywood:
        raise ValueError("Hollywood scoring is not combined with 3- or 4-player seating")
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    sides = 3 if players == 3 else 2
    rows = np.zeros((games, MultiColumn.TOTAL + sides), dtype=np.int64)
    tell_total(progress, games)
    rules_array, policy_rows = rules.to_array(), np.stack([p.to_array() for p in policies])

    def span(first: int, count: int) -> None:
        _multi_kernel(
            np.int64(seed),
            np.int64(first),
            np.int64(players),
            rules_array,
            policy_rows,
            rules.three_player == "loser-sits-out",
            rows[first : first + count],
        )

    for first in range(0, games, _CHUNK):
        count = min(_CHUNK, games - first)
        run_spans(span, count, count, start=first)
        advance(progress, count)
    names = [c.name.lower() for c in MultiColumn if c != MultiColumn.TOTAL]
    side_names = (
        [f"total_player{i}" for i in range(3)] if players == 3 else ["total_team02", "total_team13"]
    )
    return pd.DataFrame(rows, columns=[*names, *side_names])


def multiplayer_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Win rate (with its 95% Wilson interval) and mean grand total of each player or
    team."""
    sides = [c for c in frame.columns if c.startswith("total_")]
    n = len(frame)
    records = []
    for index, column in enumerate(sides):
        win = Estimate.wilson(int((frame["winner"] == index).sum()), n)
        records.append(
            {
                "side": column.removeprefix("total_"),
                "win_rate": win.mean,
                "win_low": win.low,
                "win_high": win.high,
                "mean_total": float(frame[column].mean()),
            }
        )
    return pd.DataFrame(records)


def lead_over(frame: pd.DataFrame, leader: int, second: int) -> Estimate:
    """How much more often side ``leader`` won than side ``second`` (a share of games, with
    its 95% CI): the mean over games of 1 for a ``leader`` win, -1 for a ``second`` win,
    0 otherwise, so the two shares' covariance is counted."""
    wins = int((frame["winner"] == leader).sum())
    losses = int((frame["winner"] == second).sum())
    return Estimate.from_sums(wins - losses, wins + losses, len(frame))
