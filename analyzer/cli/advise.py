"""The ``analyzer advise`` command: should I knock, and with which discard?"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

import click

from ..core.limits import load_json, read_text
from ..gin.play.advisor import Position
from ..gin.play.advisor.inputs import ADVICE_OPTIONS, POSITION_FIELDS, Input, InputKind
from ..report.advice import (
    CROSS_CHECKS,
    advise_position,
    cross_check_model,
    position_equity,
    strongest_model,
)
from ..studies.text import rules_text
from .inputs import FiniteFloatRange, fail, get_player, get_rules, rules_options
from .output import echo_json, format_options, show_result
from .progress import progress_bar

__all__ = ["advise_command"]

#: The position options a --position file does not silence.
FILE_OVERRIDES = ("score", "upcard")


def _flag(name: str) -> str:
    """The command-line option of the input ``name``."""
    return "--" + name.replace("_", "-")


def _option(spec: Input) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of one declared input (:mod:`analyzer.gin.play.advisor.inputs`)."""
    settings: dict[str, Any] = {"default": spec.default}
    if spec.kind is InputKind.COUNT:
        settings["type"] = click.IntRange(int(spec.low), int(spec.high))
    elif spec.kind is InputKind.NUMBER:
        settings["type"] = FiniteFloatRange(min=spec.low, min_open=True, max=spec.high)
    elif spec.kind is InputKind.CHOICE:
        settings["type"] = click.Choice(spec.choices)
    elif spec.kind is InputKind.FLAG:
        settings["is_flag"] = True
    shown = spec.default not in (None, "", False)
    return click.option(
        _flag(spec.name), spec.name, show_default=shown, help=spec.described(_flag), **settings
    )


def _declared(specs: tuple[Input, ...]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options of ``specs``, listed by ``--help`` in their order."""

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        for spec in reversed(specs):  # click lists the last decorator applied first
            function = _option(spec)(function)
        return function

    return decorate


@click.command("advise")
@_declared(POSITION_FIELDS)
@click.option(
    "--position",
    "position_file",
    type=click.File("r", encoding="utf-8-sig"),
    help=f"A JSON position file (at most 64 KB) with the keys "
    f"{', '.join(spec.name for spec in POSITION_FIELDS)} (instead of those options; "
    f"{' and '.join(map(_flag, FILE_OVERRIDES))} still override).",
)
@rules_options
@click.option(
    "--policy",
    default=None,
    help="How you play on after this discard [default: the strongest affordable preset, expert].",
)
@click.option(
    "--opponent",
    default=None,
    help="The opponent model: how the opponent plays (rollouts and the weighting "
    "model) [default: expert, the strongest affordable].",
)
@click.option(
    "--cross-check",
    "cross_check",
    type=click.Choice(CROSS_CHECKS),
    default=None,
    help="Also rank the actions against this other opponent model (a quarter of "
    "the samples) and say in one line whether the verdict changes [default: "
    "basic, or expert when --opponent basic].",
)
@click.option(
    "--action",
    "actions",
    multiple=True,
    metavar="ACTION",
    help="Only these actions, e.g. 'knock Kd', 'play 9c', 'gin Kd', 'big gin' "
    "(repeatable) [default: every legal action].",
)
@_declared(ADVICE_OPTIONS)
@format_options
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def advise_command(
    position_file: TextIO | None,
    preset: str,
    overrides: tuple[str, ...],
    policy: str | None,
    opponent: str | None,
    cross_check: str | None,
    actions: tuple[str, ...],
    fmt: str,
    no_progress: bool,
    **given: Any,
) -> None:
    """Rank knocking, gin and playing on, with each discard, for a position.

    \b
    Example (turn 5; the opponent dealt, took 8d and 9s, threw Tc Jh Ts Ks; you took the
    5c upcard):
      analyzer advise --hand '3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h' --pile 'Td Ks Jh Ts Kd Tc' \\
          --opp-took '8d 9s' --opp-threw 'Tc Jh Ts Ks' --stock 25 --turn 5 --upcard 5c
      analyzer advise --position pos.json --score 45:80 --rules oklahoma --json

    Samples the opponent's hidden hand and the stock order from the cards you have not
    seen and plays the hand out for every action on the same samples. Prints a ranked
    table (EV with 95% CI, chances of winning the hand, of being undercut and of the
    opponent's gin) and a one-line verdict.
    """
    fields = {spec.name: given[spec.name] for spec in POSITION_FIELDS}
    run = {spec.name: given[spec.name] for spec in ADVICE_OPTIONS}
    samples, seed, equity_deals = run.pop("samples"), run.pop("seed"), run.pop("equity_deals")
    # the upcard is no rule field, but accept it where the rules are set (--set upcard=7s)
    upcards = [o.partition("=")[2] for o in overrides if o.replace(" ", "").startswith("upcard=")]
    overrides = tuple(o for o in overrides if not o.replace(" ", "").startswith("upcard="))
    if upcards and fields["upcard"] is None:
        fields["upcard"] = upcards[-1]
    rules = get_rules(preset, overrides)
    mine = get_player(policy or strongest_model())
    theirs = get_player(opponent or strongest_model())
    try:
        position = _read_position(position_file, fields)
        equity = None
        if position.score is not None:
            with progress_bar(equity_deals, "deal", no_progress, "equity table") as update:
                equity = position_equity(position, rules, mine, theirs, equity_deals, seed, update)
        with progress_bar(samples, "sample", no_progress) as update:
            answer = advise_position(
                position,
                rules,
                rules_text(preset, overrides),
                mine,
                theirs,
                cross_check_model(cross_check, theirs),
                samples,
                seed,
                update,
                actions=actions or None,
                equity=equity,
                **run,  # the advisor's own options: tolerance, weights, temperature
            )
    except (ValueError, TypeError) as error:
        fail(str(error))
    except OSError as error:
        fail(
            f"cannot read {getattr(position_file, 'name', 'the position')}: "
            f"{error.strerror or error}"
        )
    if fmt == "json":
        echo_json(answer.to_dict(preset, overrides))
    elif fmt == "csv":
        click.echo(answer.to_frame().to_csv(index=False), nl=False)
    else:
        show_result("table", answer.title, answer.lines(), answer.advice.verdict + ".")


def _read_position(position_file: TextIO | None, fields: dict[str, Any]) -> Position:
    """The position from --position (with --score/--upcard on top) or from the options."""
    if (position_file is None) == (fields["hand"] is None):
        raise ValueError("give either --hand (with the other position options) or --position")
    if position_file is None:
        return Position.from_options(**fields)
    data: dict[str, Any] = load_json(
        read_text(position_file), f"bad position file {position_file.name}"
    )
    if not isinstance(data, dict):
        raise TypeError(f"bad position file {position_file.name}: expected a JSON object")
    given = {name: fields[name] for name in FILE_OVERRIDES if fields[name] is not None}
    return Position.from_json(data | given)
