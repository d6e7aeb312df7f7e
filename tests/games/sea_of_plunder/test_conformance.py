"""Conformance (random play, invariants, termination, determinism).

Random and heuristic games are played turn by turn through engine.take_turn in a Python
loop that mirrors chunk.play_games' round loop (harness.play_game); after every turn the
invariants below are checked. The same seeds through play_chunk must give the same scores.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.rng import game_seeds
from simkit.games.sea_of_plunder import GAME
from simkit.sweeps.runner import play, seat_strategies

from .harness import EV, N_CARDS, S, Table, play_game

ALL_SQUARES = range(S.SQUARES)


class Invariants:
    """Checks that must hold after every turn of every game."""

    def __init__(self, t: Table):
        self.turns = 0
        self.prev = self.snapshot(t)
        self.end_reason = -1
        self.check(t, -1)

    @staticmethod
    def snapshot(t: Table) -> dict:
        return {"treasures": t.seats[:, S.TREASURES].copy(), "debt": t.seats[:, S.DEBT].copy(),
                "pirates": int(t.st[S.PIRATE_TREASURES])}

    def check(self, t: Table, seat: int):
        where = f"after seat {seat}'s turn {int(t.st[S.TURNS])} (round {int(t.st[S.ROUND])})"
        # every deck card exactly once in deck + pile + pending + hands
        assert t.deck_cards() == list(range(N_CARDS)), f"cards not conserved {where}"
        assert int(t.st[S.PENDING_N]) == 0, f"events left unresolved {where}"
        # Goods: stack + held == 4 per colour
        assert t.goods_total() == [4, 4, 4, 4], f"Goods not conserved {where}"
        assert all(int(t.st[S.STOCK0 + c]) >= 0 for c in range(S.N_COLOURS))
        now = self.snapshot(t)
        assert (now["treasures"] >= self.prev["treasures"]).all(), f"Treasures fell {where}"
        assert (now["debt"] >= self.prev["debt"]).all(), f"Debt fell {where}"
        assert now["pirates"] >= self.prev["pirates"], f"pirate dish fell {where}"
        assert (t.seats[:, S.COMPASSES] >= 0).all(), f"negative compasses {where}"
        assert (t.seats[:, S.HAND_N] >= 0).all(), f"negative hand size {where}"
        # every piece on the board
        for k in range(int(t.st[S.N_SHIPS])):
            assert int(t.pos[S.SHIP0 + k]) in ALL_SQUARES, f"ship {k} off the board {where}"
        for i in range(S.PIRATE0, S.PORT0 + S.N_COLOURS):
            assert int(t.pos[i]) in ALL_SQUARES, f"piece {i} off the board {where}"
        if t.P.combo_port:
            assert int(t.pos[S.COMBO]) in ALL_SQUARES, f"combo port off the board {where}"
        n_islands = int(t.st[S.N_ISLANDS])
        assert 1 <= n_islands <= S.MAX_ISLANDS, f"{n_islands} Treasure Islands {where}"
        for i in range(n_islands):
            assert int(t.pos[S.ISLAND0 + i]) in ALL_SQUARES, f"island {i} off the board {where}"
        # once triggered, the end stays triggered with the same reason
        if self.end_reason >= 0:
            assert int(t.st[S.END_REASON]) == self.end_reason, where
        self.end_reason = int(t.st[S.END_REASON])
        self.prev = now

    def __call__(self, t: Table, seat: int):
        self.turns += 1
        self.check(t, seat)


CONFIGS = [  # (variant, players, line-up)
    ("standard", 2, ("random", "random")),
    ("standard", 3, ("random", "racer", "collector")),
    ("standard", 4, ("random",) * 4),
    ("standard", 4, ("racer", "collector", "raider", "random")),
    ("two_player", 2, ("random", "random")),
    ("two_player", 2, ("raider", "racer")),
    ("random_setup", 3, ("random",) * 3),
    ("random_setup", 4, ("raider", "random", "racer", "collector")),
    ("combo_port", 2, ("collector", "random")),
    ("combo_port", 4, ("random",) * 4),
    ("random_setup+combo_port", 3, ("collector", "raider", "random")),
    ("two_player+combo_port", 2, ("random", "collector")),
]


@pytest.mark.parametrize("variant,players,lineup", CONFIGS)
def test_random_games_keep_invariants_and_end(variant, players, lineup):
    for seed in range(6):
        t = Table(players=players, variant=variant, seed=1000 * players + seed, strategies=list(lineup))
        inv = Invariants(t)
        play_game(t, inv)
        # every game ends by the rulebook's triggers before the round cap (default rules)
        assert int(t.st[S.END_REASON]) in (S.END_PLAYER_TREASURES, S.END_PIRATE_TREASURES)
        # the round in which the end was triggered is finished: equal turns for all (SOP-129)
        assert inv.turns == int(t.st[S.ROUND]) * players == int(t.st[S.TURNS])
        assert t.events(EV.END_TRIGGER), "the end must be logged"
        turns_per_seat = np.bincount([r[1] for r in t.events(EV.TURN)], minlength=players)
        assert len(set(turns_per_seat.tolist())) == 1
        # exactly one winner (tie-breaker 4 settles any tie, A28)
        assert int(t.out_seats[0, :, 2].sum()) == 1


def _chunk(players, lineup, seeds, variant="standard", log_rows=0):
    values = GAME.rules.resolve(variant, {})
    compiled = GAME.compile(values, players)
    strategies = seat_strategies(GAME, lineup, players, 0, len(seeds))
    return play(GAME, compiled, strategies, seeds, log_rows)


def test_python_loop_matches_play_chunk():
    """The harness plays exactly the game play_chunk plays (same seed -> same scores)."""
    lineup = ("racer", "random", "raider")
    seeds = game_seeds(np.uint64(99), 0, 5)
    out_games, out_seats, _ = _chunk(3, lineup, seeds)
    strategies = seat_strategies(GAME, lineup, 3, 0, 5)
    names = [p.name for p in GAME.presets]
    for g in range(5):
        t = Table(players=3, seed=int(seeds[g]), strategies=[names[i] for i in strategies[g]])
        play_game(t)
        assert int(t.st[S.ROUND]) == out_games[g, 0]
        assert int(t.st[S.TURNS]) == out_games[g, 1]
        assert (t.out_seats[0] == out_seats[g]).all()


def test_play_chunk_is_deterministic_and_chunk_independent():
    lineup = ("racer", "random", "collector", "raider")
    seeds = game_seeds(np.uint64(2024), 0, 20)
    a_games, a_seats, a_log = _chunk(4, lineup, seeds, log_rows=50_000)
    b_games, b_seats, b_log = _chunk(4, lineup, seeds, log_rows=50_000)
    assert (a_games == b_games).all() and (a_seats == b_seats).all() and (a_log == b_log).all()
    # one chunk of 20 == two chunks of 10 (seat line-up rotation continues across chunks)
    values = GAME.rules.resolve("standard", {})
    compiled = GAME.compile(values, 4)
    parts = []
    for start in (0, 10):
        strategies = seat_strategies(GAME, lineup, 4, start, 10)
        parts.append(play(GAME, compiled, strategies, seeds[start:start + 10]))
    assert (np.concatenate([parts[0][0], parts[1][0]]) == a_games).all()
    assert (np.concatenate([parts[0][1], parts[1][1]]) == a_seats).all()
