"""The Sea of Troubles engine: set-up, actions (move, pillage, fight, bury, dig, deliver),
bidding and the round's end, death and the Ghost, the final tally (numba).

Tables (layout in state.py): T int64 state, K int64 statics, F float64 (row 0 candidate
scores, row 1 + s seat s's preset weights), rng (stream 0 chance, 1 + s seat s), buf
(int64 candidate rows), log. Functions take those of (P, T, K, F, rng, buf, log) they
need, in that order, then their own arguments. The game loop (`play_games`) is in
chunk.py, which dispatches each seat to this engine or to the lookahead tier (lookahead.py).
"""

import numpy as np

from simkit.core import game as G
from simkit.core.bots import RANDOM_POLICY
from simkit.core.jit import jit
from simkit.core.kernels import (
    FALSE,
    TRUE,
    append_event,
    copy_prefix,
    decide,
    option,
    pick_best,
    pick_option,
    random_decision,
)
from simkit.core.rng import CHANCE, randint, shuffle
from simkit.games.sea_of_troubles import events as EV
from simkit.games.sea_of_troubles import state as S
from simkit.games.sea_of_troubles.state import (
    BURY0,
    CARRY0,
    DECK,
    DISC,
    HAND0,
    META,
    PLAY,
    SEAT0,
    ST,
    TDECK,
    carried_infamy,
    fits,
    quirk,
    type_total,
)
from strategies import sea_of_troubles as bot

# candidate action kinds (buf rows KIND, ARG)
# typed (np.int64): add() takes them as arguments, and a literal would compile it once per kind
A_END, A_MOVE, A_PILLAGE, A_BOARD, A_SHOOT, A_BURY, A_DIG, A_DELIVER, A_RECOVER = (np.int64(k) for k in range(9))
KIND, ARG = 0, 1
BUF_ROWS = 2
BUF_WIDTH = 256
F_WIDTH = 256
NOISE = F_WIDTH - 1  # F[1 + s, NOISE]: seat s's noise, read from its strategy row's last column
DEF0 = 64  # PLAY row: defender's cards from this column
MAX_STEPS = 60  # actions per turn at most (each spends a card or a move point anyway)
ZERO = np.int64(0)  # typed arguments (simkit.core.kernels)
ONE = np.int64(1)
NONE = np.int64(-1)


@jit(inline="always", runtime=False)
def log_event(T, log, seat, code, a, b, c):
    """One row of the event log, dated by the round it happens in (simkit.core.kernels.append_event)."""
    append_event(T, log, ST, S.LOG_N, T[ST, S.ROUND], seat, code, a, b, c)


@jit(inline="always", runtime=False)
def is_random(F, seat):
    return F[1 + seat, bot.POLICY] == RANDOM_POLICY


@jit(runtime=False)
def plays_random(F, rng, seat):
    """This decision is a uniformly random legal choice: always for `random`, else with the
    seat's noise (the skill knob), a coin from the seat's own stream that is drawn
    only when the noise is above 0 (so noise 0 plays the very same games)."""
    return random_decision(F, rng, seat, bot.POLICY, NOISE)


# --------------------------------------------------------------------------- cards
@jit(runtime=False)
def draw_card(T, rng, log):
    """Top action card, reshuffling the discard pile into a new deck when empty; -1 if none."""
    if T[ST, S.DECK_N] == 0:
        n = T[ST, S.DISC_N]
        if n == 0:
            return NONE
        copy_prefix(T, DECK, T, DISC, n)
        T[ST, S.DISC_N] = 0
        T[ST, S.DECK_N] = n
        shuffle(rng, CHANCE, T[DECK], n)
        log_event(T, log, NONE, EV.RESHUFFLE, n, 0, 0)
    T[ST, S.DECK_N] -= 1
    return T[DECK, T[ST, S.DECK_N]]


@jit(inline="always", runtime=False)
def discard(T, card):
    T[DISC, T[ST, S.DISC_N]] = card
    T[ST, S.DISC_N] += 1


@jit(inline="always", runtime=False)
def take_from_hand(T, seat, i):
    """Remove hand slot i (swap with the last) and return the card."""
    n = T[SEAT0 + seat, S.HAND_N] - 1
    card = T[HAND0 + seat, i]
    T[HAND0 + seat, i] = T[HAND0 + seat, n]
    T[SEAT0 + seat, S.HAND_N] = n
    return card


@jit(runtime=False)
def pay_cost(T, K, seat, tr):
    """Action cards a bury or a delivery of treasure tr costs (A16; the thrifty quirk)."""
    cost = K[S.TREAS_INF, tr]
    cut = quirk(T, K, seat, S.QE_THRIFTY)
    if cut > 0:
        cost = max(cost - cut, 1)
    return cost


@jit(runtime=False)
def hand_limit(P, T, K, seat):
    """Hand size less the weighted treasure carried (Hand Size); the Ghost carries freely."""
    if T[SEAT0 + seat, S.STATE] == S.GHOST:
        return P.hand_size + quirk(T, K, seat, S.QE_HAND)
    lim = P.hand_size + quirk(T, K, seat, S.QE_HAND)
    for i in range(T[SEAT0 + seat, S.CARRY_N]):
        lim -= K[S.TREAS_WEIGHT, T[CARRY0 + seat, i]]
    return max(lim, 0)


@jit(runtime=False)
def spend_lowest(T, K, rng, seat, n):
    """Discard n action cards of the lowest value (bury and delivery pay by card count, A16)."""
    for _ in range(n):
        best = -1
        for i in range(T[SEAT0 + seat, S.HAND_N]):
            if best < 0 or K[S.CARD_VALUE, T[HAND0 + seat, i]] < K[S.CARD_VALUE, T[HAND0 + seat, best]]:
                best = i
        discard(T, take_from_hand(T, seat, best))


# --------------------------------------------------------------------------- infamy, treasure, damage
@jit(runtime=False)
def offer_quirk(T, K, F, rng, log, seat):
    """A player's first Infamy: reveal the top quirk, then take any face-up quirk or the next
    card blind; declined quirks stay face up for later players (Quirks, A28). A heuristic bot
    takes the face-up quirk it likes best unless a blind draw is worth more on average."""
    if T[ST, S.QDECK_N] > 0:
        T[ST, S.QDECK_N] -= 1
        T[S.QUIRK_UP, T[ST, S.QUP_N]] = T[S.QUIRK_DECK, T[ST, S.QDECK_N]]
        T[ST, S.QUP_N] += 1
    up = T[ST, S.QUP_N]
    options = (np.int64(1) << up) - 1  # face-up quirk i as alternative i, the blind draw as up
    if T[ST, S.QDECK_N] > 0:
        options |= option(up)
    if options == 0:
        return
    if plays_random(F, rng, seat):
        k = pick_option(options, rng, seat)
    else:
        k = bot.quirk_to_take(T, K, options)
    if k < up:
        q = T[S.QUIRK_UP, k]
        T[S.QUIRK_UP, k] = T[S.QUIRK_UP, up - 1]
        T[ST, S.QUP_N] = up - 1
    else:
        T[ST, S.QDECK_N] -= 1
        q = T[S.QUIRK_DECK, T[ST, S.QDECK_N]]
    T[SEAT0 + seat, S.QUIRK] = q
    log_event(T, log, seat, EV.QUIRK, q, 1 if k >= up else 0, T[ST, S.QUP_N])


