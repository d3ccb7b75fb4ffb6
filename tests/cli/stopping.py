"""Shared helpers of the tests that stop runs: a progress bar that stops a run after n
updates, and a real process stopped by a real signal while its memory is watched."""

from __future__ import annotations

import subprocess
import time
from contextlib import contextmanager


class StopAfter:
    """A progress bar whose n-th update is a Ctrl-C."""

    def __init__(self, updates):
        self.updates = updates

    @contextmanager
    def __call__(self, total, unit, hidden, desc=None):
        def update(units, /, total=None):
            if not units:  # a study announcing its total
                return
            self.updates -= 1
            if self.updates == 0:
                raise KeyboardInterrupt

        yield update


def rss_mb(pid):
    """Resident memory of process ``pid`` (MB)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def signal_while_running(command, environment, stop, watch_s=8.0):
    """Start the shell-quoted ``command`` with SIGINT ignored (as a shell's background job
    is), watch its memory for ``watch_s`` seconds, then send ``stop``.  Returns (exit
    status, stdout, stderr, peak MB, seconds from the signal to the exit); the process
    must still be running when the signal goes."""
    process = subprocess.Popen(  # the shell ignores SIGINT, then becomes the run (exec)
        ["sh", "-c", f"trap '' INT; exec {command}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        peak = 0.0
        for _ in range(int(watch_s / 0.5)):
            time.sleep(0.5)
            peak = max(peak, rss_mb(process.pid))
        assert process.poll() is None
        signalled = time.perf_counter()
        process.send_signal(stop)
        out, err = process.communicate(timeout=30)
        stopped_in = time.perf_counter() - signalled
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, out, err, peak, stopped_in
