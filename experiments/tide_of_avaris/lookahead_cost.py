"""Tide of Avaris: games per second of one process in self-play, the lookahead tier beside the
controller it plays (the previous default preset; the cost figures of docs/games/tide_of_avaris.md). Times the engine
call only, after a warm-up game.

    .venv/bin/python experiments/tide_of_avaris/lookahead_cost.py
"""

import time

import numpy as np

from simkit.core.rng import game_seeds
from simkit.games.tide_of_avaris import GAME
from simkit.sweeps.runner import play, seat_strategies

CELLS = ((2, 2000, "controller"), (2, 400, "lookahead"), (3, 2000, "controller"), (3, 300, "lookahead"),
         (4, 2000, "controller"), (4, 300, "lookahead"))

for players, n, preset in CELLS:
    lineup = (preset,)
    rules = GAME.compile(GAME.rules.resolve("standard", {}), players)
    ss = seat_strategies(GAME, lineup, players, 0, n)
    play(GAME, rules, ss[:1], game_seeds(np.uint64(5), 0, 1), lineup=lineup)
    began = time.perf_counter()
    out_games, _, _ = play(GAME, rules, ss, game_seeds(np.uint64(5), 0, n), lineup=lineup)
    seconds = time.perf_counter() - began
    capped = (out_games[:, 2] == GAME.end_reasons.index("round_cap")).mean()
    print(f"{players}p {preset:12} {n:5} games {seconds:7.2f} s {n / seconds:8.1f} games/s  capped {capped:.3f}")