@jit(runtime=False)
def gain_infamy(T, K, F, rng, log, seat, n, reason):
    """Infamy tokens to (n < 0: from) the seat's current score. Gains from the public pile
    (pillage, a Cannon win, a quest) are the only ones Infamy quirks touch (Infamy-related
    special cards, A31). The first gain brings the quirk draw when quirks are in play."""
    if n > 0 and (reason == EV.R_PILLAGE or reason == EV.R_SHOT or reason == EV.R_QUEST):
        n += quirk(T, K, seat, S.QE_BRAGGART)
        bet = quirk(T, K, seat, S.QE_GAMBLER)
        if bet > 0:
            c = draw_card(T, rng, log)
            if c >= 0:
                discard(T, c)
                v = K[S.CARD_VALUE, c]
                if v >= 3:
                    n += bet
                elif v == 1:
                    n = 0
                log_event(T, log, seat, EV.GAMBLE, v, n, 0)
    if n == 0:
        return
    col = S.GHOST_INFAMY if T[SEAT0 + seat, S.STATE] == S.GHOST else S.INFAMY
    T[SEAT0 + seat, col] += n
    log_event(T, log, seat, EV.INFAMY, n, reason, T[SEAT0 + seat, col])
    if n > 0 and T[SEAT0 + seat, S.OFFERED] == 0:
        T[SEAT0 + seat, S.OFFERED] = 1
        if K[META, S.N_QUIRKS] > 0:
            offer_quirk(T, K, F, rng, log, seat)


@jit(inline="always", runtime=False)
def tokens(T, seat):
    col = S.GHOST_INFAMY if T[SEAT0 + seat, S.STATE] == S.GHOST else S.INFAMY
    return T[SEAT0 + seat, col]


@jit(inline="always", runtime=False)
def carry(T, seat, tr):
    T[CARRY0 + seat, T[SEAT0 + seat, S.CARRY_N]] = tr
    T[SEAT0 + seat, S.CARRY_N] += 1


@jit(runtime=False)
def buried_infamy(T, K, seat):
    total = 0
    for i in range(T[SEAT0 + seat, S.BURY_N]):
        total += K[S.TREAS_INF, T[BURY0 + seat, i]]
    return total


@jit(runtime=False)
def trigger(T, log, reason):
    if T[ST, S.END_REASON] < 0:
        T[ST, S.END_REASON] = reason
        log_event(T, log, NONE, EV.END_TRIGGER, reason, 0, 0)


@jit(runtime=False)
def sink(P, T, K, rng, log, seat, by):
    """4 damage (3 in Skirmish): the ship sinks, its hand discarded. Its carried treasure goes
    as `sunk_treasure` reads it (A12): out of the game (counted in SUNK), shuffled back into
    the treasure deck, or to `by`, the pirate whose Cannons sank it (out of the game when no
    pirate did or that one has sunk too)."""
    for i in range(T[SEAT0 + seat, S.HAND_N]):
        discard(T, T[HAND0 + seat, i])
    T[SEAT0 + seat, S.HAND_N] = 0
    m = T[SEAT0 + seat, S.CARRY_N]
    if P.sunk_treasure == S.SUNK_DECK and m > 0:
        for i in range(m):
            T[TDECK, T[ST, S.TDECK_N]] = T[CARRY0 + seat, i]
            T[ST, S.TDECK_N] += 1
            log_event(T, log, seat, EV.TREASURE, T[CARRY0 + seat, i], EV.R_SUNK, NONE)
        shuffle(rng, CHANCE, T[TDECK], T[ST, S.TDECK_N])
    elif P.sunk_treasure == S.SUNK_ATTACKER and m > 0 and by >= 0 and T[SEAT0 + by, S.STATE] != S.DEAD:
        for i in range(m):
            tr = T[CARRY0 + seat, i]
            carry(T, by, tr)
            log_event(T, log, by, EV.TREASURE, tr, EV.R_SUNK, seat)
    else:
        for i in range(m):
            log_event(T, log, seat, EV.TREASURE, T[CARRY0 + seat, i], EV.R_SUNK, NONE)
        T[ST, S.SUNK] += m
    T[SEAT0 + seat, S.CARRY_N] = 0
    was = T[SEAT0 + seat, S.STATE]
    T[SEAT0 + seat, S.STATE] = S.DEAD
    T[SEAT0 + seat, S.POS] = NONE
    T[SEAT0 + seat, S.DEATH_COUNT] += 1
    T[ST, S.DEATHS] += 1
    log_event(T, log, seat, EV.DEATH, T[ST, S.DEATHS], 0, 0)
    if was == S.ALIVE and T[ST, S.GHOST_SEAT] < 0 and T[ST, S.GHOST_PENDING] < 0:
        T[ST, S.GHOST_PENDING] = seat  # the first pirate to die returns as the Ghost (Death)
    if T[ST, S.DEATHS] >= 2:
        trigger(T, log, S.END_TWO_DEAD)


@jit(runtime=False)
def damage(P, T, K, rng, log, seat, by):
    """A damage token to the seat, dealt by pirate `by`'s Cannons (-1: no pirate's)."""
    T[SEAT0 + seat, S.DAMAGE] += 1
    log_event(T, log, seat, EV.DAMAGE, T[SEAT0 + seat, S.DAMAGE], 0, 0)
    if T[SEAT0 + seat, S.DAMAGE] >= P.sink_damage + quirk(T, K, seat, S.QE_HULL):
        sink(P, T, K, rng, log, seat, by)


# --------------------------------------------------------------------------- movement
@jit(inline="always", runtime=False)
def steps_table(T, seat):
    """The first K row of the steps table the seat moves by: the Ghost's, or the sailing one."""
    return S.GDIST0 if T[SEAT0 + seat, S.STATE] == S.GHOST else S.DIST0


@jit(inline="always", runtime=False)
def steps(T, K, seat, a, b):
    return K[steps_table(T, seat) + a, b]


@jit(inline="always", runtime=False)
def moves_with(T, sails):
    """move_budget, given the hand's Sails total (type_total)."""
    return T[ST, S.FREE] + sails


@jit(runtime=False)
def move_budget(T, K, seat):
    return moves_with(T, type_total(T, K, seat, S.SAIL))


