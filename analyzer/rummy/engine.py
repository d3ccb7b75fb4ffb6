"""One hand of plain rummy as a numba kernel, from an explicit state.

State
-----
``hands`` (int64 masks, one per seat), ``deck`` (52 card ids; the stock is
``deck[counters[C_STOCK]:]``, drawn from the front), ``pile`` (the discard pile bottom
to top, ``counters[C_PILE]`` cards), the table melds ``melds`` / ``owners`` (52-bit mask
and seat of each, ``counters[C_MELDS]`` of them) and whose turn it is
(``counters[C_PLAYER]``).  :func:`play_hand` plays from that state to the end of the hand
and leaves the final state in the same arrays, so a test can script any position.

How a turn is evaluated
-----------------------
Every decision rests on one number: the *deadwood* of a hand against the table, the
least total points of the cards that could not be got rid of by melding them or laying
them off.  A layoff onto a run is a chain of the hand's cards continuing the run down or
up (at most ``max_run - length`` cards); a layoff onto a three-card set is its missing
fourth card.  :func:`_view_rec` tries every combination of chains and fourth cards and
leaves the rest to the set/run search of :mod:`analyzer.gin.evaluator.partition`, repeated here with
lane tables built for the run cap in force (:func:`lane_tables`).

Seats are numbered from the dealer's left: seat 0 is dealt first and plays first, seat
``players - 1`` deals.

Rule interpretations
--------------------
Where the seed documents leave room, the engine reads them this way:

* Layoffs need no meld of one's own (seed 000's "if you already have melds on the table"
  is read as "if there are melds on the table"); ``layoff_own_only`` is the strict form.
* A dry stock ends the hand (or turns the pile over, whole and unshuffled, its bottom
  card becoming the top of the stock) when a player who wants to draw from the stock
  finds it empty; a player may still take the top discard instead.
* A player who can go out always does.  Without ``final_discard`` it may meld its last
  card instead of discarding it.  "Rummy" is going out with nothing melded or laid off
  earlier in the hand; layoffs made in the going-out turn itself are allowed.  A seat
  that owns a table meld in a scripted starting position has melded already.
* ``second_turn_out``: a player's first turn (counted from the given position) cannot
  end the hand.  A player who is not going out never melds down to fewer than two cards
  (one to discard, one to keep); it holds its melds for that turn instead.
* ``must_meld`` forces melds, not layoffs, and ends any holding for Rummy.
* ``max_run`` caps new runs and layoffs alike; a longer stretch in hand is split into
  legal runs, leaving out the cheapest end card when it cannot be split.
* "Rummy on the board": after a discard, the first other player in turn order whose
  policy calls (a player still holding for Rummy never does) takes the discard and lays
  it off at once on a meld it may use, or, when the top three or more cards of the pile
  form a meld, takes them as a new meld of its own.  The caller does not discard, play
  then passes on as usual, and calling counts as having melded.
* A hand still running after ``turn_limit`` turns is void (no score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from ..core.cards import N_RANKS
from ..core.lanes import (
    LANE_MASK,
    bit_index,
    lane_tables,
    lanes_discards,
    lanes_min,
    popcount,
    set_ranks,
    split_lanes,
)
from .policies import PolicyField
from .rules import RuleField

#: Room for table melds: 52 cards make at most 17 melds of three.
MAX_MELDS = 20

# counters[]: stock pointer, discard pile length, table melds, seat to play
C_STOCK = 0
C_PILE = 1
C_MELDS = 2
C_PLAYER = 3
N_COUNTERS = 4

# result[]: how the hand ended
RES_WINNER = 0       # seat that went out, -1 when the hand was void
RES_POINTS = 1       # points scored by the winner (Rummy multiplier included)
RES_RUMMY = 2        # 1 when the winner went out "Rummy"
RES_TURNS = 3        # turns played, all players together
RES_END = 4          # END_* code
RES_RESHUFFLES = 5   # times the discard pile was turned over as the stock
RES_CALLS = 6        # "rummy on the board" calls
RES_LEFT = 7         # RES_LEFT + seat: points left in each seat's hand at the end
N_RESULT = RES_LEFT + 6

END_OUT = 0          # a player went out
END_STOCK = 1        # the stock ran out (no score)
END_TURN_LIMIT = 2   # abandoned after rules.turn_limit turns (no score)

_BIG = np.int64(1 << 20)
# no card has to be melded: the evaluator then never reads its melded-lanes table, so the
# deadwood table is passed in its place
_NOT_FORCED = np.int64(0)

_MODE_MIN = 0        # _view_rec returns the least deadwood
_MODE_DISCARD = 1    # ... and fills out[card] with the least deadwood after discarding card
_MODE_ARRANGE = 2    # ... and records the best arrangement in best / best_choice

# view[]: layoff spots on the table for one player (see _build_view)
_V_RUNS = 0          # number of runs with room
_V_FOURTHS = 1       # mask of the missing fourth cards of three-card sets
_V_SET_MELD = 2      # 13 entries: index of the three-card set of each rank, -1 if none
_V_RUN0 = _V_SET_MELD + N_RANKS  # 4 entries per run: low card, high card, room, meld index
_VIEW_SIZE = _V_RUN0 + 4 * MAX_MELDS


# ------------------------------------------------------------------------ lane tables


# ----------------------------------------------------------- set / run search kernels


@njit(cache=True)
def _set_cards(c: np.int64, d: np.int64, h: np.int64, s: np.int64, bit: np.int64) -> np.int64:
    """52-bit mask of the cards at rank ``bit`` in the given lanes."""
    return (c & bit) | (d & bit) << 13 | (h & bit) << 26 | (s & bit) << 39


@njit(cache=True)
def _arr_rec(c: np.int64, d: np.int64, h: np.int64, s: np.int64, pending: np.int64,
             rd: npt.NDArray[np.int64]) -> tuple[np.int64, np.int64]:
    """(least deadwood, cards melded in sets) of the first best arrangement found."""
    if pending == 0:
        return rd[c] + rd[d] + rd[h] + rd[s], np.int64(0)
    bit = pending & -pending
    rest = pending ^ bit
    keep = ~bit
    best, sets = _arr_rec(c, d, h, s, rest, rd)
    value, more = _arr_rec(c & keep, d & keep, h & keep, s & keep, rest, rd)
    if value < best:
        best, sets = value, more | _set_cards(c, d, h, s, bit)
    if c & d & h & s & bit:
        for out in range(4):
            # the three-card set leaving suit ``out`` free for a run
            cc = c if out == 0 else c & keep
            dd = d if out == 1 else d & keep
            hh = h if out == 2 else h & keep
            ss = s if out == 3 else s & keep
            value, more = _arr_rec(cc, dd, hh, ss, rest, rd)
            if value < best:
                best = value
                sets = more | _set_cards(c ^ cc, d ^ dd, h ^ hh, s ^ ss, bit)
    return best, sets


@njit(cache=True)
def _card_of(mask: np.int64) -> np.int64:
    """Index of the lowest card of a non-empty 52-bit mask."""
    return bit_index(mask & -mask)


@njit(cache=True)
def hand_points(hand: np.int64, lp: npt.NDArray[np.int64]) -> np.int64:
    """Total card points of a hand mask (``lp``: lane points table)."""
    return lp[hand & LANE_MASK] + lp[(hand >> 13) & LANE_MASK] + lp[(hand >> 26) & LANE_MASK] + lp[hand >> 39]


# ------------------------------------------------------------- deadwood with the table


@njit(cache=True)
def _build_view(melds: npt.NDArray[np.int64], owners: npt.NDArray[np.int64], n_melds: np.int64,
                player: np.int64, own_only: np.int64, cap: np.int64,
                view: npt.NDArray[np.int64]) -> None:
    """Fill ``view`` with the layoff spots open to ``player``: runs with room for more
    cards and the missing fourth card of each three-card set."""
    n_runs = 0
    fourths = np.int64(0)
    for rank in range(N_RANKS):
        view[_V_SET_MELD + rank] = -1
    for m in range(n_melds):
        if own_only and owners[m] != player:
            continue
        mask = melds[m]
        low = _card_of(mask)
        suit = low // 13
        if mask & ~(LANE_MASK << (13 * suit)):
            # a set: only a three-card set takes a layoff, its missing fourth card
            if popcount(mask) == 3:
                rank = low % 13
                for other in range(4):
                    card = np.int64(1) << (13 * other + rank)
                    if not mask & card:
                        fourths |= card
                view[_V_SET_MELD + rank] = m
            continue
        length = popcount(mask)
        if length >= cap:
            continue
        base = _V_RUN0 + 4 * n_runs
        view[base] = low
        view[base + 1] = low + length - 1
        view[base + 2] = cap - length
        view[base + 3] = m
        n_runs += 1
    view[_V_RUNS] = n_runs
    view[_V_FOURTHS] = fourths


@njit(cache=True)
def _leaf(hand: np.int64, view: npt.NDArray[np.int64], rd: npt.NDArray[np.int64],
          mode: np.int64, allowed: np.int64, out: npt.NDArray[np.int64],
          choice: npt.NDArray[np.int64], best: npt.NDArray[np.int64],
          best_choice: npt.NDArray[np.int64]) -> np.int64:
    """Every subset of fourth cards laid off, then the best sets and runs of the rest."""
    fourth = hand & view[_V_FOURTHS]
    sub = fourth
    least = _BIG
    while True:
        rest = hand & ~sub
        c, d, h, s = split_lanes(rest)
        pending = set_ranks(c, d, h, s)
        if mode == _MODE_MIN:
            value = lanes_min(c, d, h, s, pending, _NOT_FORCED, rd, rd)
        elif mode == _MODE_DISCARD:
            value = lanes_discards(c, d, h, s, pending, allowed & rest, rd, out)
        else:
            value, sets = _arr_rec(c, d, h, s, pending, rd)
            if value < best[0]:
                best[0] = value
                best[1] = sets
                best[2] = sub
                for i in range(2 * view[_V_RUNS]):
                    best_choice[i] = choice[i]
        least = min(least, value)
        if sub == 0:
            return least
        sub = (sub - 1) & fourth


@njit(cache=True)
def _view_rec(hand: np.int64, k: np.int64, view: npt.NDArray[np.int64],
              rd: npt.NDArray[np.int64], mode: np.int64, allowed: np.int64,
              out: npt.NDArray[np.int64], choice: npt.NDArray[np.int64],
              best: npt.NDArray[np.int64], best_choice: npt.NDArray[np.int64]) -> np.int64:
    """Least deadwood of ``hand`` trying, for run ``k`` of the view and every later one,
    each chain of ``a`` cards laid off below it and ``b`` above (``a + b`` <= room)."""
    # skip runs the hand cannot extend: no chain to try there
    while k < view[_V_RUNS]:
        base = _V_RUN0 + 4 * k
        below, above = view[base] - 1, view[base + 1] + 1
        if (below % 13 != 12 and hand >> below & 1) or (above % 13 != 0 and hand >> above & 1):
            break
        choice[2 * k] = 0
        choice[2 * k + 1] = 0
        k += 1
    if k == view[_V_RUNS]:
        return _leaf(hand, view, rd, mode, allowed, out, choice, best, best_choice)
    base = _V_RUN0 + 4 * k
    low, high, room = view[base], view[base + 1], view[base + 2]
    least = _BIG
    down = np.int64(0)
    a = 0
    while True:
        up = np.int64(0)
        b = 0
        while True:
            choice[2 * k] = a
            choice[2 * k + 1] = b
            value = _view_rec(hand & ~(down | up), k + 1, view, rd, mode, allowed, out,
                              choice, best, best_choice)
            least = min(least, value)
            card = high + b + 1
            if a + b >= room or card % 13 == 0 or not hand >> card & 1:
                break
            up |= np.int64(1) << card
            b += 1
        card = low - a - 1
        if a >= room or low % 13 - a == 0 or not hand >> card & 1:
            break
        down |= np.int64(1) << card
        a += 1
    return least


@njit(cache=True, inline="always")
def _with_table(hand: np.int64, view: npt.NDArray[np.int64], rd: npt.NDArray[np.int64],
                mode: np.int64, allowed: np.int64, out: npt.NDArray[np.int64],
                choice: npt.NDArray[np.int64], best: npt.NDArray[np.int64],
                best_choice: npt.NDArray[np.int64]) -> np.int64:
    """Deadwood (points) of ``hand`` against the layoff spots of ``view``; see _MODE_*."""
    if mode == _MODE_DISCARD:
        for card in range(52):
            out[card] = _BIG
    elif mode == _MODE_ARRANGE:
        best[0] = _BIG
    if _can_lay_off(hand, view):
        return _layoff_search(hand, view, rd, mode, allowed, out, choice, best, best_choice)
    # most positions: nothing to lay off, so skip the layoff search and its calls
    c, d, h, s = split_lanes(hand)
    pending = set_ranks(c, d, h, s)
    if mode == _MODE_MIN:
        return lanes_min(c, d, h, s, pending, _NOT_FORCED, rd, rd)
    if mode == _MODE_DISCARD:
        return lanes_discards(c, d, h, s, pending, allowed & hand, rd, out)
    value, sets = _arr_rec(c, d, h, s, pending, rd)
    best[0] = value
    best[1] = sets
    best[2] = 0
    for i in range(2 * view[_V_RUNS]):
        best_choice[i] = 0
    return value


@njit(cache=True)
def _layoff_search(hand: np.int64, view: npt.NDArray[np.int64], rd: npt.NDArray[np.int64],
                   mode: np.int64, allowed: np.int64, out: npt.NDArray[np.int64],
                   choice: npt.NDArray[np.int64], best: npt.NDArray[np.int64],
                   best_choice: npt.NDArray[np.int64]) -> np.int64:
    """The full layoff search of :func:`_with_table`, a function of its own so that
    :func:`_with_table` (inlined at every call site) stays small: with the recursive
    search in its body, the common evaluation with nothing to lay off ran ~4x slower."""
    return _view_rec(hand, np.int64(0), view, rd, mode, allowed, out, choice, best, best_choice)


@njit(cache=True)
def _can_lay_off(hand: np.int64, view: npt.NDArray[np.int64]) -> bool:
    """Whether ``hand`` holds a fourth card of a set or a card just beyond a run's end."""
    if hand & view[_V_FOURTHS]:
        return True
    for k in range(view[_V_RUNS]):
        base = _V_RUN0 + 4 * k
        below, above = view[base] - 1, view[base + 1] + 1
        if (below % 13 != 12 and hand >> below & 1) or (above % 13 != 0 and hand >> above & 1):
            return True
    return False


