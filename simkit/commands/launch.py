"""The `simkit` command's first step, before anything heavy is imported (docs/faults.md).

A process whose address space is capped (`ulimit -v`, RLIMIT_AS) below what numba's compiler,
the numeric libraries and the tables need fails in ways Python cannot turn into a message: an
allocation failure inside polars' native code or OpenBLAS aborts the process (exit 134, or exit 1
with a line from the library), a shared library that cannot be mapped is a bare ImportError. So
the command refuses such a cap up front with one line, and any memory failure the interpreter does
see (a MemoryError, a library that could not be mapped) is one line too.
"""

from __future__ import annotations

import errno
import resource
import sys

GIB = 2**30
# the smallest cap the command accepts. Measured (VmPeak, 2 cores): a 3-player Set Sail sweep of
# 4,000 games with its report peaks at 1.8 GiB and dies between 1.6 and 1.9 GiB (an ImportError, a
# SystemError, a polars abort); the default sweep's workers peak at 1.5 GiB, its main process
# reserves up to 10.5 GiB, most of it never touched. Above the floor a sweep too large for its cap
# still stops on a MemoryError with one line, or, inside native code, aborts (docs/faults.md).
MIN_ADDRESS_SPACE = 5 * GIB // 2
HELP = ("--help", "-h")
LIGHT = ("games", "rules", "strategies")  # list what is installed; they load numba but compile nothing


def address_space_limit() -> int | None:
    """The process's soft cap on its address space in bytes, or None when there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def refusal(limit: int | None, argv: list[str]) -> str | None:
    """The error line for a cap too small to run `argv` in, or None. Help text and the listing commands
    need no compiler: they run under any cap, and one that is too small even for them is one line
    from main."""
    if limit is None or limit >= MIN_ADDRESS_SPACE or not argv or any(a in HELP for a in argv):
        return None
    if next((a for a in argv if not a.startswith("-")), None) in LIGHT:
        return None
    return (f"the address space of this process is capped at {limit / GIB:.2f} GiB (ulimit -v), below the "
            f"{MIN_ADDRESS_SPACE / GIB:.1f} GiB simkit needs for numba's compiler, its workers and the tables; nothing "
            f"was run; hint: raise the cap (ulimit -v unlimited, or at least ulimit -v {MIN_ADDRESS_SPACE // 1024})")


def out_of_memory(error: BaseException, limit: int | None) -> bool:
    """Whether `error` is the interpreter's view of memory running out: a MemoryError, ENOMEM, or a
    shared library that could not be loaded while the address space is capped."""
    if isinstance(error, MemoryError) or getattr(error, "errno", None) == errno.ENOMEM:
        return True
    text = str(error)
    if "Cannot allocate memory" in text or "failed to map segment" in text:
        return True
    return limit is not None and isinstance(error, (ImportError, OSError)) and "shared object" in text


def main() -> None:
    limit = address_space_limit()
    line = refusal(limit, sys.argv[1:])
    if line is not None:
        print(f"error: {line}", file=sys.stderr)
        sys.exit(2)
    try:
        from simkit.commands.cli import main as run

        run()
    except (ImportError, OSError, MemoryError) as e:  # loading numba, numpy, polars or matplotlib
        if not out_of_memory(e, limit):
            raise
        cap = f" under the cap of {limit / GIB:.2f} GiB (ulimit -v)" if limit is not None else ""
        print(f"error: out of memory while loading simkit's libraries{cap}; hint: raise the cap or free memory",
              file=sys.stderr)
        sys.exit(2)
