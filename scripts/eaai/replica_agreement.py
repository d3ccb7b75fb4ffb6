"""How often the ``marjj`` replica answers as the original MARJJ agent did.

Reads the JSON-lines logs written by ``scripts/eaai/DecisionLog.java`` (the original
agent playing in the EAAI framework), replays every callback the agent received into an
:class:`analyzer.interop.eaai.AgentSession` playing the ``marjj`` policy, and compares
the session's answer with the original's at every question:

* draw (``willDrawFaceUpCard``): the same yes/no;
* discard (``getDiscard``): the same card (raw), or a card among the replica's tied best
  choices (tie-aware: the original breaks score ties with an unseeded ``Random`` and
  gin discards by its hand order, so no replay can follow those coin flips);
* knock (``getFinalMelds`` before the opponent knocked): knock or not.  After a discard
  other than the original's, the session's own knock answer was about another hand: the
  replay then applies the replica's knock rule to the original's discard (and tells the
  session, so that it follows the hand as played); those knocks are counted apart.  After
  the opponent knocked the question is the defender's melds, not a decision: not counted.

    python scripts/eaai/replica_agreement.py marjj.jsonl [more.jsonl] [--json]
        [--policy marjj] [--show 5]

Prints the counts and rates, and the first ``--show`` disagreements of each kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.core.cards import parse_card
from analyzer.gin.decisions.marjj import marjj_choices
from analyzer.gin.engine.transitions import Slot
from analyzer.gin.evaluator.partition import min_deadwood_kernel
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import PRESETS as RULES
from analyzer.gin.model.state import knock_threshold
from analyzer.interop.eaai import AgentSession, card_text


def _state(session: AgentSession) -> np.ndarray:
    """The session's state array (the session keeps it in its hand, or itself)."""
    hand = getattr(session, "hand", None)
    return hand.state if hand is not None else session.state  # type: ignore[attr-defined]


def _tied_choices(session: AgentSession) -> set[int]:
    """The cards the replica might throw now (its ties), from the session's state."""
    state = _state(session).copy()
    me = np.int64(session.me)
    mask = int(marjj_choices(state, me, np.zeros(52, dtype=np.int64), np.zeros(0, dtype=np.int64)))
    return {c for c in range(52) if mask >> c & 1}


def _knocks_after(session: AgentSession, row: np.ndarray, card: int) -> bool:
    """The replica's knock rule applied to throwing ``card`` from the session's hand."""
    state = _state(session)
    me = np.int64(session.me)
    left = min_deadwood_kernel(np.int64(state[Slot.HAND + me] & ~(1 << card)))
    return bool(left == 0 or left <= knock_threshold(state, me, row))


