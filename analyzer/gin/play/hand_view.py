"""What a :class:`~analyzer.gin.play.hand.Hand` shows: the read-only side of its state
array (phase, cards, pile, counters, knowledge slots, scores, the result), apart from the
moves that change it."""

from __future__ import annotations

import numpy as np

from ...core.arrays import Int64s
from ...core.cards import to_indices
from ..engine.transitions import OUTCOME_NAMES, Phase, Slot, stock_left
from ..evaluator.partition import min_deadwood_kernel
from .hand_inputs import check_seat

_PHASE_NAMES = {
    Phase.OFFER: "offer",
    Phase.DRAW: "draw",
    Phase.DISCARD: "discard",
    Phase.DONE: "done",
}


def _mask_cards(mask: int) -> tuple[int, ...]:
    return tuple(to_indices(mask))


class HandView:
    """The reading half of :class:`~analyzer.gin.play.hand.Hand`: every property reads
    ``state`` (the engine's state array) and nothing here writes it."""

    state: Int64s

    @property
    def phase(self) -> str:
        """``offer``, ``draw``, ``discard`` or ``done``."""
        return _PHASE_NAMES[Phase(int(self.state[Slot.PHASE]))]

    @property
    def to_move(self) -> int:
        return int(self.state[Slot.TURN])

    @property
    def dealer(self) -> int:
        return int(self.state[Slot.DEALER])

    def cards(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards (in a view of the other seat: those known to be there)."""
        return _mask_cards(self.hand_mask(seat))

    def hand_mask(self, seat: int) -> int:
        return int(self.state[Slot.HAND + check_seat(seat, "seat")])

    @property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, bottom first."""
        return tuple(int(c) for c in self.state[Slot.PILE : Slot.PILE + self.state[Slot.PILE_LEN]])

    @property
    def pile_top(self) -> int | None:
        pile = self.pile
        return pile[-1] if pile else None

    @property
    def upcard(self) -> int | None:
        card = int(self.state[Slot.UPCARD])
        return None if card < 0 else card

    @property
    def stock_left(self) -> int:
        return int(stock_left(self.state))

    @property
    def last_stock_card(self) -> int | None:
        """The card most recently drawn from the stock (None when unseen or none yet)."""
        position = int(self.state[Slot.STOCK_POS]) - 1
        card = int(self.state[Slot.DECK + position]) if position >= 21 else -1
        return None if card < 0 else card

    @property
    def taken(self) -> int | None:
        """The card taken from the pile this turn (it may not be thrown back)."""
        card = int(self.state[Slot.TAKEN])
        return None if card < 0 else card

    @property
    def draws(self) -> int:
        return int(self.state[Slot.DRAWS])

    @property
    def offers(self) -> int:
        """Upcard offers refused so far (0-2)."""
        return int(self.state[Slot.OFFERS])

    def own_turns(self, seat: int) -> int:
        """``seat``'s draws this hand (its turn number)."""
        return int(self.state[Slot.OWN_TURNS + check_seat(seat, "seat")])

    def took(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` took from the pile."""
        return _mask_cards(int(self.state[Slot.TOOK + check_seat(seat, "seat")]))

    def threw(self, seat: int) -> tuple[int, ...]:
        return _mask_cards(int(self.state[Slot.THREW + check_seat(seat, "seat")]))

    def held(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` took from the pile and still holds (public)."""
        return _mask_cards(int(self.state[Slot.HELD + check_seat(seat, "seat")]))

    def refused(self, seat: int) -> tuple[int, ...]:
        return _mask_cards(int(self.state[Slot.REFUSED + check_seat(seat, "seat")]))

    @property
    def knock_limit(self) -> int:
        """Most deadwood (points) a knock may keep in this hand."""
        return int(self.state[Slot.KNOCK_LIMIT])

    @property
    def multiplier(self) -> int:
        return int(self.state[Slot.MULTIPLIER])

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.state[Slot.SCORE]), int(self.state[Slot.SCORE + 1])

    @property
    def races(self) -> tuple[int, int]:
        """Each seat's read of its opponent: in how many earlier hands of the game the
        opponent raced (:func:`analyzer.gin.model.knowledge.outraced`), as a game sets it
        (policies with ``knock_racer`` or ``discard_racer`` play differently above 0)."""
        return int(self.state[Slot.RACES]), int(self.state[Slot.RACES + 1])

    def deadwood(self, seat: int) -> int:
        """Least deadwood (points) of ``seat``'s cards."""
        return int(min_deadwood_kernel(np.int64(self.hand_mask(seat))))

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def result(self) -> dict[str, int | str | None]:
        """How a finished hand ended: outcome, winner (None: nobody), points (after the
        multiplier), knocker and both deadwoods (None when there was no knock)."""
        if not self.done:
            raise ValueError("the hand is not over")
        state = self.state
        knocker = int(state[Slot.KNOCKER])
        winner = int(state[Slot.WINNER])
        return {
            "outcome": OUTCOME_NAMES[int(state[Slot.OUTCOME])],
            "winner": None if winner < 0 else winner,
            "points": int(state[Slot.POINTS]),
            "knocker": None if knocker < 0 else knocker,
            "knocker_deadwood": int(state[Slot.KNOCKER_DEADWOOD]) if knocker >= 0 else None,
            "defender_deadwood": int(state[Slot.DEFENDER_DEADWOOD]) if knocker >= 0 else None,
        }


__all__ = ["HandView"]
