"""``marjj``: a replica of MARJJ, an agent of the EAAI-2021 gin rummy competition.

Reimplemented from the published description and source of the agent (``MARJJ_v5``, by
its authors; none of its code is used here), rule for rule, quirks included, so that it
takes the same decisions as the original when fed the same game (BENCHMARKS.md,
"MARJJ replica": the agreement measured on logged games of the original, and the two
win rates against the framework's simple player).

What it knows (its ``seen`` set): every card it has held, every face-up card it was
offered, and every card the opponent threw.  From the state array (player ``p``,
opponent ``o``)::

    seen = HAND[p] | THREW[p] | TOOK[p] | THREW[o] | the first upcard

except that the first upcard is not seen when the opponent took it before ``p`` was
offered it (``p`` deals and the card is in ``TOOK[o]``): every other face-up card offered
to ``p`` is a card the opponent threw.  Its opponent model is ``TOOK[o]``: every card the
opponent took from the pile, kept even after the opponent throws it again (the
original never removes one).  Its turn count is ``OWN_TURNS[p]``, its number of
discards this hand including the one being chosen.

Draw (``draw=marjj``): take the face-up card ``u`` only when the best deadwood of the 11
cards after their best discard is lower than the deadwood of the 10 held now, and ``u``
is melded in the meld set MARJJ would lay down: among the minimum-deadwood meld sets of
the 11 cards, the one with the least layoff exposure (:func:`layoff_exposure`; ties to
the first in the framework's enumeration order, :func:`chosen_meld_set`).

Discard (``discard=marjj``; the knock is decided with it):

1. candidates: the cards unmelded in at least one minimum-deadwood meld set, except a
   card just taken from the pile, and of those only the ones worth at least the most
   expensive one's points less 5; one candidate is thrown at once; with none, every card
   but the one just taken is a candidate;
2. a candidate leaving gin (0 deadwood) is thrown at once; candidates leaving more than
   the least deadwood + 5 are dropped;
3. each candidate ``c`` scores ``deadwood(H - c) + 18 * a(c) * 0.9 ** (turns - 1) +
   opp_ev(c)`` where ``a(c)`` is the mean of the 7 lowest values, over the cards not
   seen, of the best deadwood after drawing that card to ``H - c`` and discarding (any
   of the 11 cards), and ``opp_ev`` the table of :func:`opponent_score`; the least score
   wins, ties uniformly at random (the engine's random stream).

Knock: after the discard, when the 10 cards left have deadwood 0, or at most the knock
schedule's threshold for this turn (the preset: 10 on its own turns 1-3, then gin only,
as the original's ``deadwood < 11 && turns < 4``).

Kernels (pure functions of the state; small local arrays only):
``marjj_seen(state, player)``; ``marjj_wants_upcard(state, player, scratch)`` (``scratch``:
52 int64); ``marjj_choices(state, player, scratch, work)`` -> the mask of cards it would throw (ties);
``marjj_discard(state, player, policy, rng, scratch, work)`` -> (card, knock)
(``scratch``: 52 int64; ``work``: any, its next-draw term's work space when long enough).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.lanes import bit_index, bits_of, cards_between, popcount
from ...core.linking import compiled_once
from ...core.rng import next_below
from ..evaluator.future import future_deadwood, lowest_space
from ..evaluator.partition import (
    best_discard_kernel,
    discard_deadwoods_kernel,
    melds_card_kernel,
    min_deadwood_kernel,
)
from ..model.state import FULL_DECK, Slot, knock_threshold, throwable

__all__ = [
    "FUTURE_DECAY",
    "FUTURE_WEIGHT",
    "POINT_WINDOW",
    "chosen_meld_set",
    "framework_melds",
    "layoff_exposure",
    "marjj_choices",
    "marjj_discard",
    "marjj_seen",
    "marjj_wants_upcard",
    "opponent_score",
]

#: Weight and decay per own turn of the future-deadwood term (the mean of the
#: ``FUTURE_CARDS`` best next draws, :mod:`analyzer.gin.evaluator.future`).
FUTURE_WEIGHT = 18.0
FUTURE_DECAY = 0.9
#: Candidates are within this many points of the most expensive one, and leave at most
#: this many points more than the least deadwood.
POINT_WINDOW = 5

# The framework numbers suits clubs, hearts, spades, diamonds (ours: clubs, diamonds,
# hearts, spades); its meld enumeration order and "next suit" follow its numbering.
_FRAMEWORK_SUITS = np.array([0, 2, 3, 1], dtype=np.int64)  # framework suit -> ours
_NEXT_SUIT = np.array([2, 0, 3, 1], dtype=np.int64)  # ours -> ours of the framework's next
_LANE = np.int64(0x1FFF)
_MAX_MELDS = 160


@njit(cache=True)
def marjj_seen(state: Int64s, player: np.int64) -> np.int64:
    """The cards MARJJ in seat ``player`` has seen (see the module docstring)."""
    opponent = 1 - player
    seen = (
        state[Slot.HAND + player]
        | state[Slot.THREW + player]
        | state[Slot.TOOK + player]
        | state[Slot.THREW + opponent]
    )
    upcard = state[Slot.UPCARD]
    if upcard >= 0:
        bit = np.int64(1) << upcard
        if not (state[Slot.DEALER] == player and state[Slot.TOOK + opponent] & bit):
            seen |= bit
    return seen


@njit(cache=True)
def framework_melds(hand: np.int64, out: Int64s) -> np.int64:
    """Fill ``out`` with every meld (mask) of ``hand`` in the framework's order (runs by
    its suit order, then start rank, then length; then sets by rank, the three-card sets
    missing each of its suits in turn, then the four-card set); return how many."""
    count = np.int64(0)
    for framework_suit in range(4):
        base = 13 * _FRAMEWORK_SUITS[framework_suit]
        lane = (hand >> base) & _LANE
        for start in range(11):
            for end in range(start + 2, 13):
                run = ((np.int64(1) << (end - start + 1)) - 1) << start
                if lane & run != run:
                    break
                out[count] = run << base
                count += 1
    for rank in range(13):
        every = np.int64(0)
        for suit in range(4):
            every |= np.int64(1) << (13 * suit + rank)
        for missing in range(5):
            meld = every
            if missing < 4:
                meld &= ~(np.int64(1) << (13 * _FRAMEWORK_SUITS[missing] + rank))
            if hand & meld == meld:
                out[count] = meld
                count += 1
    return count


@njit(cache=True)
def layoff_exposure(meld: np.int64, seen: np.int64, opponent_took: np.int64) -> np.int64:
    """MARJJ's layoff exposure of one meld (points): a run counts the points of its
    lowest (highest) card when the card below (above) it is held by the opponent or
    unseen; a set counts each card's points when the same rank in the framework's next
    suit is held by the opponent or unseen."""
    exposed = opponent_took | ~seen
    low = bit_index(meld & -meld)
    rest = meld & (meld - 1)
    second = bit_index(rest & -rest)
    points = np.int64(0)
    if low // 13 == second // 13:  # a run
        high = low
        probe = meld
        while probe:
            high = bit_index(probe & -probe)
            probe &= probe - 1
        if low % 13 > 0 and exposed >> (low - 1) & 1:
            points += CARD_POINTS[low]
        if high % 13 < 12 and exposed >> (high + 1) & 1:
            points += CARD_POINTS[high]
        return points
    probe = meld
    while probe:
        card = bit_index(probe & -probe)
        probe &= probe - 1
        following = 13 * _NEXT_SUIT[card // 13] + card % 13
        if exposed >> following & 1:
            points += CARD_POINTS[card]
    return points


@njit(cache=True)
def chosen_meld_set(hand: np.int64, seen: np.int64, opponent_took: np.int64) -> np.int64:
    """The cards melded in the meld set MARJJ picks for ``hand``: among the maximal meld
    sets of least deadwood, the least layoff exposure, ties to the first in the
    framework's order (fewer melds first, then by the melds' enumeration order); 0 when
    ``hand`` has no meld."""
    melds = np.empty(_MAX_MELDS, dtype=np.int64)
    exposure = np.empty(_MAX_MELDS, dtype=np.int64)
    n = framework_melds(hand, melds)
    if n == 0:
        return np.int64(0)
    for i in range(n):
        exposure[i] = layoff_exposure(melds[i], seen, opponent_took)
    chosen = np.empty(16, dtype=np.int64)
    unions = np.empty(17, dtype=np.int64)
    costs = np.empty(17, dtype=np.int64)
    hand_points = np.int64(0)
    probe = hand
    while probe:
        hand_points += CARD_POINTS[bit_index(probe & -probe)]
        probe &= probe - 1
    best_deadwood = np.int64(1 << 30)
    best_exposure = np.int64(1 << 30)
    best_size = np.int64(1 << 30)
    best_union = np.int64(0)
    depth = 0
    chosen[0] = -1
    unions[0] = 0
    costs[0] = 0
    while depth >= 0:
        i = chosen[depth] + 1
        while i < n and melds[i] & unions[depth]:
            i += 1
        if i >= n:
            depth -= 1
            continue
        chosen[depth] = i
        union = unions[depth] | melds[i]
        cost = costs[depth] + exposure[i]
        maximal = True
        for j in range(n):
            if melds[j] & union == 0:
                maximal = False
                break
        if maximal:
            deadwood = hand_points
            probe = union
            while probe:
                deadwood -= CARD_POINTS[bit_index(probe & -probe)]
                probe &= probe - 1
            size = np.int64(depth + 1)
            if deadwood < best_deadwood or (
                deadwood == best_deadwood
                and (cost < best_exposure or (cost == best_exposure and size < best_size))
            ):
                best_deadwood, best_exposure, best_size, best_union = deadwood, cost, size, union
        else:
            depth += 1
            chosen[depth] = i
            unions[depth] = union
            costs[depth] = cost
    return best_union


@compiled_once
@njit(cache=True)
def marjj_wants_upcard(state: Int64s, player: np.int64, scratch: Int64s) -> bool:
    """MARJJ's draw rule: take the pile's top when it lowers the deadwood after the best
    discard and is melded in the meld set it would choose for the 11 cards."""
    upcard = state[Slot.PILE + state[Slot.PILE_LEN] - 1]
    bit = np.int64(1) << upcard
    hand = state[Slot.HAND + player]
    hand11 = hand | bit
    after, _ = best_discard_kernel(hand11, hand11, scratch)
    if after >= min_deadwood_kernel(hand):
        return False
    if not melds_card_kernel(hand11, upcard):
        return False  # unmelded in every best meld set
    if min_deadwood_kernel(hand) + CARD_POINTS[upcard] != min_deadwood_kernel(hand11):
        return True  # melded in every best meld set
    seen = marjj_seen(state, player) | bit
    return chosen_meld_set(hand11, seen, state[Slot.TOOK + 1 - player]) & bit != 0


@njit(cache=True)
def _status(card: np.int64, mine: np.int64, opponent_took: np.int64) -> np.int64:
    """1 when the opponent took ``card`` from the pile, 2 when it is held or seen by
    MARJJ (``mine``), else 0."""
    if opponent_took >> card & 1:
        return np.int64(1)
    if mine >> card & 1:
        return np.int64(2)
    return np.int64(0)


@njit(cache=True)
def opponent_score(
    card: np.int64, hand: np.int64, seen: np.int64, opponent_took: np.int64
) -> np.float64:
    """MARJJ's bonus (negative) or penalty for throwing ``card`` from ``hand`` (points),
    its opponent model as published, quirks kept: a queen's missing second-higher
    neighbour marks the *adjacent* higher card unavailable; the same-rank count includes
    the card itself; one unavailable card of the rank (the card itself) costs the rank
    penalty when the opponent took fewer than two of the rank."""
    mine = hand | seen
    rank = card % 13
    o_h = o_l = o_h2 = o_l2 = False  # the neighbour was taken by the opponent
    u_h = u_l = u_h2 = u_l2 = False  # the neighbour is held or seen by MARJJ, or off the end
    if rank < 12:
        status = _status(card + 1, mine, opponent_took)
        o_h, u_h = status == 1, status == 2
    else:
        u_h = True
    if rank > 0:
        status = _status(card - 1, mine, opponent_took)
        o_l, u_l = status == 1, status == 2
    else:
        u_l = True
    if rank < 11:
        status = _status(card + 2, mine, opponent_took)
        o_h2, u_h2 = status == 1, status == 2
    else:
        u_h = True  # the original's quirk: the adjacent flag, not the second one
    if rank > 1:
        status = _status(card - 2, mine, opponent_took)
        o_l2, u_l2 = status == 1, status == 2
    else:
        u_l2 = True
    opp_rank = np.int64(0)
    unavailable_rank = np.int64(0)
    for suit in range(4):
        status = _status(13 * suit + rank, mine, opponent_took)
        if status == 1:
            opp_rank += 1
        elif status == 2:
            unavailable_rank += 1
    score = 0.0
    if (u_h and (u_l or u_l2)) or (u_l and (u_h or u_h2)):
        score += -10.0
    else:
        if u_l:
            score += -5.0
        if u_h:
            score += -5.0
        if u_l2:
            score += -3.0
        if u_h2:
            score += -3.0
    if (o_h and (o_l or o_l2)) or (o_l and (o_h or o_h2)):
        score += 20.0
    else:
        if o_l:
            score += 5.0
        if o_h:
            score += 5.0
        if o_l2:
            score += 3.0
        if o_h2:
            score += 3.0
    if unavailable_rank >= 3:
        score += -10.0
    elif unavailable_rank == 2:
        score += -4.0
    if opp_rank >= 2:
        score += 20.0
    elif unavailable_rank == 1:
        score += 4.0
    return np.float64(score)


@njit(cache=True)
def _pick(mask: np.int64, rng: UInt64s) -> np.int64:
    """A card of ``mask`` uniformly at random (no draw from ``rng`` for one card)."""
    count = popcount(mask)
    if count > 1:
        for _ in range(next_below(rng, count)):
            mask &= mask - 1
    return bit_index(mask & -mask)


@compiled_once
@njit(cache=True)
def marjj_choices(state: Int64s, player: np.int64, scratch: Int64s, work: Int64s) -> np.int64:
    """The cards MARJJ would throw now, holding 11 cards (one card, or the cards tied for
    its best score, or every card leaving gin: the original throws the first of those in
    the order its hand was dealt and drawn); ``scratch[c]`` is left holding the deadwood
    after throwing ``c`` for every card ``c`` but one just taken from the pile; ``work``
    may hold the next-draw term's work space
    (:func:`analyzer.gin.evaluator.future.lowest_space`; any array will do)."""
    hand = state[Slot.HAND + player]
    allowed = throwable(state, player)
    discard_deadwoods_kernel(hand, allowed, scratch)
    least_full = min_deadwood_kernel(hand)
    # cards unmelded in some minimum-deadwood meld set: throwing one loses nothing
    unmelded = np.int64(0)
    biggest = np.int64(0)
    for bit in bits_of(allowed):
        card = bit_index(bit)
        if scratch[card] + CARD_POINTS[card] == least_full:
            unmelded |= bit
            biggest = max(biggest, CARD_POINTS[card])
    candidates = np.int64(0)
    for bit in bits_of(unmelded):
        if CARD_POINTS[bit_index(bit)] >= biggest - POINT_WINDOW:
            candidates |= bit
    if popcount(candidates) == 1:
        return candidates
    if candidates == 0:
        candidates = allowed
    gin = np.int64(0)
    least = np.int64(1 << 30)
    for bit in bits_of(candidates):
        value = scratch[bit_index(bit)]
        least = min(least, value)
        if value == 0:
            gin |= bit
    if gin:
        return gin
    kept = cards_between(candidates, scratch, least, least + POINT_WINDOW)
    if popcount(kept) == 1:
        return kept
    seen = marjj_seen(state, player)
    unseen = FULL_DECK & ~seen
    opponent_took = state[Slot.TOOK + 1 - player]
    decay = FUTURE_DECAY ** np.float64(state[Slot.OWN_TURNS + player] - 1)
    lowest = lowest_space(work)
    best = np.inf
    ties = np.int64(0)
    for bit in bits_of(kept):
        card = bit_index(bit)
        # the next-draw term (0 when nothing is unseen: the original averages no draw)
        average = future_deadwood(hand & ~bit, scratch[card], unseen, lowest) if unseen else 0.0
        mine = scratch[card] + FUTURE_WEIGHT * average * decay
        score = mine + opponent_score(card, hand, seen, opponent_took)
        if score < best:
            best = score
            ties = bit
        elif score == best:
            ties |= bit
    return ties


@compiled_once
@njit(cache=True)
def marjj_discard(
    state: Int64s, player: np.int64, policy: Int64s, rng: UInt64s, scratch: Int64s, work: Int64s
) -> tuple[np.int64, bool]:
    """(card to throw, whether to knock) for ``player`` holding 11 cards: one of
    :func:`marjj_choices` uniformly at random, and a knock when the deadwood it leaves is
    0 or within the knock schedule's threshold for this turn."""
    card = _pick(marjj_choices(state, player, scratch, work), rng)
    left = scratch[card]
    return card, bool(left == 0 or left <= knock_threshold(state, player, policy))
