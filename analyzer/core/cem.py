"""The cross-entropy method over a panel of opponents: how both games fit a player's
weights from simulated deals (gin's learned discard, :mod:`analyzer.gin.studies.discard_fit`;
plain rummy's expert, :mod:`analyzer.rummy.fit`).

Each generation draws ``population`` weight vectors from a Gaussian around the current
mean (clipped to each weight's range; candidate 0 is the mean itself) and scores every
candidate against every entry of a panel on the *same* deals (common random numbers).
A candidate's score is a soft minimum of its results over the panel,
``-T log mean exp(-x / T)`` with ``T = softness`` (the results' units), so that no entry
is sacrificed for the others; the ``elite`` best set the next mean and spread (the
spread shrinks towards the elite's, never below 2% of each weight's range).

The candidates are drawn from ``numpy.random.default_rng(seed)``; what the deals of
generation ``g`` are is the caller's (its ``evaluate(g, mean, weights)``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .arrays import Float64s


@dataclass(frozen=True)
class Generation:
    """One generation: its candidates' weights and scores, and the mean it moved to."""

    weights: Float64s
    """``(population, weights)`` candidate weights (row 0: the mean)."""
    points: Float64s
    """``(population, panel)`` result of each candidate against each panel entry."""
    scores: Float64s
    mean: Float64s
    seconds: float


def soft_minimum(points: Float64s, softness: float) -> Float64s:
    """``-T log mean exp(-x / T)`` over the last axis (shifted so that it cannot
    overflow).

    >>> float(soft_minimum(np.array([1.0, 1.0]), 2.0))
    1.0
    """
    low = points.min(axis=-1, keepdims=True)
    inner = np.mean(np.exp(-(points - low) / softness), axis=-1)
    result: Float64s = low[..., 0] - softness * np.log(inner)
    return result


def cross_entropy(
    evaluate: Callable[[int, Float64s, Float64s], Float64s],
    start: Sequence[float],
    space: Sequence[tuple[str, int, int, int]],
    *,
    generations: int,
    population: int,
    elite: int,
    softness: float,
    seed: int,
) -> tuple[Float64s, tuple[Generation, ...]]:
    """The fitted mean weights and every generation (see the module notes), from the
    weights ``start`` and the ``space`` of each weight: (name, low, high, starting
    spread).

    ``evaluate(g, mean, weights)`` returns the results (higher is better) of the
    candidate ``weights`` against each panel entry in generation ``g``, whose mean (the
    incumbent, which a panel may include) is ``mean``."""
    mean = np.array(start, dtype=np.float64)
    low = np.array([s[1] for s in space], dtype=np.float64)
    high = np.array([s[2] for s in space], dtype=np.float64)
    spread = np.array([s[3] for s in space], dtype=np.float64)
    draws = np.random.default_rng(seed)
    done = []
    for generation in range(generations):
        started = time.perf_counter()
        candidates = np.array(
            [mean]
            + [
                np.clip(mean + spread * draws.standard_normal(len(mean)), low, high)
                for _ in range(population - 1)
            ]
        )
        points = np.array([evaluate(generation, mean, weights) for weights in candidates])
        scores = soft_minimum(points, softness)
        chosen = candidates[np.argsort(-scores, kind="stable")[:elite]]
        mean = chosen.mean(axis=0)
        spread = np.maximum(0.7 * spread + 0.3 * chosen.std(axis=0), 0.02 * (high - low))
        done.append(Generation(candidates, points, scores, mean, time.perf_counter() - started))
    return mean, tuple(done)


__all__ = ["Generation", "cross_entropy", "soft_minimum"]
