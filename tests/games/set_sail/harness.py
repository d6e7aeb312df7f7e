"""Hand-built Set Sail positions for tests.

`Table` allocates exactly what `chunk.play_chunk` allocates for one game (same shapes and
dtypes, so every njit call reuses the signatures the engine compiles), runs
`engine.setup_game`, and then lets a test edit the arrays: put pieces on tiles, give a
seat silver, Supply, cards or upgrades, stack a ship deck. Engine functions are called by
name through `Table.call`, which fills their leading arguments from the table by
parameter name:

    t = Table(players=2, seed=7)
    t.put(0, 0, "C1"); t.seat(0)[S.SUPPLY] = 0
    t.call("ship_combat", seat=0, deck=S.DW)
    t.events(EV.SHIP_FIGHT)
"""

from __future__ import annotations

import functools
import json

import numpy as np

from simkit.core.game import SEAT_COLUMNS
from simkit.core.kernels import params_record
from simkit.core.rng import seed_streams
from simkit.games.set_sail import GAME, components, engine, events, rules
from simkit.games.set_sail import events as EV
from simkit.games.set_sail import state as S

from ..engine_calls import call_by_name, game_over, seat_presets

COMP = components.load()
PRESETS = GAME.preset_table()
PRESET_INDEX = {p.name: i for i, p in enumerate(GAME.presets)}
LOG_ROWS = 200_000
tile = functools.partial(components.tile_id, comp=COMP)


def name_of(t: int) -> str:
    return COMP.names[t]


@functools.cache
def _compiled(values: str, players: int) -> tuple:
    values = json.loads(values)
    return components.compile_arrays(components.load(values["components"]), values, players)


