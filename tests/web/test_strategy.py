"""The strategy page's API (``/api/strategy``, the answers in a player's words) and the
guide's (``/api/guide``, its card): the answers kept in the report folder, read as every
door reads them and never computed, through an in-process client.  The kept answers are
made by the tests (numbers made up, shapes real: :mod:`tests.web.conftest`)."""

import json
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from click.testing import CliRunner
from fastapi.testclient import TestClient

from analyzer.cli.main import cli
from analyzer.studies.principles import DISCARDING, DRAWING
from analyzer.web.app import create_app
from analyzer.web.strategy import strategy_charts
from tests.studies.test_answers import keep_principles

from .conftest import (
    BASE_URL,
    ROOT,
    SPARSE_FROM_TURN,
    keep_answers,
    keep_equilibrium,
    keep_guide,
    keep_knock_chart,
)


@pytest.fixture
def client(results_dir):
    with TestClient(create_app(results_dir, warm_up=False), base_url=BASE_URL) as test_client:
        yield test_client


def assert_400(response, reason):
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert reason in error and "\n" not in error


def chart_named(client, chart_id):
    return next(c for c in client.get("/api/strategy").json()["charts"] if c["id"] == chart_id)


def test_the_charts_are_the_kept_answers_with_their_ci_in_the_hover(client, results_dir):
    data = client.get("/api/strategy").json()
    # the folder as the server was given it, not its place on the server's disk
    assert data["results"] == "results" and str(results_dir.parent) not in json.dumps(data)
    assert data["found"] == "Read from results (the server's results folder)."
    assert data["notes"] == []
    assert [chart["id"] for chart in data["charts"]] == ["knock-chart", "knock-sweep"]
    sweep = data["charts"][1]
    assert sweep["source"] == (
        "knock_sweep/ (`analyzer knock-sweep --games 2000 --out results/knock_sweep`)"
    )
    assert [panel["id"] for panel in sweep["panels"]] == [f"knock-sweep-{n}" for n in range(3)]
    for chart in data["charts"]:
        # titles and captions are the page's text (a plotly title does not wrap)
        assert chart["title"] and "rules standard" in chart["subtitle"].lower()
        for panel in chart["panels"]:
            layout = panel["figure"]["layout"]
            assert chart["title"] not in json.dumps(layout.get("title", ""))
    # a line's CI is its band, and its hover shows the band's ends
    table = pd.read_csv(results_dir / "knock_sweep" / "sweep.csv")
    for panel, metric in zip(sweep["panels"], ("diff", "game_win", "undercut"), strict=True):
        lines = [t for t in panel["figure"]["data"] if t.get("name")]
        assert [line["name"] for line in lines] == ["basic", "expert"]
        for line in lines:
            rows = table[table["opponent"] == line["name"]]
            assert "95% CI" in line["hovertemplate"]
            assert line["customdata"] == rows[[f"{metric}_low", f"{metric}_high"]].values.tolist()
    # an answer kept later is picked up (the charts follow the files), the answers in a
    # player's words first, in the page's order
    keep_answers(results_dir)
    ids = [chart["id"] for chart in client.get("/api/strategy").json()["charts"]]
    assert ids == [
        "when-to-knock-standard",
        "how-to-discard-standard",
        "how-to-draw-standard",
        "knock-chart",
        "knock-sweep",
    ]


