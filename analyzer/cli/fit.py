"""``analyzer fit-discard``: fit the learned discard's weights from simulated deals and
write them, with the fit's report, into a folder."""

from __future__ import annotations

import shlex
import sys
import textwrap
import time
from pathlib import Path

import click

from ..core.limits import (
    MAX_FIT_DEALS,
    MAX_FIT_GENERATIONS,
    MAX_FIT_POPULATION,
    MAX_FIT_SOFTNESS,
)
from ..gin.model.policies import PRESETS
from ..gin.studies.discard_fit import fit_discard
from ..report.discard_fit import REPORT_FILE, fit_files, fitted_weights, held_out_frame
from ..report.files import write_together
from .files import check_out_path
from .inputs import FiniteFloatRange, fail, get_rules, rules_preset_option
from .output import echo_frame, format_options
from .progress import MAX_WIDTH, progress_bar
from .run_control import run_options, set_jobs


@click.command("fit-discard")
@rules_preset_option()
@click.option(
    "--generations",
    type=click.IntRange(1, MAX_FIT_GENERATIONS),
    default=6,
    show_default=True,
    help="Generations of the cross-entropy method.",
)
@click.option(
    "--population",
    type=click.IntRange(2, MAX_FIT_POPULATION),
    default=10,
    show_default=True,
    help="Candidate weight vectors per generation.",
)
@click.option(
    "--elite",
    type=click.IntRange(1, MAX_FIT_POPULATION),
    default=3,
    show_default=True,
    help="Best candidates that set the next generation's mean (at most --population).",
)
@click.option(
    "--deals",
    type=click.IntRange(100, MAX_FIT_DEALS),
    default=2_000,
    show_default=True,
    help="Deals per candidate and opponent (each played twice, seats swapped).",
)
@click.option(
    "--held-out",
    "held_out",
    type=click.IntRange(100, MAX_FIT_DEALS),
    default=10_000,
    show_default=True,
    help="Fresh deals per opponent comparing the fitted weights with the start.",
)
@click.option(
    "--softness",
    type=FiniteFloatRange(0.1, MAX_FIT_SOFTNESS),
    default=2.0,
    show_default=True,
    help="T of the soft minimum of the points per hand over the panel (points).",
)
@click.option(
    "--out",
    default=None,
    callback=check_out_path,
    help="Write weights.json, candidates.csv, held_out.csv and README.md into this folder "
    "(checked writable before the run; default: write nothing).",
)
@format_options
@run_options
def fit_discard_command(
    preset: str,
    generations: int,
    population: int,
    elite: int,
    deals: int,
    held_out: int,
    softness: float,
    out: Path | None,
    fmt: str,
    seed: int,
    jobs: int | None,
    no_progress: bool,
) -> None:
    """Fit the learned discard's weights (discard=learned) from simulated deals,
    starting from the expert with the learned discard's default weights.

    \b
    Example:
      analyzer fit-discard --rules eaai --seed 2026 --out results/fit_discard
    """
    if elite > population:
        fail(f"--elite must be at most --population ({population}), got {elite}")
    set_jobs(jobs)
    rules = get_rules(preset, ())
    started = time.perf_counter()
    with progress_bar(None, "deal", no_progress, desc="fitting") as progress:
        fit = fit_discard(
            rules,
            preset,
            PRESETS["expert"],
            generations=generations,
            population=population,
            elite=elite,
            deals=deals,
            held_out_deals=held_out,
            softness=softness,
            seed=seed,
            progress=progress,
        )
    command = shlex.join(["analyzer", "fit-discard", *sys.argv[2:]])
    if out is not None:
        write_together(out, fit_files(fit, command, time.perf_counter() - started))
    if fmt != "table":
        echo_frame(held_out_frame(fit), fmt)
        return
    click.echo(f"Learned discard · rules {preset} · seed {seed} · fitted weights:")
    weights = ", ".join(f"{k}={v}" for k, v in fitted_weights(fit).items())
    click.echo(textwrap.fill(weights, MAX_WIDTH, initial_indent="  ", subsequent_indent="  "))
    click.echo(f"Against the starting weights, {held_out:,} fresh deals per opponent:")
    for name, gain in fit.held_out.items():
        points = fit.held_out_points[name]
        click.echo(
            f"  v {name}: {points.mean:+.2f} points per hand, "
            f"{gain.mean:+.2f} ± {gain.half_width:.2f} over the start"
        )
    if out is not None:
        click.echo(f"Written to {out / REPORT_FILE} and beside it.")
