"""A move of plain rummy as a value: what :class:`~analyzer.rummy.hand.Hand` lists, plays
and reports, and the moves between two states of a hand.

>>> str(Move.parse("meld 6c 4c 5c")), str(Move("layoff", (parse_card("8s"),), 2))
('meld 4c 5c 6c', 'layoff 8s 2')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.arrays import Int64s
from ..core.cards import format_card, parse_card, to_indices
from .actions import Kind
from .state import Phase, Slot

#: The kinds of move (:class:`~analyzer.rummy.actions.Kind`, lower case).
MOVE_KINDS = tuple(kind.name.lower() for kind in Kind)


@dataclass(frozen=True)
class Move:
    """One move of the seat to move: ``kind`` (:data:`MOVE_KINDS`), the ``cards`` it
    moves (the meld, or the one card laid off or thrown) and, for a layoff, the index
    of the table ``meld`` it goes onto (as :attr:`Hand.melds` lists them)."""

    kind: str
    cards: tuple[int, ...] = ()
    meld: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MOVE_KINDS:
            raise ValueError(f"unknown move {self.kind!r}; moves: {', '.join(MOVE_KINDS)}")
        wanted = {"meld": (3, 4, 13), "layoff": (1, 1, 1), "discard": (1, 1, 1)}
        low, _, high = wanted.get(self.kind, (0, 0, 0))
        if not low <= len(self.cards) <= high:
            raise ValueError(f"a {self.kind} move takes {low}-{high} cards, got {len(self.cards)}")
        if (self.kind == "layoff") != (self.meld is not None):
            raise ValueError("a layoff names the table meld it goes onto, and only a layoff")
        object.__setattr__(self, "cards", tuple(sorted(int(c) for c in self.cards)))

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from its text (:meth:`__str__`): ``draw``, ``take``, ``meld 4c 5c 6c``,
        ``layoff 8s 2``, ``discard Kd``, ``call``, ``pass``."""
        words = text.split()
        if not words:
            raise ValueError("empty move")
        kind, rest = words[0].lower(), words[1:]
        if kind == "layoff":
            if len(rest) != 2 or not rest[1].isdigit():
                raise ValueError(
                    f"a layoff is 'layoff CARD MELD', e.g. 'layoff 8s 2', got {text!r}"
                )
            return cls(kind, (parse_card(rest[0]),), int(rest[1]))
        return cls(kind, tuple(parse_card(token) for token in rest))

    def __str__(self) -> str:
        words = [self.kind, *(format_card(c) for c in self.cards)]
        if self.meld is not None:
            words.append(str(self.meld))
        return " ".join(words)

    def row(self) -> tuple[int, int, int]:
        """The kernel's move row ``(kind, cards, meld)`` (:mod:`analyzer.rummy.actions`)."""
        mask = sum(1 << c for c in self.cards)
        return MOVE_KINDS.index(self.kind), mask, -1 if self.meld is None else self.meld

    @classmethod
    def from_row(cls, row: Sequence[int]) -> Move:
        kind = MOVE_KINDS[int(row[0])]
        meld = int(row[2]) if kind == "layoff" else None
        return cls(kind, tuple(to_indices(int(row[1]))), meld)


def moves_between(before: Int64s, after: Int64s) -> list[Move]:
    """The moves of one phase that took the state ``before`` to ``after``: the draw; the
    layoffs (each run's cards in the order they extend it), then the melds, then the
    throw (an order in which each move is legal); the call or the pass."""
    phase = int(before[Slot.PHASE])
    if phase == Phase.DRAW:
        return [Move("take" if after[Slot.TAKEN] >= 0 else "draw")]
    if phase == Phase.CALL:
        return [Move("call" if after[Slot.CALLS] > before[Slot.CALLS] else "pass")]
    moves = []
    n_before, n_after = int(before[Slot.N_MELDS]), int(after[Slot.N_MELDS])
    for m in range(n_before):
        old = int(before[Slot.MELDS + m])
        added = to_indices(int(after[Slot.MELDS + m]) & ~old)
        low = min(to_indices(old))
        # below the run (or a set's fourth card) downwards, then above it upwards
        below = sorted((c for c in added if c < low), reverse=True)
        moves += [Move("layoff", (c,), m) for c in below + [c for c in added if c > low]]
    moves += [
        Move("meld", tuple(to_indices(int(after[Slot.MELDS + m]))))
        for m in range(n_before, n_after)
    ]
    if after[Slot.PILE_LEN] > before[Slot.PILE_LEN]:
        moves.append(Move("discard", (int(after[Slot.PILE + after[Slot.PILE_LEN] - 1]),)))
    return moves


__all__ = ["MOVE_KINDS", "Move", "moves_between"]
