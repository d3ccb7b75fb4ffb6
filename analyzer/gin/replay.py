"""Watch one hand: the engine stepped decision by decision, every event recorded.

:func:`replay` deals deal ``deal`` of a :func:`~analyzer.gin.simulate.simulate` run with
seed ``seed`` (or a given deck order), then calls the engine's own
:func:`~analyzer.gin.engine.step` kernel once per decision, so the hand is exactly the one
the simulator plays; after each step it compares the state with the one before to name
what happened (upcard passed or taken, draw, discard, knock, gin).  At the end it shows
the knocker's melds, the defender's melds and layoffs, and the score.

>>> hand = replay(seed=1, deal=0)
>>> hand.events[0].action in ("passes upcard", "takes upcard")
True
>>> list(hand.to_frame().columns)[:4]
['step', 'player', 'action', 'card']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..core.cards import format_card, format_hand, parse_hand, to_mask
from ..core.rng import POLICY_SALT, shuffle_deck, stream_key
from .engine import (
    OUTCOME_NAMES,
    Phase,
    Slot,
    deck_order,
    new_hand,
    new_scratch,
    new_state,
    step,
    stock_left,
)
from .evaluator import best_discard, best_melds, min_deadwood
from .policies import PRESETS as POLICY_PRESETS
from .policies import Policy, policy_name
from .rules import STANDARD, Rules

SEATS = ("A", "B")


@dataclass(frozen=True)
class Event:
    """One decision of a hand (cards in the notation of :mod:`analyzer.core.cards`)."""

    step: int
    """Decision number, from 1."""
    player: str
    """``A`` (seat 0) or ``B``."""
    action: str
    """``passes upcard``, ``takes upcard``, ``draws stock``, ``takes pile``,
    ``discards``, ``knocks``, ``gin``, ``big gin`` or ``dead hand``."""
    card: str
    """The card taken, drawn or thrown ('' when none)."""
    hand: str
    """The player's cards after the action."""
    deadwood: int
    """Least deadwood (points) of those cards (with 11 cards: after the best discard)."""
    stock: int
    """Cards left in the stock."""


@dataclass
class HandReplay:
    """A hand played out: its deal, every decision and the result."""

    rules: Rules
    policy_a: Policy
    policy_b: Policy
    dealer: str
    start_a: str
    start_b: str
    upcard: str
    events: list[Event] = field(default_factory=list)
    outcome: str = ""
    """``knock``, ``gin``, ``big_gin``, ``undercut``, ``draw`` or ``tie``."""
    winner: str = ""
    """``A``, ``B`` or ``''`` (no one)."""
    points: int = 0
    """Points scored by the winner (multiplier included)."""
    points_a: int = 0
    """Points to A (negative when B scores)."""
    knocker: str = ""
    knocker_melds: list[str] = field(default_factory=list)
    knocker_deadwood: int = 0
    defender_melds: list[str] = field(default_factory=list)
    layoffs: str = ""
    """Defender cards laid off on the knocker's melds."""
    defender_deadwood: int = 0
    seed: int | None = None
    deal: int | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per decision (the columns of :class:`Event`)."""
        return pd.DataFrame([asdict(e) for e in self.events],
                            columns=[f for f in Event.__dataclass_fields__])

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON-ready values."""
        data = asdict(self)
        data["rules"] = self.rules.describe()
        data["policy_a"], data["policy_b"] = policy_name(self.policy_a), policy_name(self.policy_b)
        return data

    def summary(self) -> str:
        """The result in one line."""
        if not self.winner:
            return f"{self.outcome}: no score"
        how = {"undercut": f"undercuts {self.knocker}", "knock": "knocks", "gin": "goes gin",
               "big_gin": "goes big gin"}[self.outcome]
        return (f"{self.winner} {how} and scores {self.points} points "
                f"(deadwood {self.knocker} {self.knocker_deadwood}, "
                f"defender {self.defender_deadwood})")


def _deadwood(hand: int) -> int:
    if hand.bit_count() == 11:
        return best_discard(hand).deadwood
    return min_deadwood(hand)


def _describe(before: npt.NDArray[np.int64], after: npt.NDArray[np.int64]) -> tuple[str, str]:
    """(action, card) of the decision that took ``before`` to ``after``."""
    player = int(before[Slot.TURN])
    phase = int(before[Slot.PHASE])
    held, now = int(before[Slot.HAND + player]), int(after[Slot.HAND + player])
    gained, lost = now & ~held, held & ~now
    if phase == Phase.OFFER:
        top = format_card(int(before[Slot.PILE + before[Slot.PILE_LEN] - 1]))
        return ("takes upcard", top) if gained else ("passes upcard", top)
    if phase == Phase.DRAW:
        if not gained:
            return "dead hand", ""
        return ("takes pile" if after[Slot.TAKEN] >= 0 else "draws stock",
                format_card(gained.bit_length() - 1))
    if not lost:
        return "big gin", ""
    card = format_card(lost.bit_length() - 1)
    if after[Slot.PHASE] == Phase.DONE and after[Slot.KNOCKER] == player:
        return ("gin" if after[Slot.KNOCKER_DEADWOOD] == 0 else "knocks"), card
    return "discards", card


