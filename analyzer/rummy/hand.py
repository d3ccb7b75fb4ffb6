"""One hand of plain rummy as a Python object, move by move: the practice table's engine.

:class:`Hand` wraps the state array (:mod:`analyzer.rummy.state`) and changes it only
through the engine's kernels: a person's moves through
:func:`~analyzer.rummy.actions.apply_move` (after :func:`~analyzer.rummy.actions.legal_moves`
says they are legal), the computer seats' through the engine's own step
(:func:`~analyzer.rummy.engine.step`), so a hand played here is played by the rules and
players of a simulation.  Seats listed as ``people`` wait for :meth:`Hand.play`; the
others play by their policies (``rummy-expert`` unless told) whenever :meth:`Hand.advance`
is called.

Moves are :class:`Move` values: ``draw`` (the stock), ``take`` (the pile's top),
``meld`` (cards laid down), ``layoff`` (a card onto a table meld, by its index),
``discard``, and, with ``rummy_on_board``, ``call`` and ``pass``.

:meth:`Hand.decide` says what a policy would do now; the practice table's
:class:`~analyzer.rummy.practice.PracticeHand` adds ``rummy-expert``'s hints and a review
of the hand, in words.

>>> hand = Hand.deal(players=3, seed=7)
>>> hand.phase, hand.to_move, len(hand.cards(0)), hand.stock_left
('draw', 0, 7, 30)
>>> hand.play(Move("draw"))
>>> hand.phase
'play'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.arrays import Int64s
from ..core.cards import format_card, to_indices
from ..core.lanes import lane_tables
from ..core.rng import shuffle_deck, stream_key
from .actions import MAX_MOVES, apply_move, legal_moves
from .engine import draw_decision, draw_step, step
from .moves import Move, moves_between
from .policies import RummyPolicy, parse_policy
from .rules import RummyRules, resolve_rules
from .state import STATE_SIZE, End, Phase, Slot
from .transitions import new_hand
from .work import work_space

PHASES = tuple(phase.name.lower() for phase in Phase)
#: Seats at a practice table.
TABLE_PLAYERS = (2, 3, 4)


@dataclass
class Turn:
    """What one seat did in one phase of a turn (``moves``) and, for a person at a
    practice table, what ``rummy-expert`` would have done there (``advice``, with its
    reason: :class:`~analyzer.rummy.practice.PracticeHand`)."""

    seat: int
    phase: str
    turn: int
    """The seat's own turn number (from 1)."""
    moves: list[Move] = field(default_factory=list)
    advice: list[Move] | None = None
    reason: str = ""


def _policy(policy: RummyPolicy | str) -> RummyPolicy:
    if isinstance(policy, RummyPolicy):
        return policy
    if isinstance(policy, str):
        return parse_policy(policy)
    raise TypeError(f"a policy is a RummyPolicy or its name or string form, got {policy!r}")


