"""No module outside the engine writes a ``Slot`` of the hand state array.

The state array (:mod:`analyzer.gin.model.state`) carries the hands, the pile and the turn, and
also what each player knows (cards taken, thrown, held and refused, the discard log, the
scores, the rules' bonuses, the turn counters).  Those knowledge slots stay right only if
every move goes through the engine's kernels, so everything else -- the web table, the
EAAI and OpenSpiel bridges, the replay, the advisor's position builder, the CLI and the
API -- builds and plays hands through :class:`analyzer.gin.play.hand.Hand` and reads the state
at most.

The engine, the modules allowed to assign ``state[Slot...]``:

* ``gin/model/state.py``, ``gin/engine/transitions.py`` and ``gin/model/knowledge.py``: the layout, the kernels of
  a hand (deal, seat view, described position, draw, discard, knock) and the knowledge
  notes they make;
* ``gin/play/hand.py``: the Python face of those kernels (it calls them; its one write,
  in ``Hand.show_knock``, shows a seat view the opponent's cards at a knock);
* the numba kernel modules that run inside simulations and searches on states the
  engine made: the policies' kernels (``choose``, ``expert``, ``marjj``, ``inference``), the search
  player and its sampled deals (``search``, ``sampling``: they fill a determinized
  state's hidden cards), the simulation drivers (``simulate``, ``multiplayer``) and the
  calibration of the opponent model (``calibration``).

Plain rummy's state array (:mod:`analyzer.rummy.state`) is written only by its moves
(``rummy/transitions.py``) and the engine that drives them (``rummy/engine.py``).

The check is on the syntax tree: an assignment (plain, augmented or annotated, tuple
targets included) to a subscript whose index names ``Slot`` (or an alias it was
imported as).  An index computed into a variable first is not seen; keep slot arithmetic
inside the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analyzer"
ENGINE = {
    f"analyzer/gin/{name}.py"
    for name in (
        "model/state",
        "engine/transitions",
        "model/knowledge",
        "play/hand",
        "decisions/choose",
        "decisions/expert",
        "decisions/marjj",
        "decisions/inference",
        "play/search",
        "decisions/sampling",
        "play/simulate",
        "play/multiplayer",
        "studies/calibration",
    )
} | {f"analyzer/rummy/{name}.py" for name in ("state", "transitions", "engine")}


def slot_writes(source: str) -> list[int]:
    """Line numbers of the assignments to ``something[...Slot...]`` in ``source``."""
    tree = ast.parse(source)
    names = {"Slot"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.asname for alias in node.names if alias.name == "Slot" and alias.asname}

    def names_slot(index: ast.AST) -> bool:
        """Whether ``index`` names ``Slot`` itself, not only inside a subscript it reads
        (``scores[state[Slot.WINNER]] += points`` writes the scores, not the state)."""
        if isinstance(index, ast.Subscript):
            return False
        if (isinstance(index, ast.Name) and index.id in names) or (
            isinstance(index, ast.Attribute) and index.attr == "Slot"
        ):
            return True
        return any(names_slot(child) for child in ast.iter_child_nodes(index))

    def assigned(target: ast.AST) -> list[ast.AST]:
        """What ``target`` assigns: itself, or each part of a tuple or list of targets."""
        if isinstance(target, (ast.Tuple, ast.List)):
            return [part for element in target.elts for part in assigned(element)]
        if isinstance(target, ast.Starred):
            return assigned(target.value)
        return [target]

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        if any(
            isinstance(part, ast.Subscript) and names_slot(part.slice)
            for target in targets
            for part in assigned(target)
        ):
            lines.append(node.lineno)
    return lines


def test_the_check_sees_every_form_of_write():
    source = """
from analyzer.gin.model.state import Slot as S
from analyzer.gin.engine import transitions as engine
state[Slot.SCORE] = 1
state[Slot.HAND + seat] |= 2
state[Slot.PILE:Slot.PILE + n] = pile
a, state[S.TURN] = 1, 0
state[engine.Slot.PHASE]: int = 3
x = state[Slot.TURN]
other[3] = state[Slot.DEALER]
scores[state[Slot.WINNER]] += 5
"""
    assert slot_writes(source) == [4, 5, 6, 7, 8]


def test_no_module_outside_the_engine_writes_a_slot():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name in ENGINE:
            continue
        found += [f"{name}:{line}" for line in slot_writes(path.read_text())]
    assert not found, (
        "outside the engine, state slots are written at "
        f"{', '.join(found)}: play moves through analyzer.gin.play.hand.Hand "
        "(or add a kernel to the engine)"
    )


def test_the_engine_list_names_existing_modules():
    for name in ENGINE:
        assert (ROOT / name).is_file(), name
