"""How to discard: the study's sums (the panel line, the principles' worth, the share of
the champion's edge), the answer read back from its files as written, and the command,
the notebook function and the web route saying the same thing."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import analyzer.api as az
from analyzer.cli.main import cli
from analyzer.core.stats import ratio_estimate
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.gin.studies.discard_principles import (
    PANEL,
    PRINCIPLES,
    RULE_SET,
    arms,
    measure_principles,
)
from analyzer.report.discard_answer import (
    FOLDER,
    answer_of,
    discard_answer,
    load_run,
    member_of,
    save_run,
)
from analyzer.studies.text import MAX_WIDTH

MEMBERS = ("basic", "marjj")


@pytest.fixture(scope="module")
def run():
    return measure_principles(RULE_PRESETS["standard"], 300, 5, MEMBERS)


@pytest.fixture(scope="module")
def saved(run, tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    save_run(folder, run, "standard", "analyzer report")
    return folder


def test_the_ratio_interval_is_the_delta_method_on_paired_samples():
    generator = np.random.default_rng(1)
    y = generator.normal(2.0, 1.0, 4000)
    x = 0.5 * y + generator.normal(0.0, 0.3, 4000)
    found = ratio_estimate(x.sum(), (x * x).sum(), y.sum(), (y * y).sum(), (x * y).sum(), 4000)
    ratio = x.mean() / y.mean()
    residual = x - ratio * y
    half = 1.959964 * residual.std(ddof=1) / np.sqrt(4000) / abs(y.mean())
    assert found.mean == pytest.approx(ratio)
    assert found.high - found.mean == pytest.approx(half, rel=1e-9)
    assert np.isnan(ratio_estimate(1.0, 1.0, 0.0, 0.0, 0.0, 10).mean)


def test_the_rule_set_is_the_reference_and_the_panel_the_mean_of_its_members(run):
    for opponent in (*MEMBERS, PANEL):
        assert run.diff(opponent, RULE_SET).mean == 0.0
    for arm in arms():
        members = [run.points(member, arm).mean for member in MEMBERS]
        assert run.points(PANEL, arm).mean == pytest.approx(np.mean(members))
        # the mean's interval, from the deal-by-deal means, is at most the mean of the
        # members' intervals (Cauchy-Schwarz: their covariance is at most the product of
        # their standard deviations)
        spread = [run.points(member, arm).half_width for member in MEMBERS]
        assert run.points(PANEL, arm).half_width <= np.mean(spread) + 1e-9
    gain, edge = run.gain(PANEL), run.edge(PANEL)
    assert run.share(PANEL).mean == pytest.approx(gain.mean / edge.mean)
    assert gain.mean == pytest.approx(-run.diff(PANEL, "high").mean)


def test_each_principle_is_worth_what_leaving_it_out_costs_most_first(run):
    answer = answer_of(run, "standard", PANEL, "computed now")
    assert {line.key for line in answer.lines} == {p.key for p in PRINCIPLES}
    worths = [line.worth.mean for line in answer.lines]
    assert worths == sorted(worths, reverse=True)
    for line in answer.lines:
        without = run.diff(PANEL, f"without {line.key}")
        assert (line.worth.mean, line.worth.low) == (-without.mean, -without.high)
    text = answer.text()
    assert max(len(row) for row in text.splitlines()) <= MAX_WIDTH
    assert text.startswith("How to discard · standard rules · against an unknown opponent")
    assert "\nAgainst an opponent you know nothing about (the mean over basic, marjj)." in text
    assert "When you do not knock, throw one of your unmatched cards" in text
    assert "of the champion's edge" in text and "300 deals per player and opponent" in text


def test_the_answer_reads_back_from_its_files_as_it_was_computed(run, saved):
    loaded, command = load_run(saved, "standard")
    assert command == "analyzer report" and loaded.opponents == MEMBERS
    for member in (PANEL, *MEMBERS):
        fresh = answer_of(run, "standard", member, "x")
        again = answer_of(loaded, "standard", member, "x")
        assert again.text() == fresh.text()
    assert load_run(saved, "eaai") is None


@pytest.mark.parametrize(
    ("opponent", "member"),
    [("unknown", PANEL), ("camper", "marjj"), ("knocks-at-once", "basic"), ("taper", "taper")],
)
def test_families_and_members_name_the_player_measured(opponent, member):
    assert member_of(opponent) == member


def test_a_bad_opponent_is_one_line_naming_it_everywhere(saved):
    with pytest.raises(ValueError, match="opponent 'wizard' is neither a family"):
        discard_answer(opponent="wizard", results=saved)
    with pytest.raises(ValueError, match="opponent 'wizard'"):
        az.how_to_discard(opponent="wizard")
    result = CliRunner().invoke(cli, ["how-to-discard", "--opponent", "wizard"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and "wizard" in lines[0]


def test_the_command_and_the_notebook_print_the_committed_answer(saved):
    output = CliRunner().invoke(
        cli, ["how-to-discard", "--opponent", "camper", "--results", str(saved)]
    )
    assert output.exit_code == 0, output.output
    answer = az.how_to_discard(opponent="camper", results=saved)
    assert output.output.strip() == answer.text()
    assert answer.source == "from the committed results (`analyzer report`)"
    data = json.loads(
        CliRunner().invoke(cli, ["how-to-discard", "--results", str(saved), "--json"]).output
    )
    assert data["opponent"] == PANEL and len(data["principles"]) == len(PRINCIPLES)


def test_the_command_will_not_write_the_reports_standard_answers(tmp_path):
    result = CliRunner().invoke(cli, ["how-to-discard", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "the standard rules' answers are the report's" in result.output
    assert not (tmp_path / "x" / FOLDER).exists()


def test_the_committed_answer_is_the_reports_run_over_the_panel():
    """The committed standard answer is the report's run of the current rule set."""
    answer = az.how_to_discard()
    assert "analyzer report" in answer.source
    assert answer.deals == 10_000 and answer.members == (
        "basic",
        "simple",
        "gin-hunter",
        "taper",
        "marjj",
        "expert",
    )


