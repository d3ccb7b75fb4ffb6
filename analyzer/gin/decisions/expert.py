"""The ``expert`` policy family: draws, discards and knocks that read the opponent.

Every decision starts from :func:`analyzer.gin.decisions.inference.infer_hidden`: ``p[c]`` =
P(the opponent holds ``c``).  Weights are integers in the policy array
(:class:`analyzer.gin.model.policy_fields.PolicyField`), in hundredths of a point unless said
otherwise; ``f = stock_left / 31`` is the share of the stock still to come.

Hand value (points, lower is better) of a 10-card hand ``H``::

    value(H) = deadwood(H) - outs/100 * f * sum_{x in outs(H)} (1 - p[x])

where ``outs(H)`` are the unseen cards that would complete a set with a pair of ``H``
or a run with two cards of ``H`` one or two ranks apart; each counts by the chance it
is still in the stock (the live cards).

Draw (``draw=expert``): take the pile's top ``t`` when some minimum-deadwood arrangement
of the 11 cards melds it (as ``draw=meld``), or when the best discard after taking it
leaves ``value(H + t - d) + take_margin/100 < value(H)``.  Takes of the second kind
lose: the hand's value now is the wrong baseline (a stock draw improves it on average)
and a taken card tells the opponent what is held.  Against the same player taking only
melding cards, margins of 0, 1.5 and 4 points lost 2.1, 1.1 and 0.3 points per hand
(4,000 deals each).  Margins of 5 to 7 points beat 10 points by 0.2 to 0.3 points per
hand and 3 points did not, so the preset uses 6 (``results/tuning/expert_tuning.md``).

Discard (``discard=expert``): throw the card ``c`` (not the one just taken) minimising::

    value(H - c) + danger/100 * danger(c) - low_late/100 * (1 - f) * points(c)

where ``danger(c)`` is the chance the opponent holds two cards that meld with ``c``
(two of its rank, or two of its suit neighbours making a run), from ``p``.  Ties go to
the higher card.

Knock (``knock_rule=expert``; ``knock_rule=schedule`` knocks whenever the schedule
allows): when the least deadwood ``D`` after a discard is within the schedule's
threshold (and not gin, which is always taken), ``knock_samples`` opponent hands are
drawn from ``p`` and played in for up to ``play_in`` of its stock draws
(:func:`analyzer.gin.decisions.inference.sample_played_in`), and the knock is valued on them:
``EV`` (points; a knock scores the defender's deadwood after layoffs minus ``D``, an
undercut loses the bonus plus the difference), ``P(undercut)``, ``P(end)`` = the chance the opponent knocks or goes gin on
its next turn if this player plays on (taking this throw or drawing), and ``P(game)`` =
the chance the knock wins the game (score slots).  It knocks when::

    100 * EV + knock_threat * P(end) + game_push * P(game)
        > knock_bias + knock_stock * stock_left

(sampling stops at half the samples when the two sides are already 5 points apart;
``P(end)`` is not estimated when ``knock_threat`` is 0).  Tuning found ``knock_threat``
worth nothing (run 1 of ``results/tuning/expert_tuning.md``), so the preset leaves it 0.

The ``expert`` preset knocks by its table alone (``knock_rule=schedule``, the robust knock
chart of ``results/robust_knock/``: 10 or less on own turns 1-9, then gin only; gin only
from turn 7 while the opponent holds a card it took from the pile).  The
sampled knock rule above, gated by the same table, lost to it at every bias tried
(``knock_bias`` -2000 to 0: -0.25 to -0.70 points per hand, 4,000 deals each): its
sampled opponent hands, played in, overstate the undercut risk of early knocks.  The
preset keeps the rule's tuned weights, so ``expert,knock_rule=expert`` plays it.

Kernels a search can call at any decision (pure functions of the state, the policy
array, an rng array and work arrays; no allocation):

* ``expert_wants_upcard(state, player, policy, scratch)`` (``scratch``: at least 104
  int64; with 110 (``SCRATCH_SIZE``) it tags its inference for the discard to reuse);
* ``expert_discard(state, player, policy, rng, scratch, work)`` -> (card, knock)
  (``scratch``: 52 int64; ``work``: 52, or 58 to reuse the inference made at this turn's
  draw decision by ``expert_wants_upcard(..., scratch)`` with ``work = scratch[52:]``);
* ``knock_outlook(state, player, policy, hand10, deadwood, rng, probs, unseen, scratch,
  stop_margin)`` -> (EV, P(undercut), P(end), P(game), score - threshold) for knocking
  with ``hand10``.

Or simply :func:`analyzer.gin.engine.transitions.step` / ``advance`` with the expert's policy array.
States built by hand (not dealt by ``new_hand``) must fill the knowledge slots the
inference reads (``HELD``, ``REFUSED``, ``THREW`` of the opponent) and the ``RULE_*``
slots (:func:`analyzer.gin.model.knowledge.note_rules`), or the expert reasons from less.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Float64s, Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.lanes import bit_index, bits_of, cards_of, run_outs, split_lanes
from ...core.linking import compiled_once
from ..evaluator.layoffs import layoff_deadwood_kernel
from ..evaluator.partition import (
    best_arrangement_kernel,
    best_discard_kernel,
    discard_deadwoods_kernel,
    melds_card_kernel,
    min_deadwood_kernel,
)
from ..model.knowledge import hidden_count, pile_top, unseen_cards
from ..model.policy_fields import KnockRule, PolicyField
from ..model.state import Slot, knock_threshold, stock_left, throwable
from .inference import (
    from_sampling_table,
    infer_hidden,
    play_in_rounds,
    random_card,
    sample_played_in,
    to_sampling_table,
)

_FULL_STOCK = 31.0
_NONE = np.int64(1 << 20)
#: A knock decision stops sampling at half its samples when the score is already this
#: far from its threshold (hundredths of a point): more samples would rarely flip it.
_STOP_MARGIN = 500.0


@njit(cache=True)
def outs_mask(hand: np.int64) -> np.int64:
    """Cards completing a set with a pair of ``hand`` or a run with two of its cards
    (one or two ranks apart in a suit)."""
    c, d, h, s = split_lanes(hand)
    two = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    three = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s)
    pairs = two & ~three
    out = run_outs(c) | (pairs & ~c)
    out |= (run_outs(d) | (pairs & ~d)) << 13
    out |= (run_outs(h) | (pairs & ~h)) << 26
    out |= (run_outs(s) | (pairs & ~s)) << 39
    return out


@njit(cache=True)
def live_outs(hand: np.int64, unseen: np.int64, probs: Float64s) -> np.float64:
    """Expected number of the hand's outs still in the stock: each unseen out counts
    ``1 - p`` (the chance the opponent does not hold it)."""
    total = 0.0
    for card in cards_of(outs_mask(hand) & unseen):
        total += 1.0 - probs[card]
    return total


@njit(cache=True)
def _weight(policy: Int64s, field: np.int64) -> np.float64:
    return policy[field] / 100.0


@njit(cache=True)
def _stock_share(state: Int64s) -> np.float64:
    return min(stock_left(state) / _FULL_STOCK, 1.0)


@njit(cache=True)
def hand_value(
    hand: np.int64, deadwood: np.int64, outs_weight: np.float64, unseen: np.int64, probs: Float64s
) -> np.float64:
    """``deadwood - outs_weight * live_outs`` (points; ``outs_weight`` already scaled by
    the stock share)."""
    return deadwood - outs_weight * live_outs(hand, unseen, probs)


@njit(cache=True)
def _prob(probs: Float64s, suit: np.int64, rank: np.int64) -> np.float64:
    if rank < 0 or rank > 12:
        return 0.0
    return probs[suit * 13 + rank]


@njit(cache=True)
def danger(card: np.int64, probs: Float64s) -> np.float64:
    """Chance the opponent holds two cards that meld with ``card``: two of its rank, or
    two suit neighbours that make a run with it (cards taken as independent)."""
    suit, rank = card // 13, card % 13
    a = probs[((suit + 1) % 4) * 13 + rank]
    b = probs[((suit + 2) % 4) * 13 + rank]
    c = probs[((suit + 3) % 4) * 13 + rank]
    in_set = a * b + a * c + b * c - 2.0 * a * b * c
    down1, down2 = _prob(probs, suit, rank - 1), _prob(probs, suit, rank - 2)
    up1, up2 = _prob(probs, suit, rank + 1), _prob(probs, suit, rank + 2)
    in_run = min(down1 * down2 + down1 * up1 + up1 * up2, 1.0)
    return 1.0 - (1.0 - in_set) * (1.0 - in_run)


@njit(cache=True)
def _better_high(card: np.int64, other: np.int64) -> bool:
    if other < 0:
        return True
    if CARD_POINTS[card] != CARD_POINTS[other]:
        return CARD_POINTS[card] > CARD_POINTS[other]
    if card % 13 != other % 13:
        return card % 13 > other % 13
    return card > other


_TAG = 52  # where the inference tag starts in ``work`` (see :func:`_infer_cached`)


@njit(cache=True)
def _tag_matches(state: Int64s, player: np.int64, tag: Int64s) -> bool:
    """Whether ``tag`` was written at this player's draw decision of this turn: the same
    opponent record, and a hand that has gained exactly one card since."""
    opponent = 1 - player
    hand = state[Slot.HAND + player]
    gained = hand & ~tag[2]
    return (
        tag[0] == state[Slot.DRAWS]
        and tag[1] == player
        and tag[2] & ~hand == 0
        and gained != 0
        and gained & (gained - 1) == 0
        and tag[3] == state[Slot.THREW + opponent]
        and tag[4] == state[Slot.REFUSED + opponent]
        and tag[5] == state[Slot.HELD + opponent]
    )


@njit(cache=True)
def _write_tag(state: Int64s, player: np.int64, tag: Int64s) -> None:
    opponent = 1 - player
    tag[0] = state[Slot.DRAWS] + 1  # the draw about to be made moves the counter on
    tag[1] = player
    tag[2] = state[Slot.HAND + player]
    tag[3] = state[Slot.THREW + opponent]
    tag[4] = state[Slot.REFUSED + opponent]
    tag[5] = state[Slot.HELD + opponent]


@njit(cache=True)
def _infer_cached(state: Int64s, player: np.int64, work: Int64s) -> np.int64:
    """:func:`infer_hidden` into ``work[:52]`` (as float64), reusing the probabilities
    inferred at this turn's draw decision when ``work`` carries their tag (``work`` of
    58 entries; shorter work arrays always infer afresh).  After a stock draw of ``x``
    the model's answer is the old one without ``x``, rescaled to the same count of
    hidden cards; when a card is or would be capped at 1 it infers afresh."""
    probs = work[:52].view(np.float64)
    if work.shape[0] >= _TAG + 6 and _tag_matches(state, player, work[_TAG : _TAG + 6]):
        work[_TAG] = 0  # used once
        unseen = unseen_cards(state, player)
        card = bit_index(state[Slot.HAND + player] & ~work[_TAG + 2])
        if card == state[Slot.TAKEN] or probs[card] == 0.0:
            return unseen  # the pile's top was not among the unseen cards
        hidden = hidden_count(state, player)
        scale = hidden / (hidden - probs[card])
        for other in cards_of(unseen):
            if probs[other] * scale >= 1.0:
                return infer_hidden(state, player, probs)
        for other in cards_of(unseen):
            probs[other] *= scale
        probs[card] = 0.0
        return unseen
    return infer_hidden(state, player, probs)


@compiled_once
@njit(cache=True)
def expert_wants_upcard(state: Int64s, player: np.int64, policy: Int64s, scratch: Int64s) -> bool:
    """Whether ``player`` (10 cards) takes the pile's top (see the module notes)."""
    top = pile_top(state)
    if top < 0:
        return False
    hand = state[Slot.HAND + player]
    if melds_card_kernel(hand | (np.int64(1) << top), top):
        return True
    probs = scratch[52:104].view(np.float64)
    unseen = infer_hidden(state, player, probs)
    if scratch.shape[0] >= 52 + _TAG + 6:
        _write_tag(state, player, scratch[52 + _TAG : 52 + _TAG + 6])
    outs_weight = _weight(policy, PolicyField.OUTS) * _stock_share(state)
    now = hand_value(hand, min_deadwood_kernel(hand), outs_weight, unseen, probs)
    bit = np.int64(1) << top
    discard_deadwoods_kernel(hand | bit, hand, scratch)
    margin = _weight(policy, PolicyField.TAKE_MARGIN)
    for card in bits_of(hand):
        after = hand ^ card ^ bit
        # one throw that clears the margin settles it: the best one would too
        if hand_value(after, scratch[bit_index(card)], outs_weight, unseen, probs) + margin < now:
            return True
    return False


