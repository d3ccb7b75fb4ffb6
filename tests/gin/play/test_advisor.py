"""The knock advisor: consistency with exact outcomes, legality, errors, CLI, seeding."""

import json

import numba
import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli.advise import advise_command
from analyzer.core import cards
from analyzer.gin.evaluator.api import best_melds, deadwood_after_layoff, min_deadwood
from analyzer.gin.model.rules import PRESETS, Rules
from analyzer.gin.play.advisor import (
    Position,
    advise,
    legal_actions,
    parse_action,
    sample_deals,
    simulated_equity,
)
from analyzer.gin.play.advisor.position import Action, ActionKind
from analyzer.gin.play.advisor.race import game_values
from analyzer.gin.play.advisor.sampling import Observed, log_likelihood
from analyzer.gin.play.advisor.verdict import verdict_text

STANDARD = Rules()
# 4c 5c 6c | 7h 8h 9h | As 2s 3s melded; Kd or Qd thrown leaves 10 deadwood
KNOCKABLE = "As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd"
# every discard leaves more than 10 deadwood
MESSY = "As 5s 9s 2c 6c Tc 3d 7d Jd 4h 8h"


def position(hand, **kwargs):
    return Position.from_options(hand, **kwargs)


def test_a_gin_hand_advises_gin():
    advice = advise(position("As 2s 3s 4c 5c 6c 7h 8h 9h Th Kd", stock=20), samples=256, seed=1)
    assert advice.best.action == "gin Kd"
    assert advice.best.p_win == 1.0
    assert advice.verdict.startswith("Go gin, discarding K♦: +")
    assert "over playing on" in advice.verdict


@pytest.mark.parametrize(
    ("hand", "rules", "upcard"),
    [
        (MESSY, STANDARD, None),
        (KNOCKABLE, PRESETS["oklahoma"], "7s"),  # 10 deadwood over the upcard's 7
        (KNOCKABLE, PRESETS["straight"], None),
    ],
)
def test_a_hand_above_the_knock_limit_never_advises_a_knock(hand, rules, upcard):
    pos = position(hand, stock=18, upcard=upcard)
    assert all(a.verb == "play" for a in legal_actions(pos, rules))
    advice = advise(pos, rules, samples=256, seed=2)
    assert {row.kind for row in advice.actions} == {"play"}
    # which discard may be too close to call; that the move is to play on is not
    assert advice.verdict.startswith(("Play on, discarding", "Too close to call: play on,"))
    assert "knock" not in advice.verdict


@pytest.mark.parametrize(
    ("rules", "upcard", "message"),
    [
        (PRESETS["oklahoma"], "7s", r"over the knock limit of 7 \(oklahoma, upcard 7s\)"),
        (PRESETS["straight"], None, r"knock limit of 0 \(straight gin"),
        (PRESETS["oklahoma"], None, "oklahoma rules need the upcard"),
    ],
)
def test_a_knock_the_rules_forbid_is_an_error(rules, upcard, message):
    pos = position(KNOCKABLE, stock=18, upcard=upcard)
    with pytest.raises(ValueError, match=message):
        parse_action("knock Kd", pos, rules)


def test_an_action_listed_twice_is_an_error():
    """Each action is raced once (the memory a sample takes counts on it): the same
    action twice, however it is written, is refused, on the command line too."""
    pos = position(KNOCKABLE, stock=18)
    with pytest.raises(ValueError, match=r"^actions names 'play Kd' twice$"):
        advise(pos, actions=["play Kd", "knock Kd", "discard kd"], samples=64)
    result = CliRunner().invoke(
        advise_command,
        ["--hand", KNOCKABLE, "--stock", "18", "--action", "play Kd", "--action", "play K♦"],
    )
    assert result.exit_code == 2
    assert result.output.strip() == "Error: actions names 'play Kd' twice"


def test_oklahoma_spade_upcard_doubles_and_limit_follows_it():
    pos = position(KNOCKABLE, pile="Ts 2d", stock=29)  # the whole pile: Ts is the upcard
    assert pos.upcard == cards.parse_card("Ts")
    assert pos.knock_limit(PRESETS["oklahoma"]) == 10
    plain = advise(pos, actions=["knock Kd"], samples=256, seed=1).best.mean
    doubled = advise(pos, PRESETS["oklahoma"], actions=["knock Kd"], samples=256, seed=1)
    assert doubled.best.mean == pytest.approx(2 * plain)


