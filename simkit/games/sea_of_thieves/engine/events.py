"""Event Phase: the Scurvy Knave draws the top event card and resolves its three sections in
order - 1 enemy spawns (Megalodon, Kraken tentacles, skeleton ship, skeleton fort), 2 the High
Seas event, 3 the Cutthroats' Corner benefit - then discards it to the bottom of the deck,
unless it was placed in front of the Knave (components/events.csv, A46)."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import NO_BEST, TRUE, decide, option, pick_tied
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import hexes
from simkit.games.sea_of_thieves.engine.cargo import draw, place_captain, to_bag, to_hex
from simkit.games.sea_of_thieves.engine.common import deck_bottom, deck_draw, log_event, plays_random
from simkit.games.sea_of_thieves.engine.enemies import (
    blocked,
    hazard_damage,
    knave_adjacent,
    raise_skeletons,
    scurvy_knave,
    set_enemy_hex,
    skeleton_island,
    waypoint_hex,
)
from simkit.games.sea_of_thieves.state import ENEMY0, SEAT0, SHIP0, ST
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)


# ------------------------------------------------------------------ 1 enemy spawns
@jit(runtime=False)
def spawn_at_waypoint(P, T, K, F, rng, log, knave, e, waypoint):
    """Roll a random sea tile; the enemy's standee goes on that tile's hex with the waypoint, or,
    if it holds two ships or another enemy, on an adjacent hex of the Knave's choice (Megalodon;
    Skeleton Ship). False if no hex can take it (A48)."""
    pos = hexes.roll_sea_tile(T, rng)
    h = waypoint_hex(T, pos, waypoint)
    if h < 0:
        return False
    if blocked(T, h):
        h = knave_adjacent(P, T, K, F, rng, log, knave, h)
        if h < 0:
            return False
    set_enemy_hex(T, e, h)
    T[ENEMY0 + e, S.E_STATE] = S.E_ON
    T[ENEMY0 + e, S.E_DAMAGE] = 0
    T[ENEMY0 + e, S.E_TARGET] = -1
    log_event(T, log, knave, EV.ENEMY_SPAWN, e, h, pos)
    return True


@jit(runtime=False)
def spawn_skeleton_ship(P, T, K, F, rng, log, knave, waypoint):
    """The Skeleton Sloop if it is not on the board, else the Skeleton Galleon, else nothing (and
    the Sloop when only the Galleon is out: SOT-X5, A48); its slots filled from the treasure bag."""
    e = -1
    if T[ENEMY0 + S.SKELETON_SLOOP, S.E_STATE] != S.E_ON:
        e = S.SKELETON_SLOOP
    elif T[ENEMY0 + S.SKELETON_GALLEON, S.E_STATE] != S.E_ON:
        e = S.SKELETON_GALLEON
    if e < 0:
        return
    if not spawn_at_waypoint(P, T, K, F, rng, log, knave, np.int64(e), waypoint):
        return
    for i in range(K[S.EN_DAMAGE, e]):
        t = draw(T, rng, np.int64(S.TREASURE_BAG))
        T[ENEMY0 + e, S.E_SLOT0 + i] = t  # on the card, face up (-1: the bag ran out)


@jit(runtime=False)
def kraken_targets(T, K):
    """Player ships the Kraken may rise under: not on an island or the Outpost, not with a skeleton
    ship or the Megalodon, and any other ship there able to make way (A42); of those, the ones
    with the most cargo, as a set of ships."""
    targets = np.int64(0)
    most = -1
    for k in range(2 * T[ST, S.PLAYERS]):
        h = T[SHIP0 + k, S.HEX]
        if h < 0 or T[S.HEX_TYPE, h] == S.ISLAND or T[S.HEX_TYPE, h] == S.OUTPOST:
            continue
        if S.enemy_here(T, h, True) >= 0:
            continue
        if T[S.HEX_STANDEES, h] >= 2 and not hexes.has_room_nearby(T, K, h):
            continue
        c = T[SHIP0 + k, S.HOLD_N]
        if c > most:
            most = c
            targets = np.int64(0)
        if c == most:
            targets |= option(k)
    return targets


@jit(runtime=False)
def place_kraken(P, T, K, F, rng, log, knave):
    """The Kraken rises in the hex of the ship with the most cargo among its targets (ties: the
    Knave's choice); another ship there makes way to an adjacent hex of its owner's choice. If it
    cannot be placed it waits beside the board and tries again at the next event phase (Kraken)."""
    e = S.KRAKEN
    targets = kraken_targets(T, K)
    if targets == 0:
        T[ENEMY0 + e, S.E_STATE] = S.E_WAITING
        log_event(T, log, knave, EV.KRAKEN_WAITS, ZERO, ZERO, ZERO)
        return
    at_random = plays_random(F, rng, knave)  # one coin for the whole choice (the skill knob)
    k = pick_tied(targets if at_random else bot.knave_best_ships(T, knave, targets), rng, knave)
    h = T[SHIP0 + k, S.HEX]
    for j in range(2 * T[ST, S.PLAYERS]):
        if j != k and T[SHIP0 + j, S.HEX] == h:
            dest = hexes.make_way(P, T, K, F, rng, j, h, TRUE)
            hexes.set_ship_hex(T, j, dest)
            log_event(T, log, j // 2, EV.PUSH, j, h, dest)
    set_enemy_hex(T, e, h)
    T[ENEMY0 + e, S.E_STATE] = S.E_ON
    T[ENEMY0 + e, S.E_DAMAGE] = 0
    log_event(T, log, knave, EV.ENEMY_SPAWN, e, h, k)


@jit(runtime=False)
def add_tentacles(P, T, K, F, rng, log, knave, n):
    """Tentacle tokens onto the Kraken card, one per kraken symbol; the sixth brings it up."""
    e = S.KRAKEN
    before = T[ENEMY0 + e, S.E_TENTACLES]
    T[ENEMY0 + e, S.E_TENTACLES] = min(K[S.META, S.KRAKEN_TENTACLES], before + n)
    log_event(T, log, knave, EV.TENTACLES, T[ENEMY0 + e, S.E_TENTACLES], ZERO, ZERO)
    if before < K[S.META, S.KRAKEN_TENTACLES] <= T[ENEMY0 + e, S.E_TENTACLES]:
        place_kraken(P, T, K, F, rng, log, knave)


@jit(runtime=False)
def spawn_fort(P, T, K, F, rng, log, knave, symbol):
    """The fort standee on the island with the card's symbol (if that island is not on the board,
    the skeleton-symbol island of a rolled sea tile: A43), two skeletons from the loot bag in its
    hex, the progress token on the slot numbered like the player count (Skeleton Fort)."""
    e = S.FORT
    h = T[S.SYMBOL_HEX, symbol]
    if h < 0:
        h = skeleton_island(T, K, hexes.roll_sea_tile(T, rng))
    if h < 0 or T[S.HEX_STANDEES, h] >= 2:
        return  # no room for the standee: the section has no effect (A43)
    set_enemy_hex(T, e, h)
    T[ENEMY0 + e, S.E_STATE] = S.E_ON
    T[ENEMY0 + e, S.E_PROGRESS] = K[S.FORT_TRACK, T[ST, S.PLAYERS]]
    raise_skeletons(T, K, h, K[S.META, S.FORT_WAVE])
    log_event(T, log, knave, EV.ENEMY_SPAWN, e, h, T[ENEMY0 + e, S.E_PROGRESS])


@jit(runtime=False)
def enemy_spawns(P, T, K, F, rng, log, knave, card):
    """Section 1. An enemy already on the board ignores its symbol; a defeated monster's symbol is
    a skeleton ship's (its waypoint rolled for a Kraken card: A46); in the beginner game the
    boxed enemies' symbols are ignored or read as skeleton ships (`boxed_spawns`, A49)."""
    sp = K[S.EVT_SPAWN, card]
    arg = K[S.EVT_SPAWN_ARG, card]
    e = S.MEGALODON if sp == S.SP_MEGALODON else S.KRAKEN if sp == S.SP_KRAKEN else S.FORT
    if sp != S.SP_SKELETON_SHIP:
        state = T[ENEMY0 + e, S.E_STATE]
        as_ship = state == S.E_DEFEATED or (state == S.E_BOXED and P.boxed_spawns == 1)
        if state == S.E_BOXED and not as_ship:
            return
        if as_ship:
            wp = arg if sp == S.SP_MEGALODON else 1 + randint(rng, CHANCE, np.int64(3))
            spawn_skeleton_ship(P, T, K, F, rng, log, knave, wp)
            return
        if state == S.E_ON:
            return
    if sp == S.SP_MEGALODON:
        spawn_at_waypoint(P, T, K, F, rng, log, knave, np.int64(S.MEGALODON), arg)
    elif sp == S.SP_KRAKEN:
        if T[ENEMY0 + S.KRAKEN, S.E_STATE] == S.E_OFF:  # a waiting Kraken ignores more symbols (SOT-X28, A42)
            add_tentacles(P, T, K, F, rng, log, knave, arg)
    elif sp == S.SP_SKELETON_SHIP:
        spawn_skeleton_ship(P, T, K, F, rng, log, knave, arg)
    else:
        spawn_fort(P, T, K, F, rng, log, knave, arg)


