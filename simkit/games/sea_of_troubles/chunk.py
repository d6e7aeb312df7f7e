"""The engine entry point of Sea of Troubles (the contract in simkit/core/game.py): plays a chunk
of games, seats every tier (random, the heuristic presets with their noise, the lookahead and
the expert, whose rounds and bids lookahead.py plays) and fills the score trace (numba). It
sits above engine.py and lookahead.py, which it calls.

Tables: those of engine.py, plus the lookahead's playout tables (lookahead.py: RT, RF, Rrng,
Rbuf, Rlog, LV, RD), allocated once per chunk, in Python (game_tables, play_with_tables).
"""

import numpy as np

from simkit.core import game as G
from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import LOG_WIDTH
from simkit.core.jit import engine_loop, jit
from simkit.core.kernels import (
    copy_prefix,
    fixed_width,
    game_over,
    params_record,
    record_game,
    unowned_float,
    unowned_int,
    unowned_uint,
)
from simkit.core.rng import seed_streams
from simkit.games.sea_of_troubles import engine as E
from simkit.games.sea_of_troubles import lookahead as LA
from simkit.games.sea_of_troubles import state as S
from simkit.games.sea_of_troubles.engine import BUF_WIDTH, F_WIDTH
from simkit.games.sea_of_troubles.state import KW, ST, T_WIDTH
from strategies import sea_of_troubles as bot


def game_tables(presets, players):
    """(T, F, rng, buf): the game state's tables, allocated once per chunk (in Python, as the
    entries below are: a jitted entry above play_games would optimise and emit the whole engine
    once more)."""
    owned_T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
    owned_F = np.zeros((1 + players, max(E.F_WIDTH, presets.shape[1])), dtype=np.float64)
    owned_rng = np.zeros((1 + players, 4), dtype=np.uint64)
    owned_buf = np.zeros((E.BUF_ROWS, E.BUF_WIDTH), dtype=np.int64)
    return owned_T, owned_F, owned_rng, owned_buf


def play_with_tables(params, components, presets, seat_strategies, seeds, out_games, out_seats, log_rows, log_count,
                     trace, lookahead: bool):
    """The entry points' body (G.chunk_entries): the tables, then play_games on unowned views of
    them; lookahead False passes no lookahead scratch (`LV` None, so numba prunes that branch of
    play_games before typing it)."""
    K = components[0]
    players = seat_strategies.shape[1]
    owned_T, owned_F, owned_rng, owned_buf = game_tables(presets, players)
    if not lookahead:
        T, F, rng, buf = unowned_int(owned_T), unowned_float(owned_F), unowned_uint(owned_rng), unowned_int(owned_buf)
        nolog = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)
        play_games(params_record(params), T, unowned_int(K), F, rng, buf, unowned_int(log_rows),
                   presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
                   owned_T, owned_F, owned_rng, owned_buf, nolog, None, None,
                   owned_T, owned_F, owned_rng, owned_buf, K, log_rows)
        return
    width = max(E.F_WIDTH, presets.shape[1])
    RT = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
    RF = np.zeros((1 + players, width), dtype=np.float64)
    Rrng = np.zeros((1 + players, 4), dtype=np.uint64)
    Rbuf = np.zeros((E.BUF_ROWS, E.BUF_WIDTH), dtype=np.int64)
    Rlog = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)
    LV = np.zeros((4, E.BUF_WIDTH), dtype=np.float64)
    RD = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
    # the owners are passed along only to stay alive while the unowned views are in use
    play_games(params_record(params), unowned_int(owned_T), unowned_int(K), unowned_float(owned_F),
               unowned_uint(owned_rng), unowned_int(owned_buf), unowned_int(log_rows),
               presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               RT, RF, Rrng, Rbuf, Rlog, LV, RD,
               owned_T, owned_F, owned_rng, owned_buf, K, log_rows)


play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "Sea of Troubles")


@engine_loop  # optimised whole (simkit.core.numba_patches)
@jit
def play_games(P, T, K, F, rng, buf, log, presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               RT, RF, Rrng, Rbuf, Rlog, LV, RD, owned_T, owned_F, owned_rng, owned_buf, owned_K, owned_log):
    players = seat_strategies.shape[1]
    # constant row widths from here down (simkit.core.kernels: Constant row widths)
    T, K, F, rng = fixed_width(T, T_WIDTH), fixed_width(K, KW), fixed_width(F, F_WIDTH), fixed_width(rng, 4)
    buf, log = fixed_width(buf, BUF_WIDTH), fixed_width(log, LOG_WIDTH)
    RT, RF, Rrng = fixed_width(RT, T_WIDTH), fixed_width(RF, F_WIDTH), fixed_width(Rrng, 4)
    # (not LV: its `is None` below must stay the argument's, for numba to prune that branch)
    Rbuf, Rlog, RD = fixed_width(Rbuf, BUF_WIDTH), fixed_width(Rlog, LOG_WIDTH), fixed_width(RD, T_WIDTH)
    T[ST, S.LOG_N] = log_count[0]
    noise = presets.shape[1] - 1
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        thinker = False
        for s in range(players):
            copy_prefix(F, 1 + s, presets, seat_strategies[g, s], presets.shape[1])
            F[1 + s, E.NOISE] = presets[seat_strategies[g, s], noise]
            thinker = thinker or F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY
        E.setup_game(P, T, K, F, rng, buf, log, players)
        while True:
            if LV is None:  # play_chunk_heuristic: pruned at compile time, with the lookahead below
                E.play_round(P, T, K, F, rng, buf, log, players)
            elif thinker:
                LA.play_round(P, T, K, F, rng, buf, log, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD)
            else:
                E.play_round(P, T, K, F, rng, buf, log, players)
            r = T[ST, S.ROUND]
            if trace.shape[0] > 0 and r <= trace.shape[1]:  # the game arc: scores if it ended now
                for s in range(players):
                    trace[g, r - 1, s] = E.score_now(T, K, s)[0]
            if game_over(T, ST, S.END_REASON, S.ROUND, P.round_cap, S.END_ROUND_CAP):
                break  # the round in which the end was triggered is finished; or the round cap (ENDING THE GAME)
            if LV is None:
                E.end_round(P, T, K, F, rng, log, players)
            elif thinker:
                LA.round_end(P, T, K, F, rng, log, players, RT, RF, Rrng, Rbuf, Rlog, LV, RD)
            else:
                E.end_round(P, T, K, F, rng, log, players)
        E.final_scoring(P, T, K, log, players, out_seats[g])
        record_game(out_games, g, T, ST, S.ROUND, S.TURNS, S.END_REASON)
        out_games[g, S.GM_TREASURES_LEFT] = T[ST, S.TDECK_N]
    log_count[0] = T[ST, S.LOG_N]
