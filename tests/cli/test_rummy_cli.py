import io
import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.rummy import rummy


def run(*args):
    return CliRunner().invoke(rummy, list(args))


def test_simulate_text():
    result = run("simulate", "--deals", "300", "--seed", "4", "--a", "rummy")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "300 deals · seed 4" in lines[0]
    assert re.search(r"^\s+0\s+rummy\s+\d+\.\d% ± \d+\.\d%", result.output, re.MULTILINE)
    assert "meld=hold" in result.output  # the policy's full form, under the table
    assert lines[-1].startswith("Player 0 (rummy) scores ")


def test_simulate_json_and_out(tmp_path):
    result = run(
        *("simulate", "--players", "3", "--deals", "200", "--rules", "seed004"),
        *("--set", "reshuffle=yes", "--policies", "simple,keeper,rummy,hold_turns=4", "--json"),
        *("--out", str(tmp_path / "run"), "--raw", str(tmp_path / "hands.parquet")),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # "wrote ..." goes to stderr
    assert data["rules"]["players"] == 3
    assert data["rules"]["max_run"] == 4
    assert data["rules"]["reshuffle"] is True
    assert (
        data["policies"][2] == "meld=hold,hold_turns=4,hold_points=999,layoff=eager,discard=points"
    )
    assert data["deals"] == 200
    assert set(data["turns"]) == {"mean", "ci95"}
    # the saved answer keeps the summary, the players' table and the chart
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["facts"]["summary"] == data
    assert "--policies simple,keeper,rummy,hold_turns=4" in meta["command"]
    assert (tmp_path / "run" / "players.png").stat().st_size > 1000
    players = pd.read_csv(tmp_path / "run" / "players.csv")
    assert list(players.policy) == [
        "simple",
        "keeper",
        ("meld=hold,hold_turns=4,hold_points=999,layoff=eager,discard=points"),
    ]
    hands = pd.read_parquet(tmp_path / "hands.parquet")
    assert len(hands) == 200
    assert {"left_seat0", "left_seat2", "winner_player"} <= set(hands.columns)


def test_simulate_csv_and_the_default_seed():
    result = run("simulate", "--deals", "200", "--format", "csv", "--jobs", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    table = pd.read_csv(io.StringIO(result.output))
    assert list(table.columns) == ["player", "policy", "win_rate", "win_low", "win_high", "points"]
    assert (table.win_low <= table.win_rate).all() and (table.win_rate <= table.win_high).all()
    assert (
        run("simulate", "--deals", "200", "--format", "csv", "--seed", "2026").output
        == result.output
    )


def test_games():
    result = run("games", "--games", "40", "--set", "target=150", "--a", "hold6")
    assert result.exit_code == 0, result.output
    assert "40 games to 150 points · seed 2026" in result.output.splitlines()[0]
    assert "finished:       100.0% of games reached 150" in result.output
    data = json.loads(run("games", "--games", "40", "--format", "json").output)
    wins = [w["mean"] for w in data["player_game_win_rate"]]
    assert sum(wins) == 1.0


def test_simulate_is_reproducible():
    first = run("simulate", "--deals", "150", "--seed", "9", "--json")
    second = run("simulate", "--deals", "150", "--seed", "9", "--json")
    assert first.output == second.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--deals", "x"], "'x' is not a valid integer"),
        (["simulate", "--deals", "0"], "0 is not in the range 1<=x<="),
        (["simulate", "--players", "7"], "7 is not in the range 2<=x<=6"),
        (["simulate", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["simulate", "--set", "max_run=2"], "max_run must be 0 (no cap) or 3-13"),
        (["simulate", "--set", "colour=red"], "bad rule override 'colour=red'"),
        (["simulate", "--set", "reshuffle=maybe"], "bad value 'maybe' for reshuffle"),
        (["simulate", "--a", "bogus"], "unknown policy 'bogus'"),
        (["simulate", "--b", "meld=later"], "policy meld must be one of asap, hold"),
        (["simulate", "--b", "rummy,hold_points=1000"], "policy hold_points must be 0-999"),
        (["simulate", "--players", "3", "--policies", "simple,simple"], "lists 2 policies for 3"),
        (["simulate", "--format", "xml"], "'xml' is not one of 'table', 'csv', 'json'"),
        (["study", "nothing"], "'nothing' is not one of 'meld-or-hold', 'players'"),
        (["study", "all", "--deals", "10"], "'all' is not one of 'meld-or-hold', 'players'"),
        (["study", "players", "--seed", "-1"], "-1 is not in the range 0<=x<="),
    ],
)
def test_bad_input_is_one_line_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    # one error line (click's own range checks print the usage line above it)
    assert [line for line in result.output.splitlines() if line.startswith("Error")] == [
        line for line in result.output.splitlines() if message in line
    ]


def test_study_writes_table_and_chart(tmp_path):
    result = run("study", "players", "--deals", "150", "--out", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert {r["players"] for r in records} == {2, 3, 4, 5, 6}
    assert (tmp_path / "player_counts.csv").exists()
    assert (tmp_path / "player_counts.png").stat().st_size > 1000
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["command"] == f"analyzer rummy study players --deals 150 --out {tmp_path}"


def test_help_has_examples():
    for command in ("simulate", "study"):
        assert "Example" in run(command, "--help").output


def test_the_games_verdict_names_a_winner_only_when_its_lead_is_clear():
    from analyzer.studies.rummy import most_wins_verdict

    rows = pd.DataFrame(
        {
            "policy": ["simple", "hold6", "keeper"],
            "win_rate": [0.30, 0.45, 0.25],
            "win_low": [0.25, 0.40, 0.20],
            "win_high": [0.35, 0.50, 0.30],
        }
    )
    won = ["30%", "45%", "25%"]
    assert most_wins_verdict(rows, won) == "Player 1 (hold6) wins the most: 45%."
    rows.loc[0, "win_high"] = 0.41  # the runner-up's interval reaches the leader's
    assert most_wins_verdict(rows, won) == (
        "Too close to call between player 1 (hold6), 45%, and player 0 (simple), 30%."
    )
    printed = run("games", "--games", "20", "--seed", "3").output.splitlines()[-1]
    assert printed.startswith(("Too close to call", "Player"))


def test_policies_say_every_preset_in_words_the_strongest_first():
    from analyzer.rummy.describe import EXPERT_EDGES, PRESET_WORDS, STRONGEST

    result = run("policies")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 100
    named = [
        line.split()[0] for line in lines if line[:1].strip() and line.split()[0] in PRESET_WORDS
    ]
    assert named[0] == STRONGEST and set(named) == set(PRESET_WORDS)
    assert "it beats every other preset: by +2.56 ± 0.49 (hold6) to +14.35 ± 0.92 (rummy)" in (
        " ".join(result.output.split())
    )
    assert result.output.count("rummy-expert scores ") == len(EXPERT_EDGES)
    assert "Edges: BENCHMARKS.md (python scripts/rummy_strength.py" in result.output
    data = json.loads(run("policies", "--json").output)
    assert data["policies"][0]["policy"] == STRONGEST
    assert data["policies"][0]["expert_edge"] is None
    edges = {row["policy"]: row["expert_edge"] for row in data["policies"][1:]}
    assert edges == {
        name: {"mean": m, "low": lo, "high": hi} for name, (m, lo, hi) in EXPERT_EDGES.items()
    }
    table = pd.read_csv(io.StringIO(run("policies", "--format", "csv").output))
    assert list(table.policy) == [row["policy"] for row in data["policies"]]
    one = run("policies", "keeper,meld=hold,hold_turns=4")
    assert (
        one.exit_code == 0
        and "this policy  Holds its melds for Rummy through its own turn 4" in (one.output)
    )


def test_the_strongest_players_edges_are_the_benchmarks_figures():
    """The edges the policies command cites are BENCHMARKS.md's strength table, as written."""
    from pathlib import Path

    from analyzer.rummy.describe import EXPERT_EDGES

    text = (Path(__file__).resolve().parents[2] / "BENCHMARKS.md").read_text()
    section = text[text.index("## Plain rummy's strong player") :]
    for name, (mean, low, high) in EXPERT_EDGES.items():
        assert f"| `{name}` | yes | {mean:+.2f} [{low:+.2f}, {high:+.2f}] |" in section, name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bogus", "Error: unknown policy 'bogus'"),
        ("meld=hold,hold_turns=5000", "Error: policy hold_turns must be 0-999, got 5000"),
        ("x" * 201, "Error: a policy is at most 200 characters, got 201"),
    ],
)
def test_policies_refuse_a_bad_name_in_one_line(name, message):
    result = run("policies", name)
    assert result.exit_code == 2
    assert result.output.startswith(message) and len(result.output.strip().splitlines()) == 1
