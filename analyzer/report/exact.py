"""Files of the exact enumeration (:mod:`analyzer.gin.studies.exact`): counts, summary, chart and
the resumable checkpoint."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from ..core.cards import N_RANKS, N_SUITS
from ..core.progress import Progress
from ..gin.evaluator.dealt import dealt_deadwood_distribution
from ..gin.studies.exact import (
    EnumerationState,
    ExactResult,
    chart_data,
    distribution_table,
    enumeration_params,
    enumeration_start,
    enumeration_steps,
    monte_carlo_check,
    summarize,
)
from .figures import exact_distribution_chart, figure_file
from .files import make_folder, write_csv, write_text


def load_checkpoint(path: Path) -> EnumerationState | None:
    """The enumeration state saved at ``path``; ``None`` when the file is missing or
    unreadable (the run then starts afresh)."""
    if not path.exists():
        return None
    try:
        return EnumerationState.from_json(path.read_text())
    except (OSError, ValueError):
        return None


def save_checkpoint(path: Path, state: EnumerationState) -> None:
    """Write ``state`` to ``path`` atomically (a temporary file, then a rename)."""
    # kept when the run stops: it is what the next run resumes from
    write_text(path, state.to_json(), track=False)


def enumerate_with_checkpoint(n_cards: int, ranks: int = N_RANKS, suits: int = N_SUITS,
                              progress: Progress | None = None,
                              checkpoint: Path | None = None,
                              batch_work: int | None = None, *,
                              remove_when_done: bool = True) -> ExactResult:
    """:func:`analyzer.gin.studies.exact.exact_enumeration`, saving the state to ``checkpoint``
    after every batch and resuming from it when its parameters match; the file is
    deleted when the enumeration finishes (unless ``remove_when_done`` is False: a
    caller that still has to write the results deletes it once they are written)."""
    params = enumeration_params(n_cards, ranks, suits)
    start = enumeration_start(params, None if checkpoint is None
                              else load_checkpoint(checkpoint))
    last = start
    for last in enumeration_steps(start, progress, batch_work):
        if checkpoint is not None:
            save_checkpoint(checkpoint, last)
    if checkpoint is not None and remove_when_done:
        checkpoint.unlink(missing_ok=True)
    return last.result()


def write_results(counts: npt.ArrayLike, n_cards: int, out_dir: str | os.PathLike[str],
                  seconds: float, mc_counts: npt.ArrayLike | None = None,
                  meta: dict[str, Any] | None = None, stem: str | None = None) -> dict[str, Path]:
    """Write ``<stem>_counts.csv``, ``<stem>_summary.json`` and ``<stem>.png`` to ``out_dir``.

    ``stem`` defaults to ``cards<n_cards>``; ``seconds`` is the enumeration's wall time;
    ``meta`` is merged into the summary (e.g. deck shape, classes, Monte Carlo seed).
    Returns the paths written, by kind.
    """
    array = np.asarray(counts, dtype=np.int64)
    out = make_folder(out_dir)
    stem = stem or f"cards{n_cards}"
    paths = {"counts": out / f"{stem}_counts.csv", "summary": out / f"{stem}_summary.json",
             "chart": out / f"{stem}.png"}
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
        record["monte_carlo"] = {**record.get("monte_carlo", {}),
                                 **monte_carlo_check(array, mc_counts)}
    write_text(paths["summary"], json.dumps(record, indent=2) + "\n")
    data = chart_data(array, mc_counts)
    overlay = ("" if mc_counts is None else
               f"; points: {int(np.sum(mc_counts)):,} Monte Carlo deals with ±2 SE bars")
    with figure_file(paths["chart"], 1, 2, figsize=(12, 4.5),
                     title=f"Exact distribution of {what}, every {n_cards}-card hand",
                     caption=f"Bars: all {int(array.sum()):,} hands enumerated{overlay}. "
                             "Shaded: deadwood <= 10, where a standard-rules knock is "
                             "allowed.") as axes:
        exact_distribution_chart(data, axes[0])
        exact_distribution_chart(data, axes[1], log=True)
    return paths


def enumerate_and_write(n_cards: int, out_dir: Path, ranks: int = N_RANKS, suits: int = N_SUITS,
                        progress: Progress | None = None, checkpoint: Path | None = None,
                        mc_deals: int = 1_000_000, mc_seed: int = 0, stem: str | None = None
                        ) -> tuple[ExactResult, dict[str, Path]]:
    """Enumerate (resumably when ``checkpoint`` is given), add a Monte Carlo overlay of
    ``mc_deals`` deals (0: none), and write the counts, summary and chart to ``out_dir``
    (see :func:`write_results`)."""
    result = enumerate_with_checkpoint(n_cards, ranks, suits, progress, checkpoint,
                                       remove_when_done=False)
    meta: dict[str, Any] = {"deck": f"{suits} suits x {ranks} ranks", "classes": result.classes}
    mc = None
    if mc_deals:
        mc = dealt_deadwood_distribution(mc_deals, n_cards, mc_seed)
        meta["monte_carlo"] = {"seed": mc_seed}
    paths = write_results(result.counts, n_cards, out_dir, result.seconds, mc, meta, stem)
    # only now: a disk that fills while the results are written keeps the whole
    # enumeration in the checkpoint, for the next run to write them from
    if checkpoint is not None:
        checkpoint.unlink(missing_ok=True)
    return result, paths


def machine_description() -> str:
    """The CPU model and logical CPU count, for the summary of a timed run."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} logical CPUs"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs"


__all__ = ["enumerate_and_write", "enumerate_with_checkpoint", "load_checkpoint",
           "machine_description", "save_checkpoint", "write_results"]
