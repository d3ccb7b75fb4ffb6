"""The knock answer in a player's words: its chart, its text, its files and the command."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.core.stats import Estimate
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.gin.studies.answers import FAMILIES, AnswerLine, KnockAnswers
from analyzer.report.knock_answer import (
    ANSWERS_FOLDER,
    KNOCK,
    PLAY_ON,
    KnockAnswer,
    family_of,
    load_answers,
    stock_range,
)
from analyzer.report.when_to_knock import knock_answer, save_answers

ROBUST = (10, 10, 10, 0, 10, 10, 0, 0)


def _answers() -> KnockAnswers:
    """Answers as the report writes them (numbers made up, shapes real)."""
    lines = [
        AnswerLine(
            "unknown",
            ROBUST,
            "panel",
            Estimate(2.0, 1.5, 2.5, 800),
            Estimate(-1.0, -1.4, -0.6, 800),
            "search",
        ),
        AnswerLine(
            "knocks-at-once",
            (0,) * 8,
            "basic",
            Estimate(5.7, 4.8, 6.6, 800),
            Estimate(-2.0, -2.5, -1.5, 800),
            "search",
        ),
    ]
    members = pd.DataFrame(
        [
            {
                "answer": line.family,
                "member": member,
                "points": 1.0,
                "points_low": 0.5,
                "points_high": 1.5,
                "deals": 800,
            }
            for line in lines
            for member in ("basic", "search")
        ]
    )
    return KnockAnswers("standard", "expert", lines, members, 800)


def write_answers(folder) -> KnockAnswers:
    """``folder/when_to_knock`` as the report writes it, from :func:`_answers`."""
    answers = _answers()
    (folder / ANSWERS_FOLDER).mkdir(parents=True, exist_ok=True)
    answers.to_frame().to_csv(folder / ANSWERS_FOLDER / "answers.csv", index=False)
    answers.panel.to_csv(folder / ANSWERS_FOLDER / "panel.csv", index=False)
    (folder / ANSWERS_FOLDER / "meta.json").write_text(
        json.dumps({"command": "analyzer report", "seed": 5})
    )
    return answers


def test_the_answers_files_read_back_as_written(tmp_path):
    answers = write_answers(tmp_path)
    loaded = load_answers(tmp_path)
    assert loaded is not None
    assert loaded.lines == answers.lines
    assert loaded.deals == 800 and loaded.base == "expert"
    pd.testing.assert_frame_equal(loaded.panel, answers.panel)


def test_the_chart_says_knock_exactly_where_the_table_allows_it():
    answer = KnockAnswer("standard", "unknown", _answers().lines[0], "expert", 800, 5, "test", 7)
    chart = answer.chart()
    assert list(chart.columns) == ["1-3", "4-6", "7-9", "10+"]
    assert list(chart.index) == [
        "deadwood 0 (gin)",
        "deadwood 1-10",
        "if it took from the pile: deadwood 1-10",
    ]
    assert list(chart.loc["deadwood 0 (gin)"]) == [KNOCK] * 4
    assert list(chart.loc["deadwood 1-10"]) == [KNOCK, KNOCK, KNOCK, PLAY_ON]
    assert list(chart.loc["if it took from the pile: deadwood 1-10"]) == [
        KNOCK,
        KNOCK,
        PLAY_ON,
        PLAY_ON,
    ]


def test_deadwood_rows_split_at_every_threshold():
    line = AnswerLine(
        "x", (10, 6, 3, 0) * 2, "basic", Estimate(0, 0, 0, 1), Estimate(0, 0, 0, 1), "basic"
    )
    chart = KnockAnswer("standard", "basic", line, "expert", 1, 5, "test", 7).chart()
    # no pickup signal of its own: one block of rows
    assert list(chart.index) == [
        "deadwood 0 (gin)",
        "deadwood 1-3",
        "deadwood 4-6",
        "deadwood 7-10",
    ]
    assert list(chart.loc["deadwood 4-6"]) == [KNOCK, KNOCK, PLAY_ON, PLAY_ON]


def test_stock_ranges_follow_the_draws():
    # 31 cards after the deal and the upcard; on own turn n the first player has drawn
    # n cards and the opponent n - 1
    assert stock_range(1, 3) == "30-25"
    assert stock_range(10, 32) == "12 or fewer"


def test_the_text_names_rules_opponent_result_and_worst_case_within_100_columns():
    answer = KnockAnswer(
        "standard", "unknown", _answers().lines[0], "expert", 800, 5, "from a test", 7
    )
    text = answer.text()
    assert text.splitlines()[0] == (
        "When to knock · standard rules · against an opponent you know nothing about"
    )
    assert "Knock with 10 or less on turns 1-9, then only with gin from turn 10 on;" in text
    assert "Result: +2.00 ± 0.50 points per hand on average over the 7 test opponents." in text
    assert "Worst case: -1.00 ± 0.40 points per hand against `search`" in text
    assert max(len(line) for line in text.splitlines()) <= 100
    data = answer.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["text"] == text
    assert data["chart"]["rows"][1]["cells"] == [KNOCK, KNOCK, KNOCK, PLAY_ON]
    assert "<b>When to knock" in answer._repr_html_()


@pytest.mark.parametrize(
    ("opponent", "family"),
    [
        ("unknown", "unknown"),
        ("basic", "knocks-at-once"),
        ("marjj", "camper"),
        ("gin-hunter", "gin-hunter"),
    ],
)
def test_panel_members_name_their_family(opponent, family):
    assert family_of(opponent) == family
    assert family in FAMILIES


def test_the_committed_answer_is_read_not_computed(tmp_path):
    write_answers(tmp_path)
    answer = knock_answer("standard", "basic", results=tmp_path)
    assert answer.family == "knocks-at-once"
    assert answer.line.result.mean == 5.7
    assert str(tmp_path) in answer.source


def test_hollywood_reads_the_standard_answer_and_says_why(tmp_path):
    """Hollywood changes only how games are scored, so its hands are standard's: the
    standard answer, named as such, not a computed copy of it."""
    write_answers(tmp_path)
    answer = knock_answer("hollywood", "basic", results=tmp_path)
    standard = knock_answer("standard", "basic", results=tmp_path)
    assert answer.line == standard.line and answer.rules_name == "hollywood"
    assert "hollywood changes only how games are scored (hollywood=yes)" in answer.source
    assert "these are standard's answers" in answer.source
    assert "hollywood rules" in answer.title


def test_same_hands_means_equal_but_for_the_game_scoring_fields():
    assert RULE_PRESETS["hollywood"].same_hands(RULE_PRESETS["standard"])
    assert not RULE_PRESETS["classic"].same_hands(RULE_PRESETS["standard"])  # gin bonus
    assert not RULE_PRESETS["target150"].same_hands(RULE_PRESETS["standard"])  # read in hands
    assert RULE_PRESETS["eaai"].same_hands(RULE_PRESETS["eaai"].replace(shutout="double"))


def test_a_bad_opponent_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="nonsense"):
        knock_answer("standard", "nonsense")


def test_the_command_prints_the_committed_answer_and_its_json(tmp_path):
    from analyzer.cli.main import cli

    write_answers(tmp_path)
    result = CliRunner().invoke(cli, ["when-to-knock", "--results", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("When to knock · standard rules · against an opponent")
    result = CliRunner().invoke(
        cli,
        [
            "when-to-knock",
            "--results",
            str(tmp_path),
            "--opponent",
            "knocks-at-once",
            "--format",
            "json",
        ],
    )
    assert json.loads(result.output)["result"]["mean"] == 5.7


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "nonsense"], "nonsense"),
        (["--rules", "nonsense"], "nonsense"),
        (["--deals", "5"], "--deals"),
    ],
)
def test_the_command_rejects_bad_input_in_one_line(args, message):
    from analyzer.cli.main import cli

    result = CliRunner().invoke(cli, ["when-to-knock", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]


def test_the_rule_draws_as_a_titled_chart_and_prints_as_its_text():
    answer = KnockAnswer("standard", "unknown", _answers().lines[0], "expert", 800, 5, "test", 7)
    figure = answer.plot()
    # a long title wraps to the figure's width; a chart shows no Markdown code marks
    assert " ".join(figure._suptitle.get_text().split()) == answer.title.replace("`", "")
    assert "`" not in figure.texts[0].get_text()
    image = figure.axes[0].images[0].get_array()
    # deadwood 5 on own turn 8: knocks unless the opponent took from the pile (turns 7-9)
    assert image[5, 7] == 1 and image[0, 19] == 2 and image[5, 19] == 0
    assert repr(answer) == answer.text()


def test_answers_for_another_rules_preset_are_saved_and_read_back(tmp_path):
    """The answers of `when-to-knock --rules classic --out` live beside the report's, one
    folder per preset, and are read for that preset only."""
    answers = _answers()
    classic = KnockAnswers("classic", answers.base, answers.lines, answers.panel, answers.deals)
    folder = save_answers(tmp_path, classic, 9, "robust table from a test")
    assert folder == tmp_path / "when_to_knock_by_rules" / "classic"
    loaded = load_answers(tmp_path, "classic")
    assert loaded is not None and loaded.lines == classic.lines and loaded.rules_name == "classic"
    assert load_answers(tmp_path) is None  # the standard answers are the report's
    answer = knock_answer("classic", "knocks-at-once", results=tmp_path)
    assert answer.line.result.mean == 5.7 and answer.seed == 9
    assert "when_to_knock_by_rules/classic/answers.csv" in answer.source
    assert f"analyzer when-to-knock --rules classic --deals 800 --seed 9 --out {tmp_path}" in (
        answer.source
    )
    with pytest.raises(ValueError, match="analyzer report"):
        save_answers(tmp_path, answers, 9, "")


def test_the_command_will_not_write_the_reports_standard_answers(tmp_path):
    from analyzer.cli.main import cli

    result = CliRunner().invoke(cli, ["when-to-knock", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --out: the standard rules' answers are the report's ('analyzer report' writes them)"
    ]


def test_when_to_knock_out_writes_its_three_files_together_and_names_its_folder(
    tmp_path, monkeypatch
):
    """A failed `when-to-knock --out` left answers.csv without panel.csv and meta.json
    (a folder that later failed to read); meta.json named `--out results` whatever the
    folder was."""
    from analyzer.cli.main import cli
    from analyzer.report import when_to_knock as module

    answers = _answers()
    classic = KnockAnswers("classic", answers.base, answers.lines, answers.panel, answers.deals)
    monkeypatch.setattr(module, "compute_answers", lambda *args: (classic, "a test's table"))
    out = tmp_path / "my results"
    folder = out / "when_to_knock_by_rules" / "classic"
    (folder / "meta.json").mkdir(parents=True)  # its name taken: the last file fails
    args = ["when-to-knock", "--rules", "classic", "--out", str(out), "--no-progress"]
    failed = CliRunner().invoke(cli, args)
    assert failed.exit_code == 2
    assert failed.stderr.splitlines() == [f"Error: {folder / 'meta.json'}: Is a directory"]
    assert [path.name for path in folder.iterdir()] == ["meta.json"]
    (folder / "meta.json").rmdir()
    done = CliRunner().invoke(cli, [*args, "--opponent", "knocks-at-once"])
    assert done.exit_code == 0, done.output
    assert sorted(path.name for path in folder.iterdir()) == [
        "answers.csv",
        "meta.json",
        "panel.csv",
    ]
    command = json.loads((folder / "meta.json").read_text())["command"]
    assert command.endswith(f"--seed 2026 --out '{out}'")


def test_the_box_lists_the_answers_of_the_other_presets_and_what_is_missing():
    from analyzer.report.knock_box import other_presets_lines

    answers = _answers()
    classic = KnockAnswers("classic", answers.base, answers.lines, answers.panel, answers.deals)
    text = "\n".join(other_presets_lines({"classic": classic}))
    assert "| classic | unknown | Knock with 10 or less on turns 1-9" in text
    assert "+2.00 ± 0.50 (all)" in text and "+5.70 ± 0.90 v `basic`" in text
    assert "-1.00 ± 0.40 v `search`" in text
    assert text.endswith("Not computed yet: oklahoma, eaai.")


def _panel_tables(joins: bool, table: str) -> dict[str, pd.DataFrame]:
    convergence = pd.DataFrame(
        {
            "iteration": [1, 2],
            "best_response": ["search,budget=256", "lookahead"],
            "gain": [0.22, 0.4 if joins else -2.85],
            "gain_low": [0.05, 0.2 if joins else -3.37],
            "gain_high": [0.39, 0.6 if joins else -2.33],
            "joins": [True, joins],
        }
    )
    mixture = pd.DataFrame({"player": ["basic", "search,budget=256"], "weight": [0.0, 1.0]})
    answer = pd.DataFrame(
        [
            {
                "table": table,
                "points": -0.94,
                "points_low": -1.23,
                "points_high": -0.65,
                "deals": 2000,
            }
        ]
    )
    return {"convergence": convergence, "mixture": mixture, "answer": answer}


def test_the_box_gives_the_panel_equilibrium_and_whether_it_settled(tmp_path):
    from analyzer.report.knock_box import load_panel_equilibrium, panel_equilibrium_lines

    robust = (10, 10, 10, 0, 10, 10, 0, 0)
    settled = "\n".join(
        panel_equilibrium_lines(_panel_tables(False, "10/10/10/0 alert 10/10/0/0"), robust)
    )
    assert "settles on `search,budget=256` 100%" in settled and "`basic`" not in settled
    assert "no response found beyond it gains on it" in settled and "-2.85 ± 0.52" in settled
    assert "is the robust rule itself, at -0.94 ± 0.29 points per hand" in settled
    assert "2,000 held-out deals" in settled
    open_ended = "\n".join(panel_equilibrium_lines(_panel_tables(True, "10/0/0/0"), robust))
    assert "after 2 iterations the strongest response found, `lookahead`, still gains" in open_ended
    assert "is `10/0/0/0`" in open_ended
    assert load_panel_equilibrium(tmp_path, "standard") is None
    folder = tmp_path / "panel_equilibrium"
    folder.mkdir()
    for part, frame in _panel_tables(False, "10/0/0/0").items():
        frame.to_csv(folder / f"standard_{part}.csv", index=False)
    loaded = load_panel_equilibrium(tmp_path, "standard")
    assert loaded is not None
    assert list(loaded["mixture"]["player"]) == ["basic", "search,budget=256"]


def test_the_box_tables_the_other_presets_panel_equilibria_beside_their_rules():
    from analyzer.report.knock_box import other_panel_equilibria_lines

    answers = _answers()
    classic = KnockAnswers("classic", answers.base, answers.lines, answers.panel, answers.deals)
    assert other_panel_equilibria_lines({}, {"classic": classic}) == []
    equilibria = {
        "classic": _panel_tables(False, "10/10/10/0 alert 10/10/0/0"),  # ROBUST
        "eaai": _panel_tables(True, "10/0/0/0"),
    }
    text = "\n".join(other_panel_equilibria_lines(equilibria, {"classic": classic}))
    rows = [line for line in text.splitlines() if line.startswith(("| classic", "| eaai"))]
    assert len(rows) == 2
    classic_row, eaai_row = rows
    assert "`search,budget=256` 100%" in classic_row and "-0.94 ± 0.29" in classic_row
    assert "no response found beyond it gains on it" in classic_row
    assert classic_row.rstrip(" |").endswith("same")
    assert "`lookahead`, still gains +0.40 ± 0.20" in eaai_row
    assert "`10/0/0/0`" in eaai_row and eaai_row.rstrip(" |").endswith("not computed")
