"""Invariants of whole self-play games: no count of Tide of Avaris goes below zero or above its supply.

Every preset the game lists (`simkit strategies tide_of_avaris`, the lookahead tier included,
whose destinations are chosen by lookahead.choose_destination as chunk.play_day seats it) at
every player count the game allows (2, 3 and 4) plays a few hundred games with fixed seeds: even
seeds under the rules as written, odd ones under each variant in turn, so their code paths keep
the counts too. The Day is stepped as engine.play_day steps it (start_day, every Sunrise turn,
every Sunset turn, night), and after every turn and every Night each slot of the state table is
checked against its supply and its limit, and the new event-log rows are added to running totals
per seat (Treasure Points by source, relics, upgrade levels, the controllers of the spirit dice
and Regions) that must equal the slots; gold and rum are held to the bank's ledger (GOLD_MADE -
GOLD_PAID, RUM_MADE - RUM_PAID), crew dice to DICE_BOUGHT - DICE_LOST.

Each assertion names the state slot (simkit/games/tide_of_avaris/state.py) and the rule it
defends (an inventory id of simkit/games/tide_of_avaris/coverage.toml, or an assumption
A<n> of coverage.toml). Gold and rum are unlimited (TOA-G13): only their lower bound is checked.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.tide_of_avaris import GAME
from simkit.games.tide_of_avaris import lookahead as LA
from strategies import tide_of_avaris as bot

from .harness import EV, S, Table

PRESET_NAMES = GAME.preset_names()
VARIANTS = [v for v in GAME.rules.variant_names() if v != "standard"]
SEEDS = range(10)  # per line-up: 3 counts x 7 line-ups x 10 seeds = 210 games
START_DICE = 5  # TOA-014


def lineups(players: int) -> list[list[str]]:
    """One line-up per preset, the presets that follow it filling the other seats: each preset
    sits in every seat once."""
    n = len(PRESET_NAMES)
    return [[PRESET_NAMES[(j + i) % n] for i in range(players)] for j in range(n)]


class Lookahead:
    """The scratch tables chunk.play_with_tables allocates for a lookahead seat."""

    def __init__(self, t: Table):
        self.W = np.zeros_like(t.T)
        self.F2 = np.zeros_like(t.F)
        self.rng2 = np.zeros_like(t.rng)
        self.D = np.zeros_like(t.T)
        self.rngD = np.zeros_like(t.rng)
        self.log0 = np.zeros((0, 6), dtype=np.int64)
        self.cand = np.zeros(LA.MAX_CANDIDATES, dtype=np.int64)
        self.value = np.zeros((LA.MAX_CANDIDATES, LA.VALUE_WIDTH), dtype=np.float64)

    def destination(self, t: Table, seat: int, phase: int, i: int) -> int:
        return int(LA.choose_destination(t.P, t.T, t.K, t.F, t.rng, np.int64(seat), np.int64(phase), np.int64(i),
                                         np.int64(t.players), self.W, self.F2, self.rng2, self.D, self.rngD,
                                         self.log0, self.cand, self.value))


def play(t: Table, after) -> None:
    """chunk.play_day, Day after Day, in Python: after(t, seat) after every turn, after(t, -1)
    after every Night; then final scoring."""
    n = t.players
    la = Lookahead(t) if any(t.F[1 + s, bot.POLICY] == 2 for s in range(n)) else None
    over = False
    while not over:
        t.call("start_day", players=n)
        for phase in range(2):
            t.st[S.ROUND_TURN] = phase
            for i in range(n):
                seat = int(t.T[S.ORDER, i])
                if t.F[1 + seat, bot.POLICY] == 2:
                    t.call("begin_turn", seat=seat, phase=phase)
                    dest = la.destination(t, seat, phase, i)
                    t.call("finish_turn", seat=seat, phase=phase, players=n, dest=dest)
                else:
                    t.call("take_turn", seat=seat, phase=phase, players=n)
                after(t, seat)
        over = t.call("night", players=n)
        after(t, -1)
    t.call("final_scoring", players=n)


class Ledger:
    """Running totals rebuilt from the event log, and the slots' bounds, after every turn and Night."""

    def __init__(self, t: Table):
        n, K = t.players, t.K
        self.t = t
        self.meta = {name: int(K[S.META, getattr(S, name)]) for name in (
            "N_SPACES", "BAG_PER_COLOUR", "LOWER_CAP", "N_RELIC_CARDS", "N_MONSTERS", "N_NAVY", "N_BURIAL",
            "N_ENDGAME", "N_TOKENS", "SLOOPS_START", "N_CREW_FACES", "N_REGIONS")}
        self.treasure = 6 * self.meta["BAG_PER_COLOUR"]  # TOA-021, TOA-022, A11
        self.tracks = [int(np.argmax(np.append(K[S.UP_COST0 + k, :S.KW] < 0, True))) for k in range(4)]
        self.tokens = [int(x) for x in K[S.TOKENS, :self.meta["N_TOKENS"]]]
        self.points = [0] * n
        self.bonus = [0] * n
        self.secret = [0] * n
        self.endgame = [0] * n
        self.relics = [[0] * len(S.RELIC_EFFECTS) for _ in range(n)]
        self.n_relics = [0] * n
        self.levels = [[0] * 4 for _ in range(n)]
        self.bought = 0  # crew dice bought (REBUY, the Crew track)
        self.controllers = [-1] * S.N_CTRL
        self.bonuses_taken = 0
        self.unlocked = 0
        self.last = None
        self.end_reason = -1
        self.day = None  # the last Day the log began
        self.turns = 0
        self.read = t.setup_rows
        assert t.treasure_count() == self.treasure, "BAG/SLOT [TOA-020, TOA-032]: the set-up lost treasure"
        for s in range(n):
            row = t.seat(s)
            assert int(row[S.CREW_N]) == START_DICE, f"CREW_N [TOA-014]: seat {s} starts with {int(row[S.CREW_N])} dice"
            assert int(row[S.POS]) == int(row[S.START]) and int(K[S.SP_START, int(row[S.START])]) == 1, \
                f"POS [TOA-033]: seat {s} starts off its harbour"
            assert int(row[S.GOLD]) == int(K[S.START_GOLD, s]) and int(row[S.RUM]) == int(K[S.START_RUM, s]), \
                f"GOLD/RUM [TOA-036, A8]: seat {s} starts with {int(row[S.GOLD])} gold, {int(row[S.RUM])} rum"
        assert int(t.st[S.DISPLAY_N]) == t.P.relic_display, "DISPLAY_N [TOA-026]: the relic display is not full"
        assert int(t.st[S.PUBLIC_BONUS]) >= 0, "PUBLIC_BONUS [TOA-028]: no Burial Bonus face up"
        assert all(int(x) == 0 for x in t.T[S.ENDGAME, S.TOKEN_COL:S.TOKEN_COL + 4]), \
            "ENDGAME [TOA-029]: an endgame bonus starts unlocked"
        self.check("at set-up")

    def __call__(self, t: Table, seat: int):
        if seat >= 0:
            self.turns += 1
            where = f"after seat {seat}'s turn (Day {int(t.st[S.DAY])}, {('Sunrise', 'Sunset')[int(t.st[S.ROUND_TURN])]})"
        else:
            where = f"after the Night of Day {int(t.st[S.DAY])}"
        self.check(where)

    # ------------------------------------------------------------------ the log's running totals
    def replay_log(self, where: str):
        t, K, n = self.t, self.t.K, self.t.players
        wagers = []
        navy_steps = 0
        for _day, s, code, a, b, c in t.rows(self.read):
            if code == EV.BURY:
                self.points[s] += a
                assert a >= 0 and 0 < b <= S.N_COLOURS and 0 <= c <= self.meta["LOWER_CAP"], \
                    f"BURY [TOA-071, TOA-072]: seat {s} buries {a} points ({b} upper, {c} lower) {where}"
            elif code == EV.BONUS:
                self.points[s] += b
                self.bonus[s] += b
                self.secret[s] += b if c == 1 else 0
                self.bonuses_taken += 1
                assert 0 <= a < self.meta["N_BURIAL"], f"BONUS [TOA-111, TOA-189]: card {a} {where}"
            elif code == EV.ENDGAME:
                self.points[s] += b
                self.endgame[s] += b
                assert b >= 0, f"ENDGAME [TOA-261..TOA-273]: seat {s} scores {b} {where}"
            elif code == EV.RELIC:
                self.relics[s][b] += c
                self.n_relics[s] += 1
                assert b == int(K[S.RELIC_EFFECT, a]) and c == int(K[S.RELIC_AMOUNT, a]) >= 1, \
                    f"RELIC [TOA-164, A68]: seat {s} gains relic {a} as {b} +{c} {where}"
            elif code == EV.UPGRADE:
                assert b == self.levels[s][a] + 1 <= self.tracks[a], \
                    f"{S.TRACKS[a].upper()} track [TOA-129, TOA-G7]: seat {s} from {self.levels[s][a]} to {b} " \
                    f"(track of {self.tracks[a]}) {where}"
                assert c == int(K[S.UP_COST0 + a, b - 1]) >= 0, f"UPGRADE cost [TOA-129]: {c} {where}"
                self.levels[s][a] = b
                self.bought += a == S.UP_CREW
            elif code == EV.REBUY:
                self.bought += 1
            elif code == EV.CONTROL:
                assert c == self.controllers[a], f"CONTROL {EV.CONTROLS[a]} [TOA-178]: taken " \
                                                 f"from seat {c}, held by {self.controllers[a]} {where}"
                self.controllers[a] = s
            elif code == EV.UNLOCK:
                self.unlocked += 1
                assert b == self.tokens[self.unlocked - 1], f"ENDGAME token [TOA-193]: unlock #{self.unlocked} " \
                                                            f"takes the {b} token, not the largest left {where}"
            elif code == EV.MOVE:
                assert 0 <= a < self.meta["N_SPACES"] and 0 <= b < self.meta["N_SPACES"] and \
                    int(K[S.DIST0 + a, b]) == 1 and 0 <= c < len(EV.PAYMENTS), \
                    f"POS [TOA-086, TOA-087]: seat {s} moves {a} -> {b} paying {c} {where}"
            elif code == EV.BATTLE:
                assert a >= 0 and b >= 0 and 0 <= c <= t.P.tie_rerolls, \
                    f"BATTLE [TOA-224, TOA-225, A50]: {a} hits against {b}, reroll {c} {where}"
            elif code == EV.STEAL:
                assert 0 <= b <= c, f"STEAL [TOA-231, TOA-245]: seat {s} takes {b} of seat {a}'s {c} {where}"
            elif code == EV.BRIBE:
                assert b >= 0 and (a == S.FOE_NAVY or 0 <= a < n), f"BRIBE [TOA-097, TOA-099]: {b} gold to {a} {where}"
            elif code == EV.WAGER:
                wagers.append((s, a, b))
            elif code == EV.NAVY_MOVE:
                navy_steps += 1
                assert int(K[S.DIST0 + a, b]) == 1, f"NAVY_POS [TOA-136]: the Navy moves {a} -> {b} {where}"
            elif code == EV.NAVY_ROLL:
                assert 0 <= a < len(S.NAVY_FACES), f"NAVY die [TOA-132, A4]: face {a} {where}"
            elif code == EV.TIDE:
                assert a >= 0 and b == int(t.T[S.BAG, :6].sum()) >= 0, f"BAG [TOA-156]: the tide places {a}, {b} " \
                                                                        f"left {where}"
            elif code == EV.DAY:
                assert a == (1 if self.day is None else self.day + 1), f"DAY [TOA-045]: Day {a} after {self.day} {where}"
                self.day = a
        if wagers:  # one Night's wager: each seat once, each position once (TOA-148)
            assert sorted(w[0] for w in wagers) == list(range(n)) and sorted(w[2] for w in wagers) == list(range(n)) \
                and all(w[1] >= 0 for w in wagers), f"WAGER/ORDER [TOA-148, TOA-155]: {wagers} {where}"
        assert navy_steps <= t.P.navy_reach, \
            f"NAVY_POS [TOA-133, TOA-187]: the Navy moved {navy_steps} lanes {where}"
        self.read = int(t.st[S.LOG_N])

    # ------------------------------------------------------------------ the state's slots
    def check(self, where: str):
        t, K, n, st, meta = self.t, self.t.K, self.t.players, self.t.st, self.meta
        self.replay_log(where)
        # treasure: every one in the bag, on a slot, in a hold, buried, on the Navy's card or in the box
        assert t.treasure_count() == self.treasure, f"BAG/SLOT/HOLD0/NAVY_HOLD/BOX_TREASURE [TOA-020..022, " \
                                                    f"TOA-251]: {t.treasure_count()} treasures, not {self.treasure} {where}"
        bag = t.T[S.BAG, :6]
        assert ((bag >= 0) & (bag <= meta["BAG_PER_COLOUR"])).all(), f"BAG [TOA-021, TOA-022]: {bag.tolist()} {where}"
        slots = t.T[S.SLOT, :2 * meta["N_SPACES"]]
        assert ((slots >= -1) & (slots < S.N_COLOURS)).all(), f"SLOT [TOA-032]: colours {slots.tolist()} {where}"
        for space in range(meta["N_SPACES"]):
            for k in range(int(K[S.SP_SLOTS, space]), S.MAX_SLOTS):
                assert int(t.T[S.SLOT, 2 * space + k]) == -1, f"SLOT [TOA-032, TOA-156]: a treasure on space " \
                                                              f"{space}'s missing slot {k} {where}"
        navy = t.T[S.NAVY_HOLD, :6]
        assert (navy >= 0).all() and int(navy.sum()) == int(st[S.NAVY_HELD]), \
            f"NAVY_HOLD/NAVY_HELD [TOA-241]: {navy.tolist()} vs {int(st[S.NAVY_HELD])} {where}"
        # gold and rum: only the bank makes or takes them; nobody owes (TOA-G13)
        gold = [int(t.seat(s)[S.GOLD]) for s in range(n)]
        rum = [int(t.seat(s)[S.RUM]) for s in range(n)]
        assert sum(gold) == int(st[S.GOLD_MADE]) - int(st[S.GOLD_PAID]), \
            f"GOLD/GOLD_MADE/GOLD_PAID [TOA-097]: {gold} against the bank's ledger {where}"
        assert sum(rum) == int(st[S.RUM_MADE]) - int(st[S.RUM_PAID]), f"RUM/RUM_MADE/RUM_PAID: {rum} {where}"
        assert min(gold) >= 0, f"GOLD [TOA-078, TOA-096, TOA-129, TOA-173, TOA-196]: gold {gold} below zero {where}"
        assert min(rum) >= 0, f"RUM [TOA-092, TOA-128, TOA-190, TOA-192]: rum {rum} below zero {where}"
        # crew dice: 5 each, plus bought, less jettisoned (TOA-014, TOA-127, TOA-128, TOA-251)
        crew = [int(t.seat(s)[S.CREW_N]) for s in range(n)]
        assert int(st[S.DICE_BOUGHT]) == self.bought, f"DICE_BOUGHT [TOA-127, TOA-128]: {int(st[S.DICE_BOUGHT])}, " \
                                                      f"the log buys {self.bought} {where}"
        assert sum(crew) == START_DICE * n + self.bought - int(st[S.DICE_LOST]), \
            f"CREW_N/DICE_LOST [TOA-247, TOA-251]: dice {crew} {where}"
        for loc in range(S.N_CTRL):
            who, sloops = int(t.T[S.CONTROL, loc]), int(t.T[S.CONTROL, S.SLOOPS_AT + loc])
            assert who == self.controllers[loc] and (sloops >= 1 if who >= 0 else sloops == 0), \
                f"CONTROL {EV.CONTROLS[loc]} [TOA-177, TOA-178]: seat {who} with {sloops} sloops, the log says " \
                f"{self.controllers[loc]} {where}"
        relics_out = []
        private_out = 0
        for s in range(n):
            row, hold, dice = t.seat(s), t.T[S.HOLD0 + s], t.T[S.DICE0 + s]
            assert 0 <= crew[s] <= min(S.MAX_DICE, START_DICE + int(row[S.CREW_UP])), \
                f"CREW_N [TOA-014, TOA-127, A7]: seat {s} owns {crew[s]} dice with {int(row[S.CREW_UP])} upgrades {where}"
            for i in range(S.DIE_SLOTS):
                owned = int(t.T[S.CONTROL, S.CTRL_CREW]) == s if i == S.SPIRIT_SLOT else i < crew[s]
                ready, face = int(dice[S.READY + i]), int(dice[S.FACE + i])
                assert ready in (0, 1) and (owned or ready == 0), \
                    f"DICE0 READY [TOA-051, TOA-063, TOA-180]: seat {s} die slot {i} ready {ready} (owned {owned}) {where}"
                assert not owned or 0 <= face < meta["N_CREW_FACES"], \
                    f"DICE0 FACE [TOA-049, A1]: seat {s} die {i} shows face {face} {where}"
            assert int(row[S.TEMP_ATTACK]) == 0 and int(row[S.TEMP_DEFENCE]) == 0, \
                f"TEMP_ATTACK/TEMP_DEFENCE [TOA-056, TOA-057]: seat {s}'s combat dice outlive the combat {where}"
            levels = [int(row[S.ATTACK + k]) for k in range(4)]
            assert levels == self.levels[s] and all(0 <= v <= self.tracks[k] for k, v in enumerate(levels)), \
                f"ATTACK/DEFENCE/FLEET/CREW_UP [TOA-018, TOA-129]: seat {s} at {levels}, the log says " \
                f"{self.levels[s]} {where}"
            out = int(row[S.SLOOPS_OUT])
            mine = sum(int(t.T[S.CONTROL, S.SLOOPS_AT + loc]) for loc in range(S.N_CTRL)
                       if int(t.T[S.CONTROL, loc]) == s)
            assert 0 <= out == mine <= meta["SLOOPS_START"] + levels[S.UP_FLEET], \
                f"SLOOPS_OUT [TOA-010, TOA-126, TOA-179]: seat {s} has {out} sloops out, {mine} at its locations, " \
                f"{meta['SLOOPS_START'] + levels[S.UP_FLEET]} in all {where}"
            unbound, bound, buried = hold[S.UNBOUND:S.UNBOUND + 6], hold[S.BOUND:S.BOUND + 6], hold[S.BURIED:S.BURIED + 6]
            assert (unbound >= 0).all() and (bound >= 0).all() and (buried >= 0).all(), \
                f"HOLD0 [TOA-064, TOA-231]: seat {s} holds {unbound.tolist()} / {bound.tolist()} / {buried.tolist()} {where}"
            upper, lower = S.hold_shape(t.T, s)
            assert upper <= S.N_COLOURS and lower <= meta["LOWER_CAP"], \
                f"HOLD0 [TOA-068, TOA-069, A6]: seat {s}'s hold {upper} upper, {lower} lower {where}"
            assert int(row[S.POINTS]) == self.points[s] >= 0, \
                f"POINTS [TOA-071, TOA-112, TOA-260]: seat {s} has {int(row[S.POINTS])}, the log adds to " \
                f"{self.points[s]} {where}"
            assert int(row[S.BONUS_POINTS]) == self.bonus[s] and int(row[S.SECRET_POINTS]) == self.secret[s] and \
                int(row[S.ENDGAME_POINTS]) == self.endgame[s], f"BONUS_POINTS/SECRET_POINTS/ENDGAME_POINTS " \
                                                               f"[TOA-112, TOA-189, TOA-262]: seat {s} {where}"
            n_relics = int(row[S.N_RELICS])
            assert n_relics == self.n_relics[s] <= t.P.relic_slots, \
                f"N_RELICS [TOA-164, TOA-166]: seat {s} holds {n_relics} relics, the log adds to " \
                f"{self.n_relics[s]} ({t.P.relic_slots} slots) {where}"
            assert [int(x) for x in row[S.REL0:S.REL0 + len(S.RELIC_EFFECTS)]] == self.relics[s], \
                f"REL0 [TOA-161, A68]: seat {s}'s relic effects {row[S.REL0:S.SEAT_COLS].tolist()} {where}"
            relics_out += [int(x) for x in t.T[S.RELICS0 + s, :n_relics]]
            private = int(row[S.PRIVATE_N])
            assert 0 <= private <= S.MAX_PRIVATE, f"PRIVATE_N [TOA-188]: seat {s} holds {private} bonuses {where}"
            private_out += private
            pos = int(row[S.POS])
            assert -1 <= pos < meta["N_SPACES"], f"POS [TOA-086, TOA-252]: seat {s} on space {pos} {where}"
        # the relic cards: the deck, the display, its discards and the ships' slots (TOA-024, TOA-165, TOA-198)
        deck_n, display_n, disc_n = int(st[S.RELIC_DECK_N]), int(st[S.DISPLAY_N]), int(st[S.RELIC_DISC_N])
        assert 0 <= display_n <= t.P.relic_display, f"DISPLAY_N [TOA-026, TOA-198]: {display_n} relics shown {where}"
        relics = (list(t.T[S.RELIC_DECK, :deck_n]) + list(t.T[S.DISPLAY, :display_n]) + list(t.T[S.RELIC_DISC, :disc_n])
                  + relics_out)
        assert sorted(int(r) for r in relics) == list(range(meta["N_RELIC_CARDS"])), \
            f"RELIC_DECK/DISPLAY/RELIC_DISC/RELICS0 [TOA-024, TOA-165]: relic cards {sorted(relics)} {where}"
        # the other decks: within their cards, each card once; defeated enemies never return (TOA-237)
        monsters = list(t.T[S.MONSTER_DECK, :int(st[S.MONSTER_DECK_N])]) + \
            list(t.T[S.MONSTER_DISC, :int(st[S.MONSTER_DISC_N])])
        assert len(set(monsters)) == len(monsters) <= meta["N_MONSTERS"] and \
            all(0 <= m < meta["N_MONSTERS"] for m in monsters), f"MONSTER_DECK/MONSTER_DISC [TOA-237]: {monsters} {where}"
        navy_card = int(st[S.NAVY_CARD])
        navies = int(st[S.NAVY_DECK_N]) + (navy_card >= 0)
        assert 0 <= navies <= meta["N_NAVY"] and -1 <= navy_card < meta["N_NAVY"] and \
            (navy_card >= 0) == (int(st[S.NAVY_POS]) >= 0) and -1 <= int(st[S.NAVY_POS]) < meta["N_SPACES"], \
            f"NAVY_DECK_N/NAVY_CARD/NAVY_POS [TOA-145, TOA-238]: {navies} Navy ships, card {navy_card} at " \
            f"{int(st[S.NAVY_POS])} {where}"
        public = int(st[S.PUBLIC_BONUS])
        burial = int(st[S.BURIAL_DECK_N]) + (public >= 0) + private_out + self.bonuses_taken
        assert burial == meta["N_BURIAL"] and -1 <= public < meta["N_BURIAL"], \
            f"BURIAL_DECK_N/PUBLIC_BONUS/PRIVATE_N [TOA-111, TOA-160, TOA-188]: {burial} Burial Bonus cards, " \
            f"not {meta['N_BURIAL']} {where}"
        used = int(st[S.TOKENS_USED])
        values = sorted((int(v) for v in t.T[S.ENDGAME, S.TOKEN_COL:S.TOKEN_COL + 4] if v), reverse=True)
        cards = [int(c) for c in t.T[S.ENDGAME, :4]]
        assert used == self.unlocked <= meta["N_TOKENS"] and values == self.tokens[:used] and \
            len(set(cards)) == 4 and all(0 <= c < meta["N_ENDGAME"] for c in cards), \
            f"TOKENS_USED/ENDGAME [TOA-029, TOA-193, TOA-194]: {used} tokens, values {values}, cards {cards} {where}"
        # turn order: a permutation and its inverse (TOA-081, TOA-148)
        order = [int(x) for x in t.T[S.ORDER, :n]]
        assert sorted(order) == list(range(n)) and all(int(t.T[S.ORDER, S.POSITION + order[i]]) == i for i in range(n)), \
            f"ORDER [TOA-081, TOA-148]: {order} {where}"
        # what only grows: Treasure Points, buried treasure (TOA-006), relics (TOA-165), the box (TOA-251)
        now = np.concatenate([t.T[S.SEAT0:S.SEAT0 + n, S.POINTS], t.T[S.SEAT0:S.SEAT0 + n, S.N_RELICS],
                              t.T[S.SEAT0:S.SEAT0 + n, S.BURIALS], t.T[S.HOLD0:S.HOLD0 + n, S.BURIED:S.BURIED + 6].ravel(),
                              st[[S.BOX_TREASURE, S.TOKENS_USED, S.DICE_LOST, S.DICE_BOUGHT]]])
        if self.last is not None:
            assert (now >= self.last).all(), f"POINTS/N_RELICS/BURIALS/BURIED/BOX_TREASURE [TOA-006, TOA-165, " \
                                             f"TOA-251]: something fell {where}"
            assert int(st[S.NAVY_DECK_N]) + (navy_card >= 0) <= self.navies, \
                f"NAVY_DECK_N [TOA-237]: a defeated Navy ship came back {where}"
        self.last, self.navies = now, navies
        # the end: once reached it stays (TOA-256), by the bag or the cap
        reason = int(st[S.END_REASON])
        if self.end_reason >= 0:
            assert reason == self.end_reason, f"END_REASON [TOA-256]: {self.end_reason} -> {reason} {where}"
        if reason == S.END_BAG:
            assert int(st[S.FINAL_DAY]) == 1, f"FINAL_DAY [TOA-257]: the end without an empty bag {where}"
        self.end_reason = reason
        assert 1 <= int(st[S.DAY]) <= t.P.round_cap, f"DAY [A62]: Day {int(st[S.DAY])} {where}"


