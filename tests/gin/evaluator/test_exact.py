import json
import math
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.cli.study_commands import exact_command
from analyzer.core import cards
from analyzer.core.chunks import checkpointing
from analyzer.gin.evaluator.api import min_deadwood_batch
from analyzer.gin.evaluator.partition import best_discard_kernel
from analyzer.gin.studies import exact, exact_stats
from analyzer.studies.answer import Answer
from analyzer.studies.checkpoint import Checkpoint
from analyzer.studies.exact import exact_chart

from .. import reference

RESULTS = Path(__file__).resolve().parents[3] / "results" / "exact"


# ----------------------------------------------------------------- independent helpers


def deck_hands(n, ranks, suits):
    """Every n-card hand of the deck of suits 0..suits-1 and ranks 0..ranks-1, as masks."""
    codes = np.arange(1 << (ranks * suits), dtype=np.int64)
    codes = codes[np.bitwise_count(codes) == n]
    masks = np.zeros_like(codes)
    for suit in range(suits):
        masks |= ((codes >> (suit * ranks)) & ((1 << ranks) - 1)) << (13 * suit)
    return masks


def brute_values(masks, discard):
    """Minimum deadwood of each hand, or the least over its discards of that of the rest."""
    if not discard:
        return min_deadwood_batch(masks)
    best = np.full(len(masks), 1 << 30, dtype=np.int64)
    rest = masks.copy()
    while (live := np.flatnonzero(rest)).size:
        low = rest[live] & -rest[live]
        best[live] = np.minimum(best[live], min_deadwood_batch(masks[live] ^ low))
        rest[live] ^= low
    return best


