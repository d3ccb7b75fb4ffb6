"""The JSON API under the pages, through an in-process client."""

import json
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pandas as pd
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.advisor_service import AdvisorService
from analyzer.web.app import create_app
from analyzer.web.guards import MAX_BODY_BYTES

from .conftest import BASE_URL, KNOCK_DECISION, ROOT, write_committed_answers


@pytest.fixture
def client(results_dir, warm_advisor):
    # a run's time limit (10 s) is the server's guard, tested with its own service below;
    # here it would fail a loaded machine's sample-count requests
    service = AdvisorService(limit_seconds=120)
    app = create_app(results_dir, warm_up=False, service=service)
    with TestClient(app, base_url=BASE_URL) as test_client:
        yield test_client


def assert_400(response, reason):
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert reason in error
    assert "\n" not in error


def test_advise_ranks_every_action_of_a_knock_decision(client):
    response = client.post(
        "/api/advise",
        json={"position": KNOCK_DECISION, "samples": 1500, "opponent": "basic", "seed": 3},
    )
    assert response.status_code == 200, response.text
    advice = response.json()
    actions = advice["actions"]
    assert {a["kind"] for a in actions} == {"knock", "play"}
    assert advice["verdict"].startswith(("Knock", "Play on"))
    assert advice["settings"]["opponent"] == "basic"
    for row in actions:
        # probabilities are weighted sums, exact to rounding (1.0000000000000002 seen)
        assert -1e-12 <= row["p_win"] <= 1 + 1e-12 and -1e-12 <= row["p_undercut"] <= 1 + 1e-12
        assert row["half_width"] > 0
    assert actions[0]["behind"] == 0


def test_one_request_gives_one_answer_whatever_the_servers_speed(client):
    """The same position and seed with the default samples, three times: the same JSON
    but for the run's own timings (the budget is fixed, not sized by the measured rate)."""
    from analyzer.gin.play.advisor import ADVICE_SAMPLES

    body = {"position": KNOCK_DECISION, "seed": 7}
    answers = []
    for _ in range(3):
        response = client.post("/api/advise", json=body)
        assert response.status_code == 200, response.text
        answer = response.json()
        answer.pop("elapsed_s")
        answers.append(answer)
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["sample_budget"] == ADVICE_SAMPLES


def test_twin_throws_are_too_close_to_call_as_in_the_cli_and_the_api(client):
    import analyzer as az

    # two isolated kings (tests/gin/play/test_advisor.py)
    twins = "As 5s 9s 2c 6c Kc 3d 7d Kd 4h 8h"
    settings = {"samples": 512, "seed": 1, "policy": "basic", "opponent": "basic"}
    response = client.post(
        "/api/advise", json={"position": {"hand": twins, "stock": 25}, **settings}
    )
    assert response.status_code == 200, response.text
    verdict = response.json()["verdict"]
    assert verdict.startswith("Too close to call: ")
    assert verdict == az.advise(twins, stock=25, **settings).verdict


def test_the_player_chooses_the_play_on_model_which_is_expert_by_default(client):
    """As analyzer advise: you play on as expert unless told otherwise."""
    for policy, expected in ((None, "expert"), ("basic", "basic")):
        body = {"position": KNOCK_DECISION, "samples": 300, "opponent": "basic"}
        response = client.post("/api/advise", json=body | ({"policy": policy} if policy else {}))
        assert response.status_code == 200, response.text
        assert response.json()["settings"]["policy"] == expected
    assert client.get("/api/presets").json()["default_policy"] == "expert"


def test_the_cli_position_json_with_lists_and_a_score_is_accepted(client):
    position = dict(KNOCK_DECISION, hand=KNOCK_DECISION["hand"].split(), score=[45, 80])
    response = client.post(
        "/api/advise", json={"position": position, "samples": 600, "opponent": "basic"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["objective"] == "game"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"position": dict(KNOCK_DECISION, pile="3c Td")}, "3c is in two places: hand and pile"),
        (
            {"position": dict(KNOCK_DECISION, hand=KNOCK_DECISION["hand"] + " 9c")},
            "wrong hand size: 12 cards",
        ),
        (
            {"position": dict(KNOCK_DECISION, hand="3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 3h")},
            "duplicate card '3h'",
        ),
        (
            {"position": dict(KNOCK_DECISION, stock=40)},
            "position.stock: Input should be less than or equal to 31",
        ),
        ({"position": dict(KNOCK_DECISION, turn=30)}, "turn 30 does not fit a stock of 25"),
        (
            {"position": {k: v for k, v in KNOCK_DECISION.items() if k != "stock"} | {"turn": 40}},
            "position.turn: turn 40 does not fit this position",
        ),
        ({"position": dict(KNOCK_DECISION, hand="3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 1x")}, "1x"),
        ({"position": dict(KNOCK_DECISION, colour="red")}, "position.colour"),
        ({"position": KNOCK_DECISION, "rules": "nope"}, "unknown rules preset 'nope'"),
        ({"position": KNOCK_DECISION, "opponent": "wizard"}, "unknown policy 'wizard'"),
        ({"position": KNOCK_DECISION, "samples": 0}, "samples"),
        ({}, "position: Field required"),
    ],
)
def test_impossible_positions_and_bad_settings_get_400(client, body, reason):
    assert_400(client.post("/api/advise", json=body), reason)
    assert client.get("/api/presets").status_code == 200  # still serving


