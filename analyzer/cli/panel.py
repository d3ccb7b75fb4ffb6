"""``panel-equilibrium``: the equilibrium over the whole opponent panel, and the knock
table that answers an opponent drawn from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
import pandas as pd

from ..core.limits import (
    MAX_LISTED_PLAYERS,
    MAX_PSRO_ITERATIONS,
    MAX_PSRO_TOLERANCE,
    MAX_SEARCH_DEALS,
    MIN_SEARCH_DEALS,
)
from ..report.files import csv_bytes, write_together
from ..report.text import (
    estimate_text,
    interval_column,
    interval_text,
    rules_text,
    table_lines,
    title_text,
)
from .files import check_out_folder
from .inputs import (
    JOBS,
    SEED,
    FiniteFloatRange,
    get_players,
    get_policy,
    get_rules,
    rules_options,
)
from .output import format_options, show_result
from .progress import progress_bar
from .run_control import scheduler_option, set_jobs

if TYPE_CHECKING:
    from ..gin.studies.panel_equilibrium import PanelEquilibrium


@click.command("panel-equilibrium")
@rules_options
@click.option(
    "--base",
    default="expert",
    show_default=True,
    help="Policy that plays everything but the knock in the knock-table responses.",
)
@click.option(
    "--members",
    default=None,
    help="The players it starts from besides the robust rule, comma-separated, each once, "
    f"at most {MAX_LISTED_PLAYERS} (default: the panel: basic, simple, gin-hunter, taper, "
    "marjj, expert, search,budget=64).",
)
@click.option(
    "--deals",
    type=click.IntRange(MIN_SEARCH_DEALS, MAX_SEARCH_DEALS),
    default=1_000,
    show_default=True,
    help="Deals per comparison (the knock-table search plays half as many, held-out checks "
    "twice as many).",
)
@click.option(
    "--iterations",
    type=click.IntRange(1, MAX_PSRO_ITERATIONS),
    default=4,
    show_default=True,
    help="Most iterations of the search (PSRO: add the strongest response to the mix, solve again).",
)
@click.option(
    "--tolerance",
    type=FiniteFloatRange(min=0, min_open=True, max=MAX_PSRO_TOLERANCE),
    default=0.1,
    show_default=True,
    help="Stop when the strongest response found gains no more than this on average "
    "(points per hand).",
)
@click.option(
    "--seed", type=SEED, default=2026, show_default=True, help="Random seed, 0 <= seed < 2**63."
)
@click.option("--jobs", type=JOBS, default=None, help="Threads.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    callback=check_out_folder,
    help="Write <rules>_mixture.csv, _convergence.csv, _payoffs.csv and _answer.csv into this "
    "folder (default: write nothing).",
)
@format_options
@click.option("--no-progress", is_flag=True, help="Hide progress.")
@scheduler_option
def panel_equilibrium_command(
    preset: str,
    overrides: tuple[str, ...],
    base: str,
    members: str | None,
    deals: int,
    iterations: int,
    tolerance: float,
    seed: int,
    jobs: int | None,
    out: str | None,
    fmt: str,
    no_progress: bool,
    scheduler: str | None,
) -> None:
    """Equilibrium over the whole opponent panel (PSRO), and the knock table against it.

    The players are whole players: basic, simple, gin-hunter, taper, the marjj replica,
    expert, search and BASE knocking by the committed robust table (results/robust_knock,
    else BASE's own table). Each iteration solves the matrix game of the population,
    then adds the strongest response found (a knock table with BASE play, every policy
    preset, or search modelling the mixture's heaviest player) while it gains more than
    the tolerance. Prints the convergence, the mixture and the knock table that does
    best against it, each in points per hand with 95% CI.

    \b
    Examples:
      analyzer panel-equilibrium --deals 1000
      analyzer panel-equilibrium --rules standard --out results/panel_equilibrium
    """
    from ..gin.studies.exploit import table_of
    from ..gin.studies.panel_equilibrium import panel_equilibrium
    from ..report.knock_answer import start_table

    set_jobs(jobs)
    rules = get_rules(preset, overrides)
    base_policy = get_policy(base)
    starting = None if members is None else get_players(members, "--members")
    start = table_of(base_policy) if overrides else start_table(preset, base_policy)
    with progress_bar(None, "hand", no_progress, "panel PSRO") as update:
        result = panel_equilibrium(
            rules,
            base_policy,
            start,
            deals,
            seed,
            iterations,
            tolerance,
            preset,
            search_deals=max(deals // 2, MIN_SEARCH_DEALS),
            members=starting,
            progress=update,
            scheduler=scheduler,
        )
    show_result(
        fmt,
        title_text(
            "Equilibrium over the opponent panel (PSRO over whole players)",
            rules=rules_text(preset, overrides),
            players=f"{base} plays everything but the knock in knock-table responses",
            size=f"{deals:,} deals per comparison",
            seed=seed,
        ),
        _body(result),
        panel_verdict(result, tolerance),
        notes=[
            (
                "mixture: the players of the equilibrium mixture with their weights; best "
                "response: the strongest player found against it, its gain measured on held-out "
                "deals; it joins the population when it gains more than the tolerance."
            ),
        ],
        raw=result.history
        if fmt == "csv"
        else {
            "rules": preset,
            "seed": seed,
            "deals": deals,
            "mixture": result.mixture_frame().to_dict(orient="records"),
            "convergence": json.loads(result.history.to_json(orient="records")),
            "answer": _answer_text(result),
        },
    )
    if out is not None:
        folder = Path(out)
        write_together(
            folder,
            {
                f"{preset}_mixture.csv": csv_bytes(result.mixture_frame(), index=False),
                f"{preset}_convergence.csv": csv_bytes(result.history, index=False),
                f"{preset}_payoffs.csv": csv_bytes(result.payoff_frame(), index=False),
                f"{preset}_answer.csv": csv_bytes(result.answer_frame(), index=False),
            },
        )
        click.echo(
            f"wrote {folder / preset}_mixture.csv, _convergence.csv, _payoffs.csv, _answer.csv",
            err=True,
        )


def _body(result: PanelEquilibrium) -> list[str]:
    history = result.history
    return table_lines(
        pd.DataFrame(
            {
                "iteration": history["iteration"],
                "mixture": history["support"],
                "best response": history["best_response"],
                "its gain": interval_column(history, "gain"),
                "joins": ["yes" if joins else "no" for joins in history["joins"]],
            }
        )
    )


def _answer_text(result: PanelEquilibrium) -> str:
    from ..gin.studies.answers import rule_text
    from ..gin.studies.exploit import table_of

    return (
        f"{rule_text(table_of(result.answer))} "
        f"({estimate_text(result.answer_value, 2, sign=True)} points per hand against the "
        "mixture)"
    )


def panel_verdict(result: PanelEquilibrium, tolerance: float) -> str:
    """The mixture, whether it converged, and the knock answer to it, in words."""
    last = result.history.iloc[-1]
    gain = interval_text(last["gain"], last["gain_low"], last["gain_high"], sign=True)
    if last["joins"]:
        state = (
            f"after {int(last['iteration'])} iterations the strongest response found, "
            f"{last['best_response']}, still gains {gain} points per hand on it (more "
            "--iterations or --deals may close the gap)"
        )
    else:
        state = (
            f"no response found gains more than {tolerance:.2f} points per hand on it on "
            f"average (the strongest, {last['best_response']}, gets {gain})"
        )
    return (
        f"Mixture: {result.mixture_text()}; {state}. Knock answer against it: "
        f"{_answer_text(result)}."
    )