@jit(runtime=False)
def toward(T, K, seat, goal, budget):
    """The water square within `budget` steps closest to `goal` (the goal itself if reachable);
    among equally close squares the ship's own, else the lowest-numbered."""
    a = T[SEAT0 + seat, S.POS]
    base = steps_table(T, seat)
    best_d = K[base + a, goal]
    if best_d <= budget and K[S.SQ_KIND, goal] != S.LAND:
        return goal  # only the goal itself is 0 steps from the goal
    best = a
    for b in range(K[META, S.N_SQ]):
        if K[S.SQ_KIND, b] == S.LAND:
            continue  # nobody ends a move in land (the Ghost passes through it)
        # steps from b to the goal read on the goal's row: a step sails back the way it came
        # (orthogonal, the wrap too, A6), so the table is symmetric (components._steps_of checks it)
        d = K[base + goal, b]
        if d < best_d and K[base + a, b] <= budget:
            best = b
            best_d = d
    return best


@jit(runtime=False)
def move(T, K, log, seat, dest):
    """Sail to dest paying free points first, then Sail cards (smallest that covers the rest,
    else the largest, repeatedly); a card's unused points are lost (Move)."""
    a = T[SEAT0 + seat, S.POS]
    d = steps(T, K, seat, a, dest)
    free = min(T[ST, S.FREE], d)
    T[ST, S.FREE] -= free
    need = d - free
    played = 0
    while need > 0:
        pick = -1
        for i in range(T[SEAT0 + seat, S.HAND_N]):
            c = T[HAND0 + seat, i]
            if not fits(K, c, S.SAIL):
                continue
            v = K[S.CARD_VALUE, c]
            if pick < 0:
                pick = i
                continue
            pv = K[S.CARD_VALUE, T[HAND0 + seat, pick]]
            if (v >= need and (pv < need or v < pv)) or (pv < need and v > pv):
                pick = i
        if pick < 0:
            break
        c = take_from_hand(T, seat, pick)
        need -= K[S.CARD_VALUE, c]
        discard(T, c)
        played += 1
    T[SEAT0 + seat, S.POS] = dest
    log_event(T, log, seat, EV.MOVE, a, dest, played)


# --------------------------------------------------------------------------- pillage, bury, dig, deliver
@jit(runtime=False)
def can_pillage(T, K, seat):
    a = T[SEAT0 + seat, S.POS]
    if T[SEAT0 + seat, S.STATE] != S.ALIVE or K[S.SQ_KIND, a] != S.PORT:
        return False
    return T[S.PORT_CLOSED, K[S.SQ_INDEX, a]] == 0 and T[ST, S.TDECK_N] > 0


@jit(runtime=False)
def pillage(P, T, K, F, rng, log, seat):
    """Commit Swords/Cannons (Wilds too unless `wild_pillage` is off, A2), draw the port's defence, beat it to take a treasure."""
    port = K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]]
    attack = 0
    i = 0
    rand = plays_random(F, rng, seat)
    target = bot.pillage_target(F, seat)
    while i < T[SEAT0 + seat, S.HAND_N]:
        c = T[HAND0 + seat, i]
        t = K[S.CARD_TYPE, c]
        use = t == S.SWORD or t == S.CANNON or (t == S.WILD and P.wild_pillage)  # A2
        if use and rand:
            use = decide(rng, seat, 2) == 1 or attack == 0
        elif use:
            use = attack < target
        if use:
            attack += K[S.CARD_VALUE, c]
            discard(T, take_from_hand(T, seat, i))
        else:
            i += 1
    if attack > 0:
        attack += quirk(T, K, seat, S.QE_PILLAGE)
    defence = 0
    for _ in range(P.pillage_draw):
        c = draw_card(T, rng, log)
        if c >= 0:
            defence += K[S.CARD_VALUE, c]
            discard(T, c)
    log_event(T, log, seat, EV.PILLAGE, port, attack, defence)
    if attack > defence:
        if not P.skirmish:
            gain_infamy(T, K, F, rng, log, seat, ONE, EV.R_PILLAGE)
        T[ST, S.TDECK_N] -= 1
        tr = T[TDECK, T[ST, S.TDECK_N]]
        carry(T, seat, tr)
        log_event(T, log, seat, EV.TREASURE, tr, EV.R_PILLAGE, NONE)
        T[S.PORT_CLOSED, port] = P.closed_rounds
        if T[ST, S.TDECK_N] == 0:
            trigger(T, log, S.END_PILLAGED)


@jit(runtime=False)
def bury_spot_ok(P, T, K, seat):
    a = T[SEAT0 + seat, S.POS]
    if T[SEAT0 + seat, S.STATE] != S.ALIVE or K[S.SQ_KIND, a] != S.XSPOT:
        return False
    x = K[S.SQ_INDEX, a]
    owner = T[S.XOWNER, x]
    if owner >= 0:
        return owner == seat
    return P.skirmish or T[SEAT0 + seat, S.BURY_X] < 0  # one X only, except in Skirmish


@jit(runtime=False)
def bury(P, T, K, log, rng, seat, slot):
    tr = T[CARRY0 + seat, slot]
    cost = pay_cost(T, K, seat, tr)
    spend_lowest(T, K, rng, seat, cost)
    n = T[SEAT0 + seat, S.CARRY_N] - 1
    T[CARRY0 + seat, slot] = T[CARRY0 + seat, n]
    T[SEAT0 + seat, S.CARRY_N] = n
    x = K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]]
    T[BURY0 + seat, T[SEAT0 + seat, S.BURY_N]] = tr
    T[S.BURYX0 + seat, T[SEAT0 + seat, S.BURY_N]] = x
    T[SEAT0 + seat, S.BURY_N] += 1
    T[S.XOWNER, x] = seat
    T[SEAT0 + seat, S.BURY_X] = x
    log_event(T, log, seat, EV.BURY, tr, x, cost)
    if P.skirmish and buried_infamy(T, K, seat) >= P.buried_target:
        trigger(T, log, S.END_BURIED)


@jit(runtime=False)
def unbury(T, owner, i):
    """Take buried treasure i out of the owner's stock (the last fills its slot); returns it."""
    n = T[SEAT0 + owner, S.BURY_N] - 1
    tr = T[BURY0 + owner, i]
    T[BURY0 + owner, i] = T[BURY0 + owner, n]
    T[S.BURYX0 + owner, i] = T[S.BURYX0 + owner, n]
    T[SEAT0 + owner, S.BURY_N] = n
    return tr


@jit(runtime=False)
def dig_owner(P, T, K, seat):
    """Seat whose treasure lies at the active pirate's X (-1 none or own): the X's owner,
    with treasure there to take as `dig_pool` reads it (A17)."""
    a = T[SEAT0 + seat, S.POS]
    if T[SEAT0 + seat, S.STATE] != S.ALIVE or K[S.SQ_KIND, a] != S.XSPOT:
        return NONE
    x = K[S.SQ_INDEX, a]
    owner = T[S.XOWNER, x]
    if owner < 0 or owner == seat or S.buried_at(P, T, owner, x) == 0:
        return NONE
    return owner


