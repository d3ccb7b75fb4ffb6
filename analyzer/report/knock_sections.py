"""The report's knock sections, each a template over one saved answer: the knock
threshold sweep, knock now or play on by turn, and the best knock schedule, all played by
the champion (``expert``) with only its knock varied."""

from __future__ import annotations

from ..studies.answer import Answer
from .common import Entry, Found, ReportConfig, Section
from .markdown import answer_section

#: How the opening answer's player and these sections' player relate (every knock
#: section plays the champion and varies only its knock).
_SAME_PLAYER = (
    "the opening answer's rule is a knock table for the whole hand, chosen against seven "
    "kinds of opponent and kept robust; here the same champion plays, and only its knock "
    "is varied"
)


def _sweep(found: Found, config: ReportConfig) -> str:
    answer: Answer = found["knock_sweep"]
    player = answer.inputs.labels["a"]
    against = " and ".join(f"`{name}`" for name in answer.inputs["opponents"])
    return answer_section(
        answer,
        "knock_sweep",
        config,
        "If you knock as soon as your deadwood is at most t (the same t all hand long), which "
        "t earns the most points per hand, and which wins the most games to 100?",
        f"`{player}` (the champion) with its knock threshold set to t, against {against}.",
        f"{_SAME_PLAYER}, to one threshold for the whole hand. Points per hand and games "
        "can disagree: a low threshold wins fewer hands but bigger ones (gin bonuses, "
        "undercuts of an opponent who knocks into a strong hand)",
    )


def _chart(found: Found, config: ReportConfig) -> str:
    answer: Answer = found["knock_chart"]
    player, opponent = answer.inputs.labels["a"], answer.inputs.labels["b"]
    return answer_section(
        answer,
        "knock_chart",
        config,
        "You may knock with d deadwood on your n-th own turn. Is it better to knock now or "
        "to play on (and knock at the next chance)?",
        f"`{player}` against `{opponent}`; each knock decision is branched: knock now, or "
        "play on as the champion would (it knocks at its next chance by its own rule).",
        f"{_SAME_PLAYER}, one decision at a time: each cell compares knocking now with "
        "playing on from the same states, so the chart says when a knock is worth more "
        "than the champion's next chances, not which table to follow all hand",
    )


def _schedule(found: Found, config: ReportConfig) -> str:
    points: Answer = found["knock_schedule"]
    text = answer_section(
        points,
        "knock_schedule",
        config,
        "If the knock threshold may change with the turn, which schedule earns the most "
        "points per hand (and which wins the most games), and where do two players end up "
        "when each keeps best-responding?",
        f"`{points.inputs.labels['a']}` with its knock schedule searched, against "
        f"`{points.inputs.labels['b']}`, then each against the other's latest schedule.",
        f"{_SAME_PLAYER}, by coordinate ascent against one opponent (its twin) rather than "
        "against the seven test opponents. A schedule is written as four thresholds, for "
        "own turns 1-3, 4-6, 7-9 and 10 on: `10/0/0/0` = knock with 10 or less on turns "
        "1-3, then only with gin",
    )
    games: Answer | None = found.get("knock_schedule_games")
    if games is not None:
        text += f"\n**For games to 100** (the game-win rate as the objective): {games.verdict}\n"
    return text


def _deals(config: ReportConfig, factor: float, least: int = 50) -> int:
    return config.size(factor, least)


SECTIONS = (
    Section(
        "sweep",
        "Knock threshold sweep: knock at deadwood <= t",
        (
            Entry(
                "knock-sweep",
                "knock_sweep",
                lambda config: {"deals": _deals(config, 0.25), "games": _deals(config, 0.05)},
                seconds=65,
                label="knock sweep",
            ),
        ),
        _sweep,
    ),
    Section(
        "chart",
        "When to knock, by turn: knock now or play on?",
        (
            Entry(
                "knock-chart",
                "knock_chart",
                lambda config: {
                    "deals": _deals(config, 2.0),
                    "equity_deals": _deals(config, 0.5),
                },
                seconds=30,
                label="knock now or play on",
            ),
        ),
        _chart,
    ),
    Section(
        "schedule",
        "Best knock schedule and best responses",
        (
            Entry(
                "knock-schedule",
                "knock_schedule",
                lambda config: {"deals": _deals(config, 0.1, least=200)},
                seconds=180,
                label="best knock schedule",
            ),
            Entry(
                "knock-schedule",
                "knock_schedule_games",
                lambda config: {
                    "objective": "games",
                    "deals": _deals(config, 0.025, least=50),
                    "rounds": 1,
                },
                seconds=205,
                required=False,
                label="best knock schedule (games)",
            ),
        ),
        _schedule,
    ),
)

__all__ = ["SECTIONS"]
