"""Does this checkout compile the game loops to the same machine code as another revision? Side by side.

    .venv/bin/python benchmarks/same_code.py --base REV [--games sea_of_plunder,...] [--base-dir DIR]

A change to how the engines are compiled (simkit.core.kernels) that leaves every game loop's machine code
as it was leaves the games and the games/s as they were too: nothing is left to measure. For each
game, each side (this checkout, and REV checked out with `git worktree` or read from `--base-dir`)
compiles two entries, each in a process of its own with an empty numba cache: the default preset's
and the lookahead's. The sha256 of the object code numba keeps for each game loop it compiled
(simkit.core.jit.engine_loop) is compared: each line says `same` or `DIFFERENT`, and the exit code is
1 if any differs. A revision from before the loops were marked has no loop to compare (error).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _checkout import HERE, checkout, side_by_side_parser

COMPILE = """
import gc, hashlib, sys
from numba.core import codegen
try:
    from simkit.commands.bench import _cell, _play_range
except ImportError:  # a revision from before simkit's layer packages
    from simkit.bench import _cell, _play_range
game, preset = sys.argv[1], sys.argv[2]
_play_range(_cell(game, None, preset), 0, 1)
loops = [lib for lib in gc.get_objects()
         if isinstance(lib, codegen.JITCPUCodegen._library_class) and getattr(lib, "_loop", False)]
if not loops:
    sys.exit("no game loop was compiled (a revision from before simkit.core.kernels marked them)")
print(" ".join(sorted(hashlib.sha256(lib._get_compiled_object()).hexdigest() for lib in loops)))
"""


def machine_code(tree: Path, game: str, preset: str) -> str:
    """The sha256 of each loop's object code, compiled by `tree` with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, "-c", COMPILE, game, preset], cwd=tree, env=env,
                              capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: compiling {game} ({preset}) failed in {tree}: "
                         f"{done.stderr.strip().splitlines()[-1:]}")
    return done.stdout.strip().splitlines()[-1]


def main() -> int:
    from simkit import games as registry
    from simkit.core.bots import LOOKAHEAD

    parser = side_by_side_parser(__doc__)
    args = parser.parse_args()
    differ = False
    with checkout(args.base, args.base_dir) as base:
        for game_id in args.games.split(","):
            game = registry.get(game_id)
            presets = [game.default_strategy] + ([LOOKAHEAD] if LOOKAHEAD in game.preset_names() else [])
            for preset in presets:
                same = machine_code(base, game_id, preset) == machine_code(HERE, game_id, preset)
                differ |= not same
                print(f"{game_id:16} {preset:10} {'same' if same else 'DIFFERENT'}", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
