"""The ``analyzer agent`` protocol: whole games through agent processes, and the Java
adapter compiled against a stand-in of the framework's interface."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from analyzer.gin.model.policies import PRESETS as POLICIES
from analyzer.gin.model.rules import PRESETS
from analyzer.interop.eaai import AgentSession

from .eaai_driver import AgentProcess, play_game

STAND_IN = Path(__file__).parent / "java"


def test_whole_games_through_agent_processes():
    players = [AgentProcess("basic", seed=1), AgentProcess("simple", seed=2)]
    try:
        rng = random.Random(5)
        games = [play_game(players, rng) for _ in range(4)]
    finally:
        for player in players:
            player.close()
    for game in games:
        assert max(game["scores"]) >= 100
        assert set(game["outcomes"]) <= {"knock", "gin", "undercut", "cancelled"}


def test_session_answers_errors_without_stopping():
    session = AgentSession(POLICIES["basic"], PRESETS["eaai"])
    assert "error" in session.handle({"type": "nonsense"})
    assert "error" in session.handle({"type": "startGame", "player": 0})
    reply = session.handle(
        {
            "type": "startGame",
            "player": 0,
            "starting": 0,
            "cards": ["AC", "2C", "3C", "4D", "5H", "6S", "9D", "TH", "JS", "QC"],
        }
    )
    assert reply is None  # reports get no reply
    assert session.handle({"type": "willDrawFaceUpCard", "card": "4C"}) == {"draw": True}


@pytest.mark.skipif(
    shutil.which("javac") is None or shutil.which("java") is None,
    reason="javac/java not found: the Java adapter test needs a JDK",
)
def test_java_adapter_plays_a_hand(tmp_path):
    adapter = resources.files("analyzer.interop") / "java" / "AnalyzerPlayer.java"
    sources = [str(adapter), *(str(p) for p in sorted(STAND_IN.rglob("*.java")))]
    subprocess.run(["javac", "-d", str(tmp_path), *sources], check=True, timeout=120)
    command = f"{sys.executable} -m analyzer agent --policy basic --rules eaai"
    result = subprocess.run(
        ["java", "-cp", str(tmp_path), f"-Danalyzer.agent={command}", "ginrummy.OneHand", "7"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "hand over:" in result.stdout, result.stdout