def test_the_knock_chart_has_cell_numbers_grey_cells_and_the_knock_play_on_boundary(
    client, results_dir
):
    chart = pd.read_csv(results_dir / "knock_chart" / "knock_chart.csv")
    figure = chart_named(client, "knock-chart")["panels"][0]["figure"]
    heatmap = figure["data"][0]
    assert heatmap["texttemplate"] == "%{text}"
    shown = {(row.turn, row.deadwood): row.mean > 0 for row in chart.itertuples() if row.enough}
    assert len(shown) == 10 * (SPARSE_FROM_TURN - 1)
    for row in chart.itertuples():
        value = heatmap["z"][row.deadwood - 1][row.turn - 1]
        text = heatmap["text"][row.deadwood - 1][row.turn - 1]
        if row.enough:
            assert value == pytest.approx(row.mean) and text == f"{row.mean:+.1f}"
        else:  # too few states: grey, no number
            assert value is None and text == ""
    # every segment separates two shown cells of opposite sign, and each such pair has one
    segments = figure["layout"]["shapes"]
    pairs = {
        frozenset({cell, (cell[0] + dx, cell[1] + dy)})
        for cell, knock in shown.items()
        for dx, dy in ((1, 0), (0, 1))
        if (cell[0] + dx, cell[1] + dy) in shown and shown[cell[0] + dx, cell[1] + dy] != knock
    }
    assert len(segments) == len(pairs) > 0
    for shape in segments:
        x, y = (shape["x0"] + shape["x1"]) / 2, (shape["y0"] + shape["y1"]) / 2
        if shape["x0"] == shape["x1"]:  # vertical: between turns x - 0.5 and x + 0.5
            assert frozenset({(x - 0.5, y), (x + 0.5, y)}) in pairs
        else:
            assert frozenset({(x, y - 0.5), (x, y + 0.5)}) in pairs


def test_the_sweep_chart_has_a_panel_per_measure_each_opponent_with_its_band(client, results_dir):
    table = pd.read_csv(results_dir / "knock_sweep" / "sweep.csv")
    panels = chart_named(client, "knock-sweep")["panels"]
    titles = [panel["figure"]["layout"]["title"]["text"] for panel in panels]
    assert titles == ["Points per hand", "Games won", "Undercut rate"]
    for panel, metric, rule in zip(
        panels, ("diff", "game_win", "undercut"), (0.0, 0.5, None), strict=True
    ):
        traces = panel["figure"]["data"]
        assert len(traces) == 6
        for index, opponent in enumerate(("basic", "expert")):
            rows = table[table["opponent"] == opponent]
            # the band (its low edge, then its high one filled down to it), then the line
            low, high, line = traces[3 * index : 3 * index + 3]
            assert line["name"] == opponent and line["x"] == rows["threshold"].tolist()
            for trace, column in ((line, "mean"), (low, "low"), (high, "high")):
                assert trace["y"] == pytest.approx(rows[f"{metric}_{column}"].tolist())
            red, green, blue = (int(line["line"]["color"][i : i + 2], 16) for i in (1, 3, 5))
            assert high["fill"] == "tonexty"
            assert high["fillcolor"] == f"rgba({red},{green},{blue},0.2)"
        rules = [shape["y0"] for shape in panel["figure"]["layout"]["shapes"]]
        assert rules == ([] if rule is None else [rule])


def test_the_equilibrium_is_charted_as_its_knock_tables_and_its_convergence(client, results_dir):
    keep_equilibrium(results_dir)
    chart = chart_named(client, "robust-knock-standard")
    assert chart["title"] == "Equilibrium knock tables: standard rules, expert play"
    tables, convergence = (panel["figure"] for panel in chart["panels"])
    # each table of the mixture a step line by own turn, its alert thresholds beside it
    # (lines nudged apart by 0.08 points so that equal ones stay visible)
    steps = {trace["name"]: trace for trace in tables["data"]}
    assert list(steps) == ["10/10/7/0 (75%)", "10/10/7/0, alert 10/4/0/0", "10/10/10/0 (25%)"]
    assert steps["10/10/7/0 (75%)"]["x"] == [0.5, 3.5, 3.5, 6.5, 6.5, 9.5, 9.5, 14.5]
    for offset, (name, thresholds) in enumerate(
        (
            ("10/10/7/0 (75%)", (10, 10, 7, 0)),
            ("10/10/7/0, alert 10/4/0/0", (10, 4, 0, 0)),
            ("10/10/10/0 (25%)", (10, 10, 10, 0)),
        )
    ):
        expected = [t + 0.08 * offset for t in thresholds for _ in range(2)]
        assert steps[name]["y"] == pytest.approx(expected)
    # the best response's gain by iteration with its 95% CI, below the tolerance (0.1)
    gains = convergence["data"][0]
    assert gains["y"] == [0.5, 0.02] and gains["customdata"] == [[0.3, 0.7], [-0.03, 0.07]]
    assert "95% CI" in gains["hovertemplate"]
    assert [shape["y0"] for shape in convergence["layout"]["shapes"]] == [0.1]