@njit(cache=True)
def knock_outlook(
    state: Int64s,
    player: np.int64,
    policy: Int64s,
    hand10: np.int64,
    deadwood: np.int64,
    rng: UInt64s,
    probs: Float64s,
    unseen: np.int64,
    scratch: Int64s,
    stop_margin: np.float64,
) -> tuple[np.float64, np.float64, np.float64, np.float64, np.float64]:
    """(EV of knocking now (points), P(undercut), P(opponent ends on its next turn if
    this player plays on), P(the knock wins the game), knock score minus its threshold
    (hundredths of a point, see the module notes)) over ``policy``'s ``knock_samples``
    opponent hands drawn from ``probs`` and played in (``probs`` are turned into odds
    and back, so left as they were up to rounding).  ``hand10`` is this player's hand
    after its throw, ``deadwood`` its deadwood (points).

    ``P(end)`` is estimated only when the policy weighs it (``knock_threat`` != 0; else
    0).  Sampling stops after half the samples when the score is already more than
    ``stop_margin`` from its threshold (``np.inf``: never)."""
    opponent = 1 - player
    throw = bit_index(state[Slot.HAND + player] & ~hand10)
    _, sets, runs = best_arrangement_kernel(hand10)
    limit = state[Slot.KNOCK_LIMIT]
    bonus = state[Slot.RULE_UNDERCUT_BONUS]
    tie_undercuts = state[Slot.RULE_TIE_IS_UNDERCUT] != 0
    target = state[Slot.RULE_TARGET]
    in_game = state[Slot.SCORE + player] > 0 or state[Slot.SCORE + opponent] > 0
    threat = policy[PolicyField.KNOCK_THREAT]
    push = policy[PolicyField.GAME_PUSH]
    threshold = policy[PolicyField.KNOCK_BIAS] + policy[PolicyField.KNOCK_STOCK] * stock_left(state)
    n_samples = policy[PolicyField.KNOCK_SAMPLES]
    to_sampling_table(unseen, probs)
    rounds = play_in_rounds(state, player, policy[PolicyField.PLAY_IN])
    total = 0.0
    undercuts = 0
    ends = 0
    game = 0
    multiplier = state[Slot.MULTIPLIER]
    n = 0
    for i in range(n_samples):
        if i == n_samples // 2 and i > 0:
            partial = 100.0 * total / n + threat * ends / n + push * game / n - threshold
            if abs(partial) > stop_margin:
                break
        opp = sample_played_in(state, player, probs, unseen, rounds, rng, scratch)
        n += 1
        defender = layoff_deadwood_kernel(opp, sets, runs)
        if defender < deadwood or (defender == deadwood and tie_undercuts):
            points = -(bonus + deadwood - defender)
            undercuts += 1
        else:
            points = defender - deadwood
        total += points * multiplier
        if in_game and points > 0 and state[Slot.SCORE + player] + points * multiplier >= target:
            game += 1
        if threat != 0:
            # playing on instead: the opponent takes this throw when it melds and lets
            # it knock, else draws a random card it has not got
            bit = np.int64(1) << throw
            best = _NONE
            if melds_card_kernel(opp | bit, throw):
                best, _ = best_discard_kernel(opp | bit, opp, scratch)
            if best > limit:
                drawn = random_card(unseen & ~opp, rng)
                best, _ = best_discard_kernel(opp | drawn, opp | drawn, scratch)
            ends += best <= limit
    from_sampling_table(state, player, unseen, probs)
    n = max(n, 1)
    score = 100.0 * total / n + threat * ends / n + push * game / n - threshold
    return total / n, undercuts / n, ends / n, game / n, score