def replay(paths: list[Path], policy_text: str = "marjj", show: int = 5) -> dict[str, Any]:
    """Counts of agreement over every game in ``paths`` (see the module docstring)."""
    policy = parse_policy(policy_text)
    row = policy.to_array()
    rules = RULES["eaai"]
    counts: Counter[str] = Counter()
    examples: dict[str, list[dict[str, Any]]] = {"draw": [], "discard": [], "knock": []}
    session = AgentSession(policy, rules, seed=0)
    discard_agreed = True
    opponent_knocked = False
    game = -1
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            message = json.loads(line)
            kind = message["type"]
            if kind == "game":
                game += 1
                session = AgentSession(
                    policy, rules, seed=int(message["seed"]) * 2 + int(message["seat"])
                )
                continue
            if kind == "result":
                counts["games"] += 1
                continue
            if kind == "startGame":
                counts["hands"] += 1
                opponent_knocked = False
                discard_agreed = True
            if kind == "reportFinalMelds" and int(message["player"]) != int(session.me):
                opponent_knocked = True
            reply = message.pop("reply", None)
            where = {"file": str(path), "line": number, "game": game}
            if kind == "getDiscard":
                tied = _tied_choices(session)
            answer = session.handle(message)
            if answer is not None and "error" in answer:
                raise SystemExit(f"{path}:{number}: the session refused {line}: {answer}")
            if kind == "willDrawFaceUpCard":
                counts["draw"] += 1
                if answer == reply:
                    counts["draw_agree"] += 1
                elif len(examples["draw"]) < show:
                    examples["draw"].append(
                        {**where, "card": message["card"], "original": reply, "replica": answer}
                    )
            elif kind == "getDiscard":
                assert answer is not None and reply is not None
                counts["discard"] += 1
                original = parse_card(reply["card"])
                discard_agreed = answer["card"] == reply["card"]
                if not discard_agreed:
                    session.will_knock = _knocks_after(session, row, original)
                counts["discard_agree"] += discard_agreed
                counts["discard_agree_ties"] += original in tied
                counts["discard_tied"] += len(tied) > 1
                if original not in tied and len(examples["discard"]) < show:
                    state = _state(session)
                    examples["discard"].append(
                        {
                            **where,
                            "original": reply["card"],
                            "replica": answer["card"],
                            "replica_ties": sorted(card_text(c) for c in tied),
                            "hand": sorted(
                                card_text(c)
                                for c in range(52)
                                if int(state[Slot.HAND + session.me]) >> c & 1 or c == original
                            ),
                        }
                    )
            elif kind == "getFinalMelds" and not opponent_knocked:
                assert answer is not None and reply is not None
                knocks = reply["melds"] is not None, answer["melds"] is not None
                if not discard_agreed:
                    counts["knock_after_other_discard"] += 1
                    counts["knock_after_other_discard_agree"] += knocks[0] == knocks[1]
                    continue
                counts["knock"] += 1
                counts["knock_agree"] += knocks[0] == knocks[1]
                counts["knocks_original"] += knocks[0]
                counts["knocks_replica"] += knocks[1]
                if knocks[0] != knocks[1] and len(examples["knock"]) < show:
                    examples["knock"].append({**where, "original": knocks[0], "replica": knocks[1]})
    questions = counts["draw"] + counts["discard"] + counts["knock"]
    agree = counts["draw_agree"] + counts["discard_agree"] + counts["knock_agree"]
    agree_ties = counts["draw_agree"] + counts["discard_agree_ties"] + counts["knock_agree"]

    def rate(part: int, whole: int) -> float:
        return round(part / whole, 4) if whole else float("nan")

    return {
        "policy": policy_text,
        "games": counts["games"],
        "hands": counts["hands"],
        "questions": questions,
        "agreement_raw": rate(agree, questions),
        "agreement_tie_aware": rate(agree_ties, questions),
        "draw": {"n": counts["draw"], "agree": rate(counts["draw_agree"], counts["draw"])},
        "discard": {
            "n": counts["discard"],
            "agree_raw": rate(counts["discard_agree"], counts["discard"]),
            "agree_tie_aware": rate(counts["discard_agree_ties"], counts["discard"]),
            "replica_ties": counts["discard_tied"],
        },
        "knock": {
            "n": counts["knock"],
            "agree": rate(counts["knock_agree"], counts["knock"]),
            "original_knocks": counts["knocks_original"],
            "replica_knocks": counts["knocks_replica"],
            "after_other_discard": {
                "n": counts["knock_after_other_discard"],
                "agree": rate(
                    counts["knock_after_other_discard_agree"], counts["knock_after_other_discard"]
                ),
            },
        },
        "disagreements": examples,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="+", type=Path)
    parser.add_argument("--policy", default="marjj")
    parser.add_argument("--show", type=int, default=5, help="disagreements shown per kind")
    parser.add_argument("--json", action="store_true", help="one JSON object, no prose")
    args = parser.parse_args(argv)
    result = replay(args.logs, args.policy, args.show)
    if args.json:
        print(json.dumps(result))
        return 0
    shown = {k: v for k, v in result.items() if k != "disagreements"}
    print(json.dumps(shown, indent=1))
    for kind, items in result["disagreements"].items():
        for item in items:
            print(kind, json.dumps(item))
    return 0


if __name__ == "__main__":
    sys.exit(main())
