"""One hand of gin rummy as numba kernels over an explicit state array.

The whole hand state is one ``np.int64`` array indexed by :class:`Slot`: both hands
(masks), the deck order (the stock is ``deck[stock_pos:]``), the discard pile, whose
turn it is and in which phase, what each player took from and threw to the pile, and
the result once the hand is over.  A state can therefore be built from a described
position, copied with ``state.copy()`` and continued with another decision: that is how
the knock chart and the advisor branch (see :func:`advance` with ``stop_at_knock``).

Deal layout (documented so scripted decks can be written by hand):

* ``opening=upcard``: the non-dealer gets ``deck[0:10]``, the dealer ``deck[10:20]``,
  ``deck[20]`` is the upcard and the stock is drawn from ``deck[21]`` on.
* ``opening=eleven``: the non-dealer gets ``deck[0:11]`` and starts by discarding, the
  dealer ``deck[11:21]``; the stock is drawn from ``deck[21]`` on.

Flow: the upcard is offered to the non-dealer, then the dealer; if both refuse, the
non-dealer must draw from the stock.  Each turn is a draw (stock or the pile's top) then
a discard, which may be a knock; a card taken from the pile may not be thrown in the
same turn.  When a turn would start with two cards in the stock the hand is a draw
(``dead-at-two``), or (``wall``) the player may take the pile's top only to knock.  As a
safeguard against endless pile swapping a hand is also a draw after ``MAX_DRAWS`` draws.

On a knock the knocker lays out the arrangement chosen by
:func:`analyzer.gin.evaluator.partition.best_arrangement_kernel` (least deadwood, then the fewest cards
that could be laid off on it) and the defender melds and lays off as well as possible;
the rules ``knocker_melds=random-best`` and ``defender_layoff=melds-then-greedy`` replace
these with the EAAI framework's procedure (see :func:`resolve_knock`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.arrays import Int8s, Int64s, UInt64s
from ...core.cards import CARD_POINTS
from ...core.linking import compiled_once
from ...core.rng import mix64, stream_key
from ..decisions.choose import choose_discard, takes_upcard_to_knock, wants_upcard
from ..evaluator.layoffs import greedy_layoff_deadwood_kernel, layoff_deadwood_kernel
from ..evaluator.partition import (
    best_arrangement_kernel,
    best_discard_kernel,
    min_deadwood_kernel,
    random_arrangement_kernel,
)
from ..model.knowledge import note_knock, note_refuse, note_rules, note_take, note_throw
from ..model.rules import RuleField
from ..model.state import (
    MAX_PAIRS,
    OUTCOME_NAMES,
    SCRATCH_SIZE,
    STATE_SIZE,
    Outcome,
    Phase,
    Slot,
    knock_threshold,
    stock_left,
    throwable,
)

__all__ = [
    "MAX_DRAWS",
    "OUTCOME_NAMES",
    "SCRATCH_SIZE",
    "STATE_SIZE",
    "Outcome",
    "Phase",
    "Slot",
    "advance",
    "apply_big_gin",
    "apply_discard",
    "apply_draw",
    "apply_pass",
    "deck_order",
    "end_in_a_draw",
    "has_choice",
    "knock_deadwood",
    "knock_threshold",
    "new_hand",
    "new_position",
    "new_scratch",
    "new_seat_view",
    "new_state",
    "play_from_deck",
    "resolve_knock",
    "see_next_stock_card",
    "step",
    "stock_left",
    "turn_upcard",
]

#: Draws after which a hand is scored as a draw (endless pile swapping never ends).
MAX_DRAWS = 200
_MAX_PAIRS = MAX_PAIRS


@njit(cache=True)
def _start(state: Int64s, dealer: np.int64, rules: Int64s) -> None:
    """The parts of a fresh deal that do not depend on the cards: every slot cleared, the
    seats, the counters and the rules a policy reads."""
    for i in range(STATE_SIZE):
        state[i] = 0
    state[Slot.DEALER] = dealer
    state[Slot.TURN] = 1 - dealer
    state[Slot.TAKEN] = -1
    state[Slot.WINNER] = -1
    state[Slot.KNOCKER] = -1
    state[Slot.OUTCOME] = -1
    state[Slot.MULTIPLIER] = 1
    state[Slot.STOCK_POS] = 21
    state[Slot.UPCARD] = -1
    state[Slot.KNOCK_LIMIT] = 0 if rules[RuleField.STRAIGHT] else rules[RuleField.KNOCK_LIMIT]
    if rules[RuleField.OPENING_ELEVEN]:
        state[Slot.OWN_TURNS + 1 - dealer] = 1
        state[Slot.PHASE] = Phase.DISCARD
    else:
        state[Slot.PHASE] = Phase.OFFER
    note_rules(state, rules)


@njit(cache=True)
def turn_upcard(state: Int64s, upcard: np.int64, rules: Int64s) -> None:
    """Put ``upcard`` face up as the pile's first card (``opening=upcard``), with the knock
    limit and multiplier Oklahoma derives from it."""
    state[Slot.UPCARD] = upcard
    state[Slot.PILE] = upcard
    state[Slot.PILE_LEN] = 1
    state[Slot.PILE_MASK] = np.int64(1) << upcard
    if rules[RuleField.OKLAHOMA] and not rules[RuleField.STRAIGHT]:
        limit = CARD_POINTS[upcard]
        if upcard % 13 == 0 and rules[RuleField.OKLAHOMA_ACE_GIN_ONLY]:
            limit = 0
        state[Slot.KNOCK_LIMIT] = limit
    if rules[RuleField.OKLAHOMA] and upcard >= 39 and rules[RuleField.OKLAHOMA_SPADE_DOUBLE]:
        state[Slot.MULTIPLIER] = 2


@compiled_once
@njit(cache=True)
def new_hand(state: Int64s, deck: Int8s, dealer: np.int64, rules: Int64s) -> None:
    """Deal ``deck`` (52 card indices) with ``dealer`` (0 or 1) dealing, into ``state``."""
    _start(state, dealer, rules)
    for i in range(52):
        state[Slot.DECK + i] = deck[i]
    non_dealer = 1 - dealer
    if rules[RuleField.OPENING_ELEVEN]:
        for i in range(11):
            state[Slot.HAND + non_dealer] |= np.int64(1) << deck[i]
        for i in range(11, 21):
            state[Slot.HAND + dealer] |= np.int64(1) << deck[i]
    else:
        for i in range(10):
            state[Slot.HAND + non_dealer] |= np.int64(1) << deck[i]
            state[Slot.HAND + dealer] |= np.int64(1) << deck[10 + i]
        turn_upcard(state, np.int64(deck[20]), rules)


@njit(cache=True)
def new_seat_view(
    state: Int64s, seat: np.int64, hand: np.int64, dealer: np.int64, rules: Int64s
) -> None:
    """A fresh deal as ``seat`` sees it: its own ``hand`` (mask), the opponent's cards
    and the stock unknown (``DECK`` entries -1 until a card is seen drawn), the upcard not
    yet turned (:func:`turn_upcard` when it is seen)."""
    _start(state, dealer, rules)
    for i in range(52):
        state[Slot.DECK + i] = -1
    state[Slot.HAND + seat] = hand


@njit(cache=True)
def see_next_stock_card(state: Int64s, card: np.int64) -> None:
    """In a seat's view, the next stock card is ``card`` (the seat is about to draw it)."""
    state[Slot.DECK + state[Slot.STOCK_POS]] = card


