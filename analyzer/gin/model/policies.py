"""Draw, discard and knock policies as data.

A policy is a :class:`Policy` (frozen, validated): one spec per decision rule,
:class:`Draw` (whether to take the face-up card), :class:`Discard` (which card to throw),
:class:`Knock` (when to knock) and the expert's :class:`Tracking` (how it reads hands).
Each spec declares its fields (:mod:`analyzer.gin.model.spec_fields`): key, range,
meaning and entry of the small ``np.int64`` row the decision kernels read
(:meth:`Policy.to_array`, indexed by :class:`PolicyField`); there are no Python callbacks.
A policy sees only what its player may see: its hand, the discard pile, the cards the
opponent took from the pile, threw and refused (:mod:`analyzer.gin.model.knowledge`), the
stock size, its own turn number and, in a game, the score.

String form: ``draw=improve,discard=high,knock=10``.  ``knock`` is a number, ``gin``
(0), or a schedule ``1:0/8:10`` (from own turn 1 knock only with gin, from turn 8 at
10 or less).  ``knock_alert`` (same forms) is the schedule used instead while the
opponent holds a card it took from the pile (a public signal that it is building
melds); without it the one schedule serves both.  ``norepeat`` (yes/no): never repeat
within a hand the same pair of face-up card taken and card discarded.  The other keys
(:data:`KEYS`) are written only when they differ from their defaults:
``expert,knock_bias=0``.  In Python, :meth:`Policy.changed` takes the same keys.

Adding a rule: its name in the rule enum (:mod:`analyzer.gin.model.policy_fields`:
:class:`DrawRule`, :class:`DiscardRule`,
:class:`KnockRule`) with its sentence in the spec's ``RULE_TEXT``, any parameter as a
declared field of that spec (with a :class:`PolicyField` entry and its key at the end of
:data:`KEYS`), its branch in :mod:`analyzer.gin.decisions.choose`, and a preset below.

>>> parse_policy("basic") == PRESETS["basic"]
True
>>> format_policy(parse_policy("draw=meld,discard=random,knock=1:0/8:10"))
'draw=meld,discard=random,knock=1:0/8:10'
>>> format_policy(PRESETS["basic"].changed(draw="never", outs=0))
'draw=never,discard=high,knock=10,outs=0'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

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
    Schedule,
    schedule_field,
    steps_tuple,
)
from .spec_fields import Declared, Spec, declare, flag, integer, is_int, rule_choice


@dataclass(frozen=True)
class Draw(Spec):
    """Whether to take the face-up card (each rule is described in
    :mod:`analyzer.gin.decisions.choose`, beside its kernel)."""

    rule: str = rule_choice(
        "improve",
        DrawRule,
        "draw",
        "When to take the face-up card: never, improve (when it lowers the deadwood), meld "
        "(when it fits a meld of a best arrangement), anymeld (any meld), expert or marjj.",
        PolicyField.DRAW,
        always=True,
    )
    take_margin: int = integer(
        0, -MAX_WEIGHT, MAX_WEIGHT, "take_margin", EXPERT_WEIGHT_TEXT, PolicyField.TAKE_MARGIN
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
    }

    def explain(self) -> str:
        """The draw rule in plain English."""
        return self.RULE_TEXT[self.rule].format(take_margin_points=self.take_margin / 100)


@dataclass(frozen=True)
class Discard(Spec):
    """Which card to throw when not knocking (each rule is described in
    :mod:`analyzer.gin.decisions.choose`, beside its kernel)."""

    rule: str = rule_choice(
        "high",
        DiscardRule,
        "discard",
        "Which card to throw: high, random, safe, lookahead, expert, marjj or learned.",
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
        "Which card to throw once the opponent has shown itself a racer (see knock_racer): "
        "same (the discard rule) or another rule.",
        PolicyField.DISCARD_RACER,
        unset="same",
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

    def _principle_steps(self) -> str:
        terms = []
        if self.out_points:
            outs = f"{self.out_points} points for each {'unseen ' if self.live_only else ''}card "
            outs += "that would make a meld with it and another card held"
            if self.late_stock:
                outs += f" (until {self.late_stock} or fewer cards are left in the stock)"
            terms.append(outs)
        if self.feed_points:
            terms.append(
                f"{self.feed_points} points if the opponent could use it (of the rank of, or "
                "within two ranks in the suit of, a card it took from the pile)"
            )
        return "".join(f" less {term}" for term in terms)

    def explain(self) -> str:
        """The discard rule in plain English."""
        text = self.RULE_TEXT[self.rule].format(
            danger_penalty=self.danger_penalty, slack=self.slack, steps=self._principle_steps()
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
        "schedule (knock by the knock thresholds) or expert.",
        PolicyField.KNOCK_RULE,
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

    def thresholds(self, alert: bool = False, racer: bool = False) -> npt.NDArray[np.int64]:
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

    def write(self, row: npt.NDArray[np.int64]) -> None:
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


#: The keys of the string form in the order it writes them (the order of every policy
#: string in results/): a new key goes at the end.
KEYS = (
    "draw",
    "discard",
    "knock",
    "knock_alert",
    "norepeat",
    "danger_penalty",
    "slack",
    "knock_rule",
    "outs",
    "danger",
    "take_margin",
    "low_late",
    "knock_bias",
    "knock_stock",
    "knock_threat",
    "knock_samples",
    "game_push",
    "play_in",
    "learned_deadwood",
    "learned_future",
    "learned_future_late",
    "learned_outs",
    "learned_danger",
    "learned_late",
    "learned_table",
    "learned_window",
    "out_points",
    "feed_points",
    "live_only",
    "late_stock",
    "knock_racer",
    "learned_racer_deadwood",
    "discard_racer",
)


@dataclass(frozen=True)
class Policy:
    """One player's strategy: a spec per decision rule."""

    draw: Draw = Draw()
    discard: Discard = Discard()
    knock: Knock = Knock()
    tracking: Tracking = Tracking()

    def __post_init__(self) -> None:
        for item in fields(self):
            kind, value = type(item.default), getattr(self, item.name)
            if type(value) is not kind:
                raise TypeError(f"{item.name} must be a {kind.__name__}, got {value!r}")

    def value(self, key: str) -> Any:
        """The field of string-form key ``key`` (:data:`KEYS`)."""
        spec, name = _where(key)
        return getattr(getattr(self, spec), name)

    def changed(self, **changes: Any) -> Policy:
        """A copy with the fields named by their string-form keys changed (checked):
        ``policy.changed(draw="meld", knock_bias=0)``."""
        by_spec: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            spec, name = _where(key)
            by_spec.setdefault(spec, {})[name] = value
        return replace(
            self,
            **{spec: replace(getattr(self, spec), **values) for spec, values in by_spec.items()},
        )

    def to_array(self) -> npt.NDArray[np.int64]:
        """The policy as the ``np.int64`` array that the decision kernels read."""
        array = np.zeros(PolicyField.SIZE, dtype=np.int64)
        for item in fields(self):
            getattr(self, item.name).write(array)
        return array

    def with_knock(self, schedule: Schedule | int, alert: Schedule | None = None) -> Policy:
        """A copy knocking at a constant threshold or by a (turn, threshold) schedule,
        and by ``alert`` while the opponent holds a pile card (None: the same), and by
        nothing else: a racer table (``knock_racer``) is dropped, so that the copy knocks
        by the stated table whatever it reads of the opponent."""
        if isinstance(schedule, (int, np.integer)) and is_int(schedule):
            schedule = ((1, int(schedule)),)
        schedule = steps_tuple(schedule)
        if alert is not None and steps_tuple(alert) == schedule:
            alert = None
        return replace(
            self,
            knock=replace(
                self.knock,
                schedule=schedule,
                alert=None if alert is None else steps_tuple(alert),
                racer=None,
            ),
        )


