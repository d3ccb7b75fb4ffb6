"""How to play plain rummy, measured with the strong player: the worth of each of
``rummy-expert``'s principles, at every player count, and what each rule option changes
(the tables behind ``analyzer rummy how-to-play``).

A principle's worth is measured by taking it away: the expert with one decision replaced
by a simple rule (:data:`PRINCIPLES`) plays the same deals as the expert, in seat 0
against a panel (:data:`PANEL`: every other seat ``rummy-expert``, or every other seat
``simple``), seats rotated deal by deal; the worth is the expert's margin minus the
variant's, paired deal by deal (points per hand, a margin being the seat's points minus
the mean of the other seats').  A worth above 0 says the principle pays against that
panel.

* :func:`principles`: every principle's worth at one table (rules and player count);
* :func:`how_to_play`: the answer for a rules preset and player count, by question
  (:class:`HowToPlay`: when to meld or hold, what to throw, when to lay off, and how the
  number of players changes each);
* :func:`option_values`: for each rule option of the documents, the principles' worth
  under it and the expert's edge over ``simple`` (and its change from the standard
  rules, paired on common deals).

Every run of a call plays the deals of its ``seed`` (common random numbers), so two
figures of one table are paired; results do not depend on the thread count or the
scheduler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.arrays import Float64s
from ..core.progress import Counted, Progress, tell_total
from ..core.stats import Estimate
from .policies import PRESETS, RummyPolicy
from .rules import RummyRules, resolve_rules
from .simulate import deal_margins, simulate

EXPERT = "rummy-expert"
#: The opponents every principle is measured against: the expert itself and the
#: benchmark player.
PANEL: tuple[str, ...] = (EXPERT, "simple")
#: Player counts of :func:`how_to_play`'s last table.
PLAYER_COUNTS = (2, 3, 4, 5, 6)

# the expert blind to the points at risk: every risk weight 0
_NO_RISK: dict[str, object] = {f"w_risk{k}": 0 for k in range(1, 6)}
_NO_RISK["w_risk_turn"] = 0

#: The expert's principles: each name, the question it answers (``meld``, ``throw``,
#: ``layoff``), what the expert does, and the simple rule that replaces it (the policy
#: fields changed).
PRINCIPLES: dict[str, tuple[str, str, str, dict[str, object]]] = {
    "hold while safe": (
        "meld",
        "hold melds for Rummy while no opponent is close to going out",
        "lay every meld down at once",
        {"meld": "asap"},
    ),
    "give up holding": (
        "meld",
        "lay down once an opponent gets close to going out",
        "hold for Rummy to the end",
        {"meld": "hold"},
    ),
    "hold by the state": (
        "meld",
        "decide holding from the state, turn by turn",
        "hold through its sixth turn, then meld",
        {"meld": "hold", "hold_turns": 6},
    ),
    "throw by evaluation": (
        "throw",
        "throw by the evaluation",
        "throw the card leaving the least deadwood",
        {"discard": "points"},
    ),
    "track the cards": (
        "throw",
        "keep from feeding the next player (layoffs, cards it took, live partners)",
        "ignore what the next player could use",
        {"w_feed": 0, "w_known": 0, "w_danger": 0},
    ),
    "keep live cards": (
        "throw",
        "keep cards that unseen cards would still meld with",
        "ignore the live cards",
        {"w_outs": 0},
    ),
    "dump points under threat": (
        "throw",
        "weigh the points in hand by how close an opponent is to going out",
        "ignore the points at risk",
        _NO_RISK,
    ),
    "lay off when playing": (
        "layoff",
        "lay off every card it can whenever it plays",
        "lay off only to go out",
        {"layoff": "keep"},
    ),
}
QUESTIONS = ("meld", "throw", "layoff")

#: The rule options of the documents valued by :func:`option_values`: the name shown and
#: the fields changed from the standard rules.
OPTIONS: dict[str, dict[str, bool]] = {
    "standard rules": {},
    "final discard required": {"final_discard": True},
    "must meld": {"must_meld": True},
    "rummy on the board": {"rummy_on_board": True},
    "out only from the 2nd turn": {"second_turn_out": True},
    "dry stock: pile turned over": {"reshuffle": True},
    "lay off on own melds only": {"layoff_own_only": True},
}


def variant(principle: str) -> RummyPolicy:
    """The expert without ``principle`` (its simple rule instead)."""
    return PRESETS[EXPERT].replace(**PRINCIPLES[principle][3])


def _seats(player: RummyPolicy, opponent: str, players: int) -> list[RummyPolicy]:
    return [player] + [PRESETS[opponent]] * (players - 1)


def principles(
    rules: RummyRules,
    deals: int,
    seed: int = 0,
    panel: Sequence[str] = PANEL,
    names: Sequence[str] = tuple(PRINCIPLES),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """The worth of each principle of ``names`` at the table of ``rules`` (its player
    count), against each opponent of ``panel``, ``deals`` deals per run.

    Returns
    -------
    DataFrame
        One row per (``opponent``, ``principle``): ``players``, ``question``, what the
        expert does (``expert_does``) and the rule replacing it (``instead``), ``worth``
        (the expert's margin minus the variant's, points per hand, + 95% CI ``worth_lo``
        / ``worth_hi``), ``expert_margin`` and ``variant_margin`` (points per hand, + CI).
    """
    tell_total(progress, deals * len(panel) * (1 + len(names)))
    return _principle_rows(
        rules, _margin_pairs(rules, deals, seed, panel, names, progress, scheduler)
    )


#: The expert's and the variant's margins deal by deal, by (opponent, principle).
MarginPairs = dict[tuple[str, str], tuple[Float64s, Float64s]]


def _margin_pairs(
    rules: RummyRules,
    deals: int,
    seed: int,
    panel: Sequence[str],
    names: Sequence[str],
    progress: Progress | None,
    scheduler: str | None,
) -> MarginPairs:
    pairs = {}
    for opponent in panel:
        expert = _margins(rules, PRESETS[EXPERT], opponent, deals, seed, progress, scheduler)
        for name in names:
            other = _margins(rules, variant(name), opponent, deals, seed, progress, scheduler)
            pairs[opponent, name] = (expert, other)
    return pairs


def _principle_rows(
    rules: RummyRules, pairs: MarginPairs, baseline: MarginPairs | None = None
) -> pd.DataFrame:
    """:func:`principles`' rows of the margins ``pairs``; with ``baseline`` (the same
    deals under other rules), each worth's change from it too (``worth_change``, paired
    deal by deal, + CI)."""
    rows = []
    for (opponent, name), (expert, other) in pairs.items():
        question, does, instead, _ = PRINCIPLES[name]
        row = {
            "players": rules.players,
            "question": question,
            "principle": name,
            "expert_does": does,
            "instead": instead,
            "opponent": opponent,
            **Estimate.of(expert - other).as_columns("worth"),
            **Estimate.of(expert).as_columns("expert_margin"),
            **Estimate.of(other).as_columns("variant_margin"),
        }
        if baseline is not None:
            base_expert, base_other = baseline[opponent, name]
            change = (expert - other) - (base_expert - base_other)
            row |= Estimate.of(change).as_columns("worth_change")
        rows.append(row)
    return pd.DataFrame(rows)


def _margins(
    rules: RummyRules,
    player: RummyPolicy,
    opponent: str,
    deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
) -> Float64s:
    return deal_margins(
        rules, _seats(player, opponent, rules.players), deals, seed, scheduler, progress
    )


@dataclass(frozen=True)
class HowToPlay:
    """The tables of :func:`how_to_play` (points per hand, 95% CIs)."""

    rules: str
    players: int
    deals: int
    seed: int
    meld: pd.DataFrame
    """When to meld and when to hold for Rummy: the ``meld`` principles' rows."""
    throw: pd.DataFrame
    """What to throw: the ``throw`` principles' rows."""
    layoff: pd.DataFrame
    """When to lay off: the ``layoff`` principles' rows."""
    by_players: pd.DataFrame
    """Every principle's worth at every player count of :data:`PLAYER_COUNTS`."""
    expert: pd.DataFrame
    """The expert at this table against each panel opponent: ``margin``, ``win_rate``
    (share of all hands), ``win_share`` (share of the hands someone won; fair is
    ``1 / players``), ``rummy_share`` (its wins that were Rummy) and ``void_rate``."""


