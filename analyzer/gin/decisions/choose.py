"""A policy's decisions: one entry per decision rule, dispatching on the rule in the
policy's parameter row (:class:`analyzer.gin.model.policy_fields.PolicyField`).

The engine (:func:`analyzer.gin.engine.transitions.step`) asks only these entries:

* :func:`wants_upcard` (the draw rule): whether to take the face-up card;
* :func:`choose_discard` (the discard and knock rules): which card to throw, and
  whether to knock with it;
* :func:`takes_upcard_to_knock` (the knock schedule, under the ``wall`` rule): whether
  to take the pile's top at a stock of two, which is allowed only to knock.

Draw rules (whether to take the face-up card):
  ``never``    always draw from the stock;
  ``improve``  take it when the best deadwood after taking it (and discarding another
               card) is lower than the deadwood held now;
  ``meld``     take it when it is melded in some minimum-deadwood arrangement of the
               11 cards;
  ``expert``   take it when ``meld`` would, or when it lowers the hand's value
               (deadwood less the live outs, weighted) by more than ``take_margin``
               (:mod:`analyzer.gin.decisions.expert`);
  ``anymeld``  take it when it forms any meld with the cards held, best or not (the EAAI
               framework's simple player: ``willDrawFaceUpCard`` looks for a meld
               containing the card among all melds of the 11 cards);
  ``marjj``    the EAAI-2021 agent MARJJ's rule: take it when it lowers the deadwood
               after the best discard and is melded in the meld set MARJJ would lay
               down (:mod:`analyzer.gin.decisions.marjj`);
  ``principles`` a player's rule set: take it when it fits a meld, or when it takes
               enough points off the deadwood, counting the melds it may make
               (:mod:`analyzer.gin.decisions.draw_principles`).

Discard rules (which card to throw when not knocking):
  ``high``      a discard leaving the least deadwood; ties to the highest card value,
                then the highest rank, then the highest card index;
  ``random``    uniformly at random among the discards leaving the least deadwood;
  ``safe``      least ``deadwood + danger_penalty * danger``, where a card's danger
                counts the cards the opponent took from the pile and still holds that
                share its rank or sit within two ranks in its suit; ties as ``high``;
  ``lookahead`` among discards within ``slack`` points of the least deadwood, the one
                with the least expected deadwood after the next draw (over the cards
                this player has not seen); ties to the lower deadwood now, then ``high``;
  ``expert``    least value + ``danger`` x P(the opponent melds the card, from the
                opponent-hand inference) - ``low_late`` x lateness x points;
  ``marjj``     MARJJ's rule: among the unmelded cards worth the most, the least
                deadwood now + its weighted future deadwood + its opponent-model table
                (:mod:`analyzer.gin.decisions.marjj`); it knocks after the throw it chose,
                not after the least-deadwood one, when its schedule allows;
  ``learned``   least weighted sum of the throw's features, the weights fitted from
                simulated deals (:mod:`analyzer.gin.decisions.learned`);
  ``principles`` a player's rule set: an unmatched card, not one the opponent could use,
                that fits with the fewest other cards, the highest of those
                (:mod:`analyzer.gin.decisions.principles`).

Knock rules: ``schedule`` knocks (throwing a card that leaves the least deadwood, ties as
``high``) when that deadwood is at most the schedule's threshold for this turn
(:func:`analyzer.gin.model.state.knock_threshold`); ``expert`` values a knock the schedule
allows on sampled opponent hands (:mod:`analyzer.gin.decisions.expert`).  Gin is always
taken.  With ``norepeat`` a plain discard rule never repeats within a hand a pair of
face-up card taken and card thrown, unless nothing else is left.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s, UInt64s
from ...core.cards import CARD_POINTS, NEAR1, NEAR2, RANK_MATES
from ...core.lanes import bit_index, bits_of, cards_between, cards_of, popcount
from ...core.linking import compiled_once
from ...core.rng import next_below
from ..evaluator.partition import (
    best_discard_kernel,
    discard_deadwoods_kernel,
    forms_meld_kernel,
    melds_card_kernel,
    min_deadwood_kernel,
)
from ..model.knowledge import pile_top
from ..model.policy_fields import DiscardRule, DrawRule, PolicyField
from ..model.state import FULL_DECK, MAX_PAIRS, Slot, knock_threshold, throwable
from .draw_principles import principles_wants_upcard
from .expert import expert_discard, expert_wants_upcard
from .learned import learned_discard
from .marjj import marjj_discard, marjj_wants_upcard
from .principles import principles_discard

_NONE = np.int64(1 << 20)


#: For each card, the cards sharing its rank or within two ranks in its suit.
_RELATED = RANK_MATES | NEAR1 | NEAR2


@compiled_once
@njit(cache=True)
def wants_upcard(state: Int64s, player: np.int64, policy: Int64s, scratch: Int64s) -> bool:
    """Whether ``player`` takes the face-up card, by its draw rule."""
    upcard = pile_top(state)
    hand = state[Slot.HAND + player]
    rule = policy[PolicyField.DRAW]
    if rule == DrawRule.NEVER:
        return False
    if rule == DrawRule.EXPERT:
        return expert_wants_upcard(state, player, policy, scratch)
    if rule == DrawRule.MELD:
        return melds_card_kernel(hand | (np.int64(1) << upcard), upcard)
    if rule == DrawRule.ANYMELD:
        return forms_meld_kernel(hand, upcard)
    if rule == DrawRule.MARJJ:
        return marjj_wants_upcard(state, player, scratch)
    if rule == DrawRule.PRINCIPLES:
        return principles_wants_upcard(state, player, policy, scratch)
    after, _ = best_discard_kernel(hand | (np.int64(1) << upcard), hand, scratch)
    return after < min_deadwood_kernel(hand)


@compiled_once
@njit(cache=True)
def takes_upcard_to_knock(state: Int64s, player: np.int64, policy: Int64s, scratch: Int64s) -> bool:
    """Whether ``player``, to draw at a stock of two under the ``wall`` rule, takes the
    pile's top: when the best discard after it leaves gin or a deadwood its schedule
    knocks with at the turn the draw starts."""
    upcard = pile_top(state)
    hand = state[Slot.HAND + player]
    after, _ = best_discard_kernel(hand | (np.int64(1) << upcard), hand, scratch)
    # own turn counter moves on the draw; the threshold is for that turn
    state[Slot.OWN_TURNS + player] += 1
    threshold = knock_threshold(state, player, policy)
    state[Slot.OWN_TURNS + player] -= 1
    return after == 0 or after <= threshold


@njit(cache=True)
def _better_high(card: np.int64, other: np.int64) -> bool:
    """Whether ``card`` is the preferred throw over ``other`` on a tie: higher value,
    then higher rank, then higher index."""
    if CARD_POINTS[card] != CARD_POINTS[other]:
        return CARD_POINTS[card] > CARD_POINTS[other]
    if card % 13 != other % 13:
        return card % 13 > other % 13
    return card > other


@njit(cache=True)
def _repeats(state: Int64s, player: np.int64, card: np.int64) -> bool:
    taken = state[Slot.TAKEN]
    if taken < 0:
        return False
    code = taken * 52 + card
    base = Slot.PAIRS + player * MAX_PAIRS
    for i in range(state[Slot.N_PAIRS + player]):
        if state[base + i] == code:
            return True
    return False


@njit(cache=True)
def _expected_next_deadwood(
    state: Int64s, player: np.int64, hand10: np.int64, scratch: Int64s
) -> np.float64:
    """Mean best deadwood after drawing one card this player has not seen (points)."""
    opponent = 1 - player
    known = state[Slot.TOOK + opponent] & ~state[Slot.THREW + opponent]
    unseen = FULL_DECK & ~state[Slot.HAND + player] & ~state[Slot.PILE_MASK] & ~known
    total = np.int64(0)
    count = np.int64(0)
    for bit in bits_of(unseen):
        value, _ = best_discard_kernel(hand10 | bit, hand10 | bit, scratch)
        total += value
        count += 1
    return total / max(count, 1)


@njit(cache=True)
def _least(candidates: np.int64, values: Int64s) -> np.int64:
    """Least ``values[card]`` over the cards of ``candidates``."""
    least = _NONE
    for card in cards_of(candidates):
        least = min(least, values[card])
    return least


@njit(cache=True)
def _highest(candidates: np.int64) -> np.int64:
    """The card of ``candidates`` preferred as a throw on a tie (see ``_better_high``)."""
    best = np.int64(-1)
    for card in cards_of(candidates):
        if best < 0 or _better_high(card, best):
            best = card
    return best


@njit(cache=True)
def _fresh(state: Int64s, player: np.int64, candidates: np.int64) -> np.int64:
    """The cards of ``candidates`` whose throw repeats no (taken, thrown) pair."""
    fresh = np.int64(0)
    for bit in bits_of(candidates):
        if not _repeats(state, player, bit_index(bit)):
            fresh |= bit
    return fresh


@njit(cache=True)
def _safe_discard(
    state: Int64s, player: np.int64, candidates: np.int64, penalty: np.int64, deadwoods: Int64s
) -> np.int64:
    """The ``safe`` rule's throw (``deadwoods``: each discard's deadwood, points)."""
    opponent = 1 - player
    held = state[Slot.TOOK + opponent] & ~state[Slot.THREW + opponent]
    best_card = np.int64(-1)
    best_score = np.inf
    for card in cards_of(candidates):
        score = np.float64(deadwoods[card] + penalty * popcount(_RELATED[card] & held))
        if score < best_score or (score == best_score and _better_high(card, best_card)):
            best_card, best_score = card, score
    return best_card


@njit(cache=True)
def _lookahead_discard(
    state: Int64s,
    player: np.int64,
    candidates: np.int64,
    least: np.int64,
    slack: np.int64,
    deadwoods: Int64s,
    work: Int64s,
) -> np.int64:
    """The ``lookahead`` rule's throw: the next draws are evaluated in ``work``, so
    ``deadwoods`` (each discard's deadwood) is kept."""
    hand = state[Slot.HAND + player]
    best_card = np.int64(-1)
    best_score = np.inf
    best_now = _NONE
    for bit in bits_of(candidates):
        card = bit_index(bit)
        now = deadwoods[card]
        if now > least + slack:
            continue
        score = _expected_next_deadwood(state, player, hand & ~bit, work)
        if (
            score < best_score
            or (score == best_score and now < best_now)
            or (score == best_score and now == best_now and _better_high(card, best_card))
        ):
            best_card, best_score, best_now = card, score, now
    return best_card


@compiled_once
@njit(cache=True)
def choose_discard(
    state: Int64s,
    player: np.int64,
    policy: Int64s,
    rng: UInt64s,
    scratch: Int64s,
    lookahead_scratch: Int64s,
) -> tuple[np.int64, bool]:
    """(card to throw, whether to knock) for ``player`` holding 11 cards, by its discard
    and knock rules."""
    rule = policy[PolicyField.DISCARD]
    if state[Slot.RACES + player] > 0 and policy[PolicyField.DISCARD_RACER] >= 0:
        rule = policy[PolicyField.DISCARD_RACER]
    if rule == DiscardRule.EXPERT:
        return expert_discard(state, player, policy, rng, scratch, lookahead_scratch)
    if rule == DiscardRule.MARJJ:
        return marjj_discard(state, player, policy, rng, scratch, lookahead_scratch)
    if rule == DiscardRule.LEARNED:
        return learned_discard(state, player, policy, rng, scratch, lookahead_scratch)
    if rule == DiscardRule.PRINCIPLES:
        return principles_discard(state, player, policy, rng, scratch, lookahead_scratch)
    candidates = throwable(state, player)
    discard_deadwoods_kernel(state[Slot.HAND + player], candidates, scratch)
    least = _least(candidates, scratch)
    if least == 0 or least <= knock_threshold(state, player, policy):
        return _highest(cards_between(candidates, scratch, least, least)), True
    if policy[PolicyField.NO_REPEAT] != 0 and state[Slot.TAKEN] >= 0:
        fresh = _fresh(state, player, candidates)
        if fresh:  # else every throw repeats: keep them all
            candidates = fresh
            least = _least(candidates, scratch)
    if rule == DiscardRule.RANDOM:
        ties = cards_between(candidates, scratch, least, least)
        for _ in range(next_below(rng, popcount(ties))):
            ties &= ties - 1
        return bit_index(ties & -ties), False
    if rule == DiscardRule.HIGH:
        return _highest(cards_between(candidates, scratch, least, least)), False
    if rule == DiscardRule.SAFE:
        return _safe_discard(
            state, player, candidates, policy[PolicyField.DANGER_PENALTY], scratch
        ), False
    return _lookahead_discard(
        state, player, candidates, least, policy[PolicyField.SLACK], scratch, lookahead_scratch
    ), False


__all__ = ["choose_discard", "takes_upcard_to_knock", "wants_upcard"]