@njit(cache=True)
def new_position(
    state: Int64s,
    player: np.int64,
    dealer: np.int64,
    hands: Int64s,
    took: Int64s,
    threw: Int64s,
    own_turns: Int64s,
    stock: np.int64,
    knock_limit: np.int64,
    multiplier: np.int64,
    taken: np.int64,
    upcard: np.int64,
    pile: Int64s,
) -> None:
    """A described mid-hand position: ``player`` holds its 11 cards (``hands[player]``) and
    is to discard, after both refused the upcard or one took it; ``hands[1 - player]``
    holds the opponent's cards known to be there.  ``took``, ``threw`` and ``own_turns``
    are per seat, ``stock`` the cards left in the stock, ``taken`` the card taken from the
    pile this turn (-1: none), ``upcard`` the first upcard (-1: unknown) and ``pile`` the
    pile, bottom first, -1 for a card not known (one buried under the given ones).

    Only what such a description gives is set, with what follows from it: the cards each
    seat took and still holds (``HELD``: ``took & hands``, which the policies read, e.g. the
    alert knock schedule while the opponent holds a card it took).  The deck (its dealt
    and stock entries), the rest of the knowledge a played hand keeps (``REFUSED``,
    ``LOG``, ``EXPOSED``), the rules a policy reads (``RULE_*``) and the scores are left 0:
    the advisor's rollouts start from exactly this state (its samples fill the hidden
    cards in)."""
    for i in range(STATE_SIZE):
        state[i] = 0
    for seat in range(2):
        state[Slot.HAND + seat] = hands[seat]
        state[Slot.TOOK + seat] = took[seat]
        state[Slot.HELD + seat] = took[seat] & hands[seat]
        state[Slot.THREW + seat] = threw[seat]
        state[Slot.OWN_TURNS + seat] = own_turns[seat]
    state[Slot.DRAWS] = own_turns[0] + own_turns[1]
    state[Slot.DEALER] = dealer
    state[Slot.TURN] = player
    state[Slot.PHASE] = Phase.DISCARD
    state[Slot.STOCK_POS] = 52 - stock
    state[Slot.OFFERS] = 2
    state[Slot.KNOCK_LIMIT] = knock_limit
    state[Slot.MULTIPLIER] = multiplier
    state[Slot.TAKEN] = taken
    state[Slot.OUTCOME] = -1
    state[Slot.WINNER] = -1
    state[Slot.KNOCKER] = -1
    state[Slot.UPCARD] = upcard
    for i in range(pile.shape[0]):
        state[Slot.PILE + i] = pile[i]
        if pile[i] >= 0:
            state[Slot.PILE_MASK] |= np.int64(1) << pile[i]
    state[Slot.PILE_LEN] = pile.shape[0]


