"""Who takes a seat (:data:`Player`): a policy, the search player
(:mod:`analyzer.gin.play.search`) or, in whole games, a score-aware player
(:class:`ScoreAware`); :func:`split_players` and :func:`game_seat_rows` turn seats into
the rows the kernels read.

A search player is data like any policy (:class:`SearchPolicy`, packed by
:meth:`SearchPolicy.to_array`, indexed by :class:`SearchField`).  String form: ``search`` or
``search,budget=256,rollout=expert,model=marjj,sampler=weighted,scope=knock`` (also
``batch``, ``min_samples``, ``temperature``): ``rollout`` is how the search plays itself
in its rollouts and ``model`` how it plays the opponent there (default: as ``rollout``).

Ranges (:data:`analyzer.core.limits.SEARCH_RANGES`): ``budget`` and ``batch`` 1-100,000,
``min_samples`` 2-100,000, ``temperature`` 0-1000 points.

>>> parse_player("search,budget=32,rollout=basic").budget
32
>>> format_player(parse_player("search,budget=32,rollout=basic"))
'search,budget=32,rollout=basic'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import IntEnum

import numpy as np

from ...core.arrays import Int64s
from ...core.limits import MAX_LISTED_PLAYERS, SEARCH_RANGES
from ...core.spec import Spec
from ..model.policies import PRESETS, Policy, parse_policy, policy_name
from ..model.policy_fields import PolicyField


class SearchField(IntEnum):
    """Index of each search parameter in :meth:`SearchPolicy.to_array`."""

    BUDGET = 0
    """Samples per decision at most (0: the seat does not search)."""
    BATCH = 1
    """Samples between two looks of the race."""
    MIN_SAMPLES = 2
    """Samples before the race may drop an action."""
    TEMPERATURE = 3
    """Points of deadwood per factor ``e`` of the sample weights (0: uniform samples)."""
    SAMPLER = 4
    """How opponent hands are sampled: :class:`Sampler`."""
    SCOPE = 5
    """Which decisions are searched: :class:`Scope`."""
    STOP = 6
    """0; set to 1 by another thread while a kernel runs
    (:func:`~analyzer.gin.play.stopping.run_stoppable`): the seat stops searching at its
    next sample and plays its rollout policy's actions, and the kernel's results are to be
    thrown away."""
    MODEL = 7
    """1: the rollouts play the opponent by the policy row stored from :data:`MODEL_ROW`
    on (and the sampler reads that row's knock threshold and play-in); 0: the opponent
    plays as the rollout policy too."""


class Sampler(IntEnum):
    """Where the sampled opponent hands come from."""

    WEIGHTED = 0
    """The advisor's sampler: uniform deal, played in, weighted by the likelihood."""
    INFERENCE = 1
    """The opponent-hand inference model (:mod:`analyzer.gin.decisions.inference`), played in for
    at most the rollout policy's ``play_in`` stock draws, as the expert does; equal
    weights."""


SAMPLERS = ("weighted", "inference")


class Scope(IntEnum):
    """Which decisions the search player searches."""

    ALL = 0
    """Every choice, over every legal action."""
    KNOCK = 1
    """Only whether to knock: where a knock (not gin) is legal, the rollout policy's own
    action races the other side of the knock decision (knocking with the card leaving the
    least deadwood, or throwing the same card and playing on); elsewhere it plays the
    rollout policy's action unsearched.  Fewer actions race, so fewer drops by chance."""


SCOPES = ("all", "knock")
_CHOICES = {"sampler": SAMPLERS, "scope": SCOPES}


#: Where a search row stores its opponent model's policy row (:attr:`SearchField.MODEL`).
MODEL_ROW = len(SearchField)
SEARCH_FIELDS = MODEL_ROW + int(PolicyField.SIZE)
DEFAULT_BUDGET = 256


@dataclass(frozen=True)
class SearchPolicy(Spec):
    """The search player (see the module notes): ``budget`` samples per decision at
    most, each rolling out every racing action with ``rollout`` for both players."""

    budget: int = DEFAULT_BUDGET
    rollout: Policy = PRESETS["expert"]
    model: Policy | None = None
    """How the rollouts play the opponent (None: as ``rollout``): the opponent's true
    policy where it is known, or a guess at it."""
    batch: int = 32
    min_samples: int = 32
    temperature: int = 8
    sampler: str = "weighted"
    scope: str = "knock"

    int_ranges = SEARCH_RANGES
    choices = _CHOICES
    array_fields = SearchField
    item_name = "search part"
    subject = "search "

    def check(self) -> None:
        if not isinstance(self.rollout, Policy):
            raise TypeError(f"search rollout must be a Policy, got {self.rollout!r}")
        if self.model is not None and not isinstance(self.model, Policy):
            raise TypeError(f"search model must be a Policy or None, got {self.model!r}")

    def parse_value(self, name: str, text: str, kind: type) -> object:
        """A number or a choice as any spec's; ``rollout`` and ``model``: a policy preset
        name, or a policy's string form in parentheses."""
        if name not in ("rollout", "model"):
            return super().parse_value(name, text, kind)
        if text.startswith("(") and text.endswith(")"):
            return parse_policy(text[1:-1])
        if text not in PRESETS:
            raise ValueError(
                f"{name} must be a policy preset ({', '.join(PRESETS)}) or a policy's "
                f"string form in parentheses, got {text!r}"
            )
        return PRESETS[text]

    def array_values(self) -> dict[IntEnum, int | bool]:
        return {
            SearchField.BUDGET: self.budget,
            SearchField.BATCH: self.batch,
            SearchField.MIN_SAMPLES: self.min_samples,
            SearchField.TEMPERATURE: self.temperature,
            SearchField.SAMPLER: SAMPLERS.index(self.sampler),
            SearchField.SCOPE: SCOPES.index(self.scope),
            SearchField.MODEL: self.model is not None,
        }

    def to_array(self) -> Int64s:
        """The search parameters as the ``np.int64`` row the kernels read, the opponent
        model's policy row from :data:`MODEL_ROW` on."""
        array = np.zeros(SEARCH_FIELDS, dtype=np.int64)
        array[:MODEL_ROW] = super().to_array()
        if self.model is not None:
            array[MODEL_ROW:] = self.model.to_array()
        return array


@dataclass(frozen=True)
class ScoreAware:
    """A policy that changes with the score: before each hand of a game the player uses
    ``policies[regions[own_score, other_score]]`` (scores in points, capped at the last
    index of ``regions``, a square ``np.int64`` table).  It plays whole games only."""

    policies: tuple[Policy, ...]
    regions: Int64s

    def __post_init__(self) -> None:
        if self.regions.ndim != 2 or self.regions.shape[0] != self.regions.shape[1]:
            raise ValueError("regions must be a square table indexed by (own, other) score")
        if self.regions.min() < 0 or self.regions.max() >= len(self.policies):
            raise ValueError("regions must index into policies")


Player = Policy | SearchPolicy | ScoreAware
"""Anything that can take a seat: a policy, the search player or (whole games only) a
score-aware player."""


def parse_player(text: str) -> Policy | SearchPolicy:
    """A policy (:func:`analyzer.gin.model.policies.parse_policy`) or a search player:
    ``search`` then optional ``key=value`` parts (``budget``, ``rollout`` and ``model`` =
    a policy preset name or a policy's string form in parentheses, ``batch``, ``min_samples``, ``temperature``, ``sampler``, ``scope``;
    the numbers within :data:`analyzer.core.limits.SEARCH_RANGES`).

    >>> parse_player("search,budget=1000000000")
    Traceback (most recent call last):
    ...
    ValueError: search budget must be 1-100000, got 1000000000
    """
    if not isinstance(text, str):
        raise TypeError(f"a player is a policy name or string form, got {text!r}")
    parts = [p.strip() for p in _top_level_parts(text.strip()) if p.strip()]
    if not parts or parts[0] != "search":
        return parse_policy(text)
    return SearchPolicy().with_overrides(parts[1:])


def _top_level_parts(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses (a search player's policy in
    its string form is written in parentheses: ``model=(draw=meld,knock=gin)``)."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:at])
            start = at + 1
    return [*parts, text[start:]]


def _policy_part(policy: Policy) -> str:
    name = policy_name(policy)
    return name if name in PRESETS else f"({name})"


def format_player(player: Player, always: tuple[str, ...] = ()) -> str:
    """The string form of a player (parsed back by :func:`parse_player`): a policy's
    preset name or form, or ``search`` with the fields that differ from the default and
    the search fields named in ``always`` (e.g. ``("budget",)``) even at the default."""
    if isinstance(player, Policy):
        return policy_name(player)
    if isinstance(player, ScoreAware):
        return "score-aware(" + "/".join(policy_name(p) for p in player.policies) + ")"
    text = "search"
    default = SearchPolicy()
    for key in (item.name for item in fields(SearchPolicy)):
        value = getattr(player, key)
        if value != getattr(default, key) or key in always:
            text += f",{key}={_policy_part(value) if key in ('rollout', 'model') else value}"
    return text


def chosen_player(value: object, name: str) -> Policy | SearchPolicy:
    """A policy or the search player, given as an object or by name or string form
    (``"basic"``, ``"search,budget=64"``); ``TypeError`` naming the argument ``name``
    else."""
    if isinstance(value, (Policy, SearchPolicy)):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a policy name, a policy string form, a Policy or a "
            f"SearchPolicy, got {value!r}"
        )
    return parse_player(value)


def player_field(entries: Iterable[tuple[str, Player]], count: int, name: str) -> dict[str, Player]:
    """The ``count`` players of the list ``name`` by label, from ``(label, player)``
    pairs made on demand: ``ValueError`` naming ``name`` for more than
    :data:`~analyzer.core.limits.MAX_LISTED_PLAYERS` (before any is made), or for a label
    or a player listed twice (each plays once: a dict would keep one of them silently).

    >>> player_field([("basic", PRESETS["basic"]), ("b", PRESETS["basic"])], 2, "--policies")
    Traceback (most recent call last):
    ...
    ValueError: --policies names the same player twice: 'basic' and 'b'
    """
    if count > MAX_LISTED_PLAYERS:
        raise ValueError(f"{name} lists {count} players; at most {MAX_LISTED_PLAYERS}")
    field: dict[str, Player] = {}
    for label, player in entries:
        if label in field:
            raise ValueError(f"{name} names {label!r} twice")
        # a score-aware player holds an array, which == compares element by element
        same = [
            k for k, p in field.items() if p is player or (_comparable(p, player) and p == player)
        ]
        if same:
            raise ValueError(f"{name} names the same player twice: {same[0]!r} and {label!r}")
        field[label] = player
    return field


def _comparable(one: Player, other: Player) -> bool:
    return not isinstance(one, ScoreAware) and not isinstance(other, ScoreAware)


def rollout_policy(player: Player) -> Policy:
    """The policy a player plays by: a policy itself, or a search player's rollout policy
    (what it searches with, and the model of it as an opponent); a score-aware player
    has none (``TypeError``: it plays whole games only)."""
    if isinstance(player, ScoreAware):
        raise TypeError("a score-aware player plays whole games only")
    return player.rollout if isinstance(player, SearchPolicy) else player


def split_players(players: list[Player]) -> tuple[Int64s, Int64s]:
    """(policy rows, search rows) of the seats: a search player's policy row is its
    rollout policy; a policy's search row is zeros (it does not search)."""
    policies = np.stack([rollout_policy(p).to_array() for p in players])
    searchers = np.zeros((len(players), SEARCH_FIELDS), dtype=np.int64)
    for seat, player in enumerate(players):
        if isinstance(player, SearchPolicy):
            searchers[seat] = player.to_array()
    return policies, searchers


def no_search(seats: int = 2) -> Int64s:
    """Search rows for ``seats`` seats that do not search."""
    return np.zeros((seats, SEARCH_FIELDS), dtype=np.int64)


def game_seat_rows(
    player_a: Player, player_b: Player, target: int
) -> tuple[Int64s, Int64s, Int64s]:
    """(policies by seat and region, region tables by seat, search rows by seat) for the
    game kernel; a search player's policy is its rollout policy, any other player than a
    score-aware one has one region."""
    sides = [
        p
        if isinstance(p, ScoreAware)
        else ScoreAware((rollout_policy(p),), np.zeros((target + 1, target + 1), dtype=np.int64))
        for p in (player_a, player_b)
    ]
    n_regions = max(len(side.policies) for side in sides)
    size = max(side.regions.shape[0] for side in sides)
    first = sides[0].policies[0].to_array()
    arrays = np.zeros((2, n_regions, len(first)), dtype=np.int64)
    regions = np.zeros((2, size, size), dtype=np.int64)
    for seat, side in enumerate(sides):
        for index, policy in enumerate(side.policies):
            arrays[seat, index] = policy.to_array()
        table = side.regions
        # pad by repeating the last row and column: scores past the table use its edge
        regions[seat] = np.pad(
            table, ((0, size - table.shape[0]), (0, size - table.shape[0])), mode="edge"
        )
    searchers = no_search()
    for seat, player in enumerate((player_a, player_b)):
        if isinstance(player, SearchPolicy):
            searchers[seat] = player.to_array()
    return arrays, regions, searchers


__all__ = [
    "DEFAULT_BUDGET",
    "SAMPLERS",
    "SCOPES",
    "SEARCH_FIELDS",
    "Player",
    "Sampler",
    "Scope",
    "ScoreAware",
    "SearchField",
    "SearchPolicy",
    "chosen_player",
    "format_player",
    "game_seat_rows",
    "no_search",
    "parse_player",
    "player_field",
    "rollout_policy",
    "split_players",
]
