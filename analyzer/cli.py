"""The ``analyzer`` command line: thin click commands over the library."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from . import __version__
from .cards import format_hand, parse_hand
from .cluster import scheduler_option
from .evaluator import best_melds
from .policies import Policy, format_policy, parse_policy, policy_name
from .rules import PRESETS as RULE_PRESETS
from .rules import VARIANT_PRESETS, Rules, resolve_rules

if TYPE_CHECKING:
    from .simulate import Estimate

F = TypeVar("F", bound=Callable[..., Any])


class LazyGroup(click.Group):
    """A group whose commands from other modules are imported only when used.

    Those modules import their shared options from here, so importing them lazily
    avoids an import cycle and keeps ``analyzer --help`` and quick commands fast.
    """

    def __init__(self, *args: Any, lazy_commands: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_commands])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.lazy_commands:
            return super().get_command(ctx, name)
        module_name, attribute = self.lazy_commands[name].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             lazy_commands={"exact": "analyzer.exact_cli:exact",
                            "equity": "analyzer.equity_cli:equity",
                            "advise": "analyzer.advise_cli:advise_command",
                            "rummy": "analyzer.rummy.cli:rummy"})
@click.version_option(__version__, prog_name="analyzer")
def cli() -> None:
    """Gin rummy and rummy strategy analyzer."""


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2 (bad usage or input)."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


def _arrangement_dict(text: str) -> dict[str, Any]:
    hand = parse_hand(text)
    result = best_melds(hand)
    return {
        "hand": format_hand(hand),
        "melds": [format_hand(m) for m in result.melds],
        "deadwood_cards": format_hand(result.deadwood_cards),
        "deadwood": result.deadwood,
    }


@cli.command()
@click.argument("hand", required=False)
@click.option("--file", "path", type=click.File("r"), help="Evaluate one hand per line; CSV out.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deadwood(hand: str | None, path: Any, as_json: bool) -> None:
    """Best melds, deadwood cards and deadwood points of HAND.

    \b
    Example:
      analyzer deadwood "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"
      analyzer deadwood --file hands.txt > deadwood.csv
    """
    if (hand is None) == (path is None):
        fail("give either a HAND or --file, not both")
    if path is not None:
        click.echo("hand,min_deadwood")
        for number, line in enumerate(path, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                result = _arrangement_dict(line)
            except ValueError as error:
                fail(f"line {number}: {error}")
            click.echo(f"{result['hand']},{result['deadwood']}")
        return
    try:
        result = _arrangement_dict(hand or "")
    except ValueError as error:
        fail(str(error))
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(f"hand:     {result['hand']}")
    click.echo(f"melds:    {' | '.join(result['melds']) or '-'}")
    click.echo(f"deadwood: {result['deadwood_cards'] or '-'} = {result['deadwood']} points")


# ------------------------------------------------------------------ shared options


def rules_options(function: F) -> F:
    """``--rules PRESET`` and repeatable ``--set field=value``."""
    function = click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
                            help="Override one rule field (repeatable), e.g. knock_limit=7.")(function)
    return click.option("--rules", "preset", default="standard", show_default=True,
                        help=f"Rules preset: {', '.join(RULE_PRESETS)}.")(function)


def run_options(function: F) -> F:
    """``--deals``/``--seed``/``--jobs``/``--json``/``--no-progress``."""
    function = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(function)
    function = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(
        function)
    function = click.option("--jobs", type=click.IntRange(1, 256), default=None,
                            help="Threads (default: all cores). Results do not depend on it.")(
        function)
    return click.option("--seed", type=int, default=1, show_default=True,
                        help="Random seed; a run is reproducible from it.")(function)


def policy_options(function: F) -> F:
    """``--a`` and ``--b`` policies."""
    function = click.option("--b", "policy_b", default="basic", show_default=True,
                            help="Policy of player B (preset or draw=..,discard=..,knock=..).")(
        function)
    return click.option("--a", "policy_a", default="basic", show_default=True,
                        help="Policy of player A (preset or draw=..,discard=..,knock=..).")(function)


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


def set_jobs(jobs: int | None) -> None:
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))


@contextmanager
def progress_bar(total: int, unit: str, hidden: bool) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr fed by chunk completions (hidden for small runs or on request)."""
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, unit_scale=True, disable=hidden or total < 20_000,
              file=sys.stderr, leave=False) as bar:
        yield bar.update


