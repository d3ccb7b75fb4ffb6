"""Input bounds (hardening issue, items 3, 8, 10, 12 and 13): every number a user can
give has a range and every reader a size limit, checked before any work, and a bad input
is one line.

* the search player's parameters (``budget``, ``batch``, ``min_samples``,
  ``temperature``) have ranges, in every command that takes a player;
* ``deadwood --file``, ``advise --position`` and ``replay --position`` read a bounded
  amount (``/dev/zero`` and a pipe that never ends are refused at once);
* ``replay`` and ``agent`` take seeds and deal numbers in the shared ranges;
* a search stops promptly on Ctrl-C or SIGTERM (tests at the end).
"""

import _thread
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core import cluster
from analyzer.core.limits import (
    MAX_BUDGET,
    MAX_FILE_LINES,
    MAX_LINE_CHARS,
    MAX_POSITION_CHARS,
    SEARCH_RANGES,
    SEED_MAX,
)
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.players import SearchField, SearchPolicy, parse_player

from .stopping import signal_while_running

ROOT = Path(__file__).resolve().parents[2]
HAND = "4c 5c 6c 7d 7h 7s 9s Ts Js Kd 2h"
ZERO = "/dev/zero"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


def run(*args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], **kwargs)


def assert_one_line_error(result, text):
    """Exit 2, one ``Error:`` line naming ``text`` on stderr, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert text in lines[0], lines[0]
    assert "Traceback" not in result.output


# ------------------------------------------------------------- search parameters (3)

SEARCH_ROWS = [
    (
        ["simulate", "--a", "search,budget=1000000000", "--deals", 2],
        "search budget must be 1-100000, got 1000000000",
    ),
    (
        ["simulate", "--a", "search,budget=99999999999", "--deals", 2],
        "search budget must be 1-100000, got 99999999999",
    ),
    (["games", "--b", "search,budget=99999999999", "--games", 2], "search budget must be 1-100000"),
    (
        ["advise", "--hand", HAND, "--policy", "search,budget=99999999999"],
        "search budget must be 1-100000",
    ),
    (
        ["advise", "--hand", HAND, "--opponent", f"search,batch={2**70}"],
        f"search batch must be 1-100000, got {2**70}",
    ),
    (["simulate", "--a", f"search,batch={2**70}"], "search batch must be 1-100000"),
    (
        ["simulate", "--a", "search,temperature=1e23"],
        "bad value '1e23' for search temperature: expected an integer",
    ),
    (["simulate", "--a", f"search,temperature={10**23}"], "search temperature must be 0-1000"),
    (["simulate", "--a", "search,min_samples=1"], "search min_samples must be 2-100000, got 1"),
    (["simulate", "--a", "search,budget=0"], "search budget must be 1-100000, got 0"),
    (["simulate", "--a", "search,budget=-5"], "search budget must be 1-100000, got -5"),
    (["simulate", "--a", "search,budget=1_000"], "bad value '1_000' for search budget"),
    (
        ["tournament", "--policies", "basic;search,budget=99999999999"],
        "search budget must be 1-100000",
    ),
]


@pytest.mark.parametrize(
    ("args", "text"), SEARCH_ROWS, ids=[f"{args[0]}-{i}" for i, (args, _) in enumerate(SEARCH_ROWS)]
)
def test_search_parameters_out_of_range_are_one_line(args, text, tmp_path):
    assert_one_line_error(run(*args), text)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("budget", MAX_BUDGET + 1, ValueError),
        ("budget", 0, ValueError),
        ("batch", 2**70, ValueError),
        ("min_samples", 1, ValueError),
        ("temperature", 10**23, ValueError),
        ("temperature", -1, ValueError),
        ("budget", True, TypeError),
        ("budget", 2.0, TypeError),
        ("temperature", 8.5, TypeError),
        ("budget", "64", TypeError),
    ],
)
def test_search_policy_checks_every_parameter(name, value, error):
    with pytest.raises(error, match=f"search {name} must be"):
        SearchPolicy(**{name: value})


def test_search_ranges_at_their_ends_are_accepted():
    for name, (low, high) in SEARCH_RANGES.items():
        for value in (low, high):
            player = parse_player(f"search,{name}={value}")
            assert getattr(player, name) == value
            assert player.to_array()[SearchField[name.upper()]] == value
    assert SearchPolicy().to_array()[SearchField.STOP] == 0


def test_search_ranges_are_documented():
    page = " ".join((ROOT / "docs" / "rules-and-policies.md").read_text().split())
    assert "`budget` and `batch` 1-100,000" in page
    assert "18.4 MB" in page


# --------------------------------------------------------------- seeds and deals (10, 13)

SEED_ROWS = [
    (["replay", "--seed", 2**70], "0<=x<=9223372036854775807"),
    (["replay", "--seed", -1], "-1 is not in the range 0<=x<=9223372036854775807"),
    (["replay", "--seed", SEED_MAX + 1], "is not in the range"),
    (["replay", "--deal", 2**70], "is not in the range 0<=x<=999999999999"),
    (["replay", "--deal", -1], "is not in the range"),
    (["agent", "--seed", 10**23], "is not in the range 0<=x<=9223372036854775807"),
    (["agent", "--seed", -1], "is not in the range"),
]


@pytest.mark.parametrize(
    ("args", "text"), SEED_ROWS, ids=[f"{args[0]}-{i}" for i, (args, _) in enumerate(SEED_ROWS)]
)
def test_seeds_and_deals_are_in_range(args, text):
    assert_one_line_error(run(*args, input=""), text)


def test_largest_seed_and_deal_replay():
    result = run("replay", "--seed", SEED_MAX, "--deal", 10**12 - 1, "--format", "json")
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------- bounded readers (8)


@pytest.mark.skipif(not Path(ZERO).exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["deadwood", "--file", ZERO], f"line 1 is longer than {MAX_LINE_CHARS:,} characters"),
        (["advise", "--position", ZERO], f"longer than {MAX_POSITION_CHARS:,} characters"),
        (["replay", "--position", ZERO], f"longer than {MAX_POSITION_CHARS:,} characters"),
    ],
)
def test_endless_files_are_refused_at_once(args, text):
    assert_one_line_error(run(*args), text)


def test_endless_standard_input_is_refused_at_once():
    """``deadwood --file -`` reading a pipe of NUL bytes (the CliRunner's stand-in for
    ``</dev/zero``; the real pipe is below)."""
    result = run("deadwood", "--file", "-", input="\0" * (4 * MAX_LINE_CHARS))
    assert_one_line_error(result, f"line 1 is longer than {MAX_LINE_CHARS:,} characters")


@pytest.mark.skipif(not Path(ZERO).exists(), reason="needs /dev/zero")
def test_dev_zero_on_standard_input_in_a_real_process():
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(ZERO, "rb") as zero:
        result = subprocess.run(
            [sys.executable, "-m", "analyzer", "deadwood", "--file", "-"],
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=60,
            env=environment,
            check=False,
        )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"Error: <stdin> line 1 is longer than {MAX_LINE_CHARS:,} characters"
    ]


def test_too_many_lines(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("# a comment\n" * (MAX_FILE_LINES + 1))
    assert_one_line_error(
        run("deadwood", "--file", hands), f"has more than {MAX_FILE_LINES:,} lines"
    )
    hands.write_text("# a comment\n" * (MAX_FILE_LINES - 1) + "As 2s 3s 7h 7d 7c Kd Qh 9c 4d\n")
    result = run("deadwood", "--file", hands)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].endswith(",33")


def test_long_line_in_the_middle(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"As 2s 3s 7h 7d 7c Kd Qh 9c 4d\n# {'x' * MAX_LINE_CHARS}\n")
    assert_one_line_error(
        run("deadwood", "--file", hands), f"line 2 is longer than {MAX_LINE_CHARS:,} characters"
    )


@pytest.mark.parametrize("command", ["advise", "replay"])
def test_deeply_nested_position_is_one_line(command, tmp_path):
    position = tmp_path / "pos.json"
    for text in ("[" * 60_000, "[" * 50 + "]" * 50, '{"hand": ' + "[" * 40 + "]" * 40 + "}"):
        position.write_text(text)
        assert_one_line_error(run(command, "--position", position), "nested more than 16 deep")


@pytest.mark.parametrize("command", ["advise", "replay"])
def test_position_files_that_are_not_text_or_too_big(command, tmp_path):
    position = tmp_path / "pos.json"
    position.write_bytes(bytes(range(128, 256)) * 4)
    assert_one_line_error(run(command, "--position", position), "is not UTF-8 text")
    position.write_text('{"hand": "' + " " * MAX_POSITION_CHARS + '"}')
    assert_one_line_error(
        run(command, "--position", position), f"longer than {MAX_POSITION_CHARS:,} characters"
    )
    position.write_text("1" * 5000)
    assert_one_line_error(run(command, "--position", position), "digits")


def test_position_file_with_a_deck_still_replays(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text('{"deck": "As 2s 3s 4s 7h 7d 7c Kd Qh 9c | | 5d"}')
    result = run("replay", "--position", position, "--format", "json")
    assert result.exit_code == 0, result.output


# -------------------------------------------------- a search stops within 0.5 s (3)

#: A search that would take minutes per decision: every sample rolls out every legal
#: action (up to 22) and the race never drops one before the budget is spent.
ENDLESS = "search,scope=all,budget=100000,min_samples=100000"


def interrupt_after(seconds):
    """Ctrl-C in this (the main) thread after ``seconds``."""

    def later():
        time.sleep(seconds)
        _thread.interrupt_main()

    threading.Thread(target=later, daemon=True).start()


def stops_on_ctrl_c(call):
    """``call()``, a search of minutes per decision, ends in a ``KeyboardInterrupt`` from a
    Ctrl-C sent 0.3 s after it starts (a search that did not look at the stop would end
    only after its whole budget).  Python's own SIGINT handler runs meanwhile: the command
    line's handler would also record the stop for later runs of this process."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt_after(0.3)
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_searches_stop_on_ctrl_c():
    from analyzer.gin.play.advisor import Position, advise
    from analyzer.gin.play.simulate import hand_rows, play_games, simulate

    small = parse_player("search,budget=8,rollout=basic")
    before = hand_rows(STANDARD, small, PRESETS["basic"], 3, 0, 2)  # compiled
    endless = parse_player(ENDLESS)
    stops_on_ctrl_c(lambda: simulate(STANDARD, endless, PRESETS["basic"], 4, seed=1))
    play_games(STANDARD, small, PRESETS["basic"], 1, seed=1)
    stops_on_ctrl_c(lambda: play_games(STANDARD, PRESETS["basic"], endless, 1, seed=1))
    position = Position.from_options("As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", stock=20)
    advise(position, opponent=small, samples=4, batch=4, seed=1)
    stops_on_ctrl_c(lambda: advise(position, opponent=endless, samples=8, batch=8, seed=1))
    # a stop leaves nothing behind: the same hands again
    assert (hand_rows(STANDARD, small, PRESETS["basic"], 3, 0, 2) == before).all()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.slow
def test_search_run_stops_on_a_signal_with_flat_memory(stop):
    """The issue's run: a searching ``simulate`` grew to 7.5 GB and ignored SIGTERM.  Now
    its largest budget keeps memory flat and a signal stops it promptly."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop(cluster.SCHEDULER_ENV, None)
    command = shlex.join(
        [
            sys.executable,
            "-m",
            "analyzer",
            "simulate",
            "--a",
            ENDLESS,
            "--deals",
            "2",
            "--json",
            "--no-progress",
        ]
    )
    warm_up = shlex.join(
        [
            sys.executable,
            "-m",
            "analyzer",
            "simulate",
            "--a",
            "search,budget=8,rollout=basic",
            "--deals",
            "2",
            "--no-progress",
        ]
    )
    # stopped by the signal, not by the run's end (it would never end)
    returncode, _, err, peak = signal_while_running(command, environment, stop, warm_up)
    assert returncode == 130, err
    assert "Traceback" not in err
    assert peak < 600
