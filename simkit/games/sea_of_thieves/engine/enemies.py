"""Enemies and Ocean Hazards: the Scurvy Knave, enemy standees on the board, their attacks on
player ships, and the damage player ships deal them (Damaging Enemies): skeleton ships sink
when their damage slots are full and leave their treasure (Sinking Skeleton Ships); the
Megalodon is defeated at its damage for the player count; the Kraken card's three-token rule
(A42); defeated monsters leave the game, submerged ones may return (Defeating Monsters); and
the skeleton fort, fought only hand to hand by Plunder's Fight (A43).

Enemy state lives in T rows ENEMY0 + e (state.py); cards and charts in K (components/)."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import option, pick_tied
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.cargo import draw, draw_kind, place_captain, to_hex
from simkit.games.sea_of_thieves.engine.common import gain_reputation, log_event, plays_random
from simkit.games.sea_of_thieves.engine.crew import die_successes
from simkit.games.sea_of_thieves.state import ENEMY0, SEAT0, SHIP0, ST
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)


# ------------------------------------------------------------------ the Scurvy Knave
@jit(runtime=False)
def scurvy_knave(T, players):
    """The player with the lowest reputation; ties: the least gold; still tied: the tied player
    furthest clockwise from the first player - the last of them in turn order, the first player
    counting as distance 0 (The Scurvy Knave; SOT-X6, A39)."""
    best = 0
    for s in range(1, players):
        r = T[SEAT0 + s, S.REP]
        g = T[SEAT0 + s, S.GOLD]
        br = T[SEAT0 + best, S.REP]
        bg = T[SEAT0 + best, S.GOLD]
        if r < br or (r == br and g <= bg):  # equal on both: the later seat is further clockwise
            best = s
    return np.int64(best)


# ------------------------------------------------------------------ standees
@jit(inline="always", runtime=False)
def set_enemy_hex(T, e, h):
    """Enemy e's standee to hex h (-1: off the board), keeping the hexes' standee counts."""
    old = T[ENEMY0 + e, S.E_HEX]
    if old >= 0:
        T[S.HEX_STANDEES, old] -= 1
    T[ENEMY0 + e, S.E_HEX] = h
    if h >= 0:
        T[S.HEX_STANDEES, h] += 1


@jit(inline="always", runtime=False)
def ships_in(T, h):
    n = 0
    for k in range(2 * T[ST, S.PLAYERS]):
        if T[SHIP0 + k, S.HEX] == h:
            n += 1
    return n


@jit(runtime=False)
def blocked(T, h):
    """A spawn hex holding two ships or another enemy (Event Phase: Megalodon, Skeleton Ship)."""
    return ships_in(T, h) >= 2 or S.enemy_here(T, h, True) >= 0 or T[S.HEX_STANDEES, h] >= 2


@jit(runtime=False)
def knave_adjacent(P, T, K, F, rng, log, knave, h):
    """The Scurvy Knave picks a hex adjacent to h for a blocked spawn: on the board, not blocked
    (A48: -1 if there is none, and the enemy is not placed). The bots' ties are drawn from the
    Knave's decision stream, so no seat is favoured by the order of the hexes."""
    at_random = plays_random(F, rng, knave)  # one coin for the whole choice (the skill knob)
    options = np.int64(0)  # the directions to a sea hex that is not blocked
    for d in range(6):
        x = K[S.NEXT0 + d, h]
        if x >= 0 and T[S.HEX_TYPE, x] != S.ABSENT and not blocked(T, x):
            options |= option(d)
    d = pick_tied(options if at_random else bot.knave_best_hexes(T, K, knave, h, options), rng, knave)
    return K[S.NEXT0 + d, h] if d >= 0 else np.int64(-1)


@jit(runtime=False)
def waypoint_hex(T, position, waypoint):
    """The hex of the given waypoint symbol on the sea tile at this hub position."""
    for i in range(S.TILE_HEXES):
        h = position * S.TILE_HEXES + i
        if T[S.HEX_WAYPOINT, h] == waypoint:
            return np.int64(h)
    return np.int64(-1)


@jit(runtime=False)
def skeleton_island(T, K, position):
    """The island with the skeleton symbol on the face at this hub position (A4: one per face)."""
    f = T[S.LAYOUT, position]
    for i in range(S.TILE_HEXES):
        if K[S.FACE_SKELETON, f * S.TILE_HEXES + i] == 1:
            return np.int64(position * S.TILE_HEXES + i)
    return np.int64(-1)


