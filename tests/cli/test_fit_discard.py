"""``analyzer fit-discard``: a fit is reproduced bit for bit from its seed whatever the
thread count, its bad options are one line, and the committed fit is the champion's."""

from itertools import takewhile
from pathlib import Path

import pytest

from analyzer.cli.progress import MAX_WIDTH
from analyzer.gin.model.policies import PRESETS, format_policy, parse_policy
from analyzer.gin.studies.discard_fit import FIT_SPACE
from analyzer.studies.answer import Answer

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
    for name in ("held_out.csv", "weights.csv", "candidates.csv", "held_out.png"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    answer = Answer.load(first)
    assert answer.facts == Answer.load(second).facts
    document = answer.facts["fit"]
    fitted = parse_policy(document["policy"])
    assert {key: fitted.value(key) for key, *_ in FIT_SPACE} == document["weights"]
    assert document["seed"] == 4 and document["rules"] == "eaai"
    assert answer["weights"]["fitted"].tolist() == list(document["weights"].values())
    assert len(answer["candidates"]) == 2 * 3  # every candidate of both generations
    report = answer.text()
    assert "Held out: 100 fresh deals per opponent" in report
    # the command that reproduces the fit, written from its parameters
    assert "`analyzer fit-discard --rules eaai --generations 2 --population 3 --elite 2" in report
    # the policy, broken to fit the width, is the fitted policy's string form
    lines = report.splitlines()
    start = lines.index("The fitted policy (its lines joined):")
    pieces = takewhile(lambda line: line.startswith("  "), lines[start + 1 :])
    assert "".join(piece.strip() for piece in pieces) == document["policy"]


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


def committed_fit() -> dict:
    """The committed fit's weights and policy (``results/fit_discard``)."""
    return Answer.load(ROOT / "results" / "fit_discard").facts["fit"]


def test_the_committed_fit_holds_the_champions_discard_weights():
    document = committed_fit()
    fitted = parse_policy(document["policy"])
    assert {key: fitted.value(key) for key, *_ in FIT_SPACE} == document["weights"]
    assert fitted.discard.rule == "learned"
    assert document["start"] == format_policy(PRESETS["expert-v3"].changed(discard="learned"))


def test_a_fitted_policy_given_as_its_string_is_explained_within_the_width():
    """A policy string longer than a third of the width is named "this policy" above its
    sentence (it once stood beside it and squeezed the sentence to one letter a line)."""
    result = run("policies", committed_fit()["policy"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("this policy: Takes the face-up card")
    assert max(len(line) for line in lines) <= MAX_WIDTH
    assert "learned from simulated deals" in " ".join(result.output.split())
