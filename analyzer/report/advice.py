"""The advisor's answer for both front doors (``analyzer advise`` and ``az.advise``): the
opponent model they default to, the game-equity table a scored position needs, the advice
with its cross-check against another opponent model, and the text a person reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..core.progress import Progress
from ..gin.model.rules import Rules
from ..gin.play.advisor import ActionEstimate, Advice, Position, advise, check_game_position
from ..gin.play.players import Player, format_player, rollout_policy
from ..studies.study import GIN
from ..studies.text import plus_minus, table_lines, title_text

#: The other opponent models a cross-check may rank the actions against.
CROSS_CHECKS = ("basic", "expert", "none")


def strongest_model() -> str:
    """The strongest opponent model affordable inside the advisor's rollouts."""
    from ..gin.model.policies import PRESETS

    return "expert" if "expert" in PRESETS else "basic"


def cross_check_model(given: str | None, opponent: Player) -> str:
    """The cross-check's opponent model: ``given``, else basic (or the strongest model
    when the opponent model is basic)."""
    if given is not None:
        return given
    return "basic" if format_player(opponent) != "basic" else strongest_model()


def position_equity(
    position: Position,
    rules: Rules,
    policy: Player,
    opponent: Player,
    deals: int,
    seed: int,
    progress: Progress | None = None,
) -> Any:
    """The game-win probability of each final score, for a position with a score, from
    ``deals`` deals of the two players; ``ValueError`` for a score the rules cannot
    reach."""
    check_game_position(position, rules)
    from ..gin.studies.equity.table import equity_function

    # a search player's table is its rollout policy's: searching 10**4 deals for a table
    # would cost hours
    return equity_function(
        rules, rollout_policy(policy), rollout_policy(opponent), deals, seed, progress
    )


@dataclass(frozen=True)
class AdviceAnswer:
    """The advice on a position, with its cross-check and how the title names the run."""

    advice: Advice
    check: Advice | None
    """The actions ranked against :attr:`cross_check` (None: not checked)."""
    cross_check: str
    policy: Player
    opponent: Player
    rules_name: str
    """How the title names the rules (``standard``, ``standard with knock_limit=7``)."""

    def __getattr__(self, name: str) -> Any:
        # the advice's own fields read through (best, actions, verdict...)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.advice, name)

    def models(self) -> dict[str, str]:
        return {
            "opponent_model": format_player(self.opponent),
            "opponent_policy": GIN.format_player(self.opponent),
            "own_policy": format_player(self.policy),
        }

    def difference(self) -> str | None:
        """One line when the best action against the cross-check's model is not the same
        (None when it is, or without a cross-check)."""
        if self.check is None:
            return None
        best, other_best = self.advice.actions[0], self.check.actions[0]
        if best.action == other_best.action:
            return None
        return (
            f"Against the {self.cross_check} model the best action would be {other_best.action} "
            f"instead of {best.action} ({other_best.mean:+.2f} against {self.cross_check})."
        )

    @property
    def title(self) -> str:
        models = self.models()
        return title_text(
            "Knock, gin or play on, with which discard",
            rules=self.rules_name,
            players=f"opponent model {models['opponent_model']}, you play on as "
            f"{models['own_policy']}",
            size=f"{self.advice.samples:,} samples",
            seed=self.advice.seed,
        )

    def lines(self) -> list[str]:
        """The position line, the run line, the ranked table, the principle behind the
        best discard and the cross-check's line."""
        from ..gin.play.advisor.draw_principles import draw_note
        from ..gin.play.advisor.principles import best_discard_note

        lines = advice_lines(self.advice)
        position = self.advice.position
        for note in (
            draw_note(position),
            best_discard_note(position, self.advice.actions[0].action),
        ):
            if note is not None:
                lines.append(note)
        if self.check is not None:
            lines.append(
                self.difference()
                or f"Against the {self.cross_check} model the verdict is the same."
            )
        return lines

    def to_dict(self, preset: str, overrides: Sequence[str]) -> dict[str, Any]:
        """The advice, the players and the cross-check, for JSON."""
        check, difference = self.check, self.difference()
        return (
            self.advice.to_dict()
            | self.models()
            | {
                "rules_preset": preset,
                "rules_overrides": tuple(overrides),
                "cross_check": None
                if check is None
                else {
                    "opponent_model": self.cross_check,
                    "best": check.actions[0].action,
                    "same_verdict": difference is None,
                    "note": difference,
                },
            }
        )

    def to_frame(self) -> pd.DataFrame:
        """The ranked actions with the players' names."""
        return self.advice.to_frame().assign(**self.models())


def advise_position(
    position: Position,
    rules: Rules,
    rules_name: str,
    policy: Player,
    opponent: Player,
    cross_check: str,
    samples: int,
    seed: int,
    progress: Progress | None = None,
    **options: Any,
) -> AdviceAnswer:
    """The advice on ``position`` against ``opponent`` (``samples`` samples at most),
    checked against the ``cross_check`` model on a quarter of the samples (``none``: not
    checked); ``options`` go to :func:`analyzer.gin.play.advisor.advise`."""
    advice = advise(
        position, rules, policy, opponent, samples=samples, seed=seed, progress=progress, **options
    )
    check = None
    if cross_check != "none" and cross_check != format_player(opponent):
        from ..gin.model.policies import PRESETS

        check = advise(
            position,
            rules,
            policy,
            PRESETS[cross_check],
            samples=max(samples // 4, 1),
            seed=seed,
            **options,
        )
    return AdviceAnswer(advice, check, cross_check, policy, opponent, rules_name)


def advice_lines(advice: Advice) -> list[str]:
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


__all__ = [
    "CROSS_CHECKS",
    "AdviceAnswer",
    "advice_lines",
    "advice_table",
    "advise_position",
    "cross_check_model",
    "position_equity",
    "strongest_model",
]
