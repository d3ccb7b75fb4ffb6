"""Compiled-once kernels (analyzer/core/linking.py): their callers call their machine code
instead of linking a copy, and numba's cache still serves every kernel in any order."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from analyzer.core import linking

# a compiled-once leaf, a plain kernel calling it and a kernel calling that one, cached
KERNELS = """
import numpy as np
from numba import njit
from analyzer.core.linking import compiled_once


@compiled_once
@njit(cache=True)
def leaf(values, rules):
    total = np.int64(0)
    for value in values:
        total += value * rules[0]
    return total


@njit(cache=True)
def middle(values, rules):
    return leaf(values, rules) + 1


@njit(cache=True)
def top(values, rules):
    values[0] += 1
    return middle(values, rules) * 2
"""

# each line calls one kernel in a fresh process and prints what it returned and whether
# numba compiled anything (no compile: every kernel came from the cache)
PROBE = """
import json, sys
import numpy as np
from numba.core import event
import kernels
compiled = []
class Seen(event.Listener):
    def on_start(self, event):
        compiled.append(event)
    def on_end(self, event):
        pass
event.register("numba:compile", Seen())
out = []
for name in sys.argv[1:]:
    out.append(int(getattr(kernels, name)(np.arange(4, dtype=np.int64), np.array([3]))))
print(json.dumps({"values": out, "compiled": len(compiled) > 0}))
"""


def _run(folder: Path, *names: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(folder)}
    env["PYTHONPATH"] += os.pathsep + str(Path(linking.__file__).parents[2])
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *names],
        cwd=folder,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_numba_is_compiled_by_linking():
    assert linking.INSTALLED  # the numba this package runs on has the internals it needs


def test_a_caller_calls_a_compiled_once_function_and_holds_no_copy(tmp_path):
    folder = tmp_path
    (folder / "kernels.py").write_text(KERNELS)
    sys.path.insert(0, str(folder))
    try:
        import kernels  # written by this test

        values, rules = np.arange(4, dtype=np.int64), np.array([3])
        assert kernels.top(values, rules) == 2 * (3 * (1 + 1 + 2 + 3) + 1)
        library = kernels.top.overloads[kernels.top.signatures[0]].library
        defined = {f.name for f in library._final_module.functions if not f.is_declaration}
        stem = linking._stem(kernels.leaf.py_func)
        assert not any(name.startswith(stem) for name in defined)  # a declaration only
        assert [part[0] for part in library.parts.values()] == ["leaf"]
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("kernels", None)


@pytest.mark.parametrize(
    "order",
    [("top", "leaf", "middle"), ("leaf", "top", "middle"), ("middle", "top")],
    ids=lambda order: "-".join(order),
)
def test_the_cache_serves_every_kernel_in_any_order(tmp_path, order):
    """A cached caller carries the compiled-once code it calls: a fresh process loads it
    from the cache before or after the callee's own entry, and compiles nothing."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    expected = {"top": 2 * (3 * 7 + 1), "middle": 3 * 6 + 1, "leaf": 3 * 6}
    first = _run(tmp_path, *order)
    assert first == {"values": [expected[name] for name in order], "compiled": True}
    again = _run(tmp_path, *order)
    assert again == {"values": first["values"], "compiled": False}


def test_python_calls_a_kernel_through_its_unoptimised_wrapper():
    @njit
    def add(values, rules):
        return values[0] + rules[0]

    assert add(np.array([2]), np.array([5])) == 7
    library = add.overloads[add.signatures[0]].library
    wrappers = [
        f
        for f in library._final_module.functions
        if f.name.startswith("_ZN7cpython") and not f.is_declaration
    ]
    assert wrappers and all("optnone" in str(f) for f in wrappers)
    assert not any(f.name.startswith("cfunc.") for f in library._final_module.functions)


def _written_parameters(tree: ast.AST, names: set[str]) -> list[str]:
    """``function: parameter`` for each parameter in ``names`` that a kernel (an
    ``@njit`` function) of ``tree`` writes into (``name[...] = ...``, ``+=``) or rebinds."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or not any(
            "njit" in ast.unparse(decorator) for decorator in function.decorator_list
        ):
            continue
        parameters = {a.arg for a in function.args.args} & names
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            else:
                continue
            for target in targets:
                for part in ast.walk(target):
                    base = part.value if isinstance(part, ast.Subscript) else part
                    if isinstance(base, ast.Name) and base.id in parameters:
                        found.append(f"{function.name}: {base.id}")
    return found


def test_the_rules_and_policy_rows_are_read_only_to_every_kernel():
    """What marking their data ``noalias`` relies on: no kernel of the compute layers
    writes into (or rebinds) a parameter named ``rules``, ``policies``, ``policy`` or
    ``model``; a kernel that needs another row writes a local array (``play_on``)."""
    root = Path(linking.__file__).parents[1]
    names = {name.split(".")[1] for name in linking._READ_ONLY_DATA}
    assert names == {"rules", "policies", "policy", "model"}
    written = [
        f"{path.relative_to(root)}: {where}"
        for package in ("core", "gin", "rummy")
        for path in sorted((root / package).rglob("*.py"))
        for where in _written_parameters(ast.parse(path.read_text()), names)
    ]
    assert written == []


def test_an_unexpected_numba_is_left_as_it_is(monkeypatch):
    from numba.core.registry import cpu_target

    codegen = cpu_target.target_context.codegen()
    monkeypatch.setattr(codegen, "_library_class", object)
    assert linking.install() is False
    assert codegen._library_class is object