def estimate_text(estimate: Estimate, digits: int = 3) -> str:
    """``mean ± half-width`` of a 95% CI."""
    half = (estimate.high - estimate.low) / 2
    return f"{estimate.mean:.{digits}f} ± {half:.{digits}f}"


def echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


# ---------------------------------------------------------------------- commands


@cli.command("rules")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules_command(as_json: bool) -> None:
    """List the rules presets with every field.

    \b
    Example:
      analyzer rules
    """
    table = {name: rules.describe() for name, rules in RULE_PRESETS.items()}
    if as_json:
        echo_json(table)
        return
    names = list(table)
    field_names = list(table["standard"])
    width = max(len(f) for f in field_names)
    click.echo(" " * width + "  " + "  ".join(f"{n:>12}" for n in names))
    for field in field_names:
        cells = "  ".join(f"{_cell(table[n][field]):>12}" for n in names)
        click.echo(f"{field:<{width}}  {cells}")


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def raw_option(function: F) -> F:
    """``--raw FILE``: write every row (hand or game) to a Parquet file."""
    return click.option("--raw", type=click.Path(dir_okay=False), default=None,
                        help="Also write every row to this Parquet file (needs pyarrow: "
                             "pip install -e '.[parquet]').")(function)


def write_raw(frame: Any, path: str | None) -> None:
    """Write ``frame`` as Parquet to ``path``; a missing pyarrow is a one-line error."""
    if path is None:
        return
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        fail("--raw needs pyarrow: pip install -e '.[parquet]'")
    frame.to_parquet(path, index=False)
    click.echo(f"wrote {len(frame):,} rows to {path}", err=True)


def _run_summary(preset: str, overrides: tuple[str, ...], rules: Rules, seed: int,
                 a: Policy, b: Policy) -> dict[str, Any]:
    """The JSON keys every simulation command shares."""
    return {"seed": seed,
            "rules": preset if not overrides else f"{preset} " + " ".join(overrides),
            "rules_fields": rules.describe(), "policy_a": format_policy(a),
            "policy_b": format_policy(b)}


def _echo_header(what: str, seed: int, preset: str, overrides: tuple[str, ...], a: Policy,
                 b: Policy) -> None:
    click.echo(f"{what}, seed {seed}, rules {preset}"
               + (f" with {', '.join(overrides)}" if overrides else ""))
    click.echo(f"A: {policy_name(a)}   B: {policy_name(b)}")


@cli.command("simulate")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=100_000, show_default=True,
              help="Deals; each is played twice with seats swapped.")
@run_options
@raw_option
@scheduler_option
def simulate_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                     deals: int, seed: int, jobs: int | None, as_json: bool,
                     no_progress: bool, raw: str | None, scheduler: str | None) -> None:
    """Play DEALS hands of A against B and summarise them.

    Each deal is played twice on the same cards, A as non-dealer then as dealer.

    \b
    Example:
      analyzer simulate --rules standard --a basic --b basic --deals 1000000 --seed 1
      analyzer simulate --deals 10000 --raw hands.parquet
    """
    from .simulate import simulate

    rules = get_rules(preset, overrides)
    a, b = get_policy(policy_a), get_policy(policy_b)
    set_jobs(jobs)
    with progress_bar(deals, "deal", no_progress) as update:
        result = simulate(rules, a, b, deals, seed, keep_rows=raw is not None, progress=update,
                          scheduler=scheduler)
    write_raw(result.rows, raw)
    summary = {
        "deals": result.deals,
        "hands": result.hands,
        **_run_summary(preset, overrides, rules, seed, a, b),
        "outcomes": result.outcomes,
        "points_per_hand": result.points_a.as_dict(),
        "win_rate_a": result.win_rate_a.as_dict(),
        "turns_per_hand": result.turns.as_dict(),
        "first_player_points": result.first_player_points.as_dict(),
        "first_player_win_rate": result.first_player_win_rate,
        "elapsed_s": result.elapsed_s,
        "deals_per_s": result.deals_per_s,
    }
    if as_json:
        echo_json(summary)
        return
    _echo_header(f"{result.deals:,} deals ({result.hands:,} hands)", seed, preset, overrides, a, b)
    mix = "  ".join(f"{k} {v:.2%}" for k, v in result.outcomes.items() if v or k != "tie")
    click.echo(f"outcomes:            {mix}")
    click.echo(f"points/hand to A:    {estimate_text(result.points_a)}  (95% CI)")
    click.echo(f"hand win rate of A:  {estimate_text(result.win_rate_a)}")
    click.echo(f"turns per hand:      {estimate_text(result.turns, 2)}  (draws, both players)")
    click.echo(f"first player edge:   {estimate_text(result.first_player_points)} points/hand, "
               f"wins {result.first_player_win_rate:.2%} of decided hands")
    click.echo(f"time:                {result.elapsed_s:.1f} s ({result.deals_per_s:,.0f} deals/s)")


