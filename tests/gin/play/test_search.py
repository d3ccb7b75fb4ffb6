"""The search player: scripted choices, the budget, reproducibility, drivers and CLI."""

import numba
import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core.cards import parse_card, parse_hand
from analyzer.gin.engine.transitions import SCRATCH_SIZE, Phase, Slot, new_state
from analyzer.gin.model.policies import PRESETS, parse_policy, policy_name
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.advisor import Position, advise
from analyzer.gin.play.players import (
    MODEL_ROW,
    SearchField,
    SearchPolicy,
    format_player,
    parse_player,
    split_players,
)
from analyzer.gin.play.search import search_action
from analyzer.gin.play.simulate import hand_rows, play_games, simulate
from analyzer.gin.studies.round_robin import tournament

GIN_HUNTER = PRESETS["gin-hunter"]
#: Action codes of search_action: a card (throw), 52 + card (knock), 104 (no take), 105 (take).
KNOCK, NO_TAKE, TAKE = 52, 104, 105


def _mask(cards):
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def discard_position(hand, opp, stock, own_turns=1):
    """A state where seat 0 holds ``hand`` (11 cards) and is to discard, seat 1 holds
    ``opp`` (10), the stock is ``stock`` in draw order and every other card is in the
    pile, thrown alternately by the two players (none taken)."""
    hand, opp, stock = parse_hand(hand), parse_hand(opp), parse_hand(stock)
    pile = [c for c in range(52) if c not in set(hand) | set(opp) | set(stock)]
    state = new_state()
    state[Slot.HAND] = _mask(hand)
    state[Slot.HAND + 1] = _mask(opp)
    state[Slot.THREW] = _mask(pile[0::2])
    state[Slot.THREW + 1] = _mask(pile[1::2])
    state[Slot.PILE : Slot.PILE + len(pile)] = pile
    state[Slot.PILE_LEN] = len(pile)
    state[Slot.PILE_MASK] = _mask(pile)
    state[Slot.STOCK_POS] = 52 - len(stock)
    state[Slot.DECK + 52 - len(stock) : Slot.DECK + 52] = stock
    state[Slot.OWN_TURNS] = state[Slot.OWN_TURNS + 1] = own_turns
    state[Slot.DRAWS] = 2 * own_turns
    state[Slot.DEALER] = 1
    state[Slot.TURN] = 0
    state[Slot.PHASE] = Phase.DISCARD
    state[Slot.OFFERS] = 2
    state[Slot.KNOCK_LIMIT] = 10
    state[Slot.MULTIPLIER] = 1
    state[Slot.TAKEN] = state[Slot.OUTCOME] = state[Slot.WINNER] = state[Slot.KNOCKER] = -1
    return state


def decide(state, player, key=7):
    """(action code, samples used) of one search decision."""
    policies, searchers = split_players([player, player])
    used = np.zeros(1, dtype=np.int64)
    action = search_action(
        state,
        STANDARD.to_array(),
        policies,
        searchers[0],
        np.int64(key),
        np.zeros(SCRATCH_SIZE, dtype=np.int64),
        used,
    )
    return int(action), int(used[0])


# Seat 0: three melds and the Ace of diamonds; seat 1 a loose hand.
MELDED = "As 2s 3s 4c 5c 6c 7h 8h 9h Ad Kd"
LOOSE = "Kc Qd Jh 9c 8d 7s 5h 4d 3h 2d"


@pytest.mark.parametrize("scope", ["all", "knock"])
@pytest.mark.parametrize("sampler", ["inference", "weighted"])
def test_search_knocks_when_the_stock_is_about_to_run_out(sampler, scope):
    # gin-hunter would hold on for gin at own turn 3; with three cards left in the stock
    # playing on scores at most a drawn hand, a knock at 1 wins against a loose hand
    state = discard_position(MELDED, LOOSE, "Jc Td 6d", own_turns=3)
    action, _ = decide(
        state,
        SearchPolicy(
            budget=64, rollout=GIN_HUNTER, sampler=sampler, scope=scope, batch=8, min_samples=8
        ),
    )
    assert action == KNOCK + parse_card("Kd")


