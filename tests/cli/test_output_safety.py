"""Output safety: a run removes only what it made, writes every file whole, reports a
stop it was given (also one that was swallowed), trusts no checkpoint, and ends every
failure to write with one ``Error:`` line.

The runs that need a real process (signals, SIGKILL, a file-size limit, /dev/full) start
``python -c`` drivers that put a stand-in for the numba work in place, so that each takes
seconds and the OS side is real: the signal, the kill, the ``EFBIG`` of a full disk.
"""

import ctypes
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core import chunks, cluster
from analyzer.studies import files
from analyzer.studies.files import (
    make_folder,
    removed_on_failure,
    staged_folder,
    write_bytes,
    write_text,
    write_together,
    write_with,
)
from analyzer.studies.study import DEFAULT_SEED

from .stopping import StopAfter, signal_while_running

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_line_error(result, text):
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert text in lines[0], lines[0]


def environment():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(cluster.SCHEDULER_ENV, None)
    return env


def start(code, *args, **kwargs):
    """A ``python -c code args`` process in the test's folder."""
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        **kwargs,
    )


def wait_for_line(stream, text, timeout):
    """Read ``stream`` until a line holds ``text``; fail after ``timeout`` seconds."""
    seen = []

    def read():
        for line in stream:
            seen.append(line)
            if text in line:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    assert any(text in line for line in seen), f"no {text!r} within {timeout} s: {seen}"


def files_under(folder):
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob("*"))


# ------------------------------------------------------ item 1: only what the run made

#: ``analyzer report`` with one stand-in section that writes through the report's
#: writers, says so, and waits for the signal.
SLOW_REPORT = """
    import sys, time
    from analyzer.report import build
    from analyzer.report.common import Entry, Section
    from analyzer.studies.files import write_csv, write_text
    import pandas as pd

    def slow_entry(entry, config):
        folder = config.out / entry.folder
        write_csv(folder / "sweep.csv", pd.DataFrame({"threshold": range(11)}), index=False)
        write_text(folder / "meta.json", "{}")
        print("written", flush=True)
        time.sleep(120)

    entry = Entry("knock-sweep", "knock_sweep")
    build.SECTIONS = (Section("sweep", "Sweep", (entry,), lambda found, config: ""),)
    build.BOXES = ()
    build.run_entry = slow_entry
    from analyzer.cli.main import cli
    cli(sys.argv[1:], prog_name="analyzer")
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_report_keeps_the_files_another_program_wrote(tmp_path, stop):
    """The issue's case: `report --out shared`, a user's file appears in `shared` (and
    one in a folder the run writes to), then Ctrl-C or SIGTERM: only the run's files go."""
    (tmp_path / "shared").mkdir()
    process = start(SLOW_REPORT, "report", "--out", "shared", "--no-progress")
    try:
        wait_for_line(process.stdout, "written", 120)
        (tmp_path / "shared" / "user_notes.txt").write_text("notes\n")
        (tmp_path / "shared" / "knock_sweep").mkdir()
        (tmp_path / "shared" / "knock_sweep" / "mine.txt").write_text("mine\n")
        process.send_signal(stop)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert err.strip() == "Error: interrupted"
    assert files_under(tmp_path / "shared") == [
        "knock_sweep",
        "knock_sweep/mine.txt",
        "user_notes.txt",
    ]
    assert (tmp_path / "shared" / "user_notes.txt").read_text() == "notes\n"


def test_a_stopped_report_in_a_new_folder_leaves_nothing(tmp_path):
    process = start(SLOW_REPORT, "report", "--out", "new/report", "--no-progress")
    try:
        wait_for_line(process.stdout, "written", 120)
        assert not (tmp_path / "new" / "report").exists()  # staged until the run is done
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_another_run_wrote_anew_stays(tmp_path):
    """A second run that finished meanwhile replaced one of this run's files (with its
    own, under a new inode): this run's failure leaves that file alone."""
    shared = tmp_path / "sweep.csv"
    recorded = []

    def first_run():
        with removed_on_failure() as files:
            write_text(shared, "first run")
            write_text(tmp_path / "meta.json", "first run")
            second = tmp_path / ".second.tmp"
            second.write_text("second run")
            os.replace(second, shared)  # how the other run's writer publishes its file
            recorded.extend(files.paths)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        first_run()
    assert recorded == [shared, tmp_path / "meta.json"]
    assert shared.read_text() == "second run"
    assert files_under(tmp_path) == ["sweep.csv"]


