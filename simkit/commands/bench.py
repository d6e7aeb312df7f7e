"""`simkit bench`: throughput per game on one core, and what numba buys (docs/performance.md).

Per game, at its standard rules: the first call's time (a compile, or a load from numba's
on-disk cache), games/s and player-turns/s for the default preset and for `random` (the
fastest of a few timed runs of the same games), and
the speed-up over the very same engine run as plain Python (NUMBA_DISABLE_JIT=1). The
plain-Python run happens in a subprocess (the switch is read when numba is imported), on
the same seeds, for a time budget; its games must match the compiled ones bit for bit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simkit import games as registry
from simkit.core.errors import InputError, unknown
from simkit.core.game import TURNS
from simkit.core.rng import game_seeds
from simkit.sweeps import spec as specs
from simkit.sweeps.runner import compiled, play, seat_strategies

ROOT_SEED = 0
REPEATS = 3  # timed repeats of the compiled games; the fastest counts
JIT_SECONDS = 2.0  # time per preset of the compiled run, unless a number of games is given
NOJIT_SECONDS = 2.0  # time per preset of the plain-Python run


def _cell(game_id: str, players: int | None, preset: str) -> specs.Cell:
    game = registry.get(game_id)
    players = players or max(game.players)
    return specs.load(game=game_id, players=players, strategies=preset, games=1, balanced=False).cells[0]


def _play_range(cell: specs.Cell, start: int, stop: int):
    game = registry.get(cell.game)
    strategies = seat_strategies(game, cell.lineup, cell.players, start, stop - start, cell.bots)
    out_games, out_seats, _ = play(game, compiled(cell)[0], strategies, game_seeds(np.uint64(ROOT_SEED), start, stop),
                                   lineup=cell.lineup, bots=cell.bots)
    return out_games, out_seats


def _play_for(cell: specs.Cell, games: int | None, budget: float):
    """Play games 0, 1, ... in doubling batches until `games` are played or `budget` seconds spent.

    Returns (games played, seconds, out_games, out_seats); the same in both processes, so
    the plain-Python games are a prefix of the compiled ones.
    """
    parts, done, spent, batch = [], 0, 0.0, 1
    while (games is None or done < games) and spent < budget:
        stop = done + batch if games is None else min(done + batch, games)
        began = time.perf_counter()
        parts.append(_play_range(cell, done, stop))
        spent += time.perf_counter() - began
        done, batch = stop, batch * 2
    return done, spent, np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _best_time(cell: specs.Cell, n: int, repeats: int = REPEATS) -> float:
    """The fastest of `repeats` timings of games 0..n-1 in one batch. A shared machine only
    ever slows a run down, so the minimum is the least noisy estimate of the engine's speed."""
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        _play_range(cell, 0, n)
        best = min(best, time.perf_counter() - began)
    return best


def _first_call(cell: specs.Cell) -> tuple[float, str]:
    """Seconds of the first engine call in this process, and whether numba compiled or loaded it.
    The entries are Python functions that call a jitted game loop, so what happened is read
    from numba's compile events (none: loaded from the cache)."""
    from numba import config
    from numba.core.event import install_recorder

    began = time.perf_counter()
    with install_recorder("numba:compile") as recorder:
        _play_range(cell, 0, 2)
    seconds = time.perf_counter() - began
    if config.DISABLE_JIT:
        return seconds, "not jitted"
    return seconds, "compile" if recorder.buffer else "cache load"


