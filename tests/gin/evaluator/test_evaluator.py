import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core import cards
from analyzer.core.melds import meld_index, meld_table
from analyzer.gin.evaluator import partition as evaluator
from analyzer.gin.evaluator.api import (
    best_discard,
    best_melds,
    deadwood_after_layoff,
    layoff_plan,
    min_deadwood,
    min_deadwood_batch,
)
from analyzer.gin.evaluator.dealt import dealt_deadwood_distribution

from .. import reference


def random_hands(n, size, seed):
    rng = np.random.default_rng(seed)
    return [frozenset(int(c) for c in rng.choice(52, size, replace=False)) for _ in range(n)]


def mask_of(hand):
    return cards.to_mask(sorted(hand))


def test_meld_table_counts():
    table = meld_table()
    assert len(table) == 329
    assert int((~table.is_run).sum()) == 65
    assert {int(m) for m in table.masks} == {mask_of(m) for m in reference.all_melds()}


@pytest.mark.parametrize(("size", "seed"), [(10, 1), (11, 2)])
def test_min_deadwood_matches_brute_force(size, seed):
    hands = random_hands(10_000, size, seed)
    got = min_deadwood_batch(np.array([mask_of(h) for h in hands], dtype=np.int64))
    want = [reference.min_deadwood(h) for h in hands]
    assert got.tolist() == want


def test_batch_parallel_equals_serial():
    masks = np.array([mask_of(h) for h in random_hands(5_000, 10, 3)], dtype=np.int64)
    assert np.array_equal(min_deadwood_batch(masks), min_deadwood_batch(masks, parallel=False))


def test_best_discard_matches_brute_force():
    for hand in random_hands(1_500, 11, 4):
        discards, deadwood = reference.best_discard(hand)
        result = best_discard(mask_of(hand))
        assert result.deadwood == deadwood
        assert set(result.discards) == discards


hands_any_size = st.integers(0, 16).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(hands_any_size)
def test_min_deadwood_any_size(hand):
    assert min_deadwood(hand) == reference.min_deadwood(frozenset(hand))


