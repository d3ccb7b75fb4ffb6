"""The ``analyzer exact`` command: exact dealt-hand statistics by exhaustive enumeration."""

from __future__ import annotations

from pathlib import Path

import click

from ..core.cards import N_RANKS, N_SUITS
from ..gin.exact import summarize
from ..report.exact import enumerate_and_write
from .options import fail


@click.command("exact")
@click.option("--cards", "n_cards", type=int, default=10, show_default=True,
              help="10: minimum deadwood of every 10-card hand; 11: deadwood left after "
                   "the best discard of every 11-card hand.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results/exact"), show_default=True,
              help="Directory for the counts CSV, summary JSON, chart and checkpoint.")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option("--mc-deals", type=int, default=1_000_000, show_default=True,
              help="Monte Carlo deals for the chart overlay (0: none).")
@click.option("--mc-seed", type=int, default=0, show_default=True,
              help="Seed of the Monte Carlo overlay.")
@click.option("--restart", is_flag=True, help="Ignore an existing checkpoint.")
@click.option("--ranks", type=int, default=N_RANKS, show_default=True,
              help="Ranks per suit of a reduced deck (for checks; no Monte Carlo overlay).")
@click.option("--suits", type=int, default=N_SUITS, show_default=True,
              help="Suits of a reduced deck.")
def exact(n_cards: int, out_dir: Path, no_progress: bool, mc_deals: int, mc_seed: int,
          restart: bool, ranks: int, suits: int) -> None:
    """Exact distribution of dealt deadwood over every hand of --cards cards.

    Each multiset of suit lanes is evaluated once and weighted by its number of suit
    assignments.  An interrupted run resumes from OUT/<stem>_checkpoint.json.

    \b
    Example:
      analyzer exact --cards 10
      analyzer exact --cards 11 --out results/exact --no-progress
    """
    if n_cards not in (10, 11):
        fail(f"--cards must be 10 or 11, got {n_cards}")
    if mc_deals < 0:
        fail(f"--mc-deals must be >= 0, got {mc_deals}")
    if not (1 <= suits <= N_SUITS and 1 <= ranks <= N_RANKS and n_cards <= ranks * suits):
        fail(f"a deck of {suits} suits x {ranks} ranks cannot deal {n_cards} cards "
             f"(suits 1-{N_SUITS}, ranks 1-{N_RANKS})")
    full_deck = (ranks, suits) == (N_RANKS, N_SUITS)
    stem = f"cards{n_cards}" if full_deck else f"cards{n_cards}_{suits}x{ranks}"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot create {out_dir}: {error.strerror}")
    checkpoint = out_dir / f"{stem}_checkpoint.json"
    if restart:
        checkpoint.unlink(missing_ok=True)
    try:
        result, paths = enumerate_and_write(n_cards, out_dir, ranks, suits, not no_progress,
                                            checkpoint, mc_deals if full_deck else 0, mc_seed,
                                            stem)
    except OSError as error:
        fail(f"cannot write results to {out_dir}: {error.strerror}")
    stats = summarize(result.counts)
    click.echo(f"hands:              {stats['hands']:,} ({result.classes:,} suit classes)")
    click.echo(f"P(gin):             {stats['p_gin']:.6e}")
    click.echo(f"P(deadwood <= 10):  {stats['p_at_most'].get(10, 1.0):.6f}")
    click.echo(f"mean, median:       {stats['mean']:.4f}, {stats['median']} points")
    click.echo(f"wall time:          {result.seconds:.1f} s")
    for path in paths.values():
        click.echo(f"wrote {path}")
