"""Fuzz the EAAI agent protocol (hardening issue, items 10 and 11), in process, no Java.

A legal transcript (what one seat is told and asked in a game played by the framework's
procedure, :mod:`tests.interop.eaai_driver`) is cut, and hostile messages are inserted
into it: unknown types, seats 7 and -1, cards 99 and ``"ZZ"``, numbers as strings, huge
and infinite numbers, deep lists, legal messages out of their place (a second discard, the
same upcard offered again and again), mutated fields.  Every message must get a valid
answer or one error line, never an exception; a message that fails must leave the
session exactly as it was; the seat's view must stay a possible hand (10 or 11 cards,
a pile of distinct cards that fits the deck); and when every inserted message failed,
the legal messages get the same answers as without them.  The command ``analyzer
agent`` gets the same kind of input as raw lines.
"""

from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli.main import cli
from analyzer.core.cards import format_card, parse_card
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.interop.eaai import QUESTIONS, REPORTS, AgentSession, card_text

from .eaai_driver import play_game

CARDS = [card_text(c) for c in range(52)]
SEAT = 0


class Recorder:
    """An in-process player for :func:`play_game` that records what seat 0 receives."""

    def __init__(self, session: AgentSession, transcript: list[dict[str, Any]] | None):
        self.session = session
        self.transcript = transcript

    def tell(self, **message: Any) -> None:
        if self.transcript is not None:
            self.transcript.append(message)
        assert self.session.handle(message) is None

    def ask(self, **message: Any) -> dict[str, Any]:
        if self.transcript is not None:
            self.transcript.append(message)
        reply = self.session.handle(message)
        assert reply is not None and "error" not in reply, reply
        return reply


def new_session() -> AgentSession:
    return AgentSession(POLICIES["basic"], RULES["eaai"], seed=3)


@lru_cache(maxsize=1)
def legal_transcript() -> tuple[dict[str, Any], ...]:
    """Seat 0's messages in the first hands of a game (fixed seed)."""
    transcript: list[dict[str, Any]] = []
    players = [Recorder(new_session(), transcript), Recorder(new_session(), None)]
    play_game(players, random.Random(11))
    return tuple(transcript[:160])


# ---------------------------------------------------------------- hostile messages

SEATS = st.sampled_from(
    [
        0,
        1,
        2,
        -1,
        7,
        True,
        False,
        None,
        "0",
        "1",
        1.0,
        0.5,
        math.inf,
        -math.inf,
        math.nan,
        10**30,
        -(2**63),
        [0],
        {"seat": 0},
    ]
)
BAD_CARDS = st.sampled_from(
    [
        "",
        "X",
        "ZZ",
        "10C",
        "1C",
        "AX",
        "ac ",
        " 2D",
        "\u2660A",
        "AC" * 50,
        99,
        -1,
        0,
        51,
        3.5,
        None,
        True,
        ["AC"],
        {"card": "AC"},
    ]
)
ANY_CARD = st.sampled_from(CARDS) | BAD_CARDS
CARD_LISTS = st.lists(ANY_CARD, max_size=12) | st.lists(
    st.sampled_from(CARDS), min_size=10, max_size=11, unique=True
)
SCORES = st.lists(
    st.integers(-5, 120) | st.sampled_from([10**30, math.inf, "5", None, True]), max_size=3
)
NESTED = st.recursive(
    st.none() | st.integers(-3, 60) | st.sampled_from(CARDS),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=8,
)
FIELD_VALUES = {
    "player": SEATS,
    "starting": SEATS,
    "card": ANY_CARD,
    "cards": CARD_LISTS,
    "scores": SCORES,
    "melds": NESTED,
    "meld": NESTED,
}
TYPES = st.sampled_from(
    [*QUESTIONS, *REPORTS[:-1], "nonsense", "", "GETDISCARD"]
) | st.sampled_from([None, 5, ["startGame"], {"type": "quit"}])


@st.composite
def hostile_message(draw) -> dict[str, Any]:
    """A made-up message: any type, any subset of fields, hostile values."""
    message: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        message["type"] = draw(TYPES)
    for field in draw(st.lists(st.sampled_from(sorted(FIELD_VALUES)), max_size=3, unique=True)):
        message[field] = draw(FIELD_VALUES[field])
    return message


@st.composite
def misplaced_message(draw, transcript) -> dict[str, Any]:
    """A legal message of the game at the wrong time, or with one field mutated."""
    message = dict(draw(st.sampled_from(transcript)))
    fields = [key for key in message if key != "type"]
    if fields and draw(st.booleans()):
        field = draw(st.sampled_from(fields))
        message[field] = draw(FIELD_VALUES.get(field, NESTED))
    return message


@st.composite
def fuzzed_sessions(draw):
    """(messages, indices of the inserted ones): the legal transcript cut at some point,
    with hostile or misplaced messages inserted."""
    transcript = list(legal_transcript())
    length = draw(st.integers(1, len(transcript)))
    messages = transcript[:length]
    inserted: list[int] = []
    for _ in range(draw(st.integers(1, 12))):
        position = draw(st.integers(0, len(messages)))
        extra = draw(
            hostile_message()
            | misplaced_message(transcript)
            | st.just({"type": "willDrawFaceUpCard", "card": draw(ANY_CARD)})
        )
        messages.insert(position, extra)
        inserted = [i + (i >= position) for i in inserted] + [position]
    return messages, set(inserted)


# ---------------------------------------------------------------- invariants


def snapshot(session: AgentSession) -> tuple[Any, ...]:
    hand = session.hand
    state = (
        None
        if hand is None
        else (hand.state.tobytes(), hand.rng.tobytes(), hand.searched, hand.knocked_by)
    )
    return (
        state,
        session.me,
        session.will_knock,
        session.opponent_knocked,
        session.scores,
        session.hands_started,
        session.races,
        session.hand_read,
    )


