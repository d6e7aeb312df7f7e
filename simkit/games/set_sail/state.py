"""Integer codes and state-table layout shared by the Set Sail engine and its bots.

The engine keeps a game in three tables (docs/performance.md: "a handful of 2-D tables with named
column constants"): T (int64 state), K (int64 static components) and F (float64 bot
weights and scratch scores). Each constant below names a row or column and its encoding.
"""

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS, Metric, metric_columns, table_fits
from simkit.core.jit import jit

# --- tile types (The Board; board.txt letters in components.TILE_LETTERS)
SHALLOW, DEEP, ROUTE, SUPPLY_PORT, TRADE_PORT, UPGRADE_PORT, PIRATE_PORT = 0, 1, 2, 3, 4, 5, 6
N_TYPES = 7
TYPE_NAMES = ("shallow water", "deep water", "trade route", "Supply Port", "Trade Port", "Upgrade Port",
              "Pirate Port")
FIRST_PORT = SUPPLY_PORT  # types >= FIRST_PORT are ports: no player combat there

# --- trade goods (Components): banana, sugar cane, tobacco
N_GOODS = 3
GOOD_NAMES = ("banana", "sugar cane", "tobacco")
# --- upgrades (Upgrade Port)
BARREL, OAR, CANNON = 0, 1, 2
N_UPGRADES = 3
UPGRADE_NAMES = ("barrel", "oar", "cannon")
# --- ship decks
DW, TR = 0, 1  # Deep Water, Trade Route
MAX_HEALTH = 8  # ship card health 0..7
# a Trade Route win's pay by trade_route_reward (A1; rules.py): route_section, combat_section
TR_SILVER = (2, 3)  # silver
TR_CARDS = (2, 1)  # Trade cards
# --- quest kinds
PLUNDER, TRADEQ, TREASURE = 0, 1, 2
QUEST_NAMES = ("plunder", "trade", "treasure")
MAX_OPEN = 4  # open quest spaces per kind (SS-G2: at most four 4-VP cards of a kind)

MAX_PLAYERS = 6
PIECES = 2  # pieces per player (Objective)
MAX_TILES = 96
MAX_DIST = 64  # distances are clamped below this (unreachable = MAX_DIST - 1)

# --- ST row: game scalars
ROUND = 0
TURNS = 1
ACTIVE = 2
END_REASON = 3  # -1 until the end is triggered
PLAYERS = 4
LOG_N = 5  # event-log rows written (runs on across the games of a chunk)
DECK_N0 = 6  # 2 slots: cards left in the Deep Water / Trade Route deck (top = last)
DISC_N0 = 8  # 2 slots: cards in each ship deck's discard pile
QDECK_N0 = 10  # 3 slots: cards left in each quest deck (top = last)
QREMOVED0 = 13  # 3 slots: quest cards removed at set-up (Setup 4)
PILE0 = 16  # 3 slots: Trade cards left in each good's supply
OPEN0 = 19  # MAX_OPEN slots per kind (plunder, trade): open quest card ids, -1 = empty space
STOPPED = OPEN0 + 2 * MAX_OPEN  # 1 once the active player ran out this turn: no further actions
PORT_USED = STOPPED + 1  # bit mask of port types whose action the active player took this turn
ST_SIZE = PORT_USED + 1

END_VP, END_ROUND_CAP = 0, 1
END_REASONS = ("vp_threshold", "round_cap")

# --- seat columns (row SEAT0 + s)
VP = 0
SILVER = 1  # money in silver (a gold coin is 5 silver; SS-052)
SUPPLY = 2
UPG0 = 3  # 3 slots: barrel, oar, cannon tokens
GOODS0 = 6  # 3 slots: Trade cards in hand by good
SHIP0 = 9  # 2 * MAX_HEALTH slots: ship cards in hand by (deck, health): SHIP0 + deck * MAX_HEALTH + health
HALF_MOVE = SHIP0 + 2 * MAX_HEALTH  # 1: ran out; half movement on the next turn
N_MAPS = HALF_MOVE + 1  # undug treasure maps held (ids in row MAPS0 + s)
DONE0 = N_MAPS + 1  # 3 slots: quests completed by kind (treasure: dug up)
SHIP_WINS = DONE0 + 3
PLAYER_WINS = SHIP_WINS + 1
RAN_OUT = PLAYER_WINS + 1
SEAT_COLS = RAN_OUT + 1

