"""The Sea of Plunder engine: set-up, the turn, interactions, the end and scoring (numba).

State of one game lives in a few int64 tables allocated once per chunk (see state.py):
`st` game scalars, `pos` squares of every piece, `seats` per-seat counters, `hands`
(card codes; code >= n_cards is a Goods card of colour code - n_cards), `deck` and
`pile` (top = last), `pending` (set-aside Event cards). Chance draws from rng stream 0,
seat s decides from stream 1 + s (DESIGN §4). Every function that mutates the game takes
the same leading arguments, in this order:

    P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
    nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf

P: rules NamedTuple; W: float64[players, n_weights] preset row per seat; nbr: the
endless-sea neighbour table; dist: torus distances; card_info/card_steps: the deck;
dice: placement dice faces; gscore: Goods partition scores; ship_owner: seat of each
ship; buf: int64 scratch rows (paths and candidate lists).
"""

import numpy as np
from numba import njit

from simkit import game as G
from simkit.games.sea_of_plunder import events as EV
from simkit.games.sea_of_plunder import state as S
from simkit.rng import CHANCE, randint, seed_streams, shuffle
from strategies import sea_of_plunder as bot

# rows of the scratch table `buf`
PATH, PATH2, MINE, STOCK, SCORE_ROW = 0, 1, 2, 3, 4
CAND0 = 8  # candidate rows start here; candidate = (hand index, target, option, rotation, spend)
MAX_CAND = 1024
KEEP0 = MAX_CAND  # scores[KEEP0 + h]: keep value of hand card h, once per decision
BUF_WIDTH = 8
BUF_ROWS = CAND0 + MAX_CAND


# --------------------------------------------------------------------------- small helpers
@njit(cache=True)
def log_event(log, logc, st, seat, code, a, b, c):
    """Append one row to the event log when it has room (a sweep passes no room)."""
    i = logc[0]
    if i < log.shape[0]:
        log[i, 0] = st[S.ROUND]
        log[i, 1] = seat
        log[i, 2] = code
        log[i, 3] = a
        log[i, 4] = b
        log[i, 5] = c
        logc[0] = i + 1


@njit(cache=True)
def decide(rng, seat, n):
    """A uniform choice in 0..n-1 from the seat's own decision stream."""
    return randint(rng, 1 + seat, n)


@njit(cache=True)
def pick_best(rng, seat, scores, n):
    """Index of the highest score among the first n, ties broken uniformly (seat stream)."""
    best = scores[0]
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(n):
        if scores[i] >= best - 1e-9:
            ties += 1
    k = randint(rng, 1 + seat, ties)
    for i in range(n):
        if scores[i] >= best - 1e-9:
            if k == 0:
                return np.int64(i)
            k -= 1
    return np.int64(0)


@njit(cache=True)
def trace(nbr, card_steps, card, option, rotation, start, path):
    """Squares a mover enters following a map path from `start`, turned `rotation` quarter
    turns clockwise (Magical Compass). Returns the count; the last square is the X."""
    n = card_steps[card, option, 0]
    sq = start
    for i in range(n):
        d = (card_steps[card, option, 1 + i] + 2 * rotation) & 7
        sq = nbr[sq, d]
        path[i] = sq
    return n


@njit(cache=True)
def goods_of(hands, seats, seat, n_cards, mine):
    """Count the Goods in a seat's hand by colour into mine[0..3]."""
    for c in range(S.N_COLOURS):
        mine[c] = 0
    for i in range(seats[seat, S.HAND_N]):
        code = hands[seat, i]
        if code >= n_cards:
            mine[code - n_cards] += 1


@njit(cache=True)
def hand_add(hands, seats, seat, code):
    n = seats[seat, S.HAND_N]
    if n < hands.shape[1]:
        hands[seat, n] = code
        seats[seat, S.HAND_N] = n + 1


@njit(cache=True)
def hand_remove(hands, seats, seat, index):
    """Remove the card at `index` (order is kept: hands are small)."""
    n = seats[seat, S.HAND_N]
    code = hands[seat, index]
    for i in range(index, n - 1):
        hands[seat, i] = hands[seat, i + 1]
    seats[seat, S.HAND_N] = n - 1
    return code


@njit(cache=True)
def first_ship(st, ship_owner, seat):
    for k in range(st[S.N_SHIPS]):
        if ship_owner[k] == seat:
            return np.int64(k)
    return np.int64(-1)


@njit(cache=True)
def pirate_at(pos, square):
    for p in range(S.N_PIRATES):
        if pos[S.PIRATE0 + p] == square:
            return True
    return False


@njit(cache=True)
def trigger_end(P, st, seats, log, logc):
    """Record the first end trigger (Game End); the round is then played out."""
    if st[S.END_REASON] >= 0:
        return
    for s in range(st[S.PLAYERS]):
        if seats[s, S.TREASURES] >= P.treasures_to_end:
            st[S.END_REASON] = S.END_PLAYER_TREASURES
    if st[S.END_REASON] < 0 and st[S.PIRATE_TREASURES] >= P.pirate_treasures_to_end:
        st[S.END_REASON] = S.END_PIRATE_TREASURES
    if st[S.END_REASON] >= 0:
        log_event(log, logc, st, st[S.ACTIVE], EV.END_TRIGGER, st[S.END_REASON], 0, 0)


@njit(cache=True)
def pirates_gain(P, st, seats, log, logc, square):
    st[S.PIRATE_TREASURES] += 1
    log_event(log, logc, st, -1, EV.TREASURE, -1, square, st[S.PIRATE_TREASURES])
    trigger_end(P, st, seats, log, logc)


# --------------------------------------------------------------------------- cards
@njit(cache=True)
def deck_pop(st, deck, pile, rng, log, logc):
    """Top card of the deck; an empty deck is refilled from the pile under its top card (A12)."""
    if st[S.DECK_N] == 0:
        keep = st[S.PILE_N] - 1
        if keep <= 0:
            return np.int64(-1)
        top = pile[keep]
        for i in range(keep):
            deck[i] = pile[i]
        st[S.DECK_N] = keep
        pile[0] = top
        st[S.PILE_N] = 1
        shuffle(rng, CHANCE, deck, keep)
        log_event(log, logc, st, -1, EV.RESHUFFLE, keep, 0, 0)
    st[S.DECK_N] -= 1
    return deck[st[S.DECK_N]]


@njit(cache=True)
def draw_card(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat):
    """Draw one non-Event card from the deck into a hand. Events met on the way are set
    aside to resolve at the next resolution point and replaced (Event Cards; A14)."""
    while True:
        card = deck_pop(st, deck, pile, rng, log, logc)
        if card < 0:
            return np.int64(-1)
        if card_info[card, S.CI_KIND] == S.EVENT:
            if st[S.PENDING_N] < pending.shape[0]:
                pending[st[S.PENDING_N]] = card
                st[S.PENDING_N] += 1
            continue
        hand_add(hands, seats, seat, card)
        return card


