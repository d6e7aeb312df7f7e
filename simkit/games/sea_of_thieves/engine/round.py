"""Set-up and the round: the Fleets phase (each player's turn: A respawn, B actions, C rising
waters, D clean up), the Ocean Hazards phase (engine/hazards.py), the Event phase
(engine/events.py) and the Fortune phase; the end at win_reputation, finishing the round
(Playing the Game)."""

import numpy as np

from simkit.core.jit import jit
from simkit.core.kernels import decide, option, pick_option
from simkit.core.rng import CHANCE, randint
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import hexes
from simkit.games.sea_of_thieves.engine.actions import take_action
from simkit.games.sea_of_thieves.engine.cargo import draw, draw_kind, to_bag, to_hex, to_hold
from simkit.games.sea_of_thieves.engine.common import (
    begin_action,
    deck_draw,
    end_action,
    log_event,
    plays_random,
    shuffle_row,
)
from simkit.games.sea_of_thieves.engine.crew import discard_fortune, respawn, rising_waters
from simkit.games.sea_of_thieves.engine.events import event_phase
from simkit.games.sea_of_thieves.engine.hazards import ocean_hazards_phase
from simkit.games.sea_of_thieves.engine.voyages import abandon_voyage, discard_voyage
from simkit.games.sea_of_thieves.state import SEAT0, SHIP0, ST
from strategies import sea_of_thieves as bot

ZERO = np.int64(0)
ONE = np.int64(1)
F_WIDTH = 32
ABANDON_TURN = 1  # abandon_window = turn (rules.py)


# ------------------------------------------------------------------ set-up
@jit(runtime=False)
def build_board(P, T, K, rng, log):
    """The hub and the sea tiles: the first-game layout, or the tiles shuffled into the used
    positions with a random side up (Setting Up: The Game Board; A2). Skeleton tokens go on the
    skeleton symbols and random treasure on the treasure symbols (Bags and Tokens)."""
    for i in range(6):
        T[S.SCRATCH, i] = i
    shuffle_row(T, rng, CHANCE, np.int64(S.SCRATCH), np.int64(6))
    T[S.LAYOUT, 0] = K[S.META, S.FIRST_LAYOUT0]
    j = 0
    for p in range(1, 7):
        if K[S.META, S.POSITION_USED0 + p] == 0:
            T[S.LAYOUT, p] = -1
        elif P.first_game_layout:
            T[S.LAYOUT, p] = K[S.META, S.FIRST_LAYOUT0 + p]
        else:
            T[S.LAYOUT, p] = 2 * T[S.SCRATCH, j] + randint(rng, CHANCE, np.int64(2))
            j += 1
    for sym in range(S.N_SYMBOLS):
        T[S.SYMBOL_HEX, sym] = -1
    skeleton = K[S.META, S.N_LOOT] + K[S.META, S.N_TREASURE]  # the first skeleton token's id
    for p in range(7):
        f = T[S.LAYOUT, p]
        if p > 0:
            log_event(T, log, np.int64(-1), EV.LAYOUT, np.int64(p), f, ZERO)
        for i in range(S.TILE_HEXES):
            h = p * S.TILE_HEXES + i
            T[S.HEX_SYMBOL, h] = -1
            if f < 0:
                T[S.HEX_TYPE, h] = S.ABSENT
                continue
            c = f * S.TILE_HEXES + i
            T[S.HEX_TYPE, h] = K[S.FACE_TYPE, c]
            if K[S.FACE_TYPE, c] == S.ISLAND:
                T[S.ISLANDS, T[ST, S.N_ISLANDS]] = h
                T[ST, S.N_ISLANDS] += 1
            T[S.HEX_SYMBOL, h] = K[S.FACE_SYMBOL, c]
            T[S.HEX_WAYPOINT, h] = K[S.FACE_WAYPOINT, c]
            if K[S.FACE_SYMBOL, c] >= 0:
                T[S.SYMBOL_HEX, K[S.FACE_SYMBOL, c]] = h
            if K[S.FACE_SKELETON, c] == 1 and skeleton < K[S.META, S.FIRST_CAPTAIN]:
                T[S.TOK_LOC, skeleton] = S.IN_BOX
                to_hex(T, K, skeleton, h)
                skeleton += 1
            if K[S.FACE_TREASURE, c] == 1:
                t = draw(T, rng, np.int64(S.TREASURE_BAG))
                if t >= 0:
                    to_hex(T, K, t, h)
    return skeleton


