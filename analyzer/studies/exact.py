"""The exact distribution of dealt deadwood, declared once: ``analyzer exact`` and
``az.exact``.  It counts every hand (:mod:`analyzer.gin.studies.exact`), with a Monte
Carlo sample of the full deck beside it as a check, and presents the counts (summary
lines, verdict, chart description) from its table alone."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..core.cards import N_RANKS, N_SUITS
from ..core.progress import Progress
from .charts import Axis, Chart, Mark, Panel, column
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import chance_text, title_text


def _exact(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies.exact import exact_study
    from ..gin.studies.exact_stats import distribution_table

    cards, ranks, suits = inputs["cards"], inputs["ranks"], inputs["suits"]
    if cards > ranks * suits:
        raise ValueError(
            f"a deck of {suits} suits x {ranks} ranks cannot deal {cards} cards "
            f"(suits 1-{N_SUITS}, ranks 1-{N_RANKS})"
        )
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    mc_deals = inputs["mc_deals"] if full_deck else 0
    # inside the command's --checkpoint the enumeration saves and resumes its chunks
    study = exact_study(cards, ranks, suits, mc_deals, inputs.seed, progress, scheduler)
    table = distribution_table(study.result.counts)
    if study.mc_counts is not None:
        overlay = np.zeros(len(table), dtype=np.int64)
        size = min(len(overlay), len(study.mc_counts))
        overlay[:size] = study.mc_counts[:size]
        table["mc_count"] = overlay
    facts = {
        "classes": study.result.classes,
        "enumeration_seconds": round(study.result.seconds, 2),
        "threads": numba.get_num_threads(),
        "machine": machine_description(),
    }
    return Computed({"counts": table}, facts)


def _present(answer: Any) -> View:
    from ..gin.studies.exact_stats import chart_data, monte_carlo_check, summarize

    inputs, facts, table = answer.inputs, answer.facts, answer["counts"]
    cards, ranks, suits = inputs["cards"], inputs["ranks"], inputs["suits"]
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    deck = "" if full_deck else f" of a {suits} x {ranks} deck"
    counts = table["count"].to_numpy(dtype=np.int64)
    overlay = table["mc_count"].to_numpy(dtype=np.int64) if "mc_count" in table else None
    stats = summarize(counts)
    p_knock = stats["p_at_most"].get(10, 1.0)
    lines = [
        f"hands:              {stats['hands']:,} ({facts['classes']:,} suit classes)",
        f"P(gin):             {stats['p_gin']:.6e} ({chance_text(stats['p_gin'])})",
        f"P(deadwood <= 10):  {p_knock:.6f}",
        f"mean, median:       {stats['mean']:.4f}, {stats['median']} points",
        (
            f"wall time:          {facts['enumeration_seconds']:.1f} s on {facts['threads']} "
            f"threads ({facts['machine']})"
        ),
    ]
    check = None if overlay is None else monte_carlo_check(counts, overlay)
    if check is not None:
        lines.append(
            f"Monte Carlo check:  {check['n_deals']:,} hands (seed {inputs.seed}), mean "
            f"{check['mean']:.4f} points, {check['mean_z']:+.2f} standard errors from the "
            "exact mean"
        )
    return View(
        title_text(
            f"Exact deadwood of every {cards}-card hand{deck}",
            size="exhaustive enumeration, no sampling error",
        ),
        lines,
        f"A dealt {cards}-card hand is gin {chance_text(stats['p_gin'])} and may knock "
        f"(deadwood 10 or less) with probability {p_knock:.2%}"
        + (" after its best discard." if cards == 11 else "."),
        exact_chart(
            chart_data(counts, overlay),
            cards,
            deck,
            stats["hands"],
            0 if check is None else check["n_deals"],
        ),
        data={
            "cards": cards,
            "deck": f"{suits} suits x {ranks} ranks",
            "classes": facts["classes"],
            "seconds": facts["enumeration_seconds"],
            "counts": [int(c) for c in counts],
            **{k: v for k, v in stats.items() if k != "p_at_most"},
            "p_at_most": {str(k): v for k, v in stats["p_at_most"].items()},
            "monte_carlo": check,
        },
    )


def exact_chart(
    data: pd.DataFrame, cards: int, deck: str, hands: int, mc_deals: int, knock_limit: int = 10
) -> Chart:
    """The exact distribution of ``hands`` hands
    (:func:`~analyzer.gin.studies.exact_stats.chart_data`) as bars, linear and log, the
    Monte Carlo estimate of ``mc_deals`` hands (0: none) as points with two-standard-error
    bars, and the knock region shaded."""
    what = "least deadwood" if cards == 10 else "deadwood after the best discard"
    region = Mark(
        "vspan",
        x=(-1, knock_limit + 0.5),
        color=2,
        label=f"knock at once (deadwood <= {knock_limit})",
    )
    marks = [
        region,
        Mark(
            "bars",
            x=column(data["deadwood"]),
            y=column(data["exact"]),
            width=1.0,
            color=5,
            label="exact (every hand)",
        ),
    ]
    if "mc" in data:
        shown = data[data["mc"] > 0]
        marks.append(
            Mark(
                "points",
                x=column(shown["deadwood"]),
                y=column(shown["mc"]),
                low=column(shown["mc"] - 2 * shown["mc_se"]),
                high=column(shown["mc"] + 2 * shown["mc_se"]),
                color=3,
                label="Monte Carlo estimate (±2 SE)",
            )
        )
    smallest = float(data["exact"][data["exact"] > 0].min()) / 2
    panels = tuple(
        Panel(
            tuple(marks),
            title="Log scale: the knock region" if log else "Linear scale",
            x_label="deadwood (points)",
            y_label="probability" + (" (log scale)" if log else ""),
            x=Axis(low=-1, high=len(data)),
            y=Axis(log=True, low=smallest) if log else Axis(),
            legend="none" if log else "best",
        )
        for log in (False, True)
    )
    return Chart(
        "exact",
        f"Exact {what} of every {cards}-card hand{deck}",
        f"Bars: all {hands:,} hands enumerated"
        + ("" if not mc_deals else f"; points: {mc_deals:,} Monte Carlo hands (± 2 SE)")
        + f"; shaded: deadwood <= {knock_limit}, where a standard-rules knock is allowed.",
        panels,
        size=(12, 4.2),
    )


def machine_description() -> str:
    """The CPU model and logical CPU count, for the wall time of an enumeration."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} logical CPUs"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs"


