"""Time ``analyzer serve``: start-up to the first answered request, and advisor requests.

Starts the server as a user does (a subprocess), measures the wall time until ``/``
answers, then times advisor requests for a typical knock decision (the README's advise
example) with the default opponent and the default time budget, and a practice game's
first moves.  Run it twice: the first run may fill the JIT cache (the bars are for a
warm cache).

    python scripts/serve_timing.py [--requests 5] [--port 8765]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KNOCK_DECISION = {
    "hand": "3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h",
    "pile": "Td Ks Jh Ts Kd Tc",
    "opp_took": "8d 9s",
    "opp_threw": "Tc Jh Ts Ks",
    "stock": 25,
    "turn": 5,
    "upcard": "5c",
}


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, s) a process has used so far (Linux; else None): on a
    loaded machine it shows what the wall time would be on an idle one."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(url: str, body: dict[str, object]) -> tuple[float, dict[str, object]]:
    """(seconds, JSON answer) of one POST."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        data = json.loads(response.read())
    return time.perf_counter() - started, data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    url = f"http://127.0.0.1:{args.port}"
    started = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", "--port", str(args.port)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    try:
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=5).read()
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit("the server exited") from None
                time.sleep(0.02)
        start_s = time.perf_counter() - started
        start_cpu_s = cpu_seconds(server.pid)
        times, samples = [], []
        for _ in range(args.requests + 1):  # the first also waits for the warm-up
            seconds, advice = post(url + "/api/advise", {"position": KNOCK_DECISION})
            times.append(seconds)
            samples.append(advice["samples"])
        opponent = advice["settings"]["opponent"]  # type: ignore[index]
        game_s, game = post(url + "/api/games", {"seed": 1})
        move_s, _ = post(
            url + f"/api/games/{game['id']}/move",
            {"move": "pass" if "pass" in game["legal"] else "stock"},
        )  # type: ignore[operator]
        print(
            json.dumps(
                {
                    "start_s": round(start_s, 3),
                    "start_cpu_s": start_cpu_s,
                    "opponent": opponent,
                    "first_advice_s": round(times[0], 3),
                    "advice_s": [round(t, 3) for t in times[1:]],
                    "advice_samples": samples[1:],
                    "new_game_s": round(game_s, 3),
                    "move_s": round(move_s, 3),
                    "load_average": os.getloadavg(),
                },
                indent=1,
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