@jit(runtime=False)
def fill_bags(P, T, K):
    """Every loot and treasure token into its bag (skeletons follow the board: build_board)."""
    T[ST, S.LOOT_N] = 0
    T[ST, S.TREASURE_N] = 0
    for t in range(K[S.META, S.N_LOOT] + K[S.META, S.N_TREASURE]):
        T[S.TOK_LOC, t] = S.IN_BOX
        to_bag(T, K, t)
    for t in range(K[S.META, S.N_LOOT] + K[S.META, S.N_TREASURE], K[S.META, S.N_TOKENS]):
        T[S.TOK_LOC, t] = S.IN_BOX


@jit(runtime=False)
def deal_decks(P, T, K, rng):
    """Shuffle the fortune, special crew and voyage decks; three special crew face up; in a
    two-player game the voyages naming a symbol not on the board leave the game (Voyage Decks)."""
    n = K[S.META, S.N_FORTUNE_CARDS]
    for i in range(n):
        T[S.FORTUNE_DECK, i] = i
    shuffle_row(T, rng, CHANCE, np.int64(S.FORTUNE_DECK), n)
    T[ST, S.FORTUNE_HEAD] = 0
    T[ST, S.FORTUNE_N] = n
    n = K[S.META, S.N_CREW_CARDS]
    for i in range(n):
        T[S.CREW_DECK, i] = i
    shuffle_row(T, rng, CHANCE, np.int64(S.CREW_DECK), n)
    T[ST, S.CREW_HEAD] = 0
    T[ST, S.CREW_N] = n
    for slot in range(3):
        T[S.MARKET, slot] = -1
    for slot in range(P.market_size):
        T[S.MARKET, slot] = deck_draw(T, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, np.int64(S.MAX_CREW_CARDS))
    for tier in range(3):
        m = 0
        for v in range(K[S.META, S.N_VOYAGE_CARDS]):
            if K[S.V_TIER, v] != tier:
                continue
            if T[ST, S.TWO_PLAYER] == 1:
                if K[S.V_SYM, v] >= 0 and T[S.SYMBOL_HEX, K[S.V_SYM, v]] < 0:
                    continue
                if K[S.V_SYM2, v] >= 0 and T[S.SYMBOL_HEX, K[S.V_SYM2, v]] < 0:
                    continue
            T[S.VOY_DECK0 + tier, m] = v
            m += 1
        shuffle_row(T, rng, CHANCE, S.VOY_DECK0 + tier, np.int64(m))
        T[ST, S.VOY_HEAD0 + 2 * tier] = 0
        T[ST, S.VOY_N0 + 2 * tier] = m


@jit(runtime=False)
def setup_hazards(P, T, K, rng):
    """The event deck shuffled face down; every enemy card beside the board with nothing on it, the
    Kraken's tentacle tokens beside its card (Monster Setup); the beginner game boxes the
    Megalodon, the Kraken and the forts (Setting Up). Captains wait in their pool."""
    n = K[S.META, S.N_EVENTS]
    for i in range(n):
        T[S.EVENT_DECK, i] = i
    shuffle_row(T, rng, CHANCE, np.int64(S.EVENT_DECK), n)
    T[ST, S.EVENT_HEAD] = 0
    T[ST, S.EVENT_N] = n
    for i in range(S.MAX_EVENTS):
        T[S.KEPT_BY, i] = -1
    for e in range(S.N_ENEMIES):
        T[S.ENEMY0 + e, S.E_HEX] = -1
        T[S.ENEMY0 + e, S.E_STATE] = S.E_OFF
        T[S.ENEMY0 + e, S.E_TARGET] = -1
        T[S.ENEMY0 + e, S.E_LAST_HIT] = -1
        for i in range(5):
            T[S.ENEMY0 + e, S.E_SLOT0 + i] = -1
        if P.beginner and (e == S.MEGALODON or e == S.KRAKEN or e == S.FORT):
            T[S.ENEMY0 + e, S.E_STATE] = S.E_BOXED


@jit(runtime=False)
def draw_fortune(T, seat, n):
    got = 0
    for _ in range(n):
        c = deck_draw(T, S.FORTUNE_DECK, S.FORTUNE_HEAD, S.FORTUNE_N, np.int64(S.MAX_FORTUNE))
        if c < 0:
            break
        T[S.FHAND0 + seat, T[SEAT0 + seat, S.FORT_N]] = c
        T[SEAT0 + seat, S.FORT_N] += 1
        got += 1
    return got


@jit(runtime=False)
def place_fleet(P, T, K, F, rng, log, seat):
    """Both ships on one hub island hex holding no other player's ships (Final Setup). The bots
    take the free hub island nearest their voyages' islands."""
    options = np.int64(0)  # the hub tile's island hexes (its first) without ships
    for h in range(S.TILE_HEXES):
        if T[S.HEX_TYPE, h] == S.ISLAND and T[S.HEX_STANDEES, h] == 0:
            options |= option(h)
    if plays_random(F, rng, seat):
        best = pick_option(options, rng, seat)
    else:
        best = bot.hub_hex(T, K, seat, options)
    if best < 0:  # more players than hub islands: share the emptiest (not with 2-4 players)
        best = bot.OUTPOST_HEX
    for k in range(2 * seat, 2 * seat + 2):
        hexes.set_ship_hex(T, k, best)
        log_event(T, log, seat, EV.PLACE, k, best, ZERO)


