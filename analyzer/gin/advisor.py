"""'Should I knock?' for a concrete position: rollouts over sampled hidden cards.

A :class:`Position` is what one player knows when holding 11 cards after drawing: the
hand, the discard pile, the cards the opponent took from the pile and threw, the stock
size (or turn number), who dealt, and optionally the game score.  :func:`advise`
estimates the value of every legal action (knock with each legal discard, gin, big gin,
or play on with each discard) and ranks them.

Method
------
1. **Sampling.**  The cards this player has not seen (the *unseen pool*) are shuffled per
   sample with the counter-based stream ``stream_key(seed, sample)``
   (:mod:`analyzer.core.rng`), so a run is reproducible whatever the thread count.  The
   opponent holds the cards it took from the pile and has not thrown, plus the first
   cards of the shuffled pool; the cards of the pile that were not given (when ``stock``
   says the pile is longer than ``pile``) come next, buried under the given pile; the
   rest of the pool is the stock, in order.
2. **Model weights** (``weights="model"``, the default; ``"uniform"`` skips this step).
   A uniformly drawn hand is a fresh deal, far worse than a hand the opponent has been
   improving for several turns (about 48 against 18 points of deadwood at the knock
   chart's branch points).  So the opponent's sampled hand is first *played in*: for
   each stock draw it has made (its turns minus the cards it took and kept) it draws a
   random card of the rest of the pool and throws the one leaving the least deadwood,
   as the model opponent (``opponent``) would.  Then each sample is weighted by a
   pseudo-likelihood of the opponent's observed play given its sampled hand ``H`` (the
   hands it held when it played are unknown, so ``H`` stands in for them): a card ``c``
   it threw costs ``exp(-(dw(H) - least(H + c)) / T)``, where ``least(H + c)`` is the
   deadwood left by the best throw from ``H + c`` (0 when ``c`` was that throw; large
   when ``c`` melds with ``H`` or ``H`` holds a worse card); a card of ours it passed
   over (a pile card it did not throw, counted only when its throws are given) costs
   ``exp(-gain(H, c) / T)``, with ``gain(H, c)`` the deadwood ``c`` would save ``H`` by
   melding (0 when it would stay deadwood); a card it took and still holds costs
   ``exp(-max(value(c) - gain(H - c, c), 0) / T)``, which is 1 when the card melds;
   and a hand with which the model opponent would have knocked at its last turn gets
   weight 0 (rejection).  ``T`` is the ``temperature`` in points (8 by default: of 4, 8
   and 16 it agreed best with the knock chart, ``scripts/advisor_crosscheck.py``).
   Estimates are self-normalised importance-weighted means, and the effective sample
   size ``(sum w)**2 / sum w**2`` is reported.
3. **Rollouts.**  For each sample the kernel builds the engine state once, then for each
   action copies it, applies the action (:func:`analyzer.gin.engine.apply_discard`) and plays
   the hand out with :func:`analyzer.gin.engine.advance` and the chosen policies.  Every
   action sees the same opponent hand, stock order and policy random stream (common
   random numbers), so differences between actions are estimated on paired samples.
4. **Stopping.**  Samples come in batches.  After each batch the best action (highest
   estimate) is compared, on paired differences, with every other action still racing:
   an action significantly worse at 95% is dropped (its estimate is kept, from the
   samples it saw), except the *comparator* of the verdict (the best action of the other
   kind: playing on when the best is a knock, knocking when the best is playing on).  The
   run stops when every racing action's difference to the best has a 95% half-width at
   most ``tolerance``, or when the ``samples`` budget is spent.  Nothing is dropped or
   stopped before the effective sample size reaches 200, and the 95% levels are nominal:
   the intervals are looked at after every batch.

Objective: points per hand to this player (opponent's points negative), or, when the
position has a score, the probability of winning the game: each rollout's final score
state is valued by an ``equity(score_me, score_opp, i_deal_next)`` function (a table,
or by default :func:`simulated_equity`, which plays whole games from that score).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import IntEnum
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from numba import njit, prange

from ..core.cards import CARD_POINTS, format_card, format_hand, parse_card, parse_hand
from ..core.rng import stream_key
from .engine import (
    SCRATCH_SIZE,
    Outcome,
    Phase,
    Slot,
    advance,
    apply_discard,
    new_state,
)
from .evaluator import (
    discard_deadwoods_kernel,
    min_deadwood_kernel,
)
from .policies import PRESETS as POLICY_PRESETS
from .policies import Policy, policy_name
from .rules import STANDARD, Rules
from .sampling import Layout, Observed, deal_sample, log_likelihood, weighted_mean
from .simulate import GameColumn, game_rows

#: Cards in the stock and pile together once both hands are dealt (52 - 10 - 10 - 1,
#: plus the upcard) -- the same for both openings.
_UNDEALT = 31
#: Seats in the rollout state: this player is seat 0.
_ME, _OPP = 0, 1
_Z95 = 1.959964
#: Effective samples needed before the race drops an action or stops.
_MIN_ESS = 200
_POLICY_SALT = np.int64(0xAD71)
_BASIC = POLICY_PRESETS["basic"]
Equity = Callable[[int, int, bool], float]


class ActionKind(IntEnum):
    """What an action does with the 11 cards held."""

    PLAY = 0
    """Discard a card and play on."""
    KNOCK = 1
    """Discard a card and knock (gin when no deadwood is left)."""
    BIG_GIN = 2
    """Go out with all 11 cards melded (rules with ``big_gin``)."""


# ------------------------------------------------------------------------ position


@dataclass(frozen=True)
class Position:
    """What the player to discard knows (card indices; bottom to top for the pile).

    ``stock`` defaults to ``31 - len(pile)`` (the whole pile given) or, with ``turn``,
    to the stock left after the draws that turn implies; ``turn`` (this player's own
    turn number, counted from 1, this draw included) defaults to the turn implied by the
    stock, assuming every draw but the recorded pile takes came from the stock.  When
    ``stock`` says the pile is longer than ``pile``, ``pile`` is its top part and the
    rest is treated as unknown cards (except the opponent's throws not seen elsewhere).
    """

    hand: tuple[int, ...]
    """The 11 cards held after drawing."""
    pile: tuple[int, ...] = ()
    opp_took: tuple[int, ...] = ()
    """Cards the opponent took from the pile this hand."""
    opp_threw: tuple[int, ...] = ()
    """Cards the opponent discarded this hand."""
    stock: int | None = None
    """Cards left in the stock."""
    turn: int | None = None
    dealer: str = "opp"
    """Who dealt this hand: ``me`` or ``opp``."""
    drawn: int | None = None
    """The card just drawn (optional unless ``from_pile``)."""
    from_pile: bool = False
    """Whether ``drawn`` came from the pile (then it may not be thrown this turn)."""
    score: tuple[int, int] | None = None
    """Game score before this hand (mine, the opponent's), in points."""
    upcard: int | None = None
    """The hand's first upcard (sets the Oklahoma knock limit); defaults to the bottom
    pile card when the whole pile is given."""

    def __post_init__(self) -> None:
        if len(self.hand) != 11:
            raise ValueError(f"wrong hand size: {len(self.hand)} cards, expected 11 "
                             "(or 10 plus the drawn card)")
        if self.dealer not in ("me", "opp"):
            raise ValueError(f"dealer must be 'me' or 'opp', got {self.dealer!r}")
        if self.drawn is not None and self.drawn not in self.hand:
            raise ValueError(f"the drawn card {format_card(self.drawn)} is not in the hand")
        if self.from_pile and self.drawn is None:
            raise ValueError("a card taken from the pile must be named: give the drawn card")
        places = {"hand": self.hand, "pile": self.pile}
        for name, group in places.items():
            if len(set(group)) != len(group):
                raise ValueError(f"a card is listed twice in the {name}")
        for name in ("opp_took", "opp_threw"):
            if len(set(getattr(self, name))) != len(getattr(self, name)):
                raise ValueError(f"a card is listed twice in {name.replace('_', '-')}")
        for card in set(self.hand) & set(self.pile):
            raise ValueError(f"{format_card(card)} is in two places: hand and pile")
        for card in self.opp_took:
            if card in self.opp_threw:
                continue
            where = "hand" if card in self.hand else "pile" if card in self.pile else None
            if where:
                raise ValueError(f"{format_card(card)} is in the {where}, but the opponent "
                                 "took it and never threw it")
        if len(self.known_opp_cards) > 10:
            raise ValueError(f"the opponent took {len(self.known_opp_cards)} cards it has not "
                             "thrown, but holds only 10")
        self._resolve_counts()
        if self.score is not None and min(self.score) < 0:
            raise ValueError(f"scores must be >= 0, got {self.score[0]}:{self.score[1]}")

    def _resolve_counts(self) -> None:
        """Fill in ``stock``, ``turn`` and ``upcard`` and check them (frozen: setattr)."""
        takes = len(self.opp_took) + int(self.from_pile)
        stock = self.stock
        if stock is None:
            stock = (_UNDEALT - len(self.pile) if self.turn is None
                     else _UNDEALT - (self._draws_before(self.turn) - takes))
        if not 2 <= stock <= _UNDEALT:
            raise ValueError(f"the stock must hold 2-{_UNDEALT} cards with 11 in hand, got "
                             f"{stock}")
        if len(self.pile) > _UNDEALT - stock:
            raise ValueError(f"more cards than the deck holds: {len(self.pile)} pile cards, "
                             f"{stock} in the stock and 21 in the hands make "
                             f"{len(self.pile) + stock + 21} > 52")
        buried = self.known_buried
        if len(buried) > self.hidden_pile(stock):
            card = format_card(buried[0])
            raise ValueError(f"the opponent threw {card}, which is neither in the pile nor in "
                             f"the hand, and the stock count {stock} leaves no room for it "
                             "under the pile")
        turn = self.turn
        if turn is None:
            draws = _UNDEALT - stock + takes
            turn = max(1, (draws + 1) // 2 if self.dealer == "opp" else draws // 2)
        if turn < 1:
            raise ValueError(f"turn must be >= 1, got {turn}")
        upcard = self.upcard
        if (upcard is None and self.hidden_pile(stock) == 0 and self.pile
                and self.pile[0] not in self.opp_threw):
            upcard = self.pile[0]  # the whole pile: its bottom card is the upcard
        object.__setattr__(self, "stock", stock)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "upcard", upcard)

    def _draws_before(self, turn: int) -> int:
        """Draws in the hand so far (both players) when this player is on ``turn``."""
        return 2 * turn - 1 if self.dealer == "opp" else 2 * turn

    @property
    def known_opp_cards(self) -> tuple[int, ...]:
        """Cards the opponent surely holds: taken from the pile and not thrown."""
        return tuple(c for c in self.opp_took if c not in self.opp_threw)

    @property
    def known_buried(self) -> tuple[int, ...]:
        """Opponent throws seen neither in the pile nor in the hand: buried in the pile."""
        return tuple(c for c in self.opp_threw if c not in self.pile and c not in self.hand)

    def hidden_pile(self, stock: int | None = None) -> int:
        """Pile cards under the given ones (the pile is ``31 - stock`` cards long)."""
        return _UNDEALT - (self.stock if stock is None else stock) - len(self.pile)

    @property
    def unseen(self) -> tuple[int, ...]:
        """Cards whose place (opponent's hand, stock or buried pile) is unknown."""
        seen = set(self.hand) | set(self.pile) | set(self.known_opp_cards) | set(
            self.known_buried)
        return tuple(c for c in range(52) if c not in seen)

    @property
    def taken(self) -> int | None:
        """The card that may not be thrown this turn (taken from the pile), if any."""
        return self.drawn if self.from_pile else None

    @classmethod
    def from_options(cls, hand: str, pile: str = "", opp_took: str = "", opp_threw: str = "",
                     stock: int | None = None, turn: int | None = None, dealer: str = "opp",
                     drawn: str | None = None, from_pile: bool = False,
                     score: str | None = None, upcard: str | None = None) -> Position:
        """A position from notation strings (``score`` as ``"45:80"``).

        ``hand`` holds 11 cards, or 10 with ``drawn`` the card drawn.

        >>> p = Position.from_options("4c 5c 6c 7d 7h 7s 9s Ts Js Kd", drawn="2h", stock=20)
        >>> p.stock, p.turn, format_hand(p.pile)
        (20, 6, '')
        """
        cards = parse_hand(hand)  # the size is checked by the constructor
        drawn_card = parse_card(drawn) if drawn else None
        if drawn_card is not None and len(cards) == 10:
            if drawn_card in cards:
                raise ValueError(f"the drawn card {drawn} is also listed in the hand")
            cards.append(drawn_card)
        return cls(hand=tuple(cards), pile=tuple(parse_hand(pile)),
                   opp_took=tuple(parse_hand(opp_took)), opp_threw=tuple(parse_hand(opp_threw)),
                   stock=stock, turn=turn, dealer=dealer, drawn=drawn_card, from_pile=from_pile,
                   score=parse_score(score) if score else None,
                   upcard=parse_card(upcard) if upcard else None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Position:
        """A position from a JSON object with the keys of :meth:`from_options`.

        Card lists may be notation strings or lists of tokens; ``score`` is ``"45:80"`` or
        ``[45, 80]``.

        >>> Position.from_json({"hand": "4c 5c 6c 7d 7h 7s 9s Ts Js Kd 2h", "pile": "Qh 3d"}).stock
        29
        """
        known = ("hand", "pile", "opp_took", "opp_threw", "stock", "turn", "dealer", "drawn",
                 "from_pile", "score", "upcard")
        for key in data:
            if key not in known:
                raise ValueError(f"unknown key {key!r} in the position; keys are "
                                 f"{', '.join(known)}")
        if "hand" not in data:
            raise ValueError("the position has no 'hand'")
        args: dict[str, Any] = {}
        for key in ("hand", "pile", "opp_took", "opp_threw"):
            value = data.get(key, "")
            args[key] = " ".join(value) if isinstance(value, list) else str(value)
        for key in ("stock", "turn"):
            if data.get(key) is not None:
                if isinstance(data[key], bool) or not isinstance(data[key], int):
                    raise ValueError(f"{key} must be an integer, got {data[key]!r}")
                args[key] = data[key]
        score = data.get("score")
        if isinstance(score, list):
            score = ":".join(str(s) for s in score)
        return cls.from_options(**args, dealer=str(data.get("dealer", "opp")),
                                drawn=data.get("drawn"), from_pile=bool(data.get("from_pile")),
                                score=score, upcard=data.get("upcard"))

    def knock_limit(self, rules: Rules) -> int:
        """The most deadwood (points) a knock may leave in this hand under ``rules``."""
        if rules.straight:
            return 0
        if not rules.oklahoma:
            return rules.knock_limit
        if self.upcard is None:
            raise ValueError("oklahoma rules need the upcard: give the upcard or the whole pile")
        if self.upcard % 13 == 0 and rules.oklahoma_ace == "gin":
            return 0
        return int(CARD_POINTS[self.upcard])

    def describe(self) -> dict[str, Any]:
        """The position in notation (for reports and JSON)."""
        return {
            "hand": format_hand(list(self.hand)),
            "pile": " ".join(format_card(c) for c in self.pile),  # bottom to top, not sorted
            "opp_took": format_hand(list(self.opp_took)),
            "opp_threw": format_hand(list(self.opp_threw)),
            "stock": self.stock, "turn": self.turn, "dealer": self.dealer,
            "drawn": None if self.drawn is None else format_card(self.drawn),
            "from_pile": self.from_pile,
            "score": None if self.score is None else list(self.score),
            "upcard": None if self.upcard is None else format_card(self.upcard),
        }


def parse_score(text: str) -> tuple[int, int]:
    """``"45:80"`` -> ``(45, 80)`` (mine first).

    >>> parse_score("45:80")
    (45, 80)
    """
    mine, sep, theirs = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(mine), int(theirs)
    except ValueError:
        raise ValueError(f"bad score {text!r}: expected mine:theirs, e.g. 45:80") from None


# ------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """One thing to do with the 11 cards: ``kind`` with ``card`` (None for big gin)."""

    kind: ActionKind
    card: int | None
    deadwood: int
    """Deadwood (points) left after the discard (of the 11 cards for big gin)."""

    @property
    def verb(self) -> str:
        """``play``, ``knock``, ``gin`` or ``big gin``."""
        if self.kind == ActionKind.BIG_GIN:
            return "big gin"
        return "play" if self.kind == ActionKind.PLAY else "gin" if self.deadwood == 0 else "knock"

    @property
    def name(self) -> str:
        """``knock Kd``, ``gin Kd``, ``play Kd`` or ``big gin``."""
        return self.verb if self.card is None else f"{self.verb} {format_card(self.card)}"

    def describe(self, symbols: bool = False, gerund: bool = False) -> str:
        """In words: ``knock, discarding K♦`` (or ``knocking (discarding K♦)``)."""
        words = {"play": ("play on", "playing on"), "knock": ("knock", "knocking"),
                 "gin": ("go gin", "going gin"), "big gin": ("go big gin", "going big gin")}
        text = words[self.verb][gerund]
        if self.card is None:
            return text
        card = format_card(self.card, symbols)
        return f"{text} (discarding {card})" if gerund else f"{text}, discarding {card}"

    @property
    def ends_hand(self) -> bool:
        """Whether the action ends the hand (a knock, gin or big gin)."""
        return self.kind != ActionKind.PLAY


def legal_actions(position: Position, rules: Rules = STANDARD) -> list[Action]:
    """Every legal action: play on with each discard, knock (or gin) with each discard
    leaving deadwood within the knock limit, and big gin when the rules allow it.

    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=20)
    >>> [a.name for a in legal_actions(p) if a.ends_hand]
    ['knock Qd', 'knock Kd']
    """
    limit = position.knock_limit(rules)
    deadwoods = _deadwood_after_each_discard(position)
    actions = [Action(ActionKind.PLAY, card, dw) for card, dw in deadwoods.items()]
    actions += [Action(ActionKind.KNOCK, card, dw) for card, dw in deadwoods.items()
                if dw <= limit]
    whole = int(min_deadwood_kernel(np.int64(_mask(position.hand))))
    if rules.big_gin and whole == 0:
        actions.append(Action(ActionKind.BIG_GIN, None, 0))
    return actions


def parse_action(text: str, position: Position, rules: Rules = STANDARD) -> Action:
    """The action named ``knock Kd``, ``gin Kd``, ``play Kd`` or ``big gin``; an action
    the rules or the position forbid raises ``ValueError`` saying why.

    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=20)
    >>> parse_action("knock Kd", p).deadwood
    10
    """
    words = text.lower().replace("-", " ").split()
    if words == ["big", "gin"]:
        if not rules.big_gin:
            raise ValueError("cannot go big gin: these rules have no big gin")
        if min_deadwood_kernel(np.int64(_mask(position.hand))) != 0:
            raise ValueError("cannot go big gin: the 11 cards are not all melded")
        return Action(ActionKind.BIG_GIN, None, 0)
    if len(words) != 2 or words[0] not in ("knock", "gin", "play", "discard"):
        raise ValueError(f"bad action {text!r}: expected 'knock Kd', 'gin Kd', 'play Kd' or "
                         "'big gin'")
    card = parse_card(words[1])
    name = format_card(card)
    if card not in position.hand:
        raise ValueError(f"cannot discard {name}: it is not in the hand")
    if card == position.taken:
        raise ValueError(f"cannot discard {name}: it was just taken from the pile")
    deadwood = _deadwood_after_each_discard(position)[card]
    if words[0] in ("play", "discard"):
        return Action(ActionKind.PLAY, card, deadwood)
    limit = position.knock_limit(rules)
    if words[0] == "gin" and deadwood > 0:
        raise ValueError(f"cannot go gin discarding {name}: {deadwood} deadwood is left")
    if deadwood > limit:
        raise ValueError(f"cannot knock discarding {name}: {deadwood} deadwood is left, over "
                         f"the knock limit of {limit}{_limit_reason(position, rules)}")
    return Action(ActionKind.KNOCK, card, deadwood)


def _limit_reason(position: Position, rules: Rules) -> str:
    if rules.straight:
        return " (straight gin: only gin ends the hand)"
    if rules.oklahoma and position.upcard is not None:
        return f" (oklahoma, upcard {format_card(position.upcard)})"
    return ""


def _mask(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _deadwood_after_each_discard(position: Position) -> dict[int, int]:
    """Least deadwood (points) left after each allowed discard, in card order."""
    hand = np.int64(_mask(position.hand))
    allowed = hand & ~np.int64(0 if position.taken is None else 1 << position.taken)
    out = np.zeros(52, dtype=np.int64)
    discard_deadwoods_kernel(hand, allowed, out)
    return {c: int(out[c]) for c in sorted(position.hand) if c != position.taken}


# ------------------------------------------------------------------------- kernels


@njit(cache=True, parallel=True)
def _rollout_kernel(seed: np.int64, first: np.int64, base: npt.NDArray[np.int64],
                    pool: npt.NDArray[np.int64], layout: npt.NDArray[np.int64],
                    observed: npt.NDArray[np.int64], temperature: np.float64,
                    actions: npt.NDArray[np.int64], active: npt.NDArray[np.bool_],
                    rules: npt.NDArray[np.int64], policies: npt.NDArray[np.int64],
                    points: npt.NDArray[np.int64], outcomes: npt.NDArray[np.int64],
                    winners: npt.NDArray[np.int64], log_weights: npt.NDArray[np.float64]
                    ) -> None:
    """Roll out samples ``first .. first + len(points)``, every active action on each.

    ``layout`` is indexed by :class:`Layout`; ``actions[a]`` is ``(card, ActionKind)``.
    Row ``i`` of the outputs holds sample ``first + i``: this player's points, the outcome
    and the winner per action, and the sample's log weight (0 when ``temperature <= 0``).
    """
    for i in prange(points.shape[0]):
        sample = first + i
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_key(seed, sample)
        cards = pool.copy()
        start = base.copy()
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        deal_sample(start, cards, rng, layout, scratch, np.int64(_OPP))
        log_weights[i] = 0.0
        if temperature > 0:
            log_weights[i] = log_likelihood(start[Slot.HAND + _OPP], observed, temperature,
                                             layout[Layout.OPP_THRESHOLD], scratch[:52])
        state = np.empty_like(start)
        policy_key = stream_key(seed ^ _POLICY_SALT, sample)
        for a in range(actions.shape[0]):
            if not active[a]:
                continue
            state[:] = start
            rng[0] = policy_key  # every action replays the same random choices
            if actions[a, 1] != ActionKind.BIG_GIN:
                apply_discard(state, actions[a, 0], actions[a, 1] == ActionKind.KNOCK, rules)
            if state[Slot.PHASE] != Phase.DONE:
                # big gin: advance declares it at once in the discard phase
                advance(state, rules, policies, rng, scratch, False)
            winner = state[Slot.WINNER]
            outcomes[i, a] = state[Slot.OUTCOME]
            winners[i, a] = winner
            points[i, a] = 0 if winner < 0 else (
                state[Slot.POINTS] if winner == _ME else -state[Slot.POINTS])


def _base_state(position: Position, rules: Rules) -> npt.NDArray[np.int64]:
    """The rollout state without the sampled cards (seat 0 is this player)."""
    state = new_state()
    i_deal = position.dealer == "me"
    hidden = position.hidden_pile()
    stock = position.stock
    turn = position.turn
    assert stock is not None and turn is not None  # filled in by Position
    state[Slot.HAND + _ME] = _mask(position.hand)
    state[Slot.HAND + _OPP] = _mask(position.known_opp_cards)
    state[Slot.TOOK + _ME] = _mask([] if position.taken is None else [position.taken])
    state[Slot.TOOK + _OPP] = _mask(position.opp_took)
    state[Slot.THREW + _OPP] = _mask(position.opp_threw)
    state[Slot.THREW + _ME] = _mask(_my_pile_throws(position))
    state[Slot.OWN_TURNS + _ME] = turn
    state[Slot.OWN_TURNS + _OPP] = turn if i_deal else turn - 1
    state[Slot.DRAWS] = state[Slot.OWN_TURNS + _ME] + state[Slot.OWN_TURNS + _OPP]
    state[Slot.DEALER] = _ME if i_deal else _OPP
    state[Slot.TURN] = _ME
    state[Slot.PHASE] = Phase.DISCARD
    state[Slot.STOCK_POS] = 52 - stock
    state[Slot.OFFERS] = 2
    state[Slot.KNOCK_LIMIT] = position.knock_limit(rules)
    spade_upcard = position.upcard is not None and position.upcard >= 39
    state[Slot.MULTIPLIER] = 2 if (rules.oklahoma and rules.oklahoma_spade_double
                                   and spade_upcard) else 1
    state[Slot.TAKEN] = -1 if position.taken is None else position.taken
    state[Slot.OUTCOME] = state[Slot.WINNER] = state[Slot.KNOCKER] = -1
    state[Slot.UPCARD] = -1 if position.upcard is None else position.upcard
    pile = [*position.known_buried, *([-1] * (hidden - len(position.known_buried))),
            *position.pile]
    state[Slot.PILE:Slot.PILE + len(pile)] = pile
    state[Slot.PILE_LEN] = len(pile)
    state[Slot.PILE_MASK] = _mask(c for c in pile if c >= 0)
    return state


def _layout(position: Position, rules: Rules, opponent: Policy, base: npt.NDArray[np.int64],
            model: bool) -> npt.NDArray[np.int64]:
    """The sampling layout (:class:`Layout`) around the ``base`` state; ``model`` adds
    the play-in and the knock constraint of the model opponent."""
    layout = np.zeros(len(Layout), dtype=np.int64)
    layout[Layout.OPP_CARDS] = 10 - len(position.known_opp_cards)
    layout[Layout.BURIED] = position.hidden_pile() - len(position.known_buried)
    layout[Layout.FIRST_BURIED] = len(position.known_buried)
    layout[Layout.OPP_THRESHOLD] = -1
    opp_turns = int(base[Slot.OWN_TURNS + _OPP])
    if model and opp_turns > 0:
        # one draw per turn; a card it took and kept stands for its draw, a card it took
        # and threw again is a draw that came to nothing, like a useless stock card
        layout[Layout.PLAY_IN] = max(opp_turns - len(position.known_opp_cards), 0)
        schedule = opponent.thresholds()
        layout[Layout.OPP_THRESHOLD] = min(int(schedule[min(opp_turns, len(schedule)) - 1]),
                                            position.knock_limit(rules))
    return layout


def _my_pile_throws(position: Position) -> list[int]:
    """Pile cards that must be this player's throws: not the opponent's, not the upcard."""
    return [c for c in position.pile if c not in position.opp_threw and c != position.upcard]


def _observations(position: Position) -> npt.NDArray[np.int64]:
    """Observation masks by :class:`Observed` for the weighting kernel."""
    observed = np.zeros(len(Observed), dtype=np.int64)
    observed[Observed.THREW] = _mask(position.opp_threw)
    observed[Observed.TOOK_HELD] = _mask(position.known_opp_cards)
    if position.opp_threw:
        # without its throws we cannot tell its pile cards from ours
        passed = [c for c in position.pile if c not in position.opp_threw]
        observed[Observed.PASSED] = _mask(passed)
    return observed


# --------------------------------------------------------------------- objective


def simulated_equity(rules: Rules, policy: Policy = _BASIC, opponent: Policy = _BASIC,
                     games: int = 1000, seed: int = 0) -> Equity:
    """A game-win probability function estimated by playing ``games`` whole games from
    each score asked for (cached).  Slow but needs no table; its own noise (about
    ``0.5 / sqrt(games)``) is not part of the advisor's confidence intervals.

    ``win(score_me, score_opp, i_deal_next)`` is the probability that this player, with
    ``policy``, wins a game to ``rules.target`` against ``opponent`` from those scores.
    """
    @cache
    def both_dealers(score_me: int, score_opp: int) -> tuple[float, float]:
        rows = game_rows(rules, policy, opponent, seed, 0, games, swap_seats=True,
                         start=(score_me, score_opp, 0, 0))
        # with swapped seats, even rows have the opponent deal first, odd rows this player
        won = rows[:, GameColumn.GAMES_WON_A].astype(np.float64)
        return float(won[0::2].mean()), float(won[1::2].mean())

    def win(score_me: int, score_opp: int, i_deal_next: bool) -> float:
        return both_dealers(score_me, score_opp)[int(i_deal_next)]

    return win


def _game_values(points: npt.NDArray[np.int64], winners: npt.NDArray[np.int64],
                 position: Position, rules: Rules, equity: Equity) -> npt.NDArray[np.float64]:
    """Game-win probability after each rolled-out hand (points and winners per sample)."""
    assert position.score is not None
    mine = position.score[0] + np.where(winners == _ME, points, 0)
    theirs = position.score[1] + np.where(winners == _OPP, -points, 0)
    if rules.line_bonus_timing == "immediate":
        mine = mine + np.where(winners == _ME, rules.line_bonus, 0)
        theirs = theirs + np.where(winners == _OPP, rules.line_bonus, 0)
    i_dealt = position.dealer == "me"
    if rules.next_dealer == "winner":
        i_deal = np.where(winners < 0, i_dealt, winners == _ME)
    else:
        i_deal = np.where(winners < 0, i_dealt, not i_dealt)
    values = np.where(mine >= rules.target, 1.0, 0.0)
    going = (mine < rules.target) & (theirs < rules.target)
    keys = np.stack([mine[going], theirs[going], i_deal[going].astype(np.int64)], axis=1)
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    table = np.array([equity(int(m), int(t), bool(d)) for m, t, d in unique], dtype=np.float64)
    values[going] = table[inverse.reshape(-1)]
    return values


# ----------------------------------------------------------------------- results


@dataclass(frozen=True)
class ActionEstimate:
    """One action's estimate (points, or game-win probability as a fraction)."""

    action: str
    kind: str
    """``play``, ``knock``, ``gin`` or ``big gin``."""
    card: str | None
    deadwood: int
    mean: float
    half_width: float
    """Half-width of the 95% confidence interval of ``mean``."""
    behind: float
    """How far below the best action, on paired samples (0 for the best)."""
    behind_half_width: float
    p_win: float
    """Probability of winning the hand."""
    p_undercut: float
    """Probability of being undercut (this player knocks and loses)."""
    p_opp_gin: float
    """Probability that the opponent goes gin (or big gin)."""
    samples: int
    dropped: bool
    """Whether the race dropped it early as significantly worse than the best."""


@dataclass(frozen=True)
class Advice:
    """The ranked actions of a position, the one-line verdict and the run's details."""

    position: Position
    objective: str
    """``points`` (per hand, this player's view) or ``game`` (win probability)."""
    actions: tuple[ActionEstimate, ...]
    """Ranked, best first."""
    verdict: str
    margin: float
    """The verdict's lead over its comparator (objective units)."""
    margin_half_width: float
    ess: float
    """Effective sample size of the weighted samples (= samples with uniform weights)."""
    samples: int
    stopped: str
    """``converged`` (every rival resolved within the tolerance) or ``budget``."""
    seed: int
    weights: str
    elapsed_s: float
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> ActionEstimate:
        """The recommended action."""
        return self.actions[0]

    def table(self) -> pd.DataFrame:
        """The ranked actions as a DataFrame, one row per action."""
        return pd.DataFrame([asdict(a) for a in self.actions])

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain JSON-ready data."""
        return {
            "position": self.position.describe(), "objective": self.objective,
            "verdict": self.verdict, "margin": self.margin,
            "margin_half_width": self.margin_half_width, "ess": self.ess,
            "samples": self.samples, "stopped": self.stopped, "seed": self.seed,
            "weights": self.weights, "elapsed_s": self.elapsed_s, "settings": self.settings,
            "actions": [asdict(a) for a in self.actions],
        }


def _weighted_mean(values: npt.NDArray[np.float64], weights: npt.NDArray[np.float64]
                   ) -> tuple[float, float]:
    """(mean, 95% half-width) of a self-normalised weighted mean (see
    :func:`analyzer.gin.sampling.weighted_mean`)."""
    mean, half = weighted_mean(np.ascontiguousarray(values, dtype=np.float64),
                               np.ascontiguousarray(weights, dtype=np.float64))
    return float(mean), float(half)


class _Race:
    """Per-sample results so far and the racing state of every action."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self.values: list[npt.NDArray[np.float64]] = []
        self.outcomes: list[npt.NDArray[np.int64]] = []
        self.winners: list[npt.NDArray[np.int64]] = []
        self.log_weights: list[npt.NDArray[np.float64]] = []
        #: samples each action has seen (an action dropped from the race stops counting)
        self.counts = np.zeros(len(actions), dtype=np.int64)
        self.active = np.ones(len(actions), dtype=np.bool_)

    def columns(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64],
                               npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """(values, outcomes, winners, normalised weights) over every sample so far."""
        log_w = np.concatenate(self.log_weights)
        if not np.isfinite(log_w.max()):
            raise ValueError("no sampled opponent hand fits its play under the model opponent "
                             "(it would have knocked with each); try uniform weights or "
                             "another opponent policy")
        weights = np.exp(log_w - log_w.max())
        return (np.concatenate(self.values), np.concatenate(self.outcomes),
                np.concatenate(self.winners), weights)

    def estimate(self, a: int, values: npt.NDArray[np.float64],
                 weights: npt.NDArray[np.float64]) -> tuple[float, float]:
        n = self.counts[a]
        return _weighted_mean(values[:n, a], weights[:n])

    def paired(self, a: int, b: int, values: npt.NDArray[np.float64],
               weights: npt.NDArray[np.float64]) -> tuple[float, float]:
        """(mean of a - b, half-width) over the samples both saw."""
        n = min(self.counts[a], self.counts[b])
        return _weighted_mean(values[:n, a] - values[:n, b], weights[:n])

    def leader_and_comparator(self, means: npt.NDArray[np.float64]) -> tuple[int, int]:
        """The best racing action and the verdict's comparator: the best racing action of
        the other kind (ending the hand or not), else the runner-up (-1 if alone)."""
        racing = np.flatnonzero(self.active)
        best = int(racing[np.argmax(means[racing])])
        ends = self.actions[best].ends_hand
        rivals = [a for a in racing if a != best]
        other = [a for a in rivals if self.actions[a].ends_hand != ends]
        pool = other or rivals
        return best, (int(max(pool, key=lambda a: means[a])) if pool else -1)


def advise(position: Position, rules: Rules = STANDARD, policy: Policy = _BASIC,
           opponent: Policy = _BASIC, samples: int = 20_000, seed: int = 0,
           tolerance: float | None = None, weights: str = "model", temperature: float = 8.0,
           actions: Iterable[str] | None = None, equity: Equity | None = None,
           equity_games: int = 1000, batch: int = 256,
           progress: Callable[[int], None] | None = None) -> Advice:
    """Rank the actions of ``position`` by rollouts (see the module notes).

    Parameters
    ----------
    position : Position
        What this player knows, holding 11 cards after drawing.
    rules : Rules
        The rules; knock legality and scoring follow them.
    policy, opponent : Policy
        How this player (after this discard) and the opponent play the rest of the hand.
    samples : int
        Budget: the most samples (opponent hand and stock order) to roll out.
    seed : int
        The run is reproducible from it, whatever the thread count.
    tolerance : float, optional
        Target 95% half-width of the differences to the best action: points (default
        1.0), or win probability (default 0.01) when the position has a score.
    weights : {"model", "uniform"}
        Weight samples by the pseudo-likelihood of the opponent's observed play, or not.
    temperature : float
        Softness of that likelihood, points of deadwood per factor ``e``.
    actions : iterable of str, optional
        Only these actions (``"knock Kd"``, ``"play 9c"``, ``"gin Kd"``, ``"big gin"``);
        an action the rules forbid raises ``ValueError``.  Default: every legal action.
    equity : callable, optional
        ``equity(score_me, score_opp, i_deal_next) -> float``, the game-win probability
        from a score state before a hand; used when the position has a score.  Default:
        :func:`simulated_equity` with ``equity_games`` games per score state.
    batch : int
        Samples per kernel call; the stopping rule is checked after each batch.
    progress : callable, optional
        Called with the number of samples done after each batch.

    Returns
    -------
    Advice
        Ranked action estimates (points per hand, or game-win probability), the verdict,
        the effective sample size and the stopping reason.

    Examples
    --------
    >>> p = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Th Kd", stock=20)
    >>> advice = advise(p, samples=512, seed=1)
    >>> advice.best.action, advice.verdict.split(":")[0]
    ('gin Kd', 'Go gin, discarding K♦')
    """
    if samples < 1 or batch < 1:
        raise ValueError("samples and batch must be >= 1")
    if weights not in ("model", "uniform"):
        raise ValueError(f"weights must be 'model' or 'uniform', got {weights!r}")
    if weights == "model" and temperature <= 0:
        raise ValueError(f"temperature must be > 0 points, got {temperature}")
    game = position.score is not None
    if game:
        assert position.score is not None
        if rules.hollywood:
            raise ValueError("game-win advice is not supported with hollywood scoring")
        if max(position.score) >= rules.target:
            raise ValueError(f"score {position.score[0]}:{position.score[1]} already reaches "
                             f"the target {rules.target}")
        if equity is None:
            equity = simulated_equity(rules, policy, opponent, equity_games, seed)
    if tolerance is None:
        tolerance = 0.01 if game else 1.0
    chosen = (legal_actions(position, rules) if actions is None
              else [parse_action(text, position, rules) for text in actions])
    if not chosen:
        raise ValueError("no action to evaluate")
    started = time.perf_counter()
    base = _base_state(position, rules)
    pool = np.array(position.unseen, dtype=np.int64)
    layout = _layout(position, rules, opponent, base, model=weights == "model")
    table = np.array([[-1 if a.card is None else a.card, a.kind] for a in chosen],
                     dtype=np.int64)
    observed = _observations(position)
    kernel_temperature = temperature if weights == "model" else 0.0
    rules_array = rules.to_array()
    policies = np.stack([policy.to_array(), opponent.to_array()])
    race = _Race(chosen)
    stopped = "budget"
    done = 0
    while done < samples:
        count = min(batch, samples - done)
        points = np.zeros((count, len(chosen)), dtype=np.int64)
        outcomes = np.full((count, len(chosen)), -1, dtype=np.int64)
        winners = np.full((count, len(chosen)), -1, dtype=np.int64)
        log_weights = np.zeros(count, dtype=np.float64)
        _rollout_kernel(np.int64(seed), np.int64(done), base, pool, layout, observed,
                        kernel_temperature, table, race.active, rules_array, policies,
                        points, outcomes, winners, log_weights)
        race.values.append(_game_values(points, winners, position, rules, equity)
                           if game and equity is not None else points.astype(np.float64))
        race.outcomes.append(outcomes)
        race.winners.append(winners)
        race.log_weights.append(log_weights)
        race.counts[race.active] += count
        done += count
        if progress is not None:
            progress(count)
        if _race_step(race, tolerance):
            stopped = "converged"
            break
    return _summarise(race, position, game, stopped, seed, weights, started,
                      {"policy": policy, "opponent": opponent, "tolerance": tolerance,
                       "temperature": temperature, "samples_budget": samples,
                       "rules": rules.describe()})


def _race_step(race: _Race, tolerance: float) -> bool:
    """Drop significantly worse actions; True when every racing rival is resolved."""
    values, _, _, weights = race.columns()
    if weights.sum() ** 2 / (weights @ weights) < _MIN_ESS:
        return False  # too few effective samples to trust a normal interval
    means = np.array([race.estimate(a, values, weights)[0] for a in range(len(race.actions))])
    best, comparator = race.leader_and_comparator(means)
    if comparator < 0:
        return race.estimate(best, values, weights)[1] <= tolerance
    resolved = True
    for a in np.flatnonzero(race.active):
        if a == best:
            continue
        lead, half = race.paired(best, int(a), values, weights)
        if a != comparator and lead - half > 0:
            race.active[a] = False
        elif half > tolerance:
            resolved = False
    return resolved


def _summarise(race: _Race, position: Position, game: bool, stopped: str, seed: int,
               weights_name: str, started: float, settings: dict[str, Any]) -> Advice:
    values, outcomes, winners, weights = race.columns()
    n_actions = len(race.actions)
    means = np.array([race.estimate(a, values, weights)[0] for a in range(n_actions)])
    # the best is among the actions raced to the end; the others rank by how far behind
    # it they are on the samples both saw (a dropped action's own mean is noisier)
    race.active = race.counts == race.counts.max()
    best, comparator = race.leader_and_comparator(means)
    behind = {a: (0.0, 0.0) if a == best else race.paired(best, a, values, weights)
              for a in range(n_actions)}
    estimates = []
    for a in sorted(range(n_actions), key=lambda a: (a != best, behind[a][0])):
        action = race.actions[a]
        n = race.counts[a]
        w = weights[:n] / weights[:n].sum()
        lead, lead_half = behind[a]
        estimates.append(ActionEstimate(
            action=action.name, kind=action.verb,
            card=None if action.card is None else format_card(action.card),
            deadwood=action.deadwood, mean=float(means[a]),
            half_width=race.estimate(a, values, weights)[1], behind=lead,
            behind_half_width=lead_half,
            p_win=float(w @ (winners[:n, a] == _ME)),
            p_undercut=float(w @ ((outcomes[:n, a] == Outcome.UNDERCUT)
                                  & (winners[:n, a] == _OPP))),
            p_opp_gin=float(w @ (np.isin(outcomes[:n, a], (Outcome.GIN, Outcome.BIG_GIN))
                                 & (winners[:n, a] == _OPP))),
            samples=int(n), dropped=not race.active[a]))
    margin, margin_half = (0.0, 0.0) if comparator < 0 else race.paired(best, comparator,
                                                                         values, weights)
    total = weights.sum()
    return Advice(
        position=position, objective="game" if game else "points", actions=tuple(estimates),
        verdict=_verdict(race.actions[best], None if comparator < 0 else race.actions[comparator],
                         margin, margin_half, game),
        margin=margin, margin_half_width=margin_half,
        ess=float(total * total / (weights @ weights)), samples=int(race.counts.max()),
        stopped=stopped, seed=seed, weights=weights_name,
        elapsed_s=time.perf_counter() - started,
        settings={k: (policy_name(v) if isinstance(v, Policy) else v)
                  for k, v in settings.items()})


def _verdict(best: Action, comparator: Action | None, margin: float, half: float,
             game: bool) -> str:
    """``Knock, discarding K♦: +6.3 ± 0.8 points over playing on (discarding 9♣)``."""
    head = best.describe(symbols=True)
    head = head[0].upper() + head[1:]
    if comparator is None:
        return head
    if game:
        amount = f"{100 * margin:+.1f} ± {100 * half:.1f} percentage points of game-win chance"
    else:
        amount = f"{margin:+.1f} ± {half:.1f} points"
    return f"{head}: {amount} over {comparator.describe(symbols=True, gerund=True)}"


__all__ = ["Action", "ActionEstimate", "ActionKind", "Advice", "Position", "advise",
           "legal_actions", "parse_action", "parse_score", "simulated_equity"]
