"""Where numba caches compiled kernels: a folder keyed on the kernels' sources.

Numba's own cache (``cache=True``) keys each kernel on its own file's timestamp, so a
kernel does not notice an edit to a kernel of another module that it compiled in (or to
a constant such as a ``RuleField`` it reads): after such an edit it would load the old
machine code and give the old results.  Here the cache folder is named after a hash of
every source file of the compute layers (``core``, ``gin``, ``rummy``), so that any edit
there sends every kernel to a fresh folder and recompiles it once; unchanged sources
reuse the folder across runs, processes and Dask workers.

The folder is ``$NUMBA_CACHE_DIR/<hash>`` when that variable is set, else
``$XDG_CACHE_HOME/rummy-analyzer/numba/<hash>`` (``~/.cache/...``).  Folders of older
sources are left in place (a few MB each) and may be deleted at any time.

:func:`configure` does not import numba (which takes most of a second): it hands numba
the folder through ``NUMBA_CACHE_DIR``, which numba reads when it loads (and again when
the environment changes).  Processes started from this one (Dask workers) inherit the
variable and keep the folder, which already ends in the hash.
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

#: Subpackages whose modules define kernels or constants that kernels read.
KERNEL_PACKAGES = ("core", "gin", "rummy")


def source_hash(root: Path | None = None) -> str:
    """A hash of every ``.py`` file of :data:`KERNEL_PACKAGES` under the package ``root``
    (paths and contents), 16 hex digits."""
    root = root or Path(__file__).parent
    digest = hashlib.sha256()
    for package in KERNEL_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


@cache
def _current_hash() -> str:
    return source_hash()


def cache_dir() -> Path:
    """The numba cache folder for the current sources (not created here)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if base:
        parent = Path(base)
        if parent.name == _current_hash():  # set by configure, here or in a parent process
            return parent
    else:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        parent = Path(xdg) / "rummy-analyzer" / "numba"
    return parent / _current_hash()


def configure() -> None:
    """Point numba's cache at :func:`cache_dir`; call before any kernel is defined.

    Numba reads ``config.CACHE_DIR`` when a ``cache=True`` function is decorated.  When
    the folder cannot be created (a read-only home), numba's default stays in force.
    """
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    numba = sys.modules.get("numba")
    if numba is not None:  # loaded before this package: it has read its settings already
        # numba.config sets its attributes at import time, out of mypy's sight
        numba.config.CACHE_DIR = str(folder)