@njit(cache=True)
def _pile_top(state: Int64s) -> np.int64:
    return state[Slot.PILE + state[Slot.PILE_LEN] - 1]


@njit(cache=True)
def _take_upcard(state: Int64s, player: np.int64) -> None:
    card = _pile_top(state)
    bit = np.int64(1) << card
    state[Slot.PILE_LEN] -= 1
    state[Slot.PILE_MASK] &= ~bit
    state[Slot.HAND + player] |= bit
    note_take(state, player, card)
    state[Slot.TAKEN] = card
    state[Slot.DRAWS] += 1
    state[Slot.OWN_TURNS + player] += 1
    state[Slot.PHASE] = Phase.DISCARD


@njit(cache=True)
def _draw_stock(state: Int64s, player: np.int64) -> None:
    card = state[Slot.DECK + state[Slot.STOCK_POS]]
    state[Slot.STOCK_POS] += 1
    if card >= 0:  # -1: a card a seat's view does not see (the opponent's draw)
        state[Slot.HAND + player] |= np.int64(1) << card
    state[Slot.TAKEN] = -1
    state[Slot.DRAWS] += 1
    state[Slot.OWN_TURNS + player] += 1
    state[Slot.PHASE] = Phase.DISCARD


@njit(cache=True)
def apply_draw(state: Int64s, take: bool) -> None:
    """The player to move (phase DRAW, at least three stock cards) takes the pile's top
    (``take``) or draws from the stock, leaving the top refused."""
    player = state[Slot.TURN]
    if take:
        _take_upcard(state, player)
        return
    if state[Slot.PILE_LEN] > 0:
        note_refuse(state, player, _pile_top(state))
    _draw_stock(state, player)


