"""Load and validate the Set Sail component files, then compile them to one int64 table K.

Files live in components/ (the base set, "standard"): board.txt (ASCII map: tile types
and water connections), ships.toml (ship decks), quests.toml (Plunder and Trade Quest
cards) and treasure_maps.toml (Treasure Quest maps). An alternative set
components/alt-<name>/ holds only the files that differ; a designer who owns
the real board and cards can point at a folder of their own. A mistake names the file,
the entry and the rule.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.core.components import BASE, ComponentSet, shipped
from simkit.core.errors import InputError
from simkit.games.set_sail import state as S

FOLDER = Path(__file__).parent / "components"
TILE_LETTERS = {"s": S.SHALLOW, "d": S.DEEP, "r": S.ROUTE, "S": S.SUPPLY_PORT, "T": S.TRADE_PORT,
                "U": S.UPGRADE_PORT, "P": S.PIRATE_PORT}
LAND = "#"
FILES = ("board.txt", "ships.toml", "quests.toml", "treasure_maps.toml")


@dataclass(frozen=True)
class Components:
    names: tuple  # tile names ("A1", ...), index = tile id (reading order, land skipped)
    types: tuple  # tile type per tile
    neighbours: tuple  # tuple of tuples of tile ids
    ships: tuple  # (deep water healths, trade route healths), one entry per card
    plunder: tuple  # (vp, ship cards) per card
    trade: tuple  # (vp, (banana, sugar cane, tobacco)) per card
    treasure: tuple  # (vp, tile id) per card
    goods_per_kind: int  # Trade cards of each good (Components: 15)
    raw: bytes  # the files' contents, for the rules hash


def _load_toml(cset, file: str) -> dict:
    return cset.read_toml(file)


def parse_board(text: str, where: str = "board.txt") -> tuple:
    """(names, types, neighbours) from an ASCII board: rows '<number> <letters>' under a
    header of column letters; comment lines start with '#' as their first non-blank."""
    rows: list[str] = []
    width = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):  # rows start with their number, so '#' is a comment
            continue
        parts = stripped.split()
        if len(parts) == 1 and parts[0].isalpha() and parts[0].isupper():
            width = len(parts[0])
            continue
        if len(parts) != 2 or not parts[0].isdigit():
            raise InputError(f"{where}:{number}: a board row is '<row number> <tiles>', got {stripped!r}")
        if int(parts[0]) != len(rows) + 1:
            raise InputError(f"{where}:{number}: expected row {len(rows) + 1}, got row {parts[0]}")
        bad = set(parts[1]) - set(TILE_LETTERS) - {LAND}
        if bad:
            raise InputError(f"{where}:{number}: unknown tile letter {min(bad)!r}; use {''.join(TILE_LETTERS)} or #")
        if width is not None and len(parts[1]) != width:
            raise InputError(f"{where}:{number}: row has {len(parts[1])} tiles, the header {width}")
        rows.append(parts[1])
    if not rows:
        raise InputError(f"{where}: no board rows")
    ids, names, types = {}, [], []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != LAND:
                ids[(r, c)] = len(names)
                names.append(f"{chr(ord('A') + c)}{r + 1}")
                types.append(TILE_LETTERS[ch])
    if len(names) > S.MAX_TILES:
        raise InputError(f"{where}: {len(names)} tiles; at most {S.MAX_TILES}")
    neighbours = []
    for (r, c) in ids:
        near = [ids[(r + dr, c + dc)] for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)) if (r + dr, c + dc) in ids]
        neighbours.append(tuple(near))
    return tuple(names), tuple(types), tuple(neighbours)


def distances(neighbours: tuple) -> np.ndarray:
    """Water steps between every two tiles (breadth-first), MAX_DIST - 1 if unreachable."""
    n = len(neighbours)
    out = np.full((n, n), S.MAX_DIST - 1, dtype=np.int64)
    for a in range(n):
        out[a, a] = 0
        queue = deque([a])
        while queue:
            t = queue.popleft()
            for u in neighbours[t]:
                if out[a, u] == S.MAX_DIST - 1 and u != a:
                    out[a, u] = min(out[a, t] + 1, S.MAX_DIST - 1)
                    queue.append(u)
    return out


def _counted(entries, where: str, make, keys: set) -> list:
    if not isinstance(entries, list):
        raise InputError(f"{where}: expected a list of [[tables]]")
    out = []
    for i, e in enumerate(entries):
        w = f"{where} entry {i + 1}"
        unknown = sorted(set(e) - keys - {"count"})
        if unknown:
            raise InputError(f"{w}: unknown key {unknown[0]!r}; the keys are {', '.join(sorted(keys | {'count'}))}")
        count = e.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InputError(f"{w}: count must be a whole number >= 0")
        out.extend([make(e, w)] * count)
    return out


def _int(e: dict, key: str, low: int, high: int, where: str) -> int:
    v = e.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise InputError(f"{where}: {key} must be a whole number in {low}..{high}, got {v!r}")
    return v


def load(components: str = BASE) -> Components:
    """Read and check the files of a component set: a shipped set's name
    ("standard", "alt-<name>") or a designer's folder. Shipped sets are read once per
    process; a designer's folder is read afresh, so edits to it are seen."""
    if components in shipped(FOLDER):
        return _load_shipped(components)
    return _load(ComponentSet.open(FOLDER, components))


