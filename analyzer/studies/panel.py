"""The equilibrium over the whole opponent panel, declared once (``panel-equilibrium``):
PSRO over whole players and the knock table that does best against the mixture
(:mod:`analyzer.gin.studies.panel_equilibrium`), presented from its tables alone.  One
run per rules preset, saved in its own folder:
``analyzer panel-equilibrium --rules R --out results/panel_equilibrium/R``."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.limits import MAX_LISTED_PLAYERS, MIN_SEARCH_DEALS
from ..core.progress import Progress
from .answer import records
from .charts import Axis, Chart, Mark, Panel, column
from .equilibrium import (
    estimate_of,
    gain_panel,
    iterations,
    search_deals,
    tolerance,
    without_rules,
)
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import estimate_text, interval_column, interval_text, table_lines


def _start_table(inputs: Inputs) -> tuple[int, ...]:
    """The knock table the robust player starts from: the kept robust table of the rules
    preset (``results/robust_knock/<rules>/``), else BASE's own."""
    from ..gin.studies.exploit import table_of
    from .equilibrium import kept_robust_table

    kept = None if inputs.changed else kept_robust_table(inputs.preset)
    return table_of(inputs["base"]) if kept is None else kept[0]


def _panel_equilibrium(
    inputs: Inputs, progress: Progress | None, scheduler: str | None
) -> Computed:
    from ..gin.studies.panel_equilibrium import panel_equilibrium

    deals = inputs["deals"]
    result = panel_equilibrium(
        inputs.rules,
        inputs["base"],
        _start_table(inputs),
        deals,
        inputs.seed,
        inputs["iterations"],
        inputs["tolerance"],
        inputs.preset,
        search_deals=max(deals // 2, MIN_SEARCH_DEALS),
        members=inputs["members"],
        progress=progress,
        scheduler=scheduler,
    )
    tables = {
        "convergence": result.history,
        "mixture": result.mixture_frame(),
        "answer": result.answer_frame(),
        "payoffs": result.payoff_frame(),
    }
    return Computed(without_rules(tables), result=result)


def answer_text(answer: pd.DataFrame) -> str:
    """The knock answer to the mixture (its one-row table) in words, with its points per
    hand against the mixture."""
    from ..gin.studies.answers import rule_text
    from ..gin.studies.exploit import parse_table

    row = answer.iloc[0]
    value = estimate_text(estimate_of(row, "points", int(row["deals"])), 2, sign=True)
    return (
        f"{rule_text(parse_table(str(row['table'])))} ({value} points per hand against the mixture)"
    )


def panel_verdict(
    history: pd.DataFrame, mixture: pd.DataFrame, answer: pd.DataFrame, tolerance: float
) -> str:
    """The mixture, whether it converged (no response gains more than ``tolerance``
    points per hand), and the knock answer to it, in words."""
    from ..gin.studies.panel_equilibrium import mixture_text

    last = history.iloc[-1]
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
        f"Mixture: {mixture_text(mixture)}; {state}. Knock answer against it: "
        f"{answer_text(answer)}."
    )


def _present(answer: Any) -> View:
    inputs, history, mixture = answer.inputs, answer["convergence"], answer["mixture"]
    deals, tolerance_points = inputs["deals"], inputs["tolerance"]
    body = table_lines(
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
    shown = mixture[mixture["weight"] > 0.005]
    weights = Mark("hbars", x=column(shown["weight"]), y=column(shown["player"]), color=2)
    chart = Chart(
        "panel_equilibrium",
        f"Equilibrium over the opponent panel: {inputs.rules_name} rules",
        "Left: the players of the equilibrium mixture (weights over half a percent). Right: "
        "the strongest response's held-out gain against the mixture by iteration, with its "
        f"95% CI, and the tolerance; {deals:,} deals per comparison, seed {inputs.seed}.",
        (
            Panel(
                (weights,),
                title="Mixture",
                x_label="weight",
                x=Axis(low=0.0, high=1.0),
                y=Axis(reversed=True),
                legend="none",
            ),
            gain_panel(history, "gain", "Strongest response", tolerance_points),
        ),
        size=(13, 3.8),
    )
    data = {
        "rules": inputs.preset,
        "seed": inputs.seed,
        "deals": deals,
        "mixture": records(mixture),
        "convergence": records(history),
        "answer": answer_text(answer["answer"]),
    }
    return View(
        inputs.title(
            "Equilibrium over the opponent panel (PSRO over whole players)",
            players=f"{inputs.labels['base']} plays everything but the knock in knock-table "
            "responses",
            size=f"{deals:,} deals per comparison",
        ),
        body,
        panel_verdict(history, mixture, answer["answer"], tolerance_points),
        chart,
        notes=[
            (
                "mixture: the players of the equilibrium mixture with their weights; best "
                "response: the strongest player found against it, its gain measured on held-out "
                "deals; it joins the population when it gains more than the tolerance."
            ),
        ],
        raw=history,
        data=data,
    )


PANEL_EQUILIBRIUM = register(
    Study(
        "panel-equilibrium",
        "Equilibrium over the whole opponent panel (PSRO), and the knock table against it.",
        "The players are whole players: basic, simple, gin-hunter, taper, the marjj "
        "replica, expert, search and BASE knocking by the committed robust table "
        "(results/robust_knock/<rules>/, else BASE's own table). Each iteration solves the "
        "matrix game of the population, then adds the strongest response found (a knock "
        "table with BASE play, every policy preset, or search modelling the mixture's "
        "heaviest player) while it gains more than the tolerance. Prints the convergence, "
        "the mixture and the knock table that does best against it, each in points per hand "
        "with 95% CI.",
        (
            "analyzer panel-equilibrium --deals 1000",
            "analyzer panel-equilibrium --rules standard --out results/panel_equilibrium/standard",
        ),
        (
            Param(
                "base",
                Kind.POLICY,
                "expert",
                "Policy that plays everything but the knock in the knock-table responses.",
            ),
            Param(
                "members",
                Kind.PLAYERS,
                None,
                "The players it starts from besides the robust rule, each once (default: "
                "the panel: basic, simple, gin-hunter, taper, marjj, expert, "
                f"search,budget=64; at most {MAX_LISTED_PLAYERS}).",
                keyword_only=True,
            ),
            search_deals(
                "Deals per comparison (the knock-table search plays half as many, held-out "
                "checks twice as many).",
                1_000,
            ),
            iterations(
                4,
                "Most iterations of the search (PSRO: add the strongest response to the mix, "
                "solve again).",
            ),
            tolerance(
                "Stop when the strongest response found gains no more than this on average "
                "(points per hand)."
            ),
        ),
        _panel_equilibrium,
        _present,
        keys={
            "convergence": ("iteration",),
            "mixture": ("player",),
            "answer": ("table",),
            "payoffs": ("row", "column"),
        },
        unit="hand",
        step="panel PSRO",
        notebook="``.mixture_frame()``: the mixture; ``.answer`` and ``.answer_value``: the "
        "knock table and its points per hand against it; ``.plot()``: the mixture and the "
        "convergence.",
    )
)


__all__ = ["PANEL_EQUILIBRIUM", "answer_text", "panel_verdict"]
