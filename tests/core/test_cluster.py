"""The cluster path gives the in-process results bit for bit, also after a worker dies.

The Dask tests run on a ``LocalCluster`` of two worker processes on loopback and are
skipped when ``dask.distributed`` (the ``cluster`` extra) is not installed.
"""

import dataclasses
import json
import os
import signal
import socket

import pytest
from click.testing import CliRunner

from analyzer.cli.main import cli
from analyzer.core import cluster, limits
from analyzer.core.chunks import ChunkPlan, fold_chunks
from analyzer.core.cluster import SchedulerUnreachable
from analyzer.gin.model.policies import parse_policy
from analyzer.gin.model.rules import STANDARD, Rules
from analyzer.gin.play.results import merge_sums
from analyzer.gin.play.simulate import hand_chunk_sums, play_games, simulate

BASIC = parse_policy("basic")
HUNTER = parse_policy("gin-hunter")
# small chunks: several per worker, so that work is still queued when a worker dies
DEALS, CHUNK = 12_000, 1_000


def without_time(result):
    """A run's summary with the wall times zeroed (the only fields allowed to differ)."""
    kernels = {"kernels_s": 0.0} if hasattr(result, "kernels_s") else {}
    return dataclasses.replace(result, elapsed_s=0.0, rows=None, **kernels)


@pytest.fixture(autouse=True)
def no_scheduler_env(monkeypatch):
    # the in-process reference runs must not pick up a scheduler from the environment
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)


@pytest.fixture(scope="module")
def address():
    """Address of a two-process LocalCluster shared by the tests of this module."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        preload=["analyzer.core.cluster"],
    ) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def reference():
    """The in-process run every cluster run must reproduce."""
    return simulate(STANDARD, BASIC, HUNTER, DEALS, seed=7, chunk=CHUNK, scheduler="")


# ------------------------------------------------------------------ in-process path


def hand_plan(rules, n_deals, chunk=500):
    """The chunk plan of a simulation's hand sums (as ``simulate`` folds them)."""
    common = {"rules": rules, "policy_a": BASIC, "policy_b": HUNTER, "seed": 5}
    return ChunkPlan(hand_chunk_sums, n_deals, chunk, common, "first_deal", "n_deals")


def merge(total, part):
    return merge_sums([total, part])


def test_interrupted_simulate_summarises_finished_deals():
    def stop_at_third(deals):
        done.append(deals)
        if len(done) == 3:
            raise KeyboardInterrupt

    done = []
    partial = simulate(
        STANDARD, BASIC, HUNTER, DEALS, seed=7, chunk=CHUNK, scheduler="", progress=stop_at_third
    )
    # the chunk whose progress call was interrupted had finished: it counts
    assert partial.deals == 3 * CHUNK and partial.interrupted
    assert dataclasses.replace(without_time(partial), interrupted=False) == without_time(
        simulate(STANDARD, BASIC, HUNTER, 3 * CHUNK, seed=7, chunk=CHUNK, scheduler="")
    )


@pytest.mark.parametrize(
    "text",
    ["local", "local:0", "local:x", "local:-1", "local: 2", "local:²", "local:" + "9" * 5000],
)
def test_malformed_local_scheduler(text):
    with pytest.raises(ValueError, match="local:N"):
        cluster.resolve_scheduler(text)


def test_local_workers_are_bounded_by_the_cores(monkeypatch):
    high = limits.max_local_workers()
    assert high == limits.LOCAL_WORKERS_PER_CORE * len(os.sched_getaffinity(0))
    assert cluster.resolve_scheduler(f"local:{high}") == f"local:{high}"
    message = f"local:N with N 1-{high} worker processes"
    with pytest.raises(ValueError, match=message):
        cluster.resolve_scheduler(f"local:{high + 1}")
    monkeypatch.setenv(cluster.SCHEDULER_ENV, "local:100000")  # the variable is checked too
    with pytest.raises(ValueError, match=message):
        cluster.resolve_scheduler(None)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("tcp://head-node", "expected host:port with a port 1-65535"),
        ("head-node:0", "expected host:port with a port 1-65535"),
        ("tcp://head-node:65536", "expected host:port with a port 1-65535"),
        ("tcp://head-node:x", "expected host:port with a port 1-65535"),
        ("http://head-node:8786", "unknown protocol 'http'; Dask knows inproc, tcp"),
        ("tcp://head node:8786", "spaces or control characters"),
        ("tcp://head-node:8786\x00", "spaces or control characters"),
        ("tcp://" + "h" * 300 + ":8786", "longer than 256 characters"),
    ],
)
def test_malformed_scheduler_address(text, problem):
    pytest.importorskip("distributed")
    with pytest.raises(ValueError, match=f"not a Dask scheduler address or local:N: .*{problem}"):
        cluster.resolve_scheduler(text)


