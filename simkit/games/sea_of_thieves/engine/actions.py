"""Fleets Phase, step B: up to three actions a turn, at most two per ship. Each action places an
action token, may start a voyage, lets every crew token take a task, then resolves one action:
Full Sail, Open Fire, Plunder, Trade, or a fortune card's special action."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import count_options, decide, nth_option, option, pick_option
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import hexes
from simkit.games.sea_of_thieves.engine.cargo import best_cargo_at, defeat_skeleton, draw, to_hex, to_hold
from simkit.games.sea_of_thieves.engine.common import log_event, plays_random
from simkit.games.sea_of_thieves.engine.crew import crew_roll, defeat_crew, discard_fortune, do_tasks
from simkit.games.sea_of_thieves.engine.enemies import damage_enemy, fire_targets, fort_cleared
from simkit.games.sea_of_thieves.engine.trade import trade
from simkit.games.sea_of_thieves.engine.voyages import abandon_voyage, after_action, on_fight, on_loot, start_voyage
from simkit.games.sea_of_thieves.state import ENEMY0, SEAT0, SHIP0, ST
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)
NONE = np.int64(-1)


# ------------------------------------------------------------------ Full Sail
@jit(runtime=False)
def full_sail_option(T, K, k, h, n, pick):
    """Full Sail's alternatives from hex h with n successes: each (direction d, distance m) whose
    hex ship k may end on, direction by direction, nearest first; the lines are too many for a
    set of bits. Returns (how many there are, d, m of the pick-th; pick -1: none)."""
    count = np.int64(0)
    for d in range(6):
        x = h
        for m in range(1, n + 1):
            x = K[S.NEXT0 + d, x]
            if x < 0 or T[S.HEX_TYPE, x] == S.ABSENT:
                break
            if hexes.can_end(T, K, k, x):
                if count == pick:
                    return count, np.int64(d), np.int64(m)
                count += 1
    return count, NONE, NONE


@jit(runtime=False)
def full_sail(P, T, K, F, rng, log, k, goal, bonus):
    """Crew roll; each success moves the ship up to one hex, all in one straight line."""
    seat = k // 2
    n = crew_roll(T, K, F, rng, log, k) + bonus + S.special_amount(T, K, k, np.int64(S.E_HELMSMAN))
    h = T[SHIP0 + k, S.HEX]
    if n == 0:
        return
    if plays_random(F, rng, seat):  # staying put, or any line end: counted, then walked to
        count, _, _ = full_sail_option(T, K, k, h, n, NONE)
        pick = decide(rng, seat, count + 1)
        if pick > 0:
            _, d, m = full_sail_option(T, K, k, h, n, pick - 1)
            hexes.sail_line(P, T, K, F, rng, log, k, d, m)
        return
    best_d = -1
    best_m = 0
    best_s = 4 * S.dist(K, h, goal)  # integer scores: a float's int-to-float conversions cost more
    for d in range(6):
        reefs = 0
        x = h
        for m in range(1, n + 1):
            x = K[S.NEXT0 + d, x]
            if x < 0 or T[S.HEX_TYPE, x] == S.ABSENT:
                break
            if hexes.can_end(T, K, k, x):
                s = 4 * S.dist(K, x, goal) + 3 * reefs
                if s < best_s:
                    best_s = s
                    best_d = d
                    best_m = m
            if T[S.HEX_TYPE, x] == S.REEF:
                reefs += 1
    if best_d >= 0:
        hexes.sail_line(P, T, K, F, rng, log, k, np.int64(best_d), np.int64(best_m))


# ------------------------------------------------------------------ Open Fire
@jit(runtime=False)
def rival_count(T, k):
    """Targets of Open Fire in k's hex: other players' ships (A24), monsters and skeleton ships
    (Damaging Enemies; never the fort)."""
    h = T[SHIP0 + k, S.HEX]
    n = 0
    for j in range(2 * T[ST, S.PLAYERS]):
        if j // 2 != k // 2 and T[SHIP0 + j, S.HEX] == h:
            n += 1
    return n + fire_targets(T, k)


@jit(runtime=False)
def open_fire(P, T, K, F, rng, log, k, bonus):
    """Choose another player's ship or an enemy in the hex (never one's own ship: A24, nor the
    fort), crew roll, one damage per success on the target's card. The bots fire on an enemy
    they hunt, else on the rival ship with the fullest hold."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    n = rival_count(T, k)
    if n == 0:
        return
    n_enemies = fire_targets(T, k)
    target = np.int64(-1)
    enemy = np.int64(-1)  # typed: a literal -1 would compile the bot's enemy_worth once more
    if plays_random(F, rng, seat):
        options = np.int64(0)  # a rival ship there as itself, the e-th enemy there as MAX_SHIPS + e
        for j in range(2 * T[ST, S.PLAYERS]):
            if j // 2 != seat and T[SHIP0 + j, S.HEX] == h:
                options |= option(j)
        for e_i in range(n_enemies):
            options |= option(S.MAX_SHIPS + e_i)
        pick = pick_option(options, rng, seat)
        if pick < S.MAX_SHIPS:
            target = pick
        else:
            enemy = T[S.SCRATCH, 16 + pick - S.MAX_SHIPS]
    else:
        target, enemy = bot.fire_target(P, T, K, F, k, n_enemies)
        if enemy >= 0 and not plays_random(F, rng, seat):
            target = -1
    hits = crew_roll(T, K, F, rng, log, k) + bonus + S.special_amount(T, K, k, np.int64(S.E_GUNNER))
    if target < 0:
        if enemy < 0:
            enemy = T[S.SCRATCH, 16]
        log_event(T, log, seat, EV.FIRE_ENEMY, k, enemy, hits)
        damage_enemy(P, T, K, F, rng, log, enemy, k, hits)
        return
    T[SHIP0 + target, S.DAMAGE] += hits
    if hits > 0:
        T[SHIP0 + target, S.LAST_HIT] = k
    log_event(T, log, seat, EV.OPEN_FIRE, k, target, hits)