@jit(runtime=False)
def dig(P, T, K, rng, log, seat, owner):
    """Draw; a 3 or 4 (a Wild in Skirmish; with `wild_digs` a Wild too, A2) takes a random buried treasure, and again while
    any is left (Dig). Digging ends the turn. The pool is the owner's buried stock, or with
    `dig_pool=x` only its treasure buried at this X (A17)."""
    x = K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]]
    while S.buried_at(P, T, owner, x) > 0:
        c = draw_card(T, rng, log)
        if c < 0:
            break
        discard(T, c)
        if not S.digs(P, K, c, quirk(T, K, seat, S.QE_DIG)):
            log_event(T, log, seat, EV.DIG, x, K[S.CARD_VALUE, c], NONE)
            break
        i = randint(rng, CHANCE, S.buried_at(P, T, owner, x))
        if P.dig_pool == S.POOL_X:  # the i-th of the cards buried at this X
            for j in range(T[SEAT0 + owner, S.BURY_N]):
                if T[S.BURYX0 + owner, j] == x:
                    if i == 0:
                        i = j
                        break
                    i -= 1
        tr = unbury(T, owner, i)
        carry(T, seat, tr)
        log_event(T, log, seat, EV.DIG, x, K[S.CARD_VALUE, c], tr)
        log_event(T, log, seat, EV.TREASURE, tr, EV.R_DIG, owner)


@jit(runtime=False)
def can_recover(P, T, K, seat):
    """At an X of its own with treasure buried: the pirate may dig one up without a draw (Dig);
    with `dig_pool=x` only treasure buried at this X (A17)."""
    a = T[SEAT0 + seat, S.POS]
    if T[SEAT0 + seat, S.STATE] != S.ALIVE or K[S.SQ_KIND, a] != S.XSPOT:
        return False
    x = K[S.SQ_INDEX, a]
    return T[S.XOWNER, x] == seat and S.buried_at(P, T, seat, x) > 0


@jit(inline="always", runtime=False)
def recoverable(P, T, K, seat, i):
    """Buried treasure i of the seat's own may come up at the X it stands on (A17, `dig_pool`)."""
    return P.dig_pool == S.POOL_OWNER or T[S.BURYX0 + seat, i] == K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]]


@jit(runtime=False)
def recover(T, K, log, seat, i):
    """Dig up buried treasure i of one's own, the owner's choice, one card per dig (A17);
    it still ends the turn."""
    tr = unbury(T, seat, i)
    carry(T, seat, tr)
    log_event(T, log, seat, EV.DIG, K[S.SQ_INDEX, T[SEAT0 + seat, S.POS]], NONE, tr)
    log_event(T, log, seat, EV.TREASURE, tr, EV.R_DIG, seat)


@jit(runtime=False)
def deliverable(T, K, seat, slot):
    """The carried treasure (slot in CARRY) a Delivery quest on the table at the pirate's port
    (open or closed) takes: the cheapest of the kind it asks for that the hand can pay (A18)."""
    q = T[S.QUEST, slot]
    a = T[SEAT0 + seat, S.POS]
    if q < 0 or T[SEAT0 + seat, S.STATE] != S.ALIVE or K[S.SQ_KIND, a] != S.PORT:
        return NONE
    if K[S.SQ_INDEX, a] != K[S.Q_PORT, q]:
        return NONE
    best = NONE
    for i in range(T[SEAT0 + seat, S.CARRY_N]):
        tr = T[CARRY0 + seat, i]
        if K[S.Q_KIND, q] >= 0 and K[S.TREAS_KIND, tr] != K[S.Q_KIND, q]:
            continue
        if pay_cost(T, K, seat, tr) <= T[SEAT0 + seat, S.HAND_N] and (
                best < 0 or K[S.TREAS_INF, tr] < K[S.TREAS_INF, T[CARRY0 + seat, best]]):
            best = i
    return best


@jit(runtime=False)
def deliver(T, K, F, rng, log, seat, slot, i):
    """Pay for and hand over carried treasure i to the quest in table slot `slot` (Quests)."""
    q = T[S.QUEST, slot]
    tr = T[CARRY0 + seat, i]
    spend_lowest(T, K, rng, seat, pay_cost(T, K, seat, tr))
    n = T[SEAT0 + seat, S.CARRY_N] - 1
    T[CARRY0 + seat, i] = T[CARRY0 + seat, n]
    T[SEAT0 + seat, S.CARRY_N] = n
    T[ST, S.DELIVERED] += 1
    T[S.QUEST, slot] = NONE
    T[ST, S.N_QUESTS] -= 1
    log_event(T, log, seat, EV.DELIVER, q, tr, K[S.Q_INF, q])
    gain_infamy(T, K, F, rng, log, seat, K[S.Q_INF, q], EV.R_QUEST)
    if T[ST, S.N_QUESTS] == 0:
        trigger(T, log, S.END_QUESTS)


# --------------------------------------------------------------------------- fights
@jit(runtime=False)
def can_attack(T, K, att, dfn, shoot):
    return may_attack(T, K, att, dfn, shoot, type_total(T, K, att, S.CANNON if shoot else S.SWORD))


@jit(runtime=False)
def may_attack(T, K, att, dfn, shoot, total):
    """can_attack, given the attacker's hand total of the attacking type (Cannons to shoot,
    Swords to board)."""
    if dfn == att or T[SEAT0 + dfn, S.STATE] == S.DEAD or T[SEAT0 + att, S.STATE] == S.DEAD:
        return False
    if (T[SEAT0 + att, S.DONE] >> (2 * dfn + shoot)) & 1:
        return False  # not the same action on the same pirate twice in a turn
    a = T[SEAT0 + att, S.POS]
    b = T[SEAT0 + dfn, S.POS]
    if K[S.SQ_KIND, a] == S.LAND:
        return False
    if shoot:
        return K[S.SIGHT0 + a, b] == 1 and total > 0
    return a == b and total > 0


@jit(runtime=False)
def commit(T, K, F, rng, seat, kind, col):
    """Move the seat's cards of `kind` (Wilds count as any type) into PLAY from column col;
    a random bot commits a random non-empty subset, a preset all of them. Returns the count."""
    n = 0
    i = 0
    rand = plays_random(F, rng, seat)
    while i < T[SEAT0 + seat, S.HAND_N]:
        c = T[HAND0 + seat, i]
        use = fits(K, c, kind)
        if use and rand and n > 0:
            use = decide(rng, seat, 2) == 1
        if use:
            T[PLAY, col + n] = take_from_hand(T, seat, i)
            n += 1
        else:
            i += 1
    return n