# ------------------------------------------------------------------- table updates


@njit(cache=True)
def _coverable(length: np.int64, cap: np.int64) -> bool:
    """Whether ``length`` consecutive cards split into runs of 3..cap cards."""
    if length == 0:
        return True
    for part in range(3, min(cap, length) + 1):
        if _coverable(length - part, cap):
            return True
    return False


@njit(cache=True)
def _add_meld(mask: np.int64, owner: np.int64, melds: npt.NDArray[np.int64],
              owners: npt.NDArray[np.int64], n_melds: np.int64) -> np.int64:
    melds[n_melds] = mask
    owners[n_melds] = owner
    return n_melds + 1


@njit(cache=True)
def _arrangement_left(hand: np.int64, view: npt.NDArray[np.int64], best: npt.NDArray[np.int64],
                      best_choice: npt.NDArray[np.int64], rm: npt.NDArray[np.int64]) -> np.int64:
    """Cards the arrangement recorded by ``_MODE_ARRANGE`` leaves in hand, in the order
    the search removed them: chains, fourth cards, sets, then runs."""
    for k in range(view[_V_RUNS]):
        a, b = best_choice[2 * k], best_choice[2 * k + 1]
        hand &= ~(((np.int64(1) << a) - 1) << (view[_V_RUN0 + 4 * k] - a))
        hand &= ~(((np.int64(1) << b) - 1) << (view[_V_RUN0 + 4 * k + 1] + 1))
    hand &= ~best[2] & ~best[1]
    for suit in range(4):
        hand &= ~(rm[(hand >> (13 * suit)) & LANE_MASK] << (13 * suit))
    return hand


