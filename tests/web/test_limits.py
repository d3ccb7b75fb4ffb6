"""The web app's ranges, error answers, headers and per-client bounds (in-process)."""

import asyncio
import math
import threading

import click
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi import HTTPException
from fastapi.testclient import TestClient

from analyzer.cli.advise import advise_command
from analyzer.core.limits import SEED_MAX
from analyzer.gin.play.advisor import Position
from analyzer.web.advisor_service import AdvisorService, AdvisorStopped
from analyzer.web.app import create_app
from analyzer.web.guards import SECURITY_HEADERS, host_policy
from analyzer.web.schemas import LIMITS, AdviseIn
from analyzer.web.table_page import GameStore

from .conftest import BASE_URL, KNOCK_DECISION
from .recording import Recording, slow_clock


@pytest.fixture
def client(results_dir, warm_advisor):
    with TestClient(create_app(results_dir, warm_up=False), base_url=BASE_URL) as test_client:
        yield test_client


def error_of(response, status):
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error and "\n" not in error
    assert set(response.json()) == {"error"}
    return error


# ------------------------------------------------------------------ ranges


def cli_range(name):
    """(min, max) of an ``analyzer advise`` option."""
    option = next(p for p in advise_command.params if p.name == name)
    assert isinstance(option.type, click.IntRange | click.FloatRange)
    return option.type.min, option.type.max


def test_the_api_ranges_are_the_cli_ranges_and_openapi_states_them(client):
    for name in ("samples", "tolerance", "seed", "stock", "turn"):
        assert LIMITS[name] == cli_range(name), name
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    advise, position, game = schemas["AdviseIn"], schemas["PositionIn"], schemas["NewGameIn"]

    def bounds(schema, name):
        field = schema["properties"][name]
        field = next((f for f in field.get("anyOf", [field]) if "maximum" in f), field)
        return field.get("minimum", field.get("exclusiveMinimum")), field["maximum"]

    assert bounds(advise, "samples") == LIMITS["samples"]
    assert bounds(advise, "tolerance") == LIMITS["tolerance"]
    assert bounds(advise, "seed") == bounds(game, "seed") == (0, SEED_MAX)
    assert bounds(position, "stock") == LIMITS["stock"]
    assert bounds(position, "turn") == LIMITS["turn"]
    assert client.get("/api/presets").json()["limits"]["seed"] == [0, SEED_MAX]


def test_openapi_advertises_400_with_the_error_shape_and_never_422(client):
    schema = client.get("/openapi.json").json()
    assert "422" not in str(schema) and "HTTPValidationError" not in str(schema)
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            assert "400" in operation["responses"], (method, path)
            content = operation["responses"]["400"]["content"]["application/json"]
            assert content["schema"]["$ref"].endswith("/ErrorOut")
    assert schema["components"]["schemas"]["ErrorOut"]["required"] == ["error"]


@pytest.mark.parametrize("route", ["/api/advise", "/api/games"])
@pytest.mark.parametrize("seed", [SEED_MAX + 1, 2**64, 10**30, -1, "x1"])  # "x1": /table?seed=x1
def test_seeds_outside_the_cli_range_get_400(client, route, seed):
    body = {"seed": seed, "opponent": "basic"}
    if route == "/api/advise":
        body |= {"position": KNOCK_DECISION, "samples": 300}
    assert "seed" in error_of(client.post(route, json=body), 400)


