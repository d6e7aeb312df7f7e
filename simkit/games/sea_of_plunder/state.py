"""Integer codes and state-table layout shared by the Sea of Plunder engine and its bots.

The engine keeps a game in a few flat int64 tables (docs/performance.md: "a handful of 2-D tables
with named column constants"); each constant below names a slot and its encoding.
"""

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS, Metric, metric_columns, table_fits
from simkit.core.jit import jit

# --- board (A1): 13 x 13 squares, square = row * 13 + column; column 0 = A, row 0 = 1
SIZE = 13
SQUARES = SIZE * SIZE

# directions of a map step; a quarter turn clockwise adds 2 (Magical Compass)
N, NE, E, SE, S, SW, W, NW = 0, 1, 2, 3, 4, 5, 6, 7
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

# --- cards: code 0..n_cards-1 is a deck card; n_cards + colour is a Goods card
MAP, PORT_CARD, ACTION, EVENT = 0, 1, 2, 3
KIND_NAMES = ("map", "port", "action", "event")

# action effects (Card List: Action Cards)
BROKEN_COMPASS, CURSED_TREASURE, HURRICANE, RESUPPLY = 0, 1, 2, 3
SO_CLOSE_YET_SO_FAR, TROUBLE_AT_SEA, UNCHARTED_WATERS = 4, 5, 6
# event effects (Card List: Event Cards)
CARGO_ADRIFT, MAGICAL_COMPASS, PARTING_STORMS, TALES_OF_MORE_TREASURE = 10, 11, 12, 13
EFFECT_CODES = {
    "broken_compass": BROKEN_COMPASS, "cursed_treasure": CURSED_TREASURE, "hurricane": HURRICANE,
    "resupply": RESUPPLY, "so_close_yet_so_far": SO_CLOSE_YET_SO_FAR, "trouble_at_sea": TROUBLE_AT_SEA,
    "uncharted_waters": UNCHARTED_WATERS, "cargo_adrift": CARGO_ADRIFT, "magical_compass": MAGICAL_COMPASS,
    "parting_storms": PARTING_STORMS, "tales_of_more_treasure": TALES_OF_MORE_TREASURE,
}
ACTION_EFFECTS = ("broken_compass", "cursed_treasure", "hurricane", "resupply", "so_close_yet_so_far",
                  "trouble_at_sea", "uncharted_waters")
EVENT_EFFECTS = ("cargo_adrift", "magical_compass", "parting_storms", "tales_of_more_treasure")

# card_info columns
CI_KIND, CI_EFFECT, CI_NOPT, CI_PORT = 0, 1, 2, 3
MAX_OPTIONS = 4  # X's on one card
MAX_STEPS = 8  # squares on one path; card_steps[c, o, 0] = length, [1..] = directions

# --- player powers (Card List: Player Power Cards); seat column POWER, -1 = none
GAMBLER, LUCKY, NAVIGATOR, ODD, SCALLYWAG, SMUGGLER, STRATEGIST, THIEF = 0, 1, 2, 3, 4, 5, 6, 7
N_POWERS = 8
POWER_NAMES = ("gambler", "lucky", "navigator", "odd", "scallywag", "smuggler", "strategist", "thief")
# readings of The Thief's "any time you come into contact" (A38; rule parameter thief_contact, by index):
# own_turn: only contacts its own ship makes on its own turn; own_move: contacts its own ship
# makes on any turn; any_contact: also a rival ship moving into contact with the Thief's ship
THIEF_OWN_TURN, THIEF_OWN_MOVE, THIEF_ANY_CONTACT = 0, 1, 2
THIEF_READINGS = ("own_turn", "own_move", "any_contact")

# --- pos: where every piece is (square, or -1 when off the board)
SHIP0 = 0  # ships 0..3 (ship k belongs to seat ship_owner[k])
PIRATE0 = 4  # the four pirates
PORT0 = 8  # the four Port Islands (index = goods colour)
COMBO = 12  # the Combo Port Island (-1 unless the module is on)
ISLAND0 = 13  # Treasure Islands 0..n_islands-1 (a dense list)
MAX_ISLANDS = 8
POS_SIZE = ISLAND0 + MAX_ISLANDS
MAX_SHIPS = 4
N_PIRATES = 4
N_COLOURS = 4

# --- st: game scalars
DECK_N = 0  # cards in the deck (top = deck[DECK_N - 1])
PILE_N = 1  # cards on the play/discard pile (top = pile[PILE_N - 1])
N_ISLANDS = 2
PIRATE_TREASURES = 3  # the pirate dish
ACTIVE = 4  # seat whose turn it is
ROUND = 5
END_REASON = 6  # -1 until the end is triggered, then an END_* code
N_SHIPS = 7
PLAYERS = 8
PENDING_N = 9  # events set aside, waiting to be resolved (see pending)
ACTIVE_SHIP = 10  # the ship the active seat moves this turn (two-player variant: chosen)
SHIP_MOVED = 11  # 1 once the active seat's ship moved this turn (Lucky Jill/Jack)
STOCK0 = 12  # Goods left in each colour's stack, 4 slots
TURNS = 16
COMPASS_SPENT = 17  # tokens the active seat spent this turn (Navigator bonus trigger)
EFFECTS_N = 18  # discard effects waiting for the discard (Hurricane, So Close..., Trouble at Sea)
EFFECT0 = 19  # 4 slots of waiting discard effects
LOG_N = 23  # event-log rows written (runs on across the games of a chunk)
FORCED_PLAY = 24  # 1 + the candidate row the turn's first play takes (set by the lookahead), 0: none
ST_SIZE = FORCED_PLAY + 1

