"""Ctrl-C and SIGTERM as one stop signal: the command line's signal handlers.

Both raise ``KeyboardInterrupt`` and record the stop (:mod:`analyzer.core.interrupts`),
so that a stop swallowed inside numba's compiler is still seen by the chunk driver and
by the command's exit status.

This module imports nothing heavy: the command line installs the handlers before it
imports numpy or numba.
"""

from __future__ import annotations

import signal
import sys
import threading

from ..core.interrupts import ending, forget_stop, record_stop, stop_requested


def _stop(signum: int, frame: object) -> None:
    """Record the stop; raise it, unless the run is ending or already handling a stop
    (a second signal must not break the report of the first, nor a finished run's exit:
    the command line reads the record as it exits)."""
    record_stop()
    if not ending() and not _handling_a_stop():
        raise KeyboardInterrupt


def _handling_a_stop() -> bool:
    """Whether the interrupted code is handling a stop: inside an ``except`` of a
    ``KeyboardInterrupt``, or of an error it became (a handler sees the exception the
    frame it interrupted is handling)."""
    error = sys.exc_info()[1]
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
    return False


def _quiet_stops(unraisable: sys.UnraisableHookArgs) -> None:
    """Python's hook for exceptions it cannot raise (one in a ctypes callback, as numba's
    compiler runs in the first seconds), except the stop itself: the stop is recorded
    and the command still ends with its one line, so its traceback is noise."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and stop_requested():
        return
    sys.__unraisablehook__(unraisable)


def interrupt_on_sigterm(forget: bool = False) -> None:
    """From now on, treat SIGTERM like Ctrl-C (a ``KeyboardInterrupt``), so that a run
    stopped by a job scheduler reports, and checkpoints, as one stopped from the
    keyboard.  SIGINT raises ``KeyboardInterrupt`` too even when the process started
    with SIGINT ignored (as a shell starts background jobs, and so their children):
    ``kill -INT`` must stop a run wherever it was started.  Both are recorded (see
    :func:`analyzer.core.interrupts.stop_requested`); ``forget`` clears the record (a
    new run in the same process).  Does nothing outside the main thread (signals go to
    the main thread)."""
    if threading.current_thread() is threading.main_thread():
        if forget:
            forget_stop()
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        if sys.unraisablehook is sys.__unraisablehook__:  # a hook set by others stays
            sys.unraisablehook = _quiet_stops


__all__ = ["interrupt_on_sigterm"]
