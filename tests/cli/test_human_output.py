"""What a person reads: every command's table output opens with a title line (rules,
who plays whom, deals, seed) and ends with a verdict sentence, writes every CI as
``x ± h``, and fits 100 columns; --format csv and json give the same raw rows."""

from __future__ import annotations

import io
import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.main import COMMANDS, cli
from analyzer.cli.output import show_result
from analyzer.cli.progress import MAX_WIDTH
from analyzer.report.advice import advice_table
from analyzer.report.explain import plain_text
from analyzer.studies.text import plus_minus, table_lines

from .test_command_output import TINY

#: Commands that print a study's result (lookups and replay print facts, not estimates).
STUDIES = sorted(set(TINY) - {"deadwood", "rules", "policies", "replay"})
#: Study commands whose output is not a title, a table and a verdict, and why.
NOT_TABLES = {
    "guide": "one screen of text: a title, three numbered questions with their rules and "
    "gains, and the answers they come from (test_the_guide_is_a_title_three_questions_"
    "and_their_sources)",
}
#: Ways of writing a CI that the human output no longer uses.
OTHER_CI_STYLES = re.compile(r"ci95|_low|_high|_lo\b|_hi\b|\bse\b|± half|\[[-+]?\d+\.\d+, ")


def invoke(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", [name for name in STUDIES if name not in NOT_TABLES])
def test_title_table_and_verdict(name):
    text = invoke(TINY[name])
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= MAX_WIDTH, text
    assert (" · " in lines[0] and lines[1].startswith("  ")) or lines[1] == "", text
    if name != "exact":  # an enumeration has no seed
        assert "seed" in " ".join(lines[:2]), text
    verdict = text.strip().split("\n\n")[-1]
    assert verdict.rstrip().endswith("."), text
    assert not OTHER_CI_STYLES.search(text), text
    if " ± " in text:
        assert "x ± h: the estimate x and the half-width h of its 95% confidence interval." in text


@pytest.mark.parametrize("name", STUDIES)
def test_csv_and_json_give_the_same_raw_data(name):
    rows = pd.read_csv(io.StringIO(invoke([*TINY[name], "--format", "csv"])))
    assert len(rows.columns) >= 2
    data = json.loads(invoke([*TINY[name], "--format", "json"]))
    if isinstance(data, list):  # a table: its records carry the CSV's columns in order
        assert [list(record) for record in data] == [list(rows.columns)] * len(rows)
        assert "±" not in json.dumps(data, ensure_ascii=False)  # numbers, not text


def test_the_guide_is_a_title_three_questions_and_their_sources():
    text = invoke(TINY["guide"])
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= MAX_WIDTH, text
    assert lines[0].startswith("Strategy guide · standard rules · against "), text
    assert lines[1].startswith("  played by the champion"), text
    paragraphs = [" ".join(part.split()) for part in text.strip().split("\n\n")[1:]]
    questions, sources = paragraphs[:-1], paragraphs[-1]
    assert [question.split("? ")[0] for question in questions] == [
        "1. Take the upcard, or draw from the stock",
        "2. Which card to throw",
        "3. Knock now, or play on",
    ]
    for question in questions:  # a rule, then what it gains, with its CI
        assert re.search(
            r"\. Gain: [-+]\d+\.\d+ ± \d+\.\d+ points per hand over the naive rule \(", question
        )
    for answer in ("how-to-draw", "how-to-discard", "when-to-knock"):
        folder = f"results/{answer.replace('-', '_')}/standard"
        assert f"{folder} (`analyzer {answer} --out {folder}`)" in sources, sources
    assert sources.startswith("Sources: ")
    assert sources.endswith(
        "x ± h: the estimate x and the half-width h of its 95% confidence interval."
    )
    assert not OTHER_CI_STYLES.search(text), text


def test_plus_minus_is_the_one_ci_style():
    assert plus_minus(1.234, 0.5) == "1.23 ± 0.50"
    assert plus_minus(-0.5, 0.25, 1, sign=True) == "-0.5 ± 0.2"
    assert plus_minus(0.9369, 0.01, 1, percent=True) == "93.7% ± 1.0%"


def test_a_wide_table_is_cut_into_blocks_that_fit():
    wide = pd.DataFrame({f"column {i}": [plus_minus(i, 0.1)] * 3 for i in range(20)})
    lines = table_lines(wide)
    assert max(len(line) for line in lines) <= MAX_WIDTH
    assert sum(line.strip().startswith("column 0") for line in lines) >= 2  # the key repeats


def test_show_result_prints_title_table_verdict_or_raw_rows(capsys):
    table = pd.DataFrame({"policy": ["expert"], "points": [plus_minus(1.0, 0.2, sign=True)]})
    raw = pd.DataFrame({"policy": ["expert"], "points": [1.0], "points_low": [0.8]})
    show_result("table", "Title · rules standard", table, "Expert wins.", raw=raw)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Title · rules standard" and out[-1] == "Expert wins."
    assert "+1.00 ± 0.20" in out[3]
    show_result("json", "Title", table, "Expert wins.", raw=raw)
    assert json.loads(capsys.readouterr().out) == [
        {"policy": "expert", "points": 1.0, "points_low": 0.8}
    ]


def test_tournament_prints_a_ranking_and_the_top_two_head_to_head():
    text = invoke(
        ["tournament", "--policies", "basic,simple,passive", "--deals", "100", "--games", "10"]
    )
    assert re.search(r"^rank\s+policy\s+points/hand\s+games won$", text, re.MULTILINE)
    assert "Head to head, " in text
    assert len(re.findall(r"^\s+[123]\s+\S+\s+[-+]\d", text, re.MULTILINE)) == 3


def test_knock_chart_plays_expert_against_expert_by_default():
    text = invoke(["knock-chart", "--deals", "200", "--min-samples", "5"])
    assert "expert (A) against expert" in " ".join(text.splitlines()[:2])


def test_knock_schedule_explains_its_notation():
    text = invoke(TINY["knock-schedule"])
    assert "knock threshold for A's own turns 1-3, 4-6, 7-9 and 10 on" in text


def test_equilibrium_has_no_nan_and_writes_its_chart(tmp_path):
    text = invoke([*TINY["equilibrium"], "--out", str(tmp_path)])
    assert "nan" not in text.lower()
    assert (tmp_path / "strategy.png").stat().st_size > 0
    assert {p.name for p in tmp_path.iterdir()} >= {
        "strategy.csv",
        "mixture.csv",
        "convergence.csv",
        "meta.json",
    }


def test_advise_values_fall_with_the_rank_and_probabilities_have_no_sign():
    text = invoke([*TINY["advise"], "--score", "45:80", "--equity-deals", "2000"])
    assert not re.search(r"\+\d+\.\d+%", text), text
    rows = [
        line.split() for line in text.splitlines() if re.match(r"^\s*\d+\s+(play|knock|gin)", line)
    ]
    values = [float(row[4].rstrip("%")) for row in rows]
    assert values == sorted(values, reverse=True)


def test_advice_table_orders_values_by_the_paired_gap():
    from analyzer.gin.model.policies import PRESETS as POLICIES
    from analyzer.gin.model.rules import PRESETS
    from analyzer.gin.play.advisor import Position, advise

    position = Position.from_options(
        "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
        "Td Ks Jh Ts Kd Tc",
        "8d 9s",
        "Tc Jh Ts Ks",
        25,
        5,
        "opp",
        None,
        False,
        None,
        None,
    )
    advice = advise(
        position, PRESETS["standard"], POLICIES["basic"], POLICIES["basic"], samples=200, seed=3
    )
    values = [float(v.split(" ± ")[0]) for v in advice_table(advice)["value"]]
    assert values == sorted(values, reverse=True)


def test_policies_say_a_shared_meaning_once():
    text = invoke(["policies", "expert"])
    assert text.count("A weight of the expert rules") + text.count("a weight of the expert") == 1


def test_rules_read_as_plain_text():
    text = invoke(["rules", "standard"])
    assert "``" not in text and "False" not in text and "None" not in text
    assert "loser-sits-out" in text  # never broken at a hyphen
    assert plain_text("if False the hand") == "if no, the hand"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_has_no_markup_leaks(name):
    text = invoke([name, "--help"])
    assert "%%" not in text and "``" not in text and ":func:" not in text
    assert max(len(line) for line in text.splitlines()) <= MAX_WIDTH


def test_rummy_study_writes_no_marker_numbers():
    text = invoke(["rummy", "study", "meld-or-hold", "--deals", "40"])
    assert "999" not in text and "to the end" in text and "no limit" in text
    data = json.loads(invoke(["rummy", "simulate", "--deals", "50", "--format", "json"]))
    assert data["deals"] == 50 and "hands" not in data
