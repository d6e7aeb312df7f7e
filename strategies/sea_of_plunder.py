"""Sea of Plunder bots: one compiled heuristic policy, many presets (docs/architecture.md, "The game package contract").

A preset is a row of weights. The engine lists the legal choices at each decision and
asks the policy to value each from the deciding seat's point of view; the policy reads
only what that player can see: the board, everyone's Treasures, Debt and compasses
(public, Treasure Islands and Collecting Treasures), its own hand, and the Goods
stacks. It never reads another hand, a hand size or the deck order (A33).
Policy 0 (`random`) values every legal choice equally, so the engine's uniform
tie-break makes it uniform over legal choices.
"""

from pathlib import Path

import numpy as np

from simkit.core.bots import HEURISTIC_POLICY, LOOKAHEAD_POLICY, RANDOM_POLICY, BotParam
from simkit.core.bots import LOOKAHEAD as LOOKAHEAD_TIER
from simkit.core.bots import RANDOM as BASELINE
from simkit.core.game import Preset, with_tuned
from simkit.core.jit import jit
from simkit.core.kernels import NO_LEAST, offers
from simkit.games.sea_of_plunder import state as S
from simkit.games.sea_of_plunder.state import (
    CARD0,
    DICE0,
    DIST0,
    HAND0,
    META,
    NUMBER_FACES,
    OWNER,
    POS,
    SEAT0,
    ST,
    goods_points,
)

# Distances are read as K[DIST0 + piece's square, square] (the table is symmetric): a decision
# weighs many squares against the same few pieces, whose rows then stay in the cache.

# preset weight slots
POLICY = 0  # the policy code (simkit.core.bots: RANDOM_POLICY, HEURISTIC_POLICY, LOOKAHEAD_POLICY)
# LOOKAHEAD_POLICY: the heuristic, with rollouts at its main decision
W_TREASURE = 1  # value of collecting a Treasure
W_GOODS = 2  # value per point a Good adds to the best set partition
W_DEBT = 3  # cost of a Debt token
W_CARD = 4  # value of an extra card in hand
W_DIST = 5  # cost per square between the ship and the nearest Treasure Island
W_PIRATE_NEAR = 6  # cost of ending within two squares of a pirate
W_COMPASS = 7  # cost of spending a Magical Compass
W_HARASS = 8  # value of a pirate hitting an opponent
W_DENY = 9  # value of a pirate taking an island an opponent is closer to
W_PIRATE_GAIN = 10  # cost of the pirates gaining a Treasure
W_ATTACK = 11  # value per opponent hit by Cursed Treasure / Broken Compass
W_PORT_DIST = 12  # cost per square to the nearest port whose Good improves the set
W_KEEP = 13  # weight of a card's keep value when choosing the discard
PIRATE_TURNS = 14  # 1: consider spending a compass to turn the discard that moves a pirate
DISCARD_SHORTLIST = 15  # consider discarding only this many least-kept cards (0 = every card)
# the lookahead's knobs (policy 2; its other slots are the heuristic's weights, used for every
# decision but the turn's first play and for its candidate shortlist)
LA_CANDIDATES = 16  # the heuristic's best plays tried by rollouts (at most MAX_LOOKAHEAD)
LA_ROLLOUTS = 17  # rollouts per candidate, on the same re-deals and dice for every candidate
LA_HORIZON = 18  # turns played after the candidate's turn (0: to the end of the game)
LA_MARGIN = 19  # points per rollout a candidate must gain over the heuristic's own choice
LA_WIN = 20  # value, in points, of being ahead (a share when tied) when a rollout stops
LA_RACE = 21  # drop a candidate trailing the leader by this many standard errors (0: none; kernels.race_prune)
N_WEIGHTS = 22
MAX_LOOKAHEAD = 16
MAX_ROLLOUTS = 64
NOISE = 63  # F[1 + s, NOISE]: seat s's noise (skill knob), copied at set-up from its strategy row's last column

