"""Tide of Avaris rules below the turn: crew dice, the treasure hold and bag, burial, combat and
its outcomes, sinking, and every Board Action (numba).

Tables (layout in state.py): P rules, T int64 state, K int64 statics, F float64 weights, rng
(stream 0 chance, 1 + s seat s's decisions), log. Functions take those of (P, T, K, F, rng, log)
they need, in that order, then their own arguments.
"""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import FALSE, TRUE, append_event, copy_prefix
from simkit.core.rng import CHANCE, randint, shuffle
from simkit.games.tide_of_avaris import events as EV
from simkit.games.tide_of_avaris import state as S
from simkit.games.tide_of_avaris.state import (
    BAG,
    CONTROL,
    DICE0,
    FACE,
    HOLD0,
    META,
    ORDER,
    READY,
    SEAT0,
    SLOT,
    ST,
    can_hold,
    colour_count,
    hold_shape,
)
from strategies import tide_of_avaris as bot

NONE = np.int64(-1)
ZERO = np.int64(0)
ONE = np.int64(1)


@jit(runtime=False)
def log_event(T, log, seat, code, a, b, c):
    """One row of the event log, dated by the day it happens in (simkit.core.kernels.append_event)."""
    append_event(T, log, ST, S.LOG_N, T[ST, S.DAY], seat, code, a, b, c)


# --------------------------------------------------------------------------- gold and rum
@jit(runtime=False)
def gain_gold(T, seat, n):
    T[SEAT0 + seat, S.GOLD] += n
    T[ST, S.GOLD_MADE] += n


@jit(runtime=False)
def pay_gold(T, seat, n):
    T[SEAT0 + seat, S.GOLD] -= n
    T[ST, S.GOLD_PAID] += n


@jit(runtime=False)
def gain_rum(T, seat, n):
    T[SEAT0 + seat, S.RUM] += n
    T[ST, S.RUM_MADE] += n


@jit(runtime=False)
def pay_rum(T, seat, n):
    T[SEAT0 + seat, S.RUM] -= n
    T[ST, S.RUM_PAID] += n


# --------------------------------------------------------------------------- crew dice
@jit(runtime=False)
def roll_die(T, K, rng, seat, i):
    T[DICE0 + seat, FACE + i] = randint(rng, CHANCE, K[META, S.N_CREW_FACES])
    T[DICE0 + seat, READY + i] = 1


@jit(runtime=False)
def roll_crew(T, K, rng, seat):
    """Day start: every crew die (and the Crew Spirit Die if held, A25) rolled into the crew area."""
    for i in range(S.MAX_DICE):
        if i < T[SEAT0 + seat, S.CREW_N]:
            roll_die(T, K, rng, seat, i)
        else:
            T[DICE0 + seat, READY + i] = 0
    if T[CONTROL, S.CTRL_CREW] == seat:
        roll_die(T, K, rng, seat, np.int64(S.SPIRIT_SLOT))
    else:
        T[DICE0 + seat, READY + S.SPIRIT_SLOT] = 0


@jit(runtime=False)
def command(T, K, log, seat, i):
    """Command die i to gather its resource (Crew Dice); attack/defence dice count in the current
    combat only (TEMP_ATTACK / TEMP_DEFENCE, cleared when it ends)."""
    f = T[DICE0 + seat, FACE + i]
    T[DICE0 + seat, READY + i] = 0
    res = K[S.CREW_RES, f]
    n = K[S.CREW_AMOUNT, f]
    if res == S.RES_GOLD:
        gain_gold(T, seat, n)
    elif res == S.RES_RUM:
        gain_rum(T, seat, n)
    elif res == S.RES_ATTACK:
        T[SEAT0 + seat, S.TEMP_ATTACK] += n
    else:
        T[SEAT0 + seat, S.TEMP_DEFENCE] += n
    log_event(T, log, seat, EV.COMMAND, f, res, n)


@jit(inline="always", runtime=False)
def exhaust(T, seat, i):
    T[DICE0 + seat, READY + i] = 0


@jit(runtime=False)
def cheapest_die(T, K, seat, colour):
    """The ready die of that colour (any colour: -1) with the lowest wager Number, or -1."""
    best = NONE
    for i in range(S.DIE_SLOTS):
        if T[DICE0 + seat, READY + i] == 1:
            f = T[DICE0 + seat, FACE + i]
            if colour >= 0 and K[S.CREW_COLOUR, f] != colour:
                continue
            if best < 0 or K[S.CREW_NUMBER, f] < K[S.CREW_NUMBER, T[DICE0 + seat, FACE + best]]:
                best = np.int64(i)
    return best