@compiled_once
@njit(cache=True)
def knock_choice(
    state: Int64s, player: np.int64, policy: Int64s, rng: UInt64s, scratch: Int64s, work: Int64s
) -> tuple[np.int64, np.int64, np.int64, bool, np.int64]:
    """The knock part of the expert's discard for ``player`` holding 11 cards:
    (throwable cards, least deadwood after a throw, the throw leaving it (ties to the
    higher card), whether to knock with it, the unseen mask).  Unless the hand knocks
    with gin, ``work[:52]`` is left holding the opponent-hand inference (as float64) and
    the unseen mask is its; ``scratch[c]`` holds the deadwood after throwing ``c``."""
    hand = state[Slot.HAND + player]
    candidates = throwable(state, player)
    discard_deadwoods_kernel(hand, candidates, scratch)
    least = _NONE
    knock_card = np.int64(-1)
    for card in cards_of(candidates):
        value = scratch[card]
        if value < least or (value == least and _better_high(card, knock_card)):
            least, knock_card = value, card
    if least == 0:
        return candidates, least, knock_card, True, np.int64(0)
    unseen = _infer_cached(state, player, work)
    probs = work[:52].view(np.float64)
    if least <= knock_threshold(state, player, policy):
        if policy[PolicyField.KNOCK_RULE] == KnockRule.SCHEDULE:
            return candidates, least, knock_card, True, unseen
        margin = knock_outlook(
            state,
            player,
            policy,
            hand & ~(np.int64(1) << knock_card),
            least,
            rng,
            probs,
            unseen,
            scratch,
            _STOP_MARGIN,
        )[4]
        if margin > 0:
            return candidates, least, knock_card, True, unseen
        discard_deadwoods_kernel(hand, candidates, scratch)
    return candidates, least, knock_card, False, unseen


