"""Playing policies for plain rummy, as frozen specs turned into int64 parameter rows.

Every policy draws the same way: it takes the top discard when that lowers the points it
could not get rid of (its deadwood counting melds and layoffs), else it draws from the
stock; and it always goes out when it can.  The specs differ in three choices:

* ``meld``: ``asap`` lays down melds as soon as it holds them; ``hold`` keeps them in hand
  to go out "Rummy" in one turn (double score, at the risk of being caught holding them),
  until its own turn number passes ``hold_turns`` or the points sitting in melds in its
  hand pass ``hold_points``; ``expert`` weighs holding everything against playing every
  meld and layoff it can by the evaluation below, turn by turn;
* ``layoff``: ``eager`` lays off every card it can; ``keep`` lays off only to go out;
* ``discard``: ``points`` throws the card leaving the least deadwood (highest points on a
  tie); ``potential`` throws, among its deadwood cards, the one with the fewest partners
  (same rank, or same suit within two ranks) so partial melds survive; ``expert`` throws
  the card whose evaluation is lowest.

``call`` says whether the player calls "rummy on the board" when the rule is on (a player
still holding for Rummy never calls: calling counts as melding).

The evaluation (``meld=expert`` / ``discard=expert``, :mod:`analyzer.rummy.expert`) is a
weighted sum of features of the position a play leaves, each weight (``w_*``) in
hundredths of a point per unit of its feature, a cost; the ``rummy-expert`` preset reads
its weights from ``expert_weights.json``, fitted from simulated deals by
:func:`analyzer.rummy.fit.fit_expert` (``scripts/fit_rummy.py``).

>>> str(parse_policy("simple"))
'meld=asap,layoff=eager,discard=points'
>>> parse_policy("meld=hold,hold_turns=6").to_array().tolist()[:6]
[1, 6, 999, 0, 0, 1]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from enum import IntEnum
from importlib import resources

from ..core.options import split_list
from ..core.spec import Spec

#: Threat buckets of the risk weights: the fewest cards an opponent holds, 1 .. 5 or more.
RISK_BUCKETS = 5


class PolicyField(IntEnum):
    """Index of each parameter in :meth:`RummyPolicy.to_array` (read by the kernels)."""

    MELD = 0
    HOLD_TURNS = 1
    HOLD_POINTS = 2
    LAYOFF = 3
    DISCARD = 4
    CALL = 5
    W_DEADWOOD = 6
    W_RISK1 = 7
    """The weight of the points held while the fewest cards an opponent holds is 1; the
    next four while it is 2, 3, 4, and 5 or more (``W_RISK1 + bucket``)."""
    W_RISK2 = 8
    W_RISK3 = 9
    W_RISK4 = 10
    W_RISK5 = 11
    W_RISK_TURN = 12
    W_OUTS = 13
    W_FEED = 14
    W_KNOWN = 15
    W_DANGER = 16
    W_RUMMY = 17
    W_SPOTS = 18


#: Length of a policy row (for kernels, which cannot take ``len`` of an enum).
N_POLICY_FIELDS = len(PolicyField)


class Meld(IntEnum):
    """The ``meld`` choices as the kernels read them (``PolicyField.MELD``)."""

    ASAP = 0
    HOLD = 1
    EXPERT = 2


class Discard(IntEnum):
    """The ``discard`` choices as the kernels read them (``PolicyField.DISCARD``)."""

    POINTS = 0
    POTENTIAL = 1
    EXPERT = 2


MELD_CHOICES = tuple(choice.name.lower() for choice in Meld)
LAYOFF_CHOICES = ("eager", "keep")
DISCARD_CHOICES = tuple(choice.name.lower() for choice in Discard)
_NEVER = 999
#: The evaluation's weights (:class:`RummyPolicy` fields, in kernel order) and what each
#: costs, per unit, in hundredths of a point.
WEIGHTS: dict[str, str] = {
    "w_deadwood": "a point of deadwood left after the throw",
    **{
        f"w_risk{k}": f"a point held in hand while an opponent holds {k}"
        + (" or more cards" if k == RISK_BUCKETS else " card" if k == 1 else " cards")
        for k in range(1, RISK_BUCKETS + 1)
    },
    "w_risk_turn": "a point held in hand, per own turn played (a hidden holder's threat)",
    "w_outs": "an unseen card that would meld with the hand or lay off (negative: a gain)",
    "w_feed": "a throw the next player can lay off at once",
    "w_known": "a card the next player took from the pile that the throw melds with",
    "w_danger": "an unseen card that melds with the throw (what an opponent may hold)",
    "w_rummy": "an opponent's card while still able to go out Rummy, per extra multiple "
    "(negative: the chance of the Rummy bonus)",
    "w_spots": "an unseen card the opponents could lay off onto one's own melds",
}
_WEIGHT_RANGE = (-10_000, 10_000)
_RANGES = {
    "hold_turns": (0, _NEVER),
    "hold_points": (0, _NEVER),
    **{name: _WEIGHT_RANGE for name in WEIGHTS},
}
_CHOICES = {"meld": MELD_CHOICES, "layoff": LAYOFF_CHOICES, "discard": DISCARD_CHOICES}
#: The fitted weights file (written by ``scripts/fit_rummy.py``).
WEIGHTS_FILE = "expert_weights.json"


def fitted_weights() -> dict[str, int]:
    """The weights of ``rummy-expert`` (hundredths of a point) from
    :data:`WEIGHTS_FILE`, beside this module."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text()
    weights = json.loads(text)["weights"]
    return {name: int(weights[name]) for name in WEIGHTS}


