"""Integer codes and the table layout shared by the Sea of Thieves engine and its bots.

A game lives in a few int64 tables (docs/performance.md: state in a few plain typed arrays):
- T: the game state; rows named below, each column's encoding in its comment;
- K: the static components compiled from components/ (board geometry, tile faces, tokens,
  cards), read-only during play;
- F: float64, row 0 scratch, row 1 + s the preset weights of seat s.
Ships are numbered 2 * seat + 0/1. Hexes are numbered by hub position (0 = hub, 1..6 = the
sea tile positions around it), then 0..18 inside the position's hexagon.
"""

import numpy as np

from simkit.core.game import SEAT_COLUMNS, Metric, metric_columns, table_fits
from simkit.core.jit import jit

MAX_PLAYERS = 4
MAX_SHIPS = 2 * MAX_PLAYERS
TILE_HEXES = 19  # a tile (and the hub) is a hexagon of radius 2 (components/hub.txt)
POSITIONS = 7  # the hub and six sea tile positions
MAX_HEX = POSITIONS * TILE_HEXES
N_FACES = 14  # 12 sea tile faces (tile t side A = 2t, side B = 2t + 1), then the hub's two faces
HUB_STANDARD, HUB_TWO_PLAYER = 12, 13
MAX_TOKENS = 128  # loot + treasure + skeleton tokens in the box
MAX_VOYAGES = 54
MAX_FORTUNE = 64
MAX_CREW_CARDS = 24
N_SYMBOLS = 12  # voyage symbols a..l
MAX_SLOTS = 4  # crew slots of a Galleon
NONE = -1

# --- hex types (Basics: Hexes)
ABSENT, SEA, ISLAND, REEF, OUTPOST = 0, 1, 2, 3, 4  # REEF: treacherous waters
HEX_CHARS = {".": SEA, "I": ISLAND, "T": REEF, "O": OUTPOST}
# --- ship types (Ships)
SLOOP, BRIGANTINE, GALLEON = 0, 1, 2
SHIP_NAMES = ("Sloop", "Brigantine", "Galleon")
# --- cargo and token kinds (Cargo; Components)
RESOURCE, GEM, CHEST, SKULL, CRATE, TRINKET, SKELETON, CAPTAIN = 0, 1, 2, 3, 4, 5, 6, 7
KIND_NAMES = ("resource", "gem", "chest", "skull", "crate", "trinket", "skeleton", "captain")
LOOT_BAG, TREASURE_BAG, CAPTAIN_POOL = 0, 1, 2  # K TOK_BAG; captains are never bagged (Bags and Tokens)
# token locations (T row TOK_LOC): a hex id (lying there face up, or a skeleton standing
# there), HOLD + ship (in that ship's hold), or one of these
IN_LOOT_BAG, IN_TREASURE_BAG, IN_BOX = -1, -2, -3
HOLD = 1000
# --- voyages (Voyages; components/voyages.csv)
MEAGRE, VALUABLE, LEGENDARY = 0, 1, 2
TIER_NAMES = ("meagre", "valuable", "legendary")
COMPANIES = ("gold_hoarders", "order_of_souls", "merchant_alliance")
TASKS = ("reach", "dig", "fight", "deliver", "sink")
V_REACH, V_DIG, V_FIGHT, V_DELIVER, V_SINK = 0, 1, 2, 3, 4
REWARDS = ("rep", "gold", "treasure")
R_REP, R_GOLD, R_TREASURE = 0, 1, 2
# --- special crew effects (components/special_crew.csv)
CREW_EFFECTS = ("helmsman", "gunner", "digger", "surgeon", "carpenter", "scout")
E_HELMSMAN, E_GUNNER, E_DIGGER, E_SURGEON, E_CARPENTER, E_SCOUT = 0, 1, 2, 3, 4, 5
# --- fortune effects (components/fortune.csv)
FORTUNE_EFFECTS = ("fair_winds", "broadside", "buried_map", "spare_planks", "bilge_pump", "rum_ration", "lucky_coin")
F_FAIR_WINDS, F_BROADSIDE, F_BURIED_MAP, F_PLANKS, F_PUMP, F_RUM, F_COIN = 0, 1, 2, 3, 4, 5, 6
SPECIAL_ACTIONS = (F_FAIR_WINDS, F_BROADSIDE, F_BURIED_MAP)
# --- actions (Fleets Phase: Actions)
A_FULL_SAIL, A_OPEN_FIRE, A_PLUNDER, A_TRADE, A_SPECIAL = 0, 1, 2, 3, 4
ACTION_NAMES = ("Full Sail", "Open Fire", "Plunder", "Trade", "special action")
# --- tasks (Tasks)
T_NONE, T_REVIVE, T_SAIL, T_REPAIR, T_BAIL = 0, 1, 2, 3, 4
TASK_NAMES = ("none", "Revive", "Sail", "Repair", "Bail")
# --- plunder entries
P_STOP, P_FIGHT, P_LOOT, P_HAUL = 0, 1, 2, 3

