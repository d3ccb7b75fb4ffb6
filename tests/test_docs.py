"""The documentation: its examples are doctests (docs/api.md and the README's Python
block), the README stays short with the two set-up commands, and every relative link
of the README and docs/ leads somewhere."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: ``[text](target)`` with a relative target (``path``, ``path#anchor`` or ``#anchor``).
LINK = re.compile(r"\]\((?!https?://)([^)\s]*)\)")


@pytest.mark.parametrize("name", ["docs/api.md", "README.md"])
def test_documentation_examples_run(name: str) -> None:
    result = doctest.testfile(
        str(ROOT / name),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_the_readme_is_short_and_opens_with_the_two_set_up_commands():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 300
    set_up = text[text.index("\n## ") :]
    assert set_up.startswith("\n## Set-up\n")  # the first section a reader finds
    set_up = set_up[: set_up.index("\n## ", 1)]
    commands = [line for line in set_up.splitlines() if line.startswith("pip ")]
    # .ci/run runs the second command as written (with pytest's report of the slowest tests)
    assert commands == ["pip install -e . && analyzer report", "pip install -e '.[test]' && pytest"]
    assert f"{commands[1]} --durations=25" in (ROOT / ".ci" / "run").read_text().splitlines()


def anchors(document: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in re.findall(r"^#+ (.*)$", document.read_text(), re.MULTILINE)
    }


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_leads_to_a_file_and_heading(document: Path) -> None:
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.DOTALL)
    for target in LINK.findall(text):
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.exists(), (document.name, target)
        if anchor:
            assert anchor in anchors(linked), (document.name, target)


def test_the_license_the_package_declares_is_in_the_repository():
    declared = (ROOT / "pyproject.toml").read_text()
    assert 'license = { text = "MIT" }' in declared
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