@njit(cache=True)
def bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat):
    card = draw_card(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
    log_event(log, logc, st, seat, EV.BONUS_DRAW, card, 0, 0)


@njit(cache=True)
def steal_random(st, seats, hands, rng, log, logc, thief, victim):
    """Take one card at random from the victim's hand (Possible Interactions: landing)."""
    n = seats[victim, S.HAND_N]
    if n == 0:
        return
    code = hand_remove(hands, seats, victim, randint(rng, CHANCE, n))
    hand_add(hands, seats, thief, code)
    seats[thief, S.STEALS] += 1
    log_event(log, logc, st, thief, EV.STEAL, victim, code, 0)


# --------------------------------------------------------------------------- placement
@njit(cache=True)
def roll_square(rng, dice):
    """Roll both placement dice: the square, or -1 when a skull shows (A8)."""
    col = dice[0, randint(rng, CHANCE, dice.shape[1])]
    row = dice[1, randint(rng, CHANCE, dice.shape[1])]
    if col < 0 or row < 0:
        return np.int64(-1)
    return row * S.SIZE + col


@njit(cache=True)
def place_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc, card_info, dice, ship_owner):
    """Place a new Treasure Island by the placement dice (Placing new Treasure Islands):
    a skull or a pirate pays the pirates and rerolls; a ship makes its player draw and
    rerolls; an island or port square takes the new island stacked."""
    for _ in range(10000):
        sq = roll_square(rng, dice)
        if sq < 0:
            log_event(log, logc, st, -1, EV.PLACE_SKULL, 1, 0, 0)
            pirates_gain(P, st, seats, log, logc, -1)
            continue
        if pirate_at(pos, sq):
            log_event(log, logc, st, -1, EV.PLACE_ON_PIRATE, sq, 0, 0)
            pirates_gain(P, st, seats, log, logc, sq)
            continue
        hit = False
        for k in range(st[S.N_SHIPS]):
            if pos[S.SHIP0 + k] == sq:
                hit = True
                log_event(log, logc, st, ship_owner[k], EV.PLACE_ON_SHIP, sq, ship_owner[k], 0)
                bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, ship_owner[k])
        if hit:
            continue
        stacked = 0
        for i in range(st[S.N_ISLANDS]):
            if pos[S.ISLAND0 + i] == sq:
                stacked = 1
        if st[S.N_ISLANDS] < S.MAX_ISLANDS:
            pos[S.ISLAND0 + st[S.N_ISLANDS]] = sq
            st[S.N_ISLANDS] += 1
        log_event(log, logc, st, -1, EV.ISLAND_PLACED, sq, stacked, 0)
        return


@njit(cache=True)
def occupied(st, pos, square):
    """True when a ship, pirate, port, Combo Port or Treasure Island is on the square."""
    for k in range(st[S.N_SHIPS]):
        if pos[S.SHIP0 + k] == square:
            return True
    for i in range(S.PIRATE0, S.ISLAND0 + st[S.N_ISLANDS]):
        if pos[i] == square:
            return True
    return False


@njit(cache=True)
def place_combo(st, pos, rng, log, logc, dice):
    """Place the Combo Port Island by the dice; skulls pay nothing and reroll, and so does
    an occupied square or the square it leaves (Combo Port Island Module; A24)."""
    old = pos[S.COMBO]
    pos[S.COMBO] = -1
    for _ in range(10000):
        sq = roll_square(rng, dice)
        if sq < 0 or sq == old or occupied(st, pos, sq):
            continue
        pos[S.COMBO] = sq
        log_event(log, logc, st, -1, EV.COMBO_PLACED, sq, 0, 0)
        return


@njit(cache=True)
def take_islands_at(st, pos, square, limit):
    """Remove up to `limit` Treasure Islands on `square` from the board; return how many."""
    taken = 0
    i = 0
    while i < st[S.N_ISLANDS] and taken < limit:
        if pos[S.ISLAND0 + i] == square:
            last = st[S.N_ISLANDS] - 1
            pos[S.ISLAND0 + i] = pos[S.ISLAND0 + last]
            pos[S.ISLAND0 + last] = -1
            st[S.N_ISLANDS] = last
            taken += 1
        else:
            i += 1
    return taken


# --------------------------------------------------------------------------- interactions
@njit(cache=True)
def pirate_contact(P, st, pos, seats, hands, rng, W, log, logc, card_info, gscore, buf, seat):
    """A pirate meets a seat's ship: bribe with a Good of the player's choice if they hold
    one, else a Debt (The Pirates and Debt Tokens). The Strategist may be spared."""
    if seats[seat, S.POWER] == S.STRATEGIST:
        roll = dice_number(rng)
        spared = roll >= P.strategist_low - 1
        log_event(log, logc, st, seat, EV.STRATEGIST, roll, 1 if spared else 0, 0)
        if spared:
            return
    n_cards = card_info.shape[0]
    mine = buf[MINE]
    goods_of(hands, seats, seat, n_cards, mine)
    if mine[0] + mine[1] + mine[2] + mine[3] == 0:
        seats[seat, S.DEBT] += 1
        log_event(log, logc, st, seat, EV.DEBT, seats[seat, S.DEBT], 0, 0)
        return
    if W[seat, bot.POLICY] == 0:
        k = decide(rng, seat, mine[0] + mine[1] + mine[2] + mine[3])
        colour = np.int64(0)
        for c in range(S.N_COLOURS):
            if k < mine[c]:
                colour = c
                break
            k -= mine[c]
    else:
        colour = bot.cheapest_bribe(gscore, mine)
    for i in range(seats[seat, S.HAND_N]):
        if hands[seat, i] == n_cards + colour:
            hand_remove(hands, seats, seat, i)
            break
    st[S.STOCK0 + colour] += 1
    seats[seat, S.BRIBES] += 1
    log_event(log, logc, st, seat, EV.BRIBE, colour, 0, 0)


@njit(cache=True)
def dice_number(rng):
    """The numbered die (A9): 0..12 for 1..13, or -1 for its skull face; 14 faces."""
    face = randint(rng, CHANCE, S.SIZE + 1)
    return np.int64(-1) if face == S.SIZE else face


@njit(cache=True)
def give_good(st, seats, hands, log, logc, n_cards, seat, colour, source):
    if st[S.STOCK0 + colour] > 0:
        st[S.STOCK0 + colour] -= 1
        hand_add(hands, seats, seat, n_cards + colour)
        log_event(log, logc, st, seat, EV.GOOD, colour, source, 0)


@njit(cache=True)
def choose_colour(st, hands, seats, rng, W, gscore, buf, n_cards, seat):
    """A Good of the seat's choice among the available colours (-1 if none)."""
    stock = buf[STOCK]
    avail = 0
    for c in range(S.N_COLOURS):
        stock[c] = st[S.STOCK0 + c]
        if stock[c] > 0:
            avail += 1
    if avail == 0:
        return np.int64(-1)
    if W[seat, bot.POLICY] == 0:
        k = decide(rng, seat, avail)
        for c in range(S.N_COLOURS):
            if stock[c] > 0:
                if k == 0:
                    return np.int64(c)
                k -= 1
    mine = buf[MINE]
    goods_of(hands, seats, seat, n_cards, mine)
    return bot.best_colour(gscore, mine, stock)


@njit(cache=True)
def ship_contacts(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                  card_info, dice, gscore, ship_owner, buf, ship, square, landing):
    """Everything a ship meets on one square it enters (Possible Interactions). Order on a
    square (A16): Treasure Islands, then the Port Island, then pirates, then ships."""
    seat = ship_owner[ship]
    n_cards = card_info.shape[0]
    # Treasure Islands: each island token on the square pays (A26); landing also draws
    got = take_islands_at(st, pos, square, S.MAX_ISLANDS)
    for _ in range(got):
        seats[seat, S.TREASURES] += 1
        log_event(log, logc, st, seat, EV.TREASURE, seat, square, seats[seat, S.TREASURES])
        trigger_end(P, st, seats, log, logc)
        if landing:
            bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
    for _ in range(got):
        place_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc, card_info, dice, ship_owner)
    # Port Islands: no Good while a pirate is there
    blocked = pirate_at(pos, square)
    for c in range(S.N_COLOURS):
        if pos[S.PORT0 + c] == square and not blocked:
            give_good(st, seats, hands, log, logc, n_cards, seat, c, 0)
    if pos[S.COMBO] == square and not blocked:
        colour = choose_colour(st, hands, seats, rng, W, gscore, buf, n_cards, seat)
        if colour >= 0:
            give_good(st, seats, hands, log, logc, n_cards, seat, colour, 1)
            place_combo(st, pos, rng, log, logc, dice)
    # pirates: one bribe or Debt per pirate met (A17)
    for p in range(S.N_PIRATES):
        if pos[S.PIRATE0 + p] == square:
            pirate_contact(P, st, pos, seats, hands, rng, W, log, logc, card_info, gscore, buf, seat)
    # other players' ships: rewards only on your own turn; The Thief steals (A18, A38)
    own_turn = st[S.ACTIVE] == seat
    thief = seats[seat, S.POWER] == S.THIEF and (own_turn or P.thief_any_turn == 1)
    for k in range(st[S.N_SHIPS]):
        other = ship_owner[k]
        if k == ship or other == seat or pos[S.SHIP0 + k] != square:
            continue
        if thief or (own_turn and landing):
            steal_random(st, seats, hands, rng, log, logc, seat, other)
        elif own_turn:
            bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)


