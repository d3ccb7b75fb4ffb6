"""The range of every number a user can give, and the size of every input read: one
table shared by the command line (:mod:`analyzer.cli`), the notebook API
(:mod:`analyzer.api`) and the web app (:mod:`analyzer.web`).

The bounds keep every count, index and sum inside int64 and every allocation small; the
memory each one allows is stated where it is defined.  The search player's parameters
are here too (:data:`SEARCH_RANGES`), as is what a reader of a file, a pipe or a message
line takes at most (:func:`read_text`, :func:`read_lines`, :func:`load_json`).

The checks raise ``TypeError`` (not a number of the right kind: ``True``, ``2.0``,
``"3"``, ``None``) or ``ValueError`` (out of range), naming the parameter as the caller
spelled it:

>>> check_int(5, "deals", 1, MAX_UNITS)
5
>>> check_int(2**64, "seed", 0, SEED_MAX)
Traceback (most recent call last):
...
ValueError: seed must be 0-9223372036854775807, got 18446744073709551616
>>> check_float(float("nan"), "temperature", 0, MAX_TEMPERATURE, low_open=True)
Traceback (most recent call last):
...
ValueError: temperature must be a finite number, got nan

This module imports nothing heavy (no numpy): the command line reads it for ``--help``.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

# ------------------------------------------------------------------------- numbers

#: Seeds everywhere: ``0 <= seed <= SEED_MAX`` (a seed is an int64 stream key).
SEED_MAX = 2**63 - 1
#: The one default seed of every study, answer and advice (the report's).
DEFAULT_SEED = 2026
#: Most deals or games of one run.  Runs are folded chunk by chunk, so memory does not
#: grow with the count; 10**12 keeps deal indices (doubled for seat swaps) and counts far
#: inside int64.  A deal index (``replay --deal``) is below it.
MAX_UNITS = 10**12
#: Most deals (or games) whose rows are kept in memory (``--raw``, ``keep_rows=True``, the
#: variants study's self-play): two rows of at most 11 int64 columns each, under 1 GB.
MAX_RAW_UNITS = 5_000_000
#: Most games of 3 or 4 players: played in one kernel call, every game's row kept
#: (about 100 bytes each).
MAX_MULTIPLAYER_GAMES = 1_000_000
#: Most advisor samples: each keeps four 8-byte values per action (at most 12), so 10**6
#: samples stay under 0.5 GB.
MAX_SAMPLES = 1_000_000
#: Largest advisor tolerance (a 95% half-width, points or win probability).
MAX_TOLERANCE = 1000.0
#: Largest temperature of a weighting model, points of deadwood per factor ``e`` (the
#: advisor's and the search player's).
MAX_TEMPERATURE = 1000
#: Fewest deals of the variants study (half of them go to its threshold search).
MIN_VARIANT_DEALS = 2
#: Fewest deals behind an equity table (the advisor's ``--equity-deals``).
MIN_EQUITY_DEALS = 100
#: Deals per comparison of the response searches (``exploit``, ``equilibrium``): each
#: comparison plays every candidate on them, some 90 candidates a sweep, so a search
#: runs hundreds of times this many hands; below 100 no gain is significant.
MIN_SEARCH_DEALS = 100
MAX_SEARCH_DEALS = 10_000_000
#: Most deals per section of ``analyzer report`` (its largest sections play each deal
#: dozens of times, so ten million is days on two cores).
MAX_REPORT_DEALS = 10_000_000
#: The discard fit (``analyzer fit-discard``): deals per candidate and opponent (a
#: million is hours a generation on two cores), generations, candidates per generation,
#: and the soft minimum's temperature (points per hand: past 100 it is the plain mean).
MAX_FIT_DEALS = 1_000_000
MAX_FIT_GENERATIONS = 50
MAX_FIT_POPULATION = 100
MAX_FIT_SOFTNESS = 100.0
#: Most held-out game pairs of ``exploit`` (0 skips the game-win rate).
MAX_EXPLOIT_GAMES = 1_000_000
#: Most sweeps of ``exploit``'s coordinate search.
MAX_EXPLOIT_ROUNDS = 5
#: Most PSRO iterations of ``equilibrium`` (the population grows by one table each).
MAX_PSRO_ITERATIONS = 50
#: Largest stopping tolerance of ``equilibrium`` (points per hand).
MAX_PSRO_TOLERANCE = 10.0
#: Most rounds of alternating best responses of ``knock-schedule``.
MAX_SCHEDULE_ROUNDS = 10
#: Most mirrored pairs of an EAAI framework match (``scripts/eaai/match.py``): its summary
#: holds every game's row, about 1.2 KB each, so under 0.5 GB.
MAX_EAAI_PAIRS = 100_000
#: Largest deck or agent seed of an EAAI framework match: its Java side reads them as
#: ``int``.
EAAI_SEED_MAX = 2**31 - 1

# ---------------------------------------------------------------- the search player

#: Most samples per decision of the search player (``budget``).  A searching thread keeps
#: one 8-byte value per sample and racing action (at most 22) and one weight per sample:
#: 184 bytes a sample, 18.4 MB at the most, per thread that searches.
MAX_BUDGET = 100_000
#: The search player's integer parameters: ``name -> (low, high)``.  ``batch`` and
#: ``min_samples`` beyond ``budget`` act as ``budget``.
SEARCH_RANGES: dict[str, tuple[int, int]] = {
    "budget": (1, MAX_BUDGET),
    "batch": (1, MAX_BUDGET),
    "min_samples": (2, MAX_BUDGET),
    "temperature": (0, MAX_TEMPERATURE),
}

# ------------------------------------------------------------------------- inputs

#: Most characters of a position file (``advise --position``, ``replay --position``): a
#: position is well under 1 KB.
MAX_POSITION_CHARS = 64 * 1024
#: Most lines (hands, comments and blank lines included) of ``deadwood --file``: the
#: hands are all checked before the first is printed, about 0.5 KB each in memory.
MAX_FILE_LINES = 100_000
#: Most characters of one line of a text input (a hand of ``deadwood --file``).
MAX_LINE_CHARS = 1_000
#: Deepest nesting of lists and objects in a JSON input (a position or an agent message
#: nests at most 3 deep).
MAX_JSON_DEPTH = 16
#: Most characters of one agent protocol message (one JSON line; a hand's largest message
#: is under 300).
MAX_MESSAGE_CHARS = 16 * 1024

# ------------------------------------------- files the analyzer wrote and reads back
# (checkpoints and results folders: a damaged or planted file must give one line naming
# it, never a MemoryError or a RecursionError)

#: Most bytes of a checkpoint file.  A run folds sums, never rows (``--raw`` and
#: ``--checkpoint`` do not mix): ``report --quick`` saves 277 stages in 1.7 MB, and a
#: stage grows with the run only where it keeps one sum per chunk.  ``json.loads`` takes
#: about ten times the file's size in memory.
MAX_CHECKPOINT_BYTES = 256 * 1024**2
#: Deepest nesting of lists and objects in a checkpoint: the file, its stages and a fold
#: value of tuples, lists and dicts, two JSON levels each (the report's nest 9 deep).
MAX_CHECKPOINT_DEPTH = 32
#: Most bytes of one CSV or ``meta.json`` of a results folder read back (the report's
#: largest file is about 1 MB).
MAX_RESULTS_FILE_BYTES = 64 * 1024**2

# ------------------------------------------------ runs, player lists and hands

#: Most numba threads of one run (``--jobs``; beyond the cores they only take turns).
MAX_JOBS = 256
#: Worker processes of a ``local:N`` scheduler per core this process may use.  A worker
#: is a Python process that loads numba and the kernels (about 300 MB) and runs one chunk
#: at a time on its share of the cores, so workers beyond the cores add memory and no
#: speed; two per core still lets a one-core machine try the two-worker cluster path.
LOCAL_WORKERS_PER_CORE = 2
#: Longest scheduler address (``--scheduler``, ``$ANALYZER_SCHEDULER``).
MAX_SCHEDULER_CHARS = 256
#: Most players of one list (``tournament --policies``, ``panel-equilibrium --members``,
#: ``az.tournament(policies)``): a round robin plays each of the N(N-1)/2 pairs on its own
#: deals, as the panel's payoff matrix does (120 pairs at 16, every policy preset with
#: room for seven search players).
MAX_LISTED_PLAYERS = 16
#: Largest ``serve --advice-seconds``: the longest advisor run a server may allow (s).
MAX_ADVICE_SECONDS = 600.0
#: The web app's longest advisor run by default (s): a run still going then is refused.
ADVICE_RUN_SECONDS = 60.0
#: Longest rules preset or policy spec in a web request.
MAX_SPEC_CHARS = 200
#: Largest index in a web request (a decision of a practice game): an int64.
INDEX_MAX = 2**63 - 1


def check_int(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an ``int`` in ``low..high``; ``TypeError`` when it is no integer
    (``bool`` and floats included), ``ValueError`` out of range, naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    number = int(value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be {low}-{high}, got {number}")
    return number


def check_float(value: object, name: str, low: float, high: float, low_open: bool = False) -> float:
    """``value`` as a finite ``float`` in ``low..high`` (``low`` excluded with
    ``low_open``); ``TypeError`` for a non-number, ``ValueError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {number}")
    if number < low or number > high or (low_open and number == low):
        side = f"> {low:g}" if low_open else f">= {low:g}"
        raise ValueError(f"{name} must be {side} and <= {high:g}, got {number:g}")
    return number