def test_scheduler_addresses_are_checked_without_a_lookup():
    pytest.importorskip("distributed")
    for text in ("tcp://no-such-host.invalid:8786", "no-such-host.invalid:8786", "tls://h:1"):
        assert cluster.resolve_scheduler(text) == text  # unresolvable: found out on connecting
    assert cluster.resolve_scheduler("tcp://[::1]:8786") == "tcp://[::1]:8786"


def test_scheduler_from_environment(monkeypatch):
    monkeypatch.setenv(cluster.SCHEDULER_ENV, "tcp://10.0.0.1:8786")
    assert cluster.resolve_scheduler(None) == "tcp://10.0.0.1:8786"
    assert cluster.resolve_scheduler("") == ""


# -------------------------------------------------------------------- cluster path


def test_simulate_on_local_cluster_is_identical(reference):
    pytest.importorskip("distributed")
    seen = []
    result = simulate(
        STANDARD,
        BASIC,
        HUNTER,
        DEALS,
        seed=7,
        chunk=CHUNK,
        scheduler="local:2",
        progress=seen.append,
    )
    assert without_time(result) == without_time(reference)
    assert sorted(seen) == [CHUNK] * (DEALS // CHUNK)


def test_simulate_rows_on_cluster_are_identical(address):
    local = simulate(
        STANDARD, BASIC, HUNTER, 3_000, seed=3, chunk=CHUNK, keep_rows=True, scheduler=""
    )
    remote = simulate(
        STANDARD, BASIC, HUNTER, 3_000, seed=3, chunk=CHUNK, keep_rows=True, scheduler=address
    )
    assert remote.rows.equals(local.rows)
    assert without_time(remote) == without_time(local)


def test_games_on_cluster_are_identical(address):
    kwargs = {
        "rules": STANDARD,
        "policy_a": BASIC,
        "policy_b": HUNTER,
        "games": 600,
        "seed": 11,
        "chunk": 100,
    }
    remote = play_games(**kwargs, scheduler=address)
    assert without_time(remote) == without_time(play_games(**kwargs, scheduler=""))


def test_knock_limit_sweep_on_cluster_is_identical(address):
    # a study in miniature: one plan per rule variant, folded in chunk order
    plans = [hand_plan(Rules(knock_limit=limit), 2_000) for limit in (4, 7, 10)]
    remote = [fold_chunks(plan, merge, {}, scheduler=address) for plan in plans]
    assert remote == [fold_chunks(plan, merge, {}, scheduler="") for plan in plans]
    assert remote[0] != remote[2]


def test_interrupt_on_cluster_returns_the_chunks_folded_in_order(address):
    def stop_at_second(deals):
        done.append(deals)
        if len(done) == 2:
            raise KeyboardInterrupt

    done = []
    partial = fold_chunks(
        hand_plan(STANDARD, 3_000), merge, {}, scheduler=address, progress=stop_at_second
    )
    # the chunks in flight are cancelled; the two folded are the first two deals' chunks
    assert partial == (fold_chunks(hand_plan(STANDARD, 1_000), merge, {}, scheduler="")[0], True)


def test_studies_on_cluster_are_identical(address):
    from analyzer.gin.studies.compare import compare_hands, knock_arms
    from analyzer.gin.studies.knocking import knock_chart

    arms = knock_arms(STANDARD, BASIC, HUNTER, [0, 5, 10])
    local = compare_hands(arms, 900, seed=3, chunk=300, scheduler="")
    assert compare_hands(arms, 900, seed=3, chunk=300, scheduler=address).equals(local)
    chart = knock_chart(STANDARD, BASIC, BASIC, 600, seed=3, chunk=200, scheduler="")
    assert knock_chart(STANDARD, BASIC, BASIC, 600, seed=3, chunk=200, scheduler=address).equals(
        chart
    )


def test_worker_killed_mid_run_changes_nothing(address, reference):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(address, set_as_default=False) as client:
        pids = client.run(os.getpid)
    victim = next(iter(pids.values()))
    done = []

    def kill_on_first_chunk(deals):
        if not done:
            os.kill(victim, signal.SIGKILL)
        done.append(deals)

    result = simulate(
        STANDARD,
        BASIC,
        HUNTER,
        DEALS,
        seed=7,
        chunk=CHUNK,
        scheduler=address,
        progress=kill_on_first_chunk,
    )
    assert without_time(result) == without_time(reference)
    assert len(done) == DEALS // CHUNK
    with distributed.Client(address, set_as_default=False) as client:
        assert victim not in client.run(os.getpid).values()


def test_cli_on_cluster_matches_in_process(address, monkeypatch):
    args = [
        "simulate",
        "--a",
        "basic",
        "--b",
        "gin-hunter",
        "--deals",
        "3000",
        "--seed",
        "2",
        "--json",
    ]
    local = CliRunner().invoke(cli, args)
    monkeypatch.setenv(cluster.SCHEDULER_ENV, address)
    remote = CliRunner().invoke(cli, args)
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    drop = ("elapsed_s", "deals_per_s", "kernels_s")
    assert {k: v for k, v in json.loads(remote.output).items() if k not in drop} == {
        k: v for k, v in json.loads(local.output).items() if k not in drop
    }


# ------------------------------------------------------------------ unreachable


@pytest.fixture
def dead_address(monkeypatch):
    """A loopback address nobody listens on, and a short connect timeout."""
    pytest.importorskip("distributed")
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1.0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


def test_unreachable_scheduler_is_a_clear_error(dead_address):
    # the connection is refused at once: the probe says so rather than wait
    with pytest.raises(
        SchedulerUnreachable,
        match=f"^cannot reach the Dask scheduler at {dead_address}: Connection refused$",
    ):
        simulate(STANDARD, BASIC, BASIC, 100, scheduler=dead_address)


def test_unreachable_scheduler_is_one_cli_line(dead_address):
    result = CliRunner().invoke(cli, ["games", "--games", "10", "--scheduler", dead_address])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"Error: cannot reach the Dask scheduler at {dead_address}: Connection refused"
    ]


