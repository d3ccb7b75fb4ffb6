"""The notebook API covers every study of the command line (issue 26, item 6): each
function returns the study's own numbers for the same seed, as a titled table that shows
itself in a notebook (HTML, every CI as ``x ± h``), with ``.plot()`` where the command
draws a chart."""

from __future__ import annotations

import ast
import html
import inspect
import math
import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

import analyzer
import analyzer as az
from analyzer import api
from analyzer.api import functions
from analyzer.api.results import Result, TableResult, ci_table
from analyzer.gin.model.policies import Policy
from analyzer.gin.model.rules import resolve_rules

matplotlib.use("Agg")


def assert_shows_itself(result: Result, *title_parts: str) -> None:
    """The title names the run; the HTML view starts with it and writes CIs as x ± h."""
    for part in title_parts:
        assert part in result.title
    page = result._repr_html_()
    shown = "<table" if isinstance(result.view.body, pd.DataFrame) else "<pre>"  # lines
    assert page.startswith(f"<p><b>{html.escape(result.title, quote=False)}</b></p>{shown}")
    assert " ".join(repr(result).split()).startswith(result.title)  # wrapped at 100 columns
    frame = result.to_frame()
    bounds = [c for c in frame.columns if str(c).endswith(("_low", "_lo", "low"))]
    if any(frame[c].notna().any() for c in bounds):
        assert " ± " in page


def assert_plots(result: Result, panels: int = 1) -> None:
    figure = result.plot()
    assert isinstance(figure, Figure)
    assert len([ax for ax in figure.axes if ax.has_data()]) >= panels
    # wrapped to the figure's width, without Markdown code marks
    assert result.chart is not None
    assert " ".join(figure.get_suptitle().split()) == result.chart.title.replace("`", "")


