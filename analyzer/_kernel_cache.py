"""Where numba caches compiled kernels: a folder keyed on the kernels' sources.

Numba's own cache (``cache=True``) keys each kernel on its own file's timestamp, so a
kernel does not notice an edit to a kernel of another module that it compiled in (or to
a constant such as a ``RuleField`` it reads): after such an edit it would load the old
machine code and give the old results.  Here the cache folder is named after a hash of
the modules kernels are made of (:func:`kernel_modules`: every module of the compute
layers, ``core``, ``gin`` and ``rummy``, that defines a numba function, and every module
they import when loaded, found from the code itself), so that an edit there sends every
kernel to a fresh folder and recompiles it once, while an edit elsewhere (a pandas study,
a door) compiles nothing; unchanged sources reuse the folder across runs, processes and
Dask workers.

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
import re
import sys
from functools import cache
from pathlib import Path

#: Subpackages whose modules define kernels or constants that kernels read.
KERNEL_PACKAGES = ("core", "gin", "rummy")


#: A line that makes a numba function of the definition below it.
_KERNEL = re.compile(
    r"^\s*@(?:numba\.)?(?:njit|jit|generated_jit|vectorize|guvectorize|register_jitable|"
    r"overload\w*|cfunc|intrinsic)\b",
    re.MULTILINE,
)
#: An import run when the module loads (at its top level, not indented): ``from .x
#: import y`` or ``from ..x import (y, z)``.
_IMPORT = re.compile(r"^from (\.+)([\w.]*) import (\([^)]*\)|[^\n]*)", re.MULTILINE)


def _module(root: Path, path: Path) -> str:
    """``gin.play.hand`` for ``root/gin/play/hand.py`` (a package by its ``__init__``)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(name: str, path: Path, text: str, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that module ``name`` (at ``path``) imports when it loads,
    with the packages on the way to each."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for dots, module, names in _IMPORT.findall(text):
        base = package[: len(package) - len(dots) + 1]
        stem = ".".join([*base, *([module] if module else [])]).strip(".")
        candidates = [
            stem,
            *(
                f"{stem}.{n.split()[0]}".strip(".")
                for n in names.strip("()").split(",")
                if n.strip()
            ),
        ]
        for candidate in candidates:
            parts = candidate.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return {module for module in found if module in modules}


def kernel_modules(root: Path | None = None) -> list[Path]:
    """The modules of :data:`KERNEL_PACKAGES` under the package ``root`` that kernels are
    made of: those defining a numba function, and every module they import when loaded
    (their constants, the kernels they call), transitively."""
    root = root or Path(__file__).parent
    modules = {
        _module(root, path): path
        for package in KERNEL_PACKAGES
        for path in (root / package).rglob("*.py")
    }
    texts = {name: path.read_text(encoding="utf-8") for name, path in modules.items()}
    todo = [name for name, text in texts.items() if _KERNEL.search(text)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _imported(name, modules[name], texts[name], modules)
    return sorted(modules[name] for name in seen)


def source_hash(root: Path | None = None) -> str:
    """A hash of :func:`kernel_modules` under the package ``root`` (paths and contents),
    16 hex digits."""
    root = root or Path(__file__).parent
    digest = hashlib.sha256()
    for path in kernel_modules(root):
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
