"""The best knock schedule: the turn-dependent knock thresholds that maximise points per
hand (or games) against an opponent, found by coordinate search with a significance
rule, then best responses back and forth (:func:`best_schedule`).

A schedule is one threshold per own-turn bin (:data:`SCHEDULE_BINS`); ``10/0/0/0``
knocks at deadwood 10 or less in own turns 1-3 and only with gin afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ...core.progress import Progress, advance, scaled, tell_total
from ...core.rng import offset_seed
from ..model.policies import Policy
from ..model.policy_fields import SCHEDULE_TURNS
from ..model.rules import Rules
from .compare import Arm, compare_games, compare_hands

#: Own-turn bins of a knock schedule: turns 1-3, 4-6, 7-9, 10 and later.
SCHEDULE_BINS = ((1, 3), (4, 6), (7, 9), (10, SCHEDULE_TURNS))


def schedule_policy(base: Policy, thresholds: Sequence[int]) -> Policy:
    """``base`` with one knock threshold per bin of :data:`SCHEDULE_BINS`; with twice as
    many thresholds, the second half is the alert schedule (while the opponent holds a
    card it took from the pile)."""
    bins = len(SCHEDULE_BINS)
    if len(thresholds) not in (bins, 2 * bins):
        raise ValueError(
            f"a knock table has {bins} or {2 * bins} thresholds, got {len(thresholds)}"
        )
    plain = _steps(thresholds[:bins])
    alert = _steps(thresholds[bins:]) if len(thresholds) > bins else None
    return base.with_knock(plain, alert)


def _steps(thresholds: Sequence[int]) -> tuple[tuple[int, int], ...]:
    steps: list[tuple[int, int]] = []
    for (first, _), threshold in zip(SCHEDULE_BINS, thresholds, strict=True):
        if not steps or steps[-1][1] != threshold:
            steps.append((first, int(threshold)))
    return tuple(steps)


@dataclass
class ScheduleSearch:
    """Result of :func:`best_schedule`."""

    steps: pd.DataFrame
    """One row per best-response step: side, schedule, gain (points per hand or game-win
    rate, by the objective) with CI."""
    final_a: tuple[int, ...]
    final_b: tuple[int, ...]
    gaps: pd.DataFrame
    """How far the final pair is from mutual best response: each side's best one-bin
    deviation gain (in the objective's unit) with CI."""


OBJECTIVES = {"points": "points_mean", "games": "game_win_mean"}
"""What a schedule search maximises: points per hand, or the game-win rate (to 100)."""


def _evaluate(
    arms: Sequence[Arm],
    n: int,
    seed: int,
    objective: str,
    reference: int,
    progress: Progress | None,
    scheduler: str | None,
) -> pd.DataFrame:
    """Paired comparison of the arms on ``n`` deals (points) or game pairs (games)."""
    compare = compare_hands if objective == "points" else compare_games
    return compare(arms, n, seed, reference=reference, progress=progress, scheduler=scheduler)


#: Most coordinate-ascent sweeps of :func:`best_response`.
_MAX_SWEEPS = 3
_THRESHOLDS = 11


def best_response_work(n: int) -> int:
    """Most arm-deals (or arm-game-pairs) one :func:`best_response` plays: every sweep
    evaluates 11 thresholds per bin, then the start and the best are compared."""
    return (_MAX_SWEEPS * len(SCHEDULE_BINS) * _THRESHOLDS + 2) * n


def best_response(
    rules: Rules,
    base: Policy,
    start: Sequence[int],
    opponent: Policy,
    n: int,
    seed: int,
    objective: str = "points",
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> tuple[list[int], float, float, float]:
    """Coordinate ascent over bins: each bin's threshold set to the best of 0..10 with
    the others fixed, sweeping until nothing changes.  Returns the schedule and the
    paired gain over ``start`` (points per hand or game-win rate, with 95% CI).
    ``progress`` counts arm-deals, at most :func:`best_response_work` in all (a search
    that stops early reports the sweeps it skips)."""
    tell_total(progress, best_response_work(n))
    return _best_response(rules, base, start, opponent, n, seed, objective, progress, scheduler)


def _best_response(
    rules: Rules,
    base: Policy,
    start: Sequence[int],
    opponent: Policy,
    n: int,
    seed: int,
    objective: str,
    progress: Progress | None,
    scheduler: str | None,
) -> tuple[list[int], float, float, float]:
    metric = OBJECTIVES[objective]
    current = list(start)
    per_arm = scaled(progress, _THRESHOLDS)
    for sweep in range(_MAX_SWEEPS):
        changed = False
        for index in range(len(SCHEDULE_BINS)):
            arms = []
            for threshold in range(_THRESHOLDS):
                trial = [*current]
                trial[index] = threshold
                arms.append(Arm(str(threshold), rules, schedule_policy(base, trial), opponent))
            table = _evaluate(arms, n, seed, objective, current[index], per_arm, scheduler)
            best = int(table[metric].idxmax())
            # move only on a significant gain, so noise does not make the search wander
            if best != current[index] and table.loc[best, "diff_low"] > 0:
                current[index] = best
                changed = True
        if not changed:
            advance(progress, (_MAX_SWEEPS - sweep - 1) * len(SCHEDULE_BINS) * _THRESHOLDS * n)
            break
    arms = [
        Arm("start", rules, schedule_policy(base, start), opponent),
        Arm("best", rules, schedule_policy(base, current), opponent),
    ]
    gain = _evaluate(
        arms, n, offset_seed(seed, 1), objective, 0, scaled(progress, 2), scheduler
    ).iloc[1]
    return current, float(gain["diff_mean"]), float(gain["diff_low"]), float(gain["diff_high"])


def best_schedule(
    rules: Rules,
    base: Policy,
    opponent: Policy,
    n: int,
    seed: int,
    rounds: int = 3,
    objective: str = "points",
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> ScheduleSearch:
    """A best-responds to ``opponent``, then B (same base policy) to A's schedule, and so
    on for ``rounds`` rounds or until neither schedule changes.

    ``objective`` is ``points`` (points per hand, ``n`` deals per evaluation) or
    ``games`` (game-win rate, ``n`` seat-swapped game pairs per evaluation).
    ``progress`` counts arm-deals, at most :func:`best_schedule_work` in all.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    tell_total(progress, best_schedule_work(n, rounds))
    schedule_a = [10] * len(SCHEDULE_BINS)
    schedule_b: list[int] | None = None
    steps = []
    for round_number in range(1, rounds + 1):
        changed = False
        for side in ("A", "B"):
            if side == "A":
                against = opponent if schedule_b is None else schedule_policy(base, schedule_b)
                new, gain, low, high = _best_response(
                    rules,
                    base,
                    schedule_a,
                    against,
                    n,
                    offset_seed(seed, round_number),
                    objective,
                    progress,
                    scheduler,
                )
                changed |= new != schedule_a
                schedule_a = new
            else:
                start = schedule_b or [10] * len(SCHEDULE_BINS)
                new, gain, low, high = _best_response(
                    rules,
                    base,
                    start,
                    schedule_policy(base, schedule_a),
                    n,
                    offset_seed(seed, 100 + round_number),
                    objective,
                    progress,
                    scheduler,
                )
                changed |= new != schedule_b
                schedule_b = new
            steps.append(
                {
                    "round": round_number,
                    "side": side,
                    "schedule": "/".join(str(t) for t in new),
                    "gain": gain,
                    "gain_low": low,
                    "gain_high": high,
                }
            )
        if not changed:
            advance(progress, (rounds - round_number) * 2 * best_response_work(n))
            break
    final_b = schedule_b or [10] * len(SCHEDULE_BINS)
    gaps = []
    for side, mine, theirs in (("A", schedule_a, final_b), ("B", final_b, schedule_a)):
        arms = [Arm("final", rules, schedule_policy(base, mine), schedule_policy(base, theirs))]
        for index in range(len(SCHEDULE_BINS)):
            for threshold in range(11):
                if threshold != mine[index]:
                    trial = [*mine]
                    trial[index] = threshold
                    arms.append(
                        Arm(
                            "/".join(map(str, trial)),
                            rules,
                            schedule_policy(base, trial),
                            schedule_policy(base, theirs),
                        )
                    )
        table = _evaluate(
            arms, n, offset_seed(seed, 999), objective, 0, scaled(progress, len(arms)), scheduler
        )
        best = table.iloc[1:]["diff_mean"].idxmax()
        gaps.append(
            {
                "side": side,
                "schedule": "/".join(map(str, mine)),
                "best_deviation": table.loc[best, "arm"],
                "gain": table.loc[best, "diff_mean"],
                "gain_low": table.loc[best, "diff_low"],
                "gain_high": table.loc[best, "diff_high"],
            }
        )
    return ScheduleSearch(
        pd.DataFrame(steps), tuple(schedule_a), tuple(final_b), pd.DataFrame(gaps)
    )


def best_schedule_work(n: int, rounds: int) -> int:
    """Most arm-deals :func:`best_schedule` plays: two best responses per round, then
    each side's 41 one-bin deviations."""
    deviations = 1 + len(SCHEDULE_BINS) * (_THRESHOLDS - 1)
    return rounds * 2 * best_response_work(n) + 2 * deviations * n
