"""An analyzer policy as a ``pyspiel.Bot`` of OpenSpiel's ``gin_rummy`` (needs ``pyspiel``, from
the ``bench`` extra: ``pip install open-spiel``).

The bot keeps the player's own view of the hand as a :class:`~analyzer.gin.play.hand.Hand`
(:meth:`~analyzer.gin.play.hand.Hand.seat_view`), fed by the game's history, so the policy sees
what it sees in a simulation (the cards the opponent took, threw and refused, the rules'
bonuses), and decides with the same kernels as the analyzer's simulations: draws and
discards by the policy, the knocker's melds by
:func:`~analyzer.gin.evaluator.api.best_melds`, the defender's layoffs and melds
by the joint search of :func:`~analyzer.gin.evaluator.api.layoff_plan`.  OpenSpiel's rules differ from the
analyzer's ``standard`` ones (see the ``openspiel`` preset in :mod:`analyzer.gin.model.rules`):
a tie scores 0, the wall phase, no big gin, runs declared 3 to 5 cards long (longer runs are
declared in pieces), a player may throw back the card it just took from the pile, and its
knock check on 11 cards is a heuristic that can refuse a legal knock (:func:`knock_refused`).

Card numbering: OpenSpiel's card ``suit * 13 + rank`` has suits ``s c d h``; ours ``c d h s``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..core.cards import CARD_POINTS
from ..gin.evaluator.api import best_discard, best_melds, layoff_plan
from ..gin.model.policies import Policy
from ..gin.model.rules import Rules
from ..gin.play.hand import Hand
from ..gin.play.moves import Move

try:  # pyspiel is optional (the ``bench`` extra)
    import pyspiel
except ImportError:  # pragma: no cover - exercised where open-spiel is absent
    pyspiel = None

_OURS = "cdhs"
_THEIRS = "scdh"
#: Our card index -> OpenSpiel's, and back.
TO_OPENSPIEL = np.array([_THEIRS.index(_OURS[c // 13]) * 13 + c % 13 for c in range(52)])
FROM_OPENSPIEL = np.argsort(TO_OPENSPIEL)
_MAX_DECLARED_RUN = 5


def _require_pyspiel() -> Any:
    if pyspiel is None:
        raise ImportError(
            "the OpenSpiel bridge needs pyspiel: pip install open-spiel "
            "(or the project's 'bench' extra)"
        )
    return pyspiel


def declared_melds(mask: int) -> list[int]:
    """A hand's minimum-deadwood melds (as :func:`best_melds` arranges them) cut so every run
    is 3 to 5 cards long, as OpenSpiel declares them (masks, our numbering)."""
    out = []
    for meld in best_melds(mask).melds:
        cards = [c for c in range(52) if meld >> c & 1]
        out.extend(_cut_run(cards) if len(cards) > _MAX_DECLARED_RUN else [meld])
    return out


def _cut_run(cards: list[int]) -> list[int]:
    pieces = []
    while cards:
        size = len(cards) if len(cards) <= _MAX_DECLARED_RUN else 3
        pieces.append(sum(1 << c for c in cards[:size]))
        cards = cards[size:]
    return pieces


class _View:
    """One player's view of an OpenSpiel hand: a seat view (:class:`Hand`) fed by the
    game's history.  OpenSpiel's player 0 is the non-dealer (offered the upcard first);
    the view is made once the upcard is dealt, and the stock cards the other player draws
    (chance actions in the history) stay unseen."""

    def __init__(self, me: int, rules: Rules, seed: int, hand_index: int) -> None:
        self.me = me
        self.rules = rules
        self.seed = seed
        self.hand_index = hand_index
        self.cards: list[int] = []  # this seat's dealt cards, until the upcard
        self.hand: Hand | None = None
        self.dealt = 0
        self.stock_drawer = -1

    def playing(self) -> Hand:
        if self.hand is None:
            raise ValueError("no decision before the upcard is dealt")
        return self.hand

    def observe(self, phase: Any, player: int, action: int) -> None:
        """Update the view with one action of the history (chance actions included)."""
        phases = pyspiel.gin_rummy.Phase
        if player == pyspiel.PlayerId.CHANCE:
            card = int(FROM_OPENSPIEL[action])
            if self.dealt < 20:
                if self.dealt // 10 == self.me:
                    self.cards.append(card)
            elif self.dealt == 20:
                self.hand = Hand.seat_view(
                    self.me,
                    self.cards,
                    dealer=1,
                    rules=self.rules,
                    seed=self.seed,
                    hand_index=self.hand_index,
                    throw_back=True,
                )
                self.hand.turn_upcard(card)
            elif self.stock_drawer == self.me:
                self.playing().play(Move("draw"), drawn=card)
            else:
                self.playing().opponent_plays(Move("draw"))
            self.dealt += 1
            return
        gin = pyspiel.gin_rummy
        move = None
        if action == gin.DRAW_UPCARD_ACTION or (
            phase == phases.WALL and action == gin.KNOCK_ACTION
        ):
            move = Move("take")  # at the wall, a knock takes the pile's top first
        elif action == gin.DRAW_STOCK_ACTION:
            self.stock_drawer = player  # the card comes with the next chance action
        elif action == gin.PASS_ACTION and phase == phases.FIRST_UPCARD:
            move = Move("pass")
        elif action == gin.PASS_ACTION and phase == phases.WALL:
            move = Move("end")
        elif action < 52 and phase == phases.DISCARD:
            move = Move("discard", int(FROM_OPENSPIEL[action]))
        elif action < 52 and phase == phases.KNOCK:
            move = Move("knock", int(FROM_OPENSPIEL[action]))  # the knocker's throw
        if move is not None:
            hand = self.playing()
            if player == self.me:
                hand.play(move)
            else:
                hand.opponent_plays(move)


def knock_refused(state: Any) -> bool:
    """Whether the player to discard holds a legal knock (exactly: least deadwood after one
    discard within the knock card) that OpenSpiel's 11-card check refuses."""
    hand = sum(1 << int(FROM_OPENSPIEL[c]) for c in state.hands()[state.current_player()])
    return (
        best_discard(hand).deadwood <= state.knock_card()
        and pyspiel.gin_rummy.KNOCK_ACTION not in state.legal_actions()
    )