@compiled_once
@njit(cache=True)
def expert_discard(
    state: Int64s, player: np.int64, policy: Int64s, rng: UInt64s, scratch: Int64s, work: Int64s
) -> tuple[np.int64, bool]:
    """(card to throw, whether to knock) for ``player`` holding 11 cards."""
    candidates, _, knock_card, knock, unseen = knock_choice(
        state, player, policy, rng, scratch, work
    )
    if knock:
        return knock_card, True
    hand = state[Slot.HAND + player]
    probs = work[:52].view(np.float64)
    share = _stock_share(state)
    outs_weight = _weight(policy, PolicyField.OUTS) * share
    danger_weight = _weight(policy, PolicyField.DANGER)
    late_weight = _weight(policy, PolicyField.LOW_LATE) * (1.0 - share)
    # scores without danger first (kept in ``work``'s unused top half is not possible:
    # ``probs`` fills it), so recompute for the few cards danger could still promote
    base_best = np.inf
    for bit in bits_of(candidates):
        card = bit_index(bit)
        base_best = min(
            base_best,
            hand_value(hand ^ bit, scratch[card], outs_weight, unseen, probs)
            - late_weight * CARD_POINTS[card],
        )
    best_card = np.int64(-1)
    best_score = np.inf
    for bit in bits_of(candidates):
        card = bit_index(bit)
        score = (
            hand_value(hand ^ bit, scratch[card], outs_weight, unseen, probs)
            - late_weight * CARD_POINTS[card]
        )
        if score > base_best + danger_weight:
            continue  # danger is at most 1: this card cannot be the best
        score += danger_weight * danger(card, probs)
        if score < best_score or (score == best_score and _better_high(card, best_card)):
            best_card, best_score = card, score
    return best_card, False
