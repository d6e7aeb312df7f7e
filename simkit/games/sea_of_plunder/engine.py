"""The Sea of Plunder engine: set-up, the turn, interactions, the end and scoring (numba).

A game lives in three tables allocated once per chunk (layout in state.py):

    T  int64 state: rows ST (game scalars), POS (square of every piece), DECK and PILE
       (top = last), PENDING (set-aside Events), SEAT0 + s (seat counters), HAND0 + s
       (card codes; code >= n_cards is a Goods card of colour code - n_cards)
    K  int64 static tables: the endless-sea neighbours, torus distances, placement dice,
       Goods set scores, ships, the board and the deck's cards (read-only)
    F  float64: row 0 the scores of the candidates being judged, row 1 + s seat s's
       preset weights

plus `rng` (stream 0 chance, 1 + s seat s's decisions), `buf` (int64 scratch
rows: paths and candidate lists) and `log`. Functions take those of (P, T, K, F, rng,
buf, log) they need, in that order, then their own arguments. Few array arguments
keep numba's reference counting off the hot path.
"""

import numpy as np

from simkit.core import game as G
from simkit.core.jit import jit
from simkit.core.kernels import (
    FALSE,
    NO_BEST,
    TRUE,
    append_event,
    count_options,
    decide,
    option,
    pick_best,
    pick_option,
    pick_weighted,
    random_decision,
    rank_by,
)
from simkit.core.rng import CHANCE, randint, shuffle
from simkit.games.sea_of_plunder import events as EV
from simkit.games.sea_of_plunder import state as S
from simkit.games.sea_of_plunder.state import (
    BOARD,
    CARD0,
    COUNTS,
    DECK,
    DICE0,
    HAND0,
    LETTER_FACES,
    MASK,
    MAX_PLAYERS,
    META,
    N_SHIP_ROWS,
    NBR0,
    NUMBER_FACES,
    OWNER,
    PATH_ID0,
    PATH_IDS,
    PENDING,
    PILE,
    POS,
    SEAT0,
    SHIPS0,
    ST,
    STEPS0,
)
from strategies import sea_of_plunder as bot

# rows of the scratch table `buf`
PATH, PATH2, MINE, STOCK, SCORE_ROW, PIECES, GAINS = 0, 1, 2, 3, 4, 5, 6
CAND0 = 8  # candidate rows start here; candidate = (hand index, target, option, rotation, spend)
MAX_CAND = 1024
KEEP0 = MAX_CAND  # F[0, KEEP0 + h]: keep value of hand card h, once per decision
# F[0, MEMO0 + mover * K[META, PATH_IDS] + path id]: the value of a mover (its POS column: a
# ship or a pirate) following a path, found once per decision (NaN: not yet); candidates that
# move the same mover along the same steps (two copies of a card, a turned card matching
# another, the Navigator's spend without a turn) share it
PCOST = KEEP0 + S.MAX_HAND  # F[0, PCOST]: the discarding seat's observed pirate cost (discard_shortlist)
MEMO0 = PCOST + 1
MEMO_MOVERS = S.PIRATE0 + S.N_PIRATES
BUF_WIDTH = 8
BUF_ROWS = CAND0 + MAX_CAND
BUF_COLS = max(BUF_WIDTH, S.MAX_STEPS, S.N_POWERS, bot.PIECE_WORDS)  # buf's width (chunk.game_tables)

NO_STEP = -1e17  # a ship that stops before its first step: below every real path value, above NO_BEST


# --------------------------------------------------------------------------- small helpers
@jit(inline="always", runtime=False)
def log_event(T, log, seat, code, a, b, c):
    """One row of the event log, dated by the round it happens in (simkit.core.kernels.append_event)."""
    append_event(T, log, ST, S.LOG_N, T[ST, S.ROUND], seat, code, a, b, c)


@jit(inline="always", runtime=False)
def plays_random(F, rng, seat):
    """True when this decision of `seat` is a uniformly random legal choice: its preset is
    `random`, or its noise (the skill knob) comes up. The noise coin is drawn from
    the seat's own stream, and only when its noise is above 0 (noise 0 draws nothing, noise 1 plays random's draws exactly)."""
    return random_decision(F, rng, seat, bot.POLICY, bot.NOISE)


@jit(inline="always", runtime=False)
def trace(K, card, option, rotation, start, path):
    """Squares a mover enters following a map path from `start`, turned `rotation` quarter
    turns clockwise (Magical Compass). Returns the count; the last square is the X."""
    n = K[CARD0 + card, STEPS0 + (option) * S.MAX_STEPS + 0]
    sq = start
    for i in range(n):
        d = (K[CARD0 + card, STEPS0 + (option) * S.MAX_STEPS + 1 + i] + 2 * rotation) & 7
        sq = K[NBR0 + sq, d]
        path[i] = sq
    return n


@jit(inline="always", runtime=False)
def goods_of(T, seat, n_cards, mine):
    """Count the Goods in a seat's hand by colour into mine[0..3]."""
    for c in range(S.N_COLOURS):
        mine[c] = 0
    for i in range(T[SEAT0 + seat, S.HAND_N]):
        code = T[HAND0 + seat, i]
        if code >= n_cards:
            mine[code - n_cards] += 1


@jit(inline="always", runtime=False)
def hand_add(T, seat, code):
    n = T[SEAT0 + seat, S.HAND_N]
    if n < S.MAX_HAND:
        T[HAND0 + seat, n] = code
        T[SEAT0 + seat, S.HAND_N] = n + 1


@jit(inline="always", runtime=False)
def hand_remove(T, seat, index):
    """Remove the card at `index` (order is kept: hands are small)."""
    n = T[SEAT0 + seat, S.HAND_N]
    code = T[HAND0 + seat, index]
    for i in range(index, n - 1):
        T[HAND0 + seat, i] = T[HAND0 + seat, i + 1]
    T[SEAT0 + seat, S.HAND_N] = n - 1
    return code


@jit(inline="always", runtime=False)
def first_ship(T, K, seat):
    for k in range(T[ST, S.N_SHIPS]):
        if K[OWNER, k] == seat:
            return np.int64(k)
    return np.int64(-1)


@jit(inline="always", runtime=False)
def pirate_at(T, square):
    for p in range(S.N_PIRATES):
        if T[POS, S.PIRATE0 + p] == square:
            return True
    return False


@jit(runtime=False)
def trigger_end(P, T, log):
    """Record the first end trigger (Game End); the round is then played out."""
    if T[ST, S.END_REASON] >= 0:
        return
    for s in range(T[ST, S.PLAYERS]):
        if T[SEAT0 + s, S.TREASURES] >= P.treasures_to_end:
            T[ST, S.END_REASON] = S.END_PLAYER_TREASURES
    if T[ST, S.END_REASON] < 0 and T[ST, S.PIRATE_TREASURES] >= P.pirate_treasures_to_end:
        T[ST, S.END_REASON] = S.END_PIRATE_TREASURES
    if T[ST, S.END_REASON] >= 0:
        log_event(T, log, T[ST, S.ACTIVE], EV.END_TRIGGER, T[ST, S.END_REASON], 0, 0)


@jit(runtime=False)
def pirates_gain(P, T, log, square):
    T[ST, S.PIRATE_TREASURES] += 1
    log_event(T, log, -1, EV.TREASURE, -1, square, T[ST, S.PIRATE_TREASURES])
    trigger_end(P, T, log)


# --------------------------------------------------------------------------- cards
@jit(inline="always", runtime=False)
def deck_pop(T, K, rng, log):
    """Top card of the deck; an empty deck is refilled from the pile under its top card (A12).
    A pile holding only Event cards under its top card does not refill the deck: every card
    drawn from it would be an Event replaced by another draw, which could cycle for ever."""
    if T[ST, S.DECK_N] == 0:
        keep = T[ST, S.PILE_N] - 1
        if keep <= 0:
            return np.int64(-1)
        drawable = False
        for i in range(keep):
            if K[CARD0 + T[PILE, i], S.CI_KIND] != S.EVENT:
                drawable = True
                break
        if not drawable:
            return np.int64(-1)
        top = T[PILE, keep]
        for i in range(keep):
            T[DECK, i] = T[PILE, i]
        T[ST, S.DECK_N] = keep
        T[PILE, 0] = top
        T[ST, S.PILE_N] = 1
        shuffle(rng, CHANCE, T[DECK], keep)
        log_event(T, log, -1, EV.RESHUFFLE, keep, 0, 0)
    T[ST, S.DECK_N] -= 1
    return T[DECK, T[ST, S.DECK_N]]