@jit(runtime=False)
def lose_die(T, K, seat):
    """Jettison one crew die (Sinking Ship): an exhausted one if any, else the lowest Number."""
    n = T[SEAT0 + seat, S.CREW_N]
    pick = NONE
    for i in range(n):
        if T[DICE0 + seat, READY + i] == 0:
            pick = np.int64(i)
            break
    if pick < 0:
        pick = ZERO
        for i in range(n):
            if K[S.CREW_NUMBER, T[DICE0 + seat, FACE + i]] < K[S.CREW_NUMBER, T[DICE0 + seat, FACE + pick]]:
                pick = np.int64(i)
    T[DICE0 + seat, FACE + pick] = T[DICE0 + seat, FACE + n - 1]
    T[DICE0 + seat, READY + pick] = T[DICE0 + seat, READY + n - 1]
    T[DICE0 + seat, READY + n - 1] = 0
    T[SEAT0 + seat, S.CREW_N] = n - 1
    T[ST, S.DICE_LOST] += 1


# --------------------------------------------------------------------------- treasure
@jit(inline="always", runtime=False)
def bag_total(T):
    n = 0
    for c in range(S.N_COLOURS):
        n += T[BAG, c]
    return n


@jit(runtime=False)
def draw_bag(T, rng):
    """A random treasure's colour from the bag (-1 if empty)."""
    n = bag_total(T)
    if n == 0:
        return NONE
    k = randint(rng, CHANCE, n)
    for c in range(S.N_COLOURS):
        if k < T[BAG, c]:
            T[BAG, c] -= 1
            return np.int64(c)
        k -= T[BAG, c]
    return NONE


@jit(inline="always", runtime=False)
def stow(T, seat, c, bound):
    """Place a treasure in the hold, X-side down unless bound (Important Terms 8)."""
    if bound:
        T[HOLD0 + seat, S.BOUND + c] += 1
    else:
        T[HOLD0 + seat, S.UNBOUND + c] += 1


@jit(runtime=False)
def random_treasure(P, T, K, rng, log, seat, reason):
    """Collect a Random Treasure; an empty bag pays gold instead (Random Treasure). A treasure with
    no room in the hold goes back into the bag (A6)."""
    c = draw_bag(T, rng)
    if c < 0:
        gain_gold(T, seat, np.int64(P.empty_bag_gold))
        log_event(T, log, seat, EV.GAIN, NONE, reason, np.int64(P.empty_bag_gold))
        return
    if can_hold(T, K, seat, c):
        stow(T, seat, c, False)
        log_event(T, log, seat, EV.GAIN, c, reason, ZERO)
    else:
        T[BAG, c] += 1


@jit(inline="always", runtime=False)
def slot_treasure(T, space):
    """The slot of the space holding a treasure (the first), or -1."""
    for k in range(S.MAX_SLOTS):
        if T[SLOT, 2 * space + k] >= 0:
            return np.int64(2 * space + k)
    return NONE


@jit(inline="always", runtime=False)
def has_treasure(T, space):
    return slot_treasure(T, space) >= 0


# --------------------------------------------------------------------------- burial and bonuses
@jit(runtime=False)
def bonus_met(T, K, seat, card, space):
    kind = K[S.BB_KIND, card]
    arg = K[S.BB_ARG, card]
    upper, lower = hold_shape(T, seat)
    if kind == S.BB_COLOUR:
        if space < 0:
            return False
        for k in range(S.MAX_SLOTS):
            if T[SLOT, 2 * space + k] == arg:
                return True
        return False
    if kind == S.BB_UPPER:
        return upper >= arg
    if kind == S.BB_LOWER:
        return lower >= arg
    if kind == S.BB_REGION:
        return space >= 0 and K[S.SP_REGION, space] == arg
    return upper + lower >= arg


