"""Calling a game engine's njit functions from a test by parameter name (both harnesses).

A hand-built position holds the engine's tables as attributes named like the engine's
parameters (P, T, K, F, rng, buf, log, ...); a test passes only what it changes.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np


def engine_arg(value):
    """Python ints as int64 (the engines pass int64 everywhere; no extra compiles)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return np.int64(value)
    return value


@functools.cache
def parameters(fn) -> tuple[str, ...]:
    return tuple(inspect.signature(getattr(fn, "py_func", fn)).parameters)  # plain functions without the JIT


def call_by_name(fn, holder, kwargs: dict, special: dict | None = None):
    """fn(...) with kwargs, every other argument taken from `special` (name -> value) or
    from `holder`'s attribute of the same name."""
    args = []
    for p in parameters(fn):
        if p in kwargs:
            args.append(engine_arg(kwargs[p]))
        elif special is not None and p in special:
            args.append(special[p])
        elif hasattr(holder, p):
            args.append(getattr(holder, p))
        else:
            raise TypeError(f"{fn.__name__}: no value for argument {p!r}")
    return fn(*args)
