"""The CLI's progress bars (tqdm on stderr), fed by the compute layers' plain progress
callable (:mod:`analyzer.core.progress`)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..core.progress import Progress, bar_progress

#: Widest line the CLI prints (tables, bars): fits a 100-column terminal.
MAX_WIDTH = 100
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


@contextmanager
def progress_bar(
    total: int | None, unit: str, hidden: bool, desc: str | None = None
) -> Iterator[Progress]:
    """The CLI's one progress display: a tqdm bar with an ETA on stderr, fed by the
    compute layers' plain progress callable (:mod:`analyzer.core.progress`).

    ``total`` may be ``None`` when the study announces it (``progress(0, total=T)``).
    The bar appears once a step has run :data:`PROGRESS_DELAY_S` seconds, and never
    under ``--no-progress`` or when stderr is not a terminal.
    """
    from tqdm import tqdm

    with tqdm(
        total=total,
        unit=unit,
        unit_scale=True,
        desc=desc,
        delay=PROGRESS_DELAY_S,
        disable=progress_hidden(hidden),
        file=sys.stderr,
        leave=False,
        ncols=MAX_WIDTH,
        dynamic_ncols=False,
    ) as bar:
        # on a terminal, redraw every second once the delay is over, so that the elapsed
        # time moves even while a long chunk (or a step that reports nothing) runs
        stop = threading.Event()

        def tick() -> None:
            if stop.wait(PROGRESS_DELAY_S):
                return
            while not stop.wait(1.0):
                bar.refresh()

        ticker = threading.Thread(target=tick, daemon=True)
        if not bar.disable and sys.stderr.isatty():  # a log file gets no idle redraws
            ticker.start()
        try:
            yield bar_progress(bar)
        finally:
            stop.set()
            if ticker.is_alive():
                ticker.join()
