"""Scripted-deck walks through each rule, and invariants over random hands."""

import numba
import numpy as np
import pytest

from analyzer.core import cards
from analyzer.gin.decisions.choose import choose_discard
from analyzer.gin.engine.transitions import (
    Outcome,
    Phase,
    Slot,
    advance,
    apply_big_gin,
    apply_draw,
    apply_pass,
    deck_order,
    end_in_a_draw,
    new_hand,
    new_scratch,
    new_state,
    play_from_deck,
    stock_left,
)
from analyzer.gin.evaluator.api import best_melds, deadwood_after_layoff, min_deadwood
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.policies import Draw, Knock, Policy, parse_policy
from analyzer.gin.model.rules import PRESETS, Rules
from analyzer.gin.play.game_score import close_game
from analyzer.gin.play.simulate import play_games, replay_deal, simulate

BASIC = POLICIES["basic"]


def hand(text):
    return cards.parse_hand(text)


STANDARD = Rules()


def play(nd, dealer_hand, upcard, stock, rules=STANDARD, policy=BASIC, other=None):
    """Deal nd to the non-dealer (seat 0) and dealer_hand to the dealer (seat 1)."""
    deck = deck_order(
        hand(nd),
        hand(dealer_hand),
        None if upcard is None else cards.parse_card(upcard),
        hand(stock),
    )
    policies = np.stack([policy.to_array(), (other or policy).to_array()])
    return play_from_deck(deck, 1, rules.to_array(), policies)


# scenario A: the non-dealer takes the upcard 9h (7h 8h 9h) and knocks at exactly 10
A_KNOCKER = "As 2s 3s 4c 5c 6c 7h 8h Kd Qd"
A_DEFENDER = "Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks"


def test_take_upcard_and_knock_at_exactly_the_limit_with_layoff_chain():
    state = play(A_KNOCKER, A_DEFENDER, "9h", "")
    assert state[Slot.OUTCOME] == Outcome.KNOCK
    assert state[Slot.KNOCKER] == 0 and state[Slot.WINNER] == 0
    assert state[Slot.DRAWS] == 1
    assert state[Slot.KNOCKER_DEADWOOD] == 10
    # 7c then 8c go on the knocker's 4c 5c 6c; Kh Ks stay
    assert state[Slot.DEFENDER_DEADWOOD] == 20
    assert state[Slot.POINTS] == 10
    # the knock discard among the tied Kd / Qd is the higher rank
    assert state[Slot.PILE + state[Slot.PILE_LEN] - 1] == cards.parse_card("Kd")


def test_knock_limit_below_the_deadwood_forbids_that_knock():
    state = play(A_KNOCKER, A_DEFENDER, "9h", "", rules=Rules(knock_limit=9))
    assert state[Slot.DRAWS] > 1


def test_both_refuse_the_upcard_then_non_dealer_draws_from_stock():
    state = play("As 2s 3s 4c 5c 6c 7h 8h Qd Jd", "2d 3d 4d 9c 9d 5h 6s Th Js Qh", "Kc", "9h")
    assert state[Slot.OFFERS] == 2
    assert state[Slot.DRAWS] == 1
    assert state[Slot.KNOCKER] == 0
    assert state[Slot.PILE_LEN] == 2
    assert state[Slot.PILE] == cards.parse_card("Kc")
    assert state[Slot.PILE + 1] == cards.parse_card("Qd")
    # defender: 2d 3d 4d melded, Th laid off on 7h 8h 9h: 9+9+5+6+10+10 = 49
    assert state[Slot.DEFENDER_DEADWOOD] == 49
    assert state[Slot.POINTS] == 39


def test_gin_scores_bonus_plus_full_deadwood_without_layoffs():
    state = play("As 2s 3s 4c 5c 6c 7h 8h 9h Kd", "2d 3d 4d 9c 9d 5h 6s Jh Js Qh", "Qc", "Th")
    assert state[Slot.OUTCOME] == Outcome.GIN
    assert state[Slot.DEFENDER_DEADWOOD] == 59
    assert state[Slot.POINTS] == 25 + 59
    state = play(
        "As 2s 3s 4c 5c 6c 7h 8h 9h Kd",
        "2d 3d 4d 9c 9d 5h 6s Jh Js Qh",
        "Qc",
        "Th",
        rules=PRESETS["classic"],
    )
    assert state[Slot.POINTS] == 20 + 59


