"""A damaged results folder on the server: the strategy routes answer with JSON naming
the file inside the results folder, never a traceback and never a path of the server's
disk; a missing folder is described the same way."""

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.app import create_app
from tests.cli.test_damaged_files import damage

from .conftest import BASE_URL, keep_answers

KNOCK = "when_to_knock/standard"


@pytest.fixture
def client(results_dir):
    app = create_app(results_dir, warm_up=False)
    with TestClient(app, base_url=BASE_URL, raise_server_exceptions=False) as test_client:
        yield test_client


def no_server_path(response, results_dir):
    assert str(results_dir.parent) not in response.text
    assert "Traceback" not in response.text


def whole(path):
    """Replace the whole of a file (its manifest re-signed)."""
    return lambda content: damage(path, path.read_text(), content)


@pytest.mark.parametrize(
    ("name", "change", "problem"),
    [
        # a file changed behind the folder's manifest: the manifest finds it
        ("answers.csv", lambda p: p.write_text(p.read_text() + "\n"), "does not match the folder"),
        ("manifest.json", lambda p: p.unlink(), "is missing: the folder was not written whole"),
        # a file the manifest vouches for: the reader's own checks find it
        ("meta.json", lambda p: damage(p, '"seed": 2026', '"seed": "5"'), "seed must be an"),
        ("meta.json", lambda p: whole(p)("{not json"), "the file is not JSON"),
        ("answers.csv", lambda p: damage(p, "points_low,", "low,"), "must have the columns"),
        ("panel.csv", lambda p: whole(p)(""), "No columns to parse from file"),
    ],
)
def test_a_damaged_answer_file_is_a_500_naming_it_without_the_servers_path(
    client, results_dir, name, change, problem
):
    keep_answers(results_dir)
    change(results_dir / KNOCK / name)
    response = client.get("/api/when-to-knock")
    assert response.status_code == 500
    error = response.json()["error"]
    assert error.startswith(f"damaged results file {KNOCK}/{name}: "), error
    assert problem in error and "\n" not in error
    no_server_path(response, results_dir)


def test_missing_answers_and_a_missing_folder_are_told_without_the_servers_path(
    client, results_dir, tmp_path
):
    response = client.get("/api/when-to-knock")
    assert response.status_code == 200
    assert response.json()["missing"].startswith(f"results/{KNOCK} keeps no answer")
    no_server_path(response, results_dir)
    with TestClient(create_app(tmp_path / "gone", warm_up=False), base_url=BASE_URL) as other:
        for route in ("/api/when-to-knock", "/api/how-to-draw", "/api/strategy", "/api/guide"):
            response = other.get(route)
            assert response.status_code == 200 and str(tmp_path) not in response.text
            if route != "/api/guide":  # which says only that no guide is saved
                assert "the server's results folder gone does not exist" in response.text


def test_a_damaged_chart_file_is_a_note_and_the_other_charts_still_show(client, results_dir):
    meta = results_dir / "knock_chart" / "meta.json"
    original = meta.read_text()
    damage(meta, '"deals": 80000', '"deals": true')
    (results_dir / "knock_sweep" / "sweep.csv").write_text("opponent,threshold\nbasic,x\n")
    keep_answers(results_dir)
    response = client.get("/api/strategy")
    assert response.status_code == 200
    data = response.json()
    assert [chart["id"] for chart in data["charts"]] == [
        "when-to-knock-standard",
        "how-to-discard-standard",
        "how-to-draw-standard",
    ]
    chart_note, sweep_note = data["notes"]
    assert chart_note.startswith("damaged results file knock_chart/meta.json: its inputs")
    assert "deals" in chart_note and chart_note.endswith(": not shown")
    assert sweep_note.startswith(
        "damaged results file knock_sweep/sweep.csv: does not match the folder's manifest"
    )
    no_server_path(response, results_dir)
    # the chart comes back once its file is whole again (the page reads the files anew)
    whole(meta)(original)
    ids = [chart["id"] for chart in client.get("/api/strategy").json()["charts"]]
    assert "knock-chart" in ids and "knock-sweep" not in ids


def test_a_file_gone_while_the_folder_is_looked_at_is_left_out(client, results_dir):
    # a dangling link: listed, but gone when its time is asked (a report moving its
    # files in while the page reads them)
    (results_dir / "gone.csv").symlink_to(results_dir / "nowhere.csv")
    response = client.get("/api/strategy")
    assert response.status_code == 200
    assert [chart["id"] for chart in response.json()["charts"]] == ["knock-chart", "knock-sweep"]
