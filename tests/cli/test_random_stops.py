"""Issue 33's bar: ``report`` over an earlier report, stopped at random points (SIGINT,
SIGTERM, SIGKILL, a full disk), leaves its folder byte for byte as the earlier run left
it or as a complete run leaves it, 50 stops in a row.

The runs are real reports (``--only dealt,sweep``, the two fastest sections, at 100
deals) in worker processes that stay loaded from run to run, so that a stop costs part
of a run, not a start of Python, numpy, numba and matplotlib; only a SIGKILL needs a new
worker, and a spare one is always ready (loaded by a first, whole run: a stop while numba
loads its kernels can break numba in a process that goes on, as a worker does).  The workers do not rasterize the charts (a
chart's PNG holds its title and caption instead): that takes most of a small report's
time and has no part in how its files are written.  A full disk is simulated in the
worker, for the report's writers (:mod:`analyzer.studies.files`): from a chosen file
operation of the run on, every write and every file or folder made fails with ENOSPC
(and the rename at that point fails, once).
"""

import json
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from analyzer.core import cluster
from analyzer.studies.files import MANIFEST, file_hash, staged_folder

ROOT = Path(__file__).resolve().parents[2]

#: A loaded command line that runs what it reads on stdin (``{"args": [...], "full_at":
#: n}``), one run at a time, and reports on its own stdout (``ready``, ``started``, then
#: ``{"code": exit status, "operations": file operations of the run}``).
WORKER = """
    import builtins, errno, json, os, signal, sys, types

    import analyzer.report.build
    from matplotlib.figure import Figure

    from analyzer.cli.main import cli
    from analyzer.studies import files

    def unrasterized(figure, stream, **options):
        stream.write(json.dumps(options.get("metadata", {}), sort_keys=True).encode())

    Figure.savefig = unrasterized
    Figure.tight_layout = lambda figure, *args, **kwargs: None

    class Disk:
        full_at = None
        operations = 0

        def fails(self, once=False):
            self.operations += 1
            if self.full_at is None:
                return False
            return self.operations == self.full_at if once else self.operations >= self.full_at

    disk = Disk()

    def full(path):
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    def allocating(real, once=False):
        def call(path, *args, **kwargs):
            if disk.fails(once):
                raise full(path)
            return real(path, *args, **kwargs)
        return call

    def opening(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and disk.fails():
            raise full(path)
        return os.open(path, flags, *args, **kwargs)

    def writing(path, mode="r", *args, **kwargs):
        if "w" in mode and disk.fails():
            raise full(path)
        return builtins.open(path, mode, *args, **kwargs)

    files.open = writing
    files.os = types.SimpleNamespace(**vars(os))
    files.os.open = opening
    for name in ("mkdir", "makedirs", "link", "write"):
        setattr(files.os, name, allocating(getattr(os, name)))
    files.os.replace = allocating(os.replace, once=True)  # a rename needs no room, but may
    channel = os.fdopen(os.dup(1), "w")
    # not the process's own stdout: a stopped run then exits by SystemExit, not os._exit
    sys.stdout = open(os.devnull, "w")
    print("ready", file=channel, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        disk.full_at, disk.operations = request["full_at"], 0
        print("started", file=channel, flush=True)
        try:
            try:
                cli.main(request["args"], prog_name="analyzer")
            except SystemExit as stop:
                code = stop.code
            except Exception as error:  # for the test to show
                code = repr(error)
            finally:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                disk.full_at = None
        except KeyboardInterrupt:  # a stop that came as the run ended
            code = "late"
        print(json.dumps({"code": code, "operations": disk.operations}), file=channel, flush=True)
"""


