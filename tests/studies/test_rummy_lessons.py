"""How to play plain rummy and the rule options valued with rummy-expert
(``analyzer rummy how-to-play``, ``analyzer rummy options``): the words follow the
numbers, an answer reads the same saved and loaded, and every door reads the answer kept
for the rules preset and number of players in a few seconds, computing nothing."""

from __future__ import annotations

import json
import re
import time

import pandas as pd
import pytest
from click.testing import CliRunner

import analyzer as az
from analyzer.cli.main import cli
from analyzer.studies.answer import Answer, kept_folder, run
from analyzer.studies.inputs import make_inputs
from analyzer.studies.registry import STUDIES
from analyzer.studies.rummy_lessons import EXPERT, principle_line, status
from analyzer.studies.text import CI_NOTE

DEALS = 60
PLUS_MINUS = r"[+-]\d+\.\d\d ± \d+\.\d\d"


def fresh(name: str, **values) -> Answer:
    study = STUDIES[name]
    return run(study, make_inputs(study, {"deals": DEALS, **values}, seed=7))


@pytest.fixture(scope="module")
def answers():
    """Tiny answers of both studies (how to play at two and four players)."""
    return {
        ("rummy how-to-play", 2): fresh("rummy how-to-play"),
        ("rummy how-to-play", 4): fresh("rummy how-to-play", players=4),
        ("rummy options", 2): fresh("rummy options"),
    }


@pytest.fixture(scope="module")
def results(answers, tmp_path_factory):
    """A report folder keeping the answers where the studies look for them."""
    folder = tmp_path_factory.mktemp("report") / "results"
    for (name, players), answer in answers.items():
        study = STUDIES[name]
        answer.save(folder / kept_folder(study, make_inputs(study, {"players": players})))
    return folder


def _row(worth: float, low: float, high: float, opponent: str) -> dict:
    return {
        "opponent": opponent,
        "expert_does": "hold melds for Rummy while no opponent is close to going out",
        "instead": "lay every meld down at once",
        "worth": worth,
        "worth_lo": low,
        "worth_hi": high,
    }


def test_the_words_follow_the_confidence_intervals():
    rows = pd.DataFrame([_row(1.0, 0.2, 1.8, EXPERT), _row(-0.5, -0.9, -0.1, "simple")])
    assert [status(row) for _, row in rows.iterrows()] == ["pays", "costs"]
    line = principle_line(rows.iloc[0], [EXPERT, "simple"], rows)
    assert line == (
        "Hold melds for Rummy while no opponent is close to going out, rather than lay every "
        "meld down at once: +1.00 ± 0.80 against itself, -0.50 ± 0.40 against simple; it pays "
        "against itself; the simple rule does better against simple."
    )
    both = pd.DataFrame([_row(0.3, -0.1, 0.7, EXPERT), _row(0.0, 0.0, 0.0, "simple")])
    assert principle_line(both.iloc[0], [EXPERT, "simple"], both).endswith(
        "; no measurable worth against itself; the expert plays as the rule against simple."
    )


@pytest.mark.parametrize("key", [("rummy how-to-play", 2), ("rummy options", 2)])
def test_an_answer_reads_the_same_saved_and_loaded(answers, key, tmp_path):
    answer = answers[key]
    loaded = Answer.load(answer.save(tmp_path / "answer"))
    # the text says where the answer came from: now, or the folder it was read from
    assert "Source: computed now." in answer.text() and "Source: computed now." not in loaded.text()
    assert _sourceless(answer) == _sourceless(loaded)
    assert loaded.title == answer.title and loaded.verdict == answer.verdict
    assert loaded.chart == answer.chart and loaded.chart is not None
    same = {k: v for k, v in answer.to_dict().items() if k not in ("source", "text")}
    assert {k: v for k, v in loaded.to_dict().items() if k not in ("source", "text")} == same
    for name, table in answer.tables.items():
        pd.testing.assert_frame_equal(loaded[name], table, check_dtype=False)


def _sourceless(answer: Answer) -> str:
    text = answer.text()
    start = text.index("Source: ")
    return text[:start] + text[text.index(CI_NOTE) :]


def test_how_to_play_answers_each_question_with_figures(answers):
    answer = answers["rummy how-to-play", 2]
    text = answer.text()
    for heading in (
        "When to meld and when to hold for Rummy",
        "What to throw",
        "When to lay off",
        "How the number of players changes this",
    ):
        assert f"\n{heading}\n" in text
    assert len(re.findall(PLUS_MINUS, text)) >= 3
    assert max(len(line) for line in text.splitlines()) <= 100
    data = answer.to_dict()
    assert data["panel"] == [EXPERT, "simple"]
    assert {row["players"] for row in data["by_players"]} == {2, 3, 4, 5, 6}
    assert {row["players"] for row in data["principles"]} == {2}
    for row in data["principles"] + data["expert"]:
        low, high = ("worth_lo", "worth_hi") if "worth" in row else ("margin_lo", "margin_hi")
        assert row[low] <= row["worth" if "worth" in row else "margin"] <= row[high]