@njit(cache=True)
def _play_arrangement(hand: np.int64, player: np.int64, view: npt.NDArray[np.int64],
                      best: npt.NDArray[np.int64], best_choice: npt.NDArray[np.int64],
                      rm: npt.NDArray[np.int64], cap: np.int64, melds: npt.NDArray[np.int64],
                      owners: npt.NDArray[np.int64], n_melds: np.int64) -> tuple[np.int64, np.int64]:
    """Put the arrangement recorded by ``_MODE_ARRANGE`` on the table: chains onto runs,
    fourth cards onto sets, the hand's own sets and runs as new melds.

    Returns the cards left in hand and the new number of table melds.
    """
    for k in range(view[_V_RUNS]):
        base = _V_RUN0 + 4 * k
        meld = view[base + 3]
        for i in range(1, best_choice[2 * k] + 1):
            card = np.int64(1) << (view[base] - i)
            melds[meld] |= card
            hand &= ~card
        for i in range(1, best_choice[2 * k + 1] + 1):
            card = np.int64(1) << (view[base + 1] + i)
            melds[meld] |= card
            hand &= ~card
    fourth = best[2]
    while fourth:
        card = fourth & -fourth
        fourth ^= card
        melds[view[_V_SET_MELD + _card_of(card) % 13]] |= card
        hand &= ~card
    sets = best[1]
    hand &= ~sets
    for rank in range(N_RANKS):
        cards = sets & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26
                        | np.int64(1) << 39) << rank
        if cards:
            n_melds = _add_meld(cards, player, melds, owners, n_melds)
    for suit in range(4):
        bits = rm[(hand >> (13 * suit)) & LANE_MASK]
        hand &= ~(bits << (13 * suit))
        rank = 0
        while rank < N_RANKS:
            if not bits >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < N_RANKS and bits >> rank & 1:
                rank += 1
            # split a block longer than the cap into runs that are each legal
            left = rank - start
            while left:
                part = min(cap, left)
                while not _coverable(left - part, cap):
                    part -= 1
                mask = ((np.int64(1) << part) - 1) << (13 * suit + start)
                n_melds = _add_meld(mask, player, melds, owners, n_melds)
                start += part
                left -= part
    return hand, n_melds


