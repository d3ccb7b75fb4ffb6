"""The JSON API of the advisor and the practice table, through an in-process client (the
strategy page's and the guide's: :mod:`tests.web.test_strategy`)."""

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient

from analyzer.web.advisor_service import AdvisorService
from analyzer.web.app import create_app
from analyzer.web.guards import MAX_BODY_BYTES

from .conftest import BASE_URL, KNOCK_DECISION


@pytest.fixture
def client(results_dir, warm_advisor):
    # a run's time limit is the server's guard, tested in test_limits.py; here it would
    # refuse a loaded machine's requests
    service = AdvisorService(limit_seconds=math.inf)
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
    # every "play on" move names the discard principle it follows or breaks, knocks none;
    # before it, the draw principle the draw followed or broke, when the position tells it
    draws = ("Follows the draw principles: ", "Breaks the draw principles: ")
    discards = ("Follows the discard principles", "The discard principles throw", "Breaks a meld")
    for row in rows:
        text = row["principle"] or ""
        found = [text.index(start) for start in discards if start in text]
        assert len(found) == (1 if row["move"].startswith("play ") else 0), text
        draw = (text[: found[0]] if found else text).strip()
        assert draw == "" or (draw.startswith(draws) and draw.endswith(".")), text
    assert any(row["principle"].startswith(draws) for row in rows if row["principle"])
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


def test_pages_scripts_and_openapi_are_served_locally(client):
    for path in ("/", "/table", "/rummy", "/strategy", "/guide"):
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
        "/api/when-to-knock",
        "/api/how-to-discard",
        "/api/how-to-draw",
        "/api/guide",
        "/guide/card.{kind}",
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
