"""The engine entry point of Sea of Plunder (the contract in simkit/core/game.py): plays a chunk
of games, seats every tier (random, the heuristic presets with their noise, the lookahead) and
fills the score trace (numba). It sits above engine.py and lookahead.py, which it calls.

Tables: those of engine.py, plus the lookahead's rollout tables (lookahead.py), allocated once
per chunk, in Python (game_tables, play_with_tables).
"""

import numpy as np

from simkit.core import game as G
from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import LOG_WIDTH
from simkit.core.jit import engine_loop, jit
from simkit.core.kernels import (
    RACE_FIRST,
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
from simkit.games.sea_of_plunder import state as S
from simkit.games.sea_of_plunder.engine import (
    BUF_COLS,
    BUF_ROWS,
    f_width,
    final_scoring,
    score_if_ended,
    setup_game,
    take_turn,
)
from simkit.games.sea_of_plunder.lookahead import UNSEEN_ROWS, lookahead_turn
from simkit.games.sea_of_plunder.state import CARD0, SQUARES, ST, T_ROWS
from strategies import sea_of_plunder as bot


def game_tables(components, presets, players):
    """(T, F, rng, buf): the game state's tables, allocated once per chunk (in Python: a jitted
    entry above play_games would optimise and emit the whole engine once more)."""
    n_cards = components[0].shape[0] - CARD0
    owned_T = np.zeros((T_ROWS, max(S.MAX_HAND, n_cards + 1, S.MAX_PENDING, S.ST_SIZE, S.POS_SIZE)), dtype=np.int64)
    owned_F = np.zeros((1 + players, f_width(components[0], presets)), dtype=np.float64)
    owned_rng = np.zeros((1 + players, 4), dtype=np.uint64)
    owned_buf = np.zeros((BUF_ROWS, BUF_COLS), dtype=np.int64)
    return owned_T, owned_F, owned_rng, owned_buf


def play_with_tables(params, components, presets, seat_strategies, seeds, out_games, out_seats, log_rows, log_count,
                     trace, lookahead: bool):
    """The entry points' body (G.chunk_entries): the tables, then play_games on unowned views of
    them; lookahead False passes no lookahead scratch (`values` None, so numba prunes that branch
    of play_games before typing it)."""
    players = seat_strategies.shape[1]
    owned_T, owned_F, owned_rng, owned_buf = game_tables(components, presets, players)
    nolog = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)  # the rollout seats' weights: lookahead_choice
    if not lookahead:
        T, F, rng, buf = unowned_int(owned_T), unowned_float(owned_F), unowned_uint(owned_rng), unowned_int(owned_buf)
        play_games(params_record(params), T, unowned_int(components[0]), F, rng, buf, unowned_int(log_rows),
                   presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
                   T, F, rng, buf, nolog, nolog, None,
                   owned_T, owned_F, owned_rng, owned_buf, components[0], log_rows,
                   owned_T, owned_F, owned_rng, owned_buf)
        return
    # the lookahead's scratch: a second set of tables for its rollouts, allocated once
    owned_T2 = np.zeros_like(owned_T)
    owned_F2 = np.zeros_like(owned_F)
    owned_rr = np.zeros_like(owned_rng)
    owned_buf2 = np.zeros_like(owned_buf)
    unseen = np.zeros((UNSEEN_ROWS, owned_T.shape[1]), dtype=np.int64)
    values = np.zeros((bot.MAX_LOOKAHEAD, RACE_FIRST + bot.MAX_ROLLOUTS), dtype=np.float64)  # kernels.race_prune
    # the owners are passed along only to stay alive while the unowned views are in use
    play_games(params_record(params), unowned_int(owned_T), unowned_int(components[0]), unowned_float(owned_F),
               unowned_uint(owned_rng), unowned_int(owned_buf), unowned_int(log_rows),
               presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               unowned_int(owned_T2), unowned_float(owned_F2), unowned_uint(owned_rr), unowned_int(owned_buf2),
               nolog, unseen, values,
               owned_T, owned_F, owned_rng, owned_buf, components[0], log_rows,
               owned_T2, owned_F2, owned_rr, owned_buf2)


play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "Sea of Plunder")


@engine_loop  # optimised whole (simkit.core.numba_patches)
@jit(runtime=False)
def play_games(P, T, K, F, rng, buf, log, presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               T2, F2, rr, buf2, nolog, unseen, values,
               owned_T, owned_F, owned_rng, owned_buf, owned_K, owned_log,
               owned_T2, owned_F2, owned_rr, owned_buf2):
    """play_chunk's game loop, on unowned views of its tables; `values` None: no lookahead seat."""
    players = seat_strategies.shape[1]
    # constant row widths from here down (simkit.core.kernels: Constant row widths); T's and F's follow
    # the component set (its cards, its paths), so they stay as they are
    K, rng, buf, log = fixed_width(K, SQUARES), fixed_width(rng, 4), fixed_width(buf, BUF_COLS), fixed_width(log, LOG_WIDTH)
    rr, buf2 = fixed_width(rr, 4), fixed_width(buf2, BUF_COLS)
    T[ST, S.LOG_N] = log_count[0]
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        for s in range(players):
            copy_prefix(F, 1 + s, presets, seat_strategies[g, s], presets.shape[1])
            F[1 + s, bot.NOISE] = presets[seat_strategies[g, s], presets.shape[1] - 1]
        setup_game(P, T, K, F, rng, buf, log, players)
        while True:
            for s in range(players):
                if values is None:  # play_chunk_heuristic: pruned at compile time, with the lookahead below
                    take_turn(P, T, K, F, rng, buf, log, s)
                elif F[1 + s, bot.POLICY] == LOOKAHEAD_POLICY:
                    lookahead_turn(P, T, K, F, rng, buf, log, s, T2, F2, rr, buf2, nolog, unseen, values)
                else:
                    take_turn(P, T, K, F, rng, buf, log, s)
            T[ST, S.ROUND] += 1
            if trace.shape[0] > 0 and T[ST, S.ROUND] <= trace.shape[1]:  # the game arc (simkit/core/game.py)
                for s in range(players):
                    trace[g, T[ST, S.ROUND] - 1, s] = score_if_ended(P, T, K, buf, s)
            if game_over(T, ST, S.END_REASON, S.ROUND, P.round_cap, S.END_ROUND_CAP):
                break  # the round in which the end was triggered is finished; or the round cap (Game End)
        final_scoring(P, T, K, F, rng, buf, log, out_seats[g])
        record_game(out_games, g, T, ST, S.ROUND, S.TURNS, S.END_REASON)
        out_games[g, S.GM_PIRATE_TREASURES] = T[ST, S.PIRATE_TREASURES]
    log_count[0] = T[ST, S.LOG_N]