# ------------------------------------------------------------------ 2 high seas
@jit(runtime=False)
def high_seas(P, T, K, F, rng, log, knave, card):
    """Section 2, from the A46 vocabulary (flotsam is the rulebook's example)."""
    what = K[S.EVT_HIGH, card]
    arg = K[S.EVT_HIGH_ARG, card]
    players = T[ST, S.PLAYERS]
    log_event(T, log, knave, EV.HIGH_SEAS, what, arg, ZERO)
    if what == S.H_FLOTSAM or what == S.H_SHIPWRECK:
        n = 0
        for i in range(3):
            bag = S.TREASURE_BAG if (what == S.H_SHIPWRECK or i == 2) else S.LOOT_BAG
            if what == S.H_SHIPWRECK and i == 2:
                break  # a shipwreck: two treasure tokens
            t = draw(T, rng, np.int64(bag))
            if t < 0:
                continue
            if K[S.TOK_KIND, t] == S.SKELETON:
                to_bag(T, K, t)  # skeletons drawn go back (Flotsam)
                continue
            T[S.SCRATCH, 40 + n] = t
            n += 1
        h = waypoint_hex(T, hexes.roll_sea_tile(T, rng), arg)
        for i in range(n):
            if h >= 0:
                to_hex(T, K, T[S.SCRATCH, 40 + i], h)
            else:
                to_bag(T, K, T[S.SCRATCH, 40 + i])
    elif what == S.H_STORM:
        for k in range(2 * players):
            h = T[SHIP0 + k, S.HEX]
            if h >= 0 and (T[S.HEX_TYPE, h] == S.SEA or T[S.HEX_TYPE, h] == S.REEF):
                hazard_damage(T, log, k, arg)
    elif what == S.H_CAPTAIN:
        h = skeleton_island(T, K, hexes.roll_sea_tile(T, rng))
        if h >= 0:
            place_captain(T, K, rng, h)
            raise_skeletons(T, K, h, arg)
    elif what == S.H_RESTLESS:
        pos = hexes.roll_sea_tile(T, rng)
        n = 0
        for i in range(S.TILE_HEXES):
            h = pos * S.TILE_HEXES + i
            if n < arg and T[S.HEX_TYPE, h] == S.ISLAND:
                n += raise_skeletons(T, K, h, ONE)
    elif what == S.H_CALM:
        for k in range(2 * players):
            if T[SHIP0 + k, S.HEX] >= 0:
                T[SHIP0 + k, S.WATER] = max(0, T[SHIP0 + k, S.WATER] - arg)


