"""Integer codes and state-table layout shared by the Tide of Avaris engine and its bots.

A game lives in T (int64 state), K (int64 static components, compiled by components.py) and
F (float64: row 0 candidate scores, row 1 + s seat s's preset weights). Each constant names a
row or a column and says what it encodes. The reads the engine and the bots both make of a
seat's hold and dice are at the end.
"""

import numpy as np

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS, Metric, metric_columns, table_fits
from simkit.core.jit import jit
from simkit.core.kernels import option

# --- treasure colours (Treasure Hold): also the crew dice's colours
N_COLOURS = 6
COLOURS = ("red", "pink", "blue", "teal", "green", "yellow")
# --- crew die resources (Crew Dice)
RES_GOLD, RES_RUM, RES_ATTACK, RES_DEFENCE = 0, 1, 2, 3
RESOURCES = ("gold", "rum", "attack", "defence")
# --- combat die faces (Battle, A2)
MISS, SWORD, SHIELD, WIND = 0, 1, 2, 3
COMBAT_FACES = ("miss", "attack", "defence", "wind")
# --- navy die faces (Navy Hunts, A4): a compass exit, or Spotted
NORTH, EAST, SOUTH, WEST, SPOTTED = 0, 1, 2, 3, 4
NAVY_FACES = ("N", "E", "S", "W", "spotted")
# --- board actions (Board Action Specifics, Taking Control)
ACTIONS = ("none", "rum", "raid", "extra_treasure", "whirlpool", "crew_spirit", "marauder_spirit",
           "guardian_spirit", "region_control", "relocate_navy", "burial_draw", "bind", "recycle", "unlock",
           "relics", "explore")
(ACT_NONE, ACT_RUM, ACT_RAID, ACT_EXTRA, ACT_WHIRLPOOL, ACT_CREW_SPIRIT, ACT_MARAUDER, ACT_GUARDIAN,
 ACT_REGION, ACT_NAVY, ACT_BURIAL_DRAW, ACT_BIND, ACT_RECYCLE, ACT_UNLOCK, ACT_RELICS, ACT_EXPLORE) = range(16)
# --- upgrade tracks (Step 1: Upgrade)
TRACKS = ("attack", "defence", "fleet", "crew")
UP_ATTACK, UP_DEFENCE, UP_FLEET, UP_CREW = 0, 1, 2, 3
CUR_GOLD, CUR_RUM = 0, 1
# --- card vocabularies (components/decks.toml, A9)
# relic effects (Relics, A9, A68): the first six are bonuses of `amount` (the alt-plain-relics set);
# the rest each break one rule of the rulebook for their owner (the standard set)
RELIC_EFFECTS = ("attack", "defence", "rum_daily", "gold_daily", "burial", "wager",
                 "no_bribe", "any_colour", "collect_after_burial", "steal_round_up", "navy_passes", "wind_always")
RE_ATTACK, RE_DEFENCE, RE_RUM, RE_GOLD, RE_BURIAL, RE_WAGER = range(6)
RE_NO_BRIBE, RE_ANY_COLOUR, RE_COLLECT_AFTER_BURIAL, RE_STEAL_UP, RE_NAVY_PASSES, RE_WIND = range(6, 12)
N_BONUS_EFFECTS = 6  # effects below this take an amount; the rule-breaking ones do not
ABILITIES = ("none", "minus_hit")
REWARDS = ("treasure", "gold", "rum", "relic")
RW_TREASURE, RW_GOLD, RW_RUM, RW_RELIC = range(4)
ON_WINS = ("none", "take_treasure")
BURIAL_KINDS = ("colour_space", "upper", "lower", "region", "hold")
BB_COLOUR, BB_UPPER, BB_LOWER, BB_REGION, BB_HOLD = range(5)
ENDGAME_KINDS = ("most_crew", "most_relics", "most_burials", "most_fights", "most_upgrades", "fewest_sinkings",
                 "most_colour")
