"""Which discard principle a throw follows or breaks (the practice table's review and the
advisor): the rule set of ``analyzer how-to-discard``
(:mod:`analyzer.gin.decisions.principles`, the ``principles`` preset) read on a
:class:`Position`.

Each throw of an unmatched card gets the rule's value: its points, less ``out_points``
for each unseen card that would make a meld with it and another card held (not late in
the hand), less ``feed_points`` when the opponent could use it; the rule throws the
unmatched card of highest value.  :func:`principle_note` says, for one throw, that it is
the rule's, or which principle makes the rule prefer another card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....core.cards import CARD_POINTS, format_card, parse_card
from ...decisions.principles import counted_outs, feeds, throw_value
from ...model.policies import PRESETS, Policy
from .position import Position, _deadwood_after_each_discard, card_mask


@dataclass(frozen=True)
class ThrowValue:
    """How the rule set sees throwing ``card`` (points)."""

    card: int
    unmatched: bool
    """Outside every best arrangement of the 11 cards (throwing it breaks no meld)."""
    points: int
    live_outs: tuple[int, ...]
    """Unseen cards that would make a meld with it and another card held (counted
    unless the hand is late)."""
    fed: tuple[int, ...]
    """Cards the opponent took and holds that it would join (rank or within two ranks)."""
    value: int


def throw_values(position: Position, policy: Policy | None = None) -> dict[int, ThrowValue]:
    """The rule set's view of every allowed throw of ``position`` (``policy``: a
    ``principles`` policy, the preset by default), by card, valued as the discard's
    kernel values them (:func:`~analyzer.gin.decisions.principles.throw_value`)."""
    row = (policy or PRESETS["principles"]).to_array()
    after = _deadwood_after_each_discard(position)
    least = min(after[card] + int(CARD_POINTS[card]) for card in after)
    hand = np.int64(card_mask(position.hand))
    unseen = np.int64(card_mask(position.unseen))
    held = np.int64(card_mask(position.known_opp_cards))
    stock = np.int64(position.stock or 0)
    values = {}
    for card, left in after.items():
        index = np.int64(card)
        counted = int(counted_outs(index, hand, unseen, stock, row))
        values[card] = ThrowValue(
            card,
            left + int(CARD_POINTS[card]) == least,
            int(CARD_POINTS[card]),
            tuple(c for c in range(52) if counted >> c & 1),
            tuple(c for c in position.known_opp_cards if feeds(index, np.int64(1 << c))),
            int(throw_value(index, hand, unseen, held, stock, row)),
        )
    return values


def rule_throw(values: dict[int, ThrowValue]) -> int:
    """The card the rule set throws: the unmatched card of highest value (ties to the
    higher points, rank, card index)."""
    unmatched = [v for v in values.values() if v.unmatched] or list(values.values())
    best = max(unmatched, key=lambda v: (v.value, v.points, v.card % 13, v.card))
    return best.card


def _count(cards: tuple[int, ...]) -> str:
    return "none" if not cards else f"{len(cards)} unseen card{'s' if len(cards) > 1 else ''}"


def _cards(cards: tuple[int, ...], symbols: bool) -> str:
    return " ".join(format_card(card, symbols) for card in cards)


def principle_note(position: Position, card: int, symbols: bool = False) -> str:
    """The discard principle throwing ``card`` follows or breaks, in a sentence."""
    values = throw_values(position)
    if card not in values:
        raise ValueError(f"{format_card(card)} is not a card this position may throw")
    chosen, ruled = values[card], values[rule_throw(values)]
    name = format_card(card, symbols)
    if chosen.card == ruled.card:
        return f"Follows the discard principles: {name} is the unmatched card worth most."
    other = format_card(ruled.card, symbols)
    if not chosen.unmatched:
        return f"Breaks a meld: the discard principles throw an unmatched card ({other})."
    reasons = []
    if len(chosen.live_outs) > len(ruled.live_outs):
        reasons.append(
            f"keep the cards that can still make melds ({name} had "
            f"{_count(chosen.live_outs)} that would make a meld with it, "
            f"{_cards(chosen.live_outs, symbols)}; {other} had {_count(ruled.live_outs)})"
        )
    if chosen.fed and not ruled.fed:
        reasons.append(
            f"don't feed your opponent ({name} is next to or of the rank of "
            f"{_cards(chosen.fed, symbols)}, which your opponent took)"
        )
    if not reasons:
        reasons.append(f"throw the highest card ({other} is worth {ruled.points} points)")
    return f"The discard principles throw {other} instead: " + "; ".join(reasons) + "."


def discard_note(position: Position, action: str, symbols: bool = False) -> str | None:
    """For an action name (``play Kd``, ``knock Kd``...): when it plays on, the discard
    principle its throw follows or breaks (:func:`principle_note`); else None."""
    verb, _, card = action.partition(" ")
    return principle_note(position, parse_card(card), symbols) if verb == "play" else None


def best_discard_note(position: Position, best: str, symbols: bool = False) -> str | None:
    """For the advisor's best action ``best``: when it plays on, the discard principle its
    throw follows or breaks, in a sentence that names it; else None."""
    note = discard_note(position, best, symbols)
    if note is None:
        return None
    shown = format_card(parse_card(best.partition(" ")[2]), symbols)
    return (
        f"The best discard, {shown}, by the principles of how-to-discard: "
        f"{note[0].lower()}{note[1:]}"
    )


__all__ = [
    "ThrowValue",
    "best_discard_note",
    "discard_note",
    "principle_note",
    "rule_throw",
    "throw_values",
]
