"""Commands that play hands or games: simulate, games, replay."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
import pandas as pd

from ..core.limits import MAX_MULTIPLAYER_GAMES, MAX_UNITS, load_json, read_text
from ..gin.evaluator.api import min_deadwood
from ..gin.model.policies import policy_name
from ..gin.model.rules import Rules
from ..gin.play.players import Player, format_player
from ..report.text import (
    bracket_text,
    estimate_text,
    label_lines,
    rules_text,
    table_lines,
    title_text,
)
from .files import check_raw_count, raw_option, write_raw
from .inputs import (
    SEED,
    UNITS,
    fail,
    get_player,
    get_policy,
    get_rules,
    policy_options,
    rules_options,
)
from .output import echo_json, format_options, run_summary, show_result
from .progress import progress_bar
from .run_control import (
    checkpoint_options,
    interrupted,
    run_checkpoint,
    run_options,
    scheduler_option,
    set_jobs,
)

if TYPE_CHECKING:
    from ..core.stats import Estimate
    from ..gin.play.results import HandResult


@click.command("simulate")
@rules_options
@policy_options
@click.option(
    "--deals",
    type=UNITS,
    default=100_000,
    show_default=True,
    help="Deals; each is played twice with seats swapped.",
)
@run_options
@format_options
@raw_option
@checkpoint_options
@scheduler_option
def simulate_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    deals: int,
    seed: int,
    jobs: int | None,
    fmt: str,
    no_progress: bool,
    raw: str | None,
    checkpoint: str | None,
    resume: bool,
    scheduler: str | None,
) -> None:
    """Play DEALS hands of A against B and summarise them.

    Each deal is played twice on the same cards, A as non-dealer then as dealer.

    \b
    Example:
      analyzer simulate --rules standard --a basic --b basic --deals 1000000 --seed 1
      analyzer simulate --deals 10000 --raw hands.parquet
      analyzer simulate --deals 100000000 --checkpoint run.json   # Ctrl-C, then add --resume

    Ctrl-C or SIGTERM stops the run within a second and exits with status 130, after
    printing the summary of the deals finished (with --json, marked "interrupted": true).
    """
    from ..gin.play.simulate import simulate

    rules = get_rules(preset, overrides)
    a, b = get_player(policy_a), get_player(policy_b)
    check_raw_count(raw, deals, "deals")
    if raw is not None and checkpoint is not None:
        fail("--raw and --checkpoint do not mix: a checkpoint keeps sums, not rows")
    set_jobs(jobs)
    identity = {
        "command": "simulate",
        **run_summary(preset, overrides, rules, seed, a, b),
        "deals": deals,
    }
    with run_checkpoint(checkpoint, resume, identity) as saved:
        try:
            with progress_bar(deals, "deal", no_progress) as update:
                result = simulate(
                    rules,
                    a,
                    b,
                    deals,
                    seed,
                    keep_rows=raw is not None,
                    progress=update,
                    scheduler=scheduler,
                )
        except KeyboardInterrupt:
            interrupted(fmt == "json", {"deals": 0, "requested_deals": deals, "seed": seed}, saved)
    if not result.interrupted:
        write_raw(result.rows, raw)
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        **run_summary(preset, overrides, rules, seed, a, b),
        "outcomes": result.outcomes,
        "points_per_hand": result.points_a.as_dict(),
        "win_rate_a": result.win_rate_a.as_dict(),
        "turns_per_hand": result.turns.as_dict(),
        "first_player_points": result.first_player_points.as_dict(),
        "first_player_win_rate": result.first_player_win_rate,
        "elapsed_s": result.elapsed_s,
        "deals_per_s": result.deals_per_s,
        "kernels_s": result.kernels_s,
    }
    if result.interrupted:
        if fmt == "table":
            _print_simulation(result, seed, preset, overrides, a, b)
        interrupted(fmt == "json", {**summary, "requested_deals": deals}, saved)
    if fmt != "table":
        show_result(fmt, "", [], "", raw=summary)
        return
    _print_simulation(result, seed, preset, overrides, a, b)


def players_text(a: Player, b: Player) -> str:
    """Who plays whom in a title: ``A basic against B gin-hunter``."""
    return f"A {format_player(a)} against B {format_player(b)}"


def edge_verdict(a: Player, b: Player, estimate: Estimate, text: str, even: float) -> str:
    """One sentence: does A do better than B, by ``estimate`` (written ``text``, e.g.
    ``+1.20 ± 0.31 points per hand to A``) against the ``even`` value (0 points, 50%)."""
    name_a, name_b = format_player(a), format_player(b)
    if estimate.low == estimate.high == even:
        return f"A and B are even: {text}, exactly (the same policy, seats swapped)."
    if estimate.low > even:
        return f"A ({name_a}) beats B ({name_b}): {text}."
    if estimate.high < even:
        return f"B ({name_b}) beats A ({name_a}): {text}."
    return f"No significant difference between A ({name_a}) and B ({name_b}): {text}."


def _print_simulation(
    result: HandResult, seed: int, preset: str, overrides: tuple[str, ...], a: Player, b: Player
) -> None:
    mix = "  ".join(f"{k} {v:.2%}" for k, v in result.outcomes.items() if v or k != "tie")
    rows = [
        ("outcomes", mix),
        ("points per hand to A", estimate_text(result.points_a, 3, sign=True)),
        ("hands won by A", estimate_text(result.win_rate_a, 1, percent=True)),
        ("turns per hand", f"{estimate_text(result.turns, 2)} (draws, both players)"),
        (
            "first player edge",
            (
                f"{estimate_text(result.first_player_points, 3, sign=True)} points per hand, wins "
                f"{result.first_player_win_rate:.2%} of decided hands"
            ),
        ),
        (
            "time",
            (
                f"{result.elapsed_s:.1f} s ({result.deals_per_s:,.0f} deals/s; kernels loaded "
                f"before, in {result.kernels_s:.1f} s)"
            ),
        ),
    ]
    show_result(
        "table",
        title_text(
            "Hands",
            rules=rules_text(preset, overrides),
            players=players_text(a, b),
            size=f"{result.deals:,} deals ({result.hands:,} hands, seats swapped)",
            seed=seed,
        ),
        label_lines(rows),
        edge_verdict(
            a,
            b,
            result.points_a,
            f"{estimate_text(result.points_a, 2, sign=True)} points per hand to A",
            0.0,
        ),
    )


@click.command("games")
@rules_options
@policy_options
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="3: separate scores (seating by the three_player rule); 4: partnerships 0+2 v 1+3.",
)
@click.option(
    "--policies",
    default=None,
    help="With 3 or 4 players: comma-separated policies, one per player "
    "(default: --a and --b alternating).",
)
@click.option(
    "--games",
    type=UNITS,
    default=10_000,
    show_default=True,
    help="Games; with 2 players each is played twice with the first dealer swapped; "
    "with 3 or 4 at most 1,000,000.",
)
@run_options
@format_options
@raw_option
@scheduler_option
def games_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    players: int,
    policies: str | None,
    games: int,
    seed: int,
    jobs: int | None,
    fmt: str,
    no_progress: bool,
    raw: str | None,
    scheduler: str | None,
) -> None:
    """Play whole games to the target score of A against B (or 3-4 players).

    \b
    Example:
      analyzer games --rules standard --a basic --b gin-hunter --games 20000
      analyzer games --players 3 --policies basic,simple,gin-hunter --set three_player=loser-sits-out
    """
    rules = get_rules(preset, overrides)
    check_raw_count(raw, games, "games")
    set_jobs(jobs)
    if players == 2 and policies is not None:
        fail("--policies is for 3 or 4 players; with 2 use --a and --b")
    if players > 2:
        names = (
            [n.strip() for n in policies.split(",")]
            if policies
            else [policy_a if i % 2 == 0 else policy_b for i in range(players)]
        )
        if len(names) != players:
            fail(f"--policies needs {players} policies, got {len(names)}")
        if games > MAX_MULTIPLAYER_GAMES:
            fail(
                f"with {players} players at most {MAX_MULTIPLAYER_GAMES:,} games (every game "
                f"is kept in memory), got {games:,}"
            )
        _multiplayer(rules, preset, names, games, seed, fmt, raw, no_progress)
        return
    from ..gin.play.simulate import play_games

    a, b = get_player(policy_a), get_player(policy_b)
    with progress_bar(games, "game", no_progress) as update:
        result = play_games(
            rules,
            a,
            b,
            games,
            seed,
            keep_rows=raw is not None,
            progress=update,
            scheduler=scheduler,
        )
    if not result.interrupted:
        write_raw(result.rows, raw)
    summary = {
        "games": result.games,
        **run_summary(preset, overrides, rules, seed, a, b),
        "game_win_rate_a": result.game_win_rate_a.as_dict(),
        "margin_a": result.margin_a.as_dict(),
        "hands_per_game": result.hands_per_game.as_dict(),
        "shutout_rate": result.shutout_rate,
        "unfinished": result.unfinished,
        "elapsed_s": result.elapsed_s,
    }
    if result.interrupted:
        interrupted(fmt == "json", {**summary, "requested_games": games})
    rows = [
        ("games won by A", estimate_text(result.game_win_rate_a, 1, percent=True)),
        ("final margin of A", f"{estimate_text(result.margin_a, 1, sign=True)} points"),
        ("hands per game", estimate_text(result.hands_per_game, 2)),
        ("shutout rate", f"{result.shutout_rate:.2%}"),
        ("time", f"{result.elapsed_s:.1f} s"),
    ]
    show_result(
        fmt,
        title_text(
            "Games",
            rules=rules_text(preset, overrides),
            players=players_text(a, b),
            size=f"{result.games:,} games (first dealer swapped)",
            seed=seed,
        ),
        label_lines(rows),
        edge_verdict(
            a,
            b,
            result.game_win_rate_a,
            f"A wins {estimate_text(result.game_win_rate_a, 1, percent=True)} of the games",
            0.5,
        ),
        raw=summary,
    )


def _multiplayer(
    rules: Rules,
    preset: str,
    names: list[str],
    games: int,
    seed: int,
    fmt: str,
    raw: str | None,
    no_progress: bool,
) -> None:
    from ..gin.play.multiplayer import multiplayer_summary, play_multiplayer_games

    chosen = [get_policy(name) for name in names]
    try:
        with progress_bar(None, "game", no_progress) as update:
            frame = play_multiplayer_games(rules, chosen, games, seed, update)
    except ValueError as error:
        fail(str(error))
    write_raw(frame, raw)
    summary = multiplayer_summary(frame)
    summary.insert(
        1,
        "policy",
        names if len(names) == 3 else [f"{names[0]} + {names[2]}", f"{names[1]} + {names[3]}"],
    )
    seating = rules.three_player if len(names) == 3 else "partnerships 0+2 v 1+3"
    games_won = [
        bracket_text(*bounds, 1)
        for bounds in zip(summary["win_rate"], summary["win_low"], summary["win_high"], strict=True)
    ]
    table = pd.DataFrame(
        {
            "side": summary["side"],
            "policy": summary["policy"],
            "games won": games_won,
            "final total": [f"{v:.1f}" for v in summary["mean_total"]],
        }
    )
    body = [
        *table_lines(table),
        "",
        (
            f"hands per game: {frame['hands'].mean():.2f}   "
            f"shutout rate: {frame['shutout'].mean():.2%}"
        ),
    ]
    show_result(
        fmt,
        title_text(
            f"Games of {len(names)} players ({seating})",
            rules=preset,
            size=f"{games:,} games",
            seed=seed,
        ),
        body,
        _most_wins_verdict(frame, summary["win_rate"], table, games_won),
        raw=summary,
    )


def _most_wins_verdict(
    frame: pd.DataFrame, rates: pd.Series, table: pd.DataFrame, games_won: list[str]
) -> str:
    """Who wins the most games (``rates``: each side's share), when its lead over the
    runner-up has a 95% CI above 0; else that it is too close to call between them."""
    from ..gin.play.multiplayer import lead_over

    leader, second = (
        int(side) for side in rates.sort_values(ascending=False, kind="stable").index[:2]
    )
    lead = lead_over(frame, leader, second)
    lead_text = estimate_text(lead, 1, sign=True, percent=True)

    def who(side: int) -> str:
        return f"{table.at[side, 'policy']} (side {table.at[side, 'side']})"

    if lead.low > 0:
        return (
            f"{who(leader)} wins the most games: {games_won[leader]}, {lead_text} more "
            f"than {who(second)}."
        )
    return (
        f"Too close to call between {who(leader)} ({games_won[leader]} of the games) and "
        f"{who(second)} ({games_won[second]}): the lead is {lead_text}."
    )


# ------------------------------------------------------------------------- studies


@click.command("replay")
@rules_options
@policy_options
@click.option(
    "--seed",
    type=SEED,
    default=1,
    show_default=True,
    help="Seed of the run the deal comes from (as in simulate), 0 <= seed < 2**63.",
)
@click.option(
    "--deal",
    type=click.IntRange(0, MAX_UNITS - 1),
    default=0,
    show_default=True,
    help="Deal number within the run (below 10**12, the most deals of a run).",
)
@click.option("--a-deals", is_flag=True, help="A deals (default: B deals, A starts).")
@click.option(
    "--deck",
    default=None,
    help="Deal these cards instead: 'non-dealer | dealer | upcard [| stock]' "
    "(hands may be short; the rest is filled in card order) or all 52 cards.",
)
@click.option(
    "--position",
    "position_file",
    type=click.File("r", encoding="utf-8-sig"),
    default=None,
    help="A JSON file with the key deck (same text as --deck); at most 64 KB.",
)
@format_options
def replay_command(
    preset: str,
    overrides: tuple[str, ...],
    policy_a: str,
    policy_b: str,
    seed: int,
    deal: int,
    a_deals: bool,
    deck: str | None,
    position_file: Any,
    fmt: str,
) -> None:
    """Play one hand and show it turn by turn: cards, draws, discards, deadwood, the
    knock, melds, layoffs and the score.

    The deal is deal --deal of a simulate run with --seed: the same cards and the same
    choices as 'analyzer simulate' plays.

    \b
    Example:
      analyzer replay --seed 1 --deal 0 --a basic --b gin-hunter
      analyzer replay --deck 'As 2s 3s 4s 7h 7d 7c Kd Qh 9c | | 5d' --format json
    """
    from ..gin.play.replay import parse_deck, replay

    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    if deck is not None and position_file is not None:
        fail("give either --deck or --position, not both")
    try:
        if position_file is not None:
            data = load_json(read_text(position_file), f"position file {position_file.name}")
            if not isinstance(data, dict) or "deck" not in data:
                raise ValueError(
                    f"bad position file {position_file.name}: expected a JSON "
                    "object with the key 'deck'"
                )
            deck = str(data["deck"])
        cards = None if deck is None else parse_deck(deck)
        hand = replay(rules, a, b, seed, deal, a_deals, cards)
    except (ValueError, OSError) as error:
        fail(
            str(error)
            if isinstance(error, ValueError)
            else f"cannot read {position_file.name}: {error.strerror or error}"
        )
    if fmt == "json":
        echo_json(hand.to_dict())
        return
    if fmt == "csv":
        click.echo(hand.to_frame().to_csv(index=False), nl=False)
        return
    origin = f"deal {deal} of seed {seed}" if deck is None else "the given deck"
    click.echo(
        f"{origin}, rules {preset}"
        + (f" with {', '.join(overrides)}" if overrides else "")
        + f"; {hand.dealer} deals"
    )
    click.echo(f"A: {policy_name(a)}   B: {policy_name(b)}")
    click.echo(f"A holds {hand.start_a}   (deadwood {min_deadwood(hand.start_a)})")
    click.echo(f"B holds {hand.start_b}   (deadwood {min_deadwood(hand.start_b)})")
    if hand.upcard:
        click.echo(f"upcard  {hand.upcard}")
    click.echo("")
    click.echo(
        f"{'#':>3}  {'who':<3} {'action':<13} {'card':<4}  {'cards held after':<32}  "
        f"{'dw':>3} {'stock':>5}"
    )
    for event in hand.events:
        click.echo(
            f"{event.step:>3}  {event.player:<3} {event.action:<13} {event.card:<4}  "
            f"{event.hand:<32}  {event.deadwood:>3} {event.stock:>5}"
        )
    click.echo("")
    if hand.knocker:
        defender = "B" if hand.knocker == "A" else "A"
        click.echo(
            f"{hand.knocker} lays out  {' | '.join(hand.knocker_melds) or '-'}  "
            f"(deadwood {hand.knocker_deadwood})"
        )
        click.echo(
            f"{defender} melds     {' | '.join(hand.defender_melds) or '-'}"
            + (f", lays off {hand.layoffs}" if hand.layoffs else "")
            + f"  (deadwood {hand.defender_deadwood})"
        )
    click.echo(f"result: {hand.summary()}")