# --- enemies (Enemies and Ocean Hazards; components/enemies.toml): T row ENEMY0 + e
MEGALODON, KRAKEN, SKELETON_SLOOP, SKELETON_GALLEON, FORT = 0, 1, 2, 3, 4
N_ENEMIES = 5
ENEMY_NAMES = ("Megalodon", "Kraken", "Skeleton Sloop", "Skeleton Galleon", "Skeleton Fort")
ENEMY_KEYS = ("megalodon", "kraken", "skeleton_sloop", "skeleton_galleon", "skeleton_fort")
# enemy states (column E_STATE)
E_OFF, E_ON, E_DEFEATED, E_WAITING, E_BOXED = 0, 1, 2, 3, 4  # off: in reserve (submerged, sunk, not yet summoned)
# --- behaviour charts (components/behaviour.toml): node ops
Q_SHIP_HERE, Q_SHIP_WITHIN, Q_DAMAGED = 0, 1, 2  # questions (yes / no)
D_MOVE_IN, D_MOVE_TOWARD, D_ATTACK, D_GRAB, D_SUBMERGE, D_END = 3, 4, 5, 6, 7, 8  # deeds (next)
CHART_OPS = ("ship_here", "ship_within", "damaged", "move_in", "move_toward", "attack", "grab", "submerge", "end")
MAX_NODES = 48
# --- event cards (components/events.csv)
SPAWNS = ("megalodon", "kraken", "skeleton_ship", "skeleton_fort")
SP_MEGALODON, SP_KRAKEN, SP_SKELETON_SHIP, SP_FORT = 0, 1, 2, 3
HIGH_SEAS = ("flotsam", "storm", "skeleton_captain", "restless_dead", "shipwreck", "calm_seas")
H_FLOTSAM, H_STORM, H_CAPTAIN, H_RESTLESS, H_SHIPWRECK, H_CALM = 0, 1, 2, 3, 4, 5
CORNERS = ("shifting_sands", "windfall", "fortune", "lucky_charm")
C_SANDS, C_WINDFALL, C_FORTUNE, C_CHARM = 0, 1, 2, 3
MAX_EVENTS = 32
HAZARD = -2  # ship column LAST_HIT: the last damage came from an enemy or an event

END_REPUTATION, END_ROUND_CAP = 0, 1
END_REASONS = ("reputation", "round_cap")

