"""The report's dealt, tournament and variants sections: templates over saved answers,
each opening with who plays (the champion, or why no one does), and the dealt section
reading the exact counts kept in the report or saying how to compute them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd

from analyzer.report.build import _section_text, run_entry
from analyzer.report.common import ReportConfig
from analyzer.report.survey_sections import DEALT, TOURNAMENT, VARIANTS
from analyzer.studies.answer import run
from analyzer.studies.inputs import make_inputs
from analyzer.studies.registry import STUDIES

ROOT = Path(__file__).resolve().parents[2]


def who_plays(text: str) -> str:
    return re.search(r"\*\*Who plays\.\*\* (.*)", text).group(1)


def test_the_dealt_section_says_how_to_compute_the_exact_counts_it_lacks(tmp_path):
    config = ReportConfig(out=tmp_path, deals=40, seed=3)
    run_entry(DEALT.entries[0], config)
    text = _section_text(DEALT, 1, config)
    assert who_plays(text).startswith("Nobody, so no champion")
    assert (
        f"`analyzer exact --seed 3 --out {tmp_path.as_posix()}/exact/cards10` and "
        f"`analyzer exact --cards 11 --seed 3 --out {tmp_path.as_posix()}/exact/cards11`"
    ) in text
    assert "![Deadwood of a dealt hand](dealt/dealt.png)" in text
    assert "| cards | limit | probability | chance |" in text


def test_the_dealt_section_sets_the_exact_counts_beside_the_monte_carlo(tmp_path):
    shutil.copytree(ROOT / "results" / "exact", tmp_path / "exact")
    config = ReportConfig(out=tmp_path, deals=400, seed=3)
    run_entry(DEALT.entries[0], config)
    text = _section_text(DEALT, 1, config)
    assert "C(52,10) = 15,820,024,220 ten-card hands" in text
    assert "C(52,11) = 60,403,728,840 eleven-card hands" in text
    assert "gin with probability 8.6406e-06 (1 in 115,733)" in text
    assert "knock-eligible with probability 4.1223e-03" in text
    assert "The mean dealt deadwood is 56.57 points" in text
    # the count of cells whose 95% CI holds the exact value, recounted from the files
    mc = pd.read_csv(tmp_path / "dealt" / "knock_eligibility.csv")
    inside = 0
    for row in mc.itertuples():
        counts = pd.read_csv(tmp_path / "exact" / f"cards{row.cards}" / "counts.csv")
        exact = counts["count"].iloc[: row.limit + 1].sum() / counts["count"].sum()
        inside += abs(row.probability - exact) <= 1.959964 * row.se
    assert f"contains the exact value in {inside} of 22 cells" in text
    # every exact answer is linked with the command that rewrites it alone
    for cards in (10, 11):
        assert f"(exact/cards{cards}/exact.png)" in text
        assert (tmp_path / "exact" / f"cards{cards}" / "exact.png").exists()
    # the kept answers are named by the commands that wrote them (the default seed)
    assert "Rewritten alone by `analyzer exact --cards 11 --out" in text


def saved(name: str, values: dict, config: ReportConfig) -> None:
    study = STUDIES[name]
    run(study, make_inputs(study, values, seed=config.seed)).save(config.out / name)


def test_the_round_robin_names_its_field_and_who_leads(tmp_path):
    config = ReportConfig(out=tmp_path, seed=4)
    saved("tournament", {"policies": ["basic", "passive"], "deals": 60, "games": 6}, config)
    text = _section_text(TOURNAMENT, 5, config)
    assert text.startswith("## 5. Draw and discard policies: a round robin")
    assert "the round robin ranks the policies" in who_plays(text)
    assert "* `passive`: `draw=never,discard=high,knock=10`" in text
    assert "Ranked by mean points per hand against the rest of the field:\n`basic`" in text
    assert "| rank | policy | points/hand | games won |" in text
    assert "`analyzer tournament --policies basic,passive --deals 60 --games 6 --seed 4" in text


def test_the_variants_are_played_by_the_champion_against_the_naive_player(tmp_path):
    config = ReportConfig(out=tmp_path, seed=4)
    values = {"presets": ["standard", "oklahoma", "straight"], "deals": 30, "games": 6}
    saved("variants", values, config)
    text = _section_text(VARIANTS, 6, config)
    assert who_plays(text).startswith("The champion (`expert`) against the naive player (`basic`")
    assert "**Rules:** every preset" in text
    assert "each preset gets\n30 deals and 6 game pairs" in text
    assert "paired game by game with that of\n`standard`" in text
    assert "![What each rules preset does to the game: expert against basic]" in text
