"""A game played hand by hand from Python (the practice table): :class:`Game` keeps the
score, the dealer and each seat's read of its opponent across
:class:`~analyzer.gin.play.hand.Hand` objects, with the same kernel as the game simulator
(:func:`analyzer.gin.play.game_score.score_hand`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..model.policies import Policy
from ..model.rules import Rules
from .game_score import COLUMNS, GAME_SIZE, GameSlot, new_game, score_hand
from .hand import Hand

__all__ = ["Game"]

#: The target of a series of single hands: never reached.
_NO_TARGET = 2**62


class Game:
    """A game played hand by hand from Python: deal each :class:`~analyzer.gin.play.hand.Hand`
    with :attr:`dealer`, :attr:`scores` and :attr:`races`, play it, then :meth:`record` it.

    ``single_column``: score one column even under Hollywood rules (the practice table
    shows one score); ``to_target``: False for a series of single hands, whose scores
    add up without end.  Scores are in points.
    """

    def __init__(
        self,
        rules: Rules,
        first_dealer: int = 0,
        single_column: bool = False,
        to_target: bool = True,
    ) -> None:
        if first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be 0 or 1, got {first_dealer!r}")
        self.rules = rules
        self._rules_array = rules.to_array()
        self.array = np.zeros(GAME_SIZE, dtype=np.int64)
        columns = 1 if single_column or not rules.hollywood else COLUMNS
        target = rules.target if to_target else _NO_TARGET
        new_game(
            self.array,
            np.int64(first_dealer),
            np.zeros(4, dtype=np.int64),
            np.int64(columns),
            np.int64(target),
        )

    def record(self, hand: Hand, policies: Sequence[Policy]) -> None:
        """Apply a finished ``hand`` to the game; ``policies``: the policy each seat's
        read of its opponent is judged by (its knock tables; a person's seat may take
        the computer's)."""
        if self.over:
            raise ValueError("the game is over: start a new game")
        if not hand.done:
            raise ValueError("the hand is not over yet")
        if len(policies) != 2:
            raise ValueError(f"one policy per seat, got {len(policies)}")
        rows = np.stack([policy.to_array() for policy in policies])
        score_hand(self.array, hand.state, rows, self._rules_array)

    def _slot(self, slot: GameSlot, seat: int) -> int:
        return int(self.array[slot + seat])

    @property
    def scores(self) -> tuple[int, int]:
        """Each seat's points in the first column (before end-of-game bonuses)."""
        return self._slot(GameSlot.SCORE, 0), self._slot(GameSlot.SCORE, 1)

    @property
    def boxes(self) -> tuple[int, int]:
        """Hands each seat won in the first column."""
        return self._slot(GameSlot.BOXES, 0), self._slot(GameSlot.BOXES, 1)

    @property
    def races(self) -> tuple[int, int]:
        """Each seat's read of its opponent: the earlier hands that showed it a racer."""
        return self._slot(GameSlot.RACES, 0), self._slot(GameSlot.RACES, 1)

    @property
    def dealer(self) -> int:
        """The seat that deals the next hand."""
        return int(self.array[GameSlot.DEALER])

    @property
    def hands(self) -> int:
        """Hands recorded, drawn hands included."""
        return int(self.array[GameSlot.HANDS])

    @property
    def over(self) -> bool:
        """Whether every score column has closed."""
        return bool(self.array[GameSlot.OPEN_COLUMNS] == 0)

    @property
    def winner(self) -> int | None:
        """The winner of the column closed last (the game, with one column)."""
        seat = int(self.array[GameSlot.LAST_WINNER])
        return None if seat < 0 else seat

    @property
    def totals(self) -> tuple[int, int]:
        """Grand totals (points, bonuses included) over the closed columns."""
        return self._slot(GameSlot.TOTAL, 0), self._slot(GameSlot.TOTAL, 1)

    @property
    def shutouts(self) -> int:
        """Closed columns whose loser won no hand."""
        return int(self.array[GameSlot.SHUTOUTS])
