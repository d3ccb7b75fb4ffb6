"""The moves of plain rummy as state transitions: the one place the rules change a hand.

Every function here takes the state array (:mod:`analyzer.rummy.state`) and the rules
array (:meth:`~analyzer.rummy.rules.RummyRules.to_array`) and makes one move of the seat
the state says is to move.  The engine's players (:mod:`analyzer.rummy.engine`) and the
stepping :class:`~analyzer.rummy.hand.Hand` change a hand only through them, so a hand
played move by move from Python is the hand a simulation plays.  They trust their
arguments (the kernels' players and :class:`~analyzer.rummy.hand.Hand`'s legality checks
make only legal moves).

The flow of a hand
------------------
:func:`new_hand` deals and leaves seat ``first`` to draw (phase ``DRAW``).

* ``DRAW``: :func:`apply_draw` takes the pile's top or the stock's (turning the pile
  over when the stock is dry and ``reshuffle`` allows, else ending the hand void) and
  moves to ``PLAY``.
* ``PLAY``: any number of :func:`apply_meld` / :func:`apply_layoff` (or one
  :func:`apply_arrangement`), then :func:`apply_discard`.  A hand emptied by a meld, a
  layoff or the discard goes out: the hand is over (``DONE``) and scored.
* After a discard, with ``rummy_on_board``, the other seats that could call are asked
  in turn order (phase ``CALL``, seat ``CALLER``): :func:`apply_call` or
  :func:`pass_call`.  Then the next seat draws, unless ``turn_limit`` turns were played
  (the hand is void).

"Rummy" is going out with nothing melded, laid off or called in an earlier turn
(``PLAYED``); melds and layoffs of the going-out turn itself are allowed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.arrays import Int8s, Int64s
from ..core.cards import N_RANKS
from ..core.lanes import LANE_MASK, bits_of, lane_tables
from .layoffs import View, build_view, card_of, hand_points, layoff_target
from .rules import RuleField
from .state import MAX_PLAYERS, End, Phase, Slot
from .table import coverable, pile_meld


@njit(cache=True)
def new_hand(state: Int64s, deck: Int8s, rules: Int64s, first: np.int64) -> None:
    """Deal from ``deck`` (52 card ids) one card at a time starting with seat ``first``
    (the dealer's left, who also plays first), turn the next card up as the discard
    pile and leave the rest as the stock."""
    state[:] = 0
    n = rules[RuleField.PLAYERS]
    dealt = n * rules[RuleField.HAND_SIZE]
    for i in range(52):
        state[Slot.DECK + i] = deck[i]
    for k in range(dealt):
        state[Slot.HAND + (first + k) % n] |= np.int64(1) << np.int64(deck[k])
    state[Slot.PILE] = deck[dealt]
    state[Slot.PILE_LEN] = 1
    state[Slot.PILE_MASK] = np.int64(1) << np.int64(deck[dealt])
    state[Slot.STOCK] = dealt + 1
    _start(state, first)


@njit(cache=True)
def new_position(
    state: Int64s,
    hands: Int64s,
    stock: Int64s,
    pile: Int64s,
    melds: Int64s,
    owners: Int64s,
    first: np.int64,
) -> None:
    """A position written out card by card: ``hands`` by seat, the ``stock`` top first,
    the ``pile`` bottom first and the table ``melds`` with their ``owners``; seat
    ``first`` draws.  A seat owning a table meld has melded this hand (no Rummy)."""
    state[:] = 0
    used = np.int64(0)
    for seat in range(len(hands)):
        state[Slot.HAND + seat] = hands[seat]
        used |= hands[seat]
    for m in range(len(melds)):
        state[Slot.MELDS + m] = melds[m]
        state[Slot.OWNERS + m] = owners[m]
        state[Slot.TABLE_MASK] |= melds[m]
    state[Slot.N_MELDS] = len(melds)
    for i in range(len(pile)):
        state[Slot.PILE + i] = pile[i]
        state[Slot.PILE_MASK] |= np.int64(1) << pile[i]
    state[Slot.PILE_LEN] = len(pile)
    used |= state[Slot.TABLE_MASK] | state[Slot.PILE_MASK]
    for i in range(len(stock)):
        used |= np.int64(1) << stock[i]
    # the stock ends the deck; the cards in play fill the drawn part before it, which is
    # never read again
    start = 52 - len(stock)
    k = 0
    for card in range(52):
        if not used >> card & 1:
            state[Slot.DECK + k] = card
            k += 1
    for i in range(len(stock)):
        state[Slot.DECK + start + i] = stock[i]
    state[Slot.STOCK] = start
    _start(state, first)
    for m in range(len(melds)):
        state[Slot.PLAYED + owners[m]] = 1


@njit(cache=True)
def _start(state: Int64s, first: np.int64) -> None:
    """The fields of a hand about to start with seat ``first`` to draw."""
    state[Slot.PLAYER] = first
    state[Slot.PHASE] = Phase.DRAW
    state[Slot.TAKEN] = -1
    state[Slot.CALLER] = -1
    state[Slot.WINNER] = -1
    state[Slot.END] = End.TURN_LIMIT
    for seat in range(MAX_PLAYERS):
        state[Slot.KNOWN_VERSION + seat] = -1


@njit(cache=True)
def apply_draw(state: Int64s, rules: Int64s, take: bool) -> bool:
    """The seat to play takes the pile's top (``take``) or draws the stock's top; False
    when it found the stock dry and the rules end the hand there (void, scored)."""
    p = state[Slot.PLAYER]
    if take:
        n_pile = state[Slot.PILE_LEN] - 1
        bit = np.int64(1) << state[Slot.PILE + n_pile]
        state[Slot.PILE_LEN] = n_pile
        state[Slot.PILE_MASK] &= ~bit
        state[Slot.HAND + p] |= bit
        state[Slot.TOOK + p] |= bit
        state[Slot.HELD + p] |= bit
        state[Slot.TAKEN] = state[Slot.PILE + n_pile]
    else:
        ptr = state[Slot.STOCK]
        if ptr >= 52:
            n_pile = state[Slot.PILE_LEN]
            if not rules[RuleField.RESHUFFLE] or n_pile == 0:
                _finish(state, rules, End.STOCK)
                return False
            # turn the pile over: its bottom card becomes the top of the new stock
            ptr = 52 - n_pile
            for i in range(n_pile):
                state[Slot.DECK + ptr + i] = state[Slot.PILE + i]
            state[Slot.PILE_LEN] = 0
            state[Slot.PILE_MASK] = 0
            state[Slot.RESHUFFLES] += 1
        state[Slot.HAND + p] |= np.int64(1) << state[Slot.DECK + ptr]
        state[Slot.STOCK] = ptr + 1
    state[Slot.TURNS + p] += 1
    state[Slot.TOTAL_TURNS] += 1
    state[Slot.PLAYED_NOW] = 0
    state[Slot.PHASE] = Phase.PLAY
    return True


@njit(cache=True)
def _put_down(state: Int64s, p: np.int64, cards: np.int64) -> None:
    """``cards`` leave seat ``p``'s hand for the table; an emptied hand goes out."""
    state[Slot.HAND + p] &= ~cards
    state[Slot.HELD + p] &= ~cards
    state[Slot.TABLE_MASK] |= cards
    state[Slot.PLAYED_NOW] = 1
    state[Slot.VERSION] += 1
    if state[Slot.HAND + p] == 0:
        _go_out(state, p)


@njit(cache=True)
def apply_meld(state: Int64s, rules: Int64s, mask: np.int64) -> None:
    """The seat to play lays down the meld ``mask`` from its hand."""
    p = state[Slot.PLAYER]
    n = state[Slot.N_MELDS]
    state[Slot.MELDS + n] = mask
    state[Slot.OWNERS + n] = p
    state[Slot.N_MELDS] = n + 1
    _put_down(state, p, mask)
    if state[Slot.PHASE] == Phase.DONE:
        _score(state, rules)


@njit(cache=True)
def apply_layoff(state: Int64s, rules: Int64s, card: np.int64, meld: np.int64) -> None:
    """The seat to play lays ``card`` off onto table meld ``meld``."""
    bit = np.int64(1) << card
    state[Slot.MELDS + meld] |= bit
    _put_down(state, state[Slot.PLAYER], bit)
    if state[Slot.PHASE] == Phase.DONE:
        _score(state, rules)


@njit(cache=True)
def apply_arrangement(
    state: Int64s,
    rules: Int64s,
    hand: np.int64,
    view: Int64s,
    best: Int64s,
    best_choice: Int64s,
    rm: Int64s,
) -> None:
    """Put the arrangement :func:`~analyzer.rummy.layoffs.with_table` recorded for the
    cards ``hand`` of the seat to play (``MODE_ARRANGE``, against ``view``) on the table
    as its melds and layoffs: chains onto runs, fourth cards onto sets, then its own sets
    and runs (a stretch longer than the run cap split into legal runs)."""
    cap = rules[RuleField.MAX_RUN]
    for k in range(view[View.RUNS]):
        base = View.RUN0 + 4 * k
        meld = view[base + 3]
        for i in range(1, best_choice[2 * k] + 1):
            apply_layoff(state, rules, view[base] - i, meld)
            hand &= ~(np.int64(1) << (view[base] - i))
        for i in range(1, best_choice[2 * k + 1] + 1):
            apply_layoff(state, rules, view[base + 1] + i, meld)
            hand &= ~(np.int64(1) << (view[base + 1] + i))
    for bit in bits_of(best[2]):
        card = card_of(bit)
        apply_layoff(state, rules, card, view[View.SET_MELD + card % 13])
    sets = best[1]
    hand &= ~best[2] & ~sets
    for rank in range(N_RANKS):
        cards = (
            sets & (np.int64(1) | np.int64(1) << 13 | np.int64(1) << 26 | np.int64(1) << 39) << rank
        )
        if cards:
            apply_meld(state, rules, cards)
    for suit in range(4):
        bits = rm[(hand >> (13 * suit)) & LANE_MASK]
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
                while not coverable(left - part, cap):
                    part -= 1
                apply_meld(state, rules, ((np.int64(1) << part) - 1) << (13 * suit + start))
                start += part
                left -= part


@njit(cache=True)
def apply_discard(state: Int64s, rules: Int64s, card: np.int64, view: Int64s) -> None:
    """The seat to play discards ``card``: it goes out if that was its last card; else,
    with ``rummy_on_board``, the others may call it (``view``: scratch), and then the
    next seat draws."""
    p = state[Slot.PLAYER]
    bit = np.int64(1) << card
    state[Slot.HAND + p] &= ~bit
    state[Slot.HELD + p] &= ~bit
    state[Slot.PILE + state[Slot.PILE_LEN]] = card
    state[Slot.PILE_LEN] += 1
    state[Slot.PILE_MASK] |= bit
    state[Slot.KNOWN_VERSION + p] = -1
    if state[Slot.HAND + p] == 0:
        _go_out(state, p)
        _score(state, rules)
        return
    state[Slot.PLAYED + p] |= state[Slot.PLAYED_NOW]
    state[Slot.PLAYED_NOW] = 0
    state[Slot.TAKEN] = -1
    if rules[RuleField.RUMMY_ON_BOARD]:
        state[Slot.PHASE] = Phase.CALL
        state[Slot.CALLER] = p
        _next_caller(state, rules, view)
    else:
        _end_turn(state, rules)


@njit(cache=True)
def call_target(state: Int64s, rules: Int64s, seat: np.int64, view: Int64s) -> np.int64:
    """What ``seat`` may do by calling "rummy on the board" on the pile's top: the
    table meld it would lay the card off onto, ``-(k + 1)`` to take the top ``k`` cards
    of the pile as a meld of its own, or -1 when it cannot call (``view``: scratch)."""
    cap = rules[RuleField.MAX_RUN]
    build_view(state, seat, rules[RuleField.LAYOFF_OWN_ONLY], cap, view)
    target = layoff_target(state[Slot.PILE + state[Slot.PILE_LEN] - 1], view)
    if target >= 0:
        return target
    size = pile_meld(state, cap)
    return -(size + 1) if size else np.int64(-1)


@njit(cache=True)
def _next_caller(state: Int64s, rules: Int64s, view: Int64s) -> None:
    """Ask the next seat after ``CALLER`` (in turn order) that could call; when none is
    left, the turn ends."""
    n = rules[RuleField.PLAYERS]
    p = state[Slot.PLAYER]
    q = (state[Slot.CALLER] + 1) % n
    while q != p:
        if call_target(state, rules, q, view) != -1:
            state[Slot.CALLER] = q
            return
        q = (q + 1) % n
    _end_turn(state, rules)


@njit(cache=True)
def apply_call(state: Int64s, rules: Int64s, view: Int64s) -> None:
    """``CALLER`` calls "rummy on the board": it lays the discard off onto a meld it
    may use, or takes the top of the pile as a new meld of its own (the caller does not
    discard); calling counts as having melded.  Then the next seat draws."""
    q = state[Slot.CALLER]
    target = call_target(state, rules, q, view)
    n_pile = state[Slot.PILE_LEN]
    size = 1 if target >= 0 else -target - 1
    mask = np.int64(0)
    for i in range(n_pile - size, n_pile):
        mask |= np.int64(1) << state[Slot.PILE + i]
    if target >= 0:
        state[Slot.MELDS + target] |= mask
    else:
        n = state[Slot.N_MELDS]
        state[Slot.MELDS + n] = mask
        state[Slot.OWNERS + n] = q
        state[Slot.N_MELDS] = n + 1
    state[Slot.PILE_LEN] = n_pile - size
    state[Slot.PILE_MASK] &= ~mask
    state[Slot.TABLE_MASK] |= mask
    state[Slot.PLAYED + q] = 1
    state[Slot.CALLS] += 1
    state[Slot.VERSION] += 1
    _end_turn(state, rules)


@njit(cache=True)
def pass_call(state: Int64s, rules: Int64s, view: Int64s) -> None:
    """``CALLER`` does not call: the next seat that could is asked, or the turn ends."""
    _next_caller(state, rules, view)


@njit(cache=True)
def _end_turn(state: Int64s, rules: Int64s) -> None:
    """The next seat draws, unless the turn limit voids the hand."""
    state[Slot.PLAYER] = (state[Slot.PLAYER] + 1) % rules[RuleField.PLAYERS]
    state[Slot.PHASE] = Phase.DRAW
    state[Slot.CALLER] = -1
    if state[Slot.TOTAL_TURNS] >= rules[RuleField.TURN_LIMIT]:
        _finish(state, rules, End.TURN_LIMIT)


@njit(cache=True)
def _go_out(state: Int64s, p: np.int64) -> None:
    """Seat ``p`` emptied its hand: it wins, "Rummy" if it played nothing before."""
    state[Slot.WINNER] = p
    state[Slot.RUMMY] = 1 if state[Slot.PLAYED + p] == 0 else 0
    state[Slot.END] = End.OUT
    state[Slot.PHASE] = Phase.DONE


@njit(cache=True)
def _finish(state: Int64s, rules: Int64s, end: np.int64) -> None:
    """The hand ends with no winner (``end``: how) and is scored."""
    state[Slot.END] = end
    state[Slot.PHASE] = Phase.DONE
    _score(state, rules)


@njit(cache=True)
def _score(state: Int64s, rules: Int64s) -> None:
    """Points left in each hand and, when someone went out, its score (points)."""
    total = np.int64(0)
    for seat in range(rules[RuleField.PLAYERS]):
        left = hand_points(state[Slot.HAND + seat], _POINTS_BY_LANE)
        state[Slot.LEFT + seat] = left
        total += left
    if state[Slot.END] == End.OUT:
        multiplier = rules[RuleField.RUMMY_MULTIPLIER] if state[Slot.RUMMY] else 1
        state[Slot.POINTS] = total * multiplier


# the points of every suit lane (a global array: numba freezes it into the kernels)
_POINTS_BY_LANE = lane_tables(13)[2]
