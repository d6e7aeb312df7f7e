"""Games per wall second after compile, on one core, of the expert against tuned seats beside
the default preset's self-play (the fastest of 3 timings of the same games; the speed
figures of docs/games/sea_of_plunder.md). Not a test: run it as

    python -m tests.games.sea_of_plunder.speed_expert
"""

import time

import numpy as np

from simkit.core.rng import game_seeds
from simkit.games.sea_of_plunder import GAME
from simkit.sweeps.runner import seat_strategies


def timed(players: int, lineup: tuple[str, ...], n: int, seed: int) -> float:
    """Games per second of n games of `lineup` rotated through the seats, the fastest of 3 runs."""
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), players)
    strategies = seat_strategies(GAME, lineup, players, 0, n)
    table, _ = GAME.strategy_table(lineup)
    entry = GAME.entry_for(strategies, lineup)
    seeds = game_seeds(np.uint64(seed), 0, n)
    best = float("inf")
    for _ in range(3):
        out_games = np.zeros((n, 3 + len(GAME.game_metrics)), dtype=np.int64)
        out_seats = np.zeros((n, players, 3 + len(GAME.seat_metrics)), dtype=np.int64)
        began = time.perf_counter()
        entry(compiled.params, compiled.components, table, strategies, seeds, out_games, out_seats,
              np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros((0, 1, players), dtype=np.int64))
        best = min(best, time.perf_counter() - began)
    return n / best


if __name__ == "__main__":
    for players in (2, 4):
        for lineup, n in ((("expert",) + (GAME.default_strategy,) * (players - 1), 1000),
                          ((GAME.default_strategy,), 20000)):
            timed(players, lineup, 4, 1)  # compile or load first
            print(f"{players}p {','.join(lineup):28s} {timed(players, lineup, n, 77):8.1f} games/s", flush=True)
