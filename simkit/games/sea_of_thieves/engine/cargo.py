"""Ships, Crew and Cargo: the loot and treasure bags, cargo in hexes and holds, resources, and
sinking. Every token has one location (T row TOK_LOC: a hex, a hold, a bag or the box); the
bags are lists (rows LOOT_BAG_ROW, TREASURE_BAG_ROW) for blind draws, and the hexes' and
holds' counts are kept beside them."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.common import log_event
from simkit.games.sea_of_thieves.state import SHIP0, ST


@jit(runtime=False)
def leave(T, K, t):
    """Take token t out of its hex or hold counts (not out of a bag list)."""
    loc = T[S.TOK_LOC, t]
    if 0 <= loc < S.HOLD:
        if S.is_skeleton(T, K, t):
            T[S.HEX_SKELETONS, loc] -= 1
            if K[S.TOK_KIND, t] == S.CAPTAIN:
                T[S.HEX_CAPTAINS, loc] -= 1
        else:
            T[S.HEX_CARGO, loc] -= 1
    elif loc >= S.HOLD:
        k = loc - S.HOLD
        T[SHIP0 + k, S.HOLD_N] -= 1
        T[SHIP0 + k, S.HOLD_VALUE] -= K[S.TOK_VALUE, t]
        if K[S.TOK_KIND, t] == S.RESOURCE:
            T[SHIP0 + k, S.RES_N] -= 1


@jit(runtime=False)
def to_hex(T, K, t, h):
    """Token t lies face up in (cargo) or stands in (skeleton, skeleton captain) hex h."""
    leave(T, K, t)
    T[S.TOK_LOC, t] = h
    if S.is_skeleton(T, K, t):
        T[S.HEX_SKELETONS, h] += 1
        if K[S.TOK_KIND, t] == S.CAPTAIN:
            T[S.HEX_CAPTAINS, h] += 1
    else:
        T[S.HEX_CARGO, h] += 1


@jit(runtime=False)
def to_hold(T, K, t, k):
    """Token t goes face down into ship k's hold (no limit: Cargo)."""
    leave(T, K, t)
    T[S.TOK_LOC, t] = S.HOLD + k
    T[SHIP0 + k, S.HOLD_N] += 1
    T[SHIP0 + k, S.HOLD_VALUE] += K[S.TOK_VALUE, t]
    if K[S.TOK_KIND, t] == S.RESOURCE:
        T[SHIP0 + k, S.RES_N] += 1


@jit(runtime=False)
def to_bag(T, K, t):
    """Token t goes back into its bag (skeletons and resources into the loot bag); a captain
    (defeated and sold, or never defeated) goes back to the captains' pool, skeleton face up
    (A47)."""
    leave(T, K, t)
    if K[S.TOK_BAG, t] == S.CAPTAIN_POOL:
        T[S.TOK_LOC, t] = S.IN_BOX
        T[S.TOK_SIDE, t] = 0
    elif K[S.TOK_BAG, t] == S.LOOT_BAG:
        T[S.LOOT_BAG_ROW, T[ST, S.LOOT_N]] = t
        T[ST, S.LOOT_N] += 1
        T[S.TOK_LOC, t] = S.IN_LOOT_BAG
    else:
        T[S.TREASURE_BAG_ROW, T[ST, S.TREASURE_N]] = t
        T[ST, S.TREASURE_N] += 1
        T[S.TOK_LOC, t] = S.IN_TREASURE_BAG


@jit(runtime=False)
def _take(T, row, n_col, i):
    n = T[ST, n_col] - 1
    t = T[row, i]
    T[row, i] = T[row, n]
    T[ST, n_col] = n
    return t


@jit(runtime=False)
def draw(T, rng, bag):
    """A blind draw from a bag (-1 if it is empty: Loot and Treasure Bags). The token's location
    is left to the caller, who places it at once."""
    row = S.LOOT_BAG_ROW if bag == S.LOOT_BAG else S.TREASURE_BAG_ROW
    n_col = S.LOOT_N if bag == S.LOOT_BAG else S.TREASURE_N
    n = T[ST, n_col]
    if n == 0:
        return np.int64(-1)
    t = _take(T, row, n_col, randint(rng, CHANCE, n))
    T[S.TOK_LOC, t] = S.IN_BOX
    return t


@jit(runtime=False)
def draw_kind(T, K, bag, kind):
    """Search a bag for a token of this kind (-1 if it holds none: nothing is drawn)."""
    row = S.LOOT_BAG_ROW if bag == S.LOOT_BAG else S.TREASURE_BAG_ROW
    n_col = S.LOOT_N if bag == S.LOOT_BAG else S.TREASURE_N
    for i in range(T[ST, n_col]):
        if K[S.TOK_KIND, T[row, i]] == kind:
            t = _take(T, row, n_col, i)
            T[S.TOK_LOC, t] = S.IN_BOX
            return t
    return np.int64(-1)


