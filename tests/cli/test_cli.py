import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from analyzer._version import __version__
from analyzer.cli.main import cli


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_deadwood_text():
    result = run("deadwood", "As 2s 3s 7h 7d 7c Kd Qh 9c 4d")
    assert result.exit_code == 0, result.output
    assert "melds:    7c 7d 7h | As 2s 3s" in result.output
    assert "= 33 points" in result.output


def test_deadwood_json():
    result = run("deadwood", "--json", "As 2s 3s 7h 7d 7c Kd Qh 9c 4d")
    data = json.loads(result.output)
    assert data["deadwood"] == 33
    assert data["melds"] == ["7c 7d 7h", "As 2s 3s"]
    assert data["deadwood_cards"] == "9c 4d Kd Qh"


def test_deadwood_file(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("As 2s 3s 4s 5s 6s 7s 8s 9s Ts\n\n# comment\nKs Kc Qd Qh Js Jc Td Th 9s 9c\n")
    result = run("deadwood", "--file", str(path))
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "hand,min_deadwood",
        "As 2s 3s 4s 5s 6s 7s 8s 9s Ts,0",
        "9c Jc Kc Td Qd Th Qh 9s Js Ks,98",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deadwood", "As 2s 3s 7x"], "unknown suit 'x'"),
        (["deadwood", "As As"], "duplicate card 'As'"),
        (["deadwood", "Zs"], "unknown rank 'Z'"),
        (["deadwood"], "give a HAND"),
    ],
)
def test_deadwood_bad_input(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_deadwood_file_names_bad_line(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("As 2s 3s 4s 5s 6s 7s 8s 9s Ts\nAs 2s 1s\n")
    result = run("deadwood", "--file", str(path))
    assert result.exit_code == 2
    assert "line 2: bad card '1s'" in result.output


def test_version_and_help():
    result = run("--version")
    assert result.exit_code == 0
    assert result.output == f"analyzer, version {__version__}\n"
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert re.search(r'^version = "(.*)"$', pyproject, re.MULTILINE)[1] == __version__
    assert "Example" in run("deadwood", "--help").output


@pytest.mark.slow
def test_simulate_json_keys_and_consistency():
    result = run(
        "simulate",
        "--deals",
        "300",
        "--seed",
        "3",
        "--json",
        "--a",
        "simple",
        "--b",
        "basic",
        "--rules",
        "eaai",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in (
        "deals",
        "seed",
        "rules",
        "outcomes",
        "points_per_hand",
        "turns_per_hand",
        "first_player_win_rate",
        "elapsed_s",
        "deals_per_s",
        "kernels_s",
    ):
        assert key in data
    # the kernels are loaded before the clock starts: the rate measures play only
    assert data["kernels_s"] >= 0 and data["deals_per_s"] == pytest.approx(300 / data["elapsed_s"])
    assert data["deals"] == 300
    assert set(data["outcomes"]) >= {"knock", "gin", "big_gin", "undercut", "draw"}
    assert sum(data["outcomes"].values()) == pytest.approx(1)
    low, high = data["points_per_hand"]["ci95"]
    assert low <= data["points_per_hand"]["mean"] <= high
    again = json.loads(
        run(
            "simulate",
            "--deals",
            "300",
            "--seed",
            "3",
            "--json",
            "--a",
            "simple",
            "--b",
            "basic",
            "--rules",
            "eaai",
            "--jobs",
            "1",
        ).output
    )
    assert again["outcomes"] == data["outcomes"]
    assert again["points_per_hand"] == data["points_per_hand"]


def test_simulate_text():
    result = run("simulate", "--deals", "200", "--set", "knock_limit=7", "--a", "lookahead")
    assert result.exit_code == 0, result.output
    assert "points per hand to A:" in result.output
    assert "rules standard with knock_limit=7" in result.output.splitlines()[0]


@pytest.mark.slow
def test_games_json():
    result = run("games", "--games", "50", "--json", "--b", "gin-hunter")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 100
    assert 0 <= data["game_win_rate_a"]["mean"] <= 1
    for key in ("hands_per_game", "shutout_rate"):
        assert key in data


def test_rules_lists_presets():
    result = run("rules")
    assert result.exit_code == 0
    for name in ("standard", "classic", "eaai", "oklahoma", "straight", "hollywood"):
        assert name in result.output
    assert json.loads(run("rules", "--json").output)["classic"]["fields"]["gin_bonus"] == 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--rules", "bogus"], "unknown rules preset 'bogus'; choose from standard"),
        (["simulate", "--set", "knock_limit=12"], "knock_limit must be 0-10"),
        (["simulate", "--set", "nonsense=1"], "bad rule override 'nonsense=1'"),
        (["simulate", "--a", "draw=foo"], "unknown draw rule 'foo'; choose from never"),
        (["simulate", "--a", "wizard"], "unknown policy 'wizard'; presets are basic"),
        (["simulate", "--b", "knock=x"], "bad value 'x' for knock"),
        (["games", "--set", "oklahoma=maybe"], "expected yes or no"),
    ],
)
def test_bad_options_one_line_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_games_three_and_four_players():
    result = run(
        "games",
        "--players",
        "3",
        "--policies",
        "basic,simple,gin-hunter",
        "--games",
        "60",
        "--set",
        "three_player=loser-sits-out",
    )
    assert result.exit_code == 0, result.output
    assert "loser-sits-out" in result.output
    data = json.loads(run("games", "--players", "4", "--games", "40", "--json").output)
    assert len(data) == 2  # one record per side, as the CSV's rows
    assert sum(side["win_rate"] for side in data) == pytest.approx(1)
    bad = run("games", "--players", "3", "--policies", "basic,simple")
    assert bad.exit_code == 2
    assert "needs 3 policies" in bad.output


@pytest.mark.parametrize(
    ("policies", "games", "verdict"),
    [
        ("expert,passive,passive", "100", "expert (side player0) wins the most games"),
        ("basic,basic,basic", "20", "Too close to call between basic (side player0)"),
    ],
)
def test_multiplayer_verdict_names_a_winner_only_when_its_lead_is_significant(
    policies, games, verdict
):
    # seed 1: three basics where player0 leads by chance (the default seed has another lead)
    result = run("games", "--players", "3", "--policies", policies, "--games", games, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert verdict in " ".join(result.output.split())


def test_raw_rows_to_parquet(tmp_path):
    import pandas as pd

    path = tmp_path / "hands.parquet"
    result = run("simulate", "--deals", "100", "--raw", str(path))
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(path)
    assert len(frame) == 200
    assert {"deal", "outcome", "points", "points_a", "turns"} <= set(frame.columns)
    games = tmp_path / "games.parquet"
    assert run("games", "--games", "20", "--raw", str(games)).exit_code == 0
    assert len(pd.read_parquet(games)) == 40


def test_raw_without_pyarrow_is_one_line(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # makes `import pyarrow` fail
    result = run("simulate", "--deals", "10", "--raw", str(tmp_path / "h.parquet"))
    assert result.exit_code == 2
    assert "'--raw': needs pyarrow" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_player_list_keeps_a_search_players_model_in_parentheses_whole():
    from analyzer.cli.inputs import split_player_list

    assert split_player_list("search,budget=8,model=(expert,knock=gin),basic,expert") == [
        "search,budget=8,model=(expert,knock=gin)",
        "basic",
        "expert",
    ]
    assert split_player_list("search,budget=32,basic") == ["search,budget=32", "basic"]


def _commands(group, path=()):
    """The words of every command under ``group`` (``("rummy", "simulate")``), the lazy
    group's included."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name)


def _help(words):
    """A command's --help, its lines not wrapped (click breaks long words), on one line."""
    text = (
        CliRunner()
        .invoke(cli, [*words, "--help"], terminal_width=100_000, max_content_width=100_000)
        .output
    )
    return " ".join(text.split())


def test_every_help_that_lists_choices_lists_every_one():
    """Walk every command: a --set option lists every value of every choice field of its
    game's rules, and a policy option listing the rules of draw, discard or
    discard_racer lists every rule of the enum (read from the enums, not the texts)."""
    from analyzer.gin.model.policies import KEYS, declaration
    from analyzer.gin.model.rules import Rules
    from analyzer.rummy.rules import RummyRules

    rule_keys = [key for key in KEYS if declaration(key).choices]
    seen_set = seen_policy = 0
    for words in _commands(cli):
        text = _help(words)
        if "--set FIELD=VALUE" in text:
            seen_set += 1
            rules = RummyRules if words[0] == "rummy" else Rules
            for field, values in rules.choices.items():
                assert f"{field} {'/'.join(values)}" in text, (words, field)
        if "discard high/" in text:
            seen_policy += 1
            for key in rule_keys:
                assert f"{key} {declaration(key).limits}" in text, (words, key)
    assert seen_set > 10 and seen_policy >= 3  # the walk found the options