# ================================================================== T: state rows
ST = 0  # game scalars, columns below
ROUND = 0  # rounds completed
TURNS = 1  # player turns taken
END_REASON = 2  # -1 until the end is triggered (Winning the Game)
PLAYERS = 3
LOG_N = 4  # log rows used
LOOT_N = 5  # tokens in the loot bag (ids in row LOOT_BAG_ROW)
TREASURE_N = 6  # tokens in the treasure bag
FORTUNE_HEAD = 7  # fortune deck: a ring in row FORTUNE_DECK, top at HEAD, FORTUNE_N cards
FORTUNE_N = 8
CREW_HEAD = 9  # special crew deck ring (row CREW_DECK)
CREW_N = 10
VOY_HEAD0 = 11  # voyage deck of tier t: ring in row VOY_DECK0 + t, head at VOY_HEAD0 + 2t
VOY_N0 = 12  # ... count at VOY_N0 + 2t
TWO_PLAYER = 17  # 1 if the two-player board and set-up are in use
TRIGGER_SEAT = 18  # seat whose reputation triggered the end (-1)
N_HEX_USED = 19
ACTIVE = 20  # seat whose turn it is (-1 between phases)
N_ISLANDS = 21  # island hexes on this board (ids in row ISLANDS)
EVENT_HEAD = 22  # event deck ring (row EVENT_DECK)
EVENT_N = 23
ST_SIZE = EVENT_N + 1

# --- seat columns (row SEAT0 + s)
GOLD = 0
REP = 1  # reputation, never below 0 (Reputation)
FORT_N = 2  # fortune cards in hand (ids in row FHAND0 + s)
VOY_N = 3  # voyage cards in hand (ids in row VHAND0 + s)
ACTIONS_LEFT = 4  # actions left this turn (Actions: three)
COMMISSIONS = 5  # commissions claimed
SINKINGS = 6  # times the seat's ships sank
UPGRADES = 7  # upgrades bought
VOYAGES_DONE = 8  # voyages completed
ABANDONED = 9  # voyages abandoned (sinking included)
FINAL = 10  # final score after final scoring
MONSTERS = 11  # sea monsters this seat defeated (Defeating Monsters)
FORTS = 12  # skeleton forts this seat raided
HAZARD_SINKS = 13  # this seat's ships sunk by hazards (last damage from an enemy or an event)
KEPT = 14  # Cutthroats' Corner cards kept in front of this player (ids: row KEPT_BY)
SEAT_COLS = KEPT + 1

# --- ship columns (row SHIP0 + k, k = 2 * seat + 0/1)
HEX = 0  # hex id, -1 while sunk
TYPE = 1  # SLOOP / BRIGANTINE / GALLEON
WATER = 2  # water level, 0 = lowest space; the ship sinks at the gauge's top
DAMAGE = 3  # damage points (SOT-X2: counted per point, A12)
CREW_UP = 4  # normal crew tokens face up
CREW_DOWN = 5  # normal crew tokens defeated (face down)
ACTIONS = 6  # action tokens on the ship card this turn
VOYAGE = 7  # the started voyage card id (-1 none)
PROGRESS = 8  # progress tokens on the voyage
STAGE = 9  # deliver voyages: 1 once the first island is reached
HOLD_N = 10  # cargo tokens in the hold (public: A18)
RES_N = 11  # resource tokens in the hold
SPEC0 = 12  # special crew card in slot i (12..15), -1 empty
SPEC_DOWN0 = 16  # 1 if the special crew token in slot i is defeated (16..19)
LAST_HIT = 20  # ship that last damaged this ship by Open Fire (-1; HAZARD: an enemy or event)
VOY_AGE = 21  # actions the ship has made since starting its voyage
HOLD_VALUE = 22  # gold value of the hold's cargo (kept with HOLD_N)
SHIP_COLS = HOLD_VALUE + 1

