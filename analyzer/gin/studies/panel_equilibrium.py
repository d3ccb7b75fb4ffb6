"""An equilibrium over the whole opponent panel, and the knock table that answers it.

:func:`~analyzer.gin.studies.equilibrium.knock_equilibrium` solves the knock decision
among knock tables, every other decision played by one base policy: its "no table gains"
is a fixed point of that family.  Here the players are whole players: the panel of
:func:`~analyzer.gin.studies.exploit.panel` (``basic``, ``simple``, ``gin-hunter``,
``taper``, the ``marjj`` replica, ``expert``, ``search`` with 64 samples) and the
robust knock table played by the base policy (when it is not one of them already).  The
hand-level game between two players, seats swapped on common deals, is symmetric and
zero-sum (value 0), so a mixture's exploitability is the most any player earns against
it (points per hand).

Method (PSRO / double oracle, Lanctot et al. 2017): measure every pair on common deals,
solve the symmetric matrix game for the population mixture, then ask two oracles for a
response to it: a coordinate search over knock tables with the base play
(:func:`~analyzer.gin.studies.exploit.best_response`), and the whole players
:func:`~analyzer.gin.studies.exploit.exploit` tries (every policy preset, ``taper``,
``search`` with the mixture's heaviest member as its model).  The strongest response on
fresh deals is measured again on held-out deals; if it gains more than the tolerance on
average it joins the population and the loop goes on, else the mixture stands.

The knock answer for an opponent drawn from that mixture is the knock table the last
coordinate search found against it, measured against the mixture on held-out deals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.arrays import Float64s
from ...core.progress import Progress
from ...core.stats import Estimate
from ..model.policies import Policy
from ..model.rules import Rules
from ..play.players import Player, SearchPolicy, format_player, rollout_policy
from .equilibrium import grown_payoffs, knock_coordinates, solve_symmetric, table_policy
from .exploit import (
    best_response,
    mixture_payoffs,
    named_responses,
    panel,
    table_of,
    table_text,
)

#: Smallest weight counted as part of the mixture's support.
SUPPORT_WEIGHT = 1e-3


@dataclass
class PanelEquilibrium:
    """The population, its payoffs, its equilibrium mixture and the knock answer to it."""

    rules_name: str
    names: list[str]
    players: list[Player]
    payoffs: Float64s
    """``payoffs[i, j]``: points per hand of player ``i`` against player ``j``."""
    weights: Float64s
    """The mixture whose exploitability was measured last (players added after it: 0)."""
    history: pd.DataFrame
    """One row per iteration: population size, support, the strongest response found
    and its held-out gain against the mixture (points per hand, 95% CI), whether it
    joined."""
    answer: Policy
    """The knock table (base play) found best against the final mixture."""
    answer_value: Estimate
    """Its points per hand against the final mixture (held-out deals)."""
    deals: int
    """Deals per comparison (held-out checks: twice as many)."""

    def mixture_frame(self) -> pd.DataFrame:
        """Every player of the population with its equilibrium weight (0 kept)."""
        return pd.DataFrame(
            {
                "rules": self.rules_name,
                "player": self.names,
                "policy": [format_player(p) for p in self.players],
                "weight": self.weights,
            }
        )

    def mixture_text(self) -> str:
        """The mixture in words: each player with a weight over half a percent."""
        return mixture_text(self.mixture_frame())

    def answer_frame(self) -> pd.DataFrame:
        """The knock answer to the mixture: its table and its points per hand against
        the mixture (95% CI), one row."""
        value = self.answer_value
        return pd.DataFrame(
            [
                {
                    "rules": self.rules_name,
                    "table": table_text(table_of(self.answer)),
                    "points": value.mean,
                    "points_low": value.low,
                    "points_high": value.high,
                    "deals": value.n,
                }
            ]
        )

    def payoff_frame(self) -> pd.DataFrame:
        """The payoff matrix, one row per (row player, column player)."""
        return pd.DataFrame(
            [
                {"row": a, "column": b, "points": float(self.payoffs[i, j])}
                for i, a in enumerate(self.names)
                for j, b in enumerate(self.names)
            ]
        )


def mixture_text(mixture: pd.DataFrame, mark: str = "") -> str:
    r"""A mixture (``player`` and ``weight`` columns, as :meth:`PanelEquilibrium.mixture_frame`
    writes it) in words: each player, between ``mark``\ s, with a weight over half a
    percent."""
    return ", ".join(
        f"{mark}{row.player}{mark} {row.weight:.0%}"
        for row in mixture.itertuples()
        if row.weight > 0.005
    )


def _name(key: str, player: Player) -> str:
    """A player's name in the population: a search player's string form with its
    samples per decision always written (search players differ by their samples and
    model, and a reader should not need the default), else the name it came with."""
    return format_player(player, always=("budget",)) if isinstance(player, SearchPolicy) else key


def _support(
    players: list[Player], weights: Float64s
) -> tuple[list[int], list[Player], list[float]]:
    """(indices, players, weights summing to 1) of the mixture's support."""
    support = [i for i, w in enumerate(weights) if w > SUPPORT_WEIGHT]
    total = weights[support].sum()
    return support, [players[i] for i in support], [float(weights[i] / total) for i in support]