def test_the_largest_seed_is_accepted_everywhere(client):
    game = client.post("/api/games", json={"seed": SEED_MAX, "opponent": "basic"})
    assert game.status_code == 200, game.text
    advice = client.post(
        "/api/advise",
        json={"position": KNOCK_DECISION, "samples": 300, "opponent": "basic", "seed": SEED_MAX},
    )
    assert advice.status_code == 200, advice.text
    assert advice.json()["seed"] == SEED_MAX


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("samples", 0),
        ("samples", LIMITS["samples"][1] + 1),
        ("samples", 2**70),
        ("tolerance", 0),
        ("tolerance", -1),
        ("tolerance", LIMITS["tolerance"][1] * 1.001),
        ("tolerance", "NaN"),
        ("tolerance", "Infinity"),
    ],
)
def test_advisor_settings_outside_their_ranges_get_400(client, field, value):
    raw = value if isinstance(value, str) else repr(value)
    body = (
        f'{{"position": {{"hand": "{KNOCK_DECISION["hand"]}"}}, "opponent": "basic", '
        f'"{field}": {raw}}}'
    )
    response = client.post(
        "/api/advise", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert field in error_of(response, 400)


@pytest.mark.parametrize(
    ("field", "value"),
    [("stock", 1), ("stock", 32), ("stock", 2**64), ("turn", 0), ("turn", 101), ("turn", -(2**70))],
)
def test_position_counts_outside_their_ranges_get_400(client, field, value):
    body = {"position": dict(KNOCK_DECISION, **{field: value}), "opponent": "basic"}
    assert f"position.{field}" in error_of(client.post("/api/advise", json=body), 400)


@pytest.mark.parametrize(
    ("route", "change", "field"),
    [
        ("/api/advise", {"samples": True}, "samples"),
        ("/api/advise", {"samples": "300"}, "samples"),
        ("/api/advise", {"samples": 300.0}, "samples"),
        ("/api/advise", {"seed": True}, "seed"),
        ("/api/advise", {"seed": "5"}, "seed"),
        ("/api/advise", {"tolerance": "0.5"}, "tolerance"),
        ("/api/advise", {"tolerance": True}, "tolerance"),
        ("/api/advise", {"rules": 1}, "rules"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, stock="25")}, "position.stock"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, turn=True)}, "position.turn"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, turn=5.0)}, "position.turn"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, from_pile=1)}, "position.from_pile"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, from_pile="yes")}, "position.from_pile"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, score=[True, 5])}, "position.score"),
        ("/api/advise", {"position": dict(KNOCK_DECISION, score=["10", 5])}, "position.score"),
        ("/api/games", {"seed": True}, "seed"),
        ("/api/games", {"seed": "7"}, "seed"),
        ("/api/games", {"seed": 7.0}, "seed"),
        ("/api/games", {"rules": 5}, "rules"),
    ],
)
def test_json_fields_take_only_their_own_type(client, route, change, field):
    """As the CLI's position file and the notebook API: no boolean or string where a
    number is expected, no number where a boolean or a string is."""
    body = {"opponent": "basic", "seed": 1}
    if route == "/api/advise":
        body |= {"position": KNOCK_DECISION, "samples": 300}
    assert field in error_of(client.post(route, json=body | change), 400)


def test_a_move_is_a_string(client):
    game = client.post("/api/games", json={"opponent": "basic", "seed": 3}).json()
    for move in (1, True, ["take"]):
        response = client.post(f"/api/games/{game['id']}/move", json={"move": move})
        assert "move" in error_of(response, 400)


def test_a_json_integer_is_a_number():
    assert AdviseIn.model_validate({"position": KNOCK_DECISION, "tolerance": 1}).tolerance == 1.0


def test_index_arguments_outside_their_ranges_get_400(client):
    game = client.post("/api/games", json={"opponent": "basic", "seed": 3}).json()
    assert "index" in error_of(client.get(f"/api/games/{game['id']}/decisions/-1"), 400)
    assert "index" in error_of(client.get(f"/api/games/{game['id']}/decisions/{2**64}"), 400)
    hint = client.get(f"/api/games/{game['id']}/hint", params={"decision": -3})
    assert "decision" in error_of(hint, 400)


# ------------------------------------------------------------------ error answers