@jit(runtime=False)
def setup_game(P, T, K, F, rng, log, players):
    log_n = T[ST, S.LOG_N]
    for r in range(T.shape[0]):
        for c in range(T.shape[1]):
            T[r, c] = 0
    T[ST, S.LOG_N] = log_n
    T[ST, S.PLAYERS] = players
    T[ST, S.END_REASON] = -1
    T[ST, S.TRIGGER_SEAT] = -1
    T[ST, S.ACTIVE] = -1
    T[ST, S.TWO_PLAYER] = 1 if K[S.META, S.FIRST_LAYOUT0] == S.HUB_TWO_PLAYER else 0
    fill_bags(P, T, K)
    skeleton = build_board(P, T, K, rng, log)
    removed = P.two_player_skeletons_removed if T[ST, S.TWO_PLAYER] == 1 else 0
    for t in range(skeleton, K[S.META, S.FIRST_CAPTAIN]):  # captains stay out of the bag (Bags and Tokens)
        if removed > 0:
            T[S.TOK_LOC, t] = S.IN_BOX  # back to the game box (Bags and Tokens, two players)
            removed -= 1
        else:
            to_bag(T, K, t)
    deal_decks(P, T, K, rng)
    setup_hazards(P, T, K, rng)
    for s in range(players):
        if P.equal_gold:
            gold = P.equal_gold_amount
        elif s == 0:
            gold = P.starting_gold_1
        elif s == 1:
            gold = P.starting_gold_2
        elif s == 2:
            gold = P.starting_gold_3
        else:
            gold = P.starting_gold_4
        T[SEAT0 + s, S.GOLD] = gold
        # designer knob: reputation a seat starts with (0 in the rulebook)
        T[SEAT0 + s, S.REP] = (P.starting_reputation_1, P.starting_reputation_2, P.starting_reputation_3,
                               P.starting_reputation_4)[s]
        for k in range(2 * s, 2 * s + 2):
            T[SHIP0 + k, S.HEX] = -1
            T[SHIP0 + k, S.TYPE] = S.SLOOP
            T[SHIP0 + k, S.CREW_UP] = K[S.META, S.CREW_SLOTS0]
            T[SHIP0 + k, S.VOYAGE] = -1
            T[SHIP0 + k, S.LAST_HIT] = -1
            for i in range(S.MAX_SLOTS):
                T[SHIP0 + k, S.SPEC0 + i] = -1
            for _ in range(P.start_resources):
                t = draw_kind(T, K, np.int64(S.LOOT_BAG), np.int64(S.RESOURCE))
                if t >= 0:
                    to_hold(T, K, t, k)
        draw_fortune(T, s, P.start_fortune)
        for _ in range(P.start_voyages):
            v = deck_draw(T, S.VOY_DECK0, S.VOY_HEAD0, S.VOY_N0, np.int64(S.MAX_VOYAGES))
            if v >= 0:
                T[S.VHAND0 + s, T[SEAT0 + s, S.VOY_N]] = v
                T[SEAT0 + s, S.VOY_N] += 1
    for s in range(players):
        place_fleet(P, T, K, F, rng, log, s)


# ------------------------------------------------------------------ a turn
@jit(inline="always", runtime=False)
def ship_ready(P, T, k):
    """Whether ship k is afloat with room for another action token."""
    return T[SHIP0 + k, S.HEX] >= 0 and T[SHIP0 + k, S.ACTIONS] < P.actions_per_ship


@jit(runtime=False)
def ships_ready(P, T, seat):
    """How many of the seat's ships may still act (ship_ready)."""
    n = 0
    for k in range(2 * seat, 2 * seat + 2):
        if ship_ready(P, T, k):
            n += 1
    return n


@jit(runtime=False)
def pick_ship(P, T, K, F, rng, seat):
    """The ship that takes the next action (-1: none can)."""
    ready = np.int64(0)  # the seat's ships (2 seat + i as alternative i) that may still act
    for i in range(2):
        if ship_ready(P, T, 2 * seat + i):
            ready |= option(i)
    if ready == 0:
        return np.int64(-1)
    if plays_random(F, rng, seat):
        return 2 * seat + pick_option(ready, rng, seat)
    return bot.ship_to_act(T, seat, ready)


