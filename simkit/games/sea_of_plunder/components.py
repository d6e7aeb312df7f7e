"""Load and validate the Sea of Plunder component files, then compile them to arrays.

A component set is board.txt (ASCII map), ports.toml, cards.toml and dice.toml. The base
set lives in components/; an alternative set components/alt-<name>/ holds only the files
that differ, and a designer may point at a folder of their own. Every file is
checked against the schema declared below (types, bounds, cross-references) before any
game is played; a mistake is one `error:` line naming the file, the entry and the rule.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.core.components import ComponentSet
from simkit.core.errors import InputError, unknown
from simkit.games.sea_of_plunder import state as S

FOLDER = Path(__file__).parent / "components"
FILES = ("board.txt", "ports.toml", "cards.toml", "dice.toml")
STEP_CODES = {name: i for i, name in enumerate(S.DIRECTION_NAMES)}
# (row, column) offset of each direction; north is toward row 1 (A1)
OFFSETS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
SKULL = "skull"
PLAYER_COUNTS = (2, 3, 4)
MAX_GOODS_PER_COLOUR = 4  # the Goods score table counts 0..4 cards of a colour (Collecting Goods)
MAX_COPIES = 20  # copies of one card design
# deck cards at most: a hand (MAX_HAND slots) must hold the whole deck plus every Good
MAX_DECK = S.MAX_HAND - S.N_COLOURS * MAX_GOODS_PER_COLOUR


@dataclass(frozen=True)
class Card:
    name: str
    kind: int
    effect: int  # action/event effect code, -1 otherwise
    port: int  # port index for port cards, -1 otherwise
    paths: tuple  # tuple of tuples of direction codes


@dataclass(frozen=True)
class Components:
    ports: tuple  # port names, index = goods colour
    colours: tuple
    port_squares: tuple
    pirate_squares: tuple
    island_square: int
    goods_per_colour: int
    seat_islands: dict  # players -> list of island indices; "two_player" -> [[a, b], [c, d]]
    cards: tuple  # one Card per physical card (copies expanded), deck order as listed
    letter_faces: tuple  # column index or -1 for the skull
    number_faces: tuple  # row index or -1 for the skull
    raw: bytes  # the files' contents, for the rules hash
    name: str = "standard"  # the component set
    cards_file: str = "components/cards.toml"  # how errors name the deck file


def square_name(square: int) -> str:
    return f"{chr(ord('A') + square % S.SIZE)}{square // S.SIZE + 1}"


def parse_square(text: str) -> int:
    col, row = ord(text[0].upper()) - ord("A"), int(text[1:]) - 1
    return row * S.SIZE + col


# --------------------------------------------------------------------------- the schema
@dataclass(frozen=True)
class Field:
    """One key of a TOML table: its type, bounds and the rule that sets them."""

    key: str
    kind: type  # str, int, list or dict
    rule: str  # the rulebook section or assumption id the bound comes from
    bounds: tuple | None = None  # inclusive: the value for int, the length for str and list
    required: bool = True


PORT_FILE = (
    Field("goods_per_colour", int, "Collecting Goods: 4 of each colour", (0, MAX_GOODS_PER_COLOUR), required=False),
    Field("port", list, "Set-up 1-3: four Port Islands, one per colour (A2, A3)", (S.N_COLOURS, S.N_COLOURS)),
    Field("seat_islands", dict, "Set-up 3: each ship starts on its island (A3, A27)"),
)
PORT = (
    Field("name", str, "Set-up 1 (A2)", (1, 40)),
    Field("letter", str, "the port's letter on board.txt (A2)", (1, 1)),
    Field("colour", str, "Set-up 3: the island's Goods colour (A3)", (1, 20)),
)
CARDS_FILE = (
    Field("action_discard_paths", list, "Action Cards: 'If discarded' (A7)", (1, S.MAX_OPTIONS)),
    Field("card", list, "Set-up 7a: the draw deck (A5)", (1, 200)),
)
CARD = (
    Field("kind", str, "Set-up 7a: Map, Port Island, Action or Event cards (A5)"),
    Field("name", str, "Card List (A5)", (1, 60)),
    Field("count", int, "copies in the deck (A5)", (0, MAX_COPIES), required=False),
    Field("paths", list, "Map Cards: one path per X (A6)", (1, S.MAX_OPTIONS), required=False),
    Field("port", str, "Port Island Cards", required=False),
    Field("effect", str, "Card List: Action and Event Cards", required=False),
)
KIND_KEYS = {"map": "paths", "port": "port", "action": "effect", "event": "effect"}
DICE_FILE = (
    Field("letter", list, "Placing new Treasure Islands: the letter placement die (A8)", (1, S.MAX_DIE_FACES)),
    Field("number", list, "Placing new Treasure Islands: the number placement die (A8, A9)",
          (1, S.MAX_DIE_FACES)),
)


def _type_name(kind: type) -> str:
    return {str: "text", int: "a whole number", list: "a list", dict: "a table"}[kind]


def check_table(table, fields: tuple, where: str) -> None:
    """Check one TOML table against its fields: unknown keys, missing keys, types, bounds."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: must be a table, got {table!r}")
    known = [f.key for f in fields]
    for key in table:
        if key not in known:
            raise unknown("key", key, known, where)
    for f in fields:
        if f.key not in table:
            if f.required:
                raise InputError(f"{where}: missing '{f.key}' ({f.rule})")
            continue
        value = table[f.key]
        if not isinstance(value, f.kind) or (f.kind is int and isinstance(value, bool)):
            raise InputError(f"{where}: '{f.key}' must be {_type_name(f.kind)}, got {value!r} ({f.rule})")
        if f.bounds is not None:
            low, high = f.bounds
            size = value if f.kind is int else len(value)
            what = "" if f.kind is int else ("length " if f.kind is str else "number of entries ")
            if not low <= size <= high:
                span = f"{low}" if low == high else f"{low} to {high}"
                raise InputError(f"{where}: '{f.key}' {what}must be {span}, got {size} ({f.rule})")