def deck_melds(ranks=13, suits=4):
    """Masks of the rules' melds (from the plain-Python oracle) inside a reduced deck."""
    return np.array(
        sorted(
            {
                sum(1 << c for c in meld)
                for meld in reference.all_melds()
                if all(c // 13 < suits and c % 13 < ranks for c in meld)
            }
        ),
        dtype=np.int64,
    )


def meld_unions(melds, n):
    """Distinct n-card masks that are unions of pairwise disjoint melds (deadwood 0)."""
    sizes = np.bitwise_count(melds).astype(np.int64)
    frontier = np.zeros(1, dtype=np.int64)
    found = []
    while frontier.size:
        grown = []
        for start in range(0, frontier.size, 10_000):
            part = frontier[start : start + 10_000, None]
            fits = ((part & melds) == 0) & (np.bitwise_count(part).astype(np.int64) + sizes <= n)
            grown.append((part | melds)[fits])
        frontier = np.unique(np.concatenate(grown))
        full = np.bitwise_count(frontier) == n
        found.append(frontier[full])
        frontier = frontier[~full]
    return np.unique(np.concatenate(found))


def plus_one_card(hands, deck):
    """Distinct masks of each hand plus one more card of ``deck`` (a mask)."""
    grown = [hands[(hands >> c) & 1 == 0] | (1 << c) for c in range(52) if deck >> c & 1]
    return np.unique(np.concatenate(grown))


def deck_mask(ranks, suits):
    return sum(((1 << ranks) - 1) << (13 * s) for s in range(suits))


# ------------------------------------------------------------------------------- tests


def test_lane_table_and_patterns():
    table, lengths = exact.lane_table()
    assert lengths.tolist() == [math.comb(13, p) for p in range(14)]
    for p in range(14):
        row = table[p, : lengths[p]]
        assert np.all(np.diff(row) > 0)
        assert np.all(np.bitwise_count(row) == p)
    assert exact.popcount_patterns(10)[0] == (0, 0, 0, 10)
    assert all(sum(q) == 10 and list(q) == sorted(q) for q in exact.popcount_patterns(10))


def lanes_gf(k):
    """Generating function (1 + x^k)^13 of one lane taken k times over, by card count."""
    return np.polynomial.Polynomial([1] + [0] * (k - 1) + [1]) ** 13


@pytest.mark.parametrize("n_cards", [10, 11])
def test_pieces_cover_every_class(n_cards):
    # multisets of 4 lanes by card count: Polya's cycle index of S4 applied to one lane
    f1, f2, f3, f4 = (lanes_gf(k) for k in (1, 2, 3, 4))
    classes = (f1**4 + 6 * f1**2 * f2 + 3 * f2**2 + 8 * f1 * f3 + 6 * f4) / 24
    pieces = exact.make_pieces(n_cards)
    assert int(pieces.work.sum()) == round(classes.coef[n_cards])


def test_full_deck_ten_card_weights_sum_to_all_hands():
    result = exact.exact_enumeration(10, mode=exact.MODE_COUNT)
    assert result.counts.tolist() == [math.comb(52, 10)]
    assert result.classes == 671_225_412


@pytest.mark.parametrize(
    ("n_cards", "ranks", "suits"),
    [
        (10, 6, 4),
        (11, 6, 4),
        (10, 7, 3),
        (11, 7, 3),
        (7, 5, 4),
        (5, 4, 2),
        (6, 9, 1),
    ],
)
def test_matches_brute_force_over_every_hand(n_cards, ranks, suits):
    discard = n_cards == 11
    hands = deck_hands(n_cards, ranks, suits)
    assert len(hands) == math.comb(ranks * suits, n_cards)
    want = np.bincount(brute_values(hands, discard))
    got = exact.exact_distribution(n_cards, ranks, suits)
    assert got.tolist() == want.tolist()
    assert int(got.sum()) == math.comb(ranks * suits, n_cards)


@pytest.mark.parametrize(
    ("n_cards", "ranks", "suits", "discard"),
    [
        (6, 5, 3, False),
        (5, 4, 4, False),
        (6, 4, 3, True),
    ],
)
def test_matches_plain_python_oracle(n_cards, ranks, suits, discard):
    deck = [s * 13 + r for s in range(suits) for r in range(ranks)]
    values = []
    for hand in combinations(deck, n_cards):
        held = frozenset(hand)
        values.append(reference.best_discard(held)[1] if discard else reference.min_deadwood(held))
    got = exact.exact_distribution(n_cards, ranks, suits, discard=discard)
    assert got.tolist() == np.bincount(values).tolist()


def test_discard_kernel_matches_evaluator_on_full_deck():
    rng = np.random.default_rng(21)
    scratch = np.empty(52, dtype=np.int64)
    for _ in range(3000):
        hand = cards.to_mask([int(c) for c in rng.choice(52, 11, replace=False)])
        lanes = [np.int64((hand >> (13 * s)) & 0x1FFF) for s in range(4)]
        want, _ = best_discard_kernel(np.int64(hand), np.int64(hand), scratch)
        assert exact.after_discard_lanes(*lanes) == want


@pytest.mark.parametrize(("ranks", "suits"), [(6, 4), (7, 3), (8, 4)])
def test_zero_deadwood_counts_match_unions_of_melds(ranks, suits):
    gin10 = meld_unions(deck_melds(ranks, suits), 10)
    gin11 = plus_one_card(gin10, deck_mask(ranks, suits))
    assert exact.exact_distribution(10, ranks, suits)[0] == len(gin10)
    assert exact.exact_distribution(11, ranks, suits)[0] == len(gin11)


@pytest.mark.parametrize("n_cards", [10, 11])
def test_published_results(n_cards):
    answer = Answer.load(RESULTS / f"cards{n_cards}")
    assert answer.inputs["cards"] == n_cards
    counts = answer["counts"]["count"].to_numpy()
    assert int(counts.sum()) == math.comb(52, n_cards)
    gin10 = meld_unions(deck_melds(), 10)
    zero = len(gin10) if n_cards == 10 else len(plus_one_card(gin10, cards.FULL_DECK))
    assert counts[0] == zero
    summary = answer.to_dict()
    assert summary["hands"] == math.comb(52, n_cards)
    assert summary["p_gin"] == pytest.approx(zero / math.comb(52, n_cards), rel=1e-12)
    assert summary == summary | {
        k: v for k, v in exact_stats.summarize(counts).items() if k not in ("p_at_most",)
    }


class StopAfter:
    """A progress callable that counts the reports of suit classes and raises Ctrl-C at
    the ``stop``-th one (never with None)."""

    def __init__(self, stop=None):
        self.stop = stop
        self.reports = []

    def __call__(self, advance, /, total=None):
        if advance:
            self.reports.append(advance)
        if len(self.reports) == self.stop:
            raise KeyboardInterrupt


def test_checkpoint_resumes(tmp_path):
    path = tmp_path / "progress.json"
    whole = exact.exact_enumeration(10, 6, 4, chunk=40)
    plan = exact.enumeration_plan(10, 6, 4, chunk=40)
    # an interrupted run: two chunks folded and saved, then Ctrl-C
    with checkpointing(Checkpoint(path, {"run": "exact"})), pytest.raises(KeyboardInterrupt):
        exact.exact_enumeration(10, 6, 4, chunk=40, progress=StopAfter(2))
    (stage,) = json.loads(path.read_text())["stages"].values()
    assert stage["chunks"] == 2 < len(plan)
    resumed_progress = StopAfter()
    with checkpointing(Checkpoint(path, {"run": "exact"}, resume=True)):
        resumed = exact.exact_enumeration(10, 6, 4, chunk=40, progress=resumed_progress)
    # the saved chunks are reported at once and not run again
    assert len(resumed_progress.reports) == 1 + len(plan) - 2
    assert sum(resumed_progress.reports) == whole.classes
    assert resumed.counts.tolist() == whole.counts.tolist()
    assert resumed.seconds > 0


def test_cli_resumes_its_checkpoint_and_refuses_another_runs(tmp_path):
    path = tmp_path / "run.json"
    args = ["--cards", "10", "--ranks", "6", "--suits", "4", "--no-progress", "--json"]
    args += ["--checkpoint", str(path)]
    Checkpoint(path, {"command": "exact", "cards": 11})  # another run's
    result = CliRunner().invoke(exact_command, [*args, "--resume"])
    assert result.exit_code == 2
    assert f"checkpoint {path} belongs to another run" in result.stderr
    path.unlink()
    whole = CliRunner().invoke(exact_command, args)
    assert whole.exit_code == 0, whole.output
    assert sum(json.loads(whole.stdout)["counts"]) == math.comb(24, 10)
    # every chunk saved: a rerun with --resume takes them from the checkpoint
    saved = json.loads(path.read_text())
    (stage,) = saved["stages"].values()
    # a mark the rerun can only take from here: one hand moved between two counts (the
    # total stays that of every hand, as the checkpoint's check asks)
    counts = stage["value"]["tuple"][0]["array"]
    counts[0] += 1
    counts[next(i for i in range(len(counts) - 1, 0, -1) if counts[i])] -= 1
    path.write_text(json.dumps(saved))
    result = CliRunner().invoke(exact_command, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["counts"][0] == json.loads(whole.stdout)["counts"][0] + 1


def test_summarize_exact_values():
    stats = exact_stats.summarize([2, 0, 0, 0, 2, 4, 6, 4, 2])
    assert stats["hands"] == 20
    assert stats["p_gin"] == 0.1
    assert stats["mean_exact"] == "27/5"
    assert stats["median"] == 6
    assert stats["p_at_most"][4] == pytest.approx(0.2)
    assert stats["p_at_most"][8] == 1.0
    with pytest.raises(ValueError, match="no hands"):
        exact_stats.summarize([0, 0])


def test_input_validation():
    with pytest.raises(ValueError, match="suits"):
        exact.exact_distribution(3, suits=5)
    with pytest.raises(ValueError, match="n_cards"):
        exact.exact_distribution(13, ranks=3, suits=4)


def test_the_chart_draws_a_monte_carlo_check_beside_the_counts():
    counts = exact.exact_distribution(10, 6, 4)
    mc = np.bincount(brute_values(deck_hands(10, 6, 4)[::97], False))
    data = exact_stats.chart_data(counts, mc)
    chart = exact_chart(data, 10, " of a 4 x 6 deck", int(counts.sum()), int(mc.sum()))
    linear, log = chart.panels
    assert log.y.log and not linear.y.log
    region, bars, points = linear.marks
    assert region.kind == "vspan" and region.x == (-1, 10.5)
    assert bars.y == tuple(counts / counts.sum())
    seen = data[data["mc"] > 0]
    assert points.x == tuple(seen["deadwood"])
    assert points.high[0] - points.y[0] == pytest.approx(2 * seen["mc_se"].iloc[0])
    assert f"{int(mc.sum()):,} Monte Carlo hands (± 2 SE)" in chart.caption


def test_cli_reduced_deck(tmp_path):
    result = CliRunner().invoke(
        exact_command,
        ["--cards", "11", "--ranks", "6", "--suits", "4", "--out", str(tmp_path), "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    assert f"hands:              {math.comb(24, 11):,}" in result.output
    table = pd.read_csv(tmp_path / "counts.csv")
    assert int(table["count"].sum()) == math.comb(24, 11)
    assert "mc_count" not in table  # a reduced deck has no Monte Carlo check
    assert (tmp_path / "exact.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cards", "9"], "9 is not in the range 10<=x<=11"),
        (["--cards", "10", "--suits", "1", "--ranks", "5"], "cannot deal 10 cards"),
        (["--mc-deals", "-1"], "-1 is not in the range"),
    ],
)
def test_cli_bad_input(args, message):
    result = CliRunner().invoke(cli, ["exact", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
