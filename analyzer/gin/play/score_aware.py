"""Score-aware players: a policy per region of the score table, for whole games."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..model.policies import Policy
from .players import SearchPolicy, no_search, rollout_policy


@dataclass(frozen=True)
class ScoreAware:
    """A policy that changes with the score: before each hand of a game the player uses
    ``policies[regions[own_score, other_score]]`` (scores in points, capped at the last
    index of ``regions``, a square ``np.int64`` table)."""

    policies: tuple[Policy, ...]
    regions: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        if self.regions.ndim != 2 or self.regions.shape[0] != self.regions.shape[1]:
            raise ValueError("regions must be a square table indexed by (own, other) score")
        if self.regions.min() < 0 or self.regions.max() >= len(self.policies):
            raise ValueError("regions must index into policies")


GamePolicy = Policy | SearchPolicy | ScoreAware


def score_policy_arrays(policy_a: GamePolicy, policy_b: GamePolicy, target: int
                        ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                   npt.NDArray[np.int64]]:
    """(policies by seat and region, region tables by seat, search rows by seat) for the
    game kernel; a search player's policy is its rollout policy."""
    plain = [p if isinstance(p, ScoreAware) else rollout_policy(p) for p in (policy_a, policy_b)]
    sides = [p if isinstance(p, ScoreAware) else
             ScoreAware((p,), np.zeros((target + 1, target + 1), dtype=np.int64))
             for p in plain]
    n_regions = max(len(side.policies) for side in sides)
    size = max(side.regions.shape[0] for side in sides)
    first = sides[0].policies[0].to_array()
    arrays = np.zeros((2, n_regions, len(first)), dtype=np.int64)
    regions = np.zeros((2, size, size), dtype=np.int64)
    for seat, side in enumerate(sides):
        for index, policy in enumerate(side.policies):
            arrays[seat, index] = policy.to_array()
        table = side.regions
        # pad by repeating the last row and column: scores past the table use its edge
        regions[seat] = np.pad(table, ((0, size - table.shape[0]), (0, size - table.shape[0])),
                               mode="edge")
    searchers = no_search()
    for seat, player in enumerate((policy_a, policy_b)):
        if isinstance(player, SearchPolicy):
            searchers[seat] = player.to_array()
    return arrays, regions, searchers
