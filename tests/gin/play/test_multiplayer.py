import numpy as np
import pandas as pd
import pytest

from analyzer.core.stats import Z95
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import Rules
from analyzer.gin.play.multiplayer import (
    _seats,
    lead_over,
    multiplayer_summary,
    play_multiplayer_games,
)

BASIC = POLICIES["basic"]


@pytest.mark.parametrize("seating", ["dealer-sits-out", "loser-sits-out"])
def test_three_players(seating):
    rules = Rules(three_player=seating)
    frame = play_multiplayer_games(rules, [BASIC, BASIC, POLICIES["passive"]], 300, seed=1)
    assert (frame["finished"] == 1).all()
    totals = frame[["total_player0", "total_player1", "total_player2"]].to_numpy()
    winners = frame["winner"].to_numpy()
    assert (totals[np.arange(len(frame)), winners] >= 100 + 100).all()
    summary = multiplayer_summary(frame)
    assert summary["win_rate"].sum() == pytest.approx(1)
    # the passive player (never takes the upcard) wins least
    assert summary.loc[2, "win_rate"] < summary.loc[0, "win_rate"]


def test_seatings():
    # dealer sits out: dealer 0 deals to 1 (first) and 2
    assert _seats(3, 0, 0, 0, -1, 2, False) == (1, 2)
    # loser sits out: winner 2 deals to 0, who sat out
    assert _seats(3, 0, 0, 0, 2, 0, True) == (0, 2)
    # four players: partners face different opponents each round
    assert [_seats(4, r, t, 0, -1, 2, False) for r in (0, 1) for t in (0, 1)] == [
        (0, 1),
        (2, 3),
        (3, 0),
        (1, 2),
    ]


def test_four_players_partnerships():
    frame = play_multiplayer_games(
        Rules(), [BASIC, POLICIES["passive"], BASIC, POLICIES["passive"]], 200, seed=2
    )
    assert set(frame.columns) >= {"total_team02", "total_team13"}
    assert (frame["finished"] == 1).all()
    assert (frame["hands"] % 2 == 0).all()  # two hands per round
    summary = multiplayer_summary(frame)
    assert summary.loc[0, "win_low"] > 0.5


def test_multiplayer_errors():
    with pytest.raises(ValueError, match="3 or 4"):
        play_multiplayer_games(Rules(), [BASIC, BASIC], 10)
    with pytest.raises(ValueError, match="Hollywood"):
        play_multiplayer_games(Rules(hollywood=True), [BASIC] * 3, 10)


def test_lead_over_is_the_paired_difference_of_win_shares():
    winners = np.array([0, 0, 1, 2, 0, 1, 0, 2, 2, 0])
    lead = lead_over(pd.DataFrame({"winner": winners}), 0, 2)
    per_game = (winners == 0).astype(float) - (winners == 2)
    half = Z95 * per_game.std(ddof=1) / np.sqrt(len(per_game))
    assert lead.mean == pytest.approx(0.5 - 0.3)
    assert (lead.low, lead.high) == pytest.approx((per_game.mean() - half, per_game.mean() + half))
