"""The front door: every command fits 100 columns, parses as JSON with --format json,
writes nothing without --out; the policies, rules and replay commands."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.main import COMMANDS, cli
from analyzer.cli.progress import MAX_WIDTH, progress_hidden
from analyzer.gin.model.policies import KEYS
from analyzer.gin.model.policies import PRESETS as POLICY_PRESETS
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.gin.model.rules import Rules
from analyzer.studies.text import verdict_grid

_ADVICE = [
    "advise",
    "--hand",
    "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
    "--pile",
    "Td Ks Jh Ts Kd Tc",
    "--opp-took",
    "8d 9s",
    "--opp-threw",
    "Tc Jh Ts Ks",
    "--stock",
    "25",
    "--turn",
    "5",
    "--samples",
    "200",
]

#: Every gin subcommand with tiny sizes (plain rummy has its own tests).
TINY = {
    "deadwood": ["deadwood", "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"],
    "rules": ["rules"],
    "policies": ["policies"],
    "replay": ["replay", "--deal", "3", "--b", "gin-hunter"],
    "simulate": ["simulate", "--deals", "200"],
    "games": ["games", "--games", "20"],
    "knock-sweep": ["knock-sweep", "--deals", "100", "--games", "10"],
    "knock-chart": ["knock-chart", "--deals", "200", "--min-samples", "5"],
    "knock-schedule": ["knock-schedule", "--deals", "20", "--rounds", "1"],
    "tournament": ["tournament", "--policies", "basic,simple", "--deals", "100", "--games", "10"],
    "variants": ["variants", "--presets", "standard,straight", "--deals", "100", "--games", "10"],
    "dealt": ["dealt", "--deals", "1000"],
    "exact": ["exact", "--ranks", "6", "--suits", "4", "--cards", "10"],
    "equity": ["equity", "--deals", "300", "--games", "40"],
    "advise": _ADVICE,
    "exploit": ["exploit", "basic", "--deals", "100", "--games", "0", "--rounds", "1"],
    "when-to-knock": ["when-to-knock"],
    "how-to-discard": ["how-to-discard", "--opponent", "camper"],
    "how-to-draw": ["how-to-draw", "--opponent", "gin-hunter"],
    "guide": ["guide"],
    "fit-discard": [
        "fit-discard",
        "--generations",
        "1",
        "--population",
        "2",
        "--elite",
        "1",
        "--deals",
        "100",
        "--held-out",
        "100",
    ],
    "equilibrium": ["equilibrium", "--base", "basic", "--deals", "100", "--iterations", "1"],
    "panel-equilibrium": [
        "panel-equilibrium",
        "--members",
        "basic,simple",
        "--deals",
        "100",
        "--iterations",
        "1",
    ],
}


def invoke(args: list[str]):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result


def test_every_gin_command_has_a_tiny_case():
    # report: its own rerun test below; rummy: its own tests; agent: a protocol loop on stdin;
    # serve: a web server (tests/web cover it); warm: no output but a line (tests/cli/test_warm.py)
    assert set(COMMANDS) - {"report", "rummy", "agent", "serve", "warm"} == set(TINY)


@pytest.mark.parametrize("name", sorted(TINY))
def test_table_fits_100_columns_and_json_parses(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    table = invoke(TINY[name]).output
    assert max(len(line) for line in table.splitlines()) <= MAX_WIDTH, table
    data = json.loads(invoke([*TINY[name], "--format", "json"]).output)
    assert data
    invoke([*TINY[name], "--format", "csv"])
    # without --out nothing is written where the command runs
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted([*TINY, "report", "rummy", "agent"]))
def test_help_fits_100_columns(name):
    text = invoke([name, "--help"]).output
    assert max(len(line) for line in text.splitlines()) <= MAX_WIDTH


def test_json_flag_is_an_alias_of_format_json():
    assert (
        invoke(["replay", "--deal", "4", "--json"]).output
        == invoke(["replay", "--deal", "4", "--format", "json"]).output
    )


def test_dealt_json_lists_the_csv_rows_and_small_probabilities_show():
    data = json.loads(invoke(["dealt", "--deals", "2000", "--json"]).output)
    assert {row["limit"] for row in data} == set(range(11))
    table = invoke(["dealt", "--deals", "20000", "--seed", "2"]).output
    assert "1 in " in table


def test_knock_chart_grid_is_compact():
    output = invoke(["knock-chart", "--deals", "300", "--min-samples", "5"]).output
    lines = output.splitlines()
    assert len(lines) < 40
    start = next(i for i, line in enumerate(lines) if line.startswith("own turn"))
    grid = lines[start + 1 : start + 21]
    assert set("".join(grid).split()) <= {"K", "P", "·"} | {str(t) for t in range(1, 20)} | {"20+"}


def test_one_state_gives_no_verdict():
    import pandas as pd

    chart = pd.DataFrame([{"turn": 3, "deadwood": 5, "n": 1, "verdict": "unclear"}])
    grid = verdict_grid(chart, 1)
    assert "·" in grid[3]


def test_progress_is_quiet_off_a_terminal():
    # pytest captures stderr, as a pipe or a log file would
    assert progress_hidden(False)
    assert progress_hidden(True)


# ----------------------------------------------------------------------- policies, rules


def test_policies_lists_every_preset_with_its_string_form():
    data = json.loads(invoke(["policies", "--format", "json"]).output)
    assert [row["policy"] for row in data] == list(POLICY_PRESETS)
    for row in data:
        assert row["summary"].endswith(".")
        assert "knock" in row["summary"]
    table = invoke(["policies"]).output
    assert "draw=improve,discard=high,knock=1:0/10:10" in table


@pytest.mark.parametrize("name", ["gin-hunter", "basic,knock=7,discard=safe"])
def test_policy_name_explains_every_field(name):
    data = json.loads(invoke(["policies", name, "--json"]).output)
    assert set(data["fields"]) == set(KEYS)
    assert all(field["meaning"] for field in data["fields"].values())


def test_rules_name_explains_every_field():
    data = json.loads(invoke(["rules", "oklahoma", "--json"]).output)
    assert set(data["fields"]) == {field.name for field in dataclasses.fields(Rules)}
    assert all(field["meaning"] for field in data["fields"].values())
    assert data["fields"]["target"]["value"] == 150
    listing = json.loads(invoke(["rules", "--json"]).output)
    assert set(listing) == set(RULE_PRESETS)
    assert all(entry["note"] for entry in listing.values())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["policies", "wizard"], "unknown policy 'wizard'"),
        (["rules", "bogus"], "unknown rules preset 'bogus'"),
        (["replay", "--deck", "As As"], "duplicate card"),
        (["replay", "--deck", "As 2s | 3s | 4s 5s"], "upcard part must be one card"),
        (["deadwood"], "give a HAND"),
        (["deadwood", ""], "wrong hand size"),
    ],
)
def test_front_door_errors_are_one_line(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


# --------------------------------------------------------------------------- replay


def test_replay_prints_the_hand_turn_by_turn():
    output = invoke(["replay", "--seed", "1", "--deal", "5", "--b", "gin-hunter"]).output
    assert "takes upcard" in output
    assert "knocks" in output
    assert "result: A knocks and scores 6 points" in output


def test_replay_json_and_given_deck(tmp_path):
    data = json.loads(invoke(["replay", "--deal", "2", "--json"]).output)
    assert data["events"][0]["step"] == 1
    assert data["outcome"] in ("knock", "gin", "undercut", "draw", "tie", "big_gin")
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"deck": "As 2s 3s 4s 5s 6s 7s 8s 9s Ts | | Kd"}))
    data = json.loads(invoke(["replay", "--position", str(position), "--json"]).output)
    assert data["outcome"] == "gin"
    assert data["knocker"] == "A"


@pytest.mark.slow
def test_report_rerun_changes_only_the_run_times(tmp_path):
    args = ["report", "--only", "tournament", "--deals", "100", "--out", str(tmp_path)]

    def files() -> dict:
        """Every file's bytes, but the run times: the log, and each answer's seconds
        (in its meta.json, and so in the hashes its manifest and the report's list)."""
        found = {}
        for path in sorted(tmp_path.rglob("*")):
            if path.name == "meta.json":
                found[path] = {**json.loads(path.read_text()), "seconds": None}
            elif path.is_file() and path.name not in ("run_times.log", "manifest.json"):
                found[path] = path.read_bytes()
        return found

    invoke(args)
    first = files()
    invoke(args)
    assert files() == first
    log = tmp_path / "run_times.log"
    assert len(log.read_text().splitlines()) == 2
    gitignore = (Path(__file__).resolve().parents[2] / ".gitignore").read_text()
    assert "run_times.log" in gitignore


def test_readme_and_docs_commands_exist_and_their_outputs_fit():
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "readme_examples", root / "scripts" / "readme_examples.py"
    )
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    blocks = {
        document.name: examples.CONSOLE_BLOCK.findall(document.read_text())
        for document in examples.DOCUMENTS
    }
    # the README keeps the knock answer and one example per question; the rest is in docs/
    assert blocks["README.md"][0].startswith("$ analyzer when-to-knock\n")
    assert len(blocks["README.md"]) >= 4 and len(blocks["cli.md"]) >= 10
    for block in (block for found in blocks.values() for block in found):
        commands = examples.commands_of(block)
        assert commands, block
        for command in commands:
            words = command.split()
            assert words[0] == "analyzer" and words[1] in COMMANDS, command
        if commands[0].split()[1] != "rummy":  # plain rummy's CLI has its own owner
            assert max(len(line) for line in block.splitlines()[1:]) <= MAX_WIDTH, block


