"""The survey studies, declared once: the round robin of policies, the rules presets
compared (the champion against the naive player under each), and the deadwood of dealt
hands.  Each computes its tables (:mod:`analyzer.gin.studies.round_robin`,
:mod:`~analyzer.gin.studies.variants`, :mod:`~analyzer.gin.studies.dealing`) and
presents them (title, table for a person, verdict, chart description) from those tables
alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.limits import MAX_RAW_UNITS, MIN_VARIANT_DEALS
from ..core.progress import Progress
from ..core.stats import half_width_of_se
from ..gin.model.policies import TOURNAMENT_FIELD
from ..gin.model.rules import VARIANT_PRESETS
from .charts import Axis, Chart, Mark, Panel, column
from .study import Computed, Inputs, Kind, Param, Study, View, register
from .text import chance_text, interval_column, interval_text, plus_minus, title_text

# ---------------------------------------------------------------- the round robin


def _tournament(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import round_robin

    field = inputs["policies"]
    if len(field) < 2:
        raise ValueError("policies needs at least two policies for a round robin")
    pairs = round_robin.tournament(
        inputs.rules,
        field,
        inputs["deals"],
        inputs["games"],
        inputs.seed,
        progress=progress,
        scheduler=scheduler,
    )
    return Computed({"pairs": pairs, "ranking": round_robin.ranking(pairs)})


def standings_table(ranking: pd.DataFrame) -> pd.DataFrame:
    """The ranking for a person: rank, policy, points per hand and games won against
    the field, each ``x ± h``."""
    return pd.DataFrame(
        {
            "rank": range(1, len(ranking) + 1),
            "policy": ranking["policy"],
            "points/hand": [
                plus_minus(m, h, sign=True)
                for m, h in zip(ranking["points"], ranking["points_half"], strict=True)
            ],
            "games won": [
                plus_minus(m, h, 1, percent=True)
                for m, h in zip(ranking["game_win"], ranking["game_win_half"], strict=True)
            ],
        }
    )


def duel(pairs: pd.DataFrame, first: str, second: str) -> pd.Series:
    """The pairing of ``first`` (row) against ``second``."""
    return pairs[(pairs["a"] == first) & (pairs["b"] == second)].iloc[0]


def duel_verdict(first: str, second: str, pairing: pd.Series) -> str:
    """Who is ahead head to head, on points per hand (95% CI)."""
    if pairing["points_low"] > 0:
        return f"{first} is ahead"
    if pairing["points_high"] < 0:
        return f"{second} is ahead head to head, though behind against the field"
    return "too close to call head to head"


def _present_tournament(answer: Any) -> View:
    inputs, pairs, ranking = answer.inputs, answer["pairs"], answer["ranking"]
    deals, games = inputs["deals"], inputs["games"]
    order = list(ranking["policy"])
    first, second = order[:2]
    head = duel(pairs, first, second)
    points = interval_text(head["points"], head["points_low"], head["points_high"], sign=True)
    won = interval_text(
        head["game_win"], head["game_win_low"], head["game_win_high"], 1, percent=True
    )
    return View(
        inputs.title(
            "Round robin ranking",
            players=f"{len(order)} policies, each against every other",
            size=f"{deals:,} deals and {games:,} game pairs per pairing",
        ),
        standings_table(ranking),
        f"{first} ranks first with "
        f"{plus_minus(ranking['points'].iloc[0], ranking['points_half'].iloc[0], sign=True)} "
        f"points per hand against the field; against {second}, the runner-up, it scores "
        f"{points}.",
        Chart(
            "tournament",
            "Round robin of policies: row against column",
            f"Rules {inputs.rules_name}, seats swapped on common deals: {deals:,} deals and "
            f"{games:,} game pairs per pairing (seed {inputs.seed}). Each cell: estimate and "
            "± 95% CI half-width; blue: the row policy is ahead.",
            (
                _matrix(pairs, "points", order, 0.0, "points per hand (row vs column)", "+.2f"),
                _matrix(pairs, "game_win", order, 0.5, "game-win rate (row vs column)", ".2f"),
            ),
            size=(14, 5.5),
        ),
        notes=[
            (
                f"Head to head, {first} against {second}: {points} points per hand, {won} of "
                f"games won ({duel_verdict(first, second, head)})."
            ),
            (
                "points/hand and games won: the mean over the policy's opponents, each weighted "
                "equally; its ± h is the mean of their half-widths (a safe bound: every pairing "
                "plays the same deals)."
            ),
        ],
    )


def _matrix(
    pairs: pd.DataFrame, metric: str, order: list[str], center: float, title: str, spec: str
) -> Panel:
    """One round-robin matrix: the row policy's ``metric`` against the column policy,
    each cell with its 95% CI half-width."""
    cells = pairs.set_index(["a", "b"])
    values, texts = [], []
    for a in order:
        row, text = [], []
        for b in order:
            if a == b:
                row.append(np.nan)
                text.append("")
                continue
            pairing = cells.loc[(a, b)]
            half = (pairing[f"{metric}_high"] - pairing[f"{metric}_low"]) / 2
            row.append(float(pairing[metric]))
            text.append(f"{pairing[metric]:{spec}}\n±{half:{spec.lstrip('+')}}")
        values.append(tuple(row))
        texts.append(tuple(text))
    heat = Mark(
        "heatmap",
        x=tuple(order),
        y=tuple(order),
        z=tuple(values),
        text=tuple(texts),
        center=center,
        colorbar=f"{title}; blue: row policy ahead",
    )
    return Panel((heat,), title=title, x_label="opponent", y_label="policy", legend="none")


TOURNAMENT = register(
    Study(
        "tournament",
        "Round robin of policy presets: points per hand and game-win rates.",
        "Every player plays every other on common deals, seats swapped; the ranking is "
        "by mean points per hand against the rest of the field.",
        ("analyzer tournament --policies basic,simple,lookahead --deals 20000",),
        (
            Param(
                "policies",
                Kind.PLAYERS,
                TOURNAMENT_FIELD,
                "The players of the round robin, each once (a search player takes its "
                "options after it: search,budget=32,basic).",
            ),
            Param("deals", Kind.COUNT, 5_000, "Deals per pairing (each twice, seats swapped)."),
            Param("games", Kind.COUNT, 500, "Game pairs per pairing."),
        ),
        _tournament,
        _present_tournament,
        keys={"pairs": ("a", "b"), "ranking": ("policy",)},
        notebook='``["ranking"]``: the policies by mean points per hand against the field; '
        "``.plot()``: the two matrices, best policy first.",
    )
)

# ---------------------------------------------------------------- the rules presets compared


def _variants(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import variants

    table = variants.variants(
        inputs["presets"],
        inputs["a"],
        inputs["b"],
        inputs["deals"],
        inputs["games"],
        inputs.seed,
        progress=progress,
        scheduler=scheduler,
    )
    return Computed({"variants": table})


def variants_table(table: pd.DataFrame, a: str) -> pd.DataFrame:
    """The presets side by side for a person (shares as percentages, CIs ``x ± h``)."""
    reference = table["rules"].iloc[0]
    return pd.DataFrame(
        {
            "rules": table["rules"],
            "points/hand": interval_column(table, "hand_points", 1, sign=False),
            "SD": [f"{v:.1f}" for v in table["hand_points_sd"]],
            "hands/game": interval_column(table, "hands_per_game", 1, sign=False),
            "shutouts": [f"{v:.1%}" for v in table["shutout_rate"]],
            f"{a} games": interval_column(table, "game_win", 1, sign=False, percent=True),
            f"vs {reference}": interval_column(table, "game_win_diff", 1, percent=True),
            f"{a} points/hand": interval_column(table, "a_points"),
            "first edge": interval_column(table, "first_edge"),
            "best t": [
                "-" if np.isnan(t) else f"{t:.0f} ({plus_minus(g, (hi - lo) / 2, sign=True)})"
                for t, g, lo, hi in zip(
                    table["best_threshold"],
                    table["best_gain"],
                    table["best_gain_low"],
                    table["best_gain_high"],
                    strict=True,
                )
            ],
        }
    )


def skill_verdict(table: pd.DataFrame, a: str, b: str) -> str:
    """Where ``a`` wins the largest and the smallest share of games against ``b``, and
    whether those differ from the first preset's beyond the noise (paired)."""
    reference = table["rules"].iloc[0]
    most = table.loc[table["game_win"].idxmax()]
    least = table.loc[table["game_win"].idxmin()]
    share = {
        name: interval_text(
            row["game_win"], row["game_win_low"], row["game_win_high"], 1, percent=True
        )
        for name, row in (("most", most), ("least", least))
    }
    text = (
        f"{a} wins {share['most']} of its games against {b} under {most['rules']} and "
        f"{share['least']} under {least['rules']}"
    )
    apart = table[
        (table["rules"] != reference)
        & ((table["game_win_diff_low"] > 0) | (table["game_win_diff_high"] < 0))
    ]
    if apart.empty:
        return f"{text}; no preset's share differs from {reference}'s beyond the noise."
    named = ", ".join(
        f"{row.rules} "
        f"({interval_text(row.game_win_diff, row.game_win_diff_low, row.game_win_diff_high, 1, sign=True, percent=True)})"
        for row in apart.itertuples()
    )
    return f"{text}; paired against {reference}, the share differs under {named}."