@jit(runtime=False)
def target_choice(P, T, K, F, rng, h, knave):
    """The player ship in hex h an enemy attacks; with several, the Scurvy Knave picks (The
    Scurvy Knave: ties on enemy turns; the bots' own ties drawn from its stream). -1 if none."""
    at_random = plays_random(F, rng, knave)  # one coin for the whole choice (the skill knob)
    ships = np.int64(0)
    for k in range(2 * T[ST, S.PLAYERS]):
        if T[SHIP0 + k, S.HEX] == h:
            ships |= option(k)
    return pick_tied(ships if at_random else bot.knave_best_ships(T, knave, ships), rng, knave)


# ------------------------------------------------------------------ enemies attack
@jit(runtime=False)
def enemy_attack(P, T, K, F, rng, log, e, k):
    """Roll the enemy card's attack dice (successes as in a crew roll); each success puts one
    damage token on ship k's card (A40-A42). The damage is the hazard's (LAST_HIT)."""
    hits = np.int64(0)
    for _ in range(K[S.EN_ATTACK, e]):
        hits += die_successes(1 + randint(rng, CHANCE, np.int64(6)))
    T[SHIP0 + k, S.DAMAGE] += hits
    if hits > 0:
        T[SHIP0 + k, S.LAST_HIT] = S.HAZARD
    log_event(T, log, np.int64(-1), EV.ENEMY_ATTACK, e, k, hits)


