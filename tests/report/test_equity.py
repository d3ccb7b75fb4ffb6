"""The game-equity section: its files and Markdown, at a tiny size."""

import re

from analyzer.report.equity import STEM, TITLE, write_equity_report


def test_report_section_small(tmp_path):
    text = write_equity_report(tmp_path / "equity", deals=500, games=200, seed=4, number=7)
    assert text.startswith(f"## 7. {TITLE}\n")
    assert f"(equity/{STEM}_equity.png)" in text
    assert "95% CI" in text and "--seed 4" in text
    names = {path.name for path in (tmp_path / "equity").iterdir()}
    assert {
        f"{STEM}_equity.csv",
        f"{STEM}_knock_by_score.png",
        f"{STEM}_check.csv",
        f"{STEM}_knock_gain.csv",
        "presets_basic_vs_basic.csv",
    } <= names
    # every file the text links to exists (links are relative to the report folder)
    links = set(re.findall(r"\]\((equity/[^)]+)\)", text))
    assert len(links) == 6  # two charts, four tables
    for link in links:
        assert (tmp_path / link).stat().st_size > 0
