"""Inside :func:`removed_on_failure`, each file and folder a writer creates in place is
recorded with its inode; when the block fails, exactly those are removed, and only while
they are still the ones this run made: a file that another program (or another run) wrote
meanwhile stays, and a folder stays unless it is empty."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path


def file_identity(status: os.stat_result, folder: bool) -> tuple[int, ...]:
    """What tells this run's own file from another one under the same name: its inode,
    and for a file also its size and time (an inode number can be reused)."""
    if folder:  # a folder's size and time change with what others put in it
        return (status.st_dev, status.st_ino)
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class RunFiles:
    """The files and folders one run made, each with its :func:`file_identity`."""

    def __init__(self) -> None:
        self._made: list[tuple[Path, tuple[int, ...], bool]] = []

    def add(self, path: Path, identity: tuple[int, ...], folder: bool) -> None:
        self._made.append((path, identity, folder))

    @property
    def paths(self) -> list[Path]:
        """Everything recorded, in the order it was made."""
        return [path for path, _, _ in self._made]

    def adopt(self, other: RunFiles) -> None:
        """Take over the records of a nested run that succeeded."""
        self._made.extend(other._made)

    def remove(self) -> None:
        """Remove what this run made, newest first, where it is still this run's own."""
        for path, identity, folder in reversed(self._made):
            try:
                now = file_identity(path.lstat(), folder)
            except OSError:
                continue
            if now != identity:
                continue  # replaced by someone else since: not ours any more
            with suppress(OSError):  # a folder that holds other files stays
                if folder:
                    path.rmdir()
                else:
                    path.unlink()
        self._made.clear()


_RUN: ContextVar[RunFiles | None] = ContextVar("run_files", default=None)


@contextmanager
def removed_on_failure() -> Iterator[RunFiles]:
    """Record every file and folder written in place inside the block; if the block
    raises (Ctrl-C and ``sys.exit`` with an error included), remove them and re-raise.

    Blocks nest: an inner block that succeeds hands its records to the outer one."""
    outer = _RUN.get()
    files = RunFiles()
    token = _RUN.set(files)
    try:
        yield files
    except SystemExit as stop:
        if stop.code not in (None, 0):
            files.remove()
        elif outer is not None:
            outer.adopt(files)
        raise
    except BaseException:
        files.remove()
        raise
    else:
        if outer is not None:
            outer.adopt(files)
    finally:
        _RUN.reset(token)


def record(path: Path, identity: tuple[int, ...], folder: bool) -> None:
    """Note ``path`` (made by the run, with its :func:`identity`) in the innermost
    :func:`removed_on_failure` block, if any."""
    files = _RUN.get()
    if files is not None:
        files.add(path, identity, folder)
