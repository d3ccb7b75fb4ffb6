"""How the command line ends a run that was stopped or failed, without importing any
of the heavy modules (the entry point uses it before numpy and numba are loaded)."""

from __future__ import annotations

import errno
import os
import sys
from typing import NoReturn

#: Exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
INTERRUPTED_EXIT = 130
#: Exit status of bad usage or input, and of a file that cannot be written.
ERROR_EXIT = 2
#: Errors of a device that takes no more output.
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def exit_interrupted() -> NoReturn:
    """Exit with :data:`INTERRUPTED_EXIT` at once.  In a real process (not under click's
    test runner) this skips the interpreter's teardown, which takes over a second with
    numba's thread pools loaded: a stopped run must end promptly, and everything it
    reports or saves is already written and flushed."""
    flushed = _flush_quietly()
    if sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__:
        os._exit(INTERRUPTED_EXIT)
    if not flushed:
        _silence_stdout()
    sys.exit(INTERRUPTED_EXIT)


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


def exit_on_os_error(error: OSError) -> NoReturn:
    """One ``Error:`` line for a file or stream that could not be read or written (a
    full or read-only disk, a folder without permission, /dev/full as stdout) and
    :data:`ERROR_EXIT`; a closed pipe (``analyzer ... | head``) ends quietly, as other
    tools do."""
    if isinstance(error, BrokenPipeError):
        _silence_stdout()
        sys.exit(1)
    reason = error.strerror or str(error)
    if error.filename:
        line = f"{error.filename}: {reason}"
    elif error.errno in _FULL:  # the program names every file it writes: this was stdout
        line = f"cannot write the output: {reason}"
    else:
        line = reason
    if not _flush_quietly():
        _silence_stdout()
    try:
        sys.stderr.write(f"Error: {' '.join(line.split())}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    sys.exit(ERROR_EXIT)


__all__ = ["ERROR_EXIT", "INTERRUPTED_EXIT", "exit_interrupted", "exit_on_os_error"]