ST_ROW = 0
SEAT0 = 1
SHIP0 = SEAT0 + MAX_PLAYERS
FHAND0 = SHIP0 + MAX_SHIPS  # fortune hands
VHAND0 = FHAND0 + MAX_PLAYERS  # voyage hands
TOK_LOC = VHAND0 + MAX_PLAYERS  # column = token id: its location (see IN_* and HOLD)
LOOT_BAG_ROW = TOK_LOC + 1  # ids in the loot bag, LOOT_N of them
TREASURE_BAG_ROW = LOOT_BAG_ROW + 1
FORTUNE_DECK = TREASURE_BAG_ROW + 1  # ring of fortune card ids
CREW_DECK = FORTUNE_DECK + 1  # ring of special crew card ids
VOY_DECK0 = CREW_DECK + 1  # rings of voyage card ids, tiers 0..2
MARKET = VOY_DECK0 + 3  # columns 0..2: special crew card face up on the Outpost (-1 empty)
HEX_TYPE = MARKET + 1  # column = hex: ABSENT / SEA / ISLAND / REEF / OUTPOST this game
HEX_SYMBOL = HEX_TYPE + 1  # voyage symbol of an island (-1 none)
HEX_WAYPOINT = HEX_SYMBOL + 1  # waypoint symbol 1..3 (0 none)
HEX_STANDEES = HEX_WAYPOINT + 1  # standees in the hex (Hexes: at most two)
HEX_SKELETONS = HEX_STANDEES + 1  # skeleton tokens in the hex
HEX_CARGO = HEX_SKELETONS + 1  # cargo tokens lying face up in the hex
SYMBOL_HEX = HEX_CARGO + 1  # column = voyage symbol: its island's hex this game (-1 not on the board)
LAYOUT = SYMBOL_HEX + 1  # column = hub position 1..6: tile face there (-1 no tile); column 0: hub face
ISLANDS = LAYOUT + 1  # columns 0..N_ISLANDS-1: the island hexes of this board
DICE = ISLANDS + 1  # scratch: the faces of the current crew roll
SCRATCH = DICE + 1  # scratch: candidate lists
ENEMY0 = SCRATCH + 1  # rows ENEMY0 + e: one enemy card and standee, columns below
EVENT_DECK = ENEMY0 + N_ENEMIES  # ring of event card ids
KEPT_BY = EVENT_DECK + 1  # column = event card: seat it lies in front of (-1)
TOK_SIDE = KEPT_BY + 1  # column = token: captains 0 skeleton captain face / 1 captain's treasure face
HEX_CAPTAINS = TOK_SIDE + 1  # column = hex: skeleton captains standing there (also in HEX_SKELETONS)
T_ROWS = HEX_CAPTAINS + 1
# --- enemy columns (row ENEMY0 + e)
E_HEX = 0  # hex of its standee (-1 off the board)
E_STATE = 1  # E_OFF / E_ON / E_DEFEATED / E_WAITING / E_BOXED
E_DAMAGE = 2  # damage tokens on its card
E_WOUNDS = 3  # the Kraken: times its card held three damage tokens
E_TENTACLES = 4  # the Kraken: tentacle tokens on its card
E_PROGRESS = 5  # the fort: slot of the progress token on its track
E_SLOT0 = 6  # 6..10: skeleton ships: the treasure token in each slot (-1)
E_LAST_HIT = 11  # ship that last damaged it
E_TARGET = 12  # ship it has chosen this turn (-1)
E_COLS = E_TARGET + 1
T_WIDTH = 160