@njit(cache=True)
def sail_ship(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
              card_info, dice, gscore, ship_owner, buf, ship, path, n):
    """Move a ship through path[0..n-1], meeting what is on each square in order."""
    start = pos[S.SHIP0 + ship]
    for i in range(n):
        pos[S.SHIP0 + ship] = path[i]
        ship_contacts(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                      card_info, dice, gscore, ship_owner, buf, ship, path[i], i == n - 1)
    log_event(log, logc, st, ship_owner[ship], EV.SHIP_MOVE, ship, start, path[n - 1])
    if ship_owner[ship] == st[S.ACTIVE]:
        st[S.SHIP_MOVED] = 1


@njit(cache=True)
def sail_pirate(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                card_info, dice, gscore, ship_owner, buf, pirate, path, n):
    """Move a pirate: it takes Treasure Islands it touches and meets ships on its way
    (a pass-over counts unless pirate_pass_over is off, A39); ports stop nothing (A25)."""
    start = pos[S.PIRATE0 + pirate]
    for i in range(n):
        sq = path[i]
        pos[S.PIRATE0 + pirate] = sq
        got = take_islands_at(st, pos, sq, S.MAX_ISLANDS)
        for _ in range(got):
            pirates_gain(P, st, seats, log, logc, sq)
        for _ in range(got):
            place_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc, card_info, dice, ship_owner)
        if i == n - 1 or P.pirate_pass_over == 1:
            for k in range(st[S.N_SHIPS]):
                if pos[S.SHIP0 + k] == sq:
                    pirate_contact(P, st, pos, seats, hands, rng, W, log, logc, card_info, gscore, buf,
                                   ship_owner[k])
    log_event(log, logc, st, -1, EV.PIRATE_MOVE, pirate, start, path[n - 1])


@njit(cache=True)
def drift_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc,
                 card_info, dice, ship_owner, island, path, n):
    """Move a Treasure Island like a ship (So Close Yet So Far). It stops at the first
    square holding ships or pirates: each of them takes a Treasure (first contact,
    Treasure Islands and Collecting Treasures), and a new island is placed."""
    start = pos[S.ISLAND0 + island]
    for i in range(n):
        sq = path[i]
        pos[S.ISLAND0 + island] = sq
        takers = 0
        for k in range(st[S.N_SHIPS]):
            if pos[S.SHIP0 + k] == sq:
                takers += 1
        for p in range(S.N_PIRATES):
            if pos[S.PIRATE0 + p] == sq:
                takers += 1
        if takers == 0:
            continue
        log_event(log, logc, st, st[S.ACTIVE], EV.ISLAND_MOVE, 0, start, sq)
        take_islands_at_index(st, pos, island)
        for k in range(st[S.N_SHIPS]):
            if pos[S.SHIP0 + k] == sq:
                seat = ship_owner[k]
                seats[seat, S.TREASURES] += 1
                log_event(log, logc, st, seat, EV.TREASURE, seat, sq, seats[seat, S.TREASURES])
                trigger_end(P, st, seats, log, logc)
                if i == n - 1:
                    bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
        for p in range(S.N_PIRATES):
            if pos[S.PIRATE0 + p] == sq:
                pirates_gain(P, st, seats, log, logc, sq)
        place_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc, card_info, dice, ship_owner)
        return
    log_event(log, logc, st, st[S.ACTIVE], EV.ISLAND_MOVE, 0, start, path[n - 1])


@njit(cache=True)
def take_islands_at_index(st, pos, island):
    last = st[S.N_ISLANDS] - 1
    pos[S.ISLAND0 + island] = pos[S.ISLAND0 + last]
    pos[S.ISLAND0 + last] = -1
    st[S.N_ISLANDS] = last


# --------------------------------------------------------------------------- events
@njit(cache=True)
def resolve_pending(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                    card_info, dice, gscore, ship_owner, buf):
    """Resolve set-aside Event cards in the order they were drawn, each then going to the
    pile (Event Cards). Events drawn while resolving join the end of the queue."""
    players = st[S.PLAYERS]
    active = st[S.ACTIVE]
    i = 0
    while i < st[S.PENDING_N]:
        card = pending[i]
        i += 1
        effect = card_info[card, S.CI_EFFECT]
        log_event(log, logc, st, active, EV.EVENT, card, 0, 0)
        if effect == S.CARGO_ADRIFT:
            # everyone takes a random card from the player on their right, at once
            taken = buf[PATH2]
            for s in range(players):
                right = (s - 1 + players) % players
                n = seats[right, S.HAND_N]
                taken[s] = randint(rng, CHANCE, n) if n > 0 else -1
            for s in range(players):
                right = (s - 1 + players) % players
                if taken[s] >= 0:
                    taken[s] = hand_remove(hands, seats, right, taken[s])
                    taken[s + 4] = 1
                else:
                    taken[s + 4] = 0
            for s in range(players):
                if taken[s + 4] == 1:
                    hand_add(hands, seats, s, taken[s])
                    log_event(log, logc, st, s, EV.CARGO, (s - 1 + players) % players, taken[s], 0)
        elif effect == S.MAGICAL_COMPASS:
            for s in range(players):
                seats[s, S.COMPASSES] += 1
                log_event(log, logc, st, s, EV.COMPASS_GAIN, seats[s, S.COMPASSES], 0, 0)
        elif effect == S.PARTING_STORMS:
            for j in range(players):
                s = (active + j) % players
                bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, s)
        elif effect == S.TALES_OF_MORE_TREASURE:
            if st[S.N_ISLANDS] < P.max_islands:
                place_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc, card_info, dice,
                             ship_owner)
        pile[st[S.PILE_N]] = card
        st[S.PILE_N] += 1
    st[S.PENDING_N] = 0


