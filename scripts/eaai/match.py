"""Play a match between two EAAI ``GinRummyPlayer`` classes in your copy of the framework.

Compiles ``scripts/eaai/EaaiMatch.java`` and the adapter ``AnalyzerPlayer.java`` against
the framework (a folder of classes or of sources, or a jar; package ``ginrummy`` or the
default package) into a cache folder, runs the match in one JVM (mirrored pairs, fixed
deck seeds, one CSV row per game: see EaaiMatch.java for the columns) and prints the
summary: wins per player with Wilson 95% intervals, overall and by who started the first
hand, points and knocks, gins and undercuts per hand, and the time and CPU per game and
per decision.  The summary is also written next to the CSV (same name, ``.json``).

Players: a class name (``ginrummy.SimpleGinRummyPlayer``, ``MARJJ_v5``; other players'
classes via ``--extra-classpath``) or ``analyzer:SPEC``, an ``analyzer agent`` process
playing any player the analyzer CLI takes (``analyzer:expert``, ``analyzer:search``,
``analyzer:search,budget=64``); one process per analyzer player serves the whole match.

Usage::

    python scripts/eaai/match.py --framework ~/gin-rummy-eaai \\
        --player-a analyzer:expert --player-b ginrummy.SimpleGinRummyPlayer \\
        --pairs 200 --seed 1 --out results/interop/eaai_expert_vs_simple.csv

    python scripts/eaai/match.py --summary results/interop/eaai_expert_vs_simple.csv

Nothing of the framework is copied into this repository; the compiled classes go to a
build cache of your own (``--build-dir``, default ``$XDG_CACHE_HOME/rummy-analyzer/eaai`` or
``~/.cache/rummy-analyzer/eaai``): a folder only you can write to (made with mode 0700 and
checked before use, and every folder above it too: one that another user may write, not
sticky, could swap it after the check), one build per content hash of what it is compiled
from, so a build of other sources, or of another user, is never run.  Every option is checked before
anything is compiled or run; a bad one is a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import os
import re
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from analyzer.core.limits import (
    EAAI_SEED_MAX,
    MAX_EAAI_PAIRS,
    MAX_LINE_CHARS,
    check_int,
    load_json,
    read_lines,
    read_text,
)

ROOT = Path(__file__).resolve().parents[2]
JAVA_SOURCES = (
    ROOT / "scripts" / "eaai" / "EaaiMatch.java",
    ROOT / "analyzer" / "interop" / "java" / "AnalyzerPlayer.java",
)
Z95 = 1.959963984540054
ROLES = ("a", "b")
INT_COLUMNS = (
    "game",
    "pair",
    "deck_seed",
    "a_seat",
    "score_a",
    "score_b",
    "hands",
    "cancelled",
    "knocks_a",
    "knocks_b",
    "gins_a",
    "gins_b",
    "undercuts_a",
    "undercuts_b",
    "questions_a",
    "questions_b",
)
FLOAT_COLUMNS = (
    "ms_a",
    "ms_b",
    "question_ms_a",
    "question_ms_b",
    "max_question_ms_a",
    "max_question_ms_b",
    "cpu_ms_a",
    "cpu_ms_b",
)


# ---------------------------------------------------------------------- statistics
def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """(share, low, high): the Wilson score interval of a binomial share."""
    if trials <= 0:
        raise ValueError("a share needs at least one trial")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return p, max(0.0, centre - half), min(1.0, centre + half)


#: The columns the Java side leaves empty when it cannot measure them.
OPTIONAL_COLUMNS = ("cpu_ms_a", "cpu_ms_b")
#: The one-letter columns and the values each takes.
ROLE_COLUMNS = {"first_starter": ROLES, "winner": ROLES, "forfeit": ("", *ROLES)}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The per-game rows of a match CSV, numbers parsed (an empty CPU cell is None);
    ``ValueError`` naming the file (and the line) when it is not a match CSV."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            lines = read_lines(handle, 2 * MAX_EAAI_PAIRS + 1, MAX_LINE_CHARS, what=str(path))
            rows = list(csv.reader(line for _, line in lines))
    except OSError as error:
        raise ValueError(f"{path}: {error.strerror or error}") from None
    except csv.Error as error:
        raise ValueError(f"{path} is not a CSV file: {error}") from None
    if len(rows) < 2:
        raise ValueError(f"{path} holds no games")
    header, *body = rows
    missing = [c for c in (*INT_COLUMNS, *FLOAT_COLUMNS, *ROLE_COLUMNS) if c not in header]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise ValueError(f"{path} is not a match CSV: no column {', '.join(missing[:3])}{more}")
    parsed = []
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(
                f"{path} line {number}: {len(row)} cells, the header has {len(header)}"
            )
        cells = dict(zip(header, row, strict=True))
        out: dict[str, Any] = dict(cells)
        for column in INT_COLUMNS:
            out[column] = _number(cells[column], int, path, number, column)
        for column in FLOAT_COLUMNS:
            empty = cells[column] == "" and column in OPTIONAL_COLUMNS
            out[column] = None if empty else _number(cells[column], float, path, number, column)
        for column, allowed in ROLE_COLUMNS.items():
            if cells[column] not in allowed:
                raise ValueError(
                    f"{path} line {number}: {column} must be one of "
                    f"{', '.join(repr(v) for v in allowed)}, got {cells[column]!r}"
                )
        if out["hands"] < 1:
            raise ValueError(f"{path} line {number}: a game of no hands")
        parsed.append(out)
    return parsed


def _number(text: str, kind: type, path: Path, line: int, column: str) -> Any:
    """A cell as a finite number of ``kind``, at least 0."""
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < 0:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{path} line {line}: {column} must be {what} >= 0, got {text!r}")
    return value


def summarize(rows: list[dict[str, Any]], names: tuple[str, str] = ("A", "B")) -> dict[str, Any]:
    """The match summary (see the module notes) from the per-game rows."""
    if not rows:
        raise ValueError("no games to summarize")
    games = len(rows)
    hands = sum(r["hands"] for r in rows)
    summary: dict[str, Any] = {
        "players": {"a": names[0], "b": names[1]},
        "games": games,
        "pairs": len({r["pair"] for r in rows}),
        "hands": hands,
        "cancelled_per_hand": sum(r["cancelled"] for r in rows) / hands,
        "forfeits": {role: sum(r["forfeit"] == role for r in rows) for role in ROLES},
    }
    # in a mirrored pair each player starts the first hand once, so a player's gap between
    # its wins when it started and when the other did is 2 * (this share) - 1 for both
    starter_won = sum(r["winner"] == r["first_starter"] for r in rows)
    summary["first_starter_won"] = {"wins": starter_won, "share": list(wilson(starter_won, games))}
    for role in ROLES:
        wins = sum(r["winner"] == role for r in rows)
        by_start = {}
        for starter in ROLES:
            subset = [r for r in rows if r["first_starter"] == starter]
            if subset:
                won = sum(r["winner"] == role for r in subset)
                by_start[f"{starter}_started"] = {
                    "games": len(subset),
                    "wins": won,
                    "share": list(wilson(won, len(subset))),
                }
        points = sum(r[f"score_{role}"] for r in rows)
        player: dict[str, Any] = {
            "wins": wins,
            "share": list(wilson(wins, games)),
            "by_first_starter": by_start,
            "points_per_game": points / games,
            "points_per_hand": points / hands,
            "knocks_per_hand": sum(r[f"knocks_{role}"] for r in rows) / hands,
            "gins_per_hand": sum(r[f"gins_{role}"] for r in rows) / hands,
            "undercuts_per_hand": sum(r[f"undercuts_{role}"] for r in rows) / hands,
        }
        # the first game carries an agent's start-up (and the JVM's warm-up): the times
        # per decision and per game are over the other games, the first is given apart
        first = min(rows, key=lambda r: r["game"])
        steady = [r for r in rows if r is not first] or rows
        questions = sum(r[f"questions_{role}"] for r in steady)
        player["ms_per_game"] = sum(r[f"ms_{role}"] for r in steady) / len(steady)
        if questions:
            player["questions_per_game"] = questions / len(steady)
            player["ms_per_decision"] = sum(r[f"question_ms_{role}"] for r in steady) / questions
            player["max_ms_per_decision"] = max(r[f"max_question_ms_{role}"] for r in steady)
            player["max_ms_per_decision_first_game"] = first[f"max_question_ms_{role}"]
        cpu = [r[f"cpu_ms_{role}"] for r in steady if r[f"cpu_ms_{role}"] is not None]
        if cpu and first[f"cpu_ms_{role}"] is not None:
            player["cpu_ms_first_game"] = first[f"cpu_ms_{role}"]
            player["cpu_ms_per_game"] = statistics.fmean(cpu)
            player["cpu_ms_per_game_median"] = statistics.median(cpu)
        summary[role] = player
    # paired view: a pair's two games see the same deals with the seats swapped
    pairs: dict[int, list[str]] = {}
    for r in rows:
        pairs.setdefault(r["pair"], []).append(r["winner"])
    complete = [w for w in pairs.values() if len(w) == 2]
    summary["pairs_split"] = {
        "a_both": sum(w == ["a", "a"] for w in complete),
        "b_both": sum(w == ["b", "b"] for w in complete),
        "split": sum(sorted(w) == ["a", "b"] for w in complete),
    }
    gap = first_start_gap(rows)
    if gap is not None:
        summary["first_start_gap"] = gap
    return summary


def first_start_gap(rows: list[dict[str, Any]], z: float = Z95) -> list[float] | None:
    """[gap, low, high]: how much more often a player wins the game of a pair in which it
    started the first hand than the one in which the other did (the same for both
    players), with a normal 95% interval over the pairs (the games of a pair share their
    deals, so the pair is the unit); None with fewer than two complete pairs."""
    games: dict[int, dict[str, bool]] = {}
    for r in rows:
        games.setdefault(r["pair"], {})[r["first_starter"]] = r["winner"] == "a"
    differences = [int(g["a"]) - int(g["b"]) for g in games.values() if len(g) == 2]
    if len(differences) < 2:
        return None
    mean = statistics.fmean(differences)
    half = z * statistics.stdev(differences) / math.sqrt(len(differences))
    return [mean, max(-1.0, mean - half), min(1.0, mean + half)]


def _pct(share: list[float]) -> str:
    return f"{100 * share[0]:5.1f}% [{100 * share[1]:.1f}, {100 * share[2]:.1f}]"


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few lines of text."""
    names = summary["players"]
    lines = [
        (
            f"{summary['games']} games ({summary['pairs']} mirrored pairs), "
            f"{summary['hands']} hands, {100 * summary['cancelled_per_hand']:.1f}% of hands "
            "cancelled"
        )
    ]
    width = max(len(names["a"]), len(names["b"]), 6)
    lines.append(
        f"{'player':<{width}}  {'won (Wilson 95%)':<24}  "
        f"{'won when it started hand 1':<26}  {'won when the other did':<26}"
    )
    for role in ROLES:
        player = summary[role]
        other = "b" if role == "a" else "a"
        own = player["by_first_starter"].get(f"{role}_started")
        theirs = player["by_first_starter"].get(f"{other}_started")
        lines.append(
            f"{names[role]:<{width}}  {_pct(player['share']):<24}  "
            f"{_pct(own['share']) if own else '-':<26}  "
            f"{_pct(theirs['share']) if theirs else '-':<26}"
        )
    lines.append(
        f"{'player':<{width}}  points/hand  knocks/hand  gins/hand  undercuts/hand  "
        "ms/decision (max)  CPU ms/game (1st game)"
    )
    for role in ROLES:
        player = summary[role]
        decision = (
            f"{player['ms_per_decision']:.2f} ({player['max_ms_per_decision']:.0f})"
            if "ms_per_decision" in player
            else "-"
        )
        cpu = (
            f"{player['cpu_ms_per_game']:.0f} ({player['cpu_ms_first_game']:.0f})"
            if "cpu_ms_per_game" in player
            else "-"
        )
        lines.append(
            f"{names[role]:<{width}}  {player['points_per_hand']:11.2f}  "
            f"{player['knocks_per_hand']:11.3f}  {player['gins_per_hand']:9.3f}  "
            f"{player['undercuts_per_hand']:14.3f}  {decision:<18}  {cpu}"
        )
    starter = summary["first_starter_won"]
    line = f"the player who started the first hand won {_pct(starter['share']).strip()} of games"
    if "first_start_gap" in summary:
        gap = summary["first_start_gap"]
        line += (
            f"; starting it adds {100 * gap[0]:+.1f} [{100 * gap[1]:+.1f}, "
            f"{100 * gap[2]:+.1f}] percentage points to a player's win rate "
            "(paired by deals)"
        )
    lines.append(line)
    split = summary["pairs_split"]
    lines.append(
        f"pairs: {names['a']} won both {split['a_both']}, {names['b']} won both "
        f"{split['b_both']}, split {split['split']}"
    )
    forfeits = summary["forfeits"]
    if forfeits["a"] or forfeits["b"]:
        lines.append(
            f"forfeits (illegal plays): {names['a']} {forfeits['a']}, {names['b']} {forfeits['b']}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- building
@dataclass(frozen=True)
class Framework:
    """Where the framework's classes come from: ``classpath`` entries to run with, the
    ``sources`` to compile first (none for classes or a jar) and its Java package."""

    classpath: tuple[Path, ...]
    sources: tuple[Path, ...]
    package: str


_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


def locate_framework(path: Path) -> Framework:
    """Find ``GinRummyGame`` under ``path`` (a jar, a classes folder or a source folder,
    searched recursively) and tell its package."""
    path = path.expanduser().resolve()
    if not path.exists():
        raise ValueError(f"--framework {path} does not exist")
    if path.is_file():
        if path.suffix != ".jar":
            raise ValueError(f"--framework {path}: give a folder or a jar")
        names = [n for n in _jar_names(path, "--framework") if n.endswith("GinRummyGame.class")]
        if not names:
            raise ValueError(f"{path} holds no GinRummyGame.class")
        package = ".".join(Path(names[0]).parent.parts)
        return Framework((path,), (), package)
    classes = sorted(path.rglob("GinRummyGame.class"), key=lambda p: len(p.parts))
    if classes:
        found = classes[0]
        package = "ginrummy" if found.parent.name == "ginrummy" else ""
        root = found.parent.parent if package else found.parent
        return Framework((root,), (), package)
    sources = sorted(path.rglob("GinRummyGame.java"), key=lambda p: len(p.parts))
    if not sources:
        raise ValueError(f"no GinRummyGame.class or GinRummyGame.java under {path}")
    found = sources[0]
    match = _PACKAGE.search(found.read_text(errors="replace"))
    package = match.group(1) if match else ""
    return Framework((), tuple(sorted(found.parent.glob("*.java"))), package)


def _jar_names(path: Path, option: str) -> list[str]:
    """The entries of the jar ``path``; ``ValueError`` naming ``option`` when it is no jar."""
    try:
        with zipfile.ZipFile(path) as jar:
            return jar.namelist()
    except (OSError, zipfile.BadZipFile) as error:
        raise ValueError(f"{option} {path} is not a jar (a zip file): {error}") from None


def _source_for(package: str, text: str) -> str:
    """Our Java source for a framework in ``package`` (ours are written for ginrummy)."""
    if package == "ginrummy":
        return text
    if package == "":
        return _PACKAGE.sub("", text, count=1)
    return _PACKAGE.sub(f"package {package};", text, count=1)


def default_build_dir() -> Path:
    """The user's own cache folder: ``$XDG_CACHE_HOME`` (when it is an absolute path, as
    the XDG specification asks) or ``~/.cache``, then ``rummy-analyzer/eaai``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "rummy-analyzer" / "eaai"


def private_folder(path: Path) -> Path:
    """``path`` as a folder that only this user can write to, nor swap for another one:
    made with mode 0700 when missing, and returned resolved (the path every later use
    takes).  ``ValueError`` when it belongs to another user or others may write to it,
    or a folder above it belongs to another user (root aside) or may be written by
    others without being sticky: any of them could replace the build folder after this
    check, and a build there could be anyone's code."""
    path = Path(os.path.abspath(path.expanduser()))
    try:
        above = next(parent for parent in path.parents if parent.exists())
        _check_above(path, above.resolve(strict=True))  # before anything is made there
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        real = path.resolve(strict=True)
        status = real.stat()
        _check_above(path, real.parent)
    except OSError as error:
        raise ValueError(f"--build-dir {path}: {error.strerror or error}") from None
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        raise ValueError(f"--build-dir {path} belongs to another user: give a folder of yours")
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise ValueError(
            f"--build-dir {path} is writable by others: run chmod go-w on it or give another"
        )
    return real


def _check_above(path: Path, folder: Path) -> None:
    """``ValueError`` when ``folder`` (a resolved folder above the build folder ``path``)
    or one above it lets another user rename what it holds: it belongs to another user
    than this one or root, or others may write to it and it is not sticky."""
    for each in (folder, *folder.parents):
        status = each.stat()
        if hasattr(os, "getuid") and status.st_uid not in (os.getuid(), 0):
            raise ValueError(
                f"--build-dir {path}: {each} above it belongs to another user, who could "
                "replace the build folder; give a folder under yours"
            )
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not status.st_mode & stat.S_ISVTX:
            raise ValueError(
                f"--build-dir {path}: others may write to {each} above it (not sticky) and "
                "replace the build folder; give a folder under ones only you may write"
            )


def build_key(framework: Framework) -> str:
    """A hash of everything a build is compiled from: our sources, the framework's sources
    or the classes of its package (a jar whole), and its package."""
    digest = hashlib.sha256()

    def add(name: str, data: bytes) -> None:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)

    add("package", framework.package.encode())
    for source in (*JAVA_SOURCES, *framework.sources):
        add(source.name, source.read_bytes())
    for entry in framework.classpath:
        if entry.is_file():
            add(entry.name, entry.read_bytes())
        else:
            folder = entry.joinpath(*framework.package.split(".")) if framework.package else entry
            for compiled in sorted(folder.glob("*.class")):
                add(compiled.name, compiled.read_bytes())
    return digest.hexdigest()


