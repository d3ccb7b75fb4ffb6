"""The survey and exact studies' answers: saved and loaded, each reads the same (text,
JSON, chart description, tables) as when it was computed; and what each presents is what
its tables hold."""

from __future__ import annotations

import math
from functools import cache

import pandas as pd
import pytest

from analyzer.report.charts import png
from analyzer.studies.answer import Answer, run
from analyzer.studies.inputs import make_inputs
from analyzer.studies.registry import STUDIES

#: Each converted study at a tiny size (values as the notebook gives them).
TINY = {
    "tournament": {"policies": ["basic", "simple", "passive"], "deals": 60, "games": 6},
    "variants": {"presets": ["standard", "straight"], "deals": 40, "games": 6},
    "dealt": {"deals": 500},
    "exact": {"cards": 11, "ranks": 5, "suits": 4},
    # the full deck (about 8 s on 2 cores): only its counts have a Monte Carlo check
    "exact overlay": {"cards": 10, "mc_deals": 300},
}


@cache
def computed(name: str) -> Answer:
    study = STUDIES[name.split()[0]]
    return run(study, make_inputs(study, TINY[name], seed=5))


def read_alike(answer: Answer) -> dict:
    """What every door shows of an answer, but where it came from."""
    shown = answer.to_dict()
    shown.pop("source")
    return shown


@pytest.mark.parametrize("name", sorted(TINY))
def test_a_saved_answer_reads_as_it_was_computed(name, tmp_path):
    answer = computed(name)
    chart = answer.chart
    assert chart is not None  # every answer draws
    answer.save(tmp_path / "saved", {f"{chart.name}.png": png(chart)})
    loaded = Answer.load(tmp_path / "saved")
    assert loaded.result is None  # only what was saved
    assert loaded.text() == answer.text()
    assert read_alike(loaded) == read_alike(answer)
    assert loaded.chart is not None and loaded.chart.to_dict() == chart.to_dict()
    assert list(loaded.tables) == list(answer.tables)
    for table, frame in answer.tables.items():
        pd.testing.assert_frame_equal(loaded[table], frame, check_dtype=False)


def test_the_tournament_presents_its_ranking_and_its_two_matrices():
    answer = computed("tournament")
    ranking, pairs = answer["ranking"], answer["pairs"]
    assert len(pairs) == 6 and set(ranking["policy"]) == {"basic", "simple", "passive"}
    first = ranking["policy"].iloc[0]
    assert answer.verdict.startswith(f"{first} ranks first with")
    points, games = answer.chart.panels
    (heat,) = points.marks
    assert heat.y == tuple(ranking["policy"])  # best policy first
    row = pairs[(pairs["a"] == heat.y[0]) & (pairs["b"] == heat.x[1])].iloc[0]
    assert heat.z[0][1] == row["points"]
    assert math.isnan(heat.z[0][0]) and heat.text[0][0] == ""
    assert games.marks[0].center == 0.5


def test_the_variants_pair_every_preset_with_the_first_and_every_threshold_with_ten():
    answer = computed("variants")
    table = answer["variants"]
    assert list(table["rules"]) == ["standard", "straight"]
    standard, straight = table.iloc[0], table.iloc[1]
    # the first preset is its own reference: a paired difference of nothing
    assert standard["game_win_diff"] == standard["game_win_diff_low"] == 0
    # no knocking under straight gin: no threshold to choose, shown as "-"
    assert math.isnan(straight["best_threshold"]) and standard["best_threshold"] in range(0, 11, 2)
    assert answer.view.body["best t"].iloc[1] == "-"
    assert "expert against basic" in answer.title
    assert answer.chart.share_y and len(answer.chart.panels) == 4


def test_the_dealt_answer_names_no_gin_it_did_not_see():
    study = STUDIES["dealt"]
    answer = run(study, make_inputs(study, {"deals": 5}, seed=1))
    eligibility = answer["knock_eligibility"]
    if eligibility["probability"].iloc[0] == 0:
        assert answer.verdict.startswith("None of the 5 dealt 10-card hands is gin")
    else:
        assert answer.verdict.startswith("A dealt 10-card hand is gin 1 in")


def test_exact_presents_its_counts_and_its_check():
    answer = computed("exact overlay")
    counts = answer["counts"]
    assert int(counts["count"].sum()) == math.comb(52, 10)
    assert int(counts["mc_count"].sum()) == 300
    data = answer.to_dict()
    assert data["hands"] == math.comb(52, 10) and data["monte_carlo"]["n_deals"] == 300
    assert data["counts"] == counts["count"].tolist()
    assert "Monte Carlo check:  300 hands (seed 5)" in answer.text()
