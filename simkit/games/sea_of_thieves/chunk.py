"""The engine entry point of Sea of Thieves (the contract in simkit/core/game.py): plays a chunk
of games round by round, seats every tier (random, the heuristic presets, and the lookahead and
expert, whose plan lookahead.py chooses) and fills the score trace (numba). It sits above
engine/ and lookahead.py, which it calls.

Tables: those of the engine (engine/round.py), plus the lookahead's scratch (a copy of the game,
of the weights, the rollout's streams and the memo tables of lookahead.py), allocated once per
chunk, in Python (play_with_tables).
"""

import numpy as np

from simkit.core import game as G
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
from simkit.games.sea_of_thieves import lookahead as la
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.round import F_WIDTH, end_round, setup_game, take_turn
from simkit.games.sea_of_thieves.engine.scoring import final_score, final_scoring
from simkit.games.sea_of_thieves.state import KW, ST, T_ROWS, T_WIDTH
from strategies import sea_of_thieves as bot


@jit(runtime=False)
def deciding_round(T, F, seat):
    """The seat compares its plans this round (W_EVERY: only every n-th round, from the first)."""
    every = np.int64(F[1 + seat, bot.W_EVERY])
    return every <= 1 or T[ST, S.ROUND] % every == 0


@jit(runtime=False)
def play_round(P, T, K, F, rng, log, players, T2, F2, rng2, log0, memo, presets):
    for s in range(players):  # the first player token never moves (A29)
        if T2 is None:  # play_chunk_heuristic: pruned at compile time, with the lookahead below
            take_turn(P, T, K, F, rng, log, s)
        elif F[1 + s, bot.W_ROLLOUTS] > 0.0 and deciding_round(T, F, s):
            plan = la.choose_plan(P, T, K, F, rng, s, players, T2, F2, rng2, log0, memo, presets)
            la.set_plan(F, s, la.plan_row(F, s, plan), presets)  # this turn only
            take_turn(P, T, K, F, rng, log, s)
            la.restore_weights(F, s)
        else:
            take_turn(P, T, K, F, rng, log, s)
    end_round(P, T, K, F, rng, log, players)


# ------------------------------------------------------------------ the engine contract
def play_with_tables(params, components, presets, seat_strategies, seeds, out_games, out_seats, log_rows, log_count,
                     trace, lookahead: bool):
    """The entry points' body (G.chunk_entries): the tables, allocated once per chunk in Python, then
    play_games on unowned views of them; lookahead False leaves the lookahead's scratch out."""
    K = components[0]
    P = params_record(params)
    players = seat_strategies.shape[1]
    owned_T = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
    owned_F = np.zeros((1 + players, max(F_WIDTH, presets.shape[1] + 1)), dtype=np.float64)  # + the action coin
    owned_rng = np.zeros((1 + players, 4), dtype=np.uint64)
    # lookahead scratch: a copy of the game, of the weights, and the rollout's streams
    owned_T2 = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
    owned_F2 = np.zeros(owned_F.shape, dtype=np.float64)
    owned_rng2 = np.zeros((1 + players, 4), dtype=np.uint64)
    log0 = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)
    owned_memo = la.memo_tables(owned_T2, owned_F2, owned_rng2)
    # the owners are passed along only to stay alive while the unowned views are in use
    play_games(P, unowned_int(owned_T), unowned_int(K), unowned_float(owned_F), unowned_uint(owned_rng),
               unowned_int(log_rows), presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               unowned_int(owned_T2) if lookahead else None, unowned_float(owned_F2), unowned_uint(owned_rng2), log0,
               la.unowned_memo(owned_memo) if lookahead else None,
               (owned_T, owned_F, owned_rng, K, log_rows, owned_T2, owned_F2, owned_rng2, owned_memo))


play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "Sea of Thieves")


@engine_loop  # optimised whole (simkit.core.numba_patches)
@jit(runtime=False)
def play_games(P, T, K, F, rng, log, presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               T2, F2, rng2, log0, memo, owners):
    players = seat_strategies.shape[1]
    # constant row widths from here down (simkit.core.kernels: Constant row widths)
    T, K, F, rng, log = (fixed_width(T, T_WIDTH), fixed_width(K, KW), fixed_width(F, F_WIDTH), fixed_width(rng, 4),
                         fixed_width(log, LOG_WIDTH))
    T[ST, S.LOG_N] = log_count[0]
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        for s in range(players):
            for w in range(presets.shape[1]):
                F[1 + s, w] = presets[seat_strategies[g, s], w]
        setup_game(P, T, K, F, rng, log, players)
        while True:
            play_round(P, T, K, F, rng, log, players, T2, F2, rng2, log0, memo, presets)
            if trace.shape[0] > 0 and T[ST, S.ROUND] <= trace.shape[1]:
                for s in range(players):  # the game arc: the score if the game ended now
                    trace[g, T[ST, S.ROUND] - 1, s] = final_score(P, T, K, s)
            if game_over(T, ST, S.END_REASON, S.ROUND, P.round_cap, S.END_ROUND_CAP):
                break  # the round in which the end was triggered is finished; or the round cap (Winning the Game)
        final_scoring(P, T, K, log, players, out_seats, g)
        record_game(out_games, g, T, ST, S.ROUND, S.TURNS, S.END_REASON)
    log_count[0] = T[ST, S.LOG_N]
