"""The report's plain-rummy section: three entries of ``analyzer rummy study`` (meld now
or hold for Rummy, the number of players, the rule options), each saved in its own
folder under ``rummy/``, shown one after another.

The players are the scripted ones of :mod:`analyzer.rummy.policies`, named in each
part's "Who plays"; a stronger player changes the entries' values and those lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..studies.rummy_study import STUDY_TABLES
from .common import Entry, Found, ReportConfig, Section
from .markdown import answer_section

#: Each question by study name: its heading, the question, who plays.
_QUESTIONS = {
    "meld-or-hold": (
        "Should I meld now or hold for Rummy?",
        (
            "Two players: should you lay down melds at once, or hold them to go out Rummy for "
            "double points, and for how long?"
        ),
        (
            "A holder (`meld=hold`, giving up after its own turn t or above p points held in "
            "melds) against `simple`, which melds and lays off at once and throws the card that "
            "leaves the least deadwood; seats alternate."
        ),
    ),
    "players": (
        "Player count: hand length, winner's points, seat advantage",
        (
            "How do 2 to 6 players change a hand's length, the winner's points and each seat's "
            "chances?"
        ),
        "2 to 6 `simple` players, seats fixed (seat 0 plays first, the last seat deals).",
    ),
    "options": (
        "What each optional rule is worth",
        (
            "What does each rule option (seed 004's, and the common alternatives) do to a hand, "
            "and to the value of holding for Rummy?"
        ),
        (
            "Two `simple` players, and a holder through own turn 6 against `simple`, under each "
            "option."
        ),
    ),
}


def _folder(name: str) -> str:
    return f"rummy/{STUDY_TABLES[name][0]}"


def _values(name: str) -> Callable[[ReportConfig], Mapping[str, Any]]:
    """The entry's values of question ``name``: 0.3 of the report's deals per row."""
    return lambda config: {"name": name, "deals": config.size(0.3)}


def _rummy(found: Found, config: ReportConfig) -> str:
    parts = [
        (
            "Plain rummy (seeds 000 and 004), not gin: lay off onto any meld, score the cards left "
            "in the other hands, double for going out Rummy. The players are scripted, not a "
            "strong player.\n"
        )
    ]
    for name, (heading, question, players) in _QUESTIONS.items():
        folder = _folder(name)
        parts.append(f"### {heading}\n")
        parts.append(answer_section(found[folder], folder, config, question, players))
    return "\n".join(parts)


SECTIONS = (
    Section(
        "rummy",
        "Plain rummy",
        tuple(
            Entry(
                "rummy study",
                _folder(name),
                _values(name),
                seconds=seconds,
                label=f"plain rummy: {name}",
            )
            # the whole section's 8 s on 2 idle cores, shared by each study's measured time
            for name, seconds in (("meld-or-hold", 4.6), ("players", 1.7), ("options", 1.7))
        ),
        _rummy,
    ),
)

__all__ = ["SECTIONS"]
