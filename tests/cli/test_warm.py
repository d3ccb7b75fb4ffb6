"""``analyzer warm``: each group's tiny runs work (so they compile what they name), a
group that compiled is marked for these sources, and the report's warm-up beside itself
starts only while something is left to compile."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer.cli import warm
from analyzer.cli.main import cli


@pytest.fixture
def marks(tmp_path, monkeypatch):
    monkeypatch.setattr(warm, "cache_dir", lambda: tmp_path / "cache")
    return tmp_path / "cache"


def test_every_group_compiles_and_is_marked(marks):
    """Every tiny run of every group works (a run that fails names itself in one line)."""
    result = CliRunner().invoke(cli, ["warm"])
    assert result.exit_code == 0, result.output
    assert "compiled the kernels of engine, rummy, advisor, tables" in result.stderr
    assert sorted(path.name for path in marks.iterdir()) == [
        f"warmed-{name}" for name in sorted(warm.GROUPS)
    ]


def test_a_failing_run_is_one_line(marks, monkeypatch):
    monkeypatch.setitem(warm.GROUPS, "tables", (("dealt", "--deals", "0"),))
    result = CliRunner().invoke(cli, ["warm", "--only", "tables"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: analyzer dealt --deals 0 failed: Error: ")
    assert not marks.exists()


def test_an_unknown_group_is_one_line():
    result = CliRunner().invoke(cli, ["warm", "--only", "engine,turbo"])
    assert result.exit_code == 2
    assert "unknown group 'turbo'; choose from engine, rummy, advisor, tables" in result.output


def test_the_report_starts_a_warm_up_only_while_something_is_left(marks, monkeypatch):
    started = []
    monkeypatch.setattr(warm.subprocess, "Popen", lambda *args, **kwargs: started.append(args))
    monkeypatch.delenv(warm.BESIDE_ENV, raising=False)
    warm.start_beside()
    assert started and "rummy,advisor" in started[0][0]
    marks.mkdir()
    for name in warm.BESIDE_REPORT:
        (marks / f"warmed-{name}").touch()
    assert warm.start_beside() is None and len(started) == 1
    monkeypatch.setenv(warm.BESIDE_ENV, "0")
    (marks / "warmed-rummy").unlink()
    assert warm.start_beside() is None and len(started) == 1
