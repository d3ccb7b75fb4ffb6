import json
from functools import cache

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.study_commands import equity_command as equity
from analyzer.gin.model.policies import PRESETS, Policy, format_policy
from analyzer.gin.model.rules import STANDARD, Rules
from analyzer.gin.play.simulate import game_rows
from analyzer.gin.studies.equity.dp import Value
from analyzer.gin.studies.equity.law import hand_outcome_distribution, toy_distribution
from analyzer.gin.studies.equity.response import (
    knock_options,
    knock_variant,
    measure_gain,
    score_aware_best_response,
)
from analyzer.gin.studies.equity.table import equity_function, equity_table
from analyzer.gin.studies.equity.validation import check_against_simulation, chi2_even_sf

BASIC = Policy()
#: A hand-made law with draws, dealer-dependent, several point values (points).
TOY_A_DEALS = {("A", 3): 0.25, ("A", 7): 0.1, ("B", 2): 0.2, ("B", 12): 0.25}
TOY_B_DEALS = {("A", 2): 0.3, ("A", 11): 0.1, ("B", 4): 0.35, ("B", 6): 0.15}


@pytest.fixture(scope="module")
def standard_basic():
    distribution = hand_outcome_distribution(STANDARD, BASIC, BASIC, 20_000, seed=3)
    return distribution, equity_table(distribution, STANDARD)


def test_distribution_is_a_law_per_dealer(standard_basic):
    distribution, _ = standard_basic
    totals = distribution.groupby("dealer")["probability"].sum()
    np.testing.assert_allclose(totals.to_numpy(), 1.0)
    assert (distribution.loc[distribution["winner"] != "none", "points"] > 0).all()
    assert (distribution.groupby("dealer")["hands"].sum() == 20_000).all()


def test_symmetric_pair_is_even_with_a_small_dealer_effect(standard_basic):
    _, table = standard_basic
    a_deals, b_deals = table.win_probability(0, 0, True), table.win_probability(0, 0, False)
    # basic vs basic on seat-swapped common decks: the laws mirror exactly
    assert a_deals + b_deals == pytest.approx(1.0, abs=1e-9)
    assert abs(a_deals - 0.5) < 0.02
    assert table.expected_margin(0, 0, True) == pytest.approx(-table.expected_margin(0, 0, False))


def test_win_probability_at_and_near_target(standard_basic):
    _, table = standard_basic
    assert table.win_probability_after(99, 0, 1, me_dealt=True) == 1.0
    assert table.win_probability_after(0, 95, -5, me_dealt=True) == 0.0
    assert table.win_probability(99, 0, True) > 0.95
    assert table.win_probability(0, 99, False) < 0.05
    with pytest.raises(ValueError, match="scores must be in 0-99"):
        table.win_probability(100, 0, True)


def test_win_probability_rises_with_own_score(standard_basic):
    _, table = standard_basic
    win = table.values[..., 1, 1, Value.WIN]
    assert (np.diff(win[1:], axis=0) > -1e-3).all()
    assert (np.diff(win[:, 1:], axis=1) < 1e-3).all()


def _brute_force(rules: Rules, laws: dict[int, dict[tuple[str, int], float]]):
    """Plain recursion over (scores, dealer, boxes) following the game kernel's rules."""
    immediate = rules.line_bonus if rules.line_bonus_timing == "immediate" else 0

    def close(scores, boxes, winner):
        loser = 1 - winner
        shutout = boxes[loser] == 0
        game_bonus = 200 if shutout and rules.shutout == "bonus200" else rules.game_bonus
        totals = [scores[p] + (rules.line_bonus * boxes[p] if not immediate else 0) for p in (0, 1)]
        totals[winner] += game_bonus
        if shutout and rules.shutout == "double":
            totals[winner] *= 2
        elif shutout and rules.shutout == "plus100":
            totals[winner] += 100
        return totals[0] - totals[1]

    @cache
    def value(a, b, dealer, boxes_a, boxes_b):
        law = laws[dealer]
        decided = sum(law.values())
        win = margin = 0.0
        hands = 1 / decided
        for (name, points), p in law.items():
            q, w = p / decided, "AB".index(name)
            scores, boxes = [a, b], [boxes_a, boxes_b]
            scores[w] += points + immediate
            boxes[w] += 1
            if scores[w] >= rules.target:
                win += q * (w == 0)
                margin += q * close(scores, boxes, w)
                continue
            nxt = w if rules.next_dealer == "winner" else 1 - dealer
            sub = value(*scores, nxt, *boxes)
            win, margin, hands = win + q * sub[0], margin + q * sub[1], hands + q * sub[2]
        return win, margin, hands

    return value