@njit(cache=True)
def _end(state: Int64s, outcome: np.int64, winner: np.int64, points: np.int64) -> None:
    state[Slot.OUTCOME] = outcome
    state[Slot.WINNER] = winner
    state[Slot.POINTS] = points * state[Slot.MULTIPLIER]
    state[Slot.PHASE] = Phase.DONE


@njit(cache=True)
def knock_deadwood(state: Int64s, scratch: Int64s) -> np.int64:
    """Least deadwood (points) the player to discard can knock with now, or -1 when a
    knock is not legal (over the hand's limit)."""
    player = state[Slot.TURN]
    best, _ = best_discard_kernel(state[Slot.HAND + player], throwable(state, player), scratch)
    return best if best <= state[Slot.KNOCK_LIMIT] else np.int64(-1)


@njit(cache=True)
def _knock_stream(state: Int64s) -> UInt64s:
    """The random stream of a knock's resolution (rules ``random-best`` and
    ``melds-then-greedy``), keyed by the deal (its deck order) and the draw count: the
    same deal played the same way resolves the same way on any thread or chunk."""
    key = np.uint64(0)
    for i in range(52):
        key = mix64(key ^ np.uint64(state[Slot.DECK + i]))
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_key(np.int64(key >> np.uint64(1)), state[Slot.DRAWS])
    return rng


@compiled_once
@njit(cache=True)
def resolve_knock(state: Int64s, knocker: np.int64, rules: Int64s) -> None:
    """Score a knock (or gin) by ``knocker`` holding 10 cards, and end the hand.

    The knocker's arrangement and the defender's melds and layoffs follow the rules'
    ``knocker_melds`` and ``defender_layoff`` fields."""
    defender = 1 - knocker
    random_melds = rules[RuleField.KNOCKER_RANDOM] != 0
    greedy = rules[RuleField.DEFENDER_GREEDY] != 0
    rng = _knock_stream(state) if random_melds or greedy else np.empty(1, dtype=np.uint64)
    if random_melds:
        knocker_deadwood, sets, runs = random_arrangement_kernel(state[Slot.HAND + knocker], rng)
    else:
        knocker_deadwood, sets, runs = best_arrangement_kernel(state[Slot.HAND + knocker])
    state[Slot.KNOCKER] = knocker
    state[Slot.KNOCKER_DEADWOOD] = knocker_deadwood
    note_knock(state, knocker)
    if knocker_deadwood == 0:
        defender_deadwood = min_deadwood_kernel(state[Slot.HAND + defender])
        state[Slot.DEFENDER_DEADWOOD] = defender_deadwood
        _end(state, Outcome.GIN, knocker, rules[RuleField.GIN_BONUS] + defender_deadwood)
        return
    if greedy:
        defender_deadwood = greedy_layoff_deadwood_kernel(
            state[Slot.HAND + defender], sets, runs, rng
        )
    else:
        defender_deadwood = layoff_deadwood_kernel(state[Slot.HAND + defender], sets, runs)
    state[Slot.DEFENDER_DEADWOOD] = defender_deadwood
    if defender_deadwood < knocker_deadwood or (
        defender_deadwood == knocker_deadwood and rules[RuleField.TIE_IS_UNDERCUT]
    ):
        _end(
            state,
            Outcome.UNDERCUT,
            defender,
            rules[RuleField.UNDERCUT_BONUS] + knocker_deadwood - defender_deadwood,
        )
    elif defender_deadwood == knocker_deadwood:
        _end(state, Outcome.TIE, np.int64(-1), np.int64(0))
    else:
        _end(state, Outcome.KNOCK, knocker, defender_deadwood - knocker_deadwood)


