"""Score-aware knocking: A's best knock option per score state by backward induction over
the DP, and its gain over A's own knock measured on paired whole games.

The options are A itself and variants of A that differ only in when they knock
(:func:`knock_options`): every threshold of A's knock tables (by own turn, and while the
opponent holds a pile card) lowered to at most ``c`` or raised to at least ``f``.  A
variant drops A's read of the opponent (``knock_racer``, ``discard_racer``): that read
judges the opponent's knocks by A's own tables, so a lowered table would read an ordinary
knock as a racer's and change A's discard for the rest of the game; without the read a
variant differs from A in its knock alone.  Against an opponent with the same tables
(the champion against itself) A's read never fires, so there the variants and A differ
in the knock only.  For a policy with one constant threshold (``basic``) the caps are
the constant thresholds below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ....core.stats import Estimate
from ...model.policies import Policy
from ...model.policy_fields import Schedule
from ...model.rules import Rules
from ...play.game_kernels import GameColumn
from ...play.players import ScoreAware
from ...play.simulate import game_rows
from .law import hand_outcome_distribution, hand_summary, stack_laws
from .table import EquityTable, solve_table

#: The label of A's own knock among the options.
OWN = "own"


def _clamped(schedule: Schedule, low: int, high: int) -> Schedule:
    """``schedule`` with every threshold clamped to ``low``-``high`` (points), steps
    that repeat the threshold before them merged."""
    steps: list[tuple[int, int]] = []
    for turn, threshold in schedule:
        value = min(max(threshold, low), high)
        if not steps or steps[-1][1] != value:
            steps.append((turn, value))
    return tuple(steps)


def knock_variant(policy: Policy, low: int, high: int) -> Policy:
    """``policy`` with every threshold of its knock tables clamped to ``low``-``high``
    (points) and without its read of the opponent (see the module's description)."""
    knock = policy.knock
    schedule = _clamped(knock.schedule, low, high)
    alert = None if knock.alert is None else _clamped(knock.alert, low, high)
    changed = replace(
        policy,
        knock=replace(knock, schedule=schedule, alert=None if alert == schedule else alert),
    )
    return changed.changed(knock_racer=None, discard_racer="same", learned_racer_deadwood=0)


def knock_options(policy: Policy, caps: Sequence[int], floors: Sequence[int]) -> dict[str, Policy]:
    """A's knock options by label: ``own`` (``policy`` itself), ``at most c`` for each
    cap (``gin only`` for 0) and ``at least f`` for each floor (``every chance`` for 10),
    each a :func:`knock_variant`; a variant that knocks as an earlier option does is left
    out (a cap above every threshold of a table, say)."""
    options = {OWN: policy}
    tables = {(policy.knock.schedule, policy.knock.alert)}
    wanted = [(0, cap, "gin only" if cap == 0 else f"at most {cap}") for cap in caps]
    wanted += [(f, 10, "every chance" if f == 10 else f"at least {f}") for f in floors]
    for low, high, label in wanted:
        variant = knock_variant(policy, low, high)
        table = (variant.knock.schedule, variant.knock.alert)
        if table not in tables:
            tables.add(table)
            options[label] = variant
    return options


def knock_distributions(
    rules: Rules, options: Sequence[Policy], policy_b: Policy, deals: int, seed: int
) -> list[pd.DataFrame]:
    """Hand-outcome distributions of each of A's options against B, all on the same
    deals (so differences between options are not luck)."""
    return [hand_outcome_distribution(rules, option, policy_b, deals, seed) for option in options]


@dataclass(frozen=True)
class BestResponse:
    """A's best score-aware choice among its knock options against B."""

    aware: EquityTable
    """Table of the score-aware player (its ``choice`` indexes ``labels``)."""
    fixed: list[EquityTable]
    """Table of each option played at every score, in the order of ``labels``."""
    labels: tuple[str, ...]
    hands: pd.DataFrame
    """:func:`hand_summary` of each option, in the same order."""

    @property
    def best_fixed(self) -> int:
        """Index of the option with the highest P(A wins) from 0:0 when played at every
        score."""
        return int(np.argmax([table.start() for table in self.fixed]))

    def player(self, options: Sequence[Policy]) -> ScoreAware:
        """The score-aware player over ``options`` (in the order of ``labels``), for
        :func:`analyzer.gin.play.simulate.play_games` (scores past the table use its edge)."""
        regions = np.pad(self.aware.choice, ((0, 1), (0, 1)), mode="edge")
        return ScoreAware(tuple(options), regions)

    def options_frame(self) -> pd.DataFrame:
        """Per option, then the score-aware player: its hand win rate and points per hand
        (NaN for the score-aware player, which plays no single law), its DP P(A wins the
        game from 0:0) and the share of the visited score states where the score-aware
        player plays it (weighted by the visits of its own games)."""
        visits = self.aware.visit.sum(axis=2)
        shares = [
            visits[self.aware.choice == index].sum() / visits.sum()
            for index in range(len(self.labels))
        ]
        frame = pd.concat([self.hands, pd.DataFrame([{}])], ignore_index=True)
        frame.insert(0, "option", [*self.labels, "score-aware"])
        frame["dp_game_win"] = [*(table.start() for table in self.fixed), self.aware.start()]
        frame["share"] = [*shares, 1.0]
        return frame


def score_aware_best_response(
    distributions: Sequence[pd.DataFrame], rules: Rules, labels: Sequence[str]
) -> BestResponse:
    """A's knock option per score state, maximising P(A wins the game).

    The choice at each (own score, opponent score) is made by backward induction over
    the DP (the equity table is the objective) among the laws of ``distributions`` (one
    per option, named by ``labels``; the first is A's own).  The choice may not look at
    who deals, so the two dealers' win probabilities are weighted by how often a game
    reaches the state with each dealer when A plays its own knock; ties go to the
    earlier option.
    """
    law = stack_laws(distributions, rules)
    target = rules.target
    fixed = [
        solve_table(law, rules, np.full((target, target), index), {"option": label})
        for index, label in enumerate(labels)
    ]
    weights = fixed[0].visit + 1e-12  # unvisited states still get a choice (dealers even)
    aware = solve_table(law, rules, None, {"options": list(labels)}, weights)
    hands = pd.DataFrame([hand_summary(frame) for frame in distributions])
    return BestResponse(aware, fixed, tuple(labels), hands)


def measure_gain(
    rules: Rules,
    challenger: ScoreAware | Policy,
    baseline: Policy,
    opponent: Policy,
    games: int,
    seed: int,
) -> dict[str, Estimate]:
    """Game-win rate of two policies against one opponent, and the gain, on paired games.

    Both arms play the same games (same seed: the same deck for hand ``h`` of game
    ``g``, each game with both first dealers), so the difference is paired per game.

    Returns
    -------
    dict
        ``challenger``, ``baseline`` and ``gain`` (challenger - baseline) game-win
        rates of A as :class:`analyzer.core.stats.Estimate` (95% CI).
    """
    wins = {}
    for name, policy in (("challenger", challenger), ("baseline", baseline)):
        rows = game_rows(rules, policy, opponent, seed, 0, games)
        # a game = its two first-dealer plays on common decks
        wins[name] = rows[:, GameColumn.GAMES_WON_A].astype(np.float64).reshape(-1, 2).mean(1)
    wins["gain"] = wins["challenger"] - wins["baseline"]
    return {
        name: Estimate.from_sums(v.sum(), np.square(v).sum(), len(v)) for name, v in wins.items()
    }


__all__ = [
    "OWN",
    "BestResponse",
    "knock_distributions",
    "knock_options",
    "knock_variant",
    "measure_gain",
    "score_aware_best_response",
]