def test_a_file_of_the_run_that_another_program_wrote_into_stays(tmp_path):
    """Written to in place (same inode, new size and time): no longer only the run's."""

    def failing_run():
        with removed_on_failure():
            write_text(tmp_path / "log.txt", "the run's line\n")
            time.sleep(0.01)  # a later time stamp, as any later write has
            with open(tmp_path / "log.txt", "a") as log:
                log.write("another program's line\n")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        failing_run()
    assert (tmp_path / "log.txt").read_text().endswith("another program's line\n")


def test_a_failed_run_keeps_the_files_it_overwrote_and_what_existed(tmp_path):
    (tmp_path / "old.csv").write_text("old")
    (tmp_path / "kept").mkdir()

    def failing_run():
        with removed_on_failure():
            write_text(tmp_path / "old.csv", "new")
            write_text(tmp_path / "kept" / "made.csv", "made")
            make_folder(tmp_path / "a" / "b")
            raise RuntimeError("the study failed")

    with pytest.raises(RuntimeError, match="the study failed"):
        failing_run()
    assert files_under(tmp_path) == ["kept", "old.csv"]
    assert (tmp_path / "old.csv").read_text() == "new"


def test_an_inner_block_that_succeeded_is_undone_with_the_outer_one(tmp_path):
    inner_done = []

    def outer_run():
        with removed_on_failure():
            with removed_on_failure():
                write_text(tmp_path / "out" / "table.csv", "done")
            inner_done.append((tmp_path / "out" / "table.csv").exists())
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        outer_run()
    assert inner_done == [True]
    assert list(tmp_path.iterdir()) == []


def test_a_successful_block_keeps_everything(tmp_path):
    with removed_on_failure():
        write_text(tmp_path / "out" / "table.csv", "done")
    assert files_under(tmp_path) == ["out", "out/table.csv"]


# --------------------------------------------------------- item 2: whole files only


def test_a_write_that_fails_part_way_leaves_no_file(tmp_path):
    (tmp_path / "chart.png").write_bytes(b"old chart")

    def fails(temporary):
        temporary.write_bytes(b"half a chart")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left") as caught:
        write_with(tmp_path / "chart.png", fails)
    assert caught.value.filename == str(tmp_path / "chart.png")  # the name the user knows
    assert (tmp_path / "chart.png").read_bytes() == b"old chart"
    assert files_under(tmp_path) == ["chart.png"]


def test_files_written_together_are_all_or_none(tmp_path, monkeypatch):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "sweep.csv").write_text("old table")
    opened = []

    def second_fails(path, mode):
        opened.append(path)
        if len(opened) == 2:
            raise OSError(28, "No space left on device")
        return open(path, mode)

    monkeypatch.setattr(files, "open", second_fails, raising=False)
    with pytest.raises(OSError, match="No space left") as caught:
        write_together(tmp_path / "out", {"sweep.csv": b"new table", "sweep.png": b"png"})
    assert caught.value.filename == str(tmp_path / "out" / "sweep.png")
    assert files_under(tmp_path) == ["out", "out/sweep.csv"]
    assert (tmp_path / "out" / "sweep.csv").read_text() == "old table"


