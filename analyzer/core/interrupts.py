"""The record that a stop (Ctrl-C or SIGTERM) was asked for, which cannot be lost.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when the
signal arrives.  Inside a callback from C (numba's first compile of a kernel calls back
into Python through ctypes) the exception is printed as "Exception ignored" and dropped,
and the run would go on to finish as if nothing had happened.  So the command line's
signal handlers (:mod:`analyzer.cli.signals`) also record the stop here, and the chunk
driver (:func:`analyzer.core.chunks.fold_chunks`) and the command line check the
record: a stop that was swallowed is raised again at the next chunk, or turns the run's
exit status into the interrupted one at its end.

This module handles no signal and imports nothing: the command line loads it before
numpy or numba.
"""

from __future__ import annotations

_requested = False
_ending = False


def record_stop() -> None:
    """Note that a stop was asked for (called by the signal handlers)."""
    global _requested
    _requested = True


def forget_stop() -> None:
    """Clear the record (a new run in the same process)."""
    global _requested, _ending
    _requested = _ending = False


def end_run() -> None:
    """Note that the run is ending (its result written, or its stop being reported): a
    stop from now on is recorded, not raised, so that it cannot break the ending; the
    command line reads the record as it exits."""
    global _ending
    _ending = True


def ending() -> bool:
    """Whether :func:`end_run` was called since the last :func:`forget_stop`."""
    return _ending


def stop_requested() -> bool:
    """Whether a stop was recorded since the last :func:`forget_stop`, even if the
    ``KeyboardInterrupt`` it raised was swallowed."""
    return _requested


def raise_if_stop_requested() -> None:
    """Raise ``KeyboardInterrupt`` if a stop was asked for (a swallowed one included)."""
    if _requested:
        raise KeyboardInterrupt


__all__ = [
    "end_run",
    "ending",
    "forget_stop",
    "raise_if_stop_requested",
    "record_stop",
    "stop_requested",
]
