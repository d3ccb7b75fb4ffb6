"""The results store: which folder the CLI, the notebook API and the web app read."""

import json
from importlib import metadata
from pathlib import Path

from analyzer.studies import store

ROOT = Path(__file__).resolve().parents[2]


class _Record:
    """A distribution whose install record is ``text`` (None: it has none)."""

    def __init__(self, text):
        self.text = text

    def read_text(self, name):
        assert name == "direct_url.json"
        return self.text


def _installed(monkeypatch, *records):
    monkeypatch.setattr(metadata, "distributions", lambda name: [_Record(r) for r in records])


def test_the_editable_install_names_its_project_folder(monkeypatch):
    # the test suite runs from an editable install of this project (the README's command)
    assert store.install_project() == ROOT
    editable = {"url": "file:///some/where%20else", "dir_info": {"editable": True}}
    _installed(monkeypatch, None, json.dumps(editable))  # a source tree's egg-info first
    assert store.install_project() == Path("/some/where else")


def test_a_plain_or_unreadable_install_names_no_project(monkeypatch):
    for record in (
        json.dumps({"url": "file:///w", "dir_info": {}}),
        json.dumps({"url": "https://example.org/a.whl", "dir_info": {"editable": True}}),
        "{not json",
    ):
        _installed(monkeypatch, record)
        assert store.install_project() is None
    _installed(monkeypatch)
    assert store.install_project() is None


def test_the_folders_are_tried_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(store.RESULTS_VARIABLE, raising=False)
    holding = "when_to_knock/standard/meta.json"
    # nothing here: the project's committed report
    found = store.find_report(holding)
    assert found is not None and found.kind == "project" and found.path == ROOT / "results"
    # a report in the current folder comes first
    (tmp_path / "results" / "when_to_knock" / "standard").mkdir(parents=True)
    (tmp_path / "results" / holding).write_text("x")
    found = store.find_report(holding)
    assert found is not None and (found.kind, found.path) == ("current", tmp_path / "results")
    # the variable's folder before both
    other = tmp_path / "other"
    (other / "when_to_knock" / "standard").mkdir(parents=True)
    (other / holding).write_text("x")
    monkeypatch.setenv(store.RESULTS_VARIABLE, str(other))
    found = store.find_report(holding)
    assert found is not None and (found.kind, found.path) == ("variable", other)
    # the variable stands for the default name only; an absolute folder is all there is
    assert store.find_report(requested=Path("results")).kind == "variable"
    assert [c.kind for c in store.candidates(Path("mine"))] == ["current", "project"]
    assert [c.kind for c in store.candidates(tmp_path)] == ["given"]
    assert store.find_report(requested=tmp_path / "none") is None


def test_where_it_looked_is_said_in_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(store.RESULTS_VARIABLE, "/r")
    assert store.looked_in() == (
        "$ANALYZER_RESULTS (/r), results in the current folder, "
        "results in the analyzer's project folder"
    )
