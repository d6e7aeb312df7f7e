"""Basics: the board, hexes and movement. At most two standees end a move in a hex; a ship
ending in a full hex pushes another player's standee to an adjacent hex of its owner's choice,
or may not end there; treacherous waters damage a ship that moves on through them; Full Sail
follows a straight line (one of the six hex directions, precomputed per board in K)."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import FALSE, decide, option, pick_option
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.common import log_event, plays_random
from simkit.games.sea_of_thieves.state import SHIP0, ST
from strategies import sea_of_thieves as bot


@jit(inline="always", runtime=False)
def set_ship_hex(T, k, h):
    """Move ship k's standee to hex h (-1: off the board), keeping the hexes' standee counts."""
    old = T[SHIP0 + k, S.HEX]
    if old >= 0:
        T[S.HEX_STANDEES, old] -= 1
    T[SHIP0 + k, S.HEX] = h
    if h >= 0:
        T[S.HEX_STANDEES, h] += 1


@jit(runtime=False)
def has_room_nearby(T, K, h):
    for d in range(6):
        n = K[S.NEXT0 + d, h]
        if n >= 0 and T[S.HEX_STANDEES, n] < 2:
            return True
    return False


@jit(runtime=False)
def pushable_count(T, K, k, h):
    """Standees in h that ship k may push out: other players' ships with an adjacent hex with room."""
    n = 0
    if not has_room_nearby(T, K, h):
        return n
    for j in range(2 * T[ST, S.PLAYERS]):
        if T[SHIP0 + j, S.HEX] == h and j // 2 != k // 2:
            n += 1
    return n


@jit(inline="always", runtime=False)
def can_end(T, K, k, h):
    """Ship k may end a move in h: there is room, or a rival standee there can be pushed (Hexes)."""
    if h < 0 or T[S.HEX_TYPE, h] == S.ABSENT:
        return False
    if T[SHIP0 + k, S.HEX] == h or T[S.HEX_STANDEES, h] < 2:
        return True
    return pushable_count(T, K, k, h) > 0


@jit(runtime=False)
def push_out(P, T, K, F, rng, log, k, h):
    """Ship k ends in the full hex h: k's player picks a rival standee there, whose owner moves it
    to an adjacent hex with room of their choice (Hexes). Pushed ships end their move there and
    take no treacherous-waters damage (A12)."""
    seat = k // 2
    n = pushable_count(T, K, k, h)
    pick = decide(rng, seat, n) if plays_random(F, rng, seat) else np.int64(0)
    victim = np.int64(-1)  # typed: a literal -1 would compile the bot's ship_goal once more
    best_rep = -1
    i = 0
    for j in range(2 * T[ST, S.PLAYERS]):
        if T[SHIP0 + j, S.HEX] == h and j // 2 != seat:
            if plays_random(F, rng, seat):
                if i == pick:
                    victim = j
                i += 1
            elif T[S.SEAT0 + j // 2, S.REP] > best_rep:  # the heuristic pushes the leader's ship
                best_rep = T[S.SEAT0 + j // 2, S.REP]
                victim = j
    owner = victim // 2
    dest = make_way(P, T, K, F, rng, victim, h, FALSE)
    set_ship_hex(T, victim, dest)
    log_event(T, log, owner, EV.PUSH, victim, h, dest)


@jit(runtime=False)
def make_way(P, T, K, F, rng, j, h, sea_only):
    """Where ship j in hex h moves to make way: an adjacent hex with room (`sea_only`: on the
    board, not an absent hex) of its owner's choice, -1 if there is none. The bots take the one
    nearest their goal."""
    owner = j // 2
    goal, _ = bot.ship_goal(P, T, K, F, j)
    options = np.int64(0)  # the directions it may move in
    for d in range(6):
        x = K[S.NEXT0 + d, h]
        if x >= 0 and T[S.HEX_STANDEES, x] < 2 and not (sea_only and T[S.HEX_TYPE, x] == S.ABSENT):
            options |= option(d)
    if plays_random(F, rng, owner):
        d = pick_option(options, rng, owner)
        return K[S.NEXT0 + d, h] if d >= 0 else np.int64(-1)
    return bot.step_nearest(K, h, options, goal)


@jit(runtime=False)
def end_move(P, T, K, F, rng, log, k, h):
    """Ship k ends its move in h (the caller checked can_end)."""
    if T[SHIP0 + k, S.HEX] != h and T[S.HEX_STANDEES, h] >= 2:
        push_out(P, T, K, F, rng, log, k, h)
    set_ship_hex(T, k, h)


@jit(runtime=False)
def reef_damage(T, log, k):
    T[SHIP0 + k, S.DAMAGE] += 1
    log_event(T, log, k // 2, EV.DAMAGE, k, T[SHIP0 + k, S.DAMAGE], np.int64(1))


@jit(runtime=False)
def line_end(K, h, d, n):
    """The hex n steps from h in direction d, or -1 if the line leaves the board."""
    x = h
    for _ in range(n):
        x = K[S.NEXT0 + d, x]
        if x < 0:
            return np.int64(-1)
    return x


@jit(runtime=False)
def sail_line(P, T, K, F, rng, log, k, d, n):
    """Full Sail: n hexes in straight line d, as one move; every treacherous hex entered and then
    left during the move costs one damage (Basics: Hexes; A12)."""
    start = T[SHIP0 + k, S.HEX]
    x = start
    for i in range(n):
        x = K[S.NEXT0 + d, x]
        if i < n - 1 and T[S.HEX_TYPE, x] == S.REEF:
            reef_damage(T, log, k)
    if n > 0:
        end_move(P, T, K, F, rng, log, k, x)
        log_event(T, log, k // 2, EV.MOVE, k, start, x)


@jit(runtime=False)
def sail_path(P, T, K, F, rng, log, k, goal, n):
    """Move up to n hexes along any path toward goal as one move (the Fair Winds card, A11):
    each step to the neighbour nearest the goal, avoiding treacherous waters on ties."""
    start = T[SHIP0 + k, S.HEX]
    x = start
    last_ok = start
    for i in range(n):
        best = np.int64(-1)
        best_s = S.dist(K, x, goal) * 4
        for d in range(6):
            y = K[S.NEXT0 + d, x]
            if y >= 0 and T[S.HEX_TYPE, y] != S.ABSENT:
                s = S.dist(K, y, goal) * 4 + (1 if T[S.HEX_TYPE, y] == S.REEF else 0)
                if s < best_s:
                    best_s = s
                    best = y
        if best < 0:
            break
        if i > 0 and T[S.HEX_TYPE, x] == S.REEF:
            reef_damage(T, log, k)
        x = best
        if can_end(T, K, k, x):
            last_ok = x
    if last_ok != start:
        end_move(P, T, K, F, rng, log, k, last_ok)
        log_event(T, log, k // 2, EV.MOVE, k, start, last_ok)


@jit(runtime=False)
def roll_sea_tile(T, rng):
    """Roll a die for a random sea tile position 1..6; the two-player game rerolls a 1 or a 6
    (Rolling a Sea Tile)."""
    while True:
        p = 1 + randint(rng, CHANCE, np.int64(6))
        if T[ST, S.TWO_PLAYER] == 0 or (p != 1 and p != 6):
            return p