# ------------------------------------------------------------------ Plunder
@jit(runtime=False)
def plunder(P, T, K, F, rng, log, k):
    """Crew roll; each success buys one entry, declared and resolved one at a time: Fight (discard
    a skeleton from the hex), Loot (island hexes: draw from the loot bag - cargo into the hold,
    a skeleton into the hex), Haul (a cargo token from the hex into the hold). Then each skeleton
    in the hex defeats one crew member (A25: once, at the end, whatever entries were taken)."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    n = crew_roll(T, K, F, rng, log, k) + S.special_amount(T, K, k, np.int64(S.E_DIGGER))
    island = T[S.HEX_TYPE, h] == S.ISLAND
    for left in range(n, 0, -1):
        can_fight = T[S.HEX_SKELETONS, h] > 0
        can_haul = T[S.HEX_CARGO, h] > 0
        if plays_random(F, rng, seat):
            options = option(S.P_STOP)
            if can_fight:
                options |= option(S.P_FIGHT)
            if island:
                options |= option(S.P_LOOT)
            if can_haul:
                options |= option(S.P_HAUL)
            entry = pick_option(options, rng, seat)
        elif can_fight:
            entry = S.P_FIGHT
        elif can_haul:
            entry = S.P_HAUL
        elif island and (left > 1 or bot.w(F, seat, bot.W_LAST_LOOT) > 0.0):
            entry = S.P_LOOT
        else:
            entry = S.P_STOP
        if entry == S.P_STOP:
            break
        if entry == S.P_FIGHT:
            t = defeat_skeleton(T, K, h)
            log_event(T, log, seat, EV.FIGHT, k, h, T[S.HEX_SKELETONS, h])
            if K[S.TOK_KIND, t] == S.CAPTAIN:
                log_event(T, log, seat, EV.CAPTAIN_DEFEATED, k, t, h)
            on_fight(P, T, K, rng, log, k)
            fort = T[ENEMY0 + S.FORT, S.E_STATE] == S.E_ON and T[ENEMY0 + S.FORT, S.E_HEX] == h
            if fort and T[S.HEX_SKELETONS, h] == 0:
                fort_cleared(P, T, K, F, rng, log, k)  # the fort is fought hand to hand (A43)
        elif entry == S.P_LOOT:
            t = draw(T, rng, np.int64(S.LOOT_BAG))
            if t >= 0:
                if K[S.TOK_KIND, t] == S.SKELETON:
                    to_hex(T, K, t, h)
                else:
                    to_hold(T, K, t, k)
                log_event(T, log, seat, EV.LOOT, k, K[S.TOK_KIND, t], K[S.TOK_VALUE, t])
            on_loot(P, T, K, rng, log, k)
        else:
            t = best_cargo_at(T, K, h)
            to_hold(T, K, t, k)
            log_event(T, log, seat, EV.HAUL, k, K[S.TOK_KIND, t], K[S.TOK_VALUE, t])
    attackers = T[S.HEX_SKELETONS, h] - S.special_amount(T, K, k, np.int64(S.E_SURGEON))
    if attackers > 0:
        defeat_crew(T, K, F, rng, log, k, attackers)


# ------------------------------------------------------------------ fortune cards
@jit(runtime=False)
def fortune_index(T, K, seat, effect):
    for i in range(T[SEAT0 + seat, S.FORT_N]):
        if K[S.FO_EFFECT, T[S.FHAND0 + seat, i]] == effect:
            return i
    return np.int64(-1)


@jit(runtime=False)
def play_instants(P, T, K, F, rng, log, k):
    """Fortune cards played during one's own turn for their effect (A11), before the tasks. The
    bots play what helps this ship now; `random` plays nothing."""
    seat = k // 2
    if plays_random(F, rng, seat):
        return
    r = SHIP0 + k
    while True:
        i = fortune_index(T, K, seat, np.int64(S.F_COIN))
        if i < 0:
            break
        card = discard_fortune(T, seat, i)
        T[SEAT0 + seat, S.GOLD] += K[S.FO_AMOUNT, card]
        log_event(T, log, seat, EV.FORTUNE_PLAY, card, K[S.FO_EFFECT, card], k)
    if T[r, S.DAMAGE] >= 2 or (T[r, S.DAMAGE] > 0 and T[r, S.RES_N] == 0):
        i = fortune_index(T, K, seat, np.int64(S.F_PLANKS))
        if i >= 0:
            card = discard_fortune(T, seat, i)
            T[r, S.DAMAGE] = max(0, T[r, S.DAMAGE] - K[S.FO_AMOUNT, card])
            log_event(T, log, seat, EV.FORTUNE_PLAY, card, K[S.FO_EFFECT, card], k)
    if T[r, S.WATER] + T[r, S.DAMAGE] >= S.gauge(T, K, k) - 1 and T[r, S.WATER] > 0:
        i = fortune_index(T, K, seat, np.int64(S.F_PUMP))
        if i >= 0:
            card = discard_fortune(T, seat, i)
            T[r, S.WATER] = max(0, T[r, S.WATER] - K[S.FO_AMOUNT, card])
            log_event(T, log, seat, EV.FORTUNE_PLAY, card, K[S.FO_EFFECT, card], k)
    if S.defeated(T, k) >= 2:
        i = fortune_index(T, K, seat, np.int64(S.F_RUM))
        if i >= 0:
            card = discard_fortune(T, seat, i)
            T[r, S.CREW_UP] += T[r, S.CREW_DOWN]
            T[r, S.CREW_DOWN] = 0
            for j in range(S.MAX_SLOTS):
                T[r, S.SPEC_DOWN0 + j] = 0
            log_event(T, log, seat, EV.FORTUNE_PLAY, card, K[S.FO_EFFECT, card], k)


@jit(runtime=False)
def special_legal(T, K, k, effect):
    if effect == S.F_FAIR_WINDS:
        return True
    if effect == S.F_BROADSIDE:
        return rival_count(T, k) > 0
    if effect == S.F_BURIED_MAP:
        return T[S.HEX_TYPE, T[SHIP0 + k, S.HEX]] == S.ISLAND
    return False


@jit(runtime=False)
def special_action(P, T, K, F, rng, log, k, i, goal):
    """Resolve the special action of the i-th fortune card in hand, then discard it."""
    seat = k // 2
    card = T[S.FHAND0 + seat, i]
    effect = K[S.FO_EFFECT, card]
    amount = K[S.FO_AMOUNT, card]
    discard_fortune(T, seat, i)
    log_event(T, log, seat, EV.FORTUNE_PLAY, card, effect, k)
    if effect == S.F_FAIR_WINDS:
        if plays_random(F, rng, seat):
            goal = decide(rng, seat, np.int64(S.MAX_HEX))
            if T[S.HEX_TYPE, goal] == S.ABSENT:
                goal = T[SHIP0 + k, S.HEX]
        hexes.sail_path(P, T, K, F, rng, log, k, goal, amount)
    elif effect == S.F_BROADSIDE:
        open_fire(P, T, K, F, rng, log, k, amount)
    elif effect == S.F_BURIED_MAP:
        for _ in range(amount):
            t = draw(T, rng, np.int64(S.TREASURE_BAG))
            if t < 0:
                break
            to_hold(T, K, t, k)


# ------------------------------------------------------------------ one action
RANDOM_ACTIONS = (S.A_FULL_SAIL, S.A_PLUNDER, S.A_OPEN_FIRE, S.A_TRADE)  # a random seat's alternatives 0..3


@jit(runtime=False)
def legal_special(T, K, k, pick):
    """The fortune cards of ship k's player whose special action is legal now, in hand order.
    Returns (how many, the hand index of the pick-th; pick -1: none)."""
    seat = k // 2
    count = np.int64(0)
    for i in range(T[SEAT0 + seat, S.FORT_N]):
        if special_legal(T, K, k, K[S.FO_EFFECT, T[S.FHAND0 + seat, i]]):
            if count == pick:
                return count, np.int64(i)
            count += 1
    return count, NONE


@jit(runtime=False)
def choose_action(P, T, K, F, rng, k, goal, intent):
    """(action, fortune hand index for a special action) for ship k after its tasks."""
    seat = k // 2
    h = T[SHIP0 + k, S.HEX]
    at_outpost = T[S.HEX_TYPE, h] == S.OUTPOST
    rivals = rival_count(T, k)
    if plays_random(F, rng, seat):
        # Full Sail, Plunder, Open Fire (a rival there), Trade (at the Outpost), then each
        # special action of the hand (a hand may outgrow a set of bits: counted, then walked to)
        basic = option(0) | option(1)
        if rivals > 0:
            basic |= option(2)
        if at_outpost:
            basic |= option(3)
        specials, _ = legal_special(T, K, k, NONE)
        pick = decide(rng, seat, count_options(basic) + specials)
        a = nth_option(basic, pick)
        if a >= 0:
            return RANDOM_ACTIONS[a], NONE
        _, i = legal_special(T, K, k, pick - count_options(basic))
        return S.A_SPECIAL, i
    if at_outpost and (intent == bot.I_TRADE or T[SHIP0 + k, S.HOLD_N] > T[SHIP0 + k, S.RES_N]
                       or T[SHIP0 + k, S.DAMAGE] > 0 or T[SEAT0 + seat, S.VOY_N] == 0):
        return S.A_TRADE, np.int64(-1)
    v = T[SHIP0 + k, S.VOYAGE]
    hunting = v >= 0 and K[S.V_TASK, v] == S.V_SINK and rivals > fire_targets(T, k)
    if rivals > 0 and not hunting:
        for j in range(2 * T[ST, S.PLAYERS]):
            if j // 2 != seat and T[SHIP0 + j, S.HEX] == h and bot.fire_on(T, F, k, j):
                hunting = True
        for i in range(fire_targets(T, k)):
            if bot.fire_on_enemy(T, K, F, k, T[S.SCRATCH, 16 + i]):
                hunting = True
    if rivals > 0 and hunting:
        i = fortune_index(T, K, seat, np.int64(S.F_BROADSIDE))
        if i >= 0:
            return S.A_SPECIAL, i
        return S.A_OPEN_FIRE, np.int64(-1)
    island = T[S.HEX_TYPE, h] == S.ISLAND
    if T[S.HEX_CARGO, h] > 0 or (T[S.HEX_SKELETONS, h] > 0 and v >= 0 and K[S.V_TASK, v] == S.V_FIGHT):
        return S.A_PLUNDER, np.int64(-1)
    if h == goal:
        if island:
            i = fortune_index(T, K, seat, np.int64(S.F_BURIED_MAP))
            if i >= 0 and intent == bot.I_LOOT:
                return S.A_SPECIAL, i
            return S.A_PLUNDER, np.int64(-1)
        return S.A_FULL_SAIL, np.int64(-1)
    i = fortune_index(T, K, seat, np.int64(S.F_FAIR_WINDS))
    # Fair Winds only when the goal lies beyond the card's move (its amount, fortune.csv: A11)
    if (i >= 0 and S.dist(K, h, goal) > K[S.FO_AMOUNT, T[S.FHAND0 + seat, i]]
            and T[SEAT0 + seat, S.FORT_N] > bot.w(F, seat, bot.W_KEEP_FORTUNE)):
        return S.A_SPECIAL, i
    return S.A_FULL_SAIL, np.int64(-1)


@jit(runtime=False)
def take_action(P, T, K, F, rng, log, k):
    """One action of ship k: action token, voyage start, fortune cards, tasks, the action, and the
    voyages it completes."""
    seat = k // 2
    T[SHIP0 + k, S.ACTIONS] += 1
    T[SEAT0 + seat, S.ACTIONS_LEFT] -= 1
    # a voyage may be abandoned (A52), then one started, at the start of any of the ship's
    # actions, before its tasks (A26); random never abandons: a free act, like a cargo swap (A53)
    if T[SHIP0 + k, S.VOYAGE] >= 0:
        T[SHIP0 + k, S.VOY_AGE] += 1
        if not plays_random(F, rng, seat) and bot.abandon_now(T, K, F, k):
            abandon_voyage(P, T, K, log, k)
    if T[SHIP0 + k, S.VOYAGE] < 0 and T[SEAT0 + seat, S.VOY_N] > 0:
        if plays_random(F, rng, seat):
            if decide(rng, seat, np.int64(2)) == 1:
                start_voyage(T, K, log, k, decide(rng, seat, T[SEAT0 + seat, S.VOY_N]))
        else:
            start_voyage(T, K, log, k, bot.pick_voyage(P, T, K, F, k))
    play_instants(P, T, K, F, rng, log, k)
    goal, intent = bot.ship_goal(P, T, K, F, k)
    changed = do_tasks(P, T, K, F, rng, log, k, goal)
    if T[SHIP0 + k, S.HEX] < 0:
        return
    if changed:  # else the plan stands: ship_goal reads only T, K, F and P, and the tasks left T as it was
        goal, intent = bot.ship_goal(P, T, K, F, k)
    action, card_i = choose_action(P, T, K, F, rng, k, goal, intent)
    log_event(T, log, seat, EV.ACTION, k, action, T[SHIP0 + k, S.ACTIONS])
    if action == S.A_FULL_SAIL:
        full_sail(P, T, K, F, rng, log, k, goal, ZERO)
    elif action == S.A_OPEN_FIRE:
        open_fire(P, T, K, F, rng, log, k, ZERO)
    elif action == S.A_PLUNDER:
        plunder(P, T, K, F, rng, log, k)
    elif action == S.A_TRADE:
        trade(P, T, K, F, rng, log, k)
    else:
        special_action(P, T, K, F, rng, log, k, card_i, goal)
    after_action(P, T, K, rng, log, k)
