"""What the advisor returns: per-action estimates, the advice and its one-line verdict."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from .position import Action, Position


@dataclass(frozen=True)
class ActionEstimate:
    """One action's estimate (points, or game-win probability as a fraction)."""

    action: str
    kind: str
    """``play``, ``knock``, ``gin`` or ``big gin``."""
    card: str | None
    deadwood: int
    mean: float
    half_width: float
    """Half-width of the 95% confidence interval of ``mean``."""
    behind: float
    """How far below the best action, on paired samples (0 for the best)."""
    behind_half_width: float
    p_win: float
    """Probability of winning the hand."""
    p_undercut: float
    """Probability of being undercut (this player knocks and loses)."""
    p_opp_gin: float
    """Probability that the opponent goes gin (or big gin)."""
    samples: int
    dropped: bool
    """Whether the race dropped it early as significantly worse than the best."""


@dataclass(frozen=True)
class Advice:
    """The ranked actions of a position, the one-line verdict and the run's details."""

    position: Position
    objective: str
    """``points`` (per hand, this player's view) or ``game`` (win probability)."""
    actions: tuple[ActionEstimate, ...]
    """Ranked, best first."""
    verdict: str
    margin: float
    """The verdict's lead over its comparator (objective units)."""
    margin_half_width: float
    ess: float
    """Effective sample size of the weighted samples (= samples with uniform weights)."""
    samples: int
    stopped: str
    """``converged`` (every rival resolved within the tolerance) or ``budget``."""
    seed: int
    weights: str
    elapsed_s: float
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> ActionEstimate:
        """The recommended action."""
        return self.actions[0]

    def table(self) -> pd.DataFrame:
        """The ranked actions as a DataFrame, one row per action."""
        return pd.DataFrame([asdict(a) for a in self.actions])

    def to_frame(self) -> pd.DataFrame:
        """Same as :meth:`table` (the notebook API's name)."""
        return self.table()

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON-ready data."""
        return {
            "position": self.position.describe(),
            "objective": self.objective,
            "verdict": self.verdict,
            "margin": self.margin,
            "margin_half_width": self.margin_half_width,
            "ess": self.ess,
            "samples": self.samples,
            "stopped": self.stopped,
            "seed": self.seed,
            "weights": self.weights,
            "elapsed_s": self.elapsed_s,
            "settings": self.settings,
            "actions": [asdict(a) for a in self.actions],
        }


def verdict_text(
    best: Action, comparator: Action | None, margin: float, half: float, game: bool
) -> str:
    """``Knock, discarding K♦: +6.3 ± 0.8 points over playing on (discarding 9♣)``."""
    head = best.describe(symbols=True)
    head = head[0].upper() + head[1:]
    if comparator is None:
        return head
    if game:
        amount = f"{100 * margin:+.1f} ± {100 * half:.1f} percentage points of game-win chance"
    else:
        amount = f"{margin:+.1f} ± {half:.1f} points"
    return f"{head}: {amount} over {comparator.describe(symbols=True, gerund=True)}"


__all__ = ["ActionEstimate", "Advice", "verdict_text"]
