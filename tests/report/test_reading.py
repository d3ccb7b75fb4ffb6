"""Every file the analyzer reads back is checked as it is read: a damaged results folder
(``meta.json``, the answers' CSVs, the robust and panel equilibria) raises one
``ValueError`` naming the file, and a checkpoint too large or nested too deep is refused
before it can exhaust memory or the stack."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

import analyzer as az
from analyzer.core.chunks import ChunkPlan, FoldState
from analyzer.core.limits import MAX_CHECKPOINT_BYTES, MAX_CHECKPOINT_DEPTH, MAX_RESULTS_FILE_BYTES
from analyzer.report.knock_answer import ANSWERS_FOLDER, robust_table
from analyzer.report.knock_box import load_panel_equilibrium
from analyzer.report.when_to_knock import knock_answer
from analyzer.studies.checkpoint import Checkpoint, CheckpointMismatch
from analyzer.studies.reading import DamagedFile

from .test_knock_answer import write_answers

ANSWERS = f"{ANSWERS_FOLDER}/answers.csv"
META = f"{ANSWERS_FOLDER}/meta.json"


def edit_csv(column, row, value):
    """An edit of ``answers.csv``: one cell replaced."""

    def edit(folder):
        frame = pd.read_csv(folder / ANSWERS, dtype=str)
        frame.loc[row, column] = value
        frame.to_csv(folder / ANSWERS, index=False)

    return edit


def write(name, content):
    def edit(folder):
        path = folder / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())

    return edit


def edit_meta(change):
    def edit(folder):
        data = json.loads((folder / META).read_text())
        change(data)
        (folder / META).write_text(json.dumps(data))

    return edit


def sparse(name, size):
    """The file ``name`` grown to ``size`` bytes without writing them (a hole)."""

    def edit(folder):
        with open(folder / name, "r+b") as stream:
            stream.truncate(size)

    return edit


def pipe(name):
    """The file ``name`` replaced by a named pipe nothing writes to (opening it to read
    would wait for ever)."""

    def edit(folder):
        (folder / name).unlink()
        os.mkfifo(folder / name)

    return edit


DAMAGE = {
    "meta seed a string": (
        edit_meta(lambda d: d.update(seed="5")),
        META,
        "field 'seed' must be an integer, got '5'",
    ),
    "meta seed a boolean": (
        edit_meta(lambda d: d.update(seed=True)),
        META,
        "field 'seed' must be an integer, got True",
    ),
    "meta seed negative": (
        edit_meta(lambda d: d.update(seed=-1)),
        META,
        "field 'seed' must be 0-9223372036854775807, got -1",
    ),
    "meta without command": (edit_meta(lambda d: d.pop("command")), META, "no field 'command'"),
    "meta command a number": (
        edit_meta(lambda d: d.update(command=5)),
        META,
        "field 'command' must be text, got 5",
    ),
    "meta not JSON": (write(META, "{"), META, "the file is not JSON"),
    "meta empty": (write(META, ""), META, "the file is not JSON"),
    "meta a list": (write(META, "[1]"), META, "must hold a JSON object, got [1]"),
    "meta nested deep": (write(META, "[" * 100_000), META, "nested more than 16 deep"),
    "meta not UTF-8": (write(META, b'{"seed": "\xff"}'), META, "not UTF-8 text"),
    "answers without a column": (
        lambda folder: (
            pd.read_csv(folder / ANSWERS)
            .drop(columns="worst_deals")
            .to_csv(folder / ANSWERS, index=False)
        ),
        ANSWERS,
        "lacks the column(s) worst_deals",
    ),
    "answers empty": (write(ANSWERS, ""), ANSWERS, "the file is empty"),
    "answers without rows": (
        lambda folder: pd.read_csv(folder / ANSWERS).head(0).to_csv(folder / ANSWERS, index=False),
        ANSWERS,
        "has no rows",
    ),
    "answers not a table": (
        write(ANSWERS, 'rules,base\n"standard,expert\n'),
        ANSWERS,
        "not a CSV table",
    ),
    "points not a number": (
        edit_csv("points", 1, "lots"),
        ANSWERS,
        "column 'points' must hold numbers; row 2 has 'lots'",
    ),
    "points infinite": (
        edit_csv("points", 0, "inf"),
        ANSWERS,
        "column 'points' must hold numbers; row 1 has inf",
    ),
    "points missing": (
        edit_csv("points_low", 1, ""),
        ANSWERS,
        "column 'points_low' must hold numbers; row 2 has nothing",
    ),
    "deals a fraction": (
        edit_csv("deals", 1, "800.5"),
        ANSWERS,
        "column 'deals' must hold whole numbers >= 0; row 2 has 800.5",
    ),
    "deals written as floats": (
        edit_csv("deals", slice(None), "800.0"),
        ANSWERS,
        "column 'deals' must hold whole numbers >= 0; row 1 has 800.0",
    ),
    "deals booleans": (
        edit_csv("deals", slice(None), "True"),
        ANSWERS,
        "column 'deals' must hold whole numbers >= 0; row 1 has True",
    ),
    "deals negative": (
        edit_csv("worst_deals", 0, "-3"),
        ANSWERS,
        "column 'worst_deals' must hold whole numbers >= 0; row 1 has -3",
    ),
    "deals differ": (
        edit_csv("deals", 1, "900"),
        ANSWERS,
        "column 'deals' must hold one value",
    ),
    "table out of range": (
        edit_csv("table", 0, "10/99/10/0"),
        ANSWERS,
        "column 'table' must hold knock tables; row 1 has '10/99/10/0'",
    ),
    "table not a table": (
        edit_csv("table", 1, "ten"),
        ANSWERS,
        "column 'table' must hold knock tables; row 2 has 'ten'",
    ),
    "family empty": (
        edit_csv("family", 1, ""),
        ANSWERS,
        "column 'family' must hold text; row 2 has nothing",
    ),
    "no unknown family": (
        edit_csv("family", 0, "camper"),
        ANSWERS,
        "column 'family' must name each family once, 'unknown' among them",
    ),
    "panel without a column": (
        write(f"{ANSWERS_FOLDER}/panel.csv", "answer,member\nunknown,basic\n"),
        f"{ANSWERS_FOLDER}/panel.csv",
        "lacks the column(s) points, points_low, points_high, deals",
    ),
    "answers a pipe": (pipe(ANSWERS), ANSWERS, "the file is not a regular file"),
    "answers too large": (
        sparse(ANSWERS, MAX_RESULTS_FILE_BYTES + 1),
        ANSWERS,
        f"the file is larger than {MAX_RESULTS_FILE_BYTES:,} bytes",
    ),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_answers_folder_is_one_value_error_naming_the_file(tmp_path, damage):
    change, name, problem = DAMAGE[damage]
    write_answers(tmp_path)
    change(tmp_path)
    with pytest.raises(DamagedFile) as raised:
        knock_answer("standard", "unknown", results=tmp_path)
    error = raised.value
    assert isinstance(error, ValueError)
    assert str(error).startswith(f"damaged file {tmp_path / name}: ")
    assert problem in str(error)
    assert "\n" not in str(error)
    # the web app's form names the file inside the results folder only
    assert error.public().startswith(f"damaged results file {name}: ")
    assert str(tmp_path) not in error.public()


def test_the_notebook_api_raises_the_value_error_naming_the_file(tmp_path):
    write_answers(tmp_path)
    edit_meta(lambda d: d.update(seed="5"))(tmp_path)
    with pytest.raises(ValueError, match=r"when_to_knock/meta\.json: field 'seed'"):
        az.when_to_knock(results=tmp_path)


def test_an_intact_folder_still_reads(tmp_path):
    write_answers(tmp_path)
    answer = knock_answer("standard", "unknown", results=tmp_path)
    assert answer.seed == 5 and answer.line.result.mean == 2.0


def test_a_damaged_robust_mixture_names_its_file(tmp_path):
    folder = tmp_path / "robust_knock"
    folder.mkdir()
    (folder / "standard_mixture.csv").write_text("rules,table,weight\nstandard,10/10/10/0,x\n")
    with pytest.raises(DamagedFile, match=r"standard_mixture\.csv: column 'weight' must hold"):
        robust_table(tmp_path, "standard")
    (folder / "standard_mixture.csv").write_text("rules,table,weight\nstandard,10/10/10/0,1.0\n")
    assert robust_table(tmp_path, "standard") == (
        (10, 10, 10, 0) * 2,
        "robust_knock/standard_mixture.csv",
    )


def test_a_damaged_panel_equilibrium_names_its_file(tmp_path):
    folder = tmp_path / "panel_equilibrium"
    folder.mkdir()
    (folder / "standard_convergence.csv").write_text(
        "iteration,best_response,gain,gain_low,gain_high,joins\n1,basic,0.1,0.0,0.2,maybe\n"
    )
    (folder / "standard_mixture.csv").write_text("player,weight\nbasic,1.0\n")
    (folder / "standard_answer.csv").write_text(
        "table,points,points_low,points_high,deals\n10/10/10/0,0.1,0.0,0.2,1000\n"
    )
    with pytest.raises(DamagedFile, match="column 'joins' must hold True or False; row 1 has"):
        load_panel_equilibrium(tmp_path, "standard")


# ------------------------------------------------------------------------- checkpoints


def test_a_checkpoint_too_large_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "run.json"
    Checkpoint(path, {"run": 1})
    with open(path, "r+b") as stream:  # a hole: no disk used, nothing to read
        stream.truncate(MAX_CHECKPOINT_BYTES + 1)
    with pytest.raises(
        CheckpointMismatch, match=f"{path} is larger than {MAX_CHECKPOINT_BYTES:,} bytes"
    ):
        Checkpoint(path, {"run": 1}, resume=True)


def test_a_pipe_as_checkpoint_is_refused_without_waiting_on_it(tmp_path):
    path = tmp_path / "run.json"
    os.mkfifo(path)
    with pytest.raises(CheckpointMismatch, match=f"{path} is not a regular file"):
        Checkpoint(path, {"run": 1}, resume=True)


def test_a_checkpoint_nested_too_deep_is_refused(tmp_path):
    path = tmp_path / "run.json"
    for depth in (MAX_CHECKPOINT_DEPTH + 1, 200_000):  # past the parser's own recursion
        nested = "[" * depth + "]" * depth
        path.write_text(f'{{"format": 1, "identity": {{"run": 1}}, "stages": {nested}}}')
        with pytest.raises(
            CheckpointMismatch, match=f"nested more than {MAX_CHECKPOINT_DEPTH} deep"
        ):
            Checkpoint(path, {"run": 1}, resume=True)


def _saved_array(tmp_path):
    """A checkpoint holding one stage whose value is (an int64 array, a float)."""
    path = tmp_path / "run.json"
    plan = ChunkPlan(lambda first, count: first, 10, 5, {})
    book = Checkpoint(path, {"run": 1})
    book.save(book.stage(plan), FoldState((np.arange(3, dtype=np.int64), 0.5), 1, 5))
    return path, plan


def _edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _value(data):
    (stage,) = data["stages"].values()
    return stage["value"]["tuple"]


CHECKPOINT_EDITS = {
    "an array cell a string": (lambda v: v[0]["array"].__setitem__(0, "5"), "expected int"),
    "an array cell a boolean": (lambda v: v[0]["array"].__setitem__(0, True), "expected int"),
    "a shape a boolean": (lambda v: v[0].update(shape=[True, 3]), "expected int"),
    "a float a number": (lambda v: v[1].update(float=0.5), "expected str"),
    "an unknown tag": (lambda v: v.__setitem__(1, {"complex": "1j"}), "unknown value"),
    "a bare list": (lambda v: v.__setitem__(1, [1, 2]), "a bare list"),
}


@pytest.mark.parametrize("edit", CHECKPOINT_EDITS, ids=list(CHECKPOINT_EDITS))
def test_checkpoint_values_are_strictly_typed(tmp_path, edit):
    path, _ = _saved_array(tmp_path)
    change, problem = CHECKPOINT_EDITS[edit]
    _edit(path, lambda data: change(_value(data)))
    with pytest.raises(CheckpointMismatch, match=f"value cannot be read .*{problem}"):
        Checkpoint(path, {"run": 1}, resume=True)


def test_a_checkpoint_identity_or_format_of_another_type_is_another_run(tmp_path):
    path, plan = _saved_array(tmp_path)
    _edit(path, lambda data: data.update(identity={"run": True}))
    with pytest.raises(CheckpointMismatch, match="belongs to another run"):
        Checkpoint(path, {"run": 1}, resume=True)
    _edit(path, lambda data: data.update(identity={"run": 1}, format=True))
    with pytest.raises(CheckpointMismatch, match="not a checkpoint file"):
        Checkpoint(path, {"run": 1}, resume=True)
    _edit(path, lambda data: data.update(format=1))
    book = Checkpoint(path, {"run": 1}, resume=True)  # intact again: it resumes
    restored = book.restore(book.stage(plan), FoldState((np.zeros(3, np.int64), 0.0), 0, 0), plan)
    assert restored.value[0].tolist() == [0, 1, 2] and restored.value[1] == 0.5
