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
from analyzer.studies.answer import Answer
from analyzer.studies.checkpoint import Checkpoint, CheckpointMismatch
from analyzer.studies.files import MANIFEST, file_hash
from analyzer.studies.reading import DamagedFile
from tests.studies.test_answers import keep_knock

ANSWERS_FOLDER = "when_to_knock/standard"
ANSWERS = f"{ANSWERS_FOLDER}/answers.csv"
META = f"{ANSWERS_FOLDER}/meta.json"


def write_answers(results):
    """A kept when-to-knock answer in ``results``."""
    keep_knock(results)


def resign(results):
    """The manifest rewritten to vouch for the files as they are now (the regular ones
    of a readable size): a damage only the reader's own checks can find."""
    folder = results / ANSWERS_FOLDER
    manifest = json.loads((folder / MANIFEST).read_text())
    for name in manifest["files"]:
        path = folder / name
        if path.is_file() and path.stat().st_size <= MAX_RESULTS_FILE_BYTES:
            manifest["files"][name] = file_hash(path.read_bytes())
    (folder / MANIFEST).write_text(json.dumps(manifest))


def knock_answer(results):
    return Answer.load(results / ANSWERS_FOLDER, results)


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
        "its inputs are not the study's: seed must be an integer, got '5'",
    ),
    "meta seed a boolean": (
        edit_meta(lambda d: d.update(seed=True)),
        META,
        "seed must be an integer, got True",
    ),
    "meta seed negative": (
        edit_meta(lambda d: d.update(seed=-1)),
        META,
        "seed must be 0-9223372036854775807, got -1",
    ),
    "meta without command": (
        edit_meta(lambda d: d.pop("command")),
        META,
        "must hold exactly the fields command, facts",
    ),
    "meta command a number": (
        edit_meta(lambda d: d.update(command=5)),
        META,
        "field 'command' must be text, got 5",
    ),
    "meta not JSON": (write(META, "{"), META, "the file is not JSON"),
    "meta empty": (write(META, ""), META, "the file is not JSON"),
    "meta a list": (write(META, "[1]"), META, "must hold exactly the fields command, facts"),
    "meta nested deep": (write(META, "[" * 100_000), META, "nested more than 16 deep"),
    "meta not UTF-8": (write(META, b'{"seed": "\xff"}'), META, "not UTF-8 text"),
    "answers without a column": (
        lambda folder: (
            pd.read_csv(folder / ANSWERS)
            .drop(columns="worst_deals")
            .to_csv(folder / ANSWERS, index=False)
        ),
        ANSWERS,
        "must have the columns rules, base, family",
    ),
    "answers empty": (write(ANSWERS, ""), ANSWERS, "No columns to parse from file"),
    "answers not a table": (
        write(ANSWERS, 'rules,base\n"standard,expert\n'),
        ANSWERS,
        "EOF inside string",
    ),
    "points not a number": (
        edit_csv("points", 1, "lots"),
        ANSWERS,
        "column 'points' must hold float values",
    ),
    "points infinite": (
        edit_csv("points", 0, "inf"),
        ANSWERS,
        "column 'points' is not finite",
    ),
    "deals a fraction": (
        edit_csv("deals", 1, "800.5"),
        ANSWERS,
        "column 'deals' must hold int values",
    ),
    "deals written as floats": (
        edit_csv("deals", slice(None), "800.0"),
        ANSWERS,
        "column 'deals' must hold int values",
    ),
    "deals booleans": (
        edit_csv("deals", slice(None), "True"),
        ANSWERS,
        "column 'deals' must hold int values",
    ),
    "no unknown family": (
        edit_csv("family", 0, "camper"),
        ANSWERS,
        "names a row twice (family)",
    ),
    "panel without a column": (
        write(f"{ANSWERS_FOLDER}/panel.csv", "answer,member\nunknown,basic\n"),
        f"{ANSWERS_FOLDER}/panel.csv",
        "must have the columns answer, member, points, points_low, points_high, deals",
    ),
    "answers a pipe": (pipe(ANSWERS), ANSWERS, "is not a regular file"),
    "answers too large": (
        sparse(ANSWERS, MAX_RESULTS_FILE_BYTES + 1),
        ANSWERS,
        f"is larger than {MAX_RESULTS_FILE_BYTES:,} bytes",
    ),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_answers_folder_is_one_value_error_naming_the_file(tmp_path, damage):
    change, name, problem = DAMAGE[damage]
    write_answers(tmp_path)
    change(tmp_path)
    resign(tmp_path)
    with pytest.raises(DamagedFile) as raised:
        knock_answer(tmp_path)
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
    resign(tmp_path)
    with pytest.raises(ValueError, match=r"when_to_knock/standard/meta\.json: its inputs"):
        az.when_to_knock(results=tmp_path)


def test_an_intact_folder_still_reads(tmp_path):
    write_answers(tmp_path)
    answer = knock_answer(tmp_path)
    assert answer.inputs.seed == 2026 and answer["answers"]["points"].iloc[0] == 2.0


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
