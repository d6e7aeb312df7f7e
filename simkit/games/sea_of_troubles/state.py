"""Integer codes and state-table layout shared by the Sea of Troubles engine and its bots.

A game lives in T (int64 state), K (int64 static components) and F (float64 bot weights
and scratch scores); each constant names a row or column and its encoding. The reads both
the engine and the bots make of a seat's hand and ship are at the end.
"""

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS, Metric, metric_columns, table_fits
from simkit.core.jit import jit

# --- action card types (The Basic Pieces)
SWORD, SAIL, CANNON, WILD = 0, 1, 2, 3
TYPE_NAMES = ("Swords", "Sails", "Cannons", "Wild")
# --- quirk effects (components/quirks.toml, assumption A15)
QUIRK_EFFECTS = ("free_moves", "shoot", "board", "flee", "hand_size", "hull", "pillage", "dig",
                 "thrifty", "braggart", "gambler")
(QE_FREE_MOVES, QE_SHOOT, QE_BOARD, QE_FLEE, QE_HAND, QE_HULL, QE_PILLAGE, QE_DIG, QE_THRIFTY,
 QE_BRAGGART, QE_GAMBLER) = range(11)
# --- map squares
WATER, LAND, PORT, XSPOT = 0, 1, 2, 3
# --- readings of silences, by index (rule parameters; rules.py)
# sunk_treasure (A12): where a sunk ship's carried treasure goes: out of the game, shuffled back
# into the treasure deck, or to the pirate whose Cannons sank it
SUNK_READINGS = ("lost", "deck", "attacker")
SUNK_LOST, SUNK_DECK, SUNK_ATTACKER = 0, 1, 2
# dig_pool (A17): what a dig at a rival's X takes from: the owner's whole buried stock, or only
# the treasure buried at that X (the two differ only in Skirmish, where a pirate buries at several)
DIG_POOLS = ("owner", "x")
POOL_OWNER, POOL_X = 0, 1

MAX_PLAYERS = 5
MAX_CARDS = 128  # action cards in the box at most
MAX_TREASURES = 48
MAX_QUESTS = 32
MAX_QUIRKS = 32
MAX_SQUARES = 36 * MAX_PLAYERS
FAR = 999  # unreachable distance

# --- ST row: game scalars
ROUND = 0
TURNS = 1
ACTIVE = 2
END_REASON = 3  # -1 until triggered
PLAYERS = 4
LOG_N = 5
DECK_N = 6  # action cards in the deck (top = last)
DISC_N = 7
TDECK_N = 8  # treasure cards left in the treasure deck
DEATHS = 9
GHOST_SEAT = 10  # seat whose pirate is the Ghost (-1 none)
FIRST = 11  # seat starting the round
DIR = 12  # +1 clockwise, -1 counter-clockwise
N_PORTS = 13
N_QUESTS = 14  # quests still on the table
DELIVERED = 15  # treasures delivered out of the game
ASIDE = 16  # treasures set aside at set-up
FREE = 17  # free move points the active pirate has left this turn
GHOST_PENDING = 18  # seat that becomes the Ghost next round (-1 none)
SUNK = 19  # treasures that went down with a sunk ship (A12)
BID_ROUND = 20  # 1 while the opening bid of the bidding start is compulsory
QDECK_N = 21  # quirk cards left face down in the quirk deck (top = last)
QUP_N = 22  # quirk cards revealed and declined, face up (row QUIRK_UP)
ST_SIZE = QUP_N + 1

END_TWO_DEAD, END_QUESTS, END_PILLAGED, END_BURIED, END_ROUND_CAP = 0, 1, 2, 3, 4
END_REASONS = ("two_dead", "quests_done", "treasures_pillaged", "buried_target", "round_cap")

