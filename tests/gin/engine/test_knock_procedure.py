"""The EAAI framework's knock procedure: random best arrangements and greedy layoffs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.core.cards import to_mask
from analyzer.core.rng import stream_key
from analyzer.gin.evaluator.api import min_deadwood
from analyzer.gin.evaluator.layoffs import greedy_layoff_deadwood_kernel, layoff_deadwood_kernel
from analyzer.gin.evaluator.partition import random_arrangement_kernel
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS, Rules
from analyzer.gin.play.simulate import simulate


def _stream(seed: int) -> np.ndarray:
    return np.array([stream_key(np.int64(seed), np.int64(0))], dtype=np.uint64)


def _mask(text: str) -> np.int64:
    return np.int64(to_mask(text))


def test_run_split_counts():
    from analyzer.gin.evaluator.partition import RUN_SPLITS

    # a lane's runs cut into runs of 3+: 3-5 cards one way, 6 two, 7 three, 8 four
    for size, ways in ((3, 1), (5, 1), (6, 2), (7, 3), (8, 4), (9, 6)):
        assert RUN_SPLITS[(1 << size) - 1] == ways
    assert RUN_SPLITS[0b1111110111111] == 4  # two six-card runs


def test_random_arrangement_draws_ties_by_the_frameworks_count():
    # the set of sevens and the run 6-7-8 of clubs both leave 24 points: one each
    rng = _stream(3)
    draws = 4000
    sets_chosen = 0
    for _ in range(draws):
        deadwood, sets, _runs = random_arrangement_kernel(_mask("7c 7d 7h 6c 8c Ks"), rng)
        assert deadwood == 24
        sets_chosen += sets != 0
    # binomial(4000, 1/2): sd 31.6, so 5 sd is 158
    assert abs(sets_chosen - draws / 2) < 158


def test_random_arrangement_draws_only_least_deadwood():
    rng = _stream(5)
    hand = _mask("3c 4c 5c 6c 7c 8c 8d 8h Ks Qs")
    draws = 6000
    long_run = 0
    for _ in range(draws):
        deadwood, sets, _runs = random_arrangement_kernel(hand, rng)
        assert deadwood == min_deadwood("3c 4c 5c 6c 7c 8c 8d 8h Ks Qs")
        long_run += sets == 0
    # the run-only arrangement leaves 8d 8h Ks Qs = 36, the set one (8c 8d 8h with
    # 3c-7c) leaves Ks Qs = 20: only the set decision is drawn
    assert long_run == 0


def test_greedy_layoffs_chain_onto_a_growing_run():
    rng = _stream(1)
    runs = _mask("5s 6s 7s")
    assert greedy_layoff_deadwood_kernel(_mask("8s 9s Kd"), np.int64(0), runs, rng) == 10


def test_defender_melds_before_laying_off():
    # optimal play lays 8s 9s Ts off on 5s-7s and keeps Qd Kd... either way 20 here;
    # with 4s in hand, melding 8s-Ts first leaves 4s, which still goes on the run's low end
    rng = _stream(2)
    runs = _mask("5s 6s 7s")
    defender = _mask("4s 8s 9s Ts Qd Kd")
    assert greedy_layoff_deadwood_kernel(defender, np.int64(0), runs, rng) == 20
    assert layoff_deadwood_kernel(defender, np.int64(0), runs) == 20


def test_greedy_never_beats_optimal_layoffs():
    rng = _stream(7)
    gen = np.random.default_rng(11)
    for _ in range(400):
        cards = gen.permutation(52)[:20]
        knocker = np.int64(sum(1 << int(c) for c in cards[:10]))
        defender = np.int64(sum(1 << int(c) for c in cards[10:]))
        _, sets, runs = random_arrangement_kernel(knocker, rng)
        greedy = greedy_layoff_deadwood_kernel(defender, sets, runs, rng)
        assert layoff_deadwood_kernel(defender, sets, runs) <= greedy
        assert greedy <= min_deadwood(int(defender))


def test_rule_fields_parse_and_pack():
    rules = Rules().with_overrides(
        ["defender_layoff=melds-then-greedy", "knocker_melds=random-best"]
    )
    assert rules == dataclasses.replace(
        Rules(), defender_layoff="melds-then-greedy", knocker_melds="random-best"
    )
    with pytest.raises(ValueError, match="defender_layoff"):
        Rules(defender_layoff="best")
    assert PRESETS["standard"].defender_layoff == "optimal"
    assert PRESETS["eaai"].knocker_melds == "random-best"


def test_eaai_procedure_lowers_undercuts_and_replays():
    # the greedy defender undercuts less often than the optimal one, on the same deals
    eaai = PRESETS["eaai"]
    optimal = dataclasses.replace(eaai, defender_layoff="optimal", knocker_melds="fewest-layoffs")
    simple = POLICIES["simple"]
    first = simulate(eaai, simple, simple, 4000, seed=3)
    again = simulate(eaai, simple, simple, 4000, seed=3, chunk=900)
    assert first.outcomes == again.outcomes
    best = simulate(optimal, simple, simple, 4000, seed=3)
    assert first.outcomes["undercut"] <= best.outcomes["undercut"]


def test_forms_meld_matches_a_three_card_oracle():
    from itertools import combinations

    from analyzer.core.melds import meld_index
    from analyzer.gin.evaluator.partition import forms_meld_kernel

    gen = np.random.default_rng(4)
    for _ in range(300):
        cards = [int(c) for c in gen.permutation(52)[:11]]
        hand, card = cards[:10], cards[10]
        mask = sum(1 << c for c in hand)
        # any meld holding the card holds a three-card meld holding it
        oracle = any(
            meld_index((1 << card) | (1 << a) | (1 << b)) >= 0 for a, b in combinations(hand, 2)
        )
        assert forms_meld_kernel(np.int64(mask), np.int64(card)) == oracle
    # 7c with 5c 6c melds, though the best arrangement keeps 5c 5d 5h as a set
    assert forms_meld_kernel(_mask("5c 6c 5d 5h"), np.int64(to_mask("7c").bit_length() - 1))
