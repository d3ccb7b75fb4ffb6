"""Where the committed report lives: one place that the CLI, the notebook API and the web
app ask, so that all three read the same folder and none guesses from the package's own
place on disk.

The folders tried, in order: the one the caller names; ``$ANALYZER_RESULTS``; ``results``
in the current folder; ``results`` in the project an editable install was made from (the
install's own record, PEP 610 ``direct_url.json``, names that folder; a plain install
carries no report and finds none there).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

#: The environment variable naming the report folder to read.
RESULTS_VARIABLE = "ANALYZER_RESULTS"
#: The report folder's name in a project, and the default of every ``--results``.
RESULTS_NAME = "results"
#: The distribution whose install record names the project it was installed from.
DISTRIBUTION = "rummy-analyzer"


@dataclass(frozen=True)
class Candidate:
    """A folder the committed report may be in, and where its name came from."""

    path: Path
    origin: str
    """How a sentence names it, e.g. "results in the current folder"."""
    kind: str
    """Which rule found it: "given", "variable", "current" or "project"."""


def install_project() -> Path | None:
    """The project folder an editable install of the analyzer was made from, as the
    install's record says (``direct_url.json``); None for a plain install, or none."""
    # a source tree on sys.path shows its egg-info too, which has no record: skip it
    records = (d.read_text("direct_url.json") for d in metadata.distributions(name=DISTRIBUTION))
    record = next((text for text in records if text), None)
    if record is None:
        return None
    try:
        url = json.loads(record)
    except json.JSONDecodeError:
        return None
    if not isinstance(url, dict) or not url.get("dir_info", {}).get("editable"):
        return None
    parsed = urlparse(str(url.get("url", "")))
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def candidates(requested: Path | None = None) -> list[Candidate]:
    """The folders to look in for the report, in order (see the module's docstring).
    ``requested``: an absolute folder is the only candidate; a relative one is looked
    for in the current and the project folder, after ``$ANALYZER_RESULTS`` when it is
    the default name ``results``."""
    if requested is not None and requested.is_absolute():
        return [Candidate(requested, f"the folder given ({requested.as_posix()})", "given")]
    name = RESULTS_NAME if requested is None else requested.as_posix()
    found = []
    named = os.environ.get(RESULTS_VARIABLE)
    if named and name == RESULTS_NAME:
        found.append(Candidate(Path(named), f"${RESULTS_VARIABLE} ({named})", "variable"))
    found.append(Candidate(Path.cwd() / name, f"{name} in the current folder", "current"))
    project = install_project()
    if project is not None:
        found.append(
            Candidate(project / name, f"{name} in the analyzer's project folder", "project")
        )
    return found


def find_report(holding: str = "", requested: Path | None = None) -> Candidate | None:
    """The first folder of :func:`candidates` that holds ``holding`` (a path inside the
    report folder; the folder itself by default); None when none does."""
    for candidate in candidates(requested):
        if (candidate.path / holding).exists():
            return candidate
    return None


def looked_in(requested: Path | None = None) -> str:
    """The folders :func:`find_report` tries, for an error or a page."""
    return ", ".join(candidate.origin for candidate in candidates(requested))


__all__ = [
    "RESULTS_NAME",
    "RESULTS_VARIABLE",
    "Candidate",
    "candidates",
    "find_report",
    "install_project",
    "looked_in",
]
