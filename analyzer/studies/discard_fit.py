"""The fit of the learned discard's weights, declared once (``fit-discard``): the fit
(:mod:`analyzer.gin.studies.discard_fit`) as tables (the held-out comparison, every
candidate of every generation, the weights from start to fit) and one fact, ``fit``: the
fitted weights with what reproduces them (the document ``weights.json`` used to hold),
whose ``policy`` is the fitted policy's string form.  Its answer reads as the fit's
report: how it was made, the weights and their held-out gain."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.limits import MAX_FIT_DEALS, MAX_FIT_GENERATIONS, MAX_FIT_POPULATION, MAX_FIT_SOFTNESS
from ..core.progress import Progress
from ..gin.studies.discard_fit import FIT_SPACE, DiscardFit
from .answer import command_line
from .charts import Axis, Chart, Mark, Panel, column
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import CI_NOTE, MAX_WIDTH, interval_column, table_lines, wrapped


def fitted_weights(fit: DiscardFit) -> dict[str, int]:
    """The fitted fields by their policy keys."""
    return {key: int(fit.fitted.value(key)) for key, *_ in FIT_SPACE}


def candidates_frame(fit: DiscardFit) -> pd.DataFrame:
    """One row per candidate of every generation: its weights, its points per hand
    against each opponent (the incumbent last) and its score."""
    names = [*fit.held_out, "incumbent"]
    rows = []
    for number, generation in enumerate(fit.generations):
        for c, weights in enumerate(generation.weights):
            row: dict[str, object] = {"generation": number, "candidate": c}
            row.update({key: round(w) for (key, *_), w in zip(FIT_SPACE, weights, strict=True)})
            row.update({f"v {name}": generation.points[c, o] for o, name in enumerate(names)})
            row["score"] = generation.scores[c]
            rows.append(row)
    return pd.DataFrame(rows)


def held_out_frame(fit: DiscardFit) -> pd.DataFrame:
    """Per opponent: the fitted policy's points per hand and its gain over the start."""
    return pd.DataFrame(
        [
            {
                "opponent": name,
                "points": fit.held_out_points[name].mean,
                "points_low": fit.held_out_points[name].low,
                "points_high": fit.held_out_points[name].high,
                "gain": gain.mean,
                "gain_low": gain.low,
                "gain_high": gain.high,
                "deals": fit.held_out_deals,
            }
            for name, gain in fit.held_out.items()
        ]
    )


def fit_document(fit: DiscardFit) -> dict[str, Any]:
    """The fitted weights with what reproduces them."""
    from ..gin.model.policies import format_policy

    return {
        "rules": fit.rules,
        "seed": fit.seed,
        "generations": len(fit.generations),
        "population": fit.population,
        "elite": fit.elite,
        "deals": fit.deals,
        "softness": fit.softness,
        "opponents": list(fit.held_out),
        "weights": fitted_weights(fit),
        "start": format_policy(fit.start),
        "policy": format_policy(fit.fitted),
    }