def test_unknown_routes_wrong_methods_and_bad_utf8_answer_error_json(client):
    assert "/nowhere" in error_of(client.get("/nowhere"), 404)
    assert "/nowhere" in error_of(client.post("/api/nowhere", json={}), 404)
    error_of(client.get("/static/missing.js"), 404)
    wrong = client.get("/api/advise")
    assert "POST" in error_of(wrong, 405)
    assert wrong.headers["allow"] == "POST"
    error_of(client.delete("/api/games"), 405)
    for body in (b'{"position": {"hand": "\xff\xfe"}}', b"\xc3\x28", b'{"seed": 1}\x80'):
        response = client.post(
            "/api/advise", content=body, headers={"content-type": "application/json"}
        )
        assert "not UTF-8" in error_of(response, 400)
    assert "bad JSON" in error_of(
        client.post("/api/games", content=b"{,}", headers={"content-type": "application/json"}), 400
    )
    # a pydantic location naming a user's key is cut and kept on one line
    response = client.post("/api/advise", json={"position": {"hand": "x", "a\nb" * 500: 1}})
    assert len(error_of(response, 400)) <= 300


def test_an_unexpected_error_is_a_json_500_without_the_traceback(results_dir, monkeypatch):
    from analyzer.web import table

    def broken(*args, **kwargs):
        raise KeyError("deliberately broken")

    monkeypatch.setattr(table.PracticeGame, "view", broken)
    with TestClient(create_app(results_dir, warm_up=False), base_url=BASE_URL) as client:
        response = client.post("/api/games", json={"opponent": "basic", "seed": 1})
    assert error_of(response, 500) == "internal error: KeyError"
    assert response.headers["x-content-type-options"] == "nosniff"


# ------------------------------------------------------------------ host and headers


def test_requests_naming_another_host_get_400(results_dir):
    app = create_app(results_dir, warm_up=False, allow_hosts=["analyzer.example"])
    with TestClient(app, base_url=BASE_URL) as client:
        for host in (
            "127.0.0.1",
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST.",
            "[::1]:80",
            "analyzer.example:443",
        ):
            assert client.get("/api/presets", headers={"host": host}).status_code == 200, host
        for host in (
            "evil.example",
            "evil.example:8000",
            "127.0.0.1.evil.example",
            "10.1.2.3",
            "localhost.evil.example",
        ):
            response = client.get("/api/presets", headers={"host": host})
            assert "Host header" in error_of(response, 400), host
            response = client.post("/api/games", json={}, headers={"host": host})
            assert "Host header" in error_of(response, 400), host


def test_the_host_policy_follows_the_bound_address():
    loopback = host_policy("127.0.0.1")
    assert loopback.allows("localhost:1") and loopback.allows("[::1]")
    assert not loopback.allows("192.168.1.5") and not loopback.allows("rebind.example")
    lan = host_policy("192.168.1.5")
    assert lan.allows("192.168.1.5:8000")
    assert not lan.allows("localhost") and not lan.allows("192.168.1.6")
    wildcard = host_policy("0.0.0.0")
    # any literal address (it cannot be rebound), this machine's names, nothing else
    assert wildcard.allows("10.0.0.7:8000") and wildcard.allows("[fe80::1]:80")
    assert wildcard.allows("localhost") and not wildcard.allows("rebind.example")
    assert host_policy("::1").allows("[0:0:0:0:0:0:0:1]:8000")
    assert host_policy("::").allows("localhost")
    named = host_policy("localhost", ["Proxy.Example"])
    assert named.allows("127.0.0.1") and named.allows("proxy.example:443")


def test_every_answer_carries_the_security_headers(client):
    answers = [
        client.get("/"),
        client.get("/table"),
        client.get("/static/common.js"),
        client.get("/api/presets"),
        client.get("/nowhere"),
        client.post("/api/advise", json={}),
        client.post(
            "/api/advise", content=b"x" * 20_000, headers={"content-type": "application/json"}
        ),
    ]
    for response in answers:
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode(), response.url
    assert "frame-ancestors 'none'" in answers[0].headers["content-security-policy"]
    assert answers[3].headers["cache-control"] == "no-store"


# ------------------------------------------------------------------ games per client


class Game:
    def __init__(self, game_id):
        self.game_id = game_id


