"""The report's plain-rummy section, every part played by the strong player
``rummy-expert``: it opens with how to play (``analyzer rummy how-to-play``, at two and
at four players), then the rule options valued with the expert (``analyzer rummy
options``) and the number of players' effect on a hand (``analyzer rummy study
players``, the expert in every seat).  Each answer is saved in its own folder and shown
as its command prints it; the template computes nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..studies.answer import command_line
from ..studies.rummy_lessons import EXPERT
from ..studies.rummy_study import STUDY_TABLES
from .common import Entry, Found, ReportConfig, Section, section_intro
from .markdown import answer_section

#: The how-to-play answers' folders, by number of players (the first opens the section).
HOW_TO_PLAY = {players: f"rummy_how_to_play/standard-{players}-players" for players in (2, 4)}
OPTIONS = {players: f"rummy_options/standard-{players}-players" for players in (2, 4)}
PLAYERS = f"rummy/{STUDY_TABLES['players'][0]}"

_PANEL = (
    f"`{EXPERT}`, the strongest player here (`analyzer rummy policies`), in one seat, against "
    f"a panel: `{EXPERT}` itself in every other seat, then `simple` in every other seat; the "
    "same deals for every run, seats rotated."
)


def _at_players(players: int) -> Callable[[ReportConfig], Mapping[str, Any]]:
    """The values of an entry at ``players`` players: the report's size."""
    return lambda config: {"players": players, "deals": config.size(1.0)}


def _intro(question: str, players: str, rules: str) -> str:
    """The section's opening (question, who plays, rules), without its closing blank line
    (the parts are joined by line breaks)."""
    return section_intro(question, players, rules).rstrip("\n") + "\n"


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:]


def _answer_block(found: Found, folder: str, config: ReportConfig) -> list[str]:
    """A saved answer as its command prints it, its chart, and the command that rewrites
    its folder."""
    answer = found[folder]
    chart = answer.view.chart
    command = command_line(answer.study, answer.inputs, out=(config.out / folder).as_posix())
    return [
        "```text",
        answer.text(),
        "```",
        "",
        *([f"![{chart.title}]({folder}/{chart.name}.png)", ""] if chart is not None else []),
        (
            f"Tables: {', '.join(f'[{n}.csv]({folder}/{n}.csv)' for n in answer.tables)}. "
            f"Rewritten alone by `{command}`."
        ),
        "",
    ]


def _rummy(found: Found, config: ReportConfig) -> str:
    two, four = (found[HOW_TO_PLAY[n]] for n in (2, 4))
    parts = [
        (
            "Plain rummy (seeds 000 and 004), not gin: lay off onto any meld, score the cards left "
            "in the other hands, double for going out Rummy. Every answer here is played by "
            f"`{EXPERT}`."
        ),
        "",
        "> ### How to play plain rummy",
        (
            "> The same answer as `analyzer rummy how-to-play` prints (`--players 4` for four "
            "players, below)."
        ),
        "",
        _intro(
            "When should you meld and when hold for Rummy, what should you throw, when should "
            "you lay off, and how does the number of players change each?",
            _PANEL,
            two.inputs.rules_name,
        ),
        *_answer_block(found, HOW_TO_PLAY[2], config),
        f"**At four players** ({_lower_first(four.view.verdict)})",
        "",
        *_answer_block(found, HOW_TO_PLAY[4], config),
        "### What each rule option changes",
        "",
        _intro(
            "How does each rule option of the documents change what you should do, and who wins?",
            _PANEL + " Each option alone on top of the standard rules.",
            "standard, one option at a time",
        ),
        f"**Answer.** {found[OPTIONS[2]].view.verdict}",
        "",
        *_answer_block(found, OPTIONS[2], config),
        f"**At four players** ({_lower_first(found[OPTIONS[4]].view.verdict)})",
        "",
        *_answer_block(found, OPTIONS[4], config),
        "### Player count: hand length, winner's points, seat advantage",
        "",
        answer_section(
            found[PLAYERS],
            PLAYERS,
            config,
            "How do 2 to 6 players change a hand's length, the winner's points and each seat's "
            "chances?",
            f"2 to 6 players, `{EXPERT}` in every seat, seats fixed (seat 0 plays first, the "
            "last seat deals).",
        ),
    ]
    return "\n".join(parts)


SECTIONS = (
    Section(
        "rummy",
        "Plain rummy",
        (
            *(
                Entry(
                    "rummy how-to-play",
                    folder,
                    _at_players(players),
                    seconds=seconds,
                    label=f"plain rummy: how to play, {players} players",
                )
                # the measured CPU seconds (how to play 72-77 and 67-72, the options 113-116
                # and 147-158) over the 1.8x that two idle cores give plain rummy's
                # simulation (BENCHMARKS.md)
                for (players, folder), seconds in zip(HOW_TO_PLAY.items(), (42, 40), strict=True)
            ),
            *(
                Entry(
                    "rummy options",
                    folder,
                    _at_players(players),
                    seconds=seconds,
                    label=f"plain rummy: the rule options, {players} players",
                )
                for (players, folder), seconds in zip(OPTIONS.items(), (63, 85), strict=True)
            ),
            Entry(
                "rummy study",
                PLAYERS,
                lambda config: {"name": "players", "deals": config.size(0.3)},
                seconds=5,
                label="plain rummy: players",
            ),
        ),
        _rummy,
    ),
)

__all__ = ["HOW_TO_PLAY", "OPTIONS", "PLAYERS", "SECTIONS"]
