"""Invariants of whole self-play games: after every turn and every round's last phases no count of
the game goes below zero or above its supply (the rule inventory,
simkit/games/sea_of_thieves/coverage.toml, gives the ids each assertion names).

Every preset the game lists plays itself at every player count it allows (a lookahead seat
chooses its plan with round.choose_plan before its turn, as round.play_round does), and each
variant plays a few mixed line-ups. The game is stepped a turn at a time (harness.Table) and
the tables are checked between turns; once it is over, the event log's running totals of gold
and reputation are replayed and checked against what the turns reported.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_thieves import GAME
from simkit.games.sea_of_thieves import events as EV
from simkit.games.sea_of_thieves import lookahead as la
from strategies import sea_of_thieves as bot

from .harness import S, Table

PRESETS = [p.name for p in GAME.presets]
SEEDS = 3  # games per preset and player count (random plays to the round cap: 100 rounds)
LOOKAHEAD_SEEDS = 1
VARIANT_CASES = [("two_player", 3), ("two_player", 4), ("equal_gold", 2), ("equal_gold", 4), ("first_game", 3),
                 ("first_game", 2), ("beginner", 2), ("beginner", 4), ("two_player+equal_gold+beginner", 3)]
VARIANT_LINEUPS = (["random"], ["merchant", "hunter", "legend_chaser", "random"])
GOLD_SUPPLY = 42 * 100 + 15 * 500 + 13 * 1000 + 5 * 5000  # SOT-020: 49,700 gold in the box
DAMAGE_SUPPLY = 39 * 3  # SOT-018: 39 damage tokens, 3 points on their big face
NORMAL_CREW = 28  # SOT-014


def need(ok, slot: str, rule: str, what: str):
    """One invariant: `slot` (the state slot checked) stays within the limit `rule` sets."""
    assert ok, f"{slot} ({rule}): {what}"


def ring(T, row, head, n, size) -> list[int]:
    """The cards of a ring deck, top first."""
    return [int(T[row, (head + i) % size]) for i in range(n)]


class Supplies:
    """The box a game is played with, read once after set-up."""

    def __init__(self, t):
        K, T = t.K, t.T
        self.tokens = int(K[S.META, S.N_TOKENS])
        self.loot = int(K[S.META, S.N_LOOT])
        self.treasure = int(K[S.META, S.N_TREASURE])
        self.skeletons = int(K[S.META, S.N_SKELETONS])
        self.fortune = int(K[S.META, S.N_FORTUNE_CARDS])
        self.crew = int(K[S.META, S.N_CREW_CARDS])
        self.events = int(K[S.META, S.N_EVENTS])
        self.voyage_cards = int(K[S.META, S.N_VOYAGE_CARDS])
        # the voyages in play (a two-player game removes some: Voyage Decks)
        self.voyages = sorted(self.voyage_ids(t))
        self.tier_size = [sum(K[S.V_TIER, v] == tier for v in self.voyages) for tier in range(3)]
        self.gold0 = [int(t.seat(s)[S.GOLD]) for s in range(t.players)]
        self.rep0 = [int(t.seat(s)[S.REP]) for s in range(t.players)]
        self.kind = K[S.TOK_KIND, : self.tokens]
        self.bag = K[S.TOK_BAG, : self.tokens]
        self.value = K[S.TOK_VALUE, : self.tokens]
        self.hex_used = T[S.HEX_TYPE, : S.MAX_HEX] != S.ABSENT

    @staticmethod
    def voyage_ids(t) -> list[int]:
        T, st = t.T, t.st
        ids = []
        for tier in range(3):
            ids += ring(T, S.VOY_DECK0 + tier, int(st[S.VOY_HEAD0 + 2 * tier]), int(st[S.VOY_N0 + 2 * tier]),
                        S.MAX_VOYAGES)
        for s in range(t.players):
            ids += t.voyage_hand(s)
        ids += [int(t.ship(k)[S.VOYAGE]) for k in range(2 * t.players) if t.ship(k)[S.VOYAGE] >= 0]
        return ids


def check_tables(t, sup: Supplies, seat: int):
    """Every count within its supply between two turns (seat: whose turn just ended, -1 after the
    round's Ocean Hazards, Event and Fortune phases)."""
    T, K, P, st, n = t.T, t.K, t.P, t.st, t.players
    ships = range(2 * n)
    # ------------------------------------------------------------------ tokens: bags, hexes, holds
    loc = T[S.TOK_LOC, : sup.tokens]
    skeletal = (sup.kind == S.SKELETON) | ((sup.kind == S.CAPTAIN) & (T[S.TOK_SIDE, : sup.tokens] == 0))
    on_hex = (loc >= 0) & (loc < S.HOLD)
    in_hold = (loc >= S.HOLD) & (loc < S.HOLD + 2 * n)
    in_loot, in_treasure = loc == S.IN_LOOT_BAG, loc == S.IN_TREASURE_BAG
    need(bool((on_hex | in_hold | in_loot | in_treasure | (loc == S.IN_BOX)).all()), "T.TOK_LOC", "SOT-143",
         f"tokens at no place: {np.flatnonzero(~(on_hex | in_hold | in_loot | in_treasure | (loc == S.IN_BOX)))}")
    need(bool(sup.hex_used[loc[on_hex]].all()), "T.TOK_LOC", "SOT-038", "a token on a hex not on the board")
    loot_n, treasure_n = int(st[S.LOOT_N]), int(st[S.TREASURE_N])
    need(0 <= loot_n <= sup.loot + sup.skeletons, "ST.LOOT_N", "SOT-140",
         f"loot bag {loot_n} outside 0..{sup.loot + sup.skeletons}")
    need(0 <= treasure_n <= sup.treasure, "ST.TREASURE_N", "SOT-139", f"treasure bag {treasure_n} outside 0..{sup.treasure}")
    need(sorted(T[S.LOOT_BAG_ROW, :loot_n].tolist()) == np.flatnonzero(in_loot).tolist(), "T.LOOT_BAG_ROW", "SOT-084",
         "the loot bag's list and the tokens in it differ")
    need(sorted(T[S.TREASURE_BAG_ROW, :treasure_n].tolist()) == np.flatnonzero(in_treasure).tolist(),
         "T.TREASURE_BAG_ROW", "SOT-206", "the treasure bag's list and the tokens in it differ")
    need(bool((sup.bag[in_loot] == S.LOOT_BAG).all() and (sup.bag[in_treasure] == S.TREASURE_BAG).all()),
         "T.TOK_LOC", "SOT-141", "a token in a bag it does not belong to (a captain in the loot bag)")
    need(not bool((skeletal & in_hold).any()), "T.TOK_LOC", "SOT-200", "a skeleton in a ship's hold")
    hexes = loc[on_hex]
    sk = np.bincount(hexes[skeletal[on_hex]], minlength=S.MAX_HEX)
    cargo = np.bincount(hexes[~skeletal[on_hex]], minlength=S.MAX_HEX)
    capt = np.bincount(hexes[skeletal[on_hex] & (sup.kind[on_hex] == S.CAPTAIN)], minlength=S.MAX_HEX)
    need(bool((T[S.HEX_SKELETONS, : S.MAX_HEX] == sk).all()), "T.HEX_SKELETONS", "SOT-196", "skeleton counts off")
    need(bool((T[S.HEX_CARGO, : S.MAX_HEX] == cargo).all()), "T.HEX_CARGO", "SOT-201", "hex cargo counts off")
    need(bool((T[S.HEX_CAPTAINS, : S.MAX_HEX] == capt).all()), "T.HEX_CAPTAINS", "SOT-095", "captain counts off")
    holds = loc[in_hold] - S.HOLD
    hold_n = np.bincount(holds, minlength=2 * n)
    res_n = np.bincount(holds[sup.kind[in_hold] == S.RESOURCE], minlength=2 * n)
    hold_value = np.bincount(holds, weights=sup.value[in_hold], minlength=2 * n).astype(np.int64)
    # ------------------------------------------------------------------ card decks (no discard piles: SOT-105)
    fortune = ring(T, S.FORTUNE_DECK, int(st[S.FORTUNE_HEAD]), int(st[S.FORTUNE_N]), S.MAX_FORTUNE)
    for s in range(n):
        fortune += t.fortune_hand(s)
    need(sorted(fortune) == list(range(sup.fortune)), "ST.FORTUNE_N+SEAT.FORT_N", "SOT-008",
         f"{len(fortune)} fortune cards in deck and hands, {sup.fortune} in the box")
    market = [int(c) for c in T[S.MARKET, :3] if c >= 0]
    hired = [int(t.ship(k)[S.SPEC0 + i]) for k in ships for i in range(S.MAX_SLOTS) if t.ship(k)[S.SPEC0 + i] >= 0]
    crew_deck = ring(T, S.CREW_DECK, int(st[S.CREW_HEAD]), int(st[S.CREW_N]), S.MAX_CREW_CARDS)
    need(sorted(crew_deck + market + hired) == list(range(sup.crew)), "ST.CREW_N+MARKET+SPEC", "SOT-006",
         f"special crew: {len(crew_deck)} in the deck, {market} on the Outpost, {hired} hired of {sup.crew}")
    need(len(market) <= P.market_size, "T.MARKET", "SOT-144", f"{len(market)} special crew face up")
    voyages = Supplies.voyage_ids(t)
    need(sorted(voyages) == sup.voyages, "ST.VOY_N0+SEAT.VOY_N+SHIP.VOYAGE", "SOT-009",
         f"{len(voyages)} voyage cards in play, {len(sup.voyages)} dealt")
    for tier in range(3):
        m = int(st[S.VOY_N0 + 2 * tier])
        need(0 <= m <= sup.tier_size[tier], "ST.VOY_N0", "SOT-009", f"{S.TIER_NAMES[tier]} deck holds {m}")
    kept = [int(c) for c in T[S.KEPT_BY, : sup.events] if c >= 0]
    event_deck = ring(T, S.EVENT_DECK, int(st[S.EVENT_HEAD]), int(st[S.EVENT_N]), S.MAX_EVENTS)
    need(sorted(event_deck + [c for c in range(sup.events) if T[S.KEPT_BY, c] >= 0]) == list(range(sup.events)),
         "ST.EVENT_N+T.KEPT_BY", "SOT-007", f"event cards: {len(event_deck)} in the deck, {len(kept)} kept")
    # ------------------------------------------------------------------ the seats
    need(int(st[S.ACTIVE]) == -1, "ST.ACTIVE", "SOT-240", "a turn still under way between turns")
    need(0 <= int(st[S.ROUND]) <= P.round_cap, "ST.ROUND", "A16", f"round {int(st[S.ROUND])}")
    need(-1 <= int(st[S.END_REASON]) < len(S.END_REASONS), "ST.END_REASON", "SOT-299", "unknown end reason")
    gold = [int(t.seat(s)[S.GOLD]) for s in range(n)]
    need(min(gold) >= 0, "SEAT.GOLD", "SOT-G21", f"gold {gold}: a payment took more than the seat held")
    need(sum(gold) <= GOLD_SUPPLY, "SEAT.GOLD", "SOT-020", f"{sum(gold)} gold held, {GOLD_SUPPLY} in the box")
    monsters = 0
    for s in range(n):
        seat_row = t.seat(s)
        where = f"seat {s}"
        need(int(seat_row[S.REP]) >= 0, "SEAT.REP", "SOT-103", f"{where}: reputation {int(seat_row[S.REP])}")
        need(int(seat_row[S.FORT_N]) >= 0 and int(seat_row[S.VOY_N]) >= 0, "SEAT.FORT_N/VOY_N", "SOT-238",
             f"{where}: hands {int(seat_row[S.FORT_N])}, {int(seat_row[S.VOY_N])}")
        if s == seat:  # its clean up just ended its turn
            need(int(seat_row[S.FORT_N]) <= P.fortune_limit, "SEAT.FORT_N", "SOT-238",
                 f"{where}: {int(seat_row[S.FORT_N])} fortune cards kept at clean up")
            need(int(seat_row[S.VOY_N]) <= P.voyage_limit, "SEAT.VOY_N", "SOT-238",
                 f"{where}: {int(seat_row[S.VOY_N])} voyage cards kept at clean up")
        need(0 <= int(seat_row[S.ACTIONS_LEFT]) <= P.actions_per_turn, "SEAT.ACTIONS_LEFT", "SOT-177",
             f"{where}: {int(seat_row[S.ACTIONS_LEFT])} actions left")
        need(int(seat_row[S.KEPT]) == int((T[S.KEPT_BY, : sup.events] == s).sum()), "SEAT.KEPT", "SOT-007",
             f"{where}: kept cards miscounted")
        counters = [int(seat_row[c]) for c in (S.COMMISSIONS, S.SINKINGS, S.VOYAGES_DONE, S.ABANDONED, S.MONSTERS,
                                                S.FORTS, S.HAZARD_SINKS)]
        need(min(counters) >= 0 and seat_row[S.HAZARD_SINKS] <= seat_row[S.SINKINGS], "SEAT counters", "SOT-234",
             f"{where}: counters {counters}")
        types = [int(t.ship(k)[S.TYPE]) for k in (2 * s, 2 * s + 1)]
        need(int(seat_row[S.UPGRADES]) == sum(types), "SEAT.UPGRADES", "SOT-236",
             f"{where}: {int(seat_row[S.UPGRADES])} upgrades bought, ships {types}")
        need(types.count(S.GALLEON) <= P.galleons_per_player, "SHIP.TYPE", "A15", f"{where}: {types.count(S.GALLEON)} Galleons")
        monsters += int(seat_row[S.MONSTERS])
    need(monsters <= 2, "SEAT.MONSTERS", "SOT-260", f"{monsters} sea monsters defeated (two in the box)")
    # ------------------------------------------------------------------ the ships
    damage_points = 0
    crew_tokens = 0
    for k in ships:
        r = t.ship(k)
        where = f"ship {k}"
        h, typ = int(r[S.HEX]), int(r[S.TYPE])
        need(typ in (S.SLOOP, S.BRIGANTINE, S.GALLEON), "SHIP.TYPE", "SOT-055", f"{where}: type {typ}")
        need(h == -1 or (0 <= h < S.MAX_HEX and sup.hex_used[h]), "SHIP.HEX", "SOT-234", f"{where}: on hex {h}")
        gauge = int(K[S.META, S.GAUGE0 + typ])
        water, dmg = int(r[S.WATER]), int(r[S.DAMAGE])
        need(0 <= water <= gauge and (water < gauge or h < 0), "SHIP.WATER", "SOT-057",
             f"{where}: water {water} on a gauge of {gauge}, {'afloat' if h >= 0 else 'sunk'}")
        need(dmg >= 0, "SHIP.DAMAGE", "SOT-069", f"{where}: damage {dmg}")
        damage_points += dmg
        specials = [i for i in range(S.MAX_SLOTS) if r[S.SPEC0 + i] >= 0]
        up, down = int(r[S.CREW_UP]), int(r[S.CREW_DOWN])
        slots = int(K[S.META, S.CREW_SLOTS0 + typ])
        need(up >= 0 and down >= 0 and up + down + len(specials) == slots, "SHIP.CREW_UP/CREW_DOWN", "SOT-055",
             f"{where}: {up} up, {down} down, {len(specials)} special in {slots} slots")
        crew_tokens += up + down
        need(all(int(r[S.SPEC_DOWN0 + i]) in (0, 1) for i in range(S.MAX_SLOTS))
             and all(r[S.SPEC_DOWN0 + i] == 0 for i in range(S.MAX_SLOTS) if i not in specials),
             "SHIP.SPEC_DOWN0", "SOT-228", f"{where}: special crew tokens {r[S.SPEC_DOWN0:S.SPEC_DOWN0 + 4].tolist()}")
        need(int(r[S.ACTIONS]) == 0, "SHIP.ACTIONS", "SOT-237", f"{where}: {int(r[S.ACTIONS])} action tokens left on")
        v = int(r[S.VOYAGE])
        need(-1 <= v < sup.voyage_cards, "SHIP.VOYAGE", "SOT-118", f"{where}: voyage {v}")
        if v >= 0:
            need(0 <= int(r[S.PROGRESS]) < int(K[S.V_TARGET, v]), "SHIP.PROGRESS", "SOT-122",
                 f"{where}: progress {int(r[S.PROGRESS])} of {int(K[S.V_TARGET, v])}")
        need(int(r[S.STAGE]) in (0, 1), "SHIP.STAGE", "A8", f"{where}: stage {int(r[S.STAGE])}")
        need(int(r[S.HOLD_N]) == hold_n[k] and int(r[S.RES_N]) == res_n[k] and int(r[S.HOLD_VALUE]) == hold_value[k],
             "SHIP.HOLD_N/RES_N/HOLD_VALUE", "SOT-077", f"{where}: hold counts off")
        need(0 <= int(r[S.RES_N]) <= int(r[S.HOLD_N]), "SHIP.RES_N", "SOT-080", f"{where}: {int(r[S.RES_N])} resources")
        if h < 0:
            need(int(r[S.HOLD_N]) == 0 and v == -1 and not specials, "SHIP.HOLD_N/VOYAGE/SPEC0", "SOT-232",
                 f"{where}: a sunk ship keeps cargo, a voyage or special crew")
        need(int(r[S.LAST_HIT]) in (S.HAZARD, -1, *ships), "SHIP.LAST_HIT", "SOT-193", f"{where}: hit by {int(r[S.LAST_HIT])}")
    need(crew_tokens <= NORMAL_CREW, "SHIP.CREW_UP+CREW_DOWN", "SOT-014", f"{crew_tokens} crew tokens, {NORMAL_CREW} in the box")
    # ------------------------------------------------------------------ the enemies
    standees = np.bincount([int(t.ship(k)[S.HEX]) for k in ships if t.ship(k)[S.HEX] >= 0], minlength=S.MAX_HEX)
    for e in range(S.N_ENEMIES):
        r = T[S.ENEMY0 + e]
        name = S.ENEMY_NAMES[e]
        state, h, dmg = int(r[S.E_STATE]), int(r[S.E_HEX]), int(r[S.E_DAMAGE])
        need(state in range(5) and (state != S.E_BOXED or P.beginner), "E.E_STATE", "SOT-148", f"{name}: state {state}")
        need((state == S.E_ON) == (h >= 0) and (h < 0 or sup.hex_used[h]), "E.E_HEX", "SOT-241",
             f"{name}: {('off', 'on', 'defeated', 'waiting', 'boxed')[state]} at hex {h}")
        if h >= 0:
            standees[h] += 1
        damage_points += dmg
        if e in (S.SKELETON_SLOOP, S.SKELETON_GALLEON):
            limit, rule = int(K[S.EN_DAMAGE, e]), "SOT-253"
            cargo_on_card = [int(x) for x in r[S.E_SLOT0: S.E_SLOT0 + 5] if x >= 0]
            need(len(cargo_on_card) <= int(K[S.EN_SLOTS, e]) and all(loc[x] == S.IN_BOX for x in cargo_on_card),
                 "E.E_SLOT0", "SOT-290", f"{name}: treasure slots {r[S.E_SLOT0:S.E_SLOT0 + 5].tolist()}")
        elif e == S.MEGALODON:
            limit, rule = int(K[S.MEG_DAMAGE, n]), "SOT-277"
        elif e == S.KRAKEN:
            limit, rule = int(K[S.META, S.KRAKEN_WOUND]), "SOT-255"
            need(0 <= int(r[S.E_WOUNDS]) <= int(K[S.META, S.KRAKEN_WOUNDS]), "E.E_WOUNDS", "SOT-255",
                 f"Kraken wounds {int(r[S.E_WOUNDS])}")
            need(0 <= int(r[S.E_TENTACLES]) <= int(K[S.META, S.KRAKEN_TENTACLES]), "E.E_TENTACLES", "SOT-019",
                 f"{int(r[S.E_TENTACLES])} tentacle tokens on the Kraken card")
        else:
            limit, rule = 1, "SOT-256"  # the fort is never damaged
            need(0 <= int(r[S.E_PROGRESS]) <= int(K[S.FORT_TRACK, n]), "E.E_PROGRESS", "SOT-294",
                 f"fort progress {int(r[S.E_PROGRESS])}")
            need(h < 0 or T[S.HEX_TYPE, h] == S.ISLAND, "E.E_HEX", "SOT-292", f"the fort stands on hex {h}")
        need(0 <= dmg < limit, "E.E_DAMAGE", rule, f"{name}: {dmg} damage, defeated at {limit}")
    need(bool((T[S.HEX_STANDEES, : S.MAX_HEX] == standees).all()) and standees.max() <= 2, "T.HEX_STANDEES", "SOT-045",
         f"standees per hex up to {standees.max()}")
    need(damage_points <= DAMAGE_SUPPLY, "SHIP.DAMAGE+E.E_DAMAGE", "SOT-018",
         f"{damage_points} damage points on the cards, {DAMAGE_SUPPLY} in the box")


def check_log(t, sup: Supplies, start: int):
    """The log's running totals: gold and reputation replayed from set-up never go below zero and
    match what every turn reported, and no row reports a count past its supply."""
    K = t.K
    gold, rep = list(sup.gold0), list(sup.rep0)
    for rnd, seat, code, a, b, c in (tuple(int(x) for x in r) for r in t.log[start: int(t.st[S.LOG_N])]):
        change = 0
        if code == EV.SELL:
            change = c
        elif code in (EV.REPAIR, EV.UPGRADE, EV.HIRE) or (code == EV.SEEK and b == 1):
            change = -c
        elif code == EV.VOYAGE_DONE and K[S.V_REWARD, b] == S.R_GOLD:
            change = c
        elif code == EV.FORTUNE_PLAY and b == S.F_COIN:
            change = int(K[S.FO_AMOUNT, a])
        elif code == EV.CORNER and a == S.C_WINDFALL:
            change = b
        if change:
            gold[seat] += change
            need(gold[seat] >= 0, "log gold", "SOT-G21", f"round {rnd}: seat {seat} paid into debt ({gold[seat]})")
        if code == EV.REPUTATION:
            rep[seat] = max(0, rep[seat] + a)
            need(b == rep[seat], "log REPUTATION.b", "SOT-103", f"round {rnd}: seat {seat} at {b}, replayed {rep[seat]}")
        elif code == EV.TURN:
            need((b, c) == (gold[seat], rep[seat]), "log TURN.b/c", "SOT-205",
                 f"round {rnd}: seat {seat} starts with {b} gold, {c} reputation; replayed {gold[seat]}, {rep[seat]}")
        elif code == EV.REPAIR:
            need(b >= 1 and c == b * t.P.repair_cost, "log REPAIR", "SOT-208", f"{b} damage repaired for {c} gold")
        elif code == EV.RISING:
            need(0 <= b <= c, "log RISING.b", "SOT-057", f"water {b} on a gauge of {c}")
        elif code == EV.DAMAGE:
            need(b >= 0, "log DAMAGE.b", "SOT-069", f"damage {b}")
        elif code == EV.TENTACLES:
            need(0 <= a <= K[S.META, S.KRAKEN_TENTACLES], "log TENTACLES.a", "SOT-019", f"{a} tentacles")
        elif code == EV.ROLL:
            need(0 <= b <= S.MAX_SLOTS and 0 <= c <= 2 * b, "log ROLL", "SOT-066", f"{c} successes on {b} dice")
        elif code == EV.DEFEAT:
            need(c >= 0, "log DEFEAT.c", "SOT-060", f"{c} crew face up")
        elif code == EV.SCORE:
            need(a >= 0, "log SCORE.a", "SOT-302", f"final score {a}")
    need(gold == [int(t.seat(s)[S.GOLD]) for s in range(t.players)], "log gold", "SOT-205",
         f"replayed gold {gold}, the seats hold {[int(t.seat(s)[S.GOLD]) for s in range(t.players)]}")
    need(rep == [int(t.seat(s)[S.REP]) for s in range(t.players)], "log reputation", "SOT-101", "replayed reputation off")


def play_checked(players: int, variant: str, lineup: list[str], seed: int) -> Table:
    """One game as chunk.play_games plays it, the tables checked after set-up, after every turn
    and after every round's last phases, the log once it is over."""
    t = Table(players, variant, seed=seed, strategies=[lineup[s % len(lineup)] for s in range(players)])
    sup = Supplies(t)
    check_tables(t, sup, -1)
    while True:
        for s in range(players):
            if t.F[1 + s, bot.W_ROLLOUTS] > 0.0 and t.call("deciding_round", seat=s):  # a lookahead seat
                plan = t.call("choose_plan", seat=s, players=players)  # plays this turn by its best plan
                la.set_plan(t.F, np.int64(s), la.plan_row(t.F, np.int64(s), plan), t.presets)
                t.call("take_turn", seat=s)
                la.restore_weights(t.F, np.int64(s))
            else:
                t.call("take_turn", seat=s)
            check_tables(t, sup, s)
        t.call("end_round", players=players)
        check_tables(t, sup, -1)
        if t.st[S.END_REASON] >= 0:
            break
        if t.st[S.ROUND] >= t.P.round_cap:
            t.st[S.END_REASON] = S.END_ROUND_CAP
            break
    t.call("final_scoring", players=players)
    check_log(t, sup, 0)
    return t


@pytest.mark.parametrize("preset", PRESETS)
def test_self_play_keeps_every_count_within_its_supply(preset):
    seeds = LOOKAHEAD_SEEDS if GAME.preset(preset).kind == "lookahead" else SEEDS  # the lookahead and the expert
    for players in GAME.players:
        for seed in range(seeds):
            t = play_checked(players, "standard", [preset], seed)
            assert t.st[S.END_REASON] >= 0


@pytest.mark.parametrize("variant,players", VARIANT_CASES)
def test_variant_games_keep_every_count_within_its_supply(variant, players):
    for seed, lineup in enumerate(VARIANT_LINEUPS):
        play_checked(players, variant, lineup, 100 + seed)


def test_the_cases_cover_every_preset_player_count_and_variant():
    assert PRESETS == [p.name for p in GAME.presets] and "lookahead" in PRESETS
    assert set(GAME.players) == {2, 3, 4}
    named = {part for v, _ in VARIANT_CASES for part in v.split("+")}
    assert named == {v.name for v in GAME.rules.variants}