@jit(runtime=False)
def token_at(T, K, loc, kind):
    """A token at this location of this kind (-1: any kind but skeletons), or -1."""
    for t in range(K[S.META, S.N_TOKENS]):
        if T[S.TOK_LOC, t] == loc:
            kk = K[S.TOK_KIND, t]
            if (kind < 0 and not S.is_skeleton(T, K, t)) or kk == kind:
                return t
    return np.int64(-1)


@jit(runtime=False)
def best_cargo_at(T, K, loc):
    """The most valuable cargo token lying in hex `loc` (-1 if none)."""
    best = -1
    best_v = -1
    left = T[S.HEX_CARGO, loc]  # the hex's cargo not yet looked at (HEX_CARGO counts it: to_hex, leave)
    for t in range(K[S.META, S.N_TOKENS]):
        if left == 0:
            break
        if T[S.TOK_LOC, t] == loc and not S.is_skeleton(T, K, t):
            left -= 1
            if K[S.TOK_VALUE, t] > best_v:
                best_v = K[S.TOK_VALUE, t]
                best = t
    return best


@jit(runtime=False)
def place_captain(T, K, rng, h):
    """A random skeleton captain from the pool stands in hex h (Skeleton Captains: shuffle the
    tokens and place a random one); -1 if all eight are out."""
    n = 0
    for t in range(K[S.META, S.FIRST_CAPTAIN], K[S.META, S.N_TOKENS]):
        if T[S.TOK_LOC, t] == S.IN_BOX:
            n += 1
    if n == 0:
        return np.int64(-1)
    pick = randint(rng, CHANCE, np.int64(n))
    for t in range(K[S.META, S.FIRST_CAPTAIN], K[S.META, S.N_TOKENS]):
        if T[S.TOK_LOC, t] == S.IN_BOX:
            if pick == 0:
                T[S.TOK_SIDE, t] = 0
                to_hex(T, K, t, h)
                return np.int64(t)
            pick -= 1
    return np.int64(-1)


@jit(runtime=False)
def defeat_skeleton(T, K, h):
    """Fight: a normal skeleton of hex h goes back to the loot bag; a skeleton captain only when no
    normal skeleton shares the hex, and it stays, flipped to its captain's treasure face (Skeleton
    Captains). Returns the token (-1: none) ."""
    if T[S.HEX_SKELETONS, h] > T[S.HEX_CAPTAINS, h]:  # a normal skeleton stands here (the counts: leave, to_hex)
        for t in range(K[S.META, S.FIRST_SKELETON], K[S.META, S.FIRST_CAPTAIN]):
            if T[S.TOK_LOC, t] == h and K[S.TOK_KIND, t] == S.SKELETON:
                to_bag(T, K, t)
                return np.int64(t)
    for t in range(K[S.META, S.FIRST_CAPTAIN], K[S.META, S.N_TOKENS]):
        if T[S.TOK_LOC, t] == h and T[S.TOK_SIDE, t] == 0:
            leave(T, K, t)
            T[S.TOK_SIDE, t] = 1
            T[S.TOK_LOC, t] = S.IN_BOX
            to_hex(T, K, t, h)
            return np.int64(t)
    return np.int64(-1)


@jit(runtime=False)
def spend_resource(T, K, k):
    """Discard a resource from ship k's hold back into the loot bag (Resources); False if none."""
    if T[SHIP0 + k, S.RES_N] == 0:
        return False
    t = token_at(T, K, S.HOLD + k, S.RESOURCE)
    to_bag(T, K, t)
    return True


@jit(runtime=False)
def swap_cargo(T, K, log, t, k_from, k_to):
    """Pass token t between two ships of one player in the same hex, between moves (Cargo)."""
    if (k_from // 2 != k_to // 2 or T[SHIP0 + k_from, S.HEX] < 0
            or T[SHIP0 + k_from, S.HEX] != T[SHIP0 + k_to, S.HEX] or T[S.TOK_LOC, t] != S.HOLD + k_from):
        return False
    to_hold(T, K, t, k_to)
    log_event(T, log, k_from // 2, EV.SWAP, k_from, k_to, t)
    return True


@jit(runtime=False)
def count_kinds(T, K, seat, treasure_bag):
    """Tokens of the seat's holds that came from the treasure bag (1) or the loot bag (0) - the
    final tie-breakers (Pirate Legend; A17)."""
    n = 0
    for t in range(K[S.META, S.N_TOKENS]):
        loc = T[S.TOK_LOC, t]
        if (loc >= S.HOLD and (loc - S.HOLD) // 2 == seat and K[S.TOK_BAG, t] == treasure_bag
                and K[S.TOK_KIND, t] != S.SKELETON):  # captain's treasure is neither (A17)
            n += 1
    return n
