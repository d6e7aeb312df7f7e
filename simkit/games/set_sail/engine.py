"""The Set Sail engine: set-up, movement, tile actions, combat, running out, the end (numba).

A game lives in three tables allocated once per chunk (layout in state.py):

    T  int64 state: rows ST (game scalars), POS (tile of every piece), START (the active
       player's start tiles), the ship decks and discards, the quest decks, SEAT0 + s
       (seat counters and hand counts), MAPS0 + s (undug treasure maps)
    K  int64 static tables: tile types, water connections, distances, ship healths,
       quest cards (read-only)
    F  float64: row 0 the scores of the candidates being judged, row 1 + s seat s's
       preset weights, and in the last column its noise (the skill knob)

plus `rng` (stream 0 chance, 1 + s seat s's decisions), `buf` (int64 scratch
rows) and `log`. Functions take those of (P, T, K, F, rng, buf, log) they need, in that
order, then their own arguments. A `lookahead` seat (policy 2) plays its turns through
lookahead.py, whose playouts run this module's functions on a second set of tables; the
game loop that seats both (the engine entry point) is chunk.py's.
When a score trace is asked for, each seat's VP is written after every round.
"""

import numpy as np

from simkit.core import game as G
from simkit.core.jit import jit
from simkit.core.kernels import (
    NO_BEST,
    append_event,
    copy_prefix,
    decide,
    offers,
    option,
    pick_option,
    pick_weighted,
    random_decision,
    rank_by,
)
from simkit.core.rng import CHANCE, randint, shuffle
from simkit.games.set_sail import events as EV
from simkit.games.set_sail import state as S
from simkit.games.set_sail.state import (
    DECK0,
    DISC0,
    MAPS0,
    MAX_HEALTH,
    META,
    POS,
    QCOST0,
    QDECK0,
    QTILE,
    QVP0,
    SEAT0,
    ST,
    START,
    TRADE_COL0,
    can_buy_upgrade,
    capacity,
    price_of,
)
from strategies import set_sail as bot

# a random seat's alternatives at a Supply Port (STOP also at the Upgrade Port)
STOP, BY_SILVER, BY_SHIP = 0, 1, 2
# rows of the scratch table `buf`
LEVEL_T1, LEVEL_T2, CAND = 0, 1, 2
BUF_ROWS = 3
BUF_WIDTH = S.MAX_TILES + S.MAX_DIST
# F[0] columns: tile values from 0, then per-distance best values
LEVEL_V1 = S.MAX_TILES
LEVEL_V2 = S.MAX_TILES + S.MAX_DIST
F_WIDTH = S.MAX_TILES + 2 * S.MAX_DIST
NONE = np.int64(-1)
ZERO = np.int64(0)
ONE = np.int64(1)


# --------------------------------------------------------------------------- small helpers
@jit(inline="always", runtime=False)
def log_event(T, log, seat, code, a, b, c):
    """One row of the event log, dated by the round it happens in (simkit.core.kernels.append_event)."""
    append_event(T, log, ST, S.LOG_N, T[ST, S.ROUND], seat, code, a, b, c)


@jit(inline="always", runtime=False)
def d6(rng):
    return randint(rng, CHANCE, np.int64(6)) + 1


@jit(inline="always", runtime=False)
def plays_random(F, rng, seat):
    """This decision is a uniformly random legal choice: always for the random policy, and
    for a heuristic seat with the chance of its noise (the skill knob), the coin
    drawn from the seat's own decision stream, and only when its noise is above 0 (so a
    noise-free seat plays exactly as before). The noise sits in F's last column."""
    return random_decision(F, rng, seat, bot.POLICY, F.shape[1] - 1)


@jit(runtime=False)
def load_strategy(F, presets, row, seat):
    """Seat's preset weights into F[1 + seat]; its noise (the row's last column) into F's
    last column, which nothing else writes."""
    copy_prefix(F, 1 + seat, presets, row, presets.shape[1])
    F[1 + seat, F.shape[1] - 1] = presets[row, presets.shape[1] - 1]


@jit(inline="always", runtime=False)
def gain_silver(T, log, seat, amount, reason):
    T[SEAT0 + seat, S.SILVER] += amount
    log_event(T, log, seat, EV.SILVER, amount, reason, T[SEAT0 + seat, S.SILVER])


# --------------------------------------------------------------------------- cards
@jit(runtime=False)
def draw_ship(T, rng, log, deck):
    """The top card of a ship deck (its health); an empty deck is refilled from its
    shuffled discards (Deep Water, Trade Route). -1 when both are empty."""
    if T[ST, S.DECK_N0 + deck] == 0:
        n = T[ST, S.DISC_N0 + deck]
        if n == 0:
            return NONE
        for i in range(n):
            T[DECK0 + deck, i] = T[DISC0 + deck, i]
        T[ST, S.DISC_N0 + deck] = 0
        T[ST, S.DECK_N0 + deck] = n
        shuffle(rng, CHANCE, T[DECK0 + deck], n)
        log_event(T, log, -1, EV.RESHUFFLE, deck, n, 0)
    T[ST, S.DECK_N0 + deck] -= 1
    return T[DECK0 + deck, T[ST, S.DECK_N0 + deck]]


@jit(inline="always", runtime=False)
def discard_ship(T, deck, health):
    T[DISC0 + deck, T[ST, S.DISC_N0 + deck]] = health
    T[ST, S.DISC_N0 + deck] += 1


