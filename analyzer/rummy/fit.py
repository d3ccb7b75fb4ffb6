"""Fitting ``rummy-expert``'s evaluation weights from simulated deals
(``scripts/fit_rummy.py`` writes them to ``analyzer/rummy/expert_weights.json``).

The weights of :data:`FIT_SPACE` (the deadwood weight stays 100: it sets the scale) are
fitted by the cross-entropy method (:mod:`analyzer.core.cem`) against a panel of tables
(:data:`FIT_PANEL`): the expert in seat 0 and one scripted preset in every other seat, at
two and at four players, seats rotating deal by deal, plus the incumbent (the expert
with the generation's mean weights) at two players.  A candidate's result at a table is
its margin, points per hand minus the mean of the other players' (standard rules), and
its score the soft minimum of its margins over the panel.

Randomness: generation ``g`` plays the deals of seed ``offset_seed(seed, 1000 + g)``
(every candidate the same deals), candidates are drawn from
``numpy.random.default_rng(seed)``, and the held-out check plays the fresh deals of
``offset_seed(seed, 999_999)``: the fitted weights against the starting ones, table by
table, paired deal by deal.  A fit is the same whatever the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.arrays import Float64s
from ..core.cem import Generation, cross_entropy
from ..core.progress import Progress, advance, tell_total
from ..core.rng import offset_seed
from ..core.stats import Estimate
from .policies import PRESETS, RummyPolicy
from .rules import RummyRules
from .simulate import deal_margins, simulate

#: (weight, low, high, starting spread) of every fitted weight, hundredths of a point per
#: unit of its feature (:data:`analyzer.rummy.policies.WEIGHTS`).
FIT_SPACE: tuple[tuple[str, int, int, int], ...] = (
    ("w_risk1", -200, 400, 20),
    ("w_risk2", -200, 400, 20),
    ("w_risk3", -200, 400, 20),
    ("w_risk4", -200, 400, 20),
    ("w_risk5", -200, 400, 20),
    ("w_risk_turn", -20, 20, 2),
    ("w_outs", -500, 200, 30),
    ("w_feed", -500, 2000, 100),
    ("w_known", -500, 1000, 60),
    ("w_danger", -200, 300, 15),
    ("w_rummy", -300, 100, 15),
    ("w_spots", -200, 300, 20),
)
#: The expert the fit starts from: guesses in points (a held point costs more the fewer
#: cards an opponent holds, an out is worth a point, a throw the next player lays off
#: three), 100 for a point of deadwood (the scale of every other weight).
FIT_START = RummyPolicy(meld="expert", discard="expert").replace(
    w_deadwood=100,
    w_risk1=60,
    w_risk2=35,
    w_risk3=20,
    w_risk4=10,
    w_risk5=5,
    w_risk_turn=1,
    w_outs=-100,
    w_feed=300,
    w_known=150,
    w_danger=20,
    w_rummy=-50,
    w_spots=50,
)


@dataclass(frozen=True)
class Table:
    """One table of the fit's panel: the expert against ``opponent`` in every other of
    ``players`` seats."""

    opponent: str
    players: int

    @property
    def name(self) -> str:
        return f"{self.opponent}, {self.players} players"

    def policies(self, expert: RummyPolicy) -> list[RummyPolicy]:
        """The seats' policies, the expert first."""
        return [expert] + [PRESETS[self.opponent]] * (self.players - 1)


#: The tables of the fit (besides the incumbent at two players).
FIT_PANEL: tuple[Table, ...] = (
    Table("simple", 2),
    Table("rummy", 2),
    Table("hold6", 2),
    Table("keeper", 2),
    Table("potential", 2),
    Table("simple", 4),
    Table("potential", 4),
    Table("hold6", 4),
)