@pytest.mark.parametrize("shutout", ["double", "plus100", "bonus200", "none"])
@pytest.mark.parametrize("timing", ["end", "immediate"])
@pytest.mark.parametrize("next_dealer", ["winner", "alternate"])
def test_dp_matches_brute_force_recursion(shutout, timing, next_dealer):
    rules = Rules(
        target=20,
        game_bonus=30,
        line_bonus=4,
        line_bonus_timing=timing,
        shutout=shutout,
        next_dealer=next_dealer,
    )
    table = equity_table(toy_distribution(TOY_A_DEALS, TOY_B_DEALS), rules)
    brute = _brute_force(rules, {0: TOY_A_DEALS, 1: TOY_B_DEALS})
    for a, b, boxes_a, boxes_b in [
        (0, 0, 0, 0),
        (7, 3, 2, 1),
        (0, 15, 0, 2),
        (18, 0, 3, 0),
        (19, 19, 4, 5),
    ]:
        for dealer in (0, 1):
            win, margin, hands = brute(a, b, dealer, boxes_a, boxes_b)
            a_deals = dealer == 0
            assert table.win_probability(a, b, a_deals, boxes_a > 0, boxes_b > 0) == pytest.approx(
                win, abs=1e-12
            )
            assert table.expected_margin(a, b, a_deals, boxes_a, boxes_b) == pytest.approx(
                margin, abs=1e-9
            )
            assert table.values[
                a, b, dealer, int(boxes_a > 0), int(boxes_b > 0), Value.HANDS
            ] == pytest.approx(hands, abs=1e-9)


def test_closed_form_race_to_two_wins():
    # each hand is won 1:1 for 5 points; first to 10 = best of three: P = 1/2, and
    # from 5:0 A needs one win of the next two: 3/4
    rules = Rules(target=10, game_bonus=0, line_bonus=0, shutout="none")
    table = equity_table(toy_distribution({("A", 5): 0.4, ("B", 5): 0.4}), rules)
    assert table.win_probability(0, 0, True) == pytest.approx(0.5)
    assert table.win_probability(5, 0, False) == pytest.approx(0.75)
    # the visits from 0:0: 5:0 and 0:5 half each, 5:5 half
    assert table.visit[5, 0].sum() == pytest.approx(0.5)
    assert table.visit[5, 5].sum() == pytest.approx(0.5)
    assert table.start(Value.HANDS) == pytest.approx(2.5 / 0.8)


def test_unsupported_rules_raise():
    law = toy_distribution({("A", 5): 0.5, ("B", 5): 0.5})
    with pytest.raises(ValueError, match="Hollywood"):
        equity_table(law, Rules(hollywood=True))
    with pytest.raises(ValueError, match="score > 0"):
        equity_table(toy_distribution({("A", 0): 0.5, ("B", 5): 0.5}), STANDARD)


def test_dp_agrees_with_whole_game_simulation(standard_basic):
    distribution, table = standard_basic
    check = check_against_simulation(
        table,
        distribution,
        STANDARD,
        BASIC,
        BASIC,
        [(0, 0), (70, 55)],
        games=1500,
        seed=11,
        n_boot=5,
    )
    assert len(check) == 4
    assert set(check["boxes_a"]) == {0, check.loc[2, "boxes_a"]} and check.loc[2, "boxes_a"] > 1
    # seeded; 3 standard errors leave room for 12 z scores at once
    assert (check[["z_win", "z_margin", "z_hands"]].abs() < 3).all().all()


def test_best_response_takes_any_win_near_the_target():
    rules = Rules(target=10, game_bonus=0, line_bonus=0, shutout="none")
    # law 0: small but likely wins; law 1: big but unlikely ones; the same for each dealer
    safe = toy_distribution({("A", 2): 0.6, ("B", 5): 0.4})
    bold = toy_distribution({("A", 10): 0.45, ("B", 5): 0.55})
    response = score_aware_best_response([safe, bold], rules, ("safe", "bold"))
    assert response.aware.choice[8, 0] == 0  # 2 points end the game: take the safer win
    assert response.aware.choice[0, 5] == 1  # far behind: the big hand
    assert response.aware.start() >= max(t.start() for t in response.fixed) - 1e-12
    frame = response.options_frame()
    assert frame["option"].tolist() == ["safe", "bold", "score-aware"]
    # the shares of the visited states the score-aware player gives each law add up
    assert frame["share"].iloc[:2].sum() == pytest.approx(1.0)


