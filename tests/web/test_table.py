"""The practice table's game logic: legality, the computer's replies, scoring."""

import random
import re

import numpy as np
import pytest

from analyzer.core.cards import card_points, format_card, parse_card
from analyzer.gin.engine.transitions import Slot
from analyzer.gin.evaluator.api import min_deadwood
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.play.advisor import Position, legal_actions
from analyzer.web.table import ME, IllegalMove, PracticeGame


def new_game(seed=3, preset="standard", opponent="basic", mode="game"):
    return PracticeGame(
        f"g{seed}", RULES[preset], preset, POLICIES[opponent], opponent, mode=mode, seed=seed
    )


def greedy_move(game):
    """Knock or gin when legal, else take/stock, else throw the card leaving least deadwood."""
    legal = game.legal_moves()
    for prefix in ("big gin", "gin", "knock"):
        for move in legal:
            if move.startswith(prefix):
                return move
    if "stock" in legal:
        return "stock"
    if "pass" in legal:
        return "pass"
    hand = [c for c in range(52) if int(game.state[Slot.HAND + ME]) >> c & 1]
    plays = [m for m in legal if m.startswith("play ")]
    return min(
        plays, key=lambda m: min_deadwood([c for c in hand if c != parse_card(m.split()[1])])
    )


def play_hand(game):
    moves = 0
    while game.phase in ("offer", "draw", "discard"):
        game.move(greedy_move(game))
        moves += 1
        assert moves < 200
    return moves


def test_a_hand_plays_to_its_end_and_cards_are_conserved():
    game = new_game()
    assert game.phase in ("offer", "draw", "discard")
    while game.phase in ("offer", "draw", "discard"):
        state = game.state
        held = int(state[Slot.HAND]) | int(state[Slot.HAND + 1])
        pile = {int(c) for c in state[Slot.PILE : Slot.PILE + state[Slot.PILE_LEN]]}
        stock = {int(c) for c in state[Slot.DECK + state[Slot.STOCK_POS] : Slot.DECK + 52]}
        assert bin(held).count("1") + len(pile) + len(stock) == 52
        game.move(greedy_move(game))
    result = game.results[-1]
    assert game.phase in ("hand over", "game over")
    assert result["outcome"] in ("knock", "gin", "undercut", "draw", "tie", "big_gin")
    assert sum(game.scores) == (result["points"] if result["winner"] else 0)
    assert game.view()["last_result"] == result
    assert any(line.startswith("Hand over") for line in game.log)


def test_illegal_moves_raise_with_a_reason_and_change_nothing():
    game = new_game(seed=11)
    while game.phase != "discard":
        game.move(greedy_move(game))
    before = game.state.copy()
    log = list(game.log)
    hand = [c for c in range(52) if int(game.state[Slot.HAND + ME]) >> c & 1]
    absent = next(c for c in range(52) if c not in hand)
    with pytest.raises(IllegalMove, match="is not in your hand"):
        game.move(f"play {format_card(absent)}")
    with pytest.raises(IllegalMove, match="is not a move now"):
        game.move("stock")
    with pytest.raises(IllegalMove, match="card"):
        game.move("play Zz")
    unknockable = [c for c in hand if min_deadwood([h for h in hand if h != c]) > 10]
    if unknockable:
        with pytest.raises(IllegalMove, match="cannot knock: discarding"):
            game.move(f"knock {format_card(unknockable[0])}")
    np.testing.assert_array_equal(game.state, before)
    assert game.log == log


def test_a_card_taken_from_the_pile_may_not_be_thrown_back():
    for seed in range(60):
        game = new_game(seed=seed)
        if "take" in game.legal_moves() or "pile" in game.legal_moves():
            top = game.view()["pile"][-1]
            game.move("take" if "take" in game.legal_moves() else "pile")
            assert f"play {top}" not in game.legal_moves()
            with pytest.raises(IllegalMove, match="just taken from the pile"):
                game.move(f"play {top}")
            return
    pytest.fail("no deal offered a pile card in 60 seeds")