def test_files_are_made_with_the_usual_permissions(tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    path = write_bytes(tmp_path / "table.csv", b"a\n")
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_sigkill_mid_write_leaves_the_old_file_or_none(tmp_path):
    """SIGKILL once left 0-byte sweep.csv, sweep.png and knock_chart.csv."""
    (tmp_path / "sweep.csv").write_text("old table")
    process = start(
        """
        import sys, time
        from analyzer.studies.files import write_with

        def produce(temporary):
            temporary.write_bytes(b"part of a table")
            print("writing", flush=True)
            time.sleep(120)

        write_with(sys.argv[1], produce)
        write_with(sys.argv[2], produce)
    """,
        "sweep.csv",
        "sweep.png",
        cwd=tmp_path,
    )
    try:
        wait_for_line(process.stdout, "writing", 60)
        process.kill()
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert (tmp_path / "sweep.csv").read_text() == "old table"
    assert not (tmp_path / "sweep.png").exists()


#: A driver that limits the size of every file it writes (the way a full disk stops a
#: write, with EFBIG instead of ENOSPC), then runs the command line.
LIMITED = """
    import os, resource, signal, sys
    # matplotlib's one-time font cache, written before the disk fills into a folder of the
    # test's own (not the home's, which other runs share): the run under test is the
    # analyzer's writing, not matplotlib's setup
    os.environ["MPLCONFIGDIR"] = os.path.abspath("matplotlib-config")
    import matplotlib.font_manager
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, as a full disk's ENOSPC
    resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, 30_000))
    {setup}
    from analyzer.cli.main import cli
    cli(sys.argv[1:], prog_name="analyzer")
"""

FAKE_DEALT = """
    import numpy as np, pandas as pd
    from analyzer.gin.studies import dealing

    def dealt_hands(deals, seed, progress=None):  # a stand-in for the kernel
        frames = []
        for cards in (10, 11):
            probability = np.exp(-0.5 * ((np.arange(101) - 40 - cards) / 12) ** 2)
            probability /= probability.sum()
            frames.append(pd.DataFrame({"cards": cards, "deadwood": np.arange(101),
                                        "count": (probability * deals).astype(int),
                                        "probability": probability,
                                        "cumulative": np.cumsum(probability),
                                        "se": 0.001}))
        return pd.concat(frames, ignore_index=True)

    dealing.dealt_hands = dealt_hands
"""

FAKE_SECTION = """
    import pandas as pd
    from analyzer.report import build
    from analyzer.report.common import Entry, Section
    from analyzer.studies.files import write_bytes, write_csv

    def entry_files(entry, config):  # a table, then a chart larger than the disk holds
        folder = config.out / entry.folder
        write_csv(folder / "sweep.csv", pd.DataFrame({"threshold": range(11)}), index=False)
        write_bytes(folder / "sweep.png", bytes(100_000))

    entry = Entry("knock-sweep", "knock_sweep")
    build.SECTIONS = (Section("sweep", "Sweep", (entry,), lambda found, config: ""),)
    build.BOXES = ()
    build.run_entry = entry_files
"""


@pytest.mark.parametrize(
    ("setup", "args", "written"),
    [
        (FAKE_DEALT, ["dealt", "--deals", 1000, "--out", "out"], "out/dealt.png"),
        (FAKE_SECTION, ["report", "--out", "out", "--no-progress"], "out/knock_sweep/sweep.png"),
    ],
    ids=["dealt", "report"],
)
def test_a_full_disk_is_one_line_and_leaves_no_files(tmp_path, setup, args, written):
    """A full disk once gave a 71-75-line traceback and left the CSV without its PNG."""
    code = LIMITED.format(setup=textwrap.indent(textwrap.dedent(setup), "    ").strip())
    process = start(code, *args, cwd=tmp_path)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    assert err.splitlines() == [f"Error: {written}: File too large"]
    assert not (tmp_path / "out").exists()


def test_an_unwritable_stdout_is_one_line():
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "analyzer", "rules"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
            timeout=120,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "Error: cannot write the output: No space left on device\n"


def test_a_closed_pipe_ends_quietly():
    reader = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.readline()"], stdin=subprocess.PIPE
    )
    writer = subprocess.run(  # the reader takes one line and goes, as `| head -1` does
        [sys.executable, "-m", "analyzer", "policies"],
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        timeout=120,
        check=False,
    )
    reader.stdin.close()
    reader.wait(timeout=30)
    assert writer.returncode in (0, 1)
    assert "Traceback" not in writer.stderr and "Exception ignored" not in writer.stderr


# ------------------------------------------------ item 4: rummy simulate when stopped


CHUNK = 1 << 14  # analyzer.rummy.simulate.DEFAULT_CHUNK


