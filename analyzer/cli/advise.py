"""The ``analyzer advise`` command: should I knock, and with which discard?"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

import click
from tqdm import tqdm

from ..gin.advisor import ActionEstimate, Advice, Position, advise
from .options import echo_json, fail, get_player, get_rules, rules_options

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
@click.option("--stock", type=int, help="Cards left in the stock [default: from the pile].")
@click.option("--turn", type=int, help="Your own turn number, this draw included "
                                       "[default: from the stock].")
@click.option("--dealer", type=click.Choice(["me", "opp"]), default="opp", show_default=True,
              help="Who dealt this hand.")
@click.option("--score", help="Game score mine:theirs; the objective becomes the game-win "
                              "probability.")
@click.option("--upcard", help="The hand's first upcard (Oklahoma knock limit) [default: the "
                               "bottom pile card].")
@click.option("--position", "position_file", type=click.File("r"),
              help="A JSON position file with the keys hand, drawn, from_pile, pile, opp_took, "
                   "opp_threw, stock, turn, dealer, score, upcard (instead of those options; "
                   "--score and --upcard still override).")
@rules_options
@click.option("--policy", default="basic", show_default=True,
              help="How you play on after this discard.")
@click.option("--opponent", default="basic", show_default=True,
              help="How the opponent plays (rollouts and the weighting model).")
@click.option("--action", "actions", multiple=True, metavar="ACTION",
              help="Only these actions, e.g. 'knock Kd', 'play 9c', 'gin Kd', 'big gin' "
                   "(repeatable) [default: every legal action].")
@click.option("--samples", type=click.IntRange(1), default=20_000, show_default=True,
              help="Most samples (opponent hand + stock order) to roll out.")
@click.option("--tolerance", type=click.FloatRange(min=0, min_open=True),
              help="Stop when every rival's difference to the best is this precise (95% "
                   "half-width) [default: 1 point, or 0.01 win probability with --score].")
@click.option("--weights", type=click.Choice(["model", "uniform"]), default="model",
              show_default=True,
              help="Weight sampled opponent hands by how well they explain its play, or not.")
@click.option("--temperature", type=click.FloatRange(min=0, min_open=True), default=8.0,
              show_default=True, help="Softness of the weighting model (points).")
@click.option("--equity-deals", type=click.IntRange(100), default=30_000, show_default=True,
              help="With --score: deals estimating the hand-outcome law behind the game "
                   "equity table that values each final score.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Random seed; the advice is reproducible from it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def advise_command(hand: str | None, drawn: str | None, from_pile: bool, pile: str,
                   opp_took: str, opp_threw: str, stock: int | None, turn: int | None,
                   dealer: str, score: str | None, upcard: str | None,
                   position_file: TextIO | None, preset: str, overrides: tuple[str, ...],
                   policy: str, opponent: str, actions: tuple[str, ...], samples: int,
                   tolerance: float | None, weights: str, temperature: float,
                   equity_deals: int, seed: int, as_json: bool, no_progress: bool) -> None:
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
    mine, theirs = get_player(policy), get_player(opponent)
    try:
        position = _read_position(position_file, hand, drawn, from_pile, pile, opp_took,
                                  opp_threw, stock, turn, dealer, score, upcard)
        equity = None
        if position.score is not None:
            from ..gin.equity import equity_function

            equity = equity_function(rules, mine, theirs, equity_deals, seed)
        with tqdm(total=samples, unit="sample", delay=1.0, disable=no_progress,
                  file=sys.stderr, leave=False) as bar:
            advice = advise(position, rules, mine, theirs, samples=samples, seed=seed,
                            tolerance=tolerance, weights=weights, temperature=temperature,
                            actions=actions or None, equity=equity, progress=bar.update)
    except (ValueError, TypeError) as error:
        fail(str(error))
    if as_json:
        echo_json(advice.to_dict() | {"rules_preset": preset, "rules_overrides": overrides})
        return
    for line in format_advice(advice):
        click.echo(line)


def _read_position(position_file: TextIO | None, hand: str | None, drawn: str | None,
                   from_pile: bool, pile: str, opp_took: str, opp_threw: str,
                   stock: int | None, turn: int | None, dealer: str, score: str | None,
                   upcard: str | None) -> Position:
    """The position from --position (with --score/--upcard on top) or from the options."""
    if (position_file is None) == (hand is None):
        raise ValueError("give either --hand (with the other position options) or --position")
    if position_file is None:
        return Position.from_options(hand or "", pile, opp_took, opp_threw, stock, turn, dealer,
                                     drawn, from_pile, score, upcard)
    try:
        data: dict[str, Any] = json.load(position_file)
    except json.JSONDecodeError as error:
        raise ValueError(f"bad position file {position_file.name}: {error}") from None
    if not isinstance(data, dict):
        raise TypeError(f"bad position file {position_file.name}: expected a JSON object")
    extra = {"score": score, "upcard": upcard}
    return Position.from_json(data | {k: v for k, v in extra.items() if v is not None})


def format_advice(advice: Advice) -> list[str]:
    """The text report: position line, run line, ranked table, verdict."""
    position = advice.position.describe()
    game = advice.objective == "game"
    lines = [
        f"hand {position['hand']} | stock {position['stock']}, your turn {position['turn']}, "
        f"{'you' if position['dealer'] == 'me' else 'opponent'} dealt"
        + (f" | score {position['score'][0]}:{position['score'][1]}" if game else ""),
        f"{advice.samples:,} samples (effective {advice.ess:,.0f}, {advice.weights} weights), "
        f"seed {advice.seed}, {advice.elapsed_s:.1f} s, "
        f"{'converged' if advice.stopped == 'converged' else 'budget spent'}; "
        + ("values are game-win probabilities" if game else "values are points per hand"),
        "",
        (f"{'#':>2}  {'action':<10} {'dw':>3} {'value':>8} {'±95%':>6} {'vs best':>15} "
         f"{'P(win)':>7} {'P(undercut)':>11} {'P(opp gin)':>10}"),
    ]
    for rank, row in enumerate(advice.actions, start=1):
        lines.append(_row(rank, row, game))
    if any(row.dropped for row in advice.actions):
        lines.append("* dropped early as significantly worse than the best (fewer samples)")
    lines += ["", advice.verdict]
    return lines


def _row(rank: int, row: ActionEstimate, game: bool) -> str:
    scale, unit = (100.0, "%") if game else (1.0, "")
    behind = ("best" if row.behind == 0 and row.behind_half_width == 0
              else f"{-row.behind * scale:+.1f} ± {row.behind_half_width * scale:.1f}")
    # an undercut needs a knock below gin; the opponent cannot go gin after we go out
    undercut = "-" if row.kind in ("gin", "big gin") else f"{row.p_undercut:.1%}"
    opp_gin = "-" if row.kind != "play" else f"{row.p_opp_gin:.1%}"
    name = row.action + ("*" if row.dropped else "")
    return (f"{rank:>2}  {name:<10} {row.deadwood:>3} {row.mean * scale:>+7.2f}{unit or ' '}"
            f"{row.half_width * scale:>6.2f} {behind:>15} {row.p_win:>7.1%} {undercut:>11} "
            f"{opp_gin:>10}")