@jit(runtime=False)
def flee(T, K, log, seat, other, n):
    """A Sails win: sail up to n squares away, as far from the other pirate as possible (A19)."""
    a = T[SEAT0 + seat, S.POS]
    o = T[SEAT0 + other, S.POS]
    best = a
    for b in range(K[META, S.N_SQ]):
        if K[S.SQ_KIND, b] == S.LAND or steps(T, K, seat, a, b) > n:
            continue
        if o >= 0 and K[S.GDIST0 + o, b] > K[S.GDIST0 + o, best]:
            best = b
    T[SEAT0 + seat, S.POS] = best
    log_event(T, log, seat, EV.FLEE, a, best, 0)


@jit(runtime=False)
def loot(P, T, K, F, rng, log, winner, loser, kind, n):
    """The winning type's loot (LOOT). A Cannon win's damage token is returned, not dealt:
    the caller deals it once every side of the fight has its loot (a tie, A23)."""
    if T[SEAT0 + winner, S.STATE] == S.DEAD:
        return 0
    if kind == S.SWORD:
        if T[SEAT0 + loser, S.STATE] == S.DEAD:
            return 0
        m = T[SEAT0 + loser, S.CARRY_N]
        if m > 0:
            take = m
            if T[SEAT0 + loser, S.STATE] == S.GHOST:
                take = 1  # boarding the Ghost takes one treasure, the most valuable (Ghost Pirate)
                best = 0
                for i in range(m):
                    if K[S.TREAS_INF, T[CARRY0 + loser, i]] > K[S.TREAS_INF, T[CARRY0 + loser, best]]:
                        best = i
                tr = T[CARRY0 + loser, best]
                T[CARRY0 + loser, best] = T[CARRY0 + loser, m - 1]
                T[SEAT0 + loser, S.CARRY_N] = m - 1
                carry(T, winner, tr)
                log_event(T, log, winner, EV.TREASURE, tr, EV.R_FIGHT, loser)
            else:
                for i in range(take):
                    tr = T[CARRY0 + loser, i]
                    carry(T, winner, tr)
                    log_event(T, log, winner, EV.TREASURE, tr, EV.R_FIGHT, loser)
                T[SEAT0 + loser, S.CARRY_N] = 0
        elif tokens(T, loser) > 0:
            gain_infamy(T, K, F, rng, log, loser, NONE, EV.R_FIGHT)
            gain_infamy(T, K, F, rng, log, winner, ONE, EV.R_FIGHT)
    elif kind == S.CANNON:
        richer = T[SEAT0 + loser, S.STATE] != S.DEAD and tokens(T, loser) > tokens(T, winner)  # A20
        gain_infamy(T, K, F, rng, log, winner, ONE, EV.R_SHOT)  # from the public pile
        if richer:
            gain_infamy(T, K, F, rng, log, loser, NONE, EV.R_FIGHT)
            gain_infamy(T, K, F, rng, log, winner, ONE, EV.R_FIGHT)
        if T[SEAT0 + loser, S.STATE] != S.DEAD:
            return 1
    elif T[SEAT0 + winner, S.POS] >= 0:
        flee(T, K, log, winner, loser, n)
    return 0


@jit(runtime=False)
def fight_bonus(T, K, seat, kind):
    """A quirk's bonus to the seat's fight total with cards of `kind` (A15)."""
    if kind == S.SWORD:
        return quirk(T, K, seat, S.QE_BOARD)
    if kind == S.CANNON:
        return quirk(T, K, seat, S.QE_SHOOT)
    if kind == S.SAIL:
        return quirk(T, K, seat, S.QE_FLEE)
    return 0


@jit(runtime=False)
def fight(P, T, K, F, rng, log, att, dfn, shoot):
    """One fight (FIGHT ANOTHER PIRATE): commit, the defender's draw and answer, the reveals
    with the defender's option to concede, the winner's loot."""
    T[SEAT0 + att, S.DONE] |= ONE << (2 * dfn + shoot)
    akind = S.CANNON if shoot else S.SWORD
    na = commit(T, K, F, rng, att, akind, ZERO)
    log_event(T, log, att, EV.FIGHT, dfn, shoot, na)
    if T[SEAT0 + dfn, S.HAND_N] < hand_limit(P, T, K, dfn):
        c = draw_card(T, rng, log)
        if c >= 0:
            T[HAND0 + dfn, T[SEAT0 + dfn, S.HAND_N]] = c
            T[SEAT0 + dfn, S.HAND_N] += 1
    # the defender's answer: -1 concede, else a type with at least one card (A21)
    answer = NONE
    if plays_random(F, rng, dfn):
        options = option(0)  # concede, or answer with type t as alternative 1 + t
        for t in range(3):
            if type_total(T, K, dfn, t) > 0:
                options |= option(1 + t)
        answer = pick_option(options, rng, dfn) - 1
    else:
        answer = bot.answer(P, T, K, F, dfn, att, na)
    nd = 0
    if answer >= 0:
        if answer == S.SWORD and T[SEAT0 + dfn, S.POS] != T[SEAT0 + att, S.POS]:
            T[SEAT0 + dfn, S.POS] = T[SEAT0 + att, S.POS]  # boards against a shot: moves in for free
        nd = commit(T, K, F, rng, dfn, answer, np.int64(DEF0))
    log_event(T, log, dfn, EV.RESPONSE, answer, nd, NONE)
    sa = fight_bonus(T, K, att, akind)
    sd = fight_bonus(T, K, dfn, answer) if nd > 0 else 0
    conceded = answer < 0
    if not conceded:
        shuffle(rng, CHANCE, T[PLAY, 0:na], na)
        shuffle(rng, CHANCE, T[PLAY, DEF0 : DEF0 + nd], nd)
        rest_d = 0
        for i in range(nd):
            rest_d += K[S.CARD_VALUE, T[PLAY, DEF0 + i]]
        ia = 0
        idf = 0
        while ia < na or idf < nd:
            if ia < na:
                sa += K[S.CARD_VALUE, T[PLAY, ia]]
                ia += 1
            if idf < nd:
                v = K[S.CARD_VALUE, T[PLAY, DEF0 + idf]]
                sd += v
                rest_d -= v
                idf += 1
            if ia < na and idf < nd:  # unflipped cards on both sides: the defender may concede
                if plays_random(F, rng, dfn):
                    quit = decide(rng, dfn, 10) == 0
                else:
                    quit = bot.concede_now(F, dfn, sa, sd, rest_d, na - ia)
                if quit:
                    conceded = True
                    log_event(T, log, dfn, EV.RESPONSE, NONE, nd - idf, ia)
                    for j in range(idf, nd):  # keeps the unflipped cards
                        T[HAND0 + dfn, T[SEAT0 + dfn, S.HAND_N]] = T[PLAY, DEF0 + j]
                        T[SEAT0 + dfn, S.HAND_N] += 1
                    nd = idf
                    break
    for i in range(na):
        discard(T, T[PLAY, i])
    for i in range(nd):
        discard(T, T[PLAY, DEF0 + i])
    if conceded:
        log_event(T, log, att, EV.FIGHT_END, sa, sd, 3)
        if loot(P, T, K, F, rng, log, att, dfn, akind, na):  # a concession is a loss to the declared type (A22)
            damage(P, T, K, rng, log, dfn, att)
    elif sa > sd:
        log_event(T, log, att, EV.FIGHT_END, sa, sd, 0)
        if loot(P, T, K, F, rng, log, att, dfn, akind, na):
            damage(P, T, K, rng, log, dfn, att)
    elif sd > sa:
        log_event(T, log, att, EV.FIGHT_END, sa, sd, 1)
        if loot(P, T, K, F, rng, log, dfn, att, answer, nd):
            damage(P, T, K, rng, log, att, dfn)
    else:  # a tie: both win, the attacker's loot first (A23); a Cannon's damage lands only after
        # both halves, so a pirate sunk by the tie still takes its own half first
        log_event(T, log, att, EV.FIGHT_END, sa, sd, 2)
        hit_dfn = loot(P, T, K, F, rng, log, att, dfn, akind, na)
        hit_att = loot(P, T, K, F, rng, log, dfn, att, answer, nd)
        if hit_dfn:
            damage(P, T, K, rng, log, dfn, att)
        if hit_att:
            damage(P, T, K, rng, log, att, dfn)


