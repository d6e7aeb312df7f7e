"""Hand-built Sea of Troubles positions for tests.

`Table` allocates what `chunk.play_chunk` (the game loop) allocates for one game (same shapes and dtypes),
runs `engine.setup_game`, and lets a test edit the arrays: move pirates, hand out cards,
give treasure. Engine functions are called by name through `Table.call`, which fills their
leading arguments from the table by parameter name.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from simkit.core.game import SEAT_COLUMNS
from simkit.core.kernels import params_record
from simkit.core.rng import seed_streams
from simkit.games.sea_of_troubles import GAME, components, engine, events, rules
from simkit.games.sea_of_troubles import events as EV
from simkit.games.sea_of_troubles import state as S
from strategies import sea_of_troubles as bot

from ..engine_calls import call_by_name, game_over, seat_presets

COMP = components.load()
PRESETS = GAME.preset_table()
PRESET_INDEX = {p.name: i for i, p in enumerate(GAME.presets)}
LOG_ROWS = 200_000


@functools.cache
def _compiled(values: str, players: int) -> tuple:
    values = json.loads(values)
    return components.compile_arrays(components.load(values["components"]), values, players)


class Table:
    """One Sea of Troubles game as play_chunk holds it, ready to edit."""

    def __init__(self, players: int = 4, variant: str = "standard", overrides: dict | None = None,
                 seed: int = 1, strategies=None, setup: bool = True, component_set: str = "standard"):
        """component_set: "standard", a shipped "alt-<name>" or a folder."""
        self.values = rules.SCHEMA.resolve(variant, {"components": component_set, **(overrides or {})})
        self.comp = components.load(self.values["components"])
        self.P = params_record(rules.SCHEMA.engine_tuple(self.values))  # as play_chunk passes it
        (self.K,) = _compiled(json.dumps(self.values, sort_keys=True), players)
        self.players = players
        self.T = np.zeros((S.T_ROWS, S.T_WIDTH), dtype=np.int64)
        self.F = np.zeros((1 + players, max(engine.F_WIDTH, PRESETS.shape[1])), dtype=np.float64)
        self.rng = np.zeros((1 + players, 4), dtype=np.uint64)
        self.buf = np.zeros((engine.BUF_ROWS, engine.BUF_WIDTH), dtype=np.int64)
        self.log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
        self.st = self.T[S.ST]
        self.out = np.zeros((players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
        seed_streams(self.rng, np.uint64(seed))
        seat_presets(self.F[1:], PRESETS, PRESET_INDEX, strategies, players)
        if setup:
            self.call("setup_game", players=players)
        self.setup_rows = int(self.st[S.LOG_N])

    def call(self, name: str, **kwargs):
        return call_by_name(getattr(engine, name), self, kwargs, {"out": self.out})

    def seat(self, s: int) -> np.ndarray:
        return self.T[S.SEAT0 + s]

    def square(self, row: int, col: int) -> int:
        return row * int(self.K[S.META, S.WIDTH]) + col

    def put(self, s: int, sq: int):
        self.seat(s)[S.POS] = sq

    def alongside(self) -> int:
        """Put pirates 0 and 1 on the same open-sea square (the top-left corner); return it."""
        sq = self.square(0, 0)
        self.put(0, sq)
        self.put(1, sq)
        return sq

    def hand(self, s: int) -> list[tuple[int, int]]:
        return [(int(self.K[S.CARD_TYPE, c]), int(self.K[S.CARD_VALUE, c]))
                for c in self.T[S.HAND0 + s, : self.seat(s)[S.HAND_N]]]

    def set_hand(self, s: int, cards: list[tuple[int, int]]):
        """Give seat s exactly these (type, value) cards, swapping them with the deck (conserved)."""
        for i in range(int(self.seat(s)[S.HAND_N])):
            self.T[S.DECK, self.st[S.DECK_N]] = self.T[S.HAND0 + s, i]
            self.st[S.DECK_N] += 1
        self.seat(s)[S.HAND_N] = 0
        for t, v in cards:
            deck = self.T[S.DECK, : self.st[S.DECK_N]]
            i = next(i for i, c in enumerate(deck) if self.K[S.CARD_TYPE, c] == t
                     and (t == S.WILD or self.K[S.CARD_VALUE, c] == v))
            n = int(self.st[S.DECK_N])
            card = deck[i]
            self.T[S.DECK, i] = self.T[S.DECK, n - 1]
            self.st[S.DECK_N] -= 1
            self.T[S.HAND0 + s, self.seat(s)[S.HAND_N]] = card
            self.seat(s)[S.HAND_N] += 1

    def clear_hands(self):
        """Every hand back into the deck (so a test can hand out any card)."""
        for s in range(self.players):
            self.set_hand(s, [])

    def stack(self, cards: list[tuple[int, int]]):
        """Put these cards on top of the deck, the first drawn first."""
        n = int(self.st[S.DECK_N])
        deck = self.T[S.DECK, :n]
        for k, (t, v) in enumerate(reversed(cards)):  # the top k cards are already placed
            i = next(i for i, c in enumerate(deck[: n - k]) if self.K[S.CARD_TYPE, c] == t
                     and (t == S.WILD or self.K[S.CARD_VALUE, c] == v))
            card = deck[i]
            deck[i: n - 1] = deck[i + 1: n].copy()
            deck[n - 1] = card

    def give_treasure(self, s: int, name: str) -> int:
        """Move a treasure card of this name from the treasure deck to seat s's ship."""
        n = int(self.st[S.TDECK_N])
        deck = self.T[S.TDECK, :n]
        i = next(i for i, t in enumerate(deck) if self.comp.treasures[t][0] == name)
        tr = int(deck[i])
        deck[i: n - 1] = deck[i + 1: n].copy()
        self.st[S.TDECK_N] -= 1
        self.T[S.CARRY0 + s, self.seat(s)[S.CARRY_N]] = tr
        self.seat(s)[S.CARRY_N] += 1
        return tr

    # ------------------------------------------------------------------ the log
    def rows(self, start: int | None = None) -> list[tuple]:
        start = self.setup_rows if start is None else start
        return [tuple(int(x) for x in r) for r in self.log[start: self.st[S.LOG_N]]]

    def events(self, code: int | None = None, start: int | None = None) -> list[tuple]:
        return [r for r in self.rows(start) if code is None or r[2] == code]

    def narrate(self) -> str:
        return "\n".join(events.describe_event(r) for r in self.rows())

    # ------------------------------------------------------------------ invariants
    def all_cards(self) -> list[int]:
        out = list(self.T[S.DECK, : self.st[S.DECK_N]]) + list(self.T[S.DISC, : self.st[S.DISC_N]])
        for s in range(self.players):
            out += list(self.T[S.HAND0 + s, : self.seat(s)[S.HAND_N]])
        return sorted(int(x) for x in out)

    def treasure_count(self) -> int:
        n = int(self.st[S.TDECK_N] + self.st[S.ASIDE] + self.st[S.DELIVERED] + self.st[S.SUNK])
        for s in range(self.players):
            n += int(self.seat(s)[S.CARRY_N] + self.seat(s)[S.BURY_N])
        return n

    def treasure_ids(self) -> list[int]:
        out = list(self.T[S.TDECK, : self.st[S.TDECK_N]])
        for s in range(self.players):
            out += list(self.T[S.CARRY0 + s, : self.seat(s)[S.CARRY_N]])
            out += list(self.T[S.BURY0 + s, : self.seat(s)[S.BURY_N]])
        return [int(x) for x in out]


def play_game(t: Table, after_turn=None) -> Table:
    """Play the game on `t` to its end as chunk.play_games does for bots without lookahead (its loop, in Python)."""
    while True:
        first, d = int(t.st[S.FIRST]), int(t.st[S.DIR])
        for i in range(t.players):
            s = (first + d * i) % t.players
            t.call("take_turn", seat=s)
            if after_turn is not None:
                after_turn(t, s)
        t.st[S.ROUND] += 1
        if game_over(t, S):
            break
        t.call("end_round")
        if after_turn is not None:
            after_turn(t, -1)
    t.call("final_scoring")
    return t


__all__ = ["COMP", "EV", "PRESETS", "PRESET_INDEX", "S", "Table", "bot", "play_game"]