def test_stopped_rummy_simulate_is_marked_partial(monkeypatch, tmp_path):
    from analyzer.cli import study_commands as rummy

    monkeypatch.setattr(rummy, "progress_bar", StopAfter(2))
    result = run("rummy", "simulate", "--deals", 3 * CHUNK, "--json", "--seed", 4, "--out", "out")
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["interrupted"] is True
    assert (data["deals"], data["requested_deals"]) == (2 * CHUNK, 3 * CHUNK)
    assert result.stderr.strip() == "Error: interrupted"
    assert not (tmp_path / "out").exists()  # a partial run writes no files
    monkeypatch.setattr(rummy, "progress_bar", StopAfter(1))
    table = run("rummy", "simulate", "--deals", 3 * CHUNK, "--seed", 4)
    assert table.exit_code == 130
    assert f"{CHUNK:,} deals · seed 4" in table.stdout.splitlines()[0]
    assert table.stderr.strip() == "Error: interrupted"


@pytest.mark.slow
def test_stopped_rummy_games_are_marked_partial(monkeypatch):
    from analyzer.cli import study_commands as rummy

    monkeypatch.setattr(rummy, "progress_bar", StopAfter(1))
    result = run("rummy", "games", "--games", 5000, "--json")
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["requested_games"] == 5000
    assert 0 < data["games"] < 5000


def test_rummy_simulate_stopped_before_its_first_chunk(monkeypatch):
    def stop_at_once(plan, start):
        raise KeyboardInterrupt
        yield  # a generator, like the real one

    monkeypatch.setattr(chunks, "_results_in_process", stop_at_once)
    result = run("rummy", "simulate", "--deals", 100, "--json")
    assert result.exit_code == 130
    assert json.loads(result.stdout) == {
        "deals": 0,
        "interrupted": True,
        "requested_deals": 100,
        "seed": DEFAULT_SEED,
    }


@pytest.mark.slow
def test_rummy_simulate_sigint_exits_130_with_the_hands_finished():
    """The issue's case in a real process: `rummy simulate --deals 1000000000`, SIGINT
    once it has made progress, used to exit 0 with an unmarked table."""
    command = shlex.join(
        [sys.executable, "-m", "analyzer", "rummy", "simulate", "--deals", str(10**9), "--json"]
    )
    warm_up = shlex.join([sys.executable, "-m", "analyzer", "rummy", "simulate", "--deals", "100"])
    # the bar shows its total once a chunk has finished after 2 s (kernels load first)
    returncode, out, err, _ = signal_while_running(
        command,
        {**environment(), "ANALYZER_PROGRESS": "always"},
        signal.SIGINT,
        warm_up,
        ready="1.00G",
    )
    assert returncode == 130
    data = json.loads(out)
    assert data["interrupted"] is True and data["requested_deals"] == 10**9
    assert data["deals"] > 0 and data["deals"] % CHUNK == 0
    assert err.rstrip().endswith("Error: interrupted")


# -------------------------------------------- item 7: a Ctrl-C that numba swallowed


def swallowed_interrupt(seen):
    """Send this process SIGINT from inside a ctypes callback, where the
    KeyboardInterrupt it raises is printed as "Exception ignored" and dropped (as in
    numba's first compile).  ``seen`` collects the dropped exceptions."""

    @ctypes.CFUNCTYPE(None)
    def callback():
        os.kill(os.getpid(), signal.SIGINT)

    callback()
    assert any(isinstance(event.exc_value, KeyboardInterrupt) for event in seen), seen


