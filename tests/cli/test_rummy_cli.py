import json

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.rummy import rummy


def run(*args):
    return CliRunner().invoke(rummy, list(args))


def test_simulate_text():
    result = run("simulate", "--deals", "300", "--seed", "4", "--a", "rummy")
    assert result.exit_code == 0, result.output
    assert "hands:            300 (seed 4)" in result.output
    assert "player 0: wins" in result.output
    assert "meld=hold" in result.output
    assert "player 0 - player 1:" in result.output


def test_simulate_json_and_out(tmp_path):
    result = run("simulate", "--players", "3", "--deals", "200", "--rules", "seed004",
                 "--set", "reshuffle=yes", "--policies", "simple;keeper;meld=hold,hold_turns=4",
                 "--json", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"]["players"] == 3
    assert data["rules"]["max_run"] == 4
    assert data["rules"]["reshuffle"] is True
    assert data["policies"][2] == "meld=hold,hold_turns=4,hold_points=999,layoff=eager,discard=points"
    assert data["summary"]["hands"] == 200
    assert json.loads((tmp_path / "summary.json").read_text()) == data
    hands = pd.read_csv(tmp_path / "hands.csv")
    assert len(hands) == 200
    assert {"left_seat0", "left_seat2", "winner_player"} <= set(hands.columns)


def test_simulate_games():
    result = run("simulate", "--games", "--deals", "40", "--set", "target=150", "--a", "hold6")
    assert result.exit_code == 0, result.output
    assert "games:            40 to 150 points (seed 0), 100.0% finished" in result.output
    data = json.loads(run("simulate", "--games", "--deals", "40", "--json").output)
    wins = [w[0] for w in data["summary"]["player_game_win_rate"]]
    assert sum(wins) == 1.0


def test_simulate_is_reproducible():
    first = run("simulate", "--deals", "150", "--seed", "9", "--json")
    second = run("simulate", "--deals", "150", "--seed", "9", "--json")
    assert first.output == second.output


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--deals", "x"], "--deals must be an integer"),
    (["simulate", "--deals", "0"], "--deals must be 1-1000000000000, got 0"),
    (["simulate", "--players", "7"], "--players must be 2-6"),
    (["simulate", "--rules", "nope"], "unknown rules preset 'nope'"),
    (["simulate", "--set", "max_run=2"], "max_run must be 0 (no cap) or 3-13"),
    (["simulate", "--set", "colour=red"], "bad rule option 'colour=red'"),
    (["simulate", "--set", "reshuffle=maybe"], "reshuffle takes true or false"),
    (["simulate", "--a", "bogus"], "unknown policy 'bogus'"),
    (["simulate", "--b", "meld=later"], "policy meld must be one of asap, hold"),
    (["simulate", "--players", "3", "--policies", "simple;simple"], "lists 2 policies for 3"),
    (["study", "nothing"], "unknown study 'nothing'"),
    (["study", "all", "--deals", "10"], "give --out DIR"),
    (["study", "players", "--seed", "-1"], "--seed must be 0-9223372036854775807, got -1"),
])
def test_bad_input_is_one_line_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_study_writes_table_and_chart(tmp_path):
    result = run("study", "players", "--deals", "150", "--out", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)
    assert {r["players"] for r in records} == {2, 3, 4, 5, 6}
    assert (tmp_path / "player_counts.csv").exists()
    assert (tmp_path / "player_counts.png").stat().st_size > 1000


def test_study_all_writes_the_report(tmp_path):
    result = run("study", "all", "--deals", "100", "--out", str(tmp_path / "rummy"))
    assert result.exit_code == 0, result.output
    report = (tmp_path / "rummy" / "report.md").read_text()
    assert report.startswith("## Plain rummy")
    for section in ("meld now or hold", "Player count", "seed-004 option"):
        assert section in report
    for name in ("meld_or_hold", "player_counts", "option_values"):
        assert (tmp_path / "rummy" / f"{name}.csv").exists()
        assert f"](rummy/{name}.png)" in report


def test_help_has_examples():
    for command in ("simulate", "study"):
        assert "Example" in run(command, "--help").output