def test_undercut_at_equal_deadwood_and_the_tie_variant():
    defender = "Tc Jc Qc 2d 3d 4d 5d 6d 7c Kh"
    state = play(A_KNOCKER, defender, "9h", "")
    assert state[Slot.OUTCOME] == Outcome.UNDERCUT
    assert state[Slot.WINNER] == 1
    assert state[Slot.DEFENDER_DEADWOOD] == 10
    assert state[Slot.POINTS] == 25
    state = play(A_KNOCKER, defender, "9h", "", rules=PRESETS["classic"])
    assert state[Slot.POINTS] == 10
    state = play(A_KNOCKER, defender, "9h", "", rules=Rules(tie_is_undercut=False))
    assert state[Slot.OUTCOME] == Outcome.TIE
    assert state[Slot.WINNER] == -1 and state[Slot.POINTS] == 0
    state = play(A_KNOCKER, "Tc Jc Qc 2d 3d 4d 5d 6d 7c 9s", "9h", "")
    assert state[Slot.POINTS] == 25 + 1


def test_card_taken_from_pile_is_not_thrown_back():
    rules = Rules().to_array()
    state = new_state()
    new_hand(
        state,
        deck_order(
            hand("As 2s 3s 4c 5c 6c 7h 8h 9h 5d"),
            hand("Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks"),
            cards.parse_card("Kd"),
            [],
        ),
        np.int64(1),
        rules,
    )
    kd = cards.parse_card("Kd")
    state[Slot.HAND] |= np.int64(1) << kd
    state[Slot.TAKEN] = kd
    state[Slot.OWN_TURNS] = 1
    rng = np.zeros(1, dtype=np.uint64)
    scratch = new_scratch()
    card, knock = choose_discard(
        state, np.int64(0), BASIC.to_array(), rng, scratch[:52], scratch[52:]
    )
    # throwing Kd would leave 5, but Kd was just taken: 5d goes, leaving Kd = 10, a knock
    assert card == cards.parse_card("5d")
    assert knock


def test_oklahoma_upcard_sets_limit_and_spade_doubles():
    deck = deck_order(
        hand("As 2s 3s 4c 5c 6c 7h 8h 9h Kd"),
        hand("2d 3d 4d 9c 9d 5h 6h Jh Js Qh"),
        cards.parse_card("Ts"),
        hand("Qs"),
    )
    policies = np.stack([BASIC.to_array()] * 2)
    state = play_from_deck(deck, 1, PRESETS["oklahoma"].to_array(), policies)
    assert state[Slot.KNOCK_LIMIT] == 10 and state[Slot.MULTIPLIER] == 2
    assert state[Slot.OUTCOME] == Outcome.KNOCK
    # defender: 9c 9d Jh Js Qh after laying off 6h then 5h below 7h 8h 9h = 48
    assert state[Slot.DEFENDER_DEADWOOD] == 48
    assert state[Slot.POINTS] == 2 * 38
    state = play_from_deck(deck, 1, PRESETS["oklahoma-nodouble"].to_array(), policies)
    assert state[Slot.POINTS] == 38
    state = play_from_deck(deck, 1, Rules().to_array(), policies)
    assert state[Slot.POINTS] == 38


@pytest.mark.parametrize(
    ("upcard", "preset", "limit"),
    [
        ("7d", "oklahoma", 7),
        ("Kc", "oklahoma", 10),
        ("Ah", "oklahoma", 1),
        ("Ah", "oklahoma-acegin", 0),
        ("7d", "straight", 0),
        ("7d", "standard", 10),
    ],
)
def test_knock_limit_by_variant(upcard, preset, limit):
    state = new_state()
    deck = deck_order([], [], cards.parse_card(upcard), [])
    new_hand(state, deck, np.int64(0), PRESETS[preset].to_array())
    assert state[Slot.KNOCK_LIMIT] == limit
    assert state[Slot.MULTIPLIER] == 1


def test_straight_gin_only_ends_by_gin_or_draw():
    result = simulate(PRESETS["straight"], BASIC, BASIC, 2_000, seed=3, keep_rows=True)
    assert set(result.rows["outcome"].astype(str)) <= {"gin", "draw"}
    assert result.outcomes["gin"] > 0.5


def test_big_gin_with_eleven_cards_melded():
    args = ("As 2s 3s 4c 5c 6c 7h 8h 9h Th", "2d 3d 4d 9c 9d 5h 6s Jd Js Qh", "Kc", "Jh")
    state = play(*args)
    assert state[Slot.OUTCOME] == Outcome.GIN
    state = play(*args, rules=PRESETS["biggin"])
    assert state[Slot.OUTCOME] == Outcome.BIG_GIN
    assert state[Slot.POINTS] == 31 + min_deadwood("2d 3d 4d 9c 9d 5h 6s Jd Js Qh")


