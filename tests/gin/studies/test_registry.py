"""The player registry: every named player once, each classified from its declaration."""

import pytest

from analyzer.gin.model.policies import PRESETS, parse_policy
from analyzer.gin.model.policy_fields import (
    RANDOM_RULES,
    TRACKING_RULES,
    DiscardRule,
    DrawRule,
    KnockRule,
)
from analyzer.gin.play.players import SearchPolicy, parse_player
from analyzer.gin.studies.discard_principles import panel_members
from analyzer.gin.studies.exploit import PANEL, named_responses, panel
from analyzer.gin.studies.registry import PANEL_SEARCH_NAME, PLAYERS, TAPER, classify


def test_every_preset_and_the_panel_are_registered_once():
    assert set(PRESETS) <= set(PLAYERS)
    assert PLAYERS["taper"] == TAPER and PLAYERS[PANEL_SEARCH_NAME].budget == 64
    assert list(panel()) == list(PANEL) and all(PLAYERS[name] == panel()[name] for name in PANEL)
    # the discard answer's opponents: the panel without the player that searches
    assert list(panel_members()) == ["basic", "simple", "gin-hunter", "taper", "marjj", "expert"]
    responses = named_responses(PRESETS["basic"])
    assert "basic" not in responses and "taper" in responses and "search, true model" in responses


def test_the_tagged_rules_are_rules_of_their_decision():
    declared = {"draw": DrawRule, "discard": DiscardRule, "knock": KnockRule}
    for tagged in (TRACKING_RULES, RANDOM_RULES):
        for decision, rules in tagged.items():
            names = {member.name.lower() for member in declared[decision]}
            assert set(rules) <= names


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("basic", []),
        ("simple", ["stochastic"]),  # a random discard among the best
        ("eaai-simple", ["stochastic", "replica of the EAAI SimpleGinRummyPlayer"]),
        # MARJJ's discard picks at random among its best throws
        ("marjj", ["stochastic", "tracks cards", "replica of MARJJ (EAAI 2021)"]),
        ("safe-discard", ["tracks cards"]),
        # the champion falls back on MARJJ's discard against racers: no replica for that
        ("expert", ["stochastic", "tracks cards", "reads the opponent"]),
        ("expert-v3", ["tracks cards"]),
        ("basic,knock_rule=expert", ["stochastic", "tracks cards"]),
        ("basic,knock_alert=1:10/7:0", ["tracks cards"]),  # the alert reads the opponent's picks
        ("search,rollout=basic", ["stochastic", "searches"]),
    ],
)
def test_a_player_is_classified_by_what_it_declares(text, tags):
    assert classify(parse_player(text)).tags() == tags


def test_a_search_player_is_what_its_rollout_policy_is_and_searches():
    searcher = classify(SearchPolicy(rollout=PRESETS["marjj"]))
    assert searcher.searches and searcher.stochastic and searcher.replica.startswith("MARJJ")
    assert not classify(parse_policy("gin-hunter")).searches


def _moves(player, deck, seed):
    from analyzer.gin.play.hand import Hand

    hand = Hand.deal(deck=deck, seed=seed)
    return [str(move) for move in hand.play_on([player, player])]


def test_a_player_not_tagged_stochastic_plays_a_deck_the_same_whatever_its_random_stream():
    """The classifier against the kernels: the same deck played with other policy streams
    (Hand.deal's seed keys only the players' random numbers when the deck is given)."""
    import numpy as np

    decks = [np.random.default_rng(index).permutation(52) for index in range(12)]
    for name, player in PLAYERS.items():
        if classify(player).searches:
            continue
        differs = any(_moves(player, deck, 1) != _moves(player, deck, 2) for deck in decks)
        if not classify(player).stochastic:
            assert not differs, name
        elif name in ("simple", "eaai-simple", "marjj"):  # random within a single hand
            assert differs, name