def test_the_options_answer_says_who_wins_and_what_pays(answers):
    answer = answers["rummy options", 2]
    text = answer.text()
    edges = answer["edges"]
    standard = edges[edges["option"] == "standard rules"].iloc[0]
    assert (standard.edge_change, standard.edge_change_lo, standard.edge_change_hi) == (0, 0, 0)
    for option, fields in zip(edges["option"][1:], edges["fields"][1:], strict=True):
        assert f"\n{option.capitalize()} ({fields})\n" in text
    starts = [line.lstrip()[:9] for line in text.splitlines()]
    # the standard rules' answer is one line; every option says who wins, then what pays
    assert starts.count("Who wins:") == len(edges)
    assert starts.count("What pays") == len(edges) - 1
    worth = answer["worth"]
    base = worth[worth["option"] == "standard rules"]
    assert (base.worth_change == 0).all()
    assert max(len(line) for line in text.splitlines()) <= 100


def test_every_door_reads_the_kept_answer_for_the_players(answers, results, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a kept answer was computed")

    monkeypatch.setattr("analyzer.cli.study_commands.run", refuse)
    monkeypatch.setattr("analyzer.api.study_functions.run", refuse)
    for players in (2, 4):
        started = time.perf_counter()
        printed = CliRunner().invoke(
            cli, ["rummy", "how-to-play", "--players", str(players), "--results", str(results)]
        )
        assert printed.exit_code == 0, printed.output
        assert time.perf_counter() - started < 60  # a read, however loaded the machine
        assert f"rummy_how_to_play/standard-{players}-players" in printed.output
        notebook = az.rummy_how_to_play(players=players, results=str(results))
        assert notebook.text() == printed.output.rstrip("\n")
        assert f"· {players} players ·" in notebook.title
    data = json.loads(
        CliRunner().invoke(cli, ["rummy", "options", "--results", str(results), "--json"]).output
    )
    assert data["source"].startswith(f"{results}/rummy_options/standard-2-players")
    assert data["options"][0]["option"] == "standard rules"


def test_a_run_of_ones_own_or_an_answer_not_kept_is_refused_in_one_line(results):
    for args, message in (
        (["--players", "3"], "keeps no rummy how-to-play answer for the standard rules, players 3"),
        (["--deals", "500"], "deals ask for a run of your own"),
        (["--rules", "seed004"], "for the seed004 rules"),
    ):
        result = CliRunner().invoke(cli, ["rummy", "how-to-play", "--results", str(results), *args])
        assert result.exit_code == 2, result.output
        assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_a_stopped_run_ends_in_one_line_and_writes_nothing(tmp_path, monkeypatch):
    """Ctrl-C while how-to-play computes: exit status 130, ``Error: interrupted``, and
    --out left as it was (nothing saved)."""
    from analyzer.core import chunks

    def stop_at_once(plan, start):
        raise KeyboardInterrupt
        yield  # a generator, like the real one

    monkeypatch.setattr(chunks, "_results_in_process", stop_at_once)
    out = tmp_path / "answer"
    result = CliRunner().invoke(
        cli, ["rummy", "how-to-play", "--deals", "60", "--out", str(out), "--no-progress"]
    )
    assert result.exit_code == 130
    assert result.stderr.strip() == "Error: interrupted"
    assert not out.exists()


@pytest.mark.parametrize(
    ("command", "folder"),
    [
        (["how-to-play"], "rummy_how_to_play/standard-2-players"),
        (["how-to-play", "--players", "4"], "rummy_how_to_play/standard-4-players"),
        (["options"], "rummy_options/standard-2-players"),
        (["options", "--players", "4"], "rummy_options/standard-4-players"),
    ],
)
def test_the_committed_answers_are_read_not_computed(command, folder, monkeypatch):
    """The answers committed in results/ are this version's (read whole, their tables
    checked) and print at once with their figures as x ± h."""
    from pathlib import Path

    def refuse(*args, **kwargs):
        raise AssertionError("a kept answer was computed")

    monkeypatch.setattr("analyzer.cli.study_commands.run", refuse)
    results = Path(__file__).resolve().parents[2] / "results"
    printed = CliRunner().invoke(cli, ["rummy", *command, "--results", str(results)])
    assert printed.exit_code == 0, printed.output
    assert folder in printed.output and "20,000 deals per run · seed 2026" in printed.output
    assert len(re.findall(PLUS_MINUS, printed.output)) >= 3