def build(framework: Framework, build_dir: Path, javac: str = "javac") -> tuple[Path, ...]:
    """Compile the framework's sources (if given as sources) and ours into the private
    folder ``build_dir``, under the hash of what they are compiled from (skipped when
    that build is there); the classpath to run.  A build is compiled in a folder of its
    own and renamed into place whole, so a build that stopped part way is never used."""
    folder = private_folder(build_dir)
    try:
        target = folder / build_key(framework)
    except OSError as error:
        raise ValueError(f"--framework: cannot read {error.filename}: {error.strerror}") from None
    classes = target / "classes"
    if classes.is_dir():
        return (classes, *framework.classpath)
    if shutil.which(javac) is None:
        raise ValueError(f"--javac {javac} not found: the match needs a JDK (javac and java)")
    work = Path(tempfile.mkdtemp(prefix=".building-", dir=folder))
    try:
        (work / "src").mkdir()
        (work / "classes").mkdir()
        ours = []
        for source in JAVA_SOURCES:
            copy = work / "src" / source.name
            copy.write_text(_source_for(framework.package, source.read_text()))
            ours.append(copy)
        classpath = os.pathsep.join(str(p) for p in framework.classpath)
        command = [javac, "-nowarn", "-encoding", "UTF-8", "-d", str(work / "classes")]
        if classpath:
            command += ["-cp", classpath]
        command += [*(str(s) for s in framework.sources), *(str(s) for s in ours)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise ValueError(f"compiling failed:\n{result.stderr}")
        try:
            work.rename(target)
        except OSError:
            if not classes.is_dir():  # else another match made the same build meanwhile
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return (classes, *framework.classpath)


def main_class(package: str) -> str:
    return f"{package}.EaaiMatch" if package else "EaaiMatch"


def java_command(
    args: argparse.Namespace, classpath: tuple[Path, ...], package: str, out: Path
) -> list[str]:
    """The command line that runs the match."""
    # the JVM runs in the repository (so that `python -m analyzer` finds the package):
    # paths given relative to where this script was started are made absolute
    extra = [os.path.abspath(p) for entry in args.extra_classpath for p in entry.split(os.pathsep)]
    entries = [*(str(p) for p in classpath), *extra]
    agent = args.agent.split() if args.agent else [sys.executable, "-m", "analyzer", "agent"]
    command = [
        args.java,
        "-cp",
        os.pathsep.join(entries),
        main_class(package),
        "--a",
        args.player_a,
        "--b",
        args.player_b,
        "--pairs",
        str(args.pairs),
        "--seed",
        str(args.seed),
        "--out",
        str(out),
        "--rules",
        args.rules,
        "--agent-seed",
        str(args.agent_seed),
        "--progress",
        str(args.progress),
    ]
    for part in agent:
        command += ["--agent-arg", part]
    return command


# ---------------------------------------------------------------------- command line
class _Parser(argparse.ArgumentParser):
    """argparse with the analyzer's errors: one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"Error: {message}\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options, each checked (:func:`check_args`): a bad one exits with one line."""
    parser = _Parser(
        description="Play two EAAI GinRummyPlayers in your copy of the framework (mirrored "
        "pairs, fixed seeds): a CSV row per game and a summary."
    )
    parser.add_argument(
        "--framework",
        type=Path,
        help="The framework: a folder of its classes or sources (searched for "
        "GinRummyGame), or a jar.",
    )
    parser.add_argument(
        "--player-a",
        default="analyzer:expert",
        help="A class name (ginrummy.SimpleGinRummyPlayer, MARJJ_v5) or "
        "analyzer:SPEC (default: %(default)s).",
    )
    parser.add_argument(
        "--player-b",
        default="ginrummy.SimpleGinRummyPlayer",
        help="As --player-a (default: %(default)s).",
    )
    parser.add_argument(
        "--extra-classpath",
        action="append",
        default=[],
        metavar="PATH",
        help="More classes (other players): folders or jars, repeatable.",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=100,
        help=f"Mirrored pairs of games, 1-{MAX_EAAI_PAIRS} (default: %(default)s).",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help=f"Deck seed, 0-{EAAI_SEED_MAX}: pair k deals from seed * 1000003 + k "
        "(default: %(default)s).",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("results/interop/match.csv"),
        help="The per-game CSV (default: %(default)s); the summary goes to "
        "the same name with .json.",
    )
    parser.add_argument(
        "--rules",
        default="eaai",
        help="Rules preset the analyzer agents play by (default: %(default)s).",
    )
    parser.add_argument(
        "--agent-seed",
        type=int,
        default=0,
        help=f"Seed of the agents' random streams, 0-{EAAI_SEED_MAX} (default: %(default)s).",
    )
    parser.add_argument(
        "--agent",
        default=None,
        help="The agent command before --policy (default: this Python's '-m analyzer agent').",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=None,
        help="Where the compiled classes are cached: a folder only you can write to "
        "(default: $XDG_CACHE_HOME/rummy-analyzer/eaai or ~/.cache/rummy-analyzer/eaai).",
    )
    parser.add_argument("--java", default="java")
    parser.add_argument("--javac", default="javac")
    parser.add_argument(
        "--progress",
        type=int,
        default=50,
        help="A progress line every N games (0: none; default %(default)s).",
    )
    parser.add_argument(
        "--summary",
        type=Path,
        metavar="CSV",
        help="Only summarize an existing match CSV (no Java needed).",
    )
    args = parser.parse_args(argv)
    if args.summary is None and args.framework is None:
        parser.error("give --framework (or --summary CSV)")
    try:
        check_args(args)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    if args.build_dir is None:
        args.build_dir = default_build_dir()
    return args


_CLASS_NAME = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")


def check_args(args: argparse.Namespace) -> None:
    """``ValueError`` naming the first bad option of a match (nothing to check for
    ``--summary`` alone): every one is checked here, before anything is compiled or run
    (the Java side would reject some only once its JVM runs, or not at all)."""
    if args.summary is not None:
        return
    check_int(args.pairs, "--pairs", 1, MAX_EAAI_PAIRS)
    check_int(args.seed, "--seed", 0, EAAI_SEED_MAX)
    check_int(args.agent_seed, "--agent-seed", 0, EAAI_SEED_MAX)
    check_int(args.progress, "--progress", 0, 2 * MAX_EAAI_PAIRS)
    from analyzer.gin.model.rules import resolve_rules

    try:
        resolve_rules(args.rules)
    except ValueError as error:
        raise ValueError(f"--rules: {error}") from None
    check_players(args)
    if args.agent is not None:
        command = args.agent.split()
        if not command or shutil.which(command[0]) is None:
            raise ValueError(f"--agent {args.agent!r}: no such program")
    for entry in args.extra_classpath:
        for part in entry.split(os.pathsep):
            check_classpath_entry(Path(part))
    if args.out.is_dir():
        raise ValueError(f"--out {args.out} is a folder: give the CSV's file name")


def check_players(args: argparse.Namespace) -> None:
    """Raise ValueError for a player that is no Java class name or an ``analyzer:SPEC``
    the analyzer does not know (before the JVM starts the agent, which would fail only at
    its first question)."""
    from analyzer.gin.play.players import parse_player

    for name in ("player_a", "player_b"):
        spec = getattr(args, name)
        option = f"--{name.replace('_', '-')}"
        if spec.startswith("analyzer:"):
            if any(c.isspace() for c in spec):  # the agent's command line is split at spaces
                raise ValueError(f"{option} {spec!r}: analyzer:SPEC without spaces")
            try:
                parse_player(spec.removeprefix("analyzer:"))
            except ValueError as error:
                raise ValueError(f"{option} {spec}: {error}") from None
        elif not _CLASS_NAME.fullmatch(spec):
            raise ValueError(f"{option} {spec!r}: give a Java class name or analyzer:SPEC")


def check_classpath_entry(path: Path) -> None:
    """An ``--extra-classpath`` entry: a folder, a jar, or ``folder/*`` (every jar in it)."""
    if path.name == "*":
        if not path.parent.is_dir():
            raise ValueError(f"--extra-classpath {path}: {path.parent} is not a folder")
    elif not path.exists():
        raise ValueError(f"--extra-classpath {path} does not exist")
    elif not path.is_dir():
        _jar_names(path, "--extra-classpath")


def _names(rows_path: Path) -> tuple[str, str]:
    """The players' names from the summary beside a match CSV (A and B without one)."""
    meta = rows_path.with_suffix(".json")
    if not meta.exists():
        return "A", "B"
    try:
        with meta.open(encoding="utf-8") as stream:
            summary = load_json(read_text(stream, what=str(meta)), str(meta))
    except OSError as error:
        raise ValueError(f"{meta}: {error.strerror or error}") from None
    players = summary.get("players", {}) if isinstance(summary, dict) else None
    names = (players.get("a", "A"), players.get("b", "B")) if isinstance(players, dict) else ()
    if len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise ValueError(f"{meta}: its players are not two names")
    return names[0], names[1]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.summary is not None:
            try:
                rows, names = read_rows(args.summary), _names(args.summary)
            except ValueError as error:  # its text starts with the file's name
                raise ValueError(f"--summary {error}") from None
            print(format_summary(summarize(rows, names)))
            return 0
        if shutil.which(args.java) is None:
            raise ValueError(
                f"--java {args.java} not found: the match needs a JDK (javac and java)"
            )
        framework = locate_framework(args.framework)
        classpath = build(framework, args.build_dir, args.javac)
        args.out = args.out.resolve()
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"--out {args.out}: {error.strerror or error}") from None
    except (OSError, ValueError) as error:  # an OSError names its file
        print(f"Error: {error}", file=sys.stderr)
        return 2
    command = java_command(args, classpath, framework.package, args.out)
    result = subprocess.run(command, cwd=ROOT, check=False)
    if result.returncode != 0:
        print(f"Error: the match stopped (java exited with {result.returncode})", file=sys.stderr)
        return 1
    try:
        summary = summarize(read_rows(args.out), (args.player_a, args.player_b))
        summary["command"] = {
            "pairs": args.pairs,
            "seed": args.seed,
            "rules": args.rules,
            "agent_seed": args.agent_seed,
            "argv": [
                "python",
                "scripts/eaai/match.py",
                *(argv if argv is not None else sys.argv[1:]),
            ],
        }
        args.out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    except (OSError, ValueError) as error:
        print(f"Error: the match's output: {error}", file=sys.stderr)
        return 1
    print(format_summary(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