def test_the_answers_come_first_then_the_knock_studies_each_standard_rules_first(
    client, results_dir
):
    for rules in ("classic", "standard"):
        keep_answers(results_dir, rules)
        keep_equilibrium(results_dir, rules)
    ids = [chart["id"] for chart in client.get("/api/strategy").json()["charts"]]
    assert ids == [
        f"{study}-{rules}"
        for study in ("when-to-knock", "how-to-discard", "how-to-draw", "robust-knock")
        for rules in ("standard", "classic")
    ] + ["knock-chart", "knock-sweep"]


def test_strategy_without_results_says_what_is_missing(tmp_path):
    with TestClient(create_app(tmp_path / "none", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["charts"] == [] and data["results"] is None
    assert data["found"] == "No results folder: the server's results folder none does not exist."
    (tmp_path / "empty").mkdir()
    with TestClient(create_app(tmp_path / "empty", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["charts"] == []
    assert data["notes"] == ["No answers in the results folder yet: run 'analyzer report'."]


def test_a_server_started_elsewhere_finds_the_results_of_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANALYZER_RESULTS", raising=False)
    project = strategy_charts(ROOT / "results")
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["results"] == "results"
    assert data["found"] == (
        "Read from results in the analyzer's project folder (the server's folder has no "
        "folder results)."
    )
    assert (data["charts"], data["notes"]) == (project["charts"], project["notes"])
    # a results folder in the server's folder comes first
    keep_knock_chart(tmp_path / "results")
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["found"] == "Read from results (the server's results folder)."
    assert [c["id"] for c in data["charts"]] == ["knock-chart"]
    # the folder $ANALYZER_RESULTS names comes before both
    monkeypatch.setenv("ANALYZER_RESULTS", str(ROOT / "results"))
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["found"] == "Read from the folder $ANALYZER_RESULTS names."
    assert data["charts"] == project["charts"]


def test_when_to_knock_reads_the_kept_answer_and_says_what_is_missing(client, results_dir):
    missing = client.get("/api/when-to-knock").json()
    assert missing["answer"] is None
    assert missing["missing"] == (
        "results/when_to_knock/standard keeps no answer against this opponent: "
        "`analyzer when-to-knock --out results/when_to_knock/standard` keeps one; "
        "`analyzer when-to-knock` computes it (minutes)."
    )
    keep_answers(results_dir)
    data = client.get("/api/when-to-knock").json()
    assert (data["rules"], data["opponent"], data["missing"]) == ("standard", "unknown", None)
    answer = data["answer"]
    assert (
        answer["title"]
        == "When to knock · standard rules · against an opponent you know nothing about"
    )
    assert answer["rule"].startswith("Knock with 10 or less on turns 1-9")
    assert answer["chart"]["turns"][0] == "1-3" and answer["chart"]["stock"][0] == "30-25"
    assert {cell for row in answer["chart"]["rows"] for cell in row["cells"]} == {
        "knock",
        "play on",
    }
    assert answer["result_text"].startswith("+2.00 ± 0.50 points per hand on average over")
    assert answer["worst_text"].startswith("-1.00 ± 0.40 points per hand against `search")
    assert answer["naive"] == {"rule": "knock as soon as you can", "gain": answer["naive"]["gain"]}
    assert answer["source"].startswith("results/when_to_knock/standard (`analyzer ")
    assert str(results_dir.parent) not in json.dumps(data)
    # the web answer is the command's
    command = CliRunner().invoke(cli, ["when-to-knock", "--results", str(results_dir), "--json"])
    assert command.exit_code == 0, command.output
    assert answer["rule"] == json.loads(command.output)["rule"]
    # a test opponent names its family; another rules preset is not kept
    basic = client.get("/api/when-to-knock", params={"opponent": "basic"}).json()
    assert basic["answer"]["family"] == "knocks-at-once"
    classic = client.get("/api/when-to-knock", params={"rules": "classic"}).json()
    assert classic["answer"] is None
    assert classic["missing"].startswith("results/when_to_knock/classic keeps no answer")
    assert "`analyzer when-to-knock --rules classic` computes it" in classic["missing"]
    assert_400(client.get("/api/when-to-knock", params={"rules": "nope"}), "nope")
    assert_400(client.get("/api/when-to-knock", params={"opponent": "wizard"}), "wizard")


@pytest.mark.parametrize(
    ("route", "decision", "title"),
    [
        ("how-to-discard", DISCARDING, "How to discard"),
        ("how-to-draw", DRAWING, "When to take the upcard"),
    ],
)
def test_the_principles_answers_read_the_kept_answer_and_say_what_is_missing(
    client, results_dir, route, decision, title
):
    missing = client.get(f"/api/{route}", params={"rules": "eaai"}).json()
    assert missing["answer"] is None
    kept = decision.kept
    assert missing["missing"].startswith(f"results/{kept}/eaai keeps no answer")
    assert (
        f"`analyzer {route} --rules eaai --out results/{kept}/eaai` keeps one"
        in (missing["missing"])
    )
    keep_principles(results_dir, decision, "eaai")
    data = client.get(f"/api/{route}", params={"rules": "eaai", "opponent": "camper"}).json()
    answer = data["answer"]
    assert answer["title"] == f"{title} · eaai rules · against `marjj` (camper)"
    worths = [line["mean"] for line in answer["principles"]]
    assert worths == sorted(worths, reverse=True) and len(worths) >= 2
    for line in answer["principles"]:
        assert line["low"] <= line["mean"] <= line["high"]
    assert answer["source"].startswith(f"results/{kept}/eaai (`analyzer {route} --rules eaai")
    assert_400(client.get(f"/api/{route}", params={"opponent": "wizard"}), "wizard")
    assert_400(client.get(f"/api/{route}", params={"rules": "nope"}), "nope")


def test_the_guide_and_its_card_are_read_from_the_kept_guide(client, results_dir, monkeypatch):
    missing = client.get("/api/guide").json()
    assert missing == {
        "rules": "standard",
        "answer": None,
        "missing": "No guide saved: `analyzer guide --rules standard --out "
        "results/guide/standard` saves it.",
    }
    assert "no guide saved for the standard rules" in client.get("/guide/card.png").text
    # kept as the report keeps them: from the project's folder, into results/ (the guide
    # names the answers it read as it read them)
    monkeypatch.chdir(results_dir.parent)
    keep_guide(keep_answers(Path("results")))
    data = client.get("/api/guide").json()
    answer = data["answer"]
    assert data["missing"] is None
    assert answer["title"].startswith("Strategy guide · standard rules")
    # the text the command prints, and the card's blocks: the three decisions of a turn
    printed = CliRunner().invoke(cli, ["guide", "--results", str(results_dir)]).output
    assert answer["text"] == printed.rstrip("\n")
    assert sum(line.startswith("Gain:") for line in answer["text"].splitlines()) == 3
    assert len(answer["blocks"]) >= 3 and all(len(block) == 2 for block in answer["blocks"])
    assert answer["source"].startswith("results/guide/standard (`analyzer guide")
    assert str(results_dir.parent) not in json.dumps(data)
    png, pdf = client.get("/guide/card.png"), client.get("/guide/card.pdf")
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert png.content == (results_dir / "guide" / "standard" / "card.png").read_bytes()
    # another preset has none; a bad preset or kind is refused
    assert client.get("/api/guide", params={"rules": "classic"}).json()["answer"] is None
    gone = client.get("/guide/card.pdf", params={"rules": "classic"})
    assert gone.status_code == 404
    assert gone.json() == {"error": "no guide saved for the classic rules"}
    assert_400(client.get("/api/guide", params={"rules": "nope"}), "nope")
    assert_400(client.get("/guide/card.png", params={"rules": "nope"}), "nope")
    assert client.get("/guide/card.svg").status_code in (400, 404)
