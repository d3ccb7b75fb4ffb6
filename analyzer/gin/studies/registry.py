"""Every named player of gin, listed once (:data:`PLAYERS`), and what kind of player each
is (:class:`Classifier`, after the Axelrod library's classifiers).

A player's classifier is read from its declaration, not kept beside it: from the decision
rules its policy names (what each rule's kernel branch reads is said where the rules are
declared, :mod:`analyzer.gin.model.policy_fields`) and from whether it searches.  The
studies pick their players by it: the discard answer's opponents are the knock panel's
players that do not search (:func:`analyzer.gin.studies.discard_principles.panel_members`),
and ``analyzer policies`` lists each preset's kind.

>>> classify(PLAYERS["marjj"]).replica
'MARJJ (EAAI 2021)'
>>> sorted(name for name, player in PLAYERS.items() if classify(player).searches)
['search', 'search,budget=64']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.policies import PRESETS, Policy, parse_policy
from ..model.policy_fields import RANDOM_RULES, REPLICA_OF, TRACKING_RULES
from ..play.players import Player, ScoreAware, SearchPolicy, format_player

#: Samples per knock decision of the panel's ``search`` (a quarter of its default: it
#: already beats ``expert`` at 64, BENCHMARKS.md "Search player", and the report's box
#: plays it on every line's deals).
PANEL_SEARCH_BUDGET = 64
#: The panel's search player, and its name everywhere a result names it: the string form
#: with its samples written (search players differ by their samples and model).
PANEL_SEARCH = SearchPolicy(budget=PANEL_SEARCH_BUDGET)
PANEL_SEARCH_NAME = format_player(PANEL_SEARCH, always=("budget",))

#: Knocks at 10 early and ever lower later: 10 on own turns 1-5, 7 on 6-9, 4 on 10-13,
#: 2 after (points of deadwood).
TAPER = parse_policy("basic,knock=1:10/6:7/10:4/14:2")

#: Every named player: the policy presets, the knock panel's ``taper``, the search player
#: at its default and the panel's search player.
PLAYERS: dict[str, Player] = {
    **PRESETS,
    "taper": TAPER,
    "search": SearchPolicy(),
    PANEL_SEARCH_NAME: PANEL_SEARCH,
}


@dataclass(frozen=True)
class Classifier:
    """What kind of player a player is."""

    stochastic: bool
    """Its moves draw random numbers: a random choice among its best throws (the
    ``random`` and MARJJ discards, also where it falls back on MARJJ's against a racer),
    an expert knock (valued on sampled opponent hands) or a search (sampled rollouts)."""
    tracks_cards: bool
    """A rule of it reads what the player has seen: the pile's cards, the cards the
    opponent took and threw."""
    reads_opponent: bool
    """It changes its play within a game by what the opponent did in earlier hands (a
    knock or discard of its own once the opponent has shown itself a racer)."""
    searches: bool
    """It samples the hidden cards and rolls out every racing action at its decisions
    (some hundred times slower than a policy)."""
    replica: str
    """The other program's player its draw or discard rule replicates ("" for none)."""

    def tags(self) -> list[str]:
        """The classifier in words, one tag a property that holds."""
        flags = (
            (self.stochastic, "stochastic"),
            (self.tracks_cards, "tracks cards"),
            (self.reads_opponent, "reads the opponent"),
            (self.searches, "searches"),
            (bool(self.replica), f"replica of {self.replica}"),
        )
        return [tag for holds, tag in flags if holds]


def _rules(policy: Policy) -> list[tuple[str, str]]:
    """The decision rules a policy plays by, each with its decision (the discard twice:
    its own rule and the one it turns to against a racer)."""
    return [
        ("draw", policy.draw.rule),
        ("discard", policy.discard.rule),
        ("discard", policy.discard.racer_rule),
        ("knock", policy.knock.rule),
    ]


def classify(player: Player) -> Classifier:
    """The classifier of ``player`` (of a score-aware player, what any of its policies is;
    of a search player, its rollout policy's with the search's own)."""
    if isinstance(player, ScoreAware):
        parts = [classify(policy) for policy in player.policies]
        return Classifier(
            any(part.stochastic for part in parts),
            any(part.tracks_cards for part in parts),
            any(part.reads_opponent for part in parts),
            False,
            next((part.replica for part in parts if part.replica), ""),
        )
    searches = isinstance(player, SearchPolicy)
    policy = player.rollout if isinstance(player, SearchPolicy) else player
    rules = _rules(policy)

    def any_rule_of(declared: dict[str, tuple[str, ...]]) -> bool:
        return any(rule in declared[decision] for decision, rule in rules)

    return Classifier(
        stochastic=searches or any_rule_of(RANDOM_RULES),
        tracks_cards=any_rule_of(TRACKING_RULES) or policy.knock.alert is not None,
        reads_opponent=policy.knock.racer is not None or policy.discard.racer_rule != "same",
        searches=searches,
        # a player that falls back on another program's discard against racers (the
        # expert) replicates nothing: only its own draw and discard say what it is
        replica=next((REPLICA_OF[rule] for _, rule in rules[:2] if rule in REPLICA_OF), ""),
    )


__all__ = [
    "PANEL_SEARCH",
    "PANEL_SEARCH_BUDGET",
    "PANEL_SEARCH_NAME",
    "PLAYERS",
    "TAPER",
    "Classifier",
    "classify",
]
