"""An approximate equilibrium of the knock decision: the robust knock chart.

Abstraction.  A *knock table* says, for each bin of own turns in
:data:`analyzer.gin.studies.schedule.SCHEDULE_BINS` (turns 1-3, 4-6, 7-9, 10 on) and for each
state of the one public signal of the opponent's pickups (it holds, or does not hold, a
card it took from the pile), the most deadwood (0-10 points) with which to knock: 8
thresholds.  "Knock when deadwood <= threshold" makes it monotone in own deadwood; the
table alone decides (``knock_rule=schedule``).  The score is not in the abstraction:
the game is played hand by hand (points per hand), where the score does not matter.
Everything else (draws, discards, gin) is fixed to a base policy, by default
``expert``.  The hand-level game
between two knock tables, seats swapped on common deals, is symmetric and zero-sum, so
its value is 0 and a mixed strategy's exploitability is the most any knock table earns
against it, in points per hand.

Method: policy-space response oracles (PSRO; Lanctot et al. 2017), the population
version of the double oracle.  Start from the base policy's own knock table; then
repeat: estimate the payoff matrix of the population on common deals, solve the
symmetric matrix game for the population mixture (fictitious play on the matrix), find a
best response to the mixture by coordinate ascent over knock tables with the
significance rule of :mod:`analyzer.gin.studies.exploit`, measure its gain against the mixture
on a held-out seed (the exploitability estimate, with a 95% CI), and add it to the
population.  Stop when the held-out exploitability's upper 95% bound is below the
tolerance, or after ``iterations``.  The exploitability is measured against knock
tables only (the abstraction); :func:`analyzer.gin.studies.exploit.exploit` measures richer
responses.  When the best response found is a member itself its held-out gain is 0 by
symmetry; the *resolution* column then says how large an exploit the search could have
missed (the largest upper 95% bound among the candidates it rejected: with some 90
candidates, a conservative bound), and the *runner-up* columns measure the rejected table
with the highest mean gain again on held-out deals (a CI for the best alternative found).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.arrays import Float64s
from ...core.progress import Progress
from ...core.stats import Estimate
from ..model.policies import Policy, policy_name
from ..model.rules import Rules
from ..play.players import Player
from .exploit import (
    best_response,
    knock_table_coordinates,
    mixture_payoffs,
    table_of,
    table_text,
)
from .schedule import SCHEDULE_BINS, schedule_policy


def solve_symmetric(payoffs: Float64s, iterations: int = 20_000) -> Float64s:
    """Mixed strategy of a symmetric zero-sum matrix game (``payoffs[i, j]``: row ``i``
    against column ``j``), by fictitious play: the average of best responses to the
    running average, whose exploitability falls as ``1/sqrt(iterations)``."""
    size = payoffs.shape[0]
    counts = np.zeros(size)
    counts[0] = 1.0
    for _ in range(iterations):
        counts[int(np.argmax(payoffs @ (counts / counts.sum())))] += 1.0
    strategy: Float64s = counts / counts.sum()
    return strategy


def grown_payoffs(
    rules: Rules,
    payoffs: Float64s,
    newcomer: Player,
    population: Sequence[Player],
    deals: int,
    seed: int,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> Float64s:
    """The symmetric game ``payoffs`` among ``population`` with a row and a column for
    ``newcomer``: its points per hand against each player on the population's common
    deals (``seed``), and their negatives."""
    row = mixture_payoffs(
        rules,
        [newcomer],
        population,
        [1.0 / len(population)] * len(population),
        deals,
        seed,
        progress=progress,
        scheduler=scheduler,
    )
    new_row = np.array([row.pair(0, j).mean for j in range(len(population))])
    size = len(population)
    grown = np.zeros((size + 1, size + 1))
    grown[:size, :size] = payoffs
    grown[size, :size] = new_row
    grown[:size, size] = -new_row
    return grown


def table_policy(base: Policy, table: tuple[int, ...]) -> Policy:
    """``base`` knocking by ``table`` alone (one threshold per schedule bin): whenever the
    least deadwood after a discard is within the table, with no further test (an expert's
    knock rule is replaced by the table)."""
    return schedule_policy(base, list(table)).changed(knock_rule="schedule")


def knock_coordinates(policy: Policy) -> list[tuple[str, list[Policy]]]:
    """Knock-table coordinates only (see :func:`analyzer.gin.studies.exploit.knock_table_coordinates`),
    each candidate deciding its knocks by the table alone."""
    return knock_table_coordinates(policy, table_policy)


@dataclass
class KnockEquilibrium:
    """The population, its equilibrium mixture and the convergence history."""

    rules_name: str
    base: Policy
    population: list[tuple[int, ...]]
    weights: Float64s
    history: pd.DataFrame
    """One row per iteration: population size, best response table, its held-out gain
    against the mixture (exploitability, points per hand) with 95% CI, the search's
    resolution (no knock table was found to gain more than this) and, once the best
    response is already a member, the runner-up table's held-out gain with 95% CI."""
    payoffs: Float64s
    n_deals: int

    @property
    def exploitability(self) -> Estimate:
        """The last held-out exploitability estimate (points per hand)."""
        last = self.history.iloc[-1]
        return Estimate(
            float(last["exploitability"]),
            float(last["exploitability_low"]),
            float(last["exploitability_high"]),
            self.n_deals,
        )

    def strategy_frame(self) -> pd.DataFrame:
        """Knock probability by turn bin, pickup signal (``opponent_holds_pile_card``
        0 or 1) and own deadwood (0-10) under the mixture: the share of the mixture
        whose table knocks there."""
        rows = []
        for signal in (0, 1):
            for index, (first, last) in enumerate(SCHEDULE_BINS):
                column = signal * len(SCHEDULE_BINS) + index
                for deadwood in range(11):
                    share = sum(
                        w
                        for w, table in zip(self.weights, self.population, strict=True)
                        if deadwood <= table[column]
                    )
                    rows.append(
                        {
                            "rules": self.rules_name,
                            "turns": f"{first}-{last}",
                            "first_turn": first,
                            "opponent_holds_pile_card": signal,
                            "deadwood": deadwood,
                            "knock_probability": float(share),
                        }
                    )
        return pd.DataFrame(rows)

    def mixture_frame(self) -> pd.DataFrame:
        """The population's tables with their equilibrium weights (weight 0 kept)."""
        return pd.DataFrame(
            {
                "rules": self.rules_name,
                "table": [table_text(t) for t in self.population],
                "weight": self.weights,
            }
        )

    def policies(self) -> list[Policy]:
        return [table_policy(self.base, table) for table in self.population]


