"""The documentation's examples are doctests: docs/api.md and the README's Python block."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["docs/api.md", "README.md"])
def test_documentation_examples_run(name: str) -> None:
    result = doctest.testfile(
        str(ROOT / name),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_the_license_the_package_declares_is_in_the_repository():
    declared = (ROOT / "pyproject.toml").read_text()
    assert 'license = { text = "MIT" }' in declared
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