@compiled_once
@njit(cache=True)
def apply_discard(state: Int64s, card: np.int64, knock: bool, rules: Int64s) -> None:
    """The player to move throws ``card`` (knocking if ``knock``); the turn passes."""
    player = state[Slot.TURN]
    bit = np.int64(1) << card
    state[Slot.HAND + player] &= ~bit
    note_throw(state, player, card)
    state[Slot.PILE + state[Slot.PILE_LEN]] = card
    state[Slot.PILE_LEN] += 1
    state[Slot.PILE_MASK] |= bit
    taken = state[Slot.TAKEN]
    pairs = state[Slot.N_PAIRS + player]
    if taken >= 0 and pairs < _MAX_PAIRS:
        state[Slot.PAIRS + player * _MAX_PAIRS + pairs] = taken * 52 + card
        state[Slot.N_PAIRS + player] = pairs + 1
    state[Slot.TAKEN] = -1
    if knock:
        resolve_knock(state, player, rules)
        return
    state[Slot.TURN] = 1 - player
    state[Slot.PHASE] = Phase.DRAW


@njit(cache=True)
def _big_gin(state: Int64s, rules: Int64s) -> bool:
    """End the hand with big gin when the rules have it and the player to discard holds
    11 melded cards (True), else leave the state alone (False)."""
    player = state[Slot.TURN]
    if not (rules[RuleField.BIG_GIN] and min_deadwood_kernel(state[Slot.HAND + player]) == 0):
        return False
    state[Slot.KNOCKER] = player
    note_knock(state, player)
    defender_deadwood = min_deadwood_kernel(state[Slot.HAND + 1 - player])
    state[Slot.DEFENDER_DEADWOOD] = defender_deadwood
    _end(state, Outcome.BIG_GIN, player, rules[RuleField.BIG_GIN_BONUS] + defender_deadwood)
    return True


@njit(cache=True)
def has_choice(state: Int64s, rules: Int64s) -> bool:
    """Whether the player to move chooses between actions now: the upcard offer, a draw
    with a face-up card that may be taken, or a discard other than a forced big gin.

    The other moves are forced: the first draw after both players refused the upcard,
    the end at the draw limit or at a stock of two (where, with ``wall``, taking the
    pile's top to knock is left to the policy), and big gin.
    """
    phase = state[Slot.PHASE]
    if phase == Phase.OFFER:
        return True
    if phase == Phase.DRAW:
        return (
            state[Slot.DRAWS] < MAX_DRAWS
            and stock_left(state) > 2
            and not (state[Slot.DRAWS] == 0 and state[Slot.OFFERS] == 2)
            and state[Slot.PILE_LEN] > 0
        )
    return phase == Phase.DISCARD and not (
        rules[RuleField.BIG_GIN] and min_deadwood_kernel(state[Slot.HAND + state[Slot.TURN]]) == 0
    )


@njit(cache=True)
def apply_pass(state: Int64s) -> None:
    """The player to move refuses the upcard offered (phase OFFER); after two refusals
    the non-dealer draws from the stock."""
    player = state[Slot.TURN]
    note_refuse(state, player, _pile_top(state))
    state[Slot.OFFERS] += 1
    state[Slot.TURN] = 1 - player
    if state[Slot.OFFERS] == 2:
        state[Slot.PHASE] = Phase.DRAW


@njit(cache=True)
def end_in_a_draw(state: Int64s) -> None:
    """The hand ends as a draw, no points (a person drawing when the stock is down to two
    cards, or after ``MAX_DRAWS`` draws)."""
    _end(state, Outcome.DRAW, np.int64(-1), np.int64(0))


@njit(cache=True)
def apply_big_gin(state: Int64s, rules: Int64s) -> bool:
    """Big gin chosen from outside (a person): ends the hand (True) when the rules have it
    and the player to discard holds 11 melded cards, else changes nothing (False)."""
    return _big_gin(state, rules)


