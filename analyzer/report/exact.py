"""Files of the exact enumeration (:mod:`analyzer.gin.studies.exact`): counts, summary and
chart.  This module only renders: the command line and the report's dealt section run the
enumeration (:func:`analyzer.gin.studies.exact.exact_study`) and hand it here."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ..gin.studies.exact import ExactStudy
from ..gin.studies.exact_stats import chart_data, distribution_table, monte_carlo_check, summarize
from ..studies.files import make_folder, write_csv, write_text
from .figures import exact_distribution_chart, figure_file


def write_results(
    counts: npt.ArrayLike,
    n_cards: int,
    out_dir: str | os.PathLike[str],
    seconds: float,
    mc_counts: npt.ArrayLike | None = None,
    meta: dict[str, Any] | None = None,
    stem: str | None = None,
) -> dict[str, Path]:
    """Write ``<stem>_counts.csv``, ``<stem>_summary.json`` and ``<stem>.png`` to ``out_dir``.

    ``stem`` defaults to ``cards<n_cards>``; ``seconds`` is the enumeration's wall time;
    ``meta`` is merged into the summary (e.g. deck shape, classes, Monte Carlo seed).
    Returns the paths written, by kind.
    """
    array = np.asarray(counts, dtype=np.int64)
    out = make_folder(out_dir)
    stem = stem or f"cards{n_cards}"
    paths = {
        "counts": out / f"{stem}_counts.csv",
        "summary": out / f"{stem}_summary.json",
        "chart": out / f"{stem}.png",
    }
    write_csv(paths["counts"], distribution_table(array), index=False, float_format="%.12e")
    summary = summarize(array)
    summary["p_at_most"] = {str(k): v for k, v in summary["p_at_most"].items()}
    what = "deadwood after the best discard" if n_cards == 11 else "minimum deadwood"
    record: dict[str, Any] = {
        "n_cards": n_cards,
        "value": what,
        **summary,
        "wall_seconds": round(seconds, 2),
        "threads": numba.get_num_threads(),
        "machine": machine_description(),
        "numba": numba.__version__,
        **(meta or {}),
    }
    if mc_counts is not None:
        record["monte_carlo"] = {
            **record.get("monte_carlo", {}),
            **monte_carlo_check(array, mc_counts),
        }
    write_text(paths["summary"], json.dumps(record, indent=2) + "\n")
    data = chart_data(array, mc_counts)
    overlay = (
        ""
        if mc_counts is None
        else f"; points: {int(np.sum(mc_counts)):,} Monte Carlo deals with ±2 SE bars"
    )
    with figure_file(
        paths["chart"],
        1,
        2,
        figsize=(12, 4.5),
        title=f"Exact distribution of {what}, every {n_cards}-card hand",
        caption=f"Bars: all {int(array.sum()):,} hands enumerated{overlay}. "
        "Shaded: deadwood <= 10, where a standard-rules knock is "
        "allowed.",
    ) as axes:
        exact_distribution_chart(data, axes[0])
        exact_distribution_chart(data, axes[1], log=True)
    return paths


def write_study(
    study: ExactStudy, out_dir: str | os.PathLike[str], stem: str | None = None
) -> dict[str, Path]:
    """Write an enumeration and its Monte Carlo overlay (see :func:`write_results`), with
    the deck shape, the classes evaluated and the overlay's seed in the summary."""
    result = study.result
    meta: dict[str, Any] = {
        "deck": f"{study.suits} suits x {study.ranks} ranks",
        "classes": result.classes,
    }
    if study.mc_counts is not None:
        meta["monte_carlo"] = {"seed": study.mc_seed}
    return write_results(
        result.counts, study.n_cards, out_dir, result.seconds, study.mc_counts, meta, stem
    )


def machine_description() -> str:
    """The CPU model and logical CPU count, for the summary of a timed run."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} logical CPUs"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs"


__all__ = ["machine_description", "write_results", "write_study"]