@jit(runtime=False)
def bury(T, K, log, seat):
    """Bury the whole hold: the rightmost Upper value + 1 per Lower treasure, then the face-up
    Burial Bonus and the seat's private ones if met (2. Act - Bury Treasure). Buried treasure
    is kept by colour for Matching Colours (TOA-G15)."""
    space = T[SEAT0 + seat, S.POS]
    upper, lower = hold_shape(T, seat)
    if upper == 0:
        return
    bonus = ZERO
    card = T[ST, S.PUBLIC_BONUS]
    if card >= 0 and bonus_met(T, K, seat, card, space):
        bonus += K[S.BB_POINTS, card]
        T[ST, S.PUBLIC_BONUS] = -1
        log_event(T, log, seat, EV.BONUS, card, K[S.BB_POINTS, card], ZERO)
    i = 0
    while i < T[SEAT0 + seat, S.PRIVATE_N]:
        card = T[S.PRIVATE0 + seat, i]
        if bonus_met(T, K, seat, card, space):
            bonus += K[S.BB_POINTS, card]
            T[SEAT0 + seat, S.SECRET_POINTS] += K[S.BB_POINTS, card]
            log_event(T, log, seat, EV.BONUS, card, K[S.BB_POINTS, card], ONE)
            n = T[SEAT0 + seat, S.PRIVATE_N] - 1
            T[S.PRIVATE0 + seat, i] = T[S.PRIVATE0 + seat, n]
            T[SEAT0 + seat, S.PRIVATE_N] = n
        else:
            i += 1
    points = K[S.UPPER_VALUE, upper] + lower + T[SEAT0 + seat, S.REL_BURIAL]
    for c in range(S.N_COLOURS):
        T[HOLD0 + seat, S.BURIED + c] += colour_count(T, seat, c)
        T[HOLD0 + seat, S.UNBOUND + c] = 0
        T[HOLD0 + seat, S.BOUND + c] = 0
    T[SEAT0 + seat, S.POINTS] += points + bonus
    T[SEAT0 + seat, S.BONUS_POINTS] += bonus
    T[SEAT0 + seat, S.BURIALS] += 1
    log_event(T, log, seat, EV.BURY, points, upper, lower)


# --------------------------------------------------------------------------- control (Taking Control)
@jit(runtime=False)
def take_control(T, K, rng, log, seat, loc):
    old = T[CONTROL, loc]
    n = T[CONTROL, S.SLOOPS_AT + loc] + 1
    if old >= 0:
        T[SEAT0 + old, S.SLOOPS_OUT] -= T[CONTROL, S.SLOOPS_AT + loc]  # sloops return only now
        if loc == S.CTRL_CREW:
            T[DICE0 + old, READY + S.SPIRIT_SLOT] = 0
    T[CONTROL, loc] = seat
    T[CONTROL, S.SLOOPS_AT + loc] = n
    T[SEAT0 + seat, S.SLOOPS_OUT] += n
    if loc == S.CTRL_CREW:
        roll_die(T, K, rng, seat, np.int64(S.SPIRIT_SLOT))  # rolled at once (Taking Control)
    log_event(T, log, seat, EV.CONTROL, loc, n, old)


# --------------------------------------------------------------------------- relics
@jit(runtime=False)
def refill_display(P, T, rng):
    while T[ST, S.DISPLAY_N] < P.relic_display:
        if T[ST, S.RELIC_DECK_N] == 0:
            n = T[ST, S.RELIC_DISC_N]
            if n == 0:
                return
            copy_prefix(T, S.RELIC_DECK, T, S.RELIC_DISC, n)
            T[ST, S.RELIC_DISC_N] = 0
            T[ST, S.RELIC_DECK_N] = n
            shuffle(rng, CHANCE, T[S.RELIC_DECK], n)
        T[ST, S.RELIC_DECK_N] -= 1
        T[S.DISPLAY, T[ST, S.DISPLAY_N]] = T[S.RELIC_DECK, T[ST, S.RELIC_DECK_N]]
        T[ST, S.DISPLAY_N] += 1


@jit(runtime=False)
def gain_relic(P, T, K, log, seat, card):
    n = T[SEAT0 + seat, S.N_RELICS]
    if n >= P.relic_slots:
        return False  # four slots full: no more relics (Relics)
    T[S.RELICS0 + seat, n] = card
    T[SEAT0 + seat, S.N_RELICS] = n + 1
    e = K[S.RELIC_EFFECT, card]
    a = K[S.RELIC_AMOUNT, card]
    T[SEAT0 + seat, S.REL0 + e] += a  # a bonus adds its amount; a rule-breaking relic counts 1 (A68)
    log_event(T, log, seat, EV.RELIC, card, e, a)
    return True


@jit(runtime=False)
def take_from_display(P, T, K, log, seat, i):
    card = T[S.DISPLAY, i]
    if not gain_relic(P, T, K, log, seat, card):
        return False
    n = T[ST, S.DISPLAY_N] - 1
    T[S.DISPLAY, i] = T[S.DISPLAY, n]
    T[ST, S.DISPLAY_N] = n
    return True


