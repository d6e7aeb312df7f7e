"""Set Sail bots: one compiled heuristic policy, many presets (docs/architecture.md, "The game package contract").

A preset is a row of weights. Each turn the engine asks the policy to value every tile
as a destination for one piece (`tile_values`), then picks the best legal pair of
destinations; at ports and in combat it asks the small decision helpers below. The
policy reads only what its player sees (A16): its own hand, silver, Supply, upgrades and
treasure maps; everyone's pieces, upgrade tokens and VP (on the table); the open quests;
and the sizes of the decks. It never reads another hand or a deck's order.
Policy 0 (`random`) never calls these helpers: the engine chooses uniformly among the
legal choices instead.
"""

from pathlib import Path

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY, LOOKAHEAD_POLICY, RANDOM_POLICY, BotParam
from simkit.core.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.core.bots import RANDOM as BASELINE
from simkit.core.game import Preset, with_tuned
from simkit.core.jit import jit
from simkit.core.kernels import NO_LEAST, offers
from simkit.games.set_sail import state as S
from simkit.games.set_sail.state import MAPS0, POS, QCOST0, QTILE, QVP0, SEAT0, ST, TRADE_COL0

# preset weight slots
POLICY = 0  # the policy code (simkit.core.bots: RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY)
# LOOKAHEAD_POLICY: simkit/games/set_sail/lookahead.py
W_PLUNDER = 1  # value multiplier of plunder quest VP, and of ship cards held toward them
W_TRADE = 2  # value multiplier of trade quest VP, and of Trade cards toward them
W_TREASURE = 3  # value multiplier of treasure maps and digging
W_RAID = 4  # value of attacking an opponent's piece
W_BARREL = 5  # value of a Barrel Upgrade
W_OAR = 6  # value of an Oar Upgrade
W_CANNON = 7  # value of a Cannon Upgrade
W_FISH = 8  # value of a fishing silver
W_SAFE = 9  # Supply the seat tries to hold
W_DIST = 10  # cost per tile between a piece and its goal
W_MAPS = 11  # undug treasure maps the seat holds at most
W_FIGHT = 12  # value of a ship fight's silver and card beyond quests
N_HEURISTIC = 13  # slots 0 to 12 are the heuristic's; the lookahead copies 1 to 12 into its playout seats
# lookahead knobs (policy 2; its other weights are a heuristic preset's, which play its
# other decisions and every seat in its playouts)
W_CANDIDATES = 13  # moves compared a turn: the heuristic's, then the best of each other kind
W_ROLLOUTS = 14  # playouts per candidate
W_HORIZON = 15  # rounds a playout runs past the current one (0: to the end)
W_MARGIN = 16  # playout value per VP of lead over the best rival (beside the win share)
W_PREFER = 17  # mean playout value a candidate must gain over the heuristic's move
N_WEIGHTS = 18
NO_PLUNDER = 99  # min_plunder_cost when no Plunder Quest lies open

