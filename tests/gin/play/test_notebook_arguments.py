"""The notebook API checks its arguments with the command line's ranges (hardening issue,
item 12): a wrong kind of value is a ``TypeError``, a value out of range a ``ValueError``,
each naming the argument as the user wrote it, before any work (so at once)."""

import math
import re

import numpy as np
import pytest

import analyzer as az
import analyzer.api  # loaded here: the timings below are of the checks alone
from analyzer.core.limits import (
    MAX_LISTED_PLAYERS,
    MAX_RAW_UNITS,
    MAX_SAMPLES,
    MAX_UNITS,
    SEED_MAX,
)
from analyzer.gin.model.policies import INT_RANGES, Discard, Policy, parse_policy
from analyzer.gin.model.policy_fields import MAX_WEIGHT
from analyzer.gin.play.players import SearchPolicy
from analyzer.interop.eaai import AgentSession

HAND = "4c 5c 6c 7d 7h 7s 9s Ts Js Kd 2h"


CASES = [
    # (call, error, text the message must hold)
    (lambda: az.simulate(seed=2**64), ValueError, f"seed must be 0-{SEED_MAX}, got {2**64}"),
    (lambda: az.simulate(seed=-1), ValueError, "seed must be 0-"),
    (lambda: az.simulate(seed=1.5), TypeError, "seed must be an integer, got 1.5"),
    (lambda: az.simulate(a=None), TypeError, "a must be a policy name"),
    (lambda: az.simulate(b=7), TypeError, "b must be a policy name"),
    (lambda: az.simulate(rules=None), TypeError, "rules must be a rules preset name"),
    (lambda: az.simulate(deals=10**13), ValueError, f"deals must be 1-{MAX_UNITS}, got {10**13}"),
    (lambda: az.simulate(deals=0), ValueError, "deals must be 1-"),
    (lambda: az.simulate(deals=True), TypeError, "deals must be an integer, got True"),
    (lambda: az.simulate(deals=1e3), TypeError, "deals must be an integer, got 1000.0"),
    (
        lambda: az.simulate(keep_rows=True, deals=10**9),
        ValueError,
        f"deals with keep_rows=True must be 1-{MAX_RAW_UNITS}, got {10**9}",
    ),
    (lambda: az.simulate(keep_rows="yes"), TypeError, "keep_rows must be True or False"),
    (lambda: az.simulate(progress="bar"), TypeError, "progress must be True, False, None"),
    (lambda: az.play_games(games=0), ValueError, "games must be 1-"),
    (lambda: az.play_games(a=None), TypeError, "a must be a policy name"),
    (lambda: az.policy(None), TypeError, "text must be a string, got None"),
    (
        lambda: az.policy("basic", outs=10**9),
        ValueError,
        f"outs must be -{MAX_WEIGHT} to {MAX_WEIGHT}",
    ),
    (lambda: az.rules(None), TypeError, "name must be a string, got None"),
    (lambda: az.advise(None), TypeError, "hand must be a string, got None"),
    (
        lambda: az.advise(HAND, temperature=math.nan),
        ValueError,
        "temperature must be a finite number, got nan",
    ),
    (lambda: az.advise(HAND, temperature=math.inf), ValueError, "temperature must be"),
    (lambda: az.advise(HAND, temperature=0), ValueError, "temperature must be > 0"),
    (lambda: az.advise(HAND, tolerance=-1.0), ValueError, "tolerance must be > 0"),
    (
        lambda: az.advise(HAND, samples=MAX_SAMPLES + 1),
        ValueError,
        f"samples must be 1-{MAX_SAMPLES}",
    ),
    (lambda: az.advise(HAND, seed=2**64), ValueError, "seed must be 0-"),
    (lambda: az.advise(HAND, stock=10**30), ValueError, "stock must be 2-31, got 1"),
    (lambda: az.advise(HAND, turn=0), ValueError, "turn must be 1-"),
    (lambda: az.advise(HAND, stock="20"), TypeError, "stock must be an integer"),
    (lambda: az.advise(HAND, policy=5), TypeError, "policy must be a policy name"),
    (lambda: az.advise(HAND, bogus=1), TypeError, "unexpected keyword argument 'bogus'"),
    (lambda: az.advise(HAND, weights="flat"), ValueError, "weights must be 'model' or"),
    (lambda: az.advise(HAND, cross_check="marjj"), ValueError, "cross_check must be one of"),
    (lambda: az.advise(HAND, cross_check=1), TypeError, "cross_check must be a string"),
    (lambda: az.advise(HAND, equity_deals=10), ValueError, "equity_deals must be"),
    (
        lambda: az.variants("standard"),
        TypeError,
        "presets must be a list of rules preset names, got 'standard' (write ['standard'])",
    ),
    (lambda: az.variants([]), ValueError, "presets is empty"),
    (lambda: az.variants(["standard", "nope"]), ValueError, "unknown rules preset 'nope'"),
    (lambda: az.variants(["standard", "standard"]), ValueError, "names a preset twice"),
    (lambda: az.variants(deals=1), ValueError, f"deals must be 2-{MAX_RAW_UNITS}, got 1"),
    (lambda: az.variants(deals=10**7), ValueError, f"deals must be 2-{MAX_RAW_UNITS}"),
    (lambda: az.knock_sweep(thresholds=[]), ValueError, "thresholds is empty"),
    (
        lambda: az.knock_sweep(thresholds=[3, 11]),
        ValueError,
        "a knock threshold must be 0-10, got 11",
    ),
    (lambda: az.knock_sweep(thresholds=[3, 3]), ValueError, "lists a threshold twice"),
    (lambda: az.knock_sweep(thresholds=7), TypeError, "thresholds must be a list"),
    (lambda: az.knock_sweep(games=10**13), ValueError, "games must be 1-"),
    (lambda: az.knock_chart(min_samples=0), ValueError, "min_samples must be 1-"),
    (lambda: az.tournament("basic"), TypeError, "policies must be a list of policies"),
    (lambda: az.tournament(["basic"]), ValueError, "at least two policies"),
    (lambda: az.tournament(["basic", "basic"]), ValueError, "names 'basic' twice"),
    (
        lambda: az.tournament(["basic", "simple", "basic,knock=10"]),
        ValueError,
        "policies names the same player twice: 'basic' and 'basic,knock=10'",
    ),
    (
        lambda: az.tournament(["basic"] * (MAX_LISTED_PLAYERS + 1)),
        ValueError,
        f"policies lists {MAX_LISTED_PLAYERS + 1} players; at most {MAX_LISTED_PLAYERS}",
    ),
    (lambda: az.tournament(["basic", None]), TypeError, "policies[1] must be a policy"),
    (lambda: az.dealt(deals=0), ValueError, "deals must be 1-"),
    (lambda: az.dealt(seed=2**63), ValueError, "seed must be 0-"),
    (lambda: az.replay(seed=2**70), ValueError, "seed must be 0-"),
    (lambda: az.replay(seed=-1), ValueError, "seed must be 0-"),
    (lambda: az.replay(deal=2**70), ValueError, f"deal must be 0-{MAX_UNITS - 1}"),
    (lambda: az.replay(a_dealer="no"), TypeError, "a_dealer must be True or False"),
    (lambda: az.replay(deck=52), TypeError, "deck must be a string or None"),
]