def test_a_preset_that_scores_hands_alike_reads_the_saved_answer_and_says_why(saved):
    answer = discard_answer("hollywood", results=saved)
    assert answer.rules_name == "hollywood"
    assert "every hand plays and scores as under standard" in answer.source
    assert answer.gain == discard_answer("standard", results=saved).gain


def test_out_computes_every_opponent_under_other_rules_and_the_command_reads_it(tmp_path):
    out = tmp_path / "res"
    args = ["how-to-discard", "--rules", "classic", "--deals", "100", "--no-progress"]
    written = CliRunner().invoke(cli, [*args, "--opponent", "camper", "--out", str(out)])
    assert written.exit_code == 0, written.output
    meta = json.loads((out / FOLDER / "classic" / "meta.json").read_text())
    assert meta["deals"] == 100 and len(meta["opponents"]) == 6
    assert meta["command"].startswith("analyzer how-to-discard --rules classic --deals 100")
    read = CliRunner().invoke(cli, ["how-to-discard", "--rules", "classic", "--results", str(out)])
    assert read.exit_code == 0, read.output
    assert read.output.startswith("How to discard · classic rules · against an unknown opponent")
    assert "from the committed results (`analyzer how-to-discard --rules classic" in read.output


def test_a_gain_whose_interval_holds_zero_is_too_close_to_call(run):
    from dataclasses import replace

    from analyzer.core.stats import Estimate

    answer = answer_of(run, "standard", PANEL, "x")
    close = replace(answer, gain=Estimate(0.1, -0.2, 0.4, 300))
    assert "too close to call (+0.10 ± 0.30 points per hand)" in close.result_text()
    assert "the rule gains" not in close.text().replace("\n", " ")
    assert close.to_dict()["result_text"] == close.result_text()
    clear = replace(answer, gain=Estimate(0.8, 0.5, 1.1, 300))
    assert clear.result_text().startswith("the rule gains +0.80 ± 0.30 points per hand over")


def test_the_notebook_will_not_write_the_reports_standard_answers(tmp_path):
    """The notebook takes out= as the command takes --out, with the same refusal."""
    with pytest.raises(ValueError, match="the standard rules' answers are the report's"):
        az.how_to_discard(out=tmp_path / "x")
    assert not (tmp_path / "x").exists()