@jit(runtime=False)
def relic_from_deck(P, T, K, rng, log, seat):
    """A monster's relic reward: the first relic of the display (refilled), A9."""
    if T[ST, S.DISPLAY_N] > 0 and take_from_display(P, T, K, log, seat, ZERO):
        refill_display(P, T, rng)


# --------------------------------------------------------------------------- combat
@jit(runtime=False)
def roll_hits(T, K, rng, dice, face_hit, wind_adv):
    """Hits of `dice` combat dice counting face `face_hit` (and wind with the Wind Advantage)."""
    hits = ZERO
    for _ in range(dice):
        f = K[S.COMBAT_FACE, randint(rng, CHANCE, K[META, S.N_COMBAT_FACES])]
        if f == face_hit or (wind_adv and f == S.WIND):
            hits += 1
    return hits


@jit(runtime=False)
def commit_crew(T, K, F, rng, log, seat, res):
    """Battle start: the side commands its ready crew dice showing its side's resource (A49)."""
    for i in range(S.DIE_SLOTS):
        if (T[DICE0 + seat, READY + i] == 1 and K[S.CREW_RES, T[DICE0 + seat, FACE + i]] == res
                and bot.commit_combat_die(T, K, F, rng, seat, res)):
            command(T, K, log, seat, np.int64(i))


@jit(runtime=False)
def side_dice(T, seat, attacking):
    """1 + upgrades + relics + crew commanded to this side (3. Battle)."""
    if attacking:
        return 1 + T[SEAT0 + seat, S.ATTACK] + T[SEAT0 + seat, S.REL_ATTACK] + T[SEAT0 + seat, S.TEMP_ATTACK]
    return 1 + T[SEAT0 + seat, S.DEFENCE] + T[SEAT0 + seat, S.REL_DEFENCE] + T[SEAT0 + seat, S.TEMP_DEFENCE]


@jit(runtime=False)
def battle(P, T, K, F, rng, log, att, dfn, card, wind):
    """Roll until one side has more hits (ties reroll everything, A50). att/dfn: a seat, or
    FOE_NAVY / FOE_MONSTER with `card`. wind: +1 the attacker has the Wind Advantage, -1 the
    defender, 0 nobody. Returns True if the attacker wins."""
    if att >= 0:
        commit_crew(T, K, F, rng, log, att, np.int64(S.RES_ATTACK))
    if dfn >= 0:
        commit_crew(T, K, F, rng, log, dfn, np.int64(S.RES_DEFENCE))
    # wind hits for the side with the Wind Advantage; a wind_always relic's owner counts it in
    # every battle (A68)
    a_win = P.wind == 1 and (wind > 0 or (att >= 0 and T[SEAT0 + att, S.REL_WIND] > 0))
    d_win = P.wind == 1 and (wind < 0 or (dfn >= 0 and T[SEAT0 + dfn, S.REL_WIND] > 0))
    result = False
    for attempt in range(P.tie_rerolls + 1):
        if att >= 0:
            ah = roll_hits(T, K, rng, side_dice(T, att, TRUE), np.int64(S.SWORD), a_win)
            if T[CONTROL, S.CTRL_MARAUDER] == att:
                ah += K[S.MARAUDER_HITS, randint(rng, CHANCE, K[META, S.N_MARAUDER])]
        else:
            ah = roll_hits(T, K, rng, K[S.NAVY_ATTACK, card], np.int64(S.SWORD), a_win)
        if dfn >= 0:
            dh = roll_hits(T, K, rng, side_dice(T, dfn, FALSE), np.int64(S.SHIELD), d_win)
            if T[CONTROL, S.CTRL_GUARDIAN] == dfn:
                dh += K[S.GUARDIAN_HITS, randint(rng, CHANCE, K[META, S.N_GUARDIAN])]
        elif dfn == S.FOE_NAVY:
            dh = roll_hits(T, K, rng, K[S.NAVY_DEFENCE, card], np.int64(S.SHIELD), d_win)
        else:
            dh = roll_hits(T, K, rng, K[S.MON_DICE, card], np.int64(S.SHIELD), FALSE)
            if K[S.MON_ABILITY, card] == 1:  # minus_hit: the glossary's "-1 Hit" (A9)
                ah = max(ah - 1, 0)
        log_event(T, log, att, EV.BATTLE, ah, dh, np.int64(attempt))
        if ah != dh:
            result = ah > dh
            break
    for s in (att, dfn):
        if s >= 0:
            T[SEAT0 + s, S.TEMP_ATTACK] = 0
            T[SEAT0 + s, S.TEMP_DEFENCE] = 0
    return result