EG_CREW, EG_RELICS, EG_BURIALS, EG_FIGHTS, EG_UPGRADES, EG_SINKINGS, EG_COLOUR = range(7)
# --- control locations (Taking Control): the three spirit dice, then the four Regions
CTRL_CREW, CTRL_MARAUDER, CTRL_GUARDIAN = 0, 1, 2
CTRL_REGION0 = 3
N_CTRL = 7
# --- who fights (Combat): a seat index >= 0, or one of these enemies
FOE_NAVY, FOE_MONSTER = -2, -3

MAX_PLAYERS = 4
MAX_SPACES = 40
# the alternatives on entering an occupied space (foes_at): a rival's seat, then these
NAVY_OPTION, BRIBE_OPTION = MAX_PLAYERS, MAX_PLAYERS + 1
MAX_SLOTS = 2  # treasure slots per space
MAX_ADJ = 6  # lanes per space
MAX_CARDS = 48  # cards per deck
MAX_DICE = 8  # crew dice a pirate may own (A7)
START_CREW = 5  # crew dice a pirate starts with (First Day Setup); each Crew upgrade adds one
SPIRIT_SLOT = MAX_DICE  # the seat's die slot for the Crew Spirit Die while it controls it
DIE_SLOTS = MAX_DICE + 1
MAX_RELICS = 4  # relic slots on a player board (Relics)
MAX_PRIVATE = 8  # private burial bonuses a pirate may hold
MAX_STEPS = 12  # lanes a ship may move in one turn at most (each costs a die or a rum anyway)
FAR = 999

# --- ST row: game scalars
DAY = 0
TURNS = 1
END_REASON = 2  # -1 until the game ends
FINAL_DAY = 3  # 1 once the bag was empty during a Rising Tide (Endgame)
LOG_N = 4
PLAYERS = 5
NAVY_POS = 6  # space of the Navy ship (-1: off the board, on the Navy space)
NAVY_CARD = 7  # the current Navy card (-1 none)
NAVY_DECK_N = 8
RELIC_DECK_N = 9
MONSTER_DECK_N = 10
BURIAL_DECK_N = 11
PUBLIC_BONUS = 12  # the face-up Burial Bonus card (-1: slot empty)
TOKENS_USED = 13  # unlock tokens placed so far
BOX_TREASURE = 14  # treasure jettisoned into the box or carried off by a monster
NAVY_HELD = 15  # treasure the Navy took onto its card (colours in row NAVY_HOLD)
GOLD_PAID = 16  # gold paid to the bank (costs, bribes to the Navy)
GOLD_MADE = 17  # gold taken from the bank (dice, actions, rewards)
RUM_PAID = 18
RUM_MADE = 19
DICE_LOST = 20  # crew dice jettisoned
DICE_BOUGHT = 21  # crew dice bought (upgrades, buy-backs)
ROUND_TURN = 22  # 0 Sunrise, 1 Sunset, 2 Night
DISPLAY_N = 23  # relics face up in the display
RELIC_DISC_N = 24  # relics cleared from the display (reshuffled when the deck runs out)
MONSTER_DISC_N = 25
ST_SIZE = MONSTER_DISC_N + 1

END_BAG, END_ROUND_CAP = 0, 1
END_REASONS = ("bag_empty", "round_cap")