def test_malformed_address_is_one_cli_line():
    pytest.importorskip("distributed")
    result = CliRunner().invoke(cli, ["simulate", "--deals", "10", "--scheduler", "nowhere"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        (
            "Error: Invalid value for '--scheduler': not a Dask scheduler address or local:N: "
            "'nowhere' (expected host:port with a port 1-65535)"
        )
    ]


def test_rummy_expert_on_cluster_is_identical(address):
    from analyzer.rummy import POLICY_PRESETS, RummyRules
    from analyzer.rummy.simulate import deal_margins
    from analyzer.rummy.simulate import simulate as rummy_simulate

    rules = RummyRules(players=4, rummy_on_board=True)
    seats = [POLICY_PRESETS["rummy-expert"]] + [POLICY_PRESETS["potential"]] * 3
    kwargs = {"deals": 2_000, "seed": 5, "chunk": 400, "keep_rows": True}
    local = rummy_simulate(rules, seats, **kwargs, scheduler="")
    remote = rummy_simulate(rules, seats, **kwargs, scheduler=address)
    assert remote.rows.equals(local.rows)
    assert (remote.totals == local.totals).all()
    assert remote.summary() == local.summary()
    margins = deal_margins(rules, seats, 2_000, seed=5, scheduler=address)
    assert margins.mean() == local.margin.mean