def test_a_swallowed_ctrl_c_still_stops_the_run(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    original = chunks._results_in_process

    def swallowing_on_the_first_chunk(plan, start):
        for index, item in enumerate(original(plan, start)):
            if index == 0:
                swallowed_interrupt(seen)
            yield item

    monkeypatch.setattr(chunks, "_results_in_process", swallowing_on_the_first_chunk)
    result = run("simulate", "--deals", 3 * 32_768, "--json", "--seed", 5)
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["deals"] == 32_768
    assert result.stderr.strip() == "Error: interrupted"


def test_a_swallowed_ctrl_c_in_a_command_without_chunks_exits_130(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)

    def command():
        swallowed_interrupt(seen)
        click.echo("finished")

    monkeypatch.setitem(cli.commands, "swallow", click.Command("swallow", callback=command))
    result = run("swallow")
    assert result.exit_code == 130
    assert result.stderr.strip() == "Error: interrupted"
    assert run("swallow").exit_code == 130  # each run starts with a clean record
    monkeypatch.setitem(cli.commands, "quiet", click.Command("quiet", callback=lambda: None))
    assert run("quiet").exit_code == 0


# ------------------------------------------------------- item 9: checkpoints checked

SIMULATE = ["simulate", "--deals", 40_000, "--seed", 2, "--json", "--no-progress"]


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory):
    """The checkpoint of a whole run (2 chunks of 32,768 deals) and that run's output."""
    path = tmp_path_factory.mktemp("checkpoint") / "run.json"
    whole = run(*SIMULATE, "--checkpoint", path)
    assert whole.exit_code == 0, whole.output
    return path.read_text(), json.loads(whole.stdout)


@pytest.fixture
def finished_checkpoint(tmp_path, whole_run):
    text, output = whole_run
    (tmp_path / "run.json").write_text(text)
    return tmp_path / "run.json", output


def edited(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def only_stage(data):
    (stage,) = data["stages"].values()
    return stage


EDITS = {
    "chunks 0, units kept": (
        lambda d: only_stage(d).update(chunks=0),
        "units is 40,000, but 0 chunks hold 0",
    ),
    "stages a string": (
        lambda d: d.update(stages="x"),
        "field 'stages' must be an object, got \"x\"",
    ),
    "no value": (lambda d: only_stage(d).pop("value"), "has no field 'value'"),
    "value a string": (
        lambda d: only_stage(d).update(value="x"),
        ".value must be a list of 2 parts",
    ),
    "chunks a flag": (
        lambda d: only_stage(d).update(chunks=True),
        ".chunks must be a whole number >= 0, got true",
    ),
    "units negative": (
        lambda d: only_stage(d).update(units=-5),
        ".units must be a whole number >= 0, got -5",
    ),
    "too many chunks": (
        lambda d: only_stage(d).update(chunks=99),
        ".chunks is 99, but the run has 2 chunks",
    ),
    "float unreadable": (
        lambda d: only_stage(d)["value"]["tuple"][0]["dict"][0].__setitem__(1, {"float": "zz"}),
        ".value cannot be read",
    ),
}


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_a_damaged_checkpoint_is_one_line(finished_checkpoint, edit):
    path, _ = finished_checkpoint
    change, text = EDITS[edit]
    edited(path, change)
    result = run(*SIMULATE, "--checkpoint", "run.json", "--resume")
    assert_one_line_error(result, text)
    assert "checkpoint run.json is damaged" in result.stderr
    assert result.stdout == ""


def test_an_intact_checkpoint_resumes_to_the_same_result(finished_checkpoint):
    _, whole = finished_checkpoint
    resumed = run(*SIMULATE, "--checkpoint", "run.json", "--resume")
    assert resumed.exit_code == 0
    data = json.loads(resumed.stdout)
    assert data["points_per_hand"] == whole["points_per_hand"] and data["deals"] == 40_000


def test_a_checkpoint_in_a_new_folder_is_made_like_out(tmp_path):
    result = run("simulate", "--deals", 100, "--no-progress", "--checkpoint", "new/deeper/run.json")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "new" / "deeper" / "run.json").read_text())["stages"]


# ------------------------------------------------------- item 13: an empty --out


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--quick"],
        ["knock-sweep"],
        ["knock-chart"],
        ["dealt"],
        ["equity"],
        ["exact"],
        ["rummy", "study", "players"],
        ["rummy", "simulate"],
        ["equilibrium"],
        ["panel-equilibrium"],
    ],
    ids=lambda args: "-".join(args),
)
def test_an_empty_out_is_refused(args, tmp_path):
    for empty in ("", "  "):
        assert_one_line_error(run(*args, "--out", empty), "is empty: give a folder name")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------ item 10: Ctrl-C in the first second