@settings(max_examples=200, deadline=None)
@given(hands_any_size, st.permutations(range(4)))
def test_suit_permutation_invariance(hand, perm):
    permuted = [perm[c // 13] * 13 + c % 13 for c in hand]
    assert min_deadwood(hand) == min_deadwood(permuted)


@settings(max_examples=200, deadline=None)
@given(hands_any_size)
def test_best_melds_is_a_valid_minimum_partition(hand):
    result = best_melds(hand)
    used = 0
    for meld in result.melds:
        assert meld_index(meld) >= 0
        assert meld & used == 0
        used |= meld
    mask = cards.to_mask(hand)
    assert used | result.deadwood_cards == mask
    assert used & result.deadwood_cards == 0
    assert cards.mask_points(result.deadwood_cards) == result.deadwood == min_deadwood(hand)


@pytest.mark.parametrize(
    ("hand", "deadwood"),
    [
        # 7c fits the set 7c7d7h or the run 6c7c8c; both leave 33 beside 2s3s4s
        ("7c 7d 7h 6c 8c 2s 3s 4s 9h Kd", 33),
        # four of a kind split: 5c goes to the run 3c4c5c, 5d5h5s stays a set
        ("5c 5d 5h 5s 3c 4c Kd Qd Jh 2h", 32),
        # long run split into run + set: 3-4-5-6-7 of clubs, the 7c joins 7d 7h
        ("3c 4c 5c 6c 7c 7d 7h Ks Qs 9d", 29),
        ("Ac 2c 3c", 0),  # ace low run
        ("Qc Kc Ac", 21),  # no wrap-around
        ("Kc Kd Qh Qs Jc Jd Th Ts Kh Qc", 40),  # sets KKK and QQQ; two jacks, two tens
        ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", 0),  # gin: one long run
        ("Ks Kc Qd Qh Js Jc Td Th 9s 9c", 98),  # OpenSpiel's maximum deadwood
        ("", 0),
    ],
)
def test_hand_worked(hand, deadwood):
    assert min_deadwood(hand) == deadwood
    assert min_deadwood(hand) == reference.min_deadwood(frozenset(cards.parse_hand(hand)))


def test_best_discard_when_arrangements_tie():
    # the example: taking one arrangement and dropping its highest card leaves 7
    result = best_discard("6s 7s 8s 6c 7c 8c 6d 8d Ks Kc Kd")
    assert result.deadwood == 6
    assert [cards.format_card(c) for c in result.discards] == ["8d"]


def test_best_discard_respects_forbidden_card():
    free = best_discard("As 2s 3s 4c 4d 4h 9c Tc Jc Kd Qd")
    assert free.deadwood == 10
    kept = best_discard("As 2s 3s 4c 4d 4h 9c Tc Jc Kd Qd", forbidden="Kd")
    assert cards.parse_card("Kd") not in kept.discards
    with pytest.raises(ValueError, match="forbidden"):
        best_discard("As", forbidden="As")


def test_openspiel_reference_values():
    # values from OpenSpiel's gin_rummy_utils tests
    assert min_deadwood("Ks Kc Qd Qh Js Jc Td Th 9s 9c") == 98
    assert best_discard("4s 4c 4d 4h 5s 5c 5d 6s 2c 3s 3c").deadwood == 3
    hand = cards.to_mask("As Ac Ad Ah 2s 3s")
    assert sum(1 for m in meld_table().masks if int(m) & hand == int(m)) == 6


@pytest.mark.parametrize(
    ("defender", "melds", "expected"),
    [
        ("8s 9s Kd", ["5s 6s 7s"], 10),  # chain 8s then 9s
        ("4s 3s Kd", ["5s 6s 7s"], 10),  # chain downwards
        ("8h Kd", ["8c 8d 8s"], 10),  # fourth card on a set of three
        ("7h Kd", ["8c 8d 8s 8h"], 17),  # nothing lays off on a set of four
        ("9s Kd", ["5s 6s 7s"], 19),  # 9s does not fit without 8s
        ("8s 9s Ts Kd", ["5s 6s 7s"], 10),  # its own run 8-9-T or the chain: both leave Kd
        ("8s 8d 8h 9s", ["5s 6s 7s"], 9),  # set 8s8d8h beats laying off 8s 9s (16 left)
    ],
)
def test_layoffs(defender, melds, expected):
    got = deadwood_after_layoff(defender, melds)
    want = reference.deadwood_after_layoff(
        frozenset(cards.parse_hand(defender)), [frozenset(cards.parse_hand(m)) for m in melds]
    )
    assert got == want == expected


def _sets_and_runs(melds):
    masks = [cards.to_mask(m) for m in melds]
    sets = sum(m for m in masks if len({c % 13 for c in cards.to_indices(m)}) == 1)
    return sets, sum(masks) - sets


@pytest.mark.parametrize(
    ("defender", "melds", "laid"),
    [
        ("8s 9s Kd", ["5s 6s 7s"], "8s 9s"),  # 9s only beyond 8s
        ("4s 3s Kd", ["5s 6s 7s"], "4s 3s"),  # downwards, in laying order
        ("8h Kd", ["8c 8d 8s"], "8h"),
        ("9s Kd", ["5s 6s 7s"], ""),
        ("8s 9s Ts Kd", ["5s 6s 7s"], ""),  # its own run leaves as little with no layoff
        ("8s 8d 8h 9s", ["5s 6s 7s"], ""),  # melding the eights beats laying off
    ],
)
def test_layoff_plan_lays_off_the_fewest_cards_for_the_least_deadwood(defender, melds, laid):
    sets, runs = _sets_and_runs(melds)
    plan = layoff_plan(cards.to_mask(defender), sets, runs)
    assert plan == cards.parse_hand(laid)
    left = cards.to_mask(defender) & ~cards.to_mask(plan)
    assert min_deadwood(left) == deadwood_after_layoff(defender, melds)


def _random_knocks(seed: int, count: int) -> list[tuple[int, int]]:
    """``count`` (knocker, defender) pairs of 10-card masks, the first 20 cards of
    shuffled decks whose first ten have 10 or less deadwood: about one deck in 1,500, so
    the decks are screened 100,000 at a time by the batch kernel."""
    rng = np.random.default_rng(seed)
    found: list[tuple[int, int]] = []
    while len(found) < count:
        decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (100_000, 1)), axis=1)
        bits = np.left_shift(np.int64(1), decks[:, :20])
        knockers, defenders = bits[:, :10].sum(axis=1), bits[:, 10:].sum(axis=1)
        knockable = min_deadwood_batch(knockers) <= 10
        found += zip(knockers[knockable].tolist(), defenders[knockable].tolist(), strict=True)
    return found[:count]