# --------------------------------------------------------------------------- a turn
@jit(runtime=False)
def add(buf, n, kind, arg):
    buf[KIND, n] = kind
    buf[ARG, n] = arg
    return n + 1


@jit(runtime=False)
def candidates(P, T, K, buf, seat, players):
    n = add(buf, ZERO, A_END, ZERO)
    swords, sails, cannons, _ = S.hand_totals(T, K, seat)
    if can_pillage(T, K, seat) and (swords + cannons) > 0:
        n = add(buf, n, A_PILLAGE, ZERO)
    for o in range(players):
        if may_attack(T, K, seat, o, ZERO, swords):
            n = add(buf, n, A_BOARD, o)
        if may_attack(T, K, seat, o, ONE, cannons):
            n = add(buf, n, A_SHOOT, o)
    if bury_spot_ok(P, T, K, seat):
        for i in range(T[SEAT0 + seat, S.CARRY_N]):
            if pay_cost(T, K, seat, T[CARRY0 + seat, i]) <= T[SEAT0 + seat, S.HAND_N]:
                n = add(buf, n, A_BURY, i)
    if dig_owner(P, T, K, seat) >= 0:
        n = add(buf, n, A_DIG, ZERO)
    if can_recover(P, T, K, seat):
        for i in range(T[SEAT0 + seat, S.BURY_N]):
            if recoverable(P, T, K, seat, i):
                n = add(buf, n, A_RECOVER, i)
    if T[SEAT0 + seat, S.STATE] == S.ALIVE and K[S.SQ_KIND, T[SEAT0 + seat, S.POS]] == S.PORT:
        for q in range(K[META, S.N_Q]):  # a delivery is made at a port, by a living pirate (deliverable)
            if deliverable(T, K, seat, q) >= 0:
                n = add(buf, n, A_DELIVER, q)
    if moves_with(T, sails) > 0:  # move_budget, the Sails read with the rest of the hand
        a = T[SEAT0 + seat, S.POS]
        for p in range(K[META, S.NPORTS]):
            if K[S.PORT_SQ, p] != a:
                n = add(buf, n, A_MOVE, K[S.PORT_SQ, p])
        for x in range(K[META, S.N_X]):
            if K[S.X_SQ, x] != a:
                n = add(buf, n, A_MOVE, K[S.X_SQ, x])
        for o in range(players):
            b = T[SEAT0 + o, S.POS]
            if o != seat and b >= 0 and b != a and K[S.SQ_KIND, b] != S.LAND:
                n = add(buf, n, A_MOVE, b)
    return n


@jit(runtime=False)
def begin_turn(P, T, K, log, seat):
    """The turn's set-up: its free move points, no fight done yet; False if the pirate is out."""
    if T[SEAT0 + seat, S.STATE] == S.DEAD:
        return False
    T[ST, S.TURNS] += 1
    T[ST, S.ACTIVE] = seat
    T[ST, S.FREE] = P.free_moves + quirk(T, K, seat, S.QE_FREE_MOVES)
    T[SEAT0 + seat, S.DONE] = 0
    log_event(T, log, seat, EV.TURN, T[ST, S.TURNS], T[SEAT0 + seat, S.POS], T[SEAT0 + seat, S.HAND_N])
    return True


@jit(runtime=False)
def heuristic_choice(P, T, K, F, rng, buf, seat, players, n):
    """The policy's pick among the n candidates in buf (scores left in F[0]), ties at random."""
    own = bot.own_view(T, K, seat)
    for i in range(n):
        F[0, i] = bot.score(P, T, K, F, seat, buf[KIND, i], buf[ARG, i], players, own)
    return pick_best(F[0], rng, seat, n)


@jit(runtime=False)
def act(P, T, K, F, rng, log, seat, kind, arg):
    """Carry out one chosen action; True if it ends the turn."""
    if kind == A_END:
        return True
    if kind == A_MOVE:
        dest = toward(T, K, seat, arg, move_budget(T, K, seat))
        if dest == T[SEAT0 + seat, S.POS]:
            return True
        move(T, K, log, seat, dest)
    elif kind == A_PILLAGE:
        pillage(P, T, K, F, rng, log, seat)
    elif kind == A_BOARD:
        fight(P, T, K, F, rng, log, seat, arg, ZERO)
    elif kind == A_SHOOT:
        fight(P, T, K, F, rng, log, seat, arg, ONE)
    elif kind == A_BURY:
        bury(P, T, K, log, rng, seat, arg)
    elif kind == A_DIG:
        dig(P, T, K, rng, log, seat, dig_owner(P, T, K, seat))
        return True  # digging ends the turn
    elif kind == A_RECOVER:
        recover(T, K, log, seat, arg)
        return True  # digging up one's own treasure ends the turn too
    elif kind == A_DELIVER:
        deliver(T, K, F, rng, log, seat, arg, deliverable(T, K, seat, arg))
    return False


@jit(runtime=False)
def turn_steps(P, T, K, F, rng, buf, log, seat, players, steps_left):
    """The rest of a turn, step by step: list the legal actions, choose one (the policy's, or
    a uniformly random one for `random` and with the seat's noise), carry it out."""
    for _ in range(steps_left):
        if T[SEAT0 + seat, S.STATE] == S.DEAD:
            return  # sunk by a tie's return fire
        n = candidates(P, T, K, buf, seat, players)
        if plays_random(F, rng, seat):
            k = decide(rng, seat, n)
        else:
            k = heuristic_choice(P, T, K, F, rng, buf, seat, players, n)
        if act(P, T, K, F, rng, log, seat, buf[KIND, k], buf[ARG, k]):
            return


