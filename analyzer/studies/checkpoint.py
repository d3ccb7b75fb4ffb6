"""The checkpoint file: a run's fold states, saved as it goes, to resume it bit for bit.

The computation sees a checkpoint only as the object the command line hands it
(:func:`analyzer.core.chunks.checkpointing`, :class:`analyzer.core.chunks.FoldCheckpoint`);
this module owns the file's format and writes it whole (:mod:`analyzer.studies.files`).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..core.chunks import ChunkPlan, FoldState
from ..core.fold_checks import finite_number
from ..core.limits import MAX_CHECKPOINT_BYTES, MAX_CHECKPOINT_DEPTH, load_json, read_file
from .files import write_bytes

A = TypeVar("A")

#: Version of the checkpoint file layout.
CHECKPOINT_FORMAT = 1
#: Seconds between checkpoint writes during a fold (and always at its end or stop).
CHECKPOINT_INTERVAL_S = 2.0


class CheckpointMismatch(ValueError):
    """A checkpoint file that belongs to another run, or is not a checkpoint."""


class Checkpoint:
    """Fold states of a run's chunk plans, saved to one JSON file.

    A run folds its plans in a fixed order; the ``n``-th plan of the run is stage ``n``
    (with its function, total and chunk size in the key, so a changed run cannot pick
    up a wrong state).  Each stage stores the chunks folded so far and the folded value
    (floats written in hexadecimal, which reads back to the same bits), so a resumed run
    folds the remaining chunks onto the very same value and ends bit-identical.

    ``identity`` (JSON-able) names the run, e.g. the command and its options; resuming
    from a file with another identity raises :class:`CheckpointMismatch`, and so does a
    file whose fields do not hold what this code writes (every field is checked: a
    checkpoint may have been edited or damaged).  The file is written whole (a
    temporary name, then a rename: :func:`analyzer.studies.files.write_bytes`), so it is
    whole whenever the run stops, and it outlives a run that fails or is stopped.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        identity: Mapping[str, Any],
        resume: bool = False,
        interval_s: float = CHECKPOINT_INTERVAL_S,
    ) -> None:
        self.path = Path(path)
        self.identity = json.loads(json.dumps(identity, sort_keys=True, default=str))
        self.interval_s = interval_s
        self.stages: dict[str, dict[str, Any]] = {}
        self._restored: dict[str, FoldState[Any]] = {}
        self._count = 0
        self._last_save = time.monotonic()
        if resume:
            self._load()
        self._write()

    def _bad(self, problem: str) -> CheckpointMismatch:
        return CheckpointMismatch(f"checkpoint {self.path} is damaged: {problem}")

    def _load(self) -> None:
        try:
            data = load_json(
                read_file(self.path, MAX_CHECKPOINT_BYTES, str(self.path)),
                str(self.path),
                MAX_CHECKPOINT_DEPTH,
            )
        except FileNotFoundError:
            raise CheckpointMismatch(f"no checkpoint to resume at {self.path}") from None
        except OSError as error:
            raise CheckpointMismatch(
                f"not a checkpoint file: {self.path} ({error.strerror or error})"
            ) from None
        except ValueError as error:  # too large, not UTF-8, not JSON, nested too deep
            raise CheckpointMismatch(f"not a checkpoint file: {error}") from None
        if not isinstance(data, dict) or _canonical(data.get("format")) != _canonical(
            CHECKPOINT_FORMAT
        ):
            raise CheckpointMismatch(f"not a checkpoint file: {self.path}")
        # compared as text: JSON's true and 1.0 are not the 1 this run has
        if _canonical(data.get("identity")) != _canonical(self.identity):
            raise CheckpointMismatch(
                f"checkpoint {self.path} belongs to another run: {_canonical(data.get('identity'))}"
            )
        stages = data.get("stages")
        if not isinstance(stages, dict):
            raise self._bad(f"field 'stages' must be an object, got {_shown(stages)}")
        for key, entry in stages.items():
            where = f"stages[{key!r}]"
            if not isinstance(entry, dict):
                raise self._bad(f"{where} must be an object, got {_shown(entry)}")
            for field in ("chunks", "units"):
                count = entry.get(field)
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise self._bad(
                        f"{where}.{field} must be a whole number >= 0, got {_shown(count)}"
                    )
            if "value" not in entry:
                raise self._bad(f"{where} has no field 'value'")
            try:
                value = _decode(entry["value"])
            except (
                ValueError,
                TypeError,
                KeyError,
                AttributeError,
                OverflowError,
                RecursionError,
            ) as error:
                raise self._bad(f"{where}.value cannot be read ({error})") from None
            self._restored[key] = FoldState(value, entry["chunks"], entry["units"])
        self.stages = stages

    def stage(self, plan: ChunkPlan) -> str:
        """The key of the next plan folded in this run."""
        function = plan.function
        key = (
            f"{self._count}:{function.__module__}.{function.__qualname__}:{plan.total}:{plan.chunk}"
        )
        self._count += 1
        return key

    def restore(self, stage: str, state: FoldState[A], plan: ChunkPlan) -> FoldState[A]:
        """The saved state of ``stage``, else ``state`` (the fold's start).

        Raises :class:`CheckpointMismatch` when the saved state cannot be one of
        ``plan``: more chunks than it has, units that are not those of its first chunks,
        a value not shaped like the fold's, or sums those units cannot add
        (:attr:`~analyzer.core.plans.ChunkPlan.check`)."""
        saved = self._restored.get(stage)
        if saved is None:
            return state
        where = f"stages[{stage!r}]"
        if saved.chunks > len(plan):
            raise self._bad(
                f"{where}.chunks is {saved.chunks:,}, but the run has {len(plan):,} chunks"
            )
        if saved.units != plan.units_before(saved.chunks):
            raise self._bad(
                f"{where}.units is {saved.units:,}, but {saved.chunks:,} "
                f"chunks hold {plan.units_before(saved.chunks):,}"
            )
        problem = _misfit(saved.value, state.value)
        if problem is None and plan.check is not None:
            problem = plan.check(saved.value, saved.units)
        if problem is not None:
            raise self._bad(f"{where}.value {problem}")
        return FoldState(saved.value, saved.chunks, saved.units)

    def maybe_save(self, stage: str, state: FoldState[Any]) -> None:
        """Save when :attr:`interval_s` has passed since the last save."""
        if time.monotonic() - self._last_save >= self.interval_s:
            self.save(stage, state)

    def save(self, stage: str, state: FoldState[Any]) -> None:
        """Record ``state`` for ``stage`` and write the file."""
        self.stages[stage] = {
            "chunks": state.chunks,
            "units": state.units,
            "value": _encode(state.value),
        }
        self._write()

    def _write(self) -> None:
        text = json.dumps(
            {"format": CHECKPOINT_FORMAT, "identity": self.identity, "stages": self.stages}
        )
        # kept when the run stops: it is what the next run resumes from
        write_bytes(self.path, text.encode(), track=False)
        self._last_save = time.monotonic()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _misfit(saved: Any, start: Any) -> str | None:
    """Why ``saved`` cannot be a fold value that began as ``start``, or None.

    Structure the start fixes (an array's dtype and shape, a tuple's length, a dict's
    keys) must match; what a fold adds (list items, new dict keys) must be numbers,
    numeric arrays or containers of them, the only things the runs fold.  Sums kept as
    ``x``, ``x_sq`` and ``x_n`` (:func:`analyzer.core.fold_checks.value_ranges`) must be
    ones that count of values can have.  (:func:`_decode` has refused numbers that are
    not finite.)"""
    if isinstance(start, np.ndarray):
        if (
            not isinstance(saved, np.ndarray)
            or saved.dtype != start.dtype
            or saved.shape != start.shape
        ):
            return f"must be a {start.dtype} array of shape {start.shape}"
        return None
    if isinstance(start, (bool, np.bool_)) or start is None or isinstance(start, str):
        return None if type(saved) is type(start) else f"must be {start!r}-like"
    if isinstance(start, (int, float, np.integer, np.floating)):
        return None if finite_number(saved) else "must be a number"
    if isinstance(start, tuple):
        if not isinstance(saved, tuple) or len(saved) != len(start):
            return f"must be a list of {len(start)} parts"
        for index, (item, first) in enumerate(zip(saved, start, strict=True)):
            problem = _misfit(item, first)
            if problem is not None:
                return f"part {index} {problem}"
        return None
    if isinstance(start, dict):
        if not isinstance(saved, dict):
            return "must be a table of named sums"
        for key, first in start.items():
            if key not in saved:
                return f"has no {key!r}"
            problem = _misfit(saved[key], first)
            if problem is not None:
                return f"{key!r} {problem}"
        if not all(_numeric(v) for k, v in saved.items() if k not in start):
            return "holds something other than numbers"
        return _moments_problem(saved)
    if isinstance(start, list):
        return (
            None
            if isinstance(saved, list) and all(_numeric(v) for v in saved)
            else "must be a list of numbers"
        )
    return None if type(saved) is type(start) else f"must be a {type(start).__name__}"