def test_a_client_starting_many_games_forgets_only_its_own():
    store = GameStore(limit=6, per_client=3)
    store.add(Game("alice-1"), "alice")
    store.add(Game("bob-1"), "bob")
    forgotten = []
    for n in range(500):
        forgotten += store.add(Game(f"mallory-{n}"), "mallory")
    assert store.get("alice-1").game_id == "alice-1"
    assert store.get("bob-1").game_id == "bob-1"
    assert [i for i in store.games if i.startswith("mallory")] == [
        "mallory-497",
        "mallory-498",
        "mallory-499",
    ]
    assert len(forgotten) == 497 and not any(i.startswith(("alice", "bob")) for i in forgotten)
    with pytest.raises(HTTPException):
        store.get("mallory-0")


def test_beyond_the_total_a_game_gives_way_only_when_unused_long_enough():
    """The game unused the longest makes room once it is ``keep_seconds`` old; until then
    a new game replaces its client's own oldest, or is refused."""
    now = [0.0]
    store = GameStore(limit=3, per_client=2, keep_seconds=60, clock=lambda: now[0])
    for n, client in enumerate("abc"):
        now[0] = 10.0 * n
        store.add(Game(f"{client}0"), client)
    now[0] = 30
    with pytest.raises(HTTPException) as refused:
        store.add(Game("d0"), "d")
    assert refused.value.status_code == 503 and "limit of 3 games" in refused.value.detail
    now[0] = 70
    store.get("b0")  # used again: the youngest
    assert store.add(Game("d0"), "d") == ["a0"]  # unused for 70 s
    now[0] = 75
    assert store.add(Game("d1"), "d") == ["d0"]  # c0 is 55 s old: d's own gives way
    now[0] = 80
    assert store.add(Game("e0"), "e") == ["c0"]
    assert list(store.games) == ["b0", "d1", "e0"]


def test_a_flood_of_tokens_never_pushes_out_a_game_in_use():
    now = [0.0]
    store = GameStore(limit=6, per_client=3, keep_seconds=60, clock=lambda: now[0])
    store.add(Game("alice-1"), "alice")
    refused = 0
    for n in range(500):
        now[0] = n / 100
        try:
            store.add(Game(f"mallory-{n}"), f"token-{n}")
        except HTTPException:
            refused += 1
    assert refused == 495 and store.get("alice-1").game_id == "alice-1"


def test_games_are_capped_per_client_token_through_the_api(results_dir):
    store = GameStore(per_client=2)
    app = create_app(results_dir, warm_up=False, games=store)
    with (
        TestClient(app, base_url=BASE_URL, client=("10.0.0.2", 5000)) as other,
        TestClient(app, base_url=BASE_URL, client=("10.0.0.3", 5000)) as flood,
    ):
        kept = other.post("/api/games", json={"opponent": "basic", "seed": 1}).json()["id"]
        ids = [
            flood.post("/api/games", json={"opponent": "basic", "seed": n}).json()["id"]
            for n in range(5)
        ]
        assert other.get(f"/api/games/{kept}").status_code == 200
        for game_id in ids[:3]:
            assert "no game" in error_of(flood.get(f"/api/games/{game_id}"), 404)
        for game_id in ids[3:]:
            assert flood.get(f"/api/games/{game_id}").status_code == 200


def test_a_local_process_starting_many_games_leaves_the_users_open_game(results_dir):
    """Every local process shares the user's address: 25 games started by another (with
    its own token, or with none, a new one each time) never forget the user's game."""
    app = create_app(results_dir, warm_up=False)
    with (
        TestClient(app, base_url=BASE_URL, client=("127.0.0.1", 5000)) as browser,
        TestClient(app, base_url=BASE_URL, client=("127.0.0.1", 5001)) as process,
    ):
        mine = browser.post("/api/games", json={"opponent": "basic", "seed": 1})
        assert mine.status_code == 200
        for n in range(25):
            process.post("/api/games", json={"opponent": "basic", "seed": n})
        for n in range(25):
            process.cookies.clear()
            process.post("/api/games", json={"opponent": "basic", "seed": n})
        assert browser.get(f"/api/games/{mine.json()['id']}").status_code == 200
        # the browser keeps its token: its own games count against it
        token = mine.cookies["table_client"]
        again = browser.post("/api/games", json={"opponent": "basic", "seed": 2})
        assert "table_client" not in again.cookies and browser.cookies["table_client"] == token


