"""Hand-built Sea of Plunder positions for tests.

`Table` allocates exactly what `chunk.play_chunk` allocates for one game (same shapes and
dtypes, so every njit call below reuses the signatures the engine itself compiles), runs
`engine.setup_game`, and then lets a test edit the arrays: draw a board as ASCII, give a
seat a hand, stack the deck. Engine functions are called by name through `Table.call`,
which fills their leading arguments from the table by parameter name:

    t = Table(players=3, seed=7)
    t.layout('''
         ABCDEFGHIJKLM
      5  ...0.p..T....
      7  ......1......
    ''')
    t.set_hand(0, ["Three north", "good:blue"])
    t.call("play_phase", seat=0)
    t.events(EV.SHIP_MOVE)

Board symbols: digits 0-3 are ships (ship k), `p` pirates (numbered in reading order),
`T` Treasure Islands, `R G I M` the Port Islands, `C` the Combo Port, `.` open sea.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from simkit.core.game import GAME_COLUMNS, SEAT_COLUMNS
from simkit.core.kernels import params_record
from simkit.core.rng import seed_streams
from simkit.games.sea_of_plunder import GAME, chunk, components, engine, events, lookahead, rules
from simkit.games.sea_of_plunder import events as EV
from simkit.games.sea_of_plunder import state as S

from ..engine_calls import call_by_name, game_over, seat_presets

COMP = components.load()
N_CARDS = len(COMP.cards)
CARD_NAMES = [c.name for c in COMP.cards]
COLOURS = list(COMP.colours)  # index = Goods colour = port index
PRESETS = GAME.preset_table()
PRESET_INDEX = {p.name: i for i, p in enumerate(GAME.presets)}
LOG_ROWS = 100_000
PORT_LETTERS = {"R": 0, "G": 1, "I": 2, "M": 3}
# arguments of listing helpers a test normally leaves alone: every card, rows written
CALL_DEFAULTS = {"only": np.int64(-1), "write": True, "turns": True, "shortlist": False}
sq = components.parse_square
name_of = components.square_name


@functools.cache
def _compiled(values: str, players: int) -> tuple:
    """components.compile_arrays, once per rule set (the engine never writes these arrays)."""
    values = json.loads(values)
    return components.compile_arrays(components.load(values["components"]), values, players)


def card_ids(name: str) -> list[int]:
    """Every copy of the named deck card."""
    ids = [i for i, n in enumerate(CARD_NAMES) if n == name]
    if not ids:
        raise KeyError(f"no card named {name!r}")
    return ids


def good(colour: str | int) -> int:
    """The hand code of a Goods card of `colour` (name or index)."""
    c = COLOURS.index(colour) if isinstance(colour, str) else colour
    return N_CARDS + c


def kind_of(card: int) -> int:
    return COMP.cards[card].kind


class Table:
    """One Sea of Plunder game as play_chunk holds it, ready to edit."""

    def __init__(self, players: int = 4, variant: str = "standard", overrides: dict | None = None,
                 seed: int = 1, strategies=None, setup: bool = True, component_set: str = "standard"):
        """component_set: "standard", a shipped "alt-<name>" or a folder. The table's card
        helpers (card_ids, good, set_hand by name) read that set's own deck and colours; the
        module's card_ids and good name the standard set's."""
        self.values = rules.SCHEMA.resolve(variant, {"components": component_set, **(overrides or {})})
        self.P = params_record(rules.SCHEMA.engine_tuple(self.values))  # as play_chunk passes it
        (self.K,) = _compiled(json.dumps(self.values, sort_keys=True), players)
        self.players = players
        self.comp = components.load(self.values["components"])
        self.n_cards = len(self.comp.cards)
        self.card_names = [c.name for c in self.comp.cards]
        self.colours = list(self.comp.colours)
        K = self.K
        n_ships = int(K[S.META, S.N_SHIP_ROWS])
        # the engine's tables, as play_chunk allocates them
        self.T, self.F, self.rng, self.buf = chunk.game_tables((K,), PRESETS, players)
        self.log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
        # named views into them, for reading and editing positions
        T = self.T
        self.st, self.pos = T[S.ST], T[S.POS]
        self.deck, self.pile, self.pending = T[S.DECK], T[S.PILE], T[S.PENDING]
        self.seats = T[S.SEAT0: S.SEAT0 + players]
        self.hands = T[S.HAND0: S.HAND0 + players]
        self.logc = T[S.ST, S.LOG_N: S.LOG_N + 1]
        self.W = self.F[1: 1 + players]
        self.scores = self.F[0]
        self.nbr = K[S.NBR0: S.NBR0 + S.SQUARES, :8]
        self.dist = K[S.DIST0: S.DIST0 + S.SQUARES]
        self.card_info = K[S.CARD0:, :4]
        self.ship_owner = K[S.OWNER, :n_ships]
        self.ship_table = K[S.SHIPS0: S.SHIPS0 + n_ships, :2]
        self.out_seats = np.zeros((1, players, SEAT_COLUMNS + len(GAME.seat_metrics)), dtype=np.int64)
        self.out_games = np.zeros((1, GAME_COLUMNS + len(GAME.game_metrics)), dtype=np.int64)
        seed_streams(self.rng, np.uint64(seed))
        seat_presets(self.W, PRESETS, PRESET_INDEX, strategies, players)
        self.path = np.zeros(S.MAX_STEPS, dtype=np.int64)
        if setup:
            self.call("setup_game", players=players)
        self.setup_rows = int(self.logc[0])  # log rows of the set-up: left out of events() unless asked

    # ------------------------------------------------------------------ calling the engine
    def call(self, name: str, **kwargs):
        """Call the engine's <name> (engine.py, else lookahead.py), taking every argument the table
        holds by its parameter name."""
        special = {"mine": self.buf[engine.MINE], "out_seats_g": self.out_seats[0], **CALL_DEFAULTS}
        function = getattr(engine, name, None) or getattr(lookahead, name)
        return call_by_name(function, self, kwargs, special)

    def trace(self, card: int, start: str | int, option: int = 0, rotation: int = 0) -> list[str]:
        """Squares a mover enters with `card` from `start` (names)."""
        start = sq(start) if isinstance(start, str) else start
        n = self.call("trace", card=card, option=option, rotation=rotation, start=start, path=self.path)
        return [name_of(int(x)) for x in self.path[:n]]

    def path_of(self, squares: list[str]) -> tuple[np.ndarray, int]:
        path = np.zeros(S.MAX_STEPS, dtype=np.int64)
        for i, s in enumerate(squares):
            path[i] = sq(s)
        return path, len(squares)

    def sail_ship(self, ship: int, squares: list[str]):
        path, n = self.path_of(squares)
        self.call("sail_ship", ship=ship, path=path, n=n)

    def sail_pirate(self, pirate: int, squares: list[str]):
        path, n = self.path_of(squares)
        self.call("sail_pirate", pirate=pirate, path=path, n=n)

    def drift_island(self, island: int, squares: list[str]):
        path, n = self.path_of(squares)
        self.call("drift_island", island=island, path=path, n=n)

    def take_turn(self, seat: int):
        self.call("take_turn", seat=seat)

    # ------------------------------------------------------------------ this set's cards
    def card_ids(self, name: str) -> list[int]:
        """Every copy of the named card in this table's deck."""
        ids = [i for i, n in enumerate(self.card_names) if n == name]
        if not ids:
            raise KeyError(f"no card named {name!r} in the set {self.values['components']}")
        return ids

    def good(self, colour: str | int) -> int:
        """The hand code of a Goods card of `colour` (name or index) in this table's set."""
        c = self.colours.index(colour) if isinstance(colour, str) else colour
        return self.n_cards + c

    def kind_of(self, card: int) -> int:
        return self.comp.cards[card].kind

    # ------------------------------------------------------------------ building positions
    def set_active(self, seat: int):
        """Make `seat` the active player as take_turn would at its start."""
        self.st[S.ACTIVE] = seat
        self.st[S.SHIP_MOVED] = 0
        self.st[S.COMPASS_SPENT] = 0
        self.st[S.EFFECTS_N] = 0
        self.st[S.ACTIVE_SHIP] = -1 if self.P.two_player == 1 else self.first_ship(seat)

    def first_ship(self, seat: int) -> int:
        return int(np.flatnonzero(self.ship_owner == seat)[0])

    def layout(self, text: str, clear_ports: bool = False):
        """Place pieces from an ASCII drawing. Rows not drawn are open sea. Ships, pirates and
        Treasure Islands not drawn leave the board; ports not drawn stay unless clear_ports."""
        for k in range(S.MAX_SHIPS):
            self.pos[S.SHIP0 + k] = -1
        for p in range(S.N_PIRATES):
            self.pos[S.PIRATE0 + p] = -1
        if clear_ports:
            for c in range(S.N_COLOURS):
                self.pos[S.PORT0 + c] = -1
        self.set_islands([])
        pirate = 0
        islands = []
        for line in text.splitlines():
            parts = line.split()
            if len(parts) != 2 or not parts[0].isdigit():
                continue
            row = int(parts[0]) - 1
            assert len(parts[1]) == S.SIZE, f"row {parts[0]} needs {S.SIZE} squares: {parts[1]!r}"
            for col, ch in enumerate(parts[1]):
                square = row * S.SIZE + col
                if ch == ".":
                    continue
                if ch.isdigit():
                    self.pos[S.SHIP0 + int(ch)] = square
                elif ch == "p":
                    assert pirate < S.N_PIRATES, "more than four pirates drawn"
                    self.pos[S.PIRATE0 + pirate] = square
                    pirate += 1
                elif ch == "T":
                    islands.append(square)
                elif ch in PORT_LETTERS:
                    self.pos[S.PORT0 + PORT_LETTERS[ch]] = square
                elif ch == "C":
                    self.pos[S.COMBO] = square
                else:
                    raise ValueError(f"unknown board symbol {ch!r}")
        self.set_islands(islands)

    def put(self, piece: str, index: int, square: str | int | None):
        """Put ship/pirate/port `index` on a square (None: off the board)."""
        base = {"ship": S.SHIP0, "pirate": S.PIRATE0, "port": S.PORT0}[piece]
        self.pos[base + index] = -1 if square is None else (sq(square) if isinstance(square, str) else square)

    def set_islands(self, squares: list):
        for i in range(S.MAX_ISLANDS):
            self.pos[S.ISLAND0 + i] = -1
        for i, s in enumerate(squares):
            self.pos[S.ISLAND0 + i] = sq(s) if isinstance(s, str) else s
        self.st[S.N_ISLANDS] = len(squares)

    def islands(self) -> list[str]:
        return sorted(name_of(int(self.pos[S.ISLAND0 + i])) for i in range(self.st[S.N_ISLANDS]))

    def where(self, piece: str, index: int) -> str | None:
        base = {"ship": S.SHIP0, "pirate": S.PIRATE0, "port": S.PORT0, "combo": S.COMBO}[piece]
        v = int(self.pos[base + index])
        return None if v < 0 else name_of(v)

    def _locate(self, card: int):
        """(place, index) of a deck card: ('deck', i), ('pile', i), ('hand', seat), ('pending', i)."""
        for i in range(self.st[S.DECK_N]):
            if self.deck[i] == card:
                return "deck", i
        for i in range(self.st[S.PILE_N]):
            if self.pile[i] == card:
                return "pile", i
        for s in range(self.players):
            if card in self.hand(s):
                return "hand", s
        for i in range(self.st[S.PENDING_N]):
            if self.pending[i] == card:
                return "pending", i
        return None, -1

    def _take_out(self, card: int):
        """Remove a deck card from wherever it is (deck, pile or a hand)."""
        place, i = self._locate(card)
        if place == "deck":
            self.deck[i: self.st[S.DECK_N] - 1] = self.deck[i + 1: self.st[S.DECK_N]].copy()
            self.st[S.DECK_N] -= 1
        elif place == "pile":
            self.pile[i: self.st[S.PILE_N] - 1] = self.pile[i + 1: self.st[S.PILE_N]].copy()
            self.st[S.PILE_N] -= 1
        elif place == "hand":
            h = self.hand(i)
            h.remove(card)
            self._write_hand(i, h)
        elif place == "pending":
            raise AssertionError("card is pending")

    def _free_copy(self, name: str, taken: set) -> int:
        """A copy of `name` not already used: from the deck, else the pile, else a hand."""
        ids = [c for c in self.card_ids(name) if c not in taken]
        for c in ids:
            if self._locate(c)[0] == "deck":
                return c
        for c in ids:
            if self._locate(c)[0] == "pile":
                return c
        for c in ids:
            if self._locate(c)[0] in (None, "hand"):
                return c  # last resort: taken out of another seat's hand
        raise AssertionError(f"no free copy of {name!r}")

    def _write_hand(self, seat: int, codes: list[int]):
        self.hands[seat, :] = 0
        self.hands[seat, : len(codes)] = codes
        self.seats[seat, S.HAND_N] = len(codes)

    def hand(self, seat: int) -> list[int]:
        return [int(x) for x in self.hands[seat, : self.seats[seat, S.HAND_N]]]

    def hand_names(self, seat: int) -> list[str]:
        return [events.card_name(c, self.values["components"]) for c in self.hand(seat)]

    def goods(self, seat: int) -> list[int]:
        """Goods held by colour."""
        out = [0] * S.N_COLOURS
        for c in self.hand(seat):
            if c >= self.n_cards:
                out[c - self.n_cards] += 1
        return out

    def set_hand(self, seat: int, items: list) -> list[int]:
        """Give a seat exactly these cards: names of deck cards, "good:<colour>", or card ids.
        Cards move from the deck/pile (conserved); Goods come from / return to their stacks.
        Returns the hand's codes."""
        for c in self.hand(seat):  # return the old hand: Goods to stacks, deck cards to the deck
            if c >= self.n_cards:
                self.st[S.STOCK0 + c - self.n_cards] += 1
            else:
                self.deck[self.st[S.DECK_N]] = c
                self.st[S.DECK_N] += 1
        self._write_hand(seat, [])
        codes, taken = [], set()
        for item in items:
            if isinstance(item, str) and item.startswith("good:"):
                colour = self.colours.index(item[5:])
                assert self.st[S.STOCK0 + colour] > 0, f"no {item[5:]} Good left"
                self.st[S.STOCK0 + colour] -= 1
                codes.append(self.n_cards + colour)
                continue
            card = item if isinstance(item, (int, np.integer)) else self._free_copy(item, taken)
            self._take_out(int(card))
            taken.add(int(card))
            codes.append(int(card))
        self._write_hand(seat, codes)
        return codes

    def stack_deck(self, top_first: list) -> list[int]:
        """Put these cards (names or ids) on top of the deck, the first one on top."""
        ids, taken = [], set()
        for item in top_first:
            card = item if isinstance(item, (int, np.integer)) else self._free_copy(item, taken)
            self._take_out(int(card))
            taken.add(int(card))
            ids.append(int(card))
        for card in reversed(ids):
            self.deck[self.st[S.DECK_N]] = card
            self.st[S.DECK_N] += 1
        return ids

    def set_pile_top(self, item) -> int:
        card = item if isinstance(item, (int, np.integer)) else self._free_copy(item, set())
        self._take_out(int(card))
        self.pile[self.st[S.PILE_N]] = card
        self.st[S.PILE_N] += 1
        return int(card)

    def set_pending(self, items: list) -> list[int]:
        """Set these Event cards aside, waiting for resolve_pending (first = drawn first)."""
        ids, taken = [], set()
        for item in items:
            card = item if isinstance(item, (int, np.integer)) else self._free_copy(item, taken)
            self._take_out(int(card))
            taken.add(int(card))
            self.pending[self.st[S.PENDING_N]] = card
            self.st[S.PENDING_N] += 1
            ids.append(int(card))
        return ids

    def deck_top(self, n: int = 1) -> list[int]:
        return [int(self.deck[self.st[S.DECK_N] - 1 - i]) for i in range(n)]

    def pile_top(self) -> int:
        return int(self.pile[self.st[S.PILE_N] - 1])

    def set_stock(self, colour: str, n: int):
        self.st[S.STOCK0 + self.colours.index(colour)] = n

    def stock(self, colour: str) -> int:
        return int(self.st[S.STOCK0 + self.colours.index(colour)])

    def set_power(self, seat: int, power: int):
        self.seats[seat, S.POWER] = power

    def set_number_die(self, faces: list[int]):
        """Give this table its own number die (row indices 0..12, -1 = skull) without touching
        the shared compiled tables: the engine must read every roll from K (A8, A9)."""
        self.K = self.K.copy()
        self.K[S.DICE0 + S.NUMBER_DIE, :] = 0
        self.K[S.DICE0 + S.NUMBER_DIE, : len(faces)] = faces
        self.K[S.META, S.NUMBER_FACES] = len(faces)

    def set_strategy(self, seat: int, name: str):
        self.W[seat, : PRESETS.shape[1]] = PRESETS[PRESET_INDEX[name]]

    def reseed(self, seed: int):
        seed_streams(self.rng, np.uint64(seed))

    # ------------------------------------------------------------------ reading the log
    def rows(self, start: int | None = None) -> list[tuple]:
        """Log rows from `start` (default: after the set-up)."""
        start = self.setup_rows if start is None else start
        return [tuple(int(x) for x in r) for r in self.log[start: self.logc[0]]]

    def mark(self) -> int:
        """Current log length: pass to rows()/events() to see only what follows."""
        return int(self.logc[0])

    def events(self, code: int | None = None, start: int | None = None) -> list[tuple]:
        return [r for r in self.rows(start) if code is None or r[2] == code]

    def codes(self, start: int | None = None) -> list[int]:
        return [r[2] for r in self.rows(start)]

    def narrate(self, start: int | None = None) -> str:
        return "\n".join(events.describe_event(r, {"rules": self.values}) for r in self.rows(start))

    # ------------------------------------------------------------------ invariants
    def deck_cards(self) -> list[int]:
        """Every deck card id in deck, pile, pending and hands (Goods excluded)."""
        out = list(self.deck[: self.st[S.DECK_N]]) + list(self.pile[: self.st[S.PILE_N]])
        out += list(self.pending[: self.st[S.PENDING_N]])
        for s in range(self.players):
            out += [c for c in self.hand(s) if c < self.n_cards]
        return sorted(int(c) for c in out)

    def goods_total(self) -> list[int]:
        """Per colour: stack + held."""
        return [int(self.st[S.STOCK0 + c]) + sum(self.goods(s)[c] for s in range(self.players))
                for c in range(S.N_COLOURS)]


