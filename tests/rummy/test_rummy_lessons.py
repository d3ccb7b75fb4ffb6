"""The measurements behind how-to-play (:mod:`analyzer.rummy.lessons`), the presets in
words (:mod:`analyzer.rummy.describe`), the expert's fit (:mod:`analyzer.rummy.fit`) and
the foundations they rest on: paired margins at every player count, results the same
whatever the thread count."""

import json

import numba
import numpy as np
import pandas as pd
import pytest

from analyzer.rummy import POLICY_PRESETS, RummyRules, parse_policy, simulate
from analyzer.rummy.describe import STRONGEST, describe, preset_descriptions, preset_records
from analyzer.rummy.fit import FIT_PANEL, FIT_SPACE, FIT_START, fit_expert
from analyzer.rummy.lessons import (
    OPTIONS,
    PANEL,
    PRINCIPLES,
    QUESTIONS,
    how_to_play,
    option_values,
    principles,
    variant,
)
from analyzer.rummy.policies import WEIGHTS, fitted_weights
from analyzer.rummy.simulate import deal_margins


def with_threads(count, function):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(min(count, numba.config.NUMBA_NUM_THREADS))
        return function()
    finally:
        numba.set_num_threads(before)


# --- margins at every player count ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_margin_is_player_0_minus_the_mean_of_the_others(players):
    policies = [POLICY_PRESETS[STRONGEST]] + [parse_policy("simple")] * (players - 1)
    rules = RummyRules(players=players)
    result = simulate(rules, policies, 1500, seed=players)
    points = [p.mean for p in result.player_points]
    assert result.margin.mean == pytest.approx(points[0] - np.mean(points[1:]))
    margins = deal_margins(rules, policies, 1500, seed=players)
    assert margins.mean() == pytest.approx(result.margin.mean)
    assert result.margin.low < result.margin.mean < result.margin.high


# --- the principles ------------------------------------------------------------------------------


def test_each_principle_replaces_one_decision_of_the_expert():
    expert = POLICY_PRESETS[STRONGEST]
    for name, (question, does, instead, fields) in PRINCIPLES.items():
        other = variant(name)
        assert question in QUESTIONS and does and instead
        assert other != expert
        changed = {k for k, v in expert.describe().items() if other.describe()[k] != v}
        assert changed and changed <= set(fields), name


def test_principles_are_paired_on_common_deals_and_independent_of_threads():
    rules = RummyRules(players=3)
    names = ("hold while safe", "lay off when playing")
    one = with_threads(1, lambda: principles(rules, 400, seed=3, names=names))
    two = with_threads(2, lambda: principles(rules, 400, seed=3, names=names))
    pd.testing.assert_frame_equal(one, two)
    assert list(one.opponent) == [o for o in PANEL for _ in names]
    # the worth is the paired difference of the two margins, on the same deals
    assert one.worth.to_numpy() == pytest.approx(
        (one.expert_margin - one.variant_margin).to_numpy()
    )
    assert (one.worth_lo <= one.worth).all() and (one.worth <= one.worth_hi).all()


def test_how_to_play_answers_each_question_at_every_player_count():
    seen = []

    def progress(units, total=None):
        seen.append((units, total))

    answer = how_to_play("seed004", 3, deals=150, seed=1, counts=(2, 3), progress=progress)
    for question, table in (
        ("meld", answer.meld),
        ("throw", answer.throw),
        ("layoff", answer.layoff),
    ):
        assert set(table.question) == {question} and set(table.players) == {3}
    assert sorted(set(answer.by_players.players)) == [2, 3]
    assert len(answer.by_players) == 2 * len(PANEL) * len(PRINCIPLES)
    assert list(answer.expert.opponent) == list(PANEL)
    assert (answer.expert.win_share_lo <= answer.expert.win_share).all()
    # one total first, then the units add up to it
    assert seen[0][1] is not None and sum(u for u, _ in seen) == seen[0][1]


def test_option_values_pair_every_option_with_the_standard_rules():
    options = {
        name: OPTIONS[name] for name in ("standard rules", "must meld", "rummy on the board")
    }
    worth, edges = option_values(200, seed=2, options=options, names=("hold while safe",))
    assert list(edges.option) == list(options)
    standard = edges.iloc[0]
    assert (standard.edge_change, standard.edge_change_lo, standard.edge_change_hi) == (0, 0, 0)
    assert set(worth.option) == set(options)
    assert len(worth) == len(options) * len(PANEL)


# --- the presets in words ------------------------------------------------------------------------


def test_every_preset_is_described_and_the_strongest_named_first():
    words = preset_descriptions()
    assert set(words) == set(POLICY_PRESETS)
    assert next(iter(words)) == STRONGEST
    assert "strongest" in words[STRONGEST]
    # rummy's paradox: most hands won, points lost, and why
    assert "two hands in" in words["rummy"] and "loses points" in words["rummy"]
    assert describe("hold6") == words["hold6"]


def test_a_policy_that_is_no_preset_is_described_from_its_fields():
    text = describe("meld=hold,hold_turns=4,hold_points=20,discard=potential,call=no")
    assert "through its own turn 4" in text and "at most 20 points" in text
    assert "fewest partners" in text and "never calls" in text
    assert "w_feed=0" in describe("rummy-expert,w_feed=0")
    with pytest.raises(ValueError, match="unknown policy"):
        describe("bogus")


def test_preset_records_read_each_pairs_hands():
    table = preset_records(300, seed=4, opponents=("simple",))
    assert list(table.policy) == list(POLICY_PRESETS)
    rummy = table.set_index("policy").loc["rummy"]
    # the Rummy holder wins with Rummy: every win is one
    assert rummy.rummy_share == pytest.approx(1.0)
    assert rummy.points_per_win < rummy.points_per_loss


# --- the fit -------------------------------------------------------------------------------------


def test_the_weights_file_holds_every_weight_and_how_it_was_fitted():
    weights = fitted_weights()
    assert set(weights) == set(WEIGHTS)
    assert POLICY_PRESETS[STRONGEST].weights() == weights
    assert weights["w_deadwood"] == 100  # the scale the fit keeps


def test_a_fit_is_reproducible_and_independent_of_threads():
    kwargs = {
        "generations": 2,
        "population": 3,
        "elite": 2,
        "deals": 60,
        "held_out_deals": 80,
        "softness": 2.0,
        "seed": 9,
    }
    one = with_threads(1, lambda: fit_expert(**kwargs))
    two = with_threads(2, lambda: fit_expert(**kwargs))
    assert json.dumps(one.document()) == json.dumps(two.document())
    document = one.document()
    assert set(document["weights"]) == set(WEIGHTS)
    assert document["fit"]["start"] == FIT_START.weights()
    assert set(document["fit"]["held_out"]) == {table.name for table in FIT_PANEL}
    # candidate 0 of each generation is the mean, inside the fitted ranges
    for generation in one.generations:
        assert generation.weights.shape == (3, len(FIT_SPACE))
        lows = np.array([low for _, low, _, _ in FIT_SPACE])
        highs = np.array([high for _, _, high, _ in FIT_SPACE])
        assert ((generation.weights >= lows) & (generation.weights <= highs)).all()