@compiled_once
@njit(cache=True)
def step(state: Int64s, rules: Int64s, policies: Int64s, rng: UInt64s, scratch: Int64s) -> None:
    """One move of the player to move with ``policies[p]``: answer the upcard offer,
    draw, or discard (maybe knocking), each as its policy's decision rule says
    (:mod:`analyzer.gin.decisions.choose`); a hand that cannot go on ends as a draw."""
    player = state[Slot.TURN]
    policy = policies[player]
    phase = state[Slot.PHASE]
    if phase == Phase.OFFER:
        if wants_upcard(state, player, policy, scratch):
            _take_upcard(state, player)
        else:
            apply_pass(state)
    elif phase == Phase.DRAW:
        if state[Slot.DRAWS] >= MAX_DRAWS:
            _end(state, Outcome.DRAW, np.int64(-1), np.int64(0))
        elif stock_left(state) <= 2:
            if (
                rules[RuleField.WALL]
                and state[Slot.PILE_LEN] > 0
                and takes_upcard_to_knock(state, player, policy, scratch)
            ):
                _take_upcard(state, player)
                return
            _end(state, Outcome.DRAW, np.int64(-1), np.int64(0))
        elif state[Slot.DRAWS] == 0 and state[Slot.OFFERS] == 2:
            _draw_stock(state, player)
        else:
            apply_draw(
                state, state[Slot.PILE_LEN] > 0 and wants_upcard(state, player, policy, scratch)
            )
    elif phase == Phase.DISCARD and not _big_gin(state, rules):
        card, knock = choose_discard(state, player, policy, rng, scratch, scratch[52:])
        apply_discard(state, card, knock, rules)


@compiled_once
@njit(cache=True)
def advance(
    state: Int64s,
    rules: Int64s,
    policies: Int64s,
    rng: UInt64s,
    scratch: Int64s,
    stop_at_knock: bool,
) -> bool:
    """Play on with ``policies[p]`` for player ``p`` until the hand ends (False), or, with
    ``stop_at_knock``, until a player holding 11 cards may legally knock (True: the state
    is left before that discard, to be branched on with :func:`apply_discard`)."""
    while state[Slot.PHASE] != Phase.DONE:
        if stop_at_knock and state[Slot.PHASE] == Phase.DISCARD:
            if _big_gin(state, rules):
                break
            if knock_deadwood(state, scratch) >= 0:
                return True
        step(state, rules, policies, rng, scratch)
    return False


def new_state() -> Int64s:
    """An empty state array (fill it with :func:`new_hand`)."""
    return np.zeros(STATE_SIZE, dtype=np.int64)


def new_scratch() -> Int64s:
    """Work space for :func:`advance` (reuse it across hands on one thread)."""
    return np.zeros(SCRATCH_SIZE, dtype=np.int64)


def deck_order(first: list[int], second: list[int], upcard: int | None, stock: list[int]) -> Int8s:
    """A deck giving ``first`` to the non-dealer and ``second`` to the dealer, then the
    upcard (``None`` with the ``eleven`` opening) and ``stock`` in draw order.

    Hands given short are filled up (to 10 cards, 11 for the non-dealer without an
    upcard) with the cards not named, in index order; so is the rest of the stock.
    """
    named = [*first, *second, *([] if upcard is None else [upcard]), *stock]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice in the deck order")
    first_size = 10 if upcard is not None else 11
    if len(first) > first_size or len(second) > 10:
        raise ValueError(f"hands hold at most {first_size} and 10 cards")
    spare = iter(c for c in range(52) if c not in set(named))
    order = [*first, *(next(spare) for _ in range(first_size - len(first)))]
    order += [*second, *(next(spare) for _ in range(10 - len(second)))]
    order += ([] if upcard is None else [upcard]) + [*stock, *spare]
    return np.array(order, dtype=np.int8)


def play_from_deck(
    deck: Int8s, dealer: int, rules_array: Int64s, policies: Int64s, policy_seed: int = 0
) -> Int64s:
    """Play one hand from a given deck order to its end and return the final state."""
    state = new_state()
    new_hand(state, deck.astype(np.int8), np.int64(dealer), rules_array)
    rng = np.array([stream_key(np.int64(policy_seed), np.int64(0))], dtype=np.uint64)
    advance(state, rules_array, policies, rng, new_scratch(), False)
    return state
