"""The EAAI match runner (scripts/eaai/match.py, EaaiMatch.java) and the agent's life over
many games: the summary and its Wilson intervals against hand-computed numbers, the
argument parsing and framework lookup, an agent process serving several games and ending
on quit; the Java path runs when a JDK and a framework copy (EAAI_FRAMEWORK) are there."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from analyzer.core.limits import EAAI_SEED_MAX, MAX_EAAI_PAIRS
from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS
from analyzer.interop.eaai import AgentSession

from .eaai_driver import AgentProcess, play_game

ROOT = Path(__file__).parents[2]
_spec = importlib.util.spec_from_file_location("eaai_match", ROOT / "scripts/eaai/match.py")
assert _spec is not None and _spec.loader is not None
match = importlib.util.module_from_spec(_spec)
sys.modules["eaai_match"] = match
_spec.loader.exec_module(match)

COLUMNS = (
    "game,pair,deck_seed,a_seat,first_starter,winner,forfeit,score_a,score_b,hands,"
    "cancelled,knocks_a,knocks_b,gins_a,gins_b,undercuts_a,undercuts_b,ms_a,ms_b,"
    "questions_a,questions_b,question_ms_a,question_ms_b,max_question_ms_a,"
    "max_question_ms_b,cpu_ms_a,cpu_ms_b"
)
# two mirrored pairs; A wins games 0, 1 and 2; B forfeits nothing
ROWS = (
    "0,0,1000003,0,a,a,,104,40,5,1,3,1,1,0,0,1,50.0,5.0,100,98,40.0,4.0,3.0,1.0,30.0,2.0",
    "1,0,1000003,1,b,a,,110,90,8,0,4,3,0,1,1,0,60.0,6.0,120,118,48.0,4.8,5.0,1.0,20.0,3.0",
    "2,1,1000004,0,b,a,,101,0,2,0,2,0,1,0,0,0,20.0,2.0,40,38,16.0,1.6,2.0,0.5,10.0,1.0",
    "3,1,1000004,1,a,b,,70,100,5,1,1,3,0,1,0,0,50.0,5.0,90,92,36.0,3.6,4.0,2.0,30.0,2.0",
)


def _write(tmp_path: Path, rows: tuple[str, ...] = ROWS) -> Path:
    path = tmp_path / "match.csv"
    path.write_text("\n".join([COLUMNS, *rows]) + "\n")
    return path


def test_wilson_interval_by_hand():
    # 7 of 10, z = 1.96: centre (0.7 + 1.96^2/20) / (1 + 1.96^2/10) = 0.89208 / 1.38416
    # = 0.644492, half 1.96 sqrt(0.021 + 1.96^2/400) / 1.38416 = 0.247719
    share, low, high = match.wilson(7, 10, z=1.96)
    assert share == 0.7
    assert low == pytest.approx(0.396773, abs=1e-6)
    assert high == pytest.approx(0.892211, abs=1e-6)
    assert match.wilson(0, 4)[1] == 0.0 and match.wilson(4, 4)[2] == 1.0
    with pytest.raises(ValueError, match="at least one trial"):
        match.wilson(0, 0)


def test_summary_from_a_hand_written_csv(tmp_path):
    summary = match.summarize(match.read_rows(_write(tmp_path)), ("expert", "simple"))
    assert summary["games"] == 4 and summary["pairs"] == 2 and summary["hands"] == 20
    assert summary["cancelled_per_hand"] == pytest.approx(2 / 20)
    a, b = summary["a"], summary["b"]
    assert a["wins"] == 3 and b["wins"] == 1
    assert a["share"] == pytest.approx(list(match.wilson(3, 4)))
    # who started the first hand: A in games 0 and 3 (won 1), B in games 1 and 2 (A won both)
    assert a["by_first_starter"]["a_started"]["wins"] == 1
    assert a["by_first_starter"]["a_started"]["games"] == 2
    assert a["by_first_starter"]["b_started"]["wins"] == 2
    assert b["by_first_starter"]["a_started"]["wins"] == 1
    assert a["points_per_hand"] == pytest.approx((104 + 110 + 101 + 70) / 20)
    assert b["points_per_game"] == pytest.approx(230 / 4)
    assert a["knocks_per_hand"] == pytest.approx(10 / 20)
    assert a["gins_per_hand"] == pytest.approx(2 / 20)
    assert b["undercuts_per_hand"] == pytest.approx(1 / 20)
    # times per decision and CPU per game leave out the first game (an agent's start-up)
    assert a["ms_per_decision"] == pytest.approx((48 + 16 + 36) / (120 + 40 + 90))
    assert a["max_ms_per_decision"] == 5.0 and b["max_ms_per_decision"] == 2.0
    assert a["max_ms_per_decision_first_game"] == 3.0
    assert a["ms_per_game"] == pytest.approx((60 + 20 + 50) / 3)
    assert a["cpu_ms_first_game"] == 30.0
    assert a["cpu_ms_per_game"] == pytest.approx(20.0)
    assert summary["pairs_split"] == {"a_both": 1, "b_both": 0, "split": 1}
    # the first hand's starter won game 0 only
    assert summary["first_starter_won"]["wins"] == 1
    # pair 0: A won both (difference 0); pair 1: A lost the game it started (game 3) and
    # won the other (game 2): difference -1; mean -0.5, sd 0.7071, half 1.96 * 0.5
    # (the low end, -1.48, is clipped to -1)
    gap = summary["first_start_gap"]
    assert gap[0] == -0.5
    assert gap[1] == -1.0
    assert gap[2] == pytest.approx(-0.5 + match.Z95 * 0.5)
    text = match.format_summary(summary)
    assert "expert" in text and "75.0%" in text and "split 1" in text


def test_summary_without_cpu_or_questions(tmp_path):
    rows = [row.rsplit(",", 2)[0] + ",," for row in ROWS]
    summary = match.summarize(match.read_rows(_write(tmp_path, tuple(rows))))
    assert "cpu_ms_per_game" not in summary["a"]
    assert "-" in match.format_summary(summary)


def test_summary_command_line(tmp_path, capsys):
    path = _write(tmp_path)
    (tmp_path / "match.json").write_text(json.dumps({"players": {"a": "X", "b": "Y"}}))
    assert match.main(["--summary", str(path)]) == 0
    out = capsys.readouterr().out
    assert "X" in out and "Y" in out and "4 games (2 mirrored pairs)" in out


def test_argument_parsing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the extra classpath is given relative to it
    for folder in ("m1", "m2"):
        (tmp_path / folder).mkdir()
    args = match.parse_args(["--framework", str(tmp_path), "--pairs", "3"])
    assert args.player_a == "analyzer:expert"
    assert args.player_b == "ginrummy.SimpleGinRummyPlayer"
    assert args.pairs == 3 and args.seed == 1 and args.rules == "eaai"
    for bad in (
        ["--pairs", "2"],
        ["--framework", "x", "--pairs", "0"],
        ["--framework", "x", "--player-a", "analyzer:"],
        ["--framework", "x", "--seed", "-1"],
    ):
        with pytest.raises(SystemExit):
            match.parse_args(bad)
    args = match.parse_args(
        [
            "--framework",
            "fw",
            "--player-a",
            "analyzer:search,budget=32",
            "--extra-classpath",
            "m1",
            "--extra-classpath",
            "m2",
            "--agent",
            f"{sys.executable} -m analyzer agent",
        ]
    )
    command = match.java_command(args, (Path("built"), Path("fw")), "ginrummy", Path("out.csv"))
    assert command[command.index("-cp") + 1] == os.pathsep.join(
        ["built", "fw", os.path.abspath("m1"), os.path.abspath("m2")]
    )
    assert "ginrummy.EaaiMatch" in command
    assert command[command.index("--a") + 1] == "analyzer:search,budget=32"
    agent = [command[i + 1] for i, part in enumerate(command) if part == "--agent-arg"]
    assert agent == [sys.executable, "-m", "analyzer", "agent"]
    assert match.main_class("") == "EaaiMatch"
    match.check_players(args)
    args.player_b = "analyzer:nonsense"
    with pytest.raises(ValueError, match="--player-b analyzer:nonsense"):
        match.check_players(args)


def test_locating_the_framework(tmp_path):
    sources = tmp_path / "repo" / "src" / "ginrummy"
    sources.mkdir(parents=True)
    (sources / "GinRummyGame.java").write_text("package ginrummy;\npublic class GinRummyGame {}\n")
    (sources / "Card.java").write_text("package ginrummy;\npublic class Card {}\n")
    found = match.locate_framework(tmp_path / "repo")
    assert found.package == "ginrummy" and found.classpath == ()
    assert [p.name for p in found.sources] == ["Card.java", "GinRummyGame.java"]
    classes = tmp_path / "bin" / "ginrummy"
    classes.mkdir(parents=True)
    (classes / "GinRummyGame.class").write_bytes(b"")
    found = match.locate_framework(tmp_path / "bin")
    assert found == match.Framework((tmp_path / "bin",), (), "ginrummy")
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "GinRummyGame.java").write_text("public class GinRummyGame {}\n")
    assert match.locate_framework(flat).package == ""
    jar = tmp_path / "fw.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("ginrummy/GinRummyGame.class", b"")
    assert match.locate_framework(jar) == match.Framework((jar,), (), "ginrummy")
    with pytest.raises(ValueError, match="does not exist"):
        match.locate_framework(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no GinRummyGame"):
        match.locate_framework(empty)
    # our sources are written for package ginrummy; the default package drops the line
    assert "package" not in match._source_for("", "package ginrummy;\nclass X {}\n")


def test_every_committed_match_summarizes(capsys):
    """The checked reader takes every match CSV (and summary) the repository holds."""
    committed = sorted((ROOT / "results" / "interop").glob("eaai_*.csv"))
    assert committed
    for path in committed:
        assert match.main(["--summary", str(path)]) == 0
    assert "mirrored pairs" in capsys.readouterr().out


def _framework_classes(folder: Path, content: bytes = b"v1") -> Path:
    (folder / "ginrummy").mkdir(parents=True)
    (folder / "ginrummy" / "GinRummyGame.class").write_bytes(content)
    return folder


def _not_a_jar(path: Path) -> Path:
    path.write_text("not a zip file\n")
    return path


def _bad_options(tmp: Path) -> list[tuple[list[str], str]]:
    """(options after a good --framework, --out and --build-dir; what the error names)."""
    folder = tmp / "folder"
    folder.mkdir()
    return [
        (["--pairs", "x"], "argument --pairs"),
        (["--pairs", "0"], "--pairs must be"),
        (["--pairs", str(MAX_EAAI_PAIRS + 1)], "--pairs must be"),
        (["--seed", str(EAAI_SEED_MAX + 1)], "--seed must be"),
        (["--agent-seed", "-1"], "--agent-seed must be"),
        (["--agent-seed", str(EAAI_SEED_MAX + 1)], "--agent-seed must be"),
        (["--progress", "-1"], "--progress must be"),
        (["--rules", "nope"], "--rules: unknown rules preset 'nope'"),
        (["--player-b", "not a class"], "--player-b 'not a class'"),
        (["--player-a", "analyzer:expert, knock=gin"], "--player-a"),
        (["--player-a", "analyzer:nonsense"], "--player-a analyzer:nonsense"),
        (["--agent", "/nonexistent/python -m analyzer agent"], "--agent"),
        (["--extra-classpath", str(tmp / "missing")], "--extra-classpath"),
        (["--extra-classpath", str(tmp / "missing" / "*")], "--extra-classpath"),
        (["--extra-classpath", str(_not_a_jar(tmp / "players.jar"))], "--extra-classpath"),
        (["--out", str(folder)], "--out"),
        (["--java", "/nonexistent/java"], "--java"),
        (["--framework", str(_not_a_jar(tmp / "framework.jar"))], "--framework"),
        (["--framework", str(tmp / "missing")], "--framework"),
    ]


def _bad_summaries(tmp: Path) -> list[tuple[Path, str]]:
    """(a damaged --summary CSV, what the error says)."""
    good = _write(tmp).read_text().splitlines()
    cases = {
        "missing": None,
        "empty": "",
        "header_only": good[0],
        "wrong_columns": "game,pair\n0,0",
        "short_row": "\n".join([*good[:2], "0,0,1000003"]),
        "bad_number": "\n".join([good[0], good[1].replace(",104,", ",x,", 1)]),
        "negative": "\n".join([good[0], good[1].replace(",104,", ",-4,", 1)]),
        "no_hands": "\n".join([good[0], good[1].replace(",104,40,5,", ",104,40,0,", 1)]),
        "nan_time": "\n".join([good[0], good[1].replace(",50.0,", ",nan,", 1)]),
        "bad_winner": "\n".join([good[0], good[1].replace(",a,a,,", ",a,c,,", 1)]),
        "long_line": "\n".join([good[0], "9" * 5000]),
    }
    out = []
    for name, text in cases.items():
        path = tmp / f"{name}.csv"
        if text is not None:
            path.write_text(text + "\n")
        out.append((path, str(path)))
    binary = tmp / "binary.csv"
    binary.write_bytes(b"\xff\xfe" + good[0].encode())
    out.append((binary, "not UTF-8"))
    out.append((tmp, "Is a directory"))
    (tmp / "meta").mkdir()
    (tmp / "typed").mkdir()
    with_meta = _write(tmp / "meta")
    with_meta.with_suffix(".json").write_text('{"players": [1, 2]')
    out.append((with_meta, "match.json is not JSON"))
    typed_meta = _write(tmp / "typed")
    typed_meta.with_suffix(".json").write_text('{"players": {"a": 1, "b": "B"}}')
    out.append((typed_meta, "its players are not two names"))
    return out


def _run(argv: list[str]) -> int:
    """``match.main``'s exit status, whether it returns it or exits."""
    try:
        return match.main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def test_every_bad_option_is_one_line_before_anything_runs(tmp_path, monkeypatch, capsys):
    """Each bad option of a match, and each damaged --summary file, is one line naming it
    and exit status 2: no javac, no JVM, no traceback."""

    def no_process(*args, **kwargs):
        raise AssertionError(f"a process started: {args}")

    monkeypatch.setattr(match.subprocess, "run", no_process)
    framework = _framework_classes(tmp_path / "fw")
    base = ["--framework", str(framework), "--out", str(tmp_path / "m.csv")]
    base += ["--build-dir", str(tmp_path / "cache")]
    (tmp_path / "summaries").mkdir()
    cases = [(base + options, named) for options, named in _bad_options(tmp_path)]
    cases += [(["--summary", str(p)], named) for p, named in _bad_summaries(tmp_path / "summaries")]
    for argv, named in cases:
        assert _run(argv) == 2, argv
        captured = capsys.readouterr()
        assert captured.out == "", argv
        assert captured.err.startswith("Error: ") and captured.err.count("\n") == 1, captured.err
        assert named in captured.err, (named, captured.err)