def _load_toml(files: ComponentSet, name: str) -> dict:
    return files.read_toml(name)


# --------------------------------------------------------------------------- board.txt
def _parse_board(text: str, where: str, port_letters: dict) -> tuple:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) == 1 and parts[0].isalpha():
            continue  # the column header
        if len(parts) != 2 or not parts[0].isdigit() or len(parts[1]) != S.SIZE:
            raise InputError(f"{where} line {number}: a board row is '<row number> <{S.SIZE} squares>', "
                             f"got {line.strip()!r} (A1: a {S.SIZE} x {S.SIZE} sea)")
        if int(parts[0]) != len(rows) + 1:
            raise InputError(f"{where} line {number}: expected row {len(rows) + 1}, got row {parts[0]} (A1)")
        bad = set(parts[1]) - set(".pT") - set(port_letters)
        if bad:
            raise InputError(f"{where} line {number}: unknown square symbol {min(bad)!r}; use . p T or a port "
                             f"letter from ports.toml ({', '.join(sorted(port_letters))}) (A2)")
        rows.append(parts[1])
    if len(rows) != S.SIZE:
        raise InputError(f"{where}: the board needs {S.SIZE} rows, found {len(rows)} (A1)")
    ports, pirates, islands = {}, [], []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            square = r * S.SIZE + c
            if ch == "p":
                pirates.append(square)
            elif ch == "T":
                islands.append(square)
            elif ch in port_letters:
                if ch in ports:
                    raise InputError(f"{where} row {r + 1}: port letter {ch!r} appears twice (Set-up 1: one "
                                     f"island per port; A2)")
                ports[ch] = square
    if len(pirates) != S.N_PIRATES:
        raise InputError(f"{where}: the board needs {S.N_PIRATES} pirate squares 'p', found {len(pirates)} "
                         f"(Set-up 4)")
    if len(islands) != 1:
        raise InputError(f"{where}: the board needs one first Treasure Island 'T', found {len(islands)} (Set-up 5)")
    missing = sorted(set(port_letters) - set(ports))
    if missing:
        raise InputError(f"{where}: port letter {missing[0]!r} of ports.toml is not on the board (Set-up 1; A2)")
    return ports, tuple(pirates), islands[0]


