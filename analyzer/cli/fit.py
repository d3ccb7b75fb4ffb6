"""``analyzer fit-discard``: fit the learned discard's weights from simulated deals and
write them, with the fit's report, into a folder."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from ..core.limits import MAX_FIT_DEALS, MAX_FIT_ROLLOUTS, MAX_FIT_ROUNDS
from ..gin.model.policies import PRESETS
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.studies.discard_fit import FIT_OPPONENTS, fit_discard
from ..report.discard_fit import REPORT_FILE, fit_files
from ..report.files import write_together
from .files import check_out_path
from .inputs import rules_preset_option
from .progress import progress_bar
from .run_control import run_options, set_jobs


@click.command("fit-discard")
@rules_preset_option()
@click.option(
    "--deals",
    type=click.IntRange(100, MAX_FIT_DEALS),
    default=20_000,
    show_default=True,
    help="Deals against each opponent per round (each gives one weighed position).",
)
@click.option(
    "--rollouts",
    type=click.IntRange(1, MAX_FIT_ROLLOUTS),
    default=2,
    show_default=True,
    help="Rollouts of each throw to the end of the hand.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, MAX_FIT_ROUNDS),
    default=2,
    show_default=True,
    help="Rounds of policy improvement (each plays its rollouts with the last weights).",
)
@click.option(
    "--out",
    default="results/fit_discard",
    show_default=True,
    callback=check_out_path,
    help="Folder for weights.json, rounds.csv and README.md.",
)
@run_options
def fit_discard_command(
    preset: str,
    deals: int,
    rollouts: int,
    rounds: int,
    out: Path,
    seed: int,
    jobs: int | None,
    no_progress: bool,
) -> None:
    """Fit the learned discard's weights (``discard=learned``) from simulated deals.

    \b
    Example:
      analyzer fit-discard --rules eaai --seed 2026 --out results/fit_discard
    """
    from .inputs import get_rules

    set_jobs(jobs)
    rules = get_rules(preset, ())
    with progress_bar(None, "deal", no_progress, desc="fitting") as progress:
        fit = fit_discard(
            rules,
            preset,
            PRESETS["expert"],
            FIT_OPPONENTS,
            deals,
            rollouts,
            rounds,
            seed,
            progress,
        )
    command = shlex.join(["analyzer", *sys.argv[1:]]) if sys.argv[1:] else "analyzer fit-discard"
    write_together(out, fit_files(fit, command))
    last = fit.rounds[-1]
    click.echo(f"Learned discard · rules {preset} · seed {seed} · {deals:,} deals a round")
    click.echo(f"  held-out gain of the last round: {last.gain.mean:+.3f} ± {last.gain.half_width:.3f} points per decision")
    click.echo(f"  weights: {', '.join(f'{k}={v}' for k, v in last.weights.items())}")
    click.echo(f"Written to {out / REPORT_FILE} and beside it.")
