"""The progress protocol of the compute layers: a plain callable, no terminal code.

A long computation takes ``progress`` (or ``None``) and calls ``progress(n)`` each time
``n`` more units of work (deals, game pairs, suit classes...) are done.  A top-level
study first calls ``progress(0, total=T)`` once with the total units of the whole run, so
that whatever draws the bar (the CLI's tqdm bar, a notebook widget, a test counter) knows
the total and can show an ETA before the first chunk finishes.  When a study stops early
(a search converged) it reports the work it skips, so the units always add up to ``T``.

>>> seen = []
>>> def record(advance, total=None):
...     seen.append((advance, total))
>>> tell_total(record, 10); scaled(record, 3)(2); seen
[(0, 10), (6, None)]
"""

from __future__ import annotations

from typing import Any, Protocol


class Progress(Protocol):
    """``progress(advance)`` after ``advance`` more units; ``progress(0, total=T)`` once
    at the start of a study to give the total units."""

    def __call__(self, advance: int, /, total: int | None = None) -> None: ...


def tell_total(progress: Progress | None, total: int) -> None:
    """Give ``progress`` the total units of the run (no-op for ``None``)."""
    if progress is not None:
        progress(0, total=int(total))


def advance(progress: Progress | None, units: int) -> None:
    """Report ``units`` done (no-op for ``None`` or zero units)."""
    if progress is not None and units:
        progress(int(units))


def scaled(progress: Progress | None, factor: int) -> Progress | None:
    """``progress`` counting each reported unit ``factor`` times: a driver that reports
    deals of a comparison of ``factor`` arms then counts arm-deals."""
    if progress is None:
        return None
    inner = progress

    def report(units: int, /, total: int | None = None) -> None:
        inner(units * factor)

    return report


def after(progress: Progress | None, done: int) -> Progress | None:
    """``progress`` for a later phase of a run whose earlier phases counted ``done``
    units: each total it is told grows by ``done``, so one bar runs on across phases."""
    if progress is None:
        return None
    inner = progress

    def report(units: int, /, total: int | None = None) -> None:
        inner(units, total=None if total is None else total + done)

    return report


class Counted:
    """A progress callable that passes units on and counts them (inner totals dropped:
    the caller announces one total for several inner runs)."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.done = 0

    def __call__(self, units: int, /, total: int | None = None) -> None:
        self.done += units
        advance(self.progress, units)


def bar_progress(bar: Any) -> Progress:
    """The progress callable that feeds a tqdm-like ``bar`` (anything with ``total`` and
    ``update``): the front ends' one adapter, kept here so that no compute module needs
    to know about bars."""

    def update(advance: int, /, total: int | None = None) -> None:
        if total is not None:
            bar.total = total
        if advance:
            bar.update(advance)

    return update


__all__ = ["Counted", "Progress", "advance", "after", "bar_progress", "scaled", "tell_total"]