def _forced_position():
    """The opponent took ten cards from the pile and threw none of them: its hand is known."""
    opp = "Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks"
    return position(
        KNOCKABLE, opp_took=opp, opp_threw="5h 9d", pile="5h 9d Jh", stock=10, turn=12
    ), opp


def test_forced_opponent_hand_gives_the_exact_knock_outcome():
    pos, opp = _forced_position()
    assert pos.known_opp_cards == tuple(cards.parse_hand(opp))
    advice = advise(pos, samples=300, seed=5)
    knocker = [c for c in pos.hand if c != cards.parse_card("Kd")]
    knocker_dw = min_deadwood(knocker)
    defender_dw = deadwood_after_layoff(opp, best_melds(knocker).melds)
    exact = (
        defender_dw - knocker_dw
        if defender_dw > knocker_dw
        else -(STANDARD.undercut_bonus + knocker_dw - defender_dw)
    )
    row = next(r for r in advice.actions if r.action == "knock Kd")
    assert row.mean == exact == 20 - 10  # 7c 8c laid off on 4c 5c 6c; Kh Ks stay
    assert row.half_width == 0.0
    assert advice.ess == pytest.approx(advice.samples)  # one possible hand: equal weights


def test_results_are_reproducible_from_the_seed_and_thread_independent():
    pos = position(KNOCKABLE, pile="Kc 5h 9d Jh", opp_threw="5h Jh", opp_took="", stock=27)
    first = advise(pos, samples=512, seed=7).table()
    numba.set_num_threads(1)
    try:
        single = advise(pos, samples=512, seed=7).table()
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert first.equals(single)
    other = advise(pos, samples=512, seed=8).table()
    assert not first[["mean"]].equals(other[["mean"]])


def test_model_weights_penalise_hands_that_explain_the_play_badly():
    observed = np.zeros(len(Observed), dtype=np.int64)
    observed[Observed.THREW] = cards.to_mask("9h")
    scratch = np.zeros(52, dtype=np.int64)
    # no card of this hand is worth more than 9h and 9h melds with none: a likely throw
    loose = np.int64(cards.to_mask("7h 8d 2c 3d 5s 9c 4d 6s Ac 2s"))
    assert log_likelihood(loose, observed, 8.0, -1, scratch) == 0.0
    # 9h would have melded 7h 8h: keeping it and throwing 9c leaves 24 points less
    melding = np.int64(cards.to_mask("7h 8h 2c 3d 5s 9c 4d 6s Ac 2s"))
    assert log_likelihood(melding, observed, 8.0, -1, scratch) == pytest.approx(-24 / 8)
    # the model opponent would have knocked with this hand (deadwood 10 or less)
    knocker = np.int64(cards.to_mask("As 2s 3s 4c 5c 6c 7h 8h 9h Kd"))
    assert log_likelihood(knocker, observed, 8.0, 10, scratch) == -np.inf
    pos = position(KNOCKABLE, pile="Kc 5h 9d Jh", opp_threw="5h Jh", stock=27)
    weighted = advise(pos, samples=512, seed=3)
    uniform = advise(pos, samples=512, seed=3, weights="uniform")
    assert 0 < weighted.ess < weighted.samples
    assert uniform.ess == pytest.approx(uniform.samples)


def test_game_objective_with_an_equity_function():
    pos = position(KNOCKABLE, stock=20, score="95:40")

    def equity(mine, theirs, i_deal):
        return 0.5 + (mine - theirs) / 400 + (0.02 if i_deal else 0.0)

    # this player wins 5+ points (the game), wins 3, loses 30, or the hand is drawn
    values = game_values(
        np.array([[5], [3], [-30], [0]]), np.array([[0], [0], [1], [-1]]), pos, STANDARD, equity
    )
    assert values[:, 0].tolist() == [
        1.0,
        equity(98, 40, True),
        equity(95, 70, False),
        equity(95, 40, False),
    ]
    advice = advise(pos, equity=equity, samples=256, seed=1)
    assert advice.objective == "game"
    assert all(0.0 <= r.mean <= 1.0 for r in advice.actions)
    assert "game-win chance" in advice.verdict