def _pair_matrix(
    rules: Rules,
    players: list[Player],
    deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
) -> Float64s:
    """The symmetric game among ``players`` on the same ``deals`` deals, grown one
    player at a time: each pair is played once (seats swapped on common deals, so the
    reverse pairing would only give the same number negated) and no one plays itself."""
    payoffs = np.zeros((1, 1))
    for count in range(1, len(players)):
        payoffs = grown_payoffs(
            rules, payoffs, players[count], players[:count], deals, seed, progress, scheduler
        )
    return payoffs


def panel_equilibrium(
    rules: Rules,
    base: Policy,
    start_table: tuple[int, ...],
    deals: int,
    seed: int,
    iterations: int = 4,
    tolerance: float = 0.1,
    rules_name: str = "",
    search_deals: int | None = None,
    members: Mapping[str, Player] | None = None,
    responses: Callable[[Policy], Mapping[str, Player]] = named_responses,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> PanelEquilibrium:
    """PSRO over the panel and ``base`` knocking by ``start_table`` (see the module
    notes): ``deals`` common deals per comparison, the knock-table search on
    ``search_deals`` (default ``deals``), held-out checks on twice as many; stops when
    the strongest response found gains at most ``tolerance`` points per hand on average,
    or after ``iterations``.  ``members``: the players it starts from besides the robust
    rule (default: the panel); ``responses(policy)``: the whole players tried against
    the mixture's heaviest player (its policy) beside the knock-table search."""
    search_deals = search_deals or deals
    population = {_name(key, player): player for key, player in (members or panel()).items()}
    robust = table_policy(base, start_table)
    if robust not in population.values():  # the robust rule may be a member already
        population["robust rule"] = robust
    names, players = list(population), list(population.values())
    payoffs = _pair_matrix(rules, players, deals, seed, progress, scheduler)
    history = []
    weights = np.ones(1)
    answer = robust
    for iteration in range(1, iterations + 1):
        weights = solve_symmetric(payoffs)
        support, mixed, member_weights = _support(players, weights)
        tables = best_response(
            rules,
            mixed,
            member_weights,
            robust,
            search_deals,
            seed + 1000 * iteration,
            rounds=1,
            coordinates=knock_coordinates,
            progress=progress,
            scheduler=scheduler,
        )
        answer = tables.response
        heaviest = rollout_policy(mixed[int(np.argmax(member_weights))])
        candidates: dict[str, Player] = {f"knock table {table_text(table_of(answer))}": answer}
        candidates.update(
            {_name(key, player): player for key, player in responses(heaviest).items()}
        )
        candidates = {n: p for n, p in candidates.items() if p not in players}
        held_out = Estimate(0.0, 0.0, 0.0, 0)
        best_name = ""
        if candidates:
            options = list(candidates.values())
            selection = mixture_payoffs(
                rules,
                options,
                mixed,
                member_weights,
                deals,
                seed + 1000 * iteration + 1,
                progress=progress,
                scheduler=scheduler,
            )
            best = max(range(len(options)), key=lambda i: selection.value(i).mean)
            best_name = list(candidates)[best]
            held_out = mixture_payoffs(
                rules,
                [options[best]],
                mixed,
                member_weights,
                2 * deals,
                seed + 1000 * iteration + 500,
                progress=progress,
                scheduler=scheduler,
            ).value(0)
        joins = bool(candidates) and held_out.mean > tolerance
        history.append(
            {
                "rules": rules_name,
                "iteration": iteration,
                "population": len(players),
                "support": ", ".join(f"{names[i]} {weights[i]:.0%}" for i in support),
                "best_response": best_name or "-",
                "gain": held_out.mean,
                "gain_low": held_out.low,
                "gain_high": held_out.high,
                "joins": joins,
            }
        )
        if not joins:
            break
        added = candidates[best_name]
        payoffs = grown_payoffs(rules, payoffs, added, players, deals, seed, progress, scheduler)
        names.append(best_name)
        players.append(added)
    _, mixed, member_weights = _support(players, weights)
    answer_value = mixture_payoffs(
        rules,
        [answer],
        mixed,
        member_weights,
        2 * deals,
        seed + 77,
        progress=progress,
        scheduler=scheduler,
    ).value(0)
    measured = np.zeros(len(players))
    measured[: len(weights)] = weights
    return PanelEquilibrium(
        rules_name,
        names,
        players,
        payoffs,
        measured,
        pd.DataFrame(history),
        answer,
        answer_value,
        deals,
    )