# --- T rows
ST = 0
POS = 1  # column 2 s + k: tile of seat s's piece k
START = 2  # column k: tile piece k of the active player started the turn on
DECK0 = 3  # 2 rows: ship decks (card health values), top = DECK_N - 1
DISC0 = 5  # 2 rows: ship discard piles
QDECK0 = 7  # 3 rows: quest decks (card ids), top = QDECK_N - 1
SEAT0 = 10
MAPS0 = SEAT0 + MAX_PLAYERS  # row MAPS0 + s: ids of seat s's undug treasure maps
T_ROWS = MAPS0 + MAX_PLAYERS
T_WIDTH = 64
table_fits("T", T_WIDTH, st=ST_SIZE, seat=SEAT_COLS, pieces=PIECES * MAX_PLAYERS)

# --- K: static tables, one int64 array of width KW (read-only in the engine)
TRADE_COL0 = 64  # trade quest i's cost of good g: K[QCOST0 + g, TRADE_COL0 + i]
KW = max(MAX_TILES, TRADE_COL0 + 64)
META = 0  # columns below
N_TILES, N_SUPPLY_TILES, N_DW, N_TR = 0, 1, 2, 3
NQ0 = 4  # 3 slots: quest cards per kind
GOODS_N = 7  # Trade cards of each good in the box
TILE_TYPE = 1  # column t: type of tile t
NBR0 = 2  # 4 rows: neighbour k of tile t at [NBR0 + k, t] (-1 none)
N_NBR = 6  # row: neighbour count per tile
SUPPLY_TILES = 7  # columns: the Supply Port's tiles
SHIPS0 = 8  # 2 rows: the ship decks' card healths as printed (set-up order)
QVP0 = 10  # 3 rows: quest card VP by kind, column = card id
QCOST0 = 13  # 3 rows: plunder quest i's ship cards at [QCOST0, i]; trade quest i's cost of
#              good g at [QCOST0 + g, TRADE_COL0 + i]
QTILE = 16  # column i: the tile treasure map i names
NEAREST0 = 17  # N_TYPES rows: distance from tile t to the nearest tile of each type
DIST0 = NEAREST0 + N_TYPES  # row DIST0 + a, column b: water steps between tiles a and b
GROUP0 = DIST0 + MAX_TILES  # 2 rows: the port group of tile t for piece 0 and piece 1 (engine.port_group)
HEALTHS0 = GROUP0 + 2  # 2 rows: cards of each health (column) in each ship deck as printed (the bots' fight odds)
K_ROWS = HEALTHS0 + 2


# --- the rules both the engine and the bots read, written once


@jit(inline="always", runtime=False)
def capacity(P, T, seat):
    """Trade cards a seat may hold (Trade Port; Barrel Upgrade)."""
    return P.hand_limit + P.barrel_capacity * T[SEAT0 + seat, UPG0 + BARREL]


@jit(inline="always", runtime=False)
def price_of(P, u):
    """The silver an upgrade token of kind u costs (Upgrade Port)."""
    if u == BARREL:
        return P.barrel_price
    if u == OAR:
        return P.oar_price
    return P.cannon_price


@jit(inline="always", runtime=False)
def can_buy_upgrade(P, T, seat, u, reserve):
    """The seat may buy a token of kind u at the Upgrade Port, keeping `reserve` silver: it holds
    fewer than the cap of that kind and can pay its price."""
    return T[SEAT0 + seat, UPG0 + u] < P.upgrade_cap and T[SEAT0 + seat, SILVER] >= price_of(P, u) + reserve


# --- the result columns: the game's metrics (simkit.core.game: out_games from GAME_COLUMNS,
# out_seats from SEAT_COLUMNS) and the column the engine writes each to, checked against the
# declaration at import (metric_columns)
GAME_METRICS = (Metric("quests_left", "quest cards left in the three quest decks at the end"),)
(GM_QUESTS_LEFT,) = metric_columns(GAME_METRICS, GAME_COLUMNS, "quests_left")
SEAT_METRICS = (
    Metric("vp", "victory points"),
    Metric("silver", "silver at the end (gold counted as 5)"),
    Metric("upgrades", "upgrade tokens held at the end"),
    Metric("ship_combats_won", "ship card combats won"),
    Metric("player_combats_won", "player combats won (attacking or defending)"),
    Metric("ran_out", "times the seat ran out of supplies"),
)
(M_VP, M_SILVER, M_UPGRADES, M_SHIP_WINS, M_PLAYER_WINS, M_RAN_OUT) = metric_columns(
    SEAT_METRICS, SEAT_COLUMNS, "vp silver upgrades ship_combats_won player_combats_won ran_out")
