"""Fuzz every ``/api`` route of the web app in-process (no network).

Hypothesis sends malformed and non-UTF-8 bodies, wrong types, huge and non-finite
numbers, unknown keys and nested structures, in place of any field of a valid request or
as the whole body, and odd path and query values.  The invariant: a 2xx answer with a
JSON body, or a 4xx answer whose body is exactly ``{"error": "one line"}``; never a 5xx
but the advisor's refusal of a run over its time limit (503, in one line).  The advisor's
clock makes a run of k batches take k + 1 "seconds" against a limit of 9
(:class:`~tests.web.recording.SteppingClock`): a run of 2,048 samples or fewer (a hint's
2,000) is answered, a larger one refused after 2,304, so an example costs a fraction of a
second once the kernels are compiled, however fast the machine.
"""

import json
import re
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from analyzer.core.limits import MAX_SAMPLES, SEED_MAX
from analyzer.gin.model.policies import PRESETS as POLICY_PRESETS
from analyzer.gin.model.rules import PRESETS as RULE_PRESETS
from analyzer.web.advisor_service import AdvisorService
from analyzer.web.app import create_app

from .conftest import BASE_URL, KNOCK_DECISION, keep_answers, keep_charts
from .recording import SteppingClock

#: The advisor's time limit in the fuzz, in seconds of its stepping clock (one a batch).
LIMIT = 9
#: The only 5xx the fuzz may get: the advisor refusing a run over its limit.
REFUSED = re.compile(
    rf"the advisor could not finish its [\d,]+ samples within the server's {LIMIT} s: ask "
    r"for fewer samples \(the answer depends on them\), or run analyzer advise"
)

