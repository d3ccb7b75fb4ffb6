import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The Host the in-process clients send (the app answers only its own addresses).
BASE_URL = "http://127.0.0.1"
KNOCK_DECISION = {
    "hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
    "pile": "Td Ks Jh Ts Kd Tc",
    "opp_took": "8d 9s",
    "opp_threw": "Tc Jh Ts Ks",
    "stock": 25,
    "turn": 5,
    "upcard": "5c",
}


@pytest.fixture
def results_dir(tmp_path):
    """A copy of the committed knock chart and sweep (the strategy page's input)."""
    folder = tmp_path / "results"
    for study in ("knock_chart", "knock_sweep"):
        shutil.copytree(ROOT / "results" / study, folder / study)
    return folder


@pytest.fixture(scope="session")
def warm_advisor():
    """The advisor's kernels compiled (or loaded from the cache) before any test times a
    request: a cold JIT cache compiles for minutes, past every time limit of the server."""
    pytest.importorskip("fastapi")
    from analyzer.core.limits import MAX_ADVICE_SECONDS
    from analyzer.gin.play.advisor import Position
    from analyzer.web.advisor_service import AdvisorService

    service = AdvisorService(limit_seconds=MAX_ADVICE_SECONDS)  # a cold compile takes long
    try:
        for score in (None, "45:80"):
            position = Position.from_json(dict(KNOCK_DECISION, score=score))
            service.run(position, "standard", "basic", "basic", 300, 1)
    finally:
        service.stop()


def write_committed_answers(results):
    """``results/when_to_knock`` as the report writes it (standard rules, the unknown and
    the knocks-at-once opponents; numbers made up for the tests, shapes real)."""
    from tests.report.test_knock_answer import write_answers

    return write_answers(results)