def _moments_problem(sums: dict[str, Any]) -> str | None:
    """Why the sums ``x``, ``x_sq`` and ``x_n`` of ``sums`` cannot be the sum, the sum of
    squares and the count of some values (a whole count >= 0, squares >= 0, and
    ``x**2 <= x_n * x_sq``, Cauchy-Schwarz), or None."""
    for name, total in sums.items():
        squares, count = sums.get(f"{name}_sq"), sums.get(f"{name}_n")
        if squares is None or count is None:
            continue  # not such a triple
        if not all(finite_number(v) for v in (total, squares, count)):
            continue  # no numbers: the shape's check names them
        if count < 0 or count != int(count):
            return f"{name + '_n'!r} is {count:,g}, not a count"
        if squares < 0:
            return f"{name + '_sq'!r} is {squares:,g}, a sum of squares below 0"
        if total * total > count * squares * (1 + 1e-9):
            return (
                f"{name!r} is {total:,g}, more than {count:,g} values whose squares add "
                f"to {squares:,g} can add"
            )
    return None


def _numeric(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf"
    if isinstance(value, dict):
        return all(isinstance(k, str) and _numeric(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_numeric(v) for v in value)
    return False


def _encode(value: Any) -> Any:
    """``value`` as JSON data that :func:`_decode` reads back to the same bits."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return {"float": float(value).hex()}
    if isinstance(value, np.ndarray):
        return {
            "array": value.ravel().tolist()
            if value.dtype.kind in "iub"
            else [float(v).hex() for v in value.ravel()],
            "dtype": value.dtype.str,
            "shape": list(value.shape),
        }
    if isinstance(value, Mapping):
        return {"dict": [[key, _encode(item)] for key, item in value.items()]}
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple": [_encode(v) for v in value]}
    raise TypeError(f"cannot checkpoint a {type(value).__name__}")


def _decode(data: Any) -> Any:
    """The value :func:`_encode` wrote as ``data``; ``ValueError`` or ``TypeError`` for
    anything it does not write (a tag of the wrong type, a boolean or a string where a
    whole number belongs: ``numpy`` would take those for numbers)."""
    if not isinstance(data, dict):
        if isinstance(data, (list, float)):
            raise TypeError(f"a bare {type(data).__name__} is not a checkpoint value")
        return _whole(data) if type(data) is int else data
    if len(data) != 1 and set(data) != {"array", "dtype", "shape"}:
        raise ValueError(f"unknown value {_shown(data)}")
    if "float" in data:
        return _finite(data["float"])
    if "array" in data:
        dtype = np.dtype(_checked(data["dtype"], str))
        shape = [_whole(size) for size in _checked(data["shape"], list)]
        cells = _checked(data["array"], list)
        if any(size < 0 for size in shape) or math.prod(shape) != len(cells):
            raise ValueError(f"an array of shape {_shown(shape)} cannot hold {len(cells):,} cells")
        if dtype.kind == "b":
            items: list[Any] = [_checked(cell, bool) for cell in cells]
        elif dtype.kind in "iu":
            items = [_whole(cell) for cell in cells]
        else:
            items = [_finite(cell) for cell in cells]
        return np.array(items, dtype=dtype).reshape(shape)
    if "dict" in data:
        pairs = [_checked(pair, list) for pair in _checked(data["dict"], list)]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError("a dict entry must be a [key, value] pair")
        return {_checked(key, str): _decode(item) for key, item in pairs}
    if "list" in data:
        return [_decode(v) for v in _checked(data["list"], list)]
    if "tuple" in data:
        return tuple(_decode(v) for v in _checked(data["tuple"], list))
    raise ValueError(f"unknown value {_shown(data)}")


def _checked(value: Any, kind: type) -> Any:
    """``value`` when it is exactly a ``kind`` (not a ``bool`` for an ``int``)."""
    if type(value) is not kind:
        raise TypeError(f"expected {kind.__name__}, got {_shown(value)}")
    return value


def _whole(value: Any) -> int:
    """A whole number of 64 bits at most (a sum of any run fits that)."""
    number = int(_checked(value, int))
    if not -(2**63) <= number < 2**63:
        raise ValueError(f"{_shown(number)} does not fit 64 bits")
    return number


def _finite(text: Any) -> float:
    """The finite float written in hexadecimal as ``text`` (a run's sums never hold an
    infinity or a NaN)."""
    number = float.fromhex(_checked(text, str))
    if not math.isfinite(number):
        raise ValueError(f"{number} is not a finite number")
    return number


__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_INTERVAL_S", "Checkpoint", "CheckpointMismatch"]
