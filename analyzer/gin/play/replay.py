"""Watch one hand: the engine stepped decision by decision, every event recorded.

:func:`replay` deals deal ``deal`` of a :func:`~analyzer.gin.play.simulate.simulate` run with
seed ``seed`` (or a given deck order) as a :class:`~analyzer.gin.play.hand.Hand`, and lets each
policy decide and play its moves through it (the engine's own kernels, with the
simulation's random stream), so the hand is exactly the one the simulator plays; each
:class:`~analyzer.gin.play.moves.Move` is named as it is made (upcard passed or taken, draw,
discard, knock, gin).  At the end it shows the knocker's melds, the defender's melds and
layoffs, and the score.

>>> hand = replay(seed=1, deal=0)
>>> hand.events[0].action in ("passes upcard", "takes upcard")
True
>>> list(hand.to_frame().columns)[:4]
['step', 'player', 'action', 'card']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ...core.arrays import Int8s
from ...core.cards import format_card, format_hand, parse_hand, to_mask
from ...core.rng import POLICY_SALT, shuffle_deck, stream_key
from ..engine.transitions import deck_order
from ..evaluator.api import best_discard, best_melds, layoff_plan, min_deadwood
from ..evaluator.partition import best_arrangement_kernel
from ..model.policies import PRESETS as POLICY_PRESETS
from ..model.policies import Policy, policy_name
from ..model.rules import STANDARD, Rules
from .hand import Hand
from .moves import Move

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
        return pd.DataFrame(
            [asdict(e) for e in self.events], columns=[f for f in Event.__dataclass_fields__]
        )

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
        how = {
            "undercut": f"undercuts {self.knocker}",
            "knock": "knocks",
            "gin": "goes gin",
            "big_gin": "goes big gin",
        }[self.outcome]
        return (
            f"{self.winner} {how} and scores {self.points} points "
            f"(deadwood {self.knocker} {self.knocker_deadwood}, "
            f"defender {self.defender_deadwood})"
        )


def _deadwood(hand: int) -> int:
    if hand.bit_count() == 11:
        return best_discard(hand).deadwood
    return min_deadwood(hand)


def _describe(hand: Hand, move: Move, top: int | None, phase: str) -> tuple[str, str]:
    """(action, card) of ``move``, just played in ``hand`` from ``phase`` with ``top`` the
    pile's top before it."""
    if move.kind == "pass":
        return "passes upcard", format_card(top) if top is not None else ""
    if move.kind == "take":
        assert top is not None
        return ("takes upcard" if phase == "offer" else "takes pile"), format_card(top)
    if move.kind == "draw":
        drawn = hand.last_stock_card
        assert drawn is not None
        return "draws stock", format_card(drawn)
    if move.kind == "end":
        return "dead hand", ""
    if move.kind == "big_gin":
        return "big gin", ""
    assert move.card is not None
    card = format_card(move.card)
    if move.kind == "knock":
        return ("gin" if hand.result["knocker_deadwood"] == 0 else "knocks"), card
    return "discards", card


def replay(
    rules: Rules = STANDARD,
    policy_a: Policy = POLICY_PRESETS["basic"],
    policy_b: Policy = POLICY_PRESETS["basic"],
    seed: int = 1,
    deal: int = 0,
    a_dealer: bool = False,
    deck: npt.ArrayLike | None = None,
) -> HandReplay:
    """Play one hand decision by decision and record it.

    Parameters
    ----------
    rules, policy_a, policy_b
        The rules and the policies of A (seat 0) and B.
    seed, deal : int
        Which deal: deal ``deal`` of a run with ``seed``, the same cards and the same
        random choices as :func:`~analyzer.gin.play.simulate.simulate` plays.
    a_dealer : bool
        Whether A deals (simulate plays every deal both ways).
    deck : array of 52 card indices, optional
        A deck order to deal instead (see :func:`~analyzer.gin.engine.transitions.deck_order`).

    Returns
    -------
    HandReplay
    """
    cards = deck  # Hand.deal checks a given deck: each card once
    if cards is None:
        cards = np.empty(52, dtype=np.int8)
        rng = np.array([stream_key(np.int64(seed), np.int64(deal))], dtype=np.uint64)
        shuffle_deck(rng, cards)
    dealer = 0 if a_dealer else 1
    # the policies' random choices come from the simulation's stream of this deal
    hand = Hand.deal(
        rules, deck=cards, seed=int(np.int64(seed) ^ POLICY_SALT), dealer=dealer, hand_index=deal
    )
    players = (policy_a, policy_b)
    result = HandReplay(
        rules,
        policy_a,
        policy_b,
        SEATS[dealer],
        format_hand(hand.hand_mask(0)),
        format_hand(hand.hand_mask(1)),
        format_card(hand.upcard) if hand.upcard is not None else "",
        seed=seed if deck is None else None,
        deal=deal if deck is None else None,
    )
    while not hand.done:
        player, phase, top = hand.to_move, hand.phase, hand.pile_top
        move = hand.decide(players[player])
        hand.play(move)
        action, card = _describe(hand, move, top, phase)
        held = hand.hand_mask(player)
        result.events.append(
            Event(
                len(result.events) + 1,
                SEATS[player],
                action,
                card,
                format_hand(held),
                _deadwood(held),
                hand.stock_left,
            )
        )
    _score(result, hand)
    return result


def _score(result: HandReplay, hand: Hand) -> None:
    """Fill the result fields of ``result`` from the finished ``hand``."""
    ended = hand.result
    result.outcome = str(ended["outcome"])
    winner = ended["winner"]
    result.winner = SEATS[winner] if isinstance(winner, int) else ""
    result.points = int(ended["points"] or 0)
    result.points_a = 0 if winner is None else (result.points if winner == 0 else -result.points)
    knocker = ended["knocker"]
    if not isinstance(knocker, int):
        return
    result.knocker = SEATS[knocker]
    knocker_hand = hand.hand_mask(knocker)
    arrangement = best_melds(knocker_hand)
    result.knocker_melds = [format_hand(m) for m in arrangement.melds]
    result.knocker_deadwood = int(ended["knocker_deadwood"] or 0)
    result.defender_deadwood = int(ended["defender_deadwood"] or 0)
    defender = hand.hand_mask(1 - knocker)
    laid = 0
    if result.outcome in ("knock", "undercut", "tie"):
        # the knocker's melds as the engine lays them out (``fewest-layoffs``); under
        # ``random-best`` the engine's may differ, and no layoffs are shown when these
        # cannot give the engine's deadwood
        _, sets, runs = best_arrangement_kernel(np.int64(knocker_hand))
        laid = to_mask(layoff_plan(defender, int(sets), int(runs), result.defender_deadwood))
        defender &= ~laid
    result.layoffs = format_hand(laid) if laid else ""
    result.defender_melds = [format_hand(m) for m in best_melds(defender).melds]


def parse_deck(text: str) -> Int8s:
    """A deck order from notation: all 52 cards, or the non-dealer's 10, the dealer's 10,
    the upcard and the first stock cards separated by ``|`` (the rest filled in index
    order, see :func:`~analyzer.gin.engine.transitions.deck_order`)."""
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
