"""Do this checkout and another revision play the same games? A sweep of every preset, side by side.

    .venv/bin/python benchmarks/same_games.py --base REV [--games sea_of_plunder,...] [--per-cell 1500]
        [--lookahead-games 24] [--base-dir DIR]

Speed work must leave every game as it was, bit for bit, unless a change is registered. For each
game, each side (this checkout, and REV checked out with `git worktree` or read from `--base-dir`)
runs `simkit.sweep` in its own process on the same spec: seed 11, every preset but `lookahead` in
self-play at every player count, `--per-cell` games a cell, then the `lookahead` tier in self-play,
`--lookahead-games` a cell. The sha256 of games.parquet and seats.parquet (rows sorted, every
column) is compared: each line says `same` or `DIFFERENT`, and the exit code is 1 if any differs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _checkout import HERE, checkout, side_by_side_parser

PLAY = """
import hashlib, json, sys, tempfile
import polars as pl
import simkit
from simkit import games as registry
g, lineups, games = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
game = registry.get(g)
players = list(game.players)
study = [{"game": g, "players": players, "strategies": [lineup]} for lineup in lineups]
with tempfile.TemporaryDirectory() as out:
    simkit.sweep({"name": "same", "seed": 11, "games": games, "study": study}, out=out, jobs=1, quiet=True,
                 report=False)
    digest = hashlib.sha256()
    for kind in ("games", "seats"):
        table = pl.read_parquet(f"{out}/{kind}.parquet")
        digest.update(table.sort(table.columns[:3]).write_csv().encode())
print(digest.hexdigest())
"""


def played(tree: Path, game: str, lineups: list[str], games: int, extra: dict | None = None) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree), **(extra or {})}
    done = subprocess.run([sys.executable, "-c", PLAY, game, json.dumps(lineups), str(games)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the sweep of {game} failed in {tree}: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout.strip().splitlines()[-1]


def main() -> int:
    from simkit import games as registry
    from simkit.core.bots import LOOKAHEAD

    parser = side_by_side_parser(__doc__)
    parser.add_argument("--per-cell", type=int, default=1500, help="games a cell for the presets but lookahead")
    parser.add_argument("--lookahead-games", type=int, default=24, help="games a cell for the lookahead (0: none)")
    args = parser.parse_args()
    differ = False
    with checkout(args.base, args.base_dir) as base:
        for game_id in args.games.split(","):
            presets = registry.get(game_id).preset_names()
            runs = [([p for p in presets if p != LOOKAHEAD], args.per_cell)]
            if LOOKAHEAD in presets and args.lookahead_games:
                runs.append(([LOOKAHEAD], args.lookahead_games))
            for lineups, games in runs:
                same = played(base, game_id, lineups, games, dict(args.base_env)) == played(HERE, game_id, lineups,
                                                                                             games)
                differ |= not same
                print(f"{game_id:16} {','.join(lineups):60} {games:6,} a cell  {'same' if same else 'DIFFERENT'}",
                      flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
