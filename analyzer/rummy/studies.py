"""The plain-rummy studies as tidy tables (``analyzer rummy study``, declared in
:mod:`analyzer.studies.rummy_study`, presents them).

Three questions, each answered by :func:`simulate` runs with fixed seeds:

* :func:`meld_or_hold`: should a player meld at once, or hold its melds to go out "Rummy"
  for double points?  A holder that gives up after its own turn ``hold_turns`` or once
  more than ``hold_points`` points sit in melds in its hand, against a player who melds
  at once; its edge in points per hand.
* :func:`player_counts`: what changes from 2 to 6 players: hand length (turns), the
  winner's points and each seat's share of the wins (seats fixed, seat 0 plays first).
* :func:`option_values`: what each seed-004 option (and the other rule alternatives) does
  to hand length, the winner's points, void hands, and to the value of holding for Rummy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ..core.progress import Progress, tell_total
from ..core.stats import Estimate
from .policies import RummyPolicy
from .rules import RummyRules
from .simulate import play_games, simulate

_ASAP = RummyPolicy()
#: Holding rules of :func:`meld_or_hold`: last own turn held (0 melds at once, 999 to the
#: end) and the points in held melds above which the holder gives up (999: no limit).
HOLD_TURNS = (0, 2, 4, 6, 8, 12, 999)
HOLD_POINTS = (15, 30, 999)
#: Player counts of :func:`player_counts`.
PLAYER_COUNTS = (2, 3, 4, 5, 6)
#: Rule variants of :func:`option_values`: the name shown and the fields changed.
OPTION_VARIANTS: dict[str, dict[str, int | bool]] = {
    "standard (seed 000)": {},
    "final discard required": {"final_discard": True},
    "out only from 2nd turn": {"second_turn_out": True},
    "runs capped at 4": {"max_run": 4},
    "must meld": {"must_meld": True},
    "rummy on the board": {"rummy_on_board": True},
    "lay off on own melds only": {"layoff_own_only": True},
    "dry stock: turn pile over": {"reshuffle": True},
    "all seed-004 options": {
        "final_discard": True,
        "second_turn_out": True,
        "max_run": 4,
        "must_meld": True,
        "rummy_on_board": True,
    },
}


def meld_or_hold(
    deals: int,
    seed: int = 0,
    hold_turns: Sequence[int] = HOLD_TURNS,
    hold_points: Sequence[int] = HOLD_POINTS,
    rules: RummyRules | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Edge of holding melds for Rummy over melding at once, two players.

    Parameters
    ----------
    deals : int
        Deals per configuration (seats rotate every deal).
    seed : int
        Seed of every configuration's deals (the same deals for each).
    hold_turns : sequence of int
        Last own turn on which to hold; 0 melds at once (the baseline, run once).
    hold_points : sequence of int
        Give up holding above this many points in held melds.
    rules : RummyRules, optional
        Two-player rules (default: seed 000's game).
    progress, scheduler
        As in :func:`analyzer.rummy.simulate.simulate`; ``progress`` is told the total
        first and counts the deals of the hand runs (games runs are not counted).

    Returns
    -------
    DataFrame
        One row per configuration: ``hold_turns`` (turns), ``hold_points`` (points),
        ``margin`` (the holder's points minus the other's, per hand) and its 95% CI
        ``margin_lo`` / ``margin_hi``, ``win_rate`` (+ CI), ``rummy_rate`` (share of the
        holder's wins that were Rummy), ``winner_points`` (points per won hand) and
        ``game_win_rate`` (+ CI): the holder's share of games to ``rules.target`` points,
        over ``deals // 20`` games (at least 50) of its own seeds.
    """
    rules = rules or RummyRules()
    tell_total(progress, deals * sum(len(hold_points) if turns else 1 for turns in hold_turns))
    rows = []
    for turns in hold_turns:
        for points in hold_points if turns else hold_points[-1:]:
            holder = RummyPolicy(meld="hold", hold_turns=turns, hold_points=points)
            result = simulate(
                rules, [holder, _ASAP], deals, seed, progress=progress, scheduler=scheduler
            )
            games = play_games(
                rules, [holder, _ASAP], max(deals // 20, 50), seed, scheduler=scheduler
            )
            wins = result.player_win_rate[0].mean * deals
            rows.append(
                {
                    "hold_turns": turns,
                    "hold_points": points,
                    **result.margin.as_columns("margin"),
                    **result.player_win_rate[0].as_columns("win_rate"),
                    "rummy_rate": result.player_rummies[0] / wins if wins else np.nan,
                    "winner_points": result.winner_points.mean,
                    **games.player_game_win_rate[0].as_columns("game_win_rate"),
                }
            )
    return pd.DataFrame(rows)


#: Dry-stock rules compared by :func:`player_counts`: seed 000's void hand and the common
#: alternative of turning the pile over.
STOCK_RULES = {"dry stock voids": False, "pile turned over": True}


def player_counts(
    deals: int,
    seed: int = 0,
    players: Sequence[int] = PLAYER_COUNTS,
    policy: RummyPolicy = _ASAP,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Hand length, winner's points and seat advantage by number of players.

    Seats are fixed (no rotation) and every player uses ``policy``; seat 0 sits at the
    dealer's left and plays first, the last seat deals.  Each player count is played
    under both dry-stock rules (:data:`STOCK_RULES`), since with many players the stock
    is short.

    Returns
    -------
    DataFrame
        One row per (``stock``, ``players``, ``seat``): ``cards`` dealt each, ``turns``
        per hand (all players, + CI), ``winner_points`` (points per won hand, + CI),
        ``void_rate``, the seat's ``win_rate`` (share of all hands, + CI) and
        ``win_share`` (share of the hands someone won, + CI; fair is ``1 / players``).
    """
    tell_total(progress, deals * len(STOCK_RULES) * len(players))
    rows = []
    for stock, reshuffle in STOCK_RULES.items():
        for n in players:
            rules = RummyRules(players=n, reshuffle=reshuffle)
            result = simulate(
                rules,
                [policy] * n,
                deals,
                seed,
                rotate=False,
                progress=progress,
                scheduler=scheduler,
            )
            won = result.hands * (1 - result.void_rate.mean)
            for seat in range(n):
                win = result.seat_win_rate[seat]
                share = Estimate.from_rate(win.mean * result.hands, won)
                rows.append(
                    {
                        "stock": stock,
                        "players": n,
                        "seat": seat,
                        "cards": rules.cards_dealt,
                        **result.turns.as_columns("turns"),
                        **result.winner_points.as_columns("winner_points"),
                        "void_rate": result.void_rate.mean,
                        **win.as_columns("win_rate"),
                        **share.as_columns("win_share"),
                    }
                )
    return pd.DataFrame(rows)


def option_values(
    deals: int,
    seed: int = 0,
    variants: dict[str, dict[str, int | bool]] | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """Effect of each rule option, two players.

    For each variant two runs on the same deals: both players meld at once (hand length,
    winner's points, void and Rummy rates, calls), and a Rummy holder (holds through its
    sixth turn) against one who melds at once (the holder's edge, points per hand).

    Returns
    -------
    DataFrame
        One row per variant: ``turns`` (+ CI), ``winner_points`` (+ CI), ``void_rate``,
        ``rummy_rate`` (share of won hands), ``calls`` per hand, and ``hold_margin``
        (+ CI).
    """
    variants = variants or OPTION_VARIANTS
    tell_total(progress, deals * 2 * len(variants))
    rows = []
    holder = RummyPolicy(meld="hold", hold_turns=6)
    for name, fields in variants.items():
        rules = RummyRules().replace(**fields)
        plain = simulate(rules, [_ASAP, _ASAP], deals, seed, progress=progress, scheduler=scheduler)
        hold = simulate(rules, [holder, _ASAP], deals, seed, progress=progress, scheduler=scheduler)
        rows.append(
            {
                "variant": name,
                **plain.turns.as_columns("turns"),
                **plain.winner_points.as_columns("winner_points"),
                "void_rate": plain.void_rate.mean,
                "rummy_rate": plain.rummy_rate.mean,
                "calls": plain.calls_per_hand,
                **hold.margin.as_columns("hold_margin"),
            }
        )
    return pd.DataFrame(rows)


#: The studies by name: (table function, file stem shared by the CLI and the report).
STUDIES: dict[str, tuple[Callable[..., pd.DataFrame], str]] = {
    "meld-or-hold": (meld_or_hold, "meld_or_hold"),
    "players": (player_counts, "player_counts"),
    "options": (option_values, "option_values"),
}
