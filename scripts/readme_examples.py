"""Rewrite the example outputs of README.md and docs/*.md with what the commands print today.

Every ```console block of these documents holds one or more ``$ analyzer ...`` commands
(a line ending in ``\\`` continues on the next).  This script runs each command with
this checkout's code (``python -m analyzer``, progress bars off since stderr is not
read), and writes its standard output under it, so the examples cannot drift from the
program.  Run times quoted inside an output (``time: 14.0 s``) are what that run measured,
and differ from run to run: comparing, they are left out.

    python scripts/readme_examples.py                   # count blocks whose output changed
                                                        # (times aside); exit 1 if any
    python scripts/readme_examples.py --write           # rewrite the documents in place
    python scripts/readme_examples.py docs/cli.md       # only the documents named
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
#: The documents whose console blocks are generated: the README, then the pages of docs/.
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
CONSOLE_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)
#: A measured time inside an output: ``time: 3.4 s (58,684 deals/s; ... in 0.6 s)`` lines and
#: ``"elapsed_s": 1.37`` fields, which change from run to run.
MEASURED = re.compile(r"^time:.*$|\"elapsed_s\": [\d.]+", re.MULTILINE)


def compared(output: str) -> str:
    """``output`` with its measured times blanked, as :func:`rewrite` compares it."""
    return MEASURED.sub("<time>", output)


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
        raise ValueError(f"example is not an analyzer command: {command!r}")
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


def rewrite(document: Path, write: bool) -> int:
    """Render every console block of ``document`` (rewriting it with ``write``); the
    number of blocks whose output changed, measured times aside."""
    changed = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal changed
        fresh, timings = render(match.group(1))
        for command, seconds in timings:
            print(f"{seconds:6.1f} s  {command}", file=sys.stderr)
        if compared(fresh) != compared(match.group(1)):
            changed += 1
        return f"```console\n{fresh}```"

    text = document.read_text()
    updated = CONSOLE_BLOCK.sub(replace, text)
    name = document.relative_to(ROOT)
    if not write:
        print(f"{changed} block(s) of {name} differ (times aside)", file=sys.stderr)
    elif updated != text:
        document.write_text(updated)
        print(f"rewrote {changed} block(s) of {name}", file=sys.stderr)
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="rewrite the documents (default: only compare)"
    )
    parser.add_argument(
        "documents",
        nargs="*",
        help="only these documents (default: README.md and every docs/*.md)",
    )
    args = parser.parse_args()
    chosen = [(ROOT / name).resolve() for name in args.documents] or list(DOCUMENTS)
    unknown = [
        name for name, path in zip(args.documents, chosen, strict=False) if path not in DOCUMENTS
    ]
    if unknown:
        parser.error(f"not README.md or a page of docs/: {', '.join(unknown)}")
    changed = sum(rewrite(document, args.write) for document in chosen)
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