class Worker:
    """A :data:`WORKER` process and the lines it reports, loaded by a whole first run of
    ``warm_up`` (command line arguments)."""

    def __init__(self, errors: Path, warm_up: list[str]) -> None:
        environment = {**os.environ, "PYTHONPATH": str(ROOT)}
        environment.pop(cluster.SCHEDULER_ENV, None)
        with open(errors, "w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-c", textwrap.dedent(WORKER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                env=environment,
            )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self._send(warm_up, None)
        self.warm_up: list[str] | None = warm_up

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # the process ended

    def _line(self, timeout: float) -> str | None:
        return self.lines.get(timeout=timeout)

    def _send(self, args: list[str], full_at: int | None) -> None:
        self.process.stdin.write(json.dumps({"args": args, "full_at": full_at}) + "\n")
        self.process.stdin.flush()

    def run(self, args, full_at=None, stop=None, after=0.0):
        """Run the command line with ``args``; with ``stop``, send it ``after`` seconds
        into the run unless the run ended first.  Returns the run's report (None when
        it was killed) and whether the stop went."""
        if self.warm_up is not None:
            assert [self._line(600), self._line(60)] == ["ready", "started"]
            line = self._line(1800)  # the first run may compile the kernels
            assert line is not None and json.loads(line)["code"] == 0, (self.warm_up, line)
            self.warm_up = None
        self._send(args, full_at)
        assert self._line(60) == "started"
        sent = False
        if stop is not None:
            try:
                line = self._line(after)
            except queue.Empty:
                self.process.send_signal(stop)
                sent = True
            else:
                return json.loads(line), False
        line = self._line(600)
        if line is None:
            self.process.wait(timeout=60)
            return None, sent
        return json.loads(line), sent

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=60)
        self.reader.join(timeout=60)
        self.process.stdin.close()
        self.process.stdout.close()


def tree(folder):
    """Every folder (None) and file (its bytes) under ``folder``, by relative path."""
    folder = Path(folder)
    return {
        path.relative_to(folder).as_posix(): None if path.is_dir() else path.read_bytes()
        for path in sorted(folder.rglob("*"))
    }


def comparable(found):
    """``found`` (a :func:`tree`) as two whole runs of one report leave it alike, with
    each manifest's run id.  They differ in their run times (each answer's ``seconds`` in
    its ``meta.json``, left out) and their run ids: a manifest stands as the names of the
    files it names when they are there with its SHA-256, else as None (a folder that holds
    files of two runs).  The log of run times is :data:`LOG`'s own check."""
    alike, runs = dict(found), {}
    for path, data in found.items():
        folder, _, name = path.rpartition("/")
        if name == "meta.json":
            meta = json.loads(data)
            meta.pop("seconds")
            alike[path] = meta
        elif name == MANIFEST:
            manifest = json.loads(data)
            listed = {
                f"{folder}/{file}" if folder else file: digest
                for file, digest in manifest["files"].items()
            }
            whole = all(
                isinstance(found.get(file), bytes) and file_hash(found[file]) == digest
                for file, digest in listed.items()
            )
            alike[path] = sorted(manifest["files"]) if whole else None
            runs[path] = manifest["run"]
    return alike, runs


#: The log of run times, which every complete run extends by a line.
LOG = "run_times.log"
ARGS = ["report", "--deals", "100", "--only", "dealt,sweep", "--no-progress"]
#: The stops that end in a worker: in an order the test's seed draws, with a SIGKILL
#: after every :data:`KILL_EVERY` of them (which gives the spare worker time to load).
STOPS = [signal.SIGINT] * 18 + [signal.SIGTERM] * 16 + ["full disk"] * 8
KILL_EVERY = 5
STAGING = re.compile(r"\.out\.analyzer-run-[0-9a-f]{12}")


