"""Invariants of whole self-play games: no count of Sea of Plunder goes below zero or above its supply.

Every preset the game lists (`simkit strategies sea_of_plunder`, the lookahead tier included,
which plays its turns through lookahead.lookahead_turn as play_games seats it) at every player
count the game allows (2, 3 and 4) plays a few hundred games with fixed seeds: even seeds under
the rules as written, odd ones under each variant the count allows in turn (two_player,
random_setup, combo_port), so their code paths keep the counts too. After every turn each slot
of the state table is checked against its supply and its limit, and the turn's event-log rows
are added to running totals per seat (Goods by colour, Treasures, Debt, Magical Compasses) and
for the pirate dish that must equal the slots: a count changes only through a logged rule event,
and each logged running value ("now") is the slot's.

Each assertion names the state slot (simkit/games/sea_of_plunder/state.py) and the rule it
defends (an inventory id of simkit/games/sea_of_plunder/coverage.toml, or an assumption
A<n> of coverage.toml). Supplies the rulebook leaves unlimited (Treasure, Debt and compass
tokens, SOP-G20; the hand, SOP-G11) are checked for the lower bound only.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.sea_of_plunder import GAME

from .harness import COMP, EV, N_CARDS, S, Table, play_game

PRESET_NAMES = GAME.preset_names()
GOODS = COMP.goods_per_colour  # SOP-065: 4 Goods cards of each colour
SQUARES = range(S.SQUARES)
SEEDS = range(12)  # per line-up: 3 counts x 6 line-ups x 12 seeds = 216 games
VARIANTS_AT = {2: ("two_player", "random_setup", "combo_port"), 3: ("random_setup", "combo_port"),
               4: ("random_setup", "combo_port")}


def lineups(players: int) -> list[list[str]]:
    """One line-up per preset, the presets that follow it filling the other seats: each preset
    sits in every seat once."""
    n = len(PRESET_NAMES)
    return [[PRESET_NAMES[(j + i) % n] for i in range(players)] for j in range(n)]


class Ledger:
    """Running totals rebuilt from the event log, and the slots' bounds, after every turn."""

    def __init__(self, t: Table):
        n = t.players
        self.t = t
        self.goods = [t.goods(s) for s in range(n)]
        self.treasures = [0] * n
        self.debt = [0] * n
        self.compasses = [int(t.seats[s, S.COMPASSES]) for s in range(n)]
        self.pirates = 0
        self.last = None
        self.end_reason = -1
        self.turns = 0
        self.ports = [int(t.pos[S.PORT0 + c]) for c in range(S.N_COLOURS)]
        self.read = t.mark()
        for s in range(n):
            odd = int(t.seats[s, S.POWER] == S.ODD)
            want = t.P.start_compasses + odd + getattr(t.P, f"extra_compasses_{s + 1}")
            assert self.compasses[s] == want == 1 + odd, \
                f"COMPASSES [SOP-006, SOP-144, SOP-204]: seat {s} starts with {self.compasses[s]} compasses"
            assert not t.seats[s, S.TREASURES] and not t.seats[s, S.DEBT], \
                f"TREASURES/DEBT [SOP-012]: seat {s} starts with Treasure or Debt"
        assert int(t.st[S.PIRATE_TREASURES]) == 0, "PIRATE_TREASURES [SOP-012]: the dish starts full"
        self.check(-1, "at set-up")

    def __call__(self, t: Table, seat: int):
        self.turns += 1
        self.check(seat, f"after seat {seat}'s turn {int(t.st[S.TURNS])} (round {int(t.st[S.ROUND])})")

    def replay_log(self, where: str):
        t = self.t
        for _rnd, s, code, a, b, c in t.rows(self.read):
            if code == EV.GOOD:
                self.goods[s][a] += 1
            elif code == EV.BRIBE:
                self.goods[s][a] -= 1
            elif code in (EV.STEAL, EV.CARGO):
                if b >= N_CARDS:  # a Goods card changes hands
                    self.goods[s][b - N_CARDS] += 1
                    self.goods[a][b - N_CARDS] -= 1
            elif code == EV.TREASURE:
                if a < 0:
                    self.pirates += 1
                    assert c == self.pirates, f"PIRATE_TREASURES [SOP-108]: the dish logs {c}, its gains add to " \
                                              f"{self.pirates} {where}"
                else:
                    self.treasures[a] += 1
                    assert c == self.treasures[a], f"TREASURES [SOP-096, SOP-097, SOP-104]: seat {a} logs {c}, its " \
                                                   f"gains add to {self.treasures[a]} {where}"
            elif code == EV.DEBT:
                self.debt[s] += 1
                assert a == self.debt[s], f"DEBT [SOP-123, SOP-124]: seat {s} logs {a}, its Debt adds to " \
                                          f"{self.debt[s]} {where}"
            elif code == EV.COMPASS:
                self.compasses[s] -= 1
                assert a == self.compasses[s] >= 0, f"COMPASSES [SOP-089, SOP-092]: seat {s} spends into {a} " \
                                                    f"compasses {where}"
            elif code == EV.COMPASS_GAIN:
                self.compasses[s] += 1
                assert a == self.compasses[s], f"COMPASSES [SOP-166]: seat {s} logs {a}, the log adds to " \
                                               f"{self.compasses[s]} {where}"
            elif code in (EV.STRATEGIST, EV.TIE_ROLL):
                assert -1 <= a < S.SIZE, f"numbered die [SOP-141, SOP-G9, A9]: a roll of {a} {where}"
            elif code in (EV.ISLAND_PLACED, EV.PLACE_ON_PIRATE, EV.PLACE_ON_SHIP, EV.COMBO_PLACED):
                assert a in SQUARES, f"placement dice [SOP-112, SOP-158]: square {a} off the board {where}"
            elif code in (EV.SHIP_MOVE, EV.PIRATE_MOVE, EV.ISLAND_MOVE, EV.BONUS_MOVE):
                assert b in SQUARES and c in SQUARES, f"POS [SOP-084]: a move {b} -> {c} off the board {where}"
        self.read = t.mark()

    def check(self, seat: int, where: str):
        t, n, st = self.t, self.t.players, self.t.st
        self.replay_log(where)
        # deck cards: each card once in the deck, the pile, a hand or set aside (SOP-013, SOP-020, SOP-054)
        deck_n, pile_n, pending_n = int(st[S.DECK_N]), int(st[S.PILE_N]), int(st[S.PENDING_N])
        assert 0 <= deck_n <= N_CARDS and 0 <= pile_n <= N_CARDS, \
            f"DECK_N/PILE_N [SOP-013]: {deck_n} in the deck, {pile_n} on the pile {where}"
        assert pending_n == 0, f"PENDING_N [SOP-053, SOP-054]: {pending_n} Events left unresolved {where}"
        assert t.deck_cards() == list(range(N_CARDS)), f"DECK/PILE/HAND0 [SOP-013, SOP-020]: deck cards not each " \
                                                       f"once {where}"
        # Goods: 4 of each colour, in its stack or in hands (SOP-065, SOP-067, SOP-074)
        for c in range(S.N_COLOURS):
            stock = int(st[S.STOCK0 + c])
            held = sum(t.goods(s)[c] for s in range(n))
            assert 0 <= stock <= GOODS, f"STOCK0+{c} [SOP-065, SOP-067]: {stock} {COMP.colours[c]} Goods in the " \
                                        f"stack {where}"
            assert stock + held == GOODS, f"STOCK0+{c}/HAND0 [SOP-065, SOP-074]: {stock} + {held} " \
                                          f"{COMP.colours[c]} Goods {where}"
        for s in range(n):
            row = t.seats[s]
            hand_n = int(row[S.HAND_N])
            assert 0 <= hand_n <= S.MAX_HAND, f"HAND_N [SOP-G11]: seat {s} holds {hand_n} cards {where}"
            codes = t.hands[s, :hand_n]
            assert ((codes >= 0) & (codes < N_CARDS + S.N_COLOURS)).all(), \
                f"HAND0 [SOP-013, SOP-062]: seat {s} holds codes {codes.tolist()} {where}"
            assert t.goods(s) == self.goods[s], f"HAND0 Goods [SOP-062, SOP-101, SOP-099]: seat {s} holds " \
                                                f"{t.goods(s)}, the log adds to {self.goods[s]} {where}"
            treasures, debt, compasses = int(row[S.TREASURES]), int(row[S.DEBT]), int(row[S.COMPASSES])
            assert treasures == self.treasures[s] >= 0, f"TREASURES [SOP-096, SOP-107]: seat {s} holds {treasures}, " \
                                                        f"the log adds to {self.treasures[s]} {where}"
            assert debt == self.debt[s] >= 0, f"DEBT [SOP-102, SOP-123]: seat {s} holds {debt}, the log adds to " \
                                              f"{self.debt[s]} {where}"
            assert compasses == self.compasses[s] >= 0, f"COMPASSES [SOP-089]: seat {s} holds {compasses}, the " \
                                                        f"log adds to {self.compasses[s]} {where}"
            power = int(row[S.POWER])
            assert (0 <= power < S.N_POWERS) if t.P.player_powers else power == -1, \
                f"POWER [SOP-005]: seat {s} holds power {power} {where}"
        if t.P.player_powers:
            powers = t.seats[:n, S.POWER].tolist()
            assert len(set(powers)) == n, f"POWER [SOP-005]: powers {powers} dealt twice {where}"
        assert int(st[S.PIRATE_TREASURES]) == self.pirates >= 0, \
            f"PIRATE_TREASURES [SOP-108]: the dish holds {int(st[S.PIRATE_TREASURES])}, the log adds to " \
            f"{self.pirates} {where}"
        # Treasure only grows, Debt can never be removed (SOP-107, SOP-124), nor the pirate dish
        now = np.concatenate([t.seats[:n, S.TREASURES], t.seats[:n, S.DEBT], st[S.PIRATE_TREASURES: S.PIRATE_TREASURES + 1]])
        if self.last is not None:
            assert (now >= self.last).all(), f"TREASURES/DEBT/PIRATE_TREASURES [SOP-107, SOP-124]: " \
                                             f"{self.last.tolist()} -> {now.tolist()} {where}"
        self.last = now.copy()
        # the board: every piece on a square (SOP-084: the sea wraps, nothing falls off)
        ships = int(st[S.N_SHIPS])
        want_ships = 4 if t.P.two_player else n
        assert ships == want_ships, f"N_SHIPS [SOP-001, SOP-143]: {ships} ships for {n} players {where}"
        for k in range(ships):
            assert int(t.pos[S.SHIP0 + k]) in SQUARES, f"POS ship {k} [SOP-084]: off the board {where}"
        for p in range(S.N_PIRATES):
            assert int(t.pos[S.PIRATE0 + p]) in SQUARES, f"POS pirate {p} [SOP-009, SOP-084]: off the board {where}"
        assert [int(t.pos[S.PORT0 + c]) for c in range(S.N_COLOURS)] == self.ports, \
            f"POS ports [SOP-003, SOP-023]: a Port Island moved {where}"
        combo = int(t.pos[S.COMBO])
        assert (combo in SQUARES) if t.P.combo_port else combo == -1, \
            f"POS COMBO [SOP-157, SOP-158]: the Combo Port at {combo} {where}"
        islands = int(st[S.N_ISLANDS])
        assert 1 <= islands <= min(t.P.max_islands, S.MAX_ISLANDS), \
            f"N_ISLANDS [SOP-105, SOP-106, SOP-170]: {islands} Treasure Islands {where}"
        for i in range(S.MAX_ISLANDS):
            at = int(t.pos[S.ISLAND0 + i])
            assert (at in SQUARES) if i < islands else at == -1, f"POS island {i} [SOP-105]: at {at} {where}"
        # the end: once triggered it stays, and only by its thresholds (SOP-126, SOP-127)
        reason = int(st[S.END_REASON])
        if self.end_reason >= 0:
            assert reason == self.end_reason, f"END_REASON [SOP-128]: {self.end_reason} -> {reason} {where}"
        if reason == S.END_PLAYER_TREASURES:
            assert max(self.treasures) >= t.P.treasures_to_end, f"END_REASON [SOP-126]: the end without " \
                                                                f"{t.P.treasures_to_end} Treasures {where}"
        elif reason == S.END_PIRATE_TREASURES:
            assert self.pirates >= t.P.pirate_treasures_to_end, f"END_REASON [SOP-127]: the end without " \
                                                                f"{t.P.pirate_treasures_to_end} pirate Treasures {where}"
        self.end_reason = reason