# Columns a game can use in each T row: the lookahead copies, keeps and compares only these
# (lookahead.py copy_state), about a third of the table. Scratch rows are whole.
ROW_WIDTH = np.full(T_ROWS, T_WIDTH, dtype=np.int64)
ROW_WIDTH[ST] = ST_SIZE
ROW_WIDTH[SEAT0: SEAT0 + MAX_PLAYERS] = SEAT_COLS
ROW_WIDTH[SHIP0: SHIP0 + MAX_SHIPS] = SHIP_COLS
ROW_WIDTH[FHAND0: FHAND0 + MAX_PLAYERS] = MAX_FORTUNE
ROW_WIDTH[VHAND0: VHAND0 + MAX_PLAYERS] = MAX_VOYAGES
ROW_WIDTH[[TOK_LOC, LOOT_BAG_ROW, TREASURE_BAG_ROW, TOK_SIDE]] = MAX_TOKENS
ROW_WIDTH[FORTUNE_DECK] = MAX_FORTUNE
ROW_WIDTH[CREW_DECK] = MAX_CREW_CARDS
ROW_WIDTH[VOY_DECK0: VOY_DECK0 + 3] = MAX_VOYAGES
ROW_WIDTH[MARKET] = 3
ROW_WIDTH[HEX_TYPE: HEX_CARGO + 1] = MAX_HEX
ROW_WIDTH[HEX_CAPTAINS] = MAX_HEX
ROW_WIDTH[SYMBOL_HEX] = N_SYMBOLS
ROW_WIDTH[LAYOUT] = POSITIONS
ROW_WIDTH[ISLANDS] = MAX_HEX
ROW_WIDTH[ENEMY0: ENEMY0 + N_ENEMIES] = E_COLS
ROW_WIDTH[[EVENT_DECK, KEPT_BY]] = MAX_EVENTS
# the board's rows, set up once per game (round.build_board) and never written in play: the
# lookahead's kept copies of one position skip them (lookahead.keep, restore and same)
BOARD_ROWS = np.array((HEX_TYPE, HEX_SYMBOL, HEX_WAYPOINT, SYMBOL_HEX, LAYOUT, ISLANDS), dtype=np.int64)
PLAY_WIDTH = ROW_WIDTH.copy()
PLAY_WIDTH[BOARD_ROWS] = 0
table_fits("T", T_WIDTH, rows=int(ROW_WIDTH.max()))

