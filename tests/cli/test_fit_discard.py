"""``analyzer fit-discard``: a fit is reproduced bit for bit from its seed whatever the
thread count, its bad options are one line, and the committed fit is the champion's."""

import json
from pathlib import Path

import pytest

from analyzer.cli.progress import MAX_WIDTH
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.studies.discard_fit import FIT_SPACE
from analyzer.report.discard_fit import CANDIDATES_FILE, HELD_OUT_FILE, REPORT_FILE, WEIGHTS_FILE

from .test_input_bounds import assert_one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "fit-discard",
    "--rules",
    "eaai",
    "--generations",
    "2",
    "--population",
    "3",
    "--elite",
    "2",
    "--deals",
    "100",
    "--held-out",
    "100",
    "--seed",
    "4",
    "--no-progress",
]


def test_a_fit_is_the_same_bit_for_bit_whatever_the_thread_count(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    assert run(*TINY, "--out", first).exit_code == 0
    result = run(*TINY, "--jobs", "1", "--out", second)
    assert result.exit_code == 0, result.output
    for name in (WEIGHTS_FILE, CANDIDATES_FILE, HELD_OUT_FILE):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    document = json.loads((first / WEIGHTS_FILE).read_text())
    fitted = parse_policy(document["policy"])
    assert {key: fitted.value(key) for key, *_ in FIT_SPACE} == document["weights"]
    assert document["seed"] == 4 and document["rules"] == "eaai"
    report = (first / REPORT_FILE).read_text()
    assert "Held out: 100 fresh deals per opponent" in report
    # the command that reproduces the fit, written from its parameters
    assert "`analyzer fit-discard --rules eaai --generations 2 --population 3 --elite 2" in report


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--elite", "5", "--population", "3"], "elite must be at most population (3)"),
        (["--deals", "10"], "--deals"),
        (["--population", "1"], "--population"),
        (["--softness", "nan"], "--softness"),
        (["--rules", "nosuch"], "nosuch"),
    ],
)
def test_bad_options_are_one_line(tmp_path, args, text):
    assert_one_line_error(run("fit-discard", *args, "--out", tmp_path / "fit"), text)
    assert not (tmp_path / "fit").exists()


def test_the_committed_fit_holds_the_champions_discard_weights():
    document = json.loads((ROOT / "results" / "fit_discard" / WEIGHTS_FILE).read_text())
    fitted = parse_policy(document["policy"])
    assert {key: fitted.value(key) for key, *_ in FIT_SPACE} == document["weights"]
    assert fitted.discard.rule == "learned"
    assert document["start"] == format_policy(PRESETS["expert-v3"].changed(discard="learned"))


def test_a_fitted_policy_given_as_its_string_is_explained_within_the_width():
    """A policy string longer than a third of the width is named "this policy" above its
    sentence (it once stood beside it and squeezed the sentence to one letter a line)."""
    document = json.loads((ROOT / "results" / "fit_discard" / WEIGHTS_FILE).read_text())
    result = run("policies", document["policy"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("this policy: Takes the face-up card")
    assert max(len(line) for line in lines) <= MAX_WIDTH
    assert "learned from simulated deals" in " ".join(result.output.split())
