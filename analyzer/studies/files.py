"""Every file the program writes: whole or not at all, and an output folder changed all
at once or not at all.

A file is written to a temporary name in its own folder and then given its final name,
so a reader, a stop part way or a full disk never leaves a partial file under the final
name.  A failed write raises ``OSError`` with the final path as its file name, so the
command line can report it in one line.

Inside :func:`staged_folder`, every file and folder written under the output folder goes
to a staging folder instead, and all of them are moved into the output folder together
when the block ends: a run that fails or is stopped (an error, a full disk, Ctrl-C,
SIGTERM) leaves the output folder exactly as it was, and files the run does not write
stay.  The staging folder lies beside the output folder (inside it only when its parent
cannot be written or is another file system) and is named ``.<folder>.analyzer-run-<id>``;
a run killed outright (SIGKILL) leaves it there, and the next run over the same folder
removes it, or, when the kill came while the files were being moved in, finishes the move.

Every folder a staged run writes files into gets a manifest, ``manifest.json``: each of
the run's files in it with its SHA-256, and the run's id.  The move into place replaces
the files of the run before (those its manifest names) that this run does not write, and
places the manifest last; so a folder holds one run's files, and a reader that checks
them against the manifest (:func:`analyzer.studies.reading.read_folder`) never takes
two runs' files for one answer, even after a kill part way through the move (it finishes
the move first: :func:`finish_moves`).  Files that no manifest names (the user's own)
are left alone.

Inside :func:`~analyzer.studies.undo.removed_on_failure` (:mod:`analyzer.studies.undo`),
what a run made in place is removed when it fails.

This is the report layer: only ``report/``, ``cli/`` and the web app write files.  The
compute layers never do: a run that saves as it goes reaches its checkpoint file
(:mod:`analyzer.studies.checkpoint`, written here in place, outside any staging, so that it
outlives a stopped run) only through the object the command line hands it.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from .undo import file_identity, record, removed_on_failure

StrPath = str | os.PathLike[str]


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` about ``path`` (a write fails on a temporary name the user never chose)."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(path))


def _failure(number: int, path: Path) -> OSError:
    """The ``OSError`` of ``errno`` ``number`` about ``path``."""
    return _naming(OSError(number, os.strerror(number)), path)


# ------------------------------------------------------------------ staged output folders

#: Files of a staging folder: the lock its run holds (and the output folder's real path,
#: which tells it from another folder's), the marker of a move under way, and the trees of
#: the new files and of the files they replace.
_LOCK, _MOVING, _NEW, _OLD = "run.lock", "moving", "new", "old"
#: The manifest of a folder written by a staged run: ``{"run": id, "files": {name: sha256}}``.
MANIFEST = "manifest.json"


def file_hash(data: bytes) -> str:
    """The SHA-256 of ``data``, in hex (a manifest's entry)."""
    return hashlib.sha256(data).hexdigest()


def manifest_files(folder: Path) -> dict[str, str]:
    """The files the manifest of ``folder`` names (name -> SHA-256); empty without a
    readable manifest (the reader, not the writer, refuses a damaged one)."""
    try:
        data = json.loads((folder / MANIFEST).read_bytes())
        files = data["files"]
    except (OSError, ValueError, TypeError, KeyError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {str(name): str(digest) for name, digest in files.items()}


class _Staging:
    """One run's staging folder for the output folder ``root`` (absolute, as the writers
    name it; ``real`` is where its files land, symbolic links resolved)."""

    def __init__(self, root: Path, real: Path, folder: Path, lock: int) -> None:
        self.root, self.real, self.folder, self.lock = root, real, folder, lock
        self.new, self.old = folder / _NEW, folder / _OLD
        self.moved = False

    @classmethod
    def start(cls, root: Path) -> _Staging:
        """Clear what killed runs left for this folder, and open a new staging folder."""
        real = Path(os.path.realpath(root))
        base = _staging_base(real)
        folder = base / f".{real.name}.analyzer-run-{uuid.uuid4().hex[:12]}"
        lock = -1
        try:
            _make_folders(base)
            with _locked(base):
                _recover(base, real)
                os.mkdir(folder, 0o700)
                lock = os.open(folder / _LOCK, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.write(lock, os.fsencode(real))
        except BaseException as error:
            staging = cls(root, real, folder, lock)
            staging.close()
            if isinstance(error, OSError):
                raise _naming(error, root) from None
            raise
        return cls(root, real, folder, lock)

    def plan(self) -> list[tuple[Path, bool]]:
        """The staged folders and files (relative, each folder before what it holds),
        with True for a folder."""
        entries: list[tuple[Path, bool]] = []
        if not self.new.is_dir():
            return entries
        for where, folders, files in os.walk(self.new):
            folders.sort()
            relative = Path(where).relative_to(self.new)
            entries.append((relative, True))
            # the manifest last: until it is in place, the folder's manifest is the old one
            ordered = sorted(files, key=lambda name: (name == MANIFEST, name))
            entries.extend((relative / name, False) for name in ordered)
        return entries

    def commit(self) -> None:
        """Move the staged files into the output folder, the files they replace aside;
        on a failure part way (or a stop), move everything back and re-raise."""
        with _locked(self.folder.parent):
            self._write_manifests()
            plan = self.plan()
            self._check(plan)
            try:
                os.close(os.open(self.folder / _MOVING, os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as error:
                raise _naming(error, self.root) from None
            done: list[tuple[str, Path]] = []
            try:
                self.move_in(plan, done)
                self.moved = True
            except BaseException:
                self._move_back(done)
                with suppress(OSError):  # (else the next run finishes the move)
                    os.unlink(self.folder / _MOVING)
                raise

    def _write_manifests(self) -> None:
        """A manifest in each staged folder that holds files: the run's files there."""
        run = uuid.uuid4().hex[:12]
        for where, _, names in os.walk(self.new):
            files = sorted(name for name in names if name != MANIFEST)
            if not files:
                continue
            folder = Path(where)
            if MANIFEST in names:
                relative = folder.relative_to(self.new) / MANIFEST
                raise _failure(errno.EEXIST, self.root / relative)  # a name the writer keeps
            hashes = {name: file_hash((folder / name).read_bytes()) for name in files}
            text = json.dumps({"run": run, "files": hashes}, indent=2) + "\n"
            (folder / MANIFEST).write_text(text)

    def _check(self, plan: list[tuple[Path, bool]]) -> None:
        """Refuse, before anything moves, a staged file whose place holds a folder, a
        staged folder whose place holds something else, or a folder that cannot be
        written; and make the tree that receives the replaced files."""
        for relative, folder in plan:
            target = self.real / relative
            if folder:
                if os.path.lexists(target) and not target.is_dir():
                    raise _failure(errno.ENOTDIR, self.root / relative)
                if target.is_dir() and not os.access(target, os.W_OK | os.X_OK):
                    raise _failure(errno.EACCES, self.root / relative)
                try:
                    os.makedirs(self.old / relative, exist_ok=True)
                except OSError as error:
                    raise _naming(error, self.root / relative) from None
            elif target.is_dir():
                raise _failure(errno.EISDIR, self.root / relative)

    def move_in(self, plan: list[tuple[Path, bool]], done: list[tuple[str, Path]]) -> None:
        """Make the staged folders and move the staged files in (the file each replaces
        goes to the ``old`` tree first), recording each step in ``done``.  Every step is a
        rename or a ``mkdir``, and a repeat finds the steps already done: a run killed
        part way is finished by repeating this over what is still staged."""
        for relative, folder in plan:
            target = self.real / relative
            try:
                if folder:
                    if not target.is_dir():
                        os.mkdir(target)
                        done.append(("made", relative))
                    continue
                if relative.name == MANIFEST:
                    self._set_aside_stale(relative.parent, done)
                if os.path.lexists(target):
                    os.replace(target, self.old / relative)
                    done.append(("kept", relative))
                os.replace(self.new / relative, target)
                done.append(("placed", relative))
            except OSError as error:
                raise _naming(error, self.root / relative) from None

    def _set_aside_stale(self, folder: Path, done: list[tuple[str, Path]]) -> None:
        """Move aside the files of the run before in ``folder`` (those the manifest in
        place names) that this run does not write: the folder is then one run's."""
        fresh = manifest_files(self.new / folder)
        for name in manifest_files(self.real / folder):
            relative = folder / name
            target = self.real / relative
            if name in fresh or name == MANIFEST or "/" in name or not target.is_file():
                continue
            os.replace(target, self.old / relative)
            done.append(("kept", relative))

    def _move_back(self, done: list[tuple[str, Path]]) -> None:
        """Undo the steps of :meth:`move_in`, newest first."""
        for step, relative in reversed(done):
            target = self.real / relative
            with suppress(OSError):
                if step == "made":
                    os.rmdir(target)
                elif step == "kept":
                    os.replace(self.old / relative, target)
                else:
                    os.replace(target, self.new / relative)

    def close(self) -> None:
        """Remove the staging folder (the replaced files with it) and end the run's lock.
        The marker of a move goes first and the lock file last, so that a run killed
        part way leaves no marked move to finish, and a staging folder without its lock
        file holds nothing to keep (see :func:`_recover`).  A move cut short (a second
        stop while it was being undone) stays for the next run to finish."""
        if not self.moved and (self.folder / _MOVING).exists():
            os.close(self.lock)
            return
        with suppress(OSError):
            os.unlink(self.folder / _MOVING)
        for tree in (self.new, self.old):
            shutil.rmtree(tree, ignore_errors=True)
        for remove, path in ((os.unlink, self.folder / _LOCK), (os.rmdir, self.folder)):
            with suppress(OSError):
                remove(path)
        if self.lock >= 0:
            os.close(self.lock)


_STAGED: ContextVar[tuple[_Staging, ...]] = ContextVar("staged_folders", default=())


def _staging_base(real: Path) -> Path:
    """Where the staging folders of output folder ``real`` go: beside it, unless its
    parent cannot be written or lies on another file system (renames cannot cross one)."""
    parent = real.parent
    if parent == real or not parent.exists():
        return parent
    if not os.access(parent, os.W_OK | os.X_OK):
        return real
    if real.exists() and real.stat().st_dev != parent.stat().st_dev:
        return real
    return parent


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the lock of ``folder`` (advisory; only these staging steps take it), so
    that runs over one output folder clear, open and commit their staging one at a time."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        with suppress(OSError):  # a file system without locks: run unlocked
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _recover(base: Path, real: Path) -> None:
    """Finish or remove the staging folders in ``base`` that killed runs over ``real``
    left (a staging folder whose run still holds its lock is left alone)."""
    name = re.compile(rf"\.{re.escape(real.name)}\.analyzer-run-[0-9a-f]{{12}}")
    for entry in os.scandir(base):
        if not name.fullmatch(entry.name) or not entry.is_dir(follow_symlinks=False):
            continue
        folder = Path(entry.path)
        try:
            lock = os.open(folder / _LOCK, os.O_RDWR)
        except FileNotFoundError:  # killed as it was made or removed: nothing to keep
            shutil.rmtree(folder, ignore_errors=True)
            continue
        except OSError:  # not this user's
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            owner = os.read(lock, 4096)
            if owner not in (b"", os.fsencode(real)):
                continue  # another output folder's
            staging = _Staging(real, real, folder, lock)
            if (folder / _MOVING).exists():
                staging.move_in(staging.plan(), [])
            shutil.rmtree(folder, ignore_errors=True)
        except BlockingIOError:
            continue  # a run in progress
        finally:
            os.close(lock)


def finish_moves(folder: StrPath) -> None:
    """Finish the moves that killed runs left part way into ``folder`` or a folder
    above it (waiting for a run that is moving its files now), where this user may; a
    reader calls this when a folder's files do not match its manifest."""
    real = Path(os.path.realpath(folder))
    for output in (real, *real.parents):
        base = _staging_base(output)
        prefix = f".{output.name}.analyzer-run-"
        try:
            with os.scandir(base) as entries:
                if not any(entry.name.startswith(prefix) for entry in entries):
                    continue
            with _locked(base):
                _recover(base, output)
        except OSError:
            continue  # not this user's to finish: the reader refuses the folder


def _staged(path: Path) -> Path | None:
    """Where ``path`` goes in the innermost staging folder that takes it, else None."""
    absolute = Path(os.path.abspath(path))
    for staging in reversed(_STAGED.get()):
        if absolute == staging.root or staging.root in absolute.parents:
            return staging.new / absolute.relative_to(staging.root)
    return None


@contextmanager
def staged_folder(folder: StrPath) -> Iterator[Path]:
    """Write everything under ``folder`` inside the block into a staging folder, and move
    it all into ``folder`` when the block ends without an error (see the module's
    description).  A block inside another one for the same folder (or a folder above)
    joins it.  The folders made above ``folder`` for the staging go if the block fails."""
    path = Path(folder)
    if _staged(path) is not None:
        yield path
        return
    with removed_on_failure():
        staging = _Staging.start(Path(os.path.abspath(path)))
        try:
            token = _STAGED.set((*_STAGED.get(), staging))
            try:
                yield path
            finally:
                _STAGED.reset(token)
            staging.commit()
        finally:
            staging.close()


def written(folder: StrPath, name: str) -> Path:
    """Where the running code reads file ``name`` of ``folder`` back from: the staged
    copy of ``folder`` when the current :func:`staged_folder` block wrote that file,
    else ``folder`` itself."""
    staged = _staged(Path(folder))
    if staged is not None and os.path.lexists(staged / name):
        return staged
    return Path(folder)


# ---------------------------------------------------------------------------- the writers


def _make_folders(folder: Path, named: Path | None = None) -> None:
    """``folder`` and its missing parents; each one made is recorded (see
    :func:`removed_on_failure`) unless ``named`` is given, the folder a failure names."""
    for candidate in reversed([folder, *folder.parents]):
        if candidate.is_dir():
            continue
        try:
            os.mkdir(candidate)
        except FileExistsError:
            if not candidate.is_dir():
                raise _failure(errno.ENOTDIR, named or candidate) from None
            continue  # made by someone else just now: not ours
        except OSError as error:
            raise _naming(error, named or candidate) from None
        if named is None:
            record(candidate, file_identity(candidate.lstat(), True), True)


def make_folder(path: StrPath) -> Path:
    """``path`` and its missing parents, created (and recorded, or staged) as needed."""
    folder = Path(path)
    staged = _staged(folder)
    if staged is None:
        _make_folders(folder)
    else:
        _make_folders(staged, folder)
    return folder


def _temporary(target: Path) -> tuple[int, Path]:
    """An open, new file beside ``target`` (created with the process's umask)."""
    name = target.parent / f".{target.name}.{uuid.uuid4().hex[:12]}.tmp"
    handle = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    return handle, name


def _publish(temporary: Path, target: Path, track: bool) -> None:
    """Give ``temporary`` the name ``target``; record it when this made ``target``."""
    identity = file_identity(temporary.lstat(), False)  # complete: a rename keeps all four
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
        record(target, identity, False)


def write_with(path: StrPath, produce: Callable[[Path], None], *, track: bool = True) -> Path:
    """Write ``path`` by calling ``produce`` on a temporary name beside it, then rename
    (into the staging folder inside a :func:`staged_folder` block).

    ``track=False`` writes ``path`` itself at once even inside a :func:`staged_folder`
    block, and leaves the file out of :func:`removed_on_failure` (checkpoints, which
    must outlive a stopped run)."""
    target = Path(path)
    staged = _staged(target) if track else None
    destination = target if staged is None else staged
    _make_folders(destination.parent, None if staged is None else target.parent)
    try:
        handle, temporary = _temporary(destination)
    except OSError as error:
        raise _naming(error, target) from None
    os.close(handle)
    try:
        produce(temporary)
        _publish(temporary, destination, track and staged is None)
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


def write_text(path: StrPath, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole."""
    return write_bytes(path, text.encode())


def csv_bytes(frame: Any, **options: Any) -> bytes:
    """A pandas table as the bytes ``frame.to_csv(path, **options)`` would write."""
    return str(frame.to_csv(**options)).encode()


def write_csv(path: StrPath, frame: Any, **options: Any) -> Path:
    """Write a pandas table as CSV (``options`` as for ``DataFrame.to_csv``) whole."""
    return write_bytes(path, csv_bytes(frame, **options))


def write_together(folder: StrPath, files: Mapping[str, bytes]) -> list[Path]:
    """Write several files into ``folder`` (a table and its chart; names relative to it)
    so that they appear together or not at all (see :func:`staged_folder`)."""
    with staged_folder(folder) as where:
        return [write_bytes(where / name, data) for name, data in files.items()]


def append_text(path: StrPath, text: str) -> Path:
    """Add ``text`` at the end of ``path`` (a log), rewriting it whole."""
    target = Path(path)
    source = written(target.parent, target.name) / target.name
    try:
        before = source.read_bytes() if source.exists() else b""
    except OSError as error:
        raise _naming(error, target) from None
    return write_bytes(target, before + text.encode())


#: Why an empty folder name is refused (it would mean the current folder).
EMPTY_FOLDER = "give a folder name (. for the current folder)"


def check_writable(folder: StrPath) -> None:
    """Show that files can be made in ``folder`` (creating it and its parents if need
    be), and leave nothing behind: a run writes there only once its work is done.
    ``OSError`` when they cannot."""
    path = Path(folder)
    created: list[Path] = []
    try:
        for candidate in reversed([path, *path.parents]):
            if not candidate.exists():
                candidate.mkdir()
                created.append(candidate)
        if not path.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))
        with tempfile.TemporaryFile(dir=path):
            pass
    finally:
        for made in reversed(created):
            with suppress(OSError):
                made.rmdir()


__all__ = [
    "EMPTY_FOLDER",
    "MANIFEST",
    "append_text",
    "check_writable",
    "csv_bytes",
    "file_hash",
    "finish_moves",
    "make_folder",
    "manifest_files",
    "removed_on_failure",
    "staged_folder",
    "write_bytes",
    "write_csv",
    "write_text",
    "write_together",
    "write_with",
    "written",
]