# ================================================================== K: static rows
META = 0  # columns below
N_TOKENS = 0
N_LOOT = 1  # loot-bag tokens (resources and other loot)
N_TREASURE = 2
N_SKELETONS = 3
N_VOYAGE_CARDS = 4
N_FORTUNE_CARDS = 5
N_CREW_CARDS = 6
TRACK_LENGTH = 7
N_SYMBOL_SPACES = 8  # fortune symbols on the track
GAUGE0 = 9  # 9..11: water gauge by ship type
CREW_SLOTS0 = 12  # 12..14: crew slots by ship type
SHIP_REP0 = 15  # 15..17: reputation value by ship type
FIRST_LAYOUT0 = 18  # 18..24: face at each position in the first-game layout (-1 none)
POSITION_USED0 = 25  # 25..31: 1 if the position holds a tile on this board
TOK_KIND = 1  # column = token id
TOK_VALUE = 2
TOK_BAG = 3  # LOOT_BAG / TREASURE_BAG (skeletons: LOOT_BAG)
V_TIER = 4  # column = voyage card
V_COMPANY = 5
V_TASK = 6
V_SYM = 7  # symbol index or -1
V_SYM2 = 8
V_TARGET = 9
V_PRICE = 10
V_REWARD = 11
V_AMOUNT = 12
V_PENALTY = 13
C_EFFECT = 14  # column = special crew card
C_AMOUNT = 15
C_COST = 16
C_REP = 17
C_COMPANY = 18
FO_EFFECT = 19  # column = fortune card
FO_AMOUNT = 20
TRACK_SYMBOLS = 21  # columns 0..: track spaces with a fortune symbol
FACE_TYPE = 22  # column = face * 19 + local hex: hex type on that face
FACE_SYMBOL = 23  # voyage symbol (-1)
FACE_WAYPOINT = 24  # 1..3 (0)
FACE_SKELETON = 25  # 1 if a skeleton symbol
FACE_TREASURE = 26  # 1 if a treasure symbol
HEX_POSITION = 27  # column = hex: hub position 0..6
NEXT0 = 28  # rows 28..33: neighbour of the hex in direction d (-1 off the board)
DIST0 = NEXT0 + 6  # row DIST0 + a, column b: hexes between a and b on this board
TOK_REP = DIST0 + MAX_HEX  # column = token: reputation on a captain's treasure face
EN_ORDER = TOK_REP + 1  # column = enemy: number on its reference card (turn order)
EN_DAMAGE = EN_ORDER + 1  # damage it suffers before it is defeated (sunk); Megalodon: MEG_DAMAGE
EN_ATTACK = EN_DAMAGE + 1  # dice of its attack
EN_SLOTS = EN_ATTACK + 1  # treasure slots (skeleton ships)
EN_REP = EN_SLOTS + 1  # reputation for defeating it / raiding it
EN_CHART = EN_REP + 1  # first node of its behaviour chart (-1: none, the fort)
MEG_DAMAGE = EN_CHART + 1  # column = players: the Megalodon's damage before defeat
FORT_TRACK = MEG_DAMAGE + 1  # column = players: the fort card's starting slot
CH_OP = FORT_TRACK + 1  # column = chart node
CH_ARG = CH_OP + 1
CH_YES = CH_ARG + 1  # next node if yes (deeds: the next node)
CH_NO = CH_YES + 1
EVT_SPAWN = CH_NO + 1  # column = event card
EVT_SPAWN_ARG = EVT_SPAWN + 1  # waypoint (megalodon, skeleton ship), kraken symbols, fort island symbol
EVT_HIGH = EVT_SPAWN_ARG + 1
EVT_HIGH_ARG = EVT_HIGH + 1
EVT_CORNER = EVT_HIGH_ARG + 1
EVT_CORNER_ARG = EVT_CORNER + 1
K_ROWS = EVT_CORNER_ARG + 1
# META columns of part 2
N_EVENTS = 32
N_CAPTAINS = 33
KRAKEN_TENTACLES = 34  # tentacles on the card that bring the Kraken up
KRAKEN_WOUND = 35  # damage tokens on the Kraken card that wound it (three)
KRAKEN_WOUNDS = 36  # wounds that defeat it
FORT_WAVE = 37  # skeletons the fort raises at a time
FORT_TREASURE = 38  # treasure tokens a raided fort leaves
FIRST_CAPTAIN = 39  # token id of the first captain
FIRST_SKELETON = 40  # token id of the first skeleton (FIRST_CAPTAIN: none); every skeleton lies before the captains
KW = 272


# ================================================================== reads (engine and bots)
@jit(inline="always", runtime=False)
def upgrade_cost(P, T, k):
    """The gold ship k's next upgrade costs: a sloop to a brigantine, a brigantine to a galleon."""
    t = T[SHIP0 + k, TYPE]
    return P.brigantine_cost if t == SLOOP else P.galleon_cost


@jit(runtime=False)
def may_upgrade(P, T, k):
    """Ship k can be upgraded: not yet a galleon, and a brigantine only while its owner has fewer
    galleons than galleons_per_player."""
    t = T[SHIP0 + k, TYPE]
    if t == GALLEON:
        return False
    if t == BRIGANTINE:
        s = k // 2
        galleons = 0
        for j in range(2 * s, 2 * s + 2):
            if T[SHIP0 + j, TYPE] == GALLEON:
                galleons += 1
        return galleons < P.galleons_per_player
    return True


@jit(inline="always", runtime=False)
def seat_of(k):
    return k // 2


@jit(inline="always", runtime=False)
def gauge(T, K, k):
    """Water gauge height of ship k's card (components/ships.toml)."""
    return K[META, GAUGE0 + T[SHIP0 + k, TYPE]]


@jit(inline="always", runtime=False)
def slots(T, K, k):
    return K[META, CREW_SLOTS0 + T[SHIP0 + k, TYPE]]


@jit(inline="always", runtime=False)
def crew_dice(T, k):
    """Dice of a crew roll: one per face-up crew and special crew token (Crew Rolls)."""
    n = T[SHIP0 + k, CREW_UP]
    for i in range(MAX_SLOTS):
        if T[SHIP0 + k, SPEC0 + i] >= 0 and T[SHIP0 + k, SPEC_DOWN0 + i] == 0:
            n += 1
    return n


