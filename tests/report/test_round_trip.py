"""Every converted study reads the same saved and loaded: ``Answer.load(answer.save(f))``
gives the text, the chart description, the JSON and the tables of the fresh answer
(tiny sizes)."""

import pandas as pd
import pytest

from analyzer.studies.answer import Answer, column_types, run
from analyzer.studies.inputs import make_inputs
from analyzer.studies.registry import STUDIES

CASES = {
    "equity": (
        "equity",
        {"deals": 200, "games": 20, "check": 2, "presets": ["standard", "target150"]},
    ),
    "equity-basic": ("equity", {"a": "basic", "b": "basic", "deals": 300, "score_aware": False}),
    "rummy simulate": ("rummy simulate", {"deals": 300, "players": 3, "a": "rummy"}),
    "rummy games": ("rummy games", {"games": 20, "policies": ["hold6", "simple"]}),
    **{
        f"rummy study {name}": ("rummy study", {"name": name, "deals": 40})
        for name in ("meld-or-hold", "players", "options")
    },
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_loaded_answer_reads_as_the_fresh_one(case, tmp_path):
    name, values = CASES[case]
    study = STUDIES[name]
    fresh = run(study, make_inputs(study, values, seed=5))
    loaded = Answer.load(fresh.save(tmp_path / case))
    assert loaded.text() == fresh.text()
    assert loaded.chart == fresh.chart and loaded.chart is not None
    assert loaded.view.notes == fresh.view.notes
    same = {key: value for key, value in fresh.to_dict().items() if key != "source"}
    assert {key: value for key, value in loaded.to_dict().items() if key != "source"} == same
    assert list(loaded.tables) == list(fresh.tables)
    for table, frame in fresh.tables.items():
        pd.testing.assert_frame_equal(
            loaded[table], frame, check_dtype=False, check_column_type=False
        )
        assert column_types(loaded[table]) == column_types(frame)
