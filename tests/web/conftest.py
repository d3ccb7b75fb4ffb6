import math
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The Host the in-process clients send (the app answers only its own addresses).
BASE_URL = "http://127.0.0.1"
KNOCK_DECISION = {
    "hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
    "pile": "Td Ks Jh Ts Kd Tc",
    "opp_took": "8d 9s",
    "opp_threw": "Tc Jh Ts Ks",
    "stock": 25,
    "turn": 5,
    "upcard": "5c",
}
#: The cells of the kept knock chart with fewer states than its ``min_samples`` (300):
#: the late turns, greyed out.
SPARSE_FROM_TURN = 18


def _save(study, folder, tables, rules="standard", **given):
    from analyzer.studies.answer import Answer
    from analyzer.studies.inputs import make_inputs
    from analyzer.studies.registry import STUDIES

    declared = STUDIES[study]
    inputs = make_inputs(declared, given, rules=rules)
    return Answer(declared, inputs, tables, seconds=2.0).save(folder)


def keep_knock_chart(results):
    """``results/knock_chart`` as the report keeps it (numbers made up, shapes real):
    knocking gains where deadwood is low for the turn, loses above, and the last turns
    have too few states to show."""
    from analyzer.gin.studies.branching import MAX_TURN

    rows = []
    for turn in range(1, MAX_TURN + 1):
        for deadwood in range(1, 11):
            mean = 0.8 * (10 - turn / 2 - deadwood) + 0.3
            low, high = mean - 1.0, mean + 1.0
            verdict = "knock" if low > 0 else "play on" if high < 0 else "unclear"
            n = 50 if turn >= SPARSE_FROM_TURN else 600
            rows.append(
                {
                    "turn": turn,
                    "deadwood": deadwood,
                    "n": n,
                    "mean": mean,
                    "low": low,
                    "high": high,
                    "p_value": 0.01,
                    "enough": n >= 300,
                    "verdict": verdict,
                }
            )
    tables = {"knock_chart": pd.DataFrame(rows)}
    return _save("knock-chart", results / "knock_chart", tables, deals=80_000)


def keep_knock_sweep(results):
    """``results/knock_sweep`` as the report keeps it (numbers made up, shapes real):
    thresholds 0-10 against two opponents, every metric with its 95% CI."""
    rows = []
    for opponent in ("basic", "expert"):
        for threshold in range(11):
            row = {"opponent": opponent, "threshold": threshold, "n": 20_000}
            for metric, mean in (
                ("points", 2.0 + threshold / 10),
                ("diff", (threshold - 10) / 10),
                ("game_win", 0.5 + threshold / 100),
                ("win", 0.4),
                ("undercut", 0.02 * threshold),
                ("gin", 0.07),
                ("turns", 15.0),
            ):
                row |= {f"{metric}_mean": mean, f"{metric}_low": mean - 0.05}
                row[f"{metric}_high"] = mean + 0.05
            rows.append(row)
    tables = {"sweep": pd.DataFrame(rows)}
    return _save("knock-sweep", results / "knock_sweep", tables, deals=20_000, games=2_000)


#: The mixture of the kept equilibrium: knock tables (one threshold per bin of own
#: turns, then the same while the opponent holds a card it took from the pile) and weights.
MIXTURE = {"10/10/7/0 alert 10/4/0/0": 0.75, "10/10/10/0": 0.25}


def keep_equilibrium(results, rules="standard"):
    """``results/robust_knock/<rules>`` as ``analyzer equilibrium --out`` keeps it
    (numbers made up, shapes real): two iterations to the :data:`MIXTURE`, whose best
    response gains less than the tolerance."""
    from analyzer.gin.studies.exploit import parse_table
    from analyzer.gin.studies.schedule import SCHEDULE_BINS

    tables = {name: parse_table(name) for name in MIXTURE}
    convergence = pd.DataFrame(
        {
            "iteration": [1, 2],
            "support": [1, 2],
            "population": [2, 2],
            "best_response": list(MIXTURE),
            "exploitability": [0.5, 0.02],
            "exploitability_low": [0.3, -0.03],
            "exploitability_high": [0.7, 0.07],
            "runner_up": ["10/10/10/0", "10/10/4/0"],
            "runner_up_gain": [0.2, -0.1],
            "runner_up_gain_low": [0.1, -0.2],
            "runner_up_gain_high": [0.3, 0.0],
            "resolution": [0.05, 0.05],
        }
    )
    strategy = pd.DataFrame(
        [
            {
                "turns": f"{first}-{last}",
                "first_turn": first,
                "opponent_holds_pile_card": signal,
                "deadwood": deadwood,
                "knock_probability": sum(
                    weight
                    for name, weight in MIXTURE.items()
                    if deadwood <= tables[name][signal * len(SCHEDULE_BINS) + index]
                ),
            }
            for signal in (0, 1)
            for index, (first, last) in enumerate(SCHEDULE_BINS)
            for deadwood in range(11)
        ]
    )
    mixture = pd.DataFrame({"table": list(MIXTURE), "weight": list(MIXTURE.values())})
    return _save(
        "equilibrium",
        results / "robust_knock" / rules,
        {"convergence": convergence, "mixture": mixture, "strategy": strategy},
        rules=rules,
    )


def keep_answers(results, rules="standard"):
    """The three answers in a player's words kept for ``rules`` (when to knock, how to
    discard, when to take the upcard), as :mod:`tests.studies.test_answers` keeps them."""
    from analyzer.studies.principles import DISCARDING, DRAWING
    from tests.studies.test_answers import keep_knock, keep_principles

    keep_knock(results, rules)
    keep_principles(results, DISCARDING, rules)
    keep_principles(results, DRAWING, rules)
    return results


def keep_guide(results, rules="standard"):
    """``results/guide/<rules>`` as ``analyzer guide --out`` saves it, card included
    (from the answers kept for ``rules``, which must be there)."""
    from click.testing import CliRunner

    from analyzer.cli.main import cli

    folder = results / "guide" / rules
    args = ["guide", "--results", str(results), "--rules", rules, "--out", str(folder)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return folder


def keep_charts(results):
    """A knock chart and a knock sweep kept in ``results`` (the strategy page's charts)."""
    keep_knock_chart(results)
    keep_knock_sweep(results)
    return results


@pytest.fixture
def results_dir(tmp_path):
    """A report folder keeping a knock chart and a knock sweep, without the answers in a
    player's words (:func:`keep_answers` adds them)."""
    return keep_charts(tmp_path / "results")


@pytest.fixture(scope="session")
def warm_advisor():
    """The advisor's kernels compiled (or loaded from the cache), with and without a
    score, before any test runs one within a time limit: a cold JIT cache compiles for
    minutes, past every time limit of the server."""
    pytest.importorskip("fastapi")
    from analyzer.gin.play.advisor import Position
    from analyzer.web.advisor_service import AdvisorService

    service = AdvisorService(limit_seconds=math.inf)  # a cold compile may take minutes
    try:
        for score in (None, "45:80"):
            position = Position.from_json(dict(KNOCK_DECISION, score=score))
            service.run(position, "standard", "basic", "basic", 300, 1)
    finally:
        service.stop()
