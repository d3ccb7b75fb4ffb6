"""How robust a policy is, declared once (:mod:`analyzer.studies.study`): the strongest
response to a policy, the equilibrium of the knock decision and the equilibrium over the
whole opponent panel."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pandas as pd

from ..core.limits import (
    MAX_EXPLOIT_GAMES,
    MAX_EXPLOIT_ROUNDS,
    MAX_LISTED_PLAYERS,
    MAX_PSRO_ITERATIONS,
    MAX_PSRO_TOLERANCE,
    MAX_SEARCH_DEALS,
    MIN_SEARCH_DEALS,
)
from ..core.progress import Progress
from ..gin.model.policies import Policy, format_policy, policy_name
from ..gin.play.players import format_player
from ..studies.study import Inputs, Kind, Param, Study, register
from ..studies.text import (
    estimate_text,
    interval_column,
    interval_text,
    label_lines,
    table_lines,
)
from .legacy import Answer, Chart, legacy

if TYPE_CHECKING:
    from ..gin.studies.equilibrium import KnockEquilibrium
    from ..gin.studies.exploit import ExploitResult
    from ..gin.studies.panel_equilibrium import PanelEquilibrium


def _search_deals(help_text: str, default: int) -> Param:
    return Param(
        "deals", Kind.COUNT, default, help_text, low=MIN_SEARCH_DEALS, high=MAX_SEARCH_DEALS
    )


def _iterations(default: int, help_text: str) -> Param:
    return Param("iterations", Kind.COUNT, default, help_text, high=MAX_PSRO_ITERATIONS)


def _tolerance(help_text: str) -> Param:
    return Param("tolerance", Kind.NUMBER, 0.1, help_text, low=0, high=MAX_PSRO_TOLERANCE)


# ---------------------------------------------------------------- the strongest response


def _exploit(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.exploit import exploit

    target, deals, games = inputs["policy"], inputs["deals"], inputs["games"]
    result = exploit(
        inputs.rules,
        target,
        deals,
        inputs.seed,
        games,
        inputs.preset,
        inputs["rounds"],
        progress=progress,
        scheduler=scheduler,
    )
    rows = [
        ("strongest response", format_player(result.response)),
        (
            "its result",
            (
                f"{estimate_text(result.points, 2, sign=True)} points per hand "
                f"({result.deals:,} held-out deals)"
            ),
        ),
        (
            "  of which",
            ", ".join(f"{name} {estimate.mean:+.2f}" for name, estimate in result.parts.items()),
        ),
    ]
    if result.games:
        rows.append(
            (
                "games it wins",
                (
                    f"{estimate_text(result.game_win, 1, percent=True)} "
                    f"({result.games:,} held-out game pairs)"
                ),
            )
        )
    rows.append(
        (
            "coordinate search",
            (
                f"no rejected change gained over {result.resolution:+.2f} points per hand "
                "(95% upper bound)"
            ),
        )
    )
    tried, steps = result.tried, result.steps
    tried_shown = pd.DataFrame(
        {
            "response": tried["name"],
            "points per hand": interval_column(tried, "points"),
            "plays as": tried["response"],
        }
    )
    steps_shown = pd.DataFrame(
        {
            "sweep": steps["sweep"],
            "changed": steps["coordinate"],
            "gain": interval_column(steps, "gain"),
            "policy after the step": steps["policy"],
        }
    )
    body = [
        *label_lines(rows),
        "",
        (
            f"Every response tried whole, strongest first ({int(tried['deals'].iloc[0]):,} "
            "deals of a fresh seed; the strongest is then measured on held-out deals):"
        ),
        *table_lines(tried_shown),
        "",
        "The coordinate search, step by step (gain on the search's deals):",
        *(
            table_lines(steps_shown)
            if len(steps)
            else ["  no change of the target gained significantly"]
        ),
    ]
    data = {
        "target": format_policy(target),
        "rules": inputs.preset,
        "seed": inputs.seed,
        "response": format_player(result.response),
        "beats_target": result.beats_target,
        "points_per_hand": result.points.as_dict(),
        "points_by_outcome": {k: v.as_dict() for k, v in result.parts.items()},
        "game_win_rate": result.game_win.as_dict(),
        "deals": result.deals,
        "games": result.games,
        "resolution": result.resolution,
        "tried": result.tried.to_dict(orient="records"),
        "steps": result.steps.to_dict(orient="records"),
    }
    return Answer(
        inputs.title(
            f"Best response to {policy_name(target)}",
            size=f"{deals:,} deals per comparison",
        ),
        result.to_frame(),
        body,
        exploit_verdict(result, target),
        None,
        data=data,
        result=result,
    )


def exploit_verdict(result: ExploitResult, target: Policy) -> str:
    """Who beats the target by how much; when nothing does significantly, the best
    response tried (never the target against itself)."""
    response, points = format_player(result.response), estimate_text(result.points, 2, sign=True)
    if result.beats_target:
        return (
            f"{response} beats {policy_name(target)} by {points} points per hand on held-out "
            f"deals: {policy_name(target)} is exploitable by at least that much."
        )
    return (
        f"No response found beats {policy_name(target)}; the best tried is {response} at "
        f"{points} points per hand on held-out deals."
    )


EXPLOIT = register(
    Study(
        "exploit",
        "Find the strongest response to POLICY and how much it gains.",
        "Searches knock tables (one threshold for all turns, then per bin of own turns), "
        "the draw and discard rules and the policy's numeric parameters by coordinate "
        "ascent on common deals, moving only on a significant gain; compares that response "
        "with every policy preset (the replica marjj among them) and with search rolling "
        "POLICY out as itself; then measures the strongest on a held-out seed: points per "
        "hand (split into gin, undercut and ordinary-knock hands) and game-win rate, with "
        "95% CIs.  POLICY itself is never its own best response.",
        (
            "analyzer exploit basic",
            "analyzer exploit expert --rules oklahoma --deals 20000 --json",
        ),
        (
            Param("policy", Kind.POLICY, "basic", "The policy to exploit.", argument=True),
            _search_deals(
                "Deals per comparison in the search (the held-out check plays twice as many).",
                5_000,
            ),
            Param(
                "games",
                Kind.COUNT,
                1_000,
                "Seat-swapped game pairs for the held-out game-win rate (0: skip).",
                low=0,
                high=MAX_EXPLOIT_GAMES,
            ),
            Param(
                "rounds",
                Kind.COUNT,
                2,
                "Sweeps of the coordinate search.",
                high=MAX_EXPLOIT_ROUNDS,
            ),
        ),
        *legacy(_exploit),
        unit="hand",
        step="search",
        notebook="``.response``: the strongest response; ``.tried``: every whole response "
        "compared; ``.steps``: the coordinate search's accepted moves.",
    )
)

# ---------------------------------------------------------------- the knock equilibrium


def _equilibrium(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.equilibrium import knock_equilibrium

    deals, tolerance, base = inputs["deals"], inputs["tolerance"], inputs.labels["base"]
    result = knock_equilibrium(
        inputs.rules,
        inputs["base"],
        deals,
        inputs.seed,
        inputs["iterations"],
        tolerance,
        inputs.preset,
        progress=progress,
        scheduler=scheduler,
    )
    history = result.history
    body = table_lines(
        pd.DataFrame(
            {
                "iteration": history["iteration"],
                "support": history["support"],
                "best response": history["best_response"],
                "its gain": interval_column(history, "exploitability"),
                "runner-up": [text or "-" for text in history["runner_up"]],
                "its gain ": interval_column(history, "runner_up_gain"),
            }
        )
    )
    return Answer(
        inputs.title(
            "Equilibrium of the knock decision (PSRO over knock tables)",
            players=f"{base} plays everything but the knock",
            size=f"{deals:,} deals per comparison",
        ),
        history.drop(columns=["rules"]),
        body,
        equilibrium_verdict(result, tolerance),
        _equilibrium_chart(inputs, result),
        notes=[
            (
                "support: tables in the mixture; best response: the knock table gaining most "
                "against the mixture, its gain measured on held-out deals; runner-up: once the "
                "best response is already in the mixture (it gains 0 by symmetry), the best other "
                "table."
            ),
            (
                "A table such as 10/10/0/0 alert 10/0/0/0 gives the knock threshold for own turns "
                "1-3, 4-6, 7-9 and 10 on (0: only with gin); after alert: while the opponent holds "
                "a card it took from the pile."
            ),
        ],
        raw=history,
        data={
            "rules": inputs.preset,
            "base": format_policy(inputs["base"]),
            "seed": inputs.seed,
            "deals": deals,
            "mixture": result.mixture_frame().to_dict(orient="records"),
            "convergence": json.loads(history.to_json(orient="records", double_precision=15)),
            "strategy": result.strategy_frame().to_dict(orient="records"),
        },
        result=result,
    )


def _equilibrium_chart(inputs: Inputs, result: KnockEquilibrium) -> Chart:
    """The mixture's knock tables by own turn (``<rules>_strategy.png``), with the mixture
    and the convergence beside it."""
    from ..gin.studies.exploit import table_text
    from ..gin.studies.schedule import SCHEDULE_BINS
    from . import figures as charts

    bins = len(SCHEDULE_BINS)
    lines: dict[str, tuple[int, ...]] = {}
    for table, weight in zip(result.population, result.weights, strict=True):
        if weight > 0.005:
            plain = table_text(table[:bins])
            lines[f"{plain} ({weight:.0%})"] = table[:bins]
            if table[bins:] != table[:bins]:
                lines[f"{plain}, alert {table_text(table[bins:])}"] = table[bins:]
    preset = inputs.preset
    return Chart(
        f"{preset}_strategy",
        lambda ax: charts.schedules_chart(lines, SCHEDULE_BINS, ax),
        (8, 3.8),
        f"Equilibrium knock tables: {preset} rules, {inputs.labels['base']} play",
        "Each line: a knock table of the equilibrium mixture with its weight; alert: "
        f"while the opponent holds a card it took from the pile; {inputs['deals']:,} deals "
        f"per comparison, seed {inputs.seed}.",
        tables={
            f"{preset}_mixture.csv": result.mixture_frame(),
            f"{preset}_convergence.csv": result.history,
        },
        frame=result.strategy_frame(),
    )


def equilibrium_verdict(result: KnockEquilibrium, tolerance: float) -> str:
    """The equilibrium in one sentence: its mixture and how far a table can exploit it."""
    from ..gin.studies.exploit import table_text

    last = result.history.iloc[-1]
    mixture = ", ".join(
        f"{table_text(t)} ({w:.0%})"
        for t, w in zip(result.population, result.weights, strict=True)
        if w > 0.005
    )
    gain = interval_text(
        last["exploitability"], last["exploitability_low"], last["exploitability_high"], sign=True
    )
    if last["exploitability_high"] < tolerance:
        return (
            f"Equilibrium: {mixture}. No knock table gains more than "
            f"{last['exploitability_high']:.2f} points per hand on it (95% upper bound; the "
            f"best response {last['best_response']} gets {gain})."
        )
    if len(result.population) == last["population"]:  # the best response was no new table
        close = ""
        if not pd.isna(last["runner_up_gain"]):
            other = interval_text(
                last["runner_up_gain"],
                last["runner_up_gain_low"],
                last["runner_up_gain_high"],
                sign=True,
            )
            close = f" The best other table, {last['runner_up']}, gets {other} points per hand."
        return (
            f"Equilibrium: {mixture}. Its best response is already in the mixture, so no table "
            f"gains on it (the search found none gaining over {last['resolution']:+.2f} points "
            f"per hand, 95% upper bound).{close}"
        )
    return (
        f"Mixture after {int(last['iteration'])} iterations: {mixture}; the best response "
        f"{last['best_response']} still gains {gain} points per hand against it "
        "(more --iterations or --deals may close the gap)."
    )


EQUILIBRIUM = register(
    Study(
        "equilibrium",
        "Approximate equilibrium of the knock decision (the robust knock chart).",
        "PSRO over knock tables (a threshold per bin of own turns), the rest of play fixed "
        "to BASE; prints the convergence (exploitability by iteration, points per hand with "
        "95% CI) and the equilibrium mixture.",
        (
            "analyzer equilibrium --rules standard --deals 4000",
            "analyzer equilibrium --rules oklahoma --out results/robust_knock",
        ),
        (
            Param(
                "base",
                Kind.POLICY,
                "expert",
                "Policy that plays everything but the knock decision.",
            ),
            _search_deals("Deals per comparison.", 5_000),
            _iterations(8, "Most PSRO iterations."),
            _tolerance(
                "Stop when the exploitability's upper 95% bound is below this (points per hand)."
            ),
        ),
        *legacy(_equilibrium),
        unit="hand",
        step="PSRO",
        notebook="``.mixture_frame()`` and ``.strategy_frame()``: the equilibrium; "
        "``.plot()``: its knock tables.",
    )
)

# ---------------------------------------------------------------- the panel equilibrium


def _panel_equilibrium(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Answer:
    from ..gin.studies.exploit import table_of
    from ..gin.studies.panel_equilibrium import panel_equilibrium
    from ..studies.when_to_knock import kept_robust_table

    deals, tolerance, base = inputs["deals"], inputs["tolerance"], inputs["base"]
    preset = inputs.preset
    kept = None if inputs.changed else kept_robust_table(preset)
    start = table_of(base) if kept is None else kept[0]
    result = panel_equilibrium(
        inputs.rules,
        base,
        start,
        deals,
        inputs.seed,
        inputs["iterations"],
        tolerance,
        preset,
        search_deals=max(deals // 2, MIN_SEARCH_DEALS),
        members=inputs["members"],
        progress=progress,
        scheduler=scheduler,
    )
    history = result.history
    body = table_lines(
        pd.DataFrame(
            {
                "iteration": history["iteration"],
                "mixture": history["support"],
                "best response": history["best_response"],
                "its gain": interval_column(history, "gain"),
                "joins": ["yes" if joins else "no" for joins in history["joins"]],
            }
        )
    )
    return Answer(
        inputs.title(
            "Equilibrium over the opponent panel (PSRO over whole players)",
            players=f"{inputs.labels['base']} plays everything but the knock in knock-table "
            "responses",
            size=f"{deals:,} deals per comparison",
        ),
        history.drop(columns=["rules"]),
        body,
        panel_verdict(result, tolerance),
        None,
        notes=[
            (
                "mixture: the players of the equilibrium mixture with their weights; best "
                "response: the strongest player found against it, its gain measured on held-out "
                "deals; it joins the population when it gains more than the tolerance."
            )
        ],
        raw=history,
        data={
            "rules": preset,
            "seed": inputs.seed,
            "deals": deals,
            "mixture": result.mixture_frame().to_dict(orient="records"),
            "convergence": json.loads(history.to_json(orient="records")),
            "answer": _answer_text(result),
        },
        result=result,
        files={
            f"{preset}_mixture.csv": result.mixture_frame(),
            f"{preset}_convergence.csv": history,
            f"{preset}_payoffs.csv": result.payoff_frame(),
            f"{preset}_answer.csv": result.answer_frame(),
        },
    )


def _answer_text(result: PanelEquilibrium) -> str:
    from ..gin.studies.answers import rule_text
    from ..gin.studies.exploit import table_of

    return (
        f"{rule_text(table_of(result.answer))} "
        f"({estimate_text(result.answer_value, 2, sign=True)} points per hand against the "
        "mixture)"
    )


def panel_verdict(result: PanelEquilibrium, tolerance: float) -> str:
    """The mixture, whether it converged, and the knock answer to it, in words."""
    last = result.history.iloc[-1]
    gain = interval_text(last["gain"], last["gain_low"], last["gain_high"], sign=True)
    if last["joins"]:
        state = (
            f"after {int(last['iteration'])} iterations the strongest response found, "
            f"{last['best_response']}, still gains {gain} points per hand on it (more "
            "--iterations or --deals may close the gap)"
        )
    else:
        state = (
            f"no response found gains more than {tolerance:.2f} points per hand on it on "
            f"average (the strongest, {last['best_response']}, gets {gain})"
        )
    return (
        f"Mixture: {result.mixture_text()}; {state}. Knock answer against it: "
        f"{_answer_text(result)}."
    )


PANEL_EQUILIBRIUM = register(
    Study(
        "panel-equilibrium",
        "Equilibrium over the whole opponent panel (PSRO), and the knock table against it.",
        "The players are whole players: basic, simple, gin-hunter, taper, the marjj "
        "replica, expert, search and BASE knocking by the committed robust table "
        "(results/robust_knock, else BASE's own table). Each iteration solves the matrix "
        "game of the population, then adds the strongest response found (a knock table "
        "with BASE play, every policy preset, or search modelling the mixture's heaviest "
        "player) while it gains more than the tolerance. Prints the convergence, the "
        "mixture and the knock table that does best against it, each in points per hand "
        "with 95% CI.",
        (
            "analyzer panel-equilibrium --deals 1000",
            "analyzer panel-equilibrium --rules standard --out results/panel_equilibrium",
        ),
        (
            Param(
                "base",
                Kind.POLICY,
                "expert",
                "Policy that plays everything but the knock in the knock-table responses.",
            ),
            Param(
                "members",
                Kind.PLAYERS,
                None,
                "The players it starts from besides the robust rule, each once (default: "
                "the panel: basic, simple, gin-hunter, taper, marjj, expert, "
                f"search,budget=64; at most {MAX_LISTED_PLAYERS}).",
                keyword_only=True,
            ),
            _search_deals(
                "Deals per comparison (the knock-table search plays half as many, held-out "
                "checks twice as many).",
                1_000,
            ),
            _iterations(
                4,
                "Most iterations of the search (PSRO: add the strongest response to the mix, "
                "solve again).",
            ),
            _tolerance(
                "Stop when the strongest response found gains no more than this on average "
                "(points per hand)."
            ),
        ),
        *legacy(_panel_equilibrium),
        unit="hand",
        step="panel PSRO",
        notebook="``.mixture_frame()``: the mixture; ``.answer`` and ``.answer_value``: the "
        "knock table and its points per hand against it.",
    )
)


__all__ = ["EQUILIBRIUM", "EXPLOIT", "PANEL_EQUILIBRIUM"]