# ------------------------------------------------------------------ 3 cutthroats' corner
@jit(runtime=False)
def shifting_sands(P, T, K, F, rng, log, knave):
    """The Knave may move a skeleton token from an island hex to another island hex. The bots move
    one from the island nearest their own ships to the one nearest the leading rival's ships."""
    n_from = 0
    for i in range(T[ST, S.N_ISLANDS]):
        h = T[S.ISLANDS, i]
        if T[S.HEX_SKELETONS, h] > T[S.HEX_CAPTAINS, h]:
            n_from += 1
    if n_from == 0:
        return
    src = np.int64(-1)  # typed: a literal -1 would compile the bot's sands_score once more
    dst = np.int64(-1)
    if plays_random(F, rng, knave):
        if decide(rng, knave, np.int64(2)) == 0:
            return
        pick = decide(rng, knave, np.int64(n_from))  # a board may hold more islands than a set of bits
        for i in range(T[ST, S.N_ISLANDS]):
            h = T[S.ISLANDS, i]
            if T[S.HEX_SKELETONS, h] > T[S.HEX_CAPTAINS, h]:
                if pick == 0:
                    src = h
                pick -= 1
        j = decide(rng, knave, T[ST, S.N_ISLANDS] - 1)
        dst = T[S.ISLANDS, j]
        if dst == src:
            dst = T[S.ISLANDS, T[ST, S.N_ISLANDS] - 1]
    else:
        best_src = NO_BEST
        best_dst = NO_BEST
        for i in range(T[ST, S.N_ISLANDS]):
            h = T[S.ISLANDS, i]
            s = bot.sands_score(T, K, knave, h)
            if T[S.HEX_SKELETONS, h] > T[S.HEX_CAPTAINS, h] and -s > best_src:
                best_src = -s
                src = h
            if s > best_dst:
                best_dst = s
                dst = h
        if src == dst or dst < 0 or bot.sands_score(T, K, knave, dst) <= bot.sands_score(T, K, knave, src):
            return
    t = -1
    for x in range(K[S.META, S.FIRST_SKELETON], K[S.META, S.FIRST_CAPTAIN]):
        if T[S.TOK_LOC, x] == src and K[S.TOK_KIND, x] == S.SKELETON:
            t = x
            break
    if t >= 0:
        to_hex(T, K, t, dst)
        log_event(T, log, knave, EV.SANDS, src, dst, ZERO)