_FITTED = fitted_weights()


@dataclass(frozen=True)
class RummyPolicy(Spec):
    """A rummy playing policy (see the module docstring for the strategy in words).

    Parameters
    ----------
    meld : str
        ``"asap"``, ``"hold"`` (hold melds to go out Rummy) or ``"expert"`` (hold or
        play by the evaluation).
    hold_turns : int
        With ``hold``: the last of its own turns (1 = first) on which it still holds
        (0-999; 999: every turn).
    hold_points : int
        With ``hold``: give up holding once the cards it holds in melds are worth more
        than this many points (0-999; 999: never).
    layoff : str
        ``"eager"`` or ``"keep"`` (lay off only when going out).
    discard : str
        ``"points"``, ``"potential"`` or ``"expert"`` (the evaluation).
    call : bool
        Call "rummy on the board" when the rule allows it.
    w_deadwood, w_risk1 .. w_risk5, w_risk_turn, w_outs, w_feed, w_known, w_danger,
    w_rummy, w_spots : int
        The evaluation's weights (:data:`WEIGHTS`), hundredths of a point per unit;
        ``rummy-expert``'s fitted ones by default.
    """

    meld: str = "asap"
    hold_turns: int = _NEVER
    hold_points: int = _NEVER
    layoff: str = "eager"
    discard: str = "points"
    call: bool = True
    w_deadwood: int = _FITTED["w_deadwood"]
    w_risk1: int = _FITTED["w_risk1"]
    w_risk2: int = _FITTED["w_risk2"]
    w_risk3: int = _FITTED["w_risk3"]
    w_risk4: int = _FITTED["w_risk4"]
    w_risk5: int = _FITTED["w_risk5"]
    w_risk_turn: int = _FITTED["w_risk_turn"]
    w_outs: int = _FITTED["w_outs"]
    w_feed: int = _FITTED["w_feed"]
    w_known: int = _FITTED["w_known"]
    w_danger: int = _FITTED["w_danger"]
    w_rummy: int = _FITTED["w_rummy"]
    w_spots: int = _FITTED["w_spots"]

    int_ranges = _RANGES
    choices = _CHOICES
    array_fields = PolicyField
    item_name = "policy item"
    subject = "policy "

    @property
    def evaluates(self) -> bool:
        """Whether it plays by the evaluation (``meld`` or ``discard`` is ``expert``)."""
        return "expert" in (self.meld, self.discard)

    def weights(self) -> dict[str, int]:
        """The evaluation's weights by name (:data:`WEIGHTS`)."""
        return {name: getattr(self, name) for name in WEIGHTS}

    def __str__(self) -> str:
        parts = [f"meld={self.meld}"]
        if self.meld == "hold":
            parts += [f"hold_turns={self.hold_turns}", f"hold_points={self.hold_points}"]
        parts += [f"layoff={self.layoff}", f"discard={self.discard}"]
        if not self.call:
            parts.append("call=no")
        if self.evaluates:
            parts += [f"{name}={value}" for name, value in self.weights().items()]
        return ",".join(parts)

    def array_values(self) -> dict[IntEnum, int | bool]:
        values: dict[IntEnum, int | bool] = {
            PolicyField.MELD: MELD_CHOICES.index(self.meld),
            PolicyField.HOLD_TURNS: self.hold_turns,
            PolicyField.HOLD_POINTS: self.hold_points,
            PolicyField.LAYOFF: LAYOFF_CHOICES.index(self.layoff),
            PolicyField.DISCARD: DISCARD_CHOICES.index(self.discard),
            PolicyField.CALL: self.call,
        }
        for name, field in zip(WEIGHTS, _WEIGHT_FIELDS, strict=True):
            values[field] = getattr(self, name)
        return values


