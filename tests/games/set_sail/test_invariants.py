"""Invariants of whole self-play games: no count of Set Sail goes below zero or above its supply.

Every preset the game lists (`simkit strategies set_sail`, the lookahead tier included, which
plays its turns through lookahead.lookahead_turn as chunk.play_games seats it) at every player
count the game allows (2-4 under the rules as written, 5-6 under the `extended` variant, A20)
plays a few hundred games with fixed seeds. After every turn each slot of the state table is
checked against its supply and its limit, and the turn's event-log rows are added to running
totals per seat (silver, Supply, VP, Trade cards, ship cards, upgrades, treasure maps, times run
out) that must equal the seat's slots: a count changes only through a logged rule event, and
every logged running value (a SILVER or SUPPLY row's "now") stays at or above zero, so a payment
that dips below zero inside a turn is caught even when the turn ends above it.

Each assertion names the state slot (simkit/games/set_sail/state.py) and the rule it defends
(an inventory id of simkit/games/set_sail/coverage.toml, or an assumption A<n> of
coverage.toml). Supplies the rulebook leaves unlimited (silver and gold SS-007/008, Supply
tokens SS-020/SS-078, SS-G8) are checked only for the lower bound.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.game import LOG_WIDTH
from simkit.games.set_sail import GAME, engine
from simkit.games.set_sail import lookahead as LA
from strategies import set_sail as bot

from .harness import COMP, EV, PRESETS, S, Table

PRESET_NAMES = GAME.preset_names()
N_TILES = len(COMP.names)
QUEST_CARDS = (COMP.plunder, COMP.trade, COMP.treasure)
QUEST_DECK = 14  # SS-009, SS-011, SS-013: 14 cards in each quest deck
SHIP_DECK = (45, 22)  # SS-018, SS-019
TRADE_CARDS = 15  # SS-015..SS-017: 15 Trade cards of each good
UPGRADE_TOKENS = 18  # SS-021: 18 tokens of each upgrade
PRINTED_SHIPS = [np.bincount(np.array(COMP.ships[d], dtype=np.int64), minlength=S.MAX_HEALTH) for d in range(2)]
ALL_QUEST_VP = sum(vp for cards in QUEST_CARDS for vp, *_ in cards)
SUPPLY_PORT_TILES = {int(t) for t in np.flatnonzero(np.array(COMP.types) == S.SUPPLY_PORT)}
TRIM = {2: "quest_trim_2p", 3: "quest_trim_3p", 4: "quest_trim_4p", 5: "quest_trim_5p", 6: "quest_trim_6p"}
# every player count the game allows: the rules' 2-4, and 5-6 only under `extended` (A20)
VARIANT_FOR = {2: "standard", 3: "standard", 4: "standard", 5: "extended", 6: "extended"}
SEEDS = range(6)  # per line-up: 5 counts x 7 line-ups x 6 seeds = 210 games
# odd seeds also play the rulebook's other readings, so their code paths keep the counts too
READINGS = {"player_trade": "sell_surplus", "trade_route_reward": "combat_section",
            "upgrade_port_visits": "per_piece"}


def lineups(players: int) -> list[list[str]]:
    """Seven line-ups cycling through the presets: each preset sits `players` times."""
    n = len(PRESET_NAMES)
    return [[PRESET_NAMES[(j * players + i) % n] for i in range(players)] for j in range(n)]


class Lookahead:
    """The playout tables chunk.play_with_tables allocates for a lookahead seat."""

    def __init__(self, t: Table):
        self.t = t
        self.T2 = np.zeros_like(t.T)
        self.F2 = np.zeros_like(t.F)
        for s in range(t.players):
            engine.load_strategy(self.F2, PRESETS, np.int64(bot.ROLLOUT_ROW), np.int64(s))
        self.rng2 = np.zeros_like(t.rng)
        self.buf2 = np.zeros_like(t.buf)
        self.log2 = np.zeros((0, LOG_WIDTH), dtype=np.int64)
        self.L = np.zeros((LA.L_ROWS, LA.L_WIDTH), dtype=np.int64)
        self.V = np.zeros((LA.V_ROWS, LA.V_WIDTH), dtype=np.float64)
        self.seeds = np.zeros(LA.MAX_ROLLOUTS, dtype=np.uint64)
        self.D = np.zeros_like(t.T)
        self.rngD = np.zeros_like(t.rng)

    def turn(self, seat: int):
        t = self.t
        LA.lookahead_turn(t.P, t.T, t.K, t.F, t.rng, t.buf, t.log, np.int64(seat), self.T2, self.F2, self.rng2,
                          self.buf2, self.log2, self.L, self.V, self.seeds, self.D, self.rngD)


def play(t: Table, after_turn) -> None:
    """chunk.play_games' round loop in Python, every tier seated as it seats them."""
    la = Lookahead(t) if any(t.F[1 + s, bot.POLICY] == 2 for s in range(t.players)) else None
    while True:
        for s in range(t.players):
            if t.F[1 + s, bot.POLICY] == 2:
                la.turn(s)
            else:
                t.call("take_turn", seat=s)
            after_turn(t, s)
        t.st[S.ROUND] += 1
        if t.st[S.END_REASON] >= 0:
            break
        if t.st[S.ROUND] >= t.P.round_cap:
            t.st[S.END_REASON] = S.END_ROUND_CAP
            break
    t.call("final_scoring")


