"""The engine entry point of Tide of Avaris (the contract in simkit/core/game.py): plays a chunk of
games, seats every tier (random, the heuristic presets with their noise, lookahead) and fills
the score trace (numba).

Tables: those of engine.py, plus scratch copies allocated once per chunk: W (a copy of T for the
trace's "if the game ended now" and the lookahead's rollouts), F2 and rng2 (the rollouts' weights
and random streams), D and rngD (a round of rollouts' re-dealt table and its streams, which each
candidate's rollout starts from), cand and value (the lookahead's candidates and their summed
outcomes).
"""

import numpy as np

from simkit.core import game as G
from simkit.core.bots import LOOKAHEAD_POLICY
from simkit.core.game import LOG_WIDTH
from simkit.core.jit import engine_loop, jit
from simkit.core.kernels import (
    FALSE,
    TRUE,
    copy_prefix,
    fixed_width,
    params_record,
    record_game,
    unowned_float,
    unowned_int,
    unowned_uint,
)
from simkit.core.rng import seed_streams
from simkit.games.tide_of_avaris import engine as E
from simkit.games.tide_of_avaris import lookahead as LA
from simkit.games.tide_of_avaris import state as S
from simkit.games.tide_of_avaris.engine import F_WIDTH
from simkit.games.tide_of_avaris.lookahead import VALUE_WIDTH
from simkit.games.tide_of_avaris.state import KW, ORDER, SEAT0, ST, T_ROWS, T_WIDTH
from strategies import tide_of_avaris as bot


def play_with_tables(params, components, presets, seat_strategies, seeds, out_games, out_seats, log_rows, log_count,
                     trace, lookahead: bool):
    """The entry points' body (G.chunk_entries): the tables, allocated once per chunk in Python, then
    play_games on unowned views of them; lookahead False leaves the lookahead's scratch out."""
    K = components[0]
    players = seat_strategies.shape[1]
    width = max(E.F_WIDTH, presets.shape[1], bot.NOISE + 1)
    owned_T = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
    owned_W = np.zeros((T_ROWS, T_WIDTH), dtype=np.int64)
    owned_F = np.zeros((1 + players, width), dtype=np.float64)
    owned_F2 = np.zeros((1 + players, width), dtype=np.float64)
    owned_rng = np.zeros((1 + players, 4), dtype=np.uint64)
    owned_rng2 = np.zeros((1 + players, 4), dtype=np.uint64)
    owned_D = np.zeros((T_ROWS, T_WIDTH) if lookahead else (1, 1), dtype=np.int64)
    owned_rngD = np.zeros_like(owned_rng2)
    cand = np.zeros(LA.MAX_CANDIDATES, dtype=np.int64) if lookahead else None
    value = np.zeros((LA.MAX_CANDIDATES, LA.VALUE_WIDTH), dtype=np.float64) if lookahead else None
    log0 = np.zeros((0, G.LOG_WIDTH), dtype=np.int64)
    # the owners are passed along only to stay alive while the unowned views are in use
    play_games(params_record(params), unowned_int(owned_T), unowned_int(K), unowned_float(owned_F),
               unowned_uint(owned_rng), unowned_int(log_rows), presets, seat_strategies, seeds, out_games, out_seats,
               log_count, trace,
               unowned_int(owned_W), unowned_float(owned_F2), unowned_uint(owned_rng2), unowned_int(owned_D),
               unowned_uint(owned_rngD), cand, value, log0,
               (owned_T, owned_F, owned_rng, K, log_rows, owned_W, owned_F2, owned_rng2, owned_D, owned_rngD))