# --- seat columns (row SEAT0 + s)
POS = 0  # space (-1: sunk, off the board until its next turn)
GOLD = 1
RUM = 2
CREW_N = 3  # crew dice owned (die slots 0..CREW_N-1)
ATTACK = 4  # upgrade steps taken on each track
DEFENCE = 5
FLEET = 6
CREW_UP = 7
SLOOPS_OUT = 8  # sloops sent to control locations
POINTS = 9  # Treasure Points (burials, burial bonuses, then endgame bonuses)
BURIALS = 10
FIGHTS_WON = 11
SINKINGS = 12
N_RELICS = 13
MOVED = 14  # 1 once the ship moved this turn
LAST_FROM = 15  # space the ship last moved from (wind advantage; -1 none)
START = 16  # starting location (First Day Setup)
WAGER = 17  # Midnight Wager total of the last Night
PRIVATE_N = 24  # private burial bonuses held (ids in row PRIVATE0 + s)
BONUS_POINTS = 25  # part of POINTS from burial bonuses
ENDGAME_POINTS = 26  # part of POINTS from endgame bonuses
TEMP_ATTACK = 27  # crew dice commanded to attack in the current combat
TEMP_DEFENCE = 28
SECRET_POINTS = 29  # part of BONUS_POINTS from private burial bonuses (nobody else can know it)
REL0 = 30  # column REL0 + effect: the seat's relics of that effect, summed (a bonus's amount, or a count)
REL_ATTACK = REL0 + RE_ATTACK  # extra combat dice when attacking
REL_DEFENCE = REL0 + RE_DEFENCE
REL_RUM = REL0 + RE_RUM  # rum at each Day's start
REL_GOLD = REL0 + RE_GOLD
REL_BURIAL = REL0 + RE_BURIAL  # extra Treasure Points per burial
REL_WAGER = REL0 + RE_WAGER  # added to the Midnight Wager
REL_NO_BRIBE = REL0 + RE_NO_BRIBE  # > 0: enters occupied spaces without a Bribe (1. Move)
REL_ANY_COLOUR = REL0 + RE_ANY_COLOUR  # > 0: one die of any colour pays for a treasure space (1. Move)
REL_COLLECT_AFTER_BURIAL = REL0 + RE_COLLECT_AFTER_BURIAL  # > 0: Collect after burying (2. Act)
REL_STEAL_UP = REL0 + RE_STEAL_UP  # > 0: steals half the loser's unbound treasure rounded up (Combat Outcomes)
REL_NAVY_PASSES = REL0 + RE_NAVY_PASSES  # > 0: the Navy never attacks the ship (Navy Hunts)
REL_WIND = REL0 + RE_WIND  # > 0: its wind faces hit in every battle (Battle)
SEAT_COLS = REL0 + len(RELIC_EFFECTS)

# --- HOLD0 + s columns: the hold as counts per colour (Treasure Hold, A54)
UNBOUND = 0  # columns 0..5: unbound treasure per colour
BOUND = 6  # columns 6..11: bound treasure per colour
BURIED = 12  # columns 12..17: buried treasure per colour (Matching Colours, TOA-G15)
HOLD_COLS = BURIED + N_COLOURS

# --- DICE0 + s columns: die slot i (0..MAX_DICE-1 crew, SPIRIT_SLOT the Crew Spirit Die)
FACE = 0  # columns 0..8: face rolled
READY = 16  # columns 16..24: 1 if the die is in the crew area (not yet commanded)

# --- T rows
ST = 0
BAG = 1  # column c: treasures of colour c in the bag
SLOT = 2  # column 2 * space + k: colour of the treasure on slot k of the space (-1 empty)
ORDER = 3  # column i: seat at turn-order position i; columns 8..11: position of seat s
POSITION = 8  # ORDER row offset of the seat -> position columns
CONTROL = 4  # column c: controller of control location c (-1 nobody); column 8 + c: sloops there
SLOOPS_AT = 8
NAVY_HOLD = 5  # column c: treasure of colour c held on the Navy card
RELIC_DECK = 6  # relic ids face down (top = last)
DISPLAY = 7  # relic ids face up (DISPLAY_N)
RELIC_DISC = 8
MONSTER_DECK = 9
MONSTER_DISC = 10
NAVY_DECK = 11
BURIAL_DECK = 12
ENDGAME = 13  # columns 0..3: endgame card on each black slot; 4..7: its token value (0 locked)
TOKEN_COL = 4
SCRATCH = 14  # per-call scratch (never read across calls)
SCRATCH2 = 15
SEAT0 = 16
HOLD0 = SEAT0 + MAX_PLAYERS
DICE0 = HOLD0 + MAX_PLAYERS
RELICS0 = DICE0 + MAX_PLAYERS  # relic ids per seat
PRIVATE0 = RELICS0 + MAX_PLAYERS  # private burial bonus ids per seat
PLAN0 = PRIVATE0 + MAX_PLAYERS  # Night upgrades decided, per seat: column track = steps (simultaneous)
T_ROWS = PLAN0 + MAX_PLAYERS
T_WIDTH = 2 * MAX_SPACES
table_fits("T", T_WIDTH, st=ST_SIZE, seat=SEAT_COLS, hold=HOLD_COLS, dice=READY + MAX_DICE + 1,
           slots=MAX_SLOTS * MAX_SPACES, deck=MAX_CARDS, order=POSITION + MAX_PLAYERS, endgame=TOKEN_COL + 4)