def plain(players: int = 4, seed: int = 1, overrides: dict | None = None, **kw) -> Table:
    """A table without Player Powers (every seat starts with its island's Good, no power),
    for hand-built positions."""
    return Table(players=players, seed=seed, overrides={"player_powers": False, **(overrides or {})}, **kw)


class Scratch:
    """The lookahead's scratch tables as play_chunk allocates them, for a Table."""

    def __init__(self, t: Table):
        from simkit.core.kernels import RACE_FIRST
        from strategies import sea_of_plunder as bot

        self.T2 = np.zeros_like(t.T)
        self.F2 = np.zeros_like(t.F)
        self.rr = np.zeros_like(t.rng)
        self.buf2 = np.zeros_like(t.buf)
        self.nolog = np.zeros((0, 6), dtype=np.int64)
        self.unseen = np.zeros((lookahead.UNSEEN_ROWS, t.T.shape[1]), dtype=np.int64)
        self.values = np.zeros((bot.MAX_LOOKAHEAD, RACE_FIRST + bot.MAX_ROLLOUTS), dtype=np.float64)
        # the rollout seats' weights: lookahead_choice copies the deciding seat's into F2

    def choice(self, t: Table, seat: int) -> int:
        return int(t.call("lookahead_choice", seat=seat, **vars(self)))