def test_bad_json_gets_400_and_oversized_bodies_413(client):
    headers = {"content-type": "application/json"}
    assert_400(client.post("/api/advise", content=b'{"position": ', headers=headers), "bad JSON")
    assert_400(client.post("/api/advise", content=b"[1, 2]", headers=headers), "")
    big = b'{"position": {"hand": "' + b" " * MAX_BODY_BYTES + b'"}}'
    response = client.post("/api/advise", content=big, headers=headers)
    assert response.status_code == 413
    assert "request body over" in response.json()["error"]
    streamed = client.post("/api/advise", content=iter([big]), headers=headers)
    assert streamed.status_code == 413
    assert client.get("/api/presets").status_code == 200


def play_until(client, game, phases):
    """Make the first legal move (knocking when possible) until the phase is one of
    ``phases``."""
    while game["phase"] not in phases:
        legal = game["legal"]
        move = next((m for m in legal if m.startswith(("gin", "knock"))), None)
        move = move or ("stock" if "stock" in legal else "pass" if "pass" in legal else legal[0])
        response = client.post(f"/api/games/{game['id']}/move", json={"move": move})
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def test_a_practice_hand_through_the_api_with_hints_and_review(client):
    created = client.post("/api/games", json={"opponent": "basic", "seed": 4, "hints": "before"})
    assert created.status_code == 200, created.text
    game = created.json()
    assert game["opponent"] == "basic" and game["mode"] == "game"
    game = play_until(client, game, ("discard",))
    hint = client.get(f"/api/games/{game['id']}/hint", params={"decision": game["decisions"]})
    assert hint.status_code == 200, hint.text
    assert hint.json()["actions"]
    late = client.get(f"/api/games/{game['id']}/hint", params={"decision": 99})
    assert late.json() == {"stale": True}
    # a page reload finds the same game
    assert client.get(f"/api/games/{game['id']}").json() == game
    game = play_until(client, game, ("hand over", "game over"))
    assert game["last_result"]["hand"] == 1
    assert len(game["last_result"]["computer_hand"]) in (10, 11)
    review = client.get(f"/api/games/{game['id']}/review")
    assert review.status_code == 200, review.text
    rows = review.json()["decisions"]
    assert len(rows) == game["decisions"] >= 1
    costs = [row["cost"] for row in rows if row["cost"] is not None]
    assert costs == sorted(costs, reverse=True)
    assert all(cost >= 0 for cost in costs)
    assert review.json()["total_cost"] == pytest.approx(sum(costs))
    # every "play on" move names the discard principle it follows or breaks; knocks none
    for row in rows:
        if row["move"].startswith("play "):
            assert row["principle"].startswith(
                ("Follows the discard principles", "The discard principles throw", "Breaks a meld")
            )
        else:
            assert row["principle"] is None
    following = client.post(f"/api/games/{game['id']}/next")
    assert following.status_code == 200
    assert following.json()["hand_number"] == 2


def test_a_hint_still_waiting_when_the_player_moves_answers_stale(results_dir, warm_advisor):
    """A quick player's hints stop once they are stale: they answer ``{"stale": true}``
    (not an error the page would log) and free the player's place in the advisor."""
    service = AdvisorService(poll_seconds=0.05)
    blocker = threading.Event()
    service.executor.submit(blocker.wait, 10)  # the advisor thread is busy
    app = create_app(results_dir, warm_up=False, service=service)
    try:
        with TestClient(app, base_url=BASE_URL) as client:
            game = client.post("/api/games", json={"opponent": "basic", "seed": 4}).json()
            game = play_until(client, game, ("discard",))
            url = f"/api/games/{game['id']}/hint"
            with ThreadPoolExecutor(1) as pool:
                hint = pool.submit(client.get, url, params={"decision": game["decisions"]})
                time.sleep(0.3)  # the hint waits for the busy advisor
                assert not hint.done()
                move = client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]})
                assert move.status_code == 200, move.text
                answer = hint.result(timeout=5)
            assert answer.status_code == 200 and answer.json() == {"stale": True}
            assert not service._waiting
    finally:
        blocker.set()
        service.stop()


