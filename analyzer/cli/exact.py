"""The ``analyzer exact`` command: exact dealt-hand statistics by exhaustive enumeration."""

from __future__ import annotations

from pathlib import Path

import click

from ..core.cards import N_RANKS, N_SUITS
from ..core.chunks import checkpointing
from ..core.limits import MAX_UNITS
from ..gin.studies.exact import exact_enumeration, exact_study
from ..gin.studies.exact_stats import distribution_table, summarize
from ..report.checkpoint import Checkpoint, CheckpointMismatch
from ..report.exact import write_study
from ..report.files import checkpoint_path, remove_checkpoint, staged_folder
from ..report.text import chance_text, title_text
from .files import out_option
from .inputs import SEED, fail
from .output import echo_json, format_options, show_result
from .progress import progress_bar


@click.command("exact")
@click.option(
    "--cards",
    "n_cards",
    type=int,
    default=10,
    show_default=True,
    help="10: minimum deadwood of every 10-card hand; 11: deadwood left after "
    "the best discard of every 11-card hand.",
)
@out_option(
    "Write the counts CSV, summary JSON and chart into this folder, together at the end, "
    "with a checkpoint beside it to resume from (default: print only).",
    dest="out_dir",
    as_path=True,
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option(
    "--mc-deals",
    type=int,
    default=1_000_000,
    show_default=True,
    help="Monte Carlo deals for the chart overlay, 0 (none) to 10**12.",
)
@click.option(
    "--mc-seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of the Monte Carlo overlay, 0 <= seed < 2**63.",
)
@click.option("--restart", is_flag=True, help="Ignore the checkpoint of an earlier run.")
@click.option(
    "--ranks",
    type=click.IntRange(1, N_RANKS),
    default=N_RANKS,
    show_default=True,
    help="Ranks per suit of a reduced deck (for checks; no Monte Carlo overlay).",
)
@click.option(
    "--suits",
    type=click.IntRange(1, N_SUITS),
    default=N_SUITS,
    show_default=True,
    help="Suits of a reduced deck.",
)
@format_options
def exact(
    n_cards: int,
    out_dir: Path | None,
    no_progress: bool,
    mc_deals: int,
    mc_seed: int,
    restart: bool,
    ranks: int,
    suits: int,
    fmt: str,
) -> None:
    """Exact distribution of dealt deadwood over every hand of --cards cards.

    Each multiset of suit lanes is evaluated once and weighted by its number of suit
    assignments.  With --out an interrupted run resumes from its checkpoint, which is
    kept beside OUT in .OUT.analyzer-checkpoints/ until the files are written.

    \b
    Example:
      analyzer exact --cards 10                      # print only
      analyzer exact --cards 11 --out results/exact  # also write counts, summary, chart
    """
    if n_cards not in (10, 11):
        fail(f"--cards must be 10 or 11, got {n_cards}")
    if not 0 <= mc_deals <= MAX_UNITS:
        fail(f"--mc-deals must be >= 0 and <= 10**12, got {mc_deals}")
    if not (1 <= suits <= N_SUITS and 1 <= ranks <= N_RANKS and n_cards <= ranks * suits):
        fail(
            f"a deck of {suits} suits x {ranks} ranks cannot deal {n_cards} cards "
            f"(suits 1-{N_SUITS}, ranks 1-{N_RANKS})"
        )
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    stem = f"cards{n_cards}" if full_deck else f"cards{n_cards}_{suits}x{ranks}"
    paths: dict[str, Path] = {}
    with progress_bar(None, "class", no_progress, f"{n_cards} cards") as update:
        if out_dir is None:
            result = exact_enumeration(n_cards, ranks, suits, progress=update)
        else:
            # in the program's own folder, where no file of the user's can be taken for
            # (or replaced by) a checkpoint; a stop keeps it
            checkpoint = checkpoint_path(out_dir, f"exact_{stem}.json")
            if restart:
                remove_checkpoint(checkpoint)
            identity = {"command": "exact", "cards": n_cards, "ranks": ranks, "suits": suits}
            try:
                with checkpointing(Checkpoint.continue_or_start(checkpoint, identity)):
                    study = exact_study(
                        n_cards, ranks, suits, mc_deals if full_deck else 0, mc_seed, update
                    )
            except CheckpointMismatch as error:  # a saved state edited to misfit
                fail(str(error))
            with staged_folder(out_dir):
                paths = write_study(study, out_dir, stem)
            # only now: a disk that fills while the results are written keeps the whole
            # enumeration in the checkpoint, for the next run to write them from
            remove_checkpoint(checkpoint)
            result = study.result
    stats = summarize(result.counts)
    if fmt == "json":
        echo_json(
            {
                "cards": n_cards,
                "deck": f"{suits} suits x {ranks} ranks",
                "classes": result.classes,
                "seconds": result.seconds,
                "counts": [int(c) for c in result.counts],
                **{k: v for k, v in stats.items() if k != "p_at_most"},
                "p_at_most": {str(k): v for k, v in stats["p_at_most"].items()},
                "files": {k: str(v) for k, v in paths.items()},
            }
        )
        return
    if fmt == "csv":
        click.echo(distribution_table(result.counts).to_csv(index=False), nl=False)
        return
    lines = [
        f"hands:              {stats['hands']:,} ({result.classes:,} suit classes)",
        f"P(gin):             {stats['p_gin']:.6e} ({chance_text(stats['p_gin'])})",
        f"P(deadwood <= 10):  {stats['p_at_most'].get(10, 1.0):.6f}",
        f"mean, median:       {stats['mean']:.4f}, {stats['median']} points",
        f"wall time:          {result.seconds:.1f} s",
        *(f"wrote {path}" for path in paths.values()),
    ]
    show_result(
        "table",
        title_text(
            f"Exact deadwood of every {n_cards}-card hand"
            + ("" if full_deck else f" of a {suits} x {ranks} deck"),
            size="exhaustive enumeration, no sampling error",
        ),
        lines,
        f"A dealt {n_cards}-card hand is gin {chance_text(stats['p_gin'])} and may knock "
        f"(deadwood 10 or less) with probability {stats['p_at_most'].get(10, 1.0):.2%}"
        + (" after its best discard." if n_cards == 11 else "."),
    )
