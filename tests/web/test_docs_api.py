"""The JSON examples of docs/web.md, sent to the server: every route is
documented, every documented request is accepted and every answer has the keys shown."""

import json
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.app import create_app

from .conftest import (
    BASE_URL,
    ROOT,
    keep_answers,
    keep_equilibrium,
    keep_guide,
    keep_knock_chart,
    keep_knock_sweep,
)

DOCUMENTS = ("docs/web.md",)
#: ``<!-- api-example: METHOD PATH [STATUS] -->``, then the request (POST) and the answer.
EXAMPLE = re.compile(
    r"<!-- api-example: (GET|POST) (\S+)(?: (\d{3}))? -->\s*```json\n(.*?)```"
    r"(?:\s*```json\n(.*?)```)?",
    re.DOTALL,
)


def documented_examples():
    """{(method, path, status): [(request, answer, document), ...]}"""
    examples = {}
    for name in DOCUMENTS:
        for method, path, status, first, second in EXAMPLE.findall((ROOT / name).read_text()):
            request, answer = (
                (json.loads(first), json.loads(second))
                if method == "POST"
                else (
                    None,
                    json.loads(first),
                )
            )
            key = (method, path, int(status or 200))
            examples.setdefault(key, []).append((request, answer, name))
    return examples


def assert_shape(documented, actual, where, top=True):
    """The answer has exactly the documented keys at the top, and every documented key
    below (lists: their first item; a documented ``…`` or empty list stands for more)."""
    if isinstance(documented, dict):
        assert isinstance(actual, dict), where
        if top:
            assert set(documented) == set(actual), (where, set(documented) ^ set(actual))
        else:
            assert set(documented) <= set(actual), (where, set(documented) - set(actual))
        for key, value in documented.items():
            assert_shape(value, actual[key], f"{where}.{key}", top=False)
    elif isinstance(documented, list):
        assert isinstance(actual, list), where
        if documented and isinstance(documented[0], dict) and actual:
            assert_shape(documented[0], actual[0], f"{where}[0]", top=False)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    results = tmp_path_factory.mktemp("docs") / "results"
    for keep in (keep_knock_chart, keep_knock_sweep, keep_equilibrium, keep_answers, keep_guide):
        keep(results)
    with TestClient(create_app(results, warm_up=False), base_url=BASE_URL) as test_client:
        yield test_client


def play_until(client, game, phases):
    while game["phase"] not in phases:
        legal = game["legal"]
        move = next((m for m in legal if m.startswith(("gin", "knock"))), None)
        move = move or ("stock" if "stock" in legal else "pass" if "pass" in legal else legal[0])
        game = client.post(f"/api/games/{game['id']}/move", json={"move": move}).json()
    return game


def test_every_route_is_documented(client):
    documented = {(method, path) for method, path, _ in documented_examples()}
    served = {
        (method.upper(), path.replace("{game_id}", "{id}"))
        for path, operations in client.get("/openapi.json").json()["paths"].items()
        for method in operations
    }
    assert served == documented


def test_the_documented_requests_get_the_documented_answers(client):
    examples = documented_examples()
    game_id = None

    def check(method, path, status=200, query=None, game=None):
        answer = None
        for request, documented, document in examples.pop((method, path, status)):
            url = path.replace("{id}", game_id or "").replace("{index}", "0")
            url = url.replace("{kind}", "pdf")
            if method == "GET":
                response = client.get(url, params=query)
            else:
                response = client.post(url, json=request)
            assert response.status_code == status, (document, path, response.text)
            answer = response.json()
            assert_shape(documented, answer, f"{document} {method} {path}")
            if status != 200:
                assert answer == documented, document
        return answer

    check("GET", "/api/presets")
    check("POST", "/api/advise")
    check("POST", "/api/advise", 400)
    game = check("POST", "/api/games")
    game_id = game["id"]
    check("GET", "/api/games/{id}")
    game = check("POST", "/api/games/{id}/move")
    game = play_until(client, game, ("discard",))
    check("GET", "/api/games/{id}/hint", query={"decision": game["decisions"]})
    move = next(m for m in game["legal"] if m.startswith("play"))
    game = client.post(f"/api/games/{game_id}/move", json={"move": move}).json()
    check("GET", "/api/games/{id}/decisions/{index}")
    game = play_until(client, game, ("hand over",))
    check("GET", "/api/games/{id}/review")
    history = check("GET", "/api/games/{id}/history")
    assert history["result"] == game["last_result"]
    check("POST", "/api/games/{id}/next")
    check("GET", "/api/rummy/presets")
    game_id = check("POST", "/api/rummy/games")["id"]
    check("GET", "/api/rummy/games/{id}")
    check("GET", "/api/rummy/games/{id}/hint")
    rummy = check("POST", "/api/rummy/games/{id}/move")
    while rummy["phase"] != "hand over":  # rummy-expert's moves, from its hints
        for move in client.get(f"/api/rummy/games/{game_id}/hint").json()["moves"]:
            rummy = client.post(f"/api/rummy/games/{game_id}/move", json={"move": move}).json()
    check("GET", "/api/rummy/games/{id}/review")
    check("POST", "/api/rummy/games/{id}/next")
    check("GET", "/api/strategy")
    assert check("GET", "/api/when-to-knock")["answer"]["family"] == "unknown"
    assert check("GET", "/api/how-to-discard")["answer"]["opponent"] == "panel"
    assert check("GET", "/api/how-to-draw")["answer"]["opponent"] == "panel"
    assert check("GET", "/api/guide")["answer"]["blocks"]
    check("GET", "/guide/card.{kind}", 404, query={"rules": "classic"})
    assert examples == {}, f"examples the test does not send: {sorted(examples)}"