@pytest.mark.parametrize("players", GAME.players)
def test_no_count_leaves_its_supply_in_self_play(players):
    seen = set()
    for j, lineup in enumerate(lineups(players)):
        for seed in SEEDS:
            variant = "standard" if seed % 2 == 0 else VARIANTS_AT[players][(seed // 2) % len(VARIANTS_AT[players])]
            t = Table(players=players, variant=variant, seed=3000 * players + 10 * j + seed, strategies=lineup)
            ledger = Ledger(t)
            play_game(t, ledger)
            where = f"at the end ({players} players, {variant}, {lineup}, seed {seed})"
            ledger.check(-1, where)  # final scoring: The Smuggler's Good, tie rolls
            assert ledger.turns == int(t.st[S.ROUND]) * players == int(t.st[S.TURNS]), \
                f"TURNS [SOP-128, SOP-129]: {ledger.turns} turns in {int(t.st[S.ROUND])} rounds {where}"
            scores = [int(r[3]) for r in t.log[t.mark() - players: t.mark()] if r[2] == EV.SCORE]
            want = [int(t.call("seat_score", seat=s, n_cards=N_CARDS)) for s in range(players)]
            assert scores == want, f"SCORE [SOP-130..SOP-133]: scored {scores}, the seats hold {want} {where}"
            seen.update(lineup)
    assert seen == set(PRESET_NAMES)


def test_every_player_count_and_preset_is_covered():
    assert sorted(VARIANTS_AT) == sorted(GAME.players)
    assert {name for n in GAME.players for lineup in lineups(n) for name in lineup} == set(PRESET_NAMES)
    for n, variants in VARIANTS_AT.items():
        assert set(variants) == {v.name for v in GAME.rules.variants if v.players is None or n in v.players}
