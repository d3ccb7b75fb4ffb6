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
}


def slot_writes(source: str) -> list[int]:
    """Line numbers of the assignments to ``something[...Slot...]`` in ``source``."""
    tree = ast.parse(source)
    names = {"Slot"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.asname for alias in node.names if alias.name == "Slot" and alias.asname}

    def names_slot(index: ast.AST) -> bool:
        return any(
            (isinstance(n, ast.Name) and n.id in names)
            or (isinstance(n, ast.Attribute) and n.attr == "Slot")
            for n in ast.walk(index)
        )

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
            for part in ast.walk(target)
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
