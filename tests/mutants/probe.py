"""The equivalence probe of tests/mutants/run.py --random: a fixed set of self-play games of
one game, played by whatever simkit this process imports, reduced to one digest per cell.

    python tests/mutants/probe.py GAME --games 200 --out probe.json

Cells: every preset but the slow lookahead kind, self-play (every seat the preset), at every
player count the standard rules allow, and again under each named variant at every player
count it allows. Each cell plays games 0..N-1 from root seed 0 and is reduced to the sha256 of
its games and seats tables (shape, dtype and bytes). run.py runs this in a mutant's scratch
copy (PYTHONPATH and cwd the copy, a fresh NUMBA_CACHE_DIR) and in the unbroken copy: the same
digests in every cell mean the mutant changes no game of the probe (EQUIVALENT). The output
file holds {"cells": {cell: digest}, "simkit": the simkit it imported} or, when the mutant
makes the probe raise, {"error": "...", "traceback": "..."}.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import traceback

ROOT_SEED = 0


def cells(game_id: str) -> list[tuple[str, int, str]]:
    """(variant, players, preset) of every probe cell, in a fixed order."""
    from simkit import games as registry
    from simkit.core.bots import LOOKAHEAD

    game = registry.get(game_id)
    presets = [p.name for p in game.presets if p.kind != LOOKAHEAD]
    out = []
    for variant in game.rules.variant_names():
        allowed = game.rules.variant_players(variant) if variant != "standard" else None
        counts = sorted(allowed) if allowed else list(game.players)
        out += [(variant, n, preset) for n in counts for preset in presets]
    return out


def digest(out_games, out_seats) -> str:
    h = hashlib.sha256()
    for a in (out_games, out_seats):
        h.update(f"{a.shape}{a.dtype}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def probe(game_id: str, games: int) -> dict[str, str]:
    import numpy as np

    from simkit import games as registry
    from simkit.core.rng import game_seeds
    from simkit.sweeps import spec as specs
    from simkit.sweeps.runner import compiled, play, seat_strategies

    game = registry.get(game_id)
    result = {}
    for variant, players, preset in cells(game_id):
        cell = specs.load(game=game_id, players=players, variant=variant, strategies=preset, games=games,
                          balanced=False).cells[0]
        strategies = seat_strategies(game, cell.lineup, cell.players, 0, games, cell.bots)
        out_games, out_seats, _ = play(game, compiled(cell)[0], strategies,
                                       game_seeds(np.uint64(ROOT_SEED), 0, games), lineup=cell.lineup, bots=cell.bots)
        result[f"{variant}/{players}p/{preset}"] = digest(out_games, out_seats)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        import simkit

        data = {"cells": probe(args.game, args.games), "simkit": simkit.__file__}
    except Exception as e:  # noqa: BLE001 (a mutant that breaks the engine: not equivalent, the tests decide)
        data = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-4000:]}
    with open(args.out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