@jit(runtime=False)
def sink(P, T, K, F, rng, log, seat):
    """Sinking Ship: jettison one crew die, or all treasure (bound too, A48); then off the board."""
    total = ZERO
    for c in range(S.N_COLOURS):
        total += colour_count(T, seat, c)
    lose_treasure = total > 0 and (T[SEAT0 + seat, S.CREW_N] == 0 or bot.jettison_treasure(T, K, F, rng, seat))
    if lose_treasure:
        for c in range(S.N_COLOURS):
            T[HOLD0 + seat, S.UNBOUND + c] = 0
            T[HOLD0 + seat, S.BOUND + c] = 0
        T[ST, S.BOX_TREASURE] += total
    elif T[SEAT0 + seat, S.CREW_N] > 0:
        lose_die(T, K, seat)
    T[SEAT0 + seat, S.POS] = -1
    T[SEAT0 + seat, S.SINKINGS] += 1
    log_event(T, log, seat, EV.SINK, ONE if lose_treasure else ZERO, total if lose_treasure else ONE, ZERO)


@jit(runtime=False)
def steal(T, K, F, rng, log, winner, loser):
    """Half the loser's unbound treasure, rounded down (a steal_round_up relic: up, A68), chosen by
    the winner and bound to its ship (Combat Outcomes); a treasure with no room in the winner's
    hold stays (A6)."""
    n = S.steal_count(T, winner, loser)
    taken = ZERO
    for _ in range(n):
        c = bot.pick_steal(T, K, F, rng, winner, loser)
        if c < 0:
            break
        T[HOLD0 + loser, S.UNBOUND + c] -= 1
        stow(T, winner, c, True)
        taken += 1
    log_event(T, log, winner, EV.STEAL, loser, taken, n)


@jit(runtime=False)
def enemy_takes(T, K, F, rng, log, seat, n, to_navy):
    """An enemy's On Win: it takes n unbound treasures (A47), the pirate choosing which; the
    Navy keeps them on its card, a monster carries them out of play."""
    for _ in range(n):
        c = bot.pick_loss(T, K, F, rng, seat)
        if c < 0:
            break
        T[HOLD0 + seat, S.UNBOUND + c] -= 1
        if to_navy:
            T[S.NAVY_HOLD, c] += 1
            T[ST, S.NAVY_HELD] += 1
        else:
            T[ST, S.BOX_TREASURE] += 1
        log_event(T, log, seat, EV.LOSS, c, ONE if to_navy else ZERO, ZERO)


@jit(runtime=False)
def navy_defeated(P, T, K, rng, log, seat):
    """The pirate claims the Navy card's treasure (random draws) and what the Navy held
    (TOA-G28); the card leaves the game and the ship goes back to the Navy space (off the board)."""
    card = T[ST, S.NAVY_CARD]
    for _ in range(K[S.NAVY_REWARD, card]):
        random_treasure(P, T, K, rng, log, seat, np.int64(EV.R_NAVY))
    for c in range(S.N_COLOURS):
        while T[S.NAVY_HOLD, c] > 0:
            T[S.NAVY_HOLD, c] -= 1
            T[ST, S.NAVY_HELD] -= 1
            if can_hold(T, K, seat, c):
                stow(T, seat, c, False)
                log_event(T, log, seat, EV.GAIN, c, np.int64(EV.R_NAVY), ZERO)
            else:
                T[BAG, c] += 1  # no room: back into the bag (A6)
    T[ST, S.NAVY_POS] = -1
    T[ST, S.NAVY_CARD] = -1


@jit(runtime=False)
def fight(P, T, K, F, rng, log, att, dfn, wind):
    """A pirate attacks a pirate (dfn >= 0) or the Navy (dfn = FOE_NAVY). No Parley (A14)."""
    card = T[ST, S.NAVY_CARD]
    log_event(T, log, att, EV.COMBAT, dfn, wind, card)
    won = battle(P, T, K, F, rng, log, att, dfn, card, wind)
    if dfn >= 0:
        winner = att if won else dfn
        loser = dfn if won else att
        T[SEAT0 + winner, S.FIGHTS_WON] += 1
        steal(T, K, F, rng, log, winner, loser)
        sink(P, T, K, F, rng, log, loser)
    elif won:
        T[SEAT0 + att, S.FIGHTS_WON] += 1
        navy_defeated(P, T, K, rng, log, att)
    else:
        enemy_takes(T, K, F, rng, log, att, K[S.NAVY_ON_WIN_N, card], TRUE)
        sink(P, T, K, F, rng, log, att)
    return won


