"""The numba cache cannot go stale: an edit to a callee in another module reaches a cached
caller at the next run (numba's own cache keys a kernel on its own file only)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import analyzer
from analyzer._kernel_cache import kernel_modules, source_hash

# _random_hand (gin/evaluator/dealt.py, cache=True) compiles in next_below and next_u64 from
# core/rng.py; the edit below changes the stream's step, so the hand drawn changes.
PROBE = """
import json, numpy as np, analyzer, numba
from analyzer.gin.evaluator.dealt import _random_hand
state = np.array([12345], dtype=np.uint64)
print(json.dumps({"hand": int(_random_hand(state, 10)), "file": analyzer.__file__,
                  "cache": numba.config.CACHE_DIR}))
"""


def _run(root: Path, cache: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_editing_a_callee_in_another_module_reaches_the_cached_caller(tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(
        Path(analyzer.__file__).parent,
        root / "analyzer",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    cache = tmp_path / "cache"
    first = _run(root, cache)
    assert Path(first["file"]).is_relative_to(root)
    assert Path(first["cache"]).parent == cache
    assert list(Path(first["cache"]).rglob("*.nbi")), "the kernel was not cached"
    assert _run(root, cache) == first  # unchanged sources: the same folder, reused

    rng = root / "analyzer" / "core" / "rng.py"
    text = rng.read_text()
    step = "state[0] += _GOLDEN\n"
    assert step in text
    rng.write_text(text.replace(step, "state[0] += _GOLDEN + np.uint64(2)\n"))
    edited = _run(root, cache)
    assert edited["cache"] != first["cache"]
    assert edited["hand"] != first["hand"]
    # and it is what a cold compilation of the edited sources gives
    assert _run(root, tmp_path / "cold")["hand"] == edited["hand"]


def test_the_hash_follows_the_modules_kernels_are_made_of(tmp_path):
    root = tmp_path / "analyzer"
    shutil.copytree(
        Path(analyzer.__file__).parent, root, ignore=shutil.ignore_patterns("__pycache__")
    )
    before = source_hash(root)
    for outside in ("cli/main.py", "gin/studies/answers.py", "gin/studies/knocking.py"):
        path = root / outside
        path.write_text(path.read_text() + "\n# an edit outside the kernels compiles nothing\n")
        assert source_hash(root) == before, outside
    # a kernel's own module, and a module whose constants kernels read
    for inside in ("gin/engine/transitions.py", "rummy/rules.py"):
        path = root / inside
        text = path.read_text()
        path.write_text(text + "\n# an edit inside\n")
        assert source_hash(root) != before, inside
        path.write_text(text)
    assert source_hash(root) == before


def test_the_kernel_modules_are_found_from_the_code():
    root = Path(analyzer.__file__).parent
    found = {path.relative_to(root).as_posix() for path in kernel_modules(root)}
    defining = {
        path.relative_to(root).as_posix()
        for package in ("core", "gin", "rummy")
        for path in (root / package).rglob("*.py")
        if "@njit" in path.read_text()
    }
    assert defining <= found
    # what they import when loaded comes with them (the engine reads the rules' fields)
    assert {"gin/model/rules.py", "core/rng.py", "gin/model/policy_fields.py"} <= found
    # a pandas study is no part of any kernel
    assert not {"gin/studies/answers.py", "gin/studies/knocking.py"} & found
