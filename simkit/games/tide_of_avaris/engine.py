"""The Tide of Avaris engine: set-up, the Day (dice, Sunrise and Sunset turns: Move, Act,
Collect), the Night (Upgrade, Navy Hunts, Midnight Wager, Rising Tide), the end and the final
scoring (numba). The rules below the turn (dice, hold, burial, combat, board actions) are in
actions.py.

Tables (layout in state.py): T int64 state, K int64 statics, F float64 (row 0 candidate scores,
row 1 + s seat s's preset weights), rng (stream 0 chance, 1 + s seat s), log.
"""

import numpy as np

from simkit.core import game as G
from simkit.core.jit import jit
from simkit.core.rng import CHANCE, randint, shuffle
from simkit.games.tide_of_avaris import actions as A
from simkit.games.tide_of_avaris import events as EV
from simkit.games.tide_of_avaris import state as S
from simkit.games.tide_of_avaris.actions import NONE, ONE, ZERO, log_event
from simkit.games.tide_of_avaris.state import (
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
)
from strategies import tide_of_avaris as bot

F_WIDTH = 128  # row 0: scores and the policy's per-turn reads (strategies GAIN0, OCC0)


# --------------------------------------------------------------------------- set-up
@jit(runtime=False)
def deal(T, rng, row, n, count_col):
    for i in range(n):
        T[row, i] = i
    shuffle(rng, CHANCE, T[row], n)
    T[ST, count_col] = n


@jit(runtime=False)
def draw_public_bonus(T):
    if T[ST, S.PUBLIC_BONUS] < 0 and T[ST, S.BURIAL_DECK_N] > 0:
        T[ST, S.BURIAL_DECK_N] -= 1
        T[ST, S.PUBLIC_BONUS] = T[S.BURIAL_DECK, T[ST, S.BURIAL_DECK_N]]


@jit(runtime=False)
def rising_tide(T, K, rng, log):
    """Fill every empty treasure slot from the bag in Rising Tide order; an empty bag at any point
    makes the next Day the last (Step 4: Rising Tide; Endgame). Returns the treasures placed."""
    placed = ZERO
    for i in range(K[META, S.N_TIDE]):
        slot = K[S.TIDE, i]
        if T[SLOT, slot] < 0:
            c = A.draw_bag(T, rng)
            if c < 0:
                break
            T[SLOT, slot] = c
            placed += 1
    empty = A.bag_total(T) == 0
    if empty:
        T[ST, S.FINAL_DAY] = 1
    draw_public_bonus(T)
    log_event(T, log, NONE, EV.TIDE, placed, A.bag_total(T), ONE if empty else ZERO)
    return placed