class Ledger:
    """Running totals per seat rebuilt from the event log, and the slots' bounds, after every turn."""

    def __init__(self, t: Table):
        n = t.players
        self.t = t
        self.cap = int(t.P.upgrade_cap)
        self.silver = [int(t.seat(s)[S.SILVER]) for s in range(n)]
        self.supply = [int(t.seat(s)[S.SUPPLY]) for s in range(n)]
        self.vp = [0] * n
        self.goods = [[0] * S.N_GOODS for _ in range(n)]
        self.ships = [0] * n
        self.upgrades = [[0] * S.N_UPGRADES for _ in range(n)]
        self.maps = [0] * n
        self.ran_out = [0] * n
        self.last = None  # the previous check's monotone slots
        self.end_reason = -1
        self.turns = 0
        self.read = t.mark()
        where = "at set-up"
        for s in range(n):
            row = t.seat(s)
            assert int(row[S.SILVER]) == getattr(t.P, f"starting_silver_{s + 1}") == 3, \
                f"SILVER [SS-055]: seat {s} starts with {int(row[S.SILVER])} silver, not 3"
            assert int(row[S.SUPPLY]) == t.P.start_supply == 5, \
                f"SUPPLY [SS-054]: seat {s} starts with {int(row[S.SUPPLY])} Supply, not 5"
            assert int(row[S.VP]) == 0, f"VP [SS-058]: seat {s} starts with {int(row[S.VP])} VP"
            assert not row[S.UPG0: S.UPG0 + 3].any() and not row[S.GOODS0: S.SHIP0 + 2 * S.MAX_HEALTH].any(), \
                f"UPG0/GOODS0/SHIP0 [SS-050]: seat {s} starts with tokens or cards"
            for k in range(S.PIECES):
                assert int(t.pos[2 * s + k]) in SUPPLY_PORT_TILES, \
                    f"POS [SS-056]: seat {s} piece {k} starts off the Supply Port"
        # Setup 4: the top cards of each quest deck removed by player count (SS-044..046, A20, A24)
        trim = int(getattr(t.P, TRIM[n]))
        self.removed = [int(t.st[S.QREMOVED0 + k]) for k in range(3)]
        self.removed_cards = []  # the removed cards lie above the deck's top, never read again (SS-048)
        for kind in range(3):
            want = 0 if kind == S.TREASURE and not t.P.trim_treasure_deck else trim
            assert self.removed[kind] == want, \
                f"QREMOVED0+{kind} [SS-044..046, A20]: {self.removed[kind]} {S.QUEST_NAMES[kind]} cards removed " \
                f"with {n} players, not {want}"
            left = int(t.st[S.QDECK_N0 + kind])
            self.removed_cards.append((left, t.T[S.QDECK0 + kind, left: left + self.removed[kind]].copy()))
        self.check(-1, where)

    def __call__(self, t: Table, seat: int):
        self.turns += 1
        self.check(seat, f"after seat {seat}'s turn {int(t.st[S.TURNS])} (round {int(t.st[S.ROUND])})")

    # ------------------------------------------------------------------ the log's running totals
    def replay_log(self, where: str):
        t, cap = self.t, self.cap
        for _rnd, s, code, a, b, c in t.rows(self.read):
            if code == EV.SILVER:
                self.silver[s] += a
                assert c == self.silver[s], f"SILVER [SS-052]: seat {s} logs {c} silver, its changes add to " \
                                            f"{self.silver[s]} {where}"
                assert c >= 0, f"SILVER [SS-076, SS-079, SS-085, SS-087, SS-089, SS-093, SS-147]: seat {s} " \
                               f"pays into {c} silver {where}"
            elif code == EV.SUPPLY:
                self.supply[s] += a
                assert c == self.supply[s], f"SUPPLY [SS-141]: seat {s} logs {c} Supply, its changes add to " \
                                            f"{self.supply[s]} {where}"
                assert c >= 0, f"SUPPLY [SS-144]: seat {s} loses Supply to {c} instead of running out {where}"
            elif code == EV.QUEST:
                self.vp[s] += QUEST_CARDS[a][b][0]
                assert c == self.vp[s], f"VP [SS-098, SS-102, SS-116]: seat {s} logs {c} VP, its quests add to " \
                                        f"{self.vp[s]} {where}"
                if a == S.TREASURE:
                    self.maps[s] -= 1
            elif code == EV.MAP_BOUGHT:
                self.maps[s] += 1
            elif code == EV.GOOD:
                self.goods[s][a] += b
            elif code == EV.SHIP_WON:
                self.ships[s] += 1
            elif code == EV.SHIPS_PAID:
                self.ships[s] -= a
            elif code == EV.STEAL:
                if b < S.N_GOODS:
                    self.goods[s][b] += 1
                    self.goods[a][b] -= 1
                else:
                    self.ships[s] += 1
                    self.ships[a] -= 1
            elif code == EV.TRADE:
                self.ships[s] += b
                self.ships[a] -= b
            elif code == EV.UPGRADE:
                self.upgrades[s][a] += b
            elif code == EV.RAN_OUT:
                self.ran_out[s] += 1
                assert a == self.ran_out[s], f"RAN_OUT [SS-145]: seat {s} logs running out #{a}, the log holds " \
                                             f"{self.ran_out[s]} {where}"
            elif code == EV.SHIP_FIGHT:
                assert 1 <= c <= 6 + cap, f"SHIP_FIGHT roll [SS-006, SS-132]: d6 + cannons = {c} {where}"
            elif code == EV.ATTACK:
                assert 1 <= b <= 6 + cap, f"ATTACK roll [SS-006, SS-119]: d6 + cannons = {b} {where}"
                assert 0 <= a < t.players and a != s, f"ATTACK [SS-130]: seat {s} attacks seat {a} {where}"
            elif code == EV.DEFEND:
                assert 1 <= b <= 6 + cap, f"DEFEND roll [SS-006, SS-121, SS-125]: d6 + tokens = {b} {where}"
            elif code == EV.TURN:
                top = t.P.movement + t.P.oar_movement * cap
                assert 1 <= b <= top, f"TURN budget [SS-067, SS-068, SS-150]: {b} tiles of movement {where}"
            elif code in (EV.MOVE, EV.RETREAT):
                assert 0 <= b < N_TILES and 0 <= c < N_TILES, f"POS [SS-066]: a move {b} -> {c} off the board {where}"
        self.read = t.mark()

    # ------------------------------------------------------------------ the state's slots
    def check(self, seat: int, where: str):
        t, cap, n = self.t, self.cap, self.t.players
        st = t.st
        self.replay_log(where)
        # Trade cards: 15 of each good, in the supply or in hands (SS-015..017, SS-G18)
        for g in range(S.N_GOODS):
            pile = int(st[S.PILE0 + g])
            assert 0 <= pile <= TRADE_CARDS, f"PILE0+{g} [SS-015..017, A9]: {pile} {S.GOOD_NAMES[g]} cards in " \
                                             f"the supply {where}"
            held = int(t.T[S.SEAT0: S.SEAT0 + n, S.GOODS0 + g].sum())
            assert pile + held == TRADE_CARDS, f"PILE0+{g}/GOODS0+{g} [SS-015..017]: {pile} + {held} " \
                                               f"{S.GOOD_NAMES[g]} cards {where}"
        # ship cards: the decks, their discards and the hands hold the printed cards (SS-018, SS-019, SS-G17)
        for d in range(2):
            deck_n, disc_n = int(st[S.DECK_N0 + d]), int(st[S.DISC_N0 + d])
            assert 0 <= deck_n <= SHIP_DECK[d], f"DECK_N0+{d} [SS-018, SS-019, SS-131]: {deck_n} cards {where}"
            assert 0 <= disc_n <= SHIP_DECK[d], f"DISC_N0+{d} [SS-107, SS-138]: {disc_n} discards {where}"
            cards = np.concatenate([t.T[S.DECK0 + d, :deck_n], t.T[S.DISC0 + d, :disc_n]])
            held = t.T[S.SEAT0: S.SEAT0 + n, S.SHIP0 + d * S.MAX_HEALTH: S.SHIP0 + (d + 1) * S.MAX_HEALTH]
            counts = np.bincount(cards, minlength=S.MAX_HEALTH) + held.sum(axis=0)
            assert (counts == PRINTED_SHIPS[d]).all(), f"DECK0+{d}/DISC0+{d}/SHIP0 [SS-018, SS-019, SS-G17]: " \
                                                            f"ship cards by health {counts.tolist()} {where}"
        # quest decks: 14 cards each, removed ones stay out (SS-009, SS-011, SS-013, SS-048)
        open_cards = [[int(c) for c in st[S.OPEN0 + k * S.MAX_OPEN: S.OPEN0 + (k + 1) * S.MAX_OPEN]]
                      for k in range(2)]
        for kind in range(3):
            left = int(st[S.QDECK_N0 + kind])
            assert 0 <= left <= QUEST_DECK, f"QDECK_N0+{kind} [SS-009, SS-011, SS-013]: {left} cards {where}"
            assert int(st[S.QREMOVED0 + kind]) == self.removed[kind], \
                f"QREMOVED0+{kind} [SS-048]: removed quest cards came back {where}"
            at, removed = self.removed_cards[kind]
            assert (t.T[S.QDECK0 + kind, at: at + len(removed)] == removed).all(), \
                f"QDECK0+{kind} [SS-048]: a removed {S.QUEST_NAMES[kind]} card was put back in play {where}"
            cards = list(t.T[S.QDECK0 + kind, :left]) + list(removed)
            if kind < 2:
                shown = [c for c in open_cards[kind] if c >= 0]
                assert all(c < 0 for c in open_cards[kind][t.P.open_quest_spaces:]), \
                    f"OPEN0 [A3]: a {S.QUEST_NAMES[kind]} quest beyond the {t.P.open_quest_spaces} open spaces {where}"
                cards += shown
            else:
                for s in range(n):
                    maps = int(t.seat(s)[S.N_MAPS])
                    assert 0 <= maps <= QUEST_DECK, f"N_MAPS [SS-093, SS-095]: seat {s} holds {maps} maps {where}"
                    cards += list(t.T[S.MAPS0 + s, :maps])
            done = sum(int(t.seat(s)[S.DONE0 + kind]) for s in range(n))
            cards = [int(c) for c in cards]
            assert len(set(cards)) == len(cards) and all(0 <= c < len(QUEST_CARDS[kind]) for c in cards) and \
                len(cards) + done == QUEST_DECK, \
                f"QDECK0+{kind}/OPEN0/MAPS0/DONE0 [SS-009, SS-011, SS-013, SS-097, SS-101]: " \
                f"{S.QUEST_NAMES[kind]} cards {sorted(cards)} + {done} done {where}"
        upgrades_out = np.zeros(S.N_UPGRADES, dtype=np.int64)
        for s in range(n):
            row = t.seat(s)
            silver, supply, vp = int(row[S.SILVER]), int(row[S.SUPPLY]), int(row[S.VP])
            assert silver == self.silver[s] and silver >= 0, \
                f"SILVER [SS-076, SS-079, SS-093]: seat {s} holds {silver}, the log adds to {self.silver[s]} {where}"
            assert supply == self.supply[s] and supply >= 0, \
                f"SUPPLY [SS-144, SS-149]: seat {s} holds {supply}, the log adds to {self.supply[s]} {where}"
            assert vp == self.vp[s] and 0 <= vp <= ALL_QUEST_VP, \
                f"VP [SS-025]: seat {s} holds {vp} VP, its quests add to {self.vp[s]} {where}"
            goods = [int(x) for x in row[S.GOODS0: S.GOODS0 + S.N_GOODS]]
            assert goods == self.goods[s] and min(goods) >= 0, \
                f"GOODS0 [SS-079, SS-080, SS-100]: seat {s} holds {goods}, the log adds to {self.goods[s]} {where}"
            hold = int(t.P.hand_limit + t.P.barrel_capacity * row[S.UPG0 + S.BARREL])
            assert sum(goods) <= hold, f"GOODS0 [SS-081, SS-082, SS-154]: seat {s} holds {sum(goods)} Trade cards " \
                                       f"over its capacity {hold} {where}"
            ships = row[S.SHIP0: S.SHIP0 + 2 * S.MAX_HEALTH]
            assert (ships >= 0).all() and int(ships.sum()) == self.ships[s], \
                f"SHIP0 [SS-077, SS-096, SS-134]: seat {s} holds {int(ships.sum())} ship cards, the log adds to " \
                f"{self.ships[s]} {where}"
            ups = [int(x) for x in row[S.UPG0: S.UPG0 + S.N_UPGRADES]]
            assert ups == self.upgrades[s] and all(0 <= u <= cap for u in ups), \
                f"UPG0 [SS-083, SS-084, SS-146]: seat {s} holds upgrades {ups}, the log adds to " \
                f"{self.upgrades[s]} (cap {cap}) {where}"
            upgrades_out += row[S.UPG0: S.UPG0 + S.N_UPGRADES]
            assert int(row[S.N_MAPS]) == self.maps[s], \
                f"N_MAPS [SS-093, SS-165]: seat {s} holds {int(row[S.N_MAPS])} maps, the log adds to " \
                f"{self.maps[s]} {where}"
            assert int(row[S.RAN_OUT]) == self.ran_out[s], \
                f"RAN_OUT [SS-144]: seat {s} ran out {int(row[S.RAN_OUT])} times, the log says {self.ran_out[s]} {where}"
            assert int(row[S.HALF_MOVE]) in (0, 1), f"HALF_MOVE [SS-150]: seat {s} {int(row[S.HALF_MOVE])} {where}"
            assert all(0 <= int(row[S.DONE0 + k]) <= QUEST_DECK for k in range(3)), \
                f"DONE0 [SS-025]: seat {s} quests done {row[S.DONE0: S.DONE0 + 3].tolist()} {where}"
            for k in range(S.PIECES):
                tile = int(t.pos[2 * s + k])
                assert 0 <= tile < N_TILES, f"POS [SS-066, SS-G1]: seat {s} piece {k} on tile {tile} {where}"
        assert (upgrades_out <= UPGRADE_TOKENS).all(), f"UPG0 [SS-021]: {upgrades_out.tolist()} tokens out {where}"
        # what only grows: VP (quests are never lost, SS-025, SS-036), quests done, maps dug, wins, run-outs
        now = t.T[S.SEAT0: S.SEAT0 + n][:, [S.VP, S.DONE0, S.DONE0 + 1, S.DONE0 + 2, S.SHIP_WINS, S.PLAYER_WINS,
                                             S.RAN_OUT]].copy()
        if self.last is not None:
            assert (now >= self.last).all(), f"VP/DONE0/SHIP_WINS/PLAYER_WINS/RAN_OUT [SS-025, SS-036]: " \
                                             f"{self.last.tolist()} -> {now.tolist()} {where}"
        self.last = now
        # the end: once triggered it stays, and only by 30 VP (SS-031, SS-032)
        reason = int(st[S.END_REASON])
        if self.end_reason >= 0:
            assert reason == self.end_reason, f"END_REASON [SS-032]: {self.end_reason} -> {reason} {where}"
        if reason == S.END_VP:
            assert max(self.vp) >= t.P.vp_to_win, f"END_REASON [SS-031]: the end without {t.P.vp_to_win} VP {where}"
        self.end_reason = reason
        assert int(st[S.PLAYERS]) == n and 0 <= int(st[S.ACTIVE]) < n, f"PLAYERS/ACTIVE [SS-029]: {where}"


