"""Every file the program writes: whole or not at all, and undone when the run fails.

A file is written to a temporary name in its own folder and then given its final name,
so a reader, a stop part way or a full disk never leaves a partial file under the final
name.  Inside :func:`removed_on_failure`, each file and folder a writer creates is
recorded with its inode; when the block fails (an error, Ctrl-C, SIGTERM), exactly those
are removed, and only while they are still the ones this run made: a file that another
program (or another run) wrote meanwhile stays, and a folder stays unless it is empty.
Files that existed before the run and were overwritten keep their new content.

A failed write raises ``OSError`` with the final path as its file name, so the command
line can report it in one line.

This is the report layer: only ``report/``, ``cli/`` and the web app write files.  The
compute layers never do: a run that saves as it goes reaches its checkpoint file
(:mod:`analyzer.report.checkpoint`, written here) only through the object the command
line hands it.
"""

from __future__ import annotations

import errno
import io
import os
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any

StrPath = str | os.PathLike[str]


def _identity(status: os.stat_result, folder: bool) -> tuple[int, ...]:
    """What tells this run's own file from another one under the same name: its inode,
    and for a file also its size and time (an inode number can be reused)."""
    if folder:  # a folder's size and time change with what others put in it
        return (status.st_dev, status.st_ino)
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class RunFiles:
    """The files and folders one run made, each with its :func:`_identity`."""

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
                now = _identity(path.lstat(), folder)
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
    """Record every file and folder written inside the block; if the block raises
    (Ctrl-C and ``sys.exit`` with an error included), remove them and re-raise.

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


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` about ``path`` (a write fails on a temporary name the user never chose)."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(path))


def _record(path: Path, identity: tuple[int, ...], folder: bool) -> None:
    files = _RUN.get()
    if files is not None:
        files.add(path, identity, folder)


def make_folder(path: StrPath) -> Path:
    """``path`` and its missing parents, created (and recorded) as needed."""
    folder = Path(path)
    missing = [folder, *folder.parents]
    for candidate in reversed(missing):
        if candidate.is_dir():
            continue
        try:
            candidate.mkdir()
        except FileExistsError:
            if not candidate.is_dir():
                raise NotADirectoryError(
                    errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(candidate)
                ) from None
            continue  # made by someone else just now: not ours
        except OSError as error:
            raise _naming(error, candidate) from None
        _record(candidate, _identity(candidate.lstat(), True), True)
    return folder


def _temporary(target: Path) -> tuple[int, Path]:
    """An open, new file beside ``target`` (created with the process's umask)."""
    name = target.parent / f".{target.name}.{uuid.uuid4().hex[:12]}.tmp"
    handle = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    return handle, name


def _publish(temporary: Path, target: Path, track: bool) -> None:
    """Give ``temporary`` the name ``target``; record it when this made ``target``."""
    identity = _identity(temporary.lstat(), False)  # complete: a rename keeps all four
    try:
        # a hard link makes the name only if it is free: a file that another program
        # made under this name in the meantime is never taken for this run's own
        os.link(temporary, target)
    except FileExistsError:
        os.replace(temporary, target)
        return
    except OSError:  # a file system without hard links
        created = not os.path.lexists(target)
        os.replace(temporary, target)
    else:
        created = True
        temporary.unlink()
    if created and track:
        _record(target, identity, False)


def write_with(path: StrPath, produce: Callable[[Path], None], *, track: bool = True) -> Path:
    """Write ``path`` by calling ``produce`` on a temporary name beside it, then rename.

    ``track=False`` leaves the file out of :func:`removed_on_failure` (checkpoints, which
    must outlive a stopped run)."""
    target = Path(path)
    make_folder(target.parent)
    try:
        handle, temporary = _temporary(target)
    except OSError as error:
        raise _naming(error, target) from None
    os.close(handle)
    try:
        produce(temporary)
        _publish(temporary, target, track)
    except OSError as error:
        raise _naming(error, target) from None
    finally:
        with suppress(OSError):
            temporary.unlink()
    return target


def write_bytes(path: StrPath, data: bytes, *, track: bool = True) -> Path:
    """Write ``data`` to ``path`` whole (see :func:`write_with`)."""

    def produce(temporary: Path) -> None:
        with open(temporary, "wb") as stream:
            stream.write(data)

    return write_with(path, produce, track=track)


def write_text(path: StrPath, text: str, *, track: bool = True) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole."""
    return write_bytes(path, text.encode(), track=track)


def csv_bytes(frame: Any, **options: Any) -> bytes:
    """A pandas table as the bytes ``frame.to_csv(path, **options)`` would write."""
    return str(frame.to_csv(**options)).encode()


def write_csv(path: StrPath, frame: Any, **options: Any) -> Path:
    """Write a pandas table as CSV (``options`` as for ``DataFrame.to_csv``) whole."""
    return write_bytes(path, csv_bytes(frame, **options))


def figure_bytes(figure: Any, **options: Any) -> bytes:
    """A matplotlib figure as PNG bytes (``options`` as for ``Figure.savefig``)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", **options)
    return buffer.getvalue()


def write_figure(path: StrPath, figure: Any, **options: Any) -> Path:
    """Write a matplotlib figure as PNG whole."""
    return write_bytes(path, figure_bytes(figure, **options))


def write_together(files: Mapping[Path, bytes]) -> list[Path]:
    """Write several files (a table and its chart) so that none is renamed before every
    one is complete: a full disk leaves the old set (or none), never half of a new one."""
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files.items():
            target = Path(path)
            make_folder(target.parent)
            try:
                handle, temporary = _temporary(target)
                staged.append((temporary, target))
                with os.fdopen(handle, "wb") as stream:
                    stream.write(data)
            except OSError as error:
                raise _naming(error, target) from None
        for temporary, target in staged:
            try:
                _publish(temporary, target, True)
            except OSError as error:
                raise _naming(error, target) from None
    finally:
        for temporary, _ in staged:
            with suppress(OSError):
                temporary.unlink()
    return [target for _, target in staged]


def append_text(path: StrPath, text: str) -> Path:
    """Add ``text`` at the end of ``path`` (a log), rewriting it whole."""
    target = Path(path)
    try:
        before = target.read_bytes() if target.exists() else b""
    except OSError as error:
        raise _naming(error, target) from None
    return write_bytes(target, before + text.encode())


__all__ = [
    "RunFiles",
    "append_text",
    "csv_bytes",
    "figure_bytes",
    "make_folder",
    "removed_on_failure",
    "write_bytes",
    "write_csv",
    "write_figure",
    "write_text",
    "write_together",
    "write_with",
]
