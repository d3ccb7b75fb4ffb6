"""The CLI's progress bars (tqdm on stderr), fed by the compute layers' plain progress
callable (:mod:`analyzer.core.progress`)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..core.progress import Progress, bar_progress
from ..studies.text import MAX_WIDTH

#: Seconds a step runs before its progress bar appears (quick steps stay quiet).
PROGRESS_DELAY_S = 2.0


#: Set to ``always`` to show progress bars on a stderr that is not a terminal (a log
#: file of a long run); ``--no-progress`` still hides them.
PROGRESS_ENV = "ANALYZER_PROGRESS"


def progress_hidden(no_progress: bool) -> bool:
    """Bars are hidden under ``--no-progress`` and when stderr is not a terminal
    (a pipe, a log file, a test runner), unless ``$ANALYZER_PROGRESS`` is ``always``."""
    if no_progress:
        return True
    return not sys.stderr.isatty() and os.environ.get(PROGRESS_ENV, "") != "always"


def bar_width() -> int:
    """Columns of a bar: :data:`MAX_WIDTH`, or the terminal's width when narrower (a bar
    wider than the terminal wraps, and clearing it would clear only its last line)."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        return MAX_WIDTH
    return max(20, min(MAX_WIDTH, columns - 1))


#: The bar of a step of a longer run: the caller's description (the step and the time
#: left for the whole run), then this step's share done, time spent and time left.
STEP_FORMAT = "{desc} {percentage:3.0f}% |{bar:16}| {elapsed}<{remaining} this step"


@contextmanager
def progress_bar(
    total: int | None,
    unit: str,
    hidden: bool,
    desc: str | None = None,
    describe: Callable[[float], str] | None = None,
) -> Iterator[Progress]:
    """The CLI's one progress display: a tqdm bar with an ETA on stderr, fed by the
    compute layers' plain progress callable (:mod:`analyzer.core.progress`).

    ``total`` may be ``None`` when the study announces it (``progress(0, total=T)``).
    The bar appears once a step has run :data:`PROGRESS_DELAY_S` seconds, and never
    under ``--no-progress`` or when stderr is not a terminal.  With ``describe``, the bar
    is one step of a longer run (:data:`STEP_FORMAT`): its description is
    ``describe(fraction of this step done)``, redrawn as it moves.
    """
    from tqdm import tqdm

    with tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        desc=desc if describe is None else describe(0.0),
        delay=PROGRESS_DELAY_S,
        disable=progress_hidden(hidden),
        file=sys.stderr,
        leave=False,
        ncols=bar_width(),
        dynamic_ncols=False,
        bar_format=None if describe is None else STEP_FORMAT,
    ) as bar:
        if describe is not None:
            show = bar_progress(bar)

            def update(advance: int, /, total: int | None = None) -> None:
                show(advance, total)
                bar.set_description_str(describe(bar.n / bar.total if bar.total else 0.0))

        # on a terminal, redraw every second once the delay is over, so that the elapsed
        # time moves even while a long chunk (or a step that reports nothing) runs
        stop = threading.Event()

        def tick() -> None:
            if stop.wait(PROGRESS_DELAY_S):
                return
            while not stop.wait(1.0):
                text = desc or ""
                if describe is not None:
                    text = describe(bar.n / bar.total if bar.total else 0.0)
                bar.set_description_str(while_compiling(text), refresh=False)
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        if not bar.disable and sys.stderr.isatty():  # a log file gets no idle redraws
            ticker.start()
        try:
            yield bar_progress(bar) if describe is None else update
        finally:
            stop.set()
            if ticker.is_alive():
                ticker.join()
            if not bar.disable:
                # the ticker's redraws are not counted by tqdm's own delay, so a bar shown
                # only by them would be left on the line when it closes: clear it here
                bar.clear()


#: The kernels a command compiles on its first use and the CPU seconds (one core) that
#: took from an empty kernel cache on a loaded 2-core EPYC (load average 12-17), by the
#: command's first word (BENCHMARKS.md, "First use: each kernel tree compiled once");
#: the report's is its first run's CPU less its second's (BENCHMARKS.md, issue 37).
COMPILE_FIGURES: dict[str, tuple[str, int]] = {
    "advise": ("the advisor's rollouts, the game engine and every policy", 41),
    "report": ("every kernel of the report", 100),
    "rummy": ("plain rummy's engine", 24),
    "serve": ("the web app's kernels, the advisor's among them", 41),
    "deadwood": ("the hand evaluator", 3),
}
#: What other commands compile: the game engine and every policy, at most.
ENGINE_FIGURE = ("the game engine and every policy", 43)

_compile_watched = False
_compile_announced = False
#: Kernels being compiled now (numba's compile events nest: a kernel compiles its callees).
_compiling = 0


def while_compiling(description: str) -> str:
    """A bar's description, saying so while numba compiles kernels (the bar would
    otherwise sit at 0% with nothing to show it is not stuck)."""
    if not _compiling:
        return description
    return f"{description} · compiling kernels" if description else "compiling kernels"


def compile_notice(command: str) -> str:
    """The one line said when ``command`` (its first word: ``advise``, ``rummy``) starts
    to compile."""
    what, seconds = COMPILE_FIGURES.get(command, ENGINE_FIGURE)
    from .._kernel_cache import cache_dir

    return (
        f"compiling {what}: once, then cached in {cache_dir().parent} "
        f"(about {seconds} s of one core; 'analyzer warm' compiles every command's ahead)"
    )


def watch_compiles() -> None:
    """Say once per process, on stderr, that kernels are being compiled, the moment the
    first one starts (numba's ``numba:compile`` event fires only when no cached machine
    code serves a kernel): a first use spends up to minutes there before anything moves,
    whatever other commands have cached.  Said on a terminal, a pipe or a file (not under
    ``--no-progress``); while kernels compile, a progress bar says so."""
    global _compile_watched
    if _compile_watched:
        return
    _compile_watched = True
    from numba.core import event

    class _Notice(event.Listener):
        def on_start(self, event: event.Event) -> None:
            global _compiling
            _compiling += 1
            announce_compile()

        def on_end(self, event: event.Event) -> None:
            global _compiling
            _compiling -= 1

    event.register("numba:compile", _Notice())


def _has_descriptor(stream: object) -> bool:
    """Whether ``stream`` writes to a file descriptor (a terminal, a pipe, a file), not
    to memory (click's test runner, a test's capture)."""
    try:
        stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False
    return True


def announce_compile() -> None:
    """The compile notice itself (once per process; see :func:`watch_compiles`)."""
    global _compile_announced
    import click

    context = click.get_current_context(silent=True)
    hidden = bool(context is not None and context.params.get("no_progress"))
    shown = os.environ.get(PROGRESS_ENV, "") == "always" or _has_descriptor(sys.stderr)
    if _compile_announced or hidden or not shown:
        return
    _compile_announced = True
    from tqdm import tqdm

    names = []
    while context is not None:
        names.append(context.info_name or "")
        context = context.parent
    # tqdm.write clears a bar on the same stream first, so the line is never glued to one
    tqdm.write(compile_notice(names[-2] if len(names) > 1 else ""), file=sys.stderr)
    sys.stderr.flush()