@cli.command("games")
@rules_options
@policy_options
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="3: separate scores (seating by the three_player rule); 4: partnerships "
                   "0+2 v 1+3.")
@click.option("--policies", default=None,
              help="With 3 or 4 players: comma-separated policies, one per player "
                   "(default: --a and --b alternating).")
@click.option("--games", type=click.IntRange(1), default=10_000, show_default=True,
              help="Games; with 2 players each is played twice with the first dealer swapped.")
@run_options
@raw_option
@scheduler_option
def games_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                  players: int, policies: str | None, games: int, seed: int, jobs: int | None,
                  as_json: bool, no_progress: bool, raw: str | None,
                  scheduler: str | None) -> None:
    """Play whole games to the target score of A against B (or 3-4 players).

    \b
    Example:
      analyzer games --rules standard --a basic --b gin-hunter --games 20000
      analyzer games --players 3 --policies basic,simple,gin-hunter --set three_player=loser-sits-out
    """
    rules = get_rules(preset, overrides)
    set_jobs(jobs)
    if players > 2:
        names = ([n.strip() for n in policies.split(",")] if policies
                 else [policy_a if i % 2 == 0 else policy_b for i in range(players)])
        if len(names) != players:
            fail(f"--policies needs {players} policies, got {len(names)}")
        _multiplayer(rules, preset, names, games, seed, as_json, raw)
        return
    from .simulate import play_games

    a, b = get_policy(policy_a), get_policy(policy_b)
    with progress_bar(games, "game", no_progress) as update:
        result = play_games(rules, a, b, games, seed, keep_rows=raw is not None,
                            progress=update, scheduler=scheduler)
    write_raw(result.rows, raw)
    summary = {
        "games": result.games,
        **_run_summary(preset, overrides, rules, seed, a, b),
        "game_win_rate_a": result.game_win_rate_a.as_dict(),
        "margin_a": result.margin_a.as_dict(),
        "hands_per_game": result.hands_per_game.as_dict(),
        "shutout_rate": result.shutout_rate,
        "unfinished": result.unfinished,
        "elapsed_s": result.elapsed_s,
    }
    if as_json:
        echo_json(summary)
        return
    _echo_header(f"{result.games:,} games", seed, preset, overrides, a, b)
    click.echo(f"game win rate of A:  {estimate_text(result.game_win_rate_a)}  (95% CI)")
    click.echo(f"final margin of A:   {estimate_text(result.margin_a, 1)} points")
    click.echo(f"hands per game:      {estimate_text(result.hands_per_game, 2)}")
    click.echo(f"shutout rate:        {result.shutout_rate:.2%}")
    click.echo(f"time:                {result.elapsed_s:.1f} s")


def _multiplayer(rules: Rules, preset: str, names: list[str], games: int, seed: int,
                 as_json: bool, raw: str | None) -> None:
    from .multiplayer import multiplayer_summary, play_multiplayer_games

    chosen = [get_policy(name) for name in names]
    try:
        frame = play_multiplayer_games(rules, chosen, games, seed)
    except ValueError as error:
        fail(str(error))
    write_raw(frame, raw)
    summary = multiplayer_summary(frame)
    summary.insert(1, "policy", names if len(names) == 3 else
                   [f"{names[0]} + {names[2]}", f"{names[1]} + {names[3]}"])
    if as_json:
        echo_json({"games": games, "seed": seed, "players": len(names), "rules": preset,
                   "hands_per_game": float(frame["hands"].mean()),
                   "shutout_rate": float(frame["shutout"].mean()),
                   "sides": summary.to_dict(orient="records")})
        return
    seating = rules.three_player if len(names) == 3 else "partnerships 0+2 v 1+3"
    click.echo(f"{games:,} games of {len(names)} players ({seating}), seed {seed}, rules {preset}")
    click.echo(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    click.echo(f"hands per game: {frame['hands'].mean():.2f}   "
               f"shutout rate: {frame['shutout'].mean():.2%}")


# ------------------------------------------------------------------------- studies


def output_options(function: F) -> F:
    """``--out DIR`` and ``--format table|csv|json``."""
    function = click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]),
                            default="table", show_default=True, help="Terminal output format.")(
        function)
    return click.option("--out", type=click.Path(file_okay=False), default=None,
                        help="Also write the table (CSV) and chart (PNG) into this folder.")(
        function)


