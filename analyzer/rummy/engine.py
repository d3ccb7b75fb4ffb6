"""One hand of plain rummy as a numba kernel, from an explicit state.

State
-----
``hands`` (int64 masks, one per seat), ``deck`` (52 card ids; the stock is
``deck[counters[Counter.STOCK]:]``, drawn from the front), ``pile`` (the discard pile
bottom to top, ``counters[Counter.PILE]`` cards), the table melds ``melds`` / ``owners``
(52-bit mask and seat of each, ``counters[Counter.MELDS]`` of them) and whose turn it is
(``counters[Counter.PLAYER]``), laid out by :mod:`analyzer.rummy.state`.  :func:`play_hand`
plays from that state to the end of the hand and leaves the final state in the same
arrays, so a test can script any position (:func:`analyzer.rummy.scripted.play_scripted`).

How a turn is evaluated
-----------------------
Every decision rests on the deadwood of a hand against the table, the least total points
of the cards that could not be got rid of by melding them or laying them off
(:mod:`analyzer.rummy.layoffs`); the melds and layoffs chosen are put on the table by
:mod:`analyzer.rummy.table`.

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

import numpy as np
from numba import njit

from ..core.arrays import Int8s, Int64s
from ..core.lanes import LANE_MASK, NO_ARRANGEMENT, lanes_min, popcount, set_ranks, split_lanes
from .layoffs import (
    MODE_ARRANGE,
    MODE_DISCARD,
    MODE_MIN,
    NOT_FORCED,
    VIEW_SIZE,
    build_view,
    card_of,
    hand_points,
    layoff_target,
    with_table,
)
from .policies import PolicyField
from .rules import RuleField
from .state import MAX_MELDS, N_RESULT, Counter, End, ResultField
from .table import add_meld, arrangement_left, pile_meld, play_arrangement


@njit(cache=True)
def _choose_discard(
    hand: np.int64, allowed: np.int64, least: np.int64, out: Int64s, potential: bool, lp: Int64s
) -> np.int64:
    """The card to discard from ``hand & allowed`` given ``out`` (deadwood after each
    discard) and ``least`` (deadwood before it).

    ``points``: least deadwood after it, then the highest card.  ``potential``: among the
    deadwood cards (throwing one lowers deadwood by its full value), the fewest partners
    (same rank, or same suit within two ranks), then the highest card; falls back to
    ``points`` when every card is melded.
    """
    chosen = np.int64(-1)
    chosen_key = NO_ARRANGEMENT
    bits = hand & allowed
    while bits:
        card = card_of(bits)
        bits &= bits - 1
        value = lp[np.int64(1) << (card % 13)]
        key = out[card] * 16 - value
        if potential and out[card] == least - value:
            rank = card % 13
            same_rank = popcount(
                (hand >> rank)
                & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39)
            )
            lane = (hand >> (13 * (card // 13))) & LANE_MASK
            near = popcount(((lane << 2) >> rank) & 0b11111)
            # partners first, then high cards; below every non-deadwood key
            key = -NO_ARRANGEMENT + (same_rank + near - 2) * 16 - value
        if key <= chosen_key:
            chosen_key = key
            chosen = card
    return chosen


@njit(cache=True)
def deal(
    deck: Int8s, rules: Int64s, first: np.int64, hands: Int64s, pile: Int8s, counters: Int64s
) -> None:
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
    counters[Counter.STOCK] = dealt + 1
    counters[Counter.PILE] = 1
    counters[Counter.MELDS] = 0
    counters[Counter.PLAYER] = first


@njit(cache=True, inline="always")
def _draw(
    hand: np.int64,
    p: np.int64,
    deck: Int8s,
    pile: Int8s,
    counters: Int64s,
    rules: Int64s,
    view: Int64s,
    rd: Int64s,
    known: Int64s,
    known_fresh: bool,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    result: Int64s,
) -> tuple[np.int64, np.int64, np.int64, bool]:
    """Seat ``p`` draws: the top discard when it lowers its deadwood, else the stock
    (turning the pile over when the stock is dry and ``reshuffle`` allows).

    Returns ``(hand, forbidden, least, dry)``: the hand after the draw, the card taken
    from the pile (which it may not discard; 0 if none), its least deadwood (points)
    with ``out`` holding the deadwood after each discard, and whether a dry stock ended
    the hand (nothing drawn then).  ``known[p]`` is the seat's deadwood before the draw
    when ``known_fresh``.
    """
    ptr, n_pile = counters[Counter.STOCK], counters[Counter.PILE]
    take = False
    top = np.int64(0)
    if n_pile > 0:
        top = np.int64(1) << np.int64(pile[n_pile - 1])
        if known_fresh:
            now = known[p]
        else:
            now = with_table(hand, view, rd, MODE_MIN, hand, out, choice, best, best_choice)
        least = with_table(hand | top, view, rd, MODE_DISCARD, hand, out, choice, best, best_choice)
        after = NO_ARRANGEMENT
        bits = hand
        while bits:
            after = min(after, out[card_of(bits)])
            bits &= bits - 1
        take = after < now
    if take:
        counters[Counter.PILE] = n_pile - 1
        return hand | top, top, least, False
    if ptr >= 52:
        if not rules[RuleField.RESHUFFLE] or n_pile == 0:
            return hand, np.int64(0), NO_ARRANGEMENT, True
        # turn the pile over: its bottom card becomes the top of the new stock
        ptr = 52 - n_pile
        for i in range(n_pile):
            deck[ptr + i] = pile[i]
        counters[Counter.PILE] = 0
        result[ResultField.RESHUFFLES] += 1
    hand |= np.int64(1) << np.int64(deck[ptr])
    counters[Counter.STOCK] = ptr + 1
    least = with_table(hand, view, rd, MODE_DISCARD, hand, out, choice, best, best_choice)
    return hand, np.int64(0), least, False


@njit(cache=True, inline="always")
def _go_out(
    hand: np.int64,
    forbidden: np.int64,
    least: np.int64,
    p: np.int64,
    first_turn: bool,
    played: Int64s,
    rules: Int64s,
    view: Int64s,
    rd: Int64s,
    rm: Int64s,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    melds: Int64s,
    owners: Int64s,
    pile: Int8s,
    counters: Int64s,
    hands: Int64s,
    result: Int64s,
) -> bool:
    """Seat ``p`` goes out when it can: everything melded (without ``final_discard``) or
    all but one card, then discarded.  True when it went out (the hand is over)."""
    if rules[RuleField.SECOND_TURN_OUT] and first_turn:
        return False
    meld_all = least == 0 and not rules[RuleField.FINAL_DISCARD]
    last = np.int64(-1)
    if not meld_all:
        bits = hand & ~forbidden
        while bits:
            card = card_of(bits)
            bits &= bits - 1
            if out[card] == 0:
                last = card
    if not meld_all and last < 0:
        return False
    keep = hand if last < 0 else hand & ~(np.int64(1) << last)
    with_table(keep, view, rd, MODE_ARRANGE, 0, out, choice, best, best_choice)
    _, counters[Counter.MELDS] = play_arrangement(
        keep,
        p,
        view,
        best,
        best_choice,
        rm,
        rules[RuleField.MAX_RUN],
        melds,
        owners,
        counters[Counter.MELDS],
    )
    if last >= 0:
        pile[counters[Counter.PILE]] = last
        counters[Counter.PILE] += 1
    hands[p] = 0
    result[ResultField.WINNER] = p
    result[ResultField.RUMMY] = 1 if played[p] == 0 else 0
    return True


@njit(cache=True, inline="always")
def _meld_and_lay_off(
    hand: np.int64,
    forbidden: np.int64,
    least: np.int64,
    p: np.int64,
    turn: np.int64,
    pol: Int64s,
    played: Int64s,
    rules: Int64s,
    view: Int64s,
    no_table: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    out: Int64s,
    choice: Int64s,
    best: Int64s,
    best_choice: Int64s,
    melds: Int64s,
    owners: Int64s,
    counters: Int64s,
) -> tuple[np.int64, np.int64, bool]:
    """Seat ``p`` melds and lays off as its policy says, unless it holds for Rummy, and
    always keeps two cards (one to discard, one to hold).  ``turn`` is its own turn
    number.  Returns ``(hand, least, played)``: the hand left, its least deadwood with
    ``out`` updated, and whether it put cards on the table."""
    holding = pol[PolicyField.MELD] == 1 and played[p] == 0
    if holding:
        c, d, h, s = split_lanes(hand)
        in_melds = hand_points(hand, lp) - lanes_min(
            c, d, h, s, set_ranks(c, d, h, s), NOT_FORCED, rd, rd
        )
        holding = not (
            turn > pol[PolicyField.HOLD_TURNS]
            or in_melds > pol[PolicyField.HOLD_POINTS]
            or (rules[RuleField.MUST_MELD] and in_melds > 0)
        )
    # nothing to play when no card can be got rid of (least counts layoffs too)
    if holding or least >= hand_points(hand, lp):
        return hand, least, False
    table = view if pol[PolicyField.LAYOFF] == 0 else no_table
    with_table(hand, table, rd, MODE_ARRANGE, 0, out, choice, best, best_choice)
    if best[0] >= hand_points(hand, lp):
        return hand, least, False
    left = arrangement_left(hand, table, best, best_choice, rm)
    # a player not going out must keep a card to discard and one to hold
    if popcount(left) < 2 or not left & ~forbidden:
        return hand, least, False
    cap = rules[RuleField.MAX_RUN]
    hand, counters[Counter.MELDS] = play_arrangement(
        hand, p, table, best, best_choice, rm, cap, melds, owners, counters[Counter.MELDS]
    )
    played[p] = 1
    build_view(
        melds, owners, counters[Counter.MELDS], p, rules[RuleField.LAYOFF_OWN_ONLY], cap, view
    )
    least = with_table(hand, view, rd, MODE_DISCARD, hand, out, choice, best, best_choice)
    return hand, least, True


@njit(cache=True, inline="always")
def _discard(
    hand: np.int64,
    forbidden: np.int64,
    least: np.int64,
    p: np.int64,
    pol: Int64s,
    out: Int64s,
    lp: Int64s,
    pile: Int8s,
    counters: Int64s,
    hands: Int64s,
    known: Int64s,
) -> np.int64:
    """Seat ``p`` discards (never the card just taken from the pile); returns the card
    and records the seat's deadwood after it in ``known[p]``."""
    card = _choose_discard(hand, ~forbidden, least, out, pol[PolicyField.DISCARD] == 1, lp)
    pile[counters[Counter.PILE]] = card
    counters[Counter.PILE] += 1
    hands[p] = hand & ~(np.int64(1) << card)
    known[p] = out[card]
    return card


