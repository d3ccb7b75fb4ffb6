"""The equilibrium over a panel of whole players (PSRO): the matrix game it solves, the
mixture it returns, how the population grows and the knock answer to the mixture, on a
cheap panel (``basic`` alone to start, the policy presets but ``search`` as responses)."""

import numpy as np

from analyzer.gin.model.policies import PRESETS
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.players import SearchPolicy
from analyzer.gin.studies.exploit import named_responses, table_of
from analyzer.gin.studies.panel_equilibrium import panel_equilibrium

BASIC = PRESETS["basic"]


def presets_but_search(target):
    return {n: p for n, p in named_responses(target).items() if not isinstance(p, SearchPolicy)}


def test_the_population_grows_by_responses_and_its_mixture_is_an_equilibrium():
    result = panel_equilibrium(
        STANDARD,
        BASIC,
        (10,) * 8,  # basic's own table: the robust rule is basic, already a member
        200,
        5,
        iterations=2,
        members={"basic": BASIC},
        responses=presets_but_search,
    )
    history = result.history
    assert len(history) == 2
    # basic alone is beaten by far (marjj, gin-only knocking...): the first response joins
    first = history.iloc[0]
    assert first["support"] == "basic 100%" and first["joins"] and first["gain_low"] > 0
    assert result.names[0] == "basic" and result.names[1] == first["best_response"]
    assert "robust rule" not in result.names
    size = len(result.players)
    assert size == 1 + int(history["joins"].sum())
    assert result.payoffs.shape == (size, size)
    assert np.allclose(result.payoffs, -result.payoffs.T)  # a symmetric zero-sum game
    assert np.isclose(result.weights.sum(), 1.0) and (result.weights >= 0).all()
    # the last mixture was solved over the players then in the population: none of them
    # earns much against it (fictitious play's error is a small share of the payoffs'
    # range), and players added after it have no weight
    measured = int(history.iloc[-1]["population"])
    game, mixture = result.payoffs[:measured, :measured], result.weights[:measured]
    assert (game @ mixture).max() <= 0.02 * np.abs(game).max() + 1e-9
    assert result.weights[measured:].sum() == 0
    assert (history["gain_low"] <= history["gain"]).all()
    assert (history["gain"] <= history["gain_high"]).all()
    assert (history[history["joins"]]["gain"] > 0.1).all()
    assert len(table_of(result.answer)) == 8
    assert result.answer_value.low <= result.answer_value.mean <= result.answer_value.high
    assert list(result.mixture_frame()["player"]) == result.names
    assert len(result.payoff_frame()) == size * size
    answer = result.answer_frame().iloc[0]
    assert answer["points"] == result.answer_value.mean and answer["deals"] == 400


def test_a_search_player_is_named_with_its_samples_and_the_name_parses_back():
    from analyzer.gin.play.players import parse_player
    from analyzer.gin.studies.panel_equilibrium import _name

    for player, name in (
        (SearchPolicy(), "search,budget=256"),
        (SearchPolicy(budget=64), "search,budget=64"),
        (SearchPolicy(model=BASIC), "search,budget=256,model=basic"),
    ):
        assert _name("search", player) == name
        assert parse_player(name) == player
    assert _name("basic", BASIC) == "basic"
