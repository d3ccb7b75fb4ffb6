"""The exact distribution of dealt deadwood, declared once (:mod:`analyzer.studies.study`):
``analyzer exact`` and ``az.exact``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.arrays import Int64s
from ..core.cards import N_RANKS, N_SUITS
from ..core.progress import Progress
from ..studies.study import Inputs, Kind, Param, Study, register
from ..studies.text import chance_text, title_text
from .legacy import Answer, Chart, legacy


@dataclass
class Exact:
    """What the enumeration counted (the notebook's result reads these through)."""

    counts: Int64s
    """``counts[v]``: hands of ``v`` points."""
    stats: dict[str, Any]
    """``hands``, ``p_gin``, ``p_at_most`` (knock limit -> probability), ``mean``, ``sd``,
    ``median`` (:func:`analyzer.gin.studies.exact_stats.summarize`)."""
    classes: int
    """Suit-symmetry classes evaluated."""
    seconds: float
    mc_counts: Int64s | None
    """The Monte Carlo overlay's histogram, once drawn or written (None before, and
    without one)."""


def _exact(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.exact import exact_enumeration
    from ..gin.studies.exact_stats import distribution_table, summarize

    cards, ranks, suits = inputs["cards"], inputs["ranks"], inputs["suits"]
    if cards > ranks * suits:
        raise ValueError(
            f"a deck of {suits} suits x {ranks} ranks cannot deal {cards} cards "
            f"(suits 1-{N_SUITS}, ranks 1-{N_RANKS})"
        )
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    deck = "" if full_deck else f" of a {suits} x {ranks} deck"
    mc_deals = inputs["mc_deals"] if full_deck else 0
    paths: dict[str, Path] = {}
    mc_counts = None
    if inputs.out is None:
        result = exact_enumeration(cards, ranks, suits, progress, scheduler=scheduler)
    else:
        result, mc_counts, paths = _written(inputs, mc_deals, progress, scheduler)
    stats = summarize(result.counts)
    exact = Exact(result.counts, stats, result.classes, result.seconds, mc_counts)
    lines = [
        f"hands:              {stats['hands']:,} ({result.classes:,} suit classes)",
        f"P(gin):             {stats['p_gin']:.6e} ({chance_text(stats['p_gin'])})",
        f"P(deadwood <= 10):  {stats['p_at_most'].get(10, 1.0):.6f}",
        f"mean, median:       {stats['mean']:.4f}, {stats['median']} points",
        f"wall time:          {result.seconds:.1f} s",
        *(f"wrote {path}" for path in paths.values()),
    ]
    return Answer(
        title_text(
            f"Exact deadwood of every {cards}-card hand{deck}",
            size="exhaustive enumeration, no sampling error",
        ),
        distribution_table(result.counts),
        lines,
        f"A dealt {cards}-card hand is gin {chance_text(stats['p_gin'])} and may knock "
        f"(deadwood 10 or less) with probability {stats['p_at_most'].get(10, 1.0):.2%}"
        + (" after its best discard." if cards == 11 else "."),
        _chart(exact, cards, deck, mc_deals, inputs.seed),
        data={
            "cards": cards,
            "deck": f"{suits} suits x {ranks} ranks",
            "classes": result.classes,
            "seconds": result.seconds,
            "counts": [int(c) for c in result.counts],
            **{k: v for k, v in stats.items() if k != "p_at_most"},
            "p_at_most": {str(k): v for k, v in stats["p_at_most"].items()},
            "files": {k: str(v) for k, v in paths.items()},
        },
        result=exact,
    )


def _written(
    inputs: Inputs, mc_deals: int, progress: Progress | None, scheduler: str | None
) -> tuple[Any, Any, dict[str, Path]]:
    """The enumeration and its overlay, written into ``--out``: resumed from the
    checkpoint kept beside it in the program's own folder, where no file of the user's
    can be taken for (or replaced by) one; a stop keeps it."""
    from ..core.chunks import checkpointing
    from ..gin.studies.exact import exact_study
    from ..studies.checkpoint import Checkpoint, CheckpointMismatch
    from ..studies.files import checkpoint_path, remove_checkpoint, staged_folder
    from .exact import write_study

    cards, ranks, suits = inputs["cards"], inputs["ranks"], inputs["suits"]
    assert inputs.out is not None
    out = Path(inputs.out)
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    stem = f"cards{cards}" if full_deck else f"cards{cards}_{suits}x{ranks}"
    checkpoint = checkpoint_path(out, f"exact_{stem}.json")
    if inputs["restart"]:
        remove_checkpoint(checkpoint)
    identity = {"command": "exact", "cards": cards, "ranks": ranks, "suits": suits}
    try:
        with checkpointing(Checkpoint.continue_or_start(checkpoint, identity)):
            study = exact_study(cards, ranks, suits, mc_deals, inputs.seed, progress, scheduler)
    except CheckpointMismatch as error:  # a saved state edited to misfit
        raise ValueError(str(error)) from error
    with staged_folder(out):
        paths = write_study(study, out, stem)
    # only now: a disk that fills while the results are written keeps the whole
    # enumeration in the checkpoint, for the next run to write them from
    remove_checkpoint(checkpoint)
    return study.result, study.mc_counts, paths


def _chart(exact: Exact, cards: int, deck: str, mc_deals: int, seed: int) -> Chart:
    """The distribution, linear and log, with the Monte Carlo overlay (dealt when first
    drawn, where ``--out`` has not dealt it)."""
    what = "least deadwood" if cards == 10 else "deadwood after the best discard"

    def draw(axes: Any) -> None:
        from ..gin.evaluator.dealt import dealt_deadwood_distribution
        from ..gin.studies.exact_stats import chart_data
        from .figures import exact_distribution_chart

        overlay = exact.mc_counts
        if overlay is None and mc_deals:
            overlay = dealt_deadwood_distribution(mc_deals, cards, seed)
            exact.mc_counts = overlay
        data = chart_data(exact.counts, overlay)
        exact_distribution_chart(data, axes[0])
        exact_distribution_chart(data, axes[1], log=True)

    return Chart(
        "exact",
        draw,
        (12, 4.2),
        f"Exact {what} of every {cards}-card hand{deck}",
        "Bars: every hand enumerated"
        + ("" if not mc_deals else f"; points: {mc_deals:,} Monte Carlo hands (± 2 SE)")
        + "; shaded: deadwood <= 10.",
        panels=2,
    )


EXACT = register(
    Study(
        "exact",
        "Exact distribution of dealt deadwood over every hand of --cards cards.",
        "Each multiset of suit lanes is evaluated once and weighted by its number of suit "
        "assignments. The seed is the Monte Carlo overlay's, drawn on the chart (the full "
        "deck only). With --out an interrupted run resumes from its checkpoint, which is "
        "kept beside OUT in .OUT.analyzer-checkpoints/ until the files are written.",
        (
            "analyzer exact --cards 10                      # print only",
            "analyzer exact --cards 11 --out results/exact  # also write counts, summary, chart",
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
                "Ranks per suit of a reduced deck (for checks; no Monte Carlo overlay).",
                high=N_RANKS,
            ),
            Param("suits", Kind.COUNT, N_SUITS, "Suits of a reduced deck.", high=N_SUITS),
            Param(
                "mc_deals",
                Kind.COUNT,
                1_000_000,
                "Monte Carlo deals for the chart overlay (0: none).",
                low=0,
            ),
            Param("restart", Kind.FLAG, False, "Ignore the checkpoint of an earlier run."),
        ),
        *legacy(_exact),
        unit="class",
        rules=False,
        notebook="``.stats`` has P(gin), the mean and the median; ``.plot()`` the chart.",
    )
)
