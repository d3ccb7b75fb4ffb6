"""Benchmark the numba hand evaluator against OpenSpiel and RLCard.

Measures, in one run and on the same random hands:

* our ``min_deadwood_batch`` on 10-card hands, one core (``parallel=False``, numba
  threads set to 1) and all cores (``parallel=True``);
* a plain per-suit lookup-table evaluator (every set choice enumerated, runs read from
  an 8,192-entry table per suit, built here independently), one core: the reference the
  public ``min_deadwood_batch`` (argument checks included) must stay well ahead of;
* our exact best-discard deadwood of 11-card hands (``best_discard_kernel`` in an
  njit loop), one core and all cores;
* OpenSpiel's C++ ``GinRummyUtils.min_deadwood`` (one pybind call per hand) and
  RLCard's pure-Python melding on the first ``--peer-hands`` of those hands, 10 and 11
  cards (11 cards: OpenSpiel's own one-call value, and the exact minimum over the 11
  discards from OpenSpiel and from RLCard);
* agreement of all three on every peer hand (must be 0 disagreements);
* the numba on-disk cache: wall time of a fresh ``analyzer deadwood ...`` process with
  the cache cleared, then with it filled (in a throwaway clone + venv, never in the
  live repository).

Every timing is the best of ``--repeats-ours`` (ours) or ``--repeats`` (peers, CLI)
runs; JIT compilation is excluded (each kernel is called once on a few hands first).
Hands come from ``numpy.random.default_rng(SEED)``, so every run times the same hands.

Environment (OpenSpiel and RLCard are the ``bench`` extra of the project)::

    python3 -m venv /work/peers-venv
    /work/peers-venv/bin/pip install -e '/work/main[bench]'
    # exact peer versions measured in BENCHMARKS.md:
    /work/peers-venv/bin/pip install open-spiel==2.0.2 rlcard==1.2.0

Run from the repository root::

    /work/peers-venv/bin/python scripts/bench_evaluator.py
    /work/peers-venv/bin/python scripts/bench_evaluator.py --hands 200000 --peer-hands 2000 \\
        --no-jit-cache          # quick run

``--peer-hands 0`` skips the peers (then the project venv is enough).  The JIT-cache
step runs ``git clone`` of the repository into a temporary directory, checks out
``--jit-revision`` (default HEAD: committed work only), makes a venv there with
``pip install -e`` (needs the pip cache or the network), and deletes it all afterwards.

Single-threaded rows also report hands per CPU-second (CPU time of the calling thread),
which moves much less than wall time when other work shares the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from analyzer import min_deadwood_batch
from analyzer.gin.evaluator.partition import best_discard_kernel, min_deadwood_kernel

SEED = 20240611
REPO = Path(__file__).resolve().parents[1]
#: files whose edits change what this script measures (flagged next to the commit)
EVALUATOR_SOURCES = (
    "analyzer/gin/evaluator/partition.py",
    "analyzer/gin/evaluator/api.py",
    "analyzer/core/cards.py",
    "analyzer/core/lanes.py",
    "analyzer/core/melds.py",
    "analyzer/core/rng.py",
)
CLI_HAND = "As 2s 3s 7h 7d 7c Kd Qh 9c 4d"
CHUNK = 1 << 17  # hands per chunk when generating, and per prange task for 11 cards


# --------------------------------------------------------------------------- hands
def random_hands(
    rng: np.random.Generator, n: int, size: int
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """``n`` uniformly random ``size``-card hands: (sorted card indices, int64 masks)."""
    cards = np.empty((n, size), dtype=np.int8)
    masks = np.empty(n, dtype=np.int64)
    for start in range(0, n, CHUNK):
        m = min(CHUNK, n - start)
        # the ``size`` smallest of 52 iid keys are a uniform ``size``-subset of the deck
        idx = np.sort(np.argpartition(rng.random((m, 52)), size - 1, axis=1)[:, :size], axis=1)
        cards[start : start + m] = idx
        masks[start : start + m] = np.bitwise_or.reduce(np.left_shift(np.int64(1), idx), axis=1)
    return cards, masks


# --------------------------------------------------------------------------- our kernel loops
@njit
def min_deadwood_serial(masks: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """``min_deadwood_kernel`` over every hand, one thread, no argument checks."""
    for i in range(len(masks)):
        out[i] = min_deadwood_kernel(masks[i])


@njit
def best_discard_serial(masks: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """Least deadwood after the best discard, every hand, one thread."""
    scratch = np.empty(52, dtype=np.int64)
    for i in range(len(masks)):
        out[i] = best_discard_kernel(masks[i], masks[i], scratch)[0]


@njit(parallel=True)
def best_discard_parallel(masks: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """Same as :func:`best_discard_serial`, chunks of hands spread over the numba threads."""
    n_chunks = (len(masks) + 4095) // 4096
    for k in prange(n_chunks):
        scratch = np.empty(52, dtype=np.int64)
        for i in range(k * 4096, min(len(masks), (k + 1) * 4096)):
            out[i] = best_discard_kernel(masks[i], masks[i], scratch)[0]


def ours_best_discard(masks: npt.NDArray[np.int64], parallel: bool) -> npt.NDArray[np.int64]:
    out = np.empty(len(masks), dtype=np.int64)
    (best_discard_parallel if parallel else best_discard_serial)(masks, out)
    return out


# --------------------------------------------------------------------------- plain reference
def plain_run_table() -> npt.NDArray[np.int64]:
    """Run-only deadwood (points) of each 13-bit suit lane, built here by a plain
    recursion (the lowest card is either deadwood or starts a run of 3+), independently
    of the project's own lane tables."""
    points = [min(rank + 1, 10) for rank in range(13)]
    table = np.zeros(1 << 13, dtype=np.int64)
    for lane in range(1, 1 << 13):
        low = (lane & -lane).bit_length() - 1
        rest = lane & ~(1 << low)
        best = points[low] + table[rest]
        length = 1
        while low + length < 13 and lane >> (low + length) & 1:
            length += 1
            if length >= 3:
                run = ((1 << length) - 1) << low
                best = min(best, table[lane & ~run])
        table[lane] = best
    return table