class Table:
    """One Set Sail game as play_chunk holds it, ready to edit."""

    def __init__(self, players: int = 4, variant: str = "standard", overrides: dict | None = None,
                 seed: int = 1, strategies=None, setup: bool = True):
        self.values = rules.SCHEMA.resolve(variant, overrides or {})
        self.P = params_record(rules.SCHEMA.engine_tuple(self.values))  # as play_chunk passes it
        (self.K,) = _compiled(json.dumps(self.values, sort_keys=True), players)
        self.players = players
        self.T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
        self.F = np.zeros((1 + players, max(engine.F_WIDTH, PRESETS.shape[1])), dtype=np.float64)
        self.rng = np.zeros((1 + players, 4), dtype=np.uint64)
        self.buf = np.zeros((engine.BUF_ROWS, engine.BUF_WIDTH), dtype=np.int64)
        self.log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
        self.st = self.T[S.ST]
        self.pos = self.T[S.POS]
        self.out_seats = np.zeros((1, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
        seed_streams(self.rng, np.uint64(seed))
        self.strategies = seat_presets(self.F[1:], PRESETS, PRESET_INDEX, strategies, players)
        if setup:
            self.call("setup_game", players=players)
        self.setup_rows = int(self.st[S.LOG_N])

    def call(self, name: str, **kwargs):
        """Call engine.<name>, taking every argument the table holds by its parameter name."""
        return call_by_name(getattr(engine, name), self, kwargs, {"out_seats_g": self.out_seats[0]})

    # ------------------------------------------------------------------ positions
    def seat(self, s: int) -> np.ndarray:
        return self.T[S.SEAT0 + s]

    def put(self, s: int, piece: int, where: str | int):
        self.pos[2 * s + piece] = tile(where) if isinstance(where, str) else where

    def where(self, s: int, piece: int) -> str:
        return name_of(int(self.pos[2 * s + piece]))

    def set_active(self, s: int):
        self.st[S.ACTIVE] = s
        self.st[S.STOPPED] = 0
        self.st[S.PORT_USED] = 0
        self.T[S.START, :2] = self.pos[2 * s: 2 * s + 2]

    def give_ships(self, s: int, deck: int, health: int, n: int):
        """Move n ship cards of `health` from the deck into the seat's hand (conserved)."""
        d = self.T[S.DECK0 + deck]
        for _ in range(n):
            count = int(self.st[S.DECK_N0 + deck])
            i = next(i for i in range(count) if d[i] == health)
            d[i: count - 1] = d[i + 1: count].copy()
            self.st[S.DECK_N0 + deck] -= 1
            self.seat(s)[S.SHIP0 + deck * S.MAX_HEALTH + health] += 1

    def give_goods(self, s: int, goods: list[int]):
        for g, n in enumerate(goods):
            self.st[S.PILE0 + g] -= n
            self.seat(s)[S.GOODS0 + g] += n

    def stack_ship(self, deck: int, health: int):
        """Put a ship card of `health` on top of its deck (taken from inside the deck)."""
        d = self.T[S.DECK0 + deck]
        count = int(self.st[S.DECK_N0 + deck])
        i = next(i for i in range(count) if d[i] == health)
        d[i], d[count - 1] = d[count - 1], d[i]

    def open_quests(self, kind: int) -> list[int]:
        return [int(x) for x in self.st[S.OPEN0 + kind * S.MAX_OPEN: S.OPEN0 + (kind + 1) * S.MAX_OPEN]]

    def ships(self, s: int) -> int:
        return int(self.seat(s)[S.SHIP0: S.SHIP0 + 2 * S.MAX_HEALTH].sum())

    def reseed(self, seed: int):
        seed_streams(self.rng, np.uint64(seed))

    # ------------------------------------------------------------------ the log
    def rows(self, start: int | None = None) -> list[tuple]:
        start = self.setup_rows if start is None else start
        return [tuple(int(x) for x in r) for r in self.log[start: self.st[S.LOG_N]]]

    def mark(self) -> int:
        return int(self.st[S.LOG_N])

    def events(self, code: int | None = None, start: int | None = None) -> list[tuple]:
        return [r for r in self.rows(start) if code is None or r[2] == code]

    def narrate(self, start: int | None = None) -> str:
        return "\n".join(events.describe_event(r) for r in self.rows(start))

    # ------------------------------------------------------------------ invariants
    def ship_cards(self, deck: int) -> list[int]:
        """Every card of a ship deck (health) in the deck, its discards and the hands."""
        out = list(self.T[S.DECK0 + deck, : self.st[S.DECK_N0 + deck]])
        out += list(self.T[S.DISC0 + deck, : self.st[S.DISC_N0 + deck]])
        for s in range(self.players):
            for h in range(S.MAX_HEALTH):
                out += [h] * int(self.seat(s)[S.SHIP0 + deck * S.MAX_HEALTH + h])
        return sorted(int(x) for x in out)

    def goods_total(self) -> list[int]:
        return [int(self.st[S.PILE0 + g]) + sum(int(self.seat(s)[S.GOODS0 + g]) for s in range(self.players))
                for g in range(S.N_GOODS)]

    def quest_total(self, kind: int) -> int:
        n = int(self.st[S.QDECK_N0 + kind]) + int(self.st[S.QREMOVED0 + kind])
        if kind < 2:
            n += sum(1 for q in self.open_quests(kind) if q >= 0)
        for s in range(self.players):
            n += int(self.seat(s)[S.DONE0 + kind])
            if kind == S.TREASURE:
                n += int(self.seat(s)[S.N_MAPS])
        return n


def play_game(t: Table, after_turn=None) -> Table:
    """Play the game on `t` to its end as chunk.play_games does (its round loop, in Python)."""
    while True:
        for s in range(t.players):
            t.call("take_turn", seat=s)
            if after_turn is not None:
                after_turn(t, s)
        t.st[S.ROUND] += 1
        if game_over(t, S):
            break
    t.call("final_scoring")
    return t


__all__ = ["COMP", "EV", "PRESETS", "PRESET_INDEX", "S", "Table", "name_of", "play_game", "tile"]
