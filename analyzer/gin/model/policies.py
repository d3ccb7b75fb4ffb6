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
from typing import Any

import numpy as np

from ...core.arrays import Int64s
from ...core.options import refuse_repeat
from .policy_fields import (
    PolicyField,
    Schedule,
    steps_tuple,
)
from .policy_specs import Discard, Draw, Knock, Tracking
from .spec_fields import Declared, is_int

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
    "take_melds",
    "take_points",
    "take_out_points",
    "take_live_only",
    "take_late_stock",
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

    def to_array(self) -> Int64s:
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
#: The player's rule set of ``analyzer how-to-draw``: the champion's discard, knock and
#: read, and the ``principles`` draw (a checklist a person can follow); its points are
#: chosen by ``scripts/fit_draw_principles.py`` on other deals than the answer's.
PRESETS["draw-principles"] = PRESETS["expert"].changed(
    draw="principles", take_points=6, take_out_points=2, take_late_stock=0
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
        if parts[0] == "search":  # a player, not a policy (parse_player reads it)
            raise ValueError(
                "the search player plays in simulate, games, tournament and advise only; "
                "here give a policy"
            )
        if parts[0] not in PRESETS:
            raise ValueError(
                f"unknown policy {parts[0]!r}; presets are {', '.join(PRESETS)}, "
                "or give draw=..,discard=..,knock=.."
            )
        base = PRESETS[parts[0]]
        parts = parts[1:]
    changes: dict[str, object] = {}
    given: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"bad policy part {part!r}: expected key=value")
        changes[key] = declaration(key).parse(value, key)
        refuse_repeat(key, given, part, "policy key")
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
