"""What a user types: the ranges of every number an option takes, the rules and policy
options, and their parsing into rules, policies and players (a bad one is a one-line
error, exit status 2)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar, cast

import click

from ..core.limits import MAX_JOBS, MAX_UNITS, SEED_MAX
from ..core.spec import Spec
from ..gin.model.policies import Policy, parse_policy
from ..gin.model.policies import ranges_text as policy_ranges_text
from ..gin.model.rules import PRESETS as RULE_PRESETS
from ..gin.model.rules import Rules, resolve_rules
from ..gin.play.players import Player, SearchPolicy, parse_player, player_field
from ..studies.study import GIN, Rulebook

#: A click command (or the function an option decorator wraps).
F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2 (bad usage or input)."""
    click.echo(f"Error: {' '.join(message.split())}", err=True)
    sys.exit(2)


# ---------------------------------------------------------------- input ranges
#
# Every number a user can type has a range, checked by click before any work starts and
# shown in --help.  The ranges are analyzer.core.limits's, shared with the notebook API
# and the web app (the memory each one allows is stated there).

SEED = click.IntRange(0, SEED_MAX)
JOBS = click.IntRange(1, MAX_JOBS)
UNITS = click.IntRange(1, MAX_UNITS)
UNITS_OR_NONE = click.IntRange(0, MAX_UNITS)


class FiniteFloatRange(click.FloatRange):
    """A :class:`click.FloatRange` that also refuses ``nan`` and ``inf`` (which compare
    as inside any open range)."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


def rules_preset_option(presets: Iterable[str] = RULE_PRESETS) -> Callable[[F], F]:
    """``--rules PRESET`` (into the parameter ``preset``), one of ``presets``."""
    return click.option(
        "--rules",
        "preset",
        default="standard",
        show_default=True,
        metavar="PRESET",
        help=f"Rules preset: {', '.join(presets)}.",
    )


def rules_options_of(rulebook: Rulebook) -> Callable[[F], F]:
    """``--rules PRESET`` (one of ``rulebook``'s presets) and repeatable ``--set
    field=value``."""

    # every value of every choice field, read from the rules' own declaration
    choices = cast("type[Spec]", rulebook.rules_type()).choices
    listed = "; ".join(f"{name} {'/'.join(values)}" for name, values in choices.items())
    listed = f"; choices: {listed}" if listed else ""

    def decorate(function: F) -> F:
        function = click.option(
            "--set",
            "overrides",
            multiple=True,
            metavar="FIELD=VALUE",
            help=f"Override one rule field (repeatable), e.g. {rulebook.set_example}; "
            f"ranges: {rulebook.ranges()}{listed}; flags yes/no.",
        )(function)
        return rules_preset_option(rulebook.presets())(function)

    return decorate


#: ``--rules PRESET`` and ``--set`` of gin's rules.
rules_options = rules_options_of(GIN)


def policy_options(function: F) -> F:
    """``--a`` and ``--b`` policies, both ``basic`` unless given."""
    function = click.option(
        "--b",
        "policy_b",
        default="basic",
        show_default=True,
        help="Policy of player B (as --a).",
    )(function)
    return click.option(
        "--a",
        "policy_a",
        default="basic",
        show_default=True,
        help="Policy of player A: a preset, draw=..,discard=..,knock=.. "
        f"({policy_ranges_text()}), or the search player "
        "search[,budget=..,rollout=..,model=..] (a model or rollout that is no "
        "preset in parentheses: model=(expert,knock=gin)).",
    )(function)


def get_rules(preset: str, overrides: tuple[str, ...]) -> Rules:
    try:
        return resolve_rules(preset, overrides)
    except ValueError as error:
        fail(str(error))


def get_policy(text: str) -> Policy:
    try:
        return parse_policy(text)
    except ValueError as error:
        fail(str(error))


def get_player(text: str) -> Policy | SearchPolicy:
    """A policy or the search player (``search,budget=..,rollout=..``)."""
    try:
        return parse_player(text)
    except ValueError as error:
        fail(str(error))


def get_players(text: str, option: str) -> dict[str, Player]:
    """The players listed in ``option`` (:func:`split_player_list`) by name: at most
    :data:`~analyzer.core.limits.MAX_LISTED_PLAYERS`, each once."""
    names = split_player_list(text)
    if not names:
        fail(f"{option} lists no player")
    try:
        return player_field(((name, parse_player(name)) for name in names), len(names), option)
    except ValueError as error:
        fail(str(error))


def split_player_list(text: str) -> list[str]:
    """Players listed in one option: separated by ``;`` when there is one, else by commas,
    a ``key=value`` part joining the player before it (``search,budget=32,basic`` is
    ``search,budget=32`` and ``basic``), as does every part inside parentheses
    (``search,model=(expert,knock=gin),basic``)."""
    if ";" in text:
        return [part.strip() for part in text.split(";") if part.strip()]
    names: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        inside = bool(names) and names[-1].count("(") > names[-1].count(")")
        if names and ("=" in part or inside):
            names[-1] += "," + part
        else:
            names.append(part)
    return names
