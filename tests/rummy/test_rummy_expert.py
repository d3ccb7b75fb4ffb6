"""``rummy-expert`` (:mod:`analyzer.rummy.expert`) on hand-worked positions: it holds for
Rummy while the opponent is far from going out and plays once it is close, it keeps from
feeding the next player, and it reads the cards the next player took; its features
against a brute-force count; and its strength against the presets, loosely (the
measured tables are in BENCHMARKS.md)."""

import numpy as np
import pytest

from analyzer.core.cards import parse_hand, to_indices, to_mask
from analyzer.core.stats import Estimate
from analyzer.rummy import POLICY_PRESETS, RummyRules, parse_policy, simulate
from analyzer.rummy.expert import N_FEATURES, Feature, completions, play_options
from analyzer.rummy.hand import Hand
from analyzer.rummy.scripted import scripted_state
from analyzer.rummy.state import Slot
from analyzer.rummy.transitions import apply_draw

EXPERT = POLICY_PRESETS["rummy-expert"]


def at(hands, stock="", pile="", melds=(), first=0, rules=None, draw=None):
    """A hand at a scripted position, every seat a person (see test_rummy_moves); the
    stock is the cards given, then every card not placed (a full stock: the expert
    weighs the stake by the stock left)."""
    rules = rules or RummyRules(players=len(hands))
    placed = [*hands, stock, pile, *(m for m, _ in melds)]
    used = to_mask(" ".join(placed))
    rest = [c for c in range(52) if not used >> c & 1]
    state = scripted_state(
        [to_mask(h) for h in hands],
        parse_hand(stock) + rest,
        parse_hand(pile),
        [(to_mask(m), owner) for m, owner in melds],
        first,
    )
    if draw is not None:
        apply_draw(state, rules.to_array(), draw == "pile")
    return Hand(state, rules, [EXPERT] * rules.players, range(rules.players))


RUN_AND_JUNK = "4c 5c 6c Kd Qh Jd 9s 8h 2d"
FAR = "Ah 2h 4s 5d 7c 9c Td Jc Qs Ks"


def kinds(moves):
    return [m.kind for m in moves]


def test_it_holds_for_rummy_while_the_opponent_holds_many_cards():
    hand = at([RUN_AND_JUNK, FAR], stock="3s", pile="Jh", draw="stock")
    assert kinds(hand.decide(EXPERT)) == ["discard"]


def test_it_lays_down_once_the_opponent_is_close_to_going_out():
    hand = at([RUN_AND_JUNK, "Ac"], stock="3s", pile="Jh", draw="stock")
    moves = hand.decide(EXPERT)
    assert kinds(moves) == ["meld", "discard"]
    assert moves[0].cards == tuple(sorted(parse_hand("4c 5c 6c")))


def test_must_meld_makes_it_lay_the_meld_down():
    rules = RummyRules(must_meld=True)
    hand = at([RUN_AND_JUNK, FAR], stock="3s", pile="Jh", rules=rules, draw="stock")
    assert kinds(hand.decide(EXPERT)) == ["meld", "discard"]


def test_it_keeps_from_feeding_the_next_players_meld():
    # own-only layoffs: seat 1 could lay the 8s off onto its run, seat 0 cannot.  The 8s
    # and the 8h cost the same deadwood and keep the same outs, the 8h's neighbours are
    # in the pile (fewer live partners: the 8h alone would be the riskier throw), and the
    # points rule throws the later of two equal cards, the 8s
    rules = RummyRules(layoff_own_only=True)
    hand = at(
        ["2c 3c 4c 8s 8h", "Kc Kd Qc Qd"], stock="Ad", pile="7h 9h 6h Th Jc",
        melds=[("5s 6s 7s", 1)], rules=rules, draw="stock",
    )  # fmt: skip
    assert hand.decide("simple")[-1].cards == tuple(parse_hand("8s"))
    assert hand.decide(EXPERT)[-1].cards == tuple(parse_hand("8h"))


def test_it_keeps_from_throwing_what_goes_with_a_card_the_next_player_took():
    hand = at(["2c 3c 4c 8s 8h", "Kc Kd Qc Qd 2d"], stock="Ad", pile="7h 9h 6h Th 9s", first=1)
    hand.play("take")  # seat 1 takes the 9s: it is known to hold it
    hand.play("discard 2d")
    hand.play("draw")
    assert hand.took(1) == to_indices(to_mask("9s"))
    # the 8s goes with the 9s (same suit, next rank), the 8h with nothing it took
    assert hand.decide("simple")[-1].cards == tuple(parse_hand("8s"))
    assert hand.decide(EXPERT)[-1].cards == tuple(parse_hand("8h"))


