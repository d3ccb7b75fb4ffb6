"""A damaged results folder on the server: the strategy routes answer with JSON naming
the file inside the results folder, never a traceback and never a path of the server's
disk; a missing folder is described the same way."""

import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.app import create_app

from .conftest import BASE_URL, write_committed_answers


@pytest.fixture
def client(results_dir):
    app = create_app(results_dir, warm_up=False)
    with TestClient(app, base_url=BASE_URL, raise_server_exceptions=False) as test_client:
        yield test_client


def no_server_path(response, results_dir):
    assert str(results_dir.parent) not in response.text
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("meta.json", '{"command": "analyzer report", "seed": "5"}', "field 'seed' must be an"),
        ("meta.json", '{"command": "analyzer report"}', "has no field 'seed'"),
        ("meta.json", "{not json", "the file is not JSON"),
        ("answers.csv", "rules,family\nstandard,unknown\n", "lacks the column(s) base"),
        ("panel.csv", "", "the file is empty"),
    ],
)
def test_a_damaged_answer_file_is_a_500_naming_it_without_the_servers_path(
    client, results_dir, name, content, problem
):
    write_committed_answers(results_dir)
    (results_dir / "when_to_knock" / name).write_text(content)
    response = client.get("/api/when-to-knock")
    assert response.status_code == 500
    error = response.json()["error"]
    assert error.startswith(f"damaged results file when_to_knock/{name}: ")
    assert problem in error and "\n" not in error
    no_server_path(response, results_dir)


def test_missing_answers_and_a_missing_folder_are_told_without_the_servers_path(
    client, results_dir, tmp_path
):
    response = client.get("/api/when-to-knock")
    assert response.status_code == 200
    assert response.json()["missing"].startswith(
        "results/when_to_knock/answers.csv is missing: 'analyzer report' writes it"
    )
    no_server_path(response, results_dir)
    with TestClient(create_app(tmp_path / "gone", warm_up=False), base_url=BASE_URL) as other:
        for route in ("/api/when-to-knock", "/api/strategy"):
            response = other.get(route)
            assert response.status_code == 200
            assert "results folder gone does not exist" in response.text
            assert str(tmp_path) not in response.text


def test_a_damaged_chart_file_is_a_note_and_the_other_charts_still_show(client, results_dir):
    meta = results_dir / "knock_chart" / "meta.json"
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"deals": True}))
    (results_dir / "knock_sweep" / "sweep.csv").write_text("opponent,threshold\nbasic,x\n")
    response = client.get("/api/strategy")
    assert response.status_code == 200
    data = response.json()
    assert data["charts"] == []
    assert (
        "damaged results file knock_chart/meta.json: field 'deals' must be an integer, got "
        "True: not shown"
    ) in data["notes"]
    assert any(
        note.startswith("damaged results file knock_sweep/sweep.csv: lacks the column(s) n")
        for note in data["notes"]
    )
    no_server_path(response, results_dir)
    # the chart comes back once its file is whole again (the page reads the files anew)
    meta.write_text(json.dumps(json.loads(meta.read_text()) | {"deals": 80_000}))
    ids = [chart["id"] for chart in client.get("/api/strategy").json()["charts"]]
    assert ids == ["knock-chart", "knock-chart-games"]


def test_a_file_gone_while_the_folder_is_looked_at_is_left_out(client, results_dir):
    # a dangling link: listed, but gone when its time is asked (a report moving its
    # files in while the page reads them)
    (results_dir / "knock_chart" / "gone.csv").symlink_to(results_dir / "nowhere.csv")
    response = client.get("/api/strategy")
    assert response.status_code == 200
    assert [chart["id"] for chart in response.json()["charts"]][:2] == [
        "knock-chart",
        "knock-chart-games",
    ]