def _fake_javac(folder: Path) -> tuple[Path, Path]:
    """A stand-in for javac that writes the class files' folder (``-d``) with one class,
    logs each call and fails while ``fail`` exists beside it: (program, log)."""
    program, log = folder / "javac", folder / "calls.log"
    program.write_text(
        f"#!{sys.executable}\n"
        "import pathlib, sys\n"
        f"here = pathlib.Path({str(folder)!r})\n"
        "with open(here / 'calls.log', 'a') as log:\n"
        "    log.write(' '.join(sys.argv[1:]) + '\\n')\n"
        "if (here / 'fail').exists():\n"
        "    sys.exit('javac: compile error')\n"
        "out = pathlib.Path(sys.argv[sys.argv.index('-d') + 1])\n"
        "(out / 'EaaiMatch.class').write_bytes(b'compiled')\n"
    )
    program.chmod(0o755)
    return program, log


def test_the_build_cache_is_private_and_keyed_by_what_it_is_built_from(tmp_path, monkeypatch):
    javac, log = _fake_javac(tmp_path)
    framework = match.locate_framework(_framework_classes(tmp_path / "fw"))
    cache = tmp_path / "user" / "cache"
    classes = match.build(framework, cache, str(javac))[0]
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700  # made for this user alone
    assert (classes / "EaaiMatch.class").read_bytes() == b"compiled"
    assert classes.parent.parent == cache and len(log.read_text().splitlines()) == 1
    assert match.build(framework, cache, str(javac))[0] == classes  # built once
    assert len(log.read_text().splitlines()) == 1
    # the framework changed (same paths, same size): a new build, the old one unused
    (tmp_path / "fw" / "ginrummy" / "GinRummyGame.class").write_bytes(b"v2")
    rebuilt = match.build(framework, cache, str(javac))[0]
    assert rebuilt != classes and len(log.read_text().splitlines()) == 2
    # a compile that fails leaves nothing that a later run could take for a build
    (tmp_path / "fw" / "ginrummy" / "GinRummyGame.class").write_bytes(b"v3")
    (tmp_path / "fail").touch()
    before = sorted(cache.iterdir())
    with pytest.raises(ValueError, match="compiling failed"):
        match.build(framework, cache, str(javac))
    assert sorted(cache.iterdir()) == before
    (tmp_path / "fail").unlink()
    assert match.build(framework, cache, str(javac))[0] not in (classes, rebuilt)
    # a folder others may write to, or another user's, is refused before javac runs
    calls = len(log.read_text().splitlines())
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(ValueError, match="writable by others"):
        match.build(framework, shared, str(javac))
    shared.chmod(0o775)
    with pytest.raises(ValueError, match="writable by others"):
        match.build(framework, shared, str(javac))
    monkeypatch.setattr(match.os, "getuid", lambda: cache.stat().st_uid + 1)
    with pytest.raises(ValueError, match="belongs to another user"):
        match.build(framework, cache, str(javac))
    assert len(log.read_text().splitlines()) == calls


