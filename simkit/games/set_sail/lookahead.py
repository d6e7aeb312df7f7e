"""Set Sail's lookahead tier: flat Monte Carlo over the turn's main
decision, the pair of tiles the two pieces sail to.

At the start of its turn a lookahead seat lists candidates: the heuristic's own pair first,
then the best pair of each other kind of move (the unordered pair of tile types the pieces
end on: fish and fight, Pirate Port and Supply Port, ...), at most `W_CANDIDATES` in all.
Each candidate is scored by `W_ROLLOUTS` playouts from a copy of the state: the hidden
information is re-dealt first (A25), the candidate is played, then every seat plays the
heuristic the seat carries (its own row's heuristic weights, copied into every playout seat
when it decides: the treasure hunter's for `lookahead`, the tuned preset's for `expert`) to
the end of the game (or `W_HORIZON` more rounds). A playout is
worth the seat's share of the win (a capped game is nobody's) plus `W_MARGIN` per VP of its
lead over the best rival. The candidate with the best mean wins, unless it beats the
heuristic's pair by less than `W_PREFER`: near-ties go to the heuristic.

Randomness: playout k of every candidate runs on the same streams (common random numbers),
seeded from the k-th draw of the seat's own decision stream; the game's chance stream and
the other seats' streams are never touched, and playouts write no log. Since the re-deal
depends only on the state and the seed, playout k is dealt once (the tables D and rngD) and
every candidate's playout k starts from copies of that deal. The scratch tables (the
lookahead's part of chunk.play_with_tables) are allocated once per chunk.
"""

import numpy as np

from simkit.core.game import LOG_WIDTH
from simkit.core.jit import jit
from simkit.core.kernels import NO_BEST, copy_rows, fixed_width, sort_ints
from simkit.core.rng import CHANCE, next_u64, seed_streams, shuffle
from simkit.games.set_sail import engine as E
from simkit.games.set_sail import state as S
from simkit.games.set_sail.engine import BUF_WIDTH, F_WIDTH
from simkit.games.set_sail.state import DECK0, MAPS0, MAX_HEALTH, META, QDECK0, SEAT0, ST, START, T_WIDTH
from strategies import set_sail as bot

MAX_CANDIDATES = 16
MAX_ROLLOUTS = 512
N_KINDS = S.N_TYPES * S.N_TYPES  # kinds of move: (type of piece 0's tile, type of piece 1's)
# rows of the int scratch table L
POOL, KEEP, CAND, KIND_PICK, LEVEL_TILE = 0, 1, 2, 3, 4
L_ROWS = 5
L_WIDTH = S.N_TYPES * S.MAX_DIST  # >= every ship deck, a quest deck with the maps held, N_KINDS
# rows of the float scratch table V
VALUE, KIND_VALUE, LEVEL_VALUE = 0, 1, 2
V_ROWS = 3
V_WIDTH = L_WIDTH


@jit(runtime=False)
def lookahead_turn(P, T, K, F, rng, buf, log, seat, T2, F2, rng2, buf2, log2, L, V, seeds, D, rngD):
    """A lookahead seat's turn: as engine.take_turn, with the movement chosen by playouts."""
    # constant row widths in the playouts' tables too (simkit.core.kernels: Constant row widths)
    T2, F2, rng2 = fixed_width(T2, T_WIDTH), fixed_width(F2, F_WIDTH), fixed_width(rng2, 4)
    buf2, log2, L = fixed_width(buf2, BUF_WIDTH), fixed_width(log2, LOG_WIDTH), fixed_width(L, L_WIDTH)
    V, D, rngD = fixed_width(V, V_WIDTH), fixed_width(D, T_WIDTH), fixed_width(rngD, 4)
    budget = E.begin_turn(P, T, log, seat)
    if E.plays_random(F, rng, seat):  # the skill knob applies to the main decision too
        pick = E.random_moves(T, K, rng, buf, seat, budget)
    else:
        pick = best_moves(P, T, K, F, rng, buf, seat, budget, T2, F2, rng2, buf2, log2, L, V, seeds, D, rngD)
    E.finish_turn(P, T, K, F, rng, buf, log, seat, pick)


