"""A stop (SIGINT or SIGTERM) at any instant of a command, from the first module it loads
to its exit after a finished run, ends it with the one line ``Error: interrupted`` and
status 130, never a ``KeyboardInterrupt`` traceback nor a death by the signal.

The commands run as the console script runs them, from a script named ``analyzer`` (the
command line tells it is the command by that name); a hook in the script sends the
signal at a chosen instant: as a chosen module starts to load, or as the run ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The console script's body (pip writes the same), after ``HOOK``.
LAUNCH = "from analyzer.cli.main import cli\nsys.exit(cli())\n"


def run_as_command(tmp_path, hook, *args, timeout=300):
    """Run ``analyzer ARGS`` from a script named ``analyzer`` whose first lines are
    ``hook``: (exit status, stdout, stderr)."""
    script = tmp_path / "analyzer"
    script.write_text(f"import os, signal, sys\n{hook}\n{LAUNCH}")
    result = subprocess.run(
        [sys.executable, str(script), *args],
        check=False,
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return result.returncode, result.stdout, result.stderr


def start_command(tmp_path, *args):
    """``analyzer ARGS`` started from a plain script named ``analyzer`` (as the console
    script starts it), its output piped."""
    script = tmp_path / "analyzer"
    script.write_text(f"import sys\n{LAUNCH}")
    return subprocess.Popen(
        [sys.executable, str(script), *args],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def at_import(module, stop):
    """A hook sending ``stop`` to the process as ``module`` starts to load."""
    return (
        "import importlib.abc\n"
        "class Stop(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        f"        if name == {module!r}:\n"
        f"            os.kill(os.getpid(), {int(stop)})\n"
        "        return None\n"
        "sys.meta_path.insert(0, Stop())\n"
    )


@pytest.mark.parametrize(
    ("module", "stop"),
    [
        # the package's own start: the kernel cache's hash, the version
        ("analyzer._kernel_cache", signal.SIGINT),
        ("analyzer._version", signal.SIGTERM),
        # the command line's modules, before its handlers are in place
        ("analyzer.core.interrupts", signal.SIGINT),
        ("analyzer.cli", signal.SIGINT),
        ("analyzer.cli.exits", signal.SIGINT),
        ("click", signal.SIGTERM),
        ("analyzer.cli.signals", signal.SIGINT),
        # the command's own modules, loaded once the command line runs
        ("analyzer.cli.lookup", signal.SIGINT),
        ("analyzer.gin.model.rules", signal.SIGTERM),
    ],
)
def test_a_stop_while_the_command_loads_is_one_line(tmp_path, module, stop):
    code, out, err = run_as_command(tmp_path, at_import(module, stop), "rules")
    assert (code, out, err) == (130, "", "Error: interrupted\n")


def test_a_stop_at_any_instant_of_the_start_never_prints_a_traceback(tmp_path):
    """Real signals from outside, every 20 ms of the first half second of a run: the
    process ends with its line, never with a traceback of the analyzer's code.  Before
    the package's first line runs no program has a say: the signal may kill the
    interpreter as it starts (silently, or with CPython's own fatal-error traceback
    while it sets up its streams, or a traceback of the launcher's own imports)."""
    for step in range(25):
        process = start_command(tmp_path, "simulate", "--deals", "20000", "--no-progress")
        time.sleep(step * 0.02)
        process.send_signal(signal.SIGINT)
        text = process.communicate(timeout=300)[1].decode()
        assert f"{ROOT / 'analyzer'}{os.sep}" not in text, (step, text)  # none of our frames
        if process.returncode == 130:
            assert text.endswith("Error: interrupted\n"), (step, text)
            assert "Traceback" not in text and "KeyboardInterrupt" not in text, (step, text)
        else:  # stopped before the package's first line: the interpreter's own start
            assert process.returncode in (-signal.SIGINT, 1, 2), (step, text)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_as_a_finished_run_exits_is_one_line(tmp_path, stop):
    """The signal arrives once the run has written its result and ends: the process ends
    as a stopped one, its line and 130 (the result stays written)."""
    hook = (
        "from analyzer.core import interrupts\n"
        "ending = interrupts.end_run\n"
        "def end_run():\n"
        "    ending()\n"
        f"    os.kill(os.getpid(), {int(stop)})\n"
        "interrupts.end_run = end_run\n"
        "import analyzer.cli.exits, analyzer.cli.main\n"
        "analyzer.cli.exits.end_run = analyzer.cli.main.end_run = end_run\n"
    )
    code, out, err = run_as_command(tmp_path, hook, "rules")
    assert code == 130 and err == "Error: interrupted\n"
    assert out.startswith("standard ")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_right_after_a_run_printed_its_result_never_kills_it_silently(tmp_path, stop):
    """The signal goes as soon as the run's last line is out: the process either has
    exited already (0) or ends as a stopped run (its line, 130); it used to spend half a
    second in the interpreter's teardown, where the signal killed it without a word
    (exit status -2 or -15)."""
    for _ in range(5):
        process = start_command(tmp_path, "simulate", "--deals", "300", "--no-progress")
        out = b""
        while b"A and B are even" not in out:  # the summary's last line
            chunk = process.stdout.read1(65536)
            assert chunk, process.stderr.read().decode()
            out += chunk
        process.send_signal(stop)
        err = process.communicate(timeout=300)[1].decode()
        assert (process.returncode, err) in ((0, ""), (130, "Error: interrupted\n")), err