# --- seat columns (row SEAT0 + s)
POS = 0  # square (-1: out of the game)
INFAMY = 1  # living score's Infamy tokens
DAMAGE = 2
HAND_N = 3  # action cards in hand (ids in row HAND0 + s)
CARRY_N = 4  # carried treasures (ids in row CARRY0 + s)
BURY_N = 5  # buried treasures (ids in row BURY0 + s)
BURY_X = 6  # the X the seat buries at (-1 none yet)
STATE = 7  # ALIVE, DEAD (out), GHOST
GHOST_INFAMY = 8  # the Ghost's own score tokens
GHOST_CARRY = 9  # treasure infamy the Ghost carries (cards in CARRY0 are the Ghost's then)
DONE = 11  # bit mask: bit (2 * target + 0 board / 1 shoot) set once done this turn
DEATH_COUNT = 12
LIVING_DAMAGE = 13  # damage the living ship had when it sank
QUIRK = 14  # the player's quirk card (-1 none)
OFFERED = 15  # 1 once the player has gained Infamy (and had its quirk draw, Quirks)
HOME = 16  # the X square the ship was placed on at set-up (the Ghost returns there, A25)
SEAT_COLS = HOME + 1
ALIVE, DEAD, GHOST = 0, 1, 2

# --- T rows
ST = 0
DECK = 1  # action deck card ids
DISC = 2  # discard pile
TDECK = 3  # treasure deck ids
PORT_CLOSED = 4  # column p: rounds port p stays closed (0 open)
QUEST = 5  # column i: quest card id on the table (-1 done)
XOWNER = 6  # column x: seat buried at X x (-1 none)
PLAY = 7  # cards in play (a pillage or fight), scratch: columns 0.. attacker, 64.. defender
SEAT0 = 8
HAND0 = SEAT0 + MAX_PLAYERS
CARRY0 = HAND0 + MAX_PLAYERS
BURY0 = CARRY0 + MAX_PLAYERS
QUIRK_DECK = BURY0 + MAX_PLAYERS  # quirk ids face down
QUIRK_UP = QUIRK_DECK + 1  # quirk ids revealed and declined, face up
TASIDE = QUIRK_UP + 1  # the treasure pool's cards not added to the deck at set-up (N_POOL - N_PICK)
BURYX0 = TASIDE + 1  # row BURYX0 + s, column i: the X index seat s's buried treasure i lies at (A17)
T_ROWS = BURYX0 + MAX_PLAYERS
T_WIDTH = MAX_CARDS
table_fits("T", T_WIDTH, st=ST_SIZE, seat=SEAT_COLS, treasures=MAX_TREASURES, quests=MAX_QUESTS, quirks=MAX_QUIRKS)

# --- K: statics
META = 0
N_CARDS, N_SQ, WIDTH, HEIGHT, N_TREAS, N_Q, NPORTS, N_X = 0, 1, 2, 3, 4, 5, 6, 7
BOX_T = 8  # treasure cards in the box
N_POOL = 9  # treasure cards the random part of the deck is picked from (row TPOOL)
N_PICK = 10  # how many of them go into the deck
N_QBOX = 11  # quest cards in the quest deck
N_QUIRKS = 12  # quirk cards in the quirk deck (0: the quirks variant is off)
QUIRK_MEAN = 13  # mean worth of the quirk deck, x100 (a bot's worth of a blind draw)
CARD_TYPE = 1  # column c
CARD_VALUE = 2
TREAS_INF = 3  # column t
TREAS_WEIGHT = 4
TREAS_KIND = 5
Q_PORT = 6  # column q: port index the quest names
Q_INF = 7
SQ_KIND = 8  # column square: WATER/LAND/PORT/XSPOT
SQ_INDEX = 9  # port or X index of the square
PORT_SQ = 10  # column p
X_SQ = 11  # column x
TDECK_IDS = 12  # treasure ids always in the deck (N_TREAS of them)
TPOOL = 13  # treasure ids N_PICK of which are added at random (Getting started 2; Skirmish)
Q_KIND = 14  # column q: treasure kind the quest asks for (-1 any)
QK_EFFECT = 15  # column k: the quirk's effect (QE_*)
QK_AMOUNT = 16
QK_WORTH = 17  # a bot's liking for the quirk, x100
DIST0 = 18  # row DIST0 + a, column b: sailing steps (orthogonal, wrap, no land)
GDIST0 = DIST0 + MAX_SQUARES  # Ghost steps (through land)
SIGHT0 = GDIST0 + MAX_SQUARES  # 1 if a shot from a to b is allowed (same or 8-neighbour, clear line)
K_ROWS = SIGHT0 + MAX_SQUARES
KW = MAX_SQUARES


