"""Hand-built Tide of Avaris positions for tests.

`Table` allocates what `engine.play_chunk` allocates for one game (same shapes and dtypes),
runs `engine.setup_game`, and lets a test edit the arrays: place ships, set dice faces, fill
holds. Engine functions are called by name through `Table.call` (leading arguments are taken
from the table by parameter name). Dice are set by colour name; spaces are named as on the board.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from simkit.core.game import SEAT_COLUMNS
from simkit.core.kernels import params_record
from simkit.core.rng import seed_streams
from simkit.games.tide_of_avaris import GAME, actions, components, engine, events, rules
from simkit.games.tide_of_avaris import events as EV
from simkit.games.tide_of_avaris import state as S
from strategies import tide_of_avaris as bot

from ..engine_calls import call_by_name, seat_presets

PRESETS = GAME.preset_table()
PRESET_INDEX = {p.name: i for i, p in enumerate(GAME.presets)}
LOG_ROWS = 100_000
COLOUR = {c: i for i, c in enumerate(S.COLOURS)}


@functools.cache
def _compiled(values: str, players: int) -> tuple:
    v = json.loads(values)
    return components.compile_arrays(components.load(v["components"]), v, players)


class Table:
    """One Tide of Avaris game as play_chunk holds it, ready to edit."""

    def __init__(self, players: int = 4, variant: str = "standard", overrides: dict | None = None,
                 seed: int = 1, strategies=None, setup: bool = True):
        self.values = rules.SCHEMA.resolve(variant, overrides or {})
        self.P = params_record(rules.SCHEMA.engine_tuple(self.values))  # as play_chunk passes it
        (self.K,) = _compiled(json.dumps(self.values, sort_keys=True), players)
        self.comp = components.load(self.values["components"])
        self.players = players
        self.T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
        self.F = np.zeros((1 + players, max(engine.F_WIDTH, PRESETS.shape[1])), dtype=np.float64)
        self.rng = np.zeros((1 + players, 4), dtype=np.uint64)
        self.log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
        self.st = self.T[S.ST]
        self.out = np.zeros((players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
        seed_streams(self.rng, np.uint64(seed))
        seat_presets(self.F[1:], PRESETS, PRESET_INDEX, strategies, players)
        if setup:
            self.call("setup_game", players=players)
        self.setup_rows = int(self.st[S.LOG_N])

    def call(self, name: str, module=engine, **kwargs):
        fn = getattr(engine, name) if hasattr(engine, name) else getattr(actions, name)
        return call_by_name(fn, self, kwargs, {"out": self.out})

    # ------------------------------------------------------------------ the board
    def space(self, name: str) -> int:
        return next(i for i, s in enumerate(self.comp.spaces) if s[0] == name)

    def seat(self, s: int) -> np.ndarray:
        return self.T[S.SEAT0 + s]

    def put(self, s: int, name: str):
        self.seat(s)[S.POS] = self.space(name)

    def clear_ships(self):
        """Every pirate off to a far corner of its own (tests then place the ones they need)."""
        for s in range(self.players):
            self.seat(s)[S.POS] = self.seat(s)[S.START]

    def set_slot(self, name: str, colour: str | None, k: int = 0):
        """Put a treasure of this colour on slot k of the space (None: empty it), keeping the bag
        conserved: a placed treasure comes out of the bag, a removed one goes back."""
        slot = 2 * self.space(name) + k
        old = int(self.T[S.SLOT, slot])
        if old >= 0:
            self.T[S.BAG, old] += 1
        if colour is None:
            self.T[S.SLOT, slot] = -1
        else:
            c = COLOUR[colour]
            assert self.T[S.BAG, c] > 0
            self.T[S.BAG, c] -= 1
            self.T[S.SLOT, slot] = c

    # ------------------------------------------------------------------ dice and hold
    def set_dice(self, s: int, colours: list[str], ready: list[int] | None = None):
        """Seat s owns exactly these crew dice, showing the face of each colour."""
        faces = {self.comp.dice["colour"][f]: f for f in range(len(self.comp.dice["colour"]))}
        self.seat(s)[S.CREW_N] = len(colours)
        self.T[S.DICE0 + s, :] = 0
        for i, c in enumerate(colours):
            self.T[S.DICE0 + s, S.FACE + i] = faces[COLOUR[c]]
            self.T[S.DICE0 + s, S.READY + i] = 1 if ready is None else ready[i]

    def hold(self, s: int, unbound: dict | None = None, bound: dict | None = None):
        """Give seat s exactly this hold (colour -> count), taken from the bag."""
        row = self.T[S.HOLD0 + s]
        for c in range(S.N_COLOURS):
            self.T[S.BAG, c] += row[S.UNBOUND + c] + row[S.BOUND + c]
            row[S.UNBOUND + c] = 0
            row[S.BOUND + c] = 0
        for col, d in ((S.UNBOUND, unbound or {}), (S.BOUND, bound or {})):
            for name, n in d.items():
                c = COLOUR[name]
                assert self.T[S.BAG, c] >= n
                self.T[S.BAG, c] -= n
                row[col + c] += n

    def holds(self, s: int) -> tuple[dict, dict]:
        row = self.T[S.HOLD0 + s]
        return ({S.COLOURS[c]: int(row[S.UNBOUND + c]) for c in range(6) if row[S.UNBOUND + c]},
                {S.COLOURS[c]: int(row[S.BOUND + c]) for c in range(6) if row[S.BOUND + c]})

    def buried(self, s: int) -> dict:
        row = self.T[S.HOLD0 + s]
        return {S.COLOURS[c]: int(row[S.BURIED + c]) for c in range(6) if row[S.BURIED + c]}

    def weights(self, s: int, **kw):
        """Override preset weights of seat s by name (W_BANK=...)."""
        for k, v in kw.items():
            self.F[1 + s, getattr(bot, k)] = v

    # ------------------------------------------------------------------ the log
    def rows(self, start: int | None = None) -> list[tuple]:
        start = self.setup_rows if start is None else start
        return [tuple(int(x) for x in r) for r in self.log[start: self.st[S.LOG_N]]]

    def events(self, code: int | None = None, start: int | None = None) -> list[tuple]:
        return [r for r in self.rows(start) if code is None or r[2] == code]

    def narrate(self) -> str:
        return "\n".join(events.describe_event(r) for r in self.rows())

    # ------------------------------------------------------------------ invariants
    def treasure_count(self) -> int:
        """Every treasure somewhere: bag, board, holds, buried, the Navy's card, the box."""
        n = int(self.T[S.BAG, :6].sum()) + int((self.T[S.SLOT] >= 0).sum())
        n += int(self.T[S.NAVY_HOLD, :6].sum()) + int(self.st[S.BOX_TREASURE])
        for s in range(self.players):
            n += int(self.T[S.HOLD0 + s, :18].sum())
        return n

    def gold_total(self) -> int:
        return sum(int(self.seat(s)[S.GOLD]) for s in range(self.players))

    def dice_owned(self) -> int:
        return sum(int(self.seat(s)[S.CREW_N]) for s in range(self.players))


def play_game(t: Table, after_step=None) -> Table:
    """Play the game on `t` to its end as engine.play_games does, day by day."""
    while not t.call("play_day", players=t.players):
        if after_step is not None:
            after_step(t)
    if after_step is not None:
        after_step(t)
    t.call("final_scoring", players=t.players)
    return t


__all__ = ["COLOUR", "EV", "PRESETS", "PRESET_INDEX", "S", "Table", "bot", "play_game"]