def threshold_verdict(table: pd.DataFrame, b: str) -> str:
    """Where knocking at a lower fixed threshold than 10 scores significantly more, and
    where it is too close to call."""
    knocking = table[~table["best_threshold"].isna()]
    better = knocking[knocking["best_gain_low"] > 0]
    rest = knocking[knocking["best_gain_low"] <= 0]
    if better.empty:
        return (
            f"Against {b} no fixed knock threshold scores significantly more than knocking "
            "as soon as the rules allow (t = 10) under any preset."
        )
    named = ", ".join(f"{row.rules} (t = {row.best_threshold:.0f})" for row in better.itertuples())
    text = (
        f"Against {b} a lower fixed knock threshold than 10 scores significantly more under {named}"
    )
    if rest.empty:
        return text + "."
    return (
        f"{text}; under {', '.join(rest['rules'])} no threshold beats knocking as soon as the "
        "rules allow beyond the noise."
    )


def _present_variants(answer: Any) -> View:
    inputs, table = answer.inputs, answer["variants"]
    deals, games = inputs["deals"], inputs["games"]
    a, b = inputs.labels["a"], inputs.labels["b"]
    reference = table["rules"].iloc[0]
    return View(
        title_text(
            "Rules presets compared",
            players=f"{a} against {b}",
            size=f"{deals:,} deals and {games:,} game pairs per preset",
            seed=inputs.seed,
        ),
        variants_table(table, a),
        f"{skill_verdict(table, a, b)} {threshold_verdict(table, b)}",
        variants_chart(table, a, b, deals, games, inputs.seed),
        notes=[
            (
                f"Every figure is {a} against {b}, seats swapped. points/hand and SD: points a "
                "hand scores (mean, standard deviation); hands/game and shutouts: games to the "
                f"preset's target; {a} games: its share of games won; vs {reference}: that "
                f"share minus under {reference}, paired game by game (game g of every preset is "
                f"dealt from the same random stream); {a} points/hand: its points per hand; first edge: points "
                f"per hand to the non-dealer; best t: the knock threshold (0, 2, ..., 10) at "
                f"which {a} scores most, with its gain over t = 10 on {max(1, deals // 2):,} "
                "common deals (-: no knocking in these rules)."
            )
        ],
    )