# --- K: statics (components.compile_arrays)
META = 0
N_SPACES, N_SLOTS, BAG_PER_COLOUR, LOWER_CAP, N_RELIC_CARDS, N_MONSTERS, N_NAVY, N_BURIAL, N_ENDGAME = range(9)
N_TOKENS, SLOOPS_START, N_CREW_FACES, N_COMBAT_FACES, N_MARAUDER, N_GUARDIAN, N_NAVY_FACES, N_REGIONS = range(9, 17)
N_TIDE = 17  # entries in row TIDE
MON_MIDDLE2 = 18  # twice the monster deck's median Strength: the bots' estimate of the unseen top card
SP_SLOTS = 1  # column space: treasure slots
SP_ACTION = 2
SP_REGION = 3
SP_START = 4  # 1 for a starting harbour
SP_ADJ_N = 5  # lanes leaving the space
ADJ0 = 6  # rows ADJ0 + i, column space: the i-th neighbour
EXIT0 = ADJ0 + MAX_ADJ  # rows EXIT0 + d, column space: the neighbour through compass exit d (-1 none)
WIND0 = EXIT0 + 4  # rows WIND0 + a, column b: +1 moving a -> b follows the wind, -1 against, 0 no arrow
DIST0 = WIND0 + MAX_SPACES  # rows DIST0 + a, column b: lanes between a and b
TIDE = DIST0 + MAX_SPACES  # column i: the i-th slot filled by the Rising Tide (2 * space + k)
REGION_START = TIDE + 1  # column region: its starting harbour
CREW_COLOUR = REGION_START + 1  # column face
CREW_RES = CREW_COLOUR + 1
CREW_AMOUNT = CREW_RES + 1
CREW_NUMBER = CREW_AMOUNT + 1
COMBAT_FACE = CREW_NUMBER + 1  # column face: MISS/SWORD/SHIELD/WIND
MARAUDER_HITS = COMBAT_FACE + 1
GUARDIAN_HITS = MARAUDER_HITS + 1
NAVY_FACE = GUARDIAN_HITS + 1
UPPER_VALUE = NAVY_FACE + 1  # column n: points of a burial with n colours in the Upper Hold
MATCH_POINTS = UPPER_VALUE + 1  # column n: Matching Colours points for n of one colour
UP_COST0 = MATCH_POINTS + 1  # rows UP_COST0 + track, column step: cost (-1: track ends)
UP_CURRENCY = UP_COST0 + 4  # column track: CUR_GOLD / CUR_RUM
BRIBE = UP_CURRENCY + 1  # column position
START_GOLD = BRIBE + 1
START_RUM = START_GOLD + 1
RELIC_EFFECT = START_RUM + 1  # column card
RELIC_AMOUNT = RELIC_EFFECT + 1
MON_DICE = RELIC_AMOUNT + 1
MON_ABILITY = MON_DICE + 1
MON_REWARD = MON_ABILITY + 1
MON_REWARD_N = MON_REWARD + 1
MON_ON_WIN = MON_REWARD_N + 1
MON_ON_WIN_N = MON_ON_WIN + 1
NAVY_ATTACK = MON_ON_WIN_N + 1
NAVY_DEFENCE = NAVY_ATTACK + 1
NAVY_SPACE = NAVY_DEFENCE + 1
NAVY_REWARD = NAVY_SPACE + 1
NAVY_ON_WIN_N = NAVY_REWARD + 1
BB_KIND = NAVY_ON_WIN_N + 1
BB_ARG = BB_KIND + 1
BB_POINTS = BB_ARG + 1
EG_KIND = BB_POINTS + 1
EG_ARG = EG_KIND + 1
TOKENS = EG_ARG + 1  # column i: the i-th unlock token's value, highest first
K_ROWS = TOKENS + 1
KW = 2 * MAX_SPACES


