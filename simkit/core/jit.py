"""The one decorator every jitted function of simkit and its policies goes through.

`@jit` is numba's `njit` with numba's cache on (`cache=False` for a test's throwaway
function); `inline="always"` inlines it into its callers; `runtime=False` compiles it without
numba's runtime, so it takes no reference counts (simkit.core.kernels, "No runtime where nothing is
allocated"): it must allocate nothing and call nothing that does. That option is numba's
private `_nrt`, so it is passed only while simkit.core.numba_patches is on; off, every function
keeps the runtime and computes the same. `@engine_loop` marks a game's loop, called only from
Python, for the patches to optimise its module whole.

Importing this module applies simkit.core.numba_patches (where they are on) before anything is
compiled.
"""

from __future__ import annotations

from numba import njit

from simkit.core import numba_patches
from simkit.core.numba_patches import engine_loop

__all__ = ["engine_loop", "jit"]


def jit(fn=None, *, cache: bool = True, inline: str = "never", runtime: bool = True):
    """numba's njit with simkit's options (module doc); `@jit` or `@jit(...)`."""
    options = {"cache": cache}
    if inline != "never":
        options["inline"] = inline
    if not runtime and numba_patches.ENABLED:
        options["_nrt"] = False
    compile_ = njit(**options)
    return compile_(fn) if fn is not None else compile_