def _fit(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.model.policies import PRESETS
    from ..gin.studies.discard_fit import fit_discard

    if inputs["elite"] > inputs["population"]:
        raise ValueError(
            f"elite must be at most population ({inputs['population']}), got {inputs['elite']}"
        )
    fit = fit_discard(
        inputs.rules,
        inputs.rules_name,
        PRESETS["expert-v3"],
        generations=inputs["generations"],
        population=inputs["population"],
        elite=inputs["elite"],
        deals=inputs["deals"],
        held_out_deals=inputs["held_out"],
        softness=inputs["softness"],
        seed=inputs.seed,
        progress=progress,
    )
    weights = pd.DataFrame(
        {
            "field": [key for key, *_ in FIT_SPACE],
            "start": [int(fit.start.value(key)) for key, *_ in FIT_SPACE],
            "fitted": list(fitted_weights(fit).values()),
        }
    )
    tables = {
        "held_out": held_out_frame(fit),
        "weights": weights,
        "candidates": candidates_frame(fit),
    }
    return Computed(tables, {"fit": fit_document(fit)}, result=fit)


def fit_verdict(held: pd.DataFrame) -> str:
    """Where the fitted weights gain, lose, or are too close to call (95% CI)."""
    groups: dict[str, list[str]] = {"gain": [], "lose": [], "close": []}
    for row in held.itertuples():
        key = "gain" if row.gain_low > 0 else "lose" if row.gain_high < 0 else "close"
        groups[key].append(str(row.opponent))
    parts = []
    if groups["gain"]:
        parts.append(f"gain over the starting weights against {', '.join(groups['gain'])}")
    if groups["lose"]:
        parts.append(f"lose against {', '.join(groups['lose'])}")
    if groups["close"]:
        parts.append(f"are too close to call against {', '.join(groups['close'])}")
    return "The fitted weights " + "; they ".join(parts) + " (95% CI)."


def _present(answer: Any) -> View:
    inputs, held, weights = answer.inputs, answer["held_out"], answer["weights"]
    fit = answer.facts["fit"]
    generations, population, deals = inputs["generations"], inputs["population"], inputs["deals"]
    opponents = fit["opponents"]
    fitted = ", ".join(f"{k}={v}" for k, v in fit["weights"].items())
    title = inputs.title(
        "Learned discard fit",
        size=f"{generations} generations of {population} candidates, {deals:,} deals per "
        f"opponent; {inputs['held_out']:,} held-out deals",
    )
    shown = pd.DataFrame(
        {
            "opponent": held["opponent"],
            "fitted, points per hand": interval_column(held, "points", sign=True),
            "gain over the start": interval_column(held, "gain", sign=True),
        }
    )
    hands = generations * population * (len(opponents) + 1) * deals * 2
    paragraphs = [
        (
            f"Fitted by `{command_line(answer.study, inputs)}`: rules {inputs.rules_name}, "
            f"seed {inputs.seed}, {generations} generations of {population} candidates (the "
            f"{inputs['elite']} best set the next mean), each candidate playing {deals:,} deals "
            f"(seats swapped) against each of {', '.join(opponents)} and the incumbent, on the "
            f"same deals within a generation: {hands:,} hands. Score: the soft minimum (T = "
            f"{inputs['softness']:g} points) of the points per hand over the panel."
        ),
        (
            "Weights are hundredths of a point per unit of each feature of a throw "
            "(`analyzer policies` explains them), as costs: the throw with the least weighted "
            "sum is thrown, among those within `learned_window` points of the least deadwood."
        ),
    ]
    lines = [*wrapped(title, indent="  "), ""]
    for paragraph in paragraphs:
        lines += [*wrapped(paragraph), ""]
    lines += [*table_lines(weights), ""]
    lines += wrapped(
        f"Held out: {inputs['held_out']:,} fresh deals per opponent (seats swapped), the "
        "fitted weights against the starting ones on the same deals, points per hand with "
        "95% intervals:"
    )
    lines += ["", *table_lines(shown), CI_NOTE, ""]
    # the policy broken after its commas, to fit the width: the lines joined are the string
    pieces = wrapped(fit["policy"].replace(",", ", "), MAX_WIDTH - 2)
    lines += [
        "The fitted policy (its lines joined):",
        *("  " + p.replace(", ", ",") for p in pieces),
    ]
    verdict = fit_verdict(held)
    lines += ["", *wrapped(verdict)]
    chart = Chart(
        "held_out",
        f"The fitted discard weights against the starting ones: rules {inputs.rules_name}",
        f"Per opponent, on {inputs['held_out']:,} fresh deals (seats swapped): the fitted "
        "policy's points per hand, and its gain over the starting weights on the same deals, "
        f"with 95% CIs; seed {inputs.seed}. Fitted: {fitted}.",
        tuple(
            Panel(
                (
                    Mark(
                        "hbars",
                        x=column(held[name]),
                        y=column(held["opponent"]),
                        low=column(held[f"{name}_low"]),
                        high=column(held[f"{name}_high"]),
                        color=color,
                    ),
                    Mark("vline", x=(0.0,), color=7),
                ),
                title=heading,
                x_label="points per hand",
                y=Axis(reversed=True),
                legend="none",
            )
            for color, (name, heading) in enumerate(
                (("points", "Fitted, points per hand"), ("gain", "Gain over the start"))
            )
        ),
        size=(11, 1.5 + 0.5 * len(held)),
    )
    return View(title, shown, verdict, chart, text="\n".join(lines))


FIT_DISCARD = register(
    Study(
        "fit-discard",
        "Fit the learned discard's weights (discard=learned) from simulated deals.",
        "The fit starts from the expert with the learned discard's default weights and "
        "improves them by the cross-entropy method against a panel of opponents; the "
        "fitted weights are then compared with the starting ones on fresh deals.",
        ("analyzer fit-discard --rules eaai --generations 5 --out results/fit_discard",),
        (
            Param(
                "generations",
                Kind.COUNT,
                6,
                "Generations of the cross-entropy method.",
                high=MAX_FIT_GENERATIONS,
            ),
            Param(
                "population",
                Kind.COUNT,
                10,
                "Candidate weight vectors per generation.",
                low=2,
                high=MAX_FIT_POPULATION,
            ),
            Param(
                "elite",
                Kind.COUNT,
                3,
                "Best candidates that set the next generation's mean (at most population).",
                high=MAX_FIT_POPULATION,
            ),
            Param(
                "deals",
                Kind.COUNT,
                2_000,
                "Deals per candidate and opponent (each played twice, seats swapped).",
                low=100,
                high=MAX_FIT_DEALS,
            ),
            Param(
                "held_out",
                Kind.COUNT,
                10_000,
                "Fresh deals per opponent comparing the fitted weights with the start.",
                low=100,
                high=MAX_FIT_DEALS,
            ),
            Param(
                "softness",
                Kind.NUMBER,
                2.0,
                "T of the soft minimum of the points per hand over the panel (points).",
                low=0.0,
                high=MAX_FIT_SOFTNESS,
            ),
        ),
        _fit,
        _present,
        keys={
            "held_out": ("opponent",),
            "weights": ("field",),
            "candidates": ("generation", "candidate"),
        },
        step="fitting",
        scheduler=False,
        notebook="The fit's fields read through (``.fitted``, ``.held_out``...); "
        "``.facts['fit']``: the fitted weights and policy; ``.plot()``: the held-out gains.",
    )
)


__all__ = ["FIT_DISCARD", "candidates_frame", "fit_document", "fit_verdict", "held_out_frame"]
