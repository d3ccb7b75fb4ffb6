"""Bad input gives one-line errors; checkpoints resume; a stopped run stops cleanly (the
rows of the hardening table of issue 17).

Each hostile input must give a one-line ``Error: ...`` on stderr and exit status 2 within
2 s, or the documented behaviour.  Row 14 (the Python API) is in
``tests/gin/model/test_value_checks.py``.
"""

import json
import os
import shlex
import signal
import socket
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core import chunks, cluster

from .stopping import StopAfter, signal_while_running

ROOT = Path(__file__).resolve().parents[2]
HAND = "4c 5c 6c 7d 7h 7s 9s Ts Js Kd 2h"
ALL_CARDS = " ".join(f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_line_error(result, text):
    """Exit 2, one ``Error:`` line naming ``text`` on stderr, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert text in lines[0], lines[0]
    assert "Traceback" not in result.output


ROWS = [
    # (row, args, text of the error)
    (1, ["deadwood", ALL_CARDS], "52 cards, expected 10 or 11"),
    (1, ["deadwood", " ".join(ALL_CARDS.split()[:40])], "40 cards"),
    (2, ["simulate", "--deals", 10**12 + 1], "1000000000001 is not in the range"),
    (
        3,
        ["knock-sweep", "--deals", 10, "--games", 2, "--out", "/proc/x"],
        "cannot write to /proc/x",
    ),
    (3, ["tournament", "--out", "/proc/x"], "cannot write to /proc/x"),
    (3, ["report", "--quick", "--out", "/proc/x"], "cannot write to /proc/x"),
    (3, ["rummy", "study", "players", "--out", "/proc/x"], "cannot write to /proc/x"),
    (3, ["equity", "--out", "/proc/x"], "cannot write to /proc/x"),
    (3, ["simulate", "--deals", 10, "--raw", "/proc/x/r.parquet"], "cannot write to /proc/x"),
    (3, ["games", "--games", 2, "--raw", "/proc/x/r.parquet"], "cannot write to /proc/x"),
    (6, ["simulate", "--seed", 2**63], "0<=x<=9223372036854775807"),
    (6, ["simulate", "--set", "gin_bonus=1e20"], "bad value '1e20' for gin_bonus"),
    (6, ["simulate", "--a", "basic,slack=1e23"], "bad value '1e23' for slack"),
    (6, ["simulate", "--a", f"basic,slack={10**23}"], "slack must be 0-100"),
    (6, ["rummy", "simulate", "--set", f"turn_limit={10**30}"], "turn_limit must be 1-10000"),
    (
        6,
        ["rummy", "simulate", "--set", f"rummy_multiplier={10**30}"],
        "rummy_multiplier must be 1-10",
    ),
    (6, ["games", "--set", "target=100000"], "target must be 1-500"),
    (6, ["equity", "--set", "target=30000"], "target must be 1-500"),
    (6, ["tournament", "--policies", "basic,basic"], "names 'basic' twice"),
    (
        7,
        ["simulate", "--set", f"gin_bonus={2**62}", "--set", f"undercut_bonus={2**62}"],
        "gin_bonus must be 0-1000",
    ),
    (9, ["deadwood", ""], "0 cards, expected 10 or 11"),
    (9, ["deadwood", "   "], "0 cards, expected 10 or 11"),
    (9, ["deadwood", "As 2s 3s 4s 5s 6s 7s 8s 9s"], "9 cards, expected 10 or 11"),
    (9, ["deadwood", "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"], "12 cards"),
    (9, ["deadwood"], "give a HAND (10 or 11 cards) or --file FILE"),
    (10, ["simulate", "--a", "basic,norepeat=maybe"], "'maybe' for norepeat"),
    (10, ["games", "--players", 2, "--policies", "basic,simple,basic"], "policies is for 3 or 4"),
    (10, ["variants", "--presets", ""], "--presets is empty"),
    (11, ["simulate", "--seed", -1], "-1 is not in the range 0<=x<=9223372036854775807"),
    (11, ["games", "--seed", -1], "-1 is not in the range"),
    (11, ["knock-sweep", "--seed", -1], "-1 is not in the range"),
    (11, ["equity", "--seed", -1], "-1 is not in the range"),
    (11, ["advise", "--hand", HAND, "--seed", -1], "-1 is not in the range"),
    (11, ["report", "--seed", -1], "-1 is not in the range"),
    (11, ["exact", "--seed", -1], "-1 is not in the range"),
    (11, ["rummy", "simulate", "--seed", -1], "-1 is not in the range 0<=x<=9223372036854775807"),
    (11, ["rummy", "study", "players", "--seed", 2**63], "0<=x<=9223372036854775807"),
    (12, ["advise", "--hand", HAND, "--score", "150:20"], "score 150:20 already reaches"),
    (12, ["advise", "--hand", HAND, "--stock", 25, "--turn", 99], "turn 99 does not fit"),
    (12, ["advise", "--hand", HAND, "--samples", 10**7], "10000000 is not in the range"),
    (12, ["advise", "--hand", HAND, "--temperature", "nan"], "'nan' is not a finite number"),
    (12, ["advise", "--hand", HAND, "--tolerance", "inf"], "'inf' is not a finite number"),
    (6, ["variants", "--deals", 10**7], "10000000 is not in the range 2<=x<=5000000"),
    (6, ["games", "--players", 3, "--games", 2_000_000], "at most 1,000,000 games"),
    (6, ["dealt", "--deals", 10**13], "not in the range 1<=x<=1000000000000"),
]


@pytest.mark.parametrize(
    ("row", "args", "text"),
    ROWS,
    ids=[f"row{row}-{args[0]}-{i}" for i, (row, args, _) in enumerate(ROWS)],
)
def test_table_rows_give_one_line_errors(row, args, text, tmp_path):
    assert_one_line_error(run(*args), text)
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_row4_from_pile_string_is_refused(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(
        json.dumps({"hand": HAND[:-3], "drawn": "2h", "from_pile": "false", "stock": 20})
    )
    result = run("advise", "--position", position, "--samples", 10)
    assert_one_line_error(result, "from_pile must be true or false, got 'false'")


@contextmanager
def silent_server():
    """A TCP server that accepts connections and never says a word."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    stop = threading.Event()

    def serve():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        server.close()


def test_row5_silent_server_is_no_scheduler():
    pytest.importorskip("distributed")
    with silent_server() as port:
        result = run("simulate", "--deals", 10, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert_one_line_error(result, "is not a Dask scheduler")


def test_row6_binary_file_and_bom(tmp_path):
    binary = tmp_path / "hands.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    assert_one_line_error(run("deadwood", "--file", binary), "line 1: not UTF-8 text")
    with_bom = tmp_path / "bom.txt"
    with_bom.write_bytes("\ufeffAs 2s 3s 7h 7d 7c Kd Qh 9c 4d\n".encode())
    result = run("deadwood", "--file", with_bom)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].endswith(",33")


def test_row6_equity_to_one_point_writes_its_chart(tmp_path):
    """Documented behaviour: a game to 1 point is solved (the first hand decides it)."""
    result = run(
        "equity",
        "--deals",
        100,
        "--set",
        "target=1",
        "--out",
        "eq",
        "--no-progress",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["win_if_a_deals_first"] >= 0
    assert {p.suffix for p in (tmp_path / "eq").iterdir()} >= {".csv", ".png"}


def test_row9_file_with_json_lists_every_hand(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("As 2s 3s 7h 7d 7c Kd Qh 9c 4d\n# comment\n" + HAND + "\n")
    result = run("deadwood", "--file", hands, "--json")
    assert result.exit_code == 0
    assert [entry["deadwood"] for entry in json.loads(result.stdout)] == [33, 12]


def test_row9_file_line_with_a_bad_size(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("As 2s 3s 7h 7d 7c Kd Qh 9c 4d\nAs 2s\n")
    assert_one_line_error(run("deadwood", "--file", hands), "line 2: wrong hand size: 2 cards")


def test_row13_failed_report_leaves_nothing(tmp_path, monkeypatch):
    from analyzer.report import build
    from analyzer.report.common import Entry, Section
    from analyzer.studies.files import write_text

    def writes_then_stops(entry, config):  # through the report's writers, as every entry
        write_text(config.out / entry.folder / "dealt.csv", "partial")
        raise KeyboardInterrupt

    section = Section("dealt", "Dealt hands", (Entry("dealt", "dealt"),), lambda found, c: "")
    monkeypatch.setattr(build, "SECTIONS", (section,))
    monkeypatch.setattr(build, "BOXES", ())
    monkeypatch.setattr(build, "run_entry", writes_then_stops)
    result = run("report", "--out", "fresh/report", "--no-progress")
    assert result.exit_code == 130
    assert list(tmp_path.iterdir()) == []
    # in a folder that existed, only the files this run made go
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "keep.md").write_text("kept")
    result = run("report", "--out", "old", "--no-progress")
    assert result.exit_code == 130
    assert [p.name for p in (tmp_path / "old").rglob("*")] == ["keep.md"]


def test_raw_too_big_for_memory_is_refused():
    assert_one_line_error(
        run("simulate", "--deals", 10**9, "--raw", "r.parquet"), "--raw keeps every row in memory"
    )


def test_ranges_are_in_help():
    simulate_help = run("simulate", "--help").stdout
    for text in (
        "0<=x<=9223372036854775807",
        "1<=x<=1000000000000",
        "target 1-500",
        "gin_bonus 0-1000",
        "slack, learned_window and take_points 0-100",
    ):
        assert text in " ".join(simulate_help.split())
    assert "0 <= seed < 2**63" in " ".join(run("rummy", "simulate", "--help").stdout.split())


# --------------------------------------------------------------- interruption (row 8)


def test_row8_interrupted_simulate_json_is_marked(monkeypatch):
    from analyzer.cli import study_commands

    monkeypatch.setattr(study_commands, "progress_bar", StopAfter(1))
    result = run("simulate", "--deals", 32_769, "--json", "--seed", 3)
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["interrupted"] is True
    assert (data["deals"], data["requested_deals"]) == (32_768, 32_769)
    assert result.stderr.strip() == "Error: interrupted"


def test_knock_sweep_resumed_from_checkpoint_is_byte_identical(tmp_path, monkeypatch):
    """The bar of issue 17: interrupt (a hook stops it after its first plan), resume."""
    from analyzer.cli import study_commands as studies

    args = [
        "knock-sweep",
        "--deals",
        300,
        "--games",
        30,
        "--seed",
        4,
        "--format",
        "csv",
        "--no-progress",
    ]
    whole = run(*args)
    assert whole.exit_code == 0
    original = studies.progress_bar
    monkeypatch.setattr(studies, "progress_bar", StopAfter(1))
    stopped = run(*args, "--checkpoint", "sweep.json")
    assert stopped.exit_code == 130
    assert "progress saved in sweep.json, continue with --resume" in stopped.stderr
    assert len(json.loads((tmp_path / "sweep.json").read_text())["stages"]) == 1
    monkeypatch.setattr(studies, "progress_bar", original)
    resumed = run(*args, "--checkpoint", "sweep.json", "--resume")
    assert resumed.exit_code == 0
    assert resumed.stdout == whole.stdout


def test_checkpoint_misuse_is_one_line(tmp_path):
    args = ["knock-sweep", "--deals", 300, "--games", 30, "--no-progress"]
    assert_one_line_error(run(*args, "--resume"), "--resume needs --checkpoint FILE")
    assert_one_line_error(
        run(*args, "--checkpoint", "none.json", "--resume"), "no checkpoint to resume at none.json"
    )
    (tmp_path / "old.json").write_text("{}")
    assert_one_line_error(run(*args, "--checkpoint", "old.json"), "old.json exists")
    assert_one_line_error(
        run(*args, "--checkpoint", "old.json", "--resume"), "not a checkpoint file"
    )
    assert_one_line_error(
        run("simulate", "--raw", "r.parquet", "--checkpoint", "c.json"),
        "--raw and --checkpoint do not mix",
    )


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.slow
def test_trillion_deals_start_at_once_and_stop_cleanly(stop):
    """Rows 2 and 8 in a real process: flat memory, a progress bar, and a signal stops the
    run within a second with the partial JSON marked as interrupted.  The process starts
    with SIGINT ignored, as a shell's background job (or anything it starts) does: a
    `kill -INT` must stop it all the same."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "ANALYZER_PROGRESS": "always"}
    environment.pop(cluster.SCHEDULER_ENV, None)
    command = shlex.join(
        [sys.executable, "-m", "analyzer", "simulate", "--deals", str(10**12), "--json"]
    )
    warm_up = shlex.join([sys.executable, "-m", "analyzer", "simulate", "--deals", "1000"])
    returncode, out, err, peak = signal_while_running(
        command, environment, stop, warm_up, ready="1.00T"
    )
    assert returncode == 130, err
    assert peak < 500
    data = json.loads(out)
    assert data["interrupted"] is True and data["requested_deals"] == 10**12
    assert data["deals"] % 32_768 == 0
    assert "1.00T" in err and "Error: interrupted" in err  # the progress bar's total


@pytest.mark.slow
def test_report_resumed_from_checkpoint_writes_the_same_tables(tmp_path, monkeypatch):
    """The report per study: stopped after two chunks (a hook in the chunk loops), it
    leaves no files; resumed, it writes the tables of an uninterrupted run."""
    args = ["report", "--quick", "--only", "sweep", "--no-progress"]
    assert run(*args, "--out", "whole").exit_code == 0
    original = chunks._results_in_process

    def two_chunks_then_stop(plan, start):
        for item in original(plan, start):
            arrived.append(item)
            if len(arrived) == 3:
                raise KeyboardInterrupt
            yield item

    arrived = []

    monkeypatch.setattr(chunks, "_results_in_process", two_chunks_then_stop)
    stopped = run(*args, "--out", "again", "--checkpoint", "report.json")
    assert stopped.exit_code == 130
    assert not (tmp_path / "again").exists()
    stages = json.loads((tmp_path / "report.json").read_text())["stages"]
    assert sum(stage["chunks"] for stage in stages.values()) == 2
    monkeypatch.setattr(chunks, "_results_in_process", original)
    resumed = run(*args, "--out", "again", "--checkpoint", "report.json", "--resume")
    assert resumed.exit_code == 0, resumed.output
    tables = sorted(p.relative_to(tmp_path / "whole") for p in (tmp_path / "whole").rglob("*.csv"))
    assert tables == sorted(
        p.relative_to(tmp_path / "again") for p in (tmp_path / "again").rglob("*.csv")
    )
    for table in tables:
        assert (tmp_path / "again" / table).read_bytes() == (
            tmp_path / "whole" / table
        ).read_bytes()


def test_interrupted_games_exit_130(monkeypatch):
    def stop_at_once(plan, start):
        raise KeyboardInterrupt
        yield  # a generator, like the real one

    monkeypatch.setattr(chunks, "_results_in_process", stop_at_once)
    result = run("games", "--games", 10, "--json")
    assert result.exit_code == 130
    assert result.stderr.strip() == "Error: interrupted"


def test_the_tournament_commands_default_field_is_the_reports():
    from analyzer.cli.study_commands import tournament_command
    from analyzer.gin.studies.round_robin import default_field

    (policies,) = [p for p in tournament_command.params if p.name == "policies"]
    assert ",".join(default_field()) == policies.default
