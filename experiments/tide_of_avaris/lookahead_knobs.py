"""Tide of Avaris: the lookahead's knobs, strength against cost. For each setting (weight slots
of the `lookahead` row, e.g. LA_CANDIDATES=3,LA_ROLLOUTS=4; "-" = the preset as shipped): its
share of its seats against the controller at 2 players (600 games, seats rotated) and its
four-player self-play speed on one core (60 games).

    .venv/bin/python experiments/tide_of_avaris/lookahead_knobs.py - LA_CANDIDATES=4,LA_ROLLOUTS=8
"""

import sys
import time

import numpy as np

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS
from simkit.core.rng import game_seeds
from simkit.games.tide_of_avaris import GAME
from strategies import tide_of_avaris as bot


def run(players, n, knobs, against_controller):
    table, labels = GAME.strategy_table(("lookahead", "controller"))
    row = labels.index("lookahead")
    for name, value in knobs.items():
        table[row, getattr(bot, name)] = value
    rules = GAME.compile(GAME.rules.resolve("standard", {}), players)
    lineup = ("lookahead", "controller") if against_controller else ("lookahead",)
    rows = np.array([labels.index(x) for x in lineup])
    ss = rows[(np.arange(n)[:, None] + np.arange(players)[None, :]) % len(rows)]
    og = np.zeros((n, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
    os_ = np.zeros((n, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
    began = time.perf_counter()
    GAME.play_chunk(rules.params, rules.components, table, ss, game_seeds(np.uint64(77), 0, n), og, os_,
                    np.zeros((0, 6), dtype=np.int64), np.zeros(1, dtype=np.int64),
                    np.zeros((0, 1, players), dtype=np.int64))
    return os_[:, :, 2][ss == row].mean(), n / (time.perf_counter() - began)


for spec in sys.argv[1:] or ["-"]:
    knobs = {} if spec == "-" else {k: float(v) for k, v in (kv.split("=") for kv in spec.split(","))}
    share, _ = run(2, 600, knobs, True)
    _, speed = run(4, 60, knobs, False)
    print(f"{spec:50} 2p share against controller {share:.3f}   4p self-play {speed:.1f} games/s", flush=True)
