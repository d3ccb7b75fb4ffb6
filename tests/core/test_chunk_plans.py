"""Lazy chunk plans, ordered folds, checkpoints and bit-exact resumes (issue 17, items 3-4)."""

import dataclasses
import json
import math
import re
import tracemalloc

import numpy as np
import pytest

from analyzer.core import cluster
from analyzer.core.chunks import (
    ChunkPlan,
    ChunkSpan,
    checkpointing,
    fold_chunks,
    fold_to_end,
    map_spans,
)
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD
from analyzer.gin.play.results import merge_sums
from analyzer.gin.play.simulate import hand_chunk_sums, simulate
from analyzer.gin.studies.compare import compare_hands, knock_arms
from analyzer.studies import checkpoint as checkpoint_file
from analyzer.studies.checkpoint import Checkpoint, CheckpointMismatch
from analyzer.studies.files import write_bytes

BASIC = parse_policy("basic")
HUNTER = parse_policy("gin-hunter")


@pytest.fixture(autouse=True)
def no_scheduler_env(monkeypatch):
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


def add(total, part):
    return total + part


def identity(first, count):
    """A chunk function whose result names its span."""
    return (first, count)


def test_plan_of_a_trillion_deals_is_lazy():
    tracemalloc.start()
    plan = ChunkPlan(identity, 10**12, 1 << 15, {})
    spans = plan.spans()
    first_three = [next(spans) for _ in range(3)]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(plan) == math.ceil(10**12 / (1 << 15))
    assert first_three == [
        ChunkSpan(0, 0, 32768),
        ChunkSpan(1, 32768, 32768),
        ChunkSpan(2, 65536, 32768),
    ]
    assert peak < 100_000  # bytes: no list of 30M spans


def test_last_span_is_short_and_spans_resume_at_an_index():
    plan = ChunkPlan(identity, 10, 4, {})
    assert list(plan.spans()) == [ChunkSpan(0, 0, 4), ChunkSpan(1, 4, 4), ChunkSpan(2, 8, 2)]
    assert list(plan.spans(2)) == [ChunkSpan(2, 8, 2)]
    assert plan.kwargs(ChunkSpan(2, 8, 2)) == {"first": 8, "count": 2}


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "10"])
def test_plan_sizes_are_positive_integers(bad):
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        ChunkPlan(identity, bad, 4, {})


def test_fold_is_in_chunk_order_and_reports_units():
    reported = []
    value, interrupted = fold_chunks(
        ChunkPlan(identity, 10, 4, {}),
        lambda acc, r: [*acc, r],
        [],
        scheduler="",
        progress=reported.append,
    )
    assert value == [(0, 4), (4, 4), (8, 2)] and not interrupted
    assert reported == [4, 4, 2]
    assert map_spans(identity, 10, 4, {}, scheduler="") == value


def stop_at(count):
    """A progress callable that raises Ctrl-C at its ``count``-th call."""

    def report(units):
        calls.append(units)
        if len(calls) == count:
            raise KeyboardInterrupt

    calls = []
    return report


def test_interrupted_fold_returns_the_chunks_folded():
    plan = ChunkPlan(identity, 5, 1, {})
    seen, interrupted = fold_chunks(
        plan, lambda acc, r: [*acc, r], [], scheduler="", progress=stop_at(2)
    )
    # the second chunk was folded before its progress call
    assert interrupted and seen == [(0, 1), (1, 1)]
    with pytest.raises(KeyboardInterrupt):  # a study has no use for part of a run
        fold_to_end(plan, lambda acc, r: [*acc, r], [], scheduler="", progress=stop_at(2))


def test_a_stop_before_any_chunk_raises():
    def stop_at_once(**kwargs):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fold_chunks(ChunkPlan(stop_at_once, 5, 1, {}), add, 0, scheduler="")


