"""The ``analyzer advise`` command: should I knock, and with which discard?"""

from __future__ import annotations

from typing import Any, TextIO

import click
import pandas as pd

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
from ..gin.play.advisor import ActionEstimate, Advice, Position, advise, check_game_position
from ..gin.play.players import format_player, rollout_policy
from ..report.study import GIN
from ..report.text import plus_minus, rules_text, table_lines, title_text
from .inputs import SEED, FiniteFloatRange, fail, get_player, get_policy, get_rules, rules_options
from .output import echo_json, format_options, show_result
from .progress import progress_bar

__all__ = [
    "MAX_SAMPLES",
    "advice_table",
    "advise_command",
    "format_advice",
    "model_difference",
    "strongest_model",
]

_EXAMPLE = """\b
Example (turn 5; the opponent dealt, took 8d and 9s, threw Tc Jh Ts Ks; you took the 5c upcard):
  analyzer advise --hand '3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h' --pile 'Td Ks Jh Ts Kd Tc' \\
      --opp-took '8d 9s' --opp-threw 'Tc Jh Ts Ks' --stock 25 --turn 5 --upcard 5c
  analyzer advise --position pos.json --score 45:80 --rules oklahoma --json
"""


@click.command("advise", epilog=_EXAMPLE)
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
    type=click.Choice(["basic", "expert", "none"]),
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
    default=20_000,
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
    default=30_000,
    show_default=True,
    help="With --score: deals estimating the hand-outcome law behind the game "
    "equity table that values each final score.",
)
@click.option(
    "--seed",
    type=SEED,
    default=1,
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
    strongest = strongest_model()
    policy = policy or strongest
    opponent = opponent or strongest
    mine, theirs = get_player(policy), get_player(opponent)
    if cross_check is None:
        cross_check = "basic" if format_player(theirs) != "basic" else strongest
    other = (
        None
        if cross_check == "none" or cross_check == format_player(theirs)
        else (get_policy(cross_check))
    )
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
        check_game_position(position, rules)
        equity = None
        if position.score is not None:
            from ..gin.studies.equity.table import equity_function

            with progress_bar(equity_deals, "deal", no_progress, "equity table") as update:
                # a search player's table is its rollout policy's: searching 10**4 deals
                # for a table would cost hours
                equity = equity_function(
                    rules, rollout_policy(mine), rollout_policy(theirs), equity_deals, seed, update
                )
        with progress_bar(samples, "sample", no_progress) as update:
            advice = advise(
                position,
                rules,
                mine,
                theirs,
                samples=samples,
                seed=seed,
                tolerance=tolerance,
                weights=weights,
                temperature=temperature,
                actions=actions or None,
                equity=equity,
                progress=update,
            )
            check = None
            if other is not None:
                check = advise(
                    position,
                    rules,
                    mine,
                    other,
                    samples=max(samples // 4, 1),
                    seed=seed,
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
    models = {
        "opponent_model": format_player(theirs),
        "opponent_policy": GIN.format_player(theirs),
        "own_policy": format_player(mine),
    }
    difference = None if check is None else model_difference(advice, check, cross_check)
    if fmt == "json":
        echo_json(
            advice.to_dict()
            | models
            | {
                "rules_preset": preset,
                "rules_overrides": overrides,
                "cross_check": None
                if check is None
                else {
                    "opponent_model": cross_check,
                    "best": check.actions[0].action,
                    "same_verdict": difference is None,
                    "note": difference,
                },
            }
        )
        return
    if fmt == "csv":
        click.echo(advice.to_frame().assign(**models).to_csv(index=False), nl=False)
        return
    lines = format_advice(advice)
    from ..gin.play.advisor.principles import best_discard_note

    note = best_discard_note(position, advice.actions[0].action)
    if note is not None:
        lines.append(note)
    if check is not None:
        lines.append(difference or f"Against the {cross_check} model the verdict is the same.")
    show_result(
        "table",
        title_text(
            "Knock, gin or play on, with which discard",
            rules=rules_text(preset, overrides),
            players=f"opponent model {models['opponent_model']}, you play on as "
            f"{models['own_policy']}",
            size=f"{advice.samples:,} samples",
            seed=advice.seed,
        ),
        lines,
        advice.verdict + ".",
    )


def strongest_model() -> str:
    """The strongest opponent model affordable inside the advisor's rollouts."""
    from ..gin.model.policies import PRESETS

    return "expert" if "expert" in PRESETS else "basic"


def model_difference(advice: Advice, check: Advice, model: str) -> str | None:
    """One line when the best action against the other opponent model is not the same
    (None when it is)."""
    best, other_best = advice.actions[0], check.actions[0]
    if best.action == other_best.action:
        return None
    return (
        f"Against the {model} model the best action would be {other_best.action} instead "
        f"of {best.action} ({other_best.mean:+.2f} against {model})."
    )


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


def format_advice(advice: Advice) -> list[str]:
    """The position line, the run line and the ranked table of the text report."""
    position = advice.position.describe()
    game = advice.objective == "game"
    lines = [
        f"hand {position['hand']} | stock {position['stock']}, your own turn "
        f"{position['turn']}, {'you' if position['dealer'] == 'me' else 'the opponent'} dealt"
        + (f" | score {position['score'][0]}:{position['score'][1]}" if game else ""),
        (
            f"{advice.samples:,} samples (effective {advice.ess:,.0f}, {advice.weights} weights), "
            f"{advice.elapsed_s:.1f} s, "
            f"{'converged' if advice.stopped == 'converged' else 'sample budget spent'}; "
            + (
                "values: chance of winning the game"
                if game
                else "values: points per hand (yours minus the opponent's)"
            )
        ),
        "",
        *table_lines(advice_table(advice)),
        (
            "vs best: the gap to the best action on the samples both saw, in "
            + ("percentage points; " if game else "points; ")
            + "value: the best's value less that gap."
        ),
    ]
    if any(row.dropped for row in advice.actions):
        lines.append("* dropped early as significantly worse than the best (fewer samples)")
    return lines


def advice_table(advice: Advice) -> pd.DataFrame:
    """The ranked actions, best first.  Each value is the best action's value less the
    action's paired gap to it, so the values fall with the rank (an action dropped early
    has a noisier mean of its own on fewer samples, which may lie above the best's)."""
    game = advice.objective == "game"
    best = advice.actions[0].mean

    def value(row: ActionEstimate) -> str:
        mean = best - row.behind
        if game:
            return plus_minus(mean, row.half_width, 1, percent=True)
        return plus_minus(mean, row.half_width, sign=True)

    def gap(row: ActionEstimate) -> str:
        if row.behind == 0 and row.behind_half_width == 0:
            return "best"
        scale = 100.0 if game else 1.0
        return plus_minus(-row.behind * scale, row.behind_half_width * scale, 1, sign=True)

    rows = advice.actions
    return pd.DataFrame(
        {
            "#": range(1, len(rows) + 1),
            "action": [row.action + ("*" if row.dropped else "") for row in rows],
            "dw": [row.deadwood for row in rows],
            "value": [value(row) for row in rows],
            "vs best": [gap(row) for row in rows],
            "P(win hand)": [f"{row.p_win:.1%}" for row in rows],
            # an undercut needs a knock below gin; the opponent cannot go gin after we go out
            "P(undercut)": [
                "-" if row.kind in ("gin", "big gin") else f"{row.p_undercut:.1%}" for row in rows
            ],
            "P(opp gin)": ["-" if row.kind != "play" else f"{row.p_opp_gin:.1%}" for row in rows],
        }
    )
