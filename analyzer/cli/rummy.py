"""``analyzer rummy``: the group of plain rummy's commands, made from its studies'
declarations (:mod:`analyzer.studies.rummy`, :mod:`analyzer.studies.rummy_study`)."""

from __future__ import annotations

import click

from .study_commands import COMMANDS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def rummy() -> None:
    """Plain rummy (not gin): simulate hands and games and run the studies.

    \b
    Example:
      analyzer rummy simulate --a rummy-expert --b simple --deals 2000
      analyzer rummy study players --out /tmp/rummy
    """


for _name, _command in COMMANDS.items():
    if _name.startswith("rummy "):
        rummy.add_command(_command)