@pytest.mark.parametrize(
    "value",
    [
        {"a": 0.1, "b": 2.0**-1074, "c": -0.0, "n": 3},
        ({"x": 1e-310}, [np.arange(6, dtype=np.int64).reshape(2, 3)]),
        np.array([[0.1, 1 / 3], [1.7e308, -2.5e300]]),
        None,
    ],
)
def test_checkpoint_values_read_back_to_the_same_bits(value):
    decoded = checkpoint_file._decode(json.loads(json.dumps(checkpoint_file._encode(value))))
    assert repr(decoded) == repr(value)
    if isinstance(value, np.ndarray):
        assert decoded.dtype == value.dtype and decoded.tobytes() == value.tobytes()


def test_resumed_simulation_is_bit_identical(tmp_path):
    path = tmp_path / "run.json"
    whole = simulate(STANDARD, BASIC, HUNTER, 2_500, seed=11, chunk=500, scheduler="")

    def stop_at_third(units):
        done.append(units)
        if len(done) == 3:
            raise KeyboardInterrupt

    done = []
    with checkpointing(Checkpoint(path, {"run": "test"}, interval_s=0.0)):
        partial = simulate(
            STANDARD, BASIC, HUNTER, 2_500, seed=11, chunk=500, scheduler="", progress=stop_at_third
        )
    assert partial.interrupted and partial.deals == 1_500
    with checkpointing(Checkpoint(path, {"run": "test"}, resume=True)):
        resumed = simulate(STANDARD, BASIC, HUNTER, 2_500, seed=11, chunk=500, scheduler="")
    assert not resumed.interrupted
    assert dataclasses.replace(resumed, elapsed_s=0.0, kernels_s=0.0) == dataclasses.replace(
        whole, elapsed_s=0.0, kernels_s=0.0
    )


def test_resumed_comparison_with_several_plans_is_bit_identical(tmp_path):
    """A run of several plans (hands, then games) resumes at its own stage."""
    path = tmp_path / "sweep.json"
    arms = knock_arms(STANDARD, BASIC, HUNTER, [0, 10])
    whole = compare_hands(arms, 900, seed=5, chunk=300, scheduler="")

    def stop_at_second(units):
        done.append(units)
        if len(done) == 2:
            raise KeyboardInterrupt

    done = []
    with checkpointing(Checkpoint(path, {"run": "cmp"})), pytest.raises(KeyboardInterrupt):
        compare_hands(arms, 900, seed=5, chunk=300, scheduler="", progress=stop_at_second)
    saved = json.loads(path.read_text())["stages"]
    assert [entry["chunks"] for entry in saved.values()] == [2]
    with checkpointing(Checkpoint(path, {"run": "cmp"}, resume=True)):
        resumed = compare_hands(arms, 900, seed=5, chunk=300, scheduler="")
    assert resumed.equals(whole)


def test_checkpoint_of_another_run_is_refused(tmp_path):
    path = tmp_path / "run.json"
    Checkpoint(path, {"seed": 1})
    with pytest.raises(CheckpointMismatch, match="another run"):
        Checkpoint(path, {"seed": 2}, resume=True)
    path.write_text("not json")
    with pytest.raises(CheckpointMismatch, match="not a checkpoint"):
        Checkpoint(path, {"seed": 1}, resume=True)
    with pytest.raises(CheckpointMismatch, match="no checkpoint"):
        Checkpoint(tmp_path / "missing.json", {"seed": 1}, resume=True)


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "out.csv"
    write_bytes(target, b"a,b\n")
    write_bytes(target, b"c,d\n")
    assert target.read_bytes() == b"c,d\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_cluster_fold_with_one_chunk_in_flight_keeps_order(monkeypatch):
    """At most one chunk per worker in flight, results folded in chunk order as they
    arrive: the sums equal the in-process ones bit for bit."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "IN_FLIGHT_PER_WORKER", 1)
    common = {"rules": STANDARD, "policy_a": BASIC, "policy_b": HUNTER, "seed": 3}
    plan = ChunkPlan(hand_chunk_sums, 230, 50, common, "first_deal", "n_deals")

    def fold(total, part):
        return merge_sums([total, part])

    local = fold_chunks(plan, fold, {}, scheduler="")
    remote = fold_chunks(plan, fold, {}, scheduler="local:2")
    assert remote == local and not local[1]
