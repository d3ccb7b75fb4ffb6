"""The plain-rummy section of the report, at a tiny size: it opens with how to play (two
and four players), then the options valued with rummy-expert (two and four players) and
the player counts, each
answer saved in its own folder and shown as its command prints it."""

import re

from analyzer.report.build import ReportConfig, generate_report, load_entry
from analyzer.report.rummy_sections import HOW_TO_PLAY, OPTIONS, PLAYERS, SECTIONS


def test_the_section_opens_with_how_to_play_played_by_rummy_expert(tmp_path):
    config = ReportConfig(out=tmp_path, deals=120, seed=4)
    text = generate_report(config, ["rummy"]).read_text()
    section = text[text.index("Plain rummy\n") :]
    entries = SECTIONS[0].entries
    assert [entry.folder for entry in entries] == [
        *HOW_TO_PLAY.values(),
        *OPTIONS.values(),
        PLAYERS,
    ]
    answers = {entry.folder: load_entry(entry, tmp_path) for entry in entries}
    two, four = (answers[HOW_TO_PLAY[n]] for n in (2, 4))
    assert (two.inputs["players"], four.inputs["players"]) == (2, 4)
    assert two.inputs["deals"] == 120 and answers[PLAYERS].inputs["deals"] == 50  # 0.3, least 50
    # how to play opens the section, as the command prints it; who plays names the expert
    opening = section.index("> ### How to play plain rummy")
    assert opening < section.index(two.text()) < section.index("### What each rule option")
    assert section.index("**Who plays.** `rummy-expert`") > opening
    assert four.text() in section
    assert all(answers[folder].text() in section for folder in OPTIONS.values())
    assert f"**Answer.** {answers[PLAYERS].verdict}" in section
    assert "rummy-expert` in every seat" in section
    out = tmp_path.as_posix()
    for folder, command in (
        (HOW_TO_PLAY[2], "analyzer rummy how-to-play --deals 120 --seed 4"),
        (HOW_TO_PLAY[4], "analyzer rummy how-to-play --players 4 --deals 120 --seed 4"),
        (OPTIONS[2], "analyzer rummy options --deals 120 --seed 4"),
        (OPTIONS[4], "analyzer rummy options --players 4 --deals 120 --seed 4"),
        (PLAYERS, "analyzer rummy study players --deals 50 --seed 4"),
    ):
        assert f"`{command} --out {out}/{folder}`" in section
    links = set(re.findall(r"\]\(((?:rummy|rummy_how_to_play|rummy_options)/[^)]+)\)", section))
    assert len(links) == 3 + 3 + 3 + 3 + 2  # per answer a chart and its tables
    for link in links:
        assert (tmp_path / link).stat().st_size > 0
