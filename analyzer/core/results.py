"""The common face of a run's result, for both games: a table, plain data, a notebook view.

A result class (a dataclass of :class:`~analyzer.core.stats.Estimate` values, plain
numbers and tuples of them, one entry per player or seat) derives from :class:`RunResult`
and says which of its fields make its summary (:attr:`RunResult.summary_fields`) and how
many units (deals, hands, games) it covers (:attr:`RunResult.units`).  It gets

* :meth:`~RunResult.summary`: the summary as JSON-ready data, estimates as
  ``{"mean", "ci95"}``;
* :meth:`~RunResult.to_frame`: the headline numbers as a table, one row per metric with its
  ``mean``, 95% CI ``low`` and ``high`` and its count ``n`` (the units for a plain
  number, which has no CI); a tuple gives one row per entry, ``name_0``, ``name_1``, ...;
* ``_repr_html_``: that table in a notebook.

>>> from dataclasses import dataclass
>>> from analyzer.core.stats import Estimate
>>> @dataclass
... class Coins(RunResult):
...     tosses: int
...     heads: Estimate
...     summary_fields = ("tosses", "heads")
...     @property
...     def units(self):
...         return self.tosses
>>> coins = Coins(4, Estimate.from_rate(2, 4))
>>> coins.summary()["heads"]["mean"]
0.5
>>> coins.to_frame().metric.tolist()
['heads']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .stats import Estimate

if TYPE_CHECKING:
    import pandas as pd

#: Columns of :meth:`RunResult.to_frame`.
FRAME_COLUMNS = ("metric", "mean", "low", "high", "n")


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: estimates as ``{"mean", "ci95"}``, tuples as lists."""
    if isinstance(value, Estimate):
        return value.as_dict()
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


class RunResult:
    """Base of the result of a run (see the module docstring)."""

    summary_fields: ClassVar[tuple[str, ...]] = ()
    """The fields that make the summary, in order."""

    @property
    def units(self) -> int:
        """Units (deals, hands or games) the result covers: the ``n`` of plain numbers."""
        raise NotImplementedError

    def summary(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data (estimates as ``{mean, ci95}``)."""
        return {name: plain(getattr(self, name)) for name in self.summary_fields}

    def metrics(self) -> dict[str, Estimate | float]:
        """The numbers of :meth:`to_frame` by name: by default every estimate and every
        fraction (float) of the summary, tuples entry by entry."""
        found: dict[str, Estimate | float] = {}
        for name in self.summary_fields:
            value = getattr(self, name)
            entries = (
                {f"{name}_{index}": item for index, item in enumerate(value)}
                if isinstance(value, tuple)
                else {name: value}
            )
            found.update(
                {key: item for key, item in entries.items() if isinstance(item, (Estimate, float))}
            )
        return found

    def to_frame(self) -> pd.DataFrame:
        """The metrics as a table: ``metric``, ``mean``, 95% CI ``low`` / ``high`` (NaN for
        a plain number) and ``n``."""
        import pandas as pd

        rows = []
        for name, value in self.metrics().items():
            if isinstance(value, Estimate):
                rows.append(
                    {
                        "metric": name,
                        "mean": value.mean,
                        "low": value.low,
                        "high": value.high,
                        "n": value.n,
                    }
                )
            else:
                rows.append(
                    {
                        "metric": name,
                        "mean": value,
                        "low": float("nan"),
                        "high": float("nan"),
                        "n": self.units,
                    }
                )
        return pd.DataFrame(rows, columns=list(FRAME_COLUMNS))

    def _repr_html_(self) -> str:
        """The table of :meth:`to_frame`, for notebooks."""
        return str(self.to_frame().to_html(index=False))


__all__ = ["FRAME_COLUMNS", "RunResult", "plain"]
