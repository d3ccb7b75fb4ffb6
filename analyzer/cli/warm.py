"""``analyzer warm``: compile the kernels of the commands, the notebook and the web app
ahead of their first use, in parallel processes.

Numba compiles a kernel the first time it runs and caches the machine code
(:mod:`analyzer._kernel_cache`), so a first use waits for the compiler: about 40 s of
one core for the advisor (BENCHMARKS.md).  Each group below is a few tiny runs of the
commands whose kernels it compiles; the groups run in separate processes, since the
compiler uses one core, and every later process loads what they cached.  Groups that
compile the same inner kernels would compile them twice, so a group gathers the
commands that share them: ``engine`` (the game engine and every policy: ``simulate``,
``games`` of two to four players, the studies built on them), ``rummy`` (plain rummy
shares nothing with gin), ``advisor`` (its rollouts) and ``tables`` (small kernels of
their own).

``analyzer report`` runs :data:`BESIDE_REPORT` in one process beside itself (unless a
warm-up of these sources has compiled them, or ``$ANALYZER_WARM_BESIDE`` is ``0``, as in
the test suite, which compiles them in its own tests): the report compiles the others on
its own, and then leaves every kernel compiled.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from .._kernel_cache import cache_dir
from .inputs import fail
from .progress import progress_bar

#: Group name -> the tiny runs (arguments of ``analyzer``) that compile its kernels.
GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "engine": (
        ("simulate", "--a", "expert", "--b", "search,budget=2", "--deals", "1"),
        ("games", "--a", "expert", "--b", "expert", "--games", "1"),
        ("games", "--players", "3", "--games", "1"),
        ("knock-chart", "--deals", "2", "--min-samples", "1"),
    ),
    "rummy": (
        ("rummy", "simulate", "--deals", "2"),
        ("rummy", "study", "meld-or-hold", "--deals", "1"),
        ("rummy", "study", "players", "--deals", "1"),
        ("rummy", "study", "options", "--deals", "1"),
    ),
    "advisor": (
        (
            "advise",
            "--hand",
            "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
            "--pile",
            "Td",
            "--stock",
            "25",
            "--samples",
            "8",
        ),
    ),
    "tables": (
        ("dealt", "--deals", "10"),
        ("exact", "--cards", "10", "--ranks", "5", "--suits", "2"),
        ("equity", "--deals", "100", "--games", "10"),
    ),
}
#: The groups whose kernels ``analyzer report`` does not compile itself, or compiles last.
BESIDE_REPORT = ("rummy", "advisor")
#: ``0`` here: ``analyzer report`` starts no warm-up beside itself.
BESIDE_ENV = "ANALYZER_WARM_BESIDE"


def _mark(name: str) -> Path:
    """The file that says group ``name`` compiled for these sources (in the kernel cache
    folder, which is named after them)."""
    return cache_dir() / f"warmed-{name}"


def compile_group(name: str) -> None:
    """Run the tiny runs of group ``name`` one after another, each in a fresh process;
    ``RuntimeError`` with the last lines of a run's errors if one fails."""
    for arguments in GROUPS[name]:
        done = subprocess.run(
            [sys.executable, "-m", "analyzer", *arguments, "--no-progress"],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if done.returncode != 0:
            errors = " ".join(done.stderr.strip().splitlines()[-3:])
            raise RuntimeError(f"analyzer {' '.join(arguments)} failed: {errors}")
    _mark(name).parent.mkdir(parents=True, exist_ok=True)
    _mark(name).touch()


def start_beside(groups: tuple[str, ...] = BESIDE_REPORT) -> subprocess.Popen[bytes] | None:
    """``analyzer warm`` of ``groups`` in one background process (no output); ``None``
    when they are compiled already or ``$ANALYZER_WARM_BESIDE`` is ``0``."""
    if os.environ.get(BESIDE_ENV) == "0" or all(_mark(name).exists() for name in groups):
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "analyzer", "warm", "--only", ",".join(groups), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@click.command("warm")
@click.option(
    "--processes",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Groups compiled at once, each in its own process (the compiler uses one core).",
)
@click.option(
    "--only",
    default=None,
    help=f"Comma-separated groups to compile: {','.join(GROUPS)} (default all).",
)
@click.option("--no-progress", is_flag=True, help="Hide progress.")
def warm_command(processes: int, only: str | None, no_progress: bool) -> None:
    """Compile the kernels of every command, the notebook and the web app now, so that
    no first use waits for the compiler.

    \b
    Example:
      analyzer warm                    # 2 min 17 s on 2 idle cores, once per install
      analyzer warm --only advisor     # the advisor's kernels (about 40 CPU-seconds)

    Kernels already compiled load in about a second per run; a change to the package's
    computing code (a new version) needs one more warm-up.
    """
    names = list(GROUPS) if only is None else [name.strip() for name in only.split(",")]
    unknown = [name for name in names if name not in GROUPS]
    if unknown:
        fail(f"unknown group {unknown[0]!r}; choose from {', '.join(GROUPS)}")
    try:
        with (
            progress_bar(len(names), "group", no_progress, desc="compiling kernels") as update,
            ThreadPoolExecutor(min(processes, len(names))) as pool,
        ):
            for _ in pool.map(compile_group, names):
                update(1)
    except RuntimeError as error:
        fail(str(error))
    if not no_progress:
        click.echo(f"compiled the kernels of {', '.join(names)}", err=True)
