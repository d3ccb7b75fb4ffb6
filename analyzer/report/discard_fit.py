"""The files of a discard fit (``analyzer fit-discard``): the weights as JSON, each
round as a CSV row and a Markdown report."""

from __future__ import annotations

import json

import pandas as pd

from ..gin.decisions.learned import FEATURES, WEIGHT_KEYS
from ..gin.model.policies import format_policy
from ..gin.studies.discard_fit import DiscardFit
from .markdown import markdown_table

#: The file names a fit writes into its folder.
WEIGHTS_FILE = "weights.json"
ROUNDS_FILE = "rounds.csv"
REPORT_FILE = "README.md"


def rounds_frame(fit: DiscardFit) -> pd.DataFrame:
    """One row per round: its samples, the fitted weights and the held-out gain."""
    rows = []
    for number, done in enumerate(fit.rounds, start=1):
        row: dict[str, object] = {
            "round": number,
            "samples": done.samples,
            "held_out": done.held_out,
            "gain": done.gain.mean,
            "gain_low": done.gain.low,
            "gain_high": done.gain.high,
            "seconds": round(done.seconds, 1),
        }
        row.update(done.weights)
        rows.append(row)
    return pd.DataFrame(rows)


def weights_json(fit: DiscardFit) -> str:
    """The fitted weights with what reproduces them."""
    return (
        json.dumps(
            {
                "rules": fit.rules,
                "seed": fit.seed,
                "deals": fit.deals,
                "rollouts": fit.rollouts,
                "rounds": len(fit.rounds),
                "opponents": list(fit.opponents),
                "weights": fit.rounds[-1].weights,
                "policy": format_policy(fit.policy),
            },
            indent=2,
        )
        + "\n"
    )


def report_markdown(fit: DiscardFit, command: str) -> str:
    """The fit in words: how it was made, each round's weights and held-out gain."""
    frame = rounds_frame(fit)
    shown = pd.DataFrame(
        {
            "round": frame["round"],
            "positions (fit / held out)": [
                f"{a:,} / {b:,}" for a, b in zip(frame["samples"], frame["held_out"])
            ],
            "held-out gain, points per decision": [
                f"{done.gain.mean:+.3f} ± {done.gain.half_width:.3f}" for done in fit.rounds
            ],
            **{key.removeprefix("learned_"): frame[key] for key in WEIGHT_KEYS},
            "seconds": frame["seconds"],
        }
    )
    features = ", ".join(f"`{name}`" for name in FEATURES)
    return "\n".join(
        [
            "# The learned discard's weights",
            "",
            f"Fitted by `{command}` (rules `{fit.rules}`, seed {fit.seed}): each round plays "
            f"{fit.deals:,} deals against each of {', '.join(f'`{o}`' for o in fit.opponents)} "
            "(`self`: the learner), stops at one of the learner's throws chosen at random, "
            f"plays every throw it weighs out to the end of the hand {fit.rollouts} times "
            "(the stock reshuffled, the same shuffles for every throw) and regresses the "
            f"throws' values on their features ({features}), centred within each position. "
            "The next round plays its rollouts with the weights fitted before it.",
            "",
            "Weights are hundredths of a point of the hand's result per unit of each "
            "feature, as costs (the throw with the least weighted sum is thrown). "
            "*Held-out gain*: on a quarter as many fresh deals, the value of the throw the "
            "fitted weights choose minus the value of the throw the round's own policy "
            "made, with its 95% interval.",
            "",
            markdown_table(shown),
            "",
            f"The fitted policy: `{format_policy(fit.policy)}`.",
            "",
        ]
    )


def fit_files(fit: DiscardFit, command: str) -> dict[str, bytes]:
    """Every file of the fit's folder, by name."""
    return {
        WEIGHTS_FILE: weights_json(fit).encode(),
        ROUNDS_FILE: rounds_frame(fit).to_csv(index=False).encode(),
        REPORT_FILE: report_markdown(fit, command).encode(),
    }


__all__ = ["REPORT_FILE", "ROUNDS_FILE", "WEIGHTS_FILE", "fit_files", "report_markdown"]
