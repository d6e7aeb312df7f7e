"""Load, validate and compile the Sea of Thieves component files into the static table K.

components/ holds the base set ("standard"); components/alt-<name>/ holds alternative sets
with only the files that differ; a designer's folder is read the same way (component
sets: simkit.core.components). Every file is checked against a
declared schema (types, bounds, counts, cross-references) before any game is played; an error
names the file, the entry and the rule it breaks, as one `error:` line (InputError).

Files: hub.txt, tiles.txt (ASCII hex maps), board.toml (first-game and two-player layouts),
bags.toml, ships.toml, track.toml, voyages.csv, special_crew.csv, fortune.csv; part 2:
enemies.toml (reference cards and the fort track), behaviour.toml (behaviour charts),
events.csv (the event cards), captains.csv (the skeleton captains).
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.core.components import ComponentSet, shipped
from simkit.core.errors import InputError
from simkit.games.sea_of_thieves import state as S

FOLDER = Path(__file__).parent / "components"
FILES = ("hub.txt", "tiles.txt", "board.toml", "bags.toml", "ships.toml", "track.toml", "voyages.csv",
         "special_crew.csv", "fortune.csv", "enemies.toml", "behaviour.toml", "events.csv", "captains.csv")
SETS = shipped(FOLDER)
ROW_LENGTHS = (3, 4, 5, 4, 3)  # a hexagon of radius 2, row by row
SYMBOLS = "abcdefghijkl"
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # axial; straight lines follow one


# ------------------------------------------------------------------ the component set
def open_set(value: str = "standard") -> ComponentSet:
    """The chosen set (simkit.core.components): a shipped name or a designer's folder, overlaid on the base."""
    return ComponentSet.open(FOLDER, value)


def fail(label: str, entry: str, message: str, rule: str) -> InputError:
    return InputError(f"{label}: {entry}: {message} (rule: {rule})")


# ------------------------------------------------------------------ schemas
@dataclass(frozen=True)
class Field:
    """One column of a CSV component file or key of a TOML table: type, bounds or choices, rule."""

    name: str
    kind: str  # "int", "str", "choice"
    low: int = 0
    high: int = 0
    choices: tuple = ()
    rule: str = ""
    optional: bool = False

    def check(self, value, label: str, entry: str):
        if value in (None, "") and self.optional:
            return "" if self.kind != "int" else 0
        if self.kind == "int":
            try:
                if isinstance(value, bool) or (isinstance(value, float) and int(value) != value):
                    raise ValueError  # caught below: one message for every bad integer
                v = int(value)
            except (TypeError, ValueError):
                raise fail(label, entry, f"{self.name} must be an integer, got {value!r}", self.rule) from None
            if not self.low <= v <= self.high:
                raise fail(label, entry, f"{self.name} = {v} is out of range {self.low}..{self.high}", self.rule)
            return v
        if self.kind == "choice":
            if value not in self.choices:
                raise fail(label, entry, f"{self.name} = {value!r} is not one of {', '.join(self.choices)}", self.rule)
            return value
        if not isinstance(value, str) or not value:
            raise fail(label, entry, f"{self.name} must be a non-empty text", self.rule)
        return value


