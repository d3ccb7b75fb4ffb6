"""What every report section shares: the run's configuration and small helpers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.progress import Progress

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

    def progress_of(self, entry: Entry) -> Progress | None:
        """The progress callback of one entry's run (None when progress is off)."""
        if self.progress is None:
            return None
        step = self.step or ReportStep(1, 1, entry.label or entry.study, 0.0, 1.0)
        return self.progress(step, None)


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


@dataclass(frozen=True)
class Entry:
    """One answer of the report: a study run with the values the report gives it (at
    the report's size and seed), saved in its folder under the report."""

    study: str
    """The study's name (its command)."""
    folder: str
    """Where its answer is saved, under the report folder."""
    values: Callable[[ReportConfig], Mapping[str, Any]] = lambda config: {}
    """Its parameters at the report's size (the others keep their defaults)."""
    rules: str = "standard"
    seconds: float = 1.0
    """Its run time at the default size (seconds; for the ETA, which reads only each
    entry's share of the whole and scales it by the pace seen): half the wall time of
    the report of 2026-12-07 at load 4-8 (``results/run_times.log``)."""
    run: bool = True
    """Whether the report computes it (False: its own command does, and the report only
    reads what that command saved, when it is there)."""
    required: bool = True
    """Whether the section cannot be written without it (False: it adds to it)."""
    label: str = ""
    """How the progress line names it."""

    def command(self, config: ReportConfig) -> str:
        """The command that computes this entry into the report folder."""
        from ..studies.answer import command_line
        from ..studies.inputs import make_inputs
        from ..studies.registry import STUDIES

        study = STUDIES[self.study]
        inputs = make_inputs(study, self.values(config), rules=self.rules, seed=config.seed)
        return command_line(study, inputs, out=(config.out / self.folder).as_posix())


#: The answers a section's template gets: each entry's by its folder (None: not saved).
Found = Mapping[str, Any]


@dataclass(frozen=True)
class Section:
    """One section of the report: its entries, and a template that writes its Markdown
    from their answers."""

    name: str
    """Its name for ``analyzer report --only``."""
    title: str | None
    """Its heading (numbered by its place in the report); None: a box at the top."""
    entries: tuple[Entry, ...]
    template: Callable[[Found, ReportConfig], str]


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
    "Entry",
    "Found",
    "ReportConfig",
    "ReportStep",
    "Section",
    "format_ci",
    "format_number",
    "section_heading",
    "section_intro",
]
