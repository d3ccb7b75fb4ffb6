"""The plain-rummy practice table (``/rummy``): a whole hand played through the API by
following every hint, as rummy-expert would play it; illegal moves and bad inputs refused
in one line; games kept per client token."""

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from analyzer.rummy.hand import Hand
from analyzer.web.app import create_app
from analyzer.web.rummy_page import RUMMY_COOKIE
from analyzer.web.rummy_table import RummyGame
from analyzer.web.table_page import GameStore

from .conftest import BASE_URL

SEED = 5


@pytest.fixture
def client(results_dir):
    with TestClient(create_app(results_dir, warm_up=False), base_url=BASE_URL) as client:
        yield client


def cards_on_view(view):
    """Every card the person can count: their hand, the pile, the table, the stock and
    the other seats' hands (by number)."""
    seen = len(view["hand"]) + len(view["pile"]) + view["stock"]
    seen += sum(len(meld["cards"]) for meld in view["melds"])
    return seen + sum(seat["cards"] for seat in view["seats"][1:])


def test_a_whole_hand_follows_the_hints_and_plays_as_the_expert(client):
    view = client.post("/api/rummy/games", json={"players": 3, "seed": SEED}).json()
    assert view["phase"] == "draw" and view["your_turn"] and view["legal"] == ["draw", "take"]
    assert [seat["name"] for seat in view["seats"]] == ["you", "rummy-expert 1", "rummy-expert 2"]
    game = f"/api/rummy/games/{view['id']}"
    moves = 0
    while view["phase"] != "hand over":
        assert view["your_turn"] and cards_on_view(view) == 52
        hint = client.get(f"{game}/hint").json()
        assert hint["moves"] and hint["reason"]
        for move in hint["moves"]:
            assert move in view["legal"]
            answer = client.post(f"{game}/move", json={"move": move})
            assert answer.status_code == 200, answer.json()
            view = answer.json()
            moves += 1
        assert moves < 400
    # the person played every move as rummy-expert: the hand ends as the computers' hand
    computers = Hand.deal(players=3, seed=SEED, hand_index=0, people=())
    computers.advance()
    result = view["result"]
    names = {0: "you", 1: "rummy-expert 1", 2: "rummy-expert 2"}
    assert result["winner"] == names.get(computers.winner)
    assert result["points"] == computers.points
    scores = {seat["name"]: seat["score"] for seat in view["seats"]}
    assert sum(scores.values()) == computers.points
    review = client.get(f"{game}/review").json()
    assert review["hand"] == 1
    agreed = review["lines"][0].split()
    assert agreed[:5] == ["You", "and", "rummy-expert", "agreed", "on"] and agreed[5] == agreed[7]
    assert client.get(f"{game}/hint").json() == {"error": "no hint: it is not your move"}
    # the next hand: the person's seat moves one to the left, the seats before have played
    view = client.post(f"{game}/next").json()
    assert view["hand_number"] == 2 and view["log"][0] == "Hand 2: you play in seat 2 of 3."
    assert view["your_turn"] and len(view["log"]) > 1
    assert {seat["name"]: seat["score"] for seat in view["seats"]} == scores


def test_moves_are_checked_and_bad_inputs_refused_in_one_line(client):
    view = client.post("/api/rummy/games", json={"seed": SEED, "hints": "off"}).json()
    game = f"/api/rummy/games/{view['id']}"
    for body, status, message in (
        ({"move": "discard Kd"}, 400, "is not legal now"),
        ({"move": "knock Kd"}, 400, "unknown move 'knock'"),
        ({"move": "meld 4c 5c"}, 400, "takes 3-13 cards"),
        ({"move": "draw " + "x" * 60}, 400, "at most 60 characters"),
        ({"move": 3}, 400, "move: Input should be a valid string"),
        ({"move": "draw", "extra": 1}, 400, "extra: Extra inputs are not permitted"),
    ):
        answer = client.post(f"{game}/move", json=body)
        assert answer.status_code == status and message in answer.json()["error"], answer.json()
        assert "\n" not in answer.json()["error"]
    assert client.get(game).json() == view  # nothing changed
    for body, message in (
        ({"players": 5}, "players: Input should be less than or equal to 4"),
        ({"players": 1}, "players: Input should be greater than or equal to 2"),
        ({"rules": "bogus"}, "unknown rules preset 'bogus'"),
        ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
        ({"hints": "after"}, "hints: Input should be 'off' or 'before'"),
    ):
        answer = client.post("/api/rummy/games", json=body)
        assert answer.status_code == 400 and message in answer.json()["error"], answer.json()
    assert client.get(f"{game}/review").json() == {
        "error": "the hand is not over yet: its review comes at its end"
    }
    assert client.post(f"{game}/next").json() == {"error": "the hand is not over yet"}
    missing = client.get("/api/rummy/games/nothing-here")
    assert missing.status_code == 404 and "no game 'nothing-here'" in missing.json()["error"]
    assert client.get("/rummy").status_code == 200
    presets = client.get("/api/rummy/presets").json()
    assert presets["players"] == [2, 3, 4] and "standard" in presets["rules"]


def test_games_are_kept_per_client_token(results_dir):
    store = GameStore(limit=10, per_client=2)
    app = create_app(results_dir, warm_up=False, rummy_games=store)
    with TestClient(app, base_url=BASE_URL) as client:
        first = client.post("/api/rummy/games", json={"seed": 1})
        cookie = first.headers["set-cookie"]
        assert cookie.startswith(f"{RUMMY_COOKIE}=") and "Path=/api/rummy" in cookie
        ids = [first.json()["id"]]
        ids += [client.post("/api/rummy/games", json={"seed": s}).json()["id"] for s in (2, 3)]
        # the client's third game forgets its first; the other two are kept
        assert client.get(f"/api/rummy/games/{ids[0]}").status_code == 404
        assert all(client.get(f"/api/rummy/games/{i}").status_code == 200 for i in ids[1:])
    assert len(store.games) == 2


def test_the_log_names_each_card_taken_and_every_card_stays_in_one_place():
    game = RummyGame("g", Hand.deal().rules, "standard", players=4, seed=8)
    while game.view()["phase"] != "hand over":
        move = game.hand.decide()[0]  # rummy-expert's first move of the phase
        game.move(str(move))
        assert cards_on_view(game.view()) == 52
    taken = [line for line in game.log if " took " in line]
    assert taken and all(line.endswith(" from the pile.") for line in taken)
    assert all(any(suit in line for suit in "♠♣♥♦") for line in taken)
    with pytest.raises(ValueError, match="the hand is over"):
        game.move("draw")