def test_it_calls_rummy_on_the_board_only_once_it_has_played():
    rules = RummyRules(players=3, rummy_on_board=True)
    position = {
        "hands": ["Kd Qd 2c 3h", "8s 2d Ah", "Jh 4h 3d"],
        "stock": "2h 5d",
        "pile": "Jc",
        "first": 1,
        "rules": rules,
    }
    for owner, calls in ((2, "call"), (0, "pass")):
        hand = at(melds=[("5s 6s 7s", owner)], **position)
        hand.play("draw")
        hand.play("discard 8s")
        assert hand.to_move == 2
        # seat 2 owns a meld (it has played) in the first case; not in the second
        assert kinds(hand.decide(EXPERT)) == [calls]


def test_completions_are_the_cards_that_meld_with_two_of_the_hand():
    rng = np.random.default_rng(2)
    for _ in range(300):
        cards = [int(c) for c in rng.choice(52, rng.integers(2, 12), replace=False)]
        hand = to_mask(cards)
        expected = 0
        for x in range(52):
            if hand >> x & 1:
                continue
            same = [c for c in cards if c % 13 == x % 13]
            suit = [*sorted(c % 13 for c in cards if c // 13 == x // 13), x % 13]
            runs = any({r, r + 1, r + 2} <= set(suit) and r <= x % 13 <= r + 2 for r in range(11))
            if len(same) >= 2 or runs:
                expected |= 1 << x
        assert completions(np.int64(hand)) == expected


def test_play_options_describe_holding_and_playing():
    hand = at([RUN_AND_JUNK, "Ac"], stock="3s", pile="Jh", draw="stock")
    held = np.zeros((52, N_FEATURES))
    played = np.zeros((52, N_FEATURES))
    rd, rm, lp = hand.tables
    out, view, no_table, choice, best, best_choice, alt, other_view, _ = hand.ws
    assert play_options(
        hand.state, hand.rules_array, EXPERT.to_array(), rd, rm, lp, out, view, no_table,
        choice, best, best_choice, alt, other_view, held, played,
    )  # fmt: skip
    king = parse_hand("Kd")[0]
    # holding keeps the run's 15 points in hand, and the chance of Rummy
    assert held[king][Feature.HELD] - played[king][Feature.HELD] == 15
    assert held[king][Feature.PLAY_RUMMY] > 0 and played[king][Feature.PLAY_RUMMY] == 0
    assert held[king][Feature.DEADWOOD] == played[king][Feature.DEADWOOD]
    assert to_mask(hand.cards(0)) & ~int(alt[Slot.HAND]) == to_mask("4c 5c 6c")


# --- strength, loosely: the measured tables are in BENCHMARKS.md -------------------------


@pytest.mark.parametrize("opponent", ["simple", "rummy", "hold6", "keeper", "potential"])
def test_it_beats_every_preset_at_two_players(opponent):
    # the margins are 2.7 to 12 points a hand (BENCHMARKS.md); 6,000 deals put the CI's
    # half-width near 0.7 point
    result = simulate(RummyRules(), [EXPERT, POLICY_PRESETS[opponent]], 6000, seed=404)
    assert result.margin.low > 0


def test_it_wins_more_than_its_share_of_the_won_hands_at_four_players():
    for opponent in ("simple", "potential", "hold6"):
        rules = RummyRules(players=4)
        result = simulate(rules, [EXPERT] + [POLICY_PRESETS[opponent]] * 3, 6000, seed=405)
        won = result.hands * (1 - result.void_rate.mean)
        share = Estimate.from_rate(result.player_win_rate[0].mean * result.hands, won)
        assert share.low > 0.25, opponent


def test_every_rule_option_and_player_count_plays_to_an_end():
    options = [
        {"final_discard": True, "second_turn_out": True, "max_run": 4, "must_meld": True},
        {"rummy_on_board": True, "layoff_own_only": True, "reshuffle": True, "turn_limit": 300},
        {"rummy_multiplier": 1, "max_run": 3},
    ]
    for players in range(2, 7):
        for fields in options:
            rules = RummyRules(players=players, **fields)
            mixed = [EXPERT, parse_policy("simple"), parse_policy("hold6")] * 2
            result = simulate(rules, mixed[:players], 300, seed=players)
            assert result.hands == 300 and result.void_rate.mean < 1