@jit(runtime=False)
def clean_up(P, T, K, F, rng, log, seat):
    """Step D: action tokens off; hands down to the limits (the player picks the discards); empty
    special crew slots on the Outpost refilled (Clean Up)."""
    for k in range(2 * seat, 2 * seat + 2):
        T[SHIP0 + k, S.ACTIONS] = 0
    while T[SEAT0 + seat, S.FORT_N] > P.fortune_limit:
        n = T[SEAT0 + seat, S.FORT_N]
        if plays_random(F, rng, seat):  # any card of the hand
            i = decide(rng, seat, n)
        else:
            i = bot.fortune_to_discard(T, K, seat)
        card = discard_fortune(T, seat, i)
        log_event(T, log, seat, EV.DISCARD, ZERO, card, ZERO)
    while T[SEAT0 + seat, S.VOY_N] > P.voyage_limit:
        n = T[SEAT0 + seat, S.VOY_N]
        if plays_random(F, rng, seat):  # any card of the hand
            i = decide(rng, seat, n)
        else:
            i = bot.voyage_to_discard(T, K, F, seat)
        v = T[S.VHAND0 + seat, i]
        T[S.VHAND0 + seat, i] = T[S.VHAND0 + seat, n - 1]
        T[SEAT0 + seat, S.VOY_N] = n - 1
        discard_voyage(T, K, v)
        log_event(T, log, seat, EV.DISCARD, ONE, v, ZERO)
    for slot in range(P.market_size):
        if T[S.MARKET, slot] < 0:
            T[S.MARKET, slot] = deck_draw(T, S.CREW_DECK, S.CREW_HEAD, S.CREW_N, np.int64(S.MAX_CREW_CARDS))


@jit(runtime=False)
def abandon_at_turn_end(P, T, K, F, rng, log, seat):
    """The last moment of the turn at which a voyage may be abandoned (Abandoning a Voyage:
    "at any time during your turn"; abandon_window = turn, A52): its penalty then lowers the
    reputation the Ocean Hazards, Event and Fortune phases read. The heuristics give up here a
    voyage they would give up at its ship's next action; random never abandons (A53)."""
    for k in range(2 * seat, 2 * seat + 2):
        if T[SHIP0 + k, S.VOYAGE] >= 0 and not plays_random(F, rng, seat) and bot.abandon_at_turn_end(T, K, F, k):
            abandon_voyage(P, T, K, log, k)


@jit(runtime=False)
def take_turn(P, T, K, F, rng, log, seat):
    T[ST, S.ACTIVE] = seat
    T[ST, S.TURNS] += 1
    log_event(T, log, seat, EV.TURN, T[ST, S.TURNS], T[SEAT0 + seat, S.GOLD], T[SEAT0 + seat, S.REP])
    if T[ST, S.ROUND] > 0:  # no respawn step in the first round
        respawn(P, T, K, F, rng, log, seat)
    T[SEAT0 + seat, S.ACTIONS_LEFT] = P.actions_per_turn
    while T[SEAT0 + seat, S.ACTIONS_LEFT] > 0 and ships_ready(P, T, seat) > 0:
        begin_action(F, rng, seat)  # one skill-knob coin for the whole action (A53)
        k = pick_ship(P, T, K, F, rng, seat)
        take_action(P, T, K, F, rng, log, k)
        end_action(F, seat)
    rising_waters(P, T, K, F, rng, log, seat)
    if P.abandon_window == ABANDON_TURN:
        abandon_at_turn_end(P, T, K, F, rng, log, seat)
    clean_up(P, T, K, F, rng, log, seat)
    T[ST, S.ACTIVE] = -1


# ------------------------------------------------------------------ the fortune phase
@jit(runtime=False)
def fortune_draws(T, K, seat, players):
    """1 + the fortune symbols on the track above the seat's reputation up to the leader's (A10)."""
    lead = 0
    for s in range(players):
        lead = max(lead, T[SEAT0 + s, S.REP])
    mine = T[SEAT0 + seat, S.REP]
    n = 1
    for i in range(K[S.META, S.N_SYMBOL_SPACES]):
        x = K[S.TRACK_SYMBOLS, i]
        if mine < x <= lead:
            n += 1
    return n


@jit(runtime=False)
def fortune_phase(P, T, K, F, rng, log, players):
    """Phase 4: every player draws one fortune card, plus one per symbol between them and the leader."""
    for s in range(players):
        n = fortune_draws(T, K, s, players)
        got = draw_fortune(T, s, n)
        log_event(T, log, s, EV.FORTUNE_DRAW, got, ZERO, ZERO)


@jit(runtime=False)
def end_round(P, T, K, F, rng, log, players):
    """The phases after the Fleets phase, then the round is over."""
    ocean_hazards_phase(P, T, K, F, rng, log, players)
    event_phase(P, T, K, F, rng, log, players)
    fortune_phase(P, T, K, F, rng, log, players)
    T[ST, S.ROUND] += 1