# --------------------------------------------------------------------------- ports.toml
def _check_ports(doc: dict, where: str) -> tuple:
    check_table(doc, PORT_FILE, where)
    names, letters, colours = [], {}, []
    for i, entry in enumerate(doc["port"]):
        at = f"{where} [[port]] {i + 1}"
        check_table(entry, PORT, at)
        at = f"{at} ({entry['name']})"
        letter = entry["letter"]
        if not ("A" <= letter <= "Z") or letter == "T":
            raise InputError(f"{at}: 'letter' must be a capital letter other than T (T marks the Treasure "
                             f"Island), got {letter!r} (A2)")
        for value, seen, key in ((entry["name"], names, "name"), (letter, letters, "letter"),
                                 (entry["colour"], colours, "colour")):
            if value in seen:
                raise InputError(f"{at}: '{key}' {value!r} is used by two ports (Set-up 1-3: one island and "
                                 f"one Goods colour per port; A3)")
        names.append(entry["name"])
        letters[letter] = i
        colours.append(entry["colour"])
    seats = doc["seat_islands"]
    at = f"{where} [seat_islands]"
    wanted = [str(n) for n in PLAYER_COUNTS] + ["two_player"]
    for key in seats:
        if key not in wanted:
            raise unknown("player count", key, wanted, at)
    seat_islands = {}
    for key in wanted:
        if key not in seats:
            raise InputError(f"{at}: missing '{key}': every player count needs its starting islands "
                             f"(Set-up 3; A3, A4)")
        value = seats[key]
        if key == "two_player":
            ok = (isinstance(value, list) and len(value) == 2
                  and all(isinstance(pair, list) and len(pair) == 2 for pair in value))
            flat = [x for pair in value for x in pair] if ok else []
            if not ok:
                raise InputError(f"{at} two_player: needs two lists of two island indices (one pair per "
                                 f"player), got {value!r} (Two Player Variant: two colours each; A27)")
        else:
            flat = value if isinstance(value, list) else []
            if len(flat) != int(key):
                raise InputError(f"{at} {key}: needs {key} island indices, one per seat, got {value!r} "
                                 f"(Set-up 3; A3)")
        for x in flat:
            if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < len(names):
                raise InputError(f"{at} {key}: island index {x!r} is not a [[port]] of this file "
                                 f"(0 to {len(names) - 1}) (Set-up 3: ships start on Port Islands; A3)")
        if len(set(flat)) != len(flat):
            raise InputError(f"{at} {key}: two ships start on the same island, got {value!r} (Set-up 3: each "
                             f"ship starts on its own island; A3)")
        seat_islands[key if key == "two_player" else int(key)] = value
    return tuple(names), tuple(colours), letters, seat_islands


# --------------------------------------------------------------------------- cards.toml
def _parse_path(text, where: str, rule: str) -> tuple:
    if not isinstance(text, str):
        raise InputError(f"{where}: a path is text such as \"N N E\", got {text!r} ({rule})")
    steps = []
    for step in text.split():
        if step not in STEP_CODES:
            raise unknown("map step", step, STEP_CODES, f"{where} ({rule})")
        steps.append(STEP_CODES[step])
    if not 1 <= len(steps) <= S.MAX_STEPS - 1:
        raise InputError(f"{where}: a path has 1 to {S.MAX_STEPS - 1} steps, got {len(steps)} ({rule})")
    return tuple(steps)