@jit(runtime=False)
def draw_card(T, K, rng, log, seat):
    """Draw one non-Event card from the deck into a hand. Events met on the way are set
    aside to resolve at the next resolution point and replaced (Event Cards; A14)."""
    while True:
        card = deck_pop(T, K, rng, log)
        if card < 0:
            return np.int64(-1)
        if K[CARD0 + card, S.CI_KIND] == S.EVENT:
            if T[ST, S.PENDING_N] < T.shape[1]:
                T[PENDING, T[ST, S.PENDING_N]] = card
                T[ST, S.PENDING_N] += 1
            continue
        hand_add(T, seat, card)
        return card


@jit(inline="always", runtime=False)
def bonus_draw(T, K, rng, log, seat):
    card = draw_card(T, K, rng, log, seat)
    log_event(T, log, seat, EV.BONUS_DRAW, card, 0, 0)


@jit(runtime=False)
def steal_random(T, rng, log, thief, victim):
    """Take one card at random from the victim's hand (Possible Interactions: landing)."""
    n = T[SEAT0 + victim, S.HAND_N]
    if n == 0:
        return
    code = hand_remove(T, victim, randint(rng, CHANCE, n))
    hand_add(T, thief, code)
    T[SEAT0 + thief, S.STEALS] += 1
    log_event(T, log, thief, EV.STEAL, victim, code, 0)


# --------------------------------------------------------------------------- placement
@jit(inline="always", runtime=False)
def roll_square(K, rng):
    """Roll both placement dice: the square, or -1 when a skull shows on either (A8). Each die
    has its own faces from dice.toml."""
    col = K[DICE0 + S.LETTER_DIE, randint(rng, CHANCE, K[META, LETTER_FACES])]
    row = K[DICE0 + S.NUMBER_DIE, randint(rng, CHANCE, K[META, NUMBER_FACES])]
    if col < 0 or row < 0:
        return np.int64(-1)
    return row * S.SIZE + col


@jit(runtime=False)
def place_island(P, T, K, rng, log):
    """Place a new Treasure Island by the placement dice (Placing new Treasure Islands):
    a skull or a pirate pays the pirates and rerolls; a ship makes its player draw and
    rerolls; an island or port square takes the new island stacked."""
    for _ in range(10000):
        sq = roll_square(K, rng)
        if sq < 0:
            log_event(T, log, -1, EV.PLACE_SKULL, 1, 0, 0)
            pirates_gain(P, T, log, NONE)
            continue
        if pirate_at(T, sq):
            log_event(T, log, -1, EV.PLACE_ON_PIRATE, sq, 0, 0)
            pirates_gain(P, T, log, sq)
            continue
        hit = False
        drawn = 0  # a player draws once, even with both ships on the square (two-player variant)
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq:
                hit = True
                owner = K[OWNER, k]
                if drawn & (1 << owner) == 0:
                    drawn |= 1 << owner
                    log_event(T, log, owner, EV.PLACE_ON_SHIP, sq, owner, 0)
                    bonus_draw(T, K, rng, log, owner)
        if hit:
            continue
        stacked = 0
        for i in range(T[ST, S.N_ISLANDS]):
            if T[POS, S.ISLAND0 + i] == sq:
                stacked = 1
        if T[ST, S.N_ISLANDS] < S.MAX_ISLANDS:
            T[POS, S.ISLAND0 + T[ST, S.N_ISLANDS]] = sq
            T[ST, S.N_ISLANDS] += 1
        log_event(T, log, -1, EV.ISLAND_PLACED, sq, stacked, 0)
        return


@jit(inline="always", runtime=False)
def occupied(T, square):
    """True when a ship, pirate, port, Combo Port or Treasure Island is on the square."""
    for k in range(T[ST, S.N_SHIPS]):
        if T[POS, S.SHIP0 + k] == square:
            return True
    for i in range(S.PIRATE0, S.ISLAND0 + T[ST, S.N_ISLANDS]):
        if T[POS, i] == square:
            return True
    return False


@jit(runtime=False)
def place_combo(T, K, rng, log):
    """Place the Combo Port Island by the dice; skulls pay nothing and reroll, and so does
    an occupied square or the square it leaves (Combo Port Island Module; A24)."""
    old = T[POS, S.COMBO]
    T[POS, S.COMBO] = -1
    for _ in range(10000):
        sq = roll_square(K, rng)
        if sq < 0 or sq == old or occupied(T, sq):
            continue
        T[POS, S.COMBO] = sq
        log_event(T, log, -1, EV.COMBO_PLACED, sq, 0, 0)
        return


@jit(inline="always", runtime=False)
def take_islands_at(T, square, limit):
    """Remove up to `limit` Treasure Islands on `square` from the board; return how many."""
    taken = 0
    i = 0
    while i < T[ST, S.N_ISLANDS] and taken < limit:
        if T[POS, S.ISLAND0 + i] == square:
            last = T[ST, S.N_ISLANDS] - 1
            T[POS, S.ISLAND0 + i] = T[POS, S.ISLAND0 + last]
            T[POS, S.ISLAND0 + last] = -1
            T[ST, S.N_ISLANDS] = last
            taken += 1
        else:
            i += 1
    return taken


# --------------------------------------------------------------------------- interactions
@jit(runtime=False)
def pirate_contact(P, T, K, F, rng, buf, log, seat):
    """A pirate meets a seat's ship: bribe with a Good of the player's choice if they hold
    one, else a Debt (The Pirates and Debt Tokens). The Strategist may be spared."""
    if T[SEAT0 + seat, S.POWER] == S.STRATEGIST:
        roll = dice_number(K, rng)
        spared = roll >= P.strategist_low - 1
        log_event(T, log, seat, EV.STRATEGIST, roll, 1 if spared else 0, 0)
        if spared:
            return
    n_cards = (K.shape[0] - CARD0)
    mine = buf[MINE]
    goods_of(T, seat, n_cards, mine)
    if mine[0] + mine[1] + mine[2] + mine[3] == 0:
        T[SEAT0 + seat, S.DEBT] += 1
        log_event(T, log, seat, EV.DEBT, T[SEAT0 + seat, S.DEBT], 0, 0)
        return
    if plays_random(F, rng, seat):  # a Good of the hand, each as likely
        colour = pick_weighted(mine[:S.N_COLOURS], rng, seat)
    else:
        colour = bot.cheapest_bribe(K, mine)
    for i in range(T[SEAT0 + seat, S.HAND_N]):
        if T[HAND0 + seat, i] == n_cards + colour:
            hand_remove(T, seat, i)
            break
    T[ST, S.STOCK0 + colour] += 1
    T[SEAT0 + seat, S.BRIBES] += 1
    log_event(T, log, seat, EV.BRIBE, colour, 0, 0)


@jit(inline="always", runtime=False)
def dice_number(K, rng):
    """One roll of the numbered die, the number placement die of dice.toml (A9): 0..12 for
    the faces 1..13, or -1 for a skull face."""
    return K[DICE0 + S.NUMBER_DIE, randint(rng, CHANCE, K[META, NUMBER_FACES])]


@jit(inline="always", runtime=False)
def give_good(T, log, n_cards, seat, colour, source):
    if T[ST, S.STOCK0 + colour] > 0:
        T[ST, S.STOCK0 + colour] -= 1
        hand_add(T, seat, n_cards + colour)
        log_event(T, log, seat, EV.GOOD, colour, source, 0)


@jit(runtime=False)
def choose_colour(T, K, F, rng, buf, n_cards, seat):
    """A Good of the seat's choice among the available colours (-1 if none)."""
    stock = buf[STOCK]
    options = np.int64(0)
    for c in range(S.N_COLOURS):
        stock[c] = T[ST, S.STOCK0 + c]
        if stock[c] > 0:
            options |= option(c)
    if options == 0:
        return np.int64(-1)
    if plays_random(F, rng, seat):
        return pick_option(options, rng, seat)
    mine = buf[MINE]
    goods_of(T, seat, n_cards, mine)
    return bot.best_colour(K, mine, stock)