def variants_chart(table: pd.DataFrame, a: str, b: str, deals: int, games: int, seed: int) -> Chart:
    """One bar per rules preset in four panels: points a hand, hands a game, ``a``'s
    share of games and the non-dealer's edge (95% CI bars)."""
    presets = column(table["rules"])
    panels = []
    for metric, title, unit, rule in (
        ("hand_points", "Points scored per hand", "points", None),
        ("hands_per_game", "Hands per game", "hands", None),
        ("game_win", f"Games won by {a} against {b}", "share of games", 0.5),
        ("first_edge", "Non-dealer's points per hand", "points", 0.0),
    ):
        marks = [
            Mark(
                "hbars",
                x=column(table[metric]),
                y=presets,
                low=column(table[f"{metric}_low"]),
                high=column(table[f"{metric}_high"]),
                opacity=0.85,
            )
        ]
        if rule is not None:
            marks.append(Mark("vline", x=(rule,), color=7))
        panels.append(
            Panel(
                tuple(marks),
                title=title,
                x_label=f"{unit} (bar: 95% CI)",
                y=Axis(reversed=True),
                legend="none",
            )
        )
    return Chart(
        "variants",
        f"What each rules preset does to the game: {a} against {b}",
        f"{a} against {b}, seats swapped: {deals:,} deals and {games:,} game pairs per "
        f"preset, every preset on common deals; bars: 95% CI; seed {seed}.",
        tuple(panels),
        size=(15, 4.5),
        share_y=True,
    )


VARIANTS = register(
    Study(
        "variants",
        "Compare rules presets: hand size, game length, how much skill decides, best knock.",
        "Under each preset, A against B, seats swapped: the points a hand scores, the "
        "non-dealer's edge, hands per game and shutouts, A's share of games (paired against "
        "the first preset's on common games), and the knock threshold at which A scores "
        "most against B (paired against knocking at 10).",
        ("analyzer variants --presets standard,classic,oklahoma --deals 5000",),
        (
            Param("presets", Kind.PRESETS, VARIANT_PRESETS, "The rules presets compared."),
            Param("a", Kind.POLICY, "expert", "The player whose skill is measured."),
            Param("b", Kind.POLICY, "basic", "Its opponent."),
            Param(
                "deals",
                Kind.COUNT,
                2_000,
                "Deals per preset (each twice, seats swapped; the threshold sweep plays "
                "half as many); the hands are kept in memory.",
                low=MIN_VARIANT_DEALS,
                high=MAX_RAW_UNITS,
            ),
            Param("games", Kind.COUNT, 500, "Game pairs per preset."),
        ),
        _variants,
        _present_variants,
        keys={"variants": ("rules",)},
        rules=False,
        notebook="``.plot()``: the four bar panels.",
    )
)

