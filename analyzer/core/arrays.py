"""Short names for the typed numpy arrays the kernels pass around (annotations only:
numba reads the values, not these hints).

Every kernel module imports this one, so importing it also sets how numba compiles the
kernels (:mod:`analyzer.core.linking`) before any of them compiles.
"""

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from . import linking as _linking  # noqa: F401  (installs it)

Int64s: TypeAlias = npt.NDArray[np.int64]
UInt64s: TypeAlias = npt.NDArray[np.uint64]
Float64s: TypeAlias = npt.NDArray[np.float64]
Int8s: TypeAlias = npt.NDArray[np.int8]
Bools: TypeAlias = npt.NDArray[np.bool_]