def test_a_build_folder_that_others_could_swap_is_refused(tmp_path, monkeypatch, capsys):
    """A private build folder under a folder others may write (not sticky) could be
    renamed away and replaced by another user's between the check and the build's use:
    refused in one line before javac runs.  Under a sticky one (as /tmp) it is safe, and
    the build is used through its resolved path (a symlink to it is followed once)."""
    javac, log = _fake_javac(tmp_path)
    framework = match.locate_framework(_framework_classes(tmp_path / "fw"))
    shared = tmp_path / "shared"
    (shared / "mine").mkdir(parents=True, mode=0o700)
    shared.chmod(0o777)
    for build_dir in (shared / "mine", shared / "mine" / "deeper", shared / "new"):
        with pytest.raises(ValueError, match=f"others may write to {shared} above it"):
            match.build(framework, build_dir, str(javac))
    assert not (shared / "new").exists() and not (shared / "mine" / "deeper").exists()
    link = tmp_path / "link"
    link.symlink_to(shared / "mine")  # a safe name for an unsafe folder
    with pytest.raises(ValueError, match=f"others may write to {shared} above it"):
        match.build(framework, link, str(javac))
    base = ["--framework", str(tmp_path / "fw"), "--out", str(tmp_path / "m.csv")]
    monkeypatch.setattr(match.shutil, "which", lambda program: program)
    assert _run([*base, "--build-dir", str(shared / "mine")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error: --build-dir ") and error.count("\n") == 1
    assert not log.exists()  # javac never ran
    shared.chmod(0o1777)  # sticky: only the owner of "mine" may rename it
    classes = match.build(framework, link, str(javac))[0]
    assert classes.parent.parent == shared / "mine"  # the resolved folder, not the link
    monkeypatch.setattr(match.os, "getuid", lambda: shared.stat().st_uid + 1)
    with pytest.raises(ValueError, match="belongs to another user"):
        match.build(framework, shared / "mine", str(javac))


def test_the_default_build_cache_is_the_users_own(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert match.default_build_dir() == tmp_path / "rummy-analyzer" / "eaai"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert match.default_build_dir() == tmp_path / "home" / ".cache" / "rummy-analyzer" / "eaai"
    args = match.parse_args(["--framework", str(tmp_path)])
    assert args.build_dir == match.default_build_dir()


# ---------------------------------------------------------------------- the agent, many games
class _InProcess:
    """An AgentSession behind the driver's tell/ask interface, recording each hand's view
    of the game score as the hand starts."""

    def __init__(self, policy: str, seed: int) -> None:
        self.session = AgentSession(POLICIES[policy], PRESETS["eaai"], seed)
        self.scores_at_start: list[tuple[int, int]] = []
        self.reported: list[tuple[int, int]] = []

    def tell(self, **message: Any) -> None:
        reply = self.session.handle(message)
        assert reply is None, reply
        if message["type"] == "startGame":
            assert self.session.hand is not None
            self.scores_at_start.append(self.session.hand.scores)
        if message["type"] == "reportScores":
            self.reported.append(tuple(message["scores"]))

    def ask(self, **message: Any) -> dict[str, Any]:
        reply = self.session.handle(message)
        assert reply is not None and "error" not in reply, reply
        return reply


def test_one_session_plays_many_games_and_each_starts_at_zero():
    players = [_InProcess("expert", 1), _InProcess("basic", 2)]
    rng = random.Random(11)
    games = [play_game(players, rng) for _ in range(4)]
    for player in players:
        reported = player.reported
        starts = player.scores_at_start
        assert len(starts) == len(reported) == sum(len(g["outcomes"]) for g in games)
        previous = (0, 0)
        for start, after in zip(starts, reported, strict=True):
            # a hand sees the score before it; a game's first hand sees 0 to 0
            assert start == (previous if max(previous) < 100 else (0, 0))
            previous = after
        assert starts[0] == (0, 0) and sum(s == (0, 0) for s in starts) >= 4


def test_agent_process_serves_several_games_and_quit_ends_it():
    players = [AgentProcess("expert", seed=3), AgentProcess("basic", seed=4)]
    try:
        rng = random.Random(8)
        games = [play_game(players, rng) for _ in range(3)]
        assert all(max(g["scores"]) >= 100 for g in games)
        # quit alone ends the process (its stdin still open)
        first = players[0].process
        assert first.stdin is not None
        first.stdin.write('{"type":"quit"}\n')
        first.stdin.flush()
        assert first.wait(timeout=10) == 0
        # and so does closing its stdin
        second = players[1].process
        assert second.stdin is not None
        second.stdin.close()
        assert second.wait(timeout=10) == 0
    finally:
        for player in players:
            if player.process.poll() is None:
                player.process.kill()
            player.process.wait()
            for pipe in (player.process.stdin, player.process.stdout, player.process.stderr):
                if pipe is not None and not pipe.closed:
                    pipe.close()


def test_search_plays_through_the_agent():
    players = [
        AgentProcess("search,budget=32,rollout=basic", seed=5),
        AgentProcess("basic", seed=6),
    ]
    try:
        game = play_game(players, random.Random(3))
    finally:
        for player in players:
            player.close()
    assert max(game["scores"]) >= 100


# ---------------------------------------------------------------------- the Java path
@pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="javac/java not found: the Java adapter test needs a JDK",
)
def test_java_adapter_close_ends_the_agent(tmp_path):
    stand_in = Path(__file__).parent / "java"
    sources = [
        str(ROOT / "analyzer/interop/java/AnalyzerPlayer.java"),
        *(str(p) for p in sorted(stand_in.rglob("*.java"))),
    ]
    subprocess.run(["javac", "-d", str(tmp_path), *sources], check=True, timeout=120)
    command = f"{sys.executable} -m analyzer agent --policy basic --rules eaai"
    result = subprocess.run(
        ["java", "-cp", str(tmp_path), f"-Danalyzer.agent={command}", "ginrummy.OneHand", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "hand over:" in result.stdout and "agents ended: true" in result.stdout, result.stdout


FRAMEWORK = os.environ.get("EAAI_FRAMEWORK")


@pytest.mark.skipif(
    shutil.which("javac") is None or not FRAMEWORK,
    reason="needs a JDK and a copy of the EAAI framework in EAAI_FRAMEWORK",
)
def test_match_in_the_framework(tmp_path):
    marker = str(900_000 + os.getpid() % 99_999)  # names this test's agent processes
    out = tmp_path / "m.csv"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts/eaai/match.py"),
            "--framework",
            str(FRAMEWORK),
            "--player-a",
            "analyzer:basic",
            "--player-b",
            "ginrummy.SimpleGinRummyPlayer",
            "--pairs",
            "2",
            "--seed",
            "5",
            "--out",
            str(out),
            "--agent-seed",
            marker,
            "--build-dir",
            str(tmp_path / "build"),
            "--progress",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["game"]) for r in rows] == [0, 1, 2, 3]
    assert [r["a_seat"] for r in rows] == ["0", "1", "0", "1"]
    assert rows[0]["deck_seed"] == rows[1]["deck_seed"] != rows[2]["deck_seed"]
    # the mirrored game's first hand is started by the other player
    assert rows[0]["first_starter"] != rows[1]["first_starter"]
    for row in rows:
        assert max(int(row["score_a"]), int(row["score_b"])) >= 100 and not row["forfeit"]
        assert float(row["cpu_ms_a"]) >= 0 and row["cpu_ms_b"] != ""
    summary = json.loads(out.with_suffix(".json").read_text())
    assert summary["games"] == 4 and "won (Wilson 95%)" in result.stdout
    # the agent processes ended with the match
    assert not _processes_naming(marker)


def _processes_naming(marker: str) -> list[str]:
    """Process ids whose command line holds ``marker`` (Linux /proc; [] elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(entry.name)
        except OSError:
            continue  # ended meanwhile, or not ours to read
    return found