def test_eleven_card_opening_starts_with_a_discard():
    state = play(
        "As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd",
        "Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks",
        None,
        "",
        rules=Rules(opening="eleven"),
    )
    assert state[Slot.DRAWS] == 0
    assert state[Slot.OUTCOME] == Outcome.KNOCK
    assert state[Slot.KNOCKER_DEADWOOD] == 10


def _late_state(rules):
    """The non-dealer to draw with two stock cards left; taking the pile's 9h lets it knock."""
    state = new_state()
    deck = deck_order(hand(A_KNOCKER), hand(A_DEFENDER), cards.parse_card("9h"), [])
    new_hand(state, deck, np.int64(1), rules.to_array())
    state[Slot.PHASE] = Phase.DRAW
    state[Slot.STOCK_POS] = 50
    state[Slot.DRAWS] = 29
    state[Slot.OWN_TURNS] = state[Slot.OWN_TURNS + 1] = 14
    return state


@pytest.mark.parametrize(
    ("stock_rule", "outcome"), [("dead-at-two", Outcome.DRAW), ("wall", Outcome.KNOCK)]
)
def test_two_stock_cards_left(stock_rule, outcome):
    rules = Rules(stock_rule=stock_rule)
    state = _late_state(rules)
    policies = np.stack([BASIC.to_array()] * 2)
    advance(state, rules.to_array(), policies, np.zeros(1, np.uint64), new_scratch(), False)
    assert state[Slot.OUTCOME] == outcome
    assert 52 - state[Slot.STOCK_POS] == 2


def test_random_hands_reach_draws_at_two_stock_cards():
    never = Policy(Draw("never"), knock=Knock(((1, 0),)))
    result = simulate(Rules(), never, never, 500, seed=2, keep_rows=True)
    draws = result.rows[result.rows["outcome"] == "draw"]
    assert len(draws) > 0
    assert (draws["stock_left"] == 2).all()
    assert (draws["turns"] == 29).all()  # both refused the upcard, 29 stock draws


def test_stop_at_knock_branches_on_a_copy():
    rules = Rules().to_array()
    policies = np.stack([BASIC.to_array()] * 2)
    state = new_state()
    new_hand(
        state,
        deck_order(hand(A_KNOCKER), hand(A_DEFENDER), cards.parse_card("9h"), []),
        np.int64(1),
        rules,
    )
    rng = np.zeros(1, np.uint64)
    assert advance(state, rules, policies, rng, new_scratch(), True)
    assert state[Slot.PHASE] == Phase.DISCARD
    branch = state.copy()
    assert not advance(branch, rules, policies, rng, new_scratch(), False)
    assert branch[Slot.OUTCOME] == Outcome.KNOCK
    assert state[Slot.PHASE] == Phase.DISCARD  # the original is untouched


@pytest.mark.parametrize(
    ("preset", "policy"),
    [
        ("standard", "basic"),
        ("eaai", "simple"),
        ("oklahoma", "lookahead"),
        ("openspiel", "safe-discard"),
        ("biggin", "gin-hunter"),
        ("standard", "passive"),
    ],
)
def test_invariants_over_random_hands(preset, policy):
    rules = PRESETS[preset]
    pol = POLICIES[policy]
    other = POLICIES["basic"]
    for deal in range(150):
        state = replay_deal(rules, pol, other, seed=9, deal=deal, a_dealer=deal % 2 == 1)
        hands = [int(state[Slot.HAND]), int(state[Slot.HAND + 1])]
        pile = [int(c) for c in state[Slot.PILE : Slot.PILE + state[Slot.PILE_LEN]]]
        stock = [int(c) for c in state[Slot.DECK + state[Slot.STOCK_POS] : Slot.DECK + 52]]
        everything = cards.to_indices(hands[0]) + cards.to_indices(hands[1]) + pile + stock
        assert sorted(everything) == list(range(52))
        outcome = Outcome(state[Slot.OUTCOME])
        sizes = [bin(h).count("1") for h in hands]
        knocker = int(state[Slot.KNOCKER])
        if outcome == Outcome.BIG_GIN:
            assert sizes[knocker] == 11
            continue
        if outcome in (Outcome.DRAW,):
            assert sorted(sizes) in ([10, 10], [10, 11])
            continue
        assert sizes == [10, 10]
        knocker_dw = min_deadwood(hands[knocker])
        assert knocker_dw <= state[Slot.KNOCK_LIMIT]
        assert knocker_dw == state[Slot.KNOCKER_DEADWOOD]
        defender = hands[1 - knocker]
        if knocker_dw == 0:
            assert outcome == Outcome.GIN
            defender_dw = min_deadwood(defender)
            expected = rules.gin_bonus + defender_dw
        else:
            if rules.defender_layoff == "optimal" and rules.knocker_melds == "fewest-layoffs":
                defender_dw = deadwood_after_layoff(defender, best_melds(hands[knocker]).melds)
            else:  # the EAAI procedure: own melds first, then greedy layoffs
                defender_dw = int(state[Slot.DEFENDER_DEADWOOD])
                assert defender_dw <= min_deadwood(defender)
            if defender_dw <= knocker_dw:
                expected = rules.undercut_bonus + knocker_dw - defender_dw
                assert outcome in (Outcome.UNDERCUT, Outcome.TIE)
                if outcome == Outcome.TIE:
                    expected = 0
            else:
                expected = defender_dw - knocker_dw
                assert outcome == Outcome.KNOCK
        assert defender_dw == state[Slot.DEFENDER_DEADWOOD]
        assert state[Slot.POINTS] == expected * state[Slot.MULTIPLIER]


