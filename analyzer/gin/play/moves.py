"""A move of gin rummy as a value: what :class:`~analyzer.gin.play.hand.Hand` lists, plays
and reports (the web table, the bridges and the replay name moves this way)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import check_card, format_card

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
