"""One way to play a move: the same decks played three ways must give the same decision
at every step.

1. the engine's own loop (:func:`analyzer.gin.engine.transitions.step`, and for the search player
   :func:`analyzer.gin.play.search.search_action` as :func:`analyzer.gin.play.search.play_on` calls
   it), checked against :func:`play_on`'s final state;
2. the :class:`analyzer.gin.play.hand.Hand` API with full information;
3. the EAAI agent protocol (:class:`analyzer.interop.eaai.AgentSession`, one per seat, each
   seeing only its seat), driven in the framework's callback order (GinRummyGame.play).

The subject plays one seat against ``basic``, which draws no random numbers, so the
engine's one random stream per hand is the subject's own stream, as in its agent.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.rng import SEARCH_SALT, shuffle_deck, stream_key
from analyzer.gin.engine.transitions import (
    Phase,
    Slot,
    has_choice,
    new_hand,
    new_scratch,
    new_state,
    step,
    stock_left,
)
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.actions import apply_action
from analyzer.gin.play.hand import Hand
from analyzer.gin.play.moves import Move
from analyzer.gin.play.players import parse_player, split_players
from analyzer.gin.play.search import play_on, search_action
from analyzer.interop.eaai import AgentSession, card_text

SEED = 11
SUBJECTS = [*POLICIES, "search,budget=48,batch=16,min_samples=16"]


def _deck(number: int) -> np.ndarray:
    deck = np.empty(52, dtype=np.int8)
    shuffle_deck(
        np.array([stream_key(np.int64(90_000 + number), np.int64(0))], dtype=np.uint64), deck
    )
    return deck


def _engine_move(before: np.ndarray, after: np.ndarray) -> Move:
    """The move between two engine states, read off the slots (independently of the
    Hand API's own reading)."""
    if before[Slot.PHASE] in (Phase.OFFER, Phase.DRAW):
        if after[Slot.PHASE] == Phase.DONE:
            return Move("end")
        if after[Slot.TAKEN] >= 0:
            return Move("take")
        return Move("pass") if before[Slot.PHASE] == Phase.OFFER else Move("draw")
    card = int(after[Slot.PILE + after[Slot.PILE_LEN] - 1])
    return Move("knock" if after[Slot.PHASE] == Phase.DONE else "discard", card)


def _wrapped(key: int) -> np.int64:
    """A uint64 stream key as the int64 the kernels cast it to."""
    return np.array(key, dtype=np.uint64).view(np.int64)[()]


def engine_moves(deck, dealer, rules, seats) -> list[tuple[int, Move, int]]:
    """(seat, move, stock left before it) at every step of the engine's loop."""
    policies, searchers = split_players(seats)
    state = new_state()
    rules_array = rules.to_array()
    new_hand(state, deck, np.int64(dealer), rules_array)
    start = state.copy()
    policy_key = stream_key(np.int64(SEED), np.int64(0))
    rng = np.array([policy_key], dtype=np.uint64)
    scratch = new_scratch()
    samples = np.zeros(1, dtype=np.int64)
    moves, decisions = [], 0
    while state[Slot.PHASE] != Phase.DONE:
        seat = int(state[Slot.TURN])
        before = state.copy()
        if searchers[seat, 0] > 0 and has_choice(state, rules_array):
            model = np.stack([policies[seat], policies[seat]])
            key = stream_key(_wrapped(policy_key) ^ SEARCH_SALT, np.int64(decisions))
            action = search_action(
                state, rules_array, model, searchers[seat], np.uint64(key), scratch, samples
            )
            apply_action(state, action, rules_array)
            decisions += 1
        else:
            step(state, rules_array, policies, rng, scratch)
        moves.append((seat, _engine_move(before, state), int(stock_left(before))))
    # the loop above is play_on's own: same final state
    again = start.copy()
    play_on(
        again,
        rules_array,
        policies,
        searchers,
        _wrapped(policy_key) ^ SEARCH_SALT,
        np.array([policy_key], dtype=np.uint64),
        new_scratch(),
        np.zeros(1, dtype=np.int64),
    )
    assert np.array_equal(again, state)
    return moves


def hand_moves(deck, dealer, rules, seats) -> list[tuple[int, Move]]:
    hand = Hand.deal(rules, deck=deck, seed=SEED, dealer=dealer)
    moves = []
    while not hand.done:
        seat = hand.to_move
        move = hand.decide(seats[seat])
        assert move in hand.legal_moves()
        hand.play(move)
        moves.append((seat, move))
    return moves


def agent_moves(deck, dealer, rules, seats) -> list[tuple[int, Move]]:
    """The decisions two agent sessions answer in one hand of GinRummyGame.play (the
    framework's callback order), until a knock or a stock of two."""
    agents = [AgentSession(seats[p], rules, seed=SEED) for p in range(2)]
    starting = 1 - dealer
    order = [int(c) for c in deck]
    hands = {starting: order[0:10], dealer: order[10:20]}
    for p in range(2):
        agents[p].handle(
            {
                "type": "startGame",
                "player": p,
                "starting": starting,
                "cards": [card_text(c) for c in hands[p]],
            }
        )
    pile, stock = [order[20]], order[21:]
    first, current, turns = order[20], starting, 0
    moves: list[tuple[int, Move]] = []

    def ask(seat, **message):
        reply = agents[seat].handle(message)
        assert reply is not None and "error" not in reply, reply
        return reply

    while len(stock) > 2:
        face_up = pile[-1]
        take = False
        offered = not (turns == 2 and face_up == first)
        if offered:
            take = ask(current, type="willDrawFaceUpCard", card=card_text(face_up))["draw"]
        if not take and turns < 2 and face_up == first:
            moves.append((current, Move("pass")))
        else:
            if offered:
                moves.append((current, Move("take" if take else "draw")))
            drawn = pile.pop() if take else stock.pop(0)
            for p in range(2):
                seen = p == current or take
                reply = agents[p].handle(
                    {
                        "type": "reportDraw",
                        "player": current,
                        "card": card_text(drawn) if seen else None,
                    }
                )
                assert reply is None, reply
            hands[current].append(drawn)
            card = ask(current, type="getDiscard")["card"]
            thrown = next(c for c in hands[current] if card_text(c) == card)
            hands[current].remove(thrown)
            for p in range(2):
                assert (
                    agents[p].handle({"type": "reportDiscard", "player": current, "card": card})
                    is None
                )
            pile.append(thrown)
            knocks = ask(current, type="getFinalMelds")["melds"] is not None
            moves.append((current, Move("knock" if knocks else "discard", thrown)))
            if knocks:
                break
        turns += 1
        current = 1 - current
    return moves


@pytest.mark.parametrize("rules_name", ["eaai", "standard"])
@pytest.mark.parametrize("subject", SUBJECTS)
def test_engine_hand_and_agent_decide_alike(subject, rules_name):
    rules = RULES[rules_name]
    player = parse_player(subject)
    decks = 2 if subject.startswith("search") else 4
    for number in range(decks):
        deck = _deck(number)
        for seat in (0, 1):
            seats = [POLICIES["basic"], POLICIES["basic"]]
            seats[seat] = player
            dealer = number % 2
            engine = engine_moves(deck, dealer, rules, seats)
            assert hand_moves(deck, dealer, rules, seats) == [(s, m) for s, m, _ in engine]
            # the framework's hand ends when a turn would start at two stock cards, and
            # its forced first draw (both refused the upcard) is no question to an agent
            expected = [
                (s, m)
                for s, m, stock in engine
                if m.kind != "end"
                and not (m.kind == "draw" and stock == 31 and _both_passed(engine))
            ]
            got = agent_moves(deck, dealer, rules, seats)
            assert got == expected[: len(got)], (subject, rules_name, number, seat)
            assert len(got) == len(expected), (subject, rules_name, number, seat)


def _both_passed(engine) -> bool:
    return [m.kind for _, m, _ in engine[:2]] == ["pass", "pass"]
