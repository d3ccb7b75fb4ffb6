"""``analyzer agent``: an analyzer policy speaking the EAAI framework's player protocol."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from .options import get_policy, get_rules, rules_options


@click.command("agent")
@click.option("--policy", "policy_text", default="basic", show_default=True,
              help="Policy name or spec (see `analyzer simulate --help`).")
@rules_options
@click.option("--seed", default=0, show_default=True, help="Seed of the policy's random stream.")
def agent_command(policy_text: str, preset: str, overrides: tuple[str, ...], seed: int) -> None:
    """Play as an EAAI ``GinRummyPlayer`` over stdin/stdout (JSON lines).

    One message per line; questions get one reply line, reports none; the messages mirror the interface's
    callbacks (see analyzer/interop/eaai.py and the README).  The Java adapter
    AnalyzerPlayer.java (in analyzer/interop/java/) starts this command.
    """
    from ..interop.eaai import QUESTIONS, AgentSession

    session = AgentSession(get_policy(policy_text), get_rules(preset, overrides), seed)
    message: Any
    reply: dict[str, Any] | None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as error:
            message, reply = {}, {"error": f"not JSON: {error}"}
        else:
            if not isinstance(message, dict):
                message, reply = {}, {"error": "a message is a JSON object"}
            else:
                reply = session.handle(message)
        if reply is not None:
            # questions are answered on stdout; a report's error goes to stderr only
            stream = sys.stdout if message.get("type") in QUESTIONS or not message else sys.stderr
            stream.write(json.dumps(reply, separators=(",", ":")) + "\n")
            stream.flush()
        if message.get("type") == "quit":
            return
