"""Ocean Hazards Phase: the monsters and skeleton ships on the board take their turns, lowest
reference-card number first, each following its behaviour card as a flow chart from the first
question along the arrows until its turn ends (components/behaviour.toml, A44). Skeleton forts
have no card and take no turn. The Scurvy Knave breaks ties (which ship, which hex).

Enemies keep the two-standee limit and take no treacherous-waters damage; they pass through
full hexes and end only in a hex with room (A44)."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import FALSE, NO_BEST, TRUE, join_best, option, pick_tied
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine.common import log_event, plays_random
from simkit.games.sea_of_thieves.engine.crew import defeat_crew
from simkit.games.sea_of_thieves.engine.enemies import (
    enemy_attack,
    scurvy_knave,
    set_enemy_hex,
    submerge,
    target_choice,
)
from simkit.games.sea_of_thieves.state import ENEMY0, SHIP0, ST
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)


@jit(runtime=False)
def nearest_ship_hex(P, T, K, F, rng, e, knave, reach, need_room):
    """The hex of the player ship nearest enemy e within `reach` hexes (need_room: only hexes it
    may end in, i.e. with fewer than two standees); ties: the Scurvy Knave. -1 if none.

    One pass over the ships keeps, as bit sets of ship numbers, those at the nearest distance
    (the Knave's ties when it picks at random) and among them those it likes best; the Knave's
    coin is tossed after the pass, only when a ship is in reach, and its tie draw picks among
    the set in ship order."""
    h = T[ENEMY0 + e, S.E_HEX]
    best_d = reach + 1
    nearest = np.int64(0)  # bit k: ship k is at distance best_d
    liked = np.int64(0)  # bit k: ... and the Knave likes it as much as best_s
    best_s = NO_BEST
    for k in range(2 * T[ST, S.PLAYERS]):
        x = T[SHIP0 + k, S.HEX]
        if x < 0 or x == h or (need_room and T[S.HEX_STANDEES, x] >= 2):
            continue
        d = S.dist(K, h, x)
        if d > reach or d > best_d:
            continue
        s = bot.knave_ship_score(T, knave, k)
        if d < best_d:
            best_d = d
            nearest = np.int64(0)
            liked = np.int64(0)
            best_s = NO_BEST
        nearest |= option(k)
        liked, best_s = join_best(liked, best_s, k, s)
    if nearest == 0:
        return np.int64(-1)
    at_random = plays_random(F, rng, knave)  # one coin for the whole choice (the skill knob)
    return T[SHIP0 + pick_tied(nearest if at_random else liked, rng, knave), S.HEX]


@jit(runtime=False)
def move_toward(T, K, e, goal, steps):
    """Up to `steps` hexes toward goal, each to the neighbour nearest it; the standee ends in the
    last hex with room it reached (A44)."""
    h = T[ENEMY0 + e, S.E_HEX]
    x = h
    end = h
    for _ in range(steps):
        best = -1
        best_d = S.dist(K, x, goal)
        for d in range(6):
            y = K[S.NEXT0 + d, x]
            if y >= 0 and T[S.HEX_TYPE, y] != S.ABSENT and S.dist(K, y, goal) < best_d:
                best_d = S.dist(K, y, goal)
                best = y
        if best < 0:
            break
        x = best
        if T[S.HEX_STANDEES, x] < 2:
            end = x
    if end != h:
        set_enemy_hex(T, e, end)
    return end


@jit(runtime=False)
def enemy_turn(P, T, K, F, rng, log, e, knave):
    """Enemy e follows its behaviour chart (K rows CH_*) from its first node to `end`."""
    node = K[S.EN_CHART, e]
    T[ENEMY0 + e, S.E_TARGET] = -1
    for _ in range(S.MAX_NODES):
        if node < 0 or T[ENEMY0 + e, S.E_STATE] != S.E_ON:
            return
        op = K[S.CH_OP, node]
        arg = K[S.CH_ARG, node]
        h = T[ENEMY0 + e, S.E_HEX]
        yes = False
        if op == S.Q_SHIP_HERE:
            for k in range(2 * T[ST, S.PLAYERS]):
                if T[SHIP0 + k, S.HEX] == h:
                    yes = True
        elif op == S.Q_SHIP_WITHIN:
            yes = nearest_ship_hex(P, T, K, F, rng, e, knave, arg, TRUE) >= 0
        elif op == S.Q_DAMAGED:
            yes = T[ENEMY0 + e, S.E_DAMAGE] >= arg
        elif op == S.D_MOVE_IN:
            x = nearest_ship_hex(P, T, K, F, rng, e, knave, np.int64(1000), TRUE)
            if x >= 0:
                set_enemy_hex(T, e, x)
                log_event(T, log, np.int64(-1), EV.ENEMY_MOVE, e, h, x)
        elif op == S.D_MOVE_TOWARD:
            x = nearest_ship_hex(P, T, K, F, rng, e, knave, np.int64(1000), FALSE)
            if x >= 0:
                y = move_toward(T, K, e, x, arg)
                if y != h:
                    log_event(T, log, np.int64(-1), EV.ENEMY_MOVE, e, h, y)
        elif op == S.D_ATTACK or op == S.D_GRAB:
            k = T[ENEMY0 + e, S.E_TARGET]
            if k < 0 or T[SHIP0 + k, S.HEX] != h:
                k = target_choice(P, T, K, F, rng, h, knave)
                T[ENEMY0 + e, S.E_TARGET] = k
            if k >= 0:
                if op == S.D_ATTACK:
                    enemy_attack(P, T, K, F, rng, log, e, k)
                else:
                    log_event(T, log, np.int64(-1), EV.ENEMY_GRAB, e, k, arg)
                    defeat_crew(T, K, F, rng, log, k, arg)
        elif op == S.D_SUBMERGE:
            submerge(T, log, e)
        else:
            return
        if op <= S.Q_DAMAGED:
            node = K[S.CH_YES, node] if yes else K[S.CH_NO, node]
        else:
            node = K[S.CH_YES, node]


@jit(runtime=False)
def ocean_hazards_phase(P, T, K, F, rng, log, players):
    """Phase 2: each enemy on the board takes a turn, in the order of its reference card's number."""
    knave = scurvy_knave(T, players)
    last = -1
    for _ in range(S.N_ENEMIES):
        # the next enemy card by number after `last`
        e = np.int64(-1)  # typed: a literal -1 would compile enemy_turn once more, for that value
        for x in range(S.N_ENEMIES):
            if K[S.EN_ORDER, x] > last and (e < 0 or K[S.EN_ORDER, x] < K[S.EN_ORDER, e]):
                e = x
        if e < 0:
            return
        last = K[S.EN_ORDER, e]
        if T[ENEMY0 + e, S.E_STATE] == S.E_ON and K[S.EN_CHART, e] >= 0:
            log_event(T, log, knave, EV.ENEMY_TURN, e, T[ENEMY0 + e, S.E_HEX], ZERO)
            enemy_turn(P, T, K, F, rng, log, e, knave)