def test_positions_at_discard_decisions_are_what_the_person_knows():
    game = new_game(seed=5)
    checked = 0
    while game.phase in ("offer", "draw", "discard"):
        if game.phase == "discard":
            position = game.position()
            assert set(position.hand) == {
                c for c in range(52) if int(game.state[Slot.HAND + ME]) >> c & 1
            }
            assert position.stock == int(52 - game.state[Slot.STOCK_POS])
            assert position.hidden_pile() == 0  # the whole pile is known
            checked += 1
        game.move(greedy_move(game))
    assert checked == len(game.decisions) >= 1
    assert all(d.hand == 1 for d in game.decisions)


def test_a_game_to_the_target_ends_with_the_bonuses_of_the_rules():
    game = new_game(seed=2)
    for _ in range(60):
        play_hand(game)
        if game.final:
            break
        game.deal()
    assert game.final is not None
    winner = 0 if game.final["winner"] == "you" else 1
    assert game.scores[winner] >= 100
    line = 25 * game.boxes[winner] + game.scores[winner] + 100
    assert game.final["totals"][winner] in (line, 2 * line)  # doubled on a shutout
    with pytest.raises(IllegalMove, match="game is over"):
        game.deal()
    assert game.legal_moves() == []


def test_the_same_seed_deals_the_same_game():
    first, second = new_game(seed=9), new_game(seed=9)
    play_hand(first)
    play_hand(second)
    assert first.log == second.log
    assert first.results == second.results


def test_a_new_hand_only_after_the_last_one_ended():
    game = new_game(seed=4, mode="hand")
    with pytest.raises(IllegalMove, match="not over"):
        game.deal()
    play_hand(game)
    game.deal()
    assert game.hand_number == 2
    assert game.final is None


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="mode must be"):
        PracticeGame("x", RULES["standard"], "standard", POLICIES["basic"], "basic", mode="x")


def test_the_dealer_taking_the_refused_upcard_gets_a_position_for_advice():
    for seed in range(50):
        game = PracticeGame(
            "d", RULES["standard"], "standard", POLICIES["basic"], "basic", seed=seed, dealer=ME
        )
        if game.phase == "offer":  # the computer (non-dealer) passed the upcard
            game.move("take")
            position = game.position()
            assert (position.turn, position.stock, position.dealer) == (1, 31, "me")
            assert position.from_pile and position.taken == position.drawn
            return
    pytest.fail("the computer took the upcard in 50 deals")


@pytest.mark.parametrize("preset", ["standard", "oklahoma", "openspiel", "biggin", "straight"])
def test_every_discard_decision_is_an_advisor_position_with_the_same_actions(preset):
    """Random play taking the pile often (cards thrown, retaken and thrown again): each
    decision is a valid advisor position, and the table's discard moves are exactly the
    advisor's legal actions."""
    rng = random.Random(preset)
    decisions = 0
    for seed in range(6):
        game = PracticeGame(
            "r", RULES[preset], preset, POLICIES["basic"], "basic", seed=seed, dealer=seed % 2
        )
        while game.phase in ("offer", "draw", "discard"):
            legal = game.legal_moves()
            if game.phase == "discard" and not game.must_knock:
                names = {action.name for action in legal_actions(game.position(), RULES[preset])}
                assert names == set(legal)
                decisions += 1
            pile = [m for m in legal if m in ("take", "pile")]
            game.move(rng.choice(pile) if pile and rng.random() < 0.5 else rng.choice(legal))
        assert all(d.position is not None and d.error is None for d in game.decisions)
    assert decisions >= 12


NOTATION = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def test_the_log_is_written_for_a_person_in_suit_symbols():
    game = new_game(seed=9, mode="hand")
    play_hand(game)
    text = "\n".join(game.log)
    assert not NOTATION.search(text), text
    assert re.search(
        r"You (discarded|knocked and discarded|went gin and discarded) \S+[♣♦♥♠]\.", text
    )
    assert "threw" not in text and "went knock" not in text
    assert game.log[-1].startswith("Hand over: ")