@dataclass(frozen=True)
class ExpertFit:
    """A whole fit: its settings, each generation, and the held-out check."""

    seed: int
    deals: int
    population: int
    elite: int
    softness: float
    start: RummyPolicy
    fitted: RummyPolicy
    generations: tuple[Generation, ...]
    held_out: dict[str, Estimate]
    """Per table: the fitted weights' margin minus the starting ones', points per hand,
    paired on fresh deals."""
    held_out_margin: dict[str, Estimate]
    """Per table: the fitted expert's margin on those deals (points per hand)."""
    held_out_deals: int

    def document(self) -> dict[str, object]:
        """The weights file's contents: the weights and how they were fitted."""
        return {
            "weights": self.fitted.weights(),
            "fit": {
                "command": (
                    f"python scripts/fit_rummy.py --seed {self.seed} --generations "
                    f"{len(self.generations)} --population {self.population} --elite "
                    f"{self.elite} --deals {self.deals} --held-out {self.held_out_deals}"
                ),
                "panel": [table.name for table in FIT_PANEL] + ["incumbent, 2 players"],
                "softness": self.softness,
                "start": self.start.weights(),
                "scores": [float(g.scores[0]) for g in self.generations],
                "held_out": {
                    name: {
                        "gain": [round(e.mean, 3), round(e.low, 3), round(e.high, 3)],
                        "margin": [
                            round(m.mean, 3),
                            round(m.low, 3),
                            round(m.high, 3),
                        ],
                    }
                    for (name, e), m in zip(
                        self.held_out.items(), self.held_out_margin.values(), strict=True
                    )
                },
            },
        }


def with_weights(base: RummyPolicy, weights: Float64s) -> RummyPolicy:
    """``base`` with the weights of :data:`FIT_SPACE` set to ``weights`` (rounded)."""
    return base.replace(
        **{name: round(w) for (name, *_), w in zip(FIT_SPACE, weights, strict=True)}
    )


def table_margin(
    expert: RummyPolicy, table: Table, seed: int, deals: int, rules: RummyRules | None = None
) -> float:
    """The expert's margin at ``table`` (points per hand minus the others' mean)."""
    rules = (rules or RummyRules()).replace(players=table.players)
    return simulate(rules, table.policies(expert), deals, seed).margin.mean


def fit_expert(
    start: RummyPolicy = FIT_START,
    *,
    generations: int,
    population: int,
    elite: int,
    deals: int,
    held_out_deals: int,
    softness: float,
    seed: int,
    progress: Progress | None = None,
) -> ExpertFit:
    """Fit the evaluation's weights starting from ``start``'s (see the module notes);
    ``deals`` per candidate and table, ``held_out_deals`` per table for the check."""
    tell_total(
        progress,
        generations * population * (len(FIT_PANEL) + 1) * deals
        + 2 * len(FIT_PANEL) * held_out_deals,
    )

    def evaluate(generation: int, mean: Float64s, weights: Float64s) -> Float64s:
        deal_seed = offset_seed(seed, 1000 + generation)
        candidate = with_weights(start, weights)
        incumbent = with_weights(start, mean)
        margins = []
        for table in FIT_PANEL:
            margins.append(table_margin(candidate, table, deal_seed, deals))
            advance(progress, deals)
        two = RummyRules()
        margins.append(simulate(two, [candidate, incumbent], deals, deal_seed).margin.mean)
        advance(progress, deals)
        return np.array(margins)

    mean, done = cross_entropy(
        evaluate,
        [getattr(start, name) for name, *_ in FIT_SPACE],
        FIT_SPACE,
        generations=generations,
        population=population,
        elite=elite,
        softness=softness,
        seed=seed,
    )
    fitted = with_weights(start, mean)
    check_seed = offset_seed(seed, 999_999)
    held_out: dict[str, Estimate] = {}
    held_out_margin: dict[str, Estimate] = {}
    for table in FIT_PANEL:
        rules = RummyRules(players=table.players)
        new = deal_margins(rules, table.policies(fitted), held_out_deals, check_seed)
        old = deal_margins(rules, table.policies(start), held_out_deals, check_seed)
        advance(progress, 2 * held_out_deals)
        held_out[table.name] = Estimate.of(new - old)
        held_out_margin[table.name] = Estimate.of(new)
    return ExpertFit(
        seed,
        deals,
        population,
        elite,
        softness,
        start,
        fitted,
        done,
        held_out,
        held_out_margin,
        held_out_deals,
    )


__all__ = [
    "FIT_PANEL",
    "FIT_SPACE",
    "FIT_START",
    "ExpertFit",
    "Table",
    "fit_expert",
    "with_weights",
]
