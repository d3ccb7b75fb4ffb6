"""How robust a policy is, declared once: the strongest response to a policy
(``exploit``) and the equilibrium of the knock decision (``equilibrium``, the robust knock
table).  Each computes its tables (:mod:`analyzer.gin.studies.exploit`,
:mod:`analyzer.gin.studies.equilibrium`) and presents them from those alone; the
equilibrium over the whole panel is in :mod:`analyzer.studies.panel`.

An equilibrium is one run per rules preset, saved in its own folder:
``analyzer equilibrium --rules R --out results/robust_knock/R``; the answers in a
player's words start from its heaviest table
(:func:`kept_robust_table`)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.limits import (
    MAX_EXPLOIT_GAMES,
    MAX_EXPLOIT_ROUNDS,
    MAX_PSRO_ITERATIONS,
    MAX_PSRO_TOLERANCE,
    MAX_SEARCH_DEALS,
    MIN_SEARCH_DEALS,
)
from ..core.progress import Progress
from ..core.stats import Estimate
from ..gin.model.policies import format_policy, policy_name
from .answer import Answer, command_line, records, same_hands_presets
from .charts import Axis, Chart, Mark, Panel, column
from .knock import schedules_panel
from .store import find_report
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import estimate_text, interval_column, interval_text, label_lines, table_lines


def search_deals(help_text: str, default: int) -> Param:
    """The deals per comparison of a search over policies."""
    return Param(
        "deals", Kind.COUNT, default, help_text, low=MIN_SEARCH_DEALS, high=MAX_SEARCH_DEALS
    )


def iterations(default: int, help_text: str) -> Param:
    """The most iterations of a PSRO run."""
    return Param("iterations", Kind.COUNT, default, help_text, high=MAX_PSRO_ITERATIONS)


def tolerance(help_text: str) -> Param:
    """When a PSRO run stops (points per hand)."""
    return Param("tolerance", Kind.NUMBER, 0.1, help_text, low=0, high=MAX_PSRO_TOLERANCE)


def estimate_of(row: Any, name: str, n: int = 0) -> Estimate:
    """The estimate ``name`` of a table row (columns ``name``, ``name_low``, ``name_high``)."""
    return Estimate(float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]), n)


def gain_panel(history: pd.DataFrame, gain: str, title: str, rule: float) -> Panel:
    """A PSRO run's held-out gain of the strongest response by iteration, with its 95% CI,
    and the tolerance below which it stops."""
    gains = Mark(
        "points",
        x=column(history["iteration"]),
        y=column(history[gain]),
        low=column(history[f"{gain}_low"]),
        high=column(history[f"{gain}_high"]),
        label="held-out gain (95% CI)",
    )
    return Panel(
        (gains, Mark("hline", y=(rule,), color=7, dashed=True, label="tolerance")),
        title=title,
        x_label="iteration",
        y_label="points per hand",
        x=Axis(ticks=tuple(int(i) for i in history["iteration"])),
        legend="best",
    )


# ---------------------------------------------------------------- the strongest response


def _exploit(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies.exploit import exploit

    result = exploit(
        inputs.rules,
        inputs["policy"],
        inputs["deals"],
        inputs.seed,
        inputs["games"],
        inputs.preset,
        inputs["rounds"],
        progress=progress,
        scheduler=scheduler,
    )
    facts = {
        "parts": {name: estimate.as_dict() for name, estimate in result.parts.items()},
        "resolution": result.resolution,
    }
    tables = {"response": result.to_frame(), "tried": result.tried, "steps": result.steps}
    return Computed(tables, facts, result=result)


def _present_exploit(answer: Any) -> View:
    inputs, facts = answer.inputs, answer.facts
    row, tried, steps = answer["response"].iloc[0], answer["tried"], answer["steps"]
    target, deals = inputs["policy"], inputs["deals"]
    points = estimate_of(row, "points")
    game_win = estimate_of(row, "game_win")
    response = str(row["response"])
    rows = [
        ("strongest response", response),
        (
            "its result",
            (
                f"{estimate_text(points, 2, sign=True)} points per hand "
                f"({int(row['deals']):,} held-out deals)"
            ),
        ),
        (
            "  of which",
            ", ".join(f"{name} {part['mean']:+.2f}" for name, part in facts["parts"].items()),
        ),
    ]
    if row["games"]:
        rows.append(
            (
                "games it wins",
                (
                    f"{estimate_text(game_win, 1, percent=True)} "
                    f"({int(row['games']):,} held-out game pairs)"
                ),
            )
        )
    rows.append(
        (
            "coordinate search",
            (
                f"no rejected change gained over {facts['resolution']:+.2f} points per hand "
                "(95% upper bound)"
            ),
        )
    )
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
    beats = points.low > 0
    data = {
        "target": format_policy(target),
        "rules": inputs.preset,
        "seed": inputs.seed,
        "response": response,
        "beats_target": beats,
        "points_per_hand": points.as_dict(),
        "points_by_outcome": dict(facts["parts"]),
        "game_win_rate": game_win.as_dict(),
        "deals": int(row["deals"]),
        "games": int(row["games"]),
        "resolution": facts["resolution"],
        "tried": records(tried),
        "steps": records(steps),
    }
    title = inputs.title(
        f"Best response to {policy_name(target)}", size=f"{deals:,} deals per comparison"
    )
    bars = Mark(
        "hbars",
        x=column(tried["points"]),
        y=column(tried["name"]),
        low=column(tried["points_low"]),
        high=column(tried["points_high"]),
    )
    chart = Chart(
        "tried",
        f"Responses to {policy_name(target)}, strongest first",
        f"Points per hand of each response against {policy_name(target)} with 95% CIs, "
        f"rules {inputs.rules_name}, {int(tried['deals'].iloc[0]):,} deals of a fresh seed "
        f"each; the strongest is then measured on held-out deals (seed {inputs.seed}).",
        (
            Panel(
                (bars, Mark("vline", x=(0.0,), color=7)),
                x_label=f"points per hand against {policy_name(target)}",
                y=Axis(reversed=True),
                legend="none",
            ),
        ),
        size=(9, 1.5 + 0.35 * len(tried)),
    )
    return View(
        title,
        body,
        exploit_verdict(response, points, policy_name(target)),
        chart,
        data=data,
    )


def exploit_verdict(response: str, points: Estimate, target: str) -> str:
    """Who beats the target by how much; when nothing does significantly, the best
    response tried (never the target against itself)."""
    gained = estimate_text(points, 2, sign=True)
    if points.low > 0:
        return (
            f"{response} beats {target} by {gained} points per hand on held-out deals: "
            f"{target} is exploitable by at least that much."
        )
    return (
        f"No response found beats {target}; the best tried is {response} at {gained} points "
        "per hand on held-out deals."
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
            search_deals(
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
        _exploit,
        _present_exploit,
        keys={"response": ("response",), "tried": ("name",), "steps": ("sweep", "coordinate")},
        unit="hand",
        step="search",
        notebook="``.response``: the strongest response; ``.tried``: every whole response "
        "compared; ``.steps``: the coordinate search's accepted moves; ``.plot()``: every "
        "response tried with its CI.",
    )
)

# ---------------------------------------------------------------- the knock equilibrium


def _equilibrium(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies.equilibrium import knock_equilibrium

    result = knock_equilibrium(
        inputs.rules,
        inputs["base"],
        inputs["deals"],
        inputs.seed,
        inputs["iterations"],
        inputs["tolerance"],
        inputs.preset,
        progress=progress,
        scheduler=scheduler,
    )
    tables = {
        "convergence": result.history,
        "mixture": result.mixture_frame(),
        "strategy": result.strategy_frame(),
    }
    return Computed(without_rules(tables), result=result)


def without_rules(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """A run's tables without their ``rules`` column: the rules are the answer's own
    (its inputs), so no column repeats them."""
    return {name: table.drop(columns=["rules"], errors="ignore") for name, table in tables.items()}


def _mixture_text(mixture: pd.DataFrame) -> str:
    """The mixture's knock tables with their weights (each over half a percent)."""
    return ", ".join(
        f"{row.table} ({row.weight:.0%})" for row in mixture.itertuples() if row.weight > 0.005
    )