def _declared_fields() -> dict[str, tuple[str, str, Declared]]:
    """``key -> (Policy field, spec field, declaration)`` of every string-form key."""
    default = Policy()
    found = {
        item.metadata["declared"].key: (spec.name, item.name, item.metadata["declared"])
        for spec in fields(default)
        for item in fields(getattr(default, spec.name))
    }
    if set(found) != set(KEYS):
        raise RuntimeError(f"KEYS and the specs' keys differ: {set(found) ^ set(KEYS)}")
    return {key: found[key] for key in KEYS}


_DECLARED = _declared_fields()


def _where(key: str) -> tuple[str, str]:
    if key not in _DECLARED:
        raise ValueError(f"bad policy key {key!r}; keys are {', '.join(KEYS)}")
    spec, name, _ = _DECLARED[key]
    return spec, name


def declaration(key: str) -> Declared:
    """The declaration of the string-form key ``key``."""
    _where(key)
    return _DECLARED[key][2]


#: ``name -> (low, high)`` of every integer field of a policy.
INT_RANGES: dict[str, tuple[int, int]] = {
    key: found.span for key, (_, _, found) in _DECLARED.items() if found.span is not None
}


def ranges_text() -> str:
    """The values every key of a policy takes, keys with the same values together (for
    ``--help``)."""
    groups: dict[str, list[str]] = {}
    for key, (_, _, found) in _DECLARED.items():
        groups.setdefault(found.limits, []).append(key)
    return "; ".join(
        (f"{', '.join(keys[:-1])} and {keys[-1]}" if len(keys) > 1 else keys[0]) + f" {limits}"
        for limits, keys in groups.items()
    )


#: The expert before the champion: the preset ``expert-v3``, and the base the champion
#: ``expert`` changes (its discard, and its knocking once it reads a racer).
_EXPERT_V3 = Policy(
    Draw("expert", take_margin=600),
    Discard("expert", danger=245, low_late=15),
    Knock(((1, 10), (10, 0)), alert=((1, 10), (7, 0)), bias=-118, stock=21),
    Tracking(outs=193, play_in=5),
)