# --- reads of a seat's hand and ship (engine and bots)
@jit(inline="always", runtime=False)
def fits(K, card, kind):
    """A card serves as `kind`: its own type, or a Wild (The Basic Pieces)."""
    t = K[CARD_TYPE, card]
    return t == kind or t == WILD


@jit(runtime=False)
def type_total(T, K, seat, kind):
    """The value of the seat's hand cards that can serve as `kind`."""
    total = 0
    for i in range(T[SEAT0 + seat, HAND_N]):  # without branches: a hand's types come in no order
        c = T[HAND0 + seat, i]
        total += K[CARD_VALUE, c] * fits(K, c, kind)
    return total


@jit(runtime=False)
def hand_totals(T, K, seat):
    """type_total of Swords, Sails and Cannons, and the value of the Wilds, in one pass over the
    seat's hand (a Wild counts in each of the three totals too)."""
    swords = 0
    sails = 0
    cannons = 0
    wilds = 0
    for i in range(T[SEAT0 + seat, HAND_N]):  # without branches: a hand's types come in no order
        c = T[HAND0 + seat, i]
        t = K[CARD_TYPE, c]
        v = K[CARD_VALUE, c]
        wild = t == WILD
        wilds += v * wild
        swords += v * ((t == SWORD) | wild)
        sails += v * ((t == SAIL) | wild)
        cannons += v * ((t == CANNON) | wild)
    return swords, sails, cannons, wilds


@jit(runtime=False)
def buried_at(P, T, owner, x):
    """The owner's buried treasure a dig at X x can take (A17, `dig_pool`): its whole buried
    stock, or only the cards buried at x."""
    n = T[SEAT0 + owner, BURY_N]
    if P.dig_pool == POOL_OWNER:
        return n
    m = 0
    for i in range(n):
        m += T[BURYX0 + owner, i] == x
    return m


@jit(inline="always", runtime=False)
def quirk(T, K, seat, effect):
    """The amount of the seat's quirk if it has that effect, else 0 (Quirks, A15)."""
    q = T[SEAT0 + seat, QUIRK]
    if q >= 0 and K[QK_EFFECT, q] == effect:
        return K[QK_AMOUNT, q]
    return 0


@jit(inline="always", runtime=False)
def digs(P, K, card, nose):
    """A card drawn in a Dig takes treasure (Dig, A2): a card of dig_min or more that is not a
    Wild, or a Wild with `wild_digs`; in Skirmish a Wild, or with a quirk's help a card of
    5 - nose or more. A quirk's help (`nose`, quirk QE_DIG) lowers the value needed."""
    wild = K[CARD_TYPE, card] == WILD
    if P.skirmish:
        return wild or (nose > 0 and K[CARD_VALUE, card] >= 5 - nose)
    return (P.wild_digs and wild) or (not wild and K[CARD_VALUE, card] >= P.dig_min - nose)


@jit(runtime=False)
def carried_infamy(T, K, seat):
    """The Infamy of the treasure the seat carries face up."""
    total = 0
    for i in range(T[SEAT0 + seat, CARRY_N]):
        total += K[TREAS_INF, T[CARRY0 + seat, i]]
    return total


# --- the result columns: the game's metrics (simkit.core.game: out_games from GAME_COLUMNS,
# out_seats from SEAT_COLUMNS) and the column the engine writes each to, checked against the
# declaration at import (metric_columns)
GAME_METRICS = (Metric("treasures_left", "treasure cards left in the treasure deck at the end"),)
(GM_TREASURES_LEFT,) = metric_columns(GAME_METRICS, GAME_COLUMNS, "treasures_left")
SEAT_METRICS = (
    Metric("infamy", "final score: the higher of the living and the Ghost's Infamy"),
    Metric("treasure_infamy", "Infamy of the treasure carried and buried at the end"),
    Metric("buried", "Infamy of the treasure buried at the end"),
    Metric("deaths", "times the seat's ship sank"),
    Metric("ghost", "1 if the seat became the Ghost Pirate"),
)
(M_INFAMY, M_TREASURE_INFAMY, M_BURIED, M_DEATHS, M_GHOST) = metric_columns(
    SEAT_METRICS, SEAT_COLUMNS, "infamy treasure_infamy buried deaths ghost")