def test_results_identical_across_thread_counts_and_chunks():
    simple = POLICIES["simple"]
    numba.set_num_threads(1)
    try:
        one = simulate(PRESETS["eaai"], simple, BASIC, 3_000, seed=4, keep_rows=True, chunk=700)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    two = simulate(PRESETS["eaai"], simple, BASIC, 3_000, seed=4, keep_rows=True)
    assert one.rows.equals(two.rows)
    games_one = play_games(
        PRESETS["standard"], simple, BASIC, 200, seed=4, keep_rows=True, chunk=37
    )
    games_two = play_games(PRESETS["standard"], simple, BASIC, 200, seed=4, keep_rows=True)
    assert games_one.rows.equals(games_two.rows)


def test_self_play_with_swapped_seats_is_exactly_even():
    result = simulate(Rules(), BASIC, BASIC, 2_000, seed=1)
    assert result.points_a.mean == 0.0
    assert result.win_rate_a.mean == pytest.approx(
        0.5 * (1 - result.outcomes["draw"] - result.outcomes["tie"])
    )


def test_outcome_fractions_sum_to_one_and_cis_cover_means():
    result = simulate(Rules(), parse_policy("lookahead"), BASIC, 1_000, seed=5)
    assert sum(result.outcomes.values()) == pytest.approx(1.0)
    for estimate in (result.points_a, result.turns, result.first_player_points):
        assert estimate.low <= estimate.mean <= estimate.high


@pytest.mark.parametrize(
    ("shutout", "winner_total"),
    [
        ("double", (100 + 3 * 25 + 100) * 2),
        ("plus100", 100 + 75 + 100 + 100),
        ("bonus200", 100 + 75 + 200),
        ("none", 100 + 75 + 100),
    ],
)
def test_game_end_line_bonus_and_shutout(shutout, winner_total):
    totals = np.zeros(2, dtype=np.int64)
    shut = close_game(
        np.array([100, 0]), np.array([3, 0]), np.int64(0), Rules(shutout=shutout).to_array(), totals
    )
    assert shut
    assert totals.tolist() == [winner_total, 0]
    shut = close_game(
        np.array([30, 104]),
        np.array([1, 4]),
        np.int64(1),
        Rules(shutout=shutout).to_array(),
        totals,
    )
    assert not shut
    assert totals.tolist() == [30 + 25, 104 + 100 + 100]


def test_games_invariants():
    result = play_games(Rules(), BASIC, POLICIES["gin-hunter"], 300, seed=6, keep_rows=True)
    rows = result.rows
    assert (rows["finished"] == 1).all()
    assert (rows["margin_a"] == rows["total_a"] - rows["total_b"]).all()
    assert ((rows["total_a"] >= 100 + 100) | (rows["total_b"] >= 100 + 100)).all()
    assert 0 <= result.game_win_rate_a.low <= result.game_win_rate_a.mean <= 1
    hollywood = play_games(PRESETS["hollywood"], BASIC, BASIC, 50, seed=6, keep_rows=True)
    assert (hollywood.rows["games_played"] == 3).all()
    assert hollywood.games == 300


def test_chunk_sums_merge_to_the_whole_run():
    from analyzer.gin.play.results import hand_result, merge_sums
    from analyzer.gin.play.simulate import hand_chunk_sums

    whole = simulate(Rules(), BASIC, POLICIES["simple"], 900, seed=8)
    parts = [
        hand_chunk_sums(Rules(), BASIC, POLICIES["simple"], 8, first, 300)
        for first in (600, 0, 300)
    ]
    merged = hand_result(merge_sums(parts), 8, Rules(), BASIC, POLICIES["simple"], 1.0)
    assert merged.points_a == whole.points_a
    assert merged.outcomes == whole.outcomes