@jit(runtime=False)
def ship_contacts(P, T, K, F, rng, buf, log, ship, square, landing):
    """Everything a ship meets on one square it enters (Possible Interactions). Order on a
    square (A16): Treasure Islands, then the Port Island, then pirates, then ships."""
    seat = K[OWNER, ship]
    n_cards = (K.shape[0] - CARD0)
    # Treasure Islands: each island token on the square pays (A26); landing also draws
    got = take_islands_at(T, square, S.MAX_ISLANDS)
    for _ in range(got):
        T[SEAT0 + seat, S.TREASURES] += 1
        log_event(T, log, seat, EV.TREASURE, seat, square, T[SEAT0 + seat, S.TREASURES])
        trigger_end(P, T, log)
        if landing:
            bonus_draw(T, K, rng, log, seat)
    for _ in range(got):
        place_island(P, T, K, rng, log)
    # Port Islands: no Good while a pirate is there
    blocked = pirate_at(T, square)
    for c in range(S.N_COLOURS):
        if T[POS, S.PORT0 + c] == square and not blocked:
            give_good(T, log, n_cards, seat, c, 0)
    if T[POS, S.COMBO] == square and not blocked:
        colour = choose_colour(T, K, F, rng, buf, n_cards, seat)
        if colour >= 0:
            give_good(T, log, n_cards, seat, colour, 1)
            place_combo(T, K, rng, log)
    # pirates: one bribe or Debt per pirate met (A17)
    for p in range(S.N_PIRATES):
        if T[POS, S.PIRATE0 + p] == square:
            pirate_contact(P, T, K, F, rng, buf, log, seat)
    # other players' ships: rewards only on your own turn; The Thief steals (A18, A38)
    own_turn = T[ST, S.ACTIVE] == seat
    thief = T[SEAT0 + seat, S.POWER] == S.THIEF and (own_turn or P.thief_contact != S.THIEF_OWN_TURN)
    for k in range(T[ST, S.N_SHIPS]):
        other = K[OWNER, k]
        if k == ship or other == seat or T[POS, S.SHIP0 + k] != square:
            continue
        if thief or (own_turn and landing):
            steal_random(T, rng, log, seat, other)
        elif own_turn:
            bonus_draw(T, K, rng, log, seat)
        # thief_contact=any_contact: a Thief met by this ship steals from it too, after the
        # mover's own reward (A38)
        if P.thief_contact == S.THIEF_ANY_CONTACT and T[SEAT0 + other, S.POWER] == S.THIEF:
            steal_random(T, rng, log, other, seat)


@jit(inline="always", runtime=False)
def anything_else_at(T, square, ship):
    """True when a piece other than `ship` (a ship, pirate, port or island) is on the square."""
    for i in range(S.POS_SIZE):
        if T[POS, i] == square and i != S.SHIP0 + ship:
            return True
    return False


@jit(runtime=False)
def sail_ship(P, T, K, F, rng, buf, log, ship, path, n):
    """Move a ship through path[0..n-1], meeting what is on each square in order."""
    start = T[POS, S.SHIP0 + ship]
    for i in range(n):
        T[POS, S.SHIP0 + ship] = path[i]
        if anything_else_at(T, path[i], ship):  # most squares are open sea
            ship_contacts(P, T, K, F, rng, buf, log, ship, path[i], i == n - 1)
    log_event(T, log, K[OWNER, ship], EV.SHIP_MOVE, ship, start, path[n - 1])
    if K[OWNER, ship] == T[ST, S.ACTIVE]:
        T[ST, S.SHIP_MOVED] = 1


@jit(runtime=False)
def sail_pirate(P, T, K, F, rng, buf, log, pirate, path, n):
    """Move a pirate: it takes Treasure Islands it touches and meets ships on its way
    (a pass-over counts unless pirate_pass_over is off, A39); ports stop nothing (A25)."""
    start = T[POS, S.PIRATE0 + pirate]
    for i in range(n):
        sq = path[i]
        T[POS, S.PIRATE0 + pirate] = sq
        got = take_islands_at(T, sq, S.MAX_ISLANDS)
        for _ in range(got):
            pirates_gain(P, T, log, sq)
        for _ in range(got):
            place_island(P, T, K, rng, log)
        if i == n - 1 or P.pirate_pass_over == 1:
            for k in range(T[ST, S.N_SHIPS]):
                if T[POS, S.SHIP0 + k] == sq:
                    pirate_contact(P, T, K, F, rng, buf, log, K[OWNER, k])
    log_event(T, log, -1, EV.PIRATE_MOVE, pirate, start, path[n - 1])


@jit(runtime=False)
def drift_island(P, T, K, rng, log, island, path, n):
    """Move a Treasure Island like a ship (So Close Yet So Far). It stops at the first
    square holding ships or pirates: each of them takes a Treasure (first contact,
    Treasure Islands and Collecting Treasures), and a new island is placed."""
    start = T[POS, S.ISLAND0 + island]
    for i in range(n):
        sq = path[i]
        T[POS, S.ISLAND0 + island] = sq
        takers = 0
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq:
                takers += 1
        for p in range(S.N_PIRATES):
            if T[POS, S.PIRATE0 + p] == sq:
                takers += 1
        if takers == 0:
            continue
        log_event(T, log, T[ST, S.ACTIVE], EV.ISLAND_MOVE, 0, start, sq)
        take_islands_at_index(T, island)
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq:
                seat = K[OWNER, k]
                T[SEAT0 + seat, S.TREASURES] += 1
                log_event(T, log, seat, EV.TREASURE, seat, sq, T[SEAT0 + seat, S.TREASURES])
                trigger_end(P, T, log)
                if i == n - 1:
                    bonus_draw(T, K, rng, log, seat)
        for p in range(S.N_PIRATES):
            if T[POS, S.PIRATE0 + p] == sq:
                pirates_gain(P, T, log, sq)
        place_island(P, T, K, rng, log)
        return
    log_event(T, log, T[ST, S.ACTIVE], EV.ISLAND_MOVE, 0, start, path[n - 1])


@jit(inline="always", runtime=False)
def take_islands_at_index(T, island):
    last = T[ST, S.N_ISLANDS] - 1
    T[POS, S.ISLAND0 + island] = T[POS, S.ISLAND0 + last]
    T[POS, S.ISLAND0 + last] = -1
    T[ST, S.N_ISLANDS] = last


# --------------------------------------------------------------------------- events
@jit(inline="always", runtime=False)
def resolve_pending(P, T, K, F, rng, buf, log):
    if T[ST, S.PENDING_N] > 0:
        resolve_events(P, T, K, F, rng, buf, log)


@jit(runtime=False)
def resolve_events(P, T, K, F, rng, buf, log):
    """Resolve set-aside Event cards in the order they were drawn, each then going to the
    pile (Event Cards). Events drawn while resolving join the end of the queue."""
    players = T[ST, S.PLAYERS]
    active = T[ST, S.ACTIVE]
    i = 0
    while i < T[ST, S.PENDING_N]:
        card = T[PENDING, i]
        i += 1
        effect = K[CARD0 + card, S.CI_EFFECT]
        log_event(T, log, active, EV.EVENT, card, 0, 0)
        if effect == S.CARGO_ADRIFT:
            # everyone takes a random card from the player on their right, at once
            taken = buf[PATH2]
            for s in range(players):
                right = (s - 1 + players) % players
                n = T[SEAT0 + right, S.HAND_N]
                taken[s] = randint(rng, CHANCE, n) if n > 0 else -1
            for s in range(players):
                right = (s - 1 + players) % players
                if taken[s] >= 0:
                    taken[s] = hand_remove(T, right, taken[s])
                    taken[s + 4] = 1
                else:
                    taken[s + 4] = 0
            for s in range(players):
                if taken[s + 4] == 1:
                    hand_add(T, s, taken[s])
                    log_event(T, log, s, EV.CARGO, (s - 1 + players) % players, taken[s], 0)
        elif effect == S.MAGICAL_COMPASS:
            for s in range(players):
                T[SEAT0 + s, S.COMPASSES] += 1
                log_event(T, log, s, EV.COMPASS_GAIN, T[SEAT0 + s, S.COMPASSES], 0, 0)
        elif effect == S.PARTING_STORMS:
            for j in range(players):
                s = (active + j) % players
                bonus_draw(T, K, rng, log, s)
        elif effect == S.TALES_OF_MORE_TREASURE and T[ST, S.N_ISLANDS] < P.max_islands:
            place_island(P, T, K, rng, log)
        T[PILE, T[ST, S.PILE_N]] = card
        T[ST, S.PILE_N] += 1
    T[ST, S.PENDING_N] = 0


# --------------------------------------------------------------------------- the turn
@jit(runtime=False)
def draw_phase(P, T, K, F, rng, log, seat):
    """Draw two cards: both from the deck, or the pile's top and one from the deck; never
    two from the pile (Game Turn 1). Events drawn are set aside and replaced."""
    wanted = P.draw_count
    if T[ST, S.PILE_N] > 0:
        top = T[PILE, T[ST, S.PILE_N] - 1]
        allowed = K[CARD0 + top, S.CI_KIND] != S.EVENT or P.pile_draw_events == 1
        if allowed and K[CARD0 + top, S.CI_KIND] != S.EVENT:
            take = False
            if plays_random(F, rng, seat):
                take = decide(rng, seat, 2) == 1
            else:
                take = pile_card_wanted(T, K, F, seat, top)
            if take:
                T[ST, S.PILE_N] -= 1
                hand_add(T, seat, top)
                log_event(T, log, seat, EV.DRAW, top, 1, 0)
                wanted -= 1
        elif allowed and decide(rng, seat, 2) == 1:  # an Event taken from the pile resolves (A13)
            T[ST, S.PILE_N] -= 1
            T[PENDING, T[ST, S.PENDING_N]] = top
            T[ST, S.PENDING_N] += 1
    for _ in range(wanted):
        card = draw_card(T, K, rng, log, seat)
        log_event(T, log, seat, EV.DRAW, card, 0, 0)