#            policy treas goods debt card dist pnear comp harass deny pgain attack portd keep pturn short
RANDOM = (RANDOM_POLICY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
RACER = (HEURISTIC_POLICY, 12.0, 0.6, 1.0, 0.5, 0.9, 0.3, 0.8, 0.3, 1.0, 0.4, 0.6, 0.0, 0.3, 0, 3)
COLLECTOR = (HEURISTIC_POLICY, 6.0, 1.6, 1.2, 0.6, 0.3, 0.4, 0.8, 0.2, 0.3, 0.2, 0.6, 0.35, 0.4, 0, 3)
RAIDER = (HEURISTIC_POLICY, 8.0, 0.7, 1.0, 0.9, 0.6, 0.3, 0.6, 1.5, 2.5, 0.3, 1.4, 0.0, 0.3, 1, 3)
#                               candidates rollouts horizon margin win race
LOOKAHEAD = (LOOKAHEAD_POLICY,) + COLLECTOR[1:] + (4, 8, 2, 0.25, 3.0, 1.0)

PRESETS = (
    Preset("random", "uniform over legal choices (the baseline)", RANDOM, BASELINE),
    Preset("racer", "races for Treasure Islands; spends compasses to reach them", RACER),
    Preset("collector", "gathers Goods into scoring sets; visits ports, bribes cheaply", COLLECTOR),
    Preset("raider", "steers pirates into rivals and their islands, steals, plays attack cards", RAIDER),
    # appended last: the rows of the presets above keep their indices
    Preset("lookahead", "collector, but its turn's first play is the best of collector's top 4 plays, "
                        "each played out 8 times for 2 turns from re-dealt hidden cards", LOOKAHEAD, LOOKAHEAD_TIER),
)

# every weight and threshold above, declared for --bot, [bots.<label>], simkit strategies and simkit train
PARAMS = (
    BotParam("treasure", W_TREASURE, 0, 30, "value of collecting a Treasure"),
    BotParam("goods", W_GOODS, 0, 5, "value per point a Good adds to the best set partition"),
    BotParam("debt", W_DEBT, 0, 5, "cost of a Debt token"),
    BotParam("card", W_CARD, 0, 4, "value of an extra card in hand"),
    BotParam("distance", W_DIST, 0, 3, "cost per square between the ship and the nearest Treasure Island"),
    BotParam("pirate_near", W_PIRATE_NEAR, 0, 3, "cost of ending within two squares of a pirate"),
    BotParam("compass", W_COMPASS, 0, 4, "cost of spending a Magical Compass"),
    BotParam("harass", W_HARASS, 0, 6, "value of a pirate hitting an opponent"),
    BotParam("deny", W_DENY, 0, 8, "value of a pirate taking an island an opponent is closer to"),
    BotParam("pirate_gain", W_PIRATE_GAIN, 0, 3, "cost of the pirates gaining a Treasure"),
    BotParam("attack", W_ATTACK, 0, 5, "value per opponent hit by Cursed Treasure / Broken Compass"),
    BotParam("port_distance", W_PORT_DIST, 0, 2, "cost per square to the nearest port whose Good improves the set"),
    BotParam("keep", W_KEEP, 0, 2, "weight of a card's keep value when choosing the discard"),
    BotParam("pirate_turns", PIRATE_TURNS, 0, 1, "1: consider spending a compass to turn the discard that moves a "
             "pirate", integer=True),
    BotParam("discard_shortlist", DISCARD_SHORTLIST, 0, 8, "consider discarding only this many least-kept cards "
             "(0: every card)", integer=True),
    BotParam("candidates", LA_CANDIDATES, 1, MAX_LOOKAHEAD, "the heuristic's best plays tried by rollouts",
             integer=True, reader=LOOKAHEAD_TIER),
    BotParam("rollouts", LA_ROLLOUTS, 1, MAX_ROLLOUTS, "rollouts per candidate", integer=True, reader=LOOKAHEAD_TIER),
    BotParam("horizon", LA_HORIZON, 0, 20, "turns played after the candidate's turn (0: to the end)", integer=True,
             reader=LOOKAHEAD_TIER),
    BotParam("margin", LA_MARGIN, 0, 10, "points per rollout a candidate must gain over the heuristic's choice",
             reader=LOOKAHEAD_TIER),
    BotParam("win", LA_WIN, 0, 20, "value, in points, of being ahead when a rollout stops", reader=LOOKAHEAD_TIER),
    BotParam("race", LA_RACE, 0, 5, "drop a candidate once its rollouts trail the leader's by this many standard "
             "errors (0: every candidate plays every rollout)", reader=LOOKAHEAD_TIER),
)
# the `tuned` preset, once `simkit train` has written tuned.toml into the game's package
PRESETS = with_tuned(PRESETS, PARAMS, Path(S.__file__).parent)
DEFAULT = "tuned"  # tuned.md: 65.4% of decided games against the collector at 2 players
PREVIOUS_DEFAULT = "collector"  # the default before the tuned preset (the tiers' middle rung)
# every seat of a lookahead rollout plays the deciding seat's own heuristic weights (engine.
# lookahead_choice copies them from its row): the `lookahead` preset's are the collector's
ROLLOUT = "collector"
#                 candidates rollouts horizon margin win race
EXPERT_KNOBS = (6, 8, 2, 0.25, 3.0, 1.0)
_TUNED = next((p for p in PRESETS if p.name == DEFAULT), None)
if _TUNED is not None:  # the expert: tuned's weights (its candidates, its rollouts' seats) with rollouts
    EXPERT = (LOOKAHEAD_POLICY,) + tuple(_TUNED.weights[1:LA_CANDIDATES]) + EXPERT_KNOBS
    PRESETS = PRESETS + (
        Preset("expert", "tuned, but its turn's first play is the best of tuned's top {} plays, each played out "
                         "{} times for {} turns from re-dealt hidden cards, every seat playing tuned".format(
                             *EXPERT_KNOBS[:3]), EXPERT, LOOKAHEAD_TIER),
    )


@jit(inline="always", runtime=False)
def goods_gain(K, mine, colour):
    """Points one more Good of `colour` adds to the hand's best partition."""
    before = goods_points(K, mine[0], mine[1], mine[2], mine[3])
    mine[colour] += 1
    after = goods_points(K, mine[0], mine[1], mine[2], mine[3])
    mine[colour] -= 1
    return after - before


@jit(runtime=False)
def cheapest_bribe(K, mine):
    """The colour whose loss costs the fewest points (-1 if no Goods)."""
    best, best_loss = np.int64(-1), np.int64(1 << 30)
    base = goods_points(K, mine[0], mine[1], mine[2], mine[3])
    for c in range(S.N_COLOURS):
        if mine[c] > 0:
            mine[c] -= 1
            loss = base - goods_points(K, mine[0], mine[1], mine[2], mine[3])
            mine[c] += 1
            if loss < best_loss:
                best, best_loss = np.int64(c), loss
    return best


@jit(runtime=False)
def best_colour(K, mine, stock):
    """The available colour (stock > 0) that adds most points (-1 if none)."""
    best, best_gain = np.int64(-1), np.int64(-1)
    for c in range(S.N_COLOURS):
        if stock[c] > 0:
            g = goods_gain(K, mine, c)
            if g > best_gain:
                best, best_gain = np.int64(c), g
    return best


@jit(inline="always", runtime=False)
def nearest_island(T, K, square):
    best = np.int64(99)
    for i in range(T[ST, S.N_ISLANDS]):
        d = K[DIST0 + T[POS, S.ISLAND0 + i], square]
        best = min(best, d)
    return best


@jit(runtime=False)
def ship_nearer_an_island(T, K, ships):
    """Of the seat's ships (a set), the one nearest a Treasure Island, the first on a tie."""
    best, best_d = np.int64(-1), np.int64(1 << 30)
    for k in range(T[ST, S.N_SHIPS]):
        if offers(ships, k):
            d = nearest_island(T, K, T[POS, S.SHIP0 + k])
            if d < best_d:
                best, best_d = np.int64(k), d
    return best


@jit(runtime=False)
def card_to_resupply(T, K, seat, n_cards):
    """The hand position of the card Resupply puts under the deck: the least useful deck card
    (an Event-free hand's plainest map card, or a port card), the first on a tie."""
    h_best = np.int64(-1)
    best = NO_LEAST
    for h in range(T[SEAT0 + seat, S.HAND_N]):
        card = T[HAND0 + seat, h]
        if not S.is_good(card, n_cards):
            v = 1.0 + 0.2 * K[CARD0 + card, S.CI_NOPT] + (1.0 if K[CARD0 + card, S.CI_KIND] != S.MAP else 0.0)
            if v < best:
                best = v
                h_best = np.int64(h)
    return h_best


@jit(inline="always", runtime=False)
def pirate_cost(T, K, w, seat, mine, strategist_low):
    """Expected cost of one pirate contact to `seat` (a bribe or a Debt)."""
    if mine[0] + mine[1] + mine[2] + mine[3] > 0:
        c = cheapest_bribe(K, mine)
        base = goods_points(K, mine[0], mine[1], mine[2], mine[3])
        mine[c] -= 1
        loss = base - goods_points(K, mine[0], mine[1], mine[2], mine[3])
        mine[c] += 1
        cost = w[W_GOODS] * loss + 0.3
    else:
        cost = w[W_DEBT]
    if T[SEAT0 + seat, S.POWER] == S.STRATEGIST:  # the share of number-die faces that do not spare (A9)
        faces = K[META, NUMBER_FACES]
        hit = 0
        for f in range(faces):
            if K[DICE0 + S.NUMBER_DIE, f] < strategist_low - 1:  # skulls (-1) included
                hit += 1
        cost *= hit / faces
    return cost


# the squares holding a piece, as a bitset of PIECE_WORDS int64 words (bit sq % 64 of word sq // 64):
# a path value skips at once the squares with nothing on them, most of any path
PIECE_WORDS = (S.SQUARES + 63) // 64


@jit(inline="always", runtime=False)
def mark_pieces(T, pieces):
    """Set `pieces` to the squares holding a ship, a pirate, a Port Island, the Combo Port or a
    Treasure Island (the pieces a path value weighs, those engine.occupied looks for), from the
    board as it is now."""
    for j in range(PIECE_WORDS):
        pieces[j] = 0
    for k in range(T[ST, S.N_SHIPS]):
        sq = T[POS, S.SHIP0 + k]
        if sq >= 0:
            pieces[sq >> 6] |= np.int64(1) << (sq & 63)
    for i in range(S.PIRATE0, S.ISLAND0 + T[ST, S.N_ISLANDS]):
        sq = T[POS, i]
        if sq >= 0:
            pieces[sq >> 6] |= np.int64(1) << (sq & 63)


@jit(inline="always", runtime=False)
def has_piece(pieces, sq):
    return (pieces[sq >> 6] >> (sq & 63)) & 1 != 0


@jit(inline="always", runtime=False)
def goods_gains(K, mine, stock, gains):
    """gains[c]: the points one more Good of colour c adds to the hand `mine` (goods_gain), for
    every colour; gains[N_COLOURS]: the colour a Combo Port would give (best_colour). What a
    ship's path is worth in Goods depends on the hand only, so a decision works it out once."""
    best, best_gain = np.int64(-1), np.int64(-1)
    for c in range(S.N_COLOURS):
        g = goods_gain(K, mine, c)
        gains[c] = g
        if stock[c] > 0 and g > best_gain:  # best_colour, from the gains just found
            best, best_gain = np.int64(c), g
    gains[S.N_COLOURS] = best


@jit(inline="always", runtime=False)
def ship_path_value(T, K, w, seat, path, n, gains, stock, pcost, thief_back, pieces):
    """Value for `seat` of its ship sailing through path[0..n-1] (the last square is landed on).
    gains: goods_gains of the hand judged; thief_back: 1 when a Thief met takes a card back
    (thief_contact=any_contact, A38); pieces: the squares holding a piece (mark_pieces)."""
    v = 0.0
    got_island = False
    for i in range(n):
        sq = path[i]
        if not has_piece(pieces, sq):
            continue  # nothing on the square: nothing met, collected or paid there
        landing = i == n - 1
        pirate_here = False
        for p in range(S.N_PIRATES):
            if T[POS, S.PIRATE0 + p] == sq:
                pirate_here = True
        if not got_island:
            for k in range(T[ST, S.N_ISLANDS]):
                if T[POS, S.ISLAND0 + k] == sq:
                    v += w[W_TREASURE]
                    if landing:
                        v += w[W_CARD]
                    got_island = True
        for c in range(S.N_COLOURS):
            if T[POS, S.PORT0 + c] == sq and not pirate_here and stock[c] > 0:
                v += w[W_GOODS] * gains[c] + 0.2
        if T[POS, S.COMBO] == sq and not pirate_here:
            c = gains[S.N_COLOURS]
            if c >= 0:
                v += w[W_GOODS] * gains[c] + 0.2
        if pirate_here:
            for p in range(S.N_PIRATES):
                if T[POS, S.PIRATE0 + p] == sq:
                    v -= pcost
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq and K[OWNER, k] != seat:
                v += w[W_CARD] if landing or T[SEAT0 + seat, S.POWER] == S.THIEF else 0.6 * w[W_CARD]
                if thief_back == 1 and T[SEAT0 + K[OWNER, k], S.POWER] == S.THIEF:
                    v -= w[W_CARD]
    end = path[n - 1]
    if not got_island:
        v -= w[W_DIST] * nearest_island(T, K, end)
    for p in range(S.N_PIRATES):
        if K[DIST0 + T[POS, S.PIRATE0 + p], end] <= 2 and T[POS, S.PIRATE0 + p] != end:
            v -= w[W_PIRATE_NEAR]
    if w[W_PORT_DIST] > 0:
        best = np.int64(99)
        for c in range(S.N_COLOURS):
            if stock[c] > 0 and gains[c] > 0:
                d = K[DIST0 + T[POS, S.PORT0 + c], end]
                best = min(best, d)
        if best < 99:
            v -= w[W_PORT_DIST] * best
    return v


@jit(inline="always", runtime=False)
def pirate_path_value(T, K, w, seat, path, n, pcost, pieces):
    """Value for `seat` of a pirate sailing through path[0..n-1] (pieces: mark_pieces)."""
    v = 0.0
    for i in range(n):
        sq = path[i]
        if not has_piece(pieces, sq):
            continue
        for k in range(T[ST, S.N_ISLANDS]):
            if T[POS, S.ISLAND0 + k] == sq:
                v -= w[W_PIRATE_GAIN] * (1.0 + T[ST, S.PIRATE_TREASURES])
                mine_d = np.int64(99)
                opp_d = np.int64(99)
                for s in range(T[ST, S.N_SHIPS]):
                    d = K[DIST0 + T[POS, S.SHIP0 + s], sq]
                    if K[OWNER, s] == seat:
                        mine_d = min(mine_d, d)
                    else:
                        opp_d = min(opp_d, d)
                # denying an island a rival would reach first; losing one I would reach first
                if opp_d < mine_d and opp_d <= 4:
                    v += w[W_DENY]
                elif mine_d <= opp_d:
                    v -= w[W_DENY] + 0.5 * w[W_TREASURE] / (1.0 + mine_d)
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq:
                if K[OWNER, k] == seat:
                    v -= pcost
                else:
                    v += w[W_HARASS] * (1.0 + 0.3 * T[SEAT0 + K[OWNER, k], S.TREASURES])
    end = path[n - 1]
    for k in range(T[ST, S.N_SHIPS]):
        if K[DIST0 + T[POS, S.SHIP0 + k], end] <= 2:
            if K[OWNER, k] == seat:
                v -= w[W_PIRATE_NEAR]
            else:
                v += 0.3 * w[W_HARASS]
    return v


@jit(runtime=False)
def ship_path_value_called(T, K, w, seat, path, n, gains, stock, pcost, thief_back, pieces):
    """ship_path_value as a function of its own, for the rare decisions (a bonus move, the turn of
    a discard effect): numba types and lowers an inlined function again at every call site, so
    only the candidate scans inline it."""
    return ship_path_value(T, K, w, seat, path, n, gains, stock, pcost, thief_back, pieces)


@jit(runtime=False)
def pirate_path_value_called(T, K, w, seat, path, n, pcost, pieces):
    """pirate_path_value as a function of its own (as ship_path_value_called)."""
    return pirate_path_value(T, K, w, seat, path, n, pcost, pieces)


@jit(runtime=False)
def island_path_value(T, K, w, seat, path, n):
    """Value for `seat` of a Treasure Island drifting through path (So Close Yet So Far)."""
    for i in range(n):
        sq = path[i]
        for k in range(T[ST, S.N_SHIPS]):
            if T[POS, S.SHIP0 + k] == sq:
                return w[W_TREASURE] if K[OWNER, k] == seat else -w[W_TREASURE]
        for p in range(S.N_PIRATES):
            if T[POS, S.PIRATE0 + p] == sq:
                return -w[W_PIRATE_GAIN]
    end = path[n - 1]
    mine = np.int64(99)
    theirs = np.int64(99)
    for k in range(T[ST, S.N_SHIPS]):
        d = K[DIST0 + T[POS, S.SHIP0 + k], end]
        if K[OWNER, k] == seat:
            mine = min(mine, d)
        else:
            theirs = min(theirs, d)
    return w[W_DIST] * (theirs - mine) * 0.5 - w[W_DIST] * mine


@jit(inline="always", runtime=False)
def card_keep_value(T, K, w, card, mine, stock, seat):
    """How much `seat` would rather keep `card` than discard it."""
    kind = K[CARD0 + card, S.CI_KIND]
    if kind == S.PORT_CARD:
        c = K[CARD0 + card, S.CI_PORT]
        return 1.0 + (w[W_GOODS] * goods_gain(K, mine, c) if stock[c] > 0 else 0.0)
    if kind == S.ACTION:
        e = K[CARD0 + card, S.CI_EFFECT]
        if e == S.CURSED_TREASURE:
            hits = 0
            for s in range(T[ST, S.PLAYERS]):
                if s != seat and T[SEAT0 + s, S.TREASURES] >= T[SEAT0 + seat, S.TREASURES]:
                    hits += 1
            return w[W_ATTACK] * hits
        if e == S.RESUPPLY or e == S.UNCHARTED_WATERS:
            return 2.0 * w[W_CARD]
        return 0.8
    return 1.0 + 0.2 * K[CARD0 + card, S.CI_NOPT]


@jit(runtime=False)
def stay_value(T, K, w, seat, ship_square):
    """Value of the ship staying where it is (an Action card was played instead of a move)."""
    v = -w[W_DIST] * nearest_island(T, K, ship_square)
    for p in range(S.N_PIRATES):
        if K[DIST0 + ship_square, T[POS, S.PIRATE0 + p]] <= 2 and T[POS, S.PIRATE0 + p] != ship_square:
            v -= w[W_PIRATE_NEAR]
    return v


@jit(runtime=False)
def action_play_value(T, w, effect, seat, hand_n):
    """Value for `seat` of an Action card's effect (add stay_value for the ship not moving)."""
    if effect == S.CURSED_TREASURE:
        hits = 0
        for s in range(T[ST, S.PLAYERS]):
            if s != seat and T[SEAT0 + s, S.TREASURES] >= T[SEAT0 + seat, S.TREASURES]:
                hits += 1
        return w[W_ATTACK] * hits * w[W_DEBT]
    if effect == S.BROKEN_COMPASS:
        return w[W_ATTACK] * 0.5 * (T[ST, S.PLAYERS] - 1) * w[W_DEBT]
    if effect == S.RESUPPLY:
        return 2.0 * w[W_CARD]
    if effect == S.UNCHARTED_WATERS:
        return w[W_CARD] + 0.5 * w[W_TREASURE] * 0.3
    if effect == S.HURRICANE:
        return 0.5 * w[W_HARASS] * (T[ST, S.PLAYERS] - 1)
    if effect == S.TROUBLE_AT_SEA:
        return 0.8 * w[W_HARASS] + 0.3 * w[W_DENY]
    if effect == S.SO_CLOSE_YET_SO_FAR:
        return 0.3 * w[W_TREASURE]
    return 0.0


@jit(runtime=False)
def broken_compass_mode(seat, hand_n, players):
    """1 = 'equal to or fewer' when holding many cards, else 0 = 'equal to or more'."""
    return np.int64(1) if hand_n >= 6 else np.int64(0)