def test_simulated_equity_fallback_is_a_probability():
    win = simulated_equity(STANDARD, games=50, seed=1)
    assert win(99, 0, True) > win(0, 99, True)
    advice = advise(
        position(KNOCKABLE, stock=20, score="10:20"),
        actions=["knock Kd", "play Kd"],
        samples=64,
        equity_games=20,
        seed=1,
    )
    assert all(0.0 <= r.mean <= 1.0 for r in advice.actions)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand": "As 2s 3s 4c 5c 6c 7h 8h 9h Kd"}, "wrong hand size: 10 cards, expected 11"),
        ({"hand": KNOCKABLE, "pile": "Kd 5h"}, "Kd is in two places: hand and pile"),
        ({"hand": KNOCKABLE, "pile": "Kh Qs", "stock": 30}, "more cards than the deck holds"),
        ({"hand": KNOCKABLE, "stock": 40}, "the stock must hold 2-31 cards"),
        ({"hand": KNOCKABLE, "opp_took": "Kd"}, "Kd is in the hand, but the opponent took it"),
        (
            {"hand": KNOCKABLE, "opp_threw": "Kc", "pile": "5h"},
            "the opponent threw Kc, which is neither in the pile nor in the hand",
        ),
        (
            {"hand": KNOCKABLE, "opp_took": "Tc Jc Qc 2d 3d 4d 7c 8c Kh Ks 9c", "stock": 10},
            "the opponent took 11 cards it has not thrown, but holds only 10",
        ),
        ({"hand": KNOCKABLE, "from_pile": True}, "a card taken from the pile must be named"),
        ({"hand": KNOCKABLE, "score": "45-80"}, "bad score '45-80'"),
        ({"hand": "As 2s 3s 4c 5c 6c 7h 8h 9h Kd Xd"}, "unknown suit 'd'|unknown rank 'X'"),
    ],
)
def test_inconsistent_positions_are_one_line_errors(kwargs, message):
    with pytest.raises(ValueError, match=message) as error:
        Position.from_options(**kwargs)
    assert "\n" not in str(error.value)


def test_the_card_taken_from_the_pile_may_not_be_thrown():
    pos = position("As 2s 3s 4c 5c 6c 7h 8h 9h Kd", drawn="Qd", from_pile=True, pile="5h", stock=25)
    assert "play Qd" not in [a.name for a in legal_actions(pos)]
    with pytest.raises(ValueError, match="it was just taken from the pile"):
        parse_action("knock Qd", pos)
    with pytest.raises(ValueError, match="already reaches the target"):
        advise(position(KNOCKABLE, score="100:3"))


def test_json_and_options_give_the_same_position():
    data = {
        "hand": "As 2s 3s 4c 5c 6c 7h 8h 9h Kd",
        "drawn": "Qd",
        "pile": ["Kc", "5h"],
        "opp_threw": "5h",
        "score": [45, 80],
        "dealer": "me",
    }
    from_json = Position.from_json(data)
    assert from_json == position(
        "As 2s 3s 4c 5c 6c 7h 8h 9h Kd",
        drawn="Qd",
        pile="Kc 5h",
        opp_threw="5h",
        score="45:80",
        dealer="me",
    )
    assert from_json.stock == 29 and from_json.upcard == cards.parse_card("Kc")
    with pytest.raises(ValueError, match="unknown key 'stok'"):
        Position.from_json(data | {"stok": 3})


# ----------------------------------------------------------------------------- CLI


def run(*args):
    return CliRunner().invoke(advise_command, [*args, "--no-progress"])


