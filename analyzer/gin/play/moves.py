"""A move of gin rummy as a value: what :class:`~analyzer.gin.play.hand.Hand` lists, plays
and reports (the web table, the bridges and the replay name moves this way)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.arrays import Int64s
from ...core.cards import check_card, format_card
from ..model.state import Phase, Slot

MOVE_KINDS = ("pass", "take", "draw", "discard", "knock", "big_gin", "end")


@dataclass(frozen=True)
class Move:
    """One move of the player to move: ``kind`` (one of :data:`MOVE_KINDS`) and, for
    ``discard`` and ``knock``, the card thrown (card index)."""

    kind: str
    card: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MOVE_KINDS:
            raise ValueError(f"unknown move {self.kind!r}; moves: {', '.join(MOVE_KINDS)}")
        if (self.kind in ("discard", "knock")) != (self.card is not None):
            raise ValueError(
                f"a {self.kind} move {'needs' if self.card is None else 'takes no'} card"
            )
        if self.card is not None:  # a plain int: equal moves hash alike
            object.__setattr__(self, "card", check_card(self.card))

    def __str__(self) -> str:
        return self.kind if self.card is None else f"{self.kind} {format_card(self.card)}"


def move_between(before: Int64s, after: Int64s) -> Move:
    """The move that took the state ``before`` to ``after`` (one :func:`step`)."""
    phase = before[Slot.PHASE]
    if phase == Phase.DRAW and after[Slot.PHASE] == Phase.DONE:
        return Move("end")
    if phase == Phase.OFFER:
        return Move("take") if after[Slot.TAKEN] >= 0 else Move("pass")
    if phase == Phase.DRAW:
        return Move("take") if after[Slot.TAKEN] >= 0 else Move("draw")
    if after[Slot.PILE_LEN] == before[Slot.PILE_LEN]:
        return Move("big_gin")
    card = int(after[Slot.PILE + after[Slot.PILE_LEN] - 1])
    return Move("knock", card) if after[Slot.PHASE] == Phase.DONE else Move("discard", card)
