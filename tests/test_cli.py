import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli


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
    path.write_text("As 2s 3s\n\n# comment\nKs Kc Qd Qh Js Jc Td Th 9s 9c\n")
    result = run("deadwood", "--file", str(path))
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "hand,min_deadwood", "As 2s 3s,0", "9c Jc Kc Td Qd Th Qh 9s Js Ks,98"]


@pytest.mark.parametrize(("args", "message"), [
    (["deadwood", "As 2s 3s 7x"], "unknown suit 'x'"),
    (["deadwood", "As As"], "duplicate card 'As'"),
    (["deadwood", "Zs"], "unknown rank 'Z'"),
    (["deadwood"], "give either a HAND or --file"),
])
def test_deadwood_bad_input(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_deadwood_file_names_bad_line(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("As 2s 3s\nAs 2s 1s\n")
    result = run("deadwood", "--file", str(path))
    assert result.exit_code == 2
    assert "line 2: bad card '1s'" in result.output


def test_version_and_help():
    assert run("--version").exit_code == 0
    assert "Example" in run("deadwood", "--help").output