@jit(runtime=False)
def pay_ships(T, log, seat, n, reason):
    """Hand in n ship cards to their decks' discards (A8: Deep Water first, weakest first;
    the cards are alike to their holder, this only fixes where they go)."""
    paid = np.int64(0)
    for deck in range(2):
        for h in range(MAX_HEALTH):
            col = S.SHIP0 + deck * MAX_HEALTH + h
            while paid < n and T[SEAT0 + seat, col] > 0:
                T[SEAT0 + seat, col] -= 1
                discard_ship(T, deck, h)
                paid += 1
    log_event(T, log, seat, EV.SHIPS_PAID, paid, reason, 0)


@jit(runtime=False)
def drop_good(P, T, K, F, rng, log, seat):
    """Return one Trade card of the seat's choice to its supply (over capacity)."""
    held = bot.goods_held(T, seat)
    if held == 0:
        return
    if plays_random(F, rng, seat):  # a card of the hand, each as likely
        g = pick_weighted(T[SEAT0 + seat, S.GOODS0:S.GOODS0 + S.N_GOODS], rng, seat)
    else:
        g = bot.good_to_drop(T, K, seat, bot.target_trade(T, K, seat, P.open_quest_spaces, capacity(P, T, seat)))
    T[SEAT0 + seat, S.GOODS0 + g] -= 1
    T[ST, S.PILE0 + g] += 1
    log_event(T, log, seat, EV.GOOD, g, -1, EV.R_DISCARD)


@jit(runtime=False)
def fit_hold(P, T, K, F, rng, log, seat):
    """Discard Trade cards over capacity at once, of the holder's choice (Reference)."""
    while bot.goods_held(T, seat) > capacity(P, T, seat):
        drop_good(P, T, K, F, rng, log, seat)


@jit(runtime=False)
def gain_good(P, T, K, F, rng, log, seat, g, reason):
    """Take one Trade card of good g from its supply (none left: nothing, A9)."""
    if T[ST, S.PILE0 + g] == 0:
        return
    T[ST, S.PILE0 + g] -= 1
    T[SEAT0 + seat, S.GOODS0 + g] += 1
    log_event(T, log, seat, EV.GOOD, g, 1, reason)
    fit_hold(P, T, K, F, rng, log, seat)


@jit(runtime=False)
def choose_good(P, T, K, F, rng, seat):
    """A Trade card 'of your choice' among the goods with cards left (-1 if none)."""
    options = np.int64(0)
    for g in range(S.N_GOODS):
        if T[ST, S.PILE0 + g] > 0:
            options |= option(g)
    if options == 0:
        return NONE
    if not plays_random(F, rng, seat):
        want = bot.good_wanted(T, K, seat, bot.target_trade(T, K, seat, P.open_quest_spaces, capacity(P, T, seat)))
        if want >= 0 and offers(options, want):
            return want
    return pick_option(options, rng, seat)


