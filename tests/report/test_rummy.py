"""The plain-rummy section of the report, at a tiny size: three saved answers of
``analyzer rummy study``, one folder each under ``rummy/``."""

import re

from analyzer.report.build import ReportConfig, generate_report, load_entry
from analyzer.report.rummy_sections import SECTIONS


def test_the_section_shows_the_three_saved_answers(tmp_path):
    config = ReportConfig(out=tmp_path, deals=300, seed=4)
    text = generate_report(config, ["rummy"]).read_text()
    section = text[text.index("Plain rummy\n") :]
    entries = SECTIONS[0].entries
    assert [entry.folder for entry in entries] == [
        "rummy/meld_or_hold",
        "rummy/player_counts",
        "rummy/option_values",
    ]
    for entry in entries:
        answer = load_entry(entry, tmp_path)
        assert answer is not None and answer.inputs["deals"] == 90  # 0.3 of the base size
        assert f"**Answer.** {answer.verdict}" in section
        name = answer.inputs["name"]
        command = f"analyzer rummy study {'' if name == 'meld-or-hold' else name + ' '}"
        assert (
            f"`{command}--deals 90 --seed 4 --out {tmp_path.as_posix()}/{entry.folder}`" in section
        )
    for heading in ("meld now or hold", "Player count", "optional rule is worth"):
        assert heading in section
    links = set(re.findall(r"\]\((rummy/[^)]+)\)", section))
    assert len(links) == 6  # a chart and a table per question
    for link in links:
        assert (tmp_path / link).stat().st_size > 0
