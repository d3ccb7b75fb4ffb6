"""The game-equity section of the report, at a tiny size: a template over the saved
answer of ``analyzer equity`` played by the champion in both seats."""

import re

from analyzer.report.build import ReportConfig, generate_report, load_entry
from analyzer.report.equity_sections import PRESETS, SECTIONS


def test_the_section_is_the_saved_answer_of_its_command(tmp_path):
    config = ReportConfig(out=tmp_path, deals=300, seed=4)
    text = generate_report(config, ["equity"]).read_text()
    section = text[text.index("Game equity: a match-equity table") :]
    (entry,) = SECTIONS[0].entries
    answer = load_entry(entry, tmp_path)
    assert answer is not None and answer.inputs.labels == {"a": "expert", "b": "expert"}
    assert f"**Answer.** {answer.verdict}" in section
    assert "`expert` (the champion) against `expert`" in section
    # each part of the answer has its table, and the presets are the report's
    assert {"check", "options", "gain", "knock_by_score", "presets"} <= set(answer.tables)
    assert answer["presets"]["rules"].tolist() == list(PRESETS)
    assert "gin only" in section and "every chance" in section
    assert "95% CI is ± " in section  # what the games can tell apart, said
    # the command it names rewrites this folder alone, and every link leads to a file
    assert f"`analyzer equity --deals 300 --games 50 --presets {','.join(PRESETS)}" in section
    assert f"--seed 4 --out {tmp_path.as_posix()}/equity`" in section
    links = set(re.findall(r"\]\((equity/[^)]+)\)", section))
    assert {"equity/equity.png", "equity/equity.csv", "equity/knock_by_score.csv"} <= links
    for link in links:
        assert (tmp_path / link).stat().st_size > 0