@pytest.mark.slow
def test_a_report_stopped_at_random_points_leaves_the_old_report_or_the_new_one(tmp_path):
    rng = random.Random(33)
    workers: list[Worker] = []

    def report_folder(folder):
        # the exact answers the dealt section reads beside its own (kept, never run by it)
        shutil.copytree(ROOT / "results" / "exact", folder / "exact")
        return folder

    def next_worker():
        warm_up = report_folder(tmp_path / "warm_up" / str(len(workers)))
        workers.append(
            Worker(tmp_path / f"worker{len(workers)}.err", [*ARGS, "--out", str(warm_up)])
        )
        return workers[-1]

    out = report_folder(tmp_path / "run" / "out")
    (out / "notes.txt").write_text("the user's notes\n")
    earlier = tmp_path / "earlier"
    worker, spare = next_worker(), next_worker()
    try:
        done, _ = worker.run([*ARGS, "--seed", "5", "--out", str(out)])
        assert done["code"] == 0, (tmp_path / "worker0.err").read_text()
        shutil.copytree(out, earlier)
        new_args = [*ARGS, "--seed", "6", "--out", str(out)]
        started = time.perf_counter()
        done, _ = worker.run(new_args)  # over ``out``, which each answer's command names
        seconds, operations = time.perf_counter() - started, done["operations"]
        assert done["code"] == 0, (tmp_path / "worker0.err").read_text()
        old, written = tree(earlier), tree(out)
        new, _ = comparable(written)
        shutil.rmtree(out)
        shutil.copytree(earlier, out)
        old_log, new_log = old.pop(LOG), new.pop(LOG)
        assert new_log.startswith(old_log) and new_log.count(b"\n") == old_log.count(b"\n") + 1
        assert {name for name in old if old[name] != written.get(name)} >= {
            "README.md",
            "dealt/meta.json",
            "knock_sweep/sweep.csv",
        }
        # the manifests of the folders the run writes (not of the exact answers it reads)
        manifests = {
            path for path in written if path.endswith(MANIFEST) and written[path] != old[path]
        }
        assert manifests == {MANIFEST, f"dealt/{MANIFEST}", f"knock_sweep/{MANIFEST}"}

        def state():
            """``old`` or ``new`` (the report's folder as one of them, ``new`` with the
            manifests of the folders it wrote all of one run), else None."""
            now = tree(out)
            if now == {**old, LOG: old_log}:
                return "old"
            now, runs = comparable(now)
            log = now.pop(LOG, b"")
            if (
                now == new
                and len({runs[path] for path in manifests}) == 1
                and log.startswith(old_log)
                and log.count(b"\n") == old_log.count(b"\n") + 1
            ):
                return "new"
            return None

        stops = []
        for number, stop in enumerate(rng.sample(STOPS, len(STOPS)), start=1):
            stops.append(stop)
            if number % KILL_EVERY == 0:
                stops.append(signal.SIGKILL)
        assert len(stops) == 50
        kills = 0
        while kills < len(stops):
            stop = stops[kills]
            if stop == "full disk":
                after = rng.randint(1, operations)  # the operation that finds the disk full
                done, sent = worker.run(new_args, full_at=after)
                assert done is not None and done["code"] == 2, done
                sent = True
            else:
                after = rng.uniform(0, seconds)
                done, sent = worker.run(new_args, stop=stop, after=after)
            if not sent:
                assert done["code"] == 0 and state() == "new"
            else:
                kills += 1
                found = state()
                if found is None and stop == signal.SIGKILL:
                    # killed within the few renames that move the files in: the staging
                    # folder is marked, and the next run over the folder ends the move
                    assert any((p / "moving").exists() for p in out.parent.iterdir() if p != out)
                    with staged_folder(out):
                        pass
                    found = state()
                    assert found == "new"
                assert found is not None, (kills, stop, after, sorted(tree(out)))
                if stop == signal.SIGKILL:
                    assert done is None
                    worker.close()
                    worker, spare = spare, next_worker()
                elif stop != "full disk":
                    assert done["code"] in (130, "late"), (stop, after, done)
                # only staging folders of killed runs beside it, for the next run to clear
                assert all(STAGING.fullmatch(p.name) for p in out.parent.iterdir() if p != out)
            if state() == "new":
                shutil.rmtree(out)
                shutil.copytree(earlier, out)
        done, _ = worker.run(new_args)
        assert done["code"] == 0 and state() == "new"
        assert os.listdir(out.parent) == ["out"]
    finally:
        for each in workers:
            each.close()