def study_options(function: F) -> F:
    """The options every study command shares: run, output and scheduler options."""
    return run_options(output_options(scheduler_option(function)))


def emit(frame: Any, fmt: str, columns: list[str] | None = None) -> None:
    """Print a study table as an aligned table, CSV or JSON records."""
    shown = frame if columns is None else frame[columns]
    if fmt == "csv":
        click.echo(shown.to_csv(index=False), nl=False)
    elif fmt == "json":
        click.echo(shown.to_json(orient="records", indent=2))
    else:
        click.echo(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))


def save_chart(out: str | None, name: str, frame: Any, draw: Callable[[Any], None],
               figsize: tuple[float, float], ncols: int = 1) -> None:
    """Write ``name``.csv and ``name``.png into ``out`` when given."""
    if out is None:
        return
    from pathlib import Path

    from .report import figure_file

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / f"{name}.csv", index=False)
    with figure_file(folder / f"{name}.png", 1, ncols, figsize) as axes:
        draw(axes)
    click.echo(f"wrote {folder / name}.csv and .png", err=True)


@cli.command("knock-sweep")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=20_000, show_default=True,
              help="Deals per threshold (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=2_000, show_default=True,
              help="Game pairs per threshold.")
@study_options
def knock_sweep_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                        deals: int, games: int, seed: int, jobs: int | None, as_json: bool,
                        no_progress: bool, out: str | None, fmt: str,
                        scheduler: str | None) -> None:
    """Knock at deadwood <= t for t = 0..10: points per hand and games won.

    A is --a with its knock threshold set to t; the opponent is --b, or A's twin with
    --b same.

    \b
    Example:
      analyzer knock-sweep --a basic --b gin-hunter --deals 50000 --out sweep/
    """
    from . import charts, studies

    rules = get_rules(preset, overrides)
    subject = get_policy(policy_a)
    opponent = None if policy_b == "same" else get_policy(policy_b)
    set_jobs(jobs)
    with progress_bar(11 * (deals + games), "deal", no_progress) as update:
        sweep = studies.knock_sweep(rules, subject, {policy_b: opponent}, deals, games, seed,
                                    progress=update, scheduler=scheduler)
    save_chart(out, "knock_sweep", sweep, lambda axes: charts.knock_sweep_panels(sweep, axes),
               (14, 4.2), ncols=3)
    emit(sweep, "json" if as_json else fmt,
         ["threshold", "points_mean", "diff_mean", "diff_low", "diff_high", "win_mean",
          "undercut_mean", "gin_mean", "turns_mean", "game_win_mean", "game_win_low",
          "game_win_high"])


@cli.command("knock-chart")
@rules_options
@policy_options
@click.option("--deals", type=click.IntRange(1), default=100_000, show_default=True,
              help="Deals whose knock decisions are branched (each twice, seats swapped).")
@click.option("--min-samples", type=click.IntRange(1), default=300, show_default=True,
              help="Cells with fewer states are greyed out.")
@click.option("--equity-deals", type=click.IntRange(0), default=0, show_default=True,
              help="Also value each hand as the chance of winning a game from 0:0, by an "
                   "equity table from this many deals (0: points only).")
@study_options
def knock_chart_command(preset: str, overrides: tuple[str, ...], policy_a: str, policy_b: str,
                        deals: int, min_samples: int, equity_deals: int, seed: int,
                        jobs: int | None,
                        as_json: bool, no_progress: bool, out: str | None, fmt: str,
                        scheduler: str | None) -> None:
    """Knock now or play on? Mean points difference by own turn and deadwood.

    \b
    Example:
      analyzer knock-chart --deals 200000 --out chart/
    """
    from . import charts, studies
    from .branching import MAX_TURN

    rules = get_rules(preset, overrides)
    set_jobs(jobs)
    with progress_bar(deals, "deal", no_progress) as update:
        try:
            chart = studies.knock_chart(rules, get_policy(policy_a), get_policy(policy_b),
                                        deals, seed, min_samples, progress=update,
                                        scheduler=scheduler, equity_deals=equity_deals)
        except ValueError as error:
            fail(str(error))
    save_chart(out, "knock_chart", chart,
               lambda ax: charts.knock_chart_heatmap(chart, ax, MAX_TURN), (12, 5))
    emit(chart, "json" if as_json else fmt)


