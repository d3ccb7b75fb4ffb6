"""The ``report`` command: the standard report."""

from __future__ import annotations

import time
from contextlib import ExitStack

import click

from ..core.limits import MAX_REPORT_DEALS
from ..core.progress import Progress
from ..report.common import ReportClock, ReportConfig, ReportStep, minutes_text
from ..report.sections import SECTIONS
from ..studies.study import DEFAULT_SEED
from .files import out_option
from .inputs import JOBS, SEED, fail
from .progress import progress_bar, progress_hidden
from .run_control import (
    checkpoint_options,
    interrupted,
    run_checkpoint,
    scheduler_option,
    set_jobs,
)
from .warm import start_beside

#: Largest base size of the report (see --deals).


@click.command("report")
@click.option(
    "--deals",
    type=click.IntRange(100, MAX_REPORT_DEALS),
    default=None,
    help="Base size: deals per arm of the knock sweep (default 20,000); every "
    "study scales from it (the variants study keeps a quarter of it as "
    "rows: under 0.5 GB at the top of the range).",
)
@click.option("--quick", is_flag=True, help="A small smoke run (1,500 deals).")
@click.option(
    "--seed",
    type=SEED,
    default=DEFAULT_SEED,
    show_default=True,
    help="Random seed, 0 <= seed < 2**63.",
)
@out_option(
    "Folder for the report (checked writable before the run; every file appears at the end "
    "of the run, together: a run that fails or is stopped leaves the folder as it was).",
    default="results",
)
@click.option(
    "--only",
    default=None,
    help=f"Comma-separated sections to run ({', '.join(s.name for s in SECTIONS)}; default "
    "all); README.md keeps the other sections, rendered from the answers already saved.",
)
@click.option("--jobs", type=JOBS, default=None, help="Threads.")
@click.option("--no-progress", is_flag=True, help="Hide progress.")
@checkpoint_options
@scheduler_option
def report_command(
    deals: int | None,
    quick: bool,
    seed: int,
    out: str,
    only: str | None,
    jobs: int | None,
    no_progress: bool,
    checkpoint: str | None,
    resume: bool,
    scheduler: str | None,
) -> None:
    """Run every study and write the report (Markdown, PNG, CSV) into --out.

    \b
    Example:
      analyzer report              # the committed results/ (see its time below)
      analyzer report --quick --out /tmp/report
      analyzer report --checkpoint report.json      # Ctrl-C, then add --resume

    The standard report takes about 20 min of CPU: 13 for the gin sections (29 min
    wall on 2 cores shared at load 4-8) and 7 for plain rummy's (21 min wall at load
    6-13); BENCHMARKS.md, "The standard report".  With --checkpoint, every study saves
    its finished chunks; --resume runs the report
    again, taking them from the file, and writes the same files bit for bit.
    """
    from pathlib import Path

    from ..report.build import DEFAULT_DEALS, QUICK_DEALS, RUN_TIMES_LOG, generate_report

    size = deals or (QUICK_DEALS if quick else DEFAULT_DEALS)
    sections = None if only is None else [s.strip() for s in only.split(",")]
    if sections is not None:
        names = [section.name for section in SECTIONS]
        unknown = [s for s in sections if s not in names]
        if unknown:
            fail(f"unknown section {unknown[0]!r}; choose from {', '.join(names)}")
    set_jobs(jobs)
    command = " ".join(
        [
            "analyzer report",
            *([f"--deals {deals}"] if deals else []),
            *(["--quick"] if quick and not deals else []),
            *([f"--seed {seed}"] if seed != DEFAULT_SEED else []),
        ]
    )

    bars = ExitStack()
    clock = ReportClock(time.monotonic())

    def step_bar(step: ReportStep, total: int | None) -> Progress:
        """A fresh bar for each study of the report (closing the one before), described
        by its step and the time left for the whole report."""
        bars.close()

        def describe(fraction: float) -> str:
            return (
                f"{step.label} · ETA {minutes_text(clock.left(step, fraction, time.monotonic()))}"
            )

        return bars.enter_context(progress_bar(total, "unit", no_progress, describe=describe))

    config = ReportConfig(
        out=Path(out),
        deals=size,
        seed=seed,
        command=command,
        progress=step_bar,
        scheduler=scheduler,
    )
    identity = {
        "command": "report",
        "deals": size,
        "seed": seed,
        "only": sections,
        "out": str(Path(out).absolute()),
    }
    # the whole report leaves every kernel compiled: those of the advisor and plain
    # rummy compile in a second process while this one compiles the engine's
    whole = sections is None and not quick and scheduler is None
    with run_checkpoint(checkpoint, resume, identity) as saved:
        beside = start_beside() if whole else None
        try:
            with bars:
                path = generate_report(config, sections)
        except KeyboardInterrupt:
            if beside is not None:
                beside.terminate()
            interrupted(False, None, saved)
    click.echo(f"wrote {path} (run times appended to {path.parent / RUN_TIMES_LOG})")
    if beside is not None and beside.poll() is None:
        if not progress_hidden(no_progress):
            click.echo("finishing the advisor's kernels (first run only)", err=True)
        beside.wait()
