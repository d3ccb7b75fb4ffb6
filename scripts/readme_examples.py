"""Rewrite README.md's example outputs with what the commands print today.

Every ```console block of the README holds one or more ``$ analyzer ...`` commands
(a line ending in ``\\`` continues on the next).  This script runs each command with
this checkout's code (``python -m analyzer``, progress bars off since stderr is not
read), and writes its standard output under it, so the examples cannot drift from the
program.  Run times quoted inside an output (``time: 14.0 s``) are what that run measured.

    python scripts/readme_examples.py            # rewrite README.md in place
    python scripts/readme_examples.py --check    # list blocks whose output changed; exit 1 if any
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def commands_of(block: str) -> list[str]:
    """The ``$ ...`` commands of a console block, continuation lines joined."""
    commands: list[str] = []
    lines = block.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.startswith("$ "):
            continue
        text = line[2:]
        while text.endswith("\\") and index < len(lines):
            text = text[:-1] + "\n" + lines[index]
            index += 1
        commands.append(text)
    return commands


def run(command: str) -> tuple[str, float]:
    """The standard output of ``command`` run from the repository root, and its wall time
    (seconds)."""
    words = shlex.split(command.replace("\\\n", " ").replace("\n", " "))
    if words[0] != "analyzer":
        raise ValueError(f"README example is not an analyzer command: {command!r}")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", *words[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command!r} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout, time.perf_counter() - started


def render(block: str) -> tuple[str, list[tuple[str, float]]]:
    """The block with each command followed by its fresh output, and the timings."""
    parts, timings = [], []
    for command in commands_of(block):
        output, seconds = run(command)
        timings.append((command.splitlines()[0], seconds))
        shown = "\\\n".join(command.split("\n"))
        parts.append(f"$ {shown}\n{output}")
    return "".join(parts), timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="only report blocks whose output changed"
    )
    args = parser.parse_args()
    text = README.read_text()
    changed = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal changed
        fresh, timings = render(match.group(1))
        for command, seconds in timings:
            print(f"{seconds:6.1f} s  {command}", file=sys.stderr)
        if fresh != match.group(1):
            changed += 1
        return f"```console\n{fresh}```"

    updated = CONSOLE_BLOCK.sub(replace, text)
    if args.check:
        print(f"{changed} block(s) differ from the README", file=sys.stderr)
        return 1 if changed else 0
    README.write_text(updated)
    print(f"rewrote {changed} block(s) of {README.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