# ---------------------------------------------------------------- dealt hands


def _dealt(inputs: Inputs, progress: Progress | None, scheduler: str | None) -> Computed:
    from ..gin.studies import dealing

    distribution = dealing.dealt_hands(inputs["deals"], inputs.seed, progress=progress)
    eligibility = dealing.knock_eligibility(distribution)
    return Computed({"knock_eligibility": eligibility, "distribution": distribution})


def _present_dealt(answer: Any) -> View:
    inputs, eligibility = answer.inputs, answer["knock_eligibility"]
    deals = inputs["deals"]
    gin = eligibility[(eligibility["cards"] == 10) & (eligibility["limit"] == 0)].iloc[0]
    return View(
        title_text(
            "P(dealt deadwood <= limit); limit 0 is gin",
            size=f"{deals:,} random hands of each size",
            seed=inputs.seed,
        ),
        pd.DataFrame(
            {
                "cards": eligibility["cards"],
                "limit": eligibility["limit"],
                "probability": [
                    f"{p:.2e} ± {half_width_of_se(e):.1e}"
                    for p, e in zip(eligibility["probability"], eligibility["se"], strict=True)
                ],
                "chance": [chance_text(p) for p in eligibility["probability"]],
            }
        ),
        (
            f"A dealt 10-card hand is gin {chance_text(gin['probability'])} "
            f"({gin['probability']:.2e} ± {half_width_of_se(gin['se']):.1e})"
            if gin["probability"] > 0
            else f"None of the {deals:,} dealt 10-card hands is gin"
        )
        + "; analyzer exact gives the exact figures.",
        dealt_chart(answer["distribution"], deals, inputs.seed),
        notes=["cards 11: the best 10 of 11 cards, after the best discard."],
    )


def dealt_chart(distribution: pd.DataFrame, deals: int, seed: int, knock_limit: int = 10) -> Chart:
    """Probability of each dealt deadwood for 10 cards and the best 10 of 11, on a log
    scale so that the small knock-eligible probabilities show; the knock region shaded."""
    marks = [
        Mark(
            "vspan",
            x=(-1, knock_limit + 0.5),
            color=2,
            label=f"knock at once (deadwood <= {knock_limit})",
        )
    ]
    for color, (cards, group) in enumerate(distribution.groupby("cards")):
        shown = group[group["probability"] > 0]
        name = "10 cards dealt" if cards == 10 else "best 10 of 11 (after the first draw)"
        marks.append(
            Mark(
                "points",
                x=column(shown["deadwood"]),
                y=column(shown["probability"]),
                label=name,
                color=color,
                opacity=0.8,
            )
        )
    return Chart(
        "dealt",
        "Deadwood of a dealt hand: how often can you knock at once?",
        f"{deals:,} Monte Carlo hands of each size (seed {seed}); shaded: deadwood <= "
        f"{knock_limit}, where a standard-rules knock is allowed at once. Log scale.",
        (
            Panel(
                tuple(marks),
                x_label="deadwood (points)",
                y_label="probability (log scale)",
                x=Axis(low=-1, high=100),
                y=Axis(log=True),
                legend_columns=2,
            ),
        ),
        size=(9, 4.2),
    )


DEALT = register(
    Study(
        "dealt",
        "Dealt deadwood: P(gin) and P(deadwood <= k) for every knock limit k.",
        "Random hands of 10 and 11 cards (11: the best 10 of them), their least deadwood "
        "counted: the chance of each knock limit, with its binomial standard error. No "
        "player: dealt hands only, before any play.",
        ("analyzer dealt --deals 5000000",),
        (Param("deals", Kind.COUNT, 500_000, "Random hands of each size."),),
        _dealt,
        _present_dealt,
        keys={"knock_eligibility": ("cards", "limit"), "distribution": ("cards", "deadwood")},
        unit="hand",
        rules=False,
        scheduler=False,
        notebook='``["distribution"]``: every deadwood\'s probability; ``.plot()``: its histogram.',
    )
)


__all__ = [
    "DEALT",
    "TOURNAMENT",
    "VARIANTS",
    "dealt_chart",
    "duel",
    "duel_verdict",
    "skill_verdict",
    "standings_table",
    "threshold_verdict",
    "variants_chart",
    "variants_table",
]
