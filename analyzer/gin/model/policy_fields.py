"""The parts of a policy below :class:`~analyzer.gin.model.policies.Policy`: the layout of
the ``np.int64`` row the decision kernels read (:class:`PolicyField`), the rule enums, the
bounds of the weights, and knock schedules (checked, parsed and written)."""

from __future__ import annotations

from enum import IntEnum

from ...core.options import parse_int
from .spec_fields import Declared, is_int

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
    LEARNED_DEADWOOD = 16 + 2 * SCHEDULE_TURNS
    LEARNED_FUTURE = 17 + 2 * SCHEDULE_TURNS
    LEARNED_FUTURE_LATE = 18 + 2 * SCHEDULE_TURNS
    LEARNED_OUTS = 19 + 2 * SCHEDULE_TURNS
    LEARNED_DANGER = 20 + 2 * SCHEDULE_TURNS
    LEARNED_LATE = 21 + 2 * SCHEDULE_TURNS
    LEARNED_TABLE = 22 + 2 * SCHEDULE_TURNS
    LEARNED_WINDOW = 23 + 2 * SCHEDULE_TURNS
    RACER_SCHEDULE = 24 + 2 * SCHEDULE_TURNS  # SCHEDULE_TURNS entries (-1: no read)
    LEARNED_RACER_DEADWOOD = 24 + 3 * SCHEDULE_TURNS
    DISCARD_RACER = 25 + 3 * SCHEDULE_TURNS  # -1: the discard rule whatever the read
    OUT_POINTS = 26 + 3 * SCHEDULE_TURNS
    FEED_POINTS = 27 + 3 * SCHEDULE_TURNS
    LIVE_ONLY = 28 + 3 * SCHEDULE_TURNS
    LATE_STOCK = 29 + 3 * SCHEDULE_TURNS
    TAKE_MELDS = 30 + 3 * SCHEDULE_TURNS
    TAKE_POINTS = 31 + 3 * SCHEDULE_TURNS
    TAKE_OUT_POINTS = 32 + 3 * SCHEDULE_TURNS
    TAKE_LIVE_ONLY = 33 + 3 * SCHEDULE_TURNS
    TAKE_LATE_STOCK = 34 + 3 * SCHEDULE_TURNS
    SIZE = 35 + 3 * SCHEDULE_TURNS


class DrawRule(IntEnum):
    """The draw rules by kernel number; a rule's name in lower case is its string form."""

    NEVER = 0
    IMPROVE = 1
    MELD = 2
    EXPERT = 3
    ANYMELD = 4
    MARJJ = 5
    PRINCIPLES = 6


class DiscardRule(IntEnum):
    """The discard rules by kernel number (names as :class:`DrawRule`)."""

    HIGH = 0
    RANDOM = 1
    SAFE = 2
    LOOKAHEAD = 3
    EXPERT = 4
    MARJJ = 5
    LEARNED = 6
    PRINCIPLES = 7


class KnockRule(IntEnum):
    """The knock rules by kernel number (names as :class:`DrawRule`)."""

    SCHEDULE = 0
    EXPERT = 1


#: The rules of replicas of other programs' players, valid in every policy but kept out of
#: ``DRAW_RULES``/``DISCARD_RULES``, the rules a best-response search tries.
REPLICA_RULES = ("marjj",)
#: The program each rule that replicates another program's player replicates (the
#: ``anymeld`` draw is the EAAI baseline's, a plain rule a best-response search may try).
REPLICA_OF = {"marjj": "MARJJ (EAAI 2021)", "anymeld": "the EAAI SimpleGinRummyPlayer"}
#: The rules whose kernel branch reads what the player has seen (the pile's cards, the
#: cards the opponent took and threw), by decision: a new rule that does goes here.
TRACKING_RULES = {
    "draw": ("expert", "marjj", "principles"),
    "discard": ("safe", "lookahead", "expert", "marjj", "learned", "principles"),
    "knock": ("expert",),
}
#: The rules whose kernel branch draws random numbers, by decision: a random choice among
#: the best throws (``random``, MARJJ's), a knock valued on sampled opponent hands.
RANDOM_RULES = {"draw": (), "discard": ("random", "marjj"), "knock": ("expert",)}
#: Rules also kept out of a best-response search: the learned discard, whose weights are
#: fitted for the expert's draw and knock and whose evaluation costs 4.5 times the
#: expert's (BENCHMARKS.md, "The champion in progress"), and the player's rule sets written
#: from the champion's discard and draw (``analyzer how-to-discard`` and ``how-to-draw``
#: measure them; they are checklists, not contenders).
FITTED_RULES = ("learned", "principles")
DRAW_RULES = tuple(
    r.name.lower() for r in DrawRule if r.name.lower() not in (*REPLICA_RULES, *FITTED_RULES)
)
DISCARD_RULES = tuple(
    r.name.lower() for r in DiscardRule if r.name.lower() not in (*REPLICA_RULES, *FITTED_RULES)
)
KNOCK_RULES = tuple(r.name.lower() for r in KnockRule)