@jit(runtime=False)
def pile_card_wanted(T, K, F, seat, card):
    """Heuristic: take the pile's top card when it is a port card of a wanted colour, an
    attack card, or a card-drawing action."""
    kind = K[CARD0 + card, S.CI_KIND]
    if kind == S.PORT_CARD:
        return F[1 + seat, bot.W_GOODS] >= 1.0 and T[ST, S.STOCK0 + K[CARD0 + card, S.CI_PORT]] > 0
    if kind == S.ACTION:
        e = K[CARD0 + card, S.CI_EFFECT]
        return e == S.RESUPPLY or e == S.UNCHARTED_WATERS or (e == S.CURSED_TREASURE and F[1 + seat, bot.W_ATTACK] > 1.0)
    return False


@jit(inline="always", runtime=False)
def spend_compass(T, log, seat):
    T[SEAT0 + seat, S.COMPASSES] -= 1
    T[ST, S.COMPASS_SPENT] += 1
    log_event(T, log, seat, EV.COMPASS, T[SEAT0 + seat, S.COMPASSES], 0, 0)


@jit(inline="always", runtime=False)
def seat_ships_for_turn(T, K, seat, out):
    """Ships the seat may move now: its ship, or in the two-player variant either ship
    until one is chosen for the turn (Two Player Variant; A27)."""
    if T[ST, S.ACTIVE_SHIP] >= 0:
        out[0] = T[ST, S.ACTIVE_SHIP]
        return 1
    n = 0
    for k in range(T[ST, S.N_SHIPS]):
        if K[OWNER, k] == seat:
            out[n] = k
            n += 1
    return n


@jit(inline="always", runtime=False)
def plays_of_card(kind, nopt, n_ships, compass, navigator):
    """How many legal plays one card offers: the rows list_plays writes for it."""
    if kind == S.ACTION:
        return np.int64(1)
    if kind == S.PORT_CARD:
        return n_ships
    per_option = 1 + (3 if compass and nopt == 1 else 0) + (1 if compass and navigator else 0)
    return n_ships * nopt * per_option


@jit(runtime=False)
def list_plays(P, T, K, buf, seat, only, write):
    """Legal plays as candidate rows (hand index, ship, option, rotation, spend); only the
    hand card `only` when it is >= 0. With `write` False, only count them, per hand card
    into T[COUNTS] (a uniform choice then lists just the chosen card)."""
    ships = buf[PATH2]
    n_ships = seat_ships_for_turn(T, K, seat, ships)
    navigator = T[SEAT0 + seat, S.POWER] == S.NAVIGATOR
    compass = T[SEAT0 + seat, S.COMPASSES] > 0
    n_cards = K.shape[0] - CARD0
    n = np.int64(0)
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        card = T[HAND0 + seat, h]
        if card >= n_cards or (only >= 0 and h != only):  # Goods are never played (Game Turn 2)
            if not write:
                T[COUNTS, h] = 0
            continue
        kind = K[CARD0 + card, S.CI_KIND]
        nopt = K[CARD0 + card, S.CI_NOPT]
        if not write:
            T[COUNTS, h] = plays_of_card(kind, nopt, n_ships, compass, navigator)
            n += T[COUNTS, h]
            continue
        if kind == S.ACTION:
            n = add_cand(buf, n, h, -1, 0, 0, 0)
            continue
        for j in range(n_ships):
            ship = ships[j]
            if kind == S.PORT_CARD:
                n = add_cand(buf, n, h, ship, 0, 0, 0)
                continue
            for o in range(nopt):
                n = add_cand(buf, n, h, ship, o, 0, 0)
                if compass and nopt == 1:
                    for r in range(1, 4):
                        n = add_cand(buf, n, h, ship, o, r, 1)
                if compass and navigator:  # Navigator may spend without turning (A10, X1)
                    n = add_cand(buf, n, h, ship, o, 0, 1)
    return n


@jit(inline="always", runtime=False)
def add_cand(buf, n, h, target, option, rotation, spend):
    if n < MAX_CAND:
        row = CAND0 + n
        buf[row, 0] = h
        buf[row, 1] = target
        buf[row, 2] = option
        buf[row, 3] = rotation
        buf[row, 4] = spend
        return n + 1
    return n


NONE = np.int64(-1)


@jit(runtime=False)
def random_play(P, T, K, rng, buf, seat):
    """A play uniform over all legal plays, listing only the chosen card's rows: the row
    index into the candidates (-1 if there is no legal play)."""
    total = list_plays(P, T, K, buf, seat, NONE, FALSE)
    if total == 0:
        return np.int64(-1)
    k = decide(rng, seat, total)
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        count = T[COUNTS, h]
        if k < count:
            list_plays(P, T, K, buf, seat, h, TRUE)
            return k
        k -= count
    return np.int64(-1)


@jit(runtime=False)
def random_discard(T, K, rng, buf, seat):
    """A discard (with its bonus) uniform over all legal ones; as random_play."""
    total = list_discards(T, K, buf, seat, TRUE, NONE, FALSE, FALSE)
    if total == 0:
        return np.int64(-1)
    k = decide(rng, seat, total)
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        count = T[COUNTS, h]
        if k < count:
            list_discards(T, K, buf, seat, TRUE, h, TRUE, FALSE)
            return k
        k -= count
    return np.int64(-1)


@jit(inline="always", runtime=False)
def mover_path(T, K, card, option, rotation, start, path):
    """Squares entered by a mover using `card` from `start`: a map path, or straight to a
    Port Island for a port card (touching nothing on the way)."""
    if K[CARD0 + card, S.CI_KIND] == S.PORT_CARD:
        path[0] = T[POS, S.PORT0 + K[CARD0 + card, S.CI_PORT]]
        return 1
    return trace(K, card, option, rotation, start, path)


@jit(inline="always", runtime=False)
def thief_back(P):
    """1 when a Thief met by a ship steals from it (thief_contact=any_contact, A38): what a
    heuristic seat weighs before sailing onto a Thief's ship."""
    return np.int64(1) if P.thief_contact == S.THIEF_ANY_CONTACT else np.int64(0)


@jit(runtime=False)
def observe(P, T, K, F, buf, seat):
    """What a heuristic seat reads before judging its choices: its own Goods by colour into
    buf[MINE], the Goods stacks into buf[STOCK], what one more Good of each colour adds into
    buf[GAINS] and the squares holding a piece into buf[PIECES]; returns its expected cost of
    meeting a pirate."""
    mine = buf[MINE]
    stock = buf[STOCK]
    goods_of(T, seat, K.shape[0] - CARD0, mine)
    for c in range(S.N_COLOURS):
        stock[c] = T[ST, S.STOCK0 + c]
    bot.goods_gains(K, mine, stock, buf[GAINS])
    bot.mark_pieces(T, buf[PIECES])
    return bot.pirate_cost(T, K, F[1 + seat], seat, mine, P.strategist_low)


@jit(runtime=False)
def f_width(K, presets):
    """Columns of the scratch-and-weights table F for these components and presets."""
    return max(MEMO0 + MEMO_MOVERS * int(K[META, PATH_IDS]), presets.shape[1])


@jit(inline="always", runtime=False)
def forget_paths(K, F, mover):
    """Empty the path-value memo of one mover (a POS column) for a new decision."""
    ids = K[META, PATH_IDS]
    base = MEMO0 + mover * ids
    for j in range(ids):
        F[0, base + j] = np.nan


@jit(inline="always", runtime=False)
def path_slot(K, card, option, rotation, mover):
    """F[0] column of the memo entry for `mover` following `card`'s option turned `rotation`."""
    return MEMO0 + mover * K[META, PATH_IDS] + K[CARD0 + card, PATH_ID0 + option * 4 + rotation]


