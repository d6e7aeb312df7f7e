"""Load and validate the Sea of Troubles component files, then compile them to one int64 table K.

components/: actions.toml (action deck), treasures.toml (treasure cards), quests.toml
(quest deck), quirks.toml (quirk deck), map.txt (one fold-out panel per player). An
alternative set components/alt-<name>/ holds only the files that differ.
Every file is checked against its schema before any game is played: types, bounds,
unknown keys and cross-references (a quest's treasure kind, the cards a set-up step names,
a port reachable from every X). A mistake is one `error:` line naming the file, the entry
and the rule it serves.
"""

from __future__ import annotations

import functools
import math
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.core.components import ComponentSet
from simkit.core.errors import InputError, did_you_mean
from simkit.games.sea_of_troubles import state as S

FOLDER = Path(__file__).parent / "components"
FILES = ("actions.toml", "treasures.toml", "quests.toml", "quirks.toml", "map.txt")
ACTION_TYPES = ("swords", "sails", "cannons")  # in the engine's type order (S.SWORD, S.SAIL, S.CANNON)
PANEL_SQUARES = S.MAX_SQUARES // S.MAX_PLAYERS
MAP_CHARS = set(".#PX")


@dataclass(frozen=True)
class Components:
    cards: tuple  # (type, value) per action card
    treasures: tuple  # (name, infamy, weighted) per treasure card
    quests: tuple  # (port, treasure kind name or "any", infamy)
    quirks: tuple  # (name, effect, amount, worth)
    panel: tuple  # rows of the map panel
    raw: bytes
    where: dict  # file -> how errors name it