def test_the_command_line_loads_without_numpy_or_numba():
    """What makes Ctrl-C at start one line: the entry point and the package import
    nothing heavy, so the handlers are in place before numpy and numba load."""
    code = (
        "import sys, analyzer.cli.main; "
        "print(sorted({'numpy', 'numba', 'pandas'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("delay", [0.2, 0.45, 0.7, 1.0])
def test_ctrl_c_in_the_first_second_is_one_line(delay):
    """Ctrl-C while Python loads the command line, numpy and numba (a traceback before)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "simulate", "--deals", str(10**12), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=600)
    assert process.returncode == 130, err
    assert err.splitlines() == ["Error: interrupted"]
    assert out == "" or json.loads(out)["interrupted"] is True


# ---------------------------- issue 33: an output folder changes all at once or not at all


def tree(folder):
    """Every folder (None) and file (its bytes) under ``folder``, by relative path; a
    manifest as the files it names with their SHA-256 (its run's id is new each run: the
    manifests of one folder tree must all name the same run)."""
    folder = Path(folder)
    found, runs = {}, set()
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_dir():
            found[name] = None
        elif path.name == files.MANIFEST:
            manifest = json.loads(path.read_bytes())
            runs.add(manifest["run"])
            found[name] = manifest["files"]
        else:
            found[name] = path.read_bytes()
    assert len(runs) <= 1, f"manifests of several runs: {runs}"
    return found


def earlier_output(tmp_path):
    """An output folder as an earlier run left it, with a file of the user's."""
    out = tmp_path / "out"
    (out / "sweep").mkdir(parents=True)
    (out / "README.md").write_text("old report\n")
    (out / "sweep" / "sweep.csv").write_text("old table\n")
    (out / "notes.txt").write_text("the user's notes\n")
    return out


#: The files a run over ``out`` writes (two replace the earlier run's, one is new).
NEW_RUN = {
    "README.md": b"new report\n",
    "sweep/sweep.csv": b"new table\n",
    "dealt/dealt.csv": b"new section\n",
}


def write_new_run(out):
    for name, data in NEW_RUN.items():
        write_bytes(out / name, data)


def new_tree(before, more=None):
    """``before`` once the new run (:data:`NEW_RUN` and the files ``more``) has moved in:
    each folder it wrote into has a manifest naming the run's files there."""
    written = {**NEW_RUN, **(more or {})}
    manifests = {}
    for name, data in written.items():
        folder, _, file = name.rpartition("/")
        manifest = f"{folder}/{files.MANIFEST}" if folder else files.MANIFEST
        manifests.setdefault(manifest, {})[file] = files.file_hash(data)
    return {**before, "dealt": None, **written, **manifests}


STAGING = re.compile(r"\.out\.analyzer-run-[0-9a-f]{12}")


def test_a_staged_folder_changes_only_at_the_end_of_its_block(tmp_path):
    out = earlier_output(tmp_path)
    before = tree(out)
    with staged_folder(out):
        write_new_run(out)
        write_together(out / "sweep", {"sweep.png": b"chart"})  # joins the block
        assert tree(out) == before
        (staging,) = [path.name for path in tmp_path.iterdir() if path != out]
        assert STAGING.fullmatch(staging)
    assert tree(out) == new_tree(before, {"sweep/sweep.png": b"chart"})
    assert os.listdir(tmp_path) == ["out"]  # the staging folder went with the block


FAILURES = [KeyboardInterrupt(), OSError(28, "No space left on device"), SystemExit(2)]


@pytest.mark.parametrize("failure", FAILURES, ids=lambda failure: type(failure).__name__)
def test_a_failed_block_leaves_the_folder_as_it_was(tmp_path, failure):
    out = earlier_output(tmp_path)
    before = tree(out)

    def failing_run(folder):
        with staged_folder(folder):
            write_new_run(folder)
            raise failure

    with pytest.raises(type(failure)):
        failing_run(out)
    assert tree(out) == before
    with pytest.raises(type(failure)):
        failing_run(tmp_path / "new" / "deeper" / "out")
    assert os.listdir(tmp_path) == ["out"]  # neither the folders made for it nor a staging


def test_a_checkpoint_in_the_folder_is_written_at_once_and_kept(tmp_path):
    out = earlier_output(tmp_path)
    seen = []

    def stopped_run():
        with staged_folder(out):
            write_new_run(out)
            write_bytes(out / "run.json", b"{}", track=False)
            seen.append((out / "run.json").read_bytes())
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        stopped_run()
    assert seen == [b"{}"]
    assert tree(out)["run.json"] == b"{}" and tree(out)["README.md"] == b"old report\n"


#: What :func:`write_new_run` does to ``out`` when it is moved in: two renames for each
#: file it replaces (the old one aside, the new one in), one for its new file and one for
#: each of the three folders' new manifest, and a folder made (``dealt``).
STEPS = [("replace", step) for step in range(1, 9)]


@pytest.mark.parametrize("step", [*STEPS, ("mkdir", 1)], ids=lambda step: f"{step[0]}{step[1]}")
@pytest.mark.parametrize("failure", FAILURES[:2], ids=lambda failure: type(failure).__name__)
def test_a_failure_while_moving_in_puts_every_file_back(tmp_path, monkeypatch, step, failure):
    """A full disk (a folder that cannot be made, a rename that needs a new block of its
    folder) or a stop at any step of the move: the folder as it was."""
    out = earlier_output(tmp_path)
    before = tree(out)
    name, failing = step
    real = getattr(os, name)
    calls = []

    def failing_step(*args, **kwargs):
        calls.append(args)
        if len(calls) == failing:
            raise failure
        return real(*args, **kwargs)

    move_in = files._Staging.move_in

    def moving_in(self, plan, done):
        with monkeypatch.context() as patched:
            patched.setattr(os, name, failing_step)
            move_in(self, plan, done)

    monkeypatch.setattr(files._Staging, "move_in", moving_in)
    with pytest.raises(type(failure)), staged_folder(out):
        write_new_run(out)
    assert tree(out) == before
    assert os.listdir(tmp_path) == ["out"]


#: A run over ``out`` (argv[1]) that writes what :func:`write_new_run` writes and is
#: killed (SIGKILL): before its block ends (argv[2] 0), at the argv[2]-th rename while
#: its files are moved in, or as its staging folder is removed after the move (-1).
KILLED = """
    import os, shutil, signal, sys
    from pathlib import Path
    from analyzer.studies import files

    out, kill_at = Path(sys.argv[1]), int(sys.argv[2])
    rename, move_in, remove = os.replace, files._Staging.move_in, shutil.rmtree

    def killed_at(source, target):
        killed_at.moves += 1
        if killed_at.moves == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        rename(source, target)

    def moving_in(self, plan, done):
        os.replace = killed_at
        move_in(self, plan, done)

    def removing(path, **options):
        if kill_at == -1 and path.name == "old":
            os.kill(os.getpid(), signal.SIGKILL)
        remove(path, **options)

    killed_at.moves = 0
    files._Staging.move_in = moving_in
    files.shutil.rmtree = removing
    with files.staged_folder(out):
        files.write_text(out / "README.md", "new report\\n")
        files.write_text(out / "sweep" / "sweep.csv", "new table\\n")
        files.write_text(out / "dealt" / "dealt.csv", "new section\\n")
        if kill_at == 0:
            os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("kill_at", range(-1, len(STEPS) + 1))
def test_a_killed_run_is_undone_or_finished_by_the_next_run(tmp_path, kill_at):
    """SIGKILL runs no cleanup: killed before its files move, the run leaves the folder
    as it was (and its staging folder beside it, which the next run over the folder
    removes); killed while they move (a window of a few renames), it leaves the staging
    folder marked, and the next run finishes the move."""
    out = earlier_output(tmp_path)
    before = tree(out)
    process = start(KILLED, out, kill_at)
    _, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, err
    (staging,) = [path for path in tmp_path.iterdir() if path != out]
    assert STAGING.fullmatch(staging.name)
    assert (staging / "moving").exists() == (kill_at > 0)
    if kill_at < 1:
        assert tree(out) == (before if kill_at == 0 else new_tree(before))
    with staged_folder(out):  # the next run over the folder
        pass
    assert tree(out) == (before if kill_at == 0 else new_tree(before))
    assert os.listdir(tmp_path) == ["out"]


#: Another run over ``out`` (argv[1]) that writes ``notes.txt`` there.
OTHER_RUN = """
    import sys
    from pathlib import Path
    from analyzer.studies.files import staged_folder, write_text

    with staged_folder(sys.argv[1]):
        write_text(Path(sys.argv[1]) / "notes.txt", "the other run's notes\\n")
"""


def test_a_run_leaves_alone_other_runs_and_folders_it_did_not_make(tmp_path):
    out = earlier_output(tmp_path)
    similar = tmp_path / ".out.analyzer-run-notours"
    similar.mkdir()
    foreign = tmp_path / ".out.analyzer-run-0123456789ab"  # another folder's, by its lock
    foreign.mkdir()
    (foreign / "run.lock").write_text("/another/folder")
    with staged_folder(out):
        write_text(out / "README.md", "this run's report\n")
        other = start(OTHER_RUN, out)
        _, err = other.communicate(timeout=60)
        assert other.returncode == 0, err  # its staging folder went, this one's stayed
        assert (out / "notes.txt").read_text() == "the other run's notes\n"
    assert (out / "README.md").read_text() == "this run's report\n"
    assert sorted(os.listdir(tmp_path)) == [foreign.name, similar.name, "out"]
    assert (foreign / "run.lock").read_text() == "/another/folder"


def test_a_folder_whose_parent_cannot_be_written_is_staged_inside_itself(tmp_path, monkeypatch):
    """(`--out .` in a folder whose parent is the user's home, say.)"""
    out = earlier_output(tmp_path)
    before = tree(out)
    access = os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode: Path(path) != tmp_path and access(path, mode)
    )
    with staged_folder(out):
        write_new_run(out)
        assert [STAGING.fullmatch(path.name) is not None for path in out.iterdir()].count(True) == 1
    assert tree(out) == new_tree(before)
    assert os.listdir(tmp_path) == ["out"]


def test_a_knock_sweep_that_cannot_write_its_chart_keeps_the_users_table(tmp_path):
    """The issue's case: the chart's name is taken by a folder; the table was replaced.
    The answer folder (``sweep.csv``, ``sweep.png``, ``meta.json``, its manifest) is
    saved whole or not at all: nothing of it is written, the user's table stays."""
    (tmp_path / "out" / "sweep.png").mkdir(parents=True)
    (tmp_path / "out" / "sweep.csv").write_text("the user's table\n")
    result = run("knock-sweep", "--deals", 300, "--games", 30, "--out", "out", "--no-progress")
    assert_one_line_error(result, "out/sweep.png: Is a directory")
    assert (tmp_path / "out" / "sweep.csv").read_text() == "the user's table\n"
    assert files_under(tmp_path) == ["out", "out/sweep.csv", "out/sweep.png"]


def test_a_stopped_exact_run_leaves_out_as_it_was_and_resumes_from_its_checkpoint(
    tmp_path, monkeypatch
):
    """`exact --out` once overwrote, then deleted, OUT/<stem>_checkpoint.json.  Its
    checkpoint is now the one --checkpoint names: a stopped run leaves OUT as it was, and
    --resume ends with the counts of a run never stopped."""
    from analyzer.cli import study_commands

    mine = tmp_path / "out" / "cards10_4x6_checkpoint.json"
    mine.parent.mkdir()
    mine.write_text('{"mine": true}\n')
    args = ["exact", "--cards", 10, "--ranks", 6, "--suits", 4, "--no-progress"]
    stopped = [*args, "--out", "out", "--checkpoint", "run.json"]
    with monkeypatch.context() as patched:
        patched.setattr(study_commands, "progress_bar", StopAfter(1))
        assert run(*stopped).exit_code == 130
    assert files_under(tmp_path / "out") == ["cards10_4x6_checkpoint.json"]
    assert json.loads((tmp_path / "run.json").read_text())["identity"]["command"] == "exact"
    result = run(*stopped, "--resume", "--format", "json")
    assert result.exit_code == 0, result.output
    whole = run(*args, "--format", "json")
    assert json.loads(result.stdout)["counts"] == json.loads(whole.stdout)["counts"]
    assert mine.read_text() == '{"mine": true}\n'
    assert files_under(tmp_path / "out") == [
        "cards10_4x6_checkpoint.json",
        "counts.csv",
        "exact.png",
        "manifest.json",
        "meta.json",
    ]
