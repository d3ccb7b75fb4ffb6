"""Invariants of the plain rummy engine and simulator over random deals, 2-6 players."""

import numba
import numpy as np
import pytest

from analyzer.core.lanes import lane_tables
from analyzer.rummy import RummyRules, parse_policy, simulate
from analyzer.rummy.engine import play_hand
from analyzer.rummy.simulate import play_games
from analyzer.rummy.state import STATE_SIZE, End, Slot
from analyzer.rummy.transitions import new_hand
from analyzer.rummy.work import work_space

POLICIES = ["simple", "rummy", "hold6", "keeper", "potential", "meld=hold,hold_points=20"]


def points_of(mask):
    return sum(min(c % 13 + 1, 10) for c in range(52) if mask >> c & 1)


def legal_meld(mask, cap):
    cards = [c for c in range(52) if mask >> c & 1]
    if len({c % 13 for c in cards}) == 1:
        return 3 <= len(cards) <= 4
    low = cards[0]
    return (
        len({c // 13 for c in cards}) == 1
        and 3 <= len(cards) <= cap
        and cards == list(range(low, low + len(cards)))
    )


def play_random(rules, deals, seed):
    """Yield the final state of each random deal."""
    rng = np.random.default_rng(seed)
    n = rules.players
    rules_array = rules.to_array()
    policies = np.array(
        [parse_policy(POLICIES[(seat + seed) % len(POLICIES)]).to_array() for seat in range(n)]
    )
    rd, rm, lp = lane_tables(rules.run_cap)
    work = work_space()
    for _ in range(deals):
        deck = rng.permutation(52).astype(np.int8)
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        new_hand(state, deck, rules_array, 0)
        hands = state[Slot.HAND : Slot.HAND + n]
        assert [bin(int(h)).count("1") for h in hands] == [rules.cards_dealt] * n
        play_hand(state, rules_array, policies, rd, rm, lp, work)
        yield state


RULE_SETS = [
    {},
    {
        "final_discard": True,
        "second_turn_out": True,
        "max_run": 4,
        "must_meld": True,
        "rummy_on_board": True,
    },
    {"reshuffle": True, "layoff_own_only": True, "turn_limit": 200},
    {"rummy_on_board": True, "max_run": 3, "rummy_multiplier": 1},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", range(len(RULE_SETS)))
def test_cards_conserved_and_scores_follow_the_formula(players, options):
    rules = RummyRules(players=players, **RULE_SETS[options])
    outcomes = set()
    for state in play_random(rules, 150, seed=players * 10 + options):
        n_melds = int(state[Slot.N_MELDS])
        hands = state[Slot.HAND : Slot.HAND + players]
        melds = state[Slot.MELDS : Slot.MELDS + n_melds]
        owners = state[Slot.OWNERS : Slot.OWNERS + n_melds]
        pile = state[Slot.PILE : Slot.PILE + state[Slot.PILE_LEN]]
        parts = (
            [int(h) for h in hands]
            + [int(m) for m in melds]
            + [1 << int(c) for c in state[Slot.DECK + state[Slot.STOCK] : Slot.DECK + 52]]
            + [1 << int(c) for c in pile]
        )
        union = 0
        for part in parts:
            assert union & part == 0, "a card is in two places"
            union |= part
        assert union == (1 << 52) - 1, "a card went missing"
        # the public masks follow the cards
        assert state[Slot.PILE_MASK] == sum(1 << int(c) for c in pile)
        assert state[Slot.TABLE_MASK] == sum(int(m) for m in melds)
        for seat in range(players):
            assert state[Slot.HELD + seat] & ~hands[seat] == 0
            assert state[Slot.HELD + seat] & ~state[Slot.TOOK + seat] == 0
        assert all(legal_meld(int(m), rules.run_cap) for m in melds)
        assert all(0 <= owner < players for owner in owners)
        left = [points_of(int(h)) for h in hands]
        assert list(state[Slot.LEFT : Slot.LEFT + players]) == left
        winner = int(state[Slot.WINNER])
        if state[Slot.END] == End.OUT:
            assert hands[winner] == 0
            multiplier = rules.rummy_multiplier if state[Slot.RUMMY] else 1
            assert state[Slot.POINTS] == sum(left) * multiplier
        else:
            assert (winner, state[Slot.POINTS]) == (-1, 0)
        outcomes.add(int(state[Slot.END]))
    assert End.OUT in outcomes


def test_simulation_rows_match_totals():
    rules = RummyRules(players=3)
    result = simulate(
        rules,
        [parse_policy(p) for p in ("simple", "rummy", "keeper")],
        deals=600,
        seed=5,
        keep_rows=True,
    )
    rows = result.rows
    assert len(rows) == 600
    won = rows[rows.end == End.OUT]
    assert result.hands == 600
    assert result.winner_points.mean == pytest.approx(won.points.mean())
    assert (rows.winner_player == (rows.winner_seat + rows.deal % 3) % 3)[rows.end == End.OUT].all()
    wins = won.winner_player.value_counts().reindex(range(3), fill_value=0)
    assert [w.mean * 600 for w in result.player_win_rate] == pytest.approx(list(wins))


def test_same_numbers_whatever_the_thread_count():
    policies = [parse_policy("simple"), parse_policy("hold6")]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(RummyRules(), policies, deals=3000, seed=11, keep_rows=True)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = simulate(RummyRules(), policies, deals=3000, seed=11, keep_rows=True)
    finally:
        numba.set_num_threads(before)
    assert (one.totals == two.totals).all()
    assert one.rows.equals(two.rows)
    assert one.summary() == two.summary()


def test_same_numbers_whatever_the_chunk_size():
    policies = [parse_policy("simple"), parse_policy("hold6"), parse_policy("keeper")]
    rules = RummyRules(players=3)
    whole = simulate(rules, policies, deals=900, seed=4, keep_rows=True)
    chunked = simulate(rules, policies, deals=900, seed=4, keep_rows=True, chunk=128)
    assert (whole.totals == chunked.totals).all()
    assert whole.rows.equals(chunked.rows)
    games = play_games(rules, policies, games=70, seed=4)
    chunked_games = play_games(rules, policies, games=70, seed=4, chunk=16)
    assert games.summary() == chunked_games.summary()


def test_progress_counts_every_deal():
    seen = []
    simulate(
        RummyRules(),
        [parse_policy("simple")] * 2,
        deals=500,
        seed=1,
        chunk=200,
        progress=seen.append,
    )
    assert seen == [200, 200, 100]


def test_games_end_at_the_target():
    for target in (50, 300):
        result = play_games(
            RummyRules(players=3, target=target), [parse_policy("simple")] * 3, games=60, seed=2
        )
        assert result.finished_rate.mean == 1.0
        assert sum(w.mean for w in result.player_game_win_rate) == pytest.approx(1.0)
        # the winner reached the target: the mean top score is at least target / players
        assert sum(result.player_final_score) >= target
    short = play_games(RummyRules(target=50), [parse_policy("simple")] * 2, 200, seed=2)
    long = play_games(RummyRules(target=500), [parse_policy("simple")] * 2, 200, seed=2)
    assert long.hands_per_game.mean > 5 * short.hands_per_game.mean


def test_seed_changes_the_deals():
    policies = [parse_policy("simple")] * 2
    a = simulate(RummyRules(), policies, deals=500, seed=1, keep_rows=True).rows
    b = simulate(RummyRules(), policies, deals=500, seed=2, keep_rows=True).rows
    assert not a.equals(b)


def test_two_player_margin_is_zero_sum_and_symmetric_policies_are_even():
    # same policy on both sides, seats rotated: player 0's edge must be near zero
    result = simulate(RummyRules(), [parse_policy("simple")] * 2, deals=20_000, seed=3)
    assert result.margin is not None
    mean, low, high = result.margin.as_tuple()
    assert low < 0 < high
    seat0, seat1 = (p.mean for p in result.seat_points)
    players = [p.mean for p in result.player_points]
    assert seat0 + seat1 == pytest.approx(sum(players))
    assert mean == pytest.approx(players[0] - players[1])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"players": 7}, ValueError, "players must be 2-6"),
        ({"max_run": 2}, ValueError, "max_run must be 0"),
        ({"hand_size": 9, "players": 6}, ValueError, "does not fit"),
        ({"rummy_multiplier": 0}, ValueError, "rummy_multiplier"),
        ({"final_discard": 1}, TypeError, "final_discard must be True or False, got 1"),
        ({"players": "3"}, TypeError, "players must be an integer, got '3'"),
    ],
)
def test_rules_are_validated(kwargs, error, message):
    with pytest.raises(error, match=message):
        RummyRules(**kwargs)


def test_simulate_checks_policy_count():
    with pytest.raises(ValueError, match="3 players need 3 policies"):
        simulate(RummyRules(players=3), [parse_policy("simple")] * 2, deals=10)