class Hand:
    """A hand's state array and the moves that change it (see the module notes).

    ``policies[s]`` plays seat ``s`` when it is not one of ``people``; ``seed`` and
    ``hand_index`` name the deal (deal ``hand_index`` of a simulation with that seed,
    seat 0 first)."""

    def __init__(
        self,
        state: Int64s,
        rules: RummyRules,
        policies: Sequence[RummyPolicy],
        people: Iterable[int] = (0,),
    ) -> None:
        self.state = state
        self.rules = rules
        self.rules_array = rules.to_array()
        self.policies = tuple(policies)
        self.policy_rows = np.array([p.to_array() for p in self.policies], dtype=np.int64)
        self.people = frozenset(people)
        self.tables = lane_tables(rules.run_cap)
        self.ws = work_space()
        self.log: list[Turn] = []

    @classmethod
    def deal(
        cls,
        rules: RummyRules | str = "standard",
        players: int | None = None,
        seed: int = 0,
        hand_index: int = 0,
        opponent: RummyPolicy | str = "rummy-expert",
        people: Iterable[int] = (0,),
    ) -> Hand:
        """A hand dealt from ``seed`` and ``hand_index`` (as deal ``hand_index`` of a
        simulation), ``players`` seats (2-4 at a table; the rules' count when None),
        ``opponent`` in every seat not in ``people``."""
        chosen = resolve_rules(rules) if isinstance(rules, str) else rules
        if not isinstance(chosen, RummyRules):
            raise TypeError(f"rules must be RummyRules or a preset name, got {rules!r}")
        if players is not None:
            if players not in TABLE_PLAYERS:
                raise ValueError(f"a practice table seats 2-4 players, got {players!r}")
            chosen = chosen.replace(players=players)
        seats = set(people)
        if not seats <= set(range(chosen.players)):
            raise ValueError(f"people must be seats 0-{chosen.players - 1}, got {sorted(seats)}")
        if not 0 <= seed < 2**63 or not 0 <= hand_index < 2**63:
            raise ValueError("seed and hand_index must be 0 <= n < 2**63")
        deck = np.empty(52, dtype=np.int8)
        key = stream_key(np.int64(seed), np.int64(hand_index))
        shuffle_deck(np.array([key], dtype=np.uint64), deck)
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        new_hand(state, deck, chosen.to_array(), np.int64(0))
        return cls(state, chosen, [_policy(opponent)] * chosen.players, seats)

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> str:
        """``draw``, ``play``, ``call`` or ``done``."""
        return PHASES[int(self.state[Slot.PHASE])]

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def to_move(self) -> int:
        """The seat to move (in the call phase, the seat asked)."""
        if self.phase == "call":
            return int(self.state[Slot.CALLER])
        return int(self.state[Slot.PLAYER])

    def cards(self, seat: int) -> list[int]:
        """The cards in ``seat``'s hand, ascending."""
        return to_indices(int(self.state[Slot.HAND + seat]))

    @property
    def hand_sizes(self) -> list[int]:
        """Cards in each seat's hand (public)."""
        return [len(self.cards(seat)) for seat in range(self.rules.players)]

    @property
    def pile(self) -> list[int]:
        """The discard pile, bottom first."""
        n = int(self.state[Slot.PILE_LEN])
        return [int(c) for c in self.state[Slot.PILE : Slot.PILE + n]]

    @property
    def stock_left(self) -> int:
        return 52 - int(self.state[Slot.STOCK])

    @property
    def melds(self) -> list[tuple[list[int], int]]:
        """The table melds (cards ascending, owner seat), in the order layoffs name them."""
        return [
            (to_indices(int(self.state[Slot.MELDS + m])), int(self.state[Slot.OWNERS + m]))
            for m in range(int(self.state[Slot.N_MELDS]))
        ]

    @property
    def taken(self) -> int | None:
        """The card the seat to play took from the pile this turn (it may not throw it)."""
        taken = int(self.state[Slot.TAKEN])
        return None if taken < 0 else taken

    def took(self, seat: int) -> list[int]:
        """The cards ``seat`` took from the pile and still holds (public)."""
        return to_indices(int(self.state[Slot.HELD + seat]))

    def turns(self, seat: int) -> int:
        """``seat``'s own turns begun (drawn)."""
        return int(self.state[Slot.TURNS + seat])

    @property
    def winner(self) -> int | None:
        winner = int(self.state[Slot.WINNER])
        return None if winner < 0 else winner

    @property
    def points(self) -> int:
        """The winner's points (Rummy doubled), 0 for a void hand or one not over."""
        return int(self.state[Slot.POINTS])

    @property
    def rummy(self) -> bool:
        return bool(self.state[Slot.RUMMY])

    @property
    def end(self) -> str | None:
        """How the hand ended: ``out``, ``stock`` (void) or ``turn_limit`` (void)."""
        return End(int(self.state[Slot.END])).name.lower() if self.done else None

    # ------------------------------------------------------------------ moving
    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make now (none once the hand is over)."""
        moves = np.zeros((MAX_MOVES, 3), dtype=np.int64)
        count = legal_moves(self.state, self.rules_array, moves, self.ws[1])
        return [Move.from_row(moves[i]) for i in range(count)]

    def play(self, move: Move | str) -> None:
        """Make ``move`` (or its text) for the seat to move, a person's seat or not;
        ``ValueError`` when it is not legal now (the hand is unchanged)."""
        if isinstance(move, str):
            move = Move.parse(move)
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move or its text, got {move!r}")
        if move not in self.legal_moves():
            raise ValueError(f"{move} is not legal now (phase {self.phase}, seat {self.to_move})")
        seat, phase = self.to_move, self.phase
        entry = self._entry(seat, phase)
        kind, cards, meld = move.row()
        apply_move(
            self.state,
            self.rules_array,
            np.int64(kind),
            np.int64(cards),
            np.int64(meld),
            self.ws[1],
        )
        entry.moves.append(move)

    def _entry(self, seat: int, phase: str) -> Turn:
        """The log entry of ``seat``'s current phase (opened at its first move)."""
        turn = self.turns(seat) + (phase == "draw")
        last = self.log[-1] if self.log else None
        if last is not None and (last.seat, last.phase, last.turn) == (seat, phase, turn):
            return last
        entry = Turn(seat, phase, turn)
        self._opened(entry)
        self.log.append(entry)
        return entry

    def _opened(self, entry: Turn) -> None:
        """A person's phase begins (its first move is about to be made): a subclass may
        note what it likes in ``entry`` (the practice table, the expert's advice)."""

    def decide(self, policy: RummyPolicy | str = "rummy-expert") -> list[Move]:
        """The moves ``policy`` would make now for the seat to move, to the end of the
        phase (the draw; the melds, layoffs and throw; the call), decided by the same
        kernels as in a simulation; the hand does not change."""
        if self.done:
            raise ValueError("the hand is over: no move to decide")
        after = self.state.copy()
        self._step(after, _policy(policy))
        return moves_between(self.state, after)

    def _step(self, state: Int64s, policy: RummyPolicy | None = None) -> None:
        """One phase of the seat to move in ``state``, by ``policy`` (its own when None)."""
        rows = self.policy_rows
        if policy is not None:
            rows = np.array([policy.to_array()] * self.rules.players, dtype=np.int64)
        rd, rm, lp = self.tables
        if state[Slot.PHASE] == Phase.DRAW:
            draw_step(state, self.rules_array, rd, self.ws)
        else:
            step(state, self.rules_array, rows, rd, rm, lp, self.ws)

    def advance(self) -> list[Turn]:
        """Let the computer seats play until a person must move or the hand is over;
        the phases they played, in order."""
        played = []
        while not self.done and self.to_move not in self.people:
            seat, phase = self.to_move, self.phase
            before = self.state.copy()
            self._step(self.state)
            entry = Turn(seat, phase, self.turns(seat), moves_between(before, self.state))
            self.log.append(entry)
            played.append(entry)
        return played

    def draw_values(self) -> tuple[bool, int, int]:
        """``(take, now, after)`` of the seat to draw: whether the engine's draw rule
        takes the pile's top, its deadwood now and after taking it (points)."""
        take, now, after = draw_decision(self.state, self.rules_array, self.tables[0], self.ws)
        return bool(take), int(now), int(after)

    def public(self, seat: int) -> dict[str, object]:
        """What ``seat`` sees now, as plain data (card notation such as ``"Kd"``): its
        cards, every hand's size, the pile, the table melds and their owners, the stock
        left, the cards each seat took from the pile and still holds, whose move it is in
        which phase, the legal moves when it is ``seat``'s, and the result once over."""
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0-{self.rules.players - 1}, got {seat!r}")
        mine = self.to_move == seat and not self.done
        view: dict[str, object] = {
            "players": self.rules.players,
            "seat": seat,
            "phase": self.phase,
            "to_move": self.to_move,
            "cards": [format_card(c) for c in self.cards(seat)],
            "hand_sizes": self.hand_sizes,
            "pile": [format_card(c) for c in self.pile],
            "melds": [
                {"cards": [format_card(c) for c in cards], "owner": owner}
                for cards, owner in self.melds
            ],
            "stock_left": self.stock_left,
            "took": [[format_card(c) for c in self.took(s)] for s in range(self.rules.players)],
            "legal_moves": [str(m) for m in self.legal_moves()] if mine else [],
        }
        if self.done:
            view |= {
                "winner": self.winner,
                "points": self.points,
                "rummy": self.rummy,
                "end": self.end,
            }
        return view

    def copy(self) -> Hand:
        """An independent copy that plays on exactly as this hand would."""
        other = type(self)(self.state.copy(), self.rules, self.policies, self.people)
        other.log = [
            Turn(t.seat, t.phase, t.turn, list(t.moves), t.advice, t.reason) for t in self.log
        ]
        return other


__all__ = ["PHASES", "TABLE_PLAYERS", "Hand", "Turn"]