def check_view(session: AgentSession) -> None:
    """The seat's view is a possible hand."""
    hand = session.hand
    if hand is None:
        return
    own = set(hand.cards(session.me))
    pile = list(hand.pile)
    assert len(own) in (10, 11), own
    assert len(set(pile)) == len(pile) and len(pile) <= 31, pile
    assert not own & set(pile), (own, pile)
    assert all(0 <= card < 52 for card in [*own, *pile])
    assert 0 <= hand.stock_left <= 31


def check_reply(message: dict[str, Any], reply: Any, hand_before: set[int]) -> None:
    kind = message.get("type")
    if reply is not None:
        assert isinstance(reply, dict) and len(reply) == 1, reply
        json.dumps(reply)  # one JSON line
    if reply is not None and "error" in reply:
        assert isinstance(reply["error"], str) and "\n" not in reply["error"], reply
        assert "card index" not in reply["error"], reply  # a card is named, as sent
        return
    if kind not in QUESTIONS:
        assert reply is None, (message, reply)
    elif kind == "willDrawFaceUpCard":
        assert isinstance(reply["draw"], bool), reply
    elif kind == "getDiscard":
        assert parse_card(reply["card"]) in hand_before, (reply, hand_before)
    else:
        melds = reply["melds"]
        assert melds is None or all(
            isinstance(m, list) and all(c in CARDS for c in m) for m in melds
        ), melds


def replay(messages: list[dict[str, Any]], inserted: set[int]) -> tuple[list[Any], bool]:
    """Feed ``messages`` to a fresh session checking every invariant; the replies to the
    messages not in ``inserted``, and whether every inserted message failed."""
    session = new_session()
    replies, all_failed = [], True
    for index, message in enumerate(messages):
        before = snapshot(session)
        held = set(session.hand.cards(session.me)) if session.hand is not None else set()
        reply = session.handle(message)
        check_reply(message, reply, held)
        failed = isinstance(reply, dict) and "error" in reply
        if failed:
            assert snapshot(session) == before, (message, reply)
        check_view(session)
        if index in inserted:
            all_failed &= failed
        else:
            replies.append(reply)
    return replies, all_failed


FUZZ = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(fuzzed_sessions())
def test_hostile_messages_get_answers_or_one_error_and_change_nothing(case):
    messages, inserted = case
    replies, all_failed = replay(messages, inserted)
    if all_failed:
        legal = [m for i, m in enumerate(messages) if i not in inserted]
        assert replies == replay(legal, set())[0]


def test_the_issues_messages():
    """Seat 7, card 99, and 120 alternating upcard offers (the pile grew into other
    slots)."""
    session = new_session()
    start = dict(legal_transcript()[0])
    assert start["type"] == "startGame"
    assert "player must be 0 or 1, got 7" in session.handle({**start, "player": 7})["error"]
    assert session.hand is None
    assert "card" in session.handle({**start, "cards": [99]})["error"]
    assert session.handle(start) is None
    top = legal_transcript()[1]["card"]
    other = next(card for card in CARDS if card != top and card not in start["cards"])
    answers = [
        session.handle({"type": "willDrawFaceUpCard", "card": card}) for card in [top, other] * 60
    ]
    assert all("error" in answer for answer in answers[1::2])
    check_view(session)
    assert len(session.hand.pile) == 1


# ---------------------------------------------------------------- the command


LINES = st.one_of(
    st.sampled_from(
        [
            "",
            "   ",
            "{",
            "[]",
            "null",
            "1e999",
            '{"type": "getDiscard"',
            "[" * 5000,
            '{"type": 1e400}',
            "\ufeff{}",
            '"quit"',
            '{"type":"reportScores","scores":[1e999,1]}',
            '{"type":"startGame","player":0,"starting":0,"cards":[99]}',
        ]
    ),
    st.text(max_size=40).filter(lambda text: "\n" not in text and "\r" not in text),
    hostile_message().map(lambda m: json.dumps(m, allow_nan=True)),
)


@settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.lists(LINES, max_size=8), st.integers(0, 40))
def test_agent_command_lines(lines, cut):
    """Raw lines through ``analyzer agent``: exit 0, one reply line per question, no
    traceback."""
    legal = [json.dumps(m) for m in legal_transcript()[:cut]]
    text = "\n".join(legal + lines) + "\n"
    result = CliRunner().invoke(cli, ["agent", "--rules", "eaai", "--seed", "3"], input=text)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "Traceback" not in result.output
    for line in result.stdout.splitlines():
        assert isinstance(json.loads(line), dict)
    questions = sum(1 for m in legal_transcript()[:cut] if m["type"] in QUESTIONS)
    assert len(result.stdout.splitlines()) >= questions


def test_agent_command_refuses_an_endless_line():
    result = CliRunner().invoke(cli, ["agent"], input="\0" * 40_000)
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "message 1 is longer than 16,384 characters"}
    assert result.stderr.strip().splitlines() == [
        "Error: agent message 1 is longer than 16,384 characters"
    ]


def test_errors_name_cards_not_indices():
    session = new_session()
    start = dict(legal_transcript()[0])
    cards = start["cards"]
    first = format_card(parse_card(cards[0]))
    reply = session.handle({**start, "cards": [*cards[:-1], cards[0]]})
    assert reply == {"error": f"bad startGame message: duplicate card '{first}'"}
    assert session.handle(start) is None
    reply = session.handle({"type": "willDrawFaceUpCard", "card": cards[0]})
    assert reply == {
        "error": f"bad willDrawFaceUpCard message: {first} was already seen in this hand"
    }
