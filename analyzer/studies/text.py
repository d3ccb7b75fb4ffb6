"""Results as text for people: one CI style everywhere (``x ± h``), title lines, tables
laid out in columns, the knock chart as a grid of verdicts.  The CLI prints with these, the
studies (:mod:`analyzer.studies.study`) write their tables and verdicts with them.  It
imports nothing heavy: the command line's progress bars read :data:`MAX_WIDTH` from here."""

from __future__ import annotations

import math
import re
import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from ..core.stats import Estimate

#: Widest line the CLI prints (tables, bars): fits a 100-column terminal.
MAX_WIDTH = 100


def plus_minus(
    mean: float, half: float, digits: int = 2, *, sign: bool = False, percent: bool = False
) -> str:
    """A value and the half-width of its 95% CI, written the one way every table of the
    CLI writes it: ``x ± h`` (``+x ± h`` with ``sign``; both as percentages with
    ``percent``, e.g. ``41.6% ± 1.1%``).

    >>> plus_minus(0.0951, 0.064), plus_minus(0.416, 0.011, 1, percent=True)
    ('0.10 ± 0.06', '41.6% ± 1.1%')
    """
    scale, unit = (100.0, "%") if percent else (1.0, "")
    signed = "+" if sign else ""
    return f"{mean * scale:{signed}.{digits}f}{unit} ± {half * scale:.{digits}f}{unit}"


def interval_text(
    mean: float,
    low: float,
    high: float,
    digits: int = 2,
    *,
    sign: bool = False,
    percent: bool = False,
) -> str:
    """:func:`plus_minus` of a 95% CI given by its ends (``h`` is half its width)."""
    return plus_minus(mean, (high - low) / 2, digits, sign=sign, percent=percent)


def bracket_text(mean: float, low: float, high: float, digits: int = 0) -> str:
    """A proportion with its 95% CI, as percentages: ``40% [32%, 48%]``; for intervals
    that are not centred on the estimate, where ``x ± h`` would misstate them."""
    return f"{mean:.{digits}%} [{low:.{digits}%}, {high:.{digits}%}]"


def interval_column(
    frame: pd.DataFrame,
    name: str,
    digits: int = 2,
    *,
    sign: bool = True,
    percent: bool = False,
    stem: str | None = None,
) -> list[str]:
    """Column ``name`` of ``frame`` with its bounds ``<stem>_low`` and ``<stem>_high``
    (``stem`` defaults to ``name``) as ``x ± h`` texts (:func:`interval_text`), a missing
    value as ``-``."""
    bounds = name if stem is None else stem
    return [
        "-" if math.isnan(m) else interval_text(m, lo, hi, digits, sign=sign, percent=percent)
        for m, lo, hi in zip(
            frame[name], frame[f"{bounds}_low"], frame[f"{bounds}_high"], strict=True
        )
    ]


def estimate_text(
    estimate: Estimate, digits: int = 3, *, sign: bool = False, percent: bool = False
) -> str:
    """An :class:`~analyzer.core.stats.Estimate` as ``mean ± half-width`` of its 95% CI."""
    return interval_text(
        estimate.mean, estimate.low, estimate.high, digits, sign=sign, percent=percent
    )


def rules_text(preset: str, overrides: tuple[str, ...] = ()) -> str:
    """The rules a run used: ``standard``, or ``standard with knock_limit=7``."""
    return preset + (f" with {', '.join(overrides)}" if overrides else "")


#: Width of the prose of an answer in a player's words (columns).
ANSWER_WIDTH = 88


def answer_lines(text: str) -> list[str]:
    """``text`` in lines of at most :data:`ANSWER_WIDTH` columns (paths and names whole)."""
    return textwrap.wrap(text, ANSWER_WIDTH, break_on_hyphens=False, break_long_words=False)


def header_lines(text: str, indent: str) -> list[str]:
    """A title line (``a · b · c``) in lines of at most :data:`MAX_WIDTH` columns,
    each starting with ``indent`` (continuations two columns further in), broken between
    its ``·`` parts where it must break, inside a part only when that part alone is too
    long."""
    lines: list[str] = []
    for part in text.split(" · "):
        if lines and len(lines[-1]) + 3 + len(part) <= MAX_WIDTH:
            lines[-1] += f" · {part}"
            continue
        start = indent if not lines else indent + "  "
        lines += textwrap.wrap(
            part if not lines else f"· {part}",
            MAX_WIDTH,
            initial_indent=start,
            subsequent_indent=indent + "  ",
            break_on_hyphens=False,
            break_long_words=False,
        )
    return lines