#             pol  plun trad treas raid barl oar  cann fish safe dist maps fight
RANDOM = (RANDOM_POLICY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
PLUNDERER = (HEURISTIC_POLICY, 1.6, 0.7, 0.8, 0.0, 0.3, 2.0, 6.0, 0.2, 4.0, 0.35, 1.0, 1.0)
MERCHANT = (HEURISTIC_POLICY, 0.7, 1.6, 0.8, 0.0, 4.0, 3.0, 0.5, 0.3, 3.0, 0.35, 1.0, 0.4)
TREASURE_HUNTER = (HEURISTIC_POLICY, 0.7, 0.8, 1.6, 0.0, 1.0, 4.0, 0.5, 0.4, 3.0, 0.35, 2.0, 0.5)
RAIDER = (HEURISTIC_POLICY, 1.2, 0.6, 0.6, 3.0, 0.0, 1.0, 8.0, 0.2, 5.0, 0.35, 1.0, 0.8)
#                 cands rollouts horizon margin prefer
LOOKAHEAD = (LOOKAHEAD_POLICY,) + TREASURE_HUNTER[1:] + (4.0, 2.0, 2.0, 0.02, 0.02)

PRESETS = (
    Preset("random", "uniform over legal choices (the baseline)", RANDOM, BASELINE),
    Preset("plunderer", "fights Deep Water and Trade Route ships, turns the cards into Plunder Quests; cannons",
           PLUNDERER),
    Preset("merchant", "buys Trade cards at the Trade Port for Trade Quests; barrels", MERCHANT),
    Preset("treasure_hunter", "buys Treasure Quests and sails to dig them up; oars", TREASURE_HUNTER),
    Preset("raider", "attacks rival pieces off port to steal cards; cannons", RAIDER),
    Preset("lookahead", "treasure hunter whose moves are chosen by playouts: up to 4 kinds of move, each played "
           "on 2 rounds by the treasure hunter 2 times, hidden cards re-dealt", LOOKAHEAD, LOOKAHEAD_TIER),
)

# every weight and threshold above, declared for --bot, [bots.<label>], simkit strategies and simkit train
PARAMS = (
    BotParam("plunder", W_PLUNDER, 0, 4, "value multiplier of plunder quest VP, and of ship cards held toward them"),
    BotParam("trade", W_TRADE, 0, 4, "value multiplier of trade quest VP, and of Trade cards toward them"),
    BotParam("treasure", W_TREASURE, 0, 4, "value multiplier of treasure maps and digging"),
    BotParam("raid", W_RAID, 0, 8, "value of attacking an opponent's piece"),
    BotParam("barrel", W_BARREL, 0, 10, "value of a Barrel Upgrade"),
    BotParam("oar", W_OAR, 0, 10, "value of an Oar Upgrade"),
    BotParam("cannon", W_CANNON, 0, 16, "value of a Cannon Upgrade"),
    BotParam("fish", W_FISH, 0, 2, "value of a fishing silver"),
    BotParam("safe_supply", W_SAFE, 0, 10, "Supply the seat tries to hold"),
    BotParam("distance", W_DIST, 0, 2, "cost per tile between a piece and its goal"),
    BotParam("maps", W_MAPS, 0, 5, "undug treasure maps the seat holds at most", integer=True),
    BotParam("fight", W_FIGHT, 0, 3, "value of a ship fight's silver and card beyond quests"),
    BotParam("candidates", W_CANDIDATES, 1, 16, "moves compared a turn: the heuristic's, then the best of each "
             "other kind", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("rollouts", W_ROLLOUTS, 1, 64, "playouts per candidate", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("horizon", W_HORIZON, 0, 10, "rounds a playout runs past the current one (0: to the end)",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("margin", W_MARGIN, 0, 1, "playout value per VP of lead over the best rival", reader=LOOKAHEAD_TIER),
    BotParam("prefer", W_PREFER, 0, 1, "mean playout value a candidate must gain over the heuristic's move",
             reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)
# the expert tier: the lookahead on the tuned preset's weights, so its first candidate is tuned's
# own pair and tuned plays every seat of its playouts (lookahead.rollout_weights)
#               cands rollouts horizon margin prefer
EXPERT_KNOBS = (6.0, 16.0, 2.0, 0.1, 0.02)
_TUNED = next((p for p in PRESETS if p.name == "tuned"), None)
if _TUNED is not None:
    EXPERT = (LOOKAHEAD_POLICY,) + tuple(_TUNED.weights[1:N_HEURISTIC]) + EXPERT_KNOBS
    PRESETS = PRESETS + (
        Preset("expert", f"tuned preset whose moves are chosen by playouts: up to {EXPERT_KNOBS[0]:.0f} kinds of "
               f"move, each played on {EXPERT_KNOBS[2]:.0f} rounds by the tuned preset {EXPERT_KNOBS[1]:.0f} times, "
               "hidden cards re-dealt", EXPERT, LOOKAHEAD_TIER),
    )
# the default preset: tuned (75.8% of decided games against the treasure hunter at 2 players, tuned.md)
DEFAULT = "tuned"
PREVIOUS_DEFAULT = "treasure_hunter"  # the default before the tuned preset (the tiers' middle rung)
# the lookahead tier carries the treasure hunter's weights, so every seat of its playouts plays the
# treasure hunter; the playout seats' policy and noise (heuristic, 0) are read from this row of every
# strategy table (the presets' rows come first, in order), their weights from the deciding seat's row
ROLLOUT = "treasure_hunter"
ROLLOUT_ROW = [p.name for p in PRESETS].index(ROLLOUT)


@jit(inline="always", runtime=False)
def ships_held(T, seat):
    n = np.int64(0)
    for c in range(S.SHIP0, S.SHIP0 + 2 * S.MAX_HEALTH):
        n += T[SEAT0 + seat, c]
    return n


@jit(inline="always", runtime=False)
def goods_held(T, seat):
    return T[SEAT0 + seat, S.GOODS0] + T[SEAT0 + seat, S.GOODS0 + 1] + T[SEAT0 + seat, S.GOODS0 + 2]


@jit(inline="always", runtime=False)
def win_chance(total_bonus, health):
    """P(d6 + bonus >= health)."""
    return min(1.0, max(0.0, (7.0 + total_bonus - health) / 6.0))


@jit(inline="always", runtime=False)
def expected_shortfall(bonus, health):
    """Expected Supply lost to a ship of `health`: mean of max(0, health - d6 - bonus)."""
    s = 0.0
    for r in range(1, 7):
        s += max(0, health - r - bonus)
    return s / 6.0


@jit(inline="always", runtime=False)
def beat_chance(a, b):
    """P(d6 + a > d6 + b)."""
    n = 0
    for x in range(1, 7):
        for y in range(1, 7):
            if x + a > y + b:
                n += 1
    return n / 36.0


@jit(inline="always", runtime=False)
def ship_odds(K, deck, bonus):
    """(P(win), expected Supply lost) of a fight against the top card of ship deck `deck`,
    over the deck's printed healths (ships.toml; K[HEALTHS0 + deck, h] cards of health h):
    each health's share of the deck times win_chance and expected_shortfall at it. The
    deck's order is hidden (A16)."""
    n = K[S.META, S.N_DW + deck]
    win, lost = 0.0, 0.0
    for h in range(S.MAX_HEALTH):
        c = K[S.HEALTHS0 + deck, h]
        if c > 0:
            share = c / n
            win += share * win_chance(bonus, h)
            lost += share * expected_shortfall(bonus, h)
    return win, lost


@jit(runtime=False)
def best_plunder(T, K, seat, open_n):
    """(slot, vp) of the open plunder quest worth most that the seat can pay now (-1, 0)."""
    ships = ships_held(T, seat)
    best, vp = np.int64(-1), np.int64(0)
    for j in range(open_n):
        q = T[ST, S.OPEN0 + j]
        if q >= 0 and K[QCOST0, q] <= ships and K[QVP0 + S.PLUNDER, q] > vp:
            best, vp = np.int64(j), K[QVP0 + S.PLUNDER, q]
    return best, vp


@jit(inline="always", runtime=False)
def trade_missing(T, K, seat, q):
    m = np.int64(0)
    for g in range(S.N_GOODS):
        m += max(np.int64(0), K[QCOST0 + g, TRADE_COL0 + q] - T[SEAT0 + seat, S.GOODS0 + g])
    return m


@jit(runtime=False)
def best_trade(T, K, seat, open_n):
    """(slot, vp) of the open trade quest worth most that the seat can pay now (-1, 0)."""
    best, vp = np.int64(-1), np.int64(0)
    for j in range(open_n):
        q = T[ST, S.OPEN0 + S.MAX_OPEN + j]
        if q >= 0 and trade_missing(T, K, seat, q) == 0 and K[QVP0 + S.TRADEQ, q] > vp:
            best, vp = np.int64(j), K[QVP0 + S.TRADEQ, q]
    return best, vp


@jit(runtime=False)
def target_trade(T, K, seat, open_n, capacity):
    """The open trade quest the seat works toward: most VP per card still missing, among
    those whose cards fit in its hold (-1 if none)."""
    best, score = np.int64(-1), -1.0
    for j in range(open_n):
        q = T[ST, S.OPEN0 + S.MAX_OPEN + j]
        if q < 0:
            continue
        need = K[QCOST0, TRADE_COL0 + q] + K[QCOST0 + 1, TRADE_COL0 + q] + K[QCOST0 + 2, TRADE_COL0 + q]
        if need > capacity:
            continue
        v = K[QVP0 + S.TRADEQ, q] / (1.0 + trade_missing(T, K, seat, q))
        if v > score:
            best, score = q, v
    return best


@jit(runtime=False)
def min_plunder_cost(T, K, open_n):
    c = np.int64(NO_PLUNDER)
    for j in range(open_n):
        q = T[ST, S.OPEN0 + j]
        if q >= 0:
            c = min(c, K[QCOST0, q])
    return c


@jit(runtime=False)
def tile_values(P, T, K, w, seat, out):
    """Value for `seat` of a piece ending its move on each tile (out[t]); see the module doc."""
    n = K[S.META, S.N_TILES]
    me = SEAT0 + seat
    silver = T[me, S.SILVER]
    supply = T[me, S.SUPPLY]
    cannons = T[me, S.UPG0 + S.CANNON]
    open_n = P.open_quest_spaces
    ships = ships_held(T, seat)
    cap = S.capacity(P, T, seat)
    short = max(0.0, w[W_SAFE] - supply)
    money = silver + ships
    # a style leans on its favourite kind of quest while that kind is still in play; once
    # it is gone (no open card left, no map to buy or dig), its weight passes to the kinds
    # that remain, so a seat does not keep collecting for quests that no longer exist
    need = min_plunder_cost(T, K, open_n)
    w_plunder, w_trade, w_treasure = w[W_PLUNDER], w[W_TRADE], w[W_TREASURE]
    plunder_gone = need == NO_PLUNDER
    trade_gone = True
    for j in range(open_n):
        if T[ST, S.OPEN0 + S.MAX_OPEN + j] >= 0:
            trade_gone = False
    treasure_gone = T[ST, S.QDECK_N0 + S.TREASURE] == 0 and T[me, S.N_MAPS] == 0
    top = max(w_plunder, max(w_trade, w_treasure))
    if plunder_gone or trade_gone or treasure_gone:
        if not plunder_gone:
            w_plunder = top
        if not trade_gone:
            w_trade = top
        if not treasure_gone:
            w_treasure = top
    # ports
    _, pvp = best_plunder(T, K, seat, open_n)
    _, tvp = best_trade(T, K, seat, open_n)
    pirate = w_plunder * pvp + w_trade * tvp
    buy_map = (silver >= P.treasure_price + short and T[me, S.N_MAPS] < w[W_MAPS]
               and T[ST, S.QDECK_N0 + S.TREASURE] > 0)
    if buy_map:
        pirate += w_treasure * 2.5
    if pirate > 0:
        pirate += 1.0
    supply_v = 0.0
    if short > 0 and money > 0:
        # Supply it can pay for: supply_price silver or one ship card a token (Supply Port)
        buyable = short if P.supply_price == 0 else silver / P.supply_price + ships
        supply_v = 2.0 * min(short, buyable) + (6.0 if supply <= 1 else 0.0)
    trade_v = 0.0
    tq = target_trade(T, K, seat, open_n, cap)
    if tq >= 0:
        miss = trade_missing(T, K, seat, tq)
        if miss > 0 and silver >= miss * P.trade_price:
            trade_v = w_trade * K[QVP0 + S.TRADEQ, tq] * 0.7
    upgrade_v = 0.0
    for u in range(S.N_UPGRADES):
        if S.can_buy_upgrade(P, T, seat, u, short):
            upgrade_v = max(upgrade_v, w[W_BARREL + u])
    # ship fights: their cards feed plunder quests, their silver everything
    card_v = 0.5 + (0.0 if plunder_gone else (w_plunder * 1.5 if ships < need + 2 else 0.3))
    # a loss near zero Supply means running out, which costs an upgrade, half the silver
    # and half a move; a seat with little of that to lose must still fight, or it starves
    # on fishing silver that the Supply Port takes back (the 2-player round-cap loop)
    stake = 0.5 * silver
    cheapest = NO_LEAST
    for u in range(S.N_UPGRADES):
        if T[me, S.UPG0 + u] > 0:
            cheapest = min(cheapest, S.price_of(P, u))
    if cheapest < NO_LEAST:
        stake += cheapest
    risk = 1.0 + (min(4.0, stake / 3.0) if supply <= 2 else 0.0)
    # the odds against each ship deck's printed healths (ships.toml), its pay as the engine's
    # ship_combat gives it: deep_water_silver; the Trade Route's by trade_route_reward (A1)
    deep_win, deep_lost = ship_odds(K, S.DW, cannons)
    deep_v = deep_win * (P.deep_water_silver * w[W_FIGHT] + card_v) - risk * deep_lost
    tr_silver = float(S.TR_SILVER[P.trade_route_reward])
    tr_cards = float(S.TR_CARDS[P.trade_route_reward])
    route_win, route_lost = ship_odds(K, S.TR, cannons)
    route_v = (route_win * (tr_silver * w[W_FIGHT] + card_v + tr_cards * 0.5 * w_trade)
               - risk * route_lost)
    fish_v = P.fish_silver * w[W_FISH]
    # the goal the pieces lean toward when no tile pays now
    goal = np.int64(-1)
    if pvp > 0 or tvp > 0 or buy_map:
        goal = np.int64(S.PIRATE_PORT)
    elif short > 1 and money > 0:
        goal = np.int64(S.SUPPLY_PORT)
    elif trade_v > 0:
        goal = np.int64(S.TRADE_PORT)
    elif upgrade_v > 2.0:
        goal = np.int64(S.UPGRADE_PORT)
    for t in range(n):
        ty = K[S.TILE_TYPE, t]
        if ty == S.PIRATE_PORT:
            v = pirate
        elif ty == S.SUPPLY_PORT:
            v = supply_v
        elif ty == S.TRADE_PORT:
            v = trade_v
        elif ty == S.UPGRADE_PORT:
            v = upgrade_v
        elif ty == S.DEEP:
            v = deep_v
        elif ty == S.ROUTE:
            v = route_v
        else:
            v = fish_v
        if goal >= 0:
            v -= w[W_DIST] * K[S.NEAREST0 + goal, t]
        out[t] = v
    # treasure maps held: dig on the named tile, lean toward the nearest
    for i in range(T[me, S.N_MAPS]):
        q = T[MAPS0 + seat, i]
        tile = K[QTILE, q]
        vp = K[QVP0 + S.TREASURE, q]
        for t in range(n):
            if t == tile:
                out[t] += w_treasure * vp * 1.5 + 2.0
            elif goal < 0:
                out[t] -= w[W_DIST] * 0.5 * K[S.DIST0 + t, tile]
    # rival pieces off port: a raid, or a risk
    for s in range(T[ST, S.PLAYERS]):
        if s == seat:
            continue
        p = beat_chance(cannons, max(T[SEAT0 + s, S.UPG0 + S.CANNON], T[SEAT0 + s, S.UPG0 + S.OAR]))
        for k in range(S.PIECES):
            t = T[POS, 2 * s + k]
            if K[S.TILE_TYPE, t] < S.FIRST_PORT:
                out[t] += w[W_RAID] * p - 0.5 * (1.0 - p) * risk


@jit(runtime=False)
def shelter(K, tile):
    """Where a defender retreats after combat: the first adjacent port, else it stays."""
    for k in range(K[S.N_NBR, tile]):
        u = K[S.NBR0 + k, tile]
        if K[S.TILE_TYPE, u] >= S.FIRST_PORT:
            return u
    return tile


@jit(runtime=False)
def rival_to_attack(T, rivals):
    """Of the rivals the attacker may fight (a set of seats), the one with the fewest cannons,
    the first seat on a tie."""
    defender = np.int64(-1)
    weakest = NO_LEAST
    for s in range(T[ST, S.PLAYERS]):
        if offers(rivals, s) and T[SEAT0 + s, S.UPG0 + S.CANNON] < weakest:
            defender, weakest = np.int64(s), T[SEAT0 + s, S.UPG0 + S.CANNON]
    return defender


@jit(runtime=False)
def flee_better(att, cannons, oars):
    """The defender flees when that loses less Supply on average than fighting."""
    fight = 0.0
    flee = 0.0
    for r in range(1, 7):
        fight += max(0, att - r - cannons) - 0.3 * max(0, r + cannons - att)
        flee += max(0, att - r - oars)
    return flee < fight


@jit(runtime=False)
def upgrade_choice(P, T, w, seat, reserve):
    """The upgrade to buy (-1 none): the highest-weighted one affordable under the cap."""
    best, value = np.int64(-1), 0.5
    for u in range(S.N_UPGRADES):
        if S.can_buy_upgrade(P, T, seat, u, reserve) and w[W_BARREL + u] > value:
            best, value = np.int64(u), w[W_BARREL + u]
    return best


@jit(runtime=False)
def upgrade_to_lose(T, w, seat):
    """Running out: the owned upgrade the seat values least (-1 if none)."""
    best, value = np.int64(-1), NO_LEAST
    for u in range(S.N_UPGRADES):
        if T[SEAT0 + seat, S.UPG0 + u] > 0 and w[W_BARREL + u] < value:
            best, value = np.int64(u), w[W_BARREL + u]
    return best


@jit(runtime=False)
def good_wanted(T, K, seat, target):
    """The good the seat most needs for its target trade quest (-1 if none missing)."""
    best, miss = np.int64(-1), np.int64(0)
    if target < 0:
        return best
    for g in range(S.N_GOODS):
        m = K[QCOST0 + g, TRADE_COL0 + target] - T[SEAT0 + seat, S.GOODS0 + g]
        if m > miss:
            best, miss = np.int64(g), m
    return best


@jit(runtime=False)
def good_to_drop(T, K, seat, target):
    """The held good with the largest surplus over the target quest's need."""
    best, surplus = np.int64(-1), np.int64(-99)
    for g in range(S.N_GOODS):
        have = T[SEAT0 + seat, S.GOODS0 + g]
        if have == 0:
            continue
        need = K[QCOST0 + g, TRADE_COL0 + target] if target >= 0 else np.int64(0)
        if have - need > surplus:
            best, surplus = np.int64(g), have - need
    return best