@jit(runtime=False)
def score_plays(P, T, K, F, buf, seat, n_cand):
    pcost = observe(P, T, K, F, buf, seat)
    w = F[1 + seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    path = buf[PATH]
    for k in range(T[ST, S.N_SHIPS]):
        if K[OWNER, k] == seat:
            forget_paths(K, F, S.SHIP0 + k)
    ship0 = T[ST, S.ACTIVE_SHIP] if T[ST, S.ACTIVE_SHIP] >= 0 else first_ship(T, K, seat)
    stay = bot.stay_value(T, K, w, seat, T[POS, S.SHIP0 + ship0])
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        card = T[HAND0 + seat, h]
        if card < (K.shape[0] - CARD0):
            F[0, KEEP0 + h] = bot.card_keep_value(T, K, w, card, mine, stock, seat)
    for i in range(n_cand):
        row = CAND0 + i
        h = buf[row, 0]
        card = T[HAND0 + seat, h]
        if K[CARD0 + card, S.CI_KIND] == S.ACTION:
            F[0, i] = stay + bot.action_play_value(T, w, K[CARD0 + card, S.CI_EFFECT], seat, T[SEAT0 + seat, S.HAND_N]) - 0.05 * F[0, KEEP0 + h]
            continue
        ship = buf[row, 1]
        slot = path_slot(K, card, buf[row, 2], buf[row, 3], S.SHIP0 + ship)
        v = F[0, slot]
        if np.isnan(v):
            n = mover_path(T, K, card, buf[row, 2], buf[row, 3], T[POS, S.SHIP0 + ship], path)
            v = bot.ship_path_value(T, K, w, seat, path, n, buf[GAINS], stock, pcost, thief_back(P), buf[PIECES])
            F[0, slot] = v
        if buf[row, 4] == 1:
            v -= w[bot.W_COMPASS]
            if T[SEAT0 + seat, S.POWER] == S.NAVIGATOR:
                v += 0.5
        F[0, i] = v - 0.05 * F[0, KEEP0 + h]


@jit(runtime=False)
def play_phase(P, T, K, F, rng, buf, log, seat):
    """Play one card (Game Turn 2); Uncharted Waters adds a draw and two more plays. The
    first play is the candidate row in T[ST, FORCED_PLAY] when the lookahead chose one."""
    forced = T[ST, S.FORCED_PLAY]
    T[ST, S.FORCED_PLAY] = 0
    plays_left = 1
    while plays_left > 0:
        plays_left -= 1
        if plays_random(F, rng, seat):
            choice = random_play(P, T, K, rng, buf, seat)
            if choice < 0:
                log_event(T, log, seat, EV.NO_PLAY, 0, 0, 0)  # A15: nothing to play
                continue
        else:
            n_cand = list_plays(P, T, K, buf, seat, NONE, TRUE)
            if n_cand == 0:
                log_event(T, log, seat, EV.NO_PLAY, 0, 0, 0)  # A15: nothing to play
                continue
            if forced > 0:
                choice = forced - 1
            else:
                score_plays(P, T, K, F, buf, seat, n_cand)
                choice = pick_best(F[0], rng, seat, n_cand)
        forced = 0
        row = CAND0 + choice
        h, ship, option, rotation, spend = buf[row, 0], buf[row, 1], buf[row, 2], buf[row, 3], buf[row, 4]
        card = hand_remove(T, seat, h)
        T[PILE, T[ST, S.PILE_N]] = card
        T[ST, S.PILE_N] += 1
        log_event(T, log, seat, EV.PLAY, card, ship, option * 4 + rotation + 16 * spend)
        kind = K[CARD0 + card, S.CI_KIND]
        if spend == 1:
            spend_compass(T, log, seat)
        if kind == S.ACTION:
            effect = K[CARD0 + card, S.CI_EFFECT]
            if effect == S.UNCHARTED_WATERS:
                bonus_draw(T, K, rng, log, seat)
                plays_left += 2
            else:
                play_action(P, T, K, F, rng, log, seat, effect)
        else:
            T[ST, S.ACTIVE_SHIP] = ship
            path = buf[PATH]
            n = mover_path(T, K, card, option, rotation, T[POS, S.SHIP0 + ship], path)
            sail_ship(P, T, K, F, rng, buf, log, ship, path, n)
            if spend == 1 and T[SEAT0 + seat, S.POWER] == S.NAVIGATOR:
                bonus_move(P, T, K, F, rng, buf, log, seat, P.navigator_steps)
        resolve_pending(P, T, K, F, rng, buf, log)


@jit(runtime=False)
def play_action(P, T, K, F, rng, log, seat, effect):
    """An Action card's text (Card List: Action Cards). Hurricane, So Close Yet So Far and
    Trouble at Sea act with the discard, so they wait for the Discard phase."""
    players = T[ST, S.PLAYERS]
    if effect == S.BROKEN_COMPASS:
        mine = T[SEAT0 + seat, S.HAND_N]  # counted after playing it, before discarding
        if plays_random(F, rng, seat):
            mode = decide(rng, seat, 2)
        else:
            mode = bot.broken_compass_mode(seat, mine, players)
        log_event(T, log, seat, EV.BROKEN_COMPASS, mode, mine, 0)
        for s in range(players):
            if s == seat:
                continue
            theirs = T[SEAT0 + s, S.HAND_N]
            if (mode == 0 and theirs >= mine) or (mode == 1 and theirs <= mine):
                T[SEAT0 + s, S.DEBT] += 1
                log_event(T, log, s, EV.DEBT, T[SEAT0 + s, S.DEBT], 0, 0)
    elif effect == S.CURSED_TREASURE:
        for s in range(players):
            if s != seat and T[SEAT0 + s, S.TREASURES] >= T[SEAT0 + seat, S.TREASURES]:
                T[SEAT0 + s, S.DEBT] += 1
                log_event(T, log, s, EV.DEBT, T[SEAT0 + s, S.DEBT], 0, 0)
    elif effect == S.RESUPPLY:
        for _ in range(3):
            bonus_draw(T, K, rng, log, seat)
        resupply_bottom(T, K, F, rng, seat)
    else:  # HURRICANE, SO_CLOSE_YET_SO_FAR, TROUBLE_AT_SEA
        if T[ST, S.EFFECTS_N] < 4:
            T[ST, S.EFFECT0 + T[ST, S.EFFECTS_N]] = effect
            T[ST, S.EFFECTS_N] += 1


@jit(runtime=False)
def resupply_bottom(T, K, F, rng, seat):
    """Resupply: put one non-Goods card from hand on the bottom of the deck."""
    n_cards = (K.shape[0] - CARD0)
    count = np.int64(0)  # the hand's cards but its Goods (a hand may outgrow a set of bits)
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        if not S.is_good(T[HAND0 + seat, h], n_cards):
            count += 1
    if count == 0:
        return
    if plays_random(F, rng, seat):
        k = decide(rng, seat, count)
        h = np.int64(0)
        while k > 0 or S.is_good(T[HAND0 + seat, h], n_cards):
            if not S.is_good(T[HAND0 + seat, h], n_cards):
                k -= 1
            h += 1
    else:
        h = bot.card_to_resupply(T, K, seat, n_cards)
    card = hand_remove(T, seat, h)
    for i in range(T[ST, S.DECK_N], 0, -1):
        T[DECK, i] = T[DECK, i - 1]
    T[DECK, 0] = card
    T[ST, S.DECK_N] += 1


@jit(inline="always", runtime=False)
def discards_of_card(kind, nopt, compass, navigator, effects):
    """How many legal discards (with their Discard Bonus) one card offers: the rows
    list_discards writes for it."""
    if kind == S.PORT_CARD:
        return np.int64(S.N_PIRATES)
    per_option = 1 + (3 if compass and nopt == 1 else 0) + (1 if compass and (navigator or (effects and nopt == 1))
                                                              else 0)
    return S.N_PIRATES * nopt * per_option


@jit(runtime=False)
def list_discards(T, K, buf, seat, turns, only, write, shortlist):
    """Legal discards with their Discard Bonus: (hand index, pirate, option, rotation, spend).
    A heuristic bot may leave out compass turns (turns = False): a pruning, not a rule.
    `only` and `write` as in list_plays; `shortlist` keeps only cards marked in T[MASK]."""
    n_cards = K.shape[0] - CARD0
    compass = T[SEAT0 + seat, S.COMPASSES] > 0 and turns
    navigator = T[SEAT0 + seat, S.POWER] == S.NAVIGATOR
    effects = T[ST, S.EFFECTS_N] > 0
    n = np.int64(0)
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        card = T[HAND0 + seat, h]
        if card >= n_cards or (only >= 0 and h != only) or (shortlist and T[MASK, h] == 0):
            if not write:
                T[COUNTS, h] = 0
            continue  # Goods are never discarded (Game Turn 3)
        kind = K[CARD0 + card, S.CI_KIND]
        nopt = K[CARD0 + card, S.CI_NOPT]
        if not write:
            T[COUNTS, h] = discards_of_card(kind, nopt, compass, navigator, effects)
            n += T[COUNTS, h]
            continue
        for p in range(S.N_PIRATES):
            if kind == S.PORT_CARD:
                n = add_cand(buf, n, h, p, 0, 0, 0)
                continue
            for o in range(nopt):
                n = add_cand(buf, n, h, p, o, 0, 0)
                if compass and nopt == 1:
                    for r in range(1, 4):
                        n = add_cand(buf, n, h, p, o, r, 1)
                if compass and (navigator or (effects and nopt == 1)):
                    n = add_cand(buf, n, h, p, o, 0, 1)
    return n


@jit(runtime=False)
def score_discards(P, T, K, F, buf, seat, n_cand):
    """Value each of the n_cand listed discards into F[0, i], from what discard_shortlist
    observed and the keep values it wrote (discard_phase calls the two in turn)."""
    pcost = F[0, PCOST]  # discard_shortlist observed this very position
    w = F[1 + seat]
    path = buf[PATH]
    for p in range(S.N_PIRATES):
        forget_paths(K, F, S.PIRATE0 + p)
    for i in range(n_cand):
        row = CAND0 + i
        h = buf[row, 0]
        card = T[HAND0 + seat, h]
        p = buf[row, 1]
        slot = path_slot(K, card, buf[row, 2], buf[row, 3], S.PIRATE0 + p)
        v = F[0, slot]
        if np.isnan(v):
            n = mover_path(T, K, card, buf[row, 2], buf[row, 3], T[POS, S.PIRATE0 + p], path)
            v = bot.pirate_path_value(T, K, w, seat, path, n, pcost, buf[PIECES])
            F[0, slot] = v
        v -= F[0, KEEP0 + h]
        if buf[row, 4] == 1:
            v -= w[bot.W_COMPASS]
        F[0, i] = v


@jit(runtime=False)
def discard_shortlist(P, T, K, F, buf, seat):
    """A heuristic seat's keep value of each hand card (into F[0, KEEP0 + h]) and, when its
    preset shortlists, T[MASK] marking the least-kept cards: a pruning of the bot's search,
    not a rule. Returns True when a shortlist applies. What it observes (observe: buf's
    MINE, STOCK, GAINS, PIECES and the pirate cost, into F[0, PCOST]) and the keep values are
    what score_discards reads next, the hand and board unchanged in between."""
    F[0, PCOST] = observe(P, T, K, F, buf, seat)
    w = F[1 + seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    n_cards = K.shape[0] - CARD0
    n = T[SEAT0 + seat, S.HAND_N]
    cards = 0
    for h in range(n):
        card = T[HAND0 + seat, h]
        T[MASK, h] = 0
        if card < n_cards:
            F[0, KEEP0 + h] = w[bot.W_KEEP] * bot.card_keep_value(T, K, w, card, mine, stock, seat)
            cards += 1
    keep = np.int64(w[bot.DISCARD_SHORTLIST])
    if keep <= 0:
        return False
    if keep >= cards:  # every card makes the shortlist: nothing to rank
        for h in range(n):
            if T[HAND0 + seat, h] < n_cards:
                T[MASK, h] = 1
        return True
    # the `keep` least-kept cards (equal keep values: the earlier card first), in one pass: the
    # cards kept so far in T[COUNTS] (scratch), least first; a later card goes after its equals
    least = T[COUNTS]
    m = 0
    for h in range(n):
        if T[HAND0 + seat, h] >= n_cards:
            continue
        v = F[0, KEEP0 + h]
        if m == keep and not v < F[0, KEEP0 + least[m - 1]]:
            continue  # kept less than none of them
        j = m if m < keep else keep - 1  # full: the last one drops out
        while j > 0 and F[0, KEEP0 + least[j - 1]] > v:
            least[j] = least[j - 1]
            j -= 1
        least[j] = h
        m = min(m + 1, keep)
    for i in range(m):
        T[MASK, least[i]] = 1
    return True


@jit(runtime=False)
def discard_phase(P, T, K, F, rng, buf, log, seat):
    """Discard one card; waiting Action effects act with it first, then the Discard Bonus
    moves one pirate with it (Game Turn 3, FAQ Q3)."""
    if plays_random(F, rng, seat):
        choice = random_discard(T, K, rng, buf, seat)
        if choice < 0:
            log_event(T, log, seat, EV.NO_PLAY, 1, 0, 0)  # A15: no card, no bonus
            return
    else:
        turns = F[1 + seat, bot.PIRATE_TURNS] > 0 or T[ST, S.EFFECTS_N] > 0
        shortlist = discard_shortlist(P, T, K, F, buf, seat)
        n_cand = list_discards(T, K, buf, seat, turns, NONE, TRUE, shortlist)
        if n_cand == 0:
            log_event(T, log, seat, EV.NO_PLAY, 1, 0, 0)  # A15: no card, no bonus
            return
        score_discards(P, T, K, F, buf, seat, n_cand)
        choice = pick_best(F[0], rng, seat, n_cand)
    row = CAND0 + choice
    h, pirate, option, rotation, spend = buf[row, 0], buf[row, 1], buf[row, 2], buf[row, 3], buf[row, 4]
    card = hand_remove(T, seat, h)
    T[PILE, T[ST, S.PILE_N]] = card
    T[ST, S.PILE_N] += 1
    log_event(T, log, seat, EV.DISCARD, card, pirate, option * 4 + rotation + 16 * spend)
    if spend == 1:
        spend_compass(T, log, seat)
    # one token turns the card for every target it moves (Magical Compass: multiple targets)
    free_turn = spend == 1 and K[CARD0 + card, S.CI_NOPT] == 1
    for e in range(T[ST, S.EFFECTS_N]):
        effect = T[ST, S.EFFECT0 + e]
        if effect == S.HURRICANE:
            hurricane(P, T, K, F, rng, buf, log, seat, card, free_turn)
        elif effect == S.TROUBLE_AT_SEA:
            trouble_at_sea(P, T, K, F, rng, buf, log, seat, card, free_turn)
        elif effect == S.SO_CLOSE_YET_SO_FAR:
            so_close(P, T, K, F, rng, buf, log, seat, card, free_turn)
    T[ST, S.EFFECTS_N] = 0
    path = buf[PATH]
    n = mover_path(T, K, card, option, rotation, T[POS, S.PIRATE0 + pirate], path)
    sail_pirate(P, T, K, F, rng, buf, log, pirate, path, n)
    if spend == 1 and T[SEAT0 + seat, S.POWER] == S.NAVIGATOR:
        bonus_move(P, T, K, F, rng, buf, log, seat, P.navigator_steps)


@jit(runtime=False)
def choose_orientation(P, T, K, F, rng, buf, seat, card, free_turn, mover_kind, target, start):
    """Pick an X and a turn for one target of a discard effect: the chooser (the active
    seat) decides per target (Multiple moving objects). mover_kind 0 ship (value for its
    owner is subtracted), 1 pirate, 2 island. Returns option * 4 + rotation."""
    nopt = K[CARD0 + card, S.CI_NOPT]
    if K[CARD0 + card, S.CI_KIND] == S.PORT_CARD:
        return np.int64(0)
    turns = 4 if free_turn else 1
    n = np.int64(0)  # typed: a literal 0 would compile pick_best once more, for that value
    path = buf[PATH]
    w = F[1 + seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    pcost = observe(P, T, K, F, buf, seat)
    at_random = plays_random(F, rng, seat)
    if mover_kind == 0 and not at_random:
        for c in range(S.N_COLOURS):
            mine[c] = 0  # another hand's Goods are hidden (A33)
        bot.goods_gains(K, mine, stock, buf[GAINS])
    for o in range(nopt):
        for r in range(turns):
            if not at_random:
                k = trace(K, card, o, r, start, path)
                if mover_kind == 0:
                    owner = K[OWNER, target]
                    F[0, n] = -bot.ship_path_value_called(T, K, w, owner, path, k, buf[GAINS], stock,
                                                          w[bot.W_DEBT], thief_back(P), buf[PIECES])
                elif mover_kind == 1:
                    F[0, n] = bot.pirate_path_value_called(T, K, w, seat, path, k, pcost, buf[PIECES])
                else:
                    F[0, n] = bot.island_path_value(T, K, w, seat, path, k)
            n += 1
    if at_random:
        k = decide(rng, seat, n)
    else:
        k = pick_best(F[0], rng, seat, n)
    return (k // turns) * 4 + k % turns


@jit(runtime=False)
def hurricane(P, T, K, F, rng, buf, log, seat, card, free_turn):
    """Hurricane: every other player's ship moves by the discard, one after another from
    the active player's left (A19); their contacts bring them no reward (not their turn)."""
    players = T[ST, S.PLAYERS]
    for j in range(1, players + 1):
        owner = (seat + j) % players
        for k in range(T[ST, S.N_SHIPS]):
            if K[OWNER, k] != owner or owner == seat:
                continue
            code = choose_orientation(P, T, K, F, rng, buf, seat, card, free_turn, np.int64(0), k, T[POS, S.SHIP0 + k])
            path = buf[PATH2]
            n = mover_path(T, K, card, code // 4, code % 4, T[POS, S.SHIP0 + k], path)
            for i in range(n):
                buf[PATH, i] = path[i]
            sail_ship(P, T, K, F, rng, buf, log, k, buf[PATH], n)


@jit(runtime=False)
def trouble_at_sea(P, T, K, F, rng, buf, log, seat, card, free_turn):
    """Trouble at Sea: all pirates move by the discard, in pirate order (A19)."""
    for p in range(S.N_PIRATES):
        code = choose_orientation(P, T, K, F, rng, buf, seat, card, free_turn, np.int64(1), p, T[POS, S.PIRATE0 + p])
        path = buf[PATH2]
        n = mover_path(T, K, card, code // 4, code % 4, T[POS, S.PIRATE0 + p], path)
        for i in range(n):
            buf[PATH, i] = path[i]
        sail_pirate(P, T, K, F, rng, buf, log, p, buf[PATH], n)


@jit(runtime=False)
def so_close(P, T, K, F, rng, buf, log, seat, card, free_turn):
    """So Close Yet So Far: up to two Treasure Islands move by the discard like ships."""
    if T[ST, S.N_ISLANDS] == 0:
        return
    # choose which islands (by square; they are looked up again after each move)
    targets = buf[PATH2]
    n_targets = min(2, T[ST, S.N_ISLANDS])
    if plays_random(F, rng, seat):
        n_targets = 1 + decide(rng, seat, n_targets)
        first = decide(rng, seat, T[ST, S.N_ISLANDS])
        targets[0] = T[POS, S.ISLAND0 + first]
        targets[1] = T[POS, S.ISLAND0 + (first + 1) % T[ST, S.N_ISLANDS]]
    else:
        for i in range(min(2, T[ST, S.N_ISLANDS])):
            targets[i] = T[POS, S.ISLAND0 + i]
    for t in range(n_targets):
        island = np.int64(-1)
        for i in range(T[ST, S.N_ISLANDS]):
            if T[POS, S.ISLAND0 + i] == targets[t]:
                island = i
                break
        if island < 0:
            continue
        start = T[POS, S.ISLAND0 + island]
        code = choose_orientation(P, T, K, F, rng, buf, seat, card, free_turn, np.int64(2), island, start)
        if not plays_random(F, rng, seat):
            # a heuristic seat moves an island only if that is better than leaving it
            n = mover_path(T, K, card, code // 4, code % 4, start, buf[PATH])
            moved = bot.island_path_value(T, K, F[1 + seat], seat, buf[PATH], n)
            buf[PATH, 0] = start
            stay = bot.island_path_value(T, K, F[1 + seat], seat, buf[PATH], np.int64(1))
            if moved <= stay:
                continue
        path = buf[PATH]
        n = mover_path(T, K, card, code // 4, code % 4, start, path)
        drift_island(P, T, K, rng, log, island, path, n)


@jit(runtime=False)
def bonus_ship(T, K, F, rng, seat):
    """The ship a bonus move takes when no ship is bound to the turn yet: in the
    two-player variant, either of the seat's ships (A27); a heuristic seat takes the one
    nearer a Treasure Island."""
    ships = np.int64(0)
    for k in range(T[ST, S.N_SHIPS]):
        if K[OWNER, k] == seat:
            ships |= option(k)
    best = bot.ship_nearer_an_island(T, K, ships)
    if count_options(ships) > 1 and plays_random(F, rng, seat):
        return pick_option(ships, rng, seat)
    return best


@jit(runtime=False)
def bonus_move(P, T, K, F, rng, buf, log, seat, steps):
    """Lucky Jill/Jack's and The Navigator's bonus: up to `steps` orthogonal steps of the
    player's ship, each in a direction of their choice (A10); it may stay."""
    ship = T[ST, S.ACTIVE_SHIP]
    if ship < 0:
        ship = bonus_ship(T, K, F, rng, seat)
    start = T[POS, S.SHIP0 + ship]
    path = buf[PATH]
    w = F[1 + seat]
    stock = buf[STOCK]
    n = np.int64(0)  # typed: a literal 0 would compile sail_ship once more, for that value
    for _ in range(steps):
        here = path[n - 1] if n > 0 else start
        if plays_random(F, rng, seat):
            d = decide(rng, seat, 5)
        else:
            pcost = observe(P, T, K, F, buf, seat)
            best = NO_BEST
            d = np.int64(4)
            for dd in range(5):
                if dd < 4:
                    path[n] = K[NBR0 + here, 2 * dd]
                    v = bot.ship_path_value_called(T, K, w, seat, path, n + 1, buf[GAINS], stock, pcost, thief_back(P), buf[PIECES])
                else:
                    v = bot.ship_path_value_called(T, K, w, seat, path, n, buf[GAINS], stock, pcost, thief_back(P), buf[PIECES]) if n > 0 else NO_STEP
                if v > best:
                    best = v
                    d = dd
        if d == 4:
            break
        path[n] = K[NBR0 + here, 2 * d]
        n += 1
    if n == 0:
        return
    sail_ship(P, T, K, F, rng, buf, log, ship, path, n)
    log_event(T, log, seat, EV.BONUS_MOVE, T[SEAT0 + seat, S.POWER], start, T[POS, S.SHIP0 + ship])



# --------------------------------------------------------------------------- set-up
@jit(runtime=False)
def setup_game(P, T, K, F, rng, buf, log, players):
    """Set-up 1-7 and the variants' set-up differences."""
    n_cards = (K.shape[0] - CARD0)
    n_log = T[ST, S.LOG_N]  # the log runs on across the games of a chunk
    T[ST, :] = 0
    T[ST, S.LOG_N] = n_log
    T[ST, S.END_REASON] = -1
    T[ST, S.PLAYERS] = players
    T[ST, S.N_SHIPS] = K[META, N_SHIP_ROWS]
    T[ST, S.ACTIVE_SHIP] = -1
    T[POS, :] = -1
    T[SEAT0:SEAT0 + MAX_PLAYERS, :] = 0
    for c in range(S.N_COLOURS):
        T[ST, S.STOCK0 + c] = K[BOARD, 9]
    T[POS, S.ISLAND0] = K[BOARD, 8]  # the first Treasure Island (Set-up 5; also under random set-up, A23)
    T[ST, S.N_ISLANDS] = 1
    if P.random_setup == 1:
        # Random Setup Variant: ports then pirates by the placement dice; skulls and taken
        # squares are rerolled (A23)
        for i in range(S.PORT0, S.PORT0 + S.N_COLOURS):
            T[POS, i] = free_square(T, K, rng)
        for p in range(S.N_PIRATES):
            T[POS, S.PIRATE0 + p] = free_square(T, K, rng)
    else:
        for c in range(S.N_COLOURS):
            T[POS, S.PORT0 + c] = K[BOARD, c]
        for p in range(S.N_PIRATES):
            T[POS, S.PIRATE0 + p] = K[BOARD, 4 + p]
    for k in range(T[ST, S.N_SHIPS]):
        T[POS, S.SHIP0 + k] = T[POS, S.PORT0 + K[SHIPS0 + k, 1]]
    if P.combo_port == 1:
        place_combo(T, K, rng, log)
    # player powers, dealt at random (Set-up 3)
    powers = buf[PATH2]
    for i in range(S.N_POWERS):
        powers[i] = i
    if P.player_powers == 1:
        shuffle(rng, CHANCE, powers, S.N_POWERS)
    scallywag = -1
    # designer knob: extra Magical Compass tokens by seat (0 for every seat in the rulebook's set-up)
    extra_compasses = (P.extra_compasses_1, P.extra_compasses_2, P.extra_compasses_3, P.extra_compasses_4)
    for s in range(players):
        T[SEAT0 + s, S.POWER] = powers[s] if P.player_powers == 1 else -1
        T[SEAT0 + s, S.COMPASSES] = (P.start_compasses + (1 if T[SEAT0 + s, S.POWER] == S.ODD else 0)
                                     + extra_compasses[s])
        if T[SEAT0 + s, S.POWER] >= 0:
            log_event(T, log, s, EV.POWER, T[SEAT0 + s, S.POWER], 0, 0)
        if T[SEAT0 + s, S.POWER] == S.SCALLYWAG:
            scallywag = s
    # the deck: deal Action and Map cards only, setting Events and Port cards aside (Set-up 7)
    for i in range(n_cards):
        T[DECK, i] = i
    T[ST, S.DECK_N] = n_cards
    shuffle(rng, CHANCE, T[DECK], n_cards)
    aside = 0
    for s in range(players):
        want = P.hand_size + (1 if T[SEAT0 + s, S.POWER] == S.ODD else 0)
        while T[SEAT0 + s, S.HAND_N] < want and T[ST, S.DECK_N] > 0:
            T[ST, S.DECK_N] -= 1
            card = T[DECK, T[ST, S.DECK_N]]
            kind = K[CARD0 + card, S.CI_KIND]
            if kind == S.EVENT or kind == S.PORT_CARD:
                T[PENDING, aside] = card
                aside += 1
            else:
                hand_add(T, s, card)
    # one Map card face up on the pile: the first Map card from the top (A30)
    while T[ST, S.DECK_N] > 0:
        T[ST, S.DECK_N] -= 1
        card = T[DECK, T[ST, S.DECK_N]]
        if K[CARD0 + card, S.CI_KIND] == S.MAP:
            T[PILE, 0] = card
            T[ST, S.PILE_N] = 1
            break
        T[PENDING, aside] = card
        aside += 1
    for i in range(aside):
        T[DECK, T[ST, S.DECK_N]] = T[PENDING, i]
        T[ST, S.DECK_N] += 1
    shuffle(rng, CHANCE, T[DECK], T[ST, S.DECK_N])
    # starting Goods: one of the starting island's colour, or one per colour in the
    # two-player variant; only The Scallywag starts with Goods when dealt (X12, X13)
    for k in range(T[ST, S.N_SHIPS]):
        s = K[SHIPS0 + k, 0]
        keep = scallywag < 0 or s == scallywag
        if not keep and P.two_player == 1 and k == first_ship(T, K, s):
            keep = True  # Scallywag in a two-player game: the other keeps one of two
        if keep:
            give_good(T, log, n_cards, s, K[SHIPS0 + k, 1], 2)


@jit(runtime=False)
def free_square(T, K, rng):
    for _ in range(10000):
        sq = roll_square(K, rng)
        if sq >= 0 and not occupied(T, sq):
            return sq
    return np.int64(0)


# --------------------------------------------------------------------------- the game
@jit(runtime=False)
def take_turn(P, T, K, F, rng, buf, log, seat):
    """Draw, Play, Discard (Game Turn), then Lucky Jill/Jack's bonus."""
    begin_turn(P, T, K, F, rng, buf, log, seat)
    finish_turn(P, T, K, F, rng, buf, log, seat)


@jit(runtime=False)
def begin_turn(P, T, K, F, rng, buf, log, seat):
    """The turn up to the Play phase: the Draw phase and the Events it set aside."""
    T[ST, S.ACTIVE] = seat
    T[ST, S.SHIP_MOVED] = 0
    T[ST, S.COMPASS_SPENT] = 0
    T[ST, S.EFFECTS_N] = 0
    T[ST, S.ACTIVE_SHIP] = -1 if P.two_player == 1 else first_ship(T, K, seat)
    log_event(T, log, seat, EV.TURN, T[ST, S.TURNS] + 1, 0, 0)
    draw_phase(P, T, K, F, rng, log, seat)
    resolve_pending(P, T, K, F, rng, buf, log)


@jit(runtime=False)
def finish_turn(P, T, K, F, rng, buf, log, seat):
    """The turn from the Play phase on: Play, Discard, Lucky Jill/Jack's bonus."""
    play_phase(P, T, K, F, rng, buf, log, seat)
    discard_phase(P, T, K, F, rng, buf, log, seat)
    resolve_pending(P, T, K, F, rng, buf, log)
    if T[SEAT0 + seat, S.POWER] == S.LUCKY and T[ST, S.SHIP_MOVED] == 0 and P.lucky_steps > 0:
        bonus_move(P, T, K, F, rng, buf, log, seat, P.lucky_steps)
        resolve_pending(P, T, K, F, rng, buf, log)
    T[ST, S.TURNS] += 1


@jit(runtime=False)
def seat_score(P, T, K, n_cards, mine, seat):
    """Final Scoring: Treasures, unused compasses, Debt (The Gambler halves it), Goods sets."""
    goods_of(T, seat, n_cards, mine)
    debt = T[SEAT0 + seat, S.DEBT]
    if T[SEAT0 + seat, S.POWER] == S.GAMBLER:
        debt = debt // 2 if P.gambler_rounding == 0 else (debt + 1) // 2
    return (T[SEAT0 + seat, S.TREASURES] * P.treasure_points + T[SEAT0 + seat, S.COMPASSES] * P.compass_points
            - debt * P.debt_points + S.goods_points(K, mine[0], mine[1], mine[2], mine[3]))


@jit(runtime=False)
def score_if_ended(P, T, K, buf, seat):
    """The seat's score if the game ended now (the game arc's measure): Final Scoring's
    points, with the Good The Smuggler would add at the end (A32) taken as the colour a
    heuristic seat takes, the one that adds most points."""
    n_cards = K.shape[0] - CARD0
    mine = buf[MINE]
    score = seat_score(P, T, K, n_cards, mine, seat)
    if T[SEAT0 + seat, S.POWER] == S.SMUGGLER:
        stock = buf[STOCK]
        for c in range(S.N_COLOURS):
            stock[c] = T[ST, S.STOCK0 + c]
        colour = bot.best_colour(K, mine, stock)
        if colour >= 0:
            score += bot.goods_gain(K, mine, colour)
    return score


@jit(runtime=False)
def final_scoring(P, T, K, F, rng, buf, log, out_seats_g):
    """Score every seat, then rank by score and tie-breakers 1-3; a tie for first that
    survives them is settled by rolling the numbered die, rerolling ties (A28)."""
    players = T[ST, S.PLAYERS]
    n_cards = (K.shape[0] - CARD0)
    mine = buf[MINE]
    for s in range(players):
        if T[SEAT0 + s, S.POWER] == S.SMUGGLER:
            colour = choose_colour(T, K, F, rng, buf, n_cards, s)
            if colour >= 0:
                give_good(T, log, n_cards, s, colour, 2)
                log_event(T, log, s, EV.SMUGGLE, colour, 0, 0)
    keys = buf[CAND0:CAND0 + 4]  # keys[k, s]: score, compasses, Goods types, Treasures (tie-breakers 1-3)
    for s in range(players):
        score = seat_score(P, T, K, n_cards, mine, s)
        types = 0
        for c in range(S.N_COLOURS):
            if mine[c] > 0:
                types += 1
        out_seats_g[s, G.SCORE] = score
        keys[0, s] = score
        keys[1, s] = T[SEAT0 + s, S.COMPASSES]
        keys[2, s] = types
        keys[3, s] = T[SEAT0 + s, S.TREASURES]
        out_seats_g[s, S.M_TREASURES] = T[SEAT0 + s, S.TREASURES]
        out_seats_g[s, S.M_DEBT] = T[SEAT0 + s, S.DEBT]
        out_seats_g[s, S.M_COMPASSES] = T[SEAT0 + s, S.COMPASSES]
        out_seats_g[s, S.M_GOODS_POINTS] = S.goods_points(K, mine[0], mine[1], mine[2], mine[3])
        out_seats_g[s, S.M_POWER] = T[SEAT0 + s, S.POWER] + 1
        out_seats_g[s, S.M_STEALS] = T[SEAT0 + s, S.STEALS]
        out_seats_g[s, S.M_BRIBES] = T[SEAT0 + s, S.BRIBES]
    for s in range(players):
        out_seats_g[s, G.RANK] = rank_by(keys, players, s)
        out_seats_g[s, G.WINNER] = 0
    if T[ST, S.END_REASON] == S.END_ROUND_CAP:
        return
    tied = 0
    winner = 0
    for s in range(players):
        if out_seats_g[s, G.RANK] == 1:  # the best keys
            tied += 1
            winner = s
    if tied > 1:  # tie-breaker 4: the numbered die among the tied, until one is highest
        rolls = buf[SCORE_ROW]
        while True:
            high = np.int64(-1)
            count = 0
            for s in range(players):
                if out_seats_g[s, G.RANK] == 1:
                    r = dice_number(K, rng)
                    while r < 0:
                        r = dice_number(K, rng)
                    rolls[s] = r
                    log_event(T, log, s, EV.TIE_ROLL, r, 0, 0)
                    if r > high:
                        high = r
                        count = 1
                        winner = s
                    elif r == high:
                        count += 1
            if count == 1:
                break
        for s in range(players):
            if out_seats_g[s, G.RANK] == 1 and s != winner:
                out_seats_g[s, G.RANK] = 2
    out_seats_g[winner, G.WINNER] = 1
    for s in range(players):
        log_event(T, log, s, EV.SCORE, out_seats_g[s, G.SCORE], out_seats_g[s, G.RANK], out_seats_g[s, G.WINNER])

