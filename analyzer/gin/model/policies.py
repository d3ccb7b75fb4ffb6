"""Draw, discard and knock policies as data.

A policy is a :class:`Policy` value (frozen, validated) that packs into a small
``np.int64`` array (:meth:`Policy.to_array`, indexed by :class:`PolicyField`) which the
engine kernel reads; there are no Python callbacks.  A policy sees only what its player
may see: its hand, the discard pile, the cards the opponent took from the pile, threw
and refused (:mod:`analyzer.gin.model.knowledge`), the stock size, its own turn number and,
in a game, the score.

Draw rules (whether to take the face-up card):
  ``never``    always draw from the stock;
  ``improve``  take it when the best deadwood after taking it (and discarding another
               card) is lower than the deadwood held now;
  ``meld``     take it when it is melded in some minimum-deadwood arrangement of the
               11 cards;
  ``expert``   take it when ``meld`` would, or when it lowers the hand's value
               (deadwood less the live outs, weighted) by more than ``take_margin``
               (:mod:`analyzer.gin.decisions.expert`);
  ``anymeld``  take it when it forms any meld with the cards held, best or not (the EAAI
               framework's simple player: ``willDrawFaceUpCard`` looks for a meld
               containing the card among all melds of the 11 cards);
  ``marjj``    the EAAI-2021 agent MARJJ's rule: take it when it lowers the deadwood
               after the best discard and is melded in the meld set MARJJ would lay
               down (:mod:`analyzer.gin.decisions.marjj`).

Discard rules (which card to throw when not knocking):
  ``high``      a discard leaving the least deadwood; ties to the highest card value,
                then the highest rank, then the highest card index;
  ``random``    uniformly at random among the discards leaving the least deadwood;
  ``safe``      least ``deadwood + danger_penalty * danger``, where a card's danger
                counts the cards the opponent took from the pile and still holds that
                share its rank or sit within two ranks in its suit; ties as ``high``;
  ``lookahead`` among discards within ``slack`` points of the least deadwood, the one
                with the least expected deadwood after the next draw (over the cards
                this player has not seen); ties to the lower deadwood now, then ``high``;
  ``expert``    least value + ``danger`` x P(the opponent melds the card, from the
                opponent-hand inference) - ``low_late`` x lateness x points;
  ``marjj``     MARJJ's rule: among the unmelded cards worth the most, the least
                deadwood now + its weighted future deadwood + its opponent-model table
                (:mod:`analyzer.gin.decisions.marjj`); it knocks after the throw it chose, not after
                the least-deadwood one, when its schedule allows (the preset: 10 or less
                on own turns 1-3, then gin only).

Knock rule: after drawing, knock (discarding a card that leaves the least deadwood)
when that deadwood is at most the threshold for this player's turn number (its own
draws, counted from 1) and within the rules' limit; gin is always taken.  With
``knock_rule=expert`` the schedule only says when a knock may be considered: the knock is
valued on sampled opponent hands (EV, undercuts, the game score) against
``knock_bias + knock_stock x stock left`` (see :mod:`analyzer.gin.decisions.expert`).

String form: ``draw=improve,discard=high,knock=10``.  ``knock`` is a number, ``gin``
(0), or a schedule ``1:0/8:10`` (from own turn 1 knock only with gin, from turn 8 at
10 or less).  ``knock_alert`` (same forms) is the schedule used instead while the
opponent holds a card it took from the pile (a public signal that it is building melds);
without it the one schedule serves both.  ``norepeat`` (yes/no): never repeat within a hand the same pair of
face-up card taken and card discarded.  ``knock_rule`` (schedule/expert) and the expert's
integer weights (``outs``, ``danger``, ``take_margin``, ``low_late``, ``knock_bias``,
``knock_stock``, ``knock_threat``, ``knock_samples``, ``game_push``, ``play_in``) are
written only when they differ from their defaults: ``expert,knock_bias=0``.

>>> parse_policy("basic") == PRESETS["basic"]
True
>>> format_policy(parse_policy("draw=meld,discard=random,knock=1:0/8:10"))
'draw=meld,discard=random,knock=1:0/8:10'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from ...core.options import parse_yes_no

#: Length of the knock schedule by own turn number (later turns use the last entry).
SCHEDULE_TURNS = 32

#: Largest ``danger_penalty`` and ``slack`` (points): a hand's deadwood never exceeds
#: about 100 points, so larger values change nothing.
MAX_PENALTY = 100
#: Largest magnitude of the expert's weights (``outs``, ``danger``, ``take_margin``,
#: ``low_late``, ``knock_bias``, ``knock_stock``, ``knock_threat``, ``game_push``; hundredths
#: of a point): 1000 points, ten times a whole hand, and far inside int64 in the kernels'
#: sums (the tuned weights are below 1000).
MAX_WEIGHT = 100_000
#: ``name -> (low, high)`` of every integer field of a policy but the knock schedules.
INT_RANGES: dict[str, tuple[int, int]] = {
    "danger_penalty": (0, MAX_PENALTY), "slack": (0, MAX_PENALTY),
    **dict.fromkeys(("outs", "danger", "take_margin", "low_late", "knock_bias", "knock_stock",
                     "knock_threat", "game_push"), (-MAX_WEIGHT, MAX_WEIGHT)),
    "knock_samples": (1, 64), "play_in": (0, 20)}

DRAW_RULES = ("never", "improve", "meld", "expert", "anymeld")
DISCARD_RULES = ("high", "random", "safe", "lookahead", "expert")
#: The rules of replicas of other programs' players, valid in every policy but kept out of
#: ``DRAW_RULES``/``DISCARD_RULES``, the rules a best-response search tries.
REPLICA_DRAW_RULES = ("marjj",)
REPLICA_DISCARD_RULES = ("marjj",)
ALL_DRAW_RULES = DRAW_RULES + REPLICA_DRAW_RULES
ALL_DISCARD_RULES = DISCARD_RULES + REPLICA_DISCARD_RULES
KNOCK_RULES = ("schedule", "expert")
#: The expert's weights (integers, see :mod:`analyzer.gin.decisions.expert` for their units).
EXPERT_KEYS = ("outs", "danger", "take_margin", "low_late", "knock_bias", "knock_stock",
               "knock_threat", "knock_samples", "game_push", "play_in")


class PolicyField(IntEnum):
    """Index of each parameter in :meth:`Policy.to_array`."""

    DRAW = 0
    DISCARD = 1
    NO_REPEAT = 2
    DANGER_PENALTY = 3
    SLACK = 4
    SCHEDULE = 5  # SCHEDULE_TURNS entries: threshold for own turn 1, 2, ...
    KNOCK_RULE = 5 + SCHEDULE_TURNS
    OUTS = 6 + SCHEDULE_TURNS
    DANGER = 7 + SCHEDULE_TURNS
    TAKE_MARGIN = 8 + SCHEDULE_TURNS
    LOW_LATE = 9 + SCHEDULE_TURNS
    KNOCK_BIAS = 10 + SCHEDULE_TURNS
    KNOCK_STOCK = 11 + SCHEDULE_TURNS
    KNOCK_THREAT = 12 + SCHEDULE_TURNS
    KNOCK_SAMPLES = 13 + SCHEDULE_TURNS
    GAME_PUSH = 14 + SCHEDULE_TURNS
    PLAY_IN = 15 + SCHEDULE_TURNS
    ALERT_SCHEDULE = 16 + SCHEDULE_TURNS  # SCHEDULE_TURNS entries, as SCHEDULE
    SIZE = 16 + 2 * SCHEDULE_TURNS


class DrawRule(IntEnum):
    NEVER = 0
    IMPROVE = 1
    MELD = 2
    EXPERT = 3
    ANY_MELD = 4
    MARJJ = 5


class DiscardRule(IntEnum):
    HIGH = 0
    RANDOM = 1
    SAFE = 2
    LOOKAHEAD = 3
    EXPERT = 4
    MARJJ = 5


class KnockRule(IntEnum):
    SCHEDULE = 0
    EXPERT = 1


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _steps_tuple(schedule: object) -> tuple[tuple[int, int], ...]:
    """A schedule given as any sequence of (turn, threshold) pairs, as nested tuples
    (checked by :func:`_check_schedule`)."""
    try:
        return tuple(tuple(step) for step in schedule)  # type: ignore[attr-defined]
    except TypeError:
        raise TypeError("a knock schedule is a threshold or (turn, threshold) integer pairs, "
                        f"got {schedule!r}") from None


def _check_schedule(schedule: tuple[tuple[int, int], ...]) -> None:
    if not isinstance(schedule, tuple) or not all(
            isinstance(step, tuple) and len(step) == 2 and all(_is_int(v) for v in step)
            for step in schedule):
        raise TypeError(f"a knock schedule is a tuple of (turn, threshold) integer pairs, "
                        f"got {schedule!r}")
    if not schedule or schedule[0][0] != 1:
        raise ValueError("knock schedule must start at own turn 1")
    turns = [turn for turn, _ in schedule]
    if turns != sorted(set(turns)) or turns[-1] > SCHEDULE_TURNS:
        raise ValueError(f"knock schedule turns must increase within 1-{SCHEDULE_TURNS}")
    for _, threshold in schedule:
        if not 0 <= threshold <= 10:
            raise ValueError(f"knock threshold must be 0-10, got {threshold}")


@dataclass(frozen=True)
class Policy:
    """One player's strategy (deadwood thresholds in points, turns counted from 1)."""

    draw: str = "improve"
    discard: str = "high"
    knock: tuple[tuple[int, int], ...] = ((1, 10),)
    """Knock schedule: (first own turn, deadwood threshold) pairs, turns ascending."""
    knock_alert: tuple[tuple[int, int], ...] | None = None
    """Knock schedule while the opponent holds a card it took from the pile (None: the
    same as ``knock``)."""
    norepeat: bool = False
    danger_penalty: int = 3
    slack: int = 4
    knock_rule: str = "schedule"
    outs: int = 150
    danger: int = 400
    take_margin: int = 0
    low_late: int = 0
    knock_bias: int = 0
    knock_stock: int = 0
    knock_threat: int = 0
    knock_samples: int = 8
    game_push: int = 0
    play_in: int = 2

    def __post_init__(self) -> None:
        if self.draw not in ALL_DRAW_RULES:
            raise ValueError(f"unknown draw rule {self.draw!r}; "
                             f"choose from {', '.join(ALL_DRAW_RULES)}")
        if self.discard not in ALL_DISCARD_RULES:
            raise ValueError(f"unknown discard rule {self.discard!r}; "
                             f"choose from {', '.join(ALL_DISCARD_RULES)}")
        _check_schedule(self.knock)
        if self.knock_alert is not None:
            _check_schedule(self.knock_alert)
        if not isinstance(self.norepeat, bool):
            raise TypeError(f"norepeat must be True or False, got {self.norepeat!r}")
        for name, (low, high) in INT_RANGES.items():
            value = getattr(self, name)
            if not _is_int(value):
                raise TypeError(f"{name} must be an integer, got {value!r}")
            if not low <= value <= high:
                span = f"{low}-{high}" if low >= 0 else f"{low} to {high}"
                raise ValueError(f"{name} must be {span}, got {value}")
        if self.knock_rule not in KNOCK_RULES:
            raise ValueError(f"unknown knock rule {self.knock_rule!r}; "
                             f"choose from {', '.join(KNOCK_RULES)}")

    def thresholds(self, alert: bool = False) -> npt.NDArray[np.int64]:
        """Knock threshold (points) for own turns 1..SCHEDULE_TURNS; ``alert``: while
        the opponent holds a card it took from the pile."""
        schedule = self.knock_alert if alert and self.knock_alert is not None else self.knock
        out = np.zeros(SCHEDULE_TURNS, dtype=np.int64)
        for turn, threshold in schedule:
            out[turn - 1:] = threshold
        return out

    def to_array(self) -> npt.NDArray[np.int64]:
        """The policy as the ``np.int64`` array that the engine reads."""
        array = np.zeros(PolicyField.SIZE, dtype=np.int64)
        array[PolicyField.DRAW] = ALL_DRAW_RULES.index(self.draw)
        array[PolicyField.DISCARD] = ALL_DISCARD_RULES.index(self.discard)
        array[PolicyField.NO_REPEAT] = int(self.norepeat)
        array[PolicyField.DANGER_PENALTY] = self.danger_penalty
        array[PolicyField.SLACK] = self.slack
        array[PolicyField.SCHEDULE:PolicyField.SCHEDULE + SCHEDULE_TURNS] = self.thresholds()
        array[PolicyField.ALERT_SCHEDULE:PolicyField.ALERT_SCHEDULE + SCHEDULE_TURNS] = (
            self.thresholds(alert=True))
        array[PolicyField.KNOCK_RULE] = KNOCK_RULES.index(self.knock_rule)
        for key in EXPERT_KEYS:
            array[PolicyField[key.upper()]] = getattr(self, key)
        return array

    def with_knock(self, schedule: tuple[tuple[int, int], ...] | int,
                   alert: tuple[tuple[int, int], ...] | None = None) -> Policy:
        """A copy knocking at a constant threshold or by a (turn, threshold) schedule,
        and by ``alert`` while the opponent holds a pile card (None: the same)."""
        if isinstance(schedule, (int, np.integer)) and _is_int(schedule):
            schedule = ((1, int(schedule)),)
        schedule = _steps_tuple(schedule)
        if alert is not None and _steps_tuple(alert) == schedule:
            alert = None
        return replace(self, knock=schedule,
                       knock_alert=None if alert is None else _steps_tuple(alert))