@functools.cache
def _load_shipped(name: str) -> Components:
    return _load(ComponentSet.open(FOLDER, name))


def _load(cset: ComponentSet) -> Components:
    board = cset.where("board.txt")
    names, types, neighbours = parse_board(cset.read_text("board.txt"), board)
    for t, need in ((S.SUPPLY_PORT, 2), (S.TRADE_PORT, 1), (S.UPGRADE_PORT, 1), (S.PIRATE_PORT, 1)):
        if types.count(t) < need:
            raise InputError(f"{board}: needs at least {need} {S.TYPE_NAMES[t]} tile(s) (The Board; A2, A3)")
    dist = distances(neighbours)
    if (dist == S.MAX_DIST - 1).any():
        raise InputError(f"{board}: some tiles are not joined by water to the rest (The Board; A2)")
    ships_file = cset.where("ships.toml")
    ships_doc = _load_toml(cset, "ships.toml")
    decks = []
    for key in ("deep_water", "trade_route"):
        cards = _counted(ships_doc.get(key, []), f"{ships_file} [[{key}]]",
                         lambda e, w: _int(e, "health", 1, S.MAX_HEALTH - 1, w), {"health"})
        if not 1 <= len(cards) <= S.T_WIDTH:
            raise InputError(f"{ships_file}: the {key} deck needs 1..{S.T_WIDTH} cards, has {len(cards)}")
        decks.append(tuple(cards))
    quests_file = cset.where("quests.toml")
    q = _load_toml(cset, "quests.toml")
    plunder = _counted(q.get("plunder", []), f"{quests_file} [[plunder]]",
                       lambda e, w: (_int(e, "vp", 0, 50, w), _int(e, "ships", 0, 30, w)), {"vp", "ships"})

    def trade_card(e, w):
        cost = e.get("cost")
        if not isinstance(cost, list) or len(cost) != S.N_GOODS or not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 15 for c in cost):
            raise InputError(f"{w}: cost must list {S.N_GOODS} whole numbers 0..15 (banana, sugar cane, tobacco; A5)")
        return _int(e, "vp", 0, 50, w), tuple(cost)

    trade = _counted(q.get("trade", []), f"{quests_file} [[trade]]", trade_card, {"vp", "cost"})
    maps_file = cset.where("treasure_maps.toml")
    m = _load_toml(cset, "treasure_maps.toml")
    index = {n: i for i, n in enumerate(names)}

    def treasure_card(e, w):
        tile = e.get("tile")
        if tile not in index:
            raise InputError(f"{w}: tile {tile!r} is not a tile of {board}")
        if types[index[tile]] >= S.FIRST_PORT:
            raise InputError(f"{w}: tile {tile} is a port; treasure maps name water tiles (A6)")
        return _int(e, "vp", 0, 50, w), index[tile]

    treasure = _counted(m.get("treasure", []), f"{maps_file} [[treasure]]", treasure_card, {"vp", "tile"})
    for kind, cards, where in (("plunder", plunder, quests_file), ("trade", trade, quests_file),
                               ("treasure", treasure, maps_file)):
        if not 1 <= len(cards) <= S.T_WIDTH:
            raise InputError(f"{where}: the {kind} deck needs 1..{S.T_WIDTH} cards, has {len(cards)}")
    for key in sorted(set(q) - {"plunder", "trade", "trade_cards_per_good"}):
        raise InputError(f"{quests_file}: unknown key {key!r}; expected plunder, trade, trade_cards_per_good")
    for key in sorted(set(m) - {"treasure"}):
        raise InputError(f"{maps_file}: unknown key {key!r}; expected treasure")
    goods = _int(q, "trade_cards_per_good", 0, 1000, quests_file)
    return Components(names, types, neighbours, tuple(decks), tuple(plunder), tuple(trade), tuple(treasure), goods,
                      cset.raw(FILES))