def _check_cards(doc: dict, where: str, port_names: tuple) -> tuple:
    check_table(doc, CARDS_FILE, where)
    discard_paths = tuple(_parse_path(p, f"{where} action_discard_paths", "A7") for p in doc["action_discard_paths"])
    cards, names = [], set()
    for i, entry in enumerate(doc["card"]):
        at = f"{where} [[card]] {i + 1}"
        check_table(entry, CARD, at)
        at = f"{at} ({entry['name']})"
        kind = entry["kind"]
        if kind not in S.KIND_NAMES:
            raise unknown("card kind", kind, S.KIND_NAMES, at)
        if entry["name"] in names:
            raise InputError(f"{at}: two [[card]] entries share the name {entry['name']!r}; give one entry a "
                             f"'count' instead (A5)")
        names.add(entry["name"])
        needed = KIND_KEYS[kind]
        for key in ("paths", "port", "effect"):
            if key == needed and key not in entry:
                raise InputError(f"{at}: a {kind} card needs '{key}' ({_field(CARD, key).rule})")
            if key != needed and key in entry:
                raise InputError(f"{at}: '{key}' belongs to {_kinds_with(key)} cards, not to a {kind} card (A5)")
        effect, port, paths = -1, -1, ()
        if kind == "map":
            paths = tuple(_parse_path(p, f"{at} paths", "A6") for p in entry["paths"])
        elif kind == "port":
            if entry["port"] not in port_names:
                raise unknown("port", entry["port"], port_names, f"{at} (Port Island Cards: a port of ports.toml)")
            port = port_names.index(entry["port"])
        else:
            vocabulary = S.ACTION_EFFECTS if kind == "action" else S.EVENT_EFFECTS
            if entry["effect"] not in vocabulary:
                raise unknown(f"{kind} effect", entry["effect"], vocabulary, f"{at} (Card List: {kind.title()} Cards)")
            effect = S.EFFECT_CODES[entry["effect"]]
            if kind == "action":
                paths = discard_paths
        cards.extend([Card(entry["name"], S.KIND_NAMES.index(kind), effect, port, paths)] * entry.get("count", 1))
    if not cards:
        raise InputError(f"{where}: the deck is empty: every [[card]] has count 0 (Set-up 7a)")
    if len(cards) > MAX_DECK:
        raise InputError(f"{where}: the deck holds {len(cards)} cards, at most {MAX_DECK} (a hand must be able to "
                         f"hold the whole deck and every Good)")
    if not any(c.kind == S.MAP for c in cards):
        raise InputError(f"{where}: the deck needs at least one Map card to seed the play/discard pile (Set-up 7b)")
    # the rulebook's worked examples must be playable with this deck
    if not any(c.kind == S.MAP and len(c.paths) > 1 for c in cards):
        raise InputError(f"{where}: the deck needs a multi-option Map card (several paths): the Map Cards "
                         f"example plays Hurricane with one (SOP-078, SOP-081)")
    if not any(_offset(path) == ENDLESS_SEAS for c in cards if c.kind == S.MAP for path in c.paths):
        raise InputError(f"{where}: the deck needs a Map card that sails 2 squares north and 1 east, as the "
                         f"Endless Seas example does from M2 to A13 (SOP-085, A1)")
    return tuple(cards)


ENDLESS_SEAS = (-2, 1)  # M2 to A13: two rows north over the top edge, one column east over the side (SOP-085)


def _offset(path: tuple) -> tuple:
    """Rows and columns a path moves in all (north is -1 row, A1)."""
    return (sum(OFFSETS[d][0] for d in path), sum(OFFSETS[d][1] for d in path))


def _field(fields: tuple, key: str) -> Field:
    return next(f for f in fields if f.key == key)


def _kinds_with(key: str) -> str:
    return " and ".join(k for k, v in KIND_KEYS.items() if v == key)


