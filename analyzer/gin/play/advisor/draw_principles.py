"""Which draw principle a draw follows or breaks (the practice table's review and the
advisor): the rule set of ``analyzer how-to-draw``
(:mod:`analyzer.gin.decisions.draw_principles`, the ``draw-principles`` preset) read on a
:class:`Position`.

A position holds the 11 cards after the draw, so it tells the draw that was made: with
``from_pile`` the face-up card ``drawn`` was taken; else the card on top of the pile was
left there, and the hand held before the draw is known when ``drawn`` is given.  The rule
takes the face-up card when it fits a meld of a best arrangement, or when its gain (the
deadwood it takes off after the best throw, counting its outs) reaches ``take_points``;
:func:`draw_note` says, for the draw made, that it is the rule's, or which principle
would have drawn otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....core.cards import format_card
from ...decisions.draw_principles import take_gain
from ...decisions.principles import outs_counted
from ...evaluator.partition import melds_card_kernel, min_deadwood_kernel
from ...model.policies import PRESETS, Policy
from ...model.policy_fields import PolicyField
from .position import Position, card_mask


@dataclass(frozen=True)
class DrawReading:
    """How the rule set sees the draw a position tells (cards as indices, points)."""

    hand: tuple[int, ...]
    """The 10 cards held before the draw."""
    upcard: int
    """The face-up card offered."""
    took: bool
    """Whether the player took it."""
    melds: bool
    """Some best arrangement of the 10 cards and the upcard melds it."""
    gain: int
    """The rule's gain of taking it (points; see :func:`take_gain`)."""
    deadwood_off: int
    """Deadwood the take and the best throw take off (points, may be below 0)."""
    throw: int
    """The throw after the take that gives the gain."""
    outs: tuple[int, ...]
    """The upcard's outs the rule counts (kept after that throw)."""
    throw_outs: tuple[int, ...]
    """The outs of the card thrown that the rule counts."""
    take_points: int
    """The rule's threshold (points; 0: it takes only melding cards)."""
    takes: bool
    """Whether the rule takes it."""


def _cards(mask: np.int64) -> tuple[int, ...]:
    return tuple(c for c in range(52) if int(mask) >> c & 1)


def draw_reading(position: Position, policy: Policy | None = None) -> DrawReading | None:
    """The rule set's view of the draw ``position`` tells (``policy``: a ``principles``
    draw, the ``draw-principles`` preset by default); None when the position does not tell
    it: a stock draw whose card is not named, or no pile card given."""
    rule = policy or PRESETS["draw-principles"]
    row = rule.to_array()
    if position.drawn is None or (not position.from_pile and not position.pile):
        return None
    hand = card_mask(position.hand) & ~(1 << position.drawn)
    unseen = card_mask(position.unseen)
    stock = position.stock or 0
    if position.from_pile:
        upcard = position.drawn
    else:  # the card drawn was unseen when the player chose, and the stock one card longer
        upcard = position.pile[-1]
        unseen |= 1 << position.drawn
        stock += 1
    hand64, upcard64, unseen64 = np.int64(hand), np.int64(upcard), np.int64(unseen)
    scratch = np.zeros(52, dtype=np.int64)
    gain, throw = take_gain(hand64, upcard64, unseen64, np.int64(stock), row, scratch)
    kept = np.int64(hand | 1 << upcard) & ~(np.int64(1) << throw)
    melds = bool(melds_card_kernel(np.int64(hand | 1 << upcard), upcard64))
    draw = rule.draw

    def counted(card: np.int64, held: np.int64) -> np.int64:
        return outs_counted(
            card,
            held,
            unseen64,
            np.int64(stock),
            row[PolicyField.TAKE_OUT_POINTS],
            row[PolicyField.TAKE_LIVE_ONLY],
            row[PolicyField.TAKE_LATE_STOCK],
        )

    return DrawReading(
        hand=_cards(hand64),
        upcard=upcard,
        took=position.from_pile,
        melds=melds,
        gain=int(gain),
        deadwood_off=int(min_deadwood_kernel(hand64)) - int(min_deadwood_kernel(kept)),
        throw=int(throw),
        outs=_cards(counted(upcard64, kept) & ~(np.int64(1) << throw)),
        throw_outs=_cards(counted(np.int64(throw), hand64)),
        take_points=draw.take_points,
        takes=(draw.take_melds and melds) or bool(0 < draw.take_points <= gain),
    )


def _reason(reading: DrawReading, symbols: bool) -> str:
    """Why the rule takes the upcard, or why it does not."""
    card = format_card(reading.upcard, symbols)
    if reading.melds:
        return f"{card} makes a meld with cards you hold"
    if not reading.take_points:
        return f"{card} makes no meld, and the rule takes only cards that do"
    thrown = format_card(reading.throw, symbols)
    counted = reading.gain - reading.deadwood_off
    outs = f", {counted:+d} for the cards that would make a meld with it" if counted else ""
    verdict = "at least" if reading.takes else "less than"
    return (
        f"{card} makes no meld; taking it and throwing {thrown} takes "
        f"{reading.deadwood_off} points off your deadwood{outs}: {reading.gain} points, "
        f"{verdict} the {reading.take_points} the rule asks"
    )


def draw_note(position: Position, symbols: bool = False) -> str | None:
    """The draw principle the draw ``position`` tells follows or breaks, in a sentence;
    None when the position does not tell the draw (:func:`draw_reading`)."""
    reading = draw_reading(position)
    if reading is None:
        return None
    card = format_card(reading.upcard, symbols)
    move = f"took {card}" if reading.took else f"left {card} and drew from the stock"
    if reading.took == reading.takes:
        return f"Follows the draw principles: you {move}; {_reason(reading, symbols)}."
    should = f"take {card}" if reading.takes else "draw from the stock"
    return f"Breaks the draw principles: you {move}; they {should}: {_reason(reading, symbols)}."


__all__ = ["DrawReading", "draw_note", "draw_reading"]