@jit(runtime=False)
def take_turn(P, T, K, F, rng, buf, log, seat, players):
    if begin_turn(P, T, K, log, seat):
        turn_steps(P, T, K, F, rng, buf, log, seat, players, MAX_STEPS)


# --------------------------------------------------------------------------- bidding and the round's end
@jit
def bidding(P, T, K, F, rng, log, players, compulsory):
    """Bid 0-2 cards (1-2 when compulsory); the highest total chooses the starter and the
    direction; ties draw cards one at a time (A24). Nobody bids: the order stays (A24)."""
    best = -1
    totals = np.zeros(players, dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    for s in range(players):
        totals[s] = -1
        if T[SEAT0 + s, S.STATE] == S.DEAD or T[SEAT0 + s, S.HAND_N] == 0:
            continue
        h = T[SEAT0 + s, S.HAND_N]
        rand = plays_random(F, rng, s)  # one decision: how many cards and which
        if rand:
            lo = 1 if compulsory else 0
            nb = lo + decide(rng, s, 3 - lo)
        else:
            nb = bot.bid_count(F, s, compulsory)
        nb = min(nb, h)
        if nb == 0:
            continue
        total = 0
        for _ in range(nb):  # the bot bids its highest cards, a random bot random ones
            if rand:  # any card of the hand
                i = decide(rng, s, T[SEAT0 + s, S.HAND_N])
            else:
                i = bot.bid_card(T, K, s)
            c = take_from_hand(T, s, i)
            total += K[S.CARD_VALUE, c]
            discard(T, c)
        totals[s] = total
        counts[s] = nb
        best = max(best, total)
    if best < 0:
        return NONE
    tied = np.zeros(players, dtype=np.int64)
    for s in range(players):
        tied[s] = 1 if totals[s] == best else 0
    for _ in range(50):
        if tied.sum() == 1:
            break
        top = -1
        draws = np.full(players, -1, dtype=np.int64)
        for s in range(players):
            if tied[s]:
                c = draw_card(T, rng, log)
                if c >= 0:
                    draws[s] = K[S.CARD_VALUE, c]
                    discard(T, c)
                top = max(top, draws[s])
        for s in range(players):
            if draws[s] != top:
                tied[s] = 0
    winner = 0
    for s in range(players):
        if tied[s]:
            winner = s
            break
    for s in range(players):
        if totals[s] >= 0:
            log_event(T, log, s, EV.BID, counts[s], totals[s], 1 if s == winner else 0)
    return winner


@jit(runtime=False)
def choose_start(T, F, rng, log, winner, players):
    """The bid winner, having seen its new cards, names the starter and the direction (Bidding)."""
    if plays_random(F, rng, winner):
        T[ST, S.FIRST] = decide(rng, winner, players)
        T[ST, S.DIR] = 1 if decide(rng, winner, 2) == 0 else -1
    elif bot.starts_after(F, winner):  # the lookahead tier's choice: play last, clockwise
        T[ST, S.FIRST] = (winner + 1) % players
        T[ST, S.DIR] = 1
    else:
        T[ST, S.FIRST] = winner  # a preset starts itself, clockwise
        T[ST, S.DIR] = 1
    log_event(T, log, winner, EV.STARTER, T[ST, S.FIRST], T[ST, S.DIR], 0)


@jit(runtime=False)
def refill(P, T, K, F, rng, log, seat):
    """Discard unwanted action cards (a preset its cards of value W_DISCARD or less, a random
    player a random subset), then down to the hand limit (lowest first), then draw back up."""
    if T[SEAT0 + seat, S.STATE] == S.DEAD:
        return
    i = 0
    rand = plays_random(F, rng, seat)
    worst = bot.discard_below(F, seat)
    while i < T[SEAT0 + seat, S.HAND_N]:
        c = T[HAND0 + seat, i]
        if (rand and decide(rng, seat, 2) == 1) or (not rand and K[S.CARD_VALUE, c] <= worst):
            discard(T, take_from_hand(T, seat, i))
        else:
            i += 1
    lim = hand_limit(P, T, K, seat)
    while T[SEAT0 + seat, S.HAND_N] > lim:
        spend_lowest(T, K, rng, seat, ONE)
    while T[SEAT0 + seat, S.HAND_N] < lim:
        c = draw_card(T, rng, log)
        if c < 0:
            break
        T[HAND0 + seat, T[SEAT0 + seat, S.HAND_N]] = c
        T[SEAT0 + seat, S.HAND_N] += 1


@jit
def end_round(P, T, K, F, rng, log, players):
    """Bid, the Ghost's return, discard and draw back up, the bid winner's choice, the
    ports' counters tick (A24)."""
    winner = bidding(P, T, K, F, rng, log, players, FALSE)
    g = T[ST, S.GHOST_PENDING]
    if g >= 0:  # the first dead pirate returns as the Ghost (A25: at its own X, fresh hand, no damage)
        T[ST, S.GHOST_PENDING] = NONE
        T[ST, S.GHOST_SEAT] = g
        T[SEAT0 + g, S.STATE] = S.GHOST
        T[SEAT0 + g, S.LIVING_DAMAGE] = T[SEAT0 + g, S.DAMAGE]
        T[SEAT0 + g, S.DAMAGE] = 0
        T[SEAT0 + g, S.POS] = T[SEAT0 + g, S.HOME]
        T[SEAT0 + g, S.GHOST_INFAMY] = P.start_infamy
        log_event(T, log, g, EV.GHOST, T[SEAT0 + g, S.POS], 0, 0)
    for s in range(players):
        refill(P, T, K, F, rng, log, s)
    if winner >= 0:
        choose_start(T, F, rng, log, winner, players)
    for p in range(K[META, S.NPORTS]):
        if T[S.PORT_CLOSED, p] > 0:
            T[S.PORT_CLOSED, p] -= 1


# --------------------------------------------------------------------------- set-up and the end
@jit
def setup_game(P, T, K, F, rng, buf, log, players):
    log_n = T[ST, S.LOG_N]
    T[:, :] = 0
    T[ST, S.LOG_N] = log_n
    T[ST, S.END_REASON] = NONE
    T[ST, S.PLAYERS] = players
    T[ST, S.GHOST_SEAT] = NONE
    T[ST, S.GHOST_PENDING] = NONE
    T[ST, S.DIR] = 1
    n = K[META, S.N_CARDS]
    for c in range(n):
        T[DECK, c] = c
    T[ST, S.DECK_N] = n
    shuffle(rng, CHANCE, T[DECK], n)
    # the treasure deck: the cards always in it and a random pick from the pool (A9, A10);
    # PLAY is scratch here
    nt = K[META, S.N_TREAS]
    copy_prefix(T, TDECK, K, S.TDECK_IDS, nt)
    npool = K[META, S.N_POOL]
    copy_prefix(T, PLAY, K, S.TPOOL, npool)
    shuffle(rng, CHANCE, T[PLAY], npool)
    for i in range(K[META, S.N_PICK]):
        T[TDECK, nt] = T[PLAY, i]
        nt += 1
    for i in range(K[META, S.N_PICK], npool):  # the pool's cards left out, unseen by everyone
        T[S.TASIDE, i - K[META, S.N_PICK]] = T[PLAY, i]
    T[ST, S.TDECK_N] = nt
    shuffle(rng, CHANCE, T[TDECK], nt)
    T[ST, S.ASIDE] = K[META, S.BOX_T] - nt
    # one quest per player, dealt face up from the shuffled quest deck (Getting started 5, A4)
    nbox = K[META, S.N_QBOX]
    for q in range(nbox):
        T[PLAY, q] = q
    shuffle(rng, CHANCE, T[PLAY], nbox)
    nq = K[META, S.N_Q]
    T[S.QUEST, :] = NONE
    copy_prefix(T, S.QUEST, T, PLAY, nq)
    T[ST, S.N_QUESTS] = nq
    T[PLAY, :] = 0
    nk = K[META, S.N_QUIRKS]  # the quirk deck, shuffled beside the treasure deck (Quirks)
    for k in range(nk):
        T[S.QUIRK_DECK, k] = k
    shuffle(rng, CHANCE, T[S.QUIRK_DECK], nk)
    T[ST, S.QDECK_N] = nk
    T[S.XOWNER, :] = NONE
    np_ = K[META, S.NPORTS]
    T[ST, S.N_PORTS] = np_
    open_n = 0
    for p in range(np_):
        roll = 1 + randint(rng, CHANCE, P.port_die)
        T[S.PORT_CLOSED, p] = 0 if roll == 4 else roll
        if roll == 4:
            open_n += 1
    while open_n < min(2, np_):  # remove the highest dice until two ports are open (A8)
        hi = 0
        for p in range(np_):
            if T[S.PORT_CLOSED, p] > T[S.PORT_CLOSED, hi]:
                hi = p
        T[S.PORT_CLOSED, hi] = 0
        open_n += 1
    deal = P.hand_size + (1 if P.bidding_start else 0)
    seat_infamy = (P.seat_infamy_1, P.seat_infamy_2, P.seat_infamy_3, P.seat_infamy_4, P.seat_infamy_5)
    for s in range(players):
        T[SEAT0 + s, S.POS] = NONE
        T[SEAT0 + s, S.BURY_X] = NONE
        T[SEAT0 + s, S.QUIRK] = NONE  # the starting Infamy is not a gain (A29)
        T[SEAT0 + s, S.INFAMY] = P.start_infamy + seat_infamy[s]  # the designer knob adds to the rulebook's start
        for _ in range(deal):
            T[HAND0 + s, T[SEAT0 + s, S.HAND_N]] = draw_card(T, rng, log)
            T[SEAT0 + s, S.HAND_N] += 1
    placer = 0  # the basic start: seat 0 places first (A13)
    if P.bidding_start:
        winner = bidding(P, T, K, F, rng, log, players, TRUE)
        if winner >= 0:
            placer = winner
            choose_start(T, F, rng, log, winner, players)
    place_ships(T, K, F, rng, log, players, placer)


@jit(runtime=False)
def place_ships(T, K, F, rng, log, players, placer):
    """The first placer puts its ship on an X, then the others clockwise, each on a free X
    (Set Sail!, A11). A preset takes the free X farthest from the ships already placed, a
    random player any free X."""
    for i in range(players):
        s = (placer + i) % players
        n_free = 0
        best = NONE
        best_d = -1
        for x in range(K[META, S.N_X]):
            sq = K[S.X_SQ, x]
            taken = False
            near = S.FAR
            for o in range(players):
                if T[SEAT0 + o, S.POS] == sq:
                    taken = True
                elif T[SEAT0 + o, S.POS] >= 0:
                    near = min(near, K[S.DIST0 + sq, T[SEAT0 + o, S.POS]])
            if taken:
                continue
            T[PLAY, n_free] = sq
            n_free += 1
            if near > best_d:
                best_d = near
                best = sq
        if plays_random(F, rng, s):
            best = T[PLAY, decide(rng, s, n_free)]
        T[SEAT0 + s, S.POS] = best
        T[SEAT0 + s, S.HOME] = best
        log_event(T, log, s, EV.PLACE, best, K[S.SQ_INDEX, best], 0)
    T[PLAY, :players] = 0


@jit(runtime=False)
def score_now(T, K, s):
    """Seat s's final score if the game ended now (ENDING THE GAME): Infamy tokens plus
    buried and carried treasure; a Ghost's player scores the better of the living pirate
    (tokens and buried treasure) and the Ghost (its tokens and what it carries). Returns
    (score, buried, carried, ghost)."""
    st = T[SEAT0 + s, S.STATE]
    ghost = st == S.GHOST or (st == S.DEAD and T[ST, S.GHOST_SEAT] == s)
    buried = buried_infamy(T, K, s)
    carried = carried_infamy(T, K, s)
    if ghost:
        living = T[SEAT0 + s, S.INFAMY] + buried
        dead = T[SEAT0 + s, S.GHOST_INFAMY] + carried
    else:
        living = T[SEAT0 + s, S.INFAMY] + buried + carried
        dead = 0
    return max(living, dead), buried, carried, ghost


@jit
def final_scoring(P, T, K, log, players, out):
    scores = np.zeros(players, dtype=np.int64)
    dmg = np.zeros(players, dtype=np.int64)
    for s in range(players):
        scores[s], buried, carried, ghost = score_now(T, K, s)
        dmg[s] = T[SEAT0 + s, S.DAMAGE] + T[SEAT0 + s, S.LIVING_DAMAGE]
        out[s, G.SCORE] = scores[s]
        out[s, S.M_INFAMY] = scores[s]
        out[s, S.M_TREASURE_INFAMY] = buried + carried
        out[s, S.M_BURIED] = buried
        out[s, S.M_DEATHS] = T[SEAT0 + s, S.DEATH_COUNT]
        out[s, S.M_GHOST] = 1 if ghost else 0
    complete = T[ST, S.END_REASON] != S.END_ROUND_CAP
    for s in range(players):
        rank = 1
        for o in range(players):
            if scores[o] > scores[s] or (scores[o] == scores[s] and dmg[o] > dmg[s]):
                rank += 1  # ties go to the pirate with more damage (ENDING THE GAME)
        out[s, G.RANK] = rank
        out[s, G.WINNER] = 1 if (rank == 1 and complete) else 0
        log_event(T, log, s, EV.SCORE, scores[s], rank, out[s, G.WINNER])


@jit
def play_round(P, T, K, F, rng, buf, log, players):
    first = T[ST, S.FIRST]
    d = T[ST, S.DIR]
    for i in range(players):
        s = (first + d * i) % players
        take_turn(P, T, K, F, rng, buf, log, s, players)
    T[ST, S.ROUND] += 1