def _layoffs(defender: int, knocker_melded: int, target: int) -> tuple[int, int]:
    """(cards laid off, cards the defender melds) reaching ``target`` deadwood: the fewest
    defender cards that meld with the knocker's melded cards and leave ``target``."""
    candidates = [c for c in range(52) if defender >> c & 1
                  and min_deadwood(knocker_melded | 1 << c) < min_deadwood(knocker_melded)
                  + min_deadwood(1 << c)]
    for size in range(len(candidates) + 1):
        for chosen in combinations(candidates, size):
            mask = sum(1 << c for c in chosen)
            if (min_deadwood(knocker_melded | mask) == 0
                    and min_deadwood(defender & ~mask) == target):
                return mask, defender & ~mask
    return 0, defender


def replay(rules: Rules = STANDARD, policy_a: Policy = POLICY_PRESETS["basic"],
           policy_b: Policy = POLICY_PRESETS["basic"], seed: int = 1, deal: int = 0,
           a_dealer: bool = False, deck: npt.ArrayLike | None = None) -> HandReplay:
    """Play one hand decision by decision and record it.

    Parameters
    ----------
    rules, policy_a, policy_b
        The rules and the policies of A (seat 0) and B.
    seed, deal : int
        Which deal: deal ``deal`` of a run with ``seed``, the same cards and the same
        random choices as :func:`~analyzer.gin.simulate.simulate` plays.
    a_dealer : bool
        Whether A deals (simulate plays every deal both ways).
    deck : array of 52 card indices, optional
        A deck order to deal instead (see :func:`~analyzer.gin.engine.deck_order`).

    Returns
    -------
    HandReplay
    """
    rules_array = rules.to_array()
    policies = np.stack([policy_a.to_array(), policy_b.to_array()])
    rng = np.zeros(1, dtype=np.uint64)
    if deck is None:
        cards = np.empty(52, dtype=np.int8)
        rng[0] = stream_key(np.int64(seed), np.int64(deal))
        shuffle_deck(rng, cards)
    else:
        cards = np.asarray(deck, dtype=np.int8)
        if sorted(cards.tolist()) != list(range(52)):
            raise ValueError("a deck must hold each of the 52 cards once")
    rng[0] = stream_key(np.int64(seed) ^ POLICY_SALT, np.int64(deal))
    state = new_state()
    dealer = 0 if a_dealer else 1
    new_hand(state, cards, np.int64(dealer), rules_array)
    upcard = int(state[Slot.UPCARD])
    result = HandReplay(rules, policy_a, policy_b, SEATS[dealer],
                        format_hand(int(state[Slot.HAND])), format_hand(int(state[Slot.HAND + 1])),
                        format_card(upcard) if upcard >= 0 else "",
                        seed=seed if deck is None else None, deal=deal if deck is None else None)
    scratch = new_scratch()
    while state[Slot.PHASE] != Phase.DONE:
        before = state.copy()
        step(state, rules_array, policies, rng, scratch)
        player = int(before[Slot.TURN])
        action, card = _describe(before, state)
        hand = int(state[Slot.HAND + player])
        result.events.append(Event(len(result.events) + 1, SEATS[player], action, card,
                                   format_hand(hand), _deadwood(hand), int(stock_left(state))))
    _score(result, state)
    return result


def _score(result: HandReplay, state: npt.NDArray[np.int64]) -> None:
    """Fill the result fields of ``result`` from the final ``state``."""
    result.outcome = OUTCOME_NAMES[int(state[Slot.OUTCOME])]
    winner = int(state[Slot.WINNER])
    result.winner = SEATS[winner] if winner >= 0 else ""
    result.points = int(state[Slot.POINTS])
    result.points_a = 0 if winner < 0 else (result.points if winner == 0 else -result.points)
    knocker = int(state[Slot.KNOCKER])
    if knocker < 0:
        return
    result.knocker = SEATS[knocker]
    knocker_hand = int(state[Slot.HAND + knocker])
    arrangement = best_melds(knocker_hand)
    result.knocker_melds = [format_hand(m) for m in arrangement.melds]
    result.knocker_deadwood = int(state[Slot.KNOCKER_DEADWOOD])
    result.defender_deadwood = int(state[Slot.DEFENDER_DEADWOOD])
    defender = int(state[Slot.HAND + 1 - knocker])
    laid = 0
    if result.outcome in ("knock", "undercut", "tie"):
        laid, defender = _layoffs(defender, knocker_hand & ~arrangement.deadwood_cards,
                                  result.defender_deadwood)
    result.layoffs = format_hand(laid) if laid else ""
    result.defender_melds = [format_hand(m) for m in best_melds(defender).melds]


def parse_deck(text: str) -> npt.NDArray[np.int8]:
    """A deck order from notation: all 52 cards, or the non-dealer's 10, the dealer's 10,
    the upcard and the first stock cards separated by ``|`` (the rest filled in index
    order, see :func:`~analyzer.gin.engine.deck_order`)."""
    parts = [p.strip() for p in text.split("|")]
    if len(parts) == 1:
        cards = parse_hand(parts[0])
        if len(cards) != 52 or to_mask(cards) != (1 << 52) - 1:
            raise ValueError(f"a deck needs all 52 cards once, got {len(cards)} cards")
        return np.array(cards, dtype=np.int8)
    if len(parts) not in (3, 4):
        raise ValueError("expected 'non-dealer | dealer | upcard [| stock]'")
    first, second, up = parse_hand(parts[0]), parse_hand(parts[1]), parse_hand(parts[2])
    if len(up) != 1:
        raise ValueError("the upcard part must be one card")
    stock = parse_hand(parts[3]) if len(parts) == 4 else []
    return deck_order(first, second, up[0], stock)


__all__ = ["Event", "HandReplay", "parse_deck", "replay"]
