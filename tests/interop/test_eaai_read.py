"""The read of the opponent across the hands of a game in the EAAI bridge
(:class:`analyzer.interop.eaai.AgentSession`), as the engine's games carry it
(:func:`analyzer.gin.play.game_kernels.play_game`).

Seat 0 is the session; seat 1 is scripted here, in the framework's callback order
(GinRummyGame.play).  The racing hand is stacked: seat 0 holds, and can only ever get,
cards of a meld-free set (so it never knocks), and seat 1 holds three club runs plus
one loose card.  Every turn seat 1 takes seat 0's discard and throws the loose card it
held, so its deadwood is the card it took; at its turn ``knock_turn`` it knocks with it.
Seat 0's knock table (``expert``'s) knocks at 10 on turns 1-9 and only with gin from
turn 10: a knock on seat 1's turn 10 reads as racing, one on its turn 3 does not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest

from analyzer.core.cards import parse_card
from analyzer.core.melds import meld_index
from analyzer.gin.evaluator.api import min_deadwood
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.policy_fields import SCHEDULE_TURNS, PolicyField
from analyzer.gin.model.rules import PRESETS
from analyzer.gin.play.players import rollout_policy
from analyzer.interop.eaai import AgentSession, card_text

from .eaai_driver import play_game

RULES = PRESETS["eaai"]
CHAMPION = "expert"
RACING_TURN, EARLY_TURN = 10, 3
#: Seat 0's cards, all of them: each rank in two suits, no three ranks in a row in a
#: suit (spades: ranks 0 and 2 mod 3, hearts 0 and 1, diamonds 1 and 2).
FREE = [
    card_text(13 * suit + rank)
    for rank in range(13)
    for suit, residues in ((3, (0, 2)), (2, (0, 1)), (1, (1, 2)))
    if rank % 3 in residues
]
CLUB_RUNS = [["AC", "2C", "3C"], ["5C", "6C", "7C"], ["9C", "TC", "JC"]]


def _points(card: str) -> int:
    return min(parse_card(card) % 13 + 1, 10)


def tell(session: AgentSession, **message: Any) -> None:
    assert session.handle(message) is None


def ask(session: AgentSession, **message: Any) -> dict[str, Any]:
    reply = session.handle(message)
    assert reply is not None and "error" not in reply, reply
    return reply


def test_the_stacked_cards_are_as_described():
    assert len(FREE) == 26
    masks = [1 << parse_card(c) for c in FREE]
    assert all(meld_index(a | b | c) < 0 for a, b, c in combinations(masks, 3))
    assert all(meld_index(sum(1 << parse_card(c) for c in run)) >= 0 for run in CLUB_RUNS)


def _our_turn(session: AgentSession, hand: list[str], pile: list[str], stock: list[str]) -> None:
    """Seat 0 draws (the pile's top when it asks for it), throws, and does not knock."""
    take = ask(session, type="willDrawFaceUpCard", card=pile[-1])["draw"]
    card = pile.pop() if take else stock.pop(0)
    tell(session, type="reportDraw", player=0, card=card)
    hand.append(card)
    thrown = ask(session, type="getDiscard")["card"]
    assert thrown in hand and not (take and thrown == card)
    hand.remove(thrown)
    pile.append(thrown)
    tell(session, type="reportDiscard", player=0, card=thrown)
    assert ask(session, type="getFinalMelds") == {"melds": None}


def play_racing_hand(
    session: AgentSession,
    knock_turn: int,
    scores: list[int],
    before_final: Callable[[list[str], str], None] | None = None,
) -> str:
    """One stacked hand (module notes), seat 0 starting; seat 1 knocks at its turn
    ``knock_turn``; then ``scores`` are reported.  Returns the card seat 1 knocked with
    as its deadwood.  ``before_final(seat 0's cards, that card)`` runs just before the
    final hands are reported."""
    ours, loose, upcard, stock = FREE[:10], FREE[10], FREE[11], FREE[12:22]
    hand, pile = list(ours), [upcard]
    runs = [card for run in CLUB_RUNS for card in run]
    tell(session, type="startGame", player=0, starting=0, cards=ours)
    if ask(session, type="willDrawFaceUpCard", card=upcard)["draw"]:
        card = pile.pop()
    else:  # seat 1 refuses it too (no message to seat 0): seat 0 draws from the stock
        card = stock.pop(0)
    tell(session, type="reportDraw", player=0, card=card)
    hand.append(card)
    thrown = ask(session, type="getDiscard")["card"]
    hand.remove(thrown)
    pile.append(thrown)
    tell(session, type="reportDiscard", player=0, card=thrown)
    assert ask(session, type="getFinalMelds") == {"melds": None}
    for turn in range(1, knock_turn + 1):
        taken = pile.pop()
        tell(session, type="reportDraw", player=1, card=taken)
        pile.append(loose)
        tell(session, type="reportDiscard", player=1, card=loose)
        loose = taken
        if turn < knock_turn:
            _our_turn(session, hand, pile, stock)
    # the knock, reported as GinRummyGame.play reports it
    tell(session, type="reportFinalMelds", player=1, melds=CLUB_RUNS)
    melds = ask(session, type="getFinalMelds")["melds"]
    assert melds == []  # seat 0 holds no meld
    tell(session, type="reportFinalMelds", player=0, melds=melds)
    if before_final is not None:
        before_final(hand, loose)
    tell(session, type="reportFinalHand", player=0, cards=hand)
    tell(session, type="reportFinalHand", player=1, cards=[*runs, loose])
    tell(session, type="reportScores", scores=scores)
    return loose


def play_open_hand(session: AgentSession, seed: int) -> list[Any]:
    """A shuffled hand, seat 0 starting, seat 1 refusing the upcard, drawing from the
    stock and throwing the card it drew, never knocking: seat 0's replies until it
    knocks or the stock is down to two."""
    deck = [card_text(c) for c in range(52)]
    random.Random(seed).shuffle(deck)
    ours, pile, stock = deck[:10], [deck[20]], deck[21:]
    tell(session, type="startGame", player=0, starting=0, cards=ours)
    replies: list[Any] = []
    while len(stock) > 2:
        take = ask(session, type="willDrawFaceUpCard", card=pile[-1])["draw"]
        replies.append(take)
        # refused, the first upcard is refused by seat 1 too: seat 0 draws from the stock
        card = pile.pop() if take else stock.pop(0)
        tell(session, type="reportDraw", player=0, card=card)
        thrown = ask(session, type="getDiscard")["card"]
        replies.append(thrown)
        pile.append(thrown)
        tell(session, type="reportDiscard", player=0, card=thrown)
        melds = ask(session, type="getFinalMelds")["melds"]
        replies.append(melds)
        if melds is not None or len(stock) <= 3:
            break
        drawn = stock.pop(0)
        tell(session, type="reportDraw", player=1, card=None)
        pile.append(drawn)
        tell(session, type="reportDiscard", player=1, card=drawn)
    return replies


# ---------------------------------------------------------------- the read


@pytest.mark.parametrize("player", [CHAMPION, "expert-v3"])
def test_a_late_knock_short_of_gin_is_read_into_the_next_hands(player):
    session = AgentSession(parse_policy(player), RULES, seed=5)
    deadwood = play_racing_hand(session, RACING_TURN, scores=[0, 30])
    # the view scored seat 1's knock as the engine scores it
    assert session.hand.result == {
        "outcome": "knock",
        "winner": 1,
        "points": session.hand.result["points"],
        "knocker": 1,
        "knocker_deadwood": _points(deadwood),
        "defender_deadwood": session.hand.result["defender_deadwood"],
    }
    assert session.hand.own_turns(1) == RACING_TURN
    assert session.races == 1
    tell(session, type="reportScores", scores=[0, 30])  # a hand is read once
    assert session.races == 1
    play_open_hand(session, seed=1)
    assert session.hand.races == (1, 0)  # seat 0's slot: its read of seat 1
    # a second racing hand in the same game counts again
    tell(session, type="reportScores", scores=[0, 30])
    play_racing_hand(session, RACING_TURN, scores=[0, 60])
    play_open_hand(session, seed=1)
    assert session.hand.races == (2, 0)


def test_the_count_lands_in_the_seat_the_session_plays():
    session = AgentSession(parse_policy(CHAMPION), RULES, seed=5)
    play_racing_hand(session, RACING_TURN, scores=[0, 30])
    deck = [card_text(c) for c in range(52)]
    tell(session, type="startGame", player=1, starting=0, cards=deck[:10])
    assert session.hand.races == (0, 1)


def test_a_knock_the_readers_own_table_would_make_is_no_read():
    session = AgentSession(parse_policy(CHAMPION), RULES, seed=5)
    deadwood = play_racing_hand(session, EARLY_TURN, scores=[0, 30])
    assert session.hand.result["knocker_deadwood"] == _points(deadwood) > 0
    assert session.races == 0
    play_open_hand(session, seed=1)
    assert session.hand.races == (0, 0)


def test_a_new_game_starts_the_read_again():
    # a score at the target ends the game: the next hand starts a new one at 0 to 0
    session = AgentSession(parse_policy(CHAMPION), RULES, seed=5)
    play_racing_hand(session, RACING_TURN, scores=[0, 100])
    assert session.races == 1
    play_open_hand(session, seed=1)
    assert session.hand.races == (0, 0) and session.hand.scores == (0, 0)
    # scores that go down: the framework started a new game without reaching the target
    # (a forfeit); the hand just reported was the new game's first
    session = AgentSession(parse_policy(CHAMPION), RULES, seed=5)
    play_racing_hand(session, RACING_TURN, scores=[10, 40])
    play_open_hand(session, seed=1)
    assert session.hand.races == (1, 0)
    tell(session, type="reportScores", scores=[0, 0])
    play_open_hand(session, seed=2)
    assert session.hand.races == (0, 0)
    # ... and when it was a racing hand, it is the new game's first read
    tell(session, type="reportScores", scores=[0, 0])
    play_racing_hand(session, RACING_TURN, scores=[0, 25])
    assert session.races == 1


def _next_hand_replies(player: str, knock_turn: int, seed: int) -> tuple[list[Any], Any]:
    session = AgentSession(parse_policy(player), RULES, seed=5)
    play_racing_hand(session, knock_turn, scores=[0, 30])
    return play_open_hand(session, seed), session.hand.races


def test_the_read_changes_the_racer_tables_players_play_only():
    """The champion (``knock_racer``, ``discard_racer=marjj``) plays the next hand
    differently after a racing hand than after a plain one; ``expert``, with neither,
    answers the same (its count is kept all the same, as in the engine's games)."""
    changed = 0
    for seed in range(3):
        read, races = _next_hand_replies(CHAMPION, RACING_TURN, seed)
        unread, no_races = _next_hand_replies(CHAMPION, EARLY_TURN, seed)
        assert (races, no_races) == ((1, 0), (0, 0))
        changed += read != unread
        read, races = _next_hand_replies("expert-v3", RACING_TURN, seed)
        unread, no_races = _next_hand_replies("expert-v3", EARLY_TURN, seed)
        assert (races, no_races) == ((1, 0), (0, 0))
        assert read == unread
    assert changed == 3


def test_a_final_hand_the_view_cannot_hold_is_refused_and_changes_nothing():
    session = AgentSession(POLICIES["expert"], RULES, seed=5)
    runs = [card for run in CLUB_RUNS for card in run]

    def bad_final_hands(hand: list[str], knocked_with: str) -> None:
        unseen = next(c for c in FREE[22:] if c != knocked_with)
        state, races = session.hand.state.copy(), session.races
        for cards, error in [
            ([*runs[1:], knocked_with, hand[0]], "was already seen in this hand"),  # seat 0's
            ([*runs, unseen], f"known to hold {knocked_with.lower()}"),  # it took that one
            (runs, "shows its 10 cards, got 9"),
            ([*runs, "ZZ"], "ZZ"),
        ]:
            reply = session.handle({"type": "reportFinalHand", "player": 1, "cards": cards})
            assert error.lower() in reply["error"].lower(), reply
            assert (session.hand.state == state).all() and session.races == races
            assert not session.hand.done

    play_racing_hand(session, RACING_TURN, scores=[0, 30], before_final=bad_final_hands)
    assert session.hand.done and session.races == 1


def test_before_a_knock_a_final_hand_changes_nothing():
    session = AgentSession(POLICIES["expert"], RULES, seed=5)
    tell(session, type="startGame", player=0, starting=0, cards=FREE[:10])
    before = session.hand.state.copy()
    runs = [card for run in CLUB_RUNS for card in run]
    tell(session, type="reportFinalHand", player=1, cards=[*runs, FREE[10]])
    tell(session, type="reportFinalHand", player=0, cards=FREE[:10])
    assert (session.hand.state == before).all() and not session.hand.done
    tell(session, type="reportScores", scores=[0, 0])
    assert session.races == 0


# ---------------------------------------------------------------- whole games


class ReadOracle:
    """Seat 0 in :func:`tests.interop.eaai_driver.play_game`: its session, and the read
    worked out from the messages alone (the knocker's turns from its reportDraws, the
    cards seat 0 took and still holds, the knock's deadwood from the knocker's final
    hand), checked against the count each new hand of the session starts with."""

    def __init__(self, session: AgentSession) -> None:
        self.session = session
        row = rollout_policy(session.player).to_array()
        self.tables = {
            table: [int(x) for x in row[table : table + SCHEDULE_TURNS]]
            for table in (PolicyField.SCHEDULE, PolicyField.ALERT_SCHEDULE)
        }
        self.expected, self.scores, self.reads, self.hands = 0, [0, 0], 0, 0
        self.took_face_up = False

    def tell(self, **message: Any) -> None:
        kind = message["type"]
        if kind == "startGame":
            if max(self.scores) >= 100:
                self.scores, self.expected = [0, 0], 0
            self.turns, self.held, self.knocker, self.deadwood = 0, set(), None, 0
        elif kind == "reportDraw" and message["player"] == 1:
            self.turns += 1
        elif kind == "reportDraw" and self.took_face_up:
            self.held.add(message["card"])
        elif kind == "reportDiscard" and message["player"] == 0:
            self.held.discard(message["card"])
        elif kind == "reportFinalMelds" and self.knocker is None:
            self.knocker = message["player"]
        elif kind == "reportFinalHand" and message["player"] == self.knocker:
            self.deadwood = min_deadwood([parse_card(c) for c in message["cards"]])
        elif kind == "reportScores":
            table = self.tables[PolicyField.ALERT_SCHEDULE if self.held else PolicyField.SCHEDULE]
            turn = min(max(self.turns, 1), SCHEDULE_TURNS) - 1
            read = int(self.knocker == 1 and self.deadwood > table[turn])
            self.reads += read
            restarted = any(
                new < old for new, old in zip(message["scores"], self.scores, strict=True)
            )
            self.expected = read if restarted else self.expected + read
            self.scores = list(message["scores"])
        assert self.session.handle(message) is None
        if kind == "startGame":
            self.hands += 1
            assert self.session.hand.races == (self.expected, 0), self.hands

    def ask(self, **message: Any) -> dict[str, Any]:
        reply = ask(self.session, **message)
        if message["type"] == "willDrawFaceUpCard":
            self.took_face_up = reply["draw"]
        elif message["type"] == "reportDraw":
            self.took_face_up = False
        return reply


class Seat:
    def __init__(self, session: AgentSession) -> None:
        self.session = session

    def tell(self, **message: Any) -> None:
        assert self.session.handle(message) is None

    def ask(self, **message: Any) -> dict[str, Any]:
        return ask(self.session, **message)


def test_whole_games_against_a_racer_read_as_the_messages_say():
    oracle = ReadOracle(AgentSession(parse_policy(CHAMPION), RULES, seed=7))
    racer = Seat(AgentSession(POLICIES["eaai-simple"], RULES, seed=8))
    rng = random.Random(3)
    for _ in range(4):
        game = play_game([oracle, racer], rng)
        assert max(game["scores"]) >= 100
    assert oracle.reads >= 2 and oracle.hands >= 12
