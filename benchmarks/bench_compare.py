"""Engine speed of this checkout against another revision, side by side on the same machine.

    .venv/bin/python benchmarks/bench_compare.py --base REV [--players 4] [--presets tuned,...]
        [--games sea_of_plunder,...] [--rounds 3] [--seconds 0.5 | --games-each N] [--base-dir DIR]

A shared machine slows a run down at random, so one timing of each side says little. Here
each side plays the cell's games 0..n-1 in its own process, n about `--seconds` worth (so the
faster side plays more of them) or `--games-each` on both sides (the same games: for the
lookahead tiers, whose games differ more in length), the fastest of 5 timings counts, and the
two sides alternate `--rounds` times per game; the best of each side is kept. The base revision is checked out with `git worktree` (or read from
`--base-dir`, e.g. a worktree kept from an earlier run: its numba cache is then warm). Both
sides run with this interpreter; the base needs `simkit.commands.bench`'s (before the layer packages,
`simkit.bench`'s) `_cell`, `_play_range` and `_best_time` (any revision since `simkit bench` gained
`--compile`).

Prints one row per game and preset: games/s of the base, of this checkout, and the ratio.
docs/performance.md's side-by-side figures are measured this way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _checkout import HERE, checkout, side_by_side_parser

PROBE = """
import json, sys
try:
    from simkit.commands import bench
except ImportError:  # a revision from before simkit's layer packages
    from simkit import bench
from simkit import games as registry
g, players, preset, seconds, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
preset = preset if preset != "-" else registry.get(g).default_strategy
cell = bench._cell(g, players, preset)
bench._play_range(cell, 0, 2)  # compile or load first: it must not count as play
if games:  # these games on both sides
    n = games
else:
    n, spent, _, _ = bench._play_for(cell, None, seconds)  # about `seconds` worth of games
print(json.dumps({"preset": preset, "games_per_second": n / bench._best_time(cell, n, 5)}))
"""


def probe(tree: Path, game: str, players: int, preset: str, seconds: float, games: int = 0,
          extra: dict | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), **(extra or {})}
    done = subprocess.run([sys.executable, "-c", PROBE, game, str(players), preset, str(seconds), str(games)], cwd=tree,
                          env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the probe of {game} failed in {tree}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = side_by_side_parser(__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--presets", default="-", help="comma-separated; '-' is each game's default preset")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5, help="games per timing: about this many seconds")
    parser.add_argument("--games-each", type=int, default=0,
                        help="games per timing, the same on both sides (instead of --seconds' worth, which plays more "
                             "games on the faster side; the slow lookahead tiers vary from game to game)")
    args = parser.parse_args()
    with checkout(args.base, args.base_dir) as base:
        best: dict[tuple, float] = {}
        for _ in range(args.rounds):
            for game in args.games.split(","):
                for preset in args.presets.split(","):
                    for side, tree in (("base", base), ("this", HERE)):
                        r = probe(tree, game, args.players, preset, args.seconds, args.games_each,
                                  dict(args.base_env) if side == "base" else None)
                        key = (game, r["preset"], side)
                        best[key] = max(best.get(key, 0.0), r["games_per_second"])
        print(f"{'game':16} {'preset':10} {'base games/s':>13} {'this games/s':>13} {'ratio':>6}")
        for (game, preset, side), value in sorted(best.items()):
            if side == "base":
                mine = best[(game, preset, "this")]
                print(f"{game:16} {preset:10} {value:13,.1f} {mine:13,.1f} {mine / value:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