def test_the_package_lists_every_api_function():
    """Each study function (made from the declarations, typed in functions.pyi) is
    ``az.<name>``, loaded on first use, and named in docs/api.md."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    assert functions.__all__  # one per declared study
    for name in functions.__all__:
        assert getattr(az, name) is getattr(functions, name)
        assert name in dir(analyzer)
        assert f"az.{name}(" in page, f"docs/api.md does not show az.{name}"


def test_ci_table_writes_every_interval_one_way():
    frame = pd.DataFrame(
        {
            "metric": ["a", "b"],
            "mean": [0.5, -0.25],
            "low": [0.4, -0.5],
            "high": [0.6, 0.0],
            "win": [0.1, 0.2],
            "win_lo": [0.05, 0.15],
            "win_hi": [0.15, 0.25],
            "gain": [1.0, 2.0],
            "gain_half_width": [0.5, 0.25],
        }
    )
    shown = ci_table(frame)
    assert shown.columns.tolist() == ["metric", "mean", "win", "gain"]
    assert shown["mean"].tolist() == ["0.50 ± 0.10", "-0.25 ± 0.25"]
    assert shown["win"].tolist() == ["0.100 ± 0.050", "0.200 ± 0.050"]
    assert shown["gain"].tolist() == ["1.00 ± 0.50", "2.00 ± 0.25"]


def test_when_to_knock_is_the_kept_answer_as_every_door_shows_it():
    answer = az.when_to_knock()  # read from the committed report, never computed here
    assert isinstance(answer.title, str) and "standard rules" in answer.title
    assert answer.title in answer._repr_html_()
    assert answer.text().startswith(answer.title)
    assert "naive" in answer.to_dict()


def test_simulate_reads_through_to_the_simulation():
    from analyzer.gin.play.simulate import simulate

    result = az.simulate("basic", "gin-hunter", deals=300, seed=4)
    own = simulate(resolve_rules("standard"), Policy(), az.policy("gin-hunter"), 300, 4)
    assert result.points_a == own.points_a
    pd.testing.assert_frame_equal(result.to_frame(), own.to_frame())
    assert_shows_itself(result, "A basic against B gin-hunter", "rules standard", "300 deals")


def test_simulate_and_games_take_the_search_player_as_the_command_line_does():
    from analyzer.gin.play.players import parse_player
    from analyzer.gin.play.simulate import play_games, simulate

    text = "search,budget=8,rollout=basic"
    result = az.simulate(text, "basic", deals=3, seed=4)
    own = simulate(resolve_rules("standard"), parse_player(text), Policy(), 3, 4)
    pd.testing.assert_frame_equal(result.to_frame(), own.to_frame())
    assert_shows_itself(result, f"A {text} against B basic")
    games = az.play_games("basic", parse_player(text), games=1, seed=2)
    own_games = play_games(resolve_rules("standard"), Policy(), parse_player(text), 1, 2)
    pd.testing.assert_frame_equal(games.to_frame(), own_games.to_frame())
    assert_shows_itself(games, f"A basic against B {text}")


def test_the_tournament_field_by_default_is_the_command_lines(monkeypatch):
    from analyzer.gin.model.policies import TOURNAMENT_FIELD
    from analyzer.gin.studies import round_robin

    played = {}

    def stop_at_the_field(rules, field, *args, **kwargs):
        played.update(field)
        raise KeyboardInterrupt

    monkeypatch.setattr(round_robin, "tournament", stop_at_the_field)
    with pytest.raises(KeyboardInterrupt):
        az.tournament()
    assert tuple(played) == TOURNAMENT_FIELD


def test_knock_sweep_charts_its_panels():
    result = az.knock_sweep("basic", ["gin-hunter"], deals=60, games=4, thresholds=[0, 10], seed=2)
    assert result["sweep"]["threshold"].tolist() == [0, 10]
    assert_shows_itself(result, "gin-hunter", "rules standard", "60 deals")
    assert_plots(result, panels=3)


def test_tournament_ranks_the_field():
    result = az.tournament(["basic", "simple"], deals=40, games=4, seed=1)
    assert sorted(result["ranking"]["policy"]) == ["basic", "simple"]
    assert result.verdict.startswith(f"{result['ranking']['policy'].iloc[0]} ranks first with")
    assert_shows_itself(result, "Round robin ranking", "2 policies", "40 deals and 4 game pairs")
    assert_plots(result, panels=2)


def test_tournament_seats_the_search_player():
    result = az.tournament(["basic", "search,budget=8"], deals=20, games=2, seed=1)
    assert sorted(result.to_frame()["a"]) == ["basic", "search,budget=8"]


def test_dealt_keeps_the_distribution_for_its_chart():
    result = az.dealt(deals=500, seed=1)
    assert result.to_frame().columns.tolist() == ["cards", "limit", "probability", "se"]
    assert set(result["distribution"]["cards"]) == {10, 11}
    assert " ± " in result._repr_html_()
    assert_plots(result)


def test_equity_is_the_table_of_the_same_hands():
    from analyzer.gin.studies.equity.law import hand_outcome_distribution
    from analyzer.gin.studies.equity.table import equity_table

    result = az.equity("basic", "basic", deals=400, seed=5, check=0, score_aware=False)
    rules = resolve_rules("standard")
    own = equity_table(hand_outcome_distribution(rules, Policy(), Policy(), 400, 5), rules)
    frame = result.to_frame().set_index("metric")
    win = frame.loc["P(A wins) from 0:0, A deals first", "value"]
    assert win == pytest.approx(own.win_probability(0, 0, True), rel=1e-5)  # 6 digits kept
    assert result.table.to_frame().shape == own.to_frame().shape
    assert result.response is None and set(result.tables) == {"summary", "equity", "hand_outcomes"}
    assert_shows_itself(result, "A basic against B basic", "rules standard", "400 deals · seed 5")
    assert_plots(result, panels=2)


def test_equity_checks_and_finds_the_score_aware_table():
    result = az.equity(deals=300, seed=2, check=2, games=40)
    assert result.inputs.labels == {"a": "expert", "b": "expert"}  # the champion by default
    assert len(result["check"]) == 4  # 0:0 and one sampled state, each first dealer
    assert result["gain"]["arm"].tolist() == ["score-aware", "own", "gain"]
    assert result.response.labels == ("own", "gin only", "every chance")
    # the chart's last panel colours each score by the option played there, one per option
    choice = result.chart.panels[-1].marks[0]
    assert [name for _, name in choice.categories] == list(result.response.labels)
    assert {int(v) for row in choice.z for v in row} <= {0, 1, 2}
    assert " ± " in result.text()
    assert_plots(result, panels=3)


def test_exploit_measures_the_response_of_the_study():
    from analyzer.gin.studies.exploit import exploit

    result = az.exploit("basic", deals=100, games=0, rounds=1, seed=3)
    own = exploit(resolve_rules("standard"), Policy(), 100, 3, 0, "standard", 1)
    assert result.response == own.response
    assert result.points == own.points
    assert result.to_frame().loc[0, "response"] == own.to_frame().loc[0, "response"]
    assert_shows_itself(result, "Best response to basic", "rules standard", "100 deals")


def test_equilibrium_is_the_study_s_convergence():
    from analyzer.gin.studies.equilibrium import knock_equilibrium

    result = az.equilibrium(deals=100, iterations=1, seed=2)
    own = knock_equilibrium(resolve_rules("standard"), az.policy("expert"), 100, 2, 1)
    assert "exploitability" in result.to_frame().columns
    assert result.exploitability == own.exploitability
    assert result.mixture_frame()["table"].tolist() == own.mixture_frame()["table"].tolist()
    assert_shows_itself(
        result, "Equilibrium of the knock decision", "rules standard", "100 deals per comparison"
    )
    assert result.verdict.startswith(("Equilibrium: ", "Mixture after"))
    assert_plots(result)


def test_knock_schedule_is_the_search_of_the_study():
    from analyzer.gin.studies import schedule

    result = az.knock_schedule(deals=40, rounds=1, seed=6)
    expert = az.policy("expert")  # both seats by default, as the command's
    own = schedule.best_schedule(resolve_rules("standard"), expert, expert, 40, 6, 1)
    pd.testing.assert_frame_equal(result["steps"], own.steps)
    pd.testing.assert_frame_equal(result.to_frame(), own.steps)
    assert result.final_a == own.final_a
    assert_shows_itself(
        result, "expert (schedule searched)", "rules standard", "40 deals per evaluation · seed 6"
    )
    assert_plots(result)


def test_exact_counts_every_hand_of_a_small_deck():
    from analyzer.gin.studies.exact import exact_enumeration

    result = az.exact(cards=10, ranks=4, suits=4)
    own = exact_enumeration(10, 4, 4)
    assert result.to_frame()["count"].tolist() == own.counts.tolist()
    assert result.to_dict()["hands"] == math.comb(16, 10)
    assert "mc_count" not in result.to_frame()  # a reduced deck has no sample to deal
    assert_shows_itself(result, "every 10-card hand of a 4 x 4 deck")
    assert_plots(result, panels=2)


def test_exact_keeps_its_monte_carlo_sample_beside_the_counts():
    result = az.exact(cards=10, mc_deals=2_000, seed=3)
    assert result.to_frame()["mc_count"].sum() == 2_000
    assert "Monte Carlo check:  2,000 hands (seed 3)" in result.text()
    assert_plots(result, panels=2)


def test_rummy_simulate_is_the_simulator_s_result():
    from analyzer.rummy.policies import parse_policy
    from analyzer.rummy.rules import RummyRules
    from analyzer.rummy.simulate import simulate

    result = az.rummy_simulate("rummy", "simple", deals=200, seed=3, players=3)
    own = simulate(
        RummyRules(players=3), [parse_policy(p) for p in ("rummy", "simple", "simple")], 200, 3
    )
    assert result.player_win_rate == own.player_win_rate
    pd.testing.assert_frame_equal(result.to_frame(), own.to_frame())
    assert result["players"]["win_rate"].tolist() == [e.mean for e in own.player_win_rate]
    assert_shows_itself(result, "Plain rummy hands", "3 players", "200 deals · seed 3")
    assert_plots(result, panels=2)


def test_rummy_games_and_rules():
    rules = az.rummy_rules("standard", target=50)
    result = az.rummy_games(rules=rules, games=10, seed=1, policies=["hold6", "simple"])
    assert result.games == 10 and result.target == 50
    assert_shows_itself(result, "Plain rummy games", "10 games to 50 points · seed 1")
    assert_plots(result)


def test_rummy_study_charts_the_study():
    from analyzer.rummy import POLICY_PRESETS, studies

    result = az.rummy_study("players", deals=20, seed=2)
    expert = POLICY_PRESETS["rummy-expert"]  # the players study plays it in every seat
    pd.testing.assert_frame_equal(result.to_frame(), studies.player_counts(20, 2, policy=expert))
    assert_shows_itself(result, "2 to 6 players", "20 deals per row · seed 2")
    assert_plots(result)


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (lambda: az.exploit(deals=99), ValueError, "deals must be 100-10000000, got 99"),
        (lambda: az.exploit(games=-1), ValueError, "games must be 0-1000000"),
        (lambda: az.exploit(rounds=6), ValueError, "rounds must be 1-5"),
        (lambda: az.exploit(policy=None), TypeError, "policy must be a policy name"),
        (lambda: az.equilibrium(iterations=0), ValueError, "iterations must be 1-50"),
        (lambda: az.equilibrium(tolerance=11), ValueError, "tolerance must be > 0 and <= 10"),
        (lambda: az.equilibrium(tolerance=math.nan), ValueError, "tolerance must be a finite"),
        (lambda: az.equilibrium(tolerance=math.inf), ValueError, "tolerance must be a finite"),
        (lambda: az.equilibrium(tolerance=0), ValueError, "tolerance must be > 0 and <= 10, got 0"),
        (lambda: az.equilibrium(tolerance="0.1"), TypeError, "tolerance must be a number"),
        (lambda: az.equilibrium(base=1), TypeError, "base must be a policy name"),
        (lambda: az.panel_equilibrium(iterations=0), ValueError, "iterations must be 1-50"),
        (lambda: az.panel_equilibrium(deals=5), ValueError, "deals must be"),
        (lambda: az.panel_equilibrium(tolerance=-1), ValueError, "tolerance must be > 0"),
        (lambda: az.panel_equilibrium(tolerance=0.0), ValueError, "tolerance must be > 0"),
        (lambda: az.panel_equilibrium(tolerance=-math.inf), ValueError, "must be a finite"),
        (lambda: az.panel_equilibrium(tolerance=True), TypeError, "tolerance must be a number"),
        (lambda: az.panel_equilibrium(base=1), TypeError, "base must be a policy name"),
        (lambda: az.knock_schedule(objective="wins"), ValueError, "objective must be one of"),
        (lambda: az.knock_schedule(rounds=11), ValueError, "rounds must be 1-10"),
        (lambda: az.knock_schedule(deals=0), ValueError, "deals must be 1-"),
        (lambda: az.equity(check=-1), ValueError, "check must be 0-"),
        (lambda: az.equity(score_aware="yes"), TypeError, "score_aware must be True or False"),
        (lambda: az.equity(games=0), ValueError, "games must be 1-"),
        (lambda: az.exact(cards=12), ValueError, "cards must be 10-11, got 12"),
        (lambda: az.exact(cards=True), TypeError, "cards must be an integer, got True"),
        (lambda: az.exact(cards=10.0), TypeError, "cards must be an integer, got 10.0"),
        (lambda: az.exact(ranks=0), ValueError, "ranks must be 1-13, got 0"),
        (lambda: az.exact(suits=5), ValueError, "suits must be 1-4, got 5"),
        (lambda: az.exact(ranks=2), ValueError, "cannot deal 10 cards"),
        (lambda: az.exact(mc_deals=-1), ValueError, "mc_deals must be 0-"),
        (lambda: az.exact(seed=-1), ValueError, "seed must be 0-"),
        (lambda: az.exact(out=3), TypeError, "out must be a folder"),
        (lambda: az.rummy_simulate(players=7), ValueError, "players must be 2-6, got 7"),
        (lambda: az.rummy_simulate(a=3), TypeError, "a must be a policy name"),
        (lambda: az.rummy_simulate(rules="nope"), ValueError, "unknown rules preset 'nope'"),
        (lambda: az.rummy_simulate(rules=None), TypeError, "rules must be a rules preset"),
        (
            lambda: az.rummy_simulate(policies=["simple"]),
            ValueError,
            "policies lists 1 policies for 2 players",
        ),
        (lambda: az.rummy_simulate(policies="simple"), TypeError, "policies must be a list"),
        (lambda: az.rummy_simulate(deals=0), ValueError, "deals must be 1-"),
        (lambda: az.rummy_simulate(rotate=1), TypeError, "rotate must be True or False"),
        (
            lambda: az.rummy_simulate(keep_rows=True, deals=10**7),
            ValueError,
            "deals with keep_rows=True must be 1-5000000",
        ),
        (lambda: az.rummy_games(games=0), ValueError, "games must be 1-"),
        (lambda: az.rummy_games(seed=-1), ValueError, "seed must be 0-"),
        (lambda: az.rummy_study("nope"), ValueError, "name must be one of meld-or-hold"),
        (lambda: az.rummy_study("all"), ValueError, "name must be one of meld-or-hold"),
        (lambda: az.rummy_study(deals=0), ValueError, "deals must be 1-"),
        (lambda: az.rummy_rules(None), TypeError, "name must be a string"),
        (lambda: az.dealt_deadwood_distribution(deals=-5), ValueError, "deals must be 0-"),
        (lambda: az.knock_chart(equity_deals=-1), ValueError, "equity_deals must be 0-"),
        (lambda: az.when_to_knock(rules="nope"), ValueError, "unknown rules preset 'nope'"),
        (
            lambda: az.when_to_knock(rules=None),
            TypeError,
            "rules must be a rules preset name or a Rules object, got None",
        ),
        (lambda: az.when_to_knock(opponent="nobody"), ValueError, "opponent 'nobody'"),
        (lambda: az.when_to_knock(opponent=None), TypeError, "opponent must be a string"),
        (lambda: az.when_to_knock(deals=99), ValueError, "deals must be 100-10000000, got 99"),
        (lambda: az.when_to_knock(seed=2**63), ValueError, "seed must be 0-"),
        (lambda: az.when_to_knock(results=5), TypeError, "results must be a folder"),
        (
            lambda: az.when_to_knock(results="/no/such/folder"),
            ValueError,
            "results must be an existing folder",
        ),
    ],
)
def test_new_studies_name_the_argument(call, error, text):
    with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")) as raised:
        call()
    for internal in ("n_deals", "n_games", "first_deal", "total"):
        assert internal not in str(raised.value)


def test_a_result_without_a_study_object_has_only_its_own_fields():
    kept = az.when_to_knock()  # read from the committed report: no study object here
    assert kept.result is None and kept.source.startswith("results/when_to_knock/standard")
    with pytest.raises(AttributeError, match="'Result' object has no attribute 'points_a'"):
        getattr(kept, "points_a")  # noqa: B009
    assert "tables" in dir(kept)
    # advise and replay answer with a table alone
    table = TableResult("t", pd.DataFrame({"x": [1]}))
    with pytest.raises(AttributeError, match="'TableResult' object has no attribute 'points_a'"):
        getattr(table, "points_a")  # noqa: B009
    assert "frame" in dir(table)
    assert np.array_equal(table.to_frame()["x"], [1])


def _api_functions() -> set[str]:
    """Every function the notebook API gives: the studies' and the lookups beside them
    (rules, policies, advise, replay, load)."""
    return {
        name
        for name in dir(api)
        if not name.startswith("_") and inspect.isfunction(getattr(api, name))
    }


def _readme_table_calls() -> list[ast.Call]:
    """The calls of ``az.<function>(...)`` in docs/api.md's table of one line per function."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    section = text[text.index("## One line per function") :]
    section = section[: section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    calls = []
    for row in rows:
        for code in re.findall(r"`(az\.[^`]+)`", row):
            for node in ast.walk(ast.parse(code)):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "az"
                ):
                    calls.append(node)
    return calls


def test_the_api_page_lists_every_function_with_a_call_it_accepts():
    calls = _readme_table_calls()
    assert {call.func.attr for call in calls} == _api_functions()
    assert set(functions.__all__) < _api_functions()
    for call in calls:
        function = getattr(az, call.func.attr)
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        inspect.signature(function).bind(*args, **kwargs)  # raises TypeError if not
