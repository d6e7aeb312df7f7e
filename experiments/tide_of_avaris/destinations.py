"""Tide of Avaris: where the lookahead's destination differs from its heuristic's, and what each
turn then does. Two-player games, the lookahead seat alternating (seed 1000 + game); at each of
its turns the heuristic's destination is computed on copies of its rows, then the lookahead's;
where they differ, both turns are played out on copies of the table and summarised by what they
did (bury and its points, the board action, collect, a fight, a Bribe). Its rival and its
rollouts play `preset` (the lookahead's own heuristic rows take that preset's weights).

    .venv/bin/python experiments/tide_of_avaris/destinations.py [games=60] [preset=controller]

Printed: turns, turns where the two differ, and the most common (heuristic's turn, lookahead's
turn) pairs, commonest first.
"""

import collections
import sys

import numpy as np

from simkit.core.rng import seed_streams
from simkit.games.tide_of_avaris import GAME
from simkit.games.tide_of_avaris import engine as E
from simkit.games.tide_of_avaris import events as EV
from simkit.games.tide_of_avaris import lookahead as LA
from simkit.games.tide_of_avaris import state as S
from strategies import tide_of_avaris as bot

PLAYERS = 2


def turn(P, T, K, F, rng, seat, phase, dest):
    """What the seat's turn does if it sails to `dest` (played on copies)."""
    T, F, rng = T.copy(), F.copy(), rng.copy()
    log = np.zeros((2000, 6), dtype=np.int64)
    T[S.ST, S.LOG_N] = 0
    E.finish_turn(P, T, K, F, rng, log, np.int64(seat), np.int64(phase), np.int64(PLAYERS), np.int64(dest))
    done = []
    for r in log[: T[S.ST, S.LOG_N]]:
        if r[1] != seat:
            continue
        if r[2] == EV.BURY:
            done.append(f"bury {r[3]}")
        elif r[2] == EV.ACTION:
            done.append(S.ACTIONS[r[3]])
        elif r[2] == EV.COLLECT and r[5] == 0:
            done.append("collect")
        elif r[2] == EV.COMBAT:
            done.append("fight the Navy" if r[3] < 0 else "fight a pirate")
        elif r[2] == EV.BRIBE:
            done.append("bribe")
    return ", ".join(done) or "nothing"


def main(games, preset):
    table, labels = GAME.strategy_table((preset, "lookahead"))
    rules = GAME.compile(GAME.rules.resolve("standard", {}), PLAYERS)
    P, K = rules.params, rules.components[0]
    width = max(E.F_WIDTH, table.shape[1])
    counts, pairs = collections.Counter(), collections.Counter()
    for g in range(games):
        la = g % 2
        T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
        F = np.zeros((1 + PLAYERS, width), dtype=np.float64)
        rng = np.zeros((1 + PLAYERS, 4), dtype=np.uint64)
        log = np.zeros((0, 6), dtype=np.int64)
        seed_streams(rng, np.uint64(1000 + g))
        for s in range(PLAYERS):
            F[1 + s, : table.shape[1]] = table[labels.index("lookahead" if s == la else preset)]
        F[1 + la, 1: bot.N_HEURISTIC] = table[labels.index(preset), 1: bot.N_HEURISTIC]
        W, F2, rng2 = np.zeros_like(T), np.zeros_like(F), np.zeros_like(rng)
        cand = np.zeros(LA.MAX_CANDIDATES, dtype=np.int64)
        value = np.zeros(LA.MAX_CANDIDATES)
        E.setup_game(P, T, K, F, rng, log, np.int64(PLAYERS))
        over = False
        while not over:
            E.start_day(P, T, K, F, rng, log, np.int64(PLAYERS))
            for phase in range(2):
                T[S.ST, S.ROUND_TURN] = phase
                for i in range(PLAYERS):
                    seat = np.int64(T[S.ORDER, i])
                    E.begin_turn(T, log, seat, np.int64(phase))
                    if seat == la:
                        h = bot.heuristic_destination(P, T, K, F.copy(), rng.copy(), seat, np.int64(phase),
                                                      np.int64(PLAYERS))
                        dest = LA.choose_destination(P, T, K, F, rng, seat, np.int64(phase), np.int64(i),
                                                     np.int64(PLAYERS), W, F2, rng2, log, cand, value)
                        counts["turns"] += 1
                        if dest != h:
                            counts["differ"] += 1
                            pairs[(turn(P, T, K, F, rng, seat, phase, h), turn(P, T, K, F, rng, seat, phase, dest))] += 1
                    else:
                        dest = bot.choose_destination(P, T, K, F, rng, seat, np.int64(phase), np.int64(PLAYERS))
                    E.finish_turn(P, T, K, F, rng, log, seat, np.int64(phase), np.int64(PLAYERS), dest)
            over = E.night(P, T, K, F, rng, log, np.int64(PLAYERS))
    print(f"{preset}: {counts['turns']} lookahead turns, {counts['differ']} with another destination")
    print("times  heuristic's turn  ->  lookahead's turn")
    for (h, d), n in pairs.most_common():
        print(f"{n:5d}  {h}  ->  {d}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60, sys.argv[2] if len(sys.argv) > 2 else "controller")