# ------------------------------------------------------------------ advisor work


def knock_position(**changes):
    return Position.from_json(dict(KNOCK_DECISION, **changes))


def advice_of(service, samples):
    """The service's answer (its own timing left out) for the knock decision, basic
    against basic, seed 1, with a tolerance too fine to stop the race before its budget."""
    advice = service.run(knock_position(), "standard", "basic", "basic", samples, 1, 1e-9)
    advice.pop("elapsed_s")
    return advice


def test_a_request_runs_its_whole_budget_and_a_slow_server_gives_the_same_answer(
    warm_advisor, monkeypatch
):
    """No budget is cut to what a measured rate fits: the samples asked for are the
    samples run, and a server whose runs take longer (by its clock) answers the same,
    to the last digit, as long as it finishes within its limit."""
    fast = AdvisorService(limit_seconds=math.inf)
    try:
        answer = advice_of(fast, 2_000)
    finally:
        fast.stop()
    assert answer["samples"] == answer["sample_budget"] == 2_000
    slow_clock(monkeypatch, step=1.0)  # 8 batches and the start: 9 s
    slow = AdvisorService(limit_seconds=9)
    try:
        slowly = advice_of(slow, 2_000)
    finally:
        slow.stop()
    assert slowly["time_limit_s"] == 9
    assert slowly | {"time_limit_s": answer["time_limit_s"]} == answer


def test_a_run_that_cannot_finish_within_the_limit_is_refused_never_answered_from_fewer(
    warm_advisor, monkeypatch
):
    service, again = Recording(limit_seconds=9), AdvisorService(limit_seconds=9)
    slow_clock(monkeypatch, step=1.0)  # 2,048 samples (8 batches) take 9 s, 2,049 take 10
    try:
        assert advice_of(service, 2_048)["samples"] == 2_048
        with pytest.raises(AdvisorStopped) as refused:
            advice_of(service, 2_049)
        # a refused run leaves nothing behind: the same request answers the same
        assert advice_of(again, 2_048) == advice_of(service, 2_048)
    finally:
        service.stop()
        again.stop()
    assert str(refused.value) == (
        "the advisor could not finish its 2,049 samples within the server's 9 s: ask for "
        "fewer samples (the answer depends on them), or run analyzer advise"
    )
    assert service.ends == ["answered", str(refused.value), "answered"]


def test_the_api_refuses_a_run_over_the_limit_in_one_line_and_serves_on(
    results_dir, warm_advisor, monkeypatch
):
    slow_clock(monkeypatch, step=1.0)
    app = create_app(results_dir, warm_up=False, service=AdvisorService(limit_seconds=9))
    body = {"position": KNOCK_DECISION, "opponent": "basic", "policy": "basic", "seed": 1}
    with TestClient(app, base_url=BASE_URL) as client:
        assert client.get("/api/presets").json()["advice_limit_seconds"] == 9
        refused = client.post("/api/advise", json=body | {"samples": 5_000, "tolerance": 1e-9})
        answered = client.post("/api/advise", json=body | {"samples": 1_000})
    assert error_of(refused, 503) == (
        "the advisor could not finish its 5,000 samples within the server's 9 s: ask for "
        "fewer samples (the answer depends on them), or run analyzer advise"
    )
    assert answered.status_code == 200 and answered.json()["sample_budget"] == 1_000


async def settled(service):
    """Wait until the service has no run queued or running (at most 5 s)."""
    for _ in range(100):
        if not service._pending:
            return
        await asyncio.sleep(0.05)


def advise_async(service, client="alice", samples=10**6, disconnected=None):
    return service.advise(
        knock_position(), "standard", "basic", "basic", samples, 1, 1e-9, client, disconnected
    )