VOYAGE_SCHEMA = (
    Field("tier", "choice", choices=S.TIER_NAMES, rule="Voyages: three levels"),
    Field("company", "choice", choices=S.COMPANIES, rule="Voyages: the three trading companies"),
    Field("task", "choice", choices=S.TASKS, rule="A8: the voyage task vocabulary"),
    Field("symbol", "choice", choices=tuple(SYMBOLS), rule="Basics: Voyage Symbols", optional=True),
    Field("symbol2", "choice", choices=tuple(SYMBOLS), rule="Basics: Voyage Symbols", optional=True),
    Field("target", "int", 1, 12, rule="Completing a Voyage: progress tokens"),
    Field("price", "int", 0, 5000, rule="Trade: Seek New Voyages (gold value)"),
    Field("reward", "choice", choices=S.REWARDS, rule="Completing a Voyage: reputation, gold or treasure"),
    Field("amount", "int", 1, 2000, rule="Completing a Voyage"),
    Field("penalty", "int", 0, 10, rule="Abandoning a Voyage"),
)
CREW_SCHEMA = (
    Field("name", "str", rule="Special Crew"),
    Field("company", "choice", choices=S.COMPANIES, rule="Special Crew: the trading companies"),
    Field("effect", "choice", choices=S.CREW_EFFECTS, rule="A9: the special crew effect vocabulary"),
    Field("amount", "int", 0, 5, rule="A9"),
    Field("cost", "int", 0, 5000, rule="Trade: Hire Special Crew (gold value)"),
    Field("reputation", "int", 0, 10, rule="Fleet and Followers"),
)
FORTUNE_SCHEMA = (
    Field("name", "str", rule="Fortune Cards"),
    Field("effect", "choice", choices=S.FORTUNE_EFFECTS, rule="A11: the fortune effect vocabulary"),
    Field("amount", "int", 0, 1000, rule="A11"),
    Field("copies", "int", 1, 52, rule="Components: 52 fortune cards"),
)
TOKEN_SCHEMA = (
    Field("kind", "choice", choices=S.KIND_NAMES[:-1], rule="Components: loot and treasure tokens"),
    Field("value", "int", 0, 5000, rule="Components: token values"),
    Field("count", "int", 1, 60, rule="Components: token counts"),
)
EVENT_SCHEMA = (
    Field("name", "str", rule="Event Phase: event cards"),
    Field("spawn", "choice", choices=S.SPAWNS, rule="Event Phase: Enemy Spawns (four enemies)"),
    Field("waypoint", "int", 1, 3, rule="Basics: Waypoints (three per tile)", optional=True),
    Field("kraken", "int", 1, 6, rule="Event Phase: Kraken (kraken symbols on the card)", optional=True),
    Field("fort_island", "choice", choices=tuple(SYMBOLS), rule="Event Phase: Skeleton Fort (an island hex)",
          optional=True),
    Field("high_seas", "choice", choices=S.HIGH_SEAS, rule="A46: the High Seas vocabulary"),
    Field("high_arg", "int", 0, 6, rule="A46"),
    Field("corner", "choice", choices=S.CORNERS, rule="A46: the Cutthroats' Corner vocabulary"),
    Field("corner_arg", "int", 0, 1000, rule="A46"),
)
CAPTAIN_SCHEMA = (
    Field("name", "str", rule="Skeleton Captains: eight unique tokens"),
    Field("reputation", "int", 0, 10, rule="Skeleton Captains: reputation on the treasure face (A45)"),
    Field("gold", "int", 0, 5000, rule="Skeleton Captains: gold on the treasure face (A45)"),
)
ENEMY_FIELDS = {
    "skeleton_sloop": ("order", "slots", "attack", "reputation"),
    "skeleton_galleon": ("order", "slots", "attack", "reputation"),
    "megalodon": ("order", "damage_by_players", "attack", "reputation"),
    "kraken": ("order", "tentacles", "wound", "wounds", "attack", "reputation"),
    "skeleton_fort": ("order", "track_by_players", "wave", "treasure", "reputation"),
}
SHIP_SCHEMA = (
    Field("crew", "int", 1, S.MAX_SLOTS, rule="Ships: crew slots 2 / 3 / 4"),
    Field("gauge", "int", 1, 20, rule="Ships: water gauge (A5)"),
    Field("reputation", "int", 0, 20, rule="Fleet and Followers (A6)"),
)


def _check_row(schema, row: dict, label: str, entry: str) -> dict:
    unknown = set(row) - {f.name for f in schema}
    if unknown:
        raise fail(label, entry, f"unknown column(s) {', '.join(sorted(unknown))}", "the file's schema")
    return {f.name: f.check(row.get(f.name), label, entry) for f in schema}


def _csv(files: ComponentSet, name: str, schema) -> list[dict]:
    label = files.where(name)
    header, lines = files.read_csv(name)  # every row as wide as the header (simkit.core.components)
    if header != [f.name for f in schema]:
        raise fail(label, "header", f"columns must be {','.join(f.name for f in schema)}", "the file's schema")
    return [_check_row(schema, dict(zip(header, fields)), label, f"entry {i}")
            for i, (_, fields) in enumerate(lines, start=1)]


def _toml(files: ComponentSet, name: str) -> tuple[dict, str]:
    label = files.where(name)
    return files.read_toml(name), label


