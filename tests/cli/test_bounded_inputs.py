"""The last unbounded inputs (issue 33, items 5, 7 and 8): the scheduler spec, the PSRO
tolerances, the player lists and ``--jobs`` have ranges in :mod:`analyzer.core.limits`,
checked before any work, and a bad one is one line (exit status 2)."""

import pytest

from analyzer.core import cluster
from analyzer.core.limits import MAX_JOBS, MAX_LISTED_PLAYERS, max_local_workers
from analyzer.gin.model.policies import PRESETS, format_policy

from .test_input_bounds import assert_one_line_error, run

TOO_MANY = ",".join(["basic"] * (MAX_LISTED_PLAYERS + 1))
#: basic written out: another name for the same player
BASIC_SPELLED_OUT = format_policy(PRESETS["basic"])

ROWS = [
    (["simulate", "--scheduler", "local:100000"], "local:N with N 1-"),
    (["simulate", "--scheduler", f"local:{max_local_workers() + 1}"], "local:N with N 1-"),
    (["games", "--scheduler", "local:" + "9" * 5000], "local:N with N 1-"),
    (["simulate", "--scheduler", "http://head-node:8786"], "unknown protocol 'http'"),
    (["simulate", "--scheduler", "tcp://head-node"], "expected host:port with a port 1-65535"),
    (["simulate", "--scheduler", "tcp://head node:8786"], "spaces or control characters"),
    (["equilibrium", "--tolerance", "nan"], "'nan' is not a finite number"),
    (["equilibrium", "--tolerance", "inf"], "'inf' is not a finite number"),
    (["equilibrium", "--tolerance", "0"], "--tolerance"),
    (["equilibrium", "--tolerance", "-0.5"], "--tolerance"),
    (["panel-equilibrium", "--tolerance", "nan"], "'nan' is not a finite number"),
    (["panel-equilibrium", "--tolerance", "-inf"], "'-inf' is not a finite number"),
    (["panel-equilibrium", "--tolerance", "0"], "--tolerance"),
    (["panel-equilibrium", "--members", "basic,simple,basic"], "--members names 'basic' twice"),
    (
        ["panel-equilibrium", "--members", f"basic;simple;{BASIC_SPELLED_OUT}"],
        f"--members names the same player twice: 'basic' and '{BASIC_SPELLED_OUT}'",
    ),
    (
        ["panel-equilibrium", "--members", TOO_MANY],
        f"--members lists {MAX_LISTED_PLAYERS + 1} players; at most {MAX_LISTED_PLAYERS}",
    ),
    (["panel-equilibrium", "--members", " , "], "--members is empty"),
    (
        ["tournament", "--policies", TOO_MANY],
        f"--policies lists {MAX_LISTED_PLAYERS + 1} players; at most {MAX_LISTED_PLAYERS}",
    ),
    (
        ["tournament", "--policies", f"basic;{BASIC_SPELLED_OUT}"],
        "--policies names the same player twice",
    ),
    (["simulate", "--jobs", MAX_JOBS + 1], "--jobs"),
    (["equilibrium", "--jobs", 0], "--jobs"),
]


@pytest.mark.parametrize(
    ("args", "text"), ROWS, ids=[f"{a[0]}-{i}" for i, (a, _) in enumerate(ROWS)]
)
def test_a_bad_input_is_one_line_before_any_work(args, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)
    assert_one_line_error(run(*args), text)
    assert list(tmp_path.iterdir()) == []


def test_the_scheduler_variable_is_checked_as_the_option_is(monkeypatch):
    monkeypatch.setenv(cluster.SCHEDULER_ENV, "local:100000")
    assert_one_line_error(run("simulate", "--deals", 2), "local:N with N 1-")
