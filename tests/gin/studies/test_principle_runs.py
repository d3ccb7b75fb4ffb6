"""The leave-one-out runs of the discard and draw answers: their paired arithmetic against
a direct computation from the hands played, on a tiny run."""

import numpy as np
import pytest

from analyzer.core.stats import Estimate, ratio_estimate
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.game_kernels import HandColumn
from analyzer.gin.play.simulate import hand_rows
from analyzer.gin.studies import discard_principles, draw_principles
from analyzer.gin.studies.principle_runs import (
    PANEL,
    Roles,
    measure_arms,
    naive_gain,
    panel_members,
    worths_text,
)

ROLES = Roles("rule", "naive", "champion", "knock at once", "they overlap")
DEALS, SEED = 60, 5


def _per_deal(policy, opponent):
    rows = hand_rows(STANDARD, policy, panel_members()[opponent], SEED, 0, DEALS)
    return rows[:, HandColumn.POINTS_A].astype(float).reshape(-1, 2).mean(axis=1)


def _estimate(values):
    return Estimate.from_sums(values.sum(), np.square(values).sum(), len(values))


def test_a_run_pairs_every_arm_with_the_rule_deal_by_deal_and_averages_the_panel():
    chosen = {
        "rule": PRESETS["basic"],
        "naive": PRESETS["basic"].changed(draw="never"),
        "champion": PRESETS["simple"],
        "twin": PRESETS["basic"],  # played once, the same points as the rule
    }
    opponents = ("basic", "gin-hunter")
    run = measure_arms(STANDARD, DEALS, SEED, chosen, ROLES, opponents)
    points = {(o, a): _per_deal(p, o) for o in opponents for a, p in chosen.items()}
    for arm in chosen:
        panel = np.mean([points[o, arm] for o in opponents], axis=0)
        panel_rule = np.mean([points[o, "rule"] for o in opponents], axis=0)
        for opponent in opponents:
            expected = points[opponent, arm]
            assert run.points(opponent, arm).mean == pytest.approx(expected.mean())
            diff = _estimate(expected - points[opponent, "rule"])
            assert run.diff(opponent, arm).mean == pytest.approx(diff.mean)
            assert run.diff(opponent, arm).high == pytest.approx(diff.high)
        assert run.points(PANEL, arm).mean == pytest.approx(panel.mean())
        assert run.diff(PANEL, arm).low == pytest.approx(_estimate(panel - panel_rule).low)
    assert run.diff(PANEL, "twin").mean == 0 and run.diff(PANEL, "twin").half_width == 0
    gain = points["basic", "rule"] - points["basic", "naive"]
    edge = points["basic", "champion"] - points["basic", "naive"]
    assert run.gain("basic").mean == pytest.approx(gain.mean())
    assert run.edge("basic").mean == pytest.approx(edge.mean())
    share = ratio_estimate(
        gain.sum(), np.square(gain).sum(), edge.sum(), np.square(edge).sum(),
        (gain * edge).sum(), DEALS,
    )  # fmt: skip
    assert run.share("basic").mean == pytest.approx(share.mean)
    assert run.share("basic").low == pytest.approx(share.low)
    assert naive_gain(run, "basic", ROLES).as_dict()["gain"]["mean"] == pytest.approx(gain.mean())


def test_a_run_needs_its_roles_and_panel_members():
    with pytest.raises(ValueError, match="lack champion"):
        measure_arms(STANDARD, 10, 1, {"rule": PRESETS["basic"], "naive": PRESETS["basic"]}, ROLES)
    with pytest.raises(ValueError, match="panel members"):
        measure_arms(STANDARD, 10, 1, {"rule": PRESETS["basic"]}, ROLES, ("nobody",))


def test_the_answers_arms_have_their_roles_and_say_why_the_worths_overlap():
    for study in (discard_principles, draw_principles):
        arms = study.arms()
        roles = study.ROLES
        assert next(iter(arms)) == roles.rule == study.RULE_SET
        assert {roles.naive, roles.champion} <= set(arms)
        assert arms[roles.champion] == PRESETS["expert"]
        for principle in study.PRINCIPLES:
            assert f"without {principle.key}" in arms
            assert "{" not in study.principle_words(principle)
    # the draw rule without its points is the naive draw, played once
    draw = draw_principles.arms()
    assert draw["without lower"] == draw[draw_principles.NAIVE]
    text = worths_text([0.5, 0.4, 0.3], 0.8, draw_principles.ROLES)
    assert text.startswith("The worths add up to +1.20 points per hand, more than the rule's")
    assert "(+0.80)" in text and draw_principles.ROLES.why_not_additive in text
    assert "less than" in worths_text([0.1], 0.8, discard_principles.ROLES)


def test_the_late_discard_principle_says_the_feeding_count_still_applies():
    late = next(p for p in discard_principles.PRINCIPLES if p.key == "late")
    words = discard_principles.principle_words(late)
    assert "highest unmatched card" not in words
    feed = discard_principles.rule_set().discard.feed_points
    assert f"still {feed} less when your opponent could use it" in words


def test_a_choice_is_made_only_outside_the_noise_and_else_keeps_the_simpler_rule():
    from analyzer.gin.studies.choices import TOO_CLOSE, RuleChoice

    def choice(low, high, first_size=4, second_size=2):
        difference = Estimate((low + high) / 2, low, high, 1000)
        return RuleChoice(
            "robust", "early", "in its worst case", difference, first_size, second_size
        )

    assert choice(0.1, 0.5).decided and choice(0.1, 0.5).kept == "robust"
    assert choice(-0.5, -0.1).kept == "early"
    close = choice(-0.2, 0.6)
    assert not close.decided and close.kept == "early" == close.simpler
    assert TOO_CLOSE in close.text() and 'so the simpler one is kept: "early"' in close.text()
    assert choice(-0.2, 0.6, 2, 2).kept == "robust"  # a tie in size keeps the first
    assert close.as_dict()["difference"] == {"mean": pytest.approx(0.2), "ci95": [-0.2, 0.6]}