@njit(cache=True)
def _layoff_target(card: np.int64, view: npt.NDArray[np.int64]) -> np.int64:
    """Table meld that ``card`` could be laid off onto, or -1."""
    bit = np.int64(1) << card
    if view[_V_FOURTHS] & bit:
        return view[_V_SET_MELD + card % 13]
    for k in range(view[_V_RUNS]):
        base = _V_RUN0 + 4 * k
        if (card == view[base] - 1 and card % 13 != 12) or (
                card == view[base + 1] + 1 and card % 13 != 0):
            return view[base + 3]
    return np.int64(-1)


@njit(cache=True)
def _pile_meld(pile: npt.NDArray[np.int8], n_pile: np.int64, cap: np.int64) -> np.int64:
    """Largest k >= 3 such that the top k cards of the pile form a legal meld, else 0."""
    for k in range(min(n_pile, max(cap, 4)), 2, -1):
        mask = np.int64(0)
        for i in range(n_pile - k, n_pile):
            mask |= np.int64(1) << np.int64(pile[i])
        low = _card_of(mask)
        lane = mask >> (13 * (low // 13))
        if k <= cap and lane == (np.int64(1) << k) - 1 << (low % 13) and lane <= LANE_MASK:
            return k
        ranks = mask | mask >> 13 | mask >> 26 | mask >> 39
        if k <= 4 and (ranks & LANE_MASK) == np.int64(1) << (low % 13):
            return k
    return np.int64(0)


# ---------------------------------------------------------------------- policies


@njit(cache=True)
def _choose_discard(hand: np.int64, allowed: np.int64, least: np.int64,
                    out: npt.NDArray[np.int64], potential: bool,
                    lp: npt.NDArray[np.int64]) -> np.int64:
    """The card to discard from ``hand & allowed`` given ``out`` (deadwood after each
    discard) and ``least`` (deadwood before it).

    ``points``: least deadwood after it, then the highest card.  ``potential``: among the
    deadwood cards (throwing one lowers deadwood by its full value), the fewest partners
    (same rank, or same suit within two ranks), then the highest card; falls back to
    ``points`` when every card is melded.
    """
    chosen = np.int64(-1)
    chosen_key = _BIG
    bits = hand & allowed
    while bits:
        card = _card_of(bits)
        bits &= bits - 1
        value = lp[np.int64(1) << (card % 13)]
        key = out[card] * 16 - value
        if potential and out[card] == least - value:
            rank = card % 13
            same_rank = popcount((hand >> rank) & (np.int64(1) | np.int64(1) << 13
                                                     | np.int64(1) << 26 | np.int64(1) << 39))
            lane = (hand >> (13 * (card // 13))) & LANE_MASK
            near = popcount(((lane << 2) >> rank) & 0b11111)
            # partners first, then high cards; below every non-deadwood key
            key = -_BIG + (same_rank + near - 2) * 16 - value
        if key <= chosen_key:
            chosen_key = key
            chosen = card
    return chosen


# ------------------------------------------------------------------------ the hand


@njit(cache=True)
def deal(deck: npt.NDArray[np.int8], rules: npt.NDArray[np.int64], first: np.int64,
         hands: npt.NDArray[np.int64], pile: npt.NDArray[np.int8],
         counters: npt.NDArray[np.int64]) -> None:
    """Deal from ``deck`` one card at a time starting with seat ``first`` (the dealer's
    left, who also plays first), turn the next card up as the discard pile and leave the
    rest as the stock."""
    n = rules[RuleField.PLAYERS]
    dealt = n * rules[RuleField.HAND_SIZE]
    for seat in range(n):
        hands[seat] = 0
    for k in range(dealt):
        hands[(first + k) % n] |= np.int64(1) << np.int64(deck[k])
    pile[0] = deck[dealt]
    counters[C_STOCK] = dealt + 1
    counters[C_PILE] = 1
    counters[C_MELDS] = 0
    counters[C_PLAYER] = first


@njit(cache=True, inline="always")
def _draw(hand: np.int64, p: np.int64, deck: npt.NDArray[np.int8], pile: npt.NDArray[np.int8],
          counters: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
          view: npt.NDArray[np.int64], rd: npt.NDArray[np.int64], known: npt.NDArray[np.int64],
          known_fresh: bool, out: npt.NDArray[np.int64], choice: npt.NDArray[np.int64],
          best: npt.NDArray[np.int64], best_choice: npt.NDArray[np.int64],
          result: npt.NDArray[np.int64]) -> tuple[np.int64, np.int64, np.int64, bool]:
    """Seat ``p`` draws: the top discard when it lowers its deadwood, else the stock
    (turning the pile over when the stock is dry and ``reshuffle`` allows).

    Returns ``(hand, forbidden, least, dry)``: the hand after the draw, the card taken
    from the pile (which it may not discard; 0 if none), its least deadwood (points)
    with ``out`` holding the deadwood after each discard, and whether a dry stock ended
    the hand (nothing drawn then).  ``known[p]`` is the seat's deadwood before the draw
    when ``known_fresh``.
    """
    ptr, n_pile = counters[C_STOCK], counters[C_PILE]
    take = False
    top = np.int64(0)
    if n_pile > 0:
        top = np.int64(1) << np.int64(pile[n_pile - 1])
        if known_fresh:
            now = known[p]
        else:
            now = _with_table(hand, view, rd, _MODE_MIN, hand, out, choice, best, best_choice)
        least = _with_table(hand | top, view, rd, _MODE_DISCARD, hand, out, choice, best,
                            best_choice)
        after = _BIG
        bits = hand
        while bits:
            after = min(after, out[_card_of(bits)])
            bits &= bits - 1
        take = after < now
    if take:
        counters[C_PILE] = n_pile - 1
        return hand | top, top, least, False
    if ptr >= 52:
        if not rules[RuleField.RESHUFFLE] or n_pile == 0:
            return hand, np.int64(0), _BIG, True
        # turn the pile over: its bottom card becomes the top of the new stock
        ptr = 52 - n_pile
        for i in range(n_pile):
            deck[ptr + i] = pile[i]
        counters[C_PILE] = 0
        result[RES_RESHUFFLES] += 1
    hand |= np.int64(1) << np.int64(deck[ptr])
    counters[C_STOCK] = ptr + 1
    least = _with_table(hand, view, rd, _MODE_DISCARD, hand, out, choice, best, best_choice)
    return hand, np.int64(0), least, False


@njit(cache=True, inline="always")
def _go_out(hand: np.int64, forbidden: np.int64, least: np.int64, p: np.int64,
            first_turn: bool, played: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
            view: npt.NDArray[np.int64], rd: npt.NDArray[np.int64], rm: npt.NDArray[np.int64],
            out: npt.NDArray[np.int64], choice: npt.NDArray[np.int64],
            best: npt.NDArray[np.int64], best_choice: npt.NDArray[np.int64],
            melds: npt.NDArray[np.int64], owners: npt.NDArray[np.int64],
            pile: npt.NDArray[np.int8], counters: npt.NDArray[np.int64],
            hands: npt.NDArray[np.int64], result: npt.NDArray[np.int64]) -> bool:
    """Seat ``p`` goes out when it can: everything melded (without ``final_discard``) or
    all but one card, then discarded.  True when it went out (the hand is over)."""
    if rules[RuleField.SECOND_TURN_OUT] and first_turn:
        return False
    meld_all = least == 0 and not rules[RuleField.FINAL_DISCARD]
    last = np.int64(-1)
    if not meld_all:
        bits = hand & ~forbidden
        while bits:
            card = _card_of(bits)
            bits &= bits - 1
            if out[card] == 0:
                last = card
    if not meld_all and last < 0:
        return False
    keep = hand if last < 0 else hand & ~(np.int64(1) << last)
    _with_table(keep, view, rd, _MODE_ARRANGE, 0, out, choice, best, best_choice)
    _, counters[C_MELDS] = _play_arrangement(keep, p, view, best, best_choice, rm,
                                             rules[RuleField.MAX_RUN], melds, owners,
                                             counters[C_MELDS])
    if last >= 0:
        pile[counters[C_PILE]] = last
        counters[C_PILE] += 1
    hands[p] = 0
    result[RES_WINNER] = p
    result[RES_RUMMY] = 1 if played[p] == 0 else 0
    return True


@njit(cache=True, inline="always")
def _meld_and_lay_off(hand: np.int64, forbidden: np.int64, least: np.int64, p: np.int64,
                      turn: np.int64, pol: npt.NDArray[np.int64],
                      played: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
                      view: npt.NDArray[np.int64], no_table: npt.NDArray[np.int64],
                      rd: npt.NDArray[np.int64], rm: npt.NDArray[np.int64],
                      lp: npt.NDArray[np.int64], out: npt.NDArray[np.int64],
                      choice: npt.NDArray[np.int64], best: npt.NDArray[np.int64],
                      best_choice: npt.NDArray[np.int64], melds: npt.NDArray[np.int64],
                      owners: npt.NDArray[np.int64], counters: npt.NDArray[np.int64]
                      ) -> tuple[np.int64, np.int64, bool]:
    """Seat ``p`` melds and lays off as its policy says, unless it holds for Rummy, and
    always keeps two cards (one to discard, one to hold).  ``turn`` is its own turn
    number.  Returns ``(hand, least, played)``: the hand left, its least deadwood with
    ``out`` updated, and whether it put cards on the table."""
    holding = pol[PolicyField.MELD] == 1 and played[p] == 0
    if holding:
        c, d, h, s = split_lanes(hand)
        in_melds = hand_points(hand, lp) - lanes_min(c, d, h, s, set_ranks(c, d, h, s),
                                                     _NOT_FORCED, rd, rd)
        holding = not (turn > pol[PolicyField.HOLD_TURNS]
                       or in_melds > pol[PolicyField.HOLD_POINTS]
                       or (rules[RuleField.MUST_MELD] and in_melds > 0))
    # nothing to play when no card can be got rid of (least counts layoffs too)
    if holding or least >= hand_points(hand, lp):
        return hand, least, False
    table = view if pol[PolicyField.LAYOFF] == 0 else no_table
    _with_table(hand, table, rd, _MODE_ARRANGE, 0, out, choice, best, best_choice)
    if best[0] >= hand_points(hand, lp):
        return hand, least, False
    left = _arrangement_left(hand, table, best, best_choice, rm)
    # a player not going out must keep a card to discard and one to hold
    if popcount(left) < 2 or not left & ~forbidden:
        return hand, least, False
    cap = rules[RuleField.MAX_RUN]
    hand, counters[C_MELDS] = _play_arrangement(hand, p, table, best, best_choice, rm, cap,
                                                melds, owners, counters[C_MELDS])
    played[p] = 1
    _build_view(melds, owners, counters[C_MELDS], p, rules[RuleField.LAYOFF_OWN_ONLY], cap,
                view)
    least = _with_table(hand, view, rd, _MODE_DISCARD, hand, out, choice, best, best_choice)
    return hand, least, True


@njit(cache=True, inline="always")
def _discard(hand: np.int64, forbidden: np.int64, least: np.int64, p: np.int64,
             pol: npt.NDArray[np.int64], out: npt.NDArray[np.int64],
             lp: npt.NDArray[np.int64], pile: npt.NDArray[np.int8],
             counters: npt.NDArray[np.int64], hands: npt.NDArray[np.int64],
             known: npt.NDArray[np.int64]) -> np.int64:
    """Seat ``p`` discards (never the card just taken from the pile); returns the card
    and records the seat's deadwood after it in ``known[p]``."""
    card = _choose_discard(hand, ~forbidden, least, out, pol[PolicyField.DISCARD] == 1, lp)
    pile[counters[C_PILE]] = card
    counters[C_PILE] += 1
    hands[p] = hand & ~(np.int64(1) << card)
    known[p] = out[card]
    return card


@njit(cache=True, inline="always")
def _rummy_on_board(card: np.int64, p: np.int64, policies: npt.NDArray[np.int64],
                    played: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
                    view: npt.NDArray[np.int64], melds: npt.NDArray[np.int64],
                    owners: npt.NDArray[np.int64], pile: npt.NDArray[np.int8],
                    counters: npt.NDArray[np.int64]) -> bool:
    """The first other player (in turn order) who may call "rummy on the board" takes
    seat ``p``'s discard ``card`` onto a meld, or the top of the pile as a new meld.
    True when someone called."""
    n = rules[RuleField.PLAYERS]
    cap = rules[RuleField.MAX_RUN]
    for j in range(1, n):
        q = (p + j) % n
        if policies[q, PolicyField.CALL] == 0 or (policies[q, PolicyField.MELD] == 1
                                                  and played[q] == 0):
            continue
        _build_view(melds, owners, counters[C_MELDS], q, rules[RuleField.LAYOFF_OWN_ONLY],
                    cap, view)
        target = _layoff_target(card, view)
        if target >= 0:
            melds[target] |= np.int64(1) << card
            counters[C_PILE] -= 1
        else:
            n_pile = counters[C_PILE]
            size = _pile_meld(pile, n_pile, cap)
            if size == 0:
                continue
            mask = np.int64(0)
            for i in range(n_pile - size, n_pile):
                mask |= np.int64(1) << np.int64(pile[i])
            counters[C_MELDS] = _add_meld(mask, q, melds, owners, counters[C_MELDS])
            counters[C_PILE] = n_pile - size
        played[q] = 1
        return True
    return False


@njit(cache=True, inline="always")
def _score(hands: npt.NDArray[np.int64], rules: npt.NDArray[np.int64],
           lp: npt.NDArray[np.int64], result: npt.NDArray[np.int64]) -> None:
    """Points left in each hand and, when someone went out, its score (points)."""
    left_total = np.int64(0)
    for seat in range(rules[RuleField.PLAYERS]):
        result[RES_LEFT + seat] = hand_points(hands[seat], lp)
        left_total += result[RES_LEFT + seat]
    if result[RES_END] == END_OUT:
        multiplier = rules[RuleField.RUMMY_MULTIPLIER] if result[RES_RUMMY] else 1
        result[RES_POINTS] = left_total * multiplier


@njit(cache=True)
def play_hand(hands: npt.NDArray[np.int64], deck: npt.NDArray[np.int8],
              pile: npt.NDArray[np.int8], melds: npt.NDArray[np.int64],
              owners: npt.NDArray[np.int64], counters: npt.NDArray[np.int64],
              rules: npt.NDArray[np.int64], policies: npt.NDArray[np.int64],
              rd: npt.NDArray[np.int64], rm: npt.NDArray[np.int64], lp: npt.NDArray[np.int64],
              result: npt.NDArray[np.int64]) -> None:
    """Play a hand to its end from the state in the arrays, which it updates in place.

    Parameters
    ----------
    hands : ndarray(int64, shape=(players,))
        Card masks by seat.
    deck : ndarray(int8, shape=(52,))
        Stock is ``deck[counters[C_STOCK]:]``, top first.
    pile : ndarray(int8, shape=(52,))
        Discard pile, bottom first, ``counters[C_PILE]`` cards.
    melds, owners : ndarray(int64, shape=(MAX_MELDS,))
        Table melds (card masks) and the seat that owns each.
    counters : ndarray(int64, shape=(N_COUNTERS,))
        Stock pointer, pile length, meld count, seat to play.
    rules : ndarray(int64)
        :meth:`RummyRules.to_array`.
    policies : ndarray(int64, shape=(players, N_POLICY_FIELDS))
        :meth:`RummyPolicy.to_array` of each seat.
    rd, rm, lp : ndarray(int64, shape=(8192,))
        :func:`lane_tables` for the rules' run cap.
    result : ndarray(int64, shape=(N_RESULT,))
        Filled with the ``RES_*`` fields.

    Notes
    -----
    A turn: draw (the top discard if it lowers the player's deadwood, else the stock,
    turning the pile over or ending the hand when the stock is dry); go out if possible;
    otherwise meld and lay off as the policy says, keeping at least two cards; discard
    (never the card just taken from the pile); then, with ``rummy_on_board``, let the
    other players call the discard.  Turns are counted per seat from the given position
    (for ``second_turn_out``) and in total (for ``turn_limit``).  Each phase is its own
    kernel (:func:`_draw`, :func:`_go_out`, :func:`_meld_and_lay_off`, :func:`_discard`,
    :func:`_rummy_on_board`, :func:`_score`); numba compiles them into this one.
    """
    n = rules[RuleField.PLAYERS]
    cap = rules[RuleField.MAX_RUN]
    own_only = rules[RuleField.LAYOFF_OWN_ONLY]
    out = np.empty(52, dtype=np.int64)
    view = np.empty(_VIEW_SIZE, dtype=np.int64)
    no_table = np.zeros(_VIEW_SIZE, dtype=np.int64)
    choice = np.zeros(2 * MAX_MELDS, dtype=np.int64)
    best_choice = np.zeros(2 * MAX_MELDS, dtype=np.int64)
    best = np.zeros(3, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)   # has melded or laid off this hand (no Rummy)
    # each seat's deadwood after its last discard, valid while the table is unchanged:
    # it spares the draw decision one search
    version = 0
    known = np.zeros(n, dtype=np.int64)
    known_version = np.full(n, -1, dtype=np.int64)
    for i in range(N_RESULT):
        result[i] = 0
    result[RES_WINNER] = -1
    for m in range(counters[C_MELDS]):
        # a seat owning a meld on the table has melded this hand: no Rummy for it
        played[owners[m]] = 1
    total = 0
    end = END_TURN_LIMIT
    while total < rules[RuleField.TURN_LIMIT]:
        p = counters[C_PLAYER]
        pol = policies[p]
        _build_view(melds, owners, counters[C_MELDS], p, own_only, cap, view)
        hand, forbidden, least, dry = _draw(hands[p], p, deck, pile, counters, rules, view, rd,
                                            known, known_version[p] == version, out, choice,
                                            best, best_choice, result)
        if dry:
            end = END_STOCK
            break
        turns[p] += 1
        total += 1
        if _go_out(hand, forbidden, least, p, turns[p] == 1, played, rules, view, rd, rm, out,
                   choice, best, best_choice, melds, owners, pile, counters, hands, result):
            end = END_OUT
            break
        hand, least, melded = _meld_and_lay_off(hand, forbidden, least, p, turns[p], pol,
                                                played, rules, view, no_table, rd, rm, lp,
                                                out, choice, best, best_choice, melds,
                                                owners, counters)
        version += melded
        card = _discard(hand, forbidden, least, p, pol, out, lp, pile, counters, hands, known)
        known_version[p] = version
        if rules[RuleField.RUMMY_ON_BOARD] and _rummy_on_board(card, p, policies, played, rules,
                                                                view, melds, owners, pile,
                                                                counters):
            version += 1
            result[RES_CALLS] += 1
        counters[C_PLAYER] = (p + 1) % n
    result[RES_TURNS] = total
    result[RES_END] = end
    _score(hands, rules, lp, result)


# ------------------------------------------------------------------ Python wrapper


@dataclass(frozen=True)
class HandOutcome:
    """End of one hand played by :func:`play_scripted`.

    ``winner`` is the seat that went out (-1 when void), ``points`` its score in points,
    ``hands`` the masks left by seat, ``melds`` the table as (mask, owner seat) pairs,
    ``pile`` the discard pile bottom first, ``stock`` the undrawn stock top first.
    """

    winner: int
    points: int
    rummy: bool
    turns: int
    end: int
    reshuffles: int
    calls: int
    hands: tuple[int, ...]
    melds: tuple[tuple[int, int], ...]
    pile: tuple[int, ...]
    stock: tuple[int, ...]


def play_scripted(hands: Sequence[int], stock: Sequence[int], pile: Sequence[int],
                  rules_array: npt.NDArray[np.int64], policies: npt.NDArray[np.int64],
                  melds: Sequence[tuple[int, int]] = (), first: int = 0) -> HandOutcome:
    """Play one hand from an explicit position (cards as indices, hands as masks).

    ``stock`` is drawn from the front; ``pile`` lists the discard pile bottom first;
    ``melds`` are table melds as (mask, owner seat).  Every card must appear at most once.
    """
    n = int(rules_array[RuleField.PLAYERS])
    if len(hands) != n or policies.shape[0] != n:
        raise ValueError(f"need {n} hands and {n} policies")
    used = 0
    for mask in [*hands, *(m for m, _ in melds)] + [1 << c for c in [*stock, *pile]]:
        if used & mask:
            raise ValueError("a card appears twice in the scripted position")
        used |= mask
    deck = np.zeros(52, dtype=np.int8)
    ptr = 52 - len(stock)
    # the stock ends the deck; the drawn part before it is never read again
    deck[:] = [c for c in range(52) if c not in set(stock)] + list(stock)
    pile_array = np.zeros(52, dtype=np.int8)
    pile_array[: len(pile)] = pile
    hand_array = np.array(hands, dtype=np.int64)
    meld_array = np.zeros(MAX_MELDS, dtype=np.int64)
    owner_array = np.zeros(MAX_MELDS, dtype=np.int64)
    for i, (mask, owner) in enumerate(melds):
        meld_array[i], owner_array[i] = mask, owner
    counters = np.array([ptr, len(pile), len(melds), first], dtype=np.int64)
    result = np.zeros(N_RESULT, dtype=np.int64)
    rd, rm, lp = lane_tables(int(rules_array[RuleField.MAX_RUN]))
    play_hand(hand_array, deck, pile_array, meld_array, owner_array, counters,
              rules_array, np.ascontiguousarray(policies, dtype=np.int64), rd, rm, lp, result)
    return HandOutcome(
        winner=int(result[RES_WINNER]), points=int(result[RES_POINTS]),
        rummy=bool(result[RES_RUMMY]), turns=int(result[RES_TURNS]), end=int(result[RES_END]),
        reshuffles=int(result[RES_RESHUFFLES]), calls=int(result[RES_CALLS]),
        hands=tuple(int(h) for h in hand_array),
        melds=tuple((int(meld_array[i]), int(owner_array[i])) for i in range(counters[C_MELDS])),
        pile=tuple(int(c) for c in pile_array[: counters[C_PILE]]),
        stock=tuple(int(c) for c in deck[counters[C_STOCK]:]))
