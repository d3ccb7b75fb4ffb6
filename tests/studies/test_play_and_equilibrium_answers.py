"""The answers of the studies that play (simulate, games), search for responses (exploit,
equilibrium, panel-equilibrium) and fit (fit-discard): each reads the same when saved and
loaded back as when fresh (its text, data, table and chart come from its saved tables and
facts alone), and a tie is called "the same policy" only when A and B are."""

from __future__ import annotations

import matplotlib
import pandas as pd
import pytest
from matplotlib.figure import Figure

import analyzer as az
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.studies.exploit import parse_table, table_of
from analyzer.studies.answer import Answer
from analyzer.studies.equilibrium import EQUILIBRIUM
from analyzer.studies.inputs import make_inputs

matplotlib.use("Agg")


def assert_reads_the_same_after_loading(answer: Answer, folder) -> Answer:
    """``answer`` saved in ``folder`` and loaded back gives the same title, text, data,
    main table and chart description; both draw the chart."""
    loaded = Answer.load(answer.save(folder))
    assert loaded.title == answer.title
    assert loaded.text() == answer.text()
    assert loaded.to_dict() == {**answer.to_dict(), "source": loaded.source}
    pd.testing.assert_frame_equal(loaded.to_frame(), answer.to_frame(), check_dtype=False)
    assert loaded.chart is not None and loaded.chart == answer.chart
    assert isinstance(az.load(folder).plot(), Figure)
    return loaded


def test_hands_and_two_player_games_read_the_same_after_loading(tmp_path):
    hands = az.simulate("basic", "gin-hunter", deals=60, seed=3)
    assert_reads_the_same_after_loading(hands, tmp_path / "hands")
    games = az.play_games("basic", "simple", games=6, seed=3)
    assert_reads_the_same_after_loading(games, tmp_path / "games")


def test_games_of_three_read_the_same_after_loading(tmp_path):
    games = az.play_games(players=3, policies=["basic", "simple", "gin-hunter"], games=12, seed=2)
    loaded = assert_reads_the_same_after_loading(games, tmp_path / "three")
    assert loaded["sides"]["policy"].tolist() == ["basic", "simple", "gin-hunter"]


def test_the_same_policy_is_named_only_when_a_and_b_are_the_same():
    """Issue 51, item 6: the search player with 8 samples ties with the expert on these
    deals (every seat-swapped pair cancels out), which says nothing about being the same
    policy; the expert against itself, written two ways, is."""
    tie = az.simulate("search,budget=8", "expert", deals=20, seed=1)
    assert tie.to_frame().loc[0, ["low", "high"]].tolist() == [0.0, 0.0]  # an exact tie
    assert "the same policy" not in tie.verdict
    assert tie.verdict.startswith(
        "A (search,budget=8) and B (expert) tie on these deals: +0.00 ± 0.00 points per hand "
        "to A, exactly (every deal's two hands, seats swapped, cancel out)"
    )
    same = az.simulate("expert", az.policy("expert"), deals=20, seed=1)
    assert same.verdict == (
        "A and B are even: +0.00 ± 0.00 points per hand to A, exactly (the same policy, seats "
        "swapped)."
    )
    games = az.play_games("basic", "basic", games=4, seed=1)
    assert "(the same policy, seats swapped)" in games.verdict


@pytest.mark.slow  # a search of responses and an equilibrium, tiny
def test_exploit_and_equilibrium_read_the_same_after_loading(tmp_path):
    exploit = az.exploit("basic", deals=100, games=4, rounds=1, seed=3)
    assert_reads_the_same_after_loading(exploit, tmp_path / "exploit")
    equilibrium = az.equilibrium(deals=100, iterations=2, seed=2)
    loaded = assert_reads_the_same_after_loading(equilibrium, tmp_path / "equilibrium")
    assert set(loaded.tables) == {"convergence", "mixture", "strategy"}


@pytest.mark.slow  # a panel equilibrium, tiny
def test_the_panel_starts_from_the_kept_robust_table(tmp_path, monkeypatch):
    """The robust player of the panel knocks by the heaviest table of the equilibrium
    kept for its rules (``results/robust_knock/<rules>/``): here one no preset plays."""
    kept = pd.DataFrame({"table": ["10/10/10/10", "7/7/7/7 alert 7/0/0/0"], "weight": [0.25, 0.75]})
    results = tmp_path / "results"
    tables = {  # what reading the kept answer checks of the others: their rows' keys
        "convergence": pd.DataFrame({"iteration": [1]}),
        "mixture": kept,
        "strategy": pd.DataFrame(
            {"first_turn": [1], "opponent_holds_pile_card": [0], "deadwood": [0]}
        ),
    }
    Answer(EQUILIBRIUM, make_inputs(EQUILIBRIUM, {}), tables).save(
        results / "robust_knock" / "standard"
    )
    monkeypatch.setenv("ANALYZER_RESULTS", str(results))
    panel = az.panel_equilibrium(members=["basic", "simple"], deals=100, iterations=1, seed=2)
    assert_reads_the_same_after_loading(panel, tmp_path / "panel")
    robust = panel["mixture"].set_index("player").loc["robust rule", "policy"]
    assert table_of(parse_policy(robust)) == parse_table("7/7/7/7 alert 7/0/0/0")
    # rules changed from the preset's: the kept table is not theirs, BASE's own is played
    changed = az.panel_equilibrium(
        members=["basic"], rules=az.rules("standard", knock_limit=9), deals=100, iterations=1
    )
    robust = changed["mixture"].set_index("player").loc["robust rule", "policy"]
    assert table_of(parse_policy(robust)) == table_of(az.policy("expert"))


def test_a_discard_fit_reads_the_same_after_loading(tmp_path):
    fit = az.fit_discard(
        rules="eaai", generations=1, population=2, elite=1, deals=100, held_out=100, seed=4
    )
    loaded = assert_reads_the_same_after_loading(fit, tmp_path / "fit")
    assert loaded.facts["fit"]["policy"] == fit.facts["fit"]["policy"]
    assert loaded["held_out"]["opponent"].tolist() == list(fit.held_out)
