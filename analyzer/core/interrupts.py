"""Ctrl-C and SIGTERM as one stop signal that cannot be lost.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when the
signal arrives.  Inside a callback from C (numba's first compile of a kernel calls back
into Python through ctypes) the exception is printed as "Exception ignored" and dropped,
and the run would go on to finish as if nothing had happened.  So the handler also
records that a stop was asked for, and the chunk loops (:mod:`analyzer.core.cluster`)
and the command line check that record: a stop that was swallowed is raised again at
the next chunk, or turns the run's exit status into the interrupted one at its end.

This module imports nothing heavy: the command line installs the handlers before it
imports numpy or numba.
"""

from __future__ import annotations

import signal
import threading

_requested = False


def _stop(signum: int, frame: object) -> None:
    global _requested
    _requested = True
    raise KeyboardInterrupt


def interrupt_on_sigterm(forget: bool = False) -> None:
    """From now on, treat SIGTERM like Ctrl-C (a ``KeyboardInterrupt``), so that a run
    stopped by a job scheduler reports, and checkpoints, as one stopped from the
    keyboard.  SIGINT raises ``KeyboardInterrupt`` too even when the process started
    with SIGINT ignored (as a shell starts background jobs, and so their children):
    ``kill -INT`` must stop a run wherever it was started.  Both are recorded (see
    :func:`stop_requested`); ``forget`` clears the record (a new run in the same
    process).  Does nothing outside the main thread (signals go to the main thread)."""
    global _requested
    if threading.current_thread() is threading.main_thread():
        if forget:
            _requested = False
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)


def stop_requested() -> bool:
    """Whether Ctrl-C or SIGTERM arrived since :func:`interrupt_on_sigterm`, even if the
    ``KeyboardInterrupt`` it raised was swallowed."""
    return _requested


def raise_if_stop_requested() -> None:
    """Raise ``KeyboardInterrupt`` if a stop was asked for (a swallowed one included)."""
    if _requested:
        raise KeyboardInterrupt


__all__ = ["interrupt_on_sigterm", "raise_if_stop_requested", "stop_requested"]
