"""The report's progress: one line per study naming its step among all and the time left
for the whole report."""

from __future__ import annotations

import os
import subprocess
import sys

import click
from click.testing import CliRunner

from analyzer.cli import progress
from analyzer.cli.main import cli
from analyzer.report.common import ReportClock, ReportStep, minutes_text


def test_every_step_says_which_of_how_many_and_the_reports_eta(tmp_path, monkeypatch):
    monkeypatch.setenv(progress.PROGRESS_ENV, "always")
    monkeypatch.setattr(progress, "PROGRESS_DELAY_S", 0.0)
    result = CliRunner().invoke(
        cli, ["report", "--quick", "--only", "sweep,variants", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "step 1 of 2 · knock sweep · ETA" in result.stderr
    assert "step 2 of 2 · variants · ETA" in result.stderr
    assert "this step" in result.stderr
    assert "unit" not in result.stderr  # no unit-less counts ("0.00unit")
    # the final message stands on its own line, after the bars are cleared
    assert result.stdout.startswith("wrote ")


def test_times_left_read_as_minutes_and_seconds():
    assert minutes_text(65.4) == "1:05"
    assert minutes_text(0) == "0:00"
    assert minutes_text(3599.6) == "60:00"


def test_the_reports_eta_is_known_from_its_first_second_and_follows_the_pace():
    """A report of 100 expected seconds: half in section 1, 30 in section 2, 20 in 3."""
    clock = ReportClock(started=0.0)
    first = ReportStep(1, 3, "a", 0.0, 0.5, 100.0)
    assert clock.left(first, 0.0, now=0.0) == 100.0  # no "?": the expected time
    assert clock.left(first, 0.0, now=10.0) == 90.0  # counts down before any progress
    assert clock.left(first, 0.5, now=40.0) == 90.0  # then at its own rate: 40 + 50 s
    second = ReportStep(2, 3, "b", 0.5, 0.3, 100.0)
    # section 1 took 100 s for 50 expected: the rest is expected to take twice as long
    assert clock.left(second, 0.0, now=100.0) == 100.0
    assert clock.left(second, 0.0, now=200.0) == 40.0  # never below what follows


def test_the_compile_notice_is_said_once_and_not_under_no_progress(monkeypatch, capsys):
    monkeypatch.setenv(progress.PROGRESS_ENV, "always")
    monkeypatch.setattr(progress, "_compile_announced", False)
    with click.Context(click.Command("x"), obj=None) as context:
        context.params["no_progress"] = True
        progress.announce_compile()
    assert capsys.readouterr().err == ""
    progress.announce_compile()
    assert capsys.readouterr().err == progress.compile_notice("") + "\n"
    progress.announce_compile()  # once per process
    assert capsys.readouterr().err == ""


def test_a_command_that_must_compile_says_so_whatever_else_is_cached(tmp_path):
    """numba's compile event, not the cache folder's content, triggers the notice: a
    kernel cache missing this command's kernels (here an empty one) gets it on the first
    run and not on the second.  It is said on a pipe too (a script's, a notebook's)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop(progress.PROGRESS_ENV, None)
    command = [sys.executable, "-m", "analyzer", "deadwood", "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"]
    first = subprocess.run(
        command, check=False, env=env, capture_output=True, text=True, timeout=600
    )
    assert first.returncode == 0, first.stderr
    notice = first.stderr.splitlines()
    assert len(notice) == 1 and notice[0].startswith("compiling "), first.stderr
    assert f"once, then cached in {tmp_path} (about " in notice[0]
    second = subprocess.run(
        command, check=False, env=env, capture_output=True, text=True, timeout=600
    )
    assert second.returncode == 0 and second.stderr == "", second.stderr
    assert second.stdout == first.stdout


def test_the_notice_names_what_compiles_and_its_time_from_the_benchmarks():
    advise = progress.compile_notice("advise")
    assert advise.startswith("compiling the advisor's rollouts")
    seconds = progress.COMPILE_FIGURES["advise"][1]
    assert f"about {seconds} s of one core" in advise and "once" in advise
    assert progress.compile_notice("simulate").startswith(
        f"compiling {progress.ENGINE_FIGURE[0]}: once"
    )


def test_a_bar_says_compiling_while_kernels_compile(monkeypatch):
    assert progress.while_compiling("step 1 of 3") == "step 1 of 3"
    monkeypatch.setattr(progress, "_compiling", 2)  # a kernel and one of its callees
    assert progress.while_compiling("step 1 of 3") == "step 1 of 3 · compiling kernels"
    assert progress.while_compiling("") == "compiling kernels"


def test_a_stop_inside_a_callback_leaves_no_traceback(monkeypatch):
    """A Ctrl-C that lands in one of numba's ctypes callbacks cannot be raised there;
    Python would print its traceback before the command's one line. Other exceptions
    still reach Python's hook."""
    import sys
    from types import SimpleNamespace

    from analyzer.cli import signals
    from analyzer.core import interrupts

    passed_on = []
    monkeypatch.setattr(sys, "__unraisablehook__", passed_on.append)
    stop = SimpleNamespace(exc_value=KeyboardInterrupt())
    other = SimpleNamespace(exc_value=ValueError("a real bug"))
    interrupts.record_stop()
    try:
        signals._quiet_stops(stop)
        signals._quiet_stops(other)
    finally:
        interrupts.forget_stop()
    assert passed_on == [other]
    # a KeyboardInterrupt with no stop recorded is not ours to hide
    signals._quiet_stops(stop)
    assert passed_on == [other, stop]


def test_a_bar_never_outgrows_a_narrow_terminal(monkeypatch):
    """A bar wider than the terminal wraps, and clearing it leaves its first line behind
    (the report's last bar once stood before "wrote results/README.md")."""
    monkeypatch.setattr(progress.os, "get_terminal_size", lambda fd: os.terminal_size((72, 24)))
    assert progress.bar_width() == 71
    monkeypatch.setattr(progress.os, "get_terminal_size", lambda fd: os.terminal_size((300, 24)))
    assert progress.bar_width() == progress.MAX_WIDTH

    def no_terminal(fd):
        raise OSError("not a terminal")

    monkeypatch.setattr(progress.os, "get_terminal_size", no_terminal)
    assert progress.bar_width() == progress.MAX_WIDTH


def test_a_bar_drawn_only_by_the_idle_redraws_is_cleared_when_it_closes(monkeypatch):
    """The ticker redraws a bar whose own updates came before tqdm's delay: tqdm then
    thinks it never showed it, and would leave it on the line when it closes."""
    import io
    import time

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr(progress, "PROGRESS_DELAY_S", 0.2)
    with progress.progress_bar(10, "deal", False, "study") as update:
        update(10)  # all done before the delay: tqdm itself never draws it
        time.sleep(1.5)  # the ticker draws it once the delay is over
    shown = terminal.getvalue().split("\r")
    assert any("study" in part for part in shown), shown
    assert not shown[-1].strip() or not any(c.isalnum() for c in shown[-2] + shown[-1])
