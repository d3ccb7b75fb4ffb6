"""The OpenSpiel bridge: analyzer policies inside OpenSpiel's engine agree with the analyzer's.

Needs ``pyspiel`` (``pip install open-spiel``, the ``bench`` extra); CI installs only
``.[test]``, so there these tests are skipped.  ``scripts/openspiel_replay.py`` produces
the committed figures (results/interop/openspiel.json) on 10,000 deals.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel not installed (bench extra)")

from analyzer.core.rng import shuffle_deck, stream_key
from analyzer.gin.engine.transitions import OUTCOME_NAMES, Slot, play_from_deck
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS
from analyzer.gin.play.hand import Hand
from analyzer.gin.play.moves import Move
from analyzer.interop.openspiel import (
    FROM_OPENSPIEL,
    TO_OPENSPIEL,
    AnalyzerBot,
    declared_melds,
)


def test_card_numbering_round_trips():
    assert sorted(TO_OPENSPIEL) == list(range(52))
    assert all(FROM_OPENSPIEL[TO_OPENSPIEL[c]] == c for c in range(52))
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert utils.card_string(int(TO_OPENSPIEL[0])) == "Ac"  # our card 0 is the ace of clubs


def test_long_runs_are_declared_in_legal_pieces():
    from analyzer.core.cards import to_mask

    melds = declared_melds(to_mask("3c 4c 5c 6c 7c 8c 9c Kd Kh Ks"))
    sizes = sorted(bin(m).count("1") for m in melds)
    assert sizes == [3, 3, 4]


def test_replayed_deals_match_the_analyzer():
    rules = PRESETS["openspiel"]
    policy = POLICIES["basic"]
    policies = np.stack([policy.to_array(), policy.to_array()])
    game = pyspiel.load_game("gin_rummy")
    bots = [AnalyzerBot(game, p, policy, rules) for p in range(2)]
    for deal in range(60):
        rng = np.array([stream_key(np.int64(31), np.int64(deal))], dtype=np.uint64)
        deck = np.empty(52, dtype=np.int8)
        shuffle_deck(rng, deck)
        ours = play_from_deck(deck, 1, rules.to_array(), policies)
        state = game.new_initial_state()
        for bot in bots:
            bot.restart()
        position = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(TO_OPENSPIEL[deck[position]]))
                position += 1
            else:
                state.apply_action(bots[state.current_player()].step(state))
        winner = int(ours[Slot.WINNER])
        points = 0 if winner < 0 else int(ours[Slot.POINTS]) * (1 if winner == 0 else -1)
        refused = sum(b.refused_knocks for b in bots)
        if refused == 0:
            assert state.returns()[0] == points, (deal, OUTCOME_NAMES[int(ours[Slot.OUTCOME])])


def _move_of(phase, action: int):
    """The analyzer move an OpenSpiel action makes (None: no move of the hand)."""
    gin = pyspiel.gin_rummy
    if action < 52:
        if phase == gin.Phase.DISCARD:
            return Move("discard", int(FROM_OPENSPIEL[action]))
        return Move("knock", int(FROM_OPENSPIEL[action])) if phase == gin.Phase.KNOCK else None
    return {
        (gin.Phase.FIRST_UPCARD, gin.DRAW_UPCARD_ACTION): Move("take"),
        (gin.Phase.DRAW, gin.DRAW_UPCARD_ACTION): Move("take"),
        (gin.Phase.FIRST_UPCARD, gin.PASS_ACTION): Move("pass"),
        (gin.Phase.FIRST_UPCARD, gin.DRAW_STOCK_ACTION): Move("draw"),
        (gin.Phase.DRAW, gin.DRAW_STOCK_ACTION): Move("draw"),
        (gin.Phase.WALL, gin.KNOCK_ACTION): Move("take"),
        (gin.Phase.WALL, gin.PASS_ACTION): Move("end"),
    }.get((phase, action))


def test_the_bot_decides_as_the_engine_does_on_the_whole_deal():
    """At every decision the bot, which sees only its seat, chooses what the engine's
    policy chooses on the full deal: the expert reads the cards the opponent took, kept
    and refused and the rules' bonuses, which the bot's view keeps as a simulation does
    (before it kept them in a Hand, the expert chose differently at about 3% of its
    decisions)."""
    rules = PRESETS["openspiel"]
    players = (POLICIES["expert"], POLICIES["basic"])
    game = pyspiel.load_game("gin_rummy")
    gin = pyspiel.gin_rummy
    checked = 0
    for deal in range(16):
        rng = np.array([stream_key(np.int64(55), np.int64(deal))], dtype=np.uint64)
        deck = np.empty(52, dtype=np.int8)
        shuffle_deck(rng, deck)
        full = Hand.deal(rules, deck=deck, dealer=1)  # OpenSpiel deals in the engine's order
        bots = [AnalyzerBot(game, p, players[p], rules) for p in range(2)]
        state = game.new_initial_state()
        position = 0
        knock = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(TO_OPENSPIEL[deck[position]]))
                position += 1
                continue
            seat, phase = state.current_player(), state.current_phase()
            action = bots[seat].step(state)
            move = _move_of(phase, action)
            if not full.done and (move is not None or action == gin.KNOCK_ACTION):
                expected = knock or full.decide(players[seat])
                if action == gin.KNOCK_ACTION and phase == gin.Phase.DISCARD:
                    assert expected.kind == "knock", (deal, expected)
                    knock = expected  # its throw comes in the knock phase
                else:
                    assert move == expected, (deal, phase, move, expected)
                    full.play(move)
                    knock = None
                checked += 1
            state.apply_action(action)
        assert sum(b.refused_knocks for b in bots) == 0
    assert checked > 300
