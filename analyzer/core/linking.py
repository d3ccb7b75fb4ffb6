"""How numba compiles the kernels: the engine optimised once, not once per caller.

Numba compiles each ``@njit`` function into a code library of its own and, when a
kernel calls another, links the callee's library (with everything that library linked)
into the caller's, then optimises and compiles the whole again.  LLVM's optimisation
and machine code are most of a kernel's compile, so a kernel five calls above the engine
optimised the engine five times, and each kernel that plays hands (simulate, games, the
knock chart, the advisor's rollouts) optimised it once more (BENCHMARKS.md, "First
use").  Three changes, made here for every kernel of the process:

* **Compiled once.**  A function decorated with :func:`compiled_once` is linked by
  symbol: its library is optimised and compiled once per process, and each caller
  declares it and calls that machine code, as a C program calls a function of another
  object file.  The price is the call itself (no inlining across it, no constants
  propagated into it): nothing measurable for a function that does a move's or a
  decision's work (BENCHMARKS.md); small helpers on hot loops stay linked and inlined
  as numba does.  The same code runs, so results are the same bit for bit.
* **No C-callable wrapper.**  Numba gives every function a wrapper callable from C (for
  ``cfunc`` and first-class function values, which the analyzer does not use) and
  optimises and compiles it with the function; it is not made (``no_cfunc_wrapper``).
* **Python's wrapper unoptimised.**  The wrapper that converts Python's arguments runs
  once per call from Python, never on a kernel's hot path; it is compiled without
  LLVM's optimisation (``optnone``), which costs microseconds per call from Python.

Numba's cache (``cache=True``) saves a caller's machine code, which now calls code it
does not contain: each cached library carries the machine code of the libraries it
calls by symbol (its *parts*), and loading it loads first the parts this process has
not loaded.  A cache entry is thus self-contained, as numba's own are.

This works on numba's code-library internals (``numba.core.codegen``): :func:`install`
checks that they are as expected, and otherwise leaves numba as it is (every kernel
still works and gives the same results, compiling as slowly as before).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numba.core import codegen as _codegen
from numba.core import compiler as _compiler
from numba.core.environment import lookup_environment
from numba.core.itanium_mangler import mangle_identifier
from numba.core.registry import cpu_target

F = TypeVar("F", bound=Callable[..., Any])

#: Mangled-name stems (``_ZN8analyzer...B``) of the compiled-once functions.
_STEMS: set[str] = set()

#: How a library with parts is serialized for numba's cache.
_KIND = "object+parts"

_ENV_PREFIX = "_ZN08NumbaEnv"
_PYTHON_WRAPPER_PREFIX = "_ZN7cpython"
_OWN_PREFIX = "_ZN8analyzer"
#: The data pointers (member 4 of numba's array struct) of the arrays no kernel writes
#: while it runs: the rules, the policy rows.
_READ_ONLY_DATA = {f"arg.{name}.4" for name in ("rules", "policies", "policy", "model")}

Part = tuple[str, bytes, tuple[str, ...], tuple[Any, ...]]
"""A compiled-once library as cached with its callers: its name, its machine code (an
object file), the symbols it defines (its function and that function's wrapper) and the
numba environments its code reads."""

#: Parts loaded from the cache in this process (kept with their code).
_LOADED: list[Any] = []


def _stem(function: Callable[..., Any]) -> str:
    """The start of the mangled name numba gives each compiled signature of
    ``function`` (its Python wrapper's name contains it after a prefix of its own)."""
    mangled = str(mangle_identifier(f"{function.__module__}.{function.__qualname__}", uid=0))
    return "_Z" + mangled[: mangled.rindex("B2v0")] + "B"


class _Library(_codegen.JITCodeLibrary):
    """numba's JIT code library, linking compiled-once libraries by symbol and leaving
    Python's wrapper unoptimised (see the module notes)."""

    def __init__(self, codegen: Any, name: str) -> None:
        super().__init__(codegen, name)
        #: the stem of the compiled-once function this library defines, if any
        self.stems: tuple[str, ...] = ()
        #: the compiled-once libraries this one calls, directly or through a library it
        #: links, each after the parts it calls itself (the order they load in)
        self.parts: dict[tuple[str, ...], Part] = {}
        self._part: Part | None = None
        self._object_copy: bytes | None = None

    def add_ir_module(self, ir_module: Any) -> None:
        for function in ir_module.functions:
            if function.is_declaration:
                continue
            if function.name.startswith(_PYTHON_WRAPPER_PREFIX):
                function.attributes.add("noinline")  # optnone requires it
                function.attributes.add("optnone")
            elif function.name.startswith(_OWN_PREFIX):
                for argument in function.args:
                    if argument.name in _READ_ONLY_DATA:
                        argument.add_attribute("noalias")
        super().add_ir_module(ir_module)

    def finalize(self) -> None:
        stems = tuple(_STEMS)
        self.stems = tuple(
            {
                stem
                for function in self._final_module.functions
                if not function.is_declaration
                for stem in stems
                if function.name.startswith(stem)
            }
        )
        linked = []
        for library in self._linking_libraries:
            self.parts.update(getattr(library, "parts", {}))
            if getattr(library, "stems", ()):
                part = library.part()
                self.parts[part[2]] = part
                self._reload_init.update(library._reload_init)
            else:
                linked.append(library)
        self._linking_libraries = linked
        super().finalize()

    def part(self) -> Part:
        """This compiled-once library as a part of its callers' cache entries."""
        if self._part is None:
            loaded = self._object_copy is not None
            module = self._shared_module if loaded else self._final_module
            inner = tuple(stem[3:] for stem in self.stems)  # the wrapper's name contains it
            symbols = tuple(
                function.name
                for function in module.functions
                if not function.is_declaration and any(s in function.name for s in inner)
            )
            names = [v.name for v in module.global_variables if v.name.startswith(_ENV_PREFIX)]
            environments = [lookup_environment(name) for name in names]
            code = (
                self._object_copy if self._object_copy is not None else self._get_compiled_object()
            )
            self._part = (
                str(self.name),
                code,
                symbols,
                tuple(env for env in environments if env is not None and env.can_cache()),
            )
        return self._part

    def serialize_using_object_code(self) -> tuple[str, str, Any]:
        name, kind, data = super().serialize_using_object_code()
        if not self.parts and not self.stems:
            return name, kind, data
        return name, _KIND, (data, self.stems, tuple(self.parts.values()))

    @classmethod
    def _unserialize(cls, codegen: Any, state: tuple[str, str, Any]) -> Any:
        name, kind, data = state
        if kind != _KIND:  # no compiled-once function in it or called by it
            return super()._unserialize(codegen, state)
        own, stems, parts = data
        for part in parts:
            _load_part(codegen, part)
        library = super()._unserialize(codegen, (name, "object", own))
        library._object_copy = own[0]
        library.stems = stems
        library.parts = {part[2]: part for part in parts}
        return library


def _load_part(codegen: Any, part: Part) -> None:
    """Load a part's machine code unless this process has loaded or compiled it."""
    name, code, symbols, environments = part
    engine = codegen._engine
    if symbols and all(engine.is_symbol_defined(symbol) for symbol in symbols):
        return
    library = codegen.create_library(name)
    library.enable_object_caching()
    library._set_compiled_object(code)
    library._finalize_final_module()
    engine._defined_symbols.update(symbols)
    for environment in environments:
        codegen.set_env(environment.env_name, environment)
    _LOADED.append(library)


def install() -> bool:
    """Compile every kernel of this process as the module notes say; False (numba left
    as it is) when numba's internals are not as expected."""
    codegen = cpu_target.target_context.codegen()
    if codegen._library_class is _Library:
        return True
    option = _compiler.Flags.options.get("no_cfunc_wrapper")
    expected = (
        isinstance(codegen, _codegen.JITCPUCodegen)
        and codegen._library_class is _codegen.JITCodeLibrary
        and hasattr(_codegen.JITCodeLibrary, "_unserialize")
        and hasattr(codegen._engine, "_defined_symbols")
        and option is not None
        and hasattr(option, "_default")
    )
    if not expected:
        return False
    option._default = True
    codegen._library_class = _Library
    return True


def compiled_once(dispatcher: F) -> F:
    """Compile this ``@njit`` function once and have its callers call it (see the module
    notes): for functions that do a move's or a decision's work, not small helpers."""
    _STEMS.add(_stem(dispatcher.py_func))  # type: ignore[attr-defined]
    return dispatcher


INSTALLED = install()

__all__ = ["INSTALLED", "compiled_once", "install"]