@pytest.mark.parametrize(
    ("call", "error", "text"), CASES, ids=[f"case{i}" for i in range(len(CASES))]
)
def test_bad_arguments_name_the_parameter(call, error, text):
    with pytest.raises(error, match=re.escape(text)) as raised:
        call()
    for internal in ("n_deals", "n_games", "first_deal", "total"):
        assert internal not in str(raised.value)


def test_arguments_at_the_ends_of_their_ranges_run():
    assert az.simulate(deals=1, seed=SEED_MAX).deals == 1
    assert az.simulate(deals=2, keep_rows=True, seed=0).rows.shape[0] == 4
    sweep = az.knock_sweep(deals=20, games=2, thresholds=(10, 0), seed=3)
    assert sweep["sweep"]["threshold"].drop_duplicates().tolist() == [10, 0]
    field = ("basic", Policy(discard=Discard(slack=5)))
    assert len(az.tournament(field, deals=10, games=2)["ranking"]) == 2
    assert az.replay(seed=SEED_MAX, deal=MAX_UNITS - 1).summary()


def test_the_api_accepts_numpy_integers():
    assert az.simulate(deals=np.int64(3), seed=np.int32(2)).deals == 3


def test_policy_fields_have_ranges():
    for name, (low, high) in INT_RANGES.items():
        assert Policy().changed(**{name: low}).value(name) == low
        assert Policy().changed(**{name: high}).value(name) == high
        with pytest.raises(ValueError, match=name):
            Policy().changed(**{name: high + 1})
        with pytest.raises(TypeError, match=name):
            Policy().changed(**{name: float(low)})


@pytest.mark.parametrize(
    "text",
    [
        "basic,outs=99999999999999999999999",
        "basic,knock=\u0663",
        "basic,danger=1e9",
        "basic,knock_bias=-100001",
    ],
)
def test_policy_strings_out_of_range(text):
    with pytest.raises(ValueError, match=r"must be|expected an integer"):
        parse_policy(text)


@pytest.mark.parametrize("value", [5, None, ["basic"]])
def test_policy_strings_must_be_strings(value):
    with pytest.raises(TypeError, match="a policy is a preset name or a string form"):
        parse_policy(value)