# --------------------------------------------------------------------------- the turn
@njit(cache=True)
def draw_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc, card_info, seat):
    """Draw two cards: both from the deck, or the pile's top and one from the deck; never
    two from the pile (Game Turn 1). Events drawn are set aside and replaced."""
    wanted = P.draw_count
    if st[S.PILE_N] > 0:
        top = pile[st[S.PILE_N] - 1]
        allowed = card_info[top, S.CI_KIND] != S.EVENT or P.pile_draw_events == 1
        if allowed and card_info[top, S.CI_KIND] != S.EVENT:
            take = False
            if W[seat, bot.POLICY] == 0:
                take = decide(rng, seat, 2) == 1
            else:
                take = pile_card_wanted(st, seats, hands, W, card_info, seat, top)
            if take:
                st[S.PILE_N] -= 1
                hand_add(hands, seats, seat, top)
                log_event(log, logc, st, seat, EV.DRAW, top, 1, 0)
                wanted -= 1
        elif allowed:  # an Event taken from the pile is resolved and replaced (A13)
            if decide(rng, seat, 2) == 1:
                st[S.PILE_N] -= 1
                pending[st[S.PENDING_N]] = top
                st[S.PENDING_N] += 1
    for _ in range(wanted):
        card = draw_card(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
        log_event(log, logc, st, seat, EV.DRAW, card, 0, 0)


@njit(cache=True)
def pile_card_wanted(st, seats, hands, W, card_info, seat, card):
    """Heuristic: take the pile's top card when it is a port card of a wanted colour, an
    attack card, or a card-drawing action."""
    kind = card_info[card, S.CI_KIND]
    if kind == S.PORT_CARD:
        return W[seat, bot.W_GOODS] >= 1.0 and st[S.STOCK0 + card_info[card, S.CI_PORT]] > 0
    if kind == S.ACTION:
        e = card_info[card, S.CI_EFFECT]
        return e == S.RESUPPLY or e == S.UNCHARTED_WATERS or (e == S.CURSED_TREASURE and W[seat, bot.W_ATTACK] > 1.0)
    return False


@njit(cache=True)
def spend_compass(st, seats, log, logc, seat):
    seats[seat, S.COMPASSES] -= 1
    st[S.COMPASS_SPENT] += 1
    log_event(log, logc, st, seat, EV.COMPASS, seats[seat, S.COMPASSES], 0, 0)


@njit(cache=True)
def seat_ships_for_turn(st, ship_owner, seat, out):
    """Ships the seat may move now: its ship, or in the two-player variant either ship
    until one is chosen for the turn (Two Player Variant; A27)."""
    if st[S.ACTIVE_SHIP] >= 0:
        out[0] = st[S.ACTIVE_SHIP]
        return 1
    n = 0
    for k in range(st[S.N_SHIPS]):
        if ship_owner[k] == seat:
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def list_plays(P, st, seats, hands, card_info, seat, ship_owner, buf, only, write):
    """Legal plays as candidate rows (hand index, ship, option, rotation, spend); only the
    hand card `only` when it is >= 0; `write` False just counts them."""
    ships = buf[PATH2]
    n_ships = seat_ships_for_turn(st, ship_owner, seat, ships)
    navigator = seats[seat, S.POWER] == S.NAVIGATOR
    compass = seats[seat, S.COMPASSES] > 0
    n = 0
    n_cards = card_info.shape[0]
    for h in range(seats[seat, S.HAND_N]):
        card = hands[seat, h]
        if card >= n_cards or (only >= 0 and h != only):
            continue  # Goods are never played (Game Turn 2)
        kind = card_info[card, S.CI_KIND]
        if kind == S.ACTION:
            n = add_cand(buf, n, h, -1, 0, 0, 0, write)
            continue
        for j in range(n_ships):
            ship = ships[j]
            if kind == S.PORT_CARD:
                n = add_cand(buf, n, h, ship, 0, 0, 0, write)
                continue
            nopt = card_info[card, S.CI_NOPT]
            for o in range(nopt):
                n = add_cand(buf, n, h, ship, o, 0, 0, write)
                if compass and nopt == 1:
                    for r in range(1, 4):
                        n = add_cand(buf, n, h, ship, o, r, 1, write)
                if compass and navigator:  # Navigator may spend without turning (A10, X1)
                    n = add_cand(buf, n, h, ship, o, 0, 1, write)
    return n


@njit(cache=True)
def add_cand(buf, n, h, target, option, rotation, spend, write):
    if not write:
        return n + 1
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


@njit(cache=True)
def random_play(P, st, seats, hands, rng, card_info, seat, ship_owner, buf):
    """A play uniform over all legal plays, listing only the chosen card's rows: the row
    index into the candidates (-1 if there is no legal play)."""
    total = list_plays(P, st, seats, hands, card_info, seat, ship_owner, buf, NONE, False)
    if total == 0:
        return np.int64(-1)
    k = decide(rng, seat, total)
    for h in range(seats[seat, S.HAND_N]):
        count = list_plays(P, st, seats, hands, card_info, seat, ship_owner, buf, h, False)
        if k < count:
            list_plays(P, st, seats, hands, card_info, seat, ship_owner, buf, h, True)
            return k
        k -= count
    return np.int64(-1)


@njit(cache=True)
def random_discard(st, seats, hands, rng, card_info, seat, buf):
    """A discard (with its bonus) uniform over all legal ones; as random_play."""
    total = list_discards(st, seats, hands, card_info, seat, buf, True, NONE, False)
    if total == 0:
        return np.int64(-1)
    k = decide(rng, seat, total)
    for h in range(seats[seat, S.HAND_N]):
        count = list_discards(st, seats, hands, card_info, seat, buf, True, h, False)
        if k < count:
            list_discards(st, seats, hands, card_info, seat, buf, True, h, True)
            return k
        k -= count
    return np.int64(-1)


@njit(cache=True)
def mover_path(nbr, pos, card_info, card_steps, card, option, rotation, start, path):
    """Squares entered by a mover using `card` from `start`: a map path, or straight to a
    Port Island for a port card (touching nothing on the way)."""
    if card_info[card, S.CI_KIND] == S.PORT_CARD:
        path[0] = pos[S.PORT0 + card_info[card, S.CI_PORT]]
        return 1
    return trace(nbr, card_steps, card, option, rotation, start, path)


@njit(cache=True)
def score_plays(P, st, pos, seats, hands, W, nbr, dist, card_info, card_steps, gscore, ship_owner, buf,
                seat, n_cand, scores):
    w = W[seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    goods_of(hands, seats, seat, card_info.shape[0], mine)
    for c in range(S.N_COLOURS):
        stock[c] = st[S.STOCK0 + c]
    path = buf[PATH]
    pcost = bot.pirate_cost(w, seats, seat, mine, gscore, P.strategist_low)
    ship0 = st[S.ACTIVE_SHIP] if st[S.ACTIVE_SHIP] >= 0 else first_ship(st, ship_owner, seat)
    stay = bot.stay_value(w, seat, pos[S.SHIP0 + ship0], pos, st, dist)
    for h in range(seats[seat, S.HAND_N]):
        card = hands[seat, h]
        if card < card_info.shape[0]:
            scores[KEEP0 + h] = bot.card_keep_value(w, card, card_info, mine, stock, gscore, seats, seat, st)
    for i in range(n_cand):
        row = CAND0 + i
        h = buf[row, 0]
        card = hands[seat, h]
        if card_info[card, S.CI_KIND] == S.ACTION:
            scores[i] = stay + bot.action_play_value(w, card_info[card, S.CI_EFFECT], seat, seats, st,
                                                     seats[seat, S.HAND_N]) - 0.05 * scores[KEEP0 + h]
            continue
        ship = buf[row, 1]
        n = mover_path(nbr, pos, card_info, card_steps, card, buf[row, 2], buf[row, 3], pos[S.SHIP0 + ship], path)
        v = bot.ship_path_value(w, seat, path, n, pos, st, seats, ship_owner, mine, stock, dist, gscore, pcost)
        if buf[row, 4] == 1:
            v -= w[bot.W_COMPASS]
            if seats[seat, S.POWER] == S.NAVIGATOR:
                v += 0.5
        scores[i] = v - 0.05 * scores[KEEP0 + h]


@njit(cache=True)
def play_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
               nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat):
    """Play one card (Game Turn 2); Uncharted Waters adds a draw and two more plays."""
    plays_left = 1
    while plays_left > 0:
        plays_left -= 1
        if W[seat, bot.POLICY] == 0:
            choice = random_play(P, st, seats, hands, rng, card_info, seat, ship_owner, buf)
            if choice < 0:
                log_event(log, logc, st, seat, EV.NO_PLAY, 0, 0, 0)  # A15: nothing to play
                continue
        else:
            n_cand = list_plays(P, st, seats, hands, card_info, seat, ship_owner, buf, NONE, True)
            if n_cand == 0:
                log_event(log, logc, st, seat, EV.NO_PLAY, 0, 0, 0)  # A15: nothing to play
                continue
            score_plays(P, st, pos, seats, hands, W, nbr, dist, card_info, card_steps, gscore, ship_owner, buf,
                        seat, n_cand, scores)
            choice = pick_best(rng, seat, scores, n_cand)
        row = CAND0 + choice
        h, ship, option, rotation, spend = buf[row, 0], buf[row, 1], buf[row, 2], buf[row, 3], buf[row, 4]
        card = hand_remove(hands, seats, seat, h)
        pile[st[S.PILE_N]] = card
        st[S.PILE_N] += 1
        log_event(log, logc, st, seat, EV.PLAY, card, ship, option * 4 + rotation + 16 * spend)
        kind = card_info[card, S.CI_KIND]
        if spend == 1:
            spend_compass(st, seats, log, logc, seat)
        if kind == S.ACTION:
            effect = card_info[card, S.CI_EFFECT]
            if effect == S.UNCHARTED_WATERS:
                bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
                plays_left += 2
            else:
                play_action(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc, card_info, seat,
                            effect)
        else:
            st[S.ACTIVE_SHIP] = ship
            path = buf[PATH]
            n = mover_path(nbr, pos, card_info, card_steps, card, option, rotation, pos[S.SHIP0 + ship], path)
            sail_ship(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                      card_info, dice, gscore, ship_owner, buf, ship, path, n)
            if spend == 1 and seats[seat, S.POWER] == S.NAVIGATOR:
                bonus_move(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                           nbr, dist, card_info, dice, gscore, ship_owner, buf, seat, P.navigator_steps)
        resolve_pending(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                        card_info, dice, gscore, ship_owner, buf)


@njit(cache=True)
def play_action(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc, card_info, seat, effect):
    """An Action card's text (Card List: Action Cards). Hurricane, So Close Yet So Far and
    Trouble at Sea act with the discard, so they wait for the Discard phase."""
    players = st[S.PLAYERS]
    if effect == S.BROKEN_COMPASS:
        mine = seats[seat, S.HAND_N]  # counted after playing it, before discarding
        if W[seat, bot.POLICY] == 0:
            mode = decide(rng, seat, 2)
        else:
            mode = bot.broken_compass_mode(seat, mine, players)
        log_event(log, logc, st, seat, EV.BROKEN_COMPASS, mode, mine, 0)
        for s in range(players):
            if s == seat:
                continue
            theirs = seats[s, S.HAND_N]
            if (mode == 0 and theirs >= mine) or (mode == 1 and theirs <= mine):
                seats[s, S.DEBT] += 1
                log_event(log, logc, st, s, EV.DEBT, seats[s, S.DEBT], 0, 0)
    elif effect == S.CURSED_TREASURE:
        for s in range(players):
            if s != seat and seats[s, S.TREASURES] >= seats[seat, S.TREASURES]:
                seats[s, S.DEBT] += 1
                log_event(log, logc, st, s, EV.DEBT, seats[s, S.DEBT], 0, 0)
    elif effect == S.RESUPPLY:
        for _ in range(3):
            bonus_draw(st, seats, hands, deck, pile, pending, rng, log, logc, card_info, seat)
        resupply_bottom(st, seats, hands, deck, rng, W, card_info, seat)
    else:  # HURRICANE, SO_CLOSE_YET_SO_FAR, TROUBLE_AT_SEA
        if st[S.EFFECTS_N] < 4:
            st[S.EFFECT0 + st[S.EFFECTS_N]] = effect
            st[S.EFFECTS_N] += 1


@njit(cache=True)
def resupply_bottom(st, seats, hands, deck, rng, W, card_info, seat):
    """Resupply: put one non-Goods card from hand on the bottom of the deck."""
    n_cards = card_info.shape[0]
    count = 0
    for h in range(seats[seat, S.HAND_N]):
        if hands[seat, h] < n_cards:
            count += 1
    if count == 0:
        return
    if W[seat, bot.POLICY] == 0:
        k = decide(rng, seat, count)
    else:  # the least useful card: an Event-free hand's plainest map card or a blocked port card
        k = np.int64(0)
        best = 1e18
        j = 0
        for h in range(seats[seat, S.HAND_N]):
            card = hands[seat, h]
            if card < n_cards:
                v = 1.0 + 0.2 * card_info[card, S.CI_NOPT] + (1.0 if card_info[card, S.CI_KIND] != S.MAP else 0.0)
                if v < best:
                    best = v
                    k = j
                j += 1
    j = 0
    for h in range(seats[seat, S.HAND_N]):
        if hands[seat, h] < n_cards:
            if j == k:
                card = hand_remove(hands, seats, seat, h)
                for i in range(st[S.DECK_N], 0, -1):
                    deck[i] = deck[i - 1]
                deck[0] = card
                st[S.DECK_N] += 1
                return
            j += 1


@njit(cache=True)
def list_discards(st, seats, hands, card_info, seat, buf, turns, only, write):
    """Legal discards with their Discard Bonus: (hand index, pirate, option, rotation, spend).
    A heuristic bot may leave out compass turns (turns = False): a pruning, not a rule.
    `only` and `write` as in list_plays."""
    n_cards = card_info.shape[0]
    compass = seats[seat, S.COMPASSES] > 0 and turns
    navigator = seats[seat, S.POWER] == S.NAVIGATOR
    effects = st[S.EFFECTS_N] > 0
    n = 0
    for h in range(seats[seat, S.HAND_N]):
        card = hands[seat, h]
        if card >= n_cards or (only >= 0 and h != only):
            continue  # Goods are never discarded (Game Turn 3)
        kind = card_info[card, S.CI_KIND]
        for p in range(S.N_PIRATES):
            if kind == S.PORT_CARD:
                n = add_cand(buf, n, h, p, 0, 0, 0, write)
                continue
            nopt = card_info[card, S.CI_NOPT]
            for o in range(nopt):
                n = add_cand(buf, n, h, p, o, 0, 0, write)
                if compass and nopt == 1:
                    for r in range(1, 4):
                        n = add_cand(buf, n, h, p, o, r, 1, write)
                if compass and (navigator or (effects and nopt == 1)):
                    n = add_cand(buf, n, h, p, o, 0, 1, write)
    return n


@njit(cache=True)
def score_discards(P, st, pos, seats, hands, W, nbr, dist, card_info, card_steps, gscore, ship_owner, buf,
                   seat, n_cand, scores):
    w = W[seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    goods_of(hands, seats, seat, card_info.shape[0], mine)
    for c in range(S.N_COLOURS):
        stock[c] = st[S.STOCK0 + c]
    path = buf[PATH]
    pcost = bot.pirate_cost(w, seats, seat, mine, gscore, P.strategist_low)
    for h in range(seats[seat, S.HAND_N]):
        card = hands[seat, h]
        if card < card_info.shape[0]:
            scores[KEEP0 + h] = w[bot.W_KEEP] * bot.card_keep_value(w, card, card_info, mine, stock, gscore,
                                                                   seats, seat, st)
    for i in range(n_cand):
        row = CAND0 + i
        h = buf[row, 0]
        card = hands[seat, h]
        p = buf[row, 1]
        n = mover_path(nbr, pos, card_info, card_steps, card, buf[row, 2], buf[row, 3], pos[S.PIRATE0 + p], path)
        v = bot.pirate_path_value(w, seat, path, n, pos, st, seats, ship_owner, dist, pcost)
        v -= scores[KEEP0 + h]
        if buf[row, 4] == 1:
            v -= w[bot.W_COMPASS]
        scores[i] = v


@njit(cache=True)
def discard_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                  nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat):
    """Discard one card; waiting Action effects act with it first, then the Discard Bonus
    moves one pirate with it (Game Turn 3, FAQ Q3)."""
    if W[seat, bot.POLICY] == 0:
        choice = random_discard(st, seats, hands, rng, card_info, seat, buf)
        if choice < 0:
            log_event(log, logc, st, seat, EV.NO_PLAY, 1, 0, 0)  # A15: no card, no bonus
            return
    else:
        turns = W[seat, bot.PIRATE_TURNS] > 0 or st[S.EFFECTS_N] > 0
        n_cand = list_discards(st, seats, hands, card_info, seat, buf, turns, NONE, True)
        if n_cand == 0:
            log_event(log, logc, st, seat, EV.NO_PLAY, 1, 0, 0)  # A15: no card, no bonus
            return
        score_discards(P, st, pos, seats, hands, W, nbr, dist, card_info, card_steps, gscore, ship_owner, buf,
                       seat, n_cand, scores)
        choice = pick_best(rng, seat, scores, n_cand)
    row = CAND0 + choice
    h, pirate, option, rotation, spend = buf[row, 0], buf[row, 1], buf[row, 2], buf[row, 3], buf[row, 4]
    card = hand_remove(hands, seats, seat, h)
    pile[st[S.PILE_N]] = card
    st[S.PILE_N] += 1
    log_event(log, logc, st, seat, EV.DISCARD, card, pirate, option * 4 + rotation + 16 * spend)
    if spend == 1:
        spend_compass(st, seats, log, logc, seat)
    # one token turns the card for every target it moves (Magical Compass: multiple targets)
    free_turn = spend == 1 and card_info[card, S.CI_NOPT] == 1
    for e in range(st[S.EFFECTS_N]):
        effect = st[S.EFFECT0 + e]
        if effect == S.HURRICANE:
            hurricane(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                      nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card, free_turn)
        elif effect == S.TROUBLE_AT_SEA:
            trouble_at_sea(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                           nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card,
                           free_turn)
        elif effect == S.SO_CLOSE_YET_SO_FAR:
            so_close(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                     nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card, free_turn)
    st[S.EFFECTS_N] = 0
    path = buf[PATH]
    n = mover_path(nbr, pos, card_info, card_steps, card, option, rotation, pos[S.PIRATE0 + pirate], path)
    sail_pirate(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                card_info, dice, gscore, ship_owner, buf, pirate, path, n)
    if spend == 1 and seats[seat, S.POWER] == S.NAVIGATOR:
        bonus_move(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                   nbr, dist, card_info, dice, gscore, ship_owner, buf, seat, P.navigator_steps)


@njit(cache=True)
def choose_orientation(P, st, pos, seats, hands, rng, W, nbr, dist, card_info, card_steps, gscore, ship_owner, buf,
                       scores, seat, card, free_turn, mover_kind, target, start):
    """Pick an X and a turn for one target of a discard effect: the chooser (the active
    seat) decides per target (Multiple moving objects). mover_kind 0 ship (value for its
    owner is subtracted), 1 pirate, 2 island. Returns option * 4 + rotation."""
    nopt = card_info[card, S.CI_NOPT]
    if card_info[card, S.CI_KIND] == S.PORT_CARD:
        return np.int64(0)
    turns = 4 if free_turn else 1
    n = 0
    path = buf[PATH]
    w = W[seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    for c in range(S.N_COLOURS):
        stock[c] = st[S.STOCK0 + c]
    for o in range(nopt):
        for r in range(turns):
            if W[seat, bot.POLICY] != 0:
                k = trace(nbr, card_steps, card, o, r, start, path)
                if mover_kind == 0:
                    owner = ship_owner[target]
                    for c in range(S.N_COLOURS):
                        mine[c] = 0  # another hand's Goods are hidden (A33)
                    scores[n] = -bot.ship_path_value(w, owner, path, k, pos, st, seats, ship_owner, mine, stock,
                                                     dist, gscore, w[bot.W_DEBT])
                elif mover_kind == 1:
                    goods_of(hands, seats, seat, card_info.shape[0], mine)
                    pcost = bot.pirate_cost(w, seats, seat, mine, gscore, P.strategist_low)
                    scores[n] = bot.pirate_path_value(w, seat, path, k, pos, st, seats, ship_owner, dist, pcost)
                else:
                    scores[n] = bot.island_path_value(w, seat, path, k, pos, st, ship_owner, dist)
            n += 1
    if W[seat, bot.POLICY] == 0:
        k = decide(rng, seat, n)
    else:
        k = pick_best(rng, seat, scores, n)
    return (k // turns) * 4 + k % turns


@njit(cache=True)
def hurricane(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
              nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card, free_turn):
    """Hurricane: every other player's ship moves by the discard, one after another from
    the active player's left (A19); their contacts bring them no reward (not their turn)."""
    players = st[S.PLAYERS]
    for j in range(1, players + 1):
        owner = (seat + j) % players
        for k in range(st[S.N_SHIPS]):
            if ship_owner[k] != owner or owner == seat:
                continue
            code = choose_orientation(P, st, pos, seats, hands, rng, W, nbr, dist, card_info, card_steps, gscore,
                                      ship_owner, buf, scores, seat, card, free_turn, 0, k, pos[S.SHIP0 + k])
            path = buf[PATH2]
            n = mover_path(nbr, pos, card_info, card_steps, card, code // 4, code % 4, pos[S.SHIP0 + k], path)
            for i in range(n):
                buf[PATH, i] = path[i]
            sail_ship(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                      card_info, dice, gscore, ship_owner, buf, k, buf[PATH], n)


@njit(cache=True)
def trouble_at_sea(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                   nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card, free_turn):
    """Trouble at Sea: all pirates move by the discard, in pirate order (A19)."""
    for p in range(S.N_PIRATES):
        code = choose_orientation(P, st, pos, seats, hands, rng, W, nbr, dist, card_info, card_steps, gscore,
                                  ship_owner, buf, scores, seat, card, free_turn, 1, p, pos[S.PIRATE0 + p])
        path = buf[PATH2]
        n = mover_path(nbr, pos, card_info, card_steps, card, code // 4, code % 4, pos[S.PIRATE0 + p], path)
        for i in range(n):
            buf[PATH, i] = path[i]
        sail_pirate(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                    card_info, dice, gscore, ship_owner, buf, p, buf[PATH], n)


@njit(cache=True)
def so_close(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
             nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat, card, free_turn):
    """So Close Yet So Far: up to two Treasure Islands move by the discard like ships."""
    if st[S.N_ISLANDS] == 0:
        return
    # choose which islands (by square; they are looked up again after each move)
    targets = buf[PATH2]
    n_targets = min(2, st[S.N_ISLANDS])
    if W[seat, bot.POLICY] == 0:
        n_targets = 1 + decide(rng, seat, n_targets)
        first = decide(rng, seat, st[S.N_ISLANDS])
        targets[0] = pos[S.ISLAND0 + first]
        targets[1] = pos[S.ISLAND0 + (first + 1) % st[S.N_ISLANDS]]
    else:
        for i in range(min(2, st[S.N_ISLANDS])):
            targets[i] = pos[S.ISLAND0 + i]
    for t in range(n_targets):
        island = np.int64(-1)
        for i in range(st[S.N_ISLANDS]):
            if pos[S.ISLAND0 + i] == targets[t]:
                island = i
                break
        if island < 0:
            continue
        start = pos[S.ISLAND0 + island]
        code = choose_orientation(P, st, pos, seats, hands, rng, W, nbr, dist, card_info, card_steps, gscore,
                                  ship_owner, buf, scores, seat, card, free_turn, 2, island, start)
        if W[seat, bot.POLICY] != 0:
            # a heuristic seat moves an island only if that is better than leaving it
            n = mover_path(nbr, pos, card_info, card_steps, card, code // 4, code % 4, start, buf[PATH])
            moved = bot.island_path_value(W[seat], seat, buf[PATH], n, pos, st, ship_owner, dist)
            buf[PATH, 0] = start
            stay = bot.island_path_value(W[seat], seat, buf[PATH], 1, pos, st, ship_owner, dist)
            if moved <= stay:
                continue
        path = buf[PATH]
        n = mover_path(nbr, pos, card_info, card_steps, card, code // 4, code % 4, start, path)
        drift_island(P, st, pos, seats, hands, deck, pile, pending, rng, log, logc,
                     card_info, dice, ship_owner, island, path, n)


@njit(cache=True)
def bonus_move(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
               nbr, dist, card_info, dice, gscore, ship_owner, buf, seat, steps):
    """Lucky Jill/Jack's and The Navigator's bonus: up to `steps` orthogonal steps of the
    player's ship, each in a direction of their choice (A10); it may stay."""
    ship = st[S.ACTIVE_SHIP] if st[S.ACTIVE_SHIP] >= 0 else first_ship(st, ship_owner, seat)
    start = pos[S.SHIP0 + ship]
    path = buf[PATH]
    w = W[seat]
    mine = buf[MINE]
    stock = buf[STOCK]
    n = 0
    for _ in range(steps):
        here = path[n - 1] if n > 0 else start
        if w[bot.POLICY] == 0:
            d = decide(rng, seat, 5)
        else:
            goods_of(hands, seats, seat, card_info.shape[0], mine)
            for c in range(S.N_COLOURS):
                stock[c] = st[S.STOCK0 + c]
            pcost = bot.pirate_cost(w, seats, seat, mine, gscore, P.strategist_low)
            best = -1e18
            d = np.int64(4)
            for dd in range(5):
                if dd < 4:
                    path[n] = nbr[here, 2 * dd]
                    v = bot.ship_path_value(w, seat, path, n + 1, pos, st, seats, ship_owner, mine, stock, dist,
                                            gscore, pcost)
                else:
                    v = bot.ship_path_value(w, seat, path, n, pos, st, seats, ship_owner, mine, stock, dist,
                                            gscore, pcost) if n > 0 else -1e17
                if v > best:
                    best = v
                    d = dd
        if d == 4:
            break
        path[n] = nbr[here, 2 * d]
        n += 1
    if n == 0:
        return
    sail_ship(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
              card_info, dice, gscore, ship_owner, buf, ship, path, n)
    log_event(log, logc, st, seat, EV.BONUS_MOVE, seats[seat, S.POWER], start, pos[S.SHIP0 + ship])


# --------------------------------------------------------------------------- set-up
@njit(cache=True)
def setup_game(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
               card_info, board, ship_table, ship_owner, dice, buf, players):
    """Set-up 1-7 and the variants' set-up differences."""
    n_cards = card_info.shape[0]
    st[:] = 0
    st[S.END_REASON] = -1
    st[S.PLAYERS] = players
    st[S.N_SHIPS] = ship_table.shape[0]
    st[S.ACTIVE_SHIP] = -1
    pos[:] = -1
    seats[:, :] = 0
    for c in range(S.N_COLOURS):
        st[S.STOCK0 + c] = board[9]
    pos[S.ISLAND0] = board[8]  # the first Treasure Island (Set-up 5; also under random set-up, A23)
    st[S.N_ISLANDS] = 1
    if P.random_setup == 1:
        # Random Setup Variant: ports then pirates by the placement dice; skulls and taken
        # squares are rerolled (A23)
        for i in range(S.PORT0, S.PORT0 + S.N_COLOURS):
            pos[i] = free_square(st, pos, rng, dice)
        for p in range(S.N_PIRATES):
            pos[S.PIRATE0 + p] = free_square(st, pos, rng, dice)
    else:
        for c in range(S.N_COLOURS):
            pos[S.PORT0 + c] = board[c]
        for p in range(S.N_PIRATES):
            pos[S.PIRATE0 + p] = board[4 + p]
    for k in range(st[S.N_SHIPS]):
        pos[S.SHIP0 + k] = pos[S.PORT0 + ship_table[k, 1]]
    if P.combo_port == 1:
        place_combo(st, pos, rng, log, logc, dice)
    # player powers, dealt at random (Set-up 3)
    powers = buf[PATH2]
    for i in range(S.N_POWERS):
        powers[i] = i
    if P.player_powers == 1:
        shuffle(rng, CHANCE, powers, S.N_POWERS)
    scallywag = -1
    for s in range(players):
        seats[s, S.POWER] = powers[s] if P.player_powers == 1 else -1
        seats[s, S.COMPASSES] = P.start_compasses + (1 if seats[s, S.POWER] == S.ODD else 0)
        if seats[s, S.POWER] >= 0:
            log_event(log, logc, st, s, EV.POWER, seats[s, S.POWER], 0, 0)
        if seats[s, S.POWER] == S.SCALLYWAG:
            scallywag = s
    # the deck: deal Action and Map cards only, setting Events and Port cards aside (Set-up 7)
    for i in range(n_cards):
        deck[i] = i
    st[S.DECK_N] = n_cards
    shuffle(rng, CHANCE, deck, n_cards)
    aside = 0
    for s in range(players):
        want = P.hand_size + (1 if seats[s, S.POWER] == S.ODD else 0)
        while seats[s, S.HAND_N] < want and st[S.DECK_N] > 0:
            st[S.DECK_N] -= 1
            card = deck[st[S.DECK_N]]
            kind = card_info[card, S.CI_KIND]
            if kind == S.EVENT or kind == S.PORT_CARD:
                pending[aside] = card
                aside += 1
            else:
                hand_add(hands, seats, s, card)
    # one Map card face up on the pile: the first Map card from the top (A30)
    while st[S.DECK_N] > 0:
        st[S.DECK_N] -= 1
        card = deck[st[S.DECK_N]]
        if card_info[card, S.CI_KIND] == S.MAP:
            pile[0] = card
            st[S.PILE_N] = 1
            break
        pending[aside] = card
        aside += 1
    for i in range(aside):
        deck[st[S.DECK_N]] = pending[i]
        st[S.DECK_N] += 1
    shuffle(rng, CHANCE, deck, st[S.DECK_N])
    # starting Goods: one of the starting island's colour, or one per colour in the
    # two-player variant; only The Scallywag starts with Goods when dealt (X12, X13)
    for k in range(st[S.N_SHIPS]):
        s = ship_table[k, 0]
        keep = scallywag < 0 or s == scallywag
        if not keep and P.two_player == 1 and k == first_ship(st, ship_owner, s):
            keep = True  # Scallywag in a two-player game: the other keeps one of two
        if keep:
            give_good(st, seats, hands, log, logc, n_cards, s, ship_table[k, 1], 2)


@njit(cache=True)
def free_square(st, pos, rng, dice):
    for _ in range(10000):
        sq = roll_square(rng, dice)
        if sq >= 0 and not occupied(st, pos, sq):
            return sq
    return np.int64(0)


# --------------------------------------------------------------------------- the game
@njit(cache=True)
def take_turn(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
              nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat):
    """Draw, Play, Discard (Game Turn), then Lucky Jill/Jack's bonus."""
    st[S.ACTIVE] = seat
    st[S.SHIP_MOVED] = 0
    st[S.COMPASS_SPENT] = 0
    st[S.EFFECTS_N] = 0
    st[S.ACTIVE_SHIP] = -1 if P.two_player == 1 else first_ship(st, ship_owner, seat)
    log_event(log, logc, st, seat, EV.TURN, st[S.TURNS] + 1, 0, 0)
    draw_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc, card_info, seat)
    resolve_pending(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                    card_info, dice, gscore, ship_owner, buf)
    play_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
               nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat)
    discard_phase(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                  nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, seat)
    resolve_pending(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                    card_info, dice, gscore, ship_owner, buf)
    if seats[seat, S.POWER] == S.LUCKY and st[S.SHIP_MOVED] == 0 and P.lucky_steps > 0:
        bonus_move(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                   nbr, dist, card_info, dice, gscore, ship_owner, buf, seat, P.lucky_steps)
        resolve_pending(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, logc,
                        card_info, dice, gscore, ship_owner, buf)
    st[S.TURNS] += 1


@njit(cache=True)
def seat_score(P, seats, hands, gscore, n_cards, mine, seat):
    """Final Scoring: Treasures, unused compasses, Debt (The Gambler halves it), Goods sets."""
    goods_of(hands, seats, seat, n_cards, mine)
    debt = seats[seat, S.DEBT]
    if seats[seat, S.POWER] == S.GAMBLER:
        debt = debt // 2 if P.gambler_rounding == 0 else (debt + 1) // 2
    return (seats[seat, S.TREASURES] * P.treasure_points + seats[seat, S.COMPASSES] * P.compass_points
            - debt * P.debt_points + bot.goods_points(gscore, mine[0], mine[1], mine[2], mine[3]))


@njit(cache=True)
def final_scoring(P, st, pos, seats, hands, rng, W, log, logc, card_info, gscore, buf, scores, out_seats_g):
    """Score every seat, then rank by score and tie-breakers 1-3; a tie for first that
    survives them is settled by rolling the numbered die, rerolling ties (A28)."""
    players = st[S.PLAYERS]
    n_cards = card_info.shape[0]
    mine = buf[MINE]
    for s in range(players):
        if seats[s, S.POWER] == S.SMUGGLER:
            colour = choose_colour(st, hands, seats, rng, W, gscore, buf, n_cards, s)
            if colour >= 0:
                give_good(st, seats, hands, log, logc, n_cards, s, colour, 2)
                log_event(log, logc, st, s, EV.SMUGGLE, colour, 0, 0)
    keys = buf[PATH2]
    for s in range(players):
        score = seat_score(P, seats, hands, gscore, n_cards, mine, s)
        types = 0
        for c in range(S.N_COLOURS):
            if mine[c] > 0:
                types += 1
        out_seats_g[s, G.SCORE] = score
        # lexicographic key: score, then compasses, Goods types, Treasures (tie-breakers 1-3)
        keys[s] = ((score + 1000) * 1000 + seats[s, S.COMPASSES]) * 100000 + types * 1000 + seats[s, S.TREASURES]
        out_seats_g[s, 3] = seats[s, S.TREASURES]
        out_seats_g[s, 4] = seats[s, S.DEBT]
        out_seats_g[s, 5] = seats[s, S.COMPASSES]
        out_seats_g[s, 6] = bot.goods_points(gscore, mine[0], mine[1], mine[2], mine[3])
        out_seats_g[s, 7] = seats[s, S.POWER] + 1
        out_seats_g[s, 8] = seats[s, S.STEALS]
        out_seats_g[s, 9] = seats[s, S.BRIBES]
    best = keys[0]
    for s in range(players):
        rank = 1
        for t in range(players):
            if keys[t] > keys[s]:
                rank += 1
        out_seats_g[s, G.RANK] = rank
        out_seats_g[s, G.WINNER] = 0
        best = max(best, keys[s])
    if st[S.END_REASON] == S.END_ROUND_CAP:
        return
    tied = 0
    winner = 0
    for s in range(players):
        if keys[s] == best:
            tied += 1
            winner = s
    if tied > 1:  # tie-breaker 4: the numbered die among the tied, until one is highest
        rolls = buf[SCORE_ROW]
        while True:
            high = np.int64(-1)
            count = 0
            for s in range(players):
                if keys[s] == best:
                    r = dice_number(rng)
                    while r < 0:
                        r = dice_number(rng)
                    rolls[s] = r
                    log_event(log, logc, st, s, EV.TIE_ROLL, r, 0, 0)
                    if r > high:
                        high = r
                        count = 1
                        winner = s
                    elif r == high:
                        count += 1
            if count == 1:
                break
        for s in range(players):
            if keys[s] == best and s != winner:
                out_seats_g[s, G.RANK] = 2
    out_seats_g[winner, G.WINNER] = 1
    for s in range(players):
        log_event(log, logc, st, s, EV.SCORE, out_seats_g[s, G.SCORE], out_seats_g[s, G.RANK],
                  out_seats_g[s, G.WINNER])


@njit(cache=True)
def play_chunk(params, components, presets, seat_strategies, seeds, out_games, out_seats, log, log_count):
    """Play len(seeds) games of Sea of Plunder (the engine contract in simkit/game.py)."""
    nbr, dist, card_info, card_steps, board, ship_table, dice, gscore = components
    P = params
    players = seat_strategies.shape[1]
    n_cards = card_info.shape[0]
    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    pos = np.zeros(S.POS_SIZE, dtype=np.int64)
    seats = np.zeros((players, S.SEAT_COLS), dtype=np.int64)
    hands = np.zeros((players, S.MAX_HAND), dtype=np.int64)
    deck = np.zeros(n_cards, dtype=np.int64)
    pile = np.zeros(n_cards, dtype=np.int64)
    pending = np.zeros(max(S.MAX_PENDING, n_cards), dtype=np.int64)
    rng = np.zeros((1 + players, 4), dtype=np.uint64)
    W = np.zeros((players, presets.shape[1]), dtype=np.float64)
    buf = np.zeros((BUF_ROWS, max(BUF_WIDTH, S.MAX_STEPS, S.N_POWERS)), dtype=np.int64)
    scores = np.zeros(MAX_CAND + S.MAX_HAND, dtype=np.float64)
    ship_owner = ship_table[:, 0].copy()
    for g in range(seeds.shape[0]):
        seed_streams(rng, seeds[g])
        for s in range(players):
            W[s, :] = presets[seat_strategies[g, s]]
        setup_game(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, log_count,
                   card_info, board, ship_table, ship_owner, dice, buf, players)
        while True:
            for s in range(players):
                take_turn(P, st, pos, seats, hands, deck, pile, pending, rng, W, log, log_count,
                          nbr, dist, card_info, card_steps, dice, gscore, ship_owner, buf, scores, s)
            st[S.ROUND] += 1
            if st[S.END_REASON] >= 0:
                break  # the round in which the end was triggered is finished (Game End)
            if st[S.ROUND] >= P.round_cap:
                st[S.END_REASON] = S.END_ROUND_CAP
                break
        final_scoring(P, st, pos, seats, hands, rng, W, log, log_count, card_info, gscore, buf, scores,
                      out_seats[g])
        out_games[g, G.ROUNDS] = st[S.ROUND]
        out_games[g, G.TURNS] = st[S.TURNS]
        out_games[g, G.END_REASON] = st[S.END_REASON]
        out_games[g, G.GAME_COLUMNS] = st[S.PIRATE_TREASURES]