# --- reads of a seat's hold and dice (engine and bots)
@jit(inline="always", runtime=False)
def colour_count(T, seat, c):
    """Treasure of colour c in the seat's hold, bound or not."""
    return T[HOLD0 + seat, UNBOUND + c] + T[HOLD0 + seat, BOUND + c]


@jit(runtime=False)
def hold_shape(T, seat):
    """(Upper Hold spaces filled, Lower Hold spaces filled): the first of each colour goes up,
    duplicates go down (Treasure Hold; rearranging keeps this canonical layout, A54)."""
    upper = 0
    total = 0
    for c in range(N_COLOURS):
        n = colour_count(T, seat, c)
        total += n
        if n > 0:
            upper += 1
    return upper, total - upper


@jit(inline="always", runtime=False)
def unbound_total(T, seat):
    n = 0
    for c in range(N_COLOURS):
        n += T[HOLD0 + seat, UNBOUND + c]
    return n


@jit(inline="always", runtime=False)
def steal_count(T, winner, loser):
    """How many treasures the winner of a pirate battle takes: half the loser's unbound treasure,
    rounded down (Combat Outcomes; Important Terms 7), up with a steal_round_up relic (A68)."""
    unbound = unbound_total(T, loser)
    if T[SEAT0 + winner, REL_STEAL_UP] > 0:
        return unbound - unbound // 2
    return unbound // 2


@jit(runtime=False)
def burial_value(T, K, seat):
    """Treasure Points a burial of the whole hold scores now, before bonuses: the rightmost
    covered Upper space's value plus one per Lower treasure (Treasure Hold)."""
    upper, lower = hold_shape(T, seat)
    if upper == 0:
        return 0
    return K[UPPER_VALUE, upper] + lower + T[SEAT0 + seat, REL_BURIAL]


@jit(runtime=False)
def can_hold(T, K, seat, c):
    """A treasure of colour c fits: a new colour goes up, a duplicate needs a free Lower space (A6)."""
    if colour_count(T, seat, c) == 0:
        return True
    return hold_shape(T, seat)[1] < K[META, LOWER_CAP]


@jit(inline="always", runtime=False)
def ready_dice(T, seat):
    n = 0
    for i in range(DIE_SLOTS):
        n += T[DICE0 + seat, READY + i]
    return n


@jit(runtime=False)
def wager_total(T, K, seat):
    """The Numbers on the dice still in the crew area (Step 3: Midnight Wager)."""
    total = 0
    for i in range(DIE_SLOTS):
        if T[DICE0 + seat, READY + i] == 1:
            total += K[CREW_NUMBER, T[DICE0 + seat, FACE + i]]
    return total + T[SEAT0 + seat, REL_WAGER]


@jit(runtime=False)
def free_sloops(T, K, seat):
    """Sloops in the seat's supply: the starting fleet plus Fleet upgrades, less those sent out."""
    return K[META, SLOOPS_START] + T[SEAT0 + seat, FLEET] - T[SEAT0 + seat, SLOOPS_OUT]


@jit(runtime=False)
def can_control(T, K, seat, loc):
    """Taking control needs more sloops than are there now; one's own location cannot be
    reinforced (A38)."""
    return T[CONTROL, loc] != seat and free_sloops(T, K, seat) > T[CONTROL, SLOOPS_AT + loc]


@jit(inline="always", runtime=False)
def space_treasure(T, space):
    """The colour of the first treasure on the space (-1: treasureless)."""
    for k in range(MAX_SLOTS):
        if T[SLOT, 2 * space + k] >= 0:
            return T[SLOT, 2 * space + k]
    return -1