@pytest.mark.parametrize("players", GAME.players)
def test_no_count_leaves_its_supply_in_self_play(players):
    seen = set()
    for j, lineup in enumerate(lineups(players)):
        for seed in SEEDS:
            variant = "standard" if seed % 2 == 0 else VARIANTS[(seed // 2) % len(VARIANTS)]
            t = Table(players, variant, seed=5000 * players + 10 * j + seed, strategies=lineup)
            ledger = Ledger(t)
            play(t, ledger)
            where = f"at the end ({players} players, {variant}, {lineup}, seed {seed})"
            ledger.check(where)
            # two turns a seat a Day (TOA-047); the game ended, by the bag before the cap
            assert ledger.turns == 2 * players * int(t.st[S.DAY]), f"TURNS [TOA-047]: {ledger.turns} turns {where}"
            assert int(t.st[S.END_REASON]) >= 0, f"END_REASON [TOA-256]: the game did not end {where}"
            scores = [int(r[3]) for r in t.log[int(t.st[S.LOG_N]) - players: int(t.st[S.LOG_N])] if r[2] == EV.SCORE]
            assert scores == ledger.points, f"SCORE [TOA-275]: scored {scores}, the log adds to {ledger.points} {where}"
            seen.update(lineup)
    assert seen == set(PRESET_NAMES)


def test_every_player_count_and_preset_is_covered():
    assert {name for n in GAME.players for lineup in lineups(n) for name in lineup} == set(PRESET_NAMES)
    assert set(VARIANTS) == {v.name for v in GAME.rules.variants}