def test_games_from_a_score_state():
    result = play_games(Rules(), BASIC, BASIC, 300, seed=2, start=(95, 0, 5, 0))
    # A needs any win; B needs about 100 points: A wins far more often than not
    assert result.game_win_rate_a.low > 0.8
    rows = play_games(Rules(), BASIC, BASIC, 50, seed=2, start=(95, 0, 5, 0), keep_rows=True).rows
    assert (rows["hands"] >= 1).all()


def test_score_aware_policy_switches_by_score():
    from analyzer.gin.play.players import ScoreAware

    regions = np.zeros((101, 101), dtype=np.int64)
    same = ScoreAware((BASIC, POLICIES["gin-hunter"]), regions)
    plain = play_games(Rules(), BASIC, BASIC, 200, seed=3, keep_rows=True).rows
    assert play_games(Rules(), same, BASIC, 200, seed=3, keep_rows=True).rows.equals(plain)
    regions[:, :] = 1
    switched = ScoreAware((BASIC, POLICIES["gin-hunter"]), regions)
    hunter = play_games(Rules(), POLICIES["gin-hunter"], BASIC, 200, seed=3, keep_rows=True).rows
    assert play_games(Rules(), switched, BASIC, 200, seed=3, keep_rows=True).rows.equals(hunter)
    with pytest.raises(ValueError, match="index into policies"):
        ScoreAware((BASIC,), regions)


def test_a_person_passes_takes_draws_and_ends_a_dead_hand():
    rules = STANDARD.to_array()
    state = new_state()
    new_hand(
        state,
        deck_order(hand(A_KNOCKER), hand(A_DEFENDER), cards.parse_card("9h"), []),
        np.int64(1),
        rules,
    )
    apply_pass(state)  # the non-dealer (seat 0) passes the upcard
    assert (state[Slot.PHASE], state[Slot.TURN], state[Slot.OFFERS]) == (Phase.OFFER, 1, 1)
    apply_pass(state)  # so does the dealer: the non-dealer must draw
    assert (state[Slot.PHASE], state[Slot.TURN]) == (Phase.DRAW, 0)
    nine = np.int64(1) << cards.parse_card("9h")
    assert state[Slot.REFUSED] == state[Slot.REFUSED + 1] == nine  # both refusals noted
    apply_draw(state, False)
    assert state[Slot.PHASE] == Phase.DISCARD
    assert stock_left(state) == 30
    state[Slot.TURN], state[Slot.PHASE] = 1, Phase.DRAW
    apply_draw(state, True)  # the dealer takes the upcard 9h
    assert state[Slot.HAND + 1] >> cards.parse_card("9h") & 1
    assert state[Slot.TAKEN] == cards.parse_card("9h")
    end_in_a_draw(state)
    assert (state[Slot.PHASE], state[Slot.OUTCOME], state[Slot.WINNER]) == (
        Phase.DONE,
        Outcome.DRAW,
        -1,
    )


def test_apply_big_gin_scores_the_bonus_plus_the_defenders_deadwood():
    rules = PRESETS["biggin"].with_overrides(["opening=eleven"])
    defender = "Tc Jc Qc 2d 3d 4d 9h Th Kh Ks"
    state = new_state()
    new_hand(
        state,
        deck_order(hand("As 2s 3s 4s 5c 6c 7c 8h 8d 8s 8c"), hand(defender), None, []),
        np.int64(1),
        rules.to_array(),
    )
    assert (state[Slot.TURN], state[Slot.PHASE]) == (0, Phase.DISCARD)
    assert apply_big_gin(state, rules.to_array())
    assert (state[Slot.OUTCOME], state[Slot.WINNER]) == (Outcome.BIG_GIN, 0)
    assert state[Slot.POINTS] == rules.big_gin_bonus + min_deadwood(hand(defender)) == 31 + 39


def test_apply_big_gin_changes_nothing_without_eleven_melded_cards():
    rules = PRESETS["biggin"].with_overrides(["opening=eleven"]).to_array()
    state = new_state()
    new_hand(
        state,
        deck_order(hand("As 2s 3s 4s 5c 6c 7c 8h 8d 8s Kc"), [], None, []),
        np.int64(1),
        rules,
    )
    before = state.copy()
    assert not apply_big_gin(state, rules)
    np.testing.assert_array_equal(state, before)