def _faces(files: ComponentSet, name: str) -> dict[str, list[str]]:
    """Sections `[name]` of a hex map file: name -> the 19 hex tokens row by row."""
    label = files.where(name)
    faces: dict[str, list[list[str]]] = {}
    current = None
    for n, line in enumerate(files.read_text(name).splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text.startswith("["):
            current = text.strip("[]").strip()
            if current in faces:
                raise fail(label, f"line {n}", f"face [{current}] appears twice", "one map per face")
            faces[current] = []
            continue
        if current is None:
            raise fail(label, f"line {n}", "a map row before any [face] heading", "one map per face")
        faces[current].append(text.split())
        row = len(faces[current]) - 1
        if row >= len(ROW_LENGTHS) or len(faces[current][row]) != ROW_LENGTHS[row]:
            want = ROW_LENGTHS[row] if row < len(ROW_LENGTHS) else 0
            raise fail(label, f"line {n} (face [{current}])", f"row {row + 1} has {len(faces[current][row])} hexes, "
                       f"expected {want}", "a tile is a hexagon of rows 3, 4, 5, 4, 3")
    out = {}
    for face, rows in faces.items():
        if len(rows) != len(ROW_LENGTHS):
            raise fail(label, f"face [{face}]", f"has {len(rows)} rows, expected 5", "a tile is a hexagon of radius 2")
        out[face] = [t for r in rows for t in r]
    return out


@dataclass(frozen=True)
class Hex:
    kind: int
    symbol: int = -1
    waypoint: int = 0
    skeleton: int = 0
    treasure: int = 0


def _hex(token: str, label: str, entry: str, sea_tile: bool) -> Hex:
    kind = S.HEX_CHARS.get(token[0])
    if kind is None:
        raise fail(label, entry, f"hex {token!r} starts with an unknown type (. I T O)", "Basics: Hexes, four types")
    h = {"kind": kind}
    for ch in token[1:]:
        if ch in "123":
            if kind != S.SEA:
                raise fail(label, entry, f"waypoint {ch} on a {token[0]!r} hex", "A4: waypoints lie on open sea")
            h["waypoint"] = int(ch)
        elif ch in SYMBOLS:
            if kind != S.ISLAND:
                raise fail(label, entry, f"voyage symbol {ch} off an island", "Basics: Voyage Symbols mark islands")
            h["symbol"] = SYMBOLS.index(ch)
        elif ch == "S":
            if kind != S.ISLAND:
                raise fail(label, entry, f"skeleton symbol off an island in {token!r}", "Skeletons start on islands")
            h["skeleton"] = 1
        elif ch == "$":
            if kind == S.OUTPOST:
                raise fail(label, entry, "treasure symbol on the Outpost", "A4")
            h["treasure"] = 1
        else:
            raise fail(label, entry, f"unknown marker {ch!r} in {token!r} (1 2 3 a-l S $)", "the hex grammar of the file")
    if kind == S.OUTPOST and sea_tile:
        raise fail(label, entry, "an Outpost on a sea tile", "Basics: the Outpost is the hub's middle hex")
    return Hex(**h)


# ------------------------------------------------------------------ loading
@dataclass(frozen=True)
class Components:
    faces: tuple  # 14 faces of 19 Hex: tile t side A = 2t, side B = 2t + 1, then hub standard, hub two-player
    first_layout: tuple  # face at positions 1..6
    two_player_positions: tuple
    tokens: tuple  # (bag, kind, value) per token, loot bag then treasure bag
    skeletons: int
    ships: tuple  # (crew, gauge, reputation) for Sloop, Brigantine, Galleon
    track_length: int
    track_symbols: tuple
    voyages: tuple  # dicts, in tier order
    crew: tuple  # dicts
    fortune: tuple  # (effect, amount) per card
    enemies: dict  # enemies.toml, checked
    charts: dict  # behaviour.toml: chart name -> tuple of (op, arg, yes, no)
    events: tuple  # dicts
    captains: tuple  # (name, reputation, gold)
    raw: bytes


@functools.cache
def load(set_name: str = "standard") -> Components:
    files = open_set(set_name)
    # hub and tiles
    label = files.where("hub.txt")
    hub = _faces(files, "hub.txt")
    if set(hub) != {"standard", "two_player"}:
        raise fail(label, "faces", f"has [{'], ['.join(hub)}]; expected [standard] and [two_player]",
                   "Two-Player Games: the hub is double-sided")
    hub_faces = []
    for face in ("standard", "two_player"):
        hexes = [_hex(t, label, f"face [{face}] hex {i + 1}", False) for i, t in enumerate(hub[face])]
        if hexes[9].kind != S.OUTPOST or sum(h.kind == S.OUTPOST for h in hexes) != 1:
            raise fail(label, f"face [{face}]", "the Outpost must be the middle hex, and only there",
                       "Basics: Hexes (the Outpost hex is in the middle of the hub)")
        if sum(h.kind == S.ISLAND for h in hexes) != 4:
            raise fail(label, f"face [{face}]", "needs exactly four islands", "Final Setup: four hub islands")
        if any(h.waypoint or h.symbol >= 0 for h in hexes):
            raise fail(label, f"face [{face}]", "waypoints and voyage symbols belong on sea tiles", "Basics: Waypoints")
        hub_faces.append(tuple(hexes))
    label = files.where("tiles.txt")
    tiles = _faces(files, "tiles.txt")
    want = [f"{t} {side}" for t in range(1, 7) for side in "AB"]
    if sorted(tiles) != sorted(want):
        raise fail(label, "faces", f"must be exactly {', '.join('[' + w + ']' for w in want)}",
                   "Components: six double-sided sea tiles")
    sea_faces = []
    for t in range(1, 7):
        symbols_of_side = []
        for side in "AB":
            face = f"{t} {side}"
            hexes = [_hex(tok, label, f"face [{face}] hex {i + 1}", True) for i, tok in enumerate(tiles[face])]
            ways = sorted(h.waypoint for h in hexes if h.waypoint)
            if ways != [1, 2, 3]:
                raise fail(label, f"face [{face}]", f"waypoints {ways}; each of 1, 2, 3 exactly once",
                           "Basics: Waypoints (three per sea tile)")
            syms = sorted(h.symbol for h in hexes if h.symbol >= 0)
            if not syms or len(set(syms)) != len(syms):
                raise fail(label, f"face [{face}]", "needs at least one voyage symbol, each at most once",
                           "Basics: Voyage Symbols")
            symbols_of_side.append(syms)
            sea_faces.append(tuple(hexes))
        if symbols_of_side[0] != symbols_of_side[1]:
            raise fail(label, f"tile {t}", "both sides must carry the same voyage symbols",
                       "A3: a tile's voyage symbols are the same on both sides")
    all_syms = [s for f in sea_faces[::2] for h in f for s in [h.symbol] if s >= 0]
    if len(set(all_syms)) != len(all_syms):
        raise fail(label, "voyage symbols", "a symbol appears on two tiles", "A3: each symbol names one island")
    faces = tuple(sea_faces) + tuple(hub_faces)
    # board.toml
    board, label = _toml(files, "board.toml")
    first = board.get("first_game")
    if not isinstance(first, list) or len(first) != 6:
        raise fail(label, "first_game", "must list six [tile, side] pairs", "Setting Up: the first-game layout")
    first_layout = []
    for i, pair in enumerate(first):
        if (not isinstance(pair, list) or len(pair) != 2 or pair[0] not in range(1, 7) or pair[1] not in ("A", "B")):
            raise fail(label, f"first_game entry {i + 1}", f"{pair!r} is not [tile 1-6, \"A\"|\"B\"]", "Setting Up")
        first_layout.append(2 * (pair[0] - 1) + (0 if pair[1] == "A" else 1))
    if len({f // 2 for f in first_layout}) != 6:
        raise fail(label, "first_game", "uses a tile twice", "Setting Up: each tile once")
    two = board.get("two_player_positions")
    if not isinstance(two, list) or len(two) != 4 or len(set(two)) != 4 or not all(p in range(1, 7) for p in two):
        raise fail(label, "two_player_positions", "must be four different hub positions 1-6",
                   "Two-Player Games: four sea tiles")
    # bags
    bags, label = _toml(files, "bags.toml")
    tokens = []
    for bag_index, bag in enumerate(("loot", "treasure")):
        entries = bags.get(bag)
        if not isinstance(entries, list) or not entries:
            raise fail(label, bag, "must be a list of {kind, value, count}", "Components")
        for i, e in enumerate(entries):
            if not isinstance(e, dict):
                raise fail(label, f"{bag} entry {i + 1}", "must be a table", "Components")
            e = _check_row(TOKEN_SCHEMA, e, label, f"{bag} entry {i + 1}")
            if bag == "treasure" and e["kind"] == "resource":
                raise fail(label, f"{bag} entry {i + 1}", "resources belong in the loot bag", "Components: Loot Tokens")
            tokens += [(bag_index, S.KIND_NAMES.index(e["kind"]), e["value"])] * e["count"]
    skeletons = Field("skeletons", "int", 0, 40, rule="Components: skeleton tokens").check(
        bags.get("skeletons"), label, "skeletons")
    if len(tokens) + skeletons > S.MAX_TOKENS:
        raise fail(label, "counts", f"{len(tokens) + skeletons} tokens; the engine holds {S.MAX_TOKENS}", "engine limit")
    # ships
    ships_t, label = _toml(files, "ships.toml")
    ships = []
    for name in ("sloop", "brigantine", "galleon"):
        if not isinstance(ships_t.get(name), dict):
            raise fail(label, name, "missing table", "Ships: Sloop, Brigantine, Galleon")
        e = _check_row(SHIP_SCHEMA, ships_t[name], label, f"[{name}]")
        ships.append((e["crew"], e["gauge"], e["reputation"]))
    if [s[0] for s in ships] != sorted({s[0] for s in ships}):
        raise fail(label, "crew", "each upgrade adds a crew slot", "Upgrading a Ship: one more crew token")
    # track
    track, label = _toml(files, "track.toml")
    length = Field("length", "int", 10, 100, rule="Reputation: the track").check(track.get("length"), label, "length")
    syms = track.get("fortune_symbols")
    if not isinstance(syms, list) or len(syms) > 40 or any(not isinstance(x, int) or not 0 < x <= length for x in syms):
        raise fail(label, "fortune_symbols", f"must be a list of spaces 1..{length}", "Fortune Phase (A10)")
    # decks
    voyages = _csv(files, "voyages.csv", VOYAGE_SCHEMA)
    label = files.where("voyages.csv")
    for tier in S.TIER_NAMES:
        n = sum(v["tier"] == tier for v in voyages)
        if n != 18:
            raise fail(label, f"tier {tier}", f"has {n} cards", "Components: 18 cards per voyage deck")
    present = {SYMBOLS[s] for s in all_syms}
    for i, v in enumerate(voyages, start=1):
        needs = {"reach": ("symbol",), "dig": ("symbol",), "deliver": ("symbol", "symbol2")}.get(v["task"], ())
        for key in ("symbol", "symbol2"):
            if key in needs and not v[key]:
                raise fail(label, f"entry {i}", f"a {v['task']} voyage needs {key}", "A8: the task vocabulary")
            if key not in needs and v[key]:
                raise fail(label, f"entry {i}", f"a {v['task']} voyage takes no {key}", "A8: the task vocabulary")
            if v[key] and v[key] not in present:
                raise fail(label, f"entry {i}", f"{key} {v[key]} is on no sea tile", "Basics: Voyage Symbols")
        if v["task"] == "deliver" and v["symbol"] == v["symbol2"]:
            raise fail(label, f"entry {i}", "a delivery goes between two islands", "A8")
    voyages.sort(key=lambda v: S.TIER_NAMES.index(v["tier"]))
    crew = _csv(files, "special_crew.csv", CREW_SCHEMA)
    if len(crew) != 18:
        raise fail(files.where("special_crew.csv"), "entries", f"{len(crew)} cards", "Components: 18 special crew cards")
    fortune_rows = _csv(files, "fortune.csv", FORTUNE_SCHEMA)
    fortune = [(S.FORTUNE_EFFECTS.index(r["effect"]), r["amount"]) for r in fortune_rows for _ in range(r["copies"])]
    if len(fortune) != 52:
        raise fail(files.where("fortune.csv"), "copies", f"sum to {len(fortune)}", "Components: 52 fortune cards")
    enemies = _enemies(files)
    charts = _charts(files)
    events = _csv(files, "events.csv", EVENT_SCHEMA)
    label = files.where("events.csv")
    if len(events) != 20:
        raise fail(label, "entries", f"{len(events)} cards", "Components: 20 event cards")
    for i, e in enumerate(events, start=1):
        need = {"megalodon": "waypoint", "skeleton_ship": "waypoint", "kraken": "kraken",
                "skeleton_fort": "fort_island"}[e["spawn"]]
        for key in ("waypoint", "kraken", "fort_island"):
            if key == need and not e[key]:
                raise fail(label, f"entry {i}", f"a {e['spawn']} spawn needs {key}", "Event Phase: Enemy Spawns")
            if key != need and e[key]:
                raise fail(label, f"entry {i}", f"a {e['spawn']} spawn takes no {key}", "Event Phase: Enemy Spawns")
        if e["fort_island"] and e["fort_island"] not in present:
            raise fail(label, f"entry {i}", f"fort_island {e['fort_island']} is on no sea tile", "Basics: Voyage Symbols")
        if e["high_seas"] in ("flotsam", "shipwreck") and not 1 <= e["high_arg"] <= 3:
            raise fail(label, f"entry {i}", f"{e['high_seas']} needs a waypoint 1-3 in high_arg", "Basics: Waypoints")
    caps = _csv(files, "captains.csv", CAPTAIN_SCHEMA)
    if len(caps) != 8 or len({c["name"] for c in caps}) != 8:
        raise fail(files.where("captains.csv"), "entries", f"{len(caps)} captains", "Components: 8 unique skeleton captains")
    if len(tokens) + skeletons + len(caps) > S.MAX_TOKENS:
        raise fail(label, "counts", "too many tokens with the captains", "engine limit")
    return Components(faces, tuple(first_layout), tuple(two), tuple(tokens), skeletons, tuple(ships), length,
                      tuple(sorted(syms)), tuple(voyages), tuple(crew), tuple(fortune), enemies, charts,
                      tuple(events), tuple((c["name"], c["reputation"], c["gold"]) for c in caps), files.raw(FILES))


def _enemies(files: ComponentSet) -> dict:
    """enemies.toml: one table per enemy card with exactly its fields."""
    data, label = _toml(files, "enemies.toml")
    if set(data) != set(ENEMY_FIELDS):
        raise fail(label, "tables", f"has [{'], ['.join(sorted(data))}]; expected {', '.join(sorted(ENEMY_FIELDS))}",
                   "Components: the enemy cards")
    out = {}
    orders = []
    for name, fields in ENEMY_FIELDS.items():
        e = data[name]
        if not isinstance(e, dict) or set(e) != set(fields):
            raise fail(label, f"[{name}]", f"needs exactly {', '.join(fields)}", "Components: the enemy cards")
        row = {}
        for f in fields:
            if f.endswith("_by_players"):
                v = e[f]
                if not isinstance(v, list) or len(v) != 3:
                    raise fail(label, f"[{name}] {f}", "must list three values, for 2, 3 and 4 players",
                               "Event Phase: by the number of players")
                row[f] = [Field(f, "int", 1, 30, rule="Event Phase: by the number of players").check(x, label, f"[{name}] {f}")
                          for x in v]
            else:
                low = 0 if f in ("reputation", "treasure") else 1
                high = 5 if f == "slots" else 30
                row[f] = Field(f, "int", low, high, rule="Damaging Enemies: the enemy cards").check(e[f], label, f"[{name}]")
        out[name] = row
        orders.append(row["order"])
    if len(set(orders)) != len(orders):
        raise fail(label, "order", "two reference cards share a number", "Ocean Hazards Phase: enemies act in card order")
    if out["kraken"]["tentacles"] > 6:
        raise fail(label, "[kraken] tentacles", "more than the six tentacle tokens", "Components: 6 tentacle tokens")
    if out["skeleton_fort"]["track_by_players"] != [2, 3, 4]:
        raise fail(label, "[skeleton_fort] track_by_players", "must be [2, 3, 4]",
                   "Event Phase: Skeleton Fort (the slot matching the number of players)")
    if out["skeleton_fort"]["wave"] != 2:
        raise fail(label, "[skeleton_fort] wave", "must be 2", "Event Phase: Skeleton Fort (two skeleton tokens)")
    if out["kraken"]["wound"] != 3:
        raise fail(label, "[kraken] wound", "must be 3", "Damaging Enemies: the Kraken card at three tokens")
    return out


CHART_NAMES = ("skeleton_ship", "megalodon", "kraken")


def _walk(compiled: list, i: int, seen: frozenset, label: str, name: str):
    """Every path from node i reaches `end` without passing a node twice."""
    if i in seen:
        raise fail(label, name, f"a loop through node {i}", "Ocean Hazards Phase: the turn ends")
    op, _a, yes, no = compiled[i]
    if op == S.D_END:
        return
    for t in {yes, no}:
        _walk(compiled, t, seen | {i}, label, name)


def _charts(files: ComponentSet) -> dict:
    """behaviour.toml: each chart a list of nodes; every arrow points at a node of the chart, and
    every path from the first node reaches `end` (no loops)."""
    data, label = _toml(files, "behaviour.toml")
    if set(data) != set(CHART_NAMES):
        raise fail(label, "charts", f"has {', '.join(sorted(data))}; expected {', '.join(CHART_NAMES)}",
                   "Ocean Hazards Phase: one behaviour card per enemy kind (skeleton ships share one)")
    out = {}
    for name in CHART_NAMES:
        nodes = data[name]
        if not isinstance(nodes, list) or not nodes or len(nodes) > 16:
            raise fail(label, name, "must be a list of 1-16 nodes", "Ocean Hazards Phase: behaviour cards")
        compiled = []
        for i, n in enumerate(nodes):
            entry = f"{name} node {i}"
            if not isinstance(n, dict) or ("ask" in n) == ("do" in n):
                raise fail(label, entry, "needs either ask or do", "behaviour.toml's node grammar")
            op = n.get("ask", n.get("do"))
            if op not in S.CHART_OPS or (("ask" in n) != (S.CHART_OPS.index(op) <= S.Q_DAMAGED)):
                raise fail(label, entry, f"{op!r} is not a known {'question' if 'ask' in n else 'deed'}",
                           "behaviour.toml's node grammar")
            code = S.CHART_OPS.index(op)
            keys = {"ask", "arg", "yes", "no"} if "ask" in n else {"do", "arg", "next"}
            if set(n) - keys:
                raise fail(label, entry, f"unknown key(s) {', '.join(sorted(set(n) - keys))}", "behaviour.toml's node grammar")
            arg = n.get("arg", 0)
            if code in (S.Q_SHIP_WITHIN, S.Q_DAMAGED, S.D_MOVE_TOWARD, S.D_GRAB) and (
                    not isinstance(arg, int) or not 1 <= arg <= 12):
                raise fail(label, entry, f"{op} needs arg 1-12", "behaviour.toml's node grammar")
            if "ask" in n:
                yes, no = n.get("yes"), n.get("no")
            else:
                yes = no = n.get("next", -1) if code != S.D_END else -1
                if code != S.D_END and "next" not in n:
                    raise fail(label, entry, "needs next", "behaviour.toml's node grammar")
            for target in (yes, no):
                if code != S.D_END and (not isinstance(target, int) or not 0 <= target < len(nodes) or target == i):
                    raise fail(label, entry, f"arrow to {target!r} leads to no other node of the chart",
                               "Ocean Hazards Phase: follow the arrows")
            compiled.append((code, arg, yes, no))
        # every path ends: depth-first with the path on a stack
        _walk(compiled, 0, frozenset(), label, name)
        if name == "skeleton_ship":
            # the rulebook's example: not in a ship's hex but within three hexes: move in, attack, end
            first = compiled[0]
            ok = first[0] == S.Q_SHIP_HERE
            if ok:
                q = compiled[first[3]]
                ok = q[0] == S.Q_SHIP_WITHIN and q[1] == 3 and compiled[q[2]][0] == S.D_MOVE_IN
                if ok:
                    att = compiled[compiled[q[2]][2]]
                    ok = att[0] == S.D_ATTACK and compiled[att[2]][0] == S.D_END
            if not ok:
                raise fail(label, name, "must follow the rulebook's example (no ship here, one within three hexes: "
                           "move in, attack, end)", "Ocean Hazards Phase: the skeleton ship example")
        out[name] = tuple(compiled)
    return out


# ------------------------------------------------------------------ geometry
def local_axial() -> list[tuple[int, int]]:
    """Axial (q, r) of the 19 hexes of a radius-2 hexagon, in the files' row order."""
    out = []
    for r in range(-2, 3):
        for q in range(max(-2, -2 - r), min(2, 2 - r) + 1):
            out.append((q, r))
    return out


def position_centres() -> list[tuple[int, int]]:
    """Centre of the hub (position 0) and of the sea tile positions 1..6 around it: radius-2
    hexagons tile the plane with centres 5 hexes apart, at (3, 2) turned by 60 degrees."""
    centres = [(0, 0)]
    q, r = 3, 2
    for _ in range(6):
        centres.append((q, r))
        q, r = -r, q + r
    return centres


def geometry(used_positions: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, dict]:
    """(next[6, MAX_HEX], dist[MAX_HEX, MAX_HEX], hex id by axial) of a board holding the hub and
    the sea tiles at `used_positions`. Hexes of unused positions have no neighbours."""
    local = local_axial()
    centres = position_centres()
    where = {}
    for p in (0,) + tuple(used_positions):
        cq, cr = centres[p]
        for i, (q, r) in enumerate(local):
            where[(cq + q, cr + r)] = p * S.TILE_HEXES + i
    assert len(where) == S.TILE_HEXES * (1 + len(used_positions))  # the hexagons do not overlap
    nxt = np.full((6, S.MAX_HEX), -1, dtype=np.int64)
    for (q, r), h in where.items():
        for d, (dq, dr) in enumerate(DIRECTIONS):
            nxt[d, h] = where.get((q + dq, r + dr), -1)
    far = 10 ** 6
    dist = np.full((S.MAX_HEX, S.MAX_HEX), far, dtype=np.int64)
    for start in where.values():
        dist[start, start] = 0
        queue = deque([start])
        while queue:
            a = queue.popleft()
            for d in range(6):
                b = nxt[d, a]
                if b >= 0 and dist[start, b] > dist[start, a] + 1:
                    dist[start, b] = dist[start, a] + 1
                    queue.append(b)
    return nxt, dist, where


def compile_arrays(comp: Components, two_player: bool) -> np.ndarray:
    """K: every static table the engine reads (layout in state.py)."""
    K = np.zeros((S.K_ROWS, S.KW), dtype=np.int64)
    m = K[S.META]
    m[S.N_TOKENS] = len(comp.tokens) + comp.skeletons
    m[S.N_LOOT] = sum(1 for t in comp.tokens if t[0] == S.LOOT_BAG)
    m[S.N_TREASURE] = sum(1 for t in comp.tokens if t[0] == S.TREASURE_BAG)
    m[S.N_SKELETONS] = comp.skeletons
    m[S.N_VOYAGE_CARDS] = len(comp.voyages)
    m[S.N_FORTUNE_CARDS] = len(comp.fortune)
    m[S.N_CREW_CARDS] = len(comp.crew)
    m[S.TRACK_LENGTH] = comp.track_length
    m[S.N_SYMBOL_SPACES] = len(comp.track_symbols)
    for t, (crew, gauge, rep) in enumerate(comp.ships):
        m[S.CREW_SLOTS0 + t] = crew
        m[S.GAUGE0 + t] = gauge
        m[S.SHIP_REP0 + t] = rep
    m[S.FIRST_LAYOUT0] = S.HUB_TWO_PLAYER if two_player else S.HUB_STANDARD
    used = tuple(comp.two_player_positions) if two_player else (1, 2, 3, 4, 5, 6)
    for p in range(1, 7):
        m[S.FIRST_LAYOUT0 + p] = comp.first_layout[p - 1] if p in used else -1
        m[S.POSITION_USED0 + p] = 1 if p in used else 0
    m[S.POSITION_USED0] = 1
    tokens = list(comp.tokens) + [(S.LOOT_BAG, S.SKELETON, 0)] * comp.skeletons
    m[S.FIRST_CAPTAIN] = len(tokens)
    m[S.FIRST_SKELETON] = next((i for i, (_bag, kind, _v) in enumerate(tokens) if kind == S.SKELETON), len(tokens))
    m[S.N_CAPTAINS] = len(comp.captains)
    tokens += [(S.CAPTAIN_POOL, S.CAPTAIN, gold) for _name, _rep, gold in comp.captains]
    m[S.N_TOKENS] = len(tokens)
    for i, (bag, kind, value) in enumerate(tokens):
        K[S.TOK_BAG, i] = bag
        K[S.TOK_KIND, i] = kind
        K[S.TOK_VALUE, i] = value
    for i, (_name, rep, _gold) in enumerate(comp.captains):
        K[S.TOK_REP, m[S.FIRST_CAPTAIN] + i] = rep
    en = comp.enemies
    node = 0
    starts = {}
    for name in CHART_NAMES:
        starts[name] = node
        for j, (op, arg, yes, no) in enumerate(comp.charts[name]):
            K[S.CH_OP, node + j] = op
            K[S.CH_ARG, node + j] = arg
            K[S.CH_YES, node + j] = node + yes if yes >= 0 else -1
            K[S.CH_NO, node + j] = node + no if no >= 0 else -1
        node += len(comp.charts[name])
    for e, key in enumerate(S.ENEMY_KEYS):
        row = en[key]
        K[S.EN_ORDER, e] = row["order"]
        K[S.EN_REP, e] = row["reputation"]
        K[S.EN_ATTACK, e] = row.get("attack", 0)
        K[S.EN_SLOTS, e] = row.get("slots", 0)
        K[S.EN_DAMAGE, e] = row.get("slots", 0)  # a skeleton ship sinks when its damage slots are full
        chart = {"megalodon": "megalodon", "kraken": "kraken", "skeleton_sloop": "skeleton_ship",
                 "skeleton_galleon": "skeleton_ship"}.get(key)
        K[S.EN_CHART, e] = starts[chart] if chart else -1
    for players in (2, 3, 4):
        K[S.MEG_DAMAGE, players] = en["megalodon"]["damage_by_players"][players - 2]
        K[S.FORT_TRACK, players] = en["skeleton_fort"]["track_by_players"][players - 2]
    m[S.KRAKEN_TENTACLES] = en["kraken"]["tentacles"]
    m[S.KRAKEN_WOUND] = en["kraken"]["wound"]
    m[S.KRAKEN_WOUNDS] = en["kraken"]["wounds"]
    m[S.FORT_WAVE] = en["skeleton_fort"]["wave"]
    m[S.FORT_TREASURE] = en["skeleton_fort"]["treasure"]
    m[S.N_EVENTS] = len(comp.events)
    for i, e in enumerate(comp.events):
        sp = S.SPAWNS.index(e["spawn"])
        K[S.EVT_SPAWN, i] = sp
        K[S.EVT_SPAWN_ARG, i] = (e["waypoint"] if sp in (S.SP_MEGALODON, S.SP_SKELETON_SHIP) else
                                 e["kraken"] if sp == S.SP_KRAKEN else SYMBOLS.index(e["fort_island"]))
        K[S.EVT_HIGH, i] = S.HIGH_SEAS.index(e["high_seas"])
        K[S.EVT_HIGH_ARG, i] = e["high_arg"]
        K[S.EVT_CORNER, i] = S.CORNERS.index(e["corner"])
        K[S.EVT_CORNER_ARG, i] = e["corner_arg"]
    for i, v in enumerate(comp.voyages):
        K[S.V_TIER, i] = S.TIER_NAMES.index(v["tier"])
        K[S.V_COMPANY, i] = S.COMPANIES.index(v["company"])
        K[S.V_TASK, i] = S.TASKS.index(v["task"])
        K[S.V_SYM, i] = SYMBOLS.index(v["symbol"]) if v["symbol"] else -1
        K[S.V_SYM2, i] = SYMBOLS.index(v["symbol2"]) if v["symbol2"] else -1
        K[S.V_TARGET, i] = v["target"]
        K[S.V_PRICE, i] = v["price"]
        K[S.V_REWARD, i] = S.REWARDS.index(v["reward"])
        K[S.V_AMOUNT, i] = v["amount"]
        K[S.V_PENALTY, i] = v["penalty"]
    for i, c in enumerate(comp.crew):
        K[S.C_EFFECT, i] = S.CREW_EFFECTS.index(c["effect"])
        K[S.C_AMOUNT, i] = c["amount"]
        K[S.C_COST, i] = c["cost"]
        K[S.C_REP, i] = c["reputation"]
        K[S.C_COMPANY, i] = S.COMPANIES.index(c["company"])
    for i, (effect, amount) in enumerate(comp.fortune):
        K[S.FO_EFFECT, i] = effect
        K[S.FO_AMOUNT, i] = amount
    K[S.TRACK_SYMBOLS, : len(comp.track_symbols)] = comp.track_symbols
    for f, face in enumerate(comp.faces):
        for i, h in enumerate(face):
            c = f * S.TILE_HEXES + i
            K[S.FACE_TYPE, c] = h.kind
            K[S.FACE_SYMBOL, c] = h.symbol
            K[S.FACE_WAYPOINT, c] = h.waypoint
            K[S.FACE_SKELETON, c] = h.skeleton
            K[S.FACE_TREASURE, c] = h.treasure
    for h in range(S.MAX_HEX):
        K[S.HEX_POSITION, h] = h // S.TILE_HEXES
    nxt, dist, _ = geometry(used)
    K[S.NEXT0 : S.NEXT0 + 6, : S.MAX_HEX] = nxt
    K[S.DIST0 : S.DIST0 + S.MAX_HEX, : S.MAX_HEX] = dist
    return K