def test_knock_scope_races_only_the_knock_decision():
    # gin is taken unsearched, and so is a discard where no knock is legal
    gin = discard_position("As 2s 3s 4c 5c 6c 7h 8h 9h Th Kd", LOOSE, "Jc Td 6d 5d Ac")
    action, used = decide(gin, SearchPolicy(rollout=PRESETS["basic"]))
    assert (action, used) == (KNOCK + parse_card("Kd"), 0)
    messy = discard_position("As 5s 9s 2c 6c Tc 3d 7d Jd 4h 8h", LOOSE, "Jc Td 6d 5d Ac Ah")
    action, used = decide(messy, SearchPolicy(rollout=PRESETS["basic"]))
    assert used == 0 and action < KNOCK
    # a knock at 1 that basic takes at once is raced against throwing Kd and playing on
    state = discard_position(MELDED, LOOSE, "Jc Td 6d 5d Ac Ah 2h 3h", own_turns=2)
    action, used = decide(state, SearchPolicy(budget=64, rollout=PRESETS["basic"]))
    assert used >= 32 and action in (KNOCK + parse_card("Kd"), parse_card("Kd"))


def test_search_goes_gin_and_stops_early():
    state = discard_position("As 2s 3s 4c 5c 6c 7h 8h 9h Th Kd", LOOSE, "Jc Td 6d 5d Ac")
    action, used = decide(
        state,
        SearchPolicy(budget=512, rollout=PRESETS["basic"], scope="all", batch=8, min_samples=8),
    )
    assert action == KNOCK + parse_card("Kd")
    assert 8 <= used < 512  # one action left well before the budget


def test_search_spends_at_most_its_budget():
    # the messy hand's discards are close: the race rarely ends, the budget does
    state = discard_position("As 5s 9s 2c 6c Tc 3d 7d Jd 4h 8h", LOOSE, "Jc Td 6d 5d Ac Ah")
    for budget in (16, 40):
        _, used = decide(
            state,
            SearchPolicy(
                budget=budget, rollout=PRESETS["basic"], scope="all", batch=8, min_samples=8
            ),
        )
        assert used <= budget
    result = simulate(
        STANDARD,
        SearchPolicy(budget=24, rollout=PRESETS["basic"], batch=8, min_samples=8),
        PRESETS["basic"],
        4,
        seed=3,
    )
    assert result.searched_decisions > 0
    assert result.search_samples <= 24 * result.searched_decisions


def test_search_draw_decision_takes_a_card_that_goes_gin():
    # drawing: the pile's top 9h completes the hand (gin after throwing Kd)
    state = discard_position("As 2s 3s 4c 5c 6c 7h 8h Kd Qc 9h", LOOSE, "Jc Td 6d 5d Ac")
    hand = parse_hand("As 2s 3s 4c 5c 6c 7h 8h Kd Qc")
    # turn it into a draw decision: 9h back on the pile's top, Qc thrown earlier
    state[Slot.HAND] = _mask(hand)
    state[Slot.PILE + state[Slot.PILE_LEN]] = parse_card("9h")
    state[Slot.PILE_LEN] += 1
    state[Slot.PILE_MASK] |= 1 << parse_card("9h")
    state[Slot.THREW + 1] |= 1 << parse_card("9h")
    state[Slot.PHASE] = Phase.DRAW
    action, _ = decide(state, SearchPolicy(budget=64, rollout=PRESETS["passive"], scope="all"))
    assert action == TAKE


@pytest.mark.parametrize("scope", ["all", "knock"])
def test_same_result_whatever_the_thread_count(scope):
    player = SearchPolicy(budget=16, rollout=PRESETS["basic"], batch=8, min_samples=8, scope=scope)
    numba.set_num_threads(1)
    try:
        one = hand_rows(STANDARD, player, PRESETS["basic"], 5, 0, 6)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    every = hand_rows(STANDARD, player, PRESETS["basic"], 5, 0, 6)
    np.testing.assert_array_equal(one, every)
    # the search changes the play (else this test would not test it)
    plain = hand_rows(STANDARD, PRESETS["basic"], PRESETS["basic"], 5, 0, 6)
    assert not np.array_equal(one, plain)