def _present_equilibrium(answer: Any) -> View:
    from ..gin.studies.exploit import parse_table, table_text
    from ..gin.studies.schedule import SCHEDULE_BINS

    inputs, history = answer.inputs, answer["convergence"]
    mixture, strategy = answer["mixture"], answer["strategy"]
    deals, base = inputs["deals"], inputs.labels["base"]
    runner_up = history["runner_up"].fillna("")
    body = table_lines(
        pd.DataFrame(
            {
                "iteration": history["iteration"],
                "support": history["support"],
                "best response": history["best_response"],
                "its gain": interval_column(history, "exploitability"),
                "runner-up": [text or "-" for text in runner_up],
                "its gain ": interval_column(history, "runner_up_gain"),
            }
        )
    )
    bins = len(SCHEDULE_BINS)
    lines: dict[str, tuple[int, ...]] = {}
    for row in mixture.itertuples():
        if row.weight > 0.005:
            table = parse_table(str(row.table))
            plain = table_text(table[:bins])
            lines[f"{plain} ({row.weight:.0%})"] = table[:bins]
            if table[bins:] != table[:bins]:
                lines[f"{plain}, alert {table_text(table[bins:])}"] = table[bins:]
    chart = Chart(
        "strategy",
        f"Equilibrium knock tables: {inputs.rules_name} rules, {base} play",
        "Left: each line a knock table of the equilibrium mixture with its weight (alert: "
        "while the opponent holds a card it took from the pile). Right: the best response's "
        f"held-out gain against the mixture by iteration, with its 95% CI; {deals:,} deals "
        f"per comparison, seed {inputs.seed}.",
        (
            schedules_panel(lines, SCHEDULE_BINS),
            gain_panel(history, "exploitability", "Exploitability", inputs["tolerance"]),
        ),
        size=(13, 3.8),
    )
    data = {
        "rules": inputs.preset,
        "base": format_policy(inputs["base"]),
        "seed": inputs.seed,
        "deals": deals,
        "mixture": records(mixture),
        "convergence": records(history),
        "strategy": records(strategy),
    }
    return View(
        inputs.title(
            "Equilibrium of the knock decision (PSRO over knock tables)",
            players=f"{base} plays everything but the knock",
            size=f"{deals:,} deals per comparison",
        ),
        body,
        equilibrium_verdict(history, mixture, inputs["tolerance"]),
        chart,
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
        data=data,
    )