def test_readme_examples_compare_without_the_measured_times():
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "readme_examples", root / "scripts" / "readme_examples.py"
    )
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    one = 'time:                 3.4 s (58,684 deals/s)\n "elapsed_s": 1.37, "seed": 1\n'
    other = 'time:                 2.9 s (61,002 deals/s)\n "elapsed_s": 0.93, "seed": 1\n'
    assert examples.compared(one) == examples.compared(other)
    assert examples.compared(one) != examples.compared(one.replace('"seed": 1', '"seed": 2'))


def test_deadwood_file_as_json(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("As 2s 3s 7h 7d 7c Kd Qh 9c 4d\n# a comment\nAs 2s 3s 4s 5s 6s 7s 8s 9s Ts\n")
    rows = json.loads(invoke(["deadwood", "--file", str(hands), "--json"]).output)
    assert [row["deadwood"] for row in rows] == [33, 0]


def test_progress_bar_on_a_terminal_shows_total_and_eta(monkeypatch):
    import io
    import time

    from analyzer.cli import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr(progress, "PROGRESS_DELAY_S", 0.0)
    with progress.progress_bar(None, "deal", False, "study") as update:
        update(0, total=400)
        for _ in range(4):
            time.sleep(0.15)  # past tqdm's shortest redraw interval (0.1 s)
            update(100)
    shown = terminal.getvalue()
    assert "study:" in shown
    assert "/400" in shown
    assert "<" in shown  # the ETA
    assert max(len(line) for line in shown.replace("\r", "\n").splitlines()) <= MAX_WIDTH


def test_every_draw_and_discard_rule_has_a_sentence():
    from analyzer.gin.model.describe import explain_policy
    from analyzer.gin.model.policies import Discard, Draw, Policy
    from analyzer.gin.model.policy_fields import DISCARD_RULES, DRAW_RULES

    for draw in DRAW_RULES:
        for discard in DISCARD_RULES:
            assert explain_policy(Policy(Draw(draw), Discard(discard))).endswith(".")


def test_the_help_lists_the_players_questions_first_with_their_whole_descriptions():
    text = CliRunner().invoke(cli, ["--help"]).output
    listed = [line.split()[0] for line in text.split("Commands:")[1].strip().splitlines()]
    assert listed[:4] == ["guide", "when-to-knock", "how-to-discard", "how-to-draw"]
    assert listed[4:] == sorted(listed[4:])
    assert "When should I knock? The rule in words, with its result." in text
    assert "How should I discard? The principles, with their worth." in text
    assert "Should I take the upcard? The principles, with their worth." in text