@jit(runtime=False)
def cutthroats_corner(P, T, K, F, rng, log, knave, card):
    """Section 3: the Knave's benefit (A46). Returns True if the card stays in front of the Knave."""
    what = K[S.EVT_CORNER, card]
    arg = K[S.EVT_CORNER_ARG, card]
    log_event(T, log, knave, EV.CORNER, what, arg, ZERO)
    if what == S.C_SANDS:
        shifting_sands(P, T, K, F, rng, log, knave)
    elif what == S.C_WINDFALL:
        T[SEAT0 + knave, S.GOLD] += arg
    elif what == S.C_FORTUNE:
        for _ in range(arg):
            c = deck_draw(T, S.FORTUNE_DECK, S.FORTUNE_HEAD, S.FORTUNE_N, np.int64(S.MAX_FORTUNE))
            if c < 0:
                break
            T[S.FHAND0 + knave, T[SEAT0 + knave, S.FORT_N]] = c
            T[SEAT0 + knave, S.FORT_N] += 1
    elif what == S.C_CHARM:
        T[S.KEPT_BY, card] = knave
        T[SEAT0 + knave, S.KEPT] += 1
        return True
    return False


# ------------------------------------------------------------------ the phase
@jit(runtime=False)
def event_phase(P, T, K, F, rng, log, players):
    """Phase 3: a waiting Kraken tries to rise first (Kraken); the Scurvy Knave draws the top event
    card, resolves its sections top to bottom and discards it (Event Phase)."""
    knave = scurvy_knave(T, players)
    if T[ENEMY0 + S.KRAKEN, S.E_STATE] == S.E_WAITING:
        place_kraken(P, T, K, F, rng, log, knave)
    card = deck_draw(T, S.EVENT_DECK, S.EVENT_HEAD, S.EVENT_N, np.int64(S.MAX_EVENTS))
    if card < 0:
        return
    log_event(T, log, knave, EV.EVENT_CARD, card, ZERO, ZERO)
    enemy_spawns(P, T, K, F, rng, log, knave, card)
    high_seas(P, T, K, F, rng, log, knave, card)
    if not cutthroats_corner(P, T, K, F, rng, log, knave, card):
        deck_bottom(T, S.EVENT_DECK, S.EVENT_HEAD, S.EVENT_N, np.int64(S.MAX_EVENTS), card)