def equilibrium_verdict(history: pd.DataFrame, mixture: pd.DataFrame, tolerance: float) -> str:
    """The equilibrium in one sentence: its mixture and how far a table can exploit it."""
    last = history.iloc[-1]
    mixed = _mixture_text(mixture)
    gain = interval_text(
        last["exploitability"], last["exploitability_low"], last["exploitability_high"], sign=True
    )
    if last["exploitability_high"] < tolerance:
        return (
            f"Equilibrium: {mixed}. No knock table gains more than "
            f"{last['exploitability_high']:.2f} points per hand on it (95% upper bound; the "
            f"best response {last['best_response']} gets {gain})."
        )
    if len(mixture) == last["population"]:  # the best response was no new table
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
            f"Equilibrium: {mixed}. Its best response is already in the mixture, so no table "
            f"gains on it (the search found none gaining over {last['resolution']:+.2f} points "
            f"per hand, 95% upper bound).{close}"
        )
    return (
        f"Mixture after {int(last['iteration'])} iterations: {mixed}; the best response "
        f"{last['best_response']} still gains {gain} points per hand against it "
        "(more --iterations or --deals may close the gap)."
    )


EQUILIBRIUM = register(
    Study(
        "equilibrium",
        "Approximate equilibrium of the knock decision (the robust knock chart).",
        "PSRO over knock tables (a threshold per bin of own turns), the rest of play fixed "
        "to BASE; prints the convergence (exploitability by iteration, points per hand with "
        "95% CI) and the equilibrium mixture. The answers in a player's words start from "
        "the heaviest table of the run saved in results/robust_knock/<rules>/.",
        (
            "analyzer equilibrium --rules standard --deals 4000",
            "analyzer equilibrium --rules oklahoma --out results/robust_knock/oklahoma",
        ),
        (
            Param(
                "base",
                Kind.POLICY,
                "expert",
                "Policy that plays everything but the knock decision.",
            ),
            search_deals("Deals per comparison.", 5_000),
            iterations(8, "Most PSRO iterations."),
            tolerance(
                "Stop when the exploitability's upper 95% bound is below this (points per hand)."
            ),
        ),
        _equilibrium,
        _present_equilibrium,
        keys={
            "convergence": ("iteration",),
            "mixture": ("table",),
            "strategy": ("first_turn", "opponent_holds_pile_card", "deadwood"),
        },
        unit="hand",
        step="PSRO",
        notebook="``.mixture_frame()`` and ``.strategy_frame()``: the equilibrium; "
        "``.plot()``: its knock tables and the convergence.",
    )
)


__all__ = [
    "EQUILIBRIUM",
    "EXPLOIT",
    "equilibrium_verdict",
    "estimate_of",
    "exploit_verdict",
    "gain_panel",
    "iterations",
    "search_deals",
    "tolerance",
    "without_rules",
]


def kept_robust_table(preset: str) -> tuple[tuple[int, ...], str] | None:
    """The heaviest knock table of the equilibrium kept for the rules ``preset``
    (``results/robust_knock/<preset>/``, its ``mixture`` table; a preset whose hands play
    as another's reads that one's) and where it came from; None when none is kept."""
    from ..gin.studies.exploit import parse_table

    for twin in [preset, *same_hands_presets(EQUILIBRIUM, preset)]:
        name = f"robust_knock/{twin}"
        found = find_report(f"{name}/meta.json")
        if found is not None:
            break
    else:
        return None
    kept = Answer.load(found.path / name, found.path)
    mixture = kept["mixture"]
    best = mixture.loc[mixture["weight"].idxmax()]
    command = command_line(kept.study, kept.inputs, out=f"results/{name}")
    return parse_table(str(best["table"])), f"{name}/ (`{command}`)"
