"""The answers in a player's words (when to knock, how to discard, when to take the
upcard, the whole guide): read from the answers kept in a report folder, the same at every
door, each saying what it gains over the naive rule.

The kept answers here are made by hand (numbers made up, shapes real) and saved as the
studies save them: nothing is computed, no kernel compiles."""

from __future__ import annotations

import json
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core.stats import Estimate
from analyzer.gin.studies.answers import FAMILIES, AnswerLine
from analyzer.gin.studies.principle_runs import PANEL, panel_members
from analyzer.studies.answer import Answer, find_kept
from analyzer.studies.inputs import make_inputs
from analyzer.studies.principles import DISCARDING, DRAWING, principles_answer
from analyzer.studies.registry import STUDIES
from analyzer.studies.when_to_knock import (
    KNOCK,
    PLAY_ON,
    KnockAnswer,
    family_of,
    knock_answer,
    stock_range,
)

ROBUST = (10, 10, 10, 0, 10, 10, 0, 0)
MEMBERS = ("basic", "search,budget=64")


def _line(family: str, table: tuple[int, ...], opponent: str) -> dict[str, object]:
    return {
        "rules": "standard",
        "base": "expert",
        "family": family,
        "table": "/".join(map(str, table[:4])) + " alert " + "/".join(map(str, table[4:])),
        "rule": "",
        "opponent": opponent,
        "points": 2.0,
        "points_low": 1.5,
        "points_high": 2.5,
        "worst_member": "search,budget=64",
        "worst": -1.0,
        "worst_low": -1.4,
        "worst_high": -0.6,
        "worst_deals": 1600,
        "deals": 800,
        "naive": 1.9,
        "naive_low": 1.6,
        "naive_high": 2.2,
    }


def _save(study: str, folder, tables: dict[str, pd.DataFrame], facts: dict, rules="standard"):
    declared = STUDIES[study]
    inputs = make_inputs(declared, {}, rules=rules)
    return Answer(declared, inputs, tables, facts, seconds=3.0).save(folder)


def keep_knock(results, rules="standard"):
    lines = [
        _line("unknown", ROBUST, "panel"),
        *(_line(family, (0,) * 8, member) for family, (_, member) in FAMILIES.items() if member),
    ]
    panel = pd.DataFrame(
        [
            {
                "answer": line["family"],
                "member": member,
                "points": 1.0,
                "points_low": 0.5,
                "points_high": 1.5,
                "deals": 800,
            }
            for line in lines
            for member in MEMBERS
        ]
    )
    facts = {"robust_source": "from a test", "base": "expert"}
    tables = {"answers": pd.DataFrame(lines), "panel": panel}
    return _save("when-to-knock", results / "when_to_knock" / rules, tables, facts, rules)


def keep_principles(results, decision, rules="standard"):
    rule_set = decision.rule_set
    members = list(panel_members())
    arms, shares = [], []
    for opponent in (*members, PANEL):
        for arm in rule_set.arms():
            worth = 0.4 if arm.startswith("without") else 0.0
            arms.append(
                {
                    "opponent": opponent,
                    "arm": arm,
                    "points_mean": 1.0,
                    "points_low": 0.5,
                    "points_high": 1.5,
                    "diff_mean": -worth,
                    "diff_low": -worth - 0.1,
                    "diff_high": -worth + 0.1,
                }
            )
        shares.append(
            {"opponent": opponent}
            | {
                f"{part}_{end}": v
                for part in ("gain", "edge", "share")
                for end, v in (("mean", 0.8), ("low", 0.6), ("high", 1.0))
            }
        )
    tables = {"arms": pd.DataFrame(arms), "shares": pd.DataFrame(shares)}
    name = decision.kept.replace("_", "-")
    return _save(name, results / decision.kept / rules, tables, {"opponents": members}, rules)


@pytest.fixture
def results(tmp_path):
    folder = tmp_path / "results"
    keep_knock(folder)
    keep_principles(folder, DISCARDING)
    keep_principles(folder, DRAWING)
    return folder


def _kept(name: str, results, **given) -> Answer:
    study = STUDIES[name]
    rules = given.pop("rules", "standard")
    found = find_kept(study, make_inputs(study, given, rules=rules), results)
    assert found is not None
    return found


def test_the_chart_says_knock_exactly_where_the_table_allows_it(results):
    chart = knock_answer(_kept("when-to-knock", results), "unknown").chart()
    assert list(chart.columns) == ["1-3", "4-6", "7-9", "10+"]
    assert list(chart.index) == [
        "deadwood 0 (gin)",
        "deadwood 1-10",
        "if it took from the pile: deadwood 1-10",
    ]
    assert list(chart.loc["deadwood 1-10"]) == [KNOCK, KNOCK, KNOCK, PLAY_ON]
    assert list(chart.loc["if it took from the pile: deadwood 1-10"]) == [
        KNOCK,
        KNOCK,
        PLAY_ON,
        PLAY_ON,
    ]