def tile_id(name: str, comp: Components | None = None) -> int:
    return (comp or load()).names.index(name.upper())


def compile_arrays(comp: Components, values: dict, players: int) -> tuple:
    """The engine's component tuple: one int64 table K laid out as state.py describes."""
    n = len(comp.names)
    K = np.zeros((S.K_ROWS, S.KW), dtype=np.int64)
    K[S.META, S.N_TILES] = n
    supply = [t for t in range(n) if comp.types[t] == S.SUPPLY_PORT]
    K[S.META, S.N_SUPPLY_TILES] = len(supply)
    K[S.SUPPLY_TILES, : len(supply)] = supply
    K[S.META, S.N_DW], K[S.META, S.N_TR] = len(comp.ships[0]), len(comp.ships[1])
    K[S.META, S.GOODS_N] = comp.goods_per_kind
    for d in range(2):
        K[S.SHIPS0 + d, : len(comp.ships[d])] = comp.ships[d]
        for health in comp.ships[d]:
            K[S.HEALTHS0 + d, health] += 1
    K[S.TILE_TYPE, :n] = comp.types
    K[S.NBR0: S.NBR0 + 4, :] = -1
    for t, near in enumerate(comp.neighbours):
        K[S.N_NBR, t] = len(near)
        for k, u in enumerate(near):
            K[S.NBR0 + k, t] = u
    for kind, cards in enumerate((comp.plunder, comp.trade, comp.treasure)):
        K[S.META, S.NQ0 + kind] = len(cards)
        for i, card in enumerate(cards):
            K[S.QVP0 + kind, i] = card[0]
    for i, (_, ships) in enumerate(comp.plunder):
        K[S.QCOST0, i] = ships
    for i, (_, cost) in enumerate(comp.trade):
        for g in range(S.N_GOODS):
            K[S.QCOST0 + g, S.TRADE_COL0 + i] = cost[g]
    for i, (_, tile) in enumerate(comp.treasure):
        K[S.QTILE, i] = tile
    dist = distances(comp.neighbours)
    K[S.DIST0: S.DIST0 + n, :n] = dist
    for ty in range(S.N_TYPES):
        of_type = [t for t in range(n) if comp.types[t] == ty]
        for t in range(n):
            K[S.NEAREST0 + ty, t] = min((dist[t, u] for u in of_type), default=S.MAX_DIST - 1)
    per_piece = values["upgrade_port_visits"] == "per_piece"
    for piece in range(S.PIECES):
        for t in range(n):
            ty = comp.types[t]
            K[S.GROUP0 + piece, t] = (200 + piece if ty == S.UPGRADE_PORT and per_piece
                                      else ty if ty >= S.FIRST_PORT else 100 + t)
    return (K,)