DECK = [f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK"]
WORDS = [
    *RULE_PRESETS,
    *POLICY_PRESETS,
    "me",
    "opp",
    "hand",
    "game",
    "off",
    "before",
    "after",
    "take",
    "pass",
    "stock",
    "pile",
    "play Kd",
    "knock 3h",
    "gin Ah",
    "big gin",
    "search",
    "draw=basic,knock=7",
    "",
]
HOSTILE_NUMBERS = [
    -1,
    0,
    1,
    2,
    31,
    32,
    100,
    101,
    SEED_MAX,
    SEED_MAX + 1,
    2**64,
    -(2**63),
    10**30,
    MAX_SAMPLES,
    MAX_SAMPLES + 1,
    0.5,
    -0.0,
    1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 300),
    st.integers(2**62, 2**100),
    st.integers(-(2**100), -(2**62)),
    st.sampled_from(HOSTILE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    st.sampled_from(DECK + WORDS),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["hand", "seed", "position"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)
RAW_BODIES = st.one_of(
    st.binary(max_size=40),
    st.sampled_from(
        [
            b"",
            b"{",
            b"}",
            b"[",
            b"null",
            b"[]",
            b"{}",
            b'{"position": ',
            b'{"seed": 1e999}',
            b'{"seed": NaN}',
            b'{"a": "\xff"}',
            b"\xef\xbb\xbf{}",
            b'{"position": {"hand": "\\ud800"}}',
            b"\x00" * 8,
            b'{"move": "' + b"\xc3\x28" + b'"}',
            b"[" * 500 + b"]" * 500,
            b'{"position": {"hand": ' + b"[" * 2000 + b"]" * 2000 + b"}}",
        ]
    ),
)

ADVISE_KEYS = ["rules", "opponent", "policy", "samples", "tolerance", "seed", "extra"]
POSITION_KEYS = [
    "hand",
    "pile",
    "opp_took",
    "opp_threw",
    "stock",
    "turn",
    "dealer",
    "drawn",
    "from_pile",
    "score",
    "upcard",
    "colour",
]
GAME_KEYS = ["rules", "opponent", "mode", "hints", "seed", "extra"]

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def fuzz_client(warm_advisor, tmp_path_factory):
    results = keep_answers(keep_charts(tmp_path_factory.mktemp("fuzz") / "results"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("analyzer.web.advisor_service.time", SteppingClock(1.0))
        service = AdvisorService(limit_seconds=LIMIT)
        app = create_app(results, warm_up=False, service=service)
        with TestClient(app, base_url=BASE_URL) as client:
            yield client


@pytest.fixture(scope="module")
def game_id(fuzz_client):
    game = fuzz_client.post("/api/games", json={"opponent": "basic", "seed": 5, "mode": "hand"})
    assert game.status_code == 200, game.text
    return game.json()["id"]


def mutated(draw, body, keys, nested=None):
    """``body`` with up to three of ``keys`` (or of the nested object's) set to fuzz."""
    body = json.loads(json.dumps(body))
    for key in draw(
        st.lists(st.sampled_from(keys + (nested[1] if nested else [])), max_size=3, unique=True)
    ):
        value = draw(JSON_VALUES)
        if nested and key in nested[1] and isinstance(body.get(nested[0]), dict):
            body[nested[0]][key] = value
        else:
            body[key] = value
    return body


@st.composite
def bodies(draw, valid, keys, nested=None):
    """Raw bytes: a fuzzed valid body, any JSON value, or malformed bytes."""
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "value", "raw"]))
    if kind == "raw":
        return draw(RAW_BODIES)
    body = mutated(draw, valid, keys, nested) if kind == "mutated" else draw(JSON_VALUES)
    return json.dumps(body, allow_nan=True).encode()


def check(response):
    """2xx with JSON, or 4xx with exactly a one-line error; never 5xx but the advisor's
    refusal of a run over its limit.  A path whose dot segments lead out of /api/
    (``/api/..`` is ``/``) is a page: 2xx with HTML."""
    described = (
        f"{response.request.method} {response.request.url}: {response.status_code} "
        f"{response.text[:300]}"
    )
    event(f"HTTP {response.status_code}")  # --hypothesis-show-statistics
    if response.status_code == 503:
        assert REFUSED.fullmatch(response.json()["error"]), described
        return
    assert 200 <= response.status_code < 500, described
    if response.status_code < 300 and not response.request.url.path.startswith("/api/"):
        assert response.headers["content-type"].startswith("text/html"), described
        return
    data = response.json()
    if response.status_code >= 400:
        assert isinstance(data, dict) and set(data) == {"error"}, described
        assert isinstance(data["error"], str) and data["error"], described
        assert "\n" not in data["error"] and len(data["error"]) <= 300, described


def post(client, path, body):
    return client.post(path, content=body, headers={"content-type": "application/json"})


@FUZZ
@given(
    body=bodies(
        {"position": KNOCK_DECISION, "opponent": "basic", "samples": 64},
        ADVISE_KEYS,
        ("position", POSITION_KEYS),
    )
)
def test_advise(fuzz_client, body):
    check(post(fuzz_client, "/api/advise", body))


@pytest.fixture(scope="module")
def game_maker(fuzz_client):
    """A client of another address for the game-creation fuzz: the games it starts push
    out only its own, never the game the other fuzz tests play (no lifespan of its own:
    the app's is the fuzz client's)."""
    return TestClient(fuzz_client.app, base_url=BASE_URL, client=("10.9.9.9", 9))


@FUZZ
@given(body=bodies({"opponent": "basic", "seed": 3, "mode": "hand"}, GAME_KEYS))
def test_new_games(game_maker, body):
    check(post(game_maker, "/api/games", body))


@FUZZ
@given(
    legal=st.booleans(),
    choice=st.integers(0, 60),
    body=bodies({"move": "stock"}, ["move", "extra"]),
)
def test_moves(fuzz_client, game_id, legal, choice, body):
    """Fuzzed moves between legal ones (so the game goes on: hints, decisions, reviews
    and new hands get fuzzed in other states too)."""
    moves = fuzz_client.get(f"/api/games/{game_id}").json()["legal"]
    if legal and moves:
        body = json.dumps({"move": moves[choice % len(moves)]}).encode()
    check(post(fuzz_client, f"/api/games/{game_id}/move", body))
    if fuzz_client.get(f"/api/games/{game_id}").json()["phase"] == "hand over":
        check(fuzz_client.get(f"/api/games/{game_id}/review"))
        check(fuzz_client.post(f"/api/games/{game_id}/next"))


GAME_ID = st.one_of(
    st.just("GAME"),
    st.text(max_size=30),
    st.sampled_from(["", "..", "%00", "a" * 2000, "GAME/extra"]),
)
INDEX = st.one_of(
    st.integers(-5, 40),
    st.integers(2**62, 2**80).map(str),
    st.sampled_from(["", "x", "1.5", "-0", "٣", "1e3", "NaN", "%20"]),
)
ROUTES = st.sampled_from(
    [
        ("GET", "/api/games/{id}"),
        ("POST", "/api/games/{id}/next"),
        ("GET", "/api/games/{id}/hint"),
        ("GET", "/api/games/{id}/hint?decision={index}"),
        ("GET", "/api/games/{id}/decisions/{index}"),
        ("GET", "/api/games/{id}/review"),
        ("GET", "/api/games/{id}/history"),
        ("GET", "/api/when-to-knock?rules={id}&opponent={index}"),
        ("GET", "/api/how-to-draw?rules={id}&opponent={index}"),
        ("GET", "/api/guide?rules={id}"),
        ("GET", "/guide/card.{index}?rules={id}"),
        ("POST", "/api/games/{id}/move"),
        ("GET", "/api/presets"),
        ("GET", "/api/strategy"),
        ("POST", "/api/presets"),
        ("PUT", "/api/advise"),
        ("GET", "/api/{id}"),
        ("DELETE", "/api/games/{id}"),
    ]
)


@FUZZ
@given(route=ROUTES, raw_id=GAME_ID, index=INDEX, body=st.none() | RAW_BODIES)
def test_paths_and_queries(fuzz_client, game_id, route, raw_id, index, body):
    method, template = route
    target = quote(raw_id.replace("GAME", game_id), safe="/")
    path = template.format(id=target, index=quote(str(index), safe=""))
    check(
        fuzz_client.request(
            method, path, content=body, headers={"content-type": "application/json"}
        )
    )
