"""How the command line ends a run, stopped, failed or finished, without importing any
of the heavy modules (the entry point uses it before numpy and numba are loaded).

Every end exits at once in a real process (not under click's test runner), skipping the
interpreter's teardown: it takes over a second with numba's thread pools loaded, and a
stop then would kill the process without its line (the handlers are gone by then).
From the moment a run ends, a stop is recorded rather than raised
(:func:`~analyzer.core.interrupts.end_run`) and turns the exit into the interrupted one."""

from __future__ import annotations

import errno
import os
import sys
from typing import NoReturn

from ..core.interrupts import end_run, forget_stop, stop_requested

#: Exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
INTERRUPTED_EXIT = 130
#: Exit status of bad usage or input, and of a file that cannot be written.
ERROR_EXIT = 2
#: Errors of a device that takes no more output.
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def exit_interrupted() -> NoReturn:
    """Exit with :data:`INTERRUPTED_EXIT` at once; everything the stopped run reports or
    saves is already written and flushed."""
    _exit(INTERRUPTED_EXIT)


def exit_finished(code: int) -> NoReturn:
    """End a command that ended with ``code`` (its output or its error line written) at
    once.  A stop recorded since (see the module notes) ends it as a stop: its line, when
    the command has not reported it already, and :data:`INTERRUPTED_EXIT`."""
    end_run()
    if stop_requested() and code != INTERRUPTED_EXIT:
        _flush_quietly()
        _write_error("Error: interrupted")
        code = INTERRUPTED_EXIT
    _exit(code)


def _exit(code: int) -> NoReturn:
    end_run()  # from here a stop is recorded, not raised: nothing can break the exit
    flushed = _flush_quietly()
    if sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        os._exit(code)
    if not flushed:
        _silence_stdout()
    forget_stop()  # the process goes on (click's test runner): Ctrl-C raises again
    sys.exit(code)


def _write_error(line: str) -> None:
    """``line`` on stderr, whatever state stderr is in."""
    try:
        sys.stderr.write(f"{line}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _flush_quietly() -> bool:
    """Flush stdout and stderr; False when stdout cannot take its output (a full disk,
    /dev/full, a closed pipe)."""
    flushed = True
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            flushed = flushed and stream is not sys.stdout
    return flushed


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's own flush at exit does not
    print a second error about output that could not be written."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (click's test runner): nothing flushes it at exit


def report_os_error(error: OSError) -> int:
    """One ``Error:`` line for a file or stream that could not be read or written (a
    full or read-only disk, a folder without permission, /dev/full as stdout); the exit
    status: :data:`ERROR_EXIT`, or 1 without a word for a closed pipe
    (``analyzer ... | head``), as other tools do."""
    if isinstance(error, BrokenPipeError):
        _silence_stdout()
        return 1
    reason = error.strerror or str(error)
    if error.filename:
        line = f"{error.filename}: {reason}"
    elif error.errno in _FULL:  # the program names every file it writes: this was stdout
        line = f"cannot write the output: {reason}"
    else:
        line = reason
    if not _flush_quietly():
        _silence_stdout()
    _write_error(f"Error: {' '.join(line.split())}")
    return ERROR_EXIT


__all__ = [
    "ERROR_EXIT",
    "INTERRUPTED_EXIT",
    "exit_finished",
    "exit_interrupted",
    "report_os_error",
]
