"""A checkpoint's saved sums are checked against what their units can add: every run that
checkpoints resumes from its own saved state (the check accepts every real sum), and a
saved state edited past what its units allow is refused, naming the file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.core.chunks import checkpointing
from analyzer.core.fold_checks import sums_problem, value_ranges
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.simulate import play_games, simulate
from analyzer.gin.studies.compare import compare_games, compare_hands, knock_arms
from analyzer.gin.studies.discard_principles import measure_principles, panel_members
from analyzer.gin.studies.exact import exact_enumeration
from analyzer.gin.studies.knocking import knock_chart
from analyzer.rummy import RummyRules
from analyzer.rummy import parse_policy as rummy_policy
from analyzer.rummy.simulate import play_games as rummy_games
from analyzer.rummy.simulate import simulate as rummy_simulate
from analyzer.studies import checkpoint as checkpoint_file
from analyzer.studies.checkpoint import Checkpoint, CheckpointMismatch

BASIC = parse_policy("basic")
RUMMY = [rummy_policy("simple")] * 2


def _negated(value):
    """``value`` with every number negated (sums of counts fall below 0)."""
    if isinstance(value, dict):
        return {key: _negated(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_negated(item) for item in value)
    if isinstance(value, list):
        return [_negated(item) for item in value]
    if isinstance(value, np.ndarray):
        return -value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return -value - 1
    return value


RUNS = {
    "gin hands": lambda: simulate(
        STANDARD, BASIC, BASIC, 300, seed=3, chunk=100, scheduler=""
    ).to_frame(),
    "gin games": lambda: play_games(
        STANDARD, BASIC, BASIC, 20, seed=3, chunk=10, scheduler=""
    ).to_frame(),
    "compared hands": lambda: compare_hands(
        knock_arms(STANDARD, BASIC, None, [0, 10]), 300, seed=3, chunk=100, scheduler=""
    ),
    "compared games": lambda: compare_games(
        knock_arms(STANDARD, BASIC, None, [0, 10]), 20, seed=3, chunk=10, scheduler=""
    ),
    "discard principles": lambda: (
        measure_principles(
            STANDARD, 100, seed=3, opponents=list(panel_members())[:2], scheduler=""
        ).sums
    ),
    "knock chart": lambda: knock_chart(
        STANDARD, BASIC, BASIC, 300, seed=3, chunk=100, scheduler=""
    ),
    "exact enumeration": lambda: exact_enumeration(4, ranks=5, chunk=2, scheduler="").counts,
    "rummy hands": lambda: rummy_simulate(RummyRules(), RUMMY, 300, seed=3, chunk=100).to_frame(),
    "rummy games": lambda: rummy_games(RummyRules(), RUMMY, 20, seed=3, chunk=10).to_frame(),
}


def _same(first, second):
    if isinstance(first, np.ndarray):
        return np.array_equal(first, second)
    return first.equals(second) if hasattr(first, "equals") else first == second


@pytest.mark.parametrize("name", RUNS, ids=list(RUNS))
def test_a_run_resumes_from_its_own_sums_and_refuses_them_negated(tmp_path, name):
    run = RUNS[name]
    path = tmp_path / "run.json"
    with checkpointing(Checkpoint(path, {"run": name})):
        whole = run()
    with checkpointing(Checkpoint(path, {"run": name}, resume=True)):
        assert _same(run(), whole)  # every stage restored, checked and accepted
    data = json.loads(path.read_text())
    stage = next(iter(data["stages"].values()))
    stage["value"] = checkpoint_file._encode(_negated(checkpoint_file._decode(stage["value"])))
    path.write_text(json.dumps(data))
    with (
        pytest.raises(CheckpointMismatch, match=rf"checkpoint {path} is damaged: stages\[.*value"),
        checkpointing(Checkpoint(path, {"run": name}, resume=True)),
    ):
        run()


def _simulation_checkpoint(tmp_path):
    """The checkpoint of a finished 300-deal simulation, and its stage's sums."""
    path = tmp_path / "run.json"
    with checkpointing(Checkpoint(path, {"run": 1})):
        simulate(STANDARD, BASIC, BASIC, 300, seed=3, chunk=300, scheduler="")
    return path


def _resume_simulation(path):
    with checkpointing(Checkpoint(path, {"run": 1}, resume=True)):
        return simulate(STANDARD, BASIC, BASIC, 300, seed=3, chunk=300, scheduler="")


