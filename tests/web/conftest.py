import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def results_dir(tmp_path):
    """A copy of the committed knock chart and sweep (the strategy page's input)."""
    folder = tmp_path / "results"
    for study in ("knock_chart", "knock_sweep"):
        shutil.copytree(ROOT / "results" / study, folder / study)
    return folder
