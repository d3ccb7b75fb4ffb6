"""The game floor: a finished hand applied to a game, worked by hand from the seed rules
(a drawn hand is dealt again by the same dealer; the winner of a hand deals the next
under standard rules; line and game bonuses; Hollywood's three columns), and the
Python ``Game`` the practice table plays through."""

import numpy as np
import pytest

from analyzer.gin.engine.transitions import Slot, new_state
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.model.rules import Rules
from analyzer.gin.play.game import Game
from analyzer.gin.play.game_score import GAME_SIZE, GameSlot, new_game, score_hand
from analyzer.gin.play.hand import Hand

EXPERT = POLICIES["expert"]


def finished(winner: int, points: int, knocker: int = -1, deadwood: int = 0, turns: int = 1):
    """A finished hand's state: ``winner`` (-1: drawn) scored ``points``; ``knocker``
    knocked with ``deadwood`` points at its own turn ``turns``."""
    state = new_state()
    state[Slot.WINNER] = winner
    state[Slot.POINTS] = points
    state[Slot.KNOCKER] = knocker
    state[Slot.KNOCKER_DEADWOOD] = deadwood
    if knocker >= 0:
        state[Slot.OWN_TURNS + knocker] = turns
    return state


def play(rules: Rules, hands: list[tuple[int, int]], columns: int = 1) -> np.ndarray:
    game = np.zeros(GAME_SIZE, dtype=np.int64)
    new_game(
        game, np.int64(0), np.zeros(4, dtype=np.int64), np.int64(columns), np.int64(rules.target)
    )
    rows = np.stack([EXPERT.to_array(), EXPERT.to_array()])
    for winner, points in hands:
        score_hand(game, finished(winner, points), rows, rules.to_array())
    return game


def test_a_drawn_hand_scores_nothing_and_the_same_dealer_deals_again():
    game = play(RULES["standard"], [(-1, 0)])
    assert game[GameSlot.DEALER] == 0
    assert game[GameSlot.HANDS] == 1 and game[GameSlot.DRAWN_HANDS] == 1
    assert game[GameSlot.SCORE] == game[GameSlot.SCORE + 1] == 0


@pytest.mark.parametrize(("preset", "dealer"), [("standard", 1), ("eaai", 1)])
def test_the_next_dealer_follows_the_rules(preset, dealer):
    # seat 1 wins the first hand, dealt by seat 0: under standard rules the winner
    # deals, under eaai's the deal alternates; both give seat 1
    assert play(RULES[preset], [(1, 20)])[GameSlot.DEALER] == dealer
    # seat 0 wins next: it deals under standard rules; eaai alternates back to seat 0 too
    assert play(RULES[preset], [(1, 20), (0, 5)])[GameSlot.DEALER] == 0


def test_a_game_to_the_target_closes_with_line_and_game_bonuses():
    rules = RULES["standard"]  # target 100, line bonus 25 a hand at the end, game bonus 100
    game = play(rules, [(0, 60), (1, 30), (0, 45)])
    assert game[GameSlot.OPEN_COLUMNS] == 0
    assert game[GameSlot.LAST_WINNER] == 0
    assert game[GameSlot.TOTAL] == 105 + 2 * 25 + 100
    assert game[GameSlot.TOTAL + 1] == 30 + 25
    assert game[GameSlot.SHUTOUTS] == 0


def test_hollywood_scores_the_nth_win_in_the_first_n_columns():
    rules = RULES["hollywood"]
    game = play(rules, [(0, 10), (0, 20), (1, 7), (0, 30)], columns=3)
    scores = [[int(game[GameSlot.SCORE + 2 * col + seat]) for seat in range(2)] for col in range(3)]
    assert scores == [[60, 7], [50, 0], [30, 0]]


def test_the_read_counts_a_knock_short_of_gin_the_readers_table_would_not_make():
    game = np.zeros(GAME_SIZE, dtype=np.int64)
    new_game(game, np.int64(0), np.zeros(4, dtype=np.int64), np.int64(1), np.int64(100))
    rows = np.stack([EXPERT.to_array(), EXPERT.to_array()])
    rules = RULES["standard"].to_array()
    # the champion knocks on 10 or less up to its own turn 9, then only with gin
    score_hand(game, finished(1, 20, knocker=1, deadwood=6, turns=5), rows, rules)
    assert game[GameSlot.RACES] == 0
    score_hand(game, finished(1, 20, knocker=1, deadwood=6, turns=12), rows, rules)
    assert (game[GameSlot.RACES], game[GameSlot.RACES + 1]) == (1, 0)


def test_game_plays_hands_to_the_target_and_refuses_more():
    rules = RULES["standard"]
    game = Game(rules, first_dealer=1)
    for index in range(200):
        if game.over:
            break
        hand = Hand.deal(
            rules,
            seed=11,
            hand_index=index,
            dealer=game.dealer,
            scores=game.scores,
            races=game.races,
        )
        with pytest.raises(ValueError, match="not over"):
            game.record(hand, (EXPERT, EXPERT))
        hand.play_on([EXPERT, POLICIES["basic"]])
        game.record(hand, (EXPERT, POLICIES["basic"]))
    assert game.over and game.winner is not None
    assert max(game.scores) >= rules.target
    assert game.totals[game.winner] >= rules.target + rules.game_bonus
    with pytest.raises(ValueError, match="game is over"):
        game.record(hand, (EXPERT, EXPERT))


def test_a_series_of_single_hands_has_no_target():
    game = Game(RULES["standard"], to_target=False)
    rows = np.stack([EXPERT.to_array(), EXPERT.to_array()])
    for _ in range(5):
        score_hand(game.array, finished(0, 90), rows, RULES["standard"].to_array())
    assert game.scores == (450, 0) and not game.over