@cli.command("knock-schedule")
@rules_options
@policy_options
@click.option("--objective", type=click.Choice(["points", "games"]), default="points",
              show_default=True, help="Maximise points per hand, or the game-win rate.")
@click.option("--deals", type=click.IntRange(1), default=5_000, show_default=True,
              help="Deals (points) or game pairs (games) per evaluation.")
@click.option("--rounds", type=click.IntRange(1, 10), default=2, show_default=True,
              help="Rounds of alternating best responses.")
@study_options
def knock_schedule_command(preset: str, overrides: tuple[str, ...], policy_a: str,
                           policy_b: str, objective: str, deals: int, rounds: int, seed: int,
                           jobs: int | None, as_json: bool, no_progress: bool, out: str | None,
                           fmt: str, scheduler: str | None) -> None:
    """Best turn-dependent knock schedule, then alternating best responses.

    A (--a with its schedule searched over own turns 1-3, 4-6, 7-9, 10+) best-responds to
    --b, then B (the same base policy) to A, and so on.

    \b
    Example:
      analyzer knock-schedule --objective games --deals 2000 --rounds 1
    """
    from . import charts, studies

    rules = get_rules(preset, overrides)
    base = get_policy(policy_a)
    set_jobs(jobs)
    search = studies.best_schedule(rules, base, get_policy(policy_b), deals, seed, rounds,
                                   objective, scheduler=scheduler)
    save_chart(out, "knock_schedule", search.steps,
               lambda ax: charts.schedules_chart({"A": search.final_a, "B": search.final_b},
                                                 studies.SCHEDULE_BINS, ax), (8, 3.8))
    if out is not None:
        from pathlib import Path

        search.gaps.to_csv(Path(out) / "knock_schedule_gaps.csv", index=False)
    emit(search.steps, "json" if as_json else fmt)
    if fmt == "table" and not as_json:
        click.echo("")
        emit(search.gaps, fmt)


@cli.command("tournament")
@rules_options
@click.option("--policies", default="simple,basic,safe-discard,lookahead,gin-hunter,passive",
              show_default=True, help="Comma-separated policy presets in the round robin.")
@click.option("--deals", type=click.IntRange(1), default=10_000, show_default=True,
              help="Deals per pairing (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=1_000, show_default=True,
              help="Game pairs per pairing.")
@study_options
def tournament_command(preset: str, overrides: tuple[str, ...], policies: str, deals: int,
                       games: int, seed: int, jobs: int | None, as_json: bool,
                       no_progress: bool, out: str | None, fmt: str,
                       scheduler: str | None) -> None:
    """Round robin of policy presets: points per hand and game-win rates.

    \b
    Example:
      analyzer tournament --policies basic,simple,lookahead --deals 20000
    """
    from . import charts, studies

    rules = get_rules(preset, overrides)
    names = [n.strip() for n in policies.split(",") if n.strip()]
    if len(names) < 2:
        fail("--policies needs at least two presets")
    field = {name: get_policy(name) for name in names}
    set_jobs(jobs)
    pairs = len(names) * (len(names) - 1) // 2
    with progress_bar(pairs * (deals + games), "deal", no_progress) as update:
        results = studies.tournament(rules, field, deals, games, seed, progress=update,
                                     scheduler=scheduler)
    order = list(studies.ranking(results)["policy"])

    def draw(axes: Any) -> None:
        charts.matrix_heatmap(results, "points", axes[0], order, 0.0, "points per hand", "+.2f")
        charts.matrix_heatmap(results, "game_win", axes[1], order, 0.5, "game-win rate", ".2f")

    save_chart(out, "tournament", results, draw, (14, 5.5), ncols=2)
    emit(results, "json" if as_json else fmt)


@cli.command("variants")
@click.option("--presets", default=",".join(VARIANT_PRESETS), show_default=True,
              help="Comma-separated rules presets to compare.")
@click.option("--baseline", default="basic", show_default=True,
              help="Policy for self-play statistics and the knock-threshold search.")
@click.option("--a", "policy_a", default="gin-hunter", show_default=True,
              help="The stronger policy of the skill measure.")
@click.option("--b", "policy_b", default="basic", show_default=True,
              help="The weaker policy of the skill measure.")
@click.option("--deals", type=click.IntRange(2), default=10_000, show_default=True,
              help="Deals per preset (each twice, seats swapped).")
@click.option("--games", type=click.IntRange(1), default=1_000, show_default=True,
              help="Game pairs per preset.")
