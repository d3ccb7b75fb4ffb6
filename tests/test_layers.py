"""Imports run one way: each layer, and each floor of ``analyzer/gin``, imports only from
itself and the layers below (docs/architecture.md).

The layers, bottom up: ``core`` (with ``_version``, ``_kernel_cache`` and ``_startup``); the two games,
``gin`` and ``rummy``, which do not import each other; ``report`` and ``interop``; the
front doors ``cli``, ``web`` and ``api``.  ``cli`` may start the web app (``analyzer
serve``); ``web`` never imports ``cli``.  Inside ``gin`` the floors are, bottom up,
``model``, ``evaluator``, ``decisions``, ``engine``, ``play``, ``studies``.  The check is
on the syntax tree of every module, so imports inside functions count too; the package's
``__init__`` (lazy names for the notebook) is the one module outside the rule.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
GIN_FLOORS = ("model", "evaluator", "decisions", "engine", "play", "studies")
LAYERS = {
    "_version": 0,
    "_kernel_cache": 0,
    "_startup": 0,
    "core": 0,
    "gin": 1,
    "rummy": 1,
    "studies": 2,
    "interop": 2,
    "report": 3,
    "cli": 4,
    "web": 4,
    "api": 4,
    "__main__": 5,
}
#: Pairs of the same height that must not import each other (first may not import second).
APART = {
    ("gin", "rummy"),
    ("rummy", "gin"),
    ("studies", "interop"),
    ("interop", "studies"),
    ("web", "cli"),
    ("web", "api"),
    ("api", "cli"),
    ("api", "web"),
}


def height(module: str) -> tuple[str, float]:
    """(layer, height) of ``analyzer.x.y``: a gin floor sits a tenth above the one below."""
    parts = module.split(".")[1:]
    layer = parts[0]
    level = float(LAYERS[layer])
    if layer == "gin" and len(parts) > 1 and parts[1] in GIN_FLOORS:
        level += (1 + GIN_FLOORS.index(parts[1])) / 10
    return layer, level


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every ``analyzer`` import in the module at ``path``."""
    # the package a relative import starts from: a module's folder (an __init__'s too)
    package = list(path.relative_to(PACKAGE.parent).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # `from ..gin import studies` imports the module gin.studies
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.startswith("analyzer.")]


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        me = height(".".join(parts))
        for line, target in imports(path):
            other = height(target)
            if other[1] > me[1] or (me[0], other[0]) in APART:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    return found


def test_imports_run_one_way():
    assert violations() == []


def test_the_check_sees_an_upward_import(tmp_path, monkeypatch):
    floor = tmp_path / "analyzer" / "gin" / "model"
    floor.mkdir(parents=True)
    (floor / "rules.py").write_text("def f():\n    from ..play.hand import Hand\n")
    (tmp_path / "analyzer" / "__init__.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "analyzer")
    assert violations() == ["analyzer/gin/model/rules.py:2 imports analyzer.gin.play.hand.Hand"]


def module_graph() -> dict[str, set[str]]:
    """Each module of the package (a package by its ``__init__``) and the modules it
    imports, type-only imports and imports inside functions included."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        modules[".".join(parts)] = path

    def module_of(target: str) -> str | None:
        parts = target.split(".")
        for length in range(len(parts), 0, -1):  # `a.b.Name` is module a.b (or package a)
            if ".".join(parts[:length]) in modules:
                return ".".join(parts[:length])
        return None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _, target in imports(path):
            imported = module_of(target)
            if imported is not None and imported != name:
                graph[name].add(imported)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that import each other, directly or around a
    loop (the strongly connected components of ``graph``), each sorted."""
    reach = {name: _reachable(graph, name) for name in graph}
    groups = {
        tuple(sorted(other for other in reach[name] if name in reach[other])) for name in graph
    }
    return sorted(list(group) for group in groups if len(group) > 1)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


def test_no_module_imports_itself_around_a_loop():
    assert import_cycles(module_graph()) == []


def test_the_cycle_check_finds_a_loop_and_only_it():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"d2"}, "d2": {"c"}}
    assert import_cycles(graph) == [["a", "b"]]


#: The most lines a module of the package may have: a longer one does several jobs.
MAX_MODULE_LINES = 600


def test_no_module_is_over_six_hundred_lines():
    long = {
        str(path.relative_to(PACKAGE.parent)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


#: The front doors: they reach the evaluator through its checked wrappers
#: (:mod:`analyzer.gin.evaluator.api`), never through a bare kernel.
FRONT_DOORS = ("cli", "api", "web", "report")


def kernel_imports() -> list[str]:
    """``path:line name`` of every ``*_kernel`` a front-door module imports."""
    return [
        f"{path.relative_to(PACKAGE.parent)}:{line} {name.rsplit('.', 1)[1]}"
        for door in FRONT_DOORS
        for path in sorted((PACKAGE / door).rglob("*.py"))
        for line, name in imports(path)
        if name.endswith("_kernel")
    ]


def test_front_doors_call_checked_wrappers_not_kernels(tmp_path, monkeypatch):
    assert kernel_imports() == []
    door = tmp_path / "analyzer" / "web"
    door.mkdir(parents=True)
    (door / "page.py").write_text(
        "from ..gin.evaluator.partition import min_deadwood_kernel\n"
        "from ..gin.evaluator.api import min_deadwood\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "analyzer")
    assert kernel_imports() == ["analyzer/web/page.py:1 min_deadwood_kernel"]
