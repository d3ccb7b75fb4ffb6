"""What the advisor returns: per-action estimates, the advice and its one-line verdict."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from ....core.cards import format_card
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
    best: Action, comparator: Action | None, margin: float, half: float, game: bool, samples: int
) -> str:
    """``Knock, discarding K♦: +6.3 ± 0.8 points over playing on (discarding 9♣)``; when
    the interval of the lead ``margin ± half`` (measured on ``samples`` paired samples)
    includes 0, ``Too close to call: ...`` with both moves and roughly how many samples
    would settle it (the interval narrows as one over the square root of the samples)."""
    head = best.describe(symbols=True)
    if comparator is None:
        return head[0].upper() + head[1:]
    if game:
        amount = f"{100 * margin:+.1f} ± {100 * half:.1f} percentage points of game-win chance"
    else:
        amount = f"{margin:+.1f} ± {half:.1f} points"
    other, options = _comparison(best, comparator, head)
    if margin - half > 0:
        return f"{head[0].upper() + head[1:]}: {amount} over {other}"
    if margin <= 0:
        settle = "no number of samples is likely to separate them"
    else:
        needed = samples * (half / margin) ** 2
        settle = f"about {_round_up(needed):,} samples would settle it"
    return f"Too close to call: {options} ({amount} for the first; {settle})"


def _comparison(best: Action, comparator: Action, head: str) -> tuple[str, str]:
    """(what the best move is compared with, after "over"; both moves, for a call too
    close to make), each card said once."""
    card = None if comparator.card is None else format_card(comparator.card, True)
    if card is not None and best.verb == comparator.verb:
        # both play on (or both knock): the choice is the discard
        return f"discarding {card} instead", f"{head} or {card}"
    if card is not None and comparator.card == best.card:
        # the same card either way: the choice is the move
        moves = [Action(a.kind, None, a.deadwood) for a in (best, comparator)]
        return (
            moves[1].describe(gerund=True),
            f"{moves[0].describe()} or {moves[1].describe()}, discarding {card}",
        )
    return comparator.describe(
        symbols=True, gerund=True
    ), f"{head} or {comparator.describe(symbols=True)}"


def _round_up(count: float) -> int:
    """``count`` rounded up to two significant digits."""
    whole = max(1, math.ceil(count))
    step = int(10 ** max(0, len(str(whole)) - 2))
    return -(-whole // step) * step


__all__ = ["ActionEstimate", "Advice", "verdict_text"]