@jit(runtime=False)
def play_day(P, T, K, F, rng, log, players, lookahead, W, F2, rng2, D, rngD, log0, cand, value):
    """engine.play_day, with the destination of a lookahead seat's turn chosen by rollouts (the
    lookahead entry only: play_games calls engine.play_day itself when `cand` is None)."""
    if not lookahead:
        return E.play_day(P, T, K, F, rng, log, players)
    # the rollouts' tables with constant row widths too (simkit.core.kernels: Constant row widths)
    F2, rng2, D, rngD = fixed_width(F2, F_WIDTH), fixed_width(rng2, 4), fixed_width(D, T_WIDTH), fixed_width(rngD, 4)
    log0, value = fixed_width(log0, LOG_WIDTH), fixed_width(value, VALUE_WIDTH)
    E.start_day(P, T, K, F, rng, log, players)
    for phase in range(2):
        T[ST, S.ROUND_TURN] = phase
        for i in range(players):
            seat = T[ORDER, i]
            E.begin_turn(T, log, seat, np.int64(phase))
            if F[1 + seat, bot.POLICY] == LOOKAHEAD_POLICY:
                dest = LA.choose_destination(P, T, K, F, rng, seat, np.int64(phase), np.int64(i), players, W, F2,
                                             rng2, D, rngD, log0, cand, value)
            else:
                dest = bot.choose_destination(P, T, K, F, rng, seat, np.int64(phase), players)
            E.finish_turn(P, T, K, F, rng, log, seat, np.int64(phase), players, dest)
    return E.night(P, T, K, F, rng, log, players)


@jit(runtime=False)
def record_trace(P, T, K, W, log0, players, trace, g, day):
    """trace[g, day - 1, s]: the Treasure Points seat s would have if the game ended now (every
    hold buried where it is, then the endgame bonuses: engine.end_now on a copy); once the game
    is over, its final points."""
    if T[ST, S.END_REASON] >= 0:
        for s in range(players):
            trace[g, day - 1, s] = T[SEAT0 + s, S.POINTS]
        return
    LA.copy_state(W, T, K, players)
    E.end_now(P, W, K, log0, players)
    for s in range(players):
        trace[g, day - 1, s] = W[SEAT0 + s, S.POINTS]


play_chunk, play_chunk_heuristic = G.chunk_entries(play_with_tables, "Tide of Avaris")


@engine_loop  # optimised whole (simkit.core.numba_patches)
@jit(runtime=False)
def play_games(P, T, K, F, rng, log, presets, seat_strategies, seeds, out_games, out_seats, log_count, trace,
               W, F2, rng2, D, rngD, cand, value, log0, owners):
    players = seat_strategies.shape[1]
    noise_column = presets.shape[1] - 1
    # constant row widths from here down (simkit.core.kernels: Constant row widths)
    T, K, F, rng = fixed_width(T, T_WIDTH), fixed_width(K, KW), fixed_width(F, F_WIDTH), fixed_width(rng, 4)
    log, W = fixed_width(log, LOG_WIDTH), fixed_width(W, T_WIDTH)
    T[ST, S.LOG_N] = log_count[0]
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        lookahead = FALSE  # typed: a literal False would compile play_day once more, for that value
        for s in range(players):
            row = presets[seat_strategies[g, s]]
            copy_prefix(F, 1 + s, presets, seat_strategies[g, s], presets.shape[1])
            F[1 + s, bot.NOISE] = row[noise_column]  # the skill knob, where no weight lies
            if row[bot.POLICY] == LOOKAHEAD_POLICY:
                lookahead = TRUE
        E.setup_game(P, T, K, F, rng, log, players)
        day = 0
        over = False
        while not over:
            if cand is None:  # play_chunk_heuristic: pruned at compile time, and with it the lookahead's play_day
                over = E.play_day(P, T, K, F, rng, log, players)
            else:
                over = play_day(P, T, K, F, rng, log, players, lookahead, W, F2, rng2, D, rngD, log0, cand, value)
            day += 1
            if trace.shape[0] > 0 and day <= trace.shape[1]:
                record_trace(P, T, K, W, log0, players, trace, g, day)
        E.final_scoring(P, T, K, log, players, out_seats[g])
        record_game(out_games, g, T, ST, S.DAY, S.TURNS, S.END_REASON)
        out_games[g, S.GM_TREASURE_BOXED] = T[ST, S.BOX_TREASURE]
    log_count[0] = T[ST, S.LOG_N]
