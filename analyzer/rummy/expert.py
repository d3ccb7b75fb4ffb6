"""``rummy-expert``'s decisions: hold or play, and what to throw, by an evaluation of the
position each choice leaves, as numba kernels over the state array.

After drawing (as every player draws) and unless it can go out, the player compares two
plays: *hold* (put nothing on the table, keeping the chance of going out "Rummy") and
*play* (meld and lay off every card the best arrangement gets rid of, keeping two cards,
as ``simple`` does).  For each play and each card it may throw, it scores the position
left by a weighted sum of features (the policy's ``w_*`` weights, hundredths of a point
per unit, a cost) and makes the play and throw of lowest score:

``deadwood``  the deadwood left after the throw (points), its distance from going out;
``risk``      the points left in hand, what an opponent's going out would cost it,
              weighted by the threat: the fewest cards an opponent holds (1 .. 5 or more,
              public) plus its own turns played (a holder's hidden threat), divided by
              ``players - 1`` (the points go to one opponent);
``outs``      the unseen cards that would meld with the cards left (the other cards of a
              rank held twice, the cards making a run of three with two of a suit's) or
              lay off onto the table;
``feed``      the throw can be laid off at once by the next player, who would take it;
``known``     the cards the next player took from the pile and still holds that the
              throw melds with (a rank mate, or a card of its suit within two ranks);
``danger``    the unseen cards that meld with the throw (what any opponent may hold);
``rummy``     still able to go out Rummy (nothing played): the opponents' cards in hand
              (the pot) times the extra multiple and the share of the stock left
              (a dry stock voids the hand; 1 when the pile is turned over), a gain;
``spots``     the unseen cards the opponents could lay off onto its own melds.

"Unseen" is what the player cannot place: not in its hand, the pile or on the table, nor
taken from the pile by an opponent who still holds it.  ``meld=expert`` chooses the play
and the throw together; ``discard=expert`` with a scripted ``meld`` makes the scripted
play and then throws by the evaluation; ``meld=expert`` with a scripted ``discard``
scores each play by the card the scripted rule would throw.  With ``must_meld`` it plays
whenever it holds a meld it may put down, and it never calls "rummy on the board" while
it can still go out Rummy.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from ..core.arrays import Float64s, Int64s
from ..core.cards import CARD_POINTS, NEAR1, NEAR2, RANK_MATES
from ..core.lanes import LANE_MASK, popcount, run_outs, split_lanes
from .decisions import (
    choose_discard,
    discard_values,
    melds_in_hand,
    play_arrangement,
    scripted_play,
    taken_bit,
)
from .layoffs import build_view, hand_points, layoff_spots
from .policies import RISK_BUCKETS, Discard, Meld, PolicyField
from .rules import RuleField
from .state import Slot, stock_left, unseen_by


@njit(cache=True)
def completions(hand: np.int64) -> np.int64:
    """The cards outside ``hand`` that would meld with two or more of its cards: the
    other suits of a rank it holds at least twice, and in each suit the cards making a
    run of three with two of the suit's cards (which include the ends of its runs)."""
    c, d, h, s = split_lanes(hand)
    pairs = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    return (
        (run_outs(c) | (pairs & ~c))
        | (run_outs(d) | (pairs & ~d)) << 13
        | (run_outs(h) | (pairs & ~h)) << 26
        | (run_outs(s) | (pairs & ~s)) << 39
    )