@jit(runtime=False)
def setup_game(P, T, K, F, rng, log, players):
    """Board Setup and First Day Setup. Seat 0 goes first (A58); seats take the harbours of
    Regions spread round the board (A57); there is no Navy until the first Night (TOA-G12)."""
    log_n = T[ST, S.LOG_N]
    T[:, :] = 0
    T[ST, S.LOG_N] = log_n
    T[ST, S.PLAYERS] = players
    T[ST, S.DAY] = 1
    T[ST, S.END_REASON] = -1
    T[ST, S.NAVY_POS] = -1
    T[ST, S.NAVY_CARD] = -1
    T[ST, S.PUBLIC_BONUS] = -1
    T[SLOT, :] = -1
    for c in range(S.N_CTRL):
        T[CONTROL, c] = -1
    for c in range(S.N_COLOURS):
        T[S.BAG, c] = K[META, S.BAG_PER_COLOUR]
    deal(T, rng, S.RELIC_DECK, K[META, S.N_RELIC_CARDS], S.RELIC_DECK_N)
    deal(T, rng, S.MONSTER_DECK, K[META, S.N_MONSTERS], S.MONSTER_DECK_N)
    deal(T, rng, S.NAVY_DECK, K[META, S.N_NAVY], S.NAVY_DECK_N)
    deal(T, rng, S.BURIAL_DECK, K[META, S.N_BURIAL], S.BURIAL_DECK_N)
    # four endgame bonuses face down (locked) on the black slots; the rest go back to the box
    deal(T, rng, S.SCRATCH, K[META, S.N_ENDGAME], S.ROUND_TURN)
    for j in range(4):
        T[S.ENDGAME, j] = T[S.SCRATCH, j]
        T[S.ENDGAME, S.TOKEN_COL + j] = 0
    T[S.SCRATCH, :] = 0
    T[ST, S.ROUND_TURN] = 0
    A.refill_display(P, T, rng)
    draw_public_bonus(T)
    rising_tide(T, K, rng, log)
    for i in range(players):
        T[ORDER, i] = i
        T[ORDER, S.POSITION + i] = i
    n_regions = K[META, S.N_REGIONS]
    # designer knobs: extra starting resources by seat, 0 for the rulebook's set-up
    extra_gold = (P.extra_starting_gold_1, P.extra_starting_gold_2, P.extra_starting_gold_3, P.extra_starting_gold_4)
    extra_rum = (P.extra_starting_rum_1, P.extra_starting_rum_2, P.extra_starting_rum_3, P.extra_starting_rum_4)
    for s in range(players):
        row = SEAT0 + s
        start = K[S.REGION_START, (s * n_regions) // players]
        T[row, S.POS] = start
        T[row, S.START] = start
        T[row, S.LAST_FROM] = -1
        T[row, S.CREW_N] = S.START_CREW
        A.gain_gold(T, s, K[S.START_GOLD, s] + extra_gold[s])  # the resources beside the Wager-track position
        A.gain_rum(T, s, K[S.START_RUM, s] + extra_rum[s])


# --------------------------------------------------------------------------- movement
@jit(inline="always", runtime=False)
def colour_matters(T, seat, space):
    """Whether entering `space` asks for a matching die or two dice: it holds a treasure and the
    seat has no any_colour relic (1. Move: Movement Cost; A68)."""
    return A.has_treasure(T, space) and T[SEAT0 + seat, S.REL_ANY_COLOUR] == 0


@jit(runtime=False)
def step_cost_ok(T, K, seat, space):
    """Whether the seat can pay to enter `space` (1. Move: Movement Cost)."""
    if T[SEAT0 + seat, S.RUM] > 0:
        return True
    ready = S.ready_dice(T, seat)
    if not colour_matters(T, seat, space):
        return ready >= 1
    if ready >= 2:
        return True
    slot = A.slot_treasure(T, space)
    return A.cheapest_die(T, K, seat, T[SLOT, slot]) >= 0 or (
        slot % 2 == 0 and T[SLOT, slot + 1] >= 0 and A.cheapest_die(T, K, seat, T[SLOT, slot + 1]) >= 0)


@jit(runtime=False)
def pay_step(T, K, log, seat, space):
    """Pay the cheapest way: a die matching a treasure there (the colour is the treasure's,
    TOA-X3), one die onto a treasureless space (onto any space with an any_colour relic, A68),
    else one rum, else two dice. Returns the payment (EV.PAY_*) or -1 if none is possible."""
    if colour_matters(T, seat, space):
        for k in range(S.MAX_SLOTS):
            c = T[SLOT, 2 * space + k]
            if c >= 0:
                i = A.cheapest_die(T, K, seat, c)
                if i >= 0:
                    A.exhaust(T, seat, i)
                    return np.int64(EV.PAY_MATCH)
        if T[SEAT0 + seat, S.RUM] > 0:
            A.pay_rum(T, seat, ONE)
            return np.int64(EV.PAY_RUM)
        if S.ready_dice(T, seat) >= 2:
            A.exhaust(T, seat, A.cheapest_die(T, K, seat, NONE))
            A.exhaust(T, seat, A.cheapest_die(T, K, seat, NONE))
            return np.int64(EV.PAY_TWO)
        return NONE
    i = A.cheapest_die(T, K, seat, NONE)
    if i >= 0:
        A.exhaust(T, seat, i)
        return np.int64(EV.PAY_ANY)
    if T[SEAT0 + seat, S.RUM] > 0:
        A.pay_rum(T, seat, ONE)
        return np.int64(EV.PAY_RUM)
    return NONE


@jit(runtime=False)
def next_step(T, K, here, dest, players):
    """The neighbour on a shortest path to dest, an unoccupied one when there is a choice."""
    best = NONE
    for j in range(K[S.SP_ADJ_N, here]):
        b = K[S.ADJ0 + j, here]
        if K[S.DIST0 + b, dest] != K[S.DIST0 + here, dest] - 1:
            continue
        if best < 0:
            best = b
        if b == dest or not A.occupied(T, b, NONE, players):
            return b
    return best


@jit(runtime=False)
def bribe(T, K, log, seat, space, players):
    """Pay the Bribe beside one's own Wager position to the occupant highest in turn order, the
    Navy (the bank, TOA-G33) only if no pirate is there (1. Move: Bribe Cost)."""
    amount = S.bribe_amount(T, K, seat)
    to = A.first_occupant(T, space, seat, players)
    if to >= 0:
        T[SEAT0 + seat, S.GOLD] -= amount
        T[SEAT0 + to, S.GOLD] += amount
    else:
        A.pay_gold(T, seat, amount)
        to = np.int64(S.FOE_NAVY)
    log_event(T, log, seat, EV.BRIBE, to, amount, ZERO)


@jit(runtime=False)
def move_to(P, T, K, F, rng, log, seat, dest, players):
    """Move lane by lane toward dest, paying each step; an occupied space is bribed or fought.
    Passing through needs a Bribe; without one the ship stops there and fights (TOA-X5); a
    no_bribe relic lets it enter unbribed (A68). Returns the foe to fight at the end (a seat,
    FOE_NAVY) or -1."""
    for _ in range(S.MAX_STEPS):
        here = T[SEAT0 + seat, S.POS]
        if here == dest:
            return NONE
        b = next_step(T, K, here, dest, players)
        if b < 0 or not step_cost_ok(T, K, seat, b):
            return NONE
        paid = pay_step(T, K, log, seat, b)
        if paid < 0:
            return NONE
        T[SEAT0 + seat, S.POS] = b
        T[SEAT0 + seat, S.LAST_FROM] = here
        T[SEAT0 + seat, S.MOVED] = 1
        log_event(T, log, seat, EV.MOVE, here, b, paid)
        if A.occupied(T, b, seat, players):
            amount = S.bribe_amount(T, K, seat)
            foe = bot.choose_foe(P, T, K, F, rng, seat, b, players)
            if foe == NONE and T[SEAT0 + seat, S.REL_NO_BRIBE] > 0:
                pass  # the relic's owner enters without a Bribe (A68)
            elif foe == NONE and T[SEAT0 + seat, S.GOLD] >= amount:
                bribe(T, K, log, seat, b, players)
            else:
                if foe == NONE:  # cannot pay the Bribe: fight the default target (TOA-G39)
                    foe = A.first_occupant(T, b, seat, players)
                    if foe < 0:
                        foe = np.int64(S.FOE_NAVY)
                return foe
    return NONE


# --------------------------------------------------------------------------- board actions
@jit(runtime=False)
def board_action(P, T, K, F, rng, log, seat, players):
    """The white flag of the space the ship ended its movement on (Board Action Specifics,
    Taking Control). Returns True if the action was taken."""
    space = T[SEAT0 + seat, S.POS]
    act = K[S.SP_ACTION, space]
    if not S.action_legal(P, T, K, seat, act, space, players):
        return False
    log_event(T, log, seat, EV.ACTION, act, space, ZERO)
    if act == S.ACT_RUM:
        A.gain_rum(T, seat, np.int64(2))
    elif act == S.ACT_RAID:
        A.gain_gold(T, seat, np.int64(2))
        A.gain_rum(T, seat, ONE)
    elif act == S.ACT_EXTRA:
        A.pay_gold(T, seat, np.int64(P.extra_treasure_cost))
        slot = 2 * space + 1 if T[SLOT, 2 * space + 1] >= 0 else 2 * space
        c = T[SLOT, slot]
        T[SLOT, slot] = -1
        A.stow(T, seat, c, False)  # an Act's treasure: no Region payout (TOA-X34)
        log_event(T, log, seat, EV.COLLECT, c, space, ONE)
    elif act == S.ACT_WHIRLPOOL:
        to = bot.whirlpool_target(P, T, K, F, rng, seat, players)
        if not S.whirlpool_legal(T, K, seat, to, players):
            to = S.whirlpool_fallback(T, K, seat, players)  # only another space with no ship (A32)
        T[SEAT0 + seat, S.POS] = to
        T[SEAT0 + seat, S.LAST_FROM] = -1
        log_event(T, log, seat, EV.WHIRLPOOL, space, to, ZERO)
    elif act == S.ACT_CREW_SPIRIT:
        A.take_control(T, K, rng, log, seat, np.int64(S.CTRL_CREW))
    elif act == S.ACT_MARAUDER:
        A.take_control(T, K, rng, log, seat, np.int64(S.CTRL_MARAUDER))
    elif act == S.ACT_GUARDIAN:
        A.take_control(T, K, rng, log, seat, np.int64(S.CTRL_GUARDIAN))
    elif act == S.ACT_REGION:
        r = bot.region_target(P, T, K, F, rng, seat, players)
        A.take_control(T, K, rng, log, seat, S.CTRL_REGION0 + r)
    elif act == S.ACT_NAVY:
        to = bot.navy_target(P, T, K, F, rng, seat, players)
        if not S.relocate_legal(P, T, K, to):
            to = T[ST, S.NAVY_POS]  # beyond `relocate_reach`: the Navy stays where it is
        log_event(T, log, seat, EV.RELOCATE, T[ST, S.NAVY_POS], to, ZERO)
        T[ST, S.NAVY_POS] = to  # no combat on a relocation (A28)
    elif act == S.ACT_BURIAL_DRAW:
        T[ST, S.BURIAL_DECK_N] -= 1
        T[S.PRIVATE0 + seat, T[SEAT0 + seat, S.PRIVATE_N]] = T[S.BURIAL_DECK, T[ST, S.BURIAL_DECK_N]]
        T[SEAT0 + seat, S.PRIVATE_N] += 1
        A.gain_rum(T, seat, ONE)
        log_event(T, log, seat, EV.PRIVATE, T[S.BURIAL_DECK, T[ST, S.BURIAL_DECK_N]], ZERO, ZERO)
    elif act == S.ACT_BIND:
        A.pay_rum(T, seat, np.int64(P.bind_cost))
        n = ZERO
        for _ in range(2):
            c = bot.pick_bind(T, K, F, rng, seat)
            if c < 0:
                break
            T[HOLD0 + seat, S.UNBOUND + c] -= 1
            T[HOLD0 + seat, S.BOUND + c] += 1
            n += 1
        log_event(T, log, seat, EV.BIND, n, ZERO, ZERO)
    elif act == S.ACT_RECYCLE:
        A.pay_rum(T, seat, np.int64(P.recycle_cost))
        # any two of its dice, commanded or not, back to the crew area and rerolled (TOA-192);
        # the pirate chooses which (marked in SCRATCH while it chooses)
        n = ZERO
        for _ in range(2):
            pick = bot.pick_recycle(T, K, F, rng, seat)
            if pick < 0 or pick >= S.DIE_SLOTS or not S.owns_die(T, seat, pick) or T[S.SCRATCH, pick] == 1:
                break  # no die left to choose (a pirate with one die recycles that one)
            T[S.SCRATCH, pick] = 1
            n += 1
        for i in range(S.DIE_SLOTS):
            if T[S.SCRATCH, i] == 1:
                A.roll_die(T, K, rng, seat, np.int64(i))
                T[S.SCRATCH, i] = 0
        log_event(T, log, seat, EV.RECYCLE, n, ZERO, ZERO)
    elif act == S.ACT_UNLOCK:
        j = bot.unlock_target(P, T, K, F, rng, seat, players)
        v = K[S.TOKENS, T[ST, S.TOKENS_USED]]
        T[ST, S.TOKENS_USED] += 1
        T[S.ENDGAME, S.TOKEN_COL + j] = v
        log_event(T, log, seat, EV.UNLOCK, j, v, ZERO)
    elif act == S.ACT_RELICS:
        if bot.refresh_relics(T, K, F, rng, seat):
            for i in range(T[ST, S.DISPLAY_N]):
                T[S.RELIC_DISC, T[ST, S.RELIC_DISC_N]] = T[S.DISPLAY, i]
                T[ST, S.RELIC_DISC_N] += 1
            T[ST, S.DISPLAY_N] = 0
            A.refill_display(P, T, rng)
        i = bot.pick_relic(T, K, F, rng, seat)
        if i >= 0:
            A.take_from_display(P, T, K, log, seat, i)
            if T[SEAT0 + seat, S.GOLD] >= P.second_relic_cost and T[ST, S.DISPLAY_N] > 0 \
                    and T[SEAT0 + seat, S.N_RELICS] < P.relic_slots and bot.want_second_relic(P, T, K, F, rng, seat):
                j = bot.pick_relic(T, K, F, rng, seat)
                if j >= 0:
                    A.pay_gold(T, seat, np.int64(P.second_relic_cost))
                    A.take_from_display(P, T, K, log, seat, j)
        A.refill_display(P, T, rng)
    elif act == S.ACT_EXPLORE:
        A.explore(P, T, K, F, rng, log, seat)
    return True


# --------------------------------------------------------------------------- a turn
@jit(runtime=False)
def collect(P, T, K, F, rng, log, seat, players):
    """Collect the treasure on the space; the controller of its Region draws a random treasure
    when it is another pirate's collection (Taking Control; TOA-X10: in the controlled Region)."""
    space = T[SEAT0 + seat, S.POS]
    slot = A.slot_treasure(T, space)
    if slot < 0:
        return
    c = T[SLOT, slot]
    if not S.can_hold(T, K, seat, c):
        return
    T[SLOT, slot] = -1
    A.stow(T, seat, c, False)
    log_event(T, log, seat, EV.COLLECT, c, space, ZERO)
    ctrl = T[CONTROL, S.CTRL_REGION0 + K[S.SP_REGION, space]]
    if ctrl >= 0 and ctrl != seat:
        A.random_treasure(P, T, K, rng, log, ctrl, np.int64(EV.R_REGION))


@jit(runtime=False)
def act_and_collect(P, T, K, F, rng, log, seat, act, players):
    """2. Act then 3. Collect: burying skips Collect (not with a collect_after_burial relic, A68);
    a board action needs a move this turn; a sunk ship (Explore lost) collects nothing."""
    row = SEAT0 + seat
    if act == bot.ACT_BURY:
        A.bury(T, K, log, seat)
        if T[row, S.REL_COLLECT_AFTER_BURIAL] == 0:
            return  # burying skips the Collect step
    elif act == bot.ACT_BOARD and T[row, S.MOVED] == 1:
        board_action(P, T, K, F, rng, log, seat, players)
    if T[row, S.POS] >= 0 and bot.want_collect(P, T, K, F, rng, seat):
        collect(P, T, K, F, rng, log, seat, players)


@jit(runtime=False)
def take_turn(P, T, K, F, rng, log, seat, phase, players):
    """Move, Act, Collect, in order; any may be skipped (Sunrise and Sunset)."""
    begin_turn(T, log, seat, phase)
    finish_turn(P, T, K, F, rng, log, seat, phase, players, bot.choose_destination(P, T, K, F, rng, seat, phase, players))


@jit(runtime=False)
def begin_turn(T, log, seat, phase):
    """A turn's start, before the destination is chosen: a sunk ship returns (Sinking Ship)."""
    T[ST, S.TURNS] += 1
    row = SEAT0 + seat
    if T[row, S.POS] < 0:  # a sunk ship returns at the start of its next turn (Sinking Ship)
        T[row, S.POS] = T[row, S.START]
        log_event(T, log, seat, EV.RESPAWN, T[row, S.POS], ZERO, ZERO)
    T[row, S.MOVED] = 0
    T[row, S.LAST_FROM] = -1
    log_event(T, log, seat, EV.TURN, phase, T[row, S.POS], S.ready_dice(T, seat))


@jit(runtime=False)
def finish_turn(P, T, K, F, rng, log, seat, phase, players, dest):
    """The turn once its destination is chosen: Move there, then Act and Collect, then the crew
    dice cashed for supplies."""
    row = SEAT0 + seat
    foe = move_to(P, T, K, F, rng, log, seat, dest, players)
    if foe != NONE:
        # an unbribed entry is a fight, and the fight is the turn's Act (TOA-X6)
        here = T[row, S.POS]
        wind = K[S.WIND0 + T[row, S.LAST_FROM], here] if T[row, S.LAST_FROM] >= 0 else ZERO
        A.fight(P, T, K, F, rng, log, seat, foe, wind)
        if T[row, S.POS] >= 0 and bot.want_collect(P, T, K, F, rng, seat):
            collect(P, T, K, F, rng, log, seat, players)
    else:
        act_and_collect(P, T, K, F, rng, log, seat, bot.choose_act(P, T, K, F, rng, seat, phase, players), players)
    for i in range(S.DIE_SLOTS):  # crew commanded to gather supplies (Crew Dice)
        if T[DICE0 + seat, READY + i] == 0 or K[S.CREW_RES, T[DICE0 + seat, FACE + i]] >= S.RES_ATTACK:
            continue  # attack and defence faces serve only in a battle (TOA-G18)
        if bot.cash_die(T, K, F, rng, seat, np.int64(i), phase):
            A.command(T, K, log, seat, np.int64(i))


# --------------------------------------------------------------------------- the Day
@jit(runtime=False)
def start_day(P, T, K, F, rng, log, players):
    """Every pirate rolls its crew; one gold rerolls any of them once (Day; A24)."""
    log_event(T, log, NONE, EV.DAY, T[ST, S.DAY], T[ST, S.FINAL_DAY], ZERO)
    for s in range(players):
        A.roll_crew(T, K, rng, s)
        if T[SEAT0 + s, S.REL_RUM] > 0:
            A.gain_rum(T, s, T[SEAT0 + s, S.REL_RUM])
        if T[SEAT0 + s, S.REL_GOLD] > 0:
            A.gain_gold(T, s, T[SEAT0 + s, S.REL_GOLD])
        mask = ZERO
        if T[SEAT0 + s, S.GOLD] >= P.reroll_cost:
            mask = bot.reroll_mask(P, T, K, F, rng, s)
        n = ZERO
        if mask != 0:
            A.pay_gold(T, s, np.int64(P.reroll_cost))
            for i in range(S.DIE_SLOTS):
                if (mask >> i) & 1 and T[DICE0 + s, READY + i] == 1:
                    A.roll_die(T, K, rng, s, np.int64(i))
                    n += 1
        log_event(T, log, s, EV.ROLL, T[SEAT0 + s, S.CREW_N], ONE if mask != 0 else ZERO, n)


# --------------------------------------------------------------------------- the Night
@jit(runtime=False)
def upgrades(P, T, K, F, rng, log, players):
    """Every pirate decides its purchases on what it alone sees, before any is revealed; then all
    are applied (Step 1: Upgrade; decided simultaneously, TOA-G23)."""
    for s in range(players):
        T[S.PLAN0 + s, :8] = 0
        bot.plan_upgrades(P, T, K, F, rng, s)
    for s in range(players):
        row = SEAT0 + s
        for _ in range(T[S.PLAN0 + s, 4]):  # buy back a lost crew die for rum
            if S.can_rebuy_die(P, T, s, T[row, S.RUM]):
                A.pay_rum(T, s, np.int64(P.rebuy_rum))
                T[row, S.CREW_N] += 1
                T[DICE0 + s, READY + T[row, S.CREW_N] - 1] = 0
                T[ST, S.DICE_BOUGHT] += 1
                log_event(T, log, s, EV.REBUY, T[row, S.CREW_N], ZERO, ZERO)
        for t in range(4):
            for _ in range(T[S.PLAN0 + s, t]):
                level = T[row, S.ATTACK + t]
                cost = S.upgrade_step_cost(K, t, level)
                if cost < 0:
                    break
                gold = K[S.UP_CURRENCY, t] == S.CUR_GOLD
                have = T[row, S.GOLD] if gold else T[row, S.RUM]
                if have < cost:
                    break
                if gold:
                    A.pay_gold(T, s, cost)
                else:
                    A.pay_rum(T, s, cost)
                T[row, S.ATTACK + t] = level + 1
                if t == S.UP_CREW:
                    T[row, S.CREW_N] += 1
                    T[DICE0 + s, READY + T[row, S.CREW_N] - 1] = 0
                    T[ST, S.DICE_BOUGHT] += 1
                log_event(T, log, s, EV.UPGRADE, t, level + 1, cost)


@jit(runtime=False)
def navy_hunts(P, T, K, F, rng, log, players):
    """Step 2: Navy Hunts. With no Navy on the board a Navy card is drawn and the ship placed on
    its space, and the step ends (TOA-X28: only this step). Otherwise the Navy die sends it up to
    two lanes through the rolled diamond, or toward the nearest pirate on Spotted (ties: the one
    lowest in turn order; the route with the wind last), stopping to attack on a pirate's space.
    A navy_passes relic's owner is neither hunted nor attacked (A68)."""
    if T[ST, S.NAVY_POS] < 0:
        if T[ST, S.NAVY_DECK_N] == 0:
            return  # every Navy ship has been defeated: the seas are free (A59)
        T[ST, S.NAVY_DECK_N] -= 1
        card = T[S.NAVY_DECK, T[ST, S.NAVY_DECK_N]]
        T[ST, S.NAVY_CARD] = card
        T[ST, S.NAVY_POS] = K[S.NAVY_SPACE, card]
        log_event(T, log, NONE, EV.NAVY_PLACE, card, K[S.NAVY_SPACE, card], ZERO)
        return  # placed on a pirate it does not fight this Night (TOA-G37)
    face = K[S.NAVY_FACE, randint(rng, CHANCE, K[META, S.N_NAVY_FACES])]
    log_event(T, log, NONE, EV.NAVY_ROLL, face, ZERO, ZERO)
    target = NONE
    if face == S.SPOTTED:
        best = np.int64(S.FAR)
        here = T[ST, S.NAVY_POS]
        for i in range(players - 1, -1, -1):  # lowest in turn order first: it keeps ties
            s = T[ORDER, i]
            p = T[SEAT0 + s, S.POS]
            if p < 0 or p == here or T[SEAT0 + s, S.REL_NAVY_PASSES] > 0:
                continue
            d = K[S.DIST0 + here, p]
            if d <= P.navy_reach and d < best:
                best = d
                target = p
        if target < 0:
            return
    for _ in range(P.navy_reach):
        here = T[ST, S.NAVY_POS]
        if face == S.SPOTTED:
            if here == target:
                return
            nxt = NONE
            score = np.int64(-9)
            for j in range(K[S.SP_ADJ_N, here]):
                b = K[S.ADJ0 + j, here]
                if K[S.DIST0 + b, target] != K[S.DIST0 + here, target] - 1:
                    continue
                # the most advantageous route: no pirate in the way, and the wind on the last lane
                v = np.int64(0)
                if b == target:
                    v = K[S.WIND0 + here, b]
                elif A.navy_prey(T, b, players) >= 0:
                    v = np.int64(-5)
                elif K[S.DIST0 + b, target] == 1:
                    v = K[S.WIND0 + b, target]
                if v > score:
                    score = v
                    nxt = b
        else:
            nxt = K[S.EXIT0 + face, here]
        if nxt < 0:
            return
        T[ST, S.NAVY_POS] = nxt
        log_event(T, log, NONE, EV.NAVY_MOVE, here, nxt, ZERO)
        victim = A.navy_prey(T, nxt, players)
        if victim >= 0:
            A.navy_attacks(P, T, K, F, rng, log, victim, K[S.WIND0 + here, nxt])
            return


@jit(runtime=False)
def midnight_wager(P, T, K, log, players):
    """Every pirate's remaining dice go to the wager; higher totals go first, ties keep the
    previous order (Step 3: Midnight Wager; the worked example's descending order, TOA-X2)."""
    for s in range(players):
        T[SEAT0 + s, S.WAGER] = S.wager_total(T, K, s)
        for i in range(S.DIE_SLOTS):
            T[DICE0 + s, READY + i] = 0
    if P.midnight_wager == 1:
        for i in range(1, players):  # insertion sort: stable, so ties keep yesterday's order
            s = T[ORDER, i]
            j = i - 1
            while j >= 0 and T[SEAT0 + T[ORDER, j], S.WAGER] < T[SEAT0 + s, S.WAGER]:
                T[ORDER, j + 1] = T[ORDER, j]
                j -= 1
            T[ORDER, j + 1] = s
        for i in range(players):
            T[ORDER, S.POSITION + T[ORDER, i]] = i
    for i in range(players):
        s = T[ORDER, i]
        log_event(T, log, s, EV.WAGER, T[SEAT0 + s, S.WAGER], np.int64(i), ZERO)


# --------------------------------------------------------------------------- the end
@jit(runtime=False)
def endgame_metric(T, K, s, kind, arg):
    row = SEAT0 + s
    if kind == S.EG_CREW:
        return T[row, S.CREW_N]
    if kind == S.EG_RELICS:
        return T[row, S.N_RELICS]
    if kind == S.EG_BURIALS:
        return T[row, S.BURIALS]
    if kind == S.EG_FIGHTS:
        return T[row, S.FIGHTS_WON]
    if kind == S.EG_UPGRADES:
        return T[row, S.ATTACK] + T[row, S.DEFENCE] + T[row, S.FLEET] + T[row, S.CREW_UP]
    if kind == S.EG_SINKINGS:
        return -T[row, S.SINKINGS]  # fewest sinkings: the highest negative count
    return T[HOLD0 + s, S.BURIED + arg]


@jit(runtime=False)
def endgame_bonuses(P, T, K, log, players):
    """Matching Colours and Gold for everyone; each unlocked bonus to its leader, ties splitting
    the token's points rounded down (Endgame Scoring and Bonuses). Nobody takes a "most" bonus
    with a count of 0 (A34)."""
    for s in range(players):
        row = SEAT0 + s
        match = ZERO
        for c in range(S.N_COLOURS):
            match += K[S.MATCH_POINTS, T[HOLD0 + s, S.BURIED + c]]
        gold = T[row, S.GOLD] // P.gold_per_point
        T[row, S.POINTS] += match + gold
        T[row, S.ENDGAME_POINTS] += match + gold
        log_event(T, log, s, EV.ENDGAME, np.int64(-1), match, ZERO)
        log_event(T, log, s, EV.ENDGAME, np.int64(-2), gold, ZERO)
    for j in range(4):
        v = T[S.ENDGAME, S.TOKEN_COL + j]
        if v == 0:
            continue  # locked: it scores nothing
        card = T[S.ENDGAME, j]
        kind = K[S.EG_KIND, card]
        arg = K[S.EG_ARG, card]
        best = np.int64(-(1 << 40))
        for s in range(players):
            best = max(best, endgame_metric(T, K, s, kind, arg))
        if best == 0 and kind != S.EG_SINKINGS:
            continue
        tied = ZERO
        for s in range(players):
            if endgame_metric(T, K, s, kind, arg) == best:
                tied += 1
        for s in range(players):
            if endgame_metric(T, K, s, kind, arg) == best:
                T[SEAT0 + s, S.POINTS] += v // tied
                T[SEAT0 + s, S.ENDGAME_POINTS] += v // tied
                log_event(T, log, s, EV.ENDGAME, np.int64(j), v // tied, ZERO)


@jit(runtime=False)
def end_now(P, T, K, log, players):
    """Score the table as if the game ended now: everyone buries its hold where it is, in turn
    order, then the endgame bonuses (Endgame), unless the game is already over (its Treasure
    Points are then final). Edits T: callers pass a copy. The trace's and the lookahead's
    measure of a position."""
    if T[ST, S.END_REASON] >= 0:
        return
    for i in range(players):
        A.bury(T, K, log, T[ORDER, i])
    endgame_bonuses(P, T, K, log, players)


@jit(runtime=False)
def final_scoring(P, T, K, log, players, out):
    """Ranks by Treasure Points; a tie goes to the pirate higher in the final Day's turn order
    (TOA-G35: the order the final Midnight Wager set), so the ranking is total."""
    complete = T[ST, S.END_REASON] != S.END_ROUND_CAP
    for s in range(players):
        rank = ONE
        for o in range(players):
            if o == s:
                continue
            po = T[SEAT0 + o, S.POINTS]
            ps = T[SEAT0 + s, S.POINTS]
            if po > ps or (po == ps and T[ORDER, S.POSITION + o] < T[ORDER, S.POSITION + s]):
                rank += 1
        out[s, G.SCORE] = T[SEAT0 + s, S.POINTS]
        out[s, G.RANK] = rank
        out[s, G.WINNER] = 1 if rank == 1 and complete else 0
        out[s, S.M_TREASURE_POINTS] = T[SEAT0 + s, S.POINTS]
        out[s, S.M_GOLD] = T[SEAT0 + s, S.GOLD]
        out[s, S.M_BURIALS] = T[SEAT0 + s, S.BURIALS]
        out[s, S.M_FIGHTS_WON] = T[SEAT0 + s, S.FIGHTS_WON]
        out[s, S.M_SINKINGS] = T[SEAT0 + s, S.SINKINGS]
        out[s, S.M_RELICS] = T[SEAT0 + s, S.N_RELICS]
        log_event(T, log, s, EV.SCORE, T[SEAT0 + s, S.POINTS], rank, out[s, G.WINNER])


@jit(runtime=False)
def play_day(P, T, K, F, rng, log, players):
    """One Day: dice, every Sunrise turn, every Sunset turn, then the Night. Returns True when the
    game is over (the final Day's burials are done, or the round cap)."""
    start_day(P, T, K, F, rng, log, players)
    for phase in range(2):
        T[ST, S.ROUND_TURN] = phase
        for i in range(players):
            take_turn(P, T, K, F, rng, log, T[ORDER, i], np.int64(phase), players)
    return night(P, T, K, F, rng, log, players)


@jit(runtime=False)
def night(P, T, K, F, rng, log, players):
    """The Night's four steps, or the end after the final Day's wager. Returns True when the game
    is over."""
    T[ST, S.ROUND_TURN] = 2
    upgrades(P, T, K, F, rng, log, players)
    navy_hunts(P, T, K, F, rng, log, players)
    midnight_wager(P, T, K, log, players)
    if T[ST, S.FINAL_DAY] == 1:
        # after the final Day's wager everyone buries where it is, in turn order (Endgame; the
        # final Rising Tide is skipped, TOA-X25); a sunk ship buries too, off the board (TOA-X24)
        for i in range(players):
            A.bury(T, K, log, T[ORDER, i])
        T[ST, S.END_REASON] = S.END_BAG
        log_event(T, log, NONE, EV.END, np.int64(S.END_BAG), ZERO, ZERO)
        endgame_bonuses(P, T, K, log, players)
        return True
    if T[ST, S.DAY] >= P.round_cap:
        T[ST, S.END_REASON] = S.END_ROUND_CAP
        log_event(T, log, NONE, EV.END, np.int64(S.END_ROUND_CAP), ZERO, ZERO)
        return True
    rising_tide(T, K, rng, log)
    T[ST, S.DAY] += 1
    return False
