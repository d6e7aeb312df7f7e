"""Whole recorded games shared by every game's conformance tests: the same games played
with and without the JIT, and golden replays (a narrated log checked into the repository).

A golden file changes only with a deliberate engine, component or bot change; regenerate it
with REGEN_GOLDEN=1 and review the diff:
    REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/games -k golden
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from simkit.core.rng import game_seeds
from simkit.games import get as get_game
from simkit.sweeps.runner import play, seat_strategies

ROOT = Path(__file__).resolve().parents[2]
LOG_ROWS = 20000

NOJIT_SCRIPT = """
import json, sys
sys.path.insert(0, "tests/games")
from replays import played
print(json.dumps([played(sys.argv[1], *case) for case in json.loads(sys.argv[2])]))
"""


def played(game_id: str, variant: str, players: int, lineup: list[str]) -> list:
    """Two games (root seed 7) of this cell: games, seats and log tables as lists."""
    game = get_game(game_id)
    strategies = seat_strategies(game, tuple(lineup), players, 0, 2)
    compiled = game.compile(game.rules.resolve(variant, {}), players)
    return [a.tolist() for a in play(game, compiled, strategies, game_seeds(np.uint64(7), 0, 2), LOG_ROWS)]


def assert_same_without_jit(game_id: str, cases: list, tmp_path: Path):
    """NUMBA_DISABLE_JIT=1 (plain Python) plays bit-for-bit the games the JIT plays
    (docs/architecture.md, "Seeds and reproducibility")."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", NOJIT_SCRIPT, game_id, json.dumps(cases)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    for case, plain in zip(cases, json.loads(run.stdout), strict=True):
        assert played(game_id, *case) == plain, case


def assert_golden(game_id: str, path: Path, variant: str, lineup: tuple[str, ...], seed: int = 2024):
    """The narrated log of one fixed game equals the recorded one line for line."""
    game = get_game(game_id)
    index = {p.name: i for i, p in enumerate(game.presets)}
    strategies = np.array([[index[n] for n in lineup]], dtype=np.int64)
    rules = game.rules.resolve(variant, {})
    compiled = game.compile(rules, len(lineup))
    _, _, log = play(game, compiled, strategies, np.array([seed], dtype=np.uint64), LOG_ROWS)
    context = {"game": game, "players": len(lineup), "strategies": list(lineup), "rules": rules, "seed": seed}
    lines = [game.describe_event(tuple(int(x) for x in row), context) for row in log]
    if os.environ.get("REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
    assert lines == path.read_text().splitlines()
