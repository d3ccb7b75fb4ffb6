"""Studies, charts and the report at tiny sizes: files written, numbers consistent."""

import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from analyzer.cli.main import cli
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.simulate import simulate
from analyzer.gin.studies import dealing, knocking, round_robin, schedule
from analyzer.gin.studies.compare import Arm, compare_games, compare_hands, knock_arms
from analyzer.report.build import ReportConfig, generate_report
from analyzer.report.charts import figures
from analyzer.studies.answer import run
from analyzer.studies.inputs import make_inputs
from analyzer.studies.registry import STUDIES

BASIC = POLICIES["basic"]


def test_compare_pairs_arms_on_common_deals():
    arms = knock_arms(STANDARD, BASIC, BASIC, [10, 0, 5])
    table = compare_hands(arms, 400, seed=3)
    assert list(table["arm"]) == ["t=10", "t=0", "t=5"]
    assert table.loc[0, "diff_mean"] == 0
    # the t=10 arm is basic against basic: the same numbers as a plain simulation
    plain = simulate(STANDARD, BASIC, BASIC, 400, seed=3)
    assert table.loc[0, "points_mean"] == plain.points_a.mean
    assert table.loc[1, "points_mean"] - table.loc[0, "points_mean"] == pytest.approx(
        table.loc[1, "diff_mean"]
    )
    for column in ("points", "diff", "win", "turns"):
        assert (table[f"{column}_low"] <= table[f"{column}_mean"] + 1e-12).all()
        assert (table[f"{column}_mean"] <= table[f"{column}_high"] + 1e-12).all()


def test_compare_games_reference_difference_is_zero():
    arms = [
        Arm("basic", STANDARD, BASIC, POLICIES["simple"]),
        Arm("hunter", STANDARD, POLICIES["gin-hunter"], POLICIES["simple"]),
    ]
    table = compare_games(arms, 60, seed=2)
    assert table.loc[0, "diff_mean"] == 0
    assert ((table["game_win_mean"] >= 0) & (table["game_win_mean"] <= 1)).all()


def test_dealt_hands_probabilities():
    distribution = dealing.dealt_hands(20_000, seed=1)
    for _, group in distribution.groupby("cards"):
        assert group["probability"].sum() == pytest.approx(1)
        assert group["cumulative"].iloc[-1] == pytest.approx(1)
    eligibility = dealing.knock_eligibility(distribution)
    assert len(eligibility) == 22
    assert (
        eligibility.groupby("cards")["probability"]
        .apply(lambda p: bool(np.all(np.diff(p) >= 0)))
        .all()
    )


def test_knock_sweep_t10_row_equals_knock_asap():
    sweep = knocking.knock_sweep(
        STANDARD, BASIC, {"basic": BASIC}, 300, 30, seed=4, thresholds=[0, 10]
    )
    row = sweep.set_index("threshold").loc[10]
    plain = simulate(STANDARD, BASIC, BASIC, 300, seed=4)
    assert row["points_mean"] == plain.points_a.mean
    assert row["diff_mean"] == 0
    assert row["game_win_mean"] == 0.5  # basic against itself, seats swapped


def test_knock_chart_cells_and_ci():
    chart = knocking.knock_chart(STANDARD, BASIC, BASIC, 800, seed=2, min_samples=20)
    assert set(chart["verdict"]) <= {"knock", "play on", "unclear"}
    assert chart["deadwood"].between(1, 10).all()
    # a single state has no interval and no verdict
    single = chart["n"] == 1
    assert chart.loc[single, ["low", "high"]].isna().all().all()
    assert (chart.loc[single, "verdict"] == "unclear").all()
    assert (chart.loc[~single, "low"] <= chart.loc[~single, "mean"]).all()
    assert (chart.loc[~single, "mean"] <= chart.loc[~single, "high"]).all()
    again = knocking.knock_chart(STANDARD, BASIC, BASIC, 800, seed=2, min_samples=20, chunk=300)
    assert chart.equals(again)
    valued = knocking.knock_chart(
        STANDARD, BASIC, BASIC, 800, seed=2, min_samples=20, equity_deals=2_000
    )
    assert valued["mean"].equals(chart["mean"])
    assert valued["win_mean"].abs().max() < 1
    assert (valued.loc[~single, "win_low"] <= valued.loc[~single, "win_mean"]).all()
    # a bigger win in points is a bigger chance to win the game: the signs mostly agree
    assert (np.sign(valued["mean"]) == np.sign(valued["win_mean"])).mean() > 0.8


