"""A damaged file the command line reads back (a results folder's CSV or meta.json, a
checkpoint too large or nested too deep) ends the command with one ``Error:`` line
naming it and exit status 2, whichever command read it, before any work."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.exits import ERROR_EXIT
from analyzer.cli.main import cli
from analyzer.core import cluster
from analyzer.core.limits import MAX_CHECKPOINT_BYTES, MAX_CHECKPOINT_DEPTH
from analyzer.studies.files import file_hash
from tests.studies.test_answers import keep_knock

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


def assert_one_line_error(result, text):
    assert result.exit_code == ERROR_EXIT, (result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert text in lines[0], lines[0]
    assert "Traceback" not in result.output and result.stdout == ""


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def damage(path, old, new):
    """Edit ``path`` and its manifest's hash alike: a file the manifest vouches for, whose
    content the reader must still check."""
    path.write_text(path.read_text().replace(old, new, 1))
    manifest_path = path.parent / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["files"][path.name] = file_hash(path.read_bytes())
    manifest_path.write_text(json.dumps(manifest))


def test_when_to_knock_names_a_damaged_meta_json(tmp_path):
    keep_knock(tmp_path / "res")
    meta = tmp_path / "res" / "when_to_knock" / "standard" / "meta.json"
    damage(meta, '"seed": 2026', '"seed": 1.5')
    assert_one_line_error(
        run("when-to-knock", "--results", "res"),
        "Error: damaged file res/when_to_knock/standard/meta.json:",
    )


def test_when_to_knock_names_a_csv_with_a_bad_value(tmp_path):
    keep_knock(tmp_path / "res")
    path = tmp_path / "res" / "when_to_knock" / "standard" / "answers.csv"
    damage(path, ",800,", ",eight hundred,")
    assert_one_line_error(
        run("when-to-knock", "--results", "res", "--format", "json"),
        "res/when_to_knock/standard/answers.csv: column 'deals'",
    )


def test_a_file_changed_behind_its_manifest_is_named(tmp_path):
    keep_knock(tmp_path / "res")
    path = tmp_path / "res" / "when_to_knock" / "standard" / "answers.csv"
    path.write_text(path.read_text().replace(",800,", ",801,", 1))
    assert_one_line_error(
        run("when-to-knock", "--results", "res"),
        "res/when_to_knock/standard/answers.csv: does not match the folder's manifest",
    )


def test_the_report_stops_on_a_damaged_earlier_result_and_keeps_the_folder(tmp_path):
    # the exact counts the dealt section reads, kept in the folder by `analyzer exact`
    exact = tmp_path / "out" / "exact" / "cards10"
    shutil.copytree(ROOT / "results" / "exact" / "cards10", exact)
    counts = exact / "counts.csv"
    lines = counts.read_text().splitlines()
    lines[1] = "0,many," + lines[1].split(",", 2)[2]
    counts.write_text("\n".join(lines) + "\n")
    before = sorted(p.name for p in (tmp_path / "out").rglob("*"))
    assert_one_line_error(
        run("report", "--only", "dealt", "--deals", 100, "--out", "out", "--no-progress"),
        "Error: damaged file out/exact/cards10/counts.csv: does not match the folder's manifest",
    )
    # the same file with its manifest rewritten to match: read, and its count found wrong
    manifest = json.loads((exact / "manifest.json").read_text())
    manifest["files"]["counts.csv"] = file_hash(counts.read_bytes())
    (exact / "manifest.json").write_text(json.dumps(manifest))
    assert_one_line_error(
        run("report", "--only", "dealt", "--deals", 100, "--out", "out", "--no-progress"),
        "Error: damaged file out/exact/cards10/counts.csv: column 'count' must hold int values",
    )
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == before


SWEEP = ["knock-sweep", "--deals", 300, "--games", 30, "--no-progress"]


def test_a_checkpoint_too_large_is_one_line(tmp_path):
    with open(tmp_path / "big.json", "wb") as stream:  # a hole: no disk used
        stream.truncate(MAX_CHECKPOINT_BYTES + 1)
    assert_one_line_error(
        run(*SWEEP, "--checkpoint", "big.json", "--resume"),
        f"not a checkpoint file: big.json is larger than {MAX_CHECKPOINT_BYTES:,} bytes",
    )


def test_a_checkpoint_nested_too_deep_is_one_line(tmp_path):
    depth = 100_000  # far past Python's recursion limit
    (tmp_path / "deep.json").write_text(
        '{"format": 1, "identity": {}, "stages": ' + "[" * depth + "]" * depth + "}"
    )
    assert_one_line_error(
        run(*SWEEP, "--checkpoint", "deep.json", "--resume"),
        f"not a checkpoint file: deep.json is nested more than {MAX_CHECKPOINT_DEPTH} deep",
    )


SIMULATE = ["simulate", "--deals", 300, "--seed", 1, "--no-progress"]


def _edited_checkpoint(tmp_path, key, value):
    """A finished simulation's checkpoint with the sum ``key`` set to ``value`` (an
    encoded value; None: removed)."""
    assert run(*SIMULATE, "--checkpoint", "run.json").exit_code == 0
    data = json.loads((tmp_path / "run.json").read_text())
    (stage,) = data["stages"].values()
    sums = dict(stage["value"]["tuple"][0]["dict"])
    if value is None:
        del sums[key]
    else:
        sums[key] = value
    stage["value"]["tuple"][0]["dict"] = [[k, v] for k, v in sums.items()]
    (tmp_path / "run.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("knock", {"float": "inf"}, "inf is not a finite number"),
        ("deals", {"float": "inf"}, "inf is not a finite number"),
        ("knock", {"float": "nan"}, "nan is not a finite number"),
        ("knock", {"array": [], "dtype": "<f8", "shape": [0, 10**18]}, "'knock' is not a number"),
        ("deals", {"float": float(-914_112).hex()}, "'deals' is -914,112, outside what"),
        ("knock", {"float": float(612).hex()}, "'knock' is 612, outside what 300 units add"),
        ("knock", {"float": float(-3).hex()}, "'knock' is -3, outside what 300 units add"),
        ("undercut", None, "has no 'undercut'"),
        ("bogus", {"float": "0x0p+0"}, "has a sum no chunk gives, 'bogus'"),
    ],
    ids=[
        "inf",
        "inf-deals",
        "nan",
        "shape",
        "negative-deals",
        "over-100%",
        "negative",
        "missing",
        "extra",
    ],
)
def test_a_checkpoint_with_sums_its_deals_cannot_add_is_one_line(tmp_path, key, value, problem):
    _edited_checkpoint(tmp_path, key, value)
    result = run(*SIMULATE, "--checkpoint", "run.json", "--resume")
    assert_one_line_error(result, "checkpoint run.json is damaged: ")
    assert problem in result.stderr