def test_a_run_answered_503_stops_and_a_queued_one_never_starts(warm_advisor):
    service = Recording(limit_seconds=0.4)  # answers within 1.2 s or 503

    async def scenario():
        blocker = threading.Event()
        service.executor.submit(blocker.wait, 5)  # the advisor thread is busy
        with pytest.raises(HTTPException) as waited:
            await advise_async(service)
        blocker.set()
        await settled(service)
        return waited.value

    try:
        error = asyncio.run(scenario())
    finally:
        service.stop()
    assert error.status_code == 503 and "did not answer within 1.2 s" in error.detail
    assert service.ends == ["nobody waits for this run any more"]
    assert not service._pending


def test_a_run_whose_client_went_away_stops(warm_advisor):
    service = Recording(limit_seconds=60, poll_seconds=0.05)  # a million samples: 60 s at least
    gone = threading.Event()

    async def disconnected():
        return gone.is_set()

    async def scenario():
        threading.Timer(0.5, gone.set).start()
        with pytest.raises(HTTPException):
            await advise_async(service, disconnected=disconnected)
        while not service.ends:
            await asyncio.sleep(0.05)

    try:
        asyncio.run(scenario())
    finally:
        service.stop()
    # stopped at the next batch, not refused at the 60 s limit
    assert service.ends == ["nobody waits for this run any more"]


def test_advisor_requests_are_bounded_per_client_and_in_all(warm_advisor):
    service = Recording(limit_seconds=0.5, max_queue=3, max_per_client=2)

    async def scenario():
        blocker = threading.Event()
        service.executor.submit(blocker.wait, 5)
        first = [asyncio.create_task(advise_async(service, "alice")) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(HTTPException) as too_many:
            await advise_async(service, "alice")
        other = asyncio.create_task(advise_async(service, "bob"))
        await asyncio.sleep(0.05)
        with pytest.raises(HTTPException) as busy:
            await advise_async(service, "carol")
        blocker.set()
        await asyncio.gather(*first, other, return_exceptions=True)
        await settled(service)
        return too_many.value, busy.value

    try:
        too_many, busy = asyncio.run(scenario())
    finally:
        service.stop()
    assert too_many.status_code == 429 and "at most 2 advisor requests" in too_many.detail
    assert busy.status_code == 503 and "busy" in busy.detail
    assert not service._pending


def test_a_request_that_stopped_waiting_frees_its_clients_place_at_once(warm_advisor):
    """A page that moved on (or went) may ask again at once; the abandoned run keeps its
    place in the queue until it stops, so abandoning runs cannot flood the queue."""
    service = Recording(limit_seconds=0.5, max_queue=3, max_per_client=1)

    async def scenario():
        blocker = threading.Event()
        service.executor.submit(blocker.wait, 5)  # the advisor thread is busy

        async def gone():
            return True

        with pytest.raises(HTTPException) as abandoned:
            await advise_async(service, "alice", disconnected=gone)
        queued_after_abandon = sum(service._pending.values())
        again = asyncio.create_task(advise_async(service, "alice"))
        await asyncio.sleep(0.05)
        waiting = dict(service._waiting)
        blocker.set()
        await asyncio.gather(again, return_exceptions=True)
        await settled(service)
        return abandoned.value, queued_after_abandon, waiting

    try:
        abandoned, queued_after_abandon, waiting = asyncio.run(scenario())
    finally:
        service.stop()
    assert abandoned.status_code == 503 and "went away" in abandoned.detail
    assert queued_after_abandon == 1  # the abandoned run still holds its place in the queue
    assert waiting == {"alice": 1}  # the second request was let in, not refused 429
    assert not service._pending and not service._waiting


def test_a_score_at_the_target_is_refused_before_any_work(client, monkeypatch):
    def no_table(*args, **kwargs):
        raise AssertionError("an equity table was built")

    monkeypatch.setattr("analyzer.web.advisor_service._equity", no_table)
    response = client.post(
        "/api/advise",
        json={
            "position": dict(KNOCK_DECISION, score=[100, 20]),
            "opponent": "gin-hunter",
            "rules": "classic",
        },
    )  # classic plays to 100
    assert "already reaches the target" in error_of(response, 400)