def equilibrium_work(base: Policy, deals: int, iterations: int) -> int:
    """The most progress units (candidate-deals against each mixture member)
    :func:`knock_equilibrium` can report: at iteration ``i`` a two-sweep search against
    at most ``i`` members, two held-out checks on twice the deals and the grown
    population's payoffs."""
    sweep = sum(len(candidates) + 1 for _, candidates in knock_coordinates(base))
    return sum(i * deals * (2 * sweep + 2 * 2 + 1) for i in range(1, iterations + 1))


def knock_equilibrium(
    rules: Rules,
    base: Policy,
    deals: int,
    seed: int,
    iterations: int = 8,
    tolerance: float = 0.1,
    rules_name: str = "",
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> KnockEquilibrium:
    """PSRO over knock tables with the rest of play fixed to ``base`` (see the module
    notes); ``deals`` common deals per comparison, held-out checks on twice as many."""
    population = [table_of(base)]
    payoffs = np.zeros((1, 1))
    history = []
    for iteration in range(1, iterations + 1):
        weights = solve_symmetric(payoffs)
        support = [i for i, w in enumerate(weights) if w > 1e-3]
        members = [table_policy(base, population[i]) for i in support]
        member_weights = weights[support] / weights[support].sum()
        start = members[int(np.argmax(member_weights))]
        search = best_response(
            rules,
            members,
            list(member_weights),
            start,
            deals,
            seed + 1000 * iteration,
            rounds=2,
            coordinates=knock_coordinates,
            progress=progress,
            scheduler=scheduler,
        )
        response = search.response
        held_out = mixture_payoffs(
            rules,
            [response],
            members,
            list(member_weights),
            2 * deals,
            seed + 1000 * iteration + 500,
            progress=progress,
            scheduler=scheduler,
        ).value(0)
        table = table_of(response)
        runner_up = _runner_up(
            rules,
            search.runner_up if table in population else None,
            members,
            list(member_weights),
            2 * deals,
            seed + 1000 * iteration + 700,
            progress,
            scheduler,
        )
        history.append(
            {
                "rules": rules_name,
                "iteration": iteration,
                "population": len(population),
                "support": len(support),
                "best_response": table_text(table),
                "exploitability": held_out.mean,
                "exploitability_low": held_out.low,
                "exploitability_high": held_out.high,
                "resolution": search.resolution,
                **runner_up,
            }
        )
        if held_out.high < tolerance or table in population:
            break
        everyone = [table_policy(base, t) for t in population]
        payoffs = grown_payoffs(
            rules, payoffs, response, everyone, deals, seed, progress, scheduler
        )
        population.append(table)
    # the mixture whose exploitability was measured last (tables added after it get 0)
    evaluated = np.zeros(len(population))
    evaluated[: len(weights)] = weights
    return KnockEquilibrium(
        rules_name, base, population, evaluated, pd.DataFrame(history), payoffs, 2 * deals
    )


def _runner_up(
    rules: Rules,
    candidate: Policy | None,
    members: list[Policy],
    weights: list[float],
    n_deals: int,
    seed: int,
    progress: Progress | None,
    scheduler: str | None,
) -> dict[str, object]:
    """Once the best response is already a member (its held-out gain is 0 by symmetry),
    the best table the search rejected, measured again against the mixture on held-out
    deals: a CI for the largest gain the search came close to (points per hand)."""
    if candidate is None:
        return {
            "runner_up": "",
            "runner_up_gain": np.nan,
            "runner_up_gain_low": np.nan,
            "runner_up_gain_high": np.nan,
        }
    gain = mixture_payoffs(
        rules, [candidate], members, weights, n_deals, seed, progress=progress, scheduler=scheduler
    ).value(0)
    return {
        "runner_up": table_text(table_of(candidate)),
        "runner_up_gain": gain.mean,
        "runner_up_gain_low": gain.low,
        "runner_up_gain_high": gain.high,
    }


def describe(equilibrium: KnockEquilibrium) -> str:
    """One line: the mixture's tables and weights (support only)."""
    parts = [
        f"{table_text(t)} ({w:.0%})"
        for t, w in zip(equilibrium.population, equilibrium.weights, strict=True)
        if w > 0.005
    ]
    return f"{policy_name(equilibrium.base)} play, knock tables " + ", ".join(parts)
