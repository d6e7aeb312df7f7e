"""The test harnesses' shared base: calling a game engine's njit functions from a test by
parameter name, the seats' presets loaded as play_chunk loads them (seat_presets), and the end of
a hand-played game tested as the engine tests it (game_over).

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


def seat_presets(rows: np.ndarray, presets: np.ndarray, index: dict[str, int], strategies, players: int,
                 default: str = "random") -> list[str]:
    """Each seat's preset written into its row of `rows` (F[1:], the seats' weights) as play_chunk
    loads it: `strategies` one name for every seat or one per seat, `default` for every seat when
    None. Returns the seats' preset names."""
    if strategies is None:
        strategies = [default] * players
    elif isinstance(strategies, str):
        strategies = [strategies] * players
    for s, name in enumerate(strategies):
        rows[s, : presets.shape[1]] = presets[index[name]]
    return list(strategies)


def game_over(t, S) -> bool:
    """After a round of a hand-played game (a harness's play_game): the engine's own test of the end
    (simkit.core.kernels.game_over: its end triggered, or the round cap reached and made the end
    reason), on the table `t` and the game's state module S."""
    from simkit.core.kernels import game_over as over

    return bool(over(t.T, np.int64(S.ST), np.int64(S.END_REASON), np.int64(S.ROUND), np.int64(t.P.round_cap),
                     np.int64(S.END_ROUND_CAP)))