# --------------------------------------------------------------------------- dice.toml
def _check_dice(doc: dict, where: str) -> tuple:
    """The two placement dice: each shows every coordinate of its axis once, plus any number
    of skulls; the dice agree where the rules need it (A8, A9)."""
    check_table(doc, DICE_FILE, where)
    coordinates = {
        "letter": {chr(ord("A") + i): i for i in range(S.SIZE)},
        "number": {str(i + 1): i for i in range(S.SIZE)},
    }
    spans = {"letter": f"A..{chr(ord('A') + S.SIZE - 1)}", "number": f"1..{S.SIZE}"}
    faces = {}
    for die in ("letter", "number"):
        out = []
        for j, face in enumerate(doc[die]):
            if face == SKULL:
                out.append(-1)
            elif isinstance(face, str) and face in coordinates[die]:
                out.append(coordinates[die][face])
            else:
                raise InputError(f"{where} {die} face {j + 1}: {face!r} is not a {die} of the board ({spans[die]}) "
                                 f"or \"{SKULL}\" (A1, A8)")
        shown = sorted(f for f in out if f >= 0)
        if shown != list(range(S.SIZE)):
            missing = [c for c, i in coordinates[die].items() if i not in shown]
            twice = [c for c, i in coordinates[die].items() if shown.count(i) > 1]
            what = f"misses {missing[0]!r}" if missing else f"shows {twice[0]!r} twice"
            raise InputError(f"{where} {die}: the {die} die {what}; it must show each of the board's {S.SIZE} "
                             f"{die}s once, so that every square is equally likely (Placing new Treasure "
                             f"Islands; A8)")
        faces[die] = tuple(out)
    # where the rules need the two dice to agree: a skull can be rolled (it pays the pirates,
    # SOP-113), and the numbered die reaches 13 for The Strategist's 8-13 (checked above)
    if -1 not in faces["letter"] and -1 not in faces["number"]:
        raise InputError(f"{where}: neither die has a \"{SKULL}\" face; the placement rule pays the pirates when "
                         f"a skull is rolled, so at least one die needs one (Placing new Treasure Islands; A8)")
    return faces["letter"], faces["number"]


# --------------------------------------------------------------------------- loading
def load(value: str = "standard") -> Components:
    """Read and check one component set: "standard", a shipped "alt-<name>", or a folder.
    Cached by the files' contents, so an edited folder is read again."""
    files = ComponentSet.open(FOLDER, value)
    return _load(files, files.raw(FILES))


@functools.cache
def _load(files: ComponentSet, raw: bytes) -> Components:
    where = files.where
    ports_doc = _load_toml(files, "ports.toml")
    names, colours, letters, seat_islands = _check_ports(ports_doc, where("ports.toml"))
    port_at, pirates, island = _parse_board(files.read_text("board.txt"), where("board.txt"), letters)
    port_squares = tuple(port_at[letter] for letter in sorted(letters, key=letters.get))
    cards = _check_cards(_load_toml(files, "cards.toml"), where("cards.toml"), names)
    letter, number = _check_dice(_load_toml(files, "dice.toml"), where("dice.toml"))
    files.check_read()  # a key no check above read would change nothing: refused (simkit.core.components)
    return Components(names, colours, port_squares, pirates, island,
                      int(ports_doc.get("goods_per_colour", MAX_GOODS_PER_COLOUR)), seat_islands, cards,
                      letter, number, raw, files.name, where("cards.toml"))


def check_deal(comp: Components, values: dict, players: int) -> None:
    """The deck must deal every starting hand from Action and Map cards and still seed the
    pile with a Map card (Set-up 7a, 7b); this depends on the rules, so it is checked here."""
    dealable = sum(c.kind in (S.MAP, S.ACTION) for c in comp.cards)
    hands = players * values["hand_size"] + (1 if values["player_powers"] else 0)  # Odd Jane/Jon's extra card
    if dealable < hands + 1:
        raise InputError(f"{comp.cards_file}: {dealable} Action and Map cards cannot deal {players} starting hands "
                         f"of {values['hand_size']} (plus Odd Jane/Jon's extra card when powers are on) and lay a "
                         f"Map card on the pile (Set-up 7a, 7b; hand_size)")


