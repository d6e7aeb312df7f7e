"""Conformance (random play, invariants, termination, determinism).

Games are played turn by turn through engine.take_turn in a Python loop that mirrors
chunk.play_games (harness.play_game); after every turn the invariants below are checked:
ship cards, Trade cards and quest cards neither created nor lost, and every seat's silver,
Supply and VP equal to what the logged rule events add up to.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.rng import game_seeds
from simkit.games.set_sail import GAME
from simkit.sweeps.runner import play, seat_strategies

from .harness import COMP, EV, S, Table, play_game

N_TILES = len(COMP.names)


class Invariants:
    def __init__(self, t: Table):
        self.turns = 0
        self.end_reason = -1
        self.ships = [t.ship_cards(d) for d in range(2)]
        assert self.ships == [sorted(COMP.ships[0]), sorted(COMP.ships[1])]
        self.silver = [int(t.seat(s)[S.SILVER]) for s in range(t.players)]
        self.supply = [int(t.seat(s)[S.SUPPLY]) for s in range(t.players)]
        self.vp = [0] * t.players
        self.read = t.mark()
        self.check(t, -1)

    def check(self, t: Table, seat: int):
        where = f"after seat {seat}'s turn {int(t.st[S.TURNS])}"
        assert [t.ship_cards(d) for d in range(2)] == self.ships, f"ship cards not conserved {where}"
        assert t.goods_total() == [COMP.goods_per_kind] * 3, f"Trade cards not conserved {where}"
        assert all(t.quest_total(k) == 14 for k in range(3)), f"quests not conserved {where}"
        # the ledger: silver, Supply and VP change only through logged rule events
        for row in t.rows(self.read):
            s, code, a = row[1], row[2], row[3]
            if code == EV.SILVER:
                self.silver[s] += a
                assert self.silver[s] == row[5]
            elif code == EV.SUPPLY:
                self.supply[s] += a
            elif code == EV.QUEST:
                kind, card = row[3], row[4]
                vp = (COMP.plunder, COMP.trade, COMP.treasure)[kind][card][0]
                self.vp[s] += vp
                assert self.vp[s] == row[5]
        self.read = t.mark()
        for s in range(t.players):
            seat_row = t.seat(s)
            assert int(seat_row[S.SILVER]) == self.silver[s] >= 0, f"seat {s} silver off the ledger {where}"
            assert int(seat_row[S.SUPPLY]) == self.supply[s] >= 0, f"seat {s} Supply off the ledger {where}"
            assert int(seat_row[S.VP]) == self.vp[s], f"seat {s} VP off the ledger {where}"
            assert seat_row[S.GOODS0: S.GOODS0 + 3].sum() <= t.P.hand_limit + t.P.barrel_capacity * seat_row[S.UPG0]
            assert (seat_row[S.UPG0: S.UPG0 + 3] <= t.P.upgrade_cap).all() and (seat_row[S.UPG0: S.UPG0 + 3] >= 0).all()
            for k in range(2):
                assert 0 <= int(t.pos[2 * s + k]) < N_TILES
        if self.end_reason >= 0:
            assert int(t.st[S.END_REASON]) == self.end_reason
        self.end_reason = int(t.st[S.END_REASON])

    def __call__(self, t: Table, seat: int):
        self.turns += 1
        self.check(t, seat)


CONFIGS = [  # (variant, players, line-up, overrides)
    ("standard", 2, ("random", "random"), {}),
    ("standard", 3, ("random", "plunderer", "merchant"), {}),
    ("standard", 4, ("random",) * 4, {}),
    ("standard", 4, ("plunderer", "merchant", "treasure_hunter", "raider"), {}),
    ("standard", 4, ("raider", "raider", "random", "plunderer"), {"trade_route_reward": "combat_section"}),
    ("standard", 3, ("plunderer", "merchant", "raider"), {"player_trade": "sell_surplus"}),
    ("extended", 5, ("random", "plunderer", "merchant", "treasure_hunter", "raider"), {}),
    ("extended", 6, ("random",) * 3 + ("raider",) * 3, {}),
]


@pytest.mark.parametrize("variant,players,lineup,overrides", CONFIGS)
def test_games_keep_invariants_and_end(variant, players, lineup, overrides):
    for seed in range(3):
        t = Table(players=players, variant=variant, overrides=overrides, seed=100 * players + seed,
                  strategies=list(lineup))
        inv = Invariants(t)
        play_game(t, inv)
        assert int(t.st[S.END_REASON]) in (S.END_VP, S.END_ROUND_CAP)
        # the round in which the end was triggered is finished: equal turns for all (SS-032)
        assert inv.turns == int(t.st[S.ROUND]) * players == int(t.st[S.TURNS])
        if int(t.st[S.END_REASON]) == S.END_VP:
            assert t.events(EV.END_TRIGGER)
            assert max(int(t.seat(s)[S.VP]) for s in range(players)) >= t.P.vp_to_win
            assert int(t.out_seats[0, :, 2].sum()) >= 1


def test_heuristic_games_end_by_vp():
    for seed in range(5):
        t = Table(players=4, seed=seed, strategies=["plunderer", "merchant", "treasure_hunter", "raider"])
        play_game(t, Invariants(t))
        assert int(t.st[S.END_REASON]) == S.END_VP


def test_moves_follow_the_movement_rules():
    """SS-066..071: each piece moves >= 1 tile along water, together within the budget,
    and neither ends on a tile either piece started on."""
    for strategies in ("random", "plunderer"):
        t = Table(players=3, seed=5, strategies=strategies)
        for _ in range(30):
            for s in range(3):
                starts = [int(t.pos[2 * s]), int(t.pos[2 * s + 1])]
                mark = t.mark()
                t.call("take_turn", seat=s)
                turn = t.events(EV.TURN, mark)[0]
                moves = t.events(EV.MOVE, mark)
                assert len(moves) == 2
                steps = 0
                for piece, frm, to in (m[3:] for m in moves):
                    assert frm == starts[piece]
                    d = int(t.K[S.DIST0 + frm, to])
                    assert d >= 1 and to not in starts
                    steps += d
                assert steps <= turn[4]


def _chunk(players, lineup, seeds, variant="standard", log_rows=0):
    values = GAME.rules.resolve(variant, {})
    strategies = seat_strategies(GAME, lineup, players, 0, len(seeds))
    return play(GAME, GAME.compile(values, players), strategies, seeds, log_rows)


def test_python_loop_matches_play_chunk():
    lineup = ("plunderer", "random", "raider")
    seeds = game_seeds(np.uint64(99), 0, 4)
    out_games, out_seats, _ = _chunk(3, lineup, seeds)
    strategies = seat_strategies(GAME, lineup, 3, 0, 4)
    names = GAME.preset_names()
    for g in range(4):
        t = Table(players=3, seed=int(seeds[g]), strategies=[names[i] for i in strategies[g]])
        play_game(t)
        assert int(t.st[S.ROUND]) == out_games[g, 0] and int(t.st[S.TURNS]) == out_games[g, 1]
        assert (t.out_seats[0] == out_seats[g]).all()


def test_play_chunk_is_deterministic_and_chunk_independent():
    lineup = ("plunderer", "merchant", "treasure_hunter", "raider")
    seeds = game_seeds(np.uint64(2024), 0, 20)
    a = _chunk(4, lineup, seeds, log_rows=100_000)
    b = _chunk(4, lineup, seeds, log_rows=100_000)
    assert all((x == y).all() for x, y in zip(a, b))
    compiled = GAME.compile(GAME.rules.resolve("standard", {}), 4)
    parts = [play(GAME, compiled, seat_strategies(GAME, lineup, 4, start, 10), seeds[start:start + 10])
             for start in (0, 10)]
    assert (np.concatenate([parts[0][0], parts[1][0]]) == a[0]).all()
    assert (np.concatenate([parts[0][1], parts[1][1]]) == a[1]).all()