@jit(inline="always", runtime=False)
def special_amount(T, K, k, effect):
    """Sum of `amount` over face-up special crew of this effect on ship k (duplicates stack)."""
    total = 0
    for i in range(MAX_SLOTS):
        c = T[SHIP0 + k, SPEC0 + i]
        if c >= 0 and T[SHIP0 + k, SPEC_DOWN0 + i] == 0 and K[C_EFFECT, c] == effect:
            total += K[C_AMOUNT, c]
    return total


@jit(inline="always", runtime=False)
def defeated(T, k):
    """Defeated crew and special crew tokens on ship k."""
    n = T[SHIP0 + k, CREW_DOWN]
    for i in range(MAX_SLOTS):
        if T[SHIP0 + k, SPEC0 + i] >= 0 and T[SHIP0 + k, SPEC_DOWN0 + i] == 1:
            n += 1
    return n


@jit(inline="always", runtime=False)
def dist(K, a, b):
    return K[DIST0 + a, b]


@jit(runtime=False)
def ship_in_hex(T, h, seat, own):
    """A ship in hex h belonging (own=1) or not belonging (own=0) to seat; -1 if none."""
    for k in range(2 * T[ST, PLAYERS]):
        if T[SHIP0 + k, HEX] == h and ((k // 2 == seat) == (own == 1)):
            return k
    return -1


@jit(inline="always", runtime=False)
def hold_value(T, K, k):
    """Gold value of the cargo in ship k's hold (resources count 0 under A7)."""
    return T[SHIP0 + k, HOLD_VALUE]


@jit(inline="always", runtime=False)
def is_skeleton(T, K, t):
    """A skeleton token, or a skeleton captain still on its skeleton face (Skeleton Captains:
    treated like normal skeletons until defeated, then captain's treasure, a cargo)."""
    kind = K[TOK_KIND, t]
    return kind == SKELETON or (kind == CAPTAIN and T[TOK_SIDE, t] == 0)


@jit(inline="always", runtime=False)
def enemy_here(T, h, with_fort):
    """The first enemy standee in hex h (the fort only if with_fort), -1 if none."""
    for e in range(N_ENEMIES):
        if T[ENEMY0 + e, E_STATE] == E_ON and T[ENEMY0 + e, E_HEX] == h and (with_fort or e != FORT):
            return e
    return -1


# --- the result columns: the game's metrics (simkit.core.game: out_games from GAME_COLUMNS,
# out_seats from SEAT_COLUMNS) and the column the engine writes each to, checked against the
# declaration at import (metric_columns)
GAME_METRICS = ()
SEAT_METRICS = (
    Metric("reputation", "final score: reputation after wealth, voyage penalties, ships and special crew"),
    Metric("gold", "gold at the end"),
    Metric("voyages_done", "voyages completed"),
    Metric("commissions", "commissions claimed"),
    Metric("sinkings", "times the seat's ships sank"),
    Metric("upgrades", "ship upgrades bought"),
    Metric("monsters_defeated", "sea monsters (Megalodon, Kraken) the seat defeated"),
    Metric("forts_raided", "skeleton forts the seat raided"),
    Metric("ships_sunk_by_hazards", "the seat's ships sunk while the last damage on them came from an enemy "
           "or an event"),
)
(M_REPUTATION, M_GOLD, M_VOYAGES, M_COMMISSIONS, M_SINKINGS, M_UPGRADES, M_MONSTERS, M_FORTS,
 M_HAZARD_SINKS) = metric_columns(SEAT_METRICS, SEAT_COLUMNS, "reputation gold voyages_done commissions sinkings "
                                  "upgrades monsters_defeated forts_raided ships_sunk_by_hazards")