#: The kernel slot of each weight, in the order of :data:`WEIGHTS`.
_WEIGHT_FIELDS = tuple(PolicyField[name.upper()] for name in WEIGHTS)
assert [f.name for f in fields(RummyPolicy)][6:] == list(WEIGHTS)
assert [int(f) for f in _WEIGHT_FIELDS] == list(range(PolicyField.W_DEADWOOD, N_POLICY_FIELDS))

#: Named policies.  ``simple`` is the benchmark pair's policy; ``rummy-expert`` the
#: strongest player (:mod:`analyzer.rummy.expert`).
PRESETS: dict[str, RummyPolicy] = {
    "simple": RummyPolicy(),
    "rummy": RummyPolicy(meld="hold"),
    "hold6": RummyPolicy(meld="hold", hold_turns=6),
    "keeper": RummyPolicy(layoff="keep"),
    "potential": RummyPolicy(discard="potential"),
    "rummy-expert": RummyPolicy(meld="expert", discard="expert"),
}


def parse_policy(text: str) -> RummyPolicy:
    """A policy from a preset name or ``"key=value,..."`` (keys are the spec's fields);
    the first item may be a preset name that the rest modifies.

    >>> str(parse_policy("rummy,hold_points=30"))
    'meld=hold,hold_turns=999,hold_points=30,layoff=eager,discard=points'
    """
    items = split_list(text)
    if not items:
        raise ValueError("empty policy: give a preset name or key=value pairs")
    policy = RummyPolicy()
    if "=" not in items[0]:
        if items[0] not in PRESETS:
            raise ValueError(
                f"unknown policy {items[0]!r}: presets are {', '.join(PRESETS)}, or key=value pairs"
            )
        policy = PRESETS[items.pop(0)]
    return policy.with_overrides(items)


def format_policy(policy: RummyPolicy) -> str:
    """The string form of a policy (parsed back by :func:`parse_policy`)."""
    return str(policy)


def policy_name(policy: RummyPolicy) -> str:
    """The preset name of a policy, or its string form.

    >>> policy_name(parse_policy("meld=hold")), policy_name(parse_policy("simple,call=no"))
    ('rummy', 'meld=asap,layoff=eager,discard=points,call=no')
    """
    for name, preset in PRESETS.items():
        if preset == policy:
            return name
    return format_policy(policy)