def _edit_sums(path, change):
    data = json.loads(path.read_text())
    (stage,) = data["stages"].values()
    pairs = stage["value"]["tuple"][0]["dict"]
    sums = dict(pairs)
    change(sums)
    stage["value"]["tuple"][0]["dict"] = [[key, value] for key, value in sums.items()]
    path.write_text(json.dumps(data))


def _float(number):
    return {"float": float(number).hex()}


SUM_EDITS = {
    "an infinite sum": (
        lambda sums: sums.update(knock={"float": "inf"}),
        "cannot be read (inf is not a finite number)",
    ),
    "a NaN": (
        lambda sums: sums.update(turns={"float": "nan"}),
        "cannot be read (nan is not a finite number)",
    ),
    "an array of shape [0, 10**18] for a sum": (
        lambda sums: sums.update(knock={"array": [], "dtype": "<f8", "shape": [0, 10**18]}),
        "'knock' is not a number",
    ),
    "an array whose shape does not hold its cells": (
        lambda sums: sums.update(knock={"array": ["0x1p+0"], "dtype": "<f8", "shape": [2, 2]}),
        "an array of shape [2, 2] cannot hold 1 cells",
    ),
    "a negative count of deals": (
        lambda sums: sums.update(deals=_float(-914_112)),
        "'deals' is -914,112, outside what 300 units add (300 to 300)",
    ),
    "more knocks than hands": (
        lambda sums: sums.update(knock=_float(612)),
        "'knock' is 612, outside what 300 units add (0 to 600)",
    ),
    "outcomes that do not add to the hands": (
        lambda sums: sums.update(knock=_float(1)),
        "the outcomes add to",
    ),
    "a sum missing": (lambda sums: sums.pop("undercut"), "has no 'undercut'"),
    "a sum no run keeps": (
        lambda sums: sums.update(bogus=_float(0)),
        "has a sum no chunk gives, 'bogus'",
    ),
    "a sum of 10**30": (
        lambda sums: sums.update(hands=10**30),
        "cannot be read (1000000000000000000000000000000 does not fit 64 bits)",
    ),
}


@pytest.mark.parametrize("edit", SUM_EDITS, ids=list(SUM_EDITS))
def test_saved_sums_past_what_their_deals_allow_are_refused(tmp_path, edit):
    path = _simulation_checkpoint(tmp_path)
    change, problem = SUM_EDITS[edit]
    _edit_sums(path, change)
    with pytest.raises(CheckpointMismatch) as refused:
        _resume_simulation(path)
    message = str(refused.value)
    assert message.startswith(f"checkpoint {path} is damaged: ") and problem in message
    assert "\n" not in message


def test_sums_of_values_their_squares_and_count_must_agree(tmp_path):
    """Sums kept as x, x_sq and x_n (here edited in a knock sweep's) are checked together
    whatever the plan declares: a count >= 0, squares >= 0, and x**2 <= x_n * x_sq."""
    sums = {"a": 6.0, "a_sq": 12.0, "a_n": 3.0}
    assert checkpoint_file._moments_problem(sums) is None
    for change, problem in (
        ({"a_n": -1.0}, "'a_n' is -1, not a count"),
        ({"a_n": 2.5}, "'a_n' is 2.5, not a count"),
        ({"a_sq": -1.0}, "'a_sq' is -1, a sum of squares below 0"),
        ({"a": 7.0}, "'a' is 7, more than 3 values whose squares add to 12 can add"),
    ):
        assert checkpoint_file._moments_problem(sums | change) == problem


def test_a_number_where_the_fold_keeps_one_is_a_plain_finite_number():
    start = (np.zeros(3, dtype=np.int64), 0.0)
    shaped = np.zeros((0, 10**18))
    assert checkpoint_file._misfit((start[0], shaped), start) == "part 1 must be a number"
    assert checkpoint_file._misfit((start[0], True), start) == "part 1 must be a number"
    assert checkpoint_file._misfit((start[0], 2.5), start) is None


def test_declared_ranges_name_the_sum_and_what_the_units_allow():
    ranges = {"hands": (2, 2), **value_ranges("points", 1, -10, 10)}
    sums = {"hands": 8.0, "points": 12.0, "points_sq": 100.0, "points_n": 4.0}
    assert sums_problem(sums, 4, ranges) is None
    assert sums_problem({}, 0, ranges) is None
    assert sums_problem(sums, 0, ranges) == "holds sums before any unit was played"
    assert sums_problem(sums | {"points_sq": 401.0}, 4, ranges) == (
        "'points_sq' is 401, outside what 4 units add (0 to 400)"
    )
    assert sums_problem(sums | {"points_n": 5.0}, 4, ranges) == (
        "'points_n' is 5, outside what 4 units add (4 to 4)"
    )