@jit(runtime=False)
def candidates(P, T, K, F, buf, seat, budget, L, V, limit):
    """Fill L[CAND] with the heuristic's pair, then the best pair of each other kind of move
    by the heuristic's tile values, best first; returns how many (0 if no pair is legal)."""
    first = E.heuristic_moves(P, T, K, F, buf, seat, budget)
    if first < 0:
        return 0
    cand = L[CAND]
    cand[0] = first
    v = F[0]  # heuristic_moves left the tile values here
    n = K[META, S.N_TILES]
    dmax = min(budget, np.int64(S.MAX_DIST - 1))
    for k in range(N_KINDS):
        V[KIND_VALUE, k] = NO_BEST
        L[KIND_PICK, k] = -1
    # piece 1's best tile of each type within each distance (index type * MAX_DIST + d)
    for i in range(S.N_TYPES * S.MAX_DIST):
        V[LEVEL_VALUE, i] = NO_BEST
        L[LEVEL_TILE, i] = -1
    start0, start1 = T[START, 0], T[START, 1]  # read once (E.ends_legally)
    dist0, dist1 = K[S.DIST0 + start0], K[S.DIST0 + start1]
    for b in range(n):
        if E.ends_legally(dist1[b], dmax - 1, b, start1, start0):  # piece 1
            i = K[S.TILE_TYPE, b] * S.MAX_DIST + dist1[b]
            if v[b] > V[LEVEL_VALUE, i]:
                V[LEVEL_VALUE, i] = v[b]
                L[LEVEL_TILE, i] = b
    for ty in range(S.N_TYPES):
        for d in range(1, dmax + 1):
            i = ty * S.MAX_DIST + d
            if V[LEVEL_VALUE, i - 1] > V[LEVEL_VALUE, i]:
                V[LEVEL_VALUE, i] = V[LEVEL_VALUE, i - 1]
                L[LEVEL_TILE, i] = L[LEVEL_TILE, i - 1]
    for a in range(n):
        if not E.ends_legally(dist0[a], dmax - 1, a, start0, start1):  # piece 0
            continue
        left = min(dmax, budget - dist0[a])
        for ty in range(S.N_TYPES):
            b = L[LEVEL_TILE, ty * S.MAX_DIST + left]
            if b < 0:
                continue
            if E.port_group(K, a, E.ZERO) != E.port_group(K, b, E.ONE):
                val = v[a] + v[b]
            else:  # one visit for both pieces (A5), or both on one water tile
                val = max(v[a], v[b])
            kind = K[S.TILE_TYPE, a] * S.N_TYPES + ty
            if val > V[KIND_VALUE, kind]:
                V[KIND_VALUE, kind] = val
                L[KIND_PICK, kind] = a * S.MAX_TILES + b
    own = K[S.TILE_TYPE, first // S.MAX_TILES] * S.N_TYPES + K[S.TILE_TYPE, first % S.MAX_TILES]
    L[KIND_PICK, own] = -1  # the heuristic's pair stands for its kind
    count = np.int64(1)
    while count < limit:
        best = np.int64(-1)
        for k in range(N_KINDS):
            if L[KIND_PICK, k] >= 0 and (best < 0 or V[KIND_VALUE, k] > V[KIND_VALUE, best]):
                best = k
        if best < 0:
            break
        cand[count] = L[KIND_PICK, best]
        L[KIND_PICK, best] = -1
        count += 1
    return count


@jit(runtime=False)
def best_moves(P, T, K, F, rng, buf, seat, budget, T2, F2, rng2, buf2, log2, L, V, seeds, D, rngD):
    """The candidate pair with the best mean playout value (near-ties to the heuristic's).
    D, rngD: playout k's re-dealt table and its streams as the re-deal left them, dealt once for
    every candidate; each playout starts from copies of them (T2, rng2)."""
    w = F[1 + seat]
    limit = min(np.int64(MAX_CANDIDATES), np.int64(w[bot.W_CANDIDATES]))
    count = candidates(P, T, K, F, buf, seat, budget, L, V, limit)
    if count <= 1:
        return L[CAND, 0] if count == 1 else E.NONE
    rollout_weights(F2, w, T[ST, S.PLAYERS])
    rollouts = min(np.int64(MAX_ROLLOUTS), np.int64(w[bot.W_ROLLOUTS]))
    for k in range(rollouts):
        seeds[k] = next_u64(rng, 1 + seat)
    for c in range(count):
        V[VALUE, c] = 0.0
    horizon = np.int64(w[bot.W_HORIZON])
    for k in range(rollouts):
        copy_rows(D, T, 0, T.shape[0])
        seed_streams(rngD, seeds[k])
        redeal(D, rngD, L, seat)
        for c in range(count):
            copy_rows(T2, D, 0, T.shape[0])
            copy_rows(rng2, rngD, 0, rng2.shape[0])
            V[VALUE, c] += playout(P, T2, K, F2, rng2, buf2, log2, seat, L[CAND, c], horizon, w[bot.W_MARGIN])
    best = np.int64(0)
    bar = V[VALUE, 0] + w[bot.W_PREFER] * rollouts
    for c in range(1, count):
        if V[VALUE, c] > bar and V[VALUE, c] > V[VALUE, best]:
            best = c
    return L[CAND, best]


@jit(runtime=False)
def rollout_weights(F2, w, players):
    """Every playout seat's heuristic weights (slots 1 to bot.N_HEURISTIC - 1) copied from the
    deciding seat's row `w`: the playouts play the heuristic the seat carries. F2's policy and
    noise columns stay as play_chunk loaded them (the ROLLOUT row: heuristic, noise 0)."""
    for s in range(players):
        for j in range(1, bot.N_HEURISTIC):
            F2[1 + s, j] = w[j]


@jit(runtime=False)
def redeal(T2, rng2, L, me):
    """Shuffle what `me` cannot see among the places it cannot see, keeping every count (A25):
    each ship deck with the rivals' cards of that deck, the rivals' Trade cards among
    themselves, each quest deck with the cards removed at set-up, and the Treasure Quest deck
    with the rivals' undug maps. Discards, open quests and everything on the table stay."""
    players = T2[ST, S.PLAYERS]
    pool = L[POOL]
    keep = L[KEEP]
    for d in range(2):
        top = T2[ST, S.DECK_N0 + d]
        n = np.int64(0)
        for i in range(top):
            pool[n] = T2[DECK0 + d, i]
            n += 1
        for s in range(players):
            keep[s] = 0
            if s == me:
                continue
            for h in range(MAX_HEALTH):
                col = S.SHIP0 + d * MAX_HEALTH + h
                for _ in range(T2[SEAT0 + s, col]):
                    pool[n] = h
                    n += 1
                keep[s] += T2[SEAT0 + s, col]
                T2[SEAT0 + s, col] = 0
        # sorted before the shuffle: the re-deal depends on which cards are unseen, never
        # on where they really are
        sort_ints(pool, n)
        shuffle(rng2, CHANCE, pool, n)
        for i in range(top):
            T2[DECK0 + d, i] = pool[i]
        j = top
        for s in range(players):
            for _ in range(keep[s]):
                T2[SEAT0 + s, S.SHIP0 + d * MAX_HEALTH + pool[j]] += 1
                j += 1
    # the rivals' Trade cards (how many each holds shows; which goods do not)
    n = np.int64(0)
    for s in range(players):
        keep[s] = 0
        if s == me:
            continue
        for g in range(S.N_GOODS):
            for _ in range(T2[SEAT0 + s, S.GOODS0 + g]):
                pool[n] = g
                n += 1
            keep[s] += T2[SEAT0 + s, S.GOODS0 + g]
            T2[SEAT0 + s, S.GOODS0 + g] = 0
    sort_ints(pool, n)
    shuffle(rng2, CHANCE, pool, n)
    j = np.int64(0)
    for s in range(players):
        for _ in range(keep[s]):
            T2[SEAT0 + s, S.GOODS0 + pool[j]] += 1
            j += 1
    # quest decks: the deck (bottom part of the row) and the set-up removals above it
    for kind in range(2):
        n = T2[ST, S.QDECK_N0 + kind] + T2[ST, S.QREMOVED0 + kind]
        sort_ints(T2[QDECK0 + kind], n)
        shuffle(rng2, CHANCE, T2[QDECK0 + kind], n)
    unseen = T2[ST, S.QDECK_N0 + S.TREASURE] + T2[ST, S.QREMOVED0 + S.TREASURE]
    n = np.int64(0)
    for i in range(unseen):
        pool[n] = T2[QDECK0 + S.TREASURE, i]
        n += 1
    for s in range(players):
        if s != me:
            for i in range(T2[SEAT0 + s, S.N_MAPS]):
                pool[n] = T2[MAPS0 + s, i]
                n += 1
    sort_ints(pool, n)
    shuffle(rng2, CHANCE, pool, n)
    for i in range(unseen):
        T2[QDECK0 + S.TREASURE, i] = pool[i]
    j = unseen
    for s in range(players):
        if s != me:
            for i in range(T2[SEAT0 + s, S.N_MAPS]):
                T2[MAPS0 + s, i] = pool[j]
                j += 1


@jit(runtime=False)
def playout(P, T2, K, F2, rng2, buf2, log2, seat, pick, horizon, margin):
    """Play `pick` for `seat`, then F2's heuristic (the seat's own, rollout_weights) for everyone to the end (or
    `horizon` more rounds, 0 = no limit); the seat's win share plus `margin` per VP of lead."""
    E.finish_turn(P, T2, K, F2, rng2, buf2, log2, seat, pick)
    players = T2[ST, S.PLAYERS]
    for s in range(seat + 1, players):
        E.take_turn(P, T2, K, F2, rng2, buf2, log2, s)
    T2[ST, S.ROUND] += 1
    stop = T2[ST, S.ROUND] + horizon if horizon > 0 else P.round_cap
    while T2[ST, S.END_REASON] < 0:
        if T2[ST, S.ROUND] >= P.round_cap:
            return 0.0  # capped: nobody wins (A19)
        if T2[ST, S.ROUND] >= stop:
            break
        for s in range(players):
            E.take_turn(P, T2, K, F2, rng2, buf2, log2, s)
        T2[ST, S.ROUND] += 1
    # the win as final scoring would give it now: most VP, then most silver (A19)
    mine = T2[SEAT0 + seat, S.VP] * 1000000 + T2[SEAT0 + seat, S.SILVER]
    best_rival = np.int64(-1)
    rival_vp = np.int64(0)
    sharers = np.int64(1)
    for s in range(players):
        if s == seat:
            continue
        key = T2[SEAT0 + s, S.VP] * 1000000 + T2[SEAT0 + s, S.SILVER]
        best_rival = max(best_rival, key)
        rival_vp = max(rival_vp, T2[SEAT0 + s, S.VP])
        if key == mine:
            sharers += 1
    win = 0.0
    if mine > best_rival:
        win = 1.0
    elif mine == best_rival:
        win = 1.0 / sharers
    return win + margin * (T2[SEAT0 + seat, S.VP] - rival_vp)