def test_tournament_is_antisymmetric():
    field = {"basic": BASIC, "simple": POLICIES["simple"], "passive": POLICIES["passive"]}
    results = round_robin.tournament(STANDARD, field, 200, 20, seed=1)
    assert len(results) == 6
    pairs = results.set_index(["a", "b"])
    assert pairs.loc[("basic", "simple"), "points"] == -pairs.loc[("simple", "basic"), "points"]
    assert pairs.loc[("basic", "simple"), "game_win"] + pairs.loc[
        ("simple", "basic"), "game_win"
    ] == pytest.approx(1)
    assert list(round_robin.ranking(results).columns) == [
        "policy",
        "points",
        "points_half",
        "game_win",
        "game_win_half",
    ]


def test_schedule_policy_bins():
    policy = schedule.schedule_policy(BASIC, [10, 10, 4, 0])
    assert policy.knock.schedule == ((1, 10), (7, 4), (10, 0))


def test_charts_render_with_labels():
    sweep = run(
        STUDIES["knock-sweep"],
        make_inputs(
            STUDIES["knock-sweep"],
            {"opponents": ["basic"], "thresholds": [0, 5, 10], "deals": 100, "games": 10},
        ),
    )
    panels = sweep.view.chart.panels
    assert panels[0].x_label == "A knocks at deadwood <= t (points)"
    assert "points per hand" in panels[0].y_label
    files = figures(sweep)
    assert list(files) == [f"{sweep.view.chart.name}.png"]
    with Image.open(io.BytesIO(files[f"{sweep.view.chart.name}.png"])) as image:
        assert image.text["Title"] and image.text["Description"]


def studies_panel_names():
    from analyzer.gin.studies.exploit import panel

    return set(panel())


@pytest.mark.slow
def test_report_writes_every_section(tmp_path):
    # the exact counts take a minute to enumerate; their own tests live in test_exact.py
    committed = Path(__file__).resolve().parents[3] / "results" / "exact"
    shutil.copytree(committed, tmp_path / "exact")
    config = ReportConfig(out=tmp_path, deals=150, seed=3)
    path = generate_report(config)
    text = path.read_text()
    box = text.split("\nGenerated by")[0]
    for title in ("When to knock", "How to discard", "When to take the upcard"):
        assert f"> ### {title}" in box
    assert "When to knock · standard rules · against an opponent you know nothing about" in box
    # every section opens with its question, who plays and the rules
    sections = text.split("\n## ")[1:]
    assert len(sections) == 8
    for part in sections:
        assert "**Question.**" in part and "**Who plays.**" in part and "**Rules:**" in part
    # every answer is a folder of its own: its command rewrites it, with this run's seed
    metas = sorted(tmp_path.rglob("meta.json"))
    assert len(metas) >= 14
    for meta_path in metas:
        meta = json.loads(meta_path.read_text())
        folder = meta_path.parent
        assert (folder / "manifest.json").exists()
        if folder.parent.name != "exact":  # copied in: the exact enumeration's own command
            assert meta["seed"] == 3 and "--seed 3" in meta["command"]
            assert meta["command"].endswith(f"--out {folder.as_posix()}")
    # every image link resolves, and every chart is titled and captioned
    images = set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text))
    assert images and all((tmp_path / link).exists() for link in images)
    for link in images:
        with Image.open(tmp_path / link) as image:
            assert image.text["Title"] and image.text["Description"]


@pytest.mark.parametrize(
    "command",
    [
        ["knock-sweep", "--deals", "100", "--games", "10", "--format", "csv"],
        ["knock-chart", "--deals", "200", "--format", "json", "--equity-deals", "500"],
        ["tournament", "--policies", "basic,simple", "--deals", "100", "--games", "10"],
        ["variants", "--presets", "standard,oklahoma", "--deals", "100", "--games", "10"],
        ["dealt", "--deals", "1000"],
        ["knock-schedule", "--deals", "60", "--rounds", "1"],
        ["knock-schedule", "--objective", "games", "--deals", "20", "--rounds", "1"],
    ],
)
def test_study_commands(command, tmp_path):
    result = CliRunner().invoke(cli, [*command, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert list(tmp_path.glob("*.png"))
    assert list(tmp_path.glob("*.csv"))


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (["tournament", "--policies", "basic"], "at least two"),
        (["tournament", "--policies", "basic,wizard"], "unknown policy 'wizard'"),
        (["variants", "--presets", "standard,bogus"], "unknown rules preset 'bogus'"),
        (["report", "--only", "nothing"], "unknown section 'nothing'"),
        (["knock-sweep", "--format", "xml"], "'xml' is not one of"),
        (
            ["knock-chart", "--rules", "hollywood", "--equity-deals", "100", "--deals", "10"],
            "Hollywood",
        ),
        (["knock-schedule", "--objective", "fame"], "'fame' is not one of"),
    ],
)
def test_study_command_errors(command, message):
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2
    assert message in result.output
