"""The ``analyzer advise`` command: should I knock, and with which discard?"""

from __future__ import annotations

from typing import Any, TextIO

import click

from ..core.limits import (
    MAX_SAMPLES,
    MAX_TEMPERATURE,
    MAX_TOLERANCE,
    MAX_UNITS,
    MIN_EQUITY_DEALS,
    load_json,
    read_text,
)
from ..gin.engine.transitions import MAX_DRAWS
from ..gin.play.advisor import ADVICE_EQUITY_DEALS, ADVICE_SAMPLES, Position
from ..report.advice import (
    CROSS_CHECKS,
    advise_position,
    cross_check_model,
    position_equity,
    strongest_model,
)
from ..studies.study import DEFAULT_SEED
from ..studies.text import rules_text
from .inputs import SEED, FiniteFloatRange, fail, get_player, get_rules, rules_options
from .output import echo_json, format_options, show_result
from .progress import progress_bar

__all__ = ["MAX_SAMPLES", "advise_command"]


@click.command("advise")
@click.option("--hand", help="Your 11 cards after drawing, or 10 with --drawn.")
@click.option("--drawn", help="The card you just drew (with 10 cards in --hand).")
@click.option("--from-pile", is_flag=True, help="--drawn was taken from the discard pile.")
@click.option("--pile", default="", help="The discard pile now, bottom to top.")
@click.option("--opp-took", default="", help="Cards the opponent took from the pile.")
@click.option("--opp-threw", default="", help="Cards the opponent discarded.")
@click.option(
    "--stock", type=click.IntRange(2, 31), help="Cards left in the stock [default: from the pile]."
)
@click.option(
    "--turn",
    type=click.IntRange(1, MAX_DRAWS // 2),
    help="Your own turn number, this draw included [default: from the stock].",
)
@click.option(
    "--dealer",
    type=click.Choice(["me", "opp"]),
    default="opp",
    show_default=True,
    help="Who dealt this hand.",
)
@click.option(
    "--score", help="Game score mine:theirs; the objective becomes the game-win probability."
)
@click.option(
    "--upcard",
    help="The hand's first upcard (Oklahoma knock limit) [default: the bottom pile card].",
)
@click.option(
    "--position",
    "position_file",
    type=click.File("r", encoding="utf-8-sig"),
    help="A JSON position file (at most 64 KB) with the keys hand, drawn, from_pile, "
    "pile, opp_took, opp_threw, stock, turn, dealer, score, upcard (instead of "
    "those options; --score and --upcard still override).",
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
@click.option(
    "--samples",
    type=click.IntRange(1, MAX_SAMPLES),
    default=ADVICE_SAMPLES,
    show_default=True,
    help="Most samples (opponent hand + stock order) to roll out (their results "
    "are kept: about 400 bytes each).",
)
@click.option(
    "--tolerance",
    type=FiniteFloatRange(min=0, min_open=True, max=MAX_TOLERANCE),
    help="Stop when every rival's difference to the best is this precise (95% "
    "half-width) [default: 1 point, or 0.01 win probability with --score].",
)
@click.option(
    "--weights",
    type=click.Choice(["model", "uniform"]),
    default="model",
    show_default=True,
    help="Weight sampled opponent hands by how well they explain its play, or not.",
)
@click.option(
    "--temperature",
    type=FiniteFloatRange(min=0, min_open=True, max=MAX_TEMPERATURE),
    default=8.0,
    show_default=True,
    help="Softness of the weighting model (points).",
)
@click.option(
    "--equity-deals",
    type=click.IntRange(MIN_EQUITY_DEALS, MAX_UNITS),
    default=ADVICE_EQUITY_DEALS,
    show_default=True,
    help="With --score: deals estimating the hand-outcome law behind the game "
    "equity table that values each final score.",
)
@click.option(
    "--seed",
    type=SEED,
    default=DEFAULT_SEED,
    show_default=True,
    help="Random seed, 0 <= seed < 2**63; the advice is reproducible from it.",
)
@format_options
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def advise_command(
    hand: str | None,
    drawn: str | None,
    from_pile: bool,
    pile: str,
    opp_took: str,
    opp_threw: str,
    stock: int | None,
    turn: int | None,
    dealer: str,
    score: str | None,
    upcard: str | None,
    position_file: TextIO | None,
    preset: str,
    overrides: tuple[str, ...],
    policy: str | None,
    opponent: str | None,
    cross_check: str | None,
    actions: tuple[str, ...],
    samples: int,
    tolerance: float | None,
    weights: str,
    temperature: float,
    equity_deals: int,
    seed: int,
    fmt: str,
    no_progress: bool,
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
    # the upcard is no rule field, but accept it where the rules are set (--set upcard=7s)
    upcards = [o.partition("=")[2] for o in overrides if o.replace(" ", "").startswith("upcard=")]
    overrides = tuple(o for o in overrides if not o.replace(" ", "").startswith("upcard="))
    upcard = upcards[-1] if upcards and upcard is None else upcard
    rules = get_rules(preset, overrides)
    mine = get_player(policy or strongest_model())
    theirs = get_player(opponent or strongest_model())
    try:
        position = _read_position(
            position_file,
            hand,
            drawn,
            from_pile,
            pile,
            opp_took,
            opp_threw,
            stock,
            turn,
            dealer,
            score,
            upcard,
        )
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
                tolerance=tolerance,
                weights=weights,
                temperature=temperature,
                actions=actions or None,
                equity=equity,
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


def _read_position(
    position_file: TextIO | None,
    hand: str | None,
    drawn: str | None,
    from_pile: bool,
    pile: str,
    opp_took: str,
    opp_threw: str,
    stock: int | None,
    turn: int | None,
    dealer: str,
    score: str | None,
    upcard: str | None,
) -> Position:
    """The position from --position (with --score/--upcard on top) or from the options."""
    if (position_file is None) == (hand is None):
        raise ValueError("give either --hand (with the other position options) or --position")
    if position_file is None:
        return Position.from_options(
            hand or "",
            pile,
            opp_took,
            opp_threw,
            stock,
            turn,
            dealer,
            drawn,
            from_pile,
            score,
            upcard,
        )
    data: dict[str, Any] = load_json(
        read_text(position_file), f"bad position file {position_file.name}"
    )
    if not isinstance(data, dict):
        raise TypeError(f"bad position file {position_file.name}: expected a JSON object")
    extra = {"score": score, "upcard": upcard}
    return Position.from_json(data | {k: v for k, v in extra.items() if v is not None})