def test_illegal_moves_get_400_and_change_nothing(client):
    game = client.post("/api/games", json={"opponent": "basic", "seed": 6}).json()
    game = play_until(client, game, ("discard",))
    absent = next(
        f"{r}{s}" for s in "cdhs" for r in "A23456789TJQK" if f"{r}{s}" not in game["hand"]
    )
    url = f"/api/games/{game['id']}/move"
    assert_400(client.post(url, json={"move": f"play {absent}"}), "is not in your hand")
    assert_400(client.post(url, json={"move": "take"}), "is not a move now")
    assert_400(client.post(url, json={"move": "fly away"}), "is not a move now")
    assert_400(client.post(url, json={"move": "play " + "K" * 30}), "move")
    assert_400(client.post(f"/api/games/{game['id']}/next"), "not over")
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert client.get("/api/games/nope").status_code == 404
    assert_400(client.post("/api/games", json={"mode": "forever"}), "mode")


def test_decisions_after_acting_carry_the_cost_of_the_move(client):
    game = client.post("/api/games", json={"opponent": "basic", "seed": 8, "hints": "after"}).json()
    game = play_until(client, game, ("discard",))
    move = next(m for m in game["legal"] if m.startswith("play"))
    after = client.post(f"/api/games/{game['id']}/move", json={"move": move}).json()
    assert after["decision_made"] == 0
    row = client.get(f"/api/games/{game['id']}/decisions/0").json()
    assert row["move"] == move
    assert row["cost"] >= 0
    assert row["best"] == row["advice"]["actions"][0]["action"]
    assert client.get(f"/api/games/{game['id']}/decisions/5").status_code == 404


def test_strategy_charts_hover_shows_the_ci_and_the_samples(client, results_dir):
    data = client.get("/api/strategy").json()
    # the folder as the server was given it, not its place on the server's disk
    assert data["results"] == "results" and str(results_dir.parent) not in json.dumps(data)
    assert data["found"] == "Read from results (the server's results folder)."
    ids = [chart["id"] for chart in data["charts"]]
    assert ids == ["knock-chart", "knock-chart-games", "knock-sweep-diff", "knock-sweep-game-win"]
    for chart in data["charts"]:
        trace = chart["figure"]["data"][0]
        assert "95% CI" in trace["hovertemplate"] and "n = " in trace["hovertemplate"]
        # titles and subtitles are the page's text (a plotly title does not wrap)
        assert chart["title"] and "title" not in chart["figure"]["layout"]
        assert "opponent" in chart["subtitle"] and "rules standard" in chart["subtitle"]
    assert any("No robust knock chart" in note for note in data["notes"])
    # a robust chart, once committed, is picked up (the cache follows the files)
    robust = results_dir / "knock_chart_robust"
    robust.mkdir()
    shutil.copy(results_dir / "knock_chart" / "knock_chart.csv", robust / "robust.csv")
    data = client.get("/api/strategy").json()
    assert "robust-robust" in [chart["id"] for chart in data["charts"]]
    assert not any("No robust" in note for note in data["notes"])


def test_the_knock_chart_has_cell_numbers_and_the_knock_play_on_boundary(client, results_dir):
    chart = pd.read_csv(results_dir / "knock_chart" / "knock_chart.csv")
    figure = next(
        c for c in client.get("/api/strategy").json()["charts"] if c["id"] == "knock-chart"
    )
    heatmap = figure["figure"]["data"][0]
    assert heatmap["texttemplate"] == "%{z:+.1f}"
    segments = figure["figure"]["layout"]["shapes"]
    # every segment separates two shown cells of opposite sign, and each such pair has one
    shown = {(row.turn, row.deadwood): row.mean > 0 for row in chart.itertuples() if row.enough}
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


def test_the_sweep_charts_leave_out_the_determinism_check(client):
    charts = client.get("/api/strategy").json()["charts"]
    sweep = [c for c in charts if c["id"].startswith("knock-sweep")]
    assert len(sweep) == 2
    for chart in sweep:
        names = [trace["name"] for trace in chart["figure"]["data"]]
        assert names == ["knock-ASAP (basic)", "gin-hunter"]
        assert "determinism" not in json.dumps(chart)


