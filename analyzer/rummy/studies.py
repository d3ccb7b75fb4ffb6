"""The plain-rummy studies: tidy tables, charts on a given Axes, and the report section.

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

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .policies import RummyPolicy
from .rules import RummyRules
from .simulate import rate_ci, simulate, simulate_games

#: Default study size (deals per configuration) for the report: about a minute in all
#: on two busy cores.
REPORT_DEALS = 12_000

_ASAP = RummyPolicy()
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
    "all seed-004 options": {"final_discard": True, "second_turn_out": True, "max_run": 4,
                             "must_meld": True, "rummy_on_board": True},
}


def _ci_columns(prefix: str, values: tuple[float, float, float]) -> dict[str, float]:
    return {prefix: values[0], f"{prefix}_lo": values[1], f"{prefix}_hi": values[2]}


def meld_or_hold(deals: int, seed: int = 0, hold_turns: Sequence[int] = (0, 2, 4, 6, 8, 12, 999),
                 hold_points: Sequence[int] = (15, 30, 999),
                 rules: RummyRules | None = None) -> pd.DataFrame:
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
    rows = []
    for turns in hold_turns:
        for points in (hold_points if turns else hold_points[-1:]):
            holder = RummyPolicy(meld="hold", hold_turns=turns, hold_points=points)
            summary = simulate(rules, [holder, _ASAP], deals, seed).summary
            games = simulate_games(rules, [holder, _ASAP], max(deals // 20, 50), seed)
            wins = summary["player_win_rate"][0][0] * deals
            rows.append({
                "hold_turns": turns, "hold_points": points,
                **_ci_columns("margin", summary["margin"]),
                **_ci_columns("win_rate", summary["player_win_rate"][0]),
                "rummy_rate": summary["player_rummies"][0] / wins if wins else np.nan,
                "winner_points": summary["winner_points"][0],
                **_ci_columns("game_win_rate", games["player_game_win_rate"][0]),
            })
    return pd.DataFrame(rows)


#: Dry-stock rules compared by :func:`player_counts`: seed 000's void hand and the common
#: alternative of turning the pile over.
STOCK_RULES = {"dry stock voids": False, "pile turned over": True}


def player_counts(deals: int, seed: int = 0, players: Sequence[int] = (2, 3, 4, 5, 6),
                  policy: RummyPolicy = _ASAP) -> pd.DataFrame:
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
    rows = []
    for stock, reshuffle in STOCK_RULES.items():
        for n in players:
            rules = RummyRules(players=n, reshuffle=reshuffle)
            summary = simulate(rules, [policy] * n, deals, seed, rotate=False).summary
            won = summary["hands"] * (1 - summary["void_rate"][0])
            for seat in range(n):
                win = summary["seat_win_rate"][seat]
                rows.append({
                    "stock": stock, "players": n, "seat": seat, "cards": rules.cards_dealt,
                    **_ci_columns("turns", summary["turns"]),
                    **_ci_columns("winner_points", summary["winner_points"]),
                    "void_rate": summary["void_rate"][0],
                    **_ci_columns("win_rate", win),
                    **_ci_columns("win_share", rate_ci(win[0] * summary["hands"], won)),
                })
    return pd.DataFrame(rows)


def option_values(deals: int, seed: int = 0,
                  variants: dict[str, dict[str, int | bool]] | None = None) -> pd.DataFrame:
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
    rows = []
    holder = RummyPolicy(meld="hold", hold_turns=6)
    for name, fields in (variants or OPTION_VARIANTS).items():
        rules = replace(RummyRules(), **fields)  # type: ignore[arg-type]
        plain = simulate(rules, [_ASAP, _ASAP], deals, seed).summary
        hold = simulate(rules, [holder, _ASAP], deals, seed).summary
        rows.append({
            "variant": name,
            **_ci_columns("turns", plain["turns"]),
            **_ci_columns("winner_points", plain["winner_points"]),
            "void_rate": plain["void_rate"][0],
            "rummy_rate": plain["rummy_rate"][0],
            "calls": plain["calls_per_hand"],
            **_ci_columns("hold_margin", hold["margin"]),
        })
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------- charts


def _errors(table: pd.DataFrame, column: str) -> np.ndarray:
    return np.vstack([table[column] - table[f"{column}_lo"], table[f"{column}_hi"] - table[column]])


def plot_meld_or_hold(table: pd.DataFrame, ax: Axes) -> None:
    """Holder's edge (points per hand, 95% CI) against the last turn it holds, one line
    per points limit; the hold-never baseline is the dashed zero line."""
    holding = table[table.hold_turns > 0]
    for points, group in holding.groupby("hold_points"):
        label = "no points limit" if points >= 999 else f"give up above {points} points"
        x = np.minimum(group.hold_turns, 20)
        ax.errorbar(x, group.margin, yerr=_errors(group, "margin"), marker="o", capsize=3,
                    label=label)
    ax.axhline(0, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("holds for Rummy through own turn (20 = always)")
    ax.set_ylabel("holder's edge, points per hand")
    ax.set_title("Meld now or hold for Rummy?")
    ax.legend(fontsize="small")


def plot_player_counts(table: pd.DataFrame, ax: Axes) -> None:
    """Each seat's share of the won hands (95% CI) by number of players, pile turned over
    when the stock runs dry; the fair share ``1 / players`` is marked.  Seat 0 plays first."""
    table = table[table.stock == list(STOCK_RULES)[-1]]
    seats = int(table.seat.max()) + 1
    width = 0.8 / seats
    for seat in range(seats):
        rows = table[table.seat == seat]
        ax.bar(rows.players + (seat - (seats - 1) / 2) * width, rows.win_share, width,
               yerr=_errors(rows, "win_share"), capsize=2, label=f"seat {seat}")
    counts = np.array(sorted(table.players.unique()))
    ax.hlines(1 / counts, counts - 0.45, counts + 0.45, colors="black", linestyles="--",
              linewidth=1, label="fair share")
    ax.set_xlabel("players (last seat deals)")
    ax.set_ylabel("share of won hands")
    ax.set_title("Seat advantage by player count")
    ax.legend(fontsize="small", ncol=4)


def plot_option_values(table: pd.DataFrame, ax: Axes) -> None:
    """Edge of holding for Rummy (holder's points minus the other's per hand, 95% CI)
    under each rule variant; the winner's points and hand lengths are in the table."""
    y = np.arange(len(table))
    ax.barh(y, table.hold_margin, xerr=_errors(table, "hold_margin"), capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(y, table.variant)
    ax.invert_yaxis()
    ax.set_xlabel("edge of holding for Rummy through turn 6, points per hand")
    ax.set_title("What each rule option does to holding for Rummy")


# ------------------------------------------------------------------------- report


def _markdown(table: pd.DataFrame, columns: dict[str, str], digits: int = 2) -> str:
    """A Markdown table of ``columns`` (column -> header); a ``*_lo``/``*_hi`` pair is
    shown as ``mean [lo, hi]``."""
    lines = ["| " + " | ".join(columns.values()) + " |",
             "|" + "---|" * len(columns)]
    for i in range(len(table)):
        cells = []
        for column in columns:
            value = table[column].iloc[i]
            if f"{column}_lo" in table.columns:
                low, high = table[f"{column}_lo"].iloc[i], table[f"{column}_hi"].iloc[i]
                cells.append(f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]")
            elif isinstance(value, (float, np.floating)):
                cells.append(f"{value:.{digits}f}")
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _hold_labels(table: pd.DataFrame) -> pd.DataFrame:
    """``hold_turns`` / ``hold_points`` as words: 0 turns melds at once, 999 is no limit."""
    turns = table.hold_turns.map(lambda t: "melds at once" if t == 0 else
                                 "to the end" if t >= 999 else f"turn {t}")
    points = table.hold_points.map(lambda p: "-" if p >= 999 else f"> {p} points")
    points[table.hold_turns == 0] = "-"
    return table.assign(hold_turns=turns, hold_points=points)


def _ci(row: pd.Series, column: str, digits: int = 2) -> str:
    return (f"{row[column]:.{digits}f} (95% CI {row[f'{column}_lo']:.{digits}f} to "
            f"{row[f'{column}_hi']:.{digits}f})")


def _save(figure: Figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def write_rummy_report(out_dir: Path, deals: int = REPORT_DEALS, seed: int = 0) -> str:
    """Run the three studies, write CSV and PNG files into ``out_dir`` and return the
    report's Markdown section on plain rummy.

    Parameters
    ----------
    out_dir : Path
        Directory for ``meld_or_hold.csv``, ``player_counts.csv``, ``option_values.csv``
        and one PNG chart each (created if missing).  Chart links in the Markdown are
        relative to the parent of ``out_dir`` (e.g. ``rummy/meld_or_hold.png``).
    deals : int
        Deals per configuration (51 configurations of hands, 19 of games).
    seed : int
        Seed of every run.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    link = out_dir.name
    command = f"analyzer rummy study all --deals {deals} --seed {seed} --out {out_dir}"
    hold = meld_or_hold(deals, seed)
    seats = player_counts(deals, seed)
    options = option_values(deals, seed)
    for name, table, plot in (("meld_or_hold", hold, plot_meld_or_hold),
                              ("player_counts", seats, plot_player_counts),
                              ("option_values", options, plot_option_values)):
        table.to_csv(out_dir / f"{name}.csv", index=False)
        figure = Figure(figsize=(7, 4.2))
        plot(table, figure.add_subplot())
        _save(figure, out_dir / f"{name}.png")

    best = hold.loc[hold.margin.idxmax()]
    always = hold[(hold.hold_turns == hold.hold_turns.max())
                  & (hold.hold_points == hold.hold_points.max())].iloc[0]
    limit = "no points limit" if best.hold_points >= 999 else \
        f"giving up above {int(best.hold_points)} points held"
    hold_answer = (
        f"Against a player who melds at once, the best holding rule tried (hold through own "
        f"turn {int(best.hold_turns)}, {limit}) gains {_ci(best, 'margin')} points per hand "
        f"and wins {_ci(best, 'game_win_rate')} of games to {RummyRules().target}, while "
        f"holding to the very end scores {_ci(always, 'margin')} points per hand: it wins "
        f"{always.win_rate:.0%} of hands, but small ones.")
    per_game = seats[seats.seat == 0].set_index(["stock", "players"])
    void, turned = (per_game.loc[name] for name in STOCK_RULES)
    dealer = seats.groupby(["stock", "players"]).last().loc[list(STOCK_RULES)[-1]]
    seat_answer = (
        f"With seed 000's rule that a dry stock voids the hand, hands last "
        f"{void.turns.iloc[0]:.1f} turns with 2 players and {void.turns.iloc[-1]:.1f} with 6, "
        f"and {void.void_rate.iloc[0]:.0%} of 2-player hands but {void.void_rate.iloc[-1]:.0%} "
        f"of 6-player hands die unscored; "
        f"turning the pile over instead, {turned.void_rate.iloc[-1]:.0%} of 6-player hands "
        f"still reach the {RummyRules().turn_limit}-turn limit (fixed policies and an "
        f"unshuffled pile can cycle), a won hand pays "
        f"{_ci(turned.iloc[0], 'winner_points', 1)} points with 2 players and "
        f"{_ci(turned.iloc[-1], 'winner_points', 1)} with 6, and the first seat takes "
        f"{_ci(turned.iloc[0], 'win_share', 3)} of won 2-player hands (fair 0.500) and "
        f"{_ci(turned.iloc[-1], 'win_share', 3)} of 6-player ones (fair 0.167; the dealer "
        f"{dealer.win_share.iloc[-1]:.3f}).")
    base = options.iloc[0]
    single = options.iloc[1:][~options.variant.iloc[1:].str.startswith("all")]
    longest = single.loc[(single.turns - base.turns).abs().idxmax()]
    flattest = single.loc[single.hold_margin.idxmin()]
    richest = single.loc[(single.winner_points - base.winner_points).abs().idxmax()]
    option_answer = (
        f"Against seed 000's rules ({base.turns:.1f} turns per hand, {base.winner_points:.2f} "
        f"points per won hand, an edge of {base.hold_margin:.2f} points per hand for holding "
        f"for Rummy), '{longest.variant}' changes hand length most "
        f"({_ci(longest, 'turns', 1)} turns), '{flattest.variant}' shrinks the edge of holding "
        f"most ({_ci(flattest, 'hold_margin')}), and '{richest.variant}' moves the winner's "
        f"points most ({_ci(richest, 'winner_points')}).")
    return "\n".join([
        "## Plain rummy",
        "",
        ("Plain rummy (seeds 000 and 004), not gin: lay off onto any meld, score the cards "
         "left in the other hands, double for going out 'Rummy'.  Both players meld and lay "
         "off at once and throw the card leaving the least deadwood unless stated."),
        "",
        f"Command: `{command}` (seed {seed}, {deals:,} deals per configuration).",
        "",
        "### Should I meld now or hold for Rummy?",
        "",
        hold_answer,
        "",
        f"![meld or hold]({link}/meld_or_hold.png)",
        "",
        _markdown(_hold_labels(hold), {"hold_turns": "holds through", "hold_points": "gives up at",
                         "margin": "edge, points/hand", "win_rate": "hands won",
                         "rummy_rate": "Rummy share of wins",
                         "game_win_rate": "games won (to 100)"}),
        "",
        "### Player count: hand length, winner's points, seat advantage",
        "",
        seat_answer,
        "",
        f"![seat advantage]({link}/player_counts.png)",
        "",
        _markdown(seats, {"stock": "dry stock", "players": "players", "seat": "seat",
                          "cards": "cards", "turns": "turns/hand",
                          "winner_points": "winner's points", "void_rate": "void rate",
                          "win_share": "share of won hands"}),
        "",
        "### What each seed-004 option is worth",
        "",
        option_answer,
        "",
        f"![rule options]({link}/option_values.png)",
        "",
        _markdown(options, {"variant": "rules", "turns": "turns/hand",
                            "winner_points": "winner's points", "void_rate": "void rate",
                            "rummy_rate": "Rummy rate", "hold_margin": "holder's edge"}),
        "",
    ])