def goods_score_table(set_points: tuple) -> np.ndarray:
    """Best score of a Goods hand, by counts of each colour (0..4 each), over all partitions
    into sets of distinct colours (Final Scoring: sets may be split as the player likes)."""
    points = (0,) + tuple(set_points)  # set of k distinct colours scores points[k - 1]... k = 1..4
    table = np.zeros((5, 5, 5, 5), dtype=np.int64)
    for a in range(5):
        for b in range(5):
            for c in range(5):
                for d in range(5):
                    counts = (a, b, c, d)
                    best = 0
                    for mask in range(1, 16):  # take one set = the colours in mask
                        if all(counts[k] > 0 for k in range(4) if mask >> k & 1):
                            rest = tuple(counts[k] - (mask >> k & 1) for k in range(4))
                            size = mask.bit_count()
                            best = max(best, points[size - 1] + table[rest])
                    table[counts] = best
    return table.reshape(-1)


def compile_arrays(comp: Components, values: dict, players: int) -> tuple:
    """The engine's component tuple: one int64 table K laid out as state.py describes."""
    check_deal(comp, values, players)
    n = len(comp.cards)
    K = np.zeros((S.CARD0 + n, S.SQUARES), dtype=np.int64)
    for sq in range(S.SQUARES):
        r, c = divmod(sq, S.SIZE)
        for d, (dr, dc) in enumerate(OFFSETS):  # endless sea: wrap on every edge
            K[S.NBR0 + sq, d] = ((r + dr) % S.SIZE) * S.SIZE + (c + dc) % S.SIZE
        for b in range(S.SQUARES):
            rows, cols = abs(r - b // S.SIZE), abs(c - b % S.SIZE)
            K[S.DIST0 + sq, b] = min(rows, S.SIZE - rows) + min(cols, S.SIZE - cols)
    K[S.DICE0 + S.LETTER_DIE, : len(comp.letter_faces)] = comp.letter_faces
    K[S.DICE0 + S.NUMBER_DIE, : len(comp.number_faces)] = comp.number_faces
    K[S.META, S.LETTER_FACES] = len(comp.letter_faces)
    K[S.META, S.NUMBER_FACES] = len(comp.number_faces)
    scores = goods_score_table((values["set2_points"], values["set3_points"], values["set4_points"]))
    K[S.GS0: S.GS0 + 5, :125] = scores.reshape(5, 125)
    if values["two_player"]:  # ship k: (owner seat, starting island)
        pairs = comp.seat_islands["two_player"]
        ships = [(0, pairs[0][0]), (1, pairs[1][0]), (0, pairs[0][1]), (1, pairs[1][1])]
    else:
        ships = [(s, island) for s, island in enumerate(comp.seat_islands[players])]
    for k, (owner, island) in enumerate(ships):
        K[S.OWNER, k] = owner
        K[S.SHIPS0 + k, :2] = (owner, island)
    K[S.META, S.N_SHIP_ROWS] = len(ships)
    K[S.BOARD, :10] = comp.port_squares + comp.pirate_squares + (comp.island_square, comp.goods_per_colour)
    path_ids = {("port", c): c for c in range(S.N_COLOURS)}  # mover_path: a port card goes to its port
    for i, card in enumerate(comp.cards):
        K[S.CARD0 + i, :4] = (card.kind, card.effect, len(card.paths), card.port)
        if card.kind == S.PORT_CARD:
            K[S.CARD0 + i, S.PATH_ID0] = path_ids["port", card.port]
        for o, path in enumerate(card.paths):
            base = S.STEPS0 + o * S.MAX_STEPS
            K[S.CARD0 + i, base] = len(path)
            K[S.CARD0 + i, base + 1: base + 1 + len(path)] = path
            for r in range(4):  # a quarter turn clockwise adds 2 to every step (Magical Compass)
                steps = tuple((d + 2 * r) & 7 for d in path)
                K[S.CARD0 + i, S.PATH_ID0 + o * 4 + r] = path_ids.setdefault(steps, len(path_ids))
    K[S.META, S.PATH_IDS] = len(path_ids)
    return (K,)
