"""``analyzer fit-discard``: fit the learned discard's weights from simulated deals and
write them, with the fit's report, into a folder."""

from __future__ import annotations

import shlex
import time
from pathlib import Path

import click
import pandas as pd

from ..core.limits import (
    MAX_FIT_DEALS,
    MAX_FIT_GENERATIONS,
    MAX_FIT_POPULATION,
    MAX_FIT_SOFTNESS,
)
from ..gin.model.policies import PRESETS
from ..gin.studies.discard_fit import DiscardFit, fit_discard
from ..report.discard_fit import REPORT_FILE, fit_files, fitted_weights, held_out_frame
from ..report.files import write_together
from ..report.text import plus_minus
from .files import out_option
from .inputs import FiniteFloatRange, fail, get_rules, rules_preset_option
from .output import format_options, show_result
from .progress import progress_bar
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
@out_option(
    "Write weights.json, candidates.csv, held_out.csv and README.md into this folder "
    "(checked writable before the run; default: write nothing).",
    as_path=True,
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
            PRESETS["expert-v3"],
            generations=generations,
            population=population,
            elite=elite,
            deals=deals,
            held_out_deals=held_out,
            softness=softness,
            seed=seed,
            progress=progress,
        )
    command = shlex.join(
        [
            "analyzer",
            "fit-discard",
            *("--rules", preset, "--generations", str(generations)),
            *("--population", str(population), "--elite", str(elite)),
            *("--deals", str(deals), "--held-out", str(held_out)),
            *("--softness", f"{softness:g}", "--seed", str(seed)),
            *(() if out is None else ("--out", str(out))),
        ]
    )
    if out is not None:
        write_together(out, fit_files(fit, command, time.perf_counter() - started))
    held = held_out_frame(fit)
    table = pd.DataFrame(
        {
            "opponent": held["opponent"],
            "points per hand": [
                plus_minus(e.mean, e.half_width, sign=True) for e in fit.held_out_points.values()
            ],
            "gain over the start": [
                plus_minus(e.mean, e.half_width, sign=True) for e in fit.held_out.values()
            ],
        }
    )
    weights = ", ".join(f"{k}={v}" for k, v in fitted_weights(fit).items())
    title = (
        f"Learned discard fit · rules {preset} · {generations} generations of {population} "
        f"candidates · seed {seed} · {deals:,} deals per candidate and opponent, seats "
        f"swapped; held out: {held_out:,} fresh deals per opponent, the fitted weights "
        f"against the starting ones. Fitted: {weights}"
    )
    show_result(fmt, title, table, _verdict(fit), raw=held)
    if out is not None:
        click.echo(f"Written to {out / REPORT_FILE} and beside it.")


def _verdict(fit: DiscardFit) -> str:
    """Where the fitted weights gain, lose, or are too close to call (95% CI)."""
    groups: dict[str, list[str]] = {"gain": [], "lose": [], "close": []}
    for name, gain in fit.held_out.items():
        key = "gain" if gain.low > 0 else "lose" if gain.high < 0 else "close"
        groups[key].append(name)
    parts = []
    if groups["gain"]:
        parts.append(f"gain over the starting weights against {', '.join(groups['gain'])}")
    if groups["lose"]:
        parts.append(f"lose against {', '.join(groups['lose'])}")
    if groups["close"]:
        parts.append(f"are too close to call against {', '.join(groups['close'])}")
    return "The fitted weights " + "; they ".join(parts) + " (95% CI)."