@njit(cache=True, inline="always")
def _rummy_on_board(
    card: np.int64,
    p: np.int64,
    policies: Int64s,
    played: Int64s,
    rules: Int64s,
    view: Int64s,
    melds: Int64s,
    owners: Int64s,
    pile: Int8s,
    counters: Int64s,
) -> bool:
    """The first other player (in turn order) who may call "rummy on the board" takes
    seat ``p``'s discard ``card`` onto a meld, or the top of the pile as a new meld.
    True when someone called."""
    n = rules[RuleField.PLAYERS]
    cap = rules[RuleField.MAX_RUN]
    for j in range(1, n):
        q = (p + j) % n
        if policies[q, PolicyField.CALL] == 0 or (
            policies[q, PolicyField.MELD] == 1 and played[q] == 0
        ):
            continue
        build_view(
            melds, owners, counters[Counter.MELDS], q, rules[RuleField.LAYOFF_OWN_ONLY], cap, view
        )
        target = layoff_target(card, view)
        if target >= 0:
            melds[target] |= np.int64(1) << card
            counters[Counter.PILE] -= 1
        else:
            n_pile = counters[Counter.PILE]
            size = pile_meld(pile, n_pile, cap)
            if size == 0:
                continue
            mask = np.int64(0)
            for i in range(n_pile - size, n_pile):
                mask |= np.int64(1) << np.int64(pile[i])
            counters[Counter.MELDS] = add_meld(mask, q, melds, owners, counters[Counter.MELDS])
            counters[Counter.PILE] = n_pile - size
        played[q] = 1
        return True
    return False