def test_knock_options_change_the_knock_tables_only():
    expert = PRESETS["expert"]
    options = knock_options(expert, caps=(0, 5, 10), floors=(5, 10))
    # a cap of 10 changes no threshold of the champion's tables: left out
    assert list(options) == ["own", "gin only", "at most 5", "at least 5", "every chance"]
    assert options["own"] is expert
    words = {label: format_policy(p).split(",") for label, p in options.items()}
    assert "knock=1:5/10:0" in words["at most 5"] and "knock_alert=1:5/7:0" in words["at most 5"]
    assert "knock=1:10/10:5" in words["at least 5"]
    assert "knock=0" in words["gin only"] and "knock=10" in words["every chance"]
    for label, variant in options.items():
        if label == "own":
            continue
        # everything but the knock tables and the read of the opponent is the champion's
        assert variant.draw == expert.draw and variant.tracking == expert.tracking
        assert variant.knock.racer is None and variant.discard.racer_rule == "same"
        assert variant.changed(discard_racer="marjj").discard == expert.discard
    # a constant threshold's caps are the constants below it; its floors change nothing
    basic = knock_options(BASIC, caps=range(3), floors=(4, 10))
    assert list(basic) == ["own", "gin only", "at most 1", "at most 2"]
    assert [p.knock.schedule for p in basic.values()] == [((1, t),) for t in (10, 0, 1, 2)]


def test_the_champion_never_reads_itself_as_a_racer():
    """What lets the equity table hold for the champion against itself and lets its knock
    variants drop the read: between two players with the same tables the read never fires,
    so whole games are the same with and without it."""
    expert = PRESETS["expert"]
    unread = knock_variant(expert, 0, 10)
    assert unread.knock.schedule == expert.knock.schedule and unread.knock.racer is None
    np.testing.assert_array_equal(
        game_rows(STANDARD, expert, expert, 7, 0, 12),
        game_rows(STANDARD, unread, expert, 7, 0, 12),
    )


def test_measure_gain_of_a_policy_against_itself_is_zero():
    result = measure_gain(STANDARD, BASIC, BASIC, BASIC, games=50, seed=2)
    assert result["gain"].mean == 0.0 and result["gain"].high == 0.0
    assert result["challenger"].n == 50


def test_chi2_even_sf():
    assert chi2_even_sf(0.0, 4) == pytest.approx(1.0)
    # chi-square with 4 df: P(X > 9.4877) = 0.05
    assert chi2_even_sf(9.4877, 4) == pytest.approx(0.05, abs=1e-4)


def run(*args):
    return CliRunner().invoke(equity, list(args))


def test_cli_json_saves_the_answer(tmp_path):
    result = run(
        *("--a", "basic", "--b", "basic", "--deals", "2000", "--check", "2", "--games", "200"),
        *("--out", str(tmp_path), "--format", "json", "--no-progress"),
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert 0.3 < summary["win_if_a_deals_first"] < 0.7
    assert set(summary["check"]) == {"win", "margin", "hands"}
    # basic knocks at 10 always: its floor of 10 changes nothing and is left out
    options = [row["option"] for row in summary["score_aware"]["options"]]
    assert options == ["own", "gin only", "score-aware"]
    assert "game_win_gain" in summary["score_aware"]
    files = {path.name for path in tmp_path.iterdir()}
    assert {"equity.csv", "equity.png", "check.csv", "options.csv", "gain.csv"} <= files


def test_cli_csv_and_table(tmp_path):
    quick = ("--b", "basic", "--check", "0", "--no-score-aware", "--no-progress")
    csv = run("--a", "basic", "--deals", "1000", "--format", "csv", *quick)
    assert csv.exit_code == 0, csv.output
    lines = csv.output.splitlines()
    assert lines[0].startswith("score_a,score_b,a_deals,win,margin")
    assert len(lines) == 1 + 100 * 100 * 2
    table = run("--deals", "1000", "--out", str(tmp_path), "--a", "gin-hunter", *quick)
    assert table.exit_code == 0, table.output
    assert "P(A wins) from 0:0" in table.output
    assert (tmp_path / "equity.png").exists()


def test_a_law_at_0_0_does_not_depend_on_the_target():
    """Why the presets table reuses the standard law for target150: a hand dealt at 0:0
    plays and scores the same whatever the target (a policy reads it only in a game)."""
    expert = PRESETS["expert"]
    laws = [hand_outcome_distribution(Rules(target=t), expert, expert, 200, 3) for t in (100, 150)]
    pd.testing.assert_frame_equal(*laws, check_flags=False)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "hollywood"], "Hollywood scoring"),
        (["--rules", "nosuch"], "unknown rules preset"),
        (["--a", "knock=11"], "knock threshold must be 0-10"),
    ],
)
def test_cli_errors_are_one_line(tmp_path, args, message):
    result = run("--deals", "100", "--out", str(tmp_path), *args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_equity_function_for_the_advisor():
    win = equity_function(STANDARD, BASIC, BASIC, deals=2000, seed=1)
    assert 0.0 < win(50, 20, True) < 1.0
    assert win(95, 0, False) > win(50, 0, False) > win(0, 50, False)