@jit(inline="always", runtime=False)
def owns_die(T, seat, i):
    """Whether die slot i holds one of the seat's dice: a crew die, or the Crew Spirit Die while
    the seat controls it (Taking Control: "considered one of your Crew Dice")."""
    if i == SPIRIT_SLOT:
        return T[CONTROL, CTRL_CREW] == seat
    return 0 <= i < T[SEAT0 + seat, CREW_N]


@jit(runtime=False)
def exhausted_dice(T, seat):
    """The seat's dice already commanded today (in the Bunks)."""
    n = 0
    for i in range(DIE_SLOTS):
        if owns_die(T, seat, i) and T[DICE0 + seat, READY + i] == 0:
            n += 1
    return n


@jit(runtime=False)
def owned_dice(T, seat):
    n = 0
    for i in range(DIE_SLOTS):
        if owns_die(T, seat, i):
            n += 1
    return n


@jit(inline="always", runtime=False)
def bribe_amount(T, K, seat):
    """The Bribe printed beside the mover's own Wager-track position (1. Move: Bribe Cost)."""
    return K[BRIBE, T[ORDER, POSITION + seat]]


@jit(runtime=False)
def relocate_legal(P, T, K, to):
    """Relocate the Navy: any space up to `relocate_reach` lanes from where the Navy is (Taking
    Control; 0 lanes: it stays)."""
    at = T[ST, NAVY_POS]
    return at >= 0 and 0 <= to < K[META, N_SPACES] and K[DIST0 + at, to] <= P.relocate_reach


@jit(inline="always", runtime=False)
def can_rebuy_die(P, T, seat, rum):
    """With `rum` rum the pirate may buy back a lost crew die (Step 1: Upgrade): it pays rebuy_rum
    and owns fewer dice than it started with plus its Crew upgrades."""
    return rum >= P.rebuy_rum and T[SEAT0 + seat, CREW_N] < START_CREW + T[SEAT0 + seat, CREW_UP]


@jit(inline="always", runtime=False)
def foes_at(T, seat, space, players):
    """Who the seat may fight on entering `space` (1. Move: Bribe Cost), as a set of bits
    (simkit.core.kernels.option): each rival ship there as its seat, the Navy there as
    NAVY_OPTION; a Bribe, where it can be paid, is alternative BRIBE_OPTION."""
    options = np.int64(0)
    for s in range(players):
        if s != seat and T[SEAT0 + s, POS] == space:
            options |= option(s)
    if T[ST, NAVY_POS] == space:
        options |= option(NAVY_OPTION)
    return options


@jit(inline="always", runtime=False)
def upgrade_step_cost(K, t, level):
    """The price of track t's next step from `level` (Step 1: Upgrade; its currency is
    K[UP_CURRENCY, t]), or -1 where the track ends."""
    return K[UP_COST0 + t, level] if level < KW else np.int64(-1)


@jit(inline="always", runtime=False)
def can_pay_upgrade(K, t, level, gold, rum):
    """Whether track t's next step from `level` can be paid from this gold and rum."""
    cost = upgrade_step_cost(K, t, level)
    return cost >= 0 and (gold if K[UP_CURRENCY, t] == CUR_GOLD else rum) >= cost


@jit(runtime=False)
def whirlpool_legal(T, K, seat, to, players):
    """The Whirlpool: any other space of the board with no ship on it (A32)."""
    if to < 0 or to >= K[META, N_SPACES] or to == T[SEAT0 + seat, POS] or to == T[ST, NAVY_POS]:
        return False
    for s in range(players):
        if s != seat and T[SEAT0 + s, POS] == to:
            return False
    return True


@jit(runtime=False)
def whirlpool_fallback(T, K, seat, players):
    """The first space of the board the Whirlpool may reach (-1 none): where the engine sends a
    ship whose chosen target is not a legal one."""
    for b in range(K[META, N_SPACES]):
        if whirlpool_legal(T, K, seat, b, players):
            return b
    return -1