@jit(runtime=False)
def hazard_damage(T, log, k, n):
    """n damage tokens on ship k from an event (a storm): the hazard's, like an enemy attack."""
    T[SHIP0 + k, S.DAMAGE] += n
    if n > 0:
        T[SHIP0 + k, S.LAST_HIT] = S.HAZARD
    log_event(T, log, k // 2, EV.DAMAGE, k, T[SHIP0 + k, S.DAMAGE], np.int64(2))


# ------------------------------------------------------------------ enemies damaged
@jit(runtime=False)
def submerge(T, log, e):
    """A monster leaves the board without being defeated: it may return (Defeating Monsters). Its
    damage is discarded (A41); the Kraken's tentacle tokens leave its card (A42)."""
    h = T[ENEMY0 + e, S.E_HEX]
    set_enemy_hex(T, e, np.int64(-1))
    T[ENEMY0 + e, S.E_STATE] = S.E_OFF
    T[ENEMY0 + e, S.E_DAMAGE] = 0
    if e == S.KRAKEN:
        T[ENEMY0 + e, S.E_TENTACLES] = 0
    log_event(T, log, np.int64(-1), EV.SUBMERGE, e, h, ZERO)


@jit(runtime=False)
def defeat_monster(P, T, K, log, e, k):
    """The Megalodon or the Kraken is defeated by ship k: its card and standee go back to the box
    for good, and k's player gains its reputation (A41, A42)."""
    seat = k // 2
    h = T[ENEMY0 + e, S.E_HEX]
    set_enemy_hex(T, e, np.int64(-1))
    T[ENEMY0 + e, S.E_STATE] = S.E_DEFEATED
    T[ENEMY0 + e, S.E_DAMAGE] = 0
    T[SEAT0 + seat, S.MONSTERS] += 1
    log_event(T, log, seat, EV.ENEMY_DEFEATED, e, k, h)
    if K[S.EN_REP, e] > 0:
        gain_reputation(P, T, log, seat, K[S.EN_REP, e])


@jit(runtime=False)
def sink_skeleton_ship(P, T, K, log, e, k):
    """A skeleton ship sinks: its standee leaves, the treasure on its card is laid face up in its
    hex; it does not respawn, but a later event may summon it again (Sinking Skeleton Ships)."""
    h = T[ENEMY0 + e, S.E_HEX]
    left = 0
    for i in range(5):
        t = T[ENEMY0 + e, S.E_SLOT0 + i]
        if t >= 0:
            to_hex(T, K, t, h)
            T[ENEMY0 + e, S.E_SLOT0 + i] = -1
            left += 1
    set_enemy_hex(T, e, np.int64(-1))
    T[ENEMY0 + e, S.E_STATE] = S.E_OFF
    T[ENEMY0 + e, S.E_DAMAGE] = 0
    log_event(T, log, k // 2, EV.ENEMY_DEFEATED, e, k, h)
    if K[S.EN_REP, e] > 0:
        gain_reputation(P, T, log, k // 2, K[S.EN_REP, e])
    return left


@jit(runtime=False)
def damage_enemy(P, T, K, F, rng, log, e, k, n):
    """Ship k's Open Fire puts n damage tokens on enemy e's card (Damaging Enemies)."""
    if n <= 0:
        return
    T[ENEMY0 + e, S.E_LAST_HIT] = k
    T[ENEMY0 + e, S.E_DAMAGE] += n
    log_event(T, log, k // 2, EV.ENEMY_DAMAGE, e, k, T[ENEMY0 + e, S.E_DAMAGE])
    if e == S.SKELETON_SLOOP or e == S.SKELETON_GALLEON:
        if T[ENEMY0 + e, S.E_DAMAGE] >= K[S.EN_DAMAGE, e]:
            sink_skeleton_ship(P, T, K, log, e, k)
    elif e == S.MEGALODON:
        if T[ENEMY0 + e, S.E_DAMAGE] >= K[S.MEG_DAMAGE, T[ST, S.PLAYERS]]:
            defeat_monster(P, T, K, log, e, k)
    elif e == S.KRAKEN and T[ENEMY0 + e, S.E_DAMAGE] >= K[S.META, S.KRAKEN_WOUND]:
        # three loose tokens: the card's rule (A42) - a wound; the Kraken lets go and submerges,
        # or is defeated at its last wound; damage beyond the three is lost with it
        T[ENEMY0 + e, S.E_WOUNDS] += 1
        log_event(T, log, k // 2, EV.KRAKEN_WOUND, k, T[ENEMY0 + e, S.E_WOUNDS], ZERO)
        if T[ENEMY0 + e, S.E_WOUNDS] >= K[S.META, S.KRAKEN_WOUNDS]:
            defeat_monster(P, T, K, log, e, k)
        else:
            submerge(T, log, e)


# ------------------------------------------------------------------ skeleton forts
@jit(runtime=False)
def raise_skeletons(T, K, h, n):
    """n skeleton tokens searched out of the loot bag into hex h (as many as it holds)."""
    got = 0
    for _ in range(n):
        t = draw_kind(T, K, np.int64(S.LOOT_BAG), np.int64(S.SKELETON))
        if t < 0:
            break
        to_hex(T, K, t, h)
        got += 1
    return got


@jit(runtime=False)
def fort_cleared(P, T, K, F, rng, log, k):
    """Ship k has fought the last skeleton in the fort's hex: the progress token moves down a
    slot; above 0 the fort raises a new wave (two skeletons, and on the last slot a skeleton
    captain too); at 0 the fort is raided - its treasure is left in the hex, k's player gains
    its reputation, and its standee leaves, to return with a later fort event (A43)."""
    e = S.FORT
    h = T[ENEMY0 + e, S.E_HEX]
    seat = k // 2
    while T[ENEMY0 + e, S.E_STATE] == S.E_ON and T[S.HEX_SKELETONS, h] == 0:
        T[ENEMY0 + e, S.E_PROGRESS] -= 1
        p = T[ENEMY0 + e, S.E_PROGRESS]
        log_event(T, log, seat, EV.FORT_WAVE, h, p, k)
        if p > 0:
            raise_skeletons(T, K, h, K[S.META, S.FORT_WAVE])
            if p == 1:
                place_captain(T, K, rng, h)
            continue
        for _ in range(K[S.META, S.FORT_TREASURE]):
            t = draw(T, rng, np.int64(S.TREASURE_BAG))
            if t < 0:
                break
            to_hex(T, K, t, h)
        set_enemy_hex(T, e, np.int64(-1))
        T[ENEMY0 + e, S.E_STATE] = S.E_OFF
        T[SEAT0 + seat, S.FORTS] += 1
        log_event(T, log, seat, EV.FORT_RAIDED, k, h, K[S.EN_REP, e])
        if K[S.EN_REP, e] > 0:
            gain_reputation(P, T, log, seat, K[S.EN_REP, e])


@jit(runtime=False)
def fire_targets(T, k):
    """Enemies ship k can Open Fire on: the monsters and skeleton ships in its hex (never the
    fort: Damaging Enemies). T[SCRATCH, 0..n)."""
    h = T[SHIP0 + k, S.HEX]
    n = 0
    for e in range(S.N_ENEMIES):
        if e != S.FORT and T[ENEMY0 + e, S.E_STATE] == S.E_ON and T[ENEMY0 + e, S.E_HEX] == h:
            T[S.SCRATCH, 16 + n] = e
            n += 1
    return n
