"""The files of a discard fit (``analyzer fit-discard``): the weights as JSON, every
candidate of every generation as CSV, and a Markdown report."""

from __future__ import annotations

import json

import pandas as pd

from ..gin.model.policies import format_policy
from ..gin.studies.discard_fit import FIT_SPACE, DiscardFit
from .markdown import markdown_table

#: The file names a fit writes into its folder.
WEIGHTS_FILE = "weights.json"
CANDIDATES_FILE = "candidates.csv"
HELD_OUT_FILE = "held_out.csv"
REPORT_FILE = "README.md"


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


def weights_json(fit: DiscardFit) -> str:
    """The fitted weights with what reproduces them."""
    settings = {
        "rules": fit.rules,
        "seed": fit.seed,
        "generations": len(fit.generations),
        "population": fit.population,
        "elite": fit.elite,
        "deals": fit.deals,
        "softness": fit.softness,
        "opponents": list(fit.held_out),
    }
    document = {
        **settings,
        "weights": fitted_weights(fit),
        "start": format_policy(fit.start),
        "policy": format_policy(fit.fitted),
    }
    return json.dumps(document, indent=2) + "\n"


def report_markdown(fit: DiscardFit, command: str, seconds: float) -> str:
    """The fit in words: how it was made, the weights and the held-out gain."""
    held = held_out_frame(fit)
    shown = pd.DataFrame(
        {
            "opponent": [f"`{name}`" for name in held["opponent"]],
            "fitted, points per hand": [
                f"{e.mean:+.2f} ± {e.half_width:.2f}" for e in fit.held_out_points.values()
            ],
            "gain over the start": [
                f"{e.mean:+.2f} ± {e.half_width:.2f}" for e in fit.held_out.values()
            ],
        }
    )
    weights = pd.DataFrame(
        {
            "field": [f"`{key}`" for key, *_ in FIT_SPACE],
            "start": [int(fit.start.value(key)) for key, *_ in FIT_SPACE],
            "fitted": list(fitted_weights(fit).values()),
        }
    )
    generations = len(fit.generations)
    per_generation = fit.population * (len(fit.held_out) + 1) * fit.deals
    return "\n".join(
        [
            "# The learned discard's weights",
            "",
            (
                f"Fitted by `{command}` in {seconds / 60:.0f} min: rules `{fit.rules}`, seed "
                f"{fit.seed}, {generations} generations of {fit.population} candidates (the "
                f"{fit.elite} best set the next mean), each candidate playing "
                f"{fit.deals:,} deals (seats swapped) against each of "
                f"{', '.join(f'`{name}`' for name in fit.held_out)} and the incumbent, on "
                f"the same deals within a generation: {generations * per_generation * 2:,} "
                f"hands. Score: the soft minimum (T = {fit.softness:g} points) of the "
                "points per hand over the panel."
            ),
            "",
            (
                "Weights are hundredths of a point per unit of each feature of a throw "
                "(`analyzer policies` explains them), as costs: the throw with the least "
                "weighted sum is thrown, among those within `learned_window` points of the "
                "least deadwood."
            ),
            "",
            markdown_table(weights),
            "",
            (
                f"Held out: {fit.held_out_deals:,} fresh deals per opponent (seats swapped), "
                "the fitted weights against the starting ones on the same deals, points per "
                "hand with 95% intervals:"
            ),
            "",
            markdown_table(shown),
            "",
            f"The fitted policy: `{format_policy(fit.fitted)}`.",
            "",
        ]
    )


def fit_files(fit: DiscardFit, command: str, seconds: float) -> dict[str, bytes]:
    """Every file of the fit's folder, by name."""
    return {
        WEIGHTS_FILE: weights_json(fit).encode(),
        CANDIDATES_FILE: candidates_frame(fit).to_csv(index=False).encode(),
        HELD_OUT_FILE: held_out_frame(fit).to_csv(index=False).encode(),
        REPORT_FILE: report_markdown(fit, command, seconds).encode(),
    }


__all__ = [
    "CANDIDATES_FILE",
    "HELD_OUT_FILE",
    "REPORT_FILE",
    "WEIGHTS_FILE",
    "fit_files",
    "fitted_weights",
    "report_markdown",
]
