"""``analyzer agent``: an analyzer player (a policy or the search player) speaking the EAAI
framework's player protocol."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import IO, Any

import click

from ..core.limits import MAX_MESSAGE_CHARS, load_json
from .inputs import SEED, fail, get_player, get_rules, rules_options


@click.command("agent")
@click.option(
    "--policy",
    "policy_text",
    default="basic",
    show_default=True,
    help="Policy name or spec, or the search player search[,budget=..,"
    "rollout=..] (see `analyzer simulate --help`).",
)
@rules_options
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of the policy's random stream, 0 <= seed < 2**63.",
)
def agent_command(policy_text: str, preset: str, overrides: tuple[str, ...], seed: int) -> None:
    """Play as an EAAI GinRummyPlayer over stdin/stdout (JSON lines).

    \b
    Example:
      analyzer agent --policy expert --rules eaai      # started by AnalyzerPlayer.java
      python scripts/eaai/match.py --help              # a match in the EAAI framework

    One message per line (at most 16 KB); questions get one reply line, reports none; the
    messages mirror the interface's callbacks (see analyzer/interop/eaai.py and
    docs/harnesses.md).  The Java adapter AnalyzerPlayer.java (in analyzer/interop/java/) starts
    this command.  A line longer than 16 KB ends the session: one error reply, then
    exit status 2.
    """
    from ..interop.eaai import QUESTIONS, AgentSession

    session = AgentSession(get_player(policy_text), get_rules(preset, overrides), seed)
    message: Any
    reply: dict[str, Any] | None
    stdin = sys.stdin
    if hasattr(stdin, "reconfigure"):  # bytes that are not UTF-8 become bad messages
        stdin.reconfigure(errors="replace")
    for number, line in _message_lines(stdin):
        if line is None:
            _send(
                sys.stdout,
                {"error": f"message {number} is longer than {MAX_MESSAGE_CHARS:,} characters"},
            )
            fail(f"agent message {number} is longer than {MAX_MESSAGE_CHARS:,} characters")
        if not line.strip():
            continue
        try:
            message = load_json(line, "message")
        except ValueError as error:
            message, reply = {}, {"error": str(error)}
        else:
            if not isinstance(message, dict):
                message, reply = {}, {"error": "a message is a JSON object"}
            else:
                reply = session.handle(message)
        if reply is not None:
            # questions are answered on stdout; a report's error goes to stderr only
            _send(
                sys.stdout if message.get("type") in QUESTIONS or not message else sys.stderr, reply
            )
        if message.get("type") == "quit":
            return


def _message_lines(stream: IO[str]) -> Iterator[tuple[int, str | None]]:
    """``(number, line)`` of each line of ``stream``, reading at most
    :data:`~analyzer.core.limits.MAX_MESSAGE_CHARS` characters of it (``None`` for a line
    longer than that, after which the stream is not read further)."""
    number = 0
    while True:
        line = stream.readline(MAX_MESSAGE_CHARS + 2)  # the line, its newline, one more
        if not line:
            return
        number += 1
        if len(line.rstrip("\r\n")) > MAX_MESSAGE_CHARS:
            yield number, None
            return
        yield number, line


def _send(stream: IO[str], reply: dict[str, Any]) -> None:
    stream.write(json.dumps(reply, separators=(",", ":")) + "\n")
    stream.flush()
