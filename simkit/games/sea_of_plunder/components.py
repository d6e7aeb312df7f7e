"""Load and validate the Sea of Plunder component files, then compile them to arrays.

Files live in components/: board.txt (ASCII map), ports.toml, cards.toml, dice.toml.
A designer who owns the real cards can edit them; a mistake names the file and line.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.errors import InputError, unknown
from simkit.games.sea_of_plunder import state as S

FOLDER = Path(__file__).parent / "components"
STEP_CODES = {name: i for i, name in enumerate(S.DIRECTION_NAMES)}
# (row, column) offset of each direction; north is toward row 1 (A1)
OFFSETS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


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


def square_name(square: int) -> str:
    return f"{chr(ord('A') + square % S.SIZE)}{square // S.SIZE + 1}"


def parse_square(text: str) -> int:
    col, row = ord(text[0].upper()) - ord("A"), int(text[1:]) - 1
    return row * S.SIZE + col


def _load_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: malformed TOML: {e}") from None


def _parse_board(path: Path, port_letters: dict) -> tuple:
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) == 1 and parts[0].isalpha():
            continue  # the column header
        if len(parts) != 2 or not parts[0].isdigit() or len(parts[1]) != S.SIZE:
            raise InputError(f"{path}:{number}: a board row is '<row number> <{S.SIZE} squares>', got {line.strip()!r}")
        if int(parts[0]) != len(rows) + 1:
            raise InputError(f"{path}:{number}: expected row {len(rows) + 1}, got row {parts[0]}")
        bad = set(parts[1]) - set(".pT") - set(port_letters)
        if bad:
            raise InputError(f"{path}:{number}: unknown square symbol {min(bad)!r}; use . p T or a port letter")
        rows.append(parts[1])
    if len(rows) != S.SIZE:
        raise InputError(f"{path}: the board needs {S.SIZE} rows, found {len(rows)}")
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
                    raise InputError(f"{path}: port letter {ch!r} appears twice")
                ports[ch] = square
    if len(pirates) != S.N_PIRATES or len(islands) != 1 or len(ports) != len(port_letters):
        raise InputError(f"{path}: the board needs {S.N_PIRATES} 'p', one 'T' and each port letter once "
                         f"(found {len(pirates)} p, {len(islands)} T, ports {sorted(ports)})")
    return ports, tuple(pirates), islands[0]


def _parse_path(text: str, where: str) -> tuple:
    steps = []
    for step in text.split():
        if step not in STEP_CODES:
            raise unknown("map step", step, STEP_CODES, where)
        steps.append(STEP_CODES[step])
    if not 1 <= len(steps) <= S.MAX_STEPS - 1:
        raise InputError(f"{where}: a path has 1 to {S.MAX_STEPS - 1} steps, got {len(steps)}")
    return tuple(steps)


@functools.cache
def load(folder: str = str(FOLDER)) -> Components:
    """Read and check the component files in `folder`."""
    base = Path(folder)
    ports_doc = _load_toml(base / "ports.toml")
    port_list = ports_doc.get("port", [])
    if len(port_list) != S.N_COLOURS:
        raise InputError(f"{base / 'ports.toml'}: needs exactly {S.N_COLOURS} [[port]] entries")
    names = tuple(p["name"] for p in port_list)
    letters = {p["letter"]: i for i, p in enumerate(port_list)}
    port_at, pirates, island = _parse_board(base / "board.txt", letters)
    port_squares = tuple(port_at[p["letter"]] for p in port_list)
    seat_islands = {}
    for key, value in ports_doc.get("seat_islands", {}).items():
        seat_islands[key if key == "two_player" else int(key)] = value

    cards_doc = _load_toml(base / "cards.toml")
    discard_paths = tuple(_parse_path(p, "cards.toml action_discard_paths") for p in cards_doc["action_discard_paths"])
    cards = []
    for i, entry in enumerate(cards_doc.get("card", [])):
        where = f"{base / 'cards.toml'} card {i + 1} ({entry.get('name', '?')})"
        kind = entry.get("kind")
        if kind not in S.KIND_NAMES:
            raise unknown("card kind", kind, S.KIND_NAMES, where)
        count = entry.get("count", 1)
        if not isinstance(count, int) or count < 0:
            raise InputError(f"{where}: count must be a whole number >= 0")
        effect, port, paths = -1, -1, ()
        if kind == "map":
            paths = tuple(_parse_path(p, where) for p in entry.get("paths", []))
            if not 1 <= len(paths) <= S.MAX_OPTIONS:
                raise InputError(f"{where}: a map card has 1 to {S.MAX_OPTIONS} paths")
        elif kind == "port":
            if entry.get("port") not in names:
                raise unknown("port", entry.get("port"), names, where)
            port = names.index(entry["port"])
        else:
            vocabulary = S.ACTION_EFFECTS if kind == "action" else S.EVENT_EFFECTS
            if entry.get("effect") not in vocabulary:
                raise unknown(f"{kind} effect", entry.get("effect"), vocabulary, where)
            effect = S.EFFECT_CODES[entry["effect"]]
            if kind == "action":
                paths = discard_paths
        cards.extend([Card(entry["name"], S.KIND_NAMES.index(kind), effect, port, paths)] * count)

    dice = _load_toml(base / "dice.toml")

    def faces(key, decode):
        out = []
        for face in dice[key]:
            out.append(-1 if face == "skull" else decode(face))
        if sorted(f for f in out if f >= 0) != list(range(S.SIZE)):
            raise InputError(f"{base / 'dice.toml'}: the {key} die must show each coordinate once (plus skulls)")
        return tuple(out)

    letter = faces("letter", lambda f: ord(f) - ord("A"))
    number = faces("number", lambda f: int(f) - 1)
    raw = b"".join((base / f).read_bytes() for f in ("board.txt", "ports.toml", "cards.toml", "dice.toml"))
    return Components(names, tuple(p["colour"] for p in port_list), port_squares, pirates, island,
                      int(ports_doc.get("goods_per_colour", 4)), seat_islands, tuple(cards), letter, number, raw)


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
    n = len(comp.cards)
    K = np.zeros((S.CARD0 + n, S.SQUARES), dtype=np.int64)
    for sq in range(S.SQUARES):
        r, c = divmod(sq, S.SIZE)
        for d, (dr, dc) in enumerate(OFFSETS):  # endless sea: wrap on every edge
            K[S.NBR0 + sq, d] = ((r + dr) % S.SIZE) * S.SIZE + (c + dc) % S.SIZE
        for b in range(S.SQUARES):
            rows, cols = abs(r - b // S.SIZE), abs(c - b % S.SIZE)
            K[S.DIST0 + sq, b] = min(rows, S.SIZE - rows) + min(cols, S.SIZE - cols)
    K[S.DICE0, : len(comp.letter_faces)] = comp.letter_faces
    K[S.DICE0 + 1, : len(comp.number_faces)] = comp.number_faces
    K[S.META, S.DICE_FACES] = len(comp.letter_faces)
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
    for i, card in enumerate(comp.cards):
        K[S.CARD0 + i, :4] = (card.kind, card.effect, len(card.paths), card.port)
        for o, path in enumerate(card.paths):
            base = S.STEPS0 + o * S.MAX_STEPS
            K[S.CARD0 + i, base] = len(path)
            K[S.CARD0 + i, base + 1: base + 1 + len(path)] = path
    return (K,)