#: The meaning of every weight that only the expert rules read.
EXPERT_WEIGHT_TEXT = (
    "A weight of the expert rules (analyzer.gin.decisions.expert); others ignore it."
)
#: The meaning of every weight that only the learned discard reads.
LEARNED_WEIGHT_TEXT = (
    "A weight of the learned discard (analyzer.gin.decisions.learned, fitted by "
    "analyzer fit-discard); others ignore it."
)

Schedule = tuple[tuple[int, int], ...]


def steps_tuple(schedule: object) -> Schedule:
    """A schedule given as any sequence of (turn, threshold) pairs, as nested tuples
    (checked by :func:`check_schedule`)."""
    try:
        return tuple(tuple(step) for step in schedule)  # type: ignore[attr-defined]
    except TypeError:
        raise TypeError(
            f"a knock schedule is a threshold or (turn, threshold) integer pairs, got {schedule!r}"
        ) from None


def check_schedule(name: str, schedule: object) -> None:
    if not isinstance(schedule, tuple) or not all(
        isinstance(step, tuple) and len(step) == 2 and all(is_int(v) for v in step)
        for step in schedule
    ):
        raise TypeError(
            f"a knock schedule is a tuple of (turn, threshold) integer pairs, got {schedule!r}"
        )
    if not schedule or schedule[0][0] != 1:
        raise ValueError("knock schedule must start at own turn 1")
    turns = [turn for turn, _ in schedule]
    if turns != sorted(set(turns)) or turns[-1] > SCHEDULE_TURNS:
        raise ValueError(f"knock schedule turns must increase within 1-{SCHEDULE_TURNS}")
    for _, threshold in schedule:
        if not 0 <= threshold <= 10:
            raise ValueError(f"knock threshold must be 0-10, got {threshold}")


def check_alert(name: str, schedule: object) -> None:
    if schedule is not None:
        check_schedule(name, schedule)


def format_schedule(schedule: Schedule) -> str:
    """``10`` for a constant threshold, else ``1:10/7:0`` steps."""
    if len(schedule) == 1:
        return str(schedule[0][1])
    return "/".join(f"{turn}:{threshold}" for turn, threshold in schedule)


def parse_schedule(text: str, key: str) -> Schedule:
    text = text.strip()
    if text == "gin":
        return ((1, 0),)
    if ":" not in text:
        return ((1, parse_int(text, "knock")),)
    steps = []
    for step in text.split("/"):
        turn, sep, threshold = step.partition(":")
        if not sep:
            raise ValueError(f"bad knock schedule step {step!r}: expected turn:threshold")
        steps.append((parse_int(turn, "knock turn"), parse_int(threshold, "knock threshold")))
    return tuple(steps)


def parse_optional_schedule(text: str, key: str) -> Schedule | None:
    """:func:`parse_schedule`, or None for ``none`` (the field's default)."""
    return None if text.strip() == "none" else parse_schedule(text, key)


def schedule_field(key: str, text: str, optional: bool) -> Declared:
    """The declaration of a knock schedule field (``optional``: None allowed, written
    ``none``)."""
    limits = f"0-10, gin, or turn:threshold steps with turns 1-{SCHEDULE_TURNS}"
    return Declared(
        key,
        text,
        None,
        check_alert if optional else check_schedule,
        parse_optional_schedule if optional else parse_schedule,
        format_schedule,
        limits + (", or none" if optional else ""),
        always=not optional,
    )


__all__ = [
    "DISCARD_RULES",
    "DRAW_RULES",
    "EXPERT_WEIGHT_TEXT",
    "FITTED_RULES",
    "KNOCK_RULES",
    "LEARNED_WEIGHT_TEXT",
    "MAX_PENALTY",
    "MAX_WEIGHT",
    "REPLICA_RULES",
    "SCHEDULE_TURNS",
    "DiscardRule",
    "DrawRule",
    "KnockRule",
    "PolicyField",
    "Schedule",
    "check_alert",
    "check_schedule",
    "format_schedule",
    "parse_schedule",
    "schedule_field",
    "steps_tuple",
]
