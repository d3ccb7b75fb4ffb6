"""A saved answer read back trusts nothing: its manifest, every field of its meta.json
(checked by the study's own parameters), its tables' columns and types and the rows that
must be unique.  Each damage is one ``DamagedFile`` (a ``ValueError``) naming the file.

The answers here are made by hand (a knock sweep's table of two rows): saving and loading
needs no kernel."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from analyzer.studies.answer import Answer
from analyzer.studies.files import MANIFEST, file_hash
from analyzer.studies.inputs import make_inputs
from analyzer.studies.reading import DamagedFile
from analyzer.studies.registry import STUDIES


def _sweep() -> pd.DataFrame:
    row = {"opponent": "basic", "threshold": 0, "n": 100}
    for metric in ("points", "diff", "game_win", "win", "undercut", "gin", "turns"):
        row |= {f"{metric}_mean": 0.5, f"{metric}_low": 0.25, f"{metric}_high": 0.75}
    return pd.DataFrame([row, {**row, "threshold": 10}])


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    study = STUDIES["knock-sweep"]
    inputs = make_inputs(study, {"opponents": ["basic"], "thresholds": [0, 10], "deals": 100})
    return Answer(study, inputs, {"sweep": _sweep()}, seconds=1.5).save(tmp_path / "sweep")


def _resigned(folder: Path, name: str, data: bytes) -> None:
    """Write ``name`` and its hash into the manifest: a damage the manifest cannot see."""
    (folder / name).write_bytes(data)
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"][name] = file_hash(data)
    (folder / MANIFEST).write_text(json.dumps(manifest))


def _meta(folder: Path, **changes: object) -> None:
    meta = json.loads((folder / "meta.json").read_text())
    for key, value in changes.items():
        if value is None and key in meta:
            del meta[key]
        elif key.startswith("inputs."):
            meta["inputs"][key.removeprefix("inputs.")] = value
        else:
            meta[key] = value
    _resigned(folder, "meta.json", json.dumps(meta).encode())


def test_an_answer_reads_back_as_it_was_saved(saved):
    answer = Answer.load(saved)
    assert answer.study.name == "knock-sweep"
    assert answer.inputs["deals"] == 100 and answer.seconds == 1.5
    pd.testing.assert_frame_equal(answer["sweep"], _sweep())
    meta = json.loads((saved / "meta.json").read_text())
    assert meta["command"].endswith(f"--out {saved}")


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"seconds": None}, "must hold exactly the fields"),
        ({"extra": 1}, "must hold exactly the fields"),
        ({"seconds": -1}, "field 'seconds' must be a number of seconds >= 0"),
        ({"study": "no-such-study"}, "names no study of this version"),
        ({"inputs.deals": None}, "its inputs are not the study's"),
        ({"inputs.deals": -5}, "its inputs are not the study's"),
        ({"inputs.deals": 10**30}, "its inputs are not the study's"),
        ({"inputs.deals": 1e300}, "its inputs are not the study's"),
        ({"inputs.opponents": "basic"}, "its inputs are not the study's"),
        ({"inputs.a": "no-such-policy"}, "its inputs are not the study's"),
        ({"seed": -1}, "its inputs are not the study's"),
        ({"rules": "no-such-rules"}, "its inputs are not the study's"),
    ],
)
def test_a_damaged_meta_json_is_refused_naming_it(saved, changes, problem):
    _meta(saved, **changes)
    with pytest.raises(DamagedFile, match=problem) as caught:
        Answer.load(saved)
    assert "sweep/meta.json" in str(caught.value) and "\n" not in str(caught.value)


def test_a_meta_json_edited_by_hand_fails_its_manifest(saved):
    text = (saved / "meta.json").read_text().replace('"deals": 100', '"deals": 200')
    (saved / "meta.json").write_text(text)
    with pytest.raises(
        DamagedFile, match=r"sweep/meta\.json: does not match the folder's manifest"
    ):
        Answer.load(saved)


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        (_sweep().assign(n="many"), "column 'n' must hold int values"),
        (_sweep().drop(columns=["n"]), "must have the columns"),
        (_sweep().assign(points_mean=float("inf")), "column 'points_mean' is not finite"),
        (pd.concat([_sweep(), _sweep().iloc[:1]]), r"names a row twice \(opponent, threshold\)"),
    ],
)
def test_a_damaged_table_is_refused_naming_it(saved, table, problem):
    _resigned(saved, "sweep.csv", table.to_csv(index=False).encode())
    with pytest.raises(DamagedFile, match=problem) as caught:
        Answer.load(saved)
    assert "sweep/sweep.csv" in str(caught.value)
