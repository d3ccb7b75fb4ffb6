"""Where a command's first compile goes: CPU seconds by numba stage and by code library.

Runs one ``analyzer`` command in this process, on one numba thread (so that every
compile happens in this thread) and from an empty kernel cache (a fresh temporary
folder), and prints on stderr, after the command's own output:

* the CPU seconds of each compile stage, nested compiles subtracted: numba's type
  inference, its other passes, lowering to LLVM IR, LLVM's function passes, LLVM's
  module passes over each library with what it links, machine code, the cache;
* the libraries whose finalising (linking, module passes, machine code) cost most, with
  the number of functions each defines once linked.

Example (BENCHMARKS.md, "First use: each kernel tree compiled once")::

    python scripts/compile_profile.py advise --hand '3c 4c 5c 2d 3d 4d 6d Ah 2h 3h 5h' \\
        --pile 'Td Ks Jh Ts Kd Tc' --opp-took '8d 9s' --opp-threw 'Tc Jh Ts Ks' \\
        --stock 25 --turn 5 --seed 1
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

#: Libraries listed by their finalising time.
TOP = 25


def main() -> None:
    folder = tempfile.mkdtemp(prefix="compile-profile-")
    os.environ["NUMBA_CACHE_DIR"] = folder
    os.environ["NUMBA_NUM_THREADS"] = "1"
    import llvmlite.binding as llvm
    from numba.core import caching, codegen, compiler_machinery, lowering, typed_passes

    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    stack: list[float] = []
    libraries: list[tuple[float, int, str]] = []

    def timed(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            stack.append(0.0)
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.thread_time() - started
                totals[label] += spent - stack.pop()
                counts[label] += 1
                if stack:
                    stack[-1] += spent

        setattr(owner, name, wrapper)

    timed(compiler_machinery.PassManager, "run", "numba's other passes")
    timed(typed_passes.BaseTypeInference, "run_pass", "type inference")
    timed(typed_passes.NativeLowering, "run_pass", "lowering to LLVM IR")
    timed(lowering.Lower, "create_cpython_wrapper", "Python wrappers")
    timed(codegen.CPUCodeLibrary, "add_ir_module", "LLVM IR text")
    timed(llvm, "parse_assembly", "LLVM IR parsing")
    timed(codegen.CPUCodeLibrary, "_optimize_functions", "LLVM function passes")
    timed(codegen.CPUCodeLibrary, "_optimize_final_module", "LLVM module passes (linked)")
    timed(codegen.JitEngine, "finalize_object", "machine code")
    timed(codegen.CPUCodeLibrary, "finalize", "linking")
    timed(caching.Cache, "save_overload", "cache writes")
    timed(caching.Cache, "load_overload", "cache reads")

    finalize: Callable[..., None] = codegen.CPUCodeLibrary.finalize

    def finalize_timed(self: Any) -> None:
        started = time.thread_time()
        finalize(self)
        defined = sum(not f.is_declaration for f in self._final_module.functions)
        libraries.append((time.thread_time() - started, defined, str(self.name)))

    codegen.CPUCodeLibrary.finalize = finalize_timed

    from analyzer.cli.main import cli

    try:
        cli.main(sys.argv[1:], prog_name="analyzer")
    except SystemExit:
        pass
    finally:
        spent = sum(totals.values())
        print(
            f"\nprocess CPU {time.process_time():.1f} s, compiling {spent:.1f} s; "
            f"load average {os.getloadavg()[0]:.1f}",
            file=sys.stderr,
        )
        print("| stage | CPU s | calls |\n|---|---:|---:|", file=sys.stderr)
        for label, seconds in sorted(totals.items(), key=lambda item: -item[1]):
            print(f"| {label} | {seconds:.1f} | {counts[label]} |", file=sys.stderr)
        print(
            f"\n{len(libraries)} libraries finalised in "
            f"{sum(t for t, _, _ in libraries):.1f} s; the costliest:",
            file=sys.stderr,
        )
        print("| library | CPU s | functions |\n|---|---:|---:|", file=sys.stderr)
        for seconds, defined, name in sorted(libraries, reverse=True)[:TOP]:
            print(f"| {name} | {seconds:.2f} | {defined} |", file=sys.stderr)


if __name__ == "__main__":
    main()
