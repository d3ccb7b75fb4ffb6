"""The first thing the ``analyzer`` command does, before it loads anything else.

A stop (Ctrl-C or SIGTERM) raises ``KeyboardInterrupt`` wherever the interpreter is, and
while the command loads (its first tenth of a second or more: the kernel cache's hash,
click, numpy) that is inside some module being imported, whose traceback Python would
print.  So :func:`defer_stops`, called first by the package's ``__init__`` in a process
started as the command (its console script, or ``python -m analyzer``), notes such a stop
instead; the command line's own handlers (:mod:`analyzer.cli.signals`) take over when it
starts and act on the noted stop (:meth:`analyzer.cli.main.LazyGroup.main`): one line,
exit status 130.  Anywhere else (a notebook, a test, a worker process) nothing changes.

Imports only what the interpreter has loaded before any of this package's code runs
(``_signal``, the C half of :mod:`signal`, whose Python half takes milliseconds to load).
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # no stub: the C half of signal
import os
import sys

_noted = False


def _note(signum: int, frame: object) -> None:
    global _noted
    _noted = True


def started_as_command() -> bool:
    """Whether this process was started as the ``analyzer`` command: its console script
    (``.../bin/analyzer``) or ``python -m analyzer`` (read from the interpreter's own
    command line, which a worker process started by this one does not share)."""
    args = list(getattr(sys, "orig_argv", sys.argv))[1:]
    while args and args[0].startswith("-") and not args[0].startswith(("-m", "-c")):
        args = args[2:] if args[0] in ("-X", "-W") else args[1:]  # interpreter options
    if not args:
        return False
    if args[0].startswith("-m"):
        module = args[0][2:] or (args[1] if len(args) > 1 else "")
        return module == "analyzer"
    name = os.path.basename(args[0]).lower()
    return not args[0].startswith("-c") and name in ("analyzer", "analyzer.exe")


def defer_stops() -> None:
    """In a process started as the command: note a stop from now on instead of raising
    it, until the command line installs its handlers (which read :func:`stopped_early`)."""
    if started_as_command():
        for number in (_signal.SIGINT, _signal.SIGTERM):
            _signal.signal(number, _note)


def stopped_early() -> bool:
    """Whether a stop arrived while the command loaded (noted by :func:`defer_stops`)."""
    return _noted


__all__ = ["defer_stops", "started_as_command", "stopped_early"]