def how_to_play(
    rules: str | RummyRules = "standard",
    players: int = 2,
    deals: int = 8000,
    seed: int = 0,
    counts: Sequence[int] = PLAYER_COUNTS,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> HowToPlay:
    """How to play the rules ``rules`` (a preset name or the rules) at ``players``
    players, and how the number of players (``counts``) changes it: every principle's
    worth against the panel at each count, ``deals`` deals per run (see the module
    notes)."""
    base = resolve_rules(rules) if isinstance(rules, str) else rules
    counts = sorted(set(counts) | {players})
    runs = len(PANEL) * (1 + len(PRINCIPLES)) * len(counts) + len(PANEL)
    tell_total(progress, deals * runs)
    tables = {
        n: principles(
            base.replace(players=n), deals, seed, progress=Counted(progress), scheduler=scheduler
        )
        for n in counts
    }
    here = tables[players]
    by_players = pd.concat([tables[n] for n in counts], ignore_index=True)
    return HowToPlay(
        rules if isinstance(rules, str) else "custom",
        players,
        deals,
        seed,
        here[here.question == "meld"].reset_index(drop=True),
        here[here.question == "throw"].reset_index(drop=True),
        here[here.question == "layoff"].reset_index(drop=True),
        by_players,
        expert_records(base.replace(players=players), deals, seed, progress, scheduler),
    )


def expert_records(
    rules: RummyRules,
    deals: int,
    seed: int = 0,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> pd.DataFrame:
    """The expert in seat 0 against each panel opponent at the table of ``rules`` (see
    :attr:`HowToPlay.expert`)."""
    rows = []
    for opponent in PANEL:
        result = simulate(
            rules,
            _seats(PRESETS[EXPERT], opponent, rules.players),
            deals,
            seed,
            progress=progress,
            scheduler=scheduler,
        )
        won = result.hands * (1 - result.void_rate.mean)
        wins = result.player_win_rate[0].mean * result.hands
        rows.append(
            {
                "players": rules.players,
                "opponent": opponent,
                **result.margin.as_columns("margin"),
                **result.player_win_rate[0].as_columns("win_rate"),
                **Estimate.from_rate(wins, won).as_columns("win_share"),
                "rummy_share": result.player_rummies[0] / wins if wins else np.nan,
                "void_rate": result.void_rate.mean,
            }
        )
    return pd.DataFrame(rows)


def option_values(
    deals: int,
    seed: int = 0,
    players: int = 2,
    options: dict[str, dict[str, bool]] | None = None,
    names: Sequence[str] = tuple(PRINCIPLES),
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What each rule option changes, at ``players`` players (the standard rules with
    the option's fields, :data:`OPTIONS`).

    Returns
    -------
    (DataFrame, DataFrame)
        The principles' worth under each option (:func:`principles`' rows with an
        ``option`` column, and ``worth_change``: the worth's change from the first option,
        the standard rules, paired deal by deal, + CI): how the option changes what to
        do.  And one row per option:
        the expert's edge over ``simple`` (``edge``, its margin with ``simple`` in every
        other seat, + CI) and the change from the standard rules (``edge_change``, paired
        deal by deal, + CI): how much the option changes who wins.
    """
    options = OPTIONS if options is None else options
    runs = len(options) * (len(PANEL) * (1 + len(names)) + 1)
    tell_total(progress, deals * runs)
    worth = []
    edges = []
    standard: tuple[MarginPairs, Float64s] | None = None
    for option, fields in options.items():
        rules = RummyRules(players=players).replace(**fields)
        pairs = _margin_pairs(rules, deals, seed, PANEL, names, progress, scheduler)
        edge = _margins(rules, PRESETS[EXPERT], "simple", deals, seed, progress, scheduler)
        if standard is None:
            standard = pairs, edge
        worth.append(_principle_rows(rules, pairs, standard[0]).assign(option=option))
        edges.append(
            {
                "option": option,
                "players": players,
                **Estimate.of(edge).as_columns("edge"),
                **Estimate.of(edge - standard[1]).as_columns("edge_change"),
            }
        )
    return pd.concat(worth, ignore_index=True), pd.DataFrame(edges)


__all__ = [
    "EXPERT",
    "OPTIONS",
    "PANEL",
    "PLAYER_COUNTS",
    "PRINCIPLES",
    "QUESTIONS",
    "HowToPlay",
    "expert_records",
    "how_to_play",
    "option_values",
    "principles",
    "variant",
]