@njit(cache=True, inline="always")
def _score(hands: Int64s, rules: Int64s, lp: Int64s, result: Int64s) -> None:
    """Points left in each hand and, when someone went out, its score (points)."""
    left_total = np.int64(0)
    for seat in range(rules[RuleField.PLAYERS]):
        result[ResultField.LEFT + seat] = hand_points(hands[seat], lp)
        left_total += result[ResultField.LEFT + seat]
    if result[ResultField.END] == End.OUT:
        multiplier = rules[RuleField.RUMMY_MULTIPLIER] if result[ResultField.RUMMY] else 1
        result[ResultField.POINTS] = left_total * multiplier


@njit(cache=True)
def play_hand(
    hands: Int64s,
    deck: Int8s,
    pile: Int8s,
    melds: Int64s,
    owners: Int64s,
    counters: Int64s,
    rules: Int64s,
    policies: Int64s,
    rd: Int64s,
    rm: Int64s,
    lp: Int64s,
    result: Int64s,
) -> None:
    """Play a hand to its end from the state in the arrays, which it updates in place.

    Parameters
    ----------
    hands : ndarray(int64, shape=(players,))
        Card masks by seat.
    deck : ndarray(int8, shape=(52,))
        Stock is ``deck[counters[Counter.STOCK]:]``, top first.
    pile : ndarray(int8, shape=(52,))
        Discard pile, bottom first, ``counters[Counter.PILE]`` cards.
    melds, owners : ndarray(int64, shape=(MAX_MELDS,))
        Table melds (card masks) and the seat that owns each.
    counters : ndarray(int64, shape=(N_COUNTERS,))
        Stock pointer, pile length, meld count, seat to play, indexed by
        :class:`~analyzer.rummy.state.Counter`.
    rules : ndarray(int64)
        :meth:`RummyRules.to_array`.
    policies : ndarray(int64, shape=(players, N_POLICY_FIELDS))
        :meth:`RummyPolicy.to_array` of each seat.
    rd, rm, lp : ndarray(int64, shape=(8192,))
        :func:`analyzer.core.lanes.lane_tables` for the rules' run cap.
    result : ndarray(int64, shape=(N_RESULT,))
        Filled as :class:`~analyzer.rummy.state.ResultField` lays it out.

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
    view = np.empty(VIEW_SIZE, dtype=np.int64)
    no_table = np.zeros(VIEW_SIZE, dtype=np.int64)
    choice = np.zeros(2 * MAX_MELDS, dtype=np.int64)
    best_choice = np.zeros(2 * MAX_MELDS, dtype=np.int64)
    best = np.zeros(3, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    played = np.zeros(n, dtype=np.int64)  # has melded or laid off this hand (no Rummy)
    # each seat's deadwood after its last discard, valid while the table is unchanged:
    # it spares the draw decision one search
    version = 0
    known = np.zeros(n, dtype=np.int64)
    known_version = np.full(n, -1, dtype=np.int64)
    for i in range(N_RESULT):
        result[i] = 0
    result[ResultField.WINNER] = -1
    for m in range(counters[Counter.MELDS]):
        # a seat owning a meld on the table has melded this hand: no Rummy for it
        played[owners[m]] = 1
    total = 0
    end = End.TURN_LIMIT
    while total < rules[RuleField.TURN_LIMIT]:
        p = counters[Counter.PLAYER]
        pol = policies[p]
        build_view(melds, owners, counters[Counter.MELDS], p, own_only, cap, view)
        hand, forbidden, least, dry = _draw(
            hands[p],
            p,
            deck,
            pile,
            counters,
            rules,
            view,
            rd,
            known,
            known_version[p] == version,
            out,
            choice,
            best,
            best_choice,
            result,
        )
        if dry:
            end = End.STOCK
            break
        turns[p] += 1
        total += 1
        if _go_out(
            hand,
            forbidden,
            least,
            p,
            turns[p] == 1,
            played,
            rules,
            view,
            rd,
            rm,
            out,
            choice,
            best,
            best_choice,
            melds,
            owners,
            pile,
            counters,
            hands,
            result,
        ):
            end = End.OUT
            break
        hand, least, melded = _meld_and_lay_off(
            hand,
            forbidden,
            least,
            p,
            turns[p],
            pol,
            played,
            rules,
            view,
            no_table,
            rd,
            rm,
            lp,
            out,
            choice,
            best,
            best_choice,
            melds,
            owners,
            counters,
        )
        version += melded
        card = _discard(hand, forbidden, least, p, pol, out, lp, pile, counters, hands, known)
        known_version[p] = version
        if rules[RuleField.RUMMY_ON_BOARD] and _rummy_on_board(
            card, p, policies, played, rules, view, melds, owners, pile, counters
        ):
            version += 1
            result[ResultField.CALLS] += 1
        counters[Counter.PLAYER] = (p + 1) % n
    result[ResultField.TURNS] = total
    result[ResultField.END] = end
    _score(hands, rules, lp, result)
