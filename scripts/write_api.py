"""Write the typed signatures of the notebook's study functions (analyzer/api/functions.pyi)
from the studies' declarations, formatted as the project formats its code.

    python scripts/write_api.py            # write the file
    python scripts/write_api.py --check    # exit 1 if the file is not in step
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from analyzer.api.study_functions import stub_source

TARGET = Path(__file__).resolve().parent.parent / "analyzer" / "api" / "functions.pyi"


def formatted() -> str:
    """The generated source, through ``ruff format`` (as the committed file is)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"],
        input=stub_source(),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare")
    args = parser.parse_args()
    source = formatted()
    if args.check:
        same = TARGET.read_text() == source
        print(f"{TARGET.name} is {'in step' if same else 'out of step: run scripts/write_api.py'}")
        return 0 if same else 1
    TARGET.write_text(source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