@njit(cache=True)
def melds_spots(state: Int64s, owner: np.int64, cap: np.int64) -> np.int64:
    """The cards that could be laid off alone onto ``owner``'s table melds (a mask)."""
    spots = np.int64(0)
    for m in range(state[Slot.N_MELDS]):
        if state[Slot.OWNERS + m] != owner:
            continue
        mask = state[Slot.MELDS + m]
        low = mask & -mask
        lane = 13 * (popcount(low - 1) // 13)
        run = (mask >> lane) & LANE_MASK
        if mask == run << lane:
            if popcount(run) < cap:
                spots |= ((run << 1 | run >> 1) & ~run & LANE_MASK) << lane
        elif popcount(mask) == 3:
            rank = popcount(low - 1) % 13
            spots |= (np.int64(0x8004002001) << rank) & ~mask
    return spots


class Feature(IntEnum):
    """The features of a throw, in the order :func:`throw_features` fills them (the
    ``PLAY_*`` ones belong to the play, the same for every throw)."""

    DEADWOOD = 0
    HELD = 1
    """Points left in hand after the throw."""
    OUTS = 2
    FEED = 3
    KNOWN = 4
    DANGER = 5
    PLAY_RISK = 6
    """The risk weight of a held point (hundredths of a point, the threat)."""
    PLAY_RUMMY = 7
    """Opponents' cards times the extra multiple times the stock's share, or 0."""
    PLAY_SPOTS = 8
    """Unseen cards the opponents could lay off onto the seat's melds."""


#: Length of a throw's feature row.
N_FEATURES = len(Feature)


@njit(cache=True)
def play_terms(
    state: Int64s, rules: Int64s, policy: Int64s
) -> tuple[float, float, np.int64, np.int64]:
    """``(risk, rummy, spots, live)``: the features of the position of the seat to play
    that every throw shares (:class:`Feature` ``PLAY_*``) and the cards it has not seen."""
    p = state[Slot.PLAYER]
    n = rules[RuleField.PLAYERS]
    live = unseen_by(state, p, n)
    fewest = np.int64(52)
    pot = np.int64(0)
    for q in range(n):
        if q != p:
            held = popcount(state[Slot.HAND + q])
            fewest = min(fewest, held)
            pot += held
    # a dry stock voids the hand: the points at stake shrink with the stock left
    dealt = 52 - 1 - n * rules[RuleField.HAND_SIZE]
    lasting = 1.0 if rules[RuleField.RESHUFFLE] else stock_left(state) / dealt
    bucket = min(max(fewest, 1), RISK_BUCKETS) - 1
    risk = (
        (
            policy[PolicyField.W_RISK1 + bucket]
            + policy[PolicyField.W_RISK_TURN] * state[Slot.TURNS + p]
        )
        * lasting
        / (n - 1)
    )
    eligible = state[Slot.PLAYED + p] == 0 and state[Slot.PLAYED_NOW] == 0
    rummy = eligible * (rules[RuleField.RUMMY_MULTIPLIER] - 1) * pot * lasting
    spots = np.int64(0)
    if not rules[RuleField.LAYOFF_OWN_ONLY]:
        spots = popcount(melds_spots(state, p, rules[RuleField.MAX_RUN]) & live)
    return risk, rummy, spots, live


@njit(cache=True)
def throw_features(
    state: Int64s,
    rules: Int64s,
    policy: Int64s,
    out: Int64s,
    view: Int64s,
    other_view: Int64s,
    lp: Int64s,
    cards: np.int64,
    features: Float64s,
) -> None:
    """Fill ``features[card]`` (:class:`Feature` order) for each throw of the mask
    ``cards`` by the seat to play in ``state`` (see the module notes); ``out`` holds the
    deadwood after each discard and ``view`` its layoff spots; ``other_view`` is
    scratch."""
    p = state[Slot.PLAYER]
    n = rules[RuleField.PLAYERS]
    hand = state[Slot.HAND + p]
    risk, rummy, spots, live = play_terms(state, rules, policy)
    mine = layoff_spots(view) & live
    nxt = (p + 1) % n
    build_view(state, nxt, rules[RuleField.LAYOFF_OWN_ONLY], rules[RuleField.MAX_RUN], other_view)
    feeds = layoff_spots(other_view)
    known = state[Slot.HELD + nxt]
    bits = cards
    while bits:
        bit = bits & -bits
        bits ^= bit
        card = popcount(bit - 1)
        rest = hand ^ bit
        partners = RANK_MATES[card] | NEAR1[card] | NEAR2[card]
        row = features[card]
        row[Feature.DEADWOOD] = out[card]
        row[Feature.HELD] = hand_points(rest, lp)
        row[Feature.OUTS] = popcount((completions(rest) | mine) & live & ~rest)
        row[Feature.FEED] = feeds >> card & 1
        row[Feature.KNOWN] = popcount(known & partners)
        row[Feature.DANGER] = popcount(live & partners)
        row[Feature.PLAY_RISK] = risk
        row[Feature.PLAY_RUMMY] = rummy
        row[Feature.PLAY_SPOTS] = spots


@njit(cache=True)
def throw_terms(
    row: Float64s, policy: Int64s
) -> tuple[float, float, float, float, float, float, float, float, float]:
    """The terms of a throw's evaluation, one per :class:`Feature` (hundredths of a
    point, a cost): each feature times its weight, the points held times the risk
    (``PLAY_RISK``'s own term is 0)."""
    return (
        policy[PolicyField.W_DEADWOOD] * row[Feature.DEADWOOD],
        row[Feature.PLAY_RISK] * row[Feature.HELD],
        policy[PolicyField.W_OUTS] * row[Feature.OUTS],
        policy[PolicyField.W_FEED] * row[Feature.FEED],
        policy[PolicyField.W_KNOWN] * row[Feature.KNOWN],
        policy[PolicyField.W_DANGER] * row[Feature.DANGER],
        0.0,
        policy[PolicyField.W_RUMMY] * row[Feature.PLAY_RUMMY],
        policy[PolicyField.W_SPOTS] * row[Feature.PLAY_SPOTS],
    )


@njit(cache=True)
def throw_score(row: Float64s, policy: Int64s) -> float:
    """The evaluation of a throw from its features (hundredths of a point, a cost)."""
    terms = throw_terms(row, policy)
    total = 0.0
    for k in range(N_FEATURES):
        total += terms[k]
    return total


@njit(cache=True)
def best_throw(
    state: Int64s,
    rules: Int64s,
    policy: Int64s,
    out: Int64s,
    view: Int64s,
    other_view: Int64s,
    lp: Int64s,
    only: np.int64,
    features: Float64s,
) -> tuple[float, np.int64]:
    """``(score, card)``: the throw of lowest evaluation for the seat to play in
    ``state``, only the card ``only`` when it is >= 0 (``features``: 52 rows of
    scratch)."""
    cards = state[Slot.HAND + state[Slot.PLAYER]] & ~taken_bit(state)
    if only >= 0:
        cards &= np.int64(1) << only
    throw_features(state, rules, policy, out, view, other_view, lp, cards, features)
    best_score = np.inf
    best_card = np.int64(-1)
    bits = cards
    while bits:
        bit = bits & -bits
        bits ^= bit
        card = popcount(bit - 1)
        score = throw_score(features[card], policy)
        # ties go to the higher card, then the later one (as the points rule)
        if score < best_score or (
            score == best_score and CARD_POINTS[card] >= CARD_POINTS[best_card]
        ):
            best_score, best_card = score, card
    return best_score, best_card


@njit(cache=True, inline="always")
def _scripted_card(
    state: Int64s, policy: Int64s, least: np.int64, out: Int64s, lp: Int64s
) -> np.int64:
    """The card the policy's scripted discard rule throws, or -1 with ``discard=expert``."""
    if policy[PolicyField.DISCARD] == Discard.EXPERT:
        return np.int64(-1)
    return choose_discard(
        state[Slot.HAND + state[Slot.PLAYER]],
        ~taken_bit(state),
        least,
        out,
        policy[PolicyField.DISCARD] == Discard.POTENTIAL,
        lp,
    )


@njit(cache=True)
def expert_play(
    state: Int64s,
    rules: Int64s,
    policy: Int64s,
    least: np.int64,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    view: Int64s,
    no_table: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    alt: Int64s,
    other_view: Int64s,
    features: Float64s,
) -> tuple[np.int64, np.int64]:
    """Hold or play, then the throw, for a policy with ``meld=expert`` or
    ``discard=expert`` (see the module notes); the play is made on ``state``.  Returns
    ``(card, deadwood)``: the card to throw and the deadwood it leaves (points).
    ``least``, ``out`` and ``view``: the seat's deadwood, discards and layoff spots now;
    ``alt``, ``other_view`` and ``features`` are scratch."""
    if policy[PolicyField.MELD] != Meld.EXPERT:
        least = scripted_play(
            state, rules, policy, least, rd, rm, lp, out, view, no_table, choice, best, best_choice
        )
        card = best_throw(
            state,
            rules,
            policy,
            out,
            view,
            other_view,
            lp,
            _scripted_card(state, policy, least, out, lp),
            features,
        )[1]
        return card, out[card]
    hand = state[Slot.HAND + state[Slot.PLAYER]]
    score, card = best_throw(
        state,
        rules,
        policy,
        out,
        view,
        other_view,
        lp,
        _scripted_card(state, policy, least, out, lp),
        features,
    )
    kept = out[card]
    if least >= hand_points(hand, lp):
        return card, kept  # nothing could be got rid of
    alt[:] = state
    lay_off = policy[PolicyField.LAYOFF] == 0
    if not play_arrangement(
        alt, rules, lay_off, rd, rm, lp, out, view, no_table, choice, best, best_choice
    ):
        return card, kept
    played_least = discard_values(alt, rd, out, view, choice, best, best_choice)
    played_score, played_card = best_throw(
        alt,
        rules,
        policy,
        out,
        view,
        other_view,
        lp,
        _scripted_card(alt, policy, played_least, out, lp),
        features,
    )
    forced = rules[RuleField.MUST_MELD] and melds_in_hand(hand, rd, lp) > 0
    if played_score < score or forced:
        state[:] = alt
        return played_card, out[played_card]
    # holding: ``out`` and ``view`` now describe the play not made (the caller only
    # throws the card)
    return card, kept


@njit(cache=True)
def play_options(
    state: Int64s,
    rules: Int64s,
    policy: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    view: Int64s,
    no_table: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    alt: Int64s,
    other_view: Int64s,
    held: Float64s,
    played: Float64s,
) -> bool:
    """The features of every throw of the seat to play (having drawn) after each play:
    holding (``held``, rows of :class:`Feature`) and playing every meld and layoff it can
    (``played``; ``alt`` the state after that play).  False when it can play nothing
    (``played`` and ``alt`` untouched).  For explaining a decision: the engine's players
    decide by :func:`expert_play`."""
    build_view(
        state,
        state[Slot.PLAYER],
        rules[RuleField.LAYOFF_OWN_ONLY],
        rules[RuleField.MAX_RUN],
        view,
    )
    least = discard_values(state, rd, out, view, choice, best, best_choice)
    cards = state[Slot.HAND + state[Slot.PLAYER]] & ~taken_bit(state)
    throw_features(state, rules, policy, out, view, other_view, lp, cards, held)
    if least >= hand_points(state[Slot.HAND + state[Slot.PLAYER]], lp):
        return False
    alt[:] = state
    lay_off = policy[PolicyField.LAYOFF] == 0
    if not play_arrangement(
        alt, rules, lay_off, rd, rm, lp, out, view, no_table, choice, best, best_choice
    ):
        return False
    discard_values(alt, rd, out, view, choice, best, best_choice)
    cards = alt[Slot.HAND + alt[Slot.PLAYER]] & ~taken_bit(alt)
    throw_features(alt, rules, policy, out, view, other_view, lp, cards, played)
    return True