def _nojit(cell: specs.Cell, games: int, budget: float) -> tuple[int, float, np.ndarray, np.ndarray]:
    """`_play_for` with the engine as plain Python, in a subprocess."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "nojit.npz"
        # a separate cache folder: the cache keys on source and types, not on the jit switch
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        args = [sys.executable, "-m", "simkit.commands.bench", json.dumps(cell.to_dict()), str(games), str(budget), str(out)]
        done = subprocess.run(args, check=False, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the NUMBA_DISABLE_JIT=1 run of {cell.game} failed:\n{done.stderr}")
        data = np.load(out)
        return int(data["games"]), float(data["seconds"]), data["out_games"], data["out_seats"]


def _nojit_main(cell_json: str, games: str, budget: str, out: str) -> None:
    """The subprocess side of `_nojit`."""
    played, seconds, out_games, out_seats = _play_for(specs.Cell.from_dict(json.loads(cell_json)), int(games),
                                                      float(budget))
    np.savez(out, games=played, seconds=seconds, out_games=out_games, out_seats=out_seats)


def bench(game_ids: list[str] | None = None, games: int | None = None, players: int | None = None,
          seconds: float = JIT_SECONDS, nojit_seconds: float = NOJIT_SECONDS,
          presets: list[str] | None = None) -> list[dict]:
    """One row per game and preset (default, then random; or `presets`, each game's that it
    has, e.g. a tuned preset beside the one it was tuned from); see the module docstring.

    games: play exactly this many compiled games; default: as many as `seconds` allows.
    """
    if games is not None and games < 1:
        raise InputError(f"--games must be >= 1, got {games}")
    ids = game_ids or registry.ids()
    if presets:
        known = {name for game_id in ids for name in registry.get(game_id).preset_names()}
        for name in presets:
            if name not in known:
                raise unknown("preset", name, sorted(known), "--presets")
    rows = []
    for game_id in ids:
        game = registry.get(game_id)
        first = None
        wanted = [p for p in presets if p in game.preset_names()] if presets else [game.default_strategy, "random"]
        for preset in dict.fromkeys(wanted):
            cell = _cell(game_id, players, preset)
            if first is None:
                first = _first_call(cell)
            n, spent, out_games, out_seats = _play_for(cell, games, float("inf") if games else seconds)
            spent = min(spent, _best_time(cell, n))
            k, nojit_spent, nojit_games, nojit_seats = _nojit(cell, n, nojit_seconds)
            rows.append({
                "game": game_id, "players": cell.players, "preset": preset,
                "first_call_seconds": first[0], "first_call": first[1],
                "games": n, "games_per_second": n / spent,
                "turns_per_second": float(out_games[:, TURNS].sum()) / spent,
                "nojit_games": k, "nojit_games_per_second": k / nojit_spent,
                "speedup": (n / spent) / (k / nojit_spent),
                "identical": bool(np.array_equal(out_games[:k], nojit_games)
                                  and np.array_equal(out_seats[:k], nojit_seats)),
            })
    return rows


def _compile_events(records: list) -> list[dict]:
    """Per jitted function, from numba's `numba:compile` events (numba.core.event): how many
    specialisations were compiled, the seconds of their compiles including the functions they
    compiled in turn (inclusive), and without them (self). Events nest: a function's compile
    starts its callees' compiles."""
    rows: dict[str, dict] = {}
    stack: list[list] = []  # [name, began, seconds spent in nested compiles]
    for stamp, event in records:
        dispatcher = event.data["dispatcher"]
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        if event.is_start:
            stack.append([name, stamp, 0.0])
            continue
        started_name, began, nested = stack.pop()
        inclusive = stamp - began
        if stack:
            stack[-1][2] += inclusive
        row = rows.setdefault(started_name, {"function": started_name, "compiles": 0, "inclusive_seconds": 0.0,
                                             "self_seconds": 0.0})
        row["compiles"] += 1
        row["inclusive_seconds"] += inclusive
        row["self_seconds"] += inclusive - nested
    return sorted(rows.values(), key=lambda r: -r["self_seconds"])


def _compile_main(cell_json: str, out: str) -> None:
    """The subprocess side of `compile_breakdown`: the first engine call, recorded."""
    from numba.core.event import install_recorder

    cell = specs.Cell.from_dict(json.loads(cell_json))
    began = time.perf_counter()
    with install_recorder("numba:compile") as recorder:
        _play_range(cell, 0, 2)
    seconds = time.perf_counter() - began
    Path(out).write_text(json.dumps({"seconds": seconds, "functions": _compile_events(recorder.buffer)}))


def compile_breakdown(game_id: str, players: int | None = None, preset: str | None = None) -> dict:
    """Where a cold compile of a game's engine goes: the first call's seconds and, per jitted
    function, its compiles and their seconds (see `_compile_events`). Runs in a subprocess
    with an empty numba cache of its own, so nothing is loaded from, or written to, the
    project's cache."""
    game = registry.get(game_id)
    cell = _cell(game_id, players, preset or game.default_strategy)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "compile.json"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        env.pop("NUMBA_DISABLE_JIT", None)
        args = [sys.executable, "-m", "simkit.commands.bench", "compile", json.dumps(cell.to_dict()), str(out)]
        done = subprocess.run(args, check=False, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the cold compile of {game_id} failed:\n{done.stderr}")
        data = json.loads(out.read_text())
    return {"game": game_id, "players": cell.players, "preset": cell.lineup[0], **data}


if __name__ == "__main__":
    if sys.argv[1] == "compile":
        _compile_main(*sys.argv[2:])
    else:
        _nojit_main(*sys.argv[1:])