PRESETS: dict[str, Policy] = {
    "basic": Policy(),
    "simple": Policy(draw="meld", discard="random", norepeat=True),
    "eaai-simple": Policy(draw="anymeld", discard="random", norepeat=True),
    "gin-hunter": Policy(knock=((1, 0), (10, 10))),
    "lookahead": Policy(discard="lookahead"),
    "safe-discard": Policy(discard="safe"),
    "passive": Policy(draw="never"),
    "expert": Policy(draw="expert", discard="expert", knock=((1, 10), (10, 0)),
                     knock_alert=((1, 10), (7, 0)), outs=193, danger=245, take_margin=600,
                     low_late=15, knock_bias=-118, knock_stock=21, play_in=5),
    "marjj": Policy(draw="marjj", discard="marjj", knock=((1, 10), (4, 0))),
}
"""Named policies: ``basic`` (improve, high, knock at first chance); ``simple`` (the EAAI
baseline player, except that it takes the upcard only when a best arrangement melds it);
``eaai-simple`` (the EAAI framework's ``SimpleGinRummyPlayer`` exactly: it takes the upcard
when it forms any meld); ``gin-hunter`` (holds for gin for 9 own turns, then knocks at the first
chance); ``lookahead``; ``safe-discard``; ``passive`` (never takes the upcard); ``expert``
(reads the opponent in its draws and discards, see :mod:`analyzer.gin.decisions.expert`; weights
tuned by ``scripts/tune_expert.py``; knocks by the robust knock table of
``results/robust_knock/``: 10 or less on own turns 1-9, then gin only, and from turn 7
on only with gin while the opponent holds a card it took from the pile); ``marjj`` (a
replica of MARJJ, an EAAI-2021 competition agent, see :mod:`analyzer.gin.decisions.marjj`: knocks
with 10 or less on its first three turns, then only with gin)."""


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
            raise ValueError(f"unknown policy {parts[0]!r}; presets are {', '.join(PRESETS)}, "
                             "or give draw=..,discard=..,knock=..")
        base = PRESETS[parts[0]]
        parts = parts[1:]
    changes: dict[str, object] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"bad policy part {part!r}: expected key=value")
        if key in ("draw", "discard", "knock_rule"):
            changes[key] = value
        elif key in ("knock", "knock_alert"):
            changes[key] = _parse_schedule(value)
        elif key == "norepeat":
            changes[key] = parse_yes_no(value, key)
        elif key in ("danger_penalty", "slack", *EXPERT_KEYS):
            changes[key] = _int(value, key)
        else:
            raise ValueError(f"bad policy key {key!r}; keys are draw, discard, knock, "
                             "knock_alert, norepeat, danger_penalty, slack, knock_rule, "
                             f"{', '.join(EXPERT_KEYS)}")
    return replace(base, **changes)  # type: ignore[arg-type]