def test_deadwood_rows_split_at_every_threshold():
    line = AnswerLine(
        "x", (10, 6, 3, 0) * 2, "basic", Estimate(0, 0, 0, 1), Estimate(0, 0, 0, 1), "basic"
    )
    chart = KnockAnswer("standard", "basic", line, "expert", 1, 5, "test", 7).chart()
    assert list(chart.index) == [
        "deadwood 0 (gin)",
        "deadwood 1-3",
        "deadwood 4-6",
        "deadwood 7-10",
    ]
    assert list(chart.loc["deadwood 4-6"]) == [KNOCK, KNOCK, PLAY_ON, PLAY_ON]


def test_stock_ranges_follow_the_draws():
    assert stock_range(1, 3) == "30-25"
    assert stock_range(10, 32) == "12 or fewer"


@pytest.mark.parametrize(
    ("opponent", "family"),
    [("basic", "knocks-at-once"), ("marjj", "camper"), ("unknown", "unknown")],
)
def test_panel_members_name_their_family(opponent, family):
    assert family_of(opponent) == family


def test_a_bad_opponent_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="opponent 'nobody'"):
        family_of("nobody")


def test_the_kept_answers_print_in_a_few_seconds_within_100_columns(results, monkeypatch):
    # a kept answer is read, never computed: computing here would fail loudly
    def refuse(*args, **kwargs):
        raise AssertionError("a kept answer was computed")

    monkeypatch.setattr("analyzer.cli.study_commands.run", refuse)
    for name in ("when-to-knock", "how-to-discard", "how-to-draw"):
        started = time.perf_counter()
        result = CliRunner().invoke(cli, [name, "--results", str(results)])
        assert result.exit_code == 0, result.output
        assert time.perf_counter() - started < 60  # a read, however loaded the machine
        assert max(len(line) for line in result.output.splitlines()) <= 100
        assert "naive rule" in result.output
        assert f"{name.replace('-', '_')}/standard" in result.output  # its source


@pytest.mark.parametrize("name", ["when-to-knock", "how-to-discard", "how-to-draw"])
def test_every_answers_json_carries_its_gain_over_the_naive_rule(results, name):
    result = CliRunner().invoke(cli, [name, "--results", str(results), "--json"])
    assert result.exit_code == 0, result.output
    naive = json.loads(result.output)["naive"]
    assert set(naive) == {"rule", "gain"} and naive["rule"]
    assert set(naive["gain"]) == {"mean", "ci95"} and len(naive["gain"]["ci95"]) == 2


def test_the_principles_answers_name_their_naive_rule_and_why_worths_exceed_the_whole(results):
    discard = principles_answer(DISCARDING, _kept("how-to-discard", results))
    draw = principles_answer(DRAWING, _kept("how-to-draw", results), "camper")
    assert discard.naive.rule == "throw your highest unmatched card"
    assert draw.naive.rule == "take the upcard only when it completes a meld"
    assert "add up to" in discard.text() and "not a share of the whole" in discard.text()
    assert draw.member == "marjj" and "Take the face-up card when" in draw.rule()


def test_hollywood_reads_the_standard_answer_and_says_why(results):
    answer = knock_answer(_kept("when-to-knock", results, rules="hollywood"))
    assert answer.rules_name == "hollywood"
    assert "hollywood changes only how games are scored" in answer.source


def test_results_without_the_answer_or_with_a_run_of_ones_own_are_refused(results, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, message in (
        (["--results", str(empty)], f"{empty} keeps no how-to-discard answer"),
        (["--results", str(results), "--deals", "500"], "ask for a run of your own"),
    ):
        result = CliRunner().invoke(cli, ["how-to-discard", *args])
        assert result.exit_code == 2
        assert message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("rules", ["standard", "hollywood", "oklahoma"])
def test_the_web_app_and_the_command_give_the_same_answer_or_both_refuse(results, rules):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from analyzer.web.app import create_app

    client = TestClient(create_app(results, warm_up=False), base_url="http://127.0.0.1")
    for name in ("when-to-knock", "how-to-discard", "how-to-draw"):
        web = client.get(f"/api/{name}", params={"rules": rules}).json()
        command = CliRunner().invoke(
            cli, [name, "--results", str(results), "--rules", rules, "--json"]
        )
        if web["answer"] is None:  # not kept: the web refuses, and so does the command
            assert command.exit_code == 2 and "keeps no" in command.output
        else:
            assert command.exit_code == 0, command.output
            assert web["answer"]["rule"] == json.loads(command.output)["rule"]


def test_the_guide_fits_one_screen_and_refuses_without_its_answers(results, tmp_path):
    result = CliRunner().invoke(cli, ["guide", "--results", str(results)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) <= 60 and max(map(len, lines)) <= 100
    assert sum(line.startswith("Gain:") for line in lines) == 3
    alone = tmp_path / "alone"
    keep_knock(alone)
    refused = CliRunner().invoke(cli, ["guide", "--results", str(alone)])
    assert refused.exit_code == 2
    assert "how-to-draw keeps none" in refused.output
    assert "analyzer how-to-draw --out results/how_to_draw/standard" in refused.output