def test_cli_text_and_json(tmp_path):
    result = run(
        "--hand",
        KNOCKABLE,
        "--stock",
        "20",
        "--samples",
        "512",
        "--seed",
        "3",
        "--opponent",
        "gin-hunter",
    )
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert "opponent model gin-hunter" in lines[0]  # the title says whom it assumes
    assert any(line.split()[:2] == ["#", "action"] for line in lines)  # the table's header
    assert lines[-1].startswith(("Knock, discarding", "Play on, discarding"))  # the verdict
    assert any(line.startswith("Against the ") for line in lines)  # the other model's verdict
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"hand": KNOCKABLE, "stock": 20}))
    result = run(
        "--position",
        str(path),
        "--samples",
        "512",
        "--seed",
        "3",
        "--json",
        "--opponent",
        "gin-hunter",
    )
    data = json.loads(result.output)
    assert lines[-1] == data["verdict"] + "."  # same seed, same advice
    assert data["samples"] <= 512 and data["position"]["stock"] == 20
    assert data["opponent_model"] == "gin-hunter"
    cross_check = next(line for line in lines if line.startswith("Against the "))
    assert data["cross_check"]["same_verdict"] == cross_check.endswith("the same.")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [
                "--hand",
                KNOCKABLE,
                "--rules",
                "oklahoma",
                "--set",
                "upcard=7s",
                "--action",
                "knock Kd",
            ],
            "over the knock limit of 7",
        ),
        (["--hand", KNOCKABLE, "--pile", "Kd"], "Kd is in two places"),
        (["--hand", KNOCKABLE, "--action", "fold Kd"], "bad action 'fold Kd'"),
        (["--stock", "20"], "give either --hand"),
    ],
)
def test_cli_errors_are_one_line_with_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cli_game_objective_uses_the_equity_table():
    from analyzer.cli.main import cli

    result = CliRunner().invoke(
        cli,
        [
            "advise",
            "--hand",
            "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
            "--pile",
            "Td Ks Jh Ts Kd Tc",
            "--opp-took",
            "8d 9s",
            "--opp-threw",
            "Tc Jh Ts Ks",
            "--stock",
            "25",
            "--turn",
            "5",
            "--score",
            "80:40",
            "--equity-deals",
            "2000",
            "--samples",
            "512",
            "--json",
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    values = [action["mean"] for action in data["actions"]]
    assert all(0 <= v <= 1 for v in values)


def test_sample_deals_respect_what_is_known():
    p = position(
        "As 2s 3s 4c 5c 6c 7h 8h 9h Kd Qd", pile="Tc 3h", opp_took="8d", opp_threw="3h", stock=20
    )
    mine = cards.to_mask(" ".join(cards.format_card(c) for c in p.hand))
    deals = sample_deals(p, 300, seed=5)
    hands = deals.opponent_hands
    assert len(hands) == 300
    assert all(int(h).bit_count() == 10 for h in hands)
    assert all(h & cards.to_mask("8d") for h in hands)  # taken and kept: surely held
    assert not any(h & (mine | cards.to_mask("Tc 3h")) for h in hands)
    assert len(set(hands.tolist())) > 250  # distinct deals, not one repeated
    assert deals.weights.sum() == pytest.approx(1.0)
    assert 1.0 <= deals.ess <= 300
    again = sample_deals(p, 300, seed=5)
    assert np.array_equal(again.states, deals.states)
    assert np.array_equal(again.log_weights, deals.log_weights)
    uniform = sample_deals(p, 50, seed=5, weights="uniform")
    assert np.all(uniform.log_weights == 0.0) and uniform.ess == pytest.approx(50)


def test_sample_deals_continue_a_sample_sequence():
    p = position(KNOCKABLE, stock=20)
    whole = sample_deals(p, 40, seed=2)
    tail = sample_deals(p, 10, seed=2, first=30)
    assert np.array_equal(whole.states[30:], tail.states)


# two isolated kings and nothing the opponent showed: the throws are near twins
TWINS = "As 5s 9s 2c 6c Kc 3d 7d Kd 4h 8h"


def _action(kind, card, deadwood):
    return Action(kind, cards.parse_card(card), deadwood)


def test_a_lead_whose_interval_excludes_zero_is_called():
    knock, play = _action(ActionKind.KNOCK, "Kd", 8), _action(ActionKind.PLAY, "9c", 14)
    text = verdict_text(knock, play, 6.31, 0.82, False, 2000)
    assert text == "Knock, discarding K♦: +6.3 ± 0.8 points over playing on (discarding 9♣)"
    same_card = _action(ActionKind.PLAY, "Kd", 8)
    assert verdict_text(knock, same_card, 2.3, 0.9, False, 3000) == (
        "Knock, discarding K♦: +2.3 ± 0.9 points over playing on"
    )
    other = _action(ActionKind.PLAY, "2s", 20)
    assert verdict_text(play, other, 3.0, 1.0, False, 500) == (
        "Play on, discarding 9♣: +3.0 ± 1.0 points over discarding 2♠ instead"
    )


def test_a_lead_whose_interval_includes_zero_is_too_close_to_call():
    """Both moves, the lead, and the samples that would shrink the interval to the lead
    (it narrows as one over the square root of the samples: 2000 x (1.5 / 0.5)^2)."""
    knock, play = _action(ActionKind.KNOCK, "6d", 5), _action(ActionKind.PLAY, "9h", 12)
    assert verdict_text(knock, play, 0.5, 1.5, False, 2000) == (
        "Too close to call: knock, discarding 6♦ or play on, discarding 9♥ (+0.5 ± 1.5 points "
        "for the first; about 18,000 samples would settle it)"
    )
    assert verdict_text(knock, _action(ActionKind.PLAY, "6d", 5), 0.5, 1.5, False, 2000) == (
        "Too close to call: knock or play on, discarding 6♦ (+0.5 ± 1.5 points for the first; "
        "about 18,000 samples would settle it)"
    )
    other = _action(ActionKind.PLAY, "4h", 12)
    assert verdict_text(play, other, 0.0, 0.4, True, 800) == (
        "Too close to call: play on, discarding 9♥ or 4♥ (+0.0 ± 40.0 percentage points of "
        "game-win chance for the first; no number of samples is likely to separate them)"
    )


def test_the_advisor_calls_twin_throws_too_close():
    advice = advise(position(TWINS, stock=25), samples=512, seed=1)
    assert advice.margin - advice.margin_half_width <= 0
    assert advice.verdict.startswith("Too close to call: play on, discarding ")
    assert "samples would settle it" in advice.verdict or "separate them" in advice.verdict


def test_the_cli_and_the_api_read_too_close_to_call_for_twin_throws():
    """The CLI and the notebook API give the same verdict for the same position, settings
    and seed (the web app's: tests/web/test_api.py)."""
    import analyzer as az

    settings = {"samples": 512, "seed": 1, "policy": "basic", "opponent": "basic"}
    result = CliRunner().invoke(
        advise_command,
        ["--hand", TWINS, "--stock", "25", "--cross-check", "none"]
        + [f"--{key}={value}" for key, value in settings.items()],
    )
    assert result.exit_code == 0, result.output
    line = " ".join(result.stdout.split())
    api = az.advise(TWINS, stock=25, **settings)
    assert api.verdict.startswith("Too close to call: ")
    assert api.verdict in line


def test_the_command_and_the_notebook_give_the_same_advice():
    """One answer (report/advice.py) for both doors: the same players by default (expert
    against expert), the same cross-check, title, ranking and verdict."""
    import analyzer as az

    hand, pile = "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h", "Td Ks Jh Ts Kd Tc"
    args = ["--hand", hand, "--pile", pile, "--stock", "25", "--samples", "96", "--seed", "4"]
    printed = CliRunner().invoke(advise_command, [*args, "--no-progress", "--json"])
    assert printed.exit_code == 0, printed.output
    data = json.loads(printed.output)
    advice = az.advise(hand, pile=pile, stock=25, samples=96, seed=4)
    assert data["own_policy"] == data["opponent_model"] == "expert"
    assert advice.title.split(" · ")[2] == "opponent model expert, you play on as expert"
    assert [row["action"] for row in data["actions"]] == advice.to_frame()["action"].tolist()
    assert data["verdict"] == advice.verdict
    assert data["cross_check"]["opponent_model"] == "basic"
    assert data["cross_check"]["same_verdict"] == (advice.difference() is None)
    table = CliRunner().invoke(advise_command, [*args, "--no-progress"]).output
    assert " ".join(table.splitlines()[:2]).replace("   ", " ") == advice.title