def test_robust_rules_are_charted_standard_first(client, results_dir):
    folder = results_dir / "robust_knock"
    folder.mkdir()
    for rules in ("classic", "oklahoma", "standard"):
        rows = ["rules,turns,first_turn,deadwood,knock_probability"]
        rows += [f"{rules},1-32,1,{dw},1.0" for dw in range(11)]
        (folder / f"{rules}_strategy.csv").write_text("\n".join(rows) + "\n")
    data = client.get("/api/strategy").json()
    ids = [chart["id"] for chart in data["charts"]]
    assert ids[:3] == [
        "robust-standard_strategy",
        "robust-classic_strategy",
        "robust-oklahoma_strategy",
    ]
    assert ids[3] == "knock-chart"
    assert "standard rules" in data["charts"][0]["title"]


def test_strategy_without_results_says_what_is_missing(tmp_path):
    with TestClient(create_app(tmp_path / "none", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["charts"] == [] and data["results"] is None
    assert data["found"] == "No results folder: the server's results folder none does not exist."


def test_a_server_started_elsewhere_finds_the_results_of_the_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANALYZER_RESULTS", raising=False)
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["results"] == "results"
    assert data["found"] == (
        "Read from results in the analyzer's project folder (the server's folder has no "
        "folder results)."
    )
    assert data["charts"][0]["id"] == "robust-standard_strategy"
    # a results folder in the server's folder comes first
    shutil.copytree(ROOT / "results" / "knock_chart", tmp_path / "results" / "knock_chart")
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["found"] == "Read from results (the server's results folder)."
    assert [c["id"] for c in data["charts"]] == ["knock-chart", "knock-chart-games"]
    # the folder $ANALYZER_RESULTS names comes before both
    monkeypatch.setenv("ANALYZER_RESULTS", str(ROOT / "results"))
    with TestClient(create_app("results", warm_up=False), base_url=BASE_URL) as client:
        data = client.get("/api/strategy").json()
    assert data["found"] == "Read from the folder $ANALYZER_RESULTS names."
    assert data["charts"][0]["id"] == "robust-standard_strategy"


def test_pages_scripts_and_openapi_are_served_locally(client):
    for path in ("/", "/table", "/rummy", "/strategy"):
        page = client.get(path)
        assert page.status_code == 200
        assert "http://" not in page.text and "https://" not in page.text
    assert client.get("/static/plotly.min.js").headers["content-type"].startswith("text/javascript")
    schema = client.get("/openapi.json").json()
    assert {
        "/api/advise",
        "/api/games",
        "/api/games/{game_id}/move",
        "/api/games/{game_id}/review",
        "/api/strategy",
    } <= set(schema["paths"])


class HeldAdvisor(AdvisorService):
    """An advisor whose runs wait, inside the advisor thread, until the test lets them go
    (at most a minute), so that "answered during the run" depends on no timing."""

    def __init__(self) -> None:
        super().__init__(limit_seconds=60)
        self.started = threading.Event()
        self.release = threading.Event()

    def run(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.started.set()
        released_by_the_test = self.release.wait(timeout=60)
        return super().run(*args, **kwargs) | {"released_by_the_test": released_by_the_test}


def test_a_long_advisor_run_does_not_block_other_requests(results_dir, warm_advisor):
    """Advisor work runs off the event loop: a game starts while an advisor run is held
    in the advisor thread, and is answered before that run is let go."""
    service = HeldAdvisor()
    slow = {}
    with TestClient(
        create_app(results_dir, warm_up=False, service=service), base_url=BASE_URL
    ) as client:

        def held_advice():
            slow["response"] = client.post(
                "/api/advise",
                json={
                    "position": KNOCK_DECISION,
                    "samples": 2_000,
                    "tolerance": 0.01,
                    "opponent": "basic",
                },
            )

        thread = threading.Thread(target=held_advice)
        thread.start()
        assert service.started.wait(timeout=60)
        game = client.post("/api/games", json={"opponent": "basic", "seed": 1})
        answered_during_the_run = "response" not in slow
        service.release.set()
        thread.join()
    assert game.status_code == 200 and slow["response"].status_code == 200
    assert slow["response"].json()["released_by_the_test"]
    assert slow["response"].json()["samples"] == 2_000  # the whole budget: no early stop
    assert answered_during_the_run


def test_the_robust_knock_rule_of_an_equilibrium_run_is_charted(client, results_dir):
    folder = results_dir / "robust_knock"
    folder.mkdir()
    rows = ["rules,turns,first_turn,deadwood,knock_probability"]
    rows += [
        f"standard,{a}-{b},{a},{dw},{1.0 if dw <= 7 else 0.25}"
        for a, b in ((1, 4), (5, 8), (9, 32))
        for dw in range(11)
    ]
    (folder / "standard_strategy.csv").write_text("\n".join(rows) + "\n")
    (folder / "standard_mixture.csv").write_text("rules,table,weight\nstandard,7/7/7,1.0\n")
    data = client.get("/api/strategy").json()
    robust = [chart for chart in data["charts"] if chart["id"] == "robust-standard_strategy"]
    assert len(robust) == 1
    trace = robust[0]["figure"]["data"][0]
    assert trace["x"] == ["1-4", "5-8", "9-32"]
    assert trace["z"][10] == [0.25, 0.25, 0.25] and trace["z"][0] == [1.0, 1.0, 1.0]
    assert "standard rules" in robust[0]["title"]
    assert not data["notes"]  # the mixture file is skipped, not reported as unknown


def test_the_robust_chart_shows_the_alert_thresholds_beside_the_others(client, results_dir):
    folder = results_dir / "robust_knock"
    folder.mkdir()
    rows = ["rules,turns,first_turn,opponent_holds_pile_card,deadwood,knock_probability"]
    rows += [
        f"standard,{a}-{b},{a},{signal},{dw},{1.0 if dw <= 10 - 6 * signal * (a > 1) else 0.0}"
        for signal in (0, 1)
        for a, b in ((1, 6), (7, 32))
        for dw in range(11)
    ]
    (folder / "standard_strategy.csv").write_text("\n".join(rows) + "\n")
    data = client.get("/api/strategy").json()
    robust = [chart for chart in data["charts"] if chart["id"] == "robust-standard_strategy"]
    trace = robust[0]["figure"]["data"][0]
    assert trace["x"] == ["1-6", "7-32", "1-6 (alert)", "7-32 (alert)"]
    assert trace["z"][10] == [1.0, 1.0, 1.0, 0.0] and trace["z"][4] == [1.0, 1.0, 1.0, 1.0]


def test_when_to_knock_reads_the_written_answer_from_the_report(client, results_dir):
    missing = client.get("/api/when-to-knock").json()
    assert missing["answer"] is None
    assert "when_to_knock/answers.csv is missing" in missing["missing"]
    assert "analyzer when-to-knock --rules standard --opponent unknown" in missing["missing"]
    write_committed_answers(results_dir)
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
    assert (
        answer["result_text"] == "+2.00 ± 0.50 points per hand on average over the 7 test opponents"
    )
    assert answer["worst_text"].startswith("-1.00 ± 0.40 points per hand against `search`")
    assert answer["source"] == "results/when_to_knock/answers.csv (`analyzer report`)"
    assert str(results_dir.parent) not in json.dumps(data)
    # a panel member names its family; another rules preset is not in the report
    basic = client.get("/api/when-to-knock", params={"opponent": "basic"}).json()
    assert basic["answer"]["family"] == "knocks-at-once"
    classic = client.get("/api/when-to-knock", params={"rules": "classic"}).json()
    assert classic["answer"] is None
    assert "when_to_knock_by_rules/classic/answers.csv is missing" in classic["missing"]
    assert (
        "'analyzer when-to-knock --rules classic --out results' writes it" in (classic["missing"])
    )
    assert_400(client.get("/api/when-to-knock", params={"rules": "nope"}), "nope")
    assert_400(client.get("/api/when-to-knock", params={"opponent": "wizard"}), "wizard")


def test_how_to_discard_reads_the_written_answer_and_says_what_is_missing(client, results_dir):
    missing = client.get("/api/how-to-discard").json()
    assert missing["answer"] is None
    assert "how_to_discard/standard is missing: 'analyzer report' writes it" in missing["missing"]
    shutil.copytree(
        ROOT / "results" / "how_to_discard" / "eaai", results_dir / "how_to_discard" / "eaai"
    )
    data = client.get("/api/how-to-discard", params={"rules": "eaai", "opponent": "camper"}).json()
    answer = data["answer"]
    assert answer["title"] == "How to discard · eaai rules · against `marjj` (camper)"
    assert answer["rule"].startswith("When you do not knock, throw one of your unmatched cards")
    worths = [line["mean"] for line in answer["principles"]]
    assert worths == sorted(worths, reverse=True) and len(worths) == 4
    assert answer["share"]["low"] <= answer["share"]["mean"] <= answer["share"]["high"]
    assert "analyzer how-to-discard --rules eaai" in answer["source"]
    assert_400(client.get("/api/how-to-discard", params={"opponent": "wizard"}), "wizard")
    assert_400(client.get("/api/how-to-discard", params={"rules": "nope"}), "nope")