def test_the_end_of_a_knocked_hand_lays_out_melds_layoffs_and_deadwood():
    """Every hand with a knock: the knocker's melds are melds and its deadwood cards count
    its deadwood; the defender's melds, layoffs and deadwood cards make its hand, the
    layoffs meld with the knocker's melds, and the deadwood cards count its deadwood."""
    laid_off = 0
    for seed in range(30):
        game = new_game(seed=seed, mode="hand")
        play_hand(game)
        result = game.results[-1]
        showdown = result["showdown"]
        if result["knocker"] is None:
            assert showdown is None
            continue
        knocker, defender = showdown["knocker"], showdown["defender"]
        assert knocker["who"] == result["knocker"] != defender["who"]
        hands = {"you": result["your_hand"], "computer": result["computer_hand"]}
        melded = [card for meld in knocker["melds"] for card in meld]
        assert all(min_deadwood(" ".join(meld)) == 0 for meld in knocker["melds"])
        assert sorted(melded + knocker["deadwood_cards"]) == sorted(hands[knocker["who"]])
        assert (
            sum(card_points(parse_card(c)) for c in knocker["deadwood_cards"])
            == (knocker["deadwood"])
        )
        own = [card for meld in defender["melds"] for card in meld]
        assert all(min_deadwood(" ".join(meld)) == 0 for meld in defender["melds"])
        assert sorted(own + defender["layoffs"] + defender["deadwood_cards"]) == sorted(
            hands[defender["who"]]
        )
        assert min_deadwood(" ".join(melded + defender["layoffs"])) == 0
        assert (
            sum(card_points(parse_card(c)) for c in defender["deadwood_cards"])
            == (defender["deadwood"])
        )
        laid_off += len(defender["layoffs"])
    assert laid_off > 0  # some hand had a layoff


def test_a_hand_history_holds_the_log_the_decisions_and_the_result():
    game = new_game(seed=3, mode="hand")
    play_hand(game)
    history = game.history()
    assert history["kind"] == "analyzer practice hand"
    assert (history["rules"], history["opponent"], history["hand"]) == ("standard", "basic", 1)
    assert history["log"] == game.log and history["result"] == game.results[-1]
    assert len(history["decisions"]) == len(game.decisions) >= 1
    for row, decision in zip(history["decisions"], game.decisions, strict=True):
        assert row["move"] == decision.action
        # each position opens in the advisor as it was
        assert Position.from_json(row["position"]) == decision.position
    game.deal()
    assert game.history()["decisions"] == [] and game.history()["result"] is None


def test_a_move_for_another_phase_says_what_this_phase_allows():
    """A card is read only where a discard is asked for: 'big gin' at the upcard offer
    is no move now (not "bad card 'gin'")."""
    game = next(g for g in map(new_game, range(20)) if g.phase == "offer")
    for text in ("big gin", "Big  Gin", "big gin Kd", "pass now", "knock 39", "play Kd", "gin"):
        shown = " ".join(text.lower().split())
        with pytest.raises(IllegalMove) as raised:
            game.move(text)
        assert str(raised.value) == f"'{shown}' is not a move now (offer); legal: take, pass"
    while game.phase != "discard":
        game.move(greedy_move(game))
    legal = ", ".join(game.legal_moves())
    for text in ("play", "knock", "big gin Kd", "take"):
        with pytest.raises(IllegalMove) as raised:
            game.move(text)
        assert str(raised.value) == f"'{text.lower()}' is not a move now (discard); legal: {legal}"
    with pytest.raises(IllegalMove, match="bad card 'zz'"):
        game.move("play zz")  # here a card is asked for


def test_the_game_deals_by_the_rules_and_the_computer_carries_its_read():
    """After a drawn hand the same dealer deals again, after a won one the winner
    (standard) or the other seat (eaai); each hand starts with the read of the opponent
    the game has built."""
    for preset in ("standard", "eaai"):
        check_dealers_and_reads(new_game(seed=5, preset=preset, opponent="expert"))


def check_dealers_and_reads(game):
    dealt = 0
    while game.final is None and dealt < 40:
        dealer = int(game.state[Slot.DEALER])
        assert (int(game.state[Slot.RACES]), int(game.state[Slot.RACES + 1])) == game.game.races
        play_hand(game)
        dealt += 1
        if game.final is None:
            winner = int(game.state[Slot.WINNER])
            game.deal()
            if winner < 0:
                expected = dealer
            else:
                expected = winner if game.rules.next_dealer == "winner" else 1 - dealer
            assert int(game.state[Slot.DEALER]) == expected
    assert dealt >= 2
    assert game.game.races[1] > 0  # the greedy person knocks short: the computer reads it
