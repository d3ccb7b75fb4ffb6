"""The fit of the learned discard's weights, declared once (:mod:`analyzer.studies.study`):
``analyzer fit-discard`` and ``az.fit_discard``."""

from __future__ import annotations

import shlex
import time

import pandas as pd

from ..core.limits import MAX_FIT_DEALS, MAX_FIT_GENERATIONS, MAX_FIT_POPULATION, MAX_FIT_SOFTNESS
from ..core.progress import Progress
from ..gin.studies.discard_fit import DiscardFit
from ..studies.study import Inputs, Kind, Param, Study, register
from ..studies.text import plus_minus
from .discard_fit import fit_files, fitted_weights, held_out_frame
from .legacy import Answer, legacy


def _command(inputs: Inputs) -> str:
    """The command line that reproduces the fit (written into its report)."""
    words = ["analyzer", "fit-discard", "--rules", inputs.preset]
    for change in inputs.overrides:
        words += ["--set", change]
    for name in ("generations", "population", "elite", "deals", "held_out"):
        words += ["--" + name.replace("_", "-"), str(inputs[name])]
    words += ["--softness", f"{inputs['softness']:g}", "--seed", str(inputs.seed)]
    return shlex.join(words + ([] if inputs.out is None else ["--out", inputs.out]))


def _fit(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.model.policies import PRESETS
    from ..gin.studies.discard_fit import fit_discard

    if inputs["elite"] > inputs["population"]:
        raise ValueError(
            f"elite must be at most population ({inputs['population']}), got {inputs['elite']}"
        )
    started = time.perf_counter()
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
        f"Learned discard fit · rules {inputs.rules_name} · {inputs['generations']} generations "
        f"of {inputs['population']} candidates · seed {inputs.seed} · {inputs['deals']:,} deals "
        f"per candidate and opponent, seats swapped; held out: {inputs['held_out']:,} fresh "
        f"deals per opponent, the fitted weights against the starting ones. Fitted: {weights}"
    )
    files = {}
    if inputs.out is not None:
        files = fit_files(fit, _command(inputs), time.perf_counter() - started)
    return Answer(title, held, table, _verdict(fit), None, result=fit, files=files)


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


FIT_DISCARD = register(
    Study(
        "fit-discard",
        "Fit the learned discard's weights (discard=learned) from simulated deals.",
        "The fit starts from the expert with the learned discard's default weights and "
        "improves them by the cross-entropy method against a panel of opponents; the "
        "fitted weights are then compared with the starting ones on fresh deals.",
        ("analyzer fit-discard --rules eaai --seed 2026 --out results/fit_discard",),
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
        *legacy(_fit),
        step="fitting",
        scheduler=False,
        notebook="The fit's fields read through (``.fitted``, ``.held_out``...).",
    )
)
