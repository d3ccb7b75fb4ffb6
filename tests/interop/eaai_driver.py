"""A Python driver of the EAAI framework's game loop (GinRummyGame.play, one game to 100)
talking to ``analyzer agent`` processes, for the protocol tests and the throughput check."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

from analyzer.core.cards import parse_card
from analyzer.core.melds import meld_index
from analyzer.interop.eaai import card_text

_GOAL, _GIN, _UNDERCUT, _MAX_DEADWOOD = 100, 25, 25, 10


def _points(card: int) -> int:
    return min(card % 13 + 1, 10)


class AgentProcess:
    """``python -m analyzer agent`` as a player: one request line, one reply line."""

    def __init__(self, policy: str, seed: int) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "analyzer",
                "agent",
                "--policy",
                policy,
                "--rules",
                "eaai",
                "--seed",
                str(seed),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.messages = 0

    def tell(self, **message: Any) -> None:
        """Send a report (no reply)."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.messages += 1

    def ask(self, **message: Any) -> dict[str, Any]:
        """Send a question and read its reply."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.tell(**message)
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        assert "error" not in reply, reply
        return reply

    def close(self) -> None:
        self.tell(type="quit")
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=10) == 0
        assert self.process.stderr is not None
        errors = self.process.stderr.read()
        for pipe in (self.process.stdout, self.process.stderr):
            assert pipe is not None
            pipe.close()
        # a bad report is answered on stderr; a first use's compile notice is no error
        problems = [line for line in errors.splitlines() if not line.startswith("compiling ")]
        assert not problems, errors


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def play_game(players: list[AgentProcess], rng: random.Random) -> dict[str, Any]:
    """One game to 100 points with the framework's procedure; returns scores and outcomes."""
    scores = [0, 0]
    outcomes: list[str] = []
    starting = rng.randrange(2)
    while max(scores) < _GOAL:
        deck = list(range(52))
        rng.shuffle(deck)
        hands: list[list[int]] = [[], []]
        for i in range(20):
            hands[i % 2].append(deck.pop())
        for p in range(2):
            players[p].tell(
                type="startGame",
                player=p,
                starting=starting,
                cards=[card_text(c) for c in hands[p]],
            )
        discards = [deck.pop()]
        first = discards[-1]
        current, turns, knock_melds = starting, 0, None
        while len(deck) > 2:
            face_up = discards[-1]
            draw_face_up = False
            if not (turns == 2 and face_up == first):
                draw_face_up = players[current].ask(
                    type="willDrawFaceUpCard", card=card_text(face_up)
                )["draw"]
            if not (not draw_face_up and turns < 2 and face_up == first):
                drawn = discards.pop() if draw_face_up else deck.pop()
                for p in range(2):
                    seen = p == current or draw_face_up
                    players[p].tell(
                        type="reportDraw", player=current, card=card_text(drawn) if seen else None
                    )
                hands[current].append(drawn)
                discard = parse_card(players[current].ask(type="getDiscard")["card"])
                assert discard in hands[current] and not (draw_face_up and discard == face_up)
                hands[current].remove(discard)
                for p in range(2):
                    players[p].tell(type="reportDiscard", player=current, card=card_text(discard))
                discards.append(discard)
                knock_melds = players[current].ask(type="getFinalMelds")["melds"]
                if knock_melds is not None:
                    break
            turns += 1
            current = 1 - current
        if knock_melds is None:
            outcomes.append("cancelled")
        else:
            outcomes.append(_score_knock(players, hands, current, knock_melds, scores))
            starting = 1 - starting
        for p in range(2):
            players[p].tell(type="reportScores", scores=scores)
    return {"scores": scores, "outcomes": outcomes}


def _check_melds(melds: list[list[str]], hand: list[int]) -> tuple[list[int], int]:
    left = _mask(hand)
    masks = []
    for meld in melds:
        mask = _mask([parse_card(c) for c in meld])
        assert meld_index(mask) >= 0 and mask & left == mask, meld
        left &= ~mask
        masks.append(mask)
    return masks, sum(_points(c) for c in range(52) if left >> c & 1)


def _score_knock(
    players: list[AgentProcess],
    hands: list[list[int]],
    knocker: int,
    knock_melds: list[list[str]],
    scores: list[int],
) -> str:
    opponent = 1 - knocker
    melds, knocker_deadwood = _check_melds(knock_melds, hands[knocker])
    assert knocker_deadwood <= _MAX_DEADWOOD
    for p in range(2):
        players[p].tell(type="reportFinalMelds", player=knocker, melds=knock_melds)
    own = players[opponent].ask(type="getFinalMelds")["melds"]
    for p in range(2):
        players[p].tell(type="reportFinalMelds", player=opponent, melds=own)
    _, _ = _check_melds(own, hands[opponent])
    loose = [
        c
        for c in sorted(hands[opponent])
        if not any(c in [parse_card(x) for x in meld] for meld in own)
    ]
    if knocker_deadwood > 0:
        laid = True
        while laid:
            laid = False
            for card in loose:
                for i, meld in enumerate(melds):
                    if meld_index(meld | 1 << card) >= 0:
                        melds[i] |= 1 << card
                        loose.remove(card)
                        for p in range(2):
                            players[p].tell(
                                type="reportLayoff",
                                player=opponent,
                                card=card_text(card),
                                meld=[card_text(c) for c in range(52) if melds[i] >> c & 1],
                            )
                        laid = True
                        break
                if laid:
                    break
    opponent_deadwood = sum(_points(c) for c in loose)
    for p in range(2):
        for q in range(2):
            players[p].tell(
                type="reportFinalHand", player=q, cards=[card_text(c) for c in hands[q]]
            )
    if knocker_deadwood == 0:
        scores[knocker] += _GIN + opponent_deadwood
        return "gin"
    if knocker_deadwood < opponent_deadwood:
        scores[knocker] += opponent_deadwood - knocker_deadwood
        return "knock"
    scores[opponent] += _UNDERCUT + knocker_deadwood - opponent_deadwood
    return "undercut"