def test_knock_schedules_are_integer_pairs():
    assert az.policy("basic", knock=[[1, 0], [8, 10]]).knock.schedule == ((1, 0), (8, 10))
    for schedule in (7.5, ((1, 7.5),), "7"):
        with pytest.raises(TypeError, match="knock schedule"):
            az.policy("basic", knock=schedule)


def test_agent_session_seed_in_range():
    with pytest.raises(ValueError, match="seed must be 0-"):
        AgentSession(az.policy("basic"), az.rules("eaai"), seed=10**23)


def test_search_policy_checks_its_rollout():
    with pytest.raises(TypeError, match="search rollout must be a Policy"):
        SearchPolicy(rollout="basic")


_CARDS = tuple(az.parse_hand(HAND))


def _position(**changes):
    from analyzer.gin.play.advisor import Position

    return Position(**{"hand": _CARDS, "stock": 20, **changes})


POSITION_CASES = [
    # a Position built directly: each field checked as Hand checks its inputs
    ({"hand": (*_CARDS[:10], 52)}, ValueError, "hand: bad card index 52"),
    ({"hand": (*_CARDS[:10], -1)}, ValueError, "hand: bad card index -1"),
    ({"hand": (*_CARDS[:10], 1000)}, ValueError, "hand: bad card index 1000"),
    ({"hand": (*_CARDS[:10], 5.0)}, ValueError, "hand: bad card index 5.0"),
    ({"hand": (*_CARDS[:10], True)}, ValueError, "hand: bad card index True"),
    ({"hand": HAND}, TypeError, "hand must be a list of card indices 0-51"),
    ({"hand": 12345}, TypeError, "hand must be a list of card indices 0-51"),
    ({"pile": (1000,)}, ValueError, "pile: bad card index 1000"),
    ({"opp_took": (52,)}, ValueError, "opp_took: bad card index 52"),
    ({"opp_threw": (-3,)}, ValueError, "opp_threw: bad card index -3"),
    ({"upcard": 77}, ValueError, "upcard: bad card index 77"),
    ({"drawn": 2.0}, ValueError, "drawn: bad card index 2.0"),
    ({"hand": (*_CARDS[:10], _CARDS[0])}, ValueError, "a card is listed twice in the hand"),
    ({"score": (1, 2, 3)}, ValueError, "score must be two whole numbers (mine, theirs)"),
    ({"score": (1.0, 2)}, ValueError, "score must be two whole numbers (mine, theirs)"),
    ({"score": "45:80"}, TypeError, "score must be (mine, theirs) in points"),
    ({"stock": 20.0}, TypeError, "stock must be a whole number or None, got 20.0"),
    ({"turn": True}, TypeError, "turn must be a whole number or None, got True"),
    ({"dealer": 0}, TypeError, "dealer must be 'me' or 'opp', got 0"),
    ({"from_pile": 1}, TypeError, "from_pile must be True or False, got 1"),
]


@pytest.mark.parametrize(
    ("changes", "error", "text"),
    POSITION_CASES,
    ids=[f"position{i}" for i in range(len(POSITION_CASES))],
)
def test_a_position_built_directly_names_its_bad_field(changes, error, text):
    with pytest.raises(error, match=re.escape(text)):
        _position(**changes)


def test_a_position_built_directly_takes_what_hand_takes():
    """numpy integers and arrays are card indices (stored as a tuple of int), and the
    upcard may be in the hand: the player took it at the first offer."""
    from analyzer.gin.play.hand import Hand

    position = _position(hand=np.array(_CARDS), upcard=np.int64(_CARDS[0]), score=[45, 80])
    assert position.hand == _CARDS and all(type(card) is int for card in position.hand)
    assert position.score == (45, 80) and position.upcard == _CARDS[0]
    assert Hand.from_position(position).deadwood(0) >= 0


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (lambda: az.parse_hand(None), "a hand in notation must be a string"),
        (lambda: az.parse_hand(12345), "a hand in notation must be a string"),
        (lambda: az.parse_card(None), "a card in notation must be a string"),
    ],
)
def test_notation_that_is_no_string_is_a_type_error(call, text):
    with pytest.raises(TypeError, match=text):
        call()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"hand": 12345}, "hand"),
        ({"hand": None}, "hand"),
        ({"hand": HAND, "pile": 5}, "pile"),
        ({"hand": HAND, "opp_threw": ["Kd"]}, "opp_threw"),
        ({"hand": HAND, "upcard": 3}, "upcard"),
        ({"hand": HAND, "score": 5}, "score"),
    ],
)
def test_position_from_options_names_a_field_that_is_no_notation(options, field):
    from analyzer.gin.play.advisor import Position

    with pytest.raises(TypeError, match=f"^{field} must be"):
        Position.from_options(**options)
