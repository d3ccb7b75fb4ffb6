"""One hand of gin rummy as a Python object: the one way to play a move outside a kernel.

:class:`Hand` wraps the engine's state array (:mod:`analyzer.gin.model.state`) and changes it
only through the engine's own kernels (:func:`~analyzer.gin.engine.transitions.apply_pass`,
:func:`~analyzer.gin.engine.transitions.apply_draw`, :func:`~analyzer.gin.engine.transitions.apply_discard`, ...),
so the knowledge slots (cards taken, thrown, refused and still held, the scores, the
read of the opponent, the scoring rules), the turn counters and the pile are kept exactly
as in a simulation.  The web table, the EAAI and OpenSpiel bridges, the replay and the
advisor build and play hands through it; no module outside the engine writes a
:class:`Slot`.  Its one write of its own is :meth:`Hand.show_knock`'s: a seat view learns
the opponent's cards when a knock shows them, which no move of the engine does.

Two kinds of hand:

* :meth:`Hand.deal`: full information, dealt from a deck order (the engine's layout, see
  :mod:`analyzer.gin.engine.transitions`) or from a seed;
* :meth:`Hand.seat_view`: what one seat knows in a game played elsewhere (the EAAI
  framework, OpenSpiel, a person at a table): its own cards; the opponent's cards only
  once taken face up; the stock unseen until this seat draws from it.  Every policy and
  the search player decide on a view exactly as on the full state, because they read
  only what their seat may know;
* :meth:`Hand.from_position`: a mid-hand position as a player describes it (an advisor
  :class:`~analyzer.gin.play.advisor.Position`), seat 0 to discard.

Moves are :class:`Move` values: ``pass`` (the upcard offer), ``take`` (the pile's top),
``draw`` (the stock), ``discard`` and ``knock`` (with the card thrown), ``big_gin``, and
``end``: the hand ends as a draw (a turn that starts with two cards in the stock, or the
draw limit).

>>> from analyzer.gin.model.policies import PRESETS
>>> hand = Hand.deal(seed=7)
>>> hand.phase, hand.to_move, len(hand.cards(0)), hand.stock_left
('offer', 1, 10, 31)
>>> move = hand.decide(PRESETS["basic"])
>>> move in hand.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ...core.arrays import Int64s
from ...core.cards import check_card, format_card, to_indices, to_mask
from ...core.rng import SEARCH_SALT, shuffle_deck, stream_key
from ..engine.transitions import (
    MAX_DRAWS,
    Slot,
    apply_big_gin,
    apply_discard,
    apply_draw,
    apply_pass,
    end_in_a_draw,
    has_choice,
    new_hand,
    new_position,
    new_scratch,
    new_seat_view,
    new_state,
    resolve_knock,
    see_next_stock_card,
    step,
    turn_upcard,
)
from ..evaluator.partition import discard_deadwoods_kernel, min_deadwood_kernel
from ..model.knowledge import note_races, note_scores
from ..model.policies import Policy
from ..model.rules import STANDARD, Rules
from .actions import KNOCK, MAX_ACTIONS, NO_TAKE, TAKE, legal_actions
from .hand_inputs import (
    card_list,
    check_races,
    check_scores,
    check_seat,
    deck_order,
    hand_stream_key,
    rules_given,
)
from .hand_view import HandView
from .moves import Move, move_between
from .players import SearchPolicy, chosen_player, rollout_policy
from .search import search_action
from .stopping import run_stoppable

if TYPE_CHECKING:
    from .advisor.position import Position


class Hand(HandView):
    """A hand's state array and the moves that change it (see the module notes).

    ``seed`` keys the random stream of the policies' choices (tie breaks, sampled knock
    rules) and of the search player: hand ``k`` of a session uses stream ``k``, as the
    simulation drivers do.  A seat view's ``seat`` is the seat that sees it (None: full
    information).

    The constructors and methods check their arguments as the command line does:
    ``TypeError`` for a wrong kind of value (``True`` for a seat, a string for a card),
    ``ValueError`` for a value out of range, naming the argument (and a card by its name).
    Rules may be given by preset name and players by name or string form (``"basic"``,
    ``"search,budget=64"``).
    """

    def __init__(
        self,
        state: Int64s,
        rules: Rules,
        seat: int | None,
        policy_key: int | np.uint64,
        throw_back: bool = False,
    ) -> None:
        self.state = state
        self.rules = rules
        self.rules_array = rules.to_array()
        self.seat = seat
        self.throw_back = throw_back  # a view's opponent may throw back the card it took
        self.policy_key = policy_key
        self.rng = np.array([policy_key], dtype=np.uint64)
        self.scratch = new_scratch()
        self.searched = 0  # searched decisions so far (keys the next search's streams)
        self.knocked_by: int | None = None  # a view's knock, left unresolved

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(
        cls,
        rules: Rules | str = STANDARD,
        deck: npt.ArrayLike | None = None,
        seed: int = 0,
        dealer: int = 0,
        scores: tuple[int, int] = (0, 0),
        hand_index: int = 0,
        races: tuple[int, int] = (0, 0),
    ) -> Hand:
        """A full-information hand dealt from ``deck`` (52 card indices in the engine's
        layout) or, without one, shuffled from ``seed`` (0 <= seed < 2**63) and
        ``hand_index`` (0 or more); ``scores``: the seats' game scores before the hand,
        each 0 up to below the rules' target; ``races``: each seat's read of its
        opponent (:attr:`races`)."""
        rules = rules_given(rules)
        dealer = check_seat(dealer, "dealer")
        key = hand_stream_key(seed, hand_index)
        if deck is None:
            order = np.empty(52, dtype=np.int8)
            shuffle_deck(np.array([key], dtype=np.uint64), order)
        else:
            order = deck_order(deck)
        score0, score1 = check_scores(scores, rules)
        race0, race1 = check_races(races)
        state = new_state()
        rules_array = rules.to_array()
        new_hand(state, order, np.int64(dealer), rules_array)
        note_scores(state, np.int64(score0), np.int64(score1))
        note_races(state, np.int64(race0), np.int64(race1))
        return cls(state, rules, None, key)

    @classmethod
    def seat_view(
        cls,
        seat: int,
        cards: Sequence[int],
        dealer: int,
        rules: Rules | str = STANDARD,
        scores: tuple[int, int] = (0, 0),
        seed: int = 0,
        hand_index: int = 0,
        throw_back: bool = False,
        races: tuple[int, int] = (0, 0),
    ) -> Hand:
        """``seat``'s view of a fresh deal: its ``cards`` (10, 11 for the non-dealer with
        ``opening=eleven``); the upcard is turned with :meth:`turn_upcard`.  ``scores``
        and ``races`` as for :meth:`deal`.

        ``throw_back``: the game played elsewhere lets a player throw back the card it
        just took from the pile (OpenSpiel's ``gin_rummy`` does; the analyzer's rules do
        not), so the view takes that throw from the opponent."""
        rules = rules_given(rules)
        seat, dealer = check_seat(seat, "seat"), check_seat(dealer, "dealer")
        key = hand_stream_key(seed, hand_index)
        if not isinstance(throw_back, bool):
            raise TypeError(f"throw_back must be True or False, got {throw_back!r}")
        size = 11 if rules.opening == "eleven" and seat != dealer else 10
        listed = card_list(cards, "cards")
        mask = to_mask(listed)  # ValueError naming a card listed twice
        if len(listed) != size:
            raise ValueError(f"seat {seat} is dealt {size} cards, got {len(listed)}")
        score0, score1 = check_scores(scores, rules)
        race0, race1 = check_races(races)
        state = new_state()
        rules_array = rules.to_array()
        new_seat_view(state, np.int64(seat), np.int64(mask), np.int64(dealer), rules_array)
        note_scores(state, np.int64(score0), np.int64(score1))
        note_races(state, np.int64(race0), np.int64(race1))
        return cls(state, rules, seat, key, throw_back)

    @classmethod
    def from_position(
        cls, position: Position, rules: Rules | str = STANDARD, seed: int = 0, hand_index: int = 0
    ) -> Hand:
        """Seat 0's view of a described mid-hand ``position`` (an advisor
        :class:`~analyzer.gin.play.advisor.Position`): it holds its 11 cards and is to discard;
        the opponent (seat 1) holds the cards it took and never threw, the rest unseen;
        pile cards under the given ones are unknown (-1 in :attr:`pile`) except the
        opponent's throws seen nowhere else; the stock is unseen.

        A description gives no more than this, so the hand records the cards each seat
        took and threw (this player's throws: the pile cards that are neither the
        opponent's throws nor the upcard) and those it took and still holds, but not the
        rest of the knowledge a played hand keeps (refused cards, the discard log), the
        rules' bonuses nor the scores
        (see :func:`~analyzer.gin.engine.transitions.new_position`): the advisor's rollouts start
        from exactly this state.  ``oklahoma`` rules need the upcard (``ValueError``)."""
        from .advisor.position import ME, OPP, Position, card_mask, my_pile_throws

        if not isinstance(position, Position):
            raise TypeError(f"position must be an advisor Position, got {position!r}")
        rules = rules_given(rules)
        key = hand_stream_key(seed, hand_index)
        assert position.stock is not None and position.turn is not None  # filled in
        i_deal = position.dealer == "me"
        hidden = position.hidden_pile()
        pile = [
            *position.known_buried,
            *([-1] * (hidden - len(position.known_buried))),
            *position.pile,
        ]
        hands, took, threw, turns = (np.zeros(2, dtype=np.int64) for _ in range(4))
        hands[ME], hands[OPP] = card_mask(position.hand), card_mask(position.known_opp_cards)
        took[ME] = card_mask([] if position.taken is None else [position.taken])
        took[OPP] = card_mask(position.opp_took)
        threw[ME], threw[OPP] = card_mask(my_pile_throws(position)), card_mask(position.opp_threw)
        turns[ME], turns[OPP] = position.turn, position.turn if i_deal else position.turn - 1
        spade_upcard = position.upcard is not None and position.upcard >= 39
        doubled = rules.oklahoma and rules.oklahoma_spade_double and spade_upcard
        state = new_state()
        new_position(
            state,
            np.int64(ME),
            np.int64(ME if i_deal else OPP),
            hands,
            took,
            threw,
            turns,
            np.int64(position.stock),
            np.int64(position.knock_limit(rules)),
            np.int64(2 if doubled else 1),
            np.int64(-1 if position.taken is None else position.taken),
            np.int64(-1 if position.upcard is None else position.upcard),
            np.array(pile, dtype=np.int64),
        )
        return cls(state, rules, ME, key)

    def copy(self) -> Hand:
        """An independent copy (state, random stream, counters and the work space, which
        carries the inference a draw decision made for the discard after it): it plays on
        exactly as this hand would."""
        other = Hand(self.state.copy(), self.rules, self.seat, self.policy_key, self.throw_back)
        other.rng[:] = self.rng
        other.scratch[:] = self.scratch
        other.searched = self.searched
        other.knocked_by = self.knocked_by
        return other

    @property
    def has_choice(self) -> bool:
        """Whether the player to move chooses now (else :meth:`legal_moves` has one move)."""
        return bool(has_choice(self.state, self.rules_array))

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now (big gin, when the rules have it
        and all 11 cards meld, comes first: the engine's players always make it, but it
        may be declined for a discard or a gin knock)."""
        phase = self.phase
        if phase == "done" or self.knocked_by is not None:
            return []
        if phase == "draw" and not self.has_choice:
            # the forced draws and ends (see has_choice), which the kernels never choose
            if self.draws >= MAX_DRAWS or self.stock_left <= 2:
                return [Move("end"), Move("take")] if self._wall_take_allowed() else [Move("end")]
            return [Move("draw")]
        # big gin may be declined (a person may); the engine's players always take it
        moves = (
            [Move("big_gin")]
            if (phase == "discard" and self.rules.big_gin and self.deadwood(self.to_move) == 0)
            else []
        )
        actions = np.empty(MAX_ACTIONS, dtype=np.int64)
        count = legal_actions(self.state, actions, np.empty(52, dtype=np.int64))
        return moves + [self._action_move(int(action)) for action in actions[:count]]

    def _is_legal(self, move: Move) -> bool:
        """:meth:`legal_moves` holds ``move``; in a seat view the opponent's throw is
        checked against what the view knows: a card it holds, or one unseen."""
        hidden = self.seat is not None and self.to_move != self.seat
        if hidden and move.kind == "take" and self.phase == "draw" and self.stock_left <= 2:
            # a take at the wall is legal only to knock, which needs the hidden hand
            return (
                self.knocked_by is None
                and self.rules.stock_rule == "wall"
                and self.pile_top is not None
                and self.draws < MAX_DRAWS
            )
        if not (hidden and self.phase == "discard" and move.kind in ("discard", "knock")):
            return move in self.legal_moves()
        assert move.card is not None and self.seat is not None
        bit = 1 << move.card
        seen = int(self.state[Slot.PILE_MASK]) | self.hand_mask(self.seat)
        return (move.card != self.taken or self.throw_back) and (
            bool(self.hand_mask(self.to_move) & bit) or not seen & bit
        )

    def _wall_take_allowed(self) -> bool:
        """With ``wall``, at a stock of two the pile's top may be taken only to knock."""
        state = self.state
        if not (
            self.rules.stock_rule == "wall" and state[Slot.PILE_LEN] > 0 and self.draws < MAX_DRAWS
        ):
            return False
        top = self.pile_top
        assert top is not None
        after = np.empty(52, dtype=np.int64)
        hand = self.hand_mask(self.to_move)
        discard_deadwoods_kernel(np.int64(hand | 1 << top), np.int64(hand), after)
        return int(min(after[c] for c in to_indices(hand))) <= self.knock_limit

    # ------------------------------------------------------------------ deciding
    def decide(self, player: Policy | SearchPolicy | str) -> Move:
        """The move ``player`` (a policy or the search player, or either's name or string
        form) makes here, decided by the same kernels as in a simulation; the hand's
        random stream moves on as it would there, the state does not change."""
        player = chosen_player(player, "player")
        if self.phase == "done" or self.knocked_by is not None:
            raise ValueError("the hand is over: no move to decide")
        if isinstance(player, SearchPolicy) and self.has_choice:
            return self._search_move(player)
        policy = rollout_policy(player) if isinstance(player, SearchPolicy) else player
        after = self.state.copy()
        policies = np.stack([policy.to_array(), policy.to_array()])
        step(after, self.rules_array, policies, self.rng, self.scratch)
        return move_between(self.state, after)

    def _search_move(self, player: SearchPolicy) -> Move:
        model_row = player.rollout.to_array()
        model = np.stack([model_row, model_row])
        key = search_key(self.policy_key, self.searched)
        samples = np.zeros(1, dtype=np.int64)
        searcher = player.to_array()
        # a decision may search for seconds: run_stoppable keeps Ctrl-C working meanwhile
        action = int(
            run_stoppable(
                search_action,
                self.state,
                self.rules_array,
                model,
                searcher,
                key,
                self.scratch,
                samples,
                searchers=searcher,
            )
        )
        self.searched += 1
        return self._action_move(action)

    def _action_move(self, action: int) -> Move:
        """The move of an action code (:mod:`analyzer.gin.play.actions`) here."""
        if action == TAKE:
            return Move("take")
        if action == NO_TAKE:
            return Move("pass") if self.phase == "offer" else Move("draw")
        if action >= KNOCK:
            return Move("knock", action - KNOCK)
        return Move("discard", action)

    # ------------------------------------------------------------------ playing
    def play(self, move: Move, drawn: int | None = None) -> None:
        """Make ``move`` for the player to move.  In a seat view, a ``draw`` by the seat
        itself names the card it drew (``drawn``); the opponent's draw is unseen."""
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, such as Move('discard', 3), got {move!r}")
        if not self._is_legal(move):
            raise ValueError(
                f"{move} is not legal now (phase {self.phase}, seat {self.to_move} to move)"
            )
        state, rules = self.state, self.rules_array
        if move.kind == "pass":
            apply_pass(state)
        elif move.kind == "take":
            apply_draw(state, True)
        elif move.kind == "draw":
            if self.seat is not None:
                if (drawn is None) != (self.to_move != self.seat):
                    raise ValueError(
                        "a seat view names the card it draws itself, and only that card"
                    )
                if drawn is not None:
                    self._check_unseen(drawn)
                see_next_stock_card(state, np.int64(-1 if drawn is None else drawn))
            apply_draw(state, False)
        elif move.kind == "big_gin":
            apply_big_gin(state, rules)
        elif move.kind == "end":
            end_in_a_draw(state)
        else:
            assert move.card is not None
            if self.seat is not None and move.kind == "knock":
                # the opponent's cards are unknown: the view records the knock only
                apply_discard(state, np.int64(move.card), False, rules)
                self.knocked_by = 1 - self.to_move
            else:
                apply_discard(state, np.int64(move.card), move.kind == "knock", rules)

    def play_on(self, players: Sequence[Policy | SearchPolicy | str]) -> list[Move]:
        """Play the (full-information) hand to its end with ``players[p]`` in seat ``p``
        (as :meth:`decide` takes them); the moves made, in order."""
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise TypeError(f"players must be a pair of players, one per seat, got {players!r}")
        if len(players) != 2:
            raise ValueError(f"players must be a pair of players, one per seat, got {len(players)}")
        seated = (chosen_player(players[0], "players[0]"), chosen_player(players[1], "players[1]"))
        moves = []
        while not self.done:
            move = self.decide(seated[self.to_move])
            self.play(move)
            moves.append(move)
        return moves

    def opponent_plays(self, move: Move, seen: int | None = None) -> None:
        """In a seat view: the opponent made ``move``; ``seen`` names a card it took face
        up when the view did not yet know the pile's top (the first upcard)."""
        if self.seat is None or self.to_move == self.seat:
            raise ValueError("opponent_plays is for a seat view, on the opponent's move")
        if seen is not None and self.upcard is None:
            self.turn_upcard(seen)
        self.play(move)

    def show_knock(self, knocker: int, cards: Sequence[int]) -> None:
        """In a seat view, the knock that ended the hand, scored as in a simulation.

        ``knocker`` knocked with the last card thrown (the view took the opponent's
        knock as a discard; its own was played as a knock), and the opponent shows
        ``cards``, the 10 it holds after that throw: every card the view knows it holds,
        none seen elsewhere.  The engine's
        :func:`~analyzer.gin.engine.transitions.resolve_knock` scores the knock and the
        hand is done, so :attr:`result` and the read of the opponent
        (:func:`analyzer.gin.model.knowledge.outraced`) see it."""
        if self.seat is None:
            raise ValueError("show_knock is for a seat view; a full hand scores its own knocks")
        knocker = check_seat(knocker, "knocker")
        opponent = 1 - self.seat
        top = self.pile_top
        ended = (
            self.phase == "draw"
            and self.to_move == 1 - knocker
            and top is not None
            and top in self.threw(knocker)
            and self.knocked_by == (self.seat if knocker == self.seat else None)
        )
        if not ended:
            raise ValueError(
                f"seat {knocker}'s last throw did not end the hand (phase {self.phase})"
            )
        listed = card_list(cards, "cards")
        mask = to_mask(listed)  # ValueError naming a card listed twice
        if len(listed) != 10:
            raise ValueError(f"the opponent shows its 10 cards, got {len(listed)}")
        known = self.hand_mask(opponent)
        missing = to_indices(known & ~mask)
        if missing:
            raise ValueError(f"the opponent is known to hold {format_card(missing[0])}")
        for card in to_indices(mask & ~known):
            self._check_unseen(card)
        knocker_hand = mask if knocker == opponent else self.hand_mask(knocker)
        if min_deadwood_kernel(np.int64(knocker_hand)) > self.knock_limit:
            raise ValueError(f"seat {knocker} holds too much deadwood to knock")
        self.state[Slot.HAND + opponent] = mask  # the one slot Hand writes (module notes)
        resolve_knock(self.state, np.int64(knocker), self.rules_array)
        self.knocked_by = None

    def turn_upcard(self, card: int) -> None:
        """A seat view sees the first upcard (``opening=upcard``)."""
        card = check_card(card)
        if self.upcard is not None:
            if self.upcard != card:
                raise ValueError(
                    f"the upcard is already known to be {format_card(self.upcard)}, "
                    f"not {format_card(card)}"
                )
            return
        self._check_unseen(card)
        turn_upcard(self.state, np.int64(card), self.rules_array)

    def _check_unseen(self, card: int) -> None:
        card = check_card(card)
        seen = (
            int(self.state[Slot.PILE_MASK])
            | self.hand_mask(0)
            | self.hand_mask(1)
            | int(self.state[Slot.THREW])
            | int(self.state[Slot.THREW + 1])
        )
        if seen >> card & 1:
            raise ValueError(f"{format_card(card)} was already seen in this hand")


def search_key(policy_key: int | np.uint64, decision: int) -> np.int64:
    """The stream key of a hand's ``decision``-th searched decision, as
    :func:`analyzer.gin.play.search.play_on` derives it from the hand's policy stream (the
    int64 casts wrap, as they do inside the kernels)."""
    wrapped = np.array(policy_key, dtype=np.uint64).view(np.int64)[()]
    key = stream_key(np.int64(wrapped ^ SEARCH_SALT), np.int64(decision))
    return np.int64(np.array(key, dtype=np.uint64).view(np.int64)[()])


__all__ = ["Hand", "search_key"]