def format_policy(policy: Policy) -> str:
    """The string form of a policy (parsed back by :func:`parse_policy`)."""
    text = f"draw={policy.draw},discard={policy.discard},knock={format_schedule(policy.knock)}"
    if policy.knock_alert is not None:
        text += f",knock_alert={format_schedule(policy.knock_alert)}"
    if policy.norepeat:
        text += ",norepeat=yes"
    default = Policy()
    if policy.danger_penalty != default.danger_penalty:
        text += f",danger_penalty={policy.danger_penalty}"
    if policy.slack != default.slack:
        text += f",slack={policy.slack}"
    if policy.knock_rule != default.knock_rule:
        text += f",knock_rule={policy.knock_rule}"
    for key in EXPERT_KEYS:
        if getattr(policy, key) != getattr(default, key):
            text += f",{key}={getattr(policy, key)}"
    return text


def policy_name(policy: Policy) -> str:
    """The preset name of a policy, or its string form."""
    for name, preset in PRESETS.items():
        if preset == policy:
            return name
    return format_policy(policy)


def format_schedule(schedule: tuple[tuple[int, int], ...]) -> str:
    """``10`` for a constant threshold, else ``1:10/7:0`` steps."""
    if len(schedule) == 1:
        return str(schedule[0][1])
    return "/".join(f"{turn}:{threshold}" for turn, threshold in schedule)


def _parse_schedule(text: str) -> tuple[tuple[int, int], ...]:
    text = text.strip()
    if text == "gin":
        return ((1, 0),)
    if ":" not in text:
        return ((1, _int(text, "knock")),)
    steps = []
    for step in text.split("/"):
        turn, sep, threshold = step.partition(":")
        if not sep:
            raise ValueError(f"bad knock schedule step {step!r}: expected turn:threshold")
        steps.append((_int(turn, "knock turn"), _int(threshold, "knock threshold")))
    return tuple(steps)


def _int(text: str, what: str) -> int:
    """An integer written with ASCII digits (not ``1e3``, ``1_000`` or other scripts')."""
    text = text.strip()
    try:
        if not (text.isascii() and text.lstrip("+-").isdigit()):
            raise ValueError
        return int(text)
    except ValueError:
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise ValueError(f"bad {what} {shown!r}: expected an integer") from None

