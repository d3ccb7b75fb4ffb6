"""Every study announces its total units first and reports exactly that many."""

from __future__ import annotations

import pytest

from analyzer.core.chunks import checkpointing
from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.multiplayer import play_multiplayer_games
from analyzer.gin.studies import dealing, exact, knocking, round_robin, schedule, variants
from analyzer.studies.checkpoint import Checkpoint

BASIC = PRESETS["basic"]


class Counter:
    """A progress callable that records the announced total and the units reported."""

    def __init__(self) -> None:
        self.totals: list[int] = []
        self.done = 0

    def __call__(self, advance: int, /, total: int | None = None) -> None:
        if total is not None:
            self.totals.append(total)
        assert advance >= 0
        self.done += advance


STUDIES = {
    "knock_sweep": lambda p: knocking.knock_sweep(
        STANDARD, BASIC, {"basic": BASIC, "twin": None}, 60, 6, 1, (0, 5, 10), progress=p
    ),
    "knock_chart": lambda p: knocking.knock_chart(
        STANDARD, BASIC, BASIC, 80, 1, 5, chunk=32, progress=p, equity_deals=50
    ),
    "best_response": lambda p: schedule.best_response(
        STANDARD, BASIC, [10] * 4, BASIC, 20, 1, progress=p
    ),
    "best_schedule": lambda p: schedule.best_schedule(
        STANDARD, BASIC, BASIC, 20, 1, rounds=2, progress=p
    ),
    "tournament": lambda p: round_robin.tournament(
        STANDARD, {n: PRESETS[n] for n in ("basic", "simple", "passive")}, 40, 4, 1, progress=p
    ),
    "variants": lambda p: variants.variants(
        ["standard", "straight"], PRESETS["gin-hunter"], BASIC, 40, 4, 1, progress=p
    ),
    "dealt_hands": lambda p: dealing.dealt_hands(500, 1, progress=p),
    "multiplayer": lambda p: play_multiplayer_games(STANDARD, [BASIC] * 3, 2_100, 1, p),
    "exact": lambda p: exact.exact_enumeration(5, ranks=5, suits=3, progress=p, chunk=2),
}


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_units_reported_add_up_to_the_announced_total(name):
    counter = Counter()
    STUDIES[name](counter)
    assert len(counter.totals) == 1
    assert counter.totals[0] > 0
    assert counter.done == counter.totals[0]


def test_resumed_enumeration_reports_the_classes_already_done(tmp_path):
    path = tmp_path / "exact.json"

    def stop_after_first_chunk(advance, /, total=None):
        if advance:
            raise KeyboardInterrupt

    # an interrupted run: one chunk kept
    with checkpointing(Checkpoint(path, {"run": "exact"})), pytest.raises(KeyboardInterrupt):
        exact.exact_enumeration(5, ranks=5, suits=3, chunk=2, progress=stop_after_first_chunk)
    counter = Counter()
    with checkpointing(Checkpoint(path, {"run": "exact"}, resume=True)):
        exact.exact_enumeration(5, ranks=5, suits=3, chunk=2, progress=counter)
    assert counter.done == counter.totals[0]
