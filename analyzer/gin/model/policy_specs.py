"""The specs a :class:`~analyzer.gin.model.policies.Policy` is made of, one per decision
rule: :class:`Draw` (whether to take the face-up card), :class:`Discard` (which card to
throw), :class:`Knock` (when to knock) and the expert's :class:`Tracking` (how it reads
hands), each field declared once (:mod:`analyzer.gin.model.spec_fields`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...core.arrays import Int64s
from .policy_fields import (
    EXPERT_WEIGHT_TEXT,
    LEARNED_WEIGHT_TEXT,
    MAX_PENALTY,
    MAX_WEIGHT,
    SCHEDULE_TURNS,
    DiscardRule,
    DrawRule,
    KnockRule,
    PolicyField,
    schedule_field,
)
from .spec_fields import Spec, declare, flag, integer, rule_choice


@dataclass(frozen=True)
class Draw(Spec):
    """Whether to take the face-up card (each rule is described in
    :mod:`analyzer.gin.decisions.choose`, beside its kernel)."""

    rule: str = rule_choice(
        "improve",
        DrawRule,
        "draw",
        "When to take the face-up card",
        PolicyField.DRAW,
        always=True,
        notes={
            "improve": "when it lowers the deadwood",
            "meld": "when it fits a meld of a best arrangement",
            "anymeld": "any meld",
        },
    )
    take_margin: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "take_margin", EXPERT_WEIGHT_TEXT, PolicyField.TAKE_MARGIN
    )
    take_melds: bool = flag(
        True,
        "take_melds",
        "draw=principles: take the face-up card when it fits a meld of a best arrangement.",
        PolicyField.TAKE_MELDS,
        "",
    )
    take_points: int = integer(
        0,
        0,
        MAX_PENALTY,
        "take_points",
        "draw=principles: take the face-up card when, after the best throw, it takes at "
        "least this many points off the deadwood, counting its outs (0: never for that).",
        PolicyField.TAKE_POINTS,
    )
    take_out_points: int = integer(
        0,
        0,
        10,
        "take_out_points",
        "draw=principles: points a take gains for each card that would make a meld with "
        "the taken card and another card held, less as much for each of the thrown card's "
        "(0: not counted).",
        PolicyField.TAKE_OUT_POINTS,
    )
    take_live_only: bool = flag(
        True,
        "take_live_only",
        "draw=principles: count only the cards completing a meld that are unseen (not in "
        "the discard pile, not held by the opponent).",
        PolicyField.TAKE_LIVE_ONLY,
        "",
    )
    take_late_stock: int = integer(
        0,
        0,
        31,
        "take_late_stock",
        "draw=principles: with at most this many cards left in the stock, the cards "
        "completing a meld are not counted (0: always counted).",
        PolicyField.TAKE_LATE_STOCK,
    )

    RULE_TEXT: ClassVar[dict[str, str]] = {
        "never": "Never takes the face-up card",
        "improve": "Takes the face-up card when that lowers its deadwood",
        "meld": "Takes the face-up card when it fits a meld of a best arrangement",
        "expert": "Takes the face-up card when it fits a meld of a best arrangement, or when "
        "it improves its hand value (deadwood less its live outs, read from what the "
        "opponent is inferred to hold) by more than {take_margin_points:g} points",
        "anymeld": "Takes the face-up card when it forms any meld with its cards",
        "marjj": "Takes the face-up card, as the EAAI-2021 agent MARJJ does, when it lowers "
        "its deadwood and fits a meld of the arrangement it would lay down (of its "
        "least-deadwood arrangements, the one least exposed to layoffs)",
        "principles": "Takes the face-up card when {terms}",
    }

    def principle_terms(self, you: bool = False) -> list[str]:
        """When the ``principles`` draw takes the face-up card, one phrase a clause, about
        this player or (``you``) addressed to the person playing."""
        terms = []
        if self.take_melds:
            terms.append("it fits a meld of a best arrangement")
        if self.take_points:
            your = "your" if you else "its"
            held = "you hold" if you else "held"
            term = (
                f"it takes {self.take_points} or more points off {your} deadwood after "
                f"{your} best throw"
            )
            if self.take_out_points:
                unseen = "unseen " if self.take_live_only else ""
                throws = "you throw" if you else "it throws"
                term += (
                    f", counting {self.take_out_points} points more for each {unseen}card "
                    f"that would make a meld with it and another card {held}, and as many "
                    f"less for each that would with the card {throws}"
                )
                if self.take_late_stock:
                    term += f" (until {self.take_late_stock} or fewer cards are left in the stock)"
            terms.append(term)
        return terms

    def explain(self) -> str:
        """The draw rule in plain English."""
        if self.rule == "principles":
            terms = self.principle_terms()
            if not terms:
                return self.RULE_TEXT["never"]
            return self.RULE_TEXT["principles"].format(terms=", or when ".join(terms))
        return self.RULE_TEXT[self.rule].format(take_margin_points=self.take_margin / 100)


@dataclass(frozen=True)
class Discard(Spec):
    """Which card to throw when not knocking (each rule is described in
    :mod:`analyzer.gin.decisions.choose`, beside its kernel)."""

    rule: str = rule_choice(
        "high",
        DiscardRule,
        "discard",
        "Which card to throw",
        PolicyField.DISCARD,
        always=True,
    )
    norepeat: bool = flag(
        False,
        "norepeat",
        "Never take a face-up card and throw the same card twice in a hand.",
        PolicyField.NO_REPEAT,
        "never repeats a take-and-throw pair",
    )
    danger_penalty: int = integer(
        3,
        0,
        MAX_PENALTY,
        "danger_penalty",
        "Points added per dangerous card (used by discard=safe).",
        PolicyField.DANGER_PENALTY,
    )
    slack: int = integer(
        4,
        0,
        MAX_PENALTY,
        "slack",
        "Points above the least deadwood a lookahead discard may leave.",
        PolicyField.SLACK,
    )
    danger: int = integer(
        400, -MAX_WEIGHT, MAX_WEIGHT, "danger", EXPERT_WEIGHT_TEXT, PolicyField.DANGER
    )
    low_late: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "low_late", EXPERT_WEIGHT_TEXT, PolicyField.LOW_LATE
    )
    learned_deadwood: int = integer(
        100,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_deadwood",
        LEARNED_WEIGHT_TEXT,
        PolicyField.LEARNED_DEADWOOD,
    )
    learned_future: int = integer(
        1000,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_future",
        LEARNED_WEIGHT_TEXT,
        PolicyField.LEARNED_FUTURE,
    )
    learned_future_late: int = integer(
        -800,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_future_late",
        LEARNED_WEIGHT_TEXT,
        PolicyField.LEARNED_FUTURE_LATE,
    )
    learned_outs: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "learned_outs", LEARNED_WEIGHT_TEXT, PolicyField.LEARNED_OUTS
    )
    learned_danger: int = integer(
        0,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_danger",
        LEARNED_WEIGHT_TEXT,
        PolicyField.LEARNED_DANGER,
    )
    learned_late: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "learned_late", LEARNED_WEIGHT_TEXT, PolicyField.LEARNED_LATE
    )
    learned_table: int = integer(
        100,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_table",
        LEARNED_WEIGHT_TEXT,
        PolicyField.LEARNED_TABLE,
    )
    learned_racer_deadwood: int = integer(
        0,
        -MAX_WEIGHT,
        MAX_WEIGHT,
        "learned_racer_deadwood",
        "Added to learned_deadwood once the opponent has shown itself a racer (see "
        "knock_racer): against a racer, whose knock comes soon, the deadwood held now "
        "decides the undercut.",
        PolicyField.LEARNED_RACER_DEADWOOD,
    )
    racer_rule: str = rule_choice(
        "same",
        DiscardRule,
        "discard_racer",
        "Which card to throw once the opponent has shown itself a racer (see knock_racer)",
        PolicyField.DISCARD_RACER,
        unset="same",
        notes={"same": "the discard rule"},
    )
    learned_window: int = integer(
        8,
        0,
        MAX_PENALTY,
        "learned_window",
        "Points above the least deadwood a learned discard may leave.",
        PolicyField.LEARNED_WINDOW,
    )
    out_points: int = integer(
        2,
        0,
        10,
        "out_points",
        "discard=principles: points a card's value drops for each card that would make a "
        "meld with it and another card held (0: melds to come are not counted).",
        PolicyField.OUT_POINTS,
    )
    feed_points: int = integer(
        2,
        0,
        10,
        "feed_points",
        "discard=principles: points a card's value drops when it shares its rank with, or "
        "sits within two ranks in its suit of, a card the opponent took from the pile and "
        "holds (0: not counted).",
        PolicyField.FEED_POINTS,
    )
    live_only: bool = flag(
        True,
        "live_only",
        "discard=principles: count only the cards completing a meld that are unseen (not in "
        "the discard pile, not held by the opponent).",
        PolicyField.LIVE_ONLY,
        "",
    )
    late_stock: int = integer(
        0,
        0,
        31,
        "late_stock",
        "discard=principles: with at most this many cards left in the stock, melds to come "
        "are not counted (0: always counted).",
        PolicyField.LATE_STOCK,
    )

    RULE_TEXT: ClassVar[dict[str, str]] = {
        "high": "throws the card leaving the least deadwood (the highest card on ties)",
        "random": "throws a random card among those leaving the least deadwood",
        "safe": "throws the card leaving the least deadwood plus {danger_penalty} points per "
        "card it could give the opponent (judged from the cards the opponent took)",
        "lookahead": "throws, among discards within {slack} points of the least deadwood, the "
        "one with the best expected deadwood after the next draw",
        "expert": "throws the card best for its hand value, weighing the chance the opponent "
        "melds it",
        "marjj": "throws, among its costliest unmelded cards, the one with the least deadwood "
        "now plus expected deadwood after its next draws plus MARJJ's table of the "
        "opponent's use for the card",
        "learned": "throws the card with the best evaluation learned from simulated deals: "
        "the deadwood it leaves, the expected deadwood after the next draws, the live outs, "
        "the chance the opponent melds the card and its use to the opponent",
        "principles": "throws the unmatched card of highest value: its points{steps}",
    }
    #: What a discard rule changes in the knock (the deadwood it knocks with).
    KNOCK_NOTE: ClassVar[dict[str, str]] = {
        "marjj": " (the deadwood left by the card it chose to throw)"
    }

    def principle_terms(self, you: bool = False) -> list[str]:
        """What the ``principles`` discard takes off a card's points, one phrase a term,
        about this player or (``you``) addressed to the person playing."""
        terms = []
        if self.out_points:
            points = "" if you else " points"
            held = "you hold" if you else "held"
            outs = f"{self.out_points}{points} for each {'unseen ' if self.live_only else ''}"
            outs += f"card that would make a meld with it and another card {held}"
            if self.late_stock:
                outs += f" (until {self.late_stock} or fewer cards are left in the stock)"
            terms.append(outs)
        if self.feed_points:
            terms.append(
                f"{self.feed_points} if your opponent could use it (it has the rank of, or is "
                "within two ranks in the suit of, a card your opponent took from the pile)"
                if you
                else f"{self.feed_points} points if the opponent could use it (of the rank of, "
                "or within two ranks in the suit of, a card it took from the pile)"
            )
        return terms

    def explain(self) -> str:
        """The discard rule in plain English."""
        text = self.RULE_TEXT[self.rule].format(
            danger_penalty=self.danger_penalty,
            slack=self.slack,
            steps="".join(f" less {term}" for term in self.principle_terms()),
        )
        if self.rule == "learned" and self.learned_racer_deadwood:
            text += (
                ", weighing the deadwood it keeps "
                f"{'more' if self.learned_racer_deadwood > 0 else 'less'} once the opponent "
                "has shown itself a racer"
            )
        if self.racer_rule != "same":
            text += "; once the opponent has shown itself a racer it " + self.RULE_TEXT[
                self.racer_rule
            ].format(danger_penalty=self.danger_penalty, slack=self.slack)
        return text


@dataclass(frozen=True)
class Knock(Spec):
    """When to knock.

    After drawing, knock (discarding a card that leaves the least deadwood) when that
    deadwood is at most the threshold of the ``schedule`` for this player's turn number
    (its own draws, counted from 1; the ``alert`` schedule while the opponent holds a card
    it took from the pile) and within the rules' limit; gin is always taken.  With
    ``rule=expert`` the schedule only says when a knock may be considered: the knock is
    valued on sampled opponent hands (EV, undercuts, the game score) against ``bias +
    stock x stock left`` (see :mod:`analyzer.gin.decisions.expert`)."""

    schedule: tuple[tuple[int, int], ...] = declare(
        ((1, 10),),
        schedule_field(
            "knock",
            "Deadwood (points) at or under which to knock, by own turn (turn:threshold "
            "steps); gin is always taken.",
            optional=False,
        ),
    )
    """(first own turn, deadwood threshold) pairs, turns ascending."""
    alert: tuple[tuple[int, int], ...] | None = declare(
        None,
        schedule_field(
            "knock_alert",
            "Knock thresholds used instead while the opponent holds a card it took "
            "from the pile (None: the same as knock).",
            optional=True,
        ),
    )
    racer: tuple[tuple[int, int], ...] | None = declare(
        None,
        schedule_field(
            "knock_racer",
            "Knock thresholds used instead of both others once the opponent has shown "
            "itself a racer: in an earlier hand of this game it knocked short of gin "
            "where this table would not have (None: no read of the opponent).",
            optional=True,
        ),
    )
    rule: str = rule_choice(
        "schedule",
        KnockRule,
        "knock_rule",
        "When to knock",
        PolicyField.KNOCK_RULE,
        notes={"schedule": "by the knock thresholds"},
    )
    bias: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "knock_bias", EXPERT_WEIGHT_TEXT, PolicyField.KNOCK_BIAS
    )
    stock: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "knock_stock", EXPERT_WEIGHT_TEXT, PolicyField.KNOCK_STOCK
    )
    threat: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "knock_threat", EXPERT_WEIGHT_TEXT, PolicyField.KNOCK_THREAT
    )
    samples: int = integer(8, 1, 64, "knock_samples", EXPERT_WEIGHT_TEXT, PolicyField.KNOCK_SAMPLES)
    game_push: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "game_push", EXPERT_WEIGHT_TEXT, PolicyField.GAME_PUSH
    )

    RULE_TEXT: ClassVar[dict[str, str]] = {
        "schedule": "",
        "expert": " (when allowed, only if the knock is worth more than playing on, judged on "
        "sampled opponent hands)",
    }

    def thresholds(self, alert: bool = False, racer: bool = False) -> Int64s:
        """Knock threshold (points) for own turns 1..SCHEDULE_TURNS; ``alert``: while
        the opponent holds a card it took from the pile; ``racer``: once the opponent
        has shown itself a racer (-1 for every turn when the policy has no read)."""
        if racer:
            if self.racer is None:
                return np.full(SCHEDULE_TURNS, -1, dtype=np.int64)
            schedule = self.racer
        else:
            schedule = self.alert if alert and self.alert is not None else self.schedule
        out = np.zeros(SCHEDULE_TURNS, dtype=np.int64)
        for turn, threshold in schedule:
            out[turn - 1 :] = threshold
        return out

    def write(self, row: Int64s) -> None:
        super().write(row)
        for field, table in (
            (PolicyField.SCHEDULE, self.thresholds()),
            (PolicyField.ALERT_SCHEDULE, self.thresholds(alert=True)),
            (PolicyField.RACER_SCHEDULE, self.thresholds(racer=True)),
        ):
            row[field : field + SCHEDULE_TURNS] = table


@dataclass(frozen=True)
class Tracking(Spec):
    """How the expert rules read the hands: ``outs`` weighs the live outs in a hand's
    value (its draws and discards), ``play_in`` is how many of the opponent's stock
    draws its sampled hands are played in (its knock rule, and a search's opponent model)."""

    outs: int = integer(150, -MAX_WEIGHT, MAX_WEIGHT, "outs", EXPERT_WEIGHT_TEXT, PolicyField.OUTS)
    play_in: int = integer(2, 0, 20, "play_in", EXPERT_WEIGHT_TEXT, PolicyField.PLAY_IN)


__all__ = ["Discard", "Draw", "Knock", "Tracking"]