def check_seed(value: object, name: str = "seed") -> int:
    """A seed: an integer ``0 <= seed <= SEED_MAX``."""
    return check_int(value, name, 0, SEED_MAX)


def check_count(value: object, name: str, low: int = 1, high: int = MAX_UNITS) -> int:
    """A count of deals, games or samples: an integer in ``low..high``."""
    return check_int(value, name, low, high)


def max_local_workers() -> int:
    """Most worker processes of a ``local:N`` scheduler on this machine:
    :data:`LOCAL_WORKERS_PER_CORE` per core this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))  # a container's or taskset's share
    except AttributeError:  # no affinity outside Linux
        cores = os.cpu_count() or 1
    return LOCAL_WORKERS_PER_CORE * cores


# ------------------------------------------------------------------------- readers


def _name(stream: IO[str], what: str | None) -> str:
    return what or str(getattr(stream, "name", "input"))


def read_text(stream: IO[str], limit: int = MAX_POSITION_CHARS, what: str | None = None) -> str:
    """All of ``stream`` if it holds at most ``limit`` characters; ``ValueError`` naming
    ``what`` (default: the stream's name) beyond, or when it is not UTF-8 text.  Reads at
    most ``limit + 1`` characters, so an endless input (``/dev/zero``) stops at once."""
    try:
        text = stream.read(limit + 1)
    except UnicodeDecodeError:
        raise ValueError(f"{_name(stream, what)} is not UTF-8 text") from None
    if len(text) > limit:
        raise ValueError(f"{_name(stream, what)} is longer than {limit:,} characters")
    return text


def read_lines(
    stream: IO[str],
    max_lines: int = MAX_FILE_LINES,
    max_chars: int = MAX_LINE_CHARS,
    what: str | None = None,
) -> Iterator[tuple[int, str]]:
    """``(number, line)`` of each line of ``stream`` (from 1, without its newline), reading
    at most ``max_chars + 1`` characters a line: ``ValueError`` naming the line when a line
    is longer than ``max_chars``, when the input has more than ``max_lines`` lines, or when
    it is not UTF-8 text."""
    name = _name(stream, what)
    number = 0
    while True:
        try:
            line = stream.readline(max_chars + 2)  # the line, its newline, one more
        except UnicodeDecodeError:
            raise ValueError(f"{name} line {number + 1}: not UTF-8 text") from None
        if not line:
            return
        number += 1
        if number > max_lines:
            raise ValueError(f"{name} has more than {max_lines:,} lines")
        body = line.rstrip("\r\n") if line.endswith("\n") else line
        if len(body) > max_chars:
            raise ValueError(f"{name} line {number} is longer than {max_chars:,} characters")
        yield number, body


def load_json(text: str, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)``, with every failure (bad JSON, a number too long for ``int``,
    lists and objects nested more than ``max_depth`` deep) as one ``ValueError`` naming
    ``what``.  The depth is checked without recursion, so no later ``repr`` or walk of the
    value can overflow the stack."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what} is not JSON: {error}") from None
    except RecursionError:
        raise ValueError(f"{what} is nested more than {max_depth} deep") from None
    except ValueError as error:  # e.g. an integer of more than 4,300 digits
        raise ValueError(f"{what}: {error}") from None
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > max_depth:
                    raise ValueError(f"{what} is nested more than {max_depth} deep")
                pending.append((child, depth + 1))
    return value


# ------------------------------------------- files the analyzer wrote and reads back


def read_file(path: Path, limit: int, what: str) -> str:
    """The text of the file ``path``; ``ValueError`` naming ``what`` when it is no regular
    file (a pipe would block the reader, ``/dev/zero`` never end), has more than ``limit``
    bytes (checked before reading, and again while reading, for a file that grows) or is
    not UTF-8 text; ``OSError`` when it cannot be read."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode):
        raise ValueError(f"{what} is not a regular file")
    if status.st_size > limit:
        raise ValueError(f"{what} is larger than {limit:,} bytes")
    with path.open(encoding="utf-8") as stream:
        return read_text(stream, limit, what)


__all__ = [
    "ADVICE_RUN_SECONDS",
    "DEFAULT_SEED",
    "EAAI_SEED_MAX",
    "INDEX_MAX",
    "LOCAL_WORKERS_PER_CORE",
    "MAX_ADVICE_SECONDS",
    "MAX_BUDGET",
    "MAX_CHECKPOINT_BYTES",
    "MAX_CHECKPOINT_DEPTH",
    "MAX_EAAI_PAIRS",
    "MAX_EXPLOIT_GAMES",
    "MAX_EXPLOIT_ROUNDS",
    "MAX_FILE_LINES",
    "MAX_FIT_DEALS",
    "MAX_FIT_GENERATIONS",
    "MAX_FIT_POPULATION",
    "MAX_FIT_SOFTNESS",
    "MAX_JOBS",
    "MAX_JSON_DEPTH",
    "MAX_LINE_CHARS",
    "MAX_LISTED_PLAYERS",
    "MAX_MESSAGE_CHARS",
    "MAX_MULTIPLAYER_GAMES",
    "MAX_POSITION_CHARS",
    "MAX_PSRO_ITERATIONS",
    "MAX_PSRO_TOLERANCE",
    "MAX_RAW_UNITS",
    "MAX_REPORT_DEALS",
    "MAX_RESULTS_FILE_BYTES",
    "MAX_SAMPLES",
    "MAX_SCHEDULER_CHARS",
    "MAX_SCHEDULE_ROUNDS",
    "MAX_SEARCH_DEALS",
    "MAX_SPEC_CHARS",
    "MAX_TEMPERATURE",
    "MAX_TOLERANCE",
    "MAX_UNITS",
    "MIN_EQUITY_DEALS",
    "MIN_SEARCH_DEALS",
    "MIN_VARIANT_DEALS",
    "SEARCH_RANGES",
    "SEED_MAX",
    "check_count",
    "check_float",
    "check_int",
    "check_seed",
    "load_json",
    "max_local_workers",
    "read_file",
    "read_lines",
    "read_text",
]