# --------------------------------------------------------------------------- supplies
@jit(runtime=False)
def run_out(P, T, K, F, rng, log, seat):
    """Running Out of Supplies: all five penalties (A12, A13)."""
    me = SEAT0 + seat
    T[me, S.RAN_OUT] += 1
    log_event(T, log, seat, EV.RAN_OUT, T[me, S.RAN_OUT], 0, 0)
    # 1. one upgrade of the player's choice
    owned = np.int64(0)
    for u in range(S.N_UPGRADES):
        if T[me, S.UPG0 + u] > 0:
            owned |= option(u)
    if owned != 0:
        if plays_random(F, rng, seat):
            lose = pick_option(owned, rng, seat)
        else:
            lose = bot.upgrade_to_lose(T, F[1 + seat], seat)
        T[me, S.UPG0 + lose] -= 1
        log_event(T, log, seat, EV.UPGRADE, lose, -1, 0)
        fit_hold(P, T, K, F, rng, log, seat)
    # 2. half the silver, rounded down
    gain_silver(T, log, seat, -(T[me, S.SILVER] // 2), np.int64(EV.R_RUN_OUT))
    # 3. pieces to different Supply Port tiles
    n_sp = K[META, S.N_SUPPLY_TILES]
    for k in range(S.PIECES):
        T[POS, 2 * seat + k] = K[S.SUPPLY_TILES, k % n_sp]
    # 4. three Supply
    T[me, S.SUPPLY] += P.run_out_supply
    log_event(T, log, seat, EV.SUPPLY, P.run_out_supply, EV.R_RUN_OUT, T[me, S.SUPPLY])
    # 5. half movement next turn
    T[me, S.HALF_MOVE] = 1
    if seat == T[ST, S.ACTIVE]:
        T[ST, S.STOPPED] = 1  # no further actions this turn (Ship Card Combat; A12)


@jit(runtime=False)
def lose_supply(P, T, K, F, rng, log, seat, n, reason):
    """Lose n Supply; losing more than the seat holds is Running Out (SS-144)."""
    me = SEAT0 + seat
    if n > T[me, S.SUPPLY]:
        paid = T[me, S.SUPPLY]
        T[me, S.SUPPLY] = 0
        log_event(T, log, seat, EV.SUPPLY, -paid, reason, 0)
        run_out(P, T, K, F, rng, log, seat)
        return True
    T[me, S.SUPPLY] -= n
    log_event(T, log, seat, EV.SUPPLY, -n, reason, T[me, S.SUPPLY])
    return False


# --------------------------------------------------------------------------- combat
@jit(runtime=False)
def ship_combat(P, T, K, F, rng, log, seat, deck):
    """Ship Card Combat against the top card of a ship deck."""
    health = draw_ship(T, rng, log, deck)
    if health < 0:
        return
    me = SEAT0 + seat
    total = d6(rng) + T[me, S.UPG0 + S.CANNON]
    log_event(T, log, seat, EV.SHIP_FIGHT, deck, health, total)
    if total >= health:
        T[me, S.SHIP0 + deck * MAX_HEALTH + health] += 1
        T[me, S.SHIP_WINS] += 1
        log_event(T, log, seat, EV.SHIP_WON, deck, health, 0)
        if deck == S.DW:
            gain_silver(T, log, seat, P.deep_water_silver, np.int64(EV.R_FIGHT))
        else:
            # the rulebook pays two ways (SS-X1, A1): trade_route_reward picks the reading
            silver = np.int64(S.TR_SILVER[P.trade_route_reward])
            cards = S.TR_CARDS[P.trade_route_reward]
            gain_silver(T, log, seat, silver, np.int64(EV.R_FIGHT))
            for _ in range(cards):
                g = choose_good(P, T, K, F, rng, seat)
                if g >= 0:
                    gain_good(P, T, K, F, rng, log, seat, g, np.int64(EV.R_FIGHT))
    else:
        discard_ship(T, deck, health)
        lose_supply(P, T, K, F, rng, log, seat, health - total, np.int64(EV.R_FIGHT))


@jit(runtime=False)
def steal(P, T, K, F, rng, log, thief, victim):
    """Take one card at random from the victim's hand (ship and Trade cards; Reference)."""
    total = bot.ships_held(T, victim) + bot.goods_held(T, victim)
    if total == 0:
        return
    k = randint(rng, CHANCE, total)
    for col in range(S.GOODS0, S.SHIP0 + 2 * MAX_HEALTH):
        have = T[SEAT0 + victim, col]
        if k < have:
            T[SEAT0 + victim, col] -= 1
            T[SEAT0 + thief, col] += 1
            log_event(T, log, thief, EV.STEAL, victim, col - S.GOODS0, 0)
            if col < S.SHIP0:
                fit_hold(P, T, K, F, rng, log, thief)
            return
        k -= have


@jit(runtime=False)
def player_combat(P, T, K, F, rng, log, attacker, tile):
    """Player Combat on a non-port tile (A10, A11): the attacker picks one rival there."""
    rivals = np.int64(0)
    for s in range(T[ST, S.PLAYERS]):
        if s != attacker and (T[POS, 2 * s] == tile or T[POS, 2 * s + 1] == tile):
            rivals |= option(s)
    if rivals == 0:
        return
    if plays_random(F, rng, attacker):
        defender = pick_option(rivals, rng, attacker)  # each rival there as likely (A15)
    else:
        defender = bot.rival_to_attack(T, rivals)
    att = d6(rng) + T[SEAT0 + attacker, S.UPG0 + S.CANNON]
    log_event(T, log, attacker, EV.ATTACK, defender, att, tile)
    cannons = T[SEAT0 + defender, S.UPG0 + S.CANNON]
    oars = T[SEAT0 + defender, S.UPG0 + S.OAR]
    if plays_random(F, rng, defender):  # fight (0) or flee (1): both legal
        flee = decide(rng, defender, np.int64(2)) == 1
    else:
        flee = bot.flee_better(att, cannons, oars)
    winner = NONE
    loser = NONE
    if flee:
        total = d6(rng) + oars
        if total < att:
            winner, loser = attacker, defender
    else:
        total = d6(rng) + cannons
        if total < att:
            winner, loser = attacker, defender
        elif total > att:
            winner, loser = defender, attacker
    log_event(T, log, defender, EV.DEFEND, np.int64(1) if flee else ZERO, total, winner)
    defender_out = False
    if winner >= 0:
        T[SEAT0 + winner, S.PLAYER_WINS] += 1
        ran = lose_supply(P, T, K, F, rng, log, loser, abs(att - total), np.int64(EV.R_COMBAT))
        defender_out = ran and loser == defender
        steal(P, T, K, F, rng, log, winner, loser)
    if not defender_out:
        retreat(T, K, F, rng, log, defender, tile)


@jit(runtime=False)
def retreat(T, K, F, rng, log, seat, tile):
    """After combat the defender may move its piece on `tile` to an adjacent tile (A10)."""
    piece = np.int64(0) if T[POS, 2 * seat] == tile else np.int64(1)
    n = K[S.N_NBR, tile]
    if plays_random(F, rng, seat):  # every neighbour, or staying (alternative n): all legal
        k = decide(rng, seat, n + 1)
        to = tile if k == n else K[S.NBR0 + k, tile]
    else:
        to = bot.shelter(K, tile)
    if to != tile:
        T[POS, 2 * seat + piece] = to
        log_event(T, log, seat, EV.RETREAT, piece, tile, to)


# --------------------------------------------------------------------------- quests
@jit(runtime=False)
def refill(T, log, kind, slot):
    """Replace a taken open quest with the top card of its deck (empty space if none, A9)."""
    n = T[ST, S.QDECK_N0 + kind]
    card = NONE
    if n > 0:
        card = T[QDECK0 + kind, n - 1]
        T[ST, S.QDECK_N0 + kind] = n - 1
    T[ST, S.OPEN0 + kind * S.MAX_OPEN + slot] = card
    log_event(T, log, -1, EV.OPEN, kind, slot, card)


@jit(runtime=False)
def quest_reward(P, T, log, seat, kind, card, vp):
    """VP and as much silver (Pirate Ports; Dig Up Treasure); the end check (Objective)."""
    me = SEAT0 + seat
    T[me, S.VP] += vp
    T[me, S.DONE0 + kind] += 1
    log_event(T, log, seat, EV.QUEST, kind, card, T[me, S.VP])
    gain_silver(T, log, seat, vp, np.int64(EV.R_QUEST if kind < 2 else EV.R_DIG))
    if T[ST, S.END_REASON] < 0 and T[me, S.VP] >= P.vp_to_win:
        T[ST, S.END_REASON] = S.END_VP
        log_event(T, log, seat, EV.END_TRIGGER, T[me, S.VP], 0, 0)


@jit(runtime=False)
def complete_plunder(P, T, K, log, seat, slot):
    card = T[ST, S.OPEN0 + slot]
    pay_ships(T, log, seat, K[QCOST0, card], np.int64(EV.R_QUEST))
    refill(T, log, ZERO, slot)
    quest_reward(P, T, log, seat, ZERO, card, K[QVP0 + S.PLUNDER, card])


@jit(runtime=False)
def complete_trade(P, T, K, log, seat, slot):
    card = T[ST, S.OPEN0 + S.MAX_OPEN + slot]
    for g in range(S.N_GOODS):
        c = K[QCOST0 + g, TRADE_COL0 + card]
        T[SEAT0 + seat, S.GOODS0 + g] -= c
        T[ST, S.PILE0 + g] += c
        for _ in range(c):
            log_event(T, log, seat, EV.GOOD, g, -1, EV.R_QUEST)
    refill(T, log, ONE, slot)
    quest_reward(P, T, log, seat, ONE, card, K[QVP0 + S.TRADEQ, card])


@jit(runtime=False)
def buy_map(P, T, log, seat):
    """Buy the top Treasure Quest, unseen (A6)."""
    n = T[ST, S.QDECK_N0 + S.TREASURE]
    card = T[QDECK0 + S.TREASURE, n - 1]
    T[ST, S.QDECK_N0 + S.TREASURE] = n - 1
    gain_silver(T, log, seat, -P.treasure_price, np.int64(EV.R_BUY))
    T[MAPS0 + seat, T[SEAT0 + seat, S.N_MAPS]] = card
    T[SEAT0 + seat, S.N_MAPS] += 1
    log_event(T, log, seat, EV.MAP_BOUGHT, card, 0, 0)


@jit(runtime=False)
def dig(P, T, K, log, seat, tile):
    """Dig Up Treasure for every owned map naming `tile` (A6: in addition to the tile's action)."""
    i = 0
    while i < T[SEAT0 + seat, S.N_MAPS]:
        card = T[MAPS0 + seat, i]
        if K[QTILE, card] == tile:
            last = T[SEAT0 + seat, S.N_MAPS] - 1
            T[MAPS0 + seat, i] = T[MAPS0 + seat, last]
            T[SEAT0 + seat, S.N_MAPS] = last
            quest_reward(P, T, log, seat, np.int64(S.TREASURE), card, K[QVP0 + S.TREASURE, card])
        else:
            i += 1


# --------------------------------------------------------------------------- ports
@jit(runtime=False)
def supply_port(P, T, K, F, rng, log, seat):
    """Buy any number of Supply for silver or ship cards (Supply Port)."""
    me = SEAT0 + seat
    if plays_random(F, rng, seat):
        for _ in range(40):  # the random seat: stop, or one more purchase (A15)
            options = option(STOP)
            if T[me, S.SILVER] >= P.supply_price:
                options |= option(BY_SILVER)
            if bot.ships_held(T, seat) > 0:
                options |= option(BY_SHIP)
            k = pick_option(options, rng, seat)
            if k == STOP:
                return
            if k == BY_SILVER:
                gain_silver(T, log, seat, -P.supply_price, np.int64(EV.R_BUY))
            else:
                pay_ships(T, log, seat, ONE, np.int64(EV.R_BUY))
            T[me, S.SUPPLY] += 1
            log_event(T, log, seat, EV.SUPPLY, ONE, EV.R_BUY, T[me, S.SUPPLY])
        return
    w = F[1 + seat]
    target = w[bot.W_SAFE] + 3
    spare_ships = bot.ships_held(T, seat) - (bot.min_plunder_cost(T, K, P.open_quest_spaces) + 1
                                             if w[bot.W_PLUNDER] >= 1.0 else 0)
    while T[me, S.SUPPLY] < target:
        if spare_ships > 0:
            pay_ships(T, log, seat, ONE, np.int64(EV.R_BUY))
            spare_ships -= 1
        elif T[me, S.SILVER] >= P.supply_price:
            gain_silver(T, log, seat, -P.supply_price, np.int64(EV.R_BUY))
        elif bot.ships_held(T, seat) > 0 and T[me, S.SUPPLY] < 3:
            pay_ships(T, log, seat, ONE, np.int64(EV.R_BUY))
        else:
            return
        T[me, S.SUPPLY] += 1
        log_event(T, log, seat, EV.SUPPLY, ONE, EV.R_BUY, T[me, S.SUPPLY])


@jit(runtime=False)
def buy_good(P, T, log, seat, g):
    gain_silver(T, log, seat, -P.trade_price, np.int64(EV.R_BUY))
    T[ST, S.PILE0 + g] -= 1
    T[SEAT0 + seat, S.GOODS0 + g] += 1
    log_event(T, log, seat, EV.GOOD, g, ONE, EV.R_BUY)


@jit(runtime=False)
def sell_good(P, T, log, seat, g):
    T[ST, S.PILE0 + g] += 1
    T[SEAT0 + seat, S.GOODS0 + g] -= 1
    log_event(T, log, seat, EV.GOOD, g, NONE, EV.R_SELL)
    gain_silver(T, log, seat, P.trade_price, np.int64(EV.R_SELL))


@jit(runtime=False)
def trade_port(P, T, K, F, rng, buf, log, seat):
    """Buy and sell Trade cards at the trade price (Trade Port); buying stops at the hold."""
    me = SEAT0 + seat
    cap = capacity(P, T, seat)
    if plays_random(F, rng, seat):
        opts = buf[CAND]
        for _ in range(40):  # the random seat: stop, or one more purchase or sale (A15)
            n = np.int64(1)
            opts[0] = -1
            for g in range(S.N_GOODS):
                if T[me, S.SILVER] >= P.trade_price and T[ST, S.PILE0 + g] > 0 and bot.goods_held(T, seat) < cap:
                    opts[n] = g
                    n += 1
                if T[me, S.GOODS0 + g] > 0:
                    opts[n] = S.N_GOODS + g
                    n += 1
            k = opts[decide(rng, seat, n)]
            if k < 0:
                return
            if k < S.N_GOODS:
                buy_good(P, T, log, seat, k)
            else:
                sell_good(P, T, log, seat, k - S.N_GOODS)
        return
    target = bot.target_trade(T, K, seat, P.open_quest_spaces, cap)
    # sell what the target quest does not need, then buy what it lacks
    for g in range(S.N_GOODS):
        need = K[QCOST0 + g, TRADE_COL0 + target] if target >= 0 else ZERO
        while T[me, S.GOODS0 + g] > need:
            sell_good(P, T, log, seat, np.int64(g))
    if target < 0:
        return
    for g in range(S.N_GOODS):
        while (T[me, S.GOODS0 + g] < K[QCOST0 + g, TRADE_COL0 + target] and T[me, S.SILVER] >= P.trade_price
               and T[ST, S.PILE0 + g] > 0 and bot.goods_held(T, seat) < cap):
            buy_good(P, T, log, seat, np.int64(g))


@jit(runtime=False)
def upgrade_port(P, T, K, F, rng, log, seat):
    """Buy one upgrade token (Upgrade Port)."""
    me = SEAT0 + seat
    if plays_random(F, rng, seat):
        options = option(STOP)  # buy none, or upgrade u as alternative 1 + u
        for u in range(S.N_UPGRADES):
            if can_buy_upgrade(P, T, seat, u, ZERO):
                options |= option(1 + u)
        choice = pick_option(options, rng, seat) - 1
    else:
        reserve = max(ZERO, np.int64(F[1 + seat, bot.W_SAFE]) - T[me, S.SUPPLY])
        choice = bot.upgrade_choice(P, T, F[1 + seat], seat, reserve)
    if choice < 0:
        return
    gain_silver(T, log, seat, -price_of(P, choice), np.int64(EV.R_BUY))
    T[me, S.UPG0 + choice] += 1
    log_event(T, log, seat, EV.UPGRADE, choice, ONE, 0)


@jit(runtime=False)
def pirate_port(P, T, K, F, rng, buf, log, seat):
    """Any number of: buy a Treasure Quest, complete an open Plunder or Trade Quest (Pirate
    Ports; A14: each open quest may be taken, one after another)."""
    me = SEAT0 + seat
    open_n = P.open_quest_spaces
    at_random = plays_random(F, rng, seat)
    if P.player_trade == 1 and not at_random:
        buy_ships_from_rivals(P, T, K, F, log, seat)
    if at_random:
        opts = buf[CAND]
        for _ in range(40):  # the random seat: stop, or one more transaction (A15)
            n = np.int64(1)
            opts[0] = -1
            ships = bot.ships_held(T, seat)
            for j in range(open_n):
                q = T[ST, S.OPEN0 + j]
                if q >= 0 and K[QCOST0, q] <= ships:
                    opts[n] = j
                    n += 1
                q = T[ST, S.OPEN0 + S.MAX_OPEN + j]
                if q >= 0 and bot.trade_missing(T, K, seat, q) == 0:
                    opts[n] = S.MAX_OPEN + j
                    n += 1
            if T[me, S.SILVER] >= P.treasure_price and T[ST, S.QDECK_N0 + S.TREASURE] > 0:
                opts[n] = 2 * S.MAX_OPEN
                n += 1
            k = opts[decide(rng, seat, n)]
            if k < 0:
                return
            if k < S.MAX_OPEN:
                complete_plunder(P, T, K, log, seat, k)
            elif k < 2 * S.MAX_OPEN:
                complete_trade(P, T, K, log, seat, k - S.MAX_OPEN)
            else:
                buy_map(P, T, log, seat)
        return
    w = F[1 + seat]
    while True:
        slot, _ = bot.best_plunder(T, K, seat, open_n)
        if slot < 0:
            break
        complete_plunder(P, T, K, log, seat, slot)
    while True:
        slot, _ = bot.best_trade(T, K, seat, open_n)
        if slot < 0:
            break
        complete_trade(P, T, K, log, seat, slot)
    reserve = max(ZERO, np.int64(w[bot.W_SAFE]) - T[me, S.SUPPLY])
    while (T[me, S.SILVER] >= P.treasure_price + reserve and T[me, S.N_MAPS] < w[bot.W_MAPS]
           and T[ST, S.QDECK_N0 + S.TREASURE] > 0):
        buy_map(P, T, log, seat)


@jit(runtime=False)
def buy_ships_from_rivals(P, T, K, F, log, seat):
    """player_trade = sell_surplus (A17): a heuristic seat one or two ship cards short of
    an open Plunder Quest offers 2 silver a card to each rival in turn; a rival sells
    cards beyond what its own cheapest open Plunder Quest needs. Both read only their own
    hands and the open quests."""
    open_n = P.open_quest_spaces
    need = bot.min_plunder_cost(T, K, open_n)
    short = need - bot.ships_held(T, seat)
    if short <= 0 or short > 2:
        return
    for j in range(1, T[ST, S.PLAYERS]):
        other = (seat + j) % T[ST, S.PLAYERS]
        spare = bot.ships_held(T, other) - (need if F[1 + other, bot.W_PLUNDER] >= 1.0 else 0)
        n = min(short, spare, T[SEAT0 + seat, S.SILVER] // 2)
        if n <= 0:
            continue
        for _ in range(n):
            for col in range(S.SHIP0, S.SHIP0 + 2 * MAX_HEALTH):
                if T[SEAT0 + other, col] > 0:
                    T[SEAT0 + other, col] -= 1
                    T[SEAT0 + seat, col] += 1
                    break
        gain_silver(T, log, seat, -2 * n, np.int64(EV.R_TRADE))
        gain_silver(T, log, other, 2 * n, np.int64(EV.R_TRADE))
        log_event(T, log, seat, EV.TRADE, other, n, 2 * n)
        short -= n
        if short <= 0:
            return


# --------------------------------------------------------------------------- the turn
@jit(inline="always", runtime=False)
def legal_end(T, K, piece, budget_left, u):
    """Piece may end on u: at least one step, within the budget, off both start tiles."""
    return ends_legally(K[S.DIST0 + T[START, piece], u], budget_left, u, T[START, piece], T[START, 1 - piece])


@jit(inline="always", runtime=False)
def ends_legally(d, budget_left, u, own_start, partner_start):
    """legal_end for a piece d steps from its start, the start tiles given: a scan over the tiles
    reads them once, where legal_end's reads of T would be repeated (the scan's stores into F and
    buf could, for all the compiler knows, change T)."""
    return 1 <= d <= budget_left and u != own_start and u != partner_start


@jit(inline="always", runtime=False)
def port_group(K, u, piece):
    """Pieces at two tiles of one port type share one visit (A5), water tiles and (with
    upgrade_port_visits = per_piece) the Upgrade Port never do: the group of tile u for a
    piece, as components.compile_arrays tabled it for the game's rules."""
    return K[S.GROUP0 + piece, u]


@jit(runtime=False)
def choose_moves(P, T, K, F, rng, buf, seat, budget):
    """Both pieces' end tiles (Movement): returns a * MAX_TILES + b, or -1 if none is legal.
    Piece 0 costs dist(start0, a), piece 1 dist(start1, b); together at most the budget."""
    if plays_random(F, rng, seat):
        return random_moves(T, K, rng, buf, seat, budget)
    return heuristic_moves(P, T, K, F, buf, seat, budget)


@jit(runtime=False)
def random_moves(T, K, rng, buf, seat, budget):
    """A legal pair of end tiles, uniformly (-1 if none). The pairs are too many to list: the
    legal ends (legal_end, the heuristic's test too) are counted by distance and the k-th pair
    walked to."""
    n = K[META, S.N_TILES]
    dmax = min(budget, np.int64(S.MAX_DIST - 1))
    # uniform over legal pairs: count piece 1's legal tiles within each distance
    cnt = buf[LEVEL_T1]
    for d in range(dmax + 1):
        cnt[d] = 0
    for u in range(n):
        if legal_end(T, K, ONE, dmax - 1, u):
            cnt[K[S.DIST0 + T[START, 1], u]] += 1
    for d in range(1, dmax + 1):
        cnt[d] += cnt[d - 1]
    total = np.int64(0)
    for a in range(n):
        if legal_end(T, K, ZERO, dmax - 1, a):
            total += cnt[min(dmax, budget - K[S.DIST0 + T[START, 0], a])]
    if total == 0:
        return NONE
    k = decide(rng, seat, total)
    for a in range(n):
        if legal_end(T, K, ZERO, dmax - 1, a):
            left = min(dmax, budget - K[S.DIST0 + T[START, 0], a])
            c = cnt[left]
            if k < c:
                for b in range(n):
                    if legal_end(T, K, ONE, left, b):
                        if k == 0:
                            return a * S.MAX_TILES + b
                        k -= 1
            k -= c
    return NONE


@jit(runtime=False)
def heuristic_moves(P, T, K, F, buf, seat, budget):
    """The policy's pair of end tiles by the sum of its tile values (F[0]): for each end tile of
    piece 0, piece 1 goes to its best tile in reach, or, when that one shares piece 0's port
    group (one visit, A5), to the best tile of another group if that pays more. The best pair
    when no value is negative; with negative values a second piece in the shared group, worth
    nothing more, is not looked for (tests/games/set_sail/test_bot_moves.py)."""
    n = K[META, S.N_TILES]
    dmax = min(budget, np.int64(S.MAX_DIST - 1))
    v = F[0]
    bot.tile_values(P, T, K, F[1 + seat], seat, v)
    # best and second-best (another port group) value for piece 1 within each distance
    t1 = buf[LEVEL_T1]
    t2 = buf[LEVEL_T2]
    for d in range(dmax + 1):
        F[0, LEVEL_V1 + d] = NO_BEST
        F[0, LEVEL_V2 + d] = NO_BEST
        t1[d] = -1
        t2[d] = -1
    start0 = T[START, 0]
    start1 = T[START, 1]
    dist0 = K[S.DIST0 + start0]
    dist1 = K[S.DIST0 + start1]
    for u in range(n):
        d = dist1[u]
        if ends_legally(d, dmax - 1, u, start1, start0):  # piece 1
            insert_level(K, F, t1, t2, d, u, v[u])
    for d in range(1, dmax + 1):  # prefix: within distance d
        if t1[d - 1] >= 0:
            insert_level(K, F, t1, t2, d, t1[d - 1], F[0, LEVEL_V1 + d - 1])
        if t2[d - 1] >= 0:
            insert_level(K, F, t1, t2, d, t2[d - 1], F[0, LEVEL_V2 + d - 1])
    best = NO_BEST
    pick = NONE
    for a in range(n):
        da = dist0[a]
        if not ends_legally(da, dmax - 1, a, start0, start1):  # piece 0
            continue
        left = min(dmax, budget - da)
        b = t1[left]
        if b < 0:
            continue
        if port_group(K, a, ZERO) != port_group(K, b, ONE):
            val = v[a] + F[0, LEVEL_V1 + left]
            cand = b
        else:  # a shared port visit counts once: pair with the best of another group
            val = max(v[a], F[0, LEVEL_V1 + left])
            cand = b
            if t2[left] >= 0 and v[a] + F[0, LEVEL_V2 + left] > val:
                val = v[a] + F[0, LEVEL_V2 + left]
                cand = t2[left]
        if val > best:
            best = val
            pick = a * S.MAX_TILES + cand
    return pick


@jit(inline="always", runtime=False)
def insert_level(K, F, t1, t2, d, u, val):
    """Keep at level d the best tile and the best tile of another port group (piece 1)."""
    if t1[d] < 0 or val > F[0, LEVEL_V1 + d]:
        if t1[d] >= 0 and port_group(K, t1[d], ONE) != port_group(K, u, ONE):
            t2[d] = t1[d]
            F[0, LEVEL_V2 + d] = F[0, LEVEL_V1 + d]
        t1[d] = u
        F[0, LEVEL_V1 + d] = val
    elif port_group(K, u, ONE) != port_group(K, t1[d], ONE) and (t2[d] < 0 or val > F[0, LEVEL_V2 + d]):
        t2[d] = u
        F[0, LEVEL_V2 + d] = val


@jit(runtime=False)
def tile_action(P, T, K, F, rng, buf, log, seat, piece):
    """Player combat, the tile's action, then digging, for one piece (A4, A5, A6, A10)."""
    if T[ST, S.STOPPED] == 1:
        return
    tile = T[POS, 2 * seat + piece]
    ty = K[S.TILE_TYPE, tile]
    if ty < S.FIRST_PORT:
        player_combat(P, T, K, F, rng, log, seat, tile)
        if T[ST, S.STOPPED] == 1:
            return
    if ty == S.SHALLOW:
        gain_silver(T, log, seat, P.fish_silver, np.int64(EV.R_FISH))
    elif ty == S.DEEP:
        ship_combat(P, T, K, F, rng, log, seat, np.int64(S.DW))
    elif ty == S.ROUTE:
        ship_combat(P, T, K, F, rng, log, seat, np.int64(S.TR))
    elif T[ST, S.PORT_USED] & (1 << ty) == 0 or (ty == S.UPGRADE_PORT and P.upgrade_port_visits == 1):
        # one visit per port type a turn (A5); upgrade_port_visits = per_piece gives every
        # piece at the Upgrade Port its own purchase
        T[ST, S.PORT_USED] |= 1 << ty
        if ty == S.SUPPLY_PORT:
            supply_port(P, T, K, F, rng, log, seat)
        elif ty == S.TRADE_PORT:
            trade_port(P, T, K, F, rng, buf, log, seat)
        elif ty == S.UPGRADE_PORT:
            upgrade_port(P, T, K, F, rng, log, seat)
        else:
            pirate_port(P, T, K, F, rng, buf, log, seat)
    if T[ST, S.STOPPED] == 0:
        dig(P, T, K, log, seat, tile)


@jit(runtime=False)
def take_turn(P, T, K, F, rng, buf, log, seat):
    """Movement, Action, End of Turn."""
    budget = begin_turn(P, T, log, seat)
    pick = choose_moves(P, T, K, F, rng, buf, seat, budget)
    finish_turn(P, T, K, F, rng, buf, log, seat, pick)


@jit(runtime=False)
def begin_turn(P, T, log, seat):
    """The turn's movement budget (Movement; Oar Upgrade; Running Out 5); start tiles noted."""
    me = SEAT0 + seat
    T[ST, S.ACTIVE] = seat
    T[ST, S.STOPPED] = 0
    T[ST, S.PORT_USED] = 0
    budget = P.movement + P.oar_movement * T[me, S.UPG0 + S.OAR]
    if T[me, S.HALF_MOVE] == 1:  # Running Out of Supplies 5
        budget = budget // 2
        T[me, S.HALF_MOVE] = 0
    log_event(T, log, seat, EV.TURN, T[ST, S.TURNS] + 1, budget, 0)
    for k in range(S.PIECES):
        T[START, k] = T[POS, 2 * seat + k]
    return budget


@jit(runtime=False)
def finish_turn(P, T, K, F, rng, buf, log, seat, pick):
    """Move to the chosen pair of tiles, act on both, End of Turn."""
    if pick >= 0:  # no legal pair (a tiny budget): the pieces stay (A18)
        for k in range(S.PIECES):
            to = pick // S.MAX_TILES if k == 0 else pick % S.MAX_TILES
            log_event(T, log, seat, EV.MOVE, k, T[POS, 2 * seat + k], to)
            T[POS, 2 * seat + k] = to
    for k in range(S.PIECES):
        tile_action(P, T, K, F, rng, buf, log, seat, k)
    end_of_turn(P, T, K, F, rng, log, seat)
    T[ST, S.TURNS] += 1


@jit(runtime=False)
def end_of_turn(P, T, K, F, rng, log, seat):
    """End of Turn: the Supply loss, also in a turn in which the player ran out unless
    loss_after_running_out is off (SS-X20, SS-G19, A12)."""
    if T[ST, S.STOPPED] == 0 or P.loss_after_running_out:
        lose_supply(P, T, K, F, rng, log, seat, P.supply_loss, np.int64(EV.R_END))


# --------------------------------------------------------------------------- set-up
@jit(runtime=False)
def setup_game(P, T, K, F, rng, buf, log, players):
    """Setup - Cards & Tokens 1-7 and Setup - Players 1-3 (A3, A20, A21)."""
    n_log = T[ST, S.LOG_N]  # the log runs on across the games of a chunk
    T[:, :] = 0
    T[ST, S.LOG_N] = n_log
    T[ST, S.END_REASON] = -1
    T[ST, S.PLAYERS] = players
    for d in range(2):
        n = K[META, S.N_DW + d]
        for i in range(n):
            T[DECK0 + d, i] = K[S.SHIPS0 + d, i]
        T[ST, S.DECK_N0 + d] = n
        shuffle(rng, CHANCE, T[DECK0 + d], n)
    if players <= 2:
        trim = P.quest_trim_2p
    elif players == 3:
        trim = P.quest_trim_3p
    elif players == 4:
        trim = P.quest_trim_4p
    elif players == 5:
        trim = P.quest_trim_5p
    else:
        trim = P.quest_trim_6p
    for kind in range(3):
        deck = T[QDECK0 + kind]
        n = K[META, S.NQ0 + kind]
        for i in range(n):
            deck[i] = i
        shuffle(rng, CHANCE, deck, n)
        opened = np.int64(0)
        if kind < 2:
            # Setup 2 (A3): each open space gets a 4-VP card, dealt from the shuffled deck:
            # the first 4-VP cards from the top go face up, the rest of the deck keeps its order
            j = n - 1
            while j >= 0 and opened < P.open_quest_spaces:
                card = deck[j]
                if K[QVP0 + kind, card] == 4:
                    T[ST, S.OPEN0 + kind * S.MAX_OPEN + opened] = card
                    log_event(T, log, -1, EV.OPEN, kind, opened, card)
                    opened += 1
                    for i in range(j, n - 1):
                        deck[i] = deck[i + 1]
                    n -= 1
                j -= 1
            for j in range(opened, S.MAX_OPEN):
                T[ST, S.OPEN0 + kind * S.MAX_OPEN + j] = -1
        # Setup 4: cards removed from the top, after the open quests are laid out; the
        # Treasure Quest deck too unless trim_treasure_deck is off (SS-X17, A24)
        removed = min(trim, n) if kind < 2 or P.trim_treasure_deck else ZERO
        T[ST, S.QDECK_N0 + kind] = n - removed
        T[ST, S.QREMOVED0 + kind] = removed
        log_event(T, log, -1, EV.TRIM, kind, removed, 0)
    for g in range(S.N_GOODS):
        T[ST, S.PILE0 + g] = K[META, S.GOODS_N]
    n_sp = K[META, S.N_SUPPLY_TILES]
    # starting silver by seat: a designer knob whose default is the rulebook's 3 each
    starting_silver = (P.starting_silver_1, P.starting_silver_2, P.starting_silver_3, P.starting_silver_4,
                       P.starting_silver_5, P.starting_silver_6)
    for s in range(players):
        T[SEAT0 + s, S.SUPPLY] = P.start_supply
        T[SEAT0 + s, S.SILVER] = starting_silver[s]
        for k in range(S.PIECES):  # both pieces on Supply Port tiles, one per tile (A3)
            T[POS, 2 * s + k] = K[S.SUPPLY_TILES, k % n_sp]


# --------------------------------------------------------------------------- the game
@jit(runtime=False)
def record_round(T, arc):
    """The game arc after a round: each seat's VP, which is its score if the game ended now
    (Objective: final scoring adds nothing to the VP; silver only breaks ties)."""
    r = T[ST, S.ROUND]
    if r <= arc.shape[0]:
        for s in range(T[ST, S.PLAYERS]):
            arc[r - 1, s] = T[SEAT0 + s, S.VP]


@jit(runtime=False)
def final_scoring(P, T, K, F, rng, buf, log, out_seats_g):
    """Most VP wins; a tie goes to the most silver; a tie that survives is shared (A19)."""
    players = T[ST, S.PLAYERS]
    keys = buf[LEVEL_T1:CAND]  # keys[k, s]: VP, then silver (rank_by)
    for s in range(players):
        me = SEAT0 + s
        keys[0, s] = T[me, S.VP]
        keys[1, s] = T[me, S.SILVER]
        out_seats_g[s, G.SCORE] = T[me, S.VP]
        out_seats_g[s, S.M_VP] = T[me, S.VP]
        out_seats_g[s, S.M_SILVER] = T[me, S.SILVER]
        out_seats_g[s, S.M_UPGRADES] = T[me, S.UPG0] + T[me, S.UPG0 + 1] + T[me, S.UPG0 + 2]
        out_seats_g[s, S.M_SHIP_WINS] = T[me, S.SHIP_WINS]
        out_seats_g[s, S.M_PLAYER_WINS] = T[me, S.PLAYER_WINS]
        out_seats_g[s, S.M_RAN_OUT] = T[me, S.RAN_OUT]
    for s in range(players):
        rank = rank_by(keys, players, s)
        out_seats_g[s, G.RANK] = rank
        win = 1 if rank == 1 and T[ST, S.END_REASON] != S.END_ROUND_CAP else 0
        out_seats_g[s, G.WINNER] = win
        log_event(T, log, s, EV.SCORE, T[SEAT0 + s, S.VP], rank, win)