def _base_bot() -> type:
    return _require_pyspiel().Bot if pyspiel is not None else object


class AnalyzerBot(_base_bot()):  # type: ignore[misc]
    """An analyzer policy playing seat ``player`` of OpenSpiel's ``gin_rummy``.

    ``seed`` keys the policy's random stream (``discard=random``); hand ``k`` since the
    bot was made uses stream ``k``.  ``refused_knocks`` counts the knocks the policy chose
    that OpenSpiel's 11-card check did not allow (the bot then discards without knocking).
    """

    def __init__(self, game: Any, player: int, policy: Policy, rules: Rules, seed: int = 0) -> None:
        _require_pyspiel()
        super().__init__()
        self.game = game
        self.player = player
        self.policy = policy
        # OpenSpiel's game: its knock card, and the wall at a stock of two
        self.rules = dataclasses.replace(
            rules, knock_limit=int(game.get_parameters()["knock_card"]), stock_rule="wall"
        )
        self.seed = seed
        self.hands_started = -1
        self.refused_knocks = 0
        self.restart()

    def restart(self) -> None:
        self.hands_started += 1
        self.view = _View(self.player, self.rules, self.seed, self.hands_started)
        self.mirror = self.game.new_initial_state()
        self.seen = 0

    def restart_at(self, state: Any) -> None:
        self.restart()
        self._catch_up(state)

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: :meth:`step` catches up from the history."""

    def _catch_up(self, state: Any) -> None:
        history = state.history()
        if len(history) < self.seen:
            self.restart()
        for action in history[self.seen :]:
            self.view.observe(self.mirror.current_phase(), self.mirror.current_player(), action)
            self.mirror.apply_action(action)
        self.seen = len(history)

    def step(self, state: Any) -> int:
        self._catch_up(state)
        gin = pyspiel.gin_rummy
        phases = gin.Phase
        phase = state.current_phase()
        legal = state.legal_actions()
        if phase in (phases.FIRST_UPCARD, phases.DRAW):
            if gin.DRAW_UPCARD_ACTION not in legal:
                return gin.DRAW_STOCK_ACTION
            if self.view.playing().decide(self.policy).kind == "take":
                return gin.DRAW_UPCARD_ACTION
            return gin.PASS_ACTION if phase == phases.FIRST_UPCARD else gin.DRAW_STOCK_ACTION
        if phase == phases.WALL:
            # the view is at a draw with two stock cards: take the top to knock, or end
            if self.view.playing().decide(self.policy).kind == "take" and gin.KNOCK_ACTION in legal:
                return gin.KNOCK_ACTION
            return gin.PASS_ACTION
        if phase == phases.DISCARD:
            move = self._discard()
            if move.kind == "knock":
                if gin.KNOCK_ACTION in legal:
                    return gin.KNOCK_ACTION
                self.refused_knocks += 1
            assert move.card is not None
            return int(TO_OPENSPIEL[move.card])
        if phase == phases.KNOCK:
            return self._knock_step(state, legal)
        if phase == phases.LAYOFF:
            return self._layoff_step(state, legal)
        raise ValueError(f"no decision for phase {phase}")

    def _discard(self) -> Move:
        """The policy's discard (maybe a knock) from 11 cards; big gin, which OpenSpiel
        does not have, is a gin knock."""
        hand = self.view.playing()
        move = hand.decide(self.policy)
        if move.card is None:
            move = next(m for m in hand.legal_moves() if m.kind == "knock")
        return move

    def _knock_step(self, state: Any, legal: list[int]) -> int:
        gin = pyspiel.gin_rummy
        me = self.player
        hand = sum(1 << int(FROM_OPENSPIEL[c]) for c in state.hands()[me])
        if hand.bit_count() == 11:
            taken = self.view.playing().taken
            cards = best_discard(hand, 0 if taken is None else 1 << taken).discards
            card = self._discard().card
            assert card is not None
            if card not in cards:  # the policy's card must keep the knock legal
                card = max(cards, key=lambda c: (CARD_POINTS[c], c % 13, c))
            return int(TO_OPENSPIEL[card])
        laid = [
            sum(1 << int(FROM_OPENSPIEL[c]) for c in self._meld_cards(m))
            for m in state.layed_melds()[me]
        ]
        full = hand | sum(laid)
        for meld in _declared(best_melds(full).melds):
            if meld not in laid:
                action = gin.MELD_ACTION_BASE + self._meld_id(meld)
                if action in legal:
                    return action
        return gin.PASS_ACTION

    def _layoff_step(self, state: Any, legal: list[int]) -> int:
        gin = pyspiel.gin_rummy
        me = self.player
        hand = sum(1 << int(FROM_OPENSPIEL[c]) for c in state.hands()[me])
        if not state.finished_layoffs():
            sets = runs = 0
            for meld in state.layed_melds()[1 - me]:
                cards = [int(FROM_OPENSPIEL[c]) for c in self._meld_cards(meld)]
                mask = sum(1 << c for c in cards)
                if len({c % 13 for c in cards}) == 1:
                    sets |= mask
                else:
                    runs |= mask
            laid_off = sum(1 << int(FROM_OPENSPIEL[c]) for c in state.layoffs())
            original = hand | laid_off
            plan = layoff_plan(original, sets, runs)
            for card in plan:
                if hand >> card & 1:
                    action = int(TO_OPENSPIEL[card])
                    return action if action in legal else gin.PASS_ACTION
            return gin.PASS_ACTION
        for meld in declared_melds(hand):
            action = gin.MELD_ACTION_BASE + self._meld_id(meld)
            if action in legal:
                return action
        return gin.PASS_ACTION

    def _meld_cards(self, meld_id: int) -> list[int]:
        return list(_utils().int_to_meld[meld_id])

    def _meld_id(self, meld: int) -> int:
        return int(_utils().meld_to_int([int(TO_OPENSPIEL[c]) for c in range(52) if meld >> c & 1]))


_UTILS: list[Any] = []


def _utils() -> Any:
    if not _UTILS:
        _UTILS.append(_require_pyspiel().gin_rummy.GinRummyUtils(13, 4, 10))
    return _UTILS[0]


def _declared(melds: list[int]) -> list[int]:
    """The knocker's melds (sets, then runs, as :func:`best_melds` gives them), runs cut
    to 3-5 cards."""
    out = []
    for meld in melds:
        cards = [c for c in range(52) if meld >> c & 1]
        if len({card // 13 for card in cards}) == 1:  # one suit: a run
            out.extend(_cut_run(cards))
        else:
            out.append(meld)
    return out