@pytest.mark.parametrize("players", sorted(VARIANT_FOR))
def test_no_count_leaves_its_supply_in_self_play(players):
    variant = VARIANT_FOR[players]
    seen = set()
    for j, lineup in enumerate(lineups(players)):
        for seed in SEEDS:
            overrides = READINGS if seed % 2 else {}
            t = Table(players=players, variant=variant, overrides=overrides, seed=1000 * players + 10 * j + seed,
                      strategies=lineup)
            ledger = Ledger(t)
            play(t, ledger)
            where = f"at the end ({players} players, {lineup}, seed {seed})"
            ledger.check(-1, where)
            # the round in which the end was triggered is finished (SS-032), and the final scores are the VP
            assert ledger.turns == int(t.st[S.ROUND]) * players == int(t.st[S.TURNS]), \
                f"TURNS [SS-030, SS-032]: {ledger.turns} turns in {int(t.st[S.ROUND])} rounds {where}"
            scores = [int(r[3]) for r in t.log[t.mark() - players: t.mark()] if r[2] == EV.SCORE]
            assert scores == ledger.vp, f"VP [SS-033]: scored {scores}, the log adds to {ledger.vp} {where}"
            seen.update(lineup)
    assert seen == set(PRESET_NAMES)  # every preset played at this player count


def test_every_player_count_and_preset_is_covered():
    counts = sorted(set(GAME.players) | {n for v in GAME.rules.variants for n in (v.players or ())})
    assert sorted(VARIANT_FOR) == counts
    assert {name for n in VARIANT_FOR for lineup in lineups(n) for name in lineup} == set(PRESET_NAMES)
