"""Playing policies for plain rummy, as frozen specs turned into int64 parameter rows.

Every policy draws the same way: it takes the top discard when that lowers the points it
could not get rid of (its deadwood counting melds and layoffs), else it draws from the
stock; and it always goes out when it can.  The specs differ in three choices:

* ``meld``: ``asap`` lays down melds as soon as it holds them; ``hold`` keeps them in hand
  to go out "Rummy" in one turn (double score, at the risk of being caught holding them),
  until its own turn number passes ``hold_turns`` or the points sitting in melds in its
  hand pass ``hold_points``;
* ``layoff``: ``eager`` lays off every card it can; ``keep`` lays off only to go out;
* ``discard``: ``points`` throws the card leaving the least deadwood (highest points on a
  tie); ``potential`` throws, among its deadwood cards, the one with the fewest partners
  (same rank, or same suit within two ranks) so partial melds survive.

``call`` says whether the player calls "rummy on the board" when the rule is on (a player
still holding for Rummy never calls: calling counts as melding).

>>> str(parse_policy("simple"))
'meld=asap,layoff=eager,discard=points'
>>> parse_policy("meld=hold,hold_turns=6").to_array().tolist()
[1, 6, 999, 0, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..core.options import split_list
from ..core.spec import Spec


class PolicyField(IntEnum):
    """Index of each parameter in :meth:`RummyPolicy.to_array` (read by the engine kernel)."""

    MELD = 0
    HOLD_TURNS = 1
    HOLD_POINTS = 2
    LAYOFF = 3
    DISCARD = 4
    CALL = 5


#: Length of a policy row (for kernels, which cannot take ``len`` of an enum).
N_POLICY_FIELDS = len(PolicyField)


class Meld(IntEnum):
    """The ``meld`` choices as the kernels read them (``PolicyField.MELD``)."""

    ASAP = 0
    HOLD = 1


class Discard(IntEnum):
    """The ``discard`` choices as the kernels read them (``PolicyField.DISCARD``)."""

    POINTS = 0
    POTENTIAL = 1


MELD_CHOICES = ("asap", "hold")
LAYOFF_CHOICES = ("eager", "keep")
DISCARD_CHOICES = ("points", "potential")
_NEVER = 999
_RANGES = {"hold_turns": (0, _NEVER), "hold_points": (0, _NEVER)}
_CHOICES = {"meld": MELD_CHOICES, "layoff": LAYOFF_CHOICES, "discard": DISCARD_CHOICES}


@dataclass(frozen=True)
class RummyPolicy(Spec):
    """A rummy playing policy (see the module docstring for the strategy in words).

    Parameters
    ----------
    meld : str
        ``"asap"`` or ``"hold"`` (hold melds to go out Rummy).
    hold_turns : int
        With ``hold``: the last of its own turns (1 = first) on which it still holds
        (0-999; 999: every turn).
    hold_points : int
        With ``hold``: give up holding once the cards it holds in melds are worth more
        than this many points (0-999; 999: never).
    layoff : str
        ``"eager"`` or ``"keep"`` (lay off only when going out).
    discard : str
        ``"points"`` or ``"potential"``.
    call : bool
        Call "rummy on the board" when the rule allows it.
    """

    meld: str = "asap"
    hold_turns: int = _NEVER
    hold_points: int = _NEVER
    layoff: str = "eager"
    discard: str = "points"
    call: bool = True

    int_ranges = _RANGES
    choices = _CHOICES
    array_fields = PolicyField
    item_name = "policy item"
    subject = "policy "

    def __str__(self) -> str:
        parts = [f"meld={self.meld}"]
        if self.meld == "hold":
            parts += [f"hold_turns={self.hold_turns}", f"hold_points={self.hold_points}"]
        parts += [f"layoff={self.layoff}", f"discard={self.discard}"]
        if not self.call:
            parts.append("call=no")
        return ",".join(parts)

    def array_values(self) -> dict[IntEnum, int | bool]:
        return {
            PolicyField.MELD: MELD_CHOICES.index(self.meld),
            PolicyField.HOLD_TURNS: self.hold_turns,
            PolicyField.HOLD_POINTS: self.hold_points,
            PolicyField.LAYOFF: LAYOFF_CHOICES.index(self.layoff),
            PolicyField.DISCARD: DISCARD_CHOICES.index(self.discard),
            PolicyField.CALL: self.call,
        }


#: Named policies.  ``simple`` is the benchmark pair's policy.
PRESETS: dict[str, RummyPolicy] = {
    "simple": RummyPolicy(),
    "rummy": RummyPolicy(meld="hold"),
    "hold6": RummyPolicy(meld="hold", hold_turns=6),
    "keeper": RummyPolicy(layoff="keep"),
    "potential": RummyPolicy(discard="potential"),
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