def test_the_opponent_model_plays_the_opponent_in_the_rollouts():
    """``model`` is how the rollouts play the opponent: a model equal to the rollout policy
    plays exactly as no model, and another model changes the search's choices."""
    rollout = PRESETS["basic"]
    base = SearchPolicy(budget=32, rollout=rollout, batch=8, min_samples=8)
    no_model = hand_rows(STANDARD, base, PRESETS["gin-hunter"], 8, 0, 24)
    same = SearchPolicy(budget=32, rollout=rollout, batch=8, min_samples=8, model=rollout)
    np.testing.assert_array_equal(
        no_model, hand_rows(STANDARD, same, PRESETS["gin-hunter"], 8, 0, 24)
    )
    assert same.to_array()[SearchField.MODEL] == 1 and base.to_array()[SearchField.MODEL] == 0
    np.testing.assert_array_equal(same.to_array()[MODEL_ROW:], rollout.to_array())
    true_model = SearchPolicy(
        budget=32, rollout=rollout, batch=8, min_samples=8, model=PRESETS["gin-hunter"]
    )
    modelled = hand_rows(STANDARD, true_model, PRESETS["gin-hunter"], 8, 0, 24)
    assert not np.array_equal(no_model, modelled)


def test_parse_and_format_round_trip():
    player = parse_player("search,budget=32,rollout=basic,temperature=0")
    assert player == SearchPolicy(budget=32, rollout=PRESETS["basic"], temperature=0)
    assert parse_player(format_player(player)) == player
    assert format_player(SearchPolicy()) == "search"
    assert parse_player("lookahead") == PRESETS["lookahead"]
    with pytest.raises(ValueError, match="rollout must be a policy preset"):
        parse_player("search,rollout=search")
    with pytest.raises(ValueError, match=r"bad search part 'depth=3'.*one of budget"):
        parse_player("search,depth=3")
    with pytest.raises(ValueError, match="search budget must be 1-100000, got 0"):
        SearchPolicy(budget=0)
    with pytest.raises(ValueError, match="sampler must be"):
        parse_player("search,sampler=oracle")
    with pytest.raises(ValueError, match="scope must be"):
        parse_player("search,scope=draws")


def test_a_search_modelling_a_policy_that_is_no_preset_round_trips():
    custom = parse_policy("expert,knock=1:10/4:0")
    player = SearchPolicy(budget=64, model=custom)
    text = format_player(player)
    assert text == f"search,budget=64,model=({policy_name(custom)})"
    assert parse_player(text) == player
    assert parse_player("search,model=(draw=meld,discard=high,knock=gin)").model == parse_policy(
        "draw=meld,discard=high,knock=gin"
    )
    with pytest.raises(ValueError, match="knock"):
        parse_player("search,model=(knock=11)")
    assert parse_player("search,scope=all,sampler=inference").scope == "all"
    modelled = parse_player("search,budget=32,model=marjj")
    assert modelled.model == PRESETS["marjj"] and modelled.rollout == PRESETS["expert"]
    assert format_player(modelled) == "search,budget=32,model=marjj"
    assert parse_player(format_player(modelled)) == modelled
    with pytest.raises(ValueError, match="model must be a policy preset"):
        parse_player("search,model=nobody")


def test_games_tournament_and_advisor_take_a_search_player():
    player = SearchPolicy(budget=8, rollout=PRESETS["basic"])
    games = play_games(STANDARD, player, PRESETS["basic"], 1, seed=2)
    assert games.games == 2
    table = tournament(STANDARD, {"search": player, "basic": PRESETS["basic"]}, 2, 1, seed=1)
    assert set(table["a"]) == {"search", "basic"}
    position = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=8)
    first = advise(position, opponent=player, samples=16, batch=8, seed=4)
    again = advise(position, opponent=player, samples=16, batch=8, seed=4)
    assert first.to_dict()["actions"] == again.to_dict()["actions"]
    assert first.settings["opponent"] == "search,budget=8,rollout=basic"


def test_cli_simulate_and_tournament_with_search():
    runner = CliRunner()
    result = runner.invoke(
        cli, ["simulate", "--a", "search,budget=8,rollout=basic", "--deals", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert '"policy_a": "search,budget=8,rollout=basic"' in result.output
    result = runner.invoke(
        cli,
        [
            "tournament",
            "--policies",
            "search,budget=8,rollout=basic,basic",
            "--deals",
            "2",
            "--games",
            "1",
            "--format",
            "csv",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "search,budget=8,rollout=basic" in result.output
    result = runner.invoke(cli, ["knock-sweep", "--a", "search", "--deals", "2"])
    assert result.exit_code != 0
    assert "search player plays in simulate" in result.output