PLAIN_RUNS = plain_run_table()


@njit
def _plain_sets(hand: np.int64, rank: np.int64, runs: npt.NDArray[np.int64]) -> np.int64:
    """Least deadwood of ``hand`` with the ranks below ``rank`` already decided: every
    rank held 3 or 4 times is left alone, melded as a set of 4, or as each set of 3."""
    while rank < 13:
        held = 0
        for suit in range(4):
            held += (hand >> (suit * 13 + rank)) & 1
        if held >= 3:
            break
        rank += 1
    if rank == 13:
        total = np.int64(0)
        for suit in range(4):
            total += runs[(hand >> (suit * 13)) & 0x1FFF]
        return total
    best = _plain_sets(hand, rank + 1, runs)
    column = np.int64(0)
    for suit in range(4):
        column |= ((hand >> (suit * 13 + rank)) & 1) << (suit * 13 + rank)
    best = min(best, _plain_sets(hand & ~column, rank + 1, runs))
    if held == 4:
        for suit in range(4):
            three = column & ~(np.int64(1) << (suit * 13 + rank))
            best = min(best, _plain_sets(hand & ~three, rank + 1, runs))
    return best


@njit
def plain_lut_serial(
    masks: npt.NDArray[np.int64], runs: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """The plain per-suit lookup-table evaluator over every hand, one thread: every set
    choice enumerated, runs read from a 8,192-entry table per suit."""
    for i in range(len(masks)):
        out[i] = _plain_sets(masks[i], np.int64(0), runs)


# --------------------------------------------------------------------------- timing
class Timing:
    """Least wall time and least CPU time of the calling thread over the repeats, seconds.

    Thread CPU time is what a single-threaded call costs whatever else the machine runs;
    it is meaningless for a parallel call (the worker threads are not counted).
    """

    def __init__(self, wall: float, cpu: float) -> None:
        self.wall = wall
        self.cpu = cpu


def best_of(fn: Callable[[], Any], repeats: int) -> tuple[Timing, Any]:
    """(best timings over ``repeats`` calls, result of the last call)."""
    wall = cpu = float("inf")
    result = None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.thread_time()
        result = fn()
        cpu = min(cpu, time.thread_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return Timing(wall, cpu), result


class Table:
    """Rows of (implementation, hand size, hands/s wall, hands per CPU-second or None)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float, float | None]] = []

    def add(self, name: str, size: str, n: int, timing: Timing, serial: bool = True) -> None:
        rate = n / timing.wall
        cpu_rate = n / timing.cpu if serial and timing.cpu > 0 else None
        self.rows.append((name, size, rate, cpu_rate))
        cpu_text = f"{cpu_rate:>15,.0f} per CPU-s" if cpu_rate else " " * 25
        print(
            f"  {name:<58} {size:>3} cards {rate:>15,.0f} hands/s {cpu_text}  "
            f"({n:,} in {timing.wall:.3f} s)",
            flush=True,
        )

    def markdown(self) -> str:
        """The table.  Ratios divide our one-core rate (same hand size) by the row's rate,
        once by wall clock and once by CPU time (single-threaded rows only)."""
        wall_ref: dict[str, float] = {}
        cpu_ref: dict[str, float] = {}
        for _, size, rate, cpu_rate in self.rows:
            if cpu_rate is not None and size not in cpu_ref:  # first serial row: ours
                wall_ref[size], cpu_ref[size] = rate, cpu_rate
        lines = [
            (
                "| implementation | hand | hands/s (wall) | hands per CPU-second "
                "| ours (1 core) / this, wall | same, CPU |"
            ),
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name, size, rate, cpu_rate in self.rows:
            cells = [name, size, f"{rate:,.0f}", "-", _ratio(wall_ref[size] / rate), "-"]
            if cpu_rate is not None:
                cells[3] = f"{cpu_rate:,.0f}"
                cells[5] = _ratio(cpu_ref[size] / cpu_rate)
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)


def _ratio(x: float) -> str:
    return f"{x:,.0f}x" if x >= 10 else f"{x:.2f}x"


# --------------------------------------------------------------------------- machine
def machine_description() -> str:
    model = "unknown"
    virtual = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "unknown":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and " hypervisor" in line:
                virtual = " (virtual machine)"
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    return "\n".join(
        [
            (
                f"- CPU: {model}{virtual}, {os.cpu_count()} logical cores ({usable} usable), "
                f"numba threads: {numba.config.NUMBA_NUM_THREADS}"
            ),
            f"- OS: {platform.system()} {platform.release()} ({platform.machine()})",
            (
                f"- Python {platform.python_version()}, numba {numba.__version__}, "
                f"llvmlite {version('llvmlite')}, numpy {np.__version__}"
            ),
            f"- peers: open-spiel {version('open-spiel')}, rlcard {version('rlcard')}",
            f"- analyzer source: commit {source_version()}",
        ]
    )


def source_version() -> str:
    """Commit of the repository being measured, flagged when the package has local edits."""

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(REPO), *args], check=False, capture_output=True, text=True
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", *EVALUATOR_SOURCES)
    return f"{commit} (evaluator sources edited since)" if dirty else commit


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# --------------------------------------------------------------------------- peers
def bench_peers(
    cards10: npt.NDArray[np.int8],
    cards11: npt.NDArray[np.int8],
    ours10: npt.NDArray[np.int64],
    ours11: npt.NDArray[np.int64],
    repeats: int,
    table: Table,
) -> int:
    """Time the peers, check agreement, add rows; return the number of disagreements."""
    try:
        import peers  # scripts/peers.py, on sys.path as the script's own directory
        import pyspiel
    except ImportError as error:
        sys.exit(
            f"peer libraries missing ({error}); run under a venv with "
            f"`pip install -e '{REPO}[bench]'` or pass --peer-hands 0"
        )
    hands10 = cards10.tolist()
    hands11 = cards11.tolist()
    n = len(hands10)

    # Headline OpenSpiel timing: hands pre-converted to OpenSpiel's card order, one
    # C++ call per hand (the only interface it has), no adapter work inside the timing.
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    md = utils.min_deadwood
    to_os = peers.OUR_TO_OPENSPIEL
    os10 = [[to_os[c] for c in h] for h in hands10]
    os11 = [[to_os[c] for c in h] for h in hands11]
    md(os10[0])
    peers.openspiel_min_deadwood(hands10[:5])  # builds the adapter's utils
    peers.rlcard_min_deadwood(hands10[:5])  # imports rlcard, builds its cards

    print("OpenSpiel / RLCard, 10 cards:", flush=True)
    t, raw10 = best_of(lambda: [md(h) for h in os10], repeats)
    table.add("OpenSpiel `GinRummyUtils.min_deadwood` (C++)", "10", n, t)
    t_adapter, spiel10 = best_of(lambda: peers.openspiel_min_deadwood(hands10), repeats)
    t, rl10 = best_of(lambda: peers.rlcard_min_deadwood(hands10), repeats)
    table.add("RLCard `get_best_meld_clusters` (Python)", "10", n, t)

    print("OpenSpiel / RLCard, 11 cards:", flush=True)
    t, native11 = best_of(lambda: [md(h) for h in os11], repeats)
    table.add("OpenSpiel native 11-card `min_deadwood` (C++, not exact)", "11", n, t)
    t, raw11 = best_of(
        lambda: [min(md(h[:i] + h[i + 1 :]) for i in range(11)) for h in os11], repeats
    )
    table.add("OpenSpiel, min over the 11 discards (C++)", "11", n, t)
    spiel11 = peers.openspiel_min_deadwood(hands11, eleven="min_discard")
    t, rl11 = best_of(lambda: peers.rlcard_min_deadwood(hands11), repeats)
    table.add("RLCard, min over the 11 discards (Python)", "11", n, t)
    print(
        f"  (OpenSpiel through scripts/peers.py, conversion + checks included: "
        f"{n / t_adapter.wall:,.0f} 10-card hands/s)"
    )

    if raw10 != spiel10 or raw11 != spiel11:
        raise RuntimeError("scripts/peers.py and direct OpenSpiel calls differ")
    ours10_l = ours10.tolist()
    ours11_l = ours11.tolist()
    checks = [
        ("10 cards: ours vs OpenSpiel", hands10, ours10_l, spiel10),
        ("10 cards: ours vs RLCard", hands10, ours10_l, rl10),
        ("11 cards: ours vs OpenSpiel min_discard", hands11, ours11_l, spiel11),
        ("11 cards: ours vs RLCard", hands11, ours11_l, rl11),
    ]
    print(f"Agreement on {n:,} hands of each size (must be 0 disagreements):")
    total = 0
    for label, hands, mine, theirs in checks:
        bad = [i for i in range(n) if mine[i] != theirs[i]]
        total += len(bad)
        print(f"  {label:<42} {len(bad)} disagreements")
        for i in bad[:5]:
            text = " ".join(peers.card_str(c) for c in hands[i])
            print(
                f"    hand {i}: {text}: ours {mine[i]}, peer {theirs[i]}, "
                f"brute force {peers._reference_min_deadwood(hands[i])}"
            )
    native_bad = [i for i in range(n) if native11[i] != ours11_l[i]]
    print(
        f"  (informational) OpenSpiel native 11-card value differs from the exact "
        f"best-discard deadwood on {len(native_bad)} hands"
    )
    for i in native_bad[:3]:
        text = " ".join(peers.card_str(c) for c in hands11[i])
        print(f"    hand {i}: {text}: exact {ours11_l[i]}, OpenSpiel native {native11[i]}")
    return total


# --------------------------------------------------------------------------- JIT cache
def clear_pycache(package: Path, numba_cache: Path) -> None:
    """Delete every ``__pycache__`` of the package and the numba cache folder."""
    for cache in package.rglob("__pycache__"):
        shutil.rmtree(cache)
    shutil.rmtree(numba_cache, ignore_errors=True)


def bench_jit_cache(repeats: int, revision: str) -> str:
    """Wall time of ``analyzer deadwood HAND`` in a fresh process, numba cache cold
    (every ``__pycache__`` of the package deleted) and warm, in a throwaway clone of
    ``revision`` with its own venv; Markdown bullet lines, or why it could not run."""
    work = Path(tempfile.mkdtemp(prefix="bench_evaluator_"))
    try:
        clone = work / "benchclone"
        venv = work / "venv"
        python = str(venv / "bin" / "python")
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        # the kernels' cache lives under NUMBA_CACHE_DIR (see analyzer/_kernel_cache.py)
        env["NUMBA_CACHE_DIR"] = str(work / "numba-cache")
        env.pop("PYTHONPATH", None)

        def call(command: list[str], cwd: Path = work) -> subprocess.CompletedProcess[str]:
            done = subprocess.run(
                command, env=env, cwd=cwd, check=False, capture_output=True, text=True
            )
            if done.returncode:
                raise RuntimeError(
                    f"`{' '.join(command)}` failed (exit {done.returncode}):\n"
                    f"{done.stdout[-2000:]}{done.stderr[-2000:]}"
                )
            return done

        def timed(command: list[str]) -> tuple[float, str]:
            start = time.perf_counter()
            out = call(command).stdout
            return time.perf_counter() - start, out

        call(["git", "clone", "--quiet", str(REPO), str(clone)])
        call(["git", "-C", str(clone), "checkout", "--quiet", revision])
        commit = call(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"]).stdout.strip()
        print(f"JIT cache: clone of {commit} in {clone}; creating a venv there ...", flush=True)
        call([sys.executable, "-m", "venv", str(venv)])
        call([python, "-m", "pip", "install", "--disable-pip-version-check", "-e", str(clone)])

        command = [str(venv / "bin" / "analyzer"), "deadwood", CLI_HAND]
        cold, warm = [], []
        n_files = 0
        for _ in range(repeats):
            clear_pycache(clone / "analyzer", work / "numba-cache")
            seconds, out = timed(command)
            if "= 33 points" not in out:
                raise RuntimeError(f"unexpected CLI output:\n{out}")
            cold.append(seconds)
            n_files = sum(
                1 for p in (work / "numba-cache").rglob("*") if p.suffix in (".nbi", ".nbc")
            )
            warm.append(timed(command)[0])
            warm.append(timed(command)[0])
        baseline = min(timed([python, "-c", "import numba, click"])[0] for _ in range(repeats))
        imports = min(timed([python, "-c", "import analyzer.cli"])[0] for _ in range(repeats))
        return "\n".join(
            [
                (
                    f'- command: `analyzer deadwood "{CLI_HAND}"`, a fresh process each time, '
                    f"in a clone of {commit}; best of {repeats} (cold) and {2 * repeats} (warm)"
                ),
                (
                    f"- numba cache cleared (`__pycache__` deleted): **{min(cold):.2f} s** "
                    f"(runs: {', '.join(f'{x:.2f}' for x in cold)})"
                ),
                (
                    f"- cache filled by the previous run ({n_files} `.nbi`/`.nbc` files): "
                    f"**{min(warm):.2f} s** (runs: {', '.join(f'{x:.2f}' for x in warm)})"
                ),
                (
                    f'- for scale: `python -c "import numba, click"` {baseline:.2f} s, '
                    f'`python -c "import analyzer.cli"` (no kernel called) {imports:.2f} s'
                ),
            ]
        )
    except RuntimeError as error:
        print(f"JIT cache measurement failed: {error}", file=sys.stderr)
        return f"- not measured: {str(error).splitlines()[0]}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=2_000_000,
        help="random hands of each size for our evaluator (default 2,000,000)",
    )
    parser.add_argument(
        "--peer-hands",
        type=int,
        default=20_000,
        help="first N of those hands also given to OpenSpiel and RLCard "
        "(default 20,000; 0 skips the peers)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="peer and JIT-cache timings are the best of this many runs (default 5)",
    )
    parser.add_argument(
        "--repeats-ours",
        type=int,
        default=20,
        help="our timings are the best of this many runs (default 20; one "
        "run of 2,000,000 10-card hands takes ~20 ms)",
    )
    parser.add_argument(
        "--jit-cache",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time a fresh CLI process with the numba cache cold and warm",
    )
    parser.add_argument(
        "--jit-revision",
        default="HEAD",
        help="commit the JIT-cache step clones and installs (default HEAD)",
    )
    args = parser.parse_args()
    if (
        not 0 <= args.peer_hands <= args.hands
        or args.hands < 1
        or args.repeats < 1
        or args.repeats_ours < 1
    ):
        parser.error("need --hands >= 1, 0 <= --peer-hands <= --hands, repeats >= 1")

    print(
        f"# bench_evaluator  seed={SEED}  hands={args.hands:,}  peer-hands={args.peer_hands:,}  "
        f"repeats={args.repeats}  repeats-ours={args.repeats_ours}"
    )
    print(f"{machine_description()}\nload average at start: {load_average()}\n", flush=True)
    command = "python scripts/bench_evaluator.py " + " ".join(sys.argv[1:])

    rng = np.random.default_rng(SEED)
    cards10, masks10 = random_hands(rng, args.hands, 10)
    cards11, masks11 = random_hands(rng, args.hands, 11)

    all_threads = numba.config.NUMBA_NUM_THREADS
    table = Table()

    # warm-up: compile (or load from the numba cache) every kernel timed below
    numba.set_num_threads(1)
    min_deadwood_batch(masks10[:100], parallel=False)
    min_deadwood_serial(masks10[:100], np.empty(100, dtype=np.int64))
    plain_lut_serial(masks10[:100], PLAIN_RUNS, np.empty(100, dtype=np.int64))
    ours_best_discard(masks11[:100], parallel=False)
    numba.set_num_threads(all_threads)
    min_deadwood_batch(masks10[:100], parallel=True)
    ours_best_discard(masks11[:100], parallel=True)

    print("ours:", flush=True)
    numba.set_num_threads(1)
    t, ours10 = best_of(lambda: min_deadwood_batch(masks10, parallel=False), args.repeats_ours)
    table.add("ours `min_deadwood_batch`, 1 core", "10", args.hands, t)
    kernel = np.empty_like(masks10)
    t_kernel, _ = best_of(lambda: min_deadwood_serial(masks10, kernel), args.repeats_ours)
    print(
        f"  (`min_deadwood_kernel` in a plain njit loop, no argument checks: "
        f"{args.hands / t_kernel.wall:,.0f} hands/s)"
    )
    plain = np.empty_like(masks10)
    t, _ = best_of(lambda: plain_lut_serial(masks10, PLAIN_RUNS, plain), args.repeats_ours)
    table.add("plain per-suit lookup-table kernel (njit), 1 core", "10", args.hands, t)
    if not np.array_equal(plain, ours10):
        raise RuntimeError("the plain lookup-table kernel disagrees with min_deadwood_batch")
    numba.set_num_threads(all_threads)
    t, ours10_par = best_of(lambda: min_deadwood_batch(masks10, parallel=True), args.repeats_ours)
    table.add(
        f"ours `min_deadwood_batch`, {all_threads} threads", "10", args.hands, t, serial=False
    )
    numba.set_num_threads(1)
    t, ours11 = best_of(lambda: ours_best_discard(masks11, parallel=False), args.repeats_ours)
    table.add("ours `best_discard_kernel` loop, 1 core", "11", args.hands, t)
    numba.set_num_threads(all_threads)
    t, ours11_par = best_of(lambda: ours_best_discard(masks11, parallel=True), args.repeats_ours)
    table.add(
        f"ours `best_discard_kernel` loop, {all_threads} threads", "11", args.hands, t, serial=False
    )
    if not (np.array_equal(ours10, ours10_par) and np.array_equal(ours11, ours11_par)):
        raise RuntimeError("serial and parallel results differ")
    print(
        f"  (threading layer: {numba.threading_layer()}; serial and parallel results equal; "
        f"mean deadwood 10 cards {ours10.mean():.3f}, 11 cards {ours11.mean():.3f})"
    )

    disagreements = 0
    if args.peer_hands:
        p = args.peer_hands
        disagreements = bench_peers(
            cards10[:p], cards11[:p], ours10[:p], ours11[:p], args.repeats, table
        )

    jit = bench_jit_cache(args.repeats, args.jit_revision) if args.jit_cache else ""

    print(f"\nload average at end: {load_average()}")
    print(f"\n## Evaluator (Markdown)\n\nCommand: `{command.strip()}`\n")
    print(machine_description() + "\n")
    print(table.markdown())
    if jit:
        print("\nJIT cache:\n" + jit)
    if disagreements:
        sys.exit(f"{disagreements} disagreements with the peers (see above)")


if __name__ == "__main__":
    main()