def play_game(t: Table, after_turn=None) -> Table:
    """Play the game on `t` to its end the way chunk.play_games does (its round loop, in
    Python), a lookahead seat taking its turn as play_chunk seats it, calling after_turn(t, seat)
    after every turn; then final scoring."""
    from strategies import sea_of_plunder as bot

    lookahead = [t.F[1 + s, bot.POLICY] == 2 for s in range(t.players)]
    scratch = Scratch(t) if any(lookahead) else None
    while True:
        for s in range(t.players):
            if lookahead[s]:
                t.call("lookahead_turn", seat=s, **vars(scratch))
            else:
                t.take_turn(s)
            if after_turn is not None:
                after_turn(t, s)
        t.st[S.ROUND] += 1
        if game_over(t, S):
            break
    t.call("final_scoring")
    return t


def score(t: Table, seat: int) -> int:
    return int(t.call("seat_score", seat=seat, n_cards=t.n_cards))


__all__ = [
    "CARD_NAMES",
    "COLOURS",
    "COMP",
    "EV",
    "N_CARDS",
    "PRESETS",
    "PRESET_INDEX",
    "S",
    "Table",
    "card_ids",
    "good",
    "kind_of",
    "name_of",
    "plain",
    "play_game",
    "score",
    "sq",
]