@study_options
def variants_command(presets: str, baseline: str, policy_a: str, policy_b: str, deals: int,
                     games: int, seed: int, jobs: int | None, as_json: bool, no_progress: bool,
                     out: str | None, fmt: str, scheduler: str | None) -> None:
    """Compare rules presets: hand size, game length, skill share, best threshold.

    \b
    Example:
      analyzer variants --presets standard,classic,oklahoma --deals 20000
    """
    from . import charts, studies

    names = [n.strip() for n in presets.split(",") if n.strip()]
    unknown = [n for n in names if n not in RULE_PRESETS]
    if unknown:
        fail(f"unknown rules preset {unknown[0]!r}; choose from {', '.join(RULE_PRESETS)}")
    set_jobs(jobs)
    with progress_bar(len(names) * (2 * deals + 2 * games), "deal", no_progress) as update:
        table = studies.variants(names, get_policy(baseline), get_policy(policy_a),
                                 get_policy(policy_b), deals, games, seed, progress=update,
                                 scheduler=scheduler)

    def draw(axes: Any) -> None:
        charts.variant_bars(table, "hand_points", axes[0], "points per hand")
        charts.variant_bars(table, "hands_per_game", axes[1], "hands per game")
        charts.variant_bars(table, "strong_game_win", axes[2], "games won by --a vs --b",
                            interval=True)

    save_chart(out, "variants", table, draw, (14, 4.5), ncols=3)
    emit(table, "json" if as_json else fmt)


@cli.command("dealt")
@click.option("--deals", type=click.IntRange(1), default=1_000_000, show_default=True,
              help="Random hands of each size.")
@run_options
@output_options
def dealt_command(deals: int, seed: int, jobs: int | None, as_json: bool, no_progress: bool,
                  out: str | None, fmt: str) -> None:
    """Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k.

    \b
    Example:
      analyzer dealt --deals 5000000
    """
    from . import charts, studies

    set_jobs(jobs)
    distribution = studies.dealt_hands(deals, seed)
    save_chart(out, "dealt", distribution,
               lambda ax: charts.dealt_histogram(distribution, ax), (9, 4))
    emit(studies.knock_eligibility(distribution), "json" if as_json else fmt)


@cli.command("report")
@click.option("--deals", type=click.IntRange(100), default=None,
              help="Base size: deals per arm of the knock sweep (default 40,000); every "
                   "study scales from it.")
@click.option("--quick", is_flag=True, help="A small smoke run (1,500 deals).")
@click.option("--seed", type=int, default=2026, show_default=True, help="Random seed.")
@click.option("--out", type=click.Path(file_okay=False), default="results", show_default=True,
              help="Folder for the report.")
@click.option("--only", default=None,
              help="Comma-separated sections to run: dealt,sweep,chart,schedule,tournament,"
                   "variants,equity,rummy (default all).")
@click.option("--jobs", type=click.IntRange(1, 256), default=None, help="Threads.")
@click.option("--no-progress", is_flag=True, help="Hide progress.")
@scheduler_option
def report_command(deals: int | None, quick: bool, seed: int, out: str, only: str | None,
                   jobs: int | None, no_progress: bool, scheduler: str | None) -> None:
    """Run every study and write the report (Markdown, PNG, CSV) into --out.

    \b
    Example:
      analyzer report              # the committed results/ (about 5 minutes on 2 cores)
      analyzer report --quick --out /tmp/report
    """
    from pathlib import Path

    from .report import DEFAULT_DEALS, QUICK_DEALS, SECTIONS, ReportConfig, generate_report

    size = deals or (QUICK_DEALS if quick else DEFAULT_DEALS)
    sections = None if only is None else [s.strip() for s in only.split(",")]
    if sections is not None:
        unknown = [s for s in sections if s not in SECTIONS]
        if unknown:
            fail(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    set_jobs(jobs)
    command = " ".join(["analyzer report", *([f"--deals {deals}"] if deals else []),
                        *(["--quick"] if quick and not deals else []),
                        *([f"--seed {seed}"] if seed != 2026 else [])])

    def announce(study: str, total: int, _: int) -> Callable[[int], None]:
        if not no_progress:
            click.echo(f"[report] {study} ...", err=True)
        return lambda n: None

    config = ReportConfig(out=Path(out), deals=size, seed=seed, command=command,
                          progress=announce, scheduler=scheduler)
    path = generate_report(config, sections)
    click.echo(f"wrote {path}")

