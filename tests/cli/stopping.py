"""Shared helpers of the tests that stop runs: a progress bar that stops a run after n
updates, and a real process stopped by a real signal while its memory is watched."""

from __future__ import annotations

import subprocess
import threading
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


def signal_while_running(command, environment, stop, warm_up, ready=None, watch_s=8.0):
    """Start the shell-quoted ``command`` with SIGINT ignored (as a shell's background job
    is), watch its memory for ``watch_s`` seconds (and, if ``ready`` is given, until its
    stderr shows ``ready``), then send ``stop``.  Returns (exit status, stdout, stderr,
    peak MB, seconds from the signal to the exit); the process must still be running when
    the signal goes.

    ``warm_up`` (a shell-quoted command that finishes) runs first, so that the kernels the
    run needs are compiled and cached: a first compile takes longer than ``watch_s`` on a
    loaded machine, and the signal would then stop the compile, not the run.  ``ready``
    waits out a slow start on a loaded machine (loading the cached kernels)."""
    subprocess.run(
        ["sh", "-c", warm_up], env=environment, check=True, timeout=1800, capture_output=True
    )
    process = subprocess.Popen(  # the shell ignores SIGINT, then becomes the run (exec)
        ["sh", "-c", f"trap '' INT; exec {command}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    err_chunks: list[str] = []
    reader = threading.Thread(
        target=lambda: err_chunks.extend(iter(lambda: process.stderr.read(1), "")), daemon=True
    )
    reader.start()
    try:
        peak = 0.0
        waited = 0.0
        while waited < watch_s or (
            ready is not None and ready not in "".join(err_chunks) and waited < 600
        ):
            time.sleep(0.5)
            waited += 0.5
            peak = max(peak, rss_mb(process.pid))
        assert process.poll() is None
        assert ready is None or ready in "".join(err_chunks), "".join(err_chunks)
        process.send_signal(stop)
        out = process.stdout.read()
        process.wait(timeout=30)
        reader.join(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        process.stdout.close()
        process.stderr.close()
    return process.returncode, out, "".join(err_chunks), peak