# end reasons (index into GAME.end_reasons)
END_PLAYER_TREASURES, END_PIRATE_TREASURES, END_ROUND_CAP = 0, 1, 2
END_REASONS = ("player_treasures", "pirate_treasures", "round_cap")

# --- seats table columns
TREASURES = 0
DEBT = 1
COMPASSES = 2
POWER = 3
HAND_N = 4
STRATEGY = 5  # preset row this seat plays
STEALS = 6  # cards taken from other players
BRIBES = 7  # Goods paid to pirates
SEAT_COLS = BRIBES + 1

MAX_HAND = 96
MAX_PENDING = 32

MAX_PLAYERS = 4

# --- T: the engine's int64 state table, one row per part (width >= MAX_HAND, n_cards + 1)
ST = 0  # game scalars (columns above)
POS = 1  # square of every piece (columns SHIP0.. above)
DECK = 2  # the deck, top = DECK_N - 1
PILE = 3  # the play/discard pile, top = PILE_N - 1
PENDING = 4  # Event cards set aside, in draw order
SEAT0 = 5  # row SEAT0 + s: seat s's counters (seat columns above)
HAND0 = SEAT0 + MAX_PLAYERS  # row HAND0 + s: seat s's hand, HAND_N cards
COUNTS = HAND0 + MAX_PLAYERS  # scratch: legal choices per hand card (uniform random choice)
MASK = COUNTS + 1  # scratch: 1 for hand cards a heuristic seat considers discarding
T_ROWS = MASK + 1
# T is at least MAX_HAND wide (chunk.game_tables widens it for a longer deck)
table_fits("T", MAX_HAND, st=ST_SIZE, seat=SEAT_COLS, pos=POS_SIZE, pending=MAX_PENDING)

# --- K: the static tables, one int64 array of width SQUARES, read-only in the engine
NBR0 = 0  # row NBR0 + square: the neighbour in each direction (endless sea)
DIST0 = NBR0 + SQUARES  # row DIST0 + a, column b: steps between squares a and b (torus; symmetric)
DICE0 = DIST0 + SQUARES  # 2 rows: letter die faces (column), number die faces (row); -1 = skull
LETTER_DIE, NUMBER_DIE = 0, 1  # row DICE0 + die; the number die is also "the numbered die" (A9)
GS0 = DICE0 + 2  # 5 rows: best Goods score for counts (a, b, c, d) at [GS0 + a, 25 b + 5 c + d]
OWNER = GS0 + 5  # column k: the seat owning ship k
SHIPS0 = OWNER + 1  # row SHIPS0 + k: ship k's (owner seat, starting island)
BOARD = SHIPS0 + MAX_SHIPS  # ports 0-3, pirates 4-7, first Treasure Island 8, Goods per colour 9
META = BOARD + 1  # columns: faces on the letter die, ships in play, faces on the number die
CARD0 = META + 1  # row CARD0 + c: card c's CI_* columns, then its paths from STEPS0
STEPS0 = 4  # step j of option o of card c at [CARD0 + c, STEPS0 + o * MAX_STEPS + j]
# [CARD0 + c, PATH_ID0 + o * 4 + r]: the id of option o's path turned r quarter turns; two
# (card, option, turn) share an id when they make the same steps (a port card: its port's id),
# so a mover's path value, found once, serves every candidate with that id (a bot's memo)
PATH_ID0 = STEPS0 + MAX_OPTIONS * MAX_STEPS
LETTER_FACES, N_SHIP_ROWS, NUMBER_FACES, PATH_IDS = 0, 1, 2, 3  # PATH_IDS: how many path ids
MAX_DIE_FACES = 60  # a die lists at most this many faces (dice.toml; bounded by the K table width)


# --- the rules both the engine's scoring and the bots read, written once
GOODS_MAX = 4  # the Goods score table's count per colour, 0..GOODS_MAX (components.goods_score_table)
GOODS_SPAN = GOODS_MAX + 1


@jit(inline="always", runtime=False)
def is_good(card, n_cards):
    """Whether a hand's card is a Goods card (code n_cards + colour) rather than a deck card."""
    return card >= n_cards


@jit(inline="always", runtime=False)
def goods_points(K, g0, g1, g2, g3):
    """Best set score of a Goods hand given colour counts (a count above GOODS_MAX scores as GOODS_MAX)."""
    return K[GS0 + min(g0, GOODS_MAX),
             min(g1, GOODS_MAX) * GOODS_SPAN * GOODS_SPAN + min(g2, GOODS_MAX) * GOODS_SPAN + min(g3, GOODS_MAX)]


# --- the result columns: the game's metrics (simkit.core.game: out_games from GAME_COLUMNS,
# out_seats from SEAT_COLUMNS) and the column the engine writes each to, checked against the
# declaration at import (metric_columns)
GAME_METRICS = (Metric("pirate_treasures", "Treasures in the pirate dish at the end"),)
(GM_PIRATE_TREASURES,) = metric_columns(GAME_METRICS, GAME_COLUMNS, "pirate_treasures")
SEAT_METRICS = (
    Metric("treasures", "Treasures collected"),
    Metric("debt", "Debt tokens"),
    Metric("compasses", "unused Magical Compass tokens"),
    Metric("goods_points", "points from Goods sets"),
    Metric("power", "Player Power card dealt", ("none",) + POWER_NAMES),
    Metric("steals", "cards taken from other players"),
    Metric("bribes", "Goods paid to pirates"),
)
(M_TREASURES, M_DEBT, M_COMPASSES, M_GOODS_POINTS, M_POWER, M_STEALS, M_BRIBES) = metric_columns(
    SEAT_METRICS, SEAT_COLUMNS, "treasures debt compasses goods_points power steals bribes")
