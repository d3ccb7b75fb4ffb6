"""What every report section shares: the run's configuration and small helpers."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from .._version import __version__
from ..core.progress import Progress
from ..studies.files import make_folder, write_text

DEFAULT_DEALS = 20_000
QUICK_DEALS = 1_500


@dataclass
class ReportConfig:
    """Sizes and seed of one report run; every study's size derives from ``deals``."""

    out: Path
    deals: int = DEFAULT_DEALS
    seed: int = 2026
    command: str = "analyzer report"
    scheduler: str | None = None
    progress: Callable[[ReportStep, int | None], Progress] | None = None
    """Factory of progress callbacks, one per study: (where it sits in the report, total
    units or None when the study announces it) -> callback (:mod:`analyzer.core.progress`)."""
    timings: dict[str, float] = field(default_factory=dict)
    step: ReportStep | None = None
    """The section running now (set by the report's builder)."""

    def size(self, factor: float, least: int = 50) -> int:
        return max(least, int(self.deals * factor))


@dataclass(frozen=True)
class ReportStep:
    """Where a study sits in the report: its section's number among the sections run, and
    the share of the report's time expected before and in it (from :attr:`Section.seconds`),
    from which a front end estimates the time left for the whole report."""

    number: int
    count: int
    study: str
    done_before: float
    """Expected fraction (0-1) of the report's time spent before this section."""
    share: float
    """Expected fraction (0-1) of the report's time spent in this section."""
    seconds: float = 0.0
    """Expected seconds of the whole report with compiled kernels (the sum of the sections'
    :attr:`Section.seconds`; 0 when unknown)."""

    @property
    def label(self) -> str:
        """``step 4 of 9 · tournament``."""
        return f"step {self.number} of {self.count} · {self.study}"

    def named(self, study: str) -> ReportStep:
        """The same step, shown under the name of one study of its section."""
        return dataclasses.replace(self, study=study)


@dataclass
class ReportClock:
    """The time left for a whole report, known from its first second: each section's
    expected seconds (:attr:`ReportStep.seconds`, measured with compiled kernels) scaled
    by the pace of the sections already finished (wall time over expected time, 1 until
    one has finished); within the running section, once a twentieth of it is done, its
    own rate."""

    started: float
    section_started: dict[int, float] = field(default_factory=dict)

    def left(self, step: ReportStep, fraction: float, now: float) -> float:
        """Seconds left at ``now`` (monotonic seconds) with ``fraction`` of ``step`` done."""
        begun = self.section_started.setdefault(step.number, now)
        expected_before = step.done_before * step.seconds
        pace = (begun - self.started) / expected_before if expected_before >= 1 else 1.0
        spent = now - begun
        if fraction >= 0.05:
            this_left = spent * (1 - fraction) / fraction
        else:
            this_left = max(step.share * step.seconds * pace - spent, 0.0)
        return this_left + (1 - step.done_before - step.share) * step.seconds * pace


def minutes_text(seconds: float) -> str:
    """``1:05`` for 65 seconds."""
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


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
    run: Callable[[SectionRun], R]
    render: Callable[[R], str]
    seconds: float
    """Its run time at the default size on 2 idle cores (measured; only for the ETA)."""
    folder: str
    """Its folder under the report (also its study's name in ``meta.json`` and in the
    run-times log)."""


@dataclass
class SectionRun:
    """One section's run, opened by the report's builder: the report's settings, the
    section's folder (made when the run opens) and its clock."""

    config: ReportConfig
    name: str
    """The section's folder under the report, and its study's name."""
    started: float = field(default_factory=time.perf_counter)
    """When the run opened (``time.perf_counter``, seconds)."""

    def __post_init__(self) -> None:
        make_folder(self.folder)

    @property
    def folder(self) -> Path:
        return self.config.out / self.name

    @property
    def seed(self) -> int:
        return self.config.seed

    @property
    def scheduler(self) -> str | None:
        return self.config.scheduler

    def size(self, factor: float, least: int = 50) -> int:
        """:meth:`ReportConfig.size` (deals or games)."""
        return self.config.size(factor, least)

    def progress(self, study: str, total: int | None = None) -> Progress | None:
        """The progress callback of one study of this section (None when progress is
        off)."""
        if self.config.progress is None:
            return None
        step = self.config.step or ReportStep(1, 1, study, 0.0, 1.0)
        return self.config.progress(step.named(study), total)

    def write_meta(self, **details: object) -> None:
        """The section's ``meta.json``: its study, the run's seed, base size, command and
        version, and ``details`` (its sizes, rules and players)."""
        # no run time here: meta.json is committed, and a rerun must leave it unchanged
        # (run times go to the untracked run-times log)
        meta = {
            "study": self.name,
            "seed": self.config.seed,
            "base_deals": self.config.deals,
            "command": self.config.command,
            "version": __version__,
            **details,
        }
        write_text(self.folder / "meta.json", json.dumps(meta, indent=2, default=str) + "\n")

    def finish(self) -> None:
        """Log the section's run time (seconds) for the run-times log."""
        self.config.timings[self.name] = time.perf_counter() - self.started


def section_heading(title: str, number: int | None = None) -> str:
    """A section's Markdown heading, numbered when ``number`` is given, and the blank
    line after it."""
    return f"## {'' if number is None else f'{number}. '}{title}\n\n"


def section_intro(question: str, players: str, rules: str, relation: str = "") -> str:
    """The opening every section shares: the question it answers, who plays whom, under
    which rules, and (``relation``) how its answer relates to the report's opening answer, "When to knock",
    when the two could be read as one question."""
    text = f"**Question.** {question}\n\n**Who plays.** {players} **Rules:** {rules}.\n"
    if relation:
        text += f"\n**Not the opening answer's question.** {relation[0].upper()}{relation[1:]}\n"
    return text + "\n"


def format_number(value: float, digits: int = 2, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals (and a sign when ``sign``)."""
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def format_ci(mean: float, low: float, high: float, digits: int = 2, sign: bool = True) -> str:
    """``mean ± half-width`` of a 95% interval ``[low, high]``."""
    return f"{format_number(mean, digits, sign)} ± {(high - low) / 2:.{digits}f}"


__all__ = [
    "DEFAULT_DEALS",
    "QUICK_DEALS",
    "ReportConfig",
    "ReportStep",
    "Section",
    "SectionRun",
    "format_ci",
    "format_number",
    "section_heading",
    "section_intro",
]