def test_random_knocks_are_knockable_deals():
    knocks = _random_knocks(3, 50)
    assert len(knocks) == 50 and len(set(knocks)) == 50
    for knocker, defender in knocks:
        assert knocker & defender == 0 and bin(knocker).count("1") == 10
        assert bin(defender).count("1") == 10 and min_deadwood(knocker) <= 10


def test_layoff_plan_reaches_the_searched_deadwood_with_legal_layoffs():
    chained = 0
    for knocker, defender in _random_knocks(11, 300):
        arrangement = best_melds(knocker)
        sets, runs = _sets_and_runs(arrangement.melds)
        plan = cards.to_mask(layoff_plan(defender, sets, runs))
        assert plan & ~defender == 0
        assert min_deadwood(sets | runs | plan) == 0  # every laid card extends a meld
        assert min_deadwood(defender & ~plan) == deadwood_after_layoff(defender, arrangement.melds)
        chained += any(min_deadwood(sets | runs | 1 << c) > 0 for c in cards.to_indices(plan))
    assert chained > 0  # some plans lay a card off beyond another


def test_layoffs_match_brute_force_on_random_knocks():
    for knocker, defender_mask in _random_knocks(7, 400):
        arrangement = best_melds(knocker)
        defender = frozenset(cards.to_indices(defender_mask))
        melds = [frozenset(cards.to_indices(m)) for m in arrangement.melds]
        got = deadwood_after_layoff(defender_mask, arrangement.melds)
        assert got == reference.deadwood_after_layoff(defender, melds)


def test_layoff_input_validation():
    with pytest.raises(ValueError, match="not a meld"):
        deadwood_after_layoff("Kd", ["5s 6s 8s"])
    with pytest.raises(ValueError, match="overlaps"):
        deadwood_after_layoff("5s Kd", ["5s 6s 7s"])


def test_knocker_arrangement_minimises_exposure():
    # 7c 7d 7h + 6c 8c: the set exposes 7s only, the run 5c and 9c
    result = best_melds("7c 7d 7h 6c 8c Ks")
    assert [cards.format_hand(m) for m in result.melds] == ["7c 7d 7h"]


def test_batch_rejects_bad_masks():
    with pytest.raises(ValueError, match="bits 0-51"):
        min_deadwood_batch(np.array([1 << 53], dtype=np.int64))
    with pytest.raises(ValueError, match="one-dimensional"):
        min_deadwood_batch(np.zeros((2, 2), dtype=np.int64))


def test_dealt_distribution_reproducible_and_plausible():
    counts = dealt_deadwood_distribution(50_000, 10, seed=5)
    again = dealt_deadwood_distribution(50_000, 10, seed=5, n_chunks=7)
    assert np.array_equal(counts, again)
    assert counts.sum() == 50_000
    # a direct check of the same statistic on an independent sample: the means of two
    # samples of 50,000 agree within 5 standard errors (sd of dealt deadwood ~ 16 points)
    rng = np.random.default_rng(11)
    masks = np.array(
        [cards.to_mask([int(c) for c in rng.choice(52, 10, replace=False)]) for _ in range(50_000)],
        dtype=np.int64,
    )
    other = min_deadwood_batch(masks)
    mean = (counts * np.arange(len(counts))).sum() / counts.sum()
    assert abs(mean - other.mean()) < 5 * 16 * np.sqrt(2 / 50_000)
    eleven = dealt_deadwood_distribution(20_000, 11, seed=5)
    assert eleven.sum() == 20_000
    with pytest.raises(ValueError, match="hand_size"):
        dealt_deadwood_distribution(10, 9)


def test_kernels_melds_card():
    hand = cards.to_mask("7c 7d 7h 6c 8c Ks")
    assert evaluator.melds_card_kernel(np.int64(hand), np.int64(cards.parse_card("6c")))
    assert not evaluator.melds_card_kernel(np.int64(hand), np.int64(cards.parse_card("Ks")))