def title_text(
    what: str,
    *,
    rules: str | None = None,
    players: str | None = None,
    size: str | None = None,
    seed: int | None = None,
) -> str:
    """A command's title line: what the table is, then each given part, joined by
    `` · ``, e.g. ``Knock threshold sweep · rules standard · basic against expert ·
    5,000 deals per threshold · seed 1``."""
    parts = [
        what,
        None if rules is None else f"rules {rules}",
        players,
        size,
        None if seed is None else f"seed {seed}",
    ]
    return " · ".join(part for part in parts if part)


#: The legend under every table that writes a CI.
CI_NOTE = "x ± h: the estimate x and the half-width h of its 95% confidence interval."

#: A cell that reads as a number (with its unit, sign, ``± h`` or ``%``): right-aligned.
_NUMBER_CELL = re.compile(r"^[-+−]?[\d.,]+(e[-+]\d+)?%?( ± [\d.,]+(e[-+]\d+)?%?)?[*]?$|^-?$|^best$")


def table_lines(table: pd.DataFrame, width: int = MAX_WIDTH) -> list[str]:
    """``table`` as aligned text, two spaces between columns: numbers right-aligned, words
    left-aligned.  A table wider than ``width`` is cut into blocks of columns, each
    repeating the first column, one after the other."""
    cells = table.astype(str)
    right = {
        column: all(_NUMBER_CELL.match(value) for value in cells[column])
        for column in cells.columns
    }
    widths = {
        column: max([len(str(column)), *(len(value) for value in cells[column])])
        for column in cells.columns
    }

    def block_lines(block: list[Any]) -> list[str]:
        def line(values: list[str]) -> str:
            return "  ".join(
                value.rjust(widths[c]) if right[c] else value.ljust(widths[c])
                for c, value in zip(block, values, strict=True)
            ).rstrip()

        rows = [line([str(c) for c in block])]
        rows += [line([cells.at[i, c] for c in block]) for i in cells.index]
        return rows

    blocks: list[list[Any]] = [[]]
    for column in cells.columns:
        trial = blocks[-1] + [column]
        if blocks[-1] and sum(widths[c] + 2 for c in trial) - 2 > width:
            blocks.append([cells.columns[0], column])
        else:
            blocks[-1] = trial
    lines: list[str] = []
    for number, block in enumerate(blocks):
        lines += ([""] if number else []) + block_lines(block)
    return lines


def wrapped(text: str, width: int = MAX_WIDTH, indent: str = "") -> list[str]:
    """``text`` broken into lines of at most ``width`` columns, the later lines indented
    by ``indent``."""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False
    ) or [""]


def chance_text(probability: float) -> str:
    """A probability a player can read at any size: ``1 in 115,733`` below 1 %, else a
    percentage.

    >>> chance_text(8.64e-06), chance_text(0.0412), chance_text(0.0)
    ('1 in 115,741', '4.12%', 'never seen')
    """
    if probability <= 0:
        return "never seen"
    if probability < 0.01:
        return f"1 in {round(1 / probability):,}"
    return f"{probability:.2%}"


def label_lines(rows: list[tuple[str, str]]) -> list[str]:
    """``label:  value`` lines, the values aligned after the longest label."""
    width = max(len(label) for label, _ in rows) + 2
    return [f"{label + ':':<{width}}{value}" for label, value in rows]


def verdict_grid(chart: Any, min_samples: int) -> list[str]:
    """The knock chart as a turn x deadwood grid of verdicts: ``K`` knock now, ``P``
    play on (95% CI excludes 0), ``·`` too close to call, blank: fewer than
    ``min_samples`` states."""
    from ..gin.studies.branching import MAX_TURN

    marks = {"knock": "K", "play on": "P", "unclear": "·"}
    cells = {
        (int(r.turn), int(r.deadwood)): marks[r.verdict] if r.n >= min_samples else " "
        for r in chart.itertuples()
    }
    lines = ["own turn   deadwood " + " ".join(f"{d:>2}" for d in range(1, 11))]
    for turn in range(1, MAX_TURN + 1):
        label = f"{turn}+" if turn == MAX_TURN else str(turn)
        row = " ".join(f"{cells.get((turn, d), ' '):>2}" for d in range(1, 11))
        lines.append(f"{label:>8}            {row}".rstrip())
    lines.append(
        f"K knock now, P play on (95% CI excludes 0), · too close to call, blank: "
        f"under {min_samples} states"
    )
    return lines


__all__ = [
    "CI_NOTE",
    "MAX_WIDTH",
    "chance_text",
    "estimate_text",
    "interval_column",
    "interval_text",
    "label_lines",
    "plus_minus",
    "rules_text",
    "table_lines",
    "title_text",
    "verdict_grid",
    "wrapped",
]
