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
                if describe is not None:
                    fraction = bar.n / bar.total if bar.total else 0.0
                    bar.set_description_str(describe(fraction), refresh=False)
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


_compile_watched = False
_compile_announced = False


def watch_compiles() -> None:
    """Say once per process, on stderr, that kernels are being compiled, the moment the
    first one starts (numba's ``numba:compile`` event fires only when no cached machine
    code serves a kernel): a first use spends up to minutes there before anything moves,
    whatever other commands have cached.  Shown where the bars are (:func:`progress_hidden`,
    with the running command's ``--no-progress``)."""
    global _compile_watched
    if _compile_watched:
        return
    _compile_watched = True
    from numba.core import event

    class _Notice(event.Listener):
        def on_start(self, event: event.Event) -> None:
            announce_compile()

        def on_end(self, event: event.Event) -> None:
            pass

    event.register("numba:compile", _Notice())


def announce_compile() -> None:
    """The compile notice itself (once per process; see :func:`watch_compiles`)."""
    global _compile_announced
    import click

    context = click.get_current_context(silent=True)
    hidden = bool(context is not None and context.params.get("no_progress"))
    if _compile_announced or progress_hidden(hidden):
        return
    _compile_announced = True
    from .._kernel_cache import cache_dir

    print(
        "compiling kernels for this command (first use only: up to about a minute and a half, "
        f"a few minutes for report; then cached in {cache_dir().parent}; 'analyzer warm' "
        "compiles every command's ahead)",
        file=sys.stderr,
        flush=True,
    )
