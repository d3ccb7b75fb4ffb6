"""What every report section shares: the run's configuration and small helpers."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from .._version import __version__
from ..core.progress import Progress
from .files import make_folder, write_text

DEFAULT_DEALS = 40_000
QUICK_DEALS = 1_500


@dataclass
class ReportConfig:
    """Sizes and seed of one report run; every study's size derives from ``deals``."""

    out: Path
    deals: int = DEFAULT_DEALS
    seed: int = 2026
    command: str = "analyzer report"
    scheduler: str | None = None
    progress: Callable[[str, int | None, int], Progress] | None = None
    """Factory of progress callbacks, one per step: (step name, total units or None when
    the study announces it, units done) -> callback (:mod:`analyzer.core.progress`)."""
    timings: dict[str, float] = field(default_factory=dict)

    def size(self, factor: float, least: int = 50) -> int:
        return max(least, int(self.deals * factor))


#: What a section's study gives its Markdown.
R = TypeVar("R")


@dataclass(frozen=True)
class Section(Generic[R]):
    """One section of the report, in two steps: :attr:`run` runs its study and writes its
    files (CSV, PNG, ``meta.json``) into its folder; :attr:`render` writes its Markdown
    from what the run returns, under the heading :func:`section_heading` gives it."""

    name: str
    """Its name for ``analyzer report --only``."""
    title: str | None
    """Its heading (numbered by its place in the report); None: no heading."""
    run: Callable[[ReportConfig], R]
    render: Callable[[R], str]


def section_heading(title: str, number: int | None = None) -> str:
    """A section's Markdown heading, numbered when ``number`` is given, and the blank
    line after it."""
    return f"## {'' if number is None else f'{number}. '}{title}\n\n"


def format_number(value: float, digits: int = 2, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (and a sign when ``sign``)."""
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def format_ci(mean: float, low: float, high: float, digits: int = 2, sign: bool = True) -> str:
    """``mean ± half-width`` of a 95% interval ``[low, high]``."""
    return f"{format_number(mean, digits, sign)} ± {(high - low) / 2:.{digits}f}"


def write_meta(
    folder: Path, config: ReportConfig, study: str, started: float, **details: object
) -> None:
    elapsed = time.perf_counter() - started
    config.timings[study] = elapsed
    # no run time here: meta.json is committed, and a rerun must leave it unchanged
    # (run times go to the untracked run-times log)
    meta = {
        "study": study,
        "seed": config.seed,
        "base_deals": config.deals,
        "command": config.command,
        "version": __version__,
        **details,
    }
    write_text(folder / "meta.json", json.dumps(meta, indent=2, default=str) + "\n")


def progress_for(config: ReportConfig, study: str, total: int | None = None) -> Progress | None:
    """The progress callback of one step of the report (None when progress is off)."""
    return None if config.progress is None else config.progress(study, total, 0)


def section_folder(config: ReportConfig, name: str) -> Path:
    return make_folder(config.out / name)


__all__ = [
    "DEFAULT_DEALS",
    "QUICK_DEALS",
    "ReportConfig",
    "Section",
    "format_ci",
    "format_number",
    "progress_for",
    "section_folder",
    "section_heading",
    "write_meta",
]
