"""What an answer gains over the rule a player already follows, and choices between two
rules made only outside the noise.

* :class:`NaiveGain`: an answer's gain over its naive rule (knock as soon as you can;
  throw your highest unmatched card; take the upcard only when it completes a meld),
  paired on the same deals against the same opponents, ready for an answer's JSON
  (``{"rule": ..., "gain": {"mean": ..., "ci95": [low, high]}}``).
* :class:`RuleChoice`: one rule is preferred to another (on average, or in its worst
  case) only where their paired difference excludes 0; otherwise the choice is too close
  to call and the simpler rule is kept, and the choice says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.stats import Estimate

#: What "too close to call" means, in a sentence an answer can print.
TOO_CLOSE = "too close to call: the 95% interval of their paired difference holds 0"


@dataclass(frozen=True)
class NaiveGain:
    """An answer's rule against the naive rule a player already follows."""

    rule: str
    """The naive rule in a player's words (``knock as soon as you can``)."""
    gain: Estimate
    """Points per hand of the answer's rule minus the naive rule's, paired deal by deal."""

    def as_dict(self) -> dict[str, Any]:
        """``{"rule": ..., "gain": {"mean": ..., "ci95": [low, high]}}``."""
        return {"rule": self.rule, "gain": self.gain.as_dict()}


@dataclass(frozen=True)
class RuleChoice:
    """The choice between two rules by one criterion (``by``), from their paired
    difference (``first`` minus ``second``, points per hand).  Each rule's *size* is how
    many parts its words have (fewer: simpler); on a tie the first is the simpler."""

    first: str
    second: str
    by: str
    """The criterion, in words: ``on average over the test opponents``, ``in its worst
    case``."""
    difference: Estimate
    """``first`` minus ``second`` by the criterion, paired on common deals."""
    first_size: int
    second_size: int
    detail: str = ""
    """What the difference compares, when the criterion needs saying (the worst cases'
    opponents)."""

    @property
    def decided(self) -> bool:
        """Whether the difference's 95% interval excludes 0."""
        return self.difference.low > 0 or self.difference.high < 0

    @property
    def simpler(self) -> str:
        return self.second if self.second_size < self.first_size else self.first

    @property
    def kept(self) -> str:
        """The rule preferred: the better one when decided, else the simpler."""
        if not self.decided:
            return self.simpler
        return self.first if self.difference.mean > 0 else self.second

    def text(self) -> str:
        """The choice in a sentence, with the paired difference (x ± h)."""
        difference = (
            f"{self.difference.mean:+.2f} ± {self.difference.half_width:.2f} points per hand "
            f'for "{self.first}" against "{self.second}"'
        )
        detail = f" ({self.detail})" if self.detail else ""
        if self.decided:
            return (
                f'{self.by[0].upper()}{self.by[1:]}, "{self.kept}" is better: {difference}'
                f"{detail}, paired on the same deals."
            )
        return (
            f"{self.by[0].upper()}{self.by[1:]}, the two rules are {TOO_CLOSE} "
            f'({difference}{detail}), so the simpler one is kept: "{self.kept}".'
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "by": self.by,
            "difference": self.difference.as_dict(),
            "decided": self.decided,
            "kept": self.kept,
            "text": self.text(),
        }


__all__ = ["TOO_CLOSE", "NaiveGain", "RuleChoice"]
