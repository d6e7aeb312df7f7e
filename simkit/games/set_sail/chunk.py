"""The engine entry point of Set Sail (the contract in simkit/core/game.py): plays a chunk of games,
seats every tier (random, the heuristic presets with their noise, lookahead) and fills the
score trace (numba). It sits above engine.py and lookahead.py, which it calls, so neither
imports the other's caller.

Tables: those of engine.py, plus the lookahead's playout tables (lookahead.py), allocated
once per chunk, in Python (play_with_tables).
"""

import numpy as np

from simkit.core import game as G
from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import LOG_WIDTH
from simkit.core.jit import engine_loop, jit
from simkit.core.kernels import (
    fixed_width,
    game_over,
    params_record,
    record_game,
    unowned_float,
    unowned_int,
    unowned_uint,
)
from simkit.core.rng import seed_streams
from simkit.games.set_sail import lookahead as LA
from simkit.games.set_sail import state as S
from simkit.games.set_sail.engine import (
    BUF_ROWS,
    BUF_WIDTH,
    F_WIDTH,
    final_scoring,
    load_strategy,
    record_round,
    setup_game,
    take_turn,
)
from simkit.games.set_sail.state import KW, ST, T_ROWS, T_WIDTH
from strategies import set_sail as bot


def play_with_tables(params, components, presets, seat_strategies, seeds, out_games, out_seats, log_rows, log_count,
                     trace, lookahead: bool):
    """The entry points' body (G.chunk_entries): the tables, allocated once per chunk in Python,
    then play_games on unowned views of them; lookahead False leaves the playout tables out.
    Allocating here rather than in a jitted entry keeps the entry's own compile away: a jitted
    caller of play_games would optimise and emit the whole engine once more."""
    K = components[0]
    players = seat_strategies.shape[1]
    width = max(F_WIDTH, presets.shape[1])
    owned_T = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
    owned_F = np.zeros((1 + players, width), dtype=np.float64)
    owned_rng = np.zeros((1 + players, 4), dtype=np.uint64)
    owned_buf = np.zeros((BUF_ROWS, BUF_WIDTH), dtype=np.int64)
    scratch = owned_scratch = None
    if lookahead:
        # the lookahead's playout tables (lookahead.py): a second game state, every seat a
        # heuristic (bot.ROLLOUT's row) with no noise whose weights the deciding seat's own
        # replace at each decision (LA.rollout_weights), streams, scratch, no log, and a
        # playout's deal shared by the candidates (D, rngD)
        T2 = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
        F2 = np.zeros((1 + players, width), dtype=np.float64)
        for s in range(players):
            load_strategy(F2, presets, np.int64(bot.ROLLOUT_ROW), np.int64(s))
        rng2 = np.zeros((1 + players, 4), dtype=np.uint64)
        buf2 = np.zeros((BUF_ROWS, BUF_WIDTH), dtype=np.int64)
        log2 = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)
        L = np.zeros((LA.L_ROWS, LA.L_WIDTH), dtype=np.int64)
        V = np.zeros((LA.V_ROWS, LA.V_WIDTH), dtype=np.float64)
        seeds2 = np.zeros(LA.MAX_ROLLOUTS, dtype=np.uint64)
        D = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
        rngD = np.zeros((1 + players, 4), dtype=np.uint64)
        scratch = (unowned_int(T2), unowned_float(F2), unowned_uint(rng2), unowned_int(buf2), log2, unowned_int(L),
                   unowned_float(V), seeds2, unowned_int(D), unowned_uint(rngD))
        owned_scratch = (T2, F2, rng2, buf2, L, V, D, rngD)
    # the owners are passed along only to stay alive while the unowned views are in use
    play_games(params_record(params), unowned_int(owned_T), unowned_int(K), unowned_float(owned_F),
               unowned_uint(owned_rng), unowned_int(owned_buf), unowned_int(log_rows), presets, seat_strategies,
               seeds, out_games, out_seats, log_count, trace, scratch, owned_T, owned_F, owned_rng, owned_buf, K,
               log_rows, owned_scratch)


play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "Set Sail")


@engine_loop  # optimised whole (simkit.core.numba_patches)
@jit(runtime=False)
def play_games(P, T, K, F, rng, buf, log, presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               scratch, owned_T, owned_F, owned_rng, owned_buf, owned_K, owned_log, owned_scratch):
    """play_chunk's game loop, on unowned views of its tables; `scratch` None: no lookahead seat."""
    players = seat_strategies.shape[1]
    # constant row widths from here down (simkit.core.kernels: Constant row widths)
    T, K, F, rng = fixed_width(T, T_WIDTH), fixed_width(K, KW), fixed_width(F, F_WIDTH), fixed_width(rng, 4)
    buf, log = fixed_width(buf, BUF_WIDTH), fixed_width(log, LOG_WIDTH)
    T[ST, S.LOG_N] = log_count[0]
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        for s in range(players):
            load_strategy(F, presets, seat_strategies[g, s], s)
        setup_game(P, T, K, F, rng, buf, log, players)
        while True:
            for s in range(players):
                if scratch is None:  # play_chunk_heuristic: pruned at compile time, with the lookahead below
                    take_turn(P, T, K, F, rng, buf, log, s)
                elif F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY:
                    T2, F2, rng2, buf2, log2, L, V, seeds2, D, rngD = scratch
                    LA.lookahead_turn(P, T, K, F, rng, buf, log, s, T2, F2, rng2, buf2, log2, L, V, seeds2, D, rngD)
                else:
                    take_turn(P, T, K, F, rng, buf, log, s)
            T[ST, S.ROUND] += 1
            if trace.shape[0] > 0:
                record_round(T, trace[g])
            if game_over(T, ST, S.END_REASON, S.ROUND, P.round_cap, S.END_ROUND_CAP):
                break  # the round in which 30 VP was reached is finished; or the round cap (Objective)
        final_scoring(P, T, K, F, rng, buf, log, out_seats[g])
        record_game(out_games, g, T, ST, S.ROUND, S.TURNS, S.END_REASON)
        for kind in range(3):
            out_games[g, S.GM_QUESTS_LEFT] += T[ST, S.QDECK_N0 + kind]
    log_count[0] = T[ST, S.LOG_N]