# --------------------------------------------------------------------------- schema checks
class _File:
    """Checks for one component file: every failure names the file, the entry and the rule."""

    def __init__(self, cset: ComponentSet, file: str):
        self.file = file
        self.where = cset.where(file)
        self.cset = cset

    def line_of(self, entry: str) -> int:
        """The line of an entry's table header ([[quest]] number n, or [swords]); 0 unknown."""
        m = re.match(r"(card|quest|quirk) (\d+)", entry)
        head, nth = (f"[[{m[1]}]]", int(m[2])) if m else (None, 1)
        m = re.match(r"(\[\w+\])", entry)
        if m:
            head = m[1]
        if head is None:
            return 0
        seen = 0
        for n, line in enumerate(self.cset.read_text(self.file).splitlines(), 1):
            if line.split("#")[0].strip() == head:
                seen += 1
                if seen == nth:
                    return n
        return 0

    def fail(self, entry: str, what: str, rule: str):
        line = self.line_of(entry)
        at = f" (line {line})" if line else ""
        raise InputError(f"{self.where}: {entry}{at}: {what} ({rule})")

    def keys(self, entry: str, table, known: tuple, rule: str):
        if not isinstance(table, dict):
            self.fail(entry, f"must be a table of {', '.join(known)}, got {table!r}", rule)
        for k in table:
            if k not in known:
                self.fail(entry, f"unknown key '{k}'{did_you_mean(k, known)}; known: {', '.join(known)}", rule)

    def int(self, entry: str, table: dict, key: str, lo: int, hi: int, rule: str, default=None) -> int:
        if key not in table:
            if default is not None:
                return default
            self.fail(entry, f"'{key}' is missing (an integer {lo}..{hi})", rule)
        v = table[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(entry, f"'{key}' must be an integer {lo}..{hi}, got {v!r}", rule)
        if not lo <= v <= hi:
            self.fail(entry, f"'{key}' = {v} is out of range {lo}..{hi}", rule)
        return v

    def float(self, entry: str, table: dict, key: str, lo: float, hi: float, rule: str, default: float) -> float:
        v = table.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            self.fail(entry, f"'{key}' must be a number {lo}..{hi}, got {v!r}", rule)
        if not lo <= v <= hi:
            self.fail(entry, f"'{key}' = {v} is out of range {lo}..{hi}", rule)
        return float(v)

    def str(self, entry: str, table: dict, key: str, rule: str, default=None) -> str:
        v = table.get(key, default)
        if not isinstance(v, str) or not v.strip():
            self.fail(entry, f"'{key}' must be a non-empty text, got {v!r}", rule)
        return v

    def bool(self, entry: str, table: dict, key: str, rule: str) -> bool:
        v = table.get(key)
        if not isinstance(v, bool):
            self.fail(entry, f"'{key}' must be true or false, got {v!r}", rule)
        return v

    def entries(self, doc: dict, key: str, known_top: tuple, rule: str) -> list:
        for k in doc:
            if k not in known_top:
                self.fail(f"[{k}]", f"unknown table{did_you_mean(k, known_top)}; known: "
                          f"{', '.join('[[' + t + ']]' for t in known_top)}", rule)
        rows = doc.get(key, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            self.fail(f"[[{key}]]", "must be an array of tables ([[" + key + "]] entries)", rule)
        return rows


def _entry(kind: str, i: int, table) -> str:
    """How an error names entry i of a file: its number, and its name when it has one."""
    name = table.get("name") if isinstance(table, dict) else None
    return f"{kind} {i + 1}" + (f" ({name})" if isinstance(name, str) and name.strip() else "")


def _toml(cset: ComponentSet, name: str) -> dict:
    return cset.read_toml(name)


def _actions(cset: ComponentSet) -> list:
    f = _File(cset, "actions.toml")
    doc = _toml(cset, f.file)
    rule = "The Basic Pieces; A1"
    for k in doc:
        if k not in (*ACTION_TYPES, "wilds"):
            f.fail(f"[{k}]", f"unknown card type{did_you_mean(k, (*ACTION_TYPES, 'wilds'))}; "
                   f"known: {', '.join(ACTION_TYPES)}, wilds", rule)
    cards = []
    for t, key in enumerate(ACTION_TYPES):
        if key not in doc:
            f.fail(f"[{key}]", "is missing: every type needs its values and copies", rule)
        sec = doc[key]
        f.keys(f"[{key}]", sec, ("values", "copies"), rule)
        values, copies = sec.get("values"), sec.get("copies")
        for name, lst in (("values", values), ("copies", copies)):
            if not isinstance(lst, list) or not lst:
                f.fail(f"[{key}]", f"'{name}' must be a non-empty list of integers, got {lst!r}", rule)
        if len(values) != len(copies):
            f.fail(f"[{key}]", f"'values' has {len(values)} entries but 'copies' has {len(copies)}", rule)
        seen = set()
        for i in range(len(values)):
            entry = f"[{key}] entry {i + 1}"
            v = f.int(entry, {"values": values[i]}, "values", 1, 9, rule)
            n = f.int(entry, {"copies": copies[i]}, "copies", 0, S.MAX_CARDS, rule)
            if v in seen:
                f.fail(entry, f"value {v} is listed twice; give its copies once", rule)
            seen.add(v)
            cards += [(t, v)] * n
    if "wilds" in doc:
        f.keys("[wilds]", doc["wilds"], ("copies",), "A2")
        cards += [(S.WILD, 0)] * f.int("[wilds]", doc["wilds"], "copies", 0, S.MAX_CARDS, "A2", default=0)
    if not 1 <= len(cards) <= S.MAX_CARDS:
        f.fail("the deck", f"{len(cards)} action cards; the engine holds 1..{S.MAX_CARDS}", rule)
    return cards


def _treasures(cset: ComponentSet) -> list:
    f = _File(cset, "treasures.toml")
    rule = "The Basic Pieces; A3"
    treasures = []
    names = set()
    for i, c in enumerate(f.entries(_toml(cset, f.file), "card", ("card",), rule)):
        entry = _entry("card", i, c)
        f.keys(entry, c, ("name", "infamy", "count", "weighted"), rule)
        name = f.str(entry, c, "name", rule)
        if name in names:
            f.fail(entry, f"'{name}' is listed twice; give its count once", rule)
        names.add(name)
        infamy = f.int(entry, c, "infamy", 0, 20, "Treasure cards are worth Infamy at the end; A3")
        count = f.int(entry, c, "count", 1, S.MAX_TREASURES, rule)
        weighted = f.bool(entry, c, "weighted", "Getting started 2: the no-weight cards; A3")
        if name == "Doubloon" and not weighted:
            f.fail(entry, "must be weighted: two carried Doubloons leave room for 6 action cards",
                   "Hand Size example, SOTR-186")
        treasures += [(name, infamy, weighted)] * count
    if not 1 <= len(treasures) <= S.MAX_TREASURES:
        f.fail("the deck", f"{len(treasures)} treasure cards; the engine holds 1..{S.MAX_TREASURES}", rule)
    return treasures


def _quests(cset: ComponentSet, kinds: set) -> list:
    f = _File(cset, "quests.toml")
    rule = "Quests; A4"
    quests = []
    for i, q in enumerate(f.entries(_toml(cset, f.file), "quest", ("quest",), rule)):
        entry = f"quest {i + 1}"
        f.keys(entry, q, ("port", "treasure", "infamy"), rule)
        port = f.int(entry, q, "port", 0, S.MAX_PLAYERS - 1, "Quests: the Port listed; A4")
        kind = f.str(entry, q, "treasure", rule, default="any")
        if kind != "any" and kind not in kinds:
            f.fail(entry, f"asks for '{kind}', which is not a card of "
                   f"{cset.where('treasures.toml')}{did_you_mean(kind, kinds)}; known: "
                   f"{', '.join(sorted(kinds))} or \"any\"", "Quests: Delivery spends a Treasure card; A4")
        infamy = f.int(entry, q, "infamy", 1, 30, "Quests: the Infamy listed on the card; A4")
        quests.append((port, kind, infamy))
    if len(quests) > S.MAX_QUESTS:
        f.fail("the deck", f"{len(quests)} quests; the engine holds at most {S.MAX_QUESTS}", rule)
    return quests


def _quirks(cset: ComponentSet) -> list:
    f = _File(cset, "quirks.toml")
    rule = "Quirks; A15"
    quirks = []
    for i, q in enumerate(f.entries(_toml(cset, f.file), "quirk", ("quirk",), rule)):
        entry = _entry("quirk", i, q)
        f.keys(entry, q, ("name", "effect", "amount", "worth"), rule)
        name = f.str(entry, q, "name", rule)
        effect = f.str(entry, q, "effect", rule)
        if effect not in S.QUIRK_EFFECTS:
            f.fail(entry, f"unknown effect '{effect}'{did_you_mean(effect, S.QUIRK_EFFECTS)}; "
                   f"known: {', '.join(S.QUIRK_EFFECTS)}", rule)
        amount = f.int(entry, q, "amount", 1, 10, rule, default=1)
        worth = f.float(entry, q, "worth", 0.0, 10.0, "a bot's liking, A28", default=1.0)
        quirks.append((name, effect, amount, worth))
    if len(quirks) > S.MAX_QUIRKS:
        f.fail("the deck", f"{len(quirks)} quirks; the engine holds at most {S.MAX_QUIRKS}", rule)
    return quirks


def _panel(cset: ComponentSet) -> tuple:
    f = _File(cset, "map.txt")
    rule = "Getting started 3; A5"
    rows = []
    for n, line in enumerate(cset.read_text(f.file).splitlines(), 1):
        text = line.strip()
        if not text or (text.startswith("#") and set(text) - MAP_CHARS):
            continue  # a blank line or a comment (a '#' line that is not all map squares)
        bad = sorted(set(text) - MAP_CHARS)
        if bad:
            f.fail(f"line {n}", f"unknown square '{bad[0]}'; a row is made of . # P X", rule)
        if rows and len(text) != len(rows[0][1]):
            f.fail(f"line {n}", f"{len(text)} squares, but the panel's first row has {len(rows[0][1])}", rule)
        rows.append((n, text))
    panel = tuple(r for _, r in rows)
    if not panel:
        f.fail("the panel", "no map rows", rule)
    if len(panel) * len(panel[0]) > PANEL_SQUARES:
        f.fail("the panel", f"{len(panel)}x{len(panel[0])} squares; the engine holds {PANEL_SQUARES} per panel", rule)
    for ch, what in (("P", "Port"), ("X", "X")):
        found = [n for n, r in rows for _ in range(r.count(ch))]
        if len(found) != 1:
            at = f" (lines {', '.join(map(str, found))})" if found else ""
            f.fail("the panel", f"{len(found)} {what} squares{at}; a panel shows exactly one Port and one X", rule)
    return panel


@functools.cache
def load(value: str = "standard") -> Components:
    """The component set `value` ("standard", "alt-<name>" or a folder), checked."""
    cset = ComponentSet.open(FOLDER, value)
    cards = _actions(cset)
    treasures = _treasures(cset)
    quests = _quests(cset, {t[0] for t in treasures})
    quirks = _quirks(cset)
    panel = _panel(cset)
    return Components(tuple(cards), tuple(treasures), tuple(quests), tuple(quirks), panel,
                      cset.raw(FILES), {f: cset.where(f) for f in FILES})


def check_for(comp: Components, values: dict, players: int):
    """The cross-checks that depend on the player count and the variant: the cards a set-up
    step names, enough quests and action cards to deal, every Port and X reachable by sea."""
    skirmish = bool(values.get("skirmish"))
    where = comp.where
    have = {}
    for name, _inf, weighted in comp.treasures:
        have.setdefault(name, [0, 0])[0 if weighted else 1] += 1
    if skirmish:
        for name, n in (("Treasure Chest", 1), ("Exotic Goods", 2), ("Doubloon", 2)):
            if sum(have.get(name, [0, 0])) < n:
                raise InputError(f"{where['treasures.toml']}: '{name}': Skirmish uses {n}, the file has "
                                 f"{sum(have.get(name, [0, 0]))} (Skirmish Mode: the 6 Treasure cards)")
    else:
        if players >= 4 and have.get("Doubloon", [0, 0])[0] < 1:
            raise InputError(f"{where['treasures.toml']}: 'Doubloon': {players} players remove one weighted "
                             f"Doubloon, the file has none (Getting started 2)")
        if not any(w for _n, _i, w in comp.treasures):
            raise InputError(f"{where['treasures.toml']}: no weighted treasure card: the treasure deck "
                             f"would be empty (Getting started 2)")
        if len(comp.quests) < players:
            raise InputError(f"{where['quests.toml']}: {len(comp.quests)} quests, but {players} players are "
                             f"dealt {players} (Getting started 5)")
    hand = int(values.get("hand_size", 8)) + (1 if values.get("bidding_start") else 0)
    if len(comp.cards) < players * hand:
        raise InputError(f"{where['actions.toml']}: {len(comp.cards)} action cards cannot deal {hand} to each "
                         f"of {players} pirates (Getting started 1)")
    grid = board(comp, players)
    dist = _steps(grid, False)
    w = len(grid[0])
    spots = [(r * w + c, ch) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in "PX"]
    for a, ach in spots:
        if ach != "X":
            continue
        for b, bch in spots:
            if dist[a, b] >= S.FAR:
                raise InputError(
                    f"{where['map.txt']}: at {players} players the {'Port' if bch == 'P' else 'X'} of panel "
                    f"{b % w // len(comp.panel[0]) + 1} cannot be reached by sea from the X of panel "
                    f"{a % w // len(comp.panel[0]) + 1} (Move; A6)")


def board(comp: Components, players: int) -> list[str]:
    """The folded map: one panel per player side by side (A5)."""
    return ["".join([row] * players) for row in comp.panel]


def treasure_deck(comp: Components, players: int, skirmish: bool) -> tuple[list[int], list[int], int]:
    """The treasure deck as (cards always in it, the pool the rest is picked from, how many are
    picked at random each game): Getting started 2, or Skirmish's 6 cards (A9, A10)."""
    ids = list(range(len(comp.treasures)))
    if skirmish:
        def take(name, n):
            return [i for i in ids if comp.treasures[i][0] == name][:n]
        fixed = take("Treasure Chest", 1) + take("Exotic Goods", 2) + take("Doubloon", 2)
        return fixed, [i for i in ids if i not in fixed], 1  # "1 random other card" (A9)
    fixed = [i for i in ids if comp.treasures[i][2]]
    if players >= 4:
        fixed.remove(next(i for i in fixed if comp.treasures[i][0] == "Doubloon"))
    light = [i for i in ids if not comp.treasures[i][2]]
    return fixed, light, min(len(light), 1 if players == 4 else 2)  # shuffled no-weight cards (A10)


def _steps(grid: list[str], ghost: bool) -> np.ndarray:
    """Moves between every two squares (a read-only table, computed once per map)."""
    return _steps_of(tuple(grid), ghost)


@functools.lru_cache(maxsize=8)
def _steps_of(grid: tuple[str, ...], ghost: bool) -> np.ndarray:
    h, w = len(grid), len(grid[0])
    n = h * w
    dist = np.full((n, n), S.FAR, dtype=np.int64)
    for start in range(n):
        if grid[start // w][start % w] == "#" and not ghost:
            continue
        dist[start, start] = 0
        q = deque([start])
        while q:
            a = q.popleft()
            r, c = divmod(a, w)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = (r + dr) % h, (c + dc) % w  # wrapping to the opposite edge is one move (A6)
                b = rr * w + cc
                if not ghost and grid[rr][cc] == "#":
                    continue
                if dist[start, b] > dist[start, a] + 1:
                    dist[start, b] = dist[start, a] + 1
                    q.append(b)
    # every step can be sailed back (orthogonal, wrapping both ways), so a to b is b to a:
    # engine.toward reads the steps to its goal on the goal's row
    assert (dist == dist.T).all(), "the steps table must be symmetric"
    dist.flags.writeable = False
    return dist


def _sight(grid: list[str]) -> np.ndarray:
    """Shots: same square or one of the 8 around, no island on the line (A7: a diagonal is
    blocked when either square beside the shared corner is land). Read-only, once per map."""
    return _sight_of(tuple(grid))


@functools.lru_cache(maxsize=8)
def _sight_of(grid: tuple[str, ...]) -> np.ndarray:
    h, w = len(grid), len(grid[0])
    n = h * w
    sight = np.zeros((n, n), dtype=np.int64)
    for a in range(n):
        r, c = divmod(a, w)
        if grid[r][c] == "#":
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < h and 0 <= cc < w) or grid[rr][cc] == "#":
                    continue
                if dr and dc and (grid[r][cc] == "#" or grid[rr][c] == "#"):
                    continue
                sight[a, rr * w + cc] = 1
    sight.flags.writeable = False
    return sight


def compile_arrays(comp: Components, values: dict, players: int) -> tuple:
    check_for(comp, values, players)
    skirmish = bool(values.get("skirmish"))
    grid = board(comp, players)
    h, w = len(grid), len(grid[0])
    n = h * w
    K = np.zeros((S.K_ROWS, S.KW), dtype=np.int64)
    K[S.META, S.N_CARDS] = len(comp.cards)
    K[S.META, S.N_SQ] = n
    K[S.META, S.WIDTH] = w
    K[S.META, S.HEIGHT] = h
    for i, (t, v) in enumerate(comp.cards):
        K[S.CARD_TYPE, i] = t
        K[S.CARD_VALUE, i] = v if t != S.WILD else int(values.get("wild_value", 2))
    for i, (_name, inf, weighted) in enumerate(comp.treasures):
        K[S.TREAS_INF, i] = inf
        K[S.TREAS_WEIGHT, i] = 1 if weighted else 0
    names = sorted({t[0] for t in comp.treasures})
    for i, t in enumerate(comp.treasures):
        K[S.TREAS_KIND, i] = names.index(t[0])
    fixed, pool, pick = treasure_deck(comp, players, skirmish)
    K[S.META, S.N_TREAS] = len(fixed)
    K[S.META, S.BOX_T] = len(comp.treasures)
    K[S.TDECK_IDS, : len(fixed)] = fixed
    K[S.META, S.N_POOL] = len(pool)
    K[S.META, S.N_PICK] = pick
    K[S.TPOOL, : len(pool)] = pool
    # one quest per player dealt from the quest deck (Getting started 5); none in Skirmish
    K[S.META, S.N_Q] = 0 if skirmish else min(players, len(comp.quests))
    K[S.META, S.N_QBOX] = len(comp.quests)
    for i, (p, kind, inf) in enumerate(comp.quests):
        K[S.Q_PORT, i] = p % players
        K[S.Q_KIND, i] = -1 if kind == "any" else names.index(kind)
        K[S.Q_INF, i] = inf
    quirks = comp.quirks if values.get("quirks") else ()
    K[S.META, S.N_QUIRKS] = len(quirks)
    for i, (_name, effect, amount, worth) in enumerate(quirks):
        K[S.QK_EFFECT, i] = S.QUIRK_EFFECTS.index(effect)
        K[S.QK_AMOUNT, i] = amount
        K[S.QK_WORTH, i] = round(100 * worth)
    if quirks:
        K[S.META, S.QUIRK_MEAN] = round(100 * sum(q[3] for q in quirks) / len(quirks))
    ports, xs = [], []
    for sq in range(n):
        ch = grid[sq // w][sq % w]
        K[S.SQ_KIND, sq] = {".": S.WATER, "#": S.LAND, "P": S.PORT, "X": S.XSPOT}[ch]
        if ch == "P":
            K[S.SQ_INDEX, sq] = len(ports)
            ports.append(sq)
        elif ch == "X":
            K[S.SQ_INDEX, sq] = len(xs)
            xs.append(sq)
    K[S.META, S.NPORTS] = len(ports)
    K[S.META, S.N_X] = len(xs)
    K[S.PORT_SQ, : len(ports)] = ports
    K[S.X_SQ, : len(xs)] = xs
    K[S.DIST0 : S.DIST0 + n, :n] = _steps(grid, False)
    K[S.GDIST0 : S.GDIST0 + n, :n] = _steps(grid, True)
    K[S.SIGHT0 : S.SIGHT0 + n, :n] = _sight(grid)
    return (K,)
