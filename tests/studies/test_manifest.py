"""A folder is one run or none: every staged write leaves a manifest beside its files, the
files of the run before that this run does not write are moved out with the old manifest,
and a reader checks the files against the manifest (finishing a move a killed run left),
so that a kill at any step of the final move leaves readers the old run, the new one or a
one-line refusal, never a mix."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.studies.files import MANIFEST, file_hash, write_together
from analyzer.studies.reading import DamagedFile, read_folder

OLD = {"answers.csv": b"old answers\n", "panel.csv": b"old panel\n", "meta.json": b'{"run": 1}\n'}
NEW = {"answers.csv": b"new answers\n", "shares.csv": b"new shares\n", "meta.json": b'{"run": 2}\n'}

# the new run, killed (SIGKILL: no handler runs) at its STEP-th rename or link
KILLED = """
import os, signal, sys
from pathlib import Path
from analyzer.studies.files import write_together

step, calls = int(sys.argv[2]), [0]
real = {"replace": os.replace, "link": os.link}

def dying(name):
    def call(*args, **kwargs):
        calls[0] += 1
        if calls[0] == step:
            os.kill(os.getpid(), signal.SIGKILL)
        return real[name](*args, **kwargs)
    return call

os.replace, os.link = dying("replace"), dying("link")
write_together(Path(sys.argv[1]), {name: data.encode() for name, data in %r.items()})
print("finished")
""" % {name: data.decode() for name, data in NEW.items()}


def _kill_at(folder: Path, step: int) -> bool:
    """Run the new write into ``folder``, killed at its ``step``-th rename; whether it
    finished before that step came."""
    done = subprocess.run(
        [sys.executable, "-c", KILLED, str(folder), str(step)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return "finished" in done.stdout


def test_the_manifest_names_the_runs_files_with_their_hashes(tmp_path):
    folder = tmp_path / "out"
    write_together(folder, OLD)
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["files"] == {name: file_hash(data) for name, data in OLD.items()}
    assert read_folder(tmp_path, "out").files == OLD


def test_the_next_run_replaces_the_runs_files_and_keeps_the_users(tmp_path):
    folder = tmp_path / "out"
    write_together(folder, OLD)
    (folder / "notes.txt").write_text("mine\n")
    write_together(folder, NEW)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*NEW, MANIFEST, "notes.txt"])
    assert read_folder(tmp_path, "out").files == NEW


def test_a_file_another_run_wrote_is_refused_naming_it(tmp_path):
    write_together(tmp_path / "a", OLD)
    write_together(tmp_path / "b", {**OLD, "panel.csv": b"another run's panel\n"})
    (tmp_path / "a" / "panel.csv").write_bytes((tmp_path / "b" / "panel.csv").read_bytes())
    with pytest.raises(DamagedFile, match=r"a/panel\.csv: does not match the folder's manifest"):
        read_folder(tmp_path, "a")


def test_a_folder_without_a_manifest_is_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "answers.csv").write_text("x\n")
    with pytest.raises(DamagedFile, match=r"a/manifest\.json: is missing"):
        read_folder(tmp_path, "a")


@pytest.mark.slow
def test_a_kill_at_every_step_of_the_move_leaves_the_old_run_the_new_or_a_refusal(tmp_path):
    seen = set()
    for step in range(1, 40):
        folder = tmp_path / f"kill{step}" / "out"
        write_together(folder, OLD)
        finished = _kill_at(folder, step)
        # a reader that may write finishes the move a kill left: it never needs to refuse
        files = read_folder(folder.parent, "out").files
        assert files in (OLD, NEW), f"a mix after a kill at step {step}: {sorted(files)}"
        seen.add("old" if files == OLD else "new")
        if finished:
            break
    else:
        pytest.fail("the write never finished: the steps were not all tried")
    # the kills fell before, during and after the move: readers saw both runs
    assert seen == {"old", "new"}