EXACT = register(
    Study(
        "exact",
        "Exact distribution of dealt deadwood over every hand of --cards cards.",
        "Each multiset of suit lanes is evaluated once and weighted by its number of suit "
        "assignments. The seed is that of the Monte Carlo check drawn on the chart (the "
        "full deck only).",
        (
            "analyzer exact --cards 10                              # print only",
            "analyzer exact --cards 11 --out results/exact/cards11  # save the answer",
        ),
        (
            Param(
                "cards",
                Kind.COUNT,
                10,
                "10: minimum deadwood of every 10-card hand; 11: deadwood left after the "
                "best discard of every 11-card hand.",
                low=10,
                high=11,
            ),
            Param(
                "ranks",
                Kind.COUNT,
                N_RANKS,
                "Ranks per suit of a reduced deck (for checks; no Monte Carlo check).",
                high=N_RANKS,
            ),
            Param("suits", Kind.COUNT, N_SUITS, "Suits of a reduced deck.", high=N_SUITS),
            Param(
                "mc_deals",
                Kind.COUNT,
                1_000_000,
                "Monte Carlo hands dealt to check the counts, drawn on the chart (0: none).",
                low=0,
            ),
        ),
        _exact,
        _present,
        keys={"counts": ("deadwood",)},
        unit="class",
        rules=False,
        checkpoint=True,
        notebook='``["counts"]``: the hands of each deadwood; ``.to_dict()``: P(gin), the mean '
        "and the median; ``.plot()``: the chart.",
    )
)

__all__ = ["EXACT", "exact_chart", "machine_description"]
