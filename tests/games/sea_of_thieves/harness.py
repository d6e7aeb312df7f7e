"""Hand-built Sea of Thieves positions for tests.

`Table` allocates what `chunk.play_chunk` allocates for one game (same shapes and
dtypes), runs the set-up, and lets a test edit the tables: put ships on hexes, hand out cargo,
damage ships. Engine functions of any engine module are called by name through `Table.call`,
which fills their leading arguments from the table by parameter name.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from simkit.core.game import SEAT_COLUMNS
from simkit.core.kernels import params_record
from simkit.core.rng import seed_streams
from simkit.games.sea_of_thieves import GAME, chunk, components, events, lookahead, rules
from simkit.games.sea_of_thieves import state as S
from simkit.games.sea_of_thieves.engine import (
    actions,
    cargo,
    common,
    crew,
    enemies,
    hazards,
    hexes,
    round,
    scoring,
    trade,
    voyages,
)
from simkit.games.sea_of_thieves.engine import events as event_cards

from ..engine_calls import call_by_name, game_over, seat_presets

PRESETS = GAME.preset_table()
PRESET_INDEX = {p.name: i for i, p in enumerate(GAME.presets)}
MODULES = (chunk, round, hazards, event_cards, enemies, actions, trade, voyages, crew, cargo, hexes, scoring, common,
           lookahead)
LOG_ROWS = 200_000
OUTPOST = 9


@functools.cache
def _compiled(values: str, players: int) -> np.ndarray:
    v = json.loads(values)
    return components.compile_arrays(components.load(v["components"]), rules.uses_two_player(v, players))


def engine_fn(name: str):
    for m in MODULES:
        if hasattr(m, name):
            return getattr(m, name)
    raise AttributeError(name)


class Table:
    """One Sea of Thieves game as play_chunk holds it, ready to edit."""

    def __init__(self, players: int = 4, variant: str = "standard", overrides: dict | None = None,
                 seed: int = 1, strategies=None, setup: bool = True):
        self.values = rules.SCHEMA.resolve(variant, overrides or {})
        self.P = params_record(rules.SCHEMA.engine_tuple(self.values))  # as play_chunk passes it
        self.K = _compiled(json.dumps(self.values, sort_keys=True), players)
        self.players = players
        self.T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
        self.F = np.zeros((1 + players, max(round.F_WIDTH, PRESETS.shape[1] + 1)), dtype=np.float64)
        self.rng = np.zeros((1 + players, 4), dtype=np.uint64)
        # the lookahead's scratch (play_round passes it on): game, weights, streams, no log
        self.T2, self.F2, self.rng2 = np.zeros_like(self.T), np.zeros_like(self.F), np.zeros_like(self.rng)
        self.log0 = np.zeros((0, 6), dtype=np.int64)
        self.memo = lookahead.memo_tables(self.T2, self.F2, self.rng2)  # the rollouts choose_plan keeps
        self.presets = PRESETS  # the rows a lookahead seat's plan slots name (play_games passes its strategy table)
        self.log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
        self.st = self.T[S.ST]
        self.out = np.zeros((players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)  # game 0's seats
        seed_streams(self.rng, np.uint64(seed))
        seat_presets(self.F[1:], PRESETS, PRESET_INDEX, strategies, players, default="merchant")
        if setup:
            self.call("setup_game", players=players)
        self.setup_rows = int(self.st[S.LOG_N])

    def call(self, name: str, **kwargs):
        return call_by_name(engine_fn(name), self, kwargs, {"out": self.out[None], "g": np.int64(0)})

    # ------------------------------------------------------------------ reads
    def seat(self, s: int) -> np.ndarray:
        return self.T[S.SEAT0 + s]

    def ship(self, k: int) -> np.ndarray:
        return self.T[S.SHIP0 + k]

    def hexes_of(self, kind: int, position: int | None = None) -> list[int]:
        return [h for h in range(S.MAX_HEX) if self.T[S.HEX_TYPE, h] == kind
                and (position is None or h // S.TILE_HEXES == position)]

    def neighbours(self, h: int) -> list[int]:
        return [int(self.K[S.NEXT0 + d, h]) for d in range(6) if self.K[S.NEXT0 + d, h] >= 0
                and self.T[S.HEX_TYPE, self.K[S.NEXT0 + d, h]] != S.ABSENT]

    def tokens_at(self, loc: int, kind: int | None = None) -> list[int]:
        return [t for t in range(int(self.K[S.META, S.N_TOKENS])) if self.T[S.TOK_LOC, t] == loc
                and (kind is None or self.K[S.TOK_KIND, t] == kind)]

    def hold(self, k: int, kind: int | None = None) -> list[int]:
        return self.tokens_at(S.HOLD + k, kind)

    def fortune_hand(self, s: int) -> list[int]:
        return [int(c) for c in self.T[S.FHAND0 + s, : self.seat(s)[S.FORT_N]]]

    def voyage_hand(self, s: int) -> list[int]:
        return [int(v) for v in self.T[S.VHAND0 + s, : self.seat(s)[S.VOY_N]]]

    # ------------------------------------------------------------------ edits
    def clear_board(self):
        """Every ship off the board, every token back in its bag, every hex empty (for set pieces)."""
        for k in range(2 * self.players):
            self.call("set_ship_hex", k=k, h=-1)
        for t in range(int(self.K[S.META, S.N_TOKENS])):
            if self.T[S.TOK_LOC, t] != S.IN_LOOT_BAG and self.T[S.TOK_LOC, t] != S.IN_TREASURE_BAG \
                    and self.T[S.TOK_LOC, t] != S.IN_BOX:
                self.call("to_bag", t=t)

    def put(self, k: int, h: int):
        self.call("set_ship_hex", k=k, h=h)

    def take(self, bag: int, kind: int, value: int | None = None) -> int:
        """Take a token of this kind (and value) out of a bag, unplaced."""
        row = S.LOOT_BAG_ROW if bag == S.LOOT_BAG else S.TREASURE_BAG_ROW
        ncol = S.LOOT_N if bag == S.LOOT_BAG else S.TREASURE_N
        n = int(self.st[ncol])
        for i in range(n):
            t = int(self.T[row, i])
            if self.K[S.TOK_KIND, t] == kind and (value is None or self.K[S.TOK_VALUE, t] == value):
                self.T[row, i] = self.T[row, n - 1]
                self.st[ncol] = n - 1
                self.T[S.TOK_LOC, t] = S.IN_BOX
                return t
        raise LookupError(f"no {S.KIND_NAMES[kind]} {value} in bag {bag}")

    def give(self, k: int, bag: int, kind: int, value: int | None = None) -> int:
        t = self.take(bag, kind, value)
        self.call("to_hold", t=t, k=k)
        return t

    def drop(self, h: int, bag: int, kind: int, value: int | None = None) -> int:
        t = self.take(bag, kind, value)
        self.call("to_hex", t=t, h=h)
        return t

    def empty_hold(self, k: int):
        for t in self.hold(k):
            self.call("to_bag", t=t)

    def give_fortune(self, s: int, effect: int) -> int:
        """Move a fortune card of this effect from the deck into seat s's hand."""
        n = int(self.st[S.FORTUNE_N])
        head = int(self.st[S.FORTUNE_HEAD])
        for i in range(n):
            j = (head + i) % S.MAX_FORTUNE
            c = int(self.T[S.FORTUNE_DECK, j])
            if self.K[S.FO_EFFECT, c] == effect:
                # swap it to the top and draw it
                self.T[S.FORTUNE_DECK, j] = self.T[S.FORTUNE_DECK, head]
                self.T[S.FORTUNE_DECK, head] = c
                self.call("draw_fortune", seat=s, n=1)
                return c
        raise LookupError(effect)

    def set_voyage_hand(self, s: int, cards: list[int]):
        self.T[S.VHAND0 + s, : len(cards)] = cards
        self.seat(s)[S.VOY_N] = len(cards)

    def voyage(self, task: str, tier: str | None = None, reward: str | None = None) -> int:
        for v in range(int(self.K[S.META, S.N_VOYAGE_CARDS])):
            if (self.K[S.V_TASK, v] == S.TASKS.index(task) and (tier is None or self.K[S.V_TIER, v] == S.TIER_NAMES.index(tier))
                    and (reward is None or self.K[S.V_REWARD, v] == S.REWARDS.index(reward))):
                return v
        raise LookupError(task)

    # ------------------------------------------------------------------ the log
    def rows(self, start: int | None = None) -> list[tuple]:
        start = self.setup_rows if start is None else start
        return [tuple(int(x) for x in r) for r in self.log[start: self.st[S.LOG_N]]]

    def events(self, code: int | None = None, start: int | None = None) -> list[tuple]:
        return [r for r in self.rows(start) if code is None or r[2] == code]

    def narrate(self) -> str:
        return "\n".join(events.describe_event(r) for r in self.rows(0))

    # ------------------------------------------------------------------ invariants
    def token_census(self) -> dict:
        """Where every token is: each appears exactly once, in one bag list or one place."""
        loot = [int(x) for x in self.T[S.LOOT_BAG_ROW, : self.st[S.LOOT_N]]]
        treasure = [int(x) for x in self.T[S.TREASURE_BAG_ROW, : self.st[S.TREASURE_N]]]
        placed = [t for t in range(int(self.K[S.META, S.N_TOKENS])) if self.T[S.TOK_LOC, t] >= 0]
        boxed = [t for t in range(int(self.K[S.META, S.N_TOKENS])) if self.T[S.TOK_LOC, t] == S.IN_BOX]
        return {"loot": loot, "treasure": treasure, "placed": placed, "boxed": boxed}


def play_game(t: Table, after_turn=None) -> Table:
    """Play the game on `t` to its end as chunk.play_games does (its loop, in Python)."""
    while True:
        for s in range(t.players):
            t.call("take_turn", seat=s)
            if after_turn is not None:
                after_turn(t, s)
        t.call("ocean_hazards_phase", players=t.players)
        t.call("event_phase", players=t.players)
        t.call("fortune_phase", players=t.players)
        t.st[S.ROUND] += 1
        if after_turn is not None:
            after_turn(t, -1)
        if game_over(t, S):
            break
    t.call("final_scoring", players=t.players)
    return t


__all__ = ["OUTPOST", "PRESETS", "PRESET_INDEX", "S", "Table", "play_game"]