PRESETS: dict[str, Policy] = {
    "basic": Policy(),
    "simple": Policy(Draw("meld"), Discard("random", norepeat=True)),
    "eaai-simple": Policy(Draw("anymeld"), Discard("random", norepeat=True)),
    "gin-hunter": Policy(knock=Knock(((1, 0), (10, 10)))),
    "lookahead": Policy(discard=Discard("lookahead")),
    "safe-discard": Policy(discard=Discard("safe")),
    "passive": Policy(Draw("never")),
    "expert": _EXPERT_V3.changed(
        discard="learned",
        learned_deadwood=171,
        learned_future=1879,
        learned_future_late=-659,
        learned_outs=-299,
        learned_danger=141,
        learned_late=-27,
        learned_table=101,
        learned_window=9,
        knock_racer=((1, 10), (3, 0)),
        discard_racer="marjj",
    ),
    "expert-v3": _EXPERT_V3,
    "marjj": Policy(Draw("marjj"), Discard("marjj"), Knock(((1, 10), (4, 0)))),
}
#: The player's rule set of ``analyzer how-to-discard``: the champion's draw, knock and
#: read, and the ``principles`` discard (a checklist a person can follow).
PRESETS["principles"] = PRESETS["expert"].changed(
    discard="principles", discard_racer="same", late_stock=8
)
"""Named policies: ``basic`` (improve, high, knock at first chance); ``simple`` (the EAAI
baseline player, except that it takes the upcard only when a best arrangement melds it);
``eaai-simple`` (the EAAI framework's ``SimpleGinRummyPlayer`` exactly: it takes the upcard
when it forms any meld); ``gin-hunter`` (holds for gin for 9 own turns, then knocks at the first
chance); ``lookahead``; ``safe-discard``; ``passive`` (never takes the upcard); ``expert``
(the champion: the card-tracking draw of :mod:`analyzer.gin.decisions.expert`, a discard
evaluation learned from simulated deals, :mod:`analyzer.gin.decisions.learned`, weights in
``results/fit_discard/``, and a read of the opponent across the hands of a game: once the
opponent has knocked short of gin where its own tables would not have, it camps, knocking
only with gin from own turn 3 and throwing by MARJJ's discard; otherwise it knocks by the
robust knock table of ``results/robust_knock/``: 10 or less on own turns 1-9, then gin
only, and from turn 7 on only with gin while the opponent holds a card it took from the
pile); ``expert-v3`` (the expert before the champion, kept for comparison: the same draw
and knock tables without the read, and the hand-set expert discard, weights tuned by
``scripts/tune_expert.py``); ``marjj`` (a
replica of MARJJ, an EAAI-2021 competition agent, see :mod:`analyzer.gin.decisions.marjj`: knocks
with 10 or less on its first three turns, then only with gin); ``principles`` (the
champion's draw, knock and read with the discard principles of ``analyzer how-to-discard``,
:mod:`analyzer.gin.decisions.principles`)."""

#: The round robin's field (``analyzer tournament``, the report's): the presets that differ
#: in how they draw and throw, the replica ``marjj``, ``expert-v3`` and the champion (not
#: ``search``: it changes only the knock and plays hundreds of times slower).
TOURNAMENT_FIELD: tuple[str, ...] = ("simple", "basic", "safe-discard", "lookahead")
TOURNAMENT_FIELD += ("gin-hunter", "passive", "marjj", "expert-v3", "expert")


def parse_policy(text: str) -> Policy:
    """A preset name, or ``key=value`` pairs (optionally after a preset: ``basic,knock=7``);
    the integers within :data:`INT_RANGES` (knock thresholds 0-10, turns 1-32)."""
    if not isinstance(text, str):
        raise TypeError(f"a policy is a preset name or a string form, got {text!r}")
    text = text.strip()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError("empty policy")
    base = PRESETS["basic"]
    if "=" not in parts[0]:
        if parts[0] not in PRESETS:
            raise ValueError(
                f"unknown policy {parts[0]!r}; presets are {', '.join(PRESETS)}, "
                "or give draw=..,discard=..,knock=.."
            )
        base = PRESETS[parts[0]]
        parts = parts[1:]
    changes: dict[str, object] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"bad policy part {part!r}: expected key=value")
        changes[key] = declaration(key).parse(value, key)
    return base.changed(**changes)


def format_policy(policy: Policy) -> str:
    """The string form of a policy (parsed back by :func:`parse_policy`)."""
    default = Policy()
    return ",".join(
        f"{key}={found.show(policy.value(key))}"
        for key, (_, _, found) in _DECLARED.items()
        if found.always or policy.value(key) != default.value(key)
    )


def policy_name(policy: Policy) -> str:
    """The preset name of a policy, or its string form."""
    for name, preset in PRESETS.items():
        if preset == policy:
            return name
    return format_policy(policy)