@jit(runtime=False)
def action_legal(P, T, K, seat, act, space, players):
    """Whether the Board Action `act` can be taken on `space` now: its cost can be paid and it has
    an effect."""
    row = SEAT0 + seat
    if act == ACT_NONE:
        return False
    if act == ACT_EXTRA:
        if T[row, GOLD] < P.extra_treasure_cost:
            return False
        for k in range(MAX_SLOTS):
            c = T[SLOT, 2 * space + MAX_SLOTS - 1 - k]
            if c >= 0:
                return can_hold(T, K, seat, c)
        return False
    if act == ACT_CREW_SPIRIT:
        return can_control(T, K, seat, np.int64(CTRL_CREW))
    if act == ACT_MARAUDER:
        return can_control(T, K, seat, np.int64(CTRL_MARAUDER))
    if act == ACT_GUARDIAN:
        return can_control(T, K, seat, np.int64(CTRL_GUARDIAN))
    if act == ACT_REGION:
        for r in range(K[META, N_REGIONS]):
            if can_control(T, K, seat, CTRL_REGION0 + r):
                return True
        return False
    if act == ACT_NAVY:
        return T[ST, NAVY_POS] >= 0
    if act == ACT_BURIAL_DRAW:
        return T[ST, BURIAL_DECK_N] > 0 and T[row, PRIVATE_N] < MAX_PRIVATE
    if act == ACT_BIND:
        return T[row, RUM] >= P.bind_cost and unbound_total(T, seat) > 0
    if act == ACT_RECYCLE:  # any two of its dice, commanded or not (TOA-192)
        return T[row, RUM] >= P.recycle_cost and owned_dice(T, seat) > 0
    if act == ACT_WHIRLPOOL:
        return whirlpool_fallback(T, K, seat, players) >= 0
    if act == ACT_UNLOCK:
        if T[ST, TOKENS_USED] >= K[META, N_TOKENS]:
            return False  # no token left: the action can no longer be taken (TOA-X18)
        for j in range(4):
            if T[ENDGAME, TOKEN_COL + j] == 0:
                return True
        return False
    if act == ACT_RELICS:
        return T[row, N_RELICS] < P.relic_slots and T[ST, DISPLAY_N] > 0
    if act == ACT_EXPLORE:
        return T[ST, MONSTER_DECK_N] + T[ST, MONSTER_DISC_N] > 0
    return True  # rum, raid


@jit(inline="always", runtime=False)
def endgame_face_up(T, card):
    """Whether endgame bonus `card` lies face up: on a slot whose token is unlocked (what every
    pirate sees; a locked slot's card lies face down until an Unlock flips it)."""
    for j in range(4):
        if T[ENDGAME, TOKEN_COL + j] != 0 and T[ENDGAME, j] == card:
            return True
    return False


# --- the result columns: the game's metrics (simkit.core.game: out_games from GAME_COLUMNS,
# out_seats from SEAT_COLUMNS) and the column the engine writes each to, checked against the
# declaration at import (metric_columns)
GAME_METRICS = (Metric("treasure_boxed", "treasure jettisoned or carried off by monsters (out of the game)"),)
(GM_TREASURE_BOXED,) = metric_columns(GAME_METRICS, GAME_COLUMNS, "treasure_boxed")
SEAT_METRICS = (
    Metric("treasure_points", "final Treasure Points (burials, burial and endgame bonuses)"),
    Metric("gold", "gold left at the end"),
    Metric("burials", "times the seat buried its hold"),
    Metric("fights_won", "battles won (pirates, the Navy, monsters)"),
    Metric("sinkings", "times the seat's ship sank"),
    Metric("relics", "relics on the seat's board at the end"),
)
(M_TREASURE_POINTS, M_GOLD, M_BURIALS, M_FIGHTS_WON, M_SINKINGS, M_RELICS) = metric_columns(
    SEAT_METRICS, SEAT_COLUMNS, "treasure_points gold burials fights_won sinkings relics")