@jit(runtime=False)
def navy_attacks(P, T, K, F, rng, log, seat, wind):
    """Navy Hunts: the Navy moved onto the pirate's space and attacks it."""
    card = T[ST, S.NAVY_CARD]
    log_event(T, log, seat, EV.NAVY_ATTACK, card, wind, ZERO)
    navy_won = battle(P, T, K, F, rng, log, np.int64(S.FOE_NAVY), seat, card, wind)
    if navy_won:
        enemy_takes(T, K, F, rng, log, seat, K[S.NAVY_ON_WIN_N, card], TRUE)
        sink(P, T, K, F, rng, log, seat)
    else:
        T[SEAT0 + seat, S.FIGHTS_WON] += 1
        navy_defeated(P, T, K, rng, log, seat)


@jit(runtime=False)
def draw_monster(T, rng):
    if T[ST, S.MONSTER_DECK_N] == 0:
        n = T[ST, S.MONSTER_DISC_N]
        if n == 0:
            return NONE
        copy_prefix(T, S.MONSTER_DECK, T, S.MONSTER_DISC, n)
        T[ST, S.MONSTER_DISC_N] = 0
        T[ST, S.MONSTER_DECK_N] = n
        shuffle(rng, CHANCE, T[S.MONSTER_DECK], n)
    T[ST, S.MONSTER_DECK_N] -= 1
    return T[S.MONSTER_DECK, T[ST, S.MONSTER_DECK_N]]


@jit(runtime=False)
def explore(P, T, K, F, rng, log, seat):
    """Draw a monster and fight it as the Attacker, with no Wind Advantage (A20). A defeated
    monster leaves the game; one that wins goes to the discard, reshuffled when the deck is out."""
    card = draw_monster(T, rng)
    if card < 0:
        return
    log_event(T, log, seat, EV.EXPLORE, card, ZERO, ZERO)
    won = battle(P, T, K, F, rng, log, seat, np.int64(S.FOE_MONSTER), card, ZERO)
    if won:
        T[SEAT0 + seat, S.FIGHTS_WON] += 1
        kind = K[S.MON_REWARD, card]
        n = K[S.MON_REWARD_N, card]
        if kind == S.RW_TREASURE:
            for _ in range(n):
                random_treasure(P, T, K, rng, log, seat, np.int64(EV.R_EXPLORE))
        elif kind == S.RW_GOLD:
            gain_gold(T, seat, n)
        elif kind == S.RW_RUM:
            gain_rum(T, seat, n)
        else:
            for _ in range(n):
                relic_from_deck(P, T, K, rng, log, seat)
    else:
        T[S.MONSTER_DISC, T[ST, S.MONSTER_DISC_N]] = card
        T[ST, S.MONSTER_DISC_N] += 1
        if K[S.MON_ON_WIN, card] == 1:
            enemy_takes(T, K, F, rng, log, seat, K[S.MON_ON_WIN_N, card], FALSE)
        sink(P, T, K, F, rng, log, seat)


# --------------------------------------------------------------------------- occupancy
@jit(inline="always", runtime=False)
def first_occupant(T, space, seat, players):
    """The pirate on `space` highest in turn order other than `seat` (-1 none): the Bribe's
    receiver and the default target (1. Move)."""
    for i in range(players):
        s = T[ORDER, i]
        if s != seat and T[SEAT0 + s, S.POS] == space:
            return s
    return NONE


@jit(runtime=False)
def navy_prey(T, space, players):
    """The pirate on `space` the Navy would attack: the one lowest in turn order (TOA-G37), a
    navy_passes relic's owner excepted (A68); -1 none."""
    for i in range(players - 1, -1, -1):
        s = T[ORDER, i]
        if T[SEAT0 + s, S.POS] == space and T[SEAT0 + s, S.REL_NAVY_PASSES] == 0:
            return s
    return NONE


@jit(inline="always", runtime=False)
def occupied(T, space, seat, players):
    return first_occupant(T, space, seat, players) >= 0 or T[ST, S.NAVY_POS] == space
